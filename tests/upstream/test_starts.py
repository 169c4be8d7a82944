"""docs/python.md's "Start with your trainer" blocks, run as written: the
verl YAML through verl's real get_custom_reward_fn (the pre-0.9 batch
block through verl 0.6.1's, in test_verl_old.py), the TRL block with
GRPOTrainer standing in as a harness that calls reward_funcs exactly as
TRL's _calculate_rewards does (keywords read from the installed TRL), the
OpenRLHF, SkyRL-SQL, serve and Ray blocks as they are."""

import asyncio
import json
import os
import re
import sys
import types
import urllib.request

import pytest

from test_trainers_upstream import (GOLD, GOOD, WRONG, _manager_call, _trl_shape,  # noqa: F401
                                    get_custom_reward_fn, import_utils, trl, trl_utils,
                                    verl)


def blocks(root, lang):
    text = open(os.path.join(root, "docs", "python.md")).read()
    start = text.index("## Start with your trainer")
    end = text.index("\n## ", start + 1)  # the next section
    return re.findall(r"```%s\n(.*?)\n```\n" % lang, text[start:end], re.S)


def test_five_lines_each(root):
    for b in blocks(root, "yaml") + blocks(root, "python"):
        assert len(b.splitlines()) <= 5, b


def test_verl_yaml(root, verl, get_custom_reward_fn, shop_db):
    from omegaconf import OmegaConf
    single, batch = blocks(root, "yaml")
    cfg = OmegaConf.create(single)
    fn = get_custom_reward_fn(cfg)
    node, calls = _manager_call(verl, ["workers", "reward_manager", "naive.py"],
                                "NaiveRewardManager", "__call__")
    (names, _), = calls
    values = {"data_source": "spider", "solution_str": GOOD, "ground_truth": GOLD,
              "extra_info": {"db_path": shop_db, "num_turns": None, "rollout_reward_scores": {}}}
    out = fn(**{k: values[k] for k in names})
    assert out["score"] == 1.0 and out["match"] == 1.0
    # the async name the comment gives, for the reward loop
    cfg.reward.custom_reward_function.name = "compute_score_async"
    assert asyncio.run(get_custom_reward_fn(cfg)(**{k: values[k] for k in names}))["score"] == 1.0
    # the batch block (verl before 0.9): tests/upstream/test_verl_old.py


def test_trl_block(root, trl, trl_utils, shop_db, monkeypatch):
    """GRPOTrainer stands in as a harness: its train() calls each reward
    function with the keywords TRL's _calculate_rewards uses (read from the
    installed TRL), over the dataset's rows, sync or async as TRL decides."""
    added, excluded, calls = _trl_shape(trl)
    results = []

    class GRPOTrainer:
        def __init__(self, model, reward_funcs, train_dataset, args):
            self.funcs, self.rows = reward_funcs, train_dataset

        def train(self):
            prompts = [r["prompt"] for r in self.rows]
            completions = [GOOD if i % 2 == 0 else WRONG for i in range(len(prompts))]
            kw = {k: [r[k] for r in self.rows] for k in self.rows[0] if k not in excluded}
            kw.update({k: {"log_extra": lambda c, v: None, "log_metric": lambda n, v: None}.get(
                k, None) for k in added})
            for f in self.funcs:
                name = trl_utils["get_callable_name"](f)
                args = dict(prompts=prompts, completions=completions, completion_ids=[[0]] * len(prompts))
                out = f(**args, **kw)
                if trl_utils["is_async_callable"](f):
                    out = asyncio.run(out)
                results.append((name, out))

    fake = types.ModuleType("trl")
    fake.GRPOTrainer, fake.GRPOConfig = GRPOTrainer, lambda **kw: kw
    monkeypatch.setitem(sys.modules, "trl", fake)
    dataset = [{"prompt": "per city?", "db_path": shop_db, "gold_sql": GOLD}] * 4
    block, = [b for b in blocks(root, "python") if "GRPOTrainer" in b]
    exec(compile(block, "docs/python.md", "exec"), {"model": "m", "dataset": dataset})
    assert results == [("spidereval_sql", [1.0, 0.1, 1.0, 0.1])]


def test_openrlhf_block(root, shop_db):
    block, = [b for b in blocks(root, "python") if "remote_rm_url" in b]
    env = {"prompt": "<|user|>cities?<|assistant|>",
           "response": "```sql\nSELECT city FROM customers\n```"}
    cwd = os.getcwd()
    os.chdir(root)
    try:
        exec(compile(block, "docs/python.md", "exec"), env)
    finally:
        os.chdir(cwd)
    rewards = env["out"]["rewards"]
    assert list(rewards) == [1.0]
    # OpenRLHF loads the file by its path and calls reward_func
    import importlib.util
    spec = importlib.util.spec_from_file_location("reward_func", env["remote_rm_url"])
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    label = json.dumps({"sql": GOLD, "db_path": shop_db})
    assert list(m.reward_func(["q" + GOOD], ["q"], [label])["rewards"]) == [1.0]


def test_skyrl_block(root, shop_db):
    block, = [b for b in blocks(root, "python") if "compute_score_single" in b]
    env = {"chat_history_str": "<think>per city</think><solution>SELECT city, count(*) FROM "
                               "customers GROUP BY city</solution>",
           "gold_sql": GOLD, "db_file": shop_db}
    exec(compile(block, "docs/python.md", "exec"), env)
    assert env["reward"] == 1.0


def test_serve_block(root, shop_db):
    block, = [b for b in blocks(root, "python") if "spidereval\", \"serve\"" in b]
    env = {}
    cwd = os.getcwd()
    os.chdir(root)
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.path.join(root, "python")
    try:
        exec(compile(block, "docs/python.md", "exec"), env)
    finally:
        os.chdir(cwd)
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old
    try:
        body = {"response": {"output": [{"type": "message", "role": "assistant",
                                         "content": [{"type": "output_text", "text": GOOD}]}]},
                "db_path": "shop.sqlite", "gold_sql": GOLD}
        req = urllib.request.Request(env["url"] + "/verify", data=json.dumps(body).encode())
        with urllib.request.urlopen(req, timeout=60) as r:
            assert json.loads(r.read())["reward"] == 1.0
        with urllib.request.urlopen(env["url"] + "/health", timeout=60) as r:
            assert json.loads(r.read())["workers"] == 4
    finally:
        env["server"].terminate()
        env["server"].wait(10)


def test_ray_block(root, shop_db, monkeypatch):
    ray = pytest.importorskip("ray")
    block, = [b for b in blocks(root, "python") if "RewardPool" in b]
    monkeypatch.syspath_prepend(os.path.join(root, "examples"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(sys.path))
    env = {"completions": [GOOD, WRONG] * 3, "db_paths": [shop_db] * 6, "gold_sqls": [GOLD] * 6}
    try:
        exec(compile(block, "docs/python.md", "exec"), env)
        assert env["rewards"] == [1.0, 0.0] * 3
        env["pool"].close()
    finally:
        ray.shutdown()
