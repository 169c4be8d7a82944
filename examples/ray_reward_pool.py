"""A pool of spidereval reward actors on Ray, fed by a trainer-like driver
(docs/python.md, "Ray"). The reward is stateless per call (each actor keeps
only its gold-result cache), so a cluster only adds actors.

    python examples/ray_reward_pool.py --db build/samples/shop.sqlite --actors 2

Each step the driver has a batch of completions (G per prompt, as GRPO
samples them), splits it across the actors, and waits for all the rewards
before the next step, as a trainer does. Prints rewards per second.
"""

import argparse
import time

import ray

from spidereval import reward


@ray.remote(num_cpus=1)
class RewardActor:
    """One reward worker: a SqlReward scoring its share of a batch on a few
    threads (the queries run in the execution service's processes)."""

    def __init__(self, threads=2, **options):
        self.f = reward.make_trl_reward(workers=threads, **options)

    def score(self, completions, db_paths, golds):
        return self.f(prompts=None, completions=completions, db_path=db_paths,
                      gold_sql=golds)


class RewardPool:
    """n actors; score() splits a batch into one chunk per actor and returns
    the rewards in input order."""

    def __init__(self, n, **options):
        self.actors = [RewardActor.remote(**options) for _ in range(n)]

    def score(self, completions, db_paths, golds):
        n = len(self.actors)
        size = -(-len(completions) // n)
        refs = [a.score.remote(completions[i:i + size], db_paths[i:i + size],
                               golds[i:i + size])
                for a, i in zip(self.actors, range(0, len(completions), size))]
        return [r for chunk in ray.get(refs) for r in chunk]

    def close(self):
        """End the actors now (their CPUs go back to the cluster at once,
        not when the handles are collected)."""
        for a in self.actors:
            ray.kill(a)
        self.actors = []


GOLD = "SELECT city, count(*) AS n FROM customers GROUP BY city"
ANSWERS = ["```sql\nSELECT city, count(*) FROM customers GROUP BY 1\n```",
           "```sql\nSELECT customer_name FROM customers\n```"]


def run(db, actors=2, steps=5, batch=256, **options):
    """The driver: `steps` batches of `batch` completions through a pool
    of `actors`. Returns (rewards per second, the last batch's rewards)."""
    pool = RewardPool(actors, **options)
    try:
        completions = [ANSWERS[i % 2] for i in range(batch)]
        dbs, golds = [db] * batch, [GOLD] * batch
        pool.score(completions[:actors], dbs[:actors], golds[:actors])  # warm up
        t = time.perf_counter()
        for _ in range(steps):
            out = pool.score(completions, dbs, golds)
        dt = time.perf_counter() - t
    finally:
        pool.close()
    return steps * batch / dt, out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--db", required=True)
    p.add_argument("--actors", type=int, default=2)
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--batch", type=int, default=256)
    a = p.parse_args()
    ray.init(num_cpus=max(2, a.actors), include_dashboard=False,
             log_to_driver=False)
    rate, out = run(a.db, a.actors, a.steps, a.batch, timeout=5)
    assert out[:2] == [1.0, 0.0], out[:2]
    print("ray: %d actors: %.0f rewards/s" % (a.actors, rate))
    ray.shutdown()


if __name__ == "__main__":
    main()
