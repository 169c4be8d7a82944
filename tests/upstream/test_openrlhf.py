"""spidereval's reward_func through OpenRLHF's own code (openrlhf 0.11.2,
installed without its dependencies): SingleTurnAgentExecutor's __init__
(which loads reward_func from the --remote_rm_url file) and
_fetch_rewards_via_func (which calls it on a thread), their source taken
from the installed openrlhf/utils/agent.py (whose imports need aiohttp); and
the payload its HTTP path posts (read from the same file) sent to
`spidereval serve`'s /openrlhf."""

import asyncio
import ast
import itertools
import json
import logging
import os
import subprocess
import sys
import urllib.request

import pytest

from test_trainers_upstream import GOLD, GOOD, WRONG, dict_keys, method, pkg_dir, reward_py


@pytest.fixture(scope="module")
def agent_py():
    return os.path.join(pkg_dir("openrlhf"), "utils", "agent.py")


@pytest.fixture(scope="module")
def executor_cls(agent_py):
    nodes = [method(agent_py, "SingleTurnAgentExecutor", m)
             for m in ("__init__", "_fetch_rewards_via_func")]
    cls = ast.ClassDef(name="SingleTurnAgentExecutor", bases=[], keywords=[], body=nodes,
                       decorator_list=[])
    ns = {"cycle": itertools.cycle, "asyncio": asyncio, "logger": logging.getLogger("openrlhf")}
    exec(compile(ast.fix_missing_locations(ast.Module(body=[cls], type_ignores=[])),
                 agent_py, "exec"), ns)
    return ns["SingleTurnAgentExecutor"]


def test_reward_func_loaded_and_called_by_openrlhf(executor_cls, root, shop_db):
    ex = executor_cls(remote_rm_url=reward_py(root))
    assert ex.reward_func is not None
    prompt = "<|im_start|>user\nper city?<|im_end|>\n<|im_start|>assistant\n"
    label = json.dumps({"sql": GOLD, "db_path": shop_db})
    out = asyncio.run(ex._fetch_rewards_via_func(
        [prompt + GOOD + "<|im_end|>", prompt + WRONG + "<|im_end|>"], [prompt] * 2, [label] * 2))
    # one call per query (OpenRLHF's batch_size = 1), each a dict
    assert [list(o["rewards"]) for o in out] == [[1.0], [0.0]]
    assert [list(o["scores"]) for o in out] == [[1.0], [0.0]]


def test_http_payload_to_serve(agent_py, root, shop_db):
    keys = dict_keys(method(agent_py, "SingleTurnAgentExecutor", "_fetch_rewards_via_http"), "payload")
    assert set(keys) == {"query", "prompts", "labels"}, keys
    env = dict(os.environ, PYTHONPATH=os.path.join(root, "python"))
    p = subprocess.Popen([sys.executable, "-m", "spidereval", "serve", "--port", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        url = p.stdout.readline().split()[-1] + "/openrlhf"
        payload = dict(zip(keys, [None] * 3))
        payload.update(query=["q" + GOOD, "q" + WRONG], prompts=["q", "q"],
                       labels=[json.dumps({"sql": GOLD, "db_path": shop_db})] * 2)
        req = urllib.request.Request(url, data=json.dumps(payload).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            info = json.loads(r.read())
        assert info["rewards"] == [1.0, 0.0] and set(info["extra_logs"]) == {
            "format_ok", "executed", "match"}
    finally:
        p.terminate()
        p.wait(10)
