"""spidereval's reward through the real verl and TRL code (issue 29), in
the venv of scripts/trainers-venv.sh (pinned versions, installed without
their GPU stack).

What runs for real: verl's load_module / load_extern_object (the file is
torch-free and is loaded by its path), verl's get_custom_reward_fn and
_call_with_kwargs(_async) (their source taken from the installed
verl/trainer/ppo/reward.py, whose module-level imports need torch and ray),
TRL's get_callable_name and is_async_callable. What is read from the
installed source: the keywords each reward manager calls the reward
function with (verl's NaiveRewardManager, the reward loop's, the
BatchRewardManager; TRL's GRPOTrainer._calculate_rewards), the keys verl
writes into extra_info and TRL into reward_kwargs. The calls below are made
with exactly those keywords: a trainer release that adds one fails here,
naming it."""

import __future__
import ast
import asyncio
import functools
import importlib
import importlib.util
import inspect
import json
import os
import sys
import typing

import pytest

GOLD = "SELECT city, count(*) AS n FROM customers GROUP BY city"
GOOD = "```sql\nSELECT city, count(*) FROM customers GROUP BY 1\n```"
WRONG = "```sql\nSELECT customer_name FROM customers\n```"


def pkg_dir(name):
    spec = importlib.util.find_spec(name)  # finds, does not import
    if spec is None:
        pytest.fail("%s is not installed in this venv (scripts/trainers-venv.sh)" % name)
    return spec.submodule_search_locations[0]


def load_file(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def tree(path):
    with open(path) as f:
        return ast.parse(f.read(), path)


def functions(path, names, namespace):
    """The top-level functions `names` of a file, compiled from its source
    into namespace (without the file's module-level imports)."""
    t = tree(path)
    nodes = [n for n in t.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
             and n.name in names]
    assert {n.name for n in nodes} == set(names), "%s lacks %s" % (path, names)
    for n in nodes:
        n.decorator_list = []
    # annotations stay strings, as under the files' own
    # `from __future__ import annotations` (they name torch, DictConfig...)
    exec(compile(ast.Module(body=nodes, type_ignores=[]), path, "exec",
                 flags=__future__.annotations.compiler_flag, dont_inherit=True), namespace)
    return namespace


def method(path, cls, name):
    for n in ast.walk(tree(path)):
        if isinstance(n, ast.ClassDef) and n.name == cls:
            for m in n.body:
                if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name == name:
                    return m
    pytest.fail("%s has no %s.%s" % (path, cls, name))


def calls_of(node, callee):
    """Keyword names of every call to <something>.callee or callee inside
    node: [(names, starred)] where starred are the **names."""
    out = []
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            f = n.func
            fname = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if fname == callee:
                names = [k.arg for k in n.keywords if k.arg is not None]
                starred = [ast.unparse(k.value) for k in n.keywords if k.arg is None]
                out.append((names, starred))
    return out


def subscript_keys(node, var):
    """Constant keys written as var[KEY] = ... inside node."""
    keys = []
    for n in ast.walk(node):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Subscript) and ast.unparse(t.value) == var \
                        and isinstance(t.slice, ast.Constant):
                    keys.append(t.slice.value)
    return keys


def dict_keys(node, var):
    """Keys of a dict literal assigned to var inside node."""
    for n in ast.walk(node):
        if isinstance(n, ast.Assign) and any(ast.unparse(t) == var for t in n.targets):
            for d in ast.walk(n.value):
                if isinstance(d, ast.Dict):
                    return [k.value for k in d.keys if isinstance(k, ast.Constant)]
    return []


def reward_py(root):
    return os.path.join(root, "python", "spidereval", "reward.py")


@pytest.fixture
def verl():
    return pkg_dir("verl")


@pytest.fixture
def import_utils(verl, monkeypatch):
    m = load_file(os.path.join(verl, "utils", "import_utils.py"), "verl.utils.import_utils")
    # what get_custom_reward_fn imports inside its body
    monkeypatch.setitem(sys.modules, "verl.utils.import_utils", m)
    return m


