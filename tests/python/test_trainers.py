"""The trainers' call shapes (issue 29): each failure mode the issue
found in verl, TRL, OpenRLHF and SkyRL-SQL usage is a test here. The same
shapes are run against the real verl and TRL code by
tests/python/trainers_upstream.py (make trainers-test)."""

import asyncio
import importlib.util
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import threading

import pytest

import spidereval
from spidereval import SpiderevalError, reward, trainers

GOLD = "SELECT city, count(*) AS n FROM customers GROUP BY city"
GOOD = "Counting per city:\n```sql\nSELECT city, count(*) FROM customers GROUP BY 1\n```\n"
WRONG = "```sql\nSELECT customer_name FROM customers\n```"
SLOW = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
        "SELECT count(*) FROM c")
COMPONENT_KEYS = {"score", "format_ok", "executed", "match", "similarity",
                  "cell_recall", "cell_precision", "empty_match", "rows"}


# ------------------------------------------------------------ verl: loading

def _load_by_path(path, name):
    """What verl's load_module does with custom_reward_function.path (and
    OpenRLHF with --remote_rm_url): a module from a file, no package."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _reward_file(root):
    """python/spidereval/reward.py, or the installed wheel's under
    tests/run_wheel.sh (SPIDEREVAL_INSTALLED=1)."""
    if os.environ.get("SPIDEREVAL_INSTALLED") == "1":
        return os.path.join(os.path.dirname(spidereval.__file__), "reward.py")
    return os.path.join(root, "python", "spidereval", "reward.py")


def test_reward_file_loads_by_path_without_its_package(root, shop_db):
    """The file path docs/python.md gives (the installed reward.py), loaded
    in a fresh interpreter where `spidereval` is not importable: it finds
    its package beside itself (before: 'attempted relative import with no
    known parent package')."""
    code = (
        "import importlib.util, sys\n"
        "spec = importlib.util.spec_from_file_location('custom_module_1', %r)\n"
        "m = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(m)\n"
        "print(m.compute_score('spider', %r, %r, {'db_path': %r}),\n"
        "      m.reward_func is not None, 'spidereval' in sys.modules)\n"
        % (_reward_file(root), GOOD, GOLD, shop_db))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=env, cwd="/")
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["1.0", "True", "True"]


def test_reward_file_by_path_in_this_process(root, shop_db):
    m = _load_by_path(_reward_file(root),
                      "custom_module_2")
    assert m.compute_score("spider", GOOD, GOLD, {"db_path": shop_db}) == 1.0
    assert m.compute_score is reward.compute_score  # one implementation


def test_pkg_path_module():
    """pkg://spidereval.reward: verl imports the module by name."""
    m = importlib.import_module("spidereval.reward")
    assert m.compute_score is trainers.compute_score
    assert m.compute_score_batch is trainers.compute_score_batch


# ------------------------------------------------------- verl: compute_score

def test_reward_kwargs_and_router_kwargs(shop_db):
    # custom_reward_function.reward_kwargs arrive as keywords
    assert reward.compute_score("spider", WRONG, GOLD, {"db_path": shop_db},
                                rules="spider2", timeout=5,
                                weights={"executed": 0.2, "match": 0.8}) == pytest.approx(0.2)
    # the reward loop's router kwargs (a reward model's address, tokenizer)
    assert reward.compute_score(data_source="spider", solution_str=GOOD, ground_truth=GOLD,
                                extra_info={"db_path": shop_db},
                                reward_router_address="127.0.0.1:30000",
                                reward_model_tokenizer=object()) == 1.0


def test_unknown_keyword_is_logged_once(shop_db, caplog):
    with caplog.at_level(logging.WARNING, logger="spidereval"):
        for _ in range(3):
            reward.compute_score("s", GOOD, GOLD, {"db_path": shop_db}, timout=5)
    msgs = [r.getMessage() for r in caplog.records if "timout" in r.getMessage()]
    assert len(msgs) == 1 and "not a spidereval option" in msgs[0]


def test_none_in_extra_info_means_absent(shop_db):
    # as parquet gives a column that one sample lacks; verl adds num_turns
    # and rollout_reward_scores
    info = {"db_path": shop_db, "db_file": None, "condition_cols": None, "ignore_order": None,
            "rules": None, "timeout": None, "index": 7, "split": "train",
            "num_turns": None, "rollout_reward_scores": {}}
    assert reward.compute_score("spider", GOOD, GOLD, info) == 1.0
    gt = {"sql": GOLD, "db_path": None, "condition_cols": None}
    assert reward.compute_score("spider", GOOD, gt, {"db_path": shop_db}) == 1.0


