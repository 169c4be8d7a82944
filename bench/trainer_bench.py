"""make bench: rewards per second the way trainers call them (issue 29): a
tiny query with cached gold on build/samples/shop.sqlite, half the
completions right; wall time of whole batches, as a trainer waits for them.

  - in process: make_trl_reward(workers=k), one batch of 256 at a time;
  - through `python -m spidereval serve --workers W`: C client threads each
    posting batches of 32 items to POST /reward;
  - through Ray (when `ray` imports: the venv of scripts/trainers-venv.sh
    --ray): examples/ray_reward_pool.py's pool with 1, 2 and N actors.

    python bench/trainer_bench.py DB [direct|serve|ray ...]
"""

import json
import os
import subprocess
import sys
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(HERE, "python"))
sys.path.insert(0, os.path.join(HERE, "examples"))
os.environ.setdefault("SPIDEREVAL_BUNDLE", os.path.join(HERE, "build", "spidereval.so"))
# Ray's actors (processes started by the raylet) import the package too
os.environ["PYTHONPATH"] = os.pathsep.join(
    [os.path.join(HERE, "python"), os.path.join(HERE, "examples")] +
    [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])

from spidereval import reward  # noqa: E402

GOLD = "SELECT city, count(*) AS n FROM customers GROUP BY city"
ANSWERS = ["```sql\nSELECT city, count(*) FROM customers GROUP BY 1\n```",
           "```sql\nSELECT customer_name FROM customers\n```"]
CORES = os.cpu_count() or 2


def direct(db, batch=256, steps=8):
    comps = [ANSWERS[i % 2] for i in range(batch)]
    for k in (1, 2, 2 * CORES):
        f = reward.make_trl_reward(workers=k, timeout=5)
        f(prompts=None, completions=comps[:4], db_path=[db] * 4, gold_sql=[GOLD] * 4)
        t = time.perf_counter()
        for _ in range(steps):
            out = f(prompts=None, completions=comps, db_path=[db] * batch, gold_sql=[GOLD] * batch)
        dt = time.perf_counter() - t
        assert out[:2] == [1.0, 0.0]
        print("trainers: in process, %2d threads: %7.0f rewards/s" % (k, steps * batch / dt))


def serve(db, clients=4, batches=40, size=32):
    env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "python"))
    for workers in (1, 2, CORES * 2):
        p = subprocess.Popen([sys.executable, "-m", "spidereval", "serve", "--port", "0",
                              "--workers", str(workers), "--queue", "64", "--timeout", "5"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        try:
            url = p.stdout.readline().split()[-1] + "/reward"
            body = json.dumps({"items": [{"completion": ANSWERS[i % 2], "db_path": db,
                                          "gold_sql": GOLD} for i in range(size)]}).encode()

            def post():
                req = urllib.request.Request(url, data=body,
                                             headers={"Content-Type": "application/json"})
                with urllib.request.urlopen(req, timeout=60) as r:
                    out = json.loads(r.read())["results"]
                assert [x["score"] for x in out[:2]] == [1.0, 0.0]

            post()

            def client():
                for _ in range(batches // clients):
                    post()
            threads = [threading.Thread(target=client) for _ in range(clients)]
            t = time.perf_counter()
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            dt = time.perf_counter() - t
            n = (batches // clients) * clients * size
            print("trainers: serve --workers %2d, %d clients: %7.0f rewards/s"
                  % (workers, clients, n / dt))
        finally:
            p.terminate()
            p.wait(10)


def ray_pool(db, steps=5, batch=256):
    try:
        import ray
    except ImportError:
        print("trainers: ray is not installed here (scripts/trainers-venv.sh --ray), skipped")
        return
    import ray_reward_pool
    ray.init(num_cpus=max(2, CORES), include_dashboard=False, log_to_driver=False)
    try:
        for n in sorted({1, 2, CORES}):
            rate, out = ray_reward_pool.run(db, n, steps, batch, timeout=5)
            assert out[:2] == [1.0, 0.0]
            print("trainers: ray, %d actors: %7.0f rewards/s" % (n, rate))
    finally:
        ray.shutdown()


if __name__ == "__main__":
    db = sys.argv[1]
    modes = sys.argv[2:] or ["direct", "serve", "ray"]
    for m in modes:
        {"direct": direct, "serve": serve, "ray": ray_pool}[m](db)