@pytest.fixture
def get_custom_reward_fn(verl, import_utils):
    ns = {"inspect": inspect, "partial": functools.partial, "Optional": typing.Optional,
          "Any": typing.Any}
    path = os.path.join(verl, "trainer", "ppo", "reward.py")
    functions(path, ["_call_with_kwargs", "_call_with_kwargs_async", "get_custom_reward_fn"], ns)
    return ns["get_custom_reward_fn"]


def config(path, name, **reward_kwargs):
    """verl's config (an OmegaConf DictConfig, as hydra gives it):
    reward.custom_reward_function in 0.9."""
    from omegaconf import OmegaConf
    crf = {"path": path, "name": name, "reward_kwargs": reward_kwargs}
    return OmegaConf.create({"reward": {"custom_reward_function": crf},
                             "custom_reward_function": crf})


def sample_values(shop_db, answer, index):
    return {"data_source": "spider", "solution_str": answer, "ground_truth": GOLD,
            # parquet's None for a column this sample lacks
            "extra_info": {"db_path": shop_db, "index": index, "condition_cols": None}}


# --------------------------------------------------------------------- verl

def test_verl_loads_the_file_path(import_utils, root, shop_db):
    fn = import_utils.load_extern_object(module_path=reward_py(root), object_name="compute_score")
    assert fn("spider", GOOD, GOLD, {"db_path": shop_db}) == 1.0
    fn = import_utils.load_extern_object(module_path="file://" + reward_py(root),
                                         object_name="compute_score_batch")
    assert fn(["s"], [GOOD], [GOLD], [{"db_path": shop_db}]) == [1.0]


def test_verl_loads_pkg_path(import_utils, shop_db):
    fn = import_utils.load_extern_object(module_path="pkg://spidereval.reward", object_name="compute_score")
    assert fn("spider", GOOD, GOLD, {"db_path": shop_db}) == 1.0
    fn = import_utils.load_extern_object(module_path="pkg://spidereval/trainers", object_name="compute_score")
    assert fn("spider", GOOD, GOLD, {"db_path": shop_db}) == 1.0


def _manager_call(verl, rel, cls, meth):
    node = method(os.path.join(verl, *rel), cls, meth)
    calls = calls_of(node, "compute_score")
    assert calls, "%s.%s no longer calls compute_score" % (cls, meth)
    return node, calls


def test_verl_naive_reward_manager(verl, get_custom_reward_fn, root, shop_db):
    node, calls = _manager_call(verl, ["workers", "reward_manager", "naive.py"],
                                "NaiveRewardManager", "__call__")
    fn = get_custom_reward_fn(config(reward_py(root), "compute_score", timeout=5, details=True,
                                     weights={"executed": 0.25, "match": 0.75},
                                     extract="official", on_gold_error="raise"))
    added = subscript_keys(node, "extra_info")  # num_turns, rollout_reward_scores
    assert "rollout_reward_scores" in added
    for names, starred in calls:
        assert not starred, "verl passes **%s now" % starred
        for i, answer in enumerate([GOOD, WRONG]):
            v = sample_values(shop_db, answer, i)
            for k in added:
                v["extra_info"][k] = None if k == "num_turns" else {}
            unknown = set(names) - set(v)
            assert not unknown, "verl passes new keywords %s" % unknown
            out = fn(**{k: v[k] for k in names})
            assert isinstance(out, dict) and out["score"] == [1.0, 0.25][i]


def test_verl_reward_loop_with_router_kwargs(verl, get_custom_reward_fn, root, shop_db):
    node, calls = _manager_call(verl, ["experimental", "reward_loop", "reward_manager", "naive.py"],
                                "NaiveRewardManager", "run_single")
    router = dict.fromkeys(dict_keys(node, "extra_reward_kwargs"))
    assert "reward_router_address" in router
    router.update(reward_router_address="127.0.0.1:30000", reward_model_tokenizer=object())
    added = subscript_keys(node, "extra_info")
    for name, is_async in (("compute_score", False), ("compute_score_async", True)):
        fn = get_custom_reward_fn(config(reward_py(root), name, timeout=5))
        for names, starred in calls:
            assert starred in ([], ["extra_reward_kwargs"]), starred
            v = sample_values(shop_db, GOOD, 0)
            for k in added:
                v["extra_info"][k] = None
            kw = {k: v[k] for k in names}
            if starred:
                kw.update(router)
            out = fn(**kw)
            if is_async:
                assert inspect.iscoroutine(out)
                out = asyncio.run(out)
            assert out == 1.0


