"""The execution reward: input forms, rule sets, adapters, bad inputs,
batches in threads and processes."""

import pickle
import time

import pytest

import spidereval
from spidereval import Rows, SpiderevalError, reward

GOLD_SQL = "SELECT city, count(*) AS n FROM customers GROUP BY city"
GOOD = "Counting per city:\n```sql\nSELECT city, count(*) FROM customers GROUP BY 1 ORDER BY 2 DESC\n```\n"
SLOW = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
        "SELECT count(*) FROM c")


def test_fence_and_bare_sql(shop_db):
    r = reward.sql_execution(GOOD, shop_db, GOLD_SQL)
    assert (r.score, r.format_ok, r.executed, r.match, r.error_info) == (1.0, True, True, True, "")
    assert r.similarity == 1 and r.rows == 4 and r.rules == "spider2"
    assert r.components == {"format_ok": 1, "executed": 1, "match": 1, "similarity": 1,
                            "cell_recall": 1, "cell_precision": 1, "empty_match": 0, "rows": 4}
    bare = reward.sql_execution("  SELECT city, count(*) FROM customers GROUP BY 1;  ", shop_db, GOLD_SQL)
    assert bare.match
    # the official rule: ```sql\n(.*?)\n``` (case-sensitive, a newline
    # before the closing fence), its group stripped; else the whole text
    assert reward.extract_sql("x ```sql\n SELECT 1 \n``` y") == "SELECT 1"
    assert reward.extract_sql("x ```SQL\nSELECT 1\n``` y ```sql\nSELECT 2```") == \
        "x ```SQL\nSELECT 1\n``` y ```sql\nSELECT 2```"
    assert reward.extract_sql("```sql\r\nSELECT 3\r\n```") == "SELECT 3"
    assert reward.extract_sql("```sql\nSELECT 3") == "```sql\nSELECT 3"
    assert reward.sql_execution("```sql\nSELECT 3", shop_db, GOLD_SQL).format_ok
    assert not reward.sql_execution("  \n ", shop_db, GOLD_SQL).format_ok


def test_order_and_condition_cols(shop_db):
    assert not reward.sql_execution(GOOD, shop_db, GOLD_SQL, ignore_order=False).match
    only_city = reward.sql_execution("SELECT city FROM customers GROUP BY 1", shop_db, GOLD_SQL,
                                     condition_cols=[0])
    assert only_city.match
    r = reward.sql_execution("SELECT city FROM customers GROUP BY 1", shop_db, GOLD_SQL)
    assert not r.match and r.executed and 0 < r.similarity < 1
    assert r.error_info.startswith("Result Error: gold column 1 ('n') has no match")


def test_gold_results_in_every_form(shop_db):
    conn = spidereval.connect(shop_db)
    rows = conn.execute("SELECT city, count(*) FROM customers GROUP BY city").fetchall()
    cols = ["city", "n"]
    csv = reward.SqlReward().gold_result(shop_db, GOLD_SQL)
    assert isinstance(csv, bytes)
    for gold in (csv, Rows(cols, rows), (cols, rows), [dict(zip(cols, r)) for r in rows]):
        assert reward.sql_execution(GOOD, shop_db, gold).match, gold
    pd = pytest.importorskip("pandas")
    assert reward.sql_execution(GOOD, shop_db, pd.DataFrame(rows, columns=cols)).match


def test_gold_sql_runs_once(shop_db, tmp_path):
    import shutil
    db = str(tmp_path / "shop.sqlite")
    shutil.copy(shop_db, db)
    r = reward.SqlReward()
    assert r(GOOD, db, GOLD_SQL).match
    assert len(r._gold) == 1
    r(GOOD, db, GOLD_SQL)
    assert len(r._gold) == 1
    # the cache is keyed by the file's state: a changed database is re-run
    import sqlite3
    w = sqlite3.connect(db)
    w.execute("INSERT INTO customers (customer_id, customer_name, city) VALUES (999, 'x', 'Recife')")
    w.commit()
    w.close()
    assert not r(GOOD.replace("ORDER BY 2 DESC", "LIMIT 4"), db, GOLD_SQL).match
    assert len(r._gold) == 2


def test_rule_sets(shop_db):
    strict = reward.sql_execution("SELECT city, count(*) FROM customers GROUP BY 1", shop_db, GOLD_SQL,
                                  rules="spider2-strict")
    assert strict.match and strict.rules == "spider2-strict"
    assert reward.sql_execution(GOOD, shop_db, GOLD_SQL, rules="spider2-snow").match
    if "bird" not in reward.available_rules():
        with pytest.raises(SpiderevalError, match="unknown rule set 'bird'"):
            reward.sql_execution(GOOD, shop_db, GOLD_SQL, rules="bird")


