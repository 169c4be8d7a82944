#!/usr/bin/python3
"""gen_cases.py: writes the cases of the dbt parity corpus (cases.jsonl) to
stdout. A case is one duckdb_match call as the official evaluate.py makes it:
{"case", "pred", "gold", "params"}; pred and gold name databases built from
the SQL scripts beside this file ("pred_same" is pred_same.sql's database,
"gold" is gold.sql's; "missing" names no file, "not_duckdb" a text file);
params are the eval jsonl's parameters besides gold (each key present only
when the case gives it). Deterministic; no dependencies."""
import json

TABLES = {  # gold table: its number of columns
    "t_int": 3, "t_small": 5, "t_huge": 3, "t_dec": 5, "t_dbl": 3, "t_str": 2,
    "t_bool": 3, "t_time": 5, "t_date": 2, "t_ns": 3, "t_nested": 3, "t_enum": 2,
    "t_dup": 2, "t_wide": 25, "t_long": 4, "t_mint": 3, "t_one": 2,
    "t_one_full": 2, "t_empty": 2, "t_mixed": 4, "t_uuid": 3, "t_chars": 2,
    "v_int": 2,
}
PREDS = ["pred_same", "pred_reversed", "pred_scrambled", "pred_types", "pred_jitter"]

cases = []


def add(name, pred, params, gold="gold"):
    cases.append({"case": name, "pred": pred, "gold": gold, "params": params})


for pred in PREDS:
    for t, n in TABLES.items():
        ccs = [[], [0], [n - 1], [-1]]
        if n >= 2:
            ccs.append([0, 1])
        if n >= 3:
            ccs.append([n - 1, 0])
        for cc in ccs:
            for ig in (False, True):
                add(f"{pred}:{t}:{json.dumps(cc)}:{ig}", pred,
                    {"condition_tabs": [t], "condition_cols": [cc], "ignore_orders": [ig]})
        # each column alone, order ignored: the frame-level typing of one column
        for k in range(min(n, 6)):
            add(f"{pred}:{t}:only{k}", pred,
                {"condition_tabs": [t], "condition_cols": [[k]], "ignore_orders": [True]})

# lists of one element (pred_lists.sql): each gold column alone against
# each prediction's table, both orders; the gold is pred_lists itself
for pred in ("pred_lists", "pred_lists_other"):
    for t, n in (("t_l1", 14), ("t_l1_rev", 14), ("t_l1_arr", 3)):
        for k in range(n):
            for ig in (False, True):
                add(f"{pred}:lists:{t}:{k}:{ig}", pred,
                    {"condition_tabs": [t], "condition_cols": [[k]], "ignore_orders": [ig]},
                    gold="pred_lists")

# more lists of one element (pred_lists2.sql): FLOAT, HUGEINT, TIMESTAMPTZ,
# nested and NULL elements, DATE/TIMESTAMP lists against plain values,
# STRUCTs; the gold is pred_lists2 itself
for pred in ("pred_lists2", "pred_lists2_other"):
    for k in range(12):
        for ig in (False, True):
            add(f"{pred}:lists2:t_l2:{k}:{ig}", pred,
                {"condition_tabs": ["t_l2"], "condition_cols": [[k]], "ignore_orders": [ig]},
                gold="pred_lists2")

for t in ("p_mnull_none", "p_mnull_vnull", "p_mnull_one", "p_vnull_none", "p_vnull_nan",
          "p_vnull_str", "p_flt_dbl", "p_st_nan", "p_st_str", "p_st_bool", "p_st_big",
          "p_st_neg", "p_st_null", "p_lts_ts", "p_ldate_d", "p_ltz_tz", "p_lts_str"):
    for pred in ("pred_lists2", "pred_lists2_other"):
        add(f"{pred}:lists2:{t}", pred, {"condition_tabs": [t], "condition_cols": [[0]],
            "ignore_orders": [False]}, gold="pred_lists2")

# several tables at once, parameters absent or null
add("same:all_tables_null", "pred_same", {"condition_tabs": None})
add("same:all_tables_absent", "pred_same", {})
add("same:two_tables", "pred_same", {"condition_tabs": ["t_int", "t_str"],
    "condition_cols": [[0], [0, 1]], "ignore_orders": [True, False]})
add("same:two_tables_no_cols", "pred_same", {"condition_tabs": ["t_int", "t_str"]})
add("reversed:two_tables", "pred_reversed", {"condition_tabs": ["t_int", "t_str"],
    "condition_cols": [[0], [0, 1]], "ignore_orders": [True, False]})
add("reversed:two_tables_both_ignored", "pred_reversed", {"condition_tabs": ["t_int", "t_str"],
    "condition_cols": [[0], [0, 1]], "ignore_orders": [True, True]})
add("same:cols_null", "pred_same", {"condition_tabs": ["t_int"], "condition_cols": None,
    "ignore_orders": None})
# the asserts
add("same:orders_short", "pred_same", {"condition_tabs": ["t_int", "t_str"], "ignore_orders": [True]})
add("same:cols_long", "pred_same", {"condition_tabs": ["t_int"], "condition_cols": [[0], [1]]})
add("same:orders_not_list", "pred_same", {"condition_tabs": ["t_int"], "ignore_orders": True})
add("reversed:orders_string", "pred_reversed", {"condition_tabs": ["t_int"], "ignore_orders": "x"})
add("reversed:orders_truthy", "pred_reversed", {"condition_tabs": ["t_int", "t_str"],
    "ignore_orders": [1, "yes"]})
add("reversed:orders_falsy", "pred_reversed", {"condition_tabs": ["t_int"], "ignore_orders": [0]})
# condition_cols corners
for cc in ([99], [-4], [-3], [1.0], [True, False, True], [True], [None], [[0]], [], None, 0, 1, -1, 5):
    add(f"same:t_int:cc={json.dumps(cc)}", "pred_same", {"condition_tabs": ["t_int"],
        "condition_cols": [cc], "ignore_orders": [False]})
for cc in (0, 1):
    for ig in (False, True):
        add(f"chars:t_chars:cc={cc}:{ig}", "pred_chars", {"condition_tabs": ["t_chars"],
            "condition_cols": [cc], "ignore_orders": [ig]})
        add(f"chars:t_str:cc={cc}:{ig}", "pred_chars", {"condition_tabs": ["t_str"],
            "condition_cols": [cc], "ignore_orders": [ig]})
add("same:t_empty:scalar", "pred_same", {"condition_tabs": ["t_empty"], "condition_cols": [0]})
# tables and files that are not there
add("jitter:missing_pred_table", "pred_jitter", {"condition_tabs": ["t_small"]})
add("same:missing_gold_table", "pred_same", {"condition_tabs": ["t_nowhere"]})
add("same:mixed_case_name", "pred_same", {"condition_tabs": ["Mixed Case"]})
add("same:quoted_name", "pred_same", {"condition_tabs": ['"Mixed Case"']})
add("same:tabs_string", "pred_same", {"condition_tabs": "t_int"})
add("same:tabs_number", "pred_same", {"condition_tabs": [1]})
add("missing_pred_file", "missing", {"condition_tabs": ["t_int"]})
add("not_duckdb_pred", "not_duckdb", {"condition_tabs": ["t_int"]})
add("missing_gold_file", "pred_same", {"condition_tabs": ["t_int"]}, gold="missing")
add("missing_gold_file_all", "pred_same", {}, gold="missing")
add("gold_vs_itself", "gold", {"condition_tabs": ["t_int", "t_dec", "t_time", "t_nested"]})

for c in cases:
    print(json.dumps(c))