def test_verl_batch_reward_manager(verl, get_custom_reward_fn, root, shop_db):
    node, calls = _manager_call(verl, ["workers", "reward_manager", "batch.py"],
                                "BatchRewardManager", "verify")
    (names, starred), = calls
    assert starred == ["self.reward_kwargs"]
    values = {"data_sources": ["spider"] * 4, "solution_strs": [GOOD, WRONG, GOOD, "no sql"],
              "ground_truths": [GOLD] * 4,
              "extra_infos": [{"db_path": shop_db, "rollout_reward_scores": {}} for _ in range(4)]}
    unknown = set(names) - set(values)
    assert not unknown, "verl passes new keywords %s" % unknown
    fn = get_custom_reward_fn(config(reward_py(root), "compute_score_batch"))
    # the manager's own reward_kwargs (reward_model.reward_kwargs)
    scores = fn(**{k: values[k] for k in names}, details=True, workers=2)
    assert [s["score"] for s in scores] == [1.0, 0.0, 1.0, 0.0]
    # the manager appends every key of each dict: the same keys each time
    assert len({tuple(sorted(s)) for s in scores}) == 1


def test_verl_config_error_is_not_a_silent_zero(get_custom_reward_fn, root, tmp_path):
    from spidereval.trainers import GoldError
    fn = get_custom_reward_fn(config(reward_py(root), "compute_score"))
    with pytest.raises(GoldError, match="sample 9 .*no such database"):
        fn(data_source="spider", solution_str=GOOD, ground_truth=GOLD,
           extra_info={"db_path": str(tmp_path / "typo.sqlite"), "index": 9})


# ---------------------------------------------------------------------- TRL

@pytest.fixture
def trl():
    return pkg_dir("trl")


@pytest.fixture
def trl_utils(trl):
    ns = {"functools": functools, "inspect": inspect, "Callable": typing.Callable}
    return functions(os.path.join(trl, "trainer", "utils.py"),
                     ["get_callable_name", "is_async_callable"], ns)


def _trl_shape(trl):
    node = method(os.path.join(trl, "trainer", "grpo_trainer.py"), "GRPOTrainer", "_calculate_rewards")
    added = subscript_keys(node, "reward_kwargs")
    excluded = None
    for n in ast.walk(node):
        if isinstance(n, ast.Compare) and isinstance(n.ops[0], ast.NotIn) and \
                isinstance(n.comparators[0], ast.List):
            excluded = [e.value for e in n.comparators[0].elts]
            break
    calls = [c for c in calls_of(node, "reward_func") if c[0]] + \
        [c for c in calls_of(node, "func") if c[0]]
    assert excluded and calls and added
    return added, excluded, calls


def test_trl_reward_funcs(trl, trl_utils, shop_db):
    from spidereval import reward
    added, excluded, calls = _trl_shape(trl)
    assert {"log_extra", "log_metric", "trainer_state"} <= set(added)
    logged = {"extra": {}, "metric": {}}
    special = {"trainer_state": object(), "environments": [None, None],
               "log_extra": lambda c, v: logged["extra"].setdefault(c, []).extend(v),
               "log_metric": lambda n, v: logged["metric"].setdefault(n, []).append(v)}
    unknown = set(added) - set(special)
    assert not unknown, "TRL passes new reward kwargs %s" % unknown
    prompts = [[{"role": "user", "content": "per city?"}]] * 2
    completions = [[{"role": "assistant", "content": [{"type": "text", "text": GOOD}]}],
                   [{"role": "assistant", "content": WRONG}]]
    inputs = [{"prompt": p, "completion": c, "completion_ids": [1], "db_path": shop_db,
               "gold_sql": GOLD, "condition_cols": None} for p, c in zip(prompts, completions)]
    keys = [k for k in inputs[0] if k not in excluded]
    reward_kwargs = {k: [ex[k] for ex in inputs] for k in keys}
    reward_kwargs.update({k: special[k] for k in added})
    call_values = {"prompts": prompts, "completions": completions,
                   "completion_ids": [[1], [1]]}
    for f in (reward.trl_reward, reward.make_trl_reward(timeout=5, workers=2, name="sql"),
              reward.trl_reward_async, reward.make_trl_reward(asynchronous=True, name="sql_async")):
        name = trl_utils["get_callable_name"](f)
        assert name == f.__name__
        for names, starred in calls:
            assert starred == ["reward_kwargs"]
            kw = {k: call_values[k] for k in names}
            if trl_utils["is_async_callable"](f):
                out = asyncio.run(f(**kw, **reward_kwargs))
            else:
                out = f(**kw, **reward_kwargs)
            assert out == [1.0, 0.0] and len(out) == len(prompts)
        assert logged["metric"][name + "/match"][-1] == 0.5
    assert trl_utils["is_async_callable"](reward.trl_reward_async)
    assert not trl_utils["is_async_callable"](reward.trl_reward)