def test_weights_and_partial_credit(shop_db):
    r = reward.SqlReward(weights={"format_ok": 0.1, "executed": 0.2, "similarity": 0.7})
    partial = r("SELECT city FROM customers GROUP BY 1", shop_db, GOLD_SQL)
    assert 0.3 < partial.score < 1.0
    failed = r("SELECT nope FROM customers", shop_db, GOLD_SQL)
    assert failed.score == pytest.approx(0.1)
    with pytest.raises(SpiderevalError, match="unknown reward component 'style'"):
        reward.SqlReward(weights={"style": 1})


def test_cell_recall_and_precision(shop_db):
    # the gold: 4 cities x (city, n) = 8 cells
    fewer = reward.sql_execution("SELECT city FROM customers GROUP BY 1", shop_db, GOLD_SQL)
    assert (fewer.cell_recall, fewer.cell_precision) == (0.5, 1.0)
    more = reward.sql_execution("SELECT city, count(*), 0 AS extra FROM customers GROUP BY 1",
                                shop_db, GOLD_SQL)
    assert more.match and more.cell_recall == 1.0
    assert more.cell_precision == pytest.approx(8 / 12)
    other = reward.sql_execution("SELECT customer_name FROM customers", shop_db, GOLD_SQL)
    assert (other.cell_recall, other.cell_precision) == (0.0, 0.0)
    failed = reward.sql_execution("SELECT nope FROM customers", shop_db, GOLD_SQL)
    assert (failed.similarity, failed.cell_recall, failed.cell_precision) == (None, None, None)
    assert failed.components["cell_recall"] is None
    r = reward.SqlReward(weights={"match": 0.5, "cell_recall": 0.25, "cell_precision": 0.25})
    assert r("SELECT city, count(*), 0 FROM customers GROUP BY 1", shop_db, GOLD_SQL).score == \
        pytest.approx(0.5 + 0.25 + 0.25 * 8 / 12)
    assert r("SELECT city FROM customers GROUP BY 1", shop_db, GOLD_SQL).score == \
        pytest.approx(0.25 * 0.5 + 0.25)
    assert r("SELECT nope", shop_db, GOLD_SQL).score == 0.0


# ---------------------------------------------------------------- bad inputs

def test_no_sql_in_the_completion(shop_db):
    # an empty fence ("```sql\n```" has no newline before the closing
    # fence: the official rule takes the whole text, which fails to run)
    for text in ("", "   ", "```sql\n\n```", "```sql\n  \n```", None):
        r = reward.sql_execution(text, shop_db, GOLD_SQL)
        assert (r.score, r.format_ok, r.executed) == (0.0, False, False)
        assert r.error_info == "Format Error: no SQL in the completion"


def test_unparsable_completion(shop_db):
    r = reward.sql_execution("I think the answer is 42.", shop_db, GOLD_SQL)
    assert (r.score, r.format_ok, r.executed) == (0.0, True, False)
    assert r.error_info.startswith("Execution Error: near \"I\": syntax error")
    two = reward.sql_execution("SELECT 1; SELECT 2", shop_db, GOLD_SQL)
    assert two.error_info == "Execution Error: You can only execute one statement at a time."


def test_no_such_database(shop_db, tmp_path):
    r = reward.sql_execution(GOOD, str(tmp_path / "missing.sqlite"), GOLD_SQL)
    assert r.score == 0 and not r.executed
    assert r.error_info.startswith("Gold Error: no such database '")


def test_gold_that_fails(shop_db):
    r = reward.sql_execution(GOOD, shop_db, "SELECT cty FROM customers")
    assert r.score == 0 and r.error_info == \
        "Gold Error: the gold SQL fails: sql_result_csv: no such column: cty"
    r = reward.sql_execution(GOOD, shop_db, b"")
    assert r.score == 0 and "EmptyDataError" in r.error_info
    r = reward.sql_execution(GOOD, shop_db, GOLD_SQL, condition_cols=[5])
    assert r.score == 0 and r.error_info.startswith("Python Script Error:IndexError")


def test_timeout(shop_db):
    t = time.monotonic()
    r = reward.sql_execution(SLOW, shop_db, GOLD_SQL, timeout=0.3)
    assert time.monotonic() - t < 3
    assert (r.score, r.executed) == (0.0, False)
    assert r.error_info == "Execution Error: timeout after 0.3 s"


def test_huge_result(shop_db):
    huge = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
            "SELECT x, printf('%.200c', 'x') FROM c")
    t = time.monotonic()
    r = reward.sql_execution(huge, shop_db, GOLD_SQL, timeout=0.5)
    assert time.monotonic() - t < 5
    assert r.score == 0 and not r.executed and r.error_info.startswith("Execution Error:")


