#!/usr/bin/env bash
# scripts/bench-venv.sh: the virtual environment make bench runs upstream
# evaluators in (bench/run_peers_bench.sh), made once per machine under
# ~/.cache/spidereval with pinned versions; prints its path. mini_dev's
# evaluation imports func_timeout, psycopg2 and pymysql (the last two only
# connect for PostgreSQL and MySQL); test-suite-sql-eval's evaluation.py
# imports nltk, sqlparse and tqdm.
set -eu
cache=${XDG_CACHE_HOME:-$HOME/.cache}/spidereval
v=$cache/bench-venv-2
if [ ! -x "$v/bin/python" ] || [ ! -f "$v/.complete" ]; then
  rm -rf "$v"
  /usr/bin/python3 -m venv "$v" >&2
  "$v/bin/pip" install -q --disable-pip-version-check \
    func_timeout==4.3.5 psycopg2-binary==2.9.9 PyMySQL==1.1.1 \
    nltk==3.9.1 sqlparse==0.4.2 tqdm==4.66.5 >&2
  touch "$v/.complete"
fi
echo "$v"
