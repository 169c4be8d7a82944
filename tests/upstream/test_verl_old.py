"""The older verl beside the pinned one (verl 0.6.1 of
scripts/verl-old-requirements.txt, in the venv's old/ folder, read by
file): its get_custom_reward_fn loads the reward file by path as
'custom_module' (no pkg:// before 0.7; docs/python.md's setup failed there
with 'attempted relative import'), and its naive and batch managers'
compute_score calls (reward_model.reward_manager=batch) are made with their
own keywords."""

import functools
import glob
import importlib
import importlib.util
import inspect
import os
import sys
import typing

import pytest

from test_trainers_upstream import (GOLD, GOOD, WRONG, calls_of, functions, method, reward_py,
                                    tree)


@pytest.fixture(scope="module")
def old_verl():
    found = sorted(glob.glob(os.path.join(sys.prefix, "old", "verl-*", "verl")))
    if not found:
        pytest.fail("no older verl in %s/old (scripts/trainers-venv.sh)" % sys.prefix)
    return found[-1]


@pytest.fixture
def get_custom_reward_fn(old_verl, monkeypatch):
    monkeypatch.delitem(sys.modules, "custom_module", raising=False)
    ns = {"sys": sys, "os": os, "importlib": importlib, "inspect": inspect,
          "partial": functools.partial, "Optional": typing.Optional, "Any": typing.Any}
    functions(os.path.join(old_verl, "trainer", "ppo", "reward.py"),
              ["_call_with_kwargs", "get_custom_reward_fn"], ns)
    yield ns["get_custom_reward_fn"]
    sys.modules.pop("custom_module", None)


def cfg(root, name, **kw):
    from omegaconf import OmegaConf
    return OmegaConf.create({"custom_reward_function": {
        "path": reward_py(root), "name": name, "reward_kwargs": kw}})


def test_file_path_loader_and_naive_manager(old_verl, get_custom_reward_fn, root, shop_db):
    fn = get_custom_reward_fn(cfg(root, "compute_score", timeout=5))
    assert sys.modules["custom_module"].__file__ == reward_py(root)
    node = method(os.path.join(old_verl, "workers", "reward_manager", "naive.py"),
                  "NaiveRewardManager", "__call__")
    (names, starred), = calls_of(node, "compute_score")
    values = {"data_source": "spider", "solution_str": GOOD, "ground_truth": GOLD,
              "extra_info": {"db_path": shop_db, "num_turns": None, "rollout_reward_scores": {}}}
    assert not set(names) - set(values) and not starred
    assert fn(**{k: values[k] for k in names}) == 1.0


def test_batch_manager(old_verl, get_custom_reward_fn, root, shop_db):
    fn = get_custom_reward_fn(cfg(root, "compute_score_batch"))
    node = method(os.path.join(old_verl, "workers", "reward_manager", "batch.py"),
                  "BatchRewardManager", "verify")
    (names, starred), = calls_of(node, "compute_score")
    assert starred == ["self.reward_kwargs"]
    values = {"data_sources": ["s"] * 3, "solution_strs": [GOOD, WRONG, GOOD],
              "ground_truths": [GOLD] * 3,
              "extra_infos": [{"db_path": shop_db, "rollout_reward_scores": {}}] * 3}
    assert not set(names) - set(values)
    # reward_model.reward_kwargs reach the batch function as the manager's own
    out = fn(**{k: values[k] for k in names}, details=True, workers=2)
    assert [o["score"] for o in out] == [1.0, 0.0, 1.0]


def test_docs_batch_block(old_verl, get_custom_reward_fn, root, shop_db):
    """docs/python.md's batch block as written, its path the file the
    comment's command prints (here the source tree's reward.py)."""
    import yaml
    from omegaconf import OmegaConf
    from test_starts import blocks
    doc = yaml.safe_load(blocks(root, "yaml")[1])
    assert doc["reward_model"]["reward_manager"] == "batch"
    assert doc["custom_reward_function"]["path"].endswith("/spidereval/reward.py")
    doc["custom_reward_function"]["path"] = reward_py(root)
    fn = get_custom_reward_fn(OmegaConf.create(doc))
    node = method(os.path.join(old_verl, "workers", "reward_manager", "batch.py"),
                  "BatchRewardManager", "verify")
    (names, _), = calls_of(node, "compute_score")
    values = {"data_sources": ["s"] * 2, "solution_strs": [GOOD, WRONG], "ground_truths": [GOLD] * 2,
              "extra_infos": [{"db_path": shop_db, "rollout_reward_scores": {}}] * 2}
    assert fn(**{k: values[k] for k in names}) == [1.0, 0.0]