def test_numpy_values_from_parquet(shop_db):
    np = pytest.importorskip("numpy")
    info = {"db_path": np.str_(shop_db), "condition_cols": np.array([0]),
            "ignore_order": np.bool_(True)}
    assert reward.compute_score("spider", GOOD, np.str_(GOLD), info) == 1.0


def test_float_or_dict_with_components(shop_db):
    assert isinstance(reward.compute_score("s", GOOD, GOLD, {"db_path": shop_db}), float)
    d = reward.compute_score("s", GOOD, GOLD, {"db_path": shop_db}, details=True)
    assert set(d) == COMPONENT_KEYS and d["score"] == 1.0 and d["match"] == 1.0
    # the same keys for every outcome (verl's batch manager appends each key
    # per sample: a missing key would misalign its lists)
    for answer in (WRONG, "no sql here", "```sql\nSELECT nope\n```"):
        d2 = reward.compute_score_details("s", answer, GOLD, {"db_path": shop_db})
        assert set(d2) == COMPONENT_KEYS and all(isinstance(v, float) for v in d2.values())


def test_db_id_and_db_root(shop_db, tmp_path):
    root = str(tmp_path)
    os.makedirs(os.path.join(root, "shopdb"))
    shutil.copy(shop_db, os.path.join(root, "shopdb", "shopdb.sqlite"))
    assert reward.compute_score("s", GOOD, GOLD, {"db_id": "shopdb"}, db_root=root) == 1.0
    assert reward.compute_score("s", GOOD, GOLD, {"db_id": "shopdb", "db_root": root}) == 1.0


# ------------------------------------------------ configuration errors raise

def test_mistyped_database_raises_naming_the_sample(tmp_path):
    missing = str(tmp_path / "shop.sqlite3")
    with pytest.raises(trainers.GoldError) as e:
        reward.compute_score("spider", GOOD, GOLD, {"db_path": missing, "index": 41})
    msg = str(e.value)
    assert "sample 41" in msg and "data_source 'spider'" in msg and missing in msg
    assert "no such database" in msg and "on_gold_error='log'" in msg


def test_failing_gold_raises_naming_the_sample(shop_db):
    with pytest.raises(trainers.GoldError, match=r"sample 3 .*gold SQL fails.*no such column: cty"):
        reward.compute_score("spider", GOOD, "SELECT cty FROM customers",
                             {"db_path": shop_db, "index": 3})


def test_gold_errors_counted_and_logged_once(tmp_path, caplog):
    missing = str(tmp_path / "nope.sqlite")
    before = sum(v for (db, _), v in trainers.gold_errors.items() if db == missing)
    with caplog.at_level(logging.ERROR, logger="spidereval"):
        scores = [reward.compute_score("s", GOOD, GOLD, {"db_path": missing},
                                       on_gold_error="log") for _ in range(5)]
    assert scores == [0.0] * 5
    assert sum(v for (db, _), v in trainers.gold_errors.items() if db == missing) == before + 5
    logged = [r for r in caplog.records if missing in r.getMessage()]
    assert len(logged) == 1
    with pytest.raises(SpiderevalError, match="on_gold_error must be"):
        reward.compute_score("s", GOOD, GOLD, {"db_path": missing}, on_gold_error="ignore")


def test_no_database_for_a_sample_raises():
    with pytest.raises(trainers.GoldError, match="no database for this sample"):
        reward.compute_score("s", GOOD, GOLD, {"db_path": None})


# ------------------------------------------------------- verl: batch, async

def test_batch_reward_manager_signature(shop_db):
    n = 6
    out = reward.compute_score_batch(
        data_sources=["spider"] * n, solution_strs=[GOOD, WRONG] * 3,
        ground_truths=[GOLD] * n,
        extra_infos=[{"db_path": shop_db, "rollout_reward_scores": {}}] * n)
    assert out == [1.0, 0.0] * 3
    out = reward.compute_score_batch(["s"] * 2, [GOOD, WRONG], [GOLD] * 2,
                                     [{"db_path": shop_db}] * 2, details=True, workers=2)
    assert [d["match"] for d in out] == [1.0, 0.0] and set(out[1]) == COMPONENT_KEYS


def test_batch_gold_error_names_its_position(shop_db, tmp_path):
    infos = [{"db_path": shop_db}] * 3 + [{"db_path": str(tmp_path / "typo.sqlite")}]
    with pytest.raises(trainers.GoldError, match=r"sample 3 .*typo\.sqlite"):
        reward.compute_score_batch(["s"] * 4, [GOOD] * 4, [GOLD] * 4, infos)
    out = reward.compute_score_batch(["s"] * 4, [GOOD] * 4, [GOLD] * 4, infos,
                                     on_gold_error="log")
    assert out == [1.0, 1.0, 1.0, 0.0]


