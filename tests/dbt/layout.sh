#!/usr/bin/env bash
# layout.sh DIR CORPUS: a small run in the official Spider2-DBT layout
# under DIR (res/results_metadata.jsonl, res/<id>/out.duckdb,
# gold/spider2_eval.jsonl, gold/<id>/g.duckdb), its databases links to the
# corpus databases of CORPUS (build/dbt_corpus). Six instances: a pass, a
# pass under ignore_orders, a row-order failure, a missing gold database,
# a missing predicted table, and an instance of the results that the gold
# does not have (plus a gold instance not submitted).
set -eu
dir=$1
corpus=$(cd "$2" && pwd)
rm -rf "$dir"
mkdir -p "$dir/res" "$dir/gold"
for i in dbt001 dbt002 dbt003 dbt004 dbt005 dbt006; do mkdir -p "$dir/res/$i" "$dir/gold/$i"; done
ln -s "$corpus/pred_same.duckdb" "$dir/res/dbt001/out.duckdb"
ln -s "$corpus/pred_reversed.duckdb" "$dir/res/dbt002/out.duckdb"
ln -s "$corpus/pred_reversed.duckdb" "$dir/res/dbt003/out.duckdb"
ln -s "$corpus/pred_same.duckdb" "$dir/res/dbt004/out.duckdb"
ln -s "$corpus/pred_jitter.duckdb" "$dir/res/dbt005/out.duckdb"
for i in dbt001 dbt002 dbt003 dbt005 dbt006; do ln -s "$corpus/gold.duckdb" "$dir/gold/$i/g.duckdb"; done
cat > "$dir/gold/spider2_eval.jsonl" <<'JSONL'
{"instance_id": "dbt001", "evaluation": {"func": "duckdb_match", "parameters": {"gold": "g.duckdb", "condition_tabs": ["t_int", "t_time"], "condition_cols": [[0, 1], [0, 2, 3]], "ignore_orders": [true, true]}}}
{"instance_id": "dbt002", "evaluation": {"func": "duckdb_match", "parameters": {"gold": "g.duckdb", "condition_tabs": ["t_dec"], "condition_cols": [[0, 1, 2]], "ignore_orders": [true]}}}
{"instance_id": "dbt003", "evaluation": {"func": "duckdb_match", "parameters": {"gold": "g.duckdb", "condition_tabs": ["t_dec"], "condition_cols": [[0, 1, 2]], "ignore_orders": [false]}}}
{"instance_id": "dbt004", "evaluation": {"func": "duckdb_match", "parameters": {"gold": "g.duckdb", "condition_tabs": ["t_int"], "condition_cols": [[0]], "ignore_orders": [false]}}}
{"instance_id": "dbt005", "evaluation": {"func": "duckdb_match", "parameters": {"gold": "g.duckdb", "condition_tabs": ["t_small"], "condition_cols": [[0]], "ignore_orders": [false]}}}
{"instance_id": "dbt006", "evaluation": {"func": "duckdb_match", "parameters": {"gold": "g.duckdb", "condition_tabs": ["t_str"], "condition_cols": [[0]], "ignore_orders": [true]}}}
JSONL
cat > "$dir/res/results_metadata.jsonl" <<'JSONL'
{"instance_id": "dbt001", "answer_type": "file", "answer_or_path": "out.duckdb"}
{"instance_id": "dbt002", "answer_type": "file", "answer_or_path": "out.duckdb"}
{"instance_id": "dbt003", "answer_type": "file", "answer_or_path": "out.duckdb"}
{"instance_id": "dbt004", "answer_type": "file", "answer_or_path": "out.duckdb"}
{"instance_id": "dbt005", "answer_type": "file", "answer_or_path": "out.duckdb"}
{"instance_id": "dbt999", "answer_type": "file", "answer_or_path": "out.duckdb"}
JSONL