def _every_compute_score_call(verl):
    """(file, keywords, starred) of every call to compute_score in verl's
    reward managers, both generations (workers/ and the reward loop)."""
    out = []
    for rel in (["workers", "reward_manager"], ["experimental", "reward_loop", "reward_manager"]):
        folder = os.path.join(verl, *rel)
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                for names, starred in calls_of(tree(os.path.join(folder, name)), "compute_score"):
                    out.append(("/".join(rel + [name]), names, starred))
    return out


def test_every_reward_manager_call(verl, get_custom_reward_fn, root, shop_db):
    """Each compute_score call of every verl reward manager (naive, dapo,
    gdpo, limited, batch...), made with its own keywords, on the sync and the
    async reward function (a manager awaits the async one)."""
    calls = _every_compute_score_call(verl)
    files = {f for f, _, _ in calls}
    assert len(files) >= 5, files
    values = {"data_source": "spider", "solution_str": GOOD, "ground_truth": GOLD,
              "extra_info": {"db_path": shop_db, "num_turns": None, "rollout_reward_scores": {}},
              "data_sources": ["spider"], "solution_strs": [GOOD], "ground_truths": [GOLD],
              "extra_infos": [{"db_path": shop_db, "rollout_reward_scores": {}}]}
    router = {"reward_router_address": "127.0.0.1:30000", "reward_model_tokenizer": object()}
    for f, names, starred in calls:
        unknown = set(names) - set(values)
        assert not unknown, "%s passes new keywords %s" % (f, unknown)
        batch = "solution_strs" in names
        fns = ["compute_score_batch"] if batch else ["compute_score", "compute_score_async"]
        for fname in fns:
            fn = get_custom_reward_fn(config(reward_py(root), fname))
            kw = {k: values[k] for k in names}
            if starred and not batch:
                kw.update(router)
            out = fn(**kw)
            if inspect.iscoroutine(out):
                out = asyncio.run(out)
            assert out == ([1.0] if batch else 1.0), (f, fname, out)


def test_prime_reward_manager_process_pool(verl, root, shop_db):
    """verl's PRIME manager scores in a process pool (its run_reward_scoring,
    from the installed prime.py): compute_score is pickled into the worker
    processes and called with positional arguments. PRIME turns any
    exception into a printed line and a 0.0, so a GoldError there is not a
    stop (docs/python.md)."""
    psutil = pytest.importorskip("psutil")
    from concurrent.futures import ProcessPoolExecutor

    def get_event_loop():
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.get_event_loop()
    ns = {"asyncio": asyncio, "partial": functools.partial, "ProcessPoolExecutor": ProcessPoolExecutor,
          "psutil": psutil, "get_event_loop": get_event_loop}
    functions(os.path.join(verl, "workers", "reward_manager", "prime.py"),
              ["single_compute_score", "parallel_compute_score_async", "run_reward_scoring"], ns)
    from spidereval import reward
    scores = ns["run_reward_scoring"](reward.compute_score, [GOOD, WRONG, GOOD], [GOLD] * 3,
                                      ["spider"] * 3, [{"db_path": shop_db}] * 3, num_processes=2)
    assert scores == [1.0, 0.0, 1.0]