def test_batch_lengths_checked(shop_db):
    with pytest.raises(SpiderevalError, match="2 solution_strs but 1 data_sources"):
        reward.compute_score_batch(["s"], [GOOD, GOOD], [GOLD, GOLD], [{"db_path": shop_db}] * 2)


def test_async_compute_score(shop_db):
    async def main():
        return await asyncio.gather(*[
            reward.compute_score_async("s", a, GOLD, {"db_path": shop_db}, timeout=5)
            for a in (GOOD, WRONG, GOOD)])
    assert asyncio.run(main()) == [1.0, 0.0, 1.0]
    assert asyncio.iscoroutinefunction(reward.compute_score_async)


# ---------------------------------------------------------------------- TRL

class Logs:
    def __init__(self):
        self.extra, self.metrics = {}, {}

    def log_extra(self, column, values):
        self.extra.setdefault(column, []).extend(values)

    def log_metric(self, name, value):
        self.metrics.setdefault(name, []).append(value)


def test_trl_plain_and_conversational(shop_db):
    logs = Logs()
    cols = dict(db_path=[shop_db] * 2, gold_sql=[GOLD] * 2)
    extras = dict(trainer_state=object(), completion_ids=[[1, 2], [3]],
                  log_extra=logs.log_extra, log_metric=logs.log_metric)
    assert reward.trl_reward(prompts=["q", "q"], completions=[GOOD, WRONG], **cols, **extras) == [1.0, 0.0]
    chat = [[{"role": "assistant", "content": GOOD}],
            [{"role": "assistant", "content": [{"type": "text", "text": "```sql\nSELECT city, "},
                                               {"type": "text", "text": "count(*) FROM customers GROUP BY 1\n```"}]}]]
    prompts = [[{"role": "user", "content": "per city?"}]] * 2
    assert reward.trl_reward(prompts=prompts, completions=chat, **cols, **extras) == [1.0, 1.0]
    assert logs.metrics["trl_reward/match"] == [0.5, 1.0]
    assert logs.extra["trl_reward_error"][0] == "" and logs.extra["trl_reward_error"][1]
    assert reward.trl_reward.__name__ == "trl_reward"


def test_trl_multi_turn_takes_the_last_assistant_message(shop_db):
    conv = [{"role": "assistant", "content": "let me look", "tool_calls": []},
            {"role": "tool", "content": "```sql\nSELECT 1\n```"},
            {"role": "assistant", "content": GOOD}]
    assert reward.trl_reward(prompts=["q"], completions=[conv], db_path=[shop_db], gold=[GOLD]) == [1.0]


def test_trl_async_variant(shop_db):
    f = reward.trl_reward_async
    assert asyncio.iscoroutinefunction(f.__call__)
    out = asyncio.run(f(prompts=["q"] * 2, completions=[GOOD, WRONG],
                        db_path=[shop_db] * 2, gold_sql=[GOLD] * 2))
    assert out == [1.0, 0.0]


def test_trl_factory_timeout_workers_rules_weights(shop_db):
    seen = set()

    def extract(text):
        seen.add(threading.current_thread().name)
        return text

    f = reward.make_trl_reward(timeout=0.3, workers=4, rules="spider2-strict",
                               weights={"format_ok": 0.1, "match": 0.9},
                               extract=extract, name="sql_exec")
    assert f.__name__ == "sql_exec"
    n = 8
    res = f.results(prompts=["q"] * n, completions=[SLOW] + ["SELECT city, count(*) FROM customers GROUP BY 1"] * (n - 1),
                    db_path=[shop_db] * n, gold_sql=[GOLD] * n)
    assert res[0].error_info == "Execution Error: timeout after 0.3 s"
    assert res[0].score == pytest.approx(0.1) and res[1].score == pytest.approx(1.0)
    assert all(r.rules == "spider2-strict" for r in res)
    # the completions ran on several worker threads at once
    assert len({t for t in seen if t.startswith("spidereval")}) > 1
    with pytest.raises(SpiderevalError, match="unknown option"):
        trainers.TrlReward(timout=3)


def test_trl_columns_checked(shop_db):
    with pytest.raises(SpiderevalError, match="one value per completion"):
        reward.trl_reward(prompts=["q"] * 2, completions=[GOOD] * 2, db_path=[shop_db], gold_sql=[GOLD] * 2)
    with pytest.raises(trainers.GoldError, match="sample 0: no database"):
        reward.trl_reward(prompts=["q"], completions=[GOOD], gold_sql=[GOLD])


