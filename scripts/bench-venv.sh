#!/usr/bin/env bash
# scripts/bench-venv.sh: the virtual environment to run the upstream peer
# evaluators in (bench/run_peers_bench.sh), made once per machine under
# ~/.cache/spidereval with pinned versions; prints its path. mini_dev's
# evaluation imports func_timeout, psycopg2 and pymysql (the last two only
# connect for PostgreSQL and MySQL); test-suite-sql-eval's evaluation.py
# imports nltk, sqlparse and tqdm.
set -eu
. "$(dirname "$0")/venv-lib.sh"
install_into() {
  pip_into "$1" func_timeout==4.3.5 psycopg2-binary==2.9.9 PyMySQL==1.1.1 \
    nltk==3.9.1 sqlparse==0.4.2 tqdm==4.66.5
}
v=$venv_cache/bench-venv-2
made_venv "$v" "" /usr/bin/python3
echo "$v"
