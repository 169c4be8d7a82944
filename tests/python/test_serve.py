"""python -m spidereval serve: the reward over HTTP (issue 29). Each test
starts the real command on a free loopback port."""

import json
import os
import subprocess
import sys
import threading
import urllib.error
import urllib.request

import pytest

GOLD = "SELECT city, count(*) AS n FROM customers GROUP BY city"
GOOD = "```sql\nSELECT city, count(*) FROM customers GROUP BY 1\n```"
SLOW = ("```sql\nWITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
        "SELECT count(*) FROM c\n```")


def _env(root):
    """The child's environment: the package of python/, or the installed
    wheel's under tests/run_wheel.sh (SPIDEREVAL_INSTALLED=1)."""
    if os.environ.get("SPIDEREVAL_INSTALLED") == "1":
        return dict(os.environ)
    return dict(os.environ, PYTHONPATH=os.path.join(root, "python"))


@pytest.fixture
def serve(root):
    procs = []

    def start(*args):
        env = _env(root)
        p = subprocess.Popen([sys.executable, "-m", "spidereval", "serve", "--port", "0", *args],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        procs.append(p)
        line = p.stdout.readline()
        assert line.startswith("spidereval serve: listening on http://127.0.0.1:"), \
            line + p.stderr.read()
        return line.split()[-1]
    yield start
    for p in procs:
        p.terminate()
        p.wait(10)


def call(url, path, body=None, raw=None):
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(url + path, data=data,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_health_and_reward(serve, shop_db):
    url = serve("--workers", "2", "--timeout", "5")
    status, h = call(url, "/health")
    assert status == 200 and h["status"] == "ok" and h["workers"] == 2 and "spider2" in h["rules"]
    status, r = call(url, "/reward", {"completion": GOOD, "db_path": shop_db, "gold_sql": GOLD})
    assert status == 200 and r["score"] == 1.0 and r["match"] == 1 and r["error_info"] == ""
    assert set(r) >= {"format_ok", "executed", "similarity", "cell_recall", "empty_match", "rows"}
    # chat messages, per-request options, a batch in order
    items = [{"completion": [{"role": "assistant", "content": GOOD}], "db_path": shop_db,
              "gold_sql": GOLD},
             {"completion": "SELECT 1", "db_file": shop_db, "gold": GOLD,
              "weights": {"executed": 0.5, "match": 0.5}}]
    status, r = call(url, "/reward", {"items": items})
    assert status == 200 and [x["score"] for x in r["results"]] == [1.0, 0.5]
    # a batch answers what its items answer one by one (their queries go
    # to a worker in one round trip), in order, whatever each one's options
    many = [{"completion": c, "db_path": shop_db, "gold_sql": GOLD, **o}
            for c in (GOOD, "SELECT city FROM customers", "nonsense", "", "SELECT 1; SELECT 2")
            for o in ({}, {"weights": {"executed": 0.5, "match": 0.5}}, {"ignore_order": False})]
    status, r = call(url, "/reward", {"items": many})
    assert status == 200 and r["results"] == [call(url, "/reward", it)[1] for it in many]
    assert call(url, "/health")[1]["served"] == 3 + len(many)


def test_nemo_gym_verify(serve, shop_db):
    url = serve()
    body = {"responses_create_params": {"input": [{"role": "user", "content": "per city?"}]},
            "response": {"id": "resp_1", "output": [
                {"type": "reasoning", "summary": []},
                {"type": "message", "role": "assistant",
                 "content": [{"type": "output_text", "text": GOOD}]}]},
            "db_path": shop_db, "gold_sql": GOLD, "task_id": "t7"}
    status, r = call(url, "/verify", body)
    assert status == 200 and r["reward"] == 1.0 and r["task_id"] == "t7" and r["match"] == 1
    assert r["response"]["id"] == "resp_1"
    body["response"]["output"] = []
    status, r = call(url, "/verify", body)
    assert status == 200 and r["reward"] == 0.0 and r["format_ok"] == 0


def test_bad_requests(serve, shop_db, tmp_path):
    url = serve("--db-root", os.path.dirname(shop_db))
    assert call(url, "/reward", raw=b"{not json")[0] == 400
    s, r = call(url, "/reward", {"completion": GOOD, "db_path": shop_db})
    assert s == 400 and "no gold" in r["error"]
    s, r = call(url, "/reward", {"completion": GOOD, "db_path": "/etc/passwd", "gold_sql": GOLD})
    assert s == 403 and "outside --db-root" in r["error"]
    # relative to --db-root
    s, r = call(url, "/reward", {"completion": GOOD, "db_path": "shop.sqlite", "gold_sql": GOLD})
    assert s == 200 and r["score"] == 1.0
    # a configuration error names the sample, never a silent 0
    s, r = call(url, "/reward", {"items": [
        {"completion": GOOD, "db_path": "shop.sqlite", "gold_sql": GOLD},
        {"completion": GOOD, "db_path": "shop.sqlite", "gold_sql": "SELECT cty FROM customers"}]})
    assert s == 422 and "sample 1" in r["error"] and "no such column: cty" in r["error"]
    # the items are scored together, the answer as one by one: a sample
    # with bad data before a wrong item is answered first, and the other way
    bad_gold = {"completion": GOOD, "db_path": "shop.sqlite", "gold_sql": "SELECT cty FROM customers"}
    s, r = call(url, "/reward", {"items": [bad_gold, {"completion": GOOD}]})
    assert s == 422 and "sample 0" in r["error"]
    s, r = call(url, "/reward", {"items": [{"completion": GOOD}, bad_gold]})
    assert s == 400 and "no gold" in r["error"]
    s, r = call(url, "/reward", {"completion": GOOD, "db_path": "shop.sqlite", "gold_sql": GOLD,
                                 "rules": "nope"})
    assert s == 400 and "unknown rules 'nope'" in r["error"]
    assert call(url, "/nope", {})[0] == 404
    assert call(url, "/nope")[0] == 404


def test_gold_errors_logged_not_raised(serve, shop_db, tmp_path):
    url = serve("--on-gold-error", "log")
    s, r = call(url, "/reward", {"completion": GOOD, "db_path": str(tmp_path / "x.sqlite"),
                                 "gold_sql": GOLD})
    assert s == 200 and r["score"] == 0.0 and r["error_info"].startswith("Gold Error")
    # NeMo Gym: failure_reason says the reward does not reflect the policy
    out = [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": GOOD}]}]
    s, r = call(url, "/verify", {"response": {"output": out}, "db_path": shop_db,
                                 "gold_sql": "SELECT cty FROM customers"})
    assert s == 200 and r["reward"] == 0.0 and "no such column: cty" in r["failure_reason"]


def test_bad_options_at_start(root, tmp_path):
    env = _env(root)
    # (stderr to a file, not a pipe: nothing the command leaves running
    # can hold the test up)
    for args, want in ((["serve", "--rules", "nope"], "unknown rule set 'nope'"),
                       (["serve", "--extract", "xml"], "unknown extract 'xml'"),
                       ([], "usage")):
        with open(tmp_path / "err", "w+") as err:
            p = subprocess.run([sys.executable, "-m", "spidereval", *args],
                               stdout=subprocess.DEVNULL, stderr=err, env=env, timeout=60)
            err.seek(0)
            assert p.returncode == 2 and want in err.read()


def test_concurrency_is_bounded(serve, shop_db):
    """--workers 1 --queue 1: one slow reward runs, one waits, a third
    request is answered 503 at once."""
    url = serve("--workers", "1", "--queue", "1", "--timeout", "2")
    slow = {"completion": SLOW, "db_path": shop_db, "gold_sql": GOLD}
    out = []
    threads = [threading.Thread(target=lambda: out.append(call(url, "/reward", slow)))
               for _ in range(2)]
    for t in threads:
        t.start()
    # wait until both are admitted (one running, one waiting)
    for _ in range(500):
        h = call(url, "/health")[1]
        if h["pending"] == 2:
            break
        threading.Event().wait(0.01)
    assert h["pending"] == 2 and h["in_flight"] == 1
    s, r = call(url, "/reward", slow)
    assert s == 503 and "busy" in r["error"]
    for t in threads:
        t.join()
    assert sorted(x[0] for x in out) == [200, 200]
    assert all(x[1]["error_info"] == "Execution Error: timeout after 2 s" for x in out)
    assert call(url, "/health")[1]["refused"] == 1


def test_openrlhf_remote_reward(serve, shop_db):
    """OpenRLHF's HTTP remote reward (--remote_rm_url http://.../openrlhf):
    {"query", "prompts", "labels"} in, {"rewards", "scores", "extra_logs"}
    out."""
    url = serve("--db-root", os.path.dirname(shop_db))
    prompt = "<|user|>per city?<|assistant|>"
    label = json.dumps({"sql": GOLD, "db_path": "shop.sqlite"})
    s, r = call(url, "/openrlhf", {"query": [prompt + GOOD + "<|im_end|>", prompt + "SELECT 1"],
                                  "prompts": [prompt] * 2, "labels": [label] * 2})
    assert s == 200 and r["rewards"] == [1.0, 0.0] and r["scores"] == [1.0, 0.0]
    assert r["extra_logs"]["executed"] == [1.0, 1.0]
    s, r = call(url, "/openrlhf", {"query": ["x"], "prompts": [""],
                                  "labels": [json.dumps({"sql": GOLD, "db_path": "/etc/passwd"})]})
    assert s == 403
    s, r = call(url, "/openrlhf", {"query": ["x"], "prompts": [""], "labels": ["just text"]})
    assert s == 400 and "label 0" in r["error"]


def test_a_stalled_client_is_closed(serve):
    """A client that connects and sends nothing holds no thread for ever:
    the server closes the connection after --idle-timeout."""
    import socket
    import time
    url = serve("--idle-timeout", "1")
    host, port = url.rsplit("/", 1)[-1].split(":")
    s = socket.create_connection((host, int(port)), timeout=30)
    t = time.monotonic()
    assert s.recv(1) == b""  # closed by the server
    assert time.monotonic() - t < 25
    s.close()
    assert call(url, "/health")[0] == 200