def test_empty_result(shop_db):
    empty = "SELECT city FROM customers WHERE 0"
    # spider2 (lite's SQLite rule): zero rows are compared like any result
    r = reward.sql_execution(empty, shop_db, GOLD_SQL)
    assert r.executed and not r.match and r.error_info.startswith("Result Error")
    assert reward.sql_execution(empty, shop_db, empty).match
    # spider2-snow (Snowflake's rule): zero rows score 0, unless empty_ok
    r = reward.sql_execution(empty, shop_db, empty, rules="spider2-snow")
    assert r.executed and not r.match
    assert r.error_info == "No data found for the specified query."
    ok = reward.sql_execution(empty, shop_db, empty, rules="spider2-snow", empty_ok=True)
    assert ok.match


def test_writes_are_refused(shop_db):
    r = reward.sql_execution("DELETE FROM customers", shop_db, GOLD_SQL)
    assert not r.executed and r.error_info.startswith("Execution Error:")
    assert reward.sql_execution(GOOD, shop_db, GOLD_SQL).match


# ------------------------------------------------------------------ batches

def items(shop_db, n):
    out = []
    for i in range(n):
        sql = GOOD if i % 3 else "SELECT city FROM customers"
        out.append({"completion": sql, "db_path": shop_db, "gold": GOLD_SQL})
    return out


def test_batch_in_order(shop_db):
    its = items(shop_db, 30)
    want = [reward.sql_execution(i["completion"], i["db_path"], i["gold"]) for i in its]
    assert reward.rewards(its) == want
    assert reward.rewards(its, workers=4) == want
    assert reward.rewards([(i["completion"], i["db_path"], i["gold"]) for i in its], workers=2) == want


def test_batch_in_processes(shop_db):
    its = items(shop_db, 12)
    want = reward.rewards(its)
    assert reward.SqlReward().rewards(its, workers=2, processes=True) == want
    r = pickle.loads(pickle.dumps(reward.SqlReward(rules="spider2-strict", timeout=5)))
    assert r.rules == "spider2-strict" and r.timeout == 5


def test_a_slow_query_holds_only_its_worker(shop_db):
    its = [{"completion": SLOW, "db_path": shop_db, "gold": GOLD_SQL}] + items(shop_db, 40)
    r = reward.SqlReward(timeout=1.5)
    r.rewards(its[1:2])  # the gold cached
    done = []
    orig = r._batch

    def timed(chunk):
        res = orig(chunk)
        done.append((time.monotonic(), len(chunk)))
        return res
    r._batch = timed
    t = time.monotonic()
    out = r.rewards(its, workers=2)
    assert out[0].error_info == "Execution Error: timeout after 1.5 s"
    assert all(o.executed for o in out[1:])
    # the threads take chunks of 6 items (41 over 2 threads, about 4
    # chunks each): the 35 fast ones outside the slow one's chunk finished
    # long before it, the slow one delayed only its own chunk
    assert [n for _, n in done].count(6) == 6 and sum(n for _, n in done) == 41
    assert sorted(done)[5][0] - t < 1.2 and sorted(done)[6][0] - t >= 1.4


# ----------------------------------------------------------------- adapters

def test_verl_compute_score(shop_db):
    assert reward.compute_score("spider2", GOOD, GOLD_SQL, {"db_path": shop_db}) == 1.0
    assert reward.compute_score("spider2", "SELECT 1", {"sql": GOLD_SQL, "db_path": shop_db}) == 0.0
    d = reward.compute_score_details("spider2", GOOD, GOLD_SQL, {"db_path": shop_db})
    assert d == {"score": 1.0, "format_ok": 1.0, "executed": 1.0, "match": 1.0,
                 "similarity": 1.0, "cell_recall": 1.0, "cell_precision": 1.0,
                 "empty_match": 0.0, "rows": 4.0}
    d = reward.compute_score_details("spider2", "SELECT nope", GOLD_SQL, {"db_path": shop_db})
    assert (d["executed"], d["similarity"], d["cell_recall"], d["cell_precision"]) == \
        (0.0, -1.0, -1.0, -1.0)
    import os
    root, name = os.path.split(os.path.dirname(shop_db))
    with pytest.raises(SpiderevalError, match="no database for this sample"):
        reward.compute_score("spider2", GOOD, GOLD_SQL)


def test_plain_reward_function(shop_db):
    assert reward.reward("How many per city?", GOOD, db_path=shop_db, gold_sql=GOLD_SQL) == 1.0
    chat = [{"role": "assistant", "content": GOOD}]
    assert reward.reward("q", chat, db_path=shop_db, gold=GOLD_SQL) == 1.0