def test_trl_gold_error_raises(shop_db, tmp_path):
    with pytest.raises(trainers.GoldError, match="sample 1, db_path"):
        reward.trl_reward(prompts=["q"] * 2, completions=[GOOD] * 2,
                          db_path=[shop_db, str(tmp_path / "x.db")], gold_sql=[GOLD] * 2)


def test_plain_reward_function(shop_db):
    assert reward.reward("q", GOOD, db_path=shop_db, gold_sql=GOLD) == 1.0
    assert reward.reward("q", [{"role": "assistant", "content": GOOD}], db_file=shop_db,
                         gold=GOLD, timeout=5) == 1.0


# ----------------------------------------------------------------- OpenRLHF

def test_openrlhf_reward_func(shop_db):
    import json
    prompt = "<|user|>per city?<|assistant|>"
    label = json.dumps({"sql": GOLD, "db_path": shop_db})
    out = reward.reward_func([prompt + GOOD, prompt + WRONG], [prompt] * 2, [label] * 2)
    rewards = out["rewards"]
    rewards = rewards.tolist() if hasattr(rewards, "tolist") else rewards
    assert rewards == [1.0, 0.0] and set(out["extra_logs"]) == {"format_ok", "executed", "match"}


# ---------------------------------------------------------------- SkyRL-SQL

def test_skyrl_compute_score_single(shop_db):
    sol = "<think>count per city</think>\n<solution>SELECT city, count(*) FROM customers GROUP BY city</solution>"
    assert reward.compute_score_single(sol, GOLD, shop_db) == 1.0
    assert reward.compute_score_single("<think>x</think><solution>SELECT 1</solution>", GOLD, shop_db) == 0.0
    # SkyRL's format reward: no (or two) <solution> is -1
    assert reward.compute_score_single("SELECT city FROM customers", GOLD, shop_db) == -1.0
    assert reward.compute_score_single("<solution>a</solution><solution>b</solution>", GOLD, shop_db) == -1.0
    # SkyRL's whole format rule: a <think> block, <think> after each observation
    bare = "<solution>SELECT city, count(*) FROM customers GROUP BY city</solution>"
    assert reward.compute_score_single(bare, GOLD, shop_db) == -1.0
    turns = ("<think>look</think><sql>SELECT 1</sql><observation>1</observation>\n <think>ok</think>"
             + bare)
    assert reward.compute_score_single(turns, GOLD, shop_db) == 1.0
    assert reward.compute_score_single(turns.replace("\n <think>ok</think>", " so "), GOLD, shop_db) == -1.0
    # its dataset's db_file key, through verl's shape too
    assert reward.compute_score("synsql", sol, GOLD, {"db_file": shop_db}, extract="solution") == 1.0


# --------------------------------------------------------- reward semantics

def test_extraction_choices(shop_db):
    two = "```sql\nSELECT 1\n```\nno, rather:\n```sql\nSELECT city, count(*) FROM customers GROUP BY 1\n```"
    r = reward.SqlReward()
    assert not r(two, shop_db, GOLD).match  # official: the first fence
    assert reward.SqlReward(extract="last_fence")(two, shop_db, GOLD).match
    ans = "<think>..</think><answer>```sql\nSELECT city, count(*) FROM customers GROUP BY 1\n```</answer>"
    assert reward.SqlReward(extract="answer")(ans, shop_db, GOLD).match
    assert reward.SqlReward(extract="answer")("<answer>SELECT city, count(*) FROM customers "
                                              "GROUP BY 1</answer>", shop_db, GOLD).match
    no = reward.SqlReward(extract="answer")(GOOD, shop_db, GOLD)
    assert not no.format_ok and no.error_info.startswith("Format Error")
    sol = reward.SqlReward(extract="solution")
    assert sol("<solution>\nSELECT city, count(*) FROM customers GROUP BY 1\n</solution>", shop_db, GOLD).match
    assert not sol("<solution><sql>SELECT 1</sql></solution>", shop_db, GOLD).format_ok
    cb = reward.SqlReward(extract=lambda t: t.split("SQL:", 1)[1] if "SQL:" in t else None)
    assert cb("SQL: SELECT city, count(*) FROM customers GROUP BY 1", shop_db, GOLD).match
    assert not cb("nothing", shop_db, GOLD).format_ok
    assert reward.SqlReward(extract="last_fence").sql_of("```\nSELECT 2\n```") == "SELECT 2"
    with pytest.raises(SpiderevalError, match="unknown extract 'xml'"):
        reward.SqlReward(extract="xml")
    with pytest.raises(SpiderevalError, match="returned a int"):
        reward.SqlReward(extract=lambda t: 3)(GOOD, shop_db, GOLD)


