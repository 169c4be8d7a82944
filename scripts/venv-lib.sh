# scripts/venv-lib.sh: what the venv scripts share (source it). Each script
# defines install_into DIR (the pip installs of its pinned packages) and
# calls   made_venv DIR STAMP PYTHON [VENV_FLAGS...]
# which makes DIR with PYTHON -m venv once: again only when DIR has no
# complete venv or its stamp (.complete) differs from STAMP. Pins that
# change name a new DIR (a hash) or a new STAMP. Messages go to stderr:
# the scripts print only the path they were asked for.
#   venv_cache: ~/.cache/spidereval ($SPIDEREVAL_CACHE, or
#               $XDG_CACHE_HOME/spidereval), where per-machine venvs live
venv_cache=${SPIDEREVAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/spidereval}
made_venv() {
  local dir=$1 stamp=$2 py=$3
  shift 3
  if [ -x "$dir/bin/python" ] && [ -f "$dir/.complete" ] &&
    [ "$(cat "$dir/.complete")" = "$stamp" ]; then
    return 0
  fi
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")"
  "$py" -m venv "$@" "$dir" >&2
  install_into "$dir"
  printf '%s' "$stamp" >"$dir/.complete"
}
# pip_into DIR ARGS...: pip install ARGS into the venv DIR, quietly
pip_into() {
  local dir=$1
  shift
  "$dir/bin/python" -m pip install -q --disable-pip-version-check "$@" >&2
}