def test_trl_reward_function(shop_db):
    out = reward.trl_reward(prompts=["q1", "q2"], completions=[GOOD, "SELECT 1"],
                            db_path=[shop_db, shop_db], gold_sql=[GOLD_SQL, GOLD_SQL])
    assert out == [1.0, 0.0]


def test_docs_worked_example(root, monkeypatch):
    import re
    monkeypatch.chdir(root)
    text = open("docs/python.md").read()
    block = re.search(r"A worked example.*?```python\n(.*?)\n```\n", text, re.S).group(1)
    exec(compile(block, "docs/python.md", "exec"), {})


def test_overview_example(root, monkeypatch):
    """The tour's Python section (README.md's own example is run as written
    by tests/run_readme.sh)."""
    import re
    monkeypatch.chdir(root)
    text = open("docs/overview.md").read()
    block = re.search(r"## From Python.*?```python\n(.*?)\n```\n", text, re.S).group(1)
    assert len(block.splitlines()) == 5
    batch = [(GOOD, "build/samples/shop.sqlite", GOLD_SQL), ("SELECT 1", "build/samples/shop.sqlite", GOLD_SQL)]
    df = Rows(["a", "b"], [(1, 2)])
    env = {"model_answer": GOOD, "batch": batch, "df": df}
    exec(compile(block, "docs/overview.md", "exec"), env)
    assert env["r"].score == 1.0 and env["r"].cell_precision == 1.0
    assert [x.score for x in env["scores"]] == [1.0, 0.0]


def test_peer_rule_sets(shop_db):
    if "bird" not in reward.available_rules():
        pytest.skip("this bundle has no exec_verdict (BIRD / Spider 1.0 rules)")
    gold = "SELECT DISTINCT city FROM customers"
    r = reward.sql_execution("SELECT city FROM customers", shop_db, gold, rules="bird")
    assert (r.score, r.match, r.executed, r.rules) == (1.0, True, True, "bird")
    r = reward.sql_execution("SELECT customer_name FROM customers", shop_db, gold, rules="bird")
    assert (r.score, r.match, r.executed) == (0.0, False, True) and r.error_info
    r = reward.sql_execution("SELECT nope FROM customers", shop_db, gold, rules="bird")
    assert (r.score, r.executed) == (0.0, False) and r.error_info.startswith("pred")
    r = reward.sql_execution("```sql\nSELECT city FROM customers\n```", shop_db, gold, rules="spider")
    assert r.executed
    r = reward.sql_execution("SELECT city FROM customers", shop_db, "SELECT nope", rules="bird")
    assert r.score == 0 and r.error_info.startswith("Gold Error:")
    with pytest.raises(SpiderevalError, match="needs gold SQL"):
        reward.sql_execution("SELECT 1", shop_db, b"a\n1\n", rules="bird")


# a gold that takes a while, so that the threads of a batch miss the cache
# at the same moment
SLOW_GOLD = ("SELECT city, count(*) AS n FROM customers, (WITH RECURSIVE c(x) AS "
             "(SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < %d) SELECT max(x) FROM c) "
             "GROUP BY city")


def test_each_gold_computed_once_under_threads(shop_db, tmp_path):
    import shutil
    db = str(tmp_path / "shop.sqlite")
    shutil.copy(shop_db, db)
    golds = [SLOW_GOLD % (200000 + k) for k in range(4)]
    # a batch of 8 completions per prompt, 4 prompts, 4 threads
    its = [(GOOD, db, g) for g in golds for _ in range(8)]
    r = reward.SqlReward()
    out = r.rewards(its, workers=4)
    assert r.gold_runs == len(golds)
    assert all(x.match for x in out)
    assert out == reward.SqlReward().rewards(its)
    assert not r._inflight


def test_threads_waiting_on_a_failing_gold(shop_db):
    r = reward.SqlReward()
    bad = "SELECT cty FROM customers, (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL " \
          "SELECT x + 1 FROM c WHERE x < 200000) SELECT max(x) FROM c)"
    out = r.rewards([(GOOD, shop_db, bad)] * 8, workers=4)
    assert r.gold_runs == 1
    assert {x.error_info for x in out} == {"Gold Error: the gold SQL fails: sql_result_csv: no such column: cty"}
    # a failure that will recur is kept
    r(GOOD, shop_db, bad)
    assert r.gold_runs == 1


def test_a_gold_timeout_is_not_kept(shop_db):
    r = reward.SqlReward(timeout=0.2)
    a = r(GOOD, shop_db, SLOW)
    assert a.score == 0 and a.error_info.startswith("Gold Error:") and "timeout after 0.2 s" in a.error_info
    assert not r._gold and not r._inflight
    b = r(GOOD, shop_db, SLOW)
    assert b.error_info == a.error_info
    assert r.gold_runs == 2