def test_format_penalty_and_named_weights(shop_db):
    r = reward.SqlReward(format_penalty=-1.0, weights={"format_ok": 0.1, "executed": 0.1, "match": 0.8})
    assert r("  ", shop_db, GOLD).score == -1.0
    # (the official extraction takes a text without a fence as the SQL)
    assert r("no sql at all", shop_db, GOLD).score == pytest.approx(0.1)
    tagged = reward.SqlReward(extract="answer", format_penalty=-0.5)
    assert tagged("no sql at all", shop_db, GOLD).score == -0.5
    assert r("```sql\nSELECT nope\n```", shop_db, GOLD).score == pytest.approx(0.1)
    assert r(WRONG, shop_db, GOLD).score == pytest.approx(0.2)
    assert r(GOOD, shop_db, GOLD).score == pytest.approx(1.0)
    with pytest.raises(SpiderevalError, match="format_penalty must be a negative number"):
        reward.SqlReward(format_penalty=0.5)
    with pytest.raises(SpiderevalError, match="unknown reward component 'matches'"):
        reward.SqlReward(weights={"matches": 1})


def test_empty_match_component_and_option(shop_db):
    empty = "SELECT city FROM customers WHERE 0"
    gold_empty = "SELECT city FROM customers WHERE city = 'Atlantis'"
    r = reward.SqlReward()(empty, shop_db, gold_empty)
    assert r.empty_match and r.match and r.components["empty_match"] == 1
    assert reward.SqlReward()(GOOD, shop_db, GOLD).empty_match is False
    assert reward.SqlReward()(empty, shop_db, GOLD).empty_match is False
    # spider2-snow scores zero rows 0; empty_match=True gives full credit
    assert not reward.SqlReward(rules="spider2-snow")(empty, shop_db, gold_empty).match
    assert reward.SqlReward(rules="spider2-snow", empty_match=True)(empty, shop_db, gold_empty).score == 1.0
    # empty_match=False: no credit for empty == empty
    no = reward.SqlReward(empty_match=False)(empty, shop_db, gold_empty)
    assert (no.match, no.score, no.empty_match) == (False, 0.0, True)
    assert "both results are empty" in no.error_info
    # as a weighted component
    w = reward.SqlReward(empty_match=False, weights={"match": 1.0, "empty_match": 0.5})
    assert w(empty, shop_db, gold_empty).score == 0.5
    # a gold result given as rows
    assert reward.SqlReward()(empty, shop_db, (["city"], [])).empty_match
    with pytest.raises(SpiderevalError, match="empty_match must be"):
        reward.SqlReward(empty_match="yes")


def test_gold_cached_by_file_state_and_sql(shop_db, tmp_path):
    db = str(tmp_path / "shop.sqlite")
    shutil.copy(shop_db, db)
    r = reward.SqlReward()
    for _ in range(3):
        assert r(GOOD, db, GOLD).match
    assert r.gold_runs == 1
    r(GOOD, db, GOLD + " ")  # another gold SQL: its own entry
    assert r.gold_runs == 2
    w = sqlite3.connect(db)
    w.execute("DELETE FROM customers WHERE city = 'Lima'")
    w.commit()
    w.close()
    # (the key is the file's device, inode, size and mtime: a write within
    # one timestamp tick that keeps the size is not seen; a later one is)
    st = os.stat(db)
    os.utime(db, ns=(st.st_atime_ns, st.st_mtime_ns + 1000000))
    r(GOOD, db, GOLD)  # the file changed: run again
    assert r.gold_runs == 3


def test_batches_in_a_forked_child(shop_db):
    """A trainer that forks (a data loader, multiprocessing) after scoring
    a batch: the child's batches run on new threads, not on the parent's
    pool, whose threads the child does not have."""
    import multiprocessing
    assert reward.trl_reward(prompts=None, completions=[GOOD, WRONG] * 2, db_path=[shop_db] * 4,
                             gold_sql=[GOLD] * 4) == [1.0, 0.0] * 2
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()

    def child():
        q.put(reward.trl_reward(prompts=None, completions=[GOOD, WRONG] * 2,
                                db_path=[shop_db] * 4, gold_sql=[GOLD] * 4))
    p = ctx.Process(target=child)
    p.start()
    out = q.get(timeout=60)
    p.join(60)
    assert out == [1.0, 0.0] * 2 and p.exitcode == 0
