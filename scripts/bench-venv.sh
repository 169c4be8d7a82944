#!/usr/bin/env bash
# scripts/bench-venv.sh: the virtual environment make bench runs upstream
# evaluators in (bench/run_peers_bench.sh), made once per machine under
# ~/.cache/spidereval with pinned versions; prints its path. mini_dev's
# evaluation imports func_timeout, psycopg2 and pymysql (the last two only
# connect for PostgreSQL and MySQL).
set -eu
. "$(dirname "$0")/venv-lib.sh"
install_into() { pip_into "$1" func_timeout==4.3.5 psycopg2-binary==2.9.9 PyMySQL==1.1.1; }
v=$venv_cache/bench-venv-1
made_venv "$v" "" /usr/bin/python3
echo "$v"
