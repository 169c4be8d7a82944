"""The Ray example (examples/ray_reward_pool.py) on a real local Ray
cluster (ray from PyPI, pinned in scripts/ray-requirements.txt): a pool of
reward actors fed by a trainer-like driver gives the rewards of the
in-process reward, in input order, with 1 and 2 actors; a configuration
error inside an actor reaches the driver as the GoldError naming the
sample."""

import os
import sys

import pytest

ray = pytest.importorskip("ray")

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(HERE, "examples"))

import ray_reward_pool  # noqa: E402

from spidereval import reward  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    # the actors are processes of this machine: they get this process's
    # environment (PYTHONPATH, SPIDEREVAL_BUNDLE) through the raylet
    os.environ["PYTHONPATH"] = os.pathsep.join(sys.path)
    # (num_cpus is what Ray schedules by: 4 lets a pool be made while the
    # last one's actors are still going away)
    ray.init(num_cpus=4, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_pool_of_reward_actors(cluster, shop_db):
    comps = [ray_reward_pool.ANSWERS[i % 2] for i in range(40)] + ["no sql", "```sql\nSELECT nope\n```"]
    want = reward.trl_reward(prompts=None, completions=comps, db_path=[shop_db] * len(comps),
                             gold_sql=[ray_reward_pool.GOLD] * len(comps))
    for n in (1, 2):
        pool = ray_reward_pool.RewardPool(n, timeout=5)
        try:
            assert pool.score(comps, [shop_db] * len(comps),
                              [ray_reward_pool.GOLD] * len(comps)) == want
        finally:
            pool.close()
    rate, out = ray_reward_pool.run(shop_db, actors=2, steps=2, batch=64, timeout=5)
    assert rate > 0 and out[:4] == [1.0, 0.0, 1.0, 0.0]


def test_gold_error_reaches_the_driver(cluster, shop_db, tmp_path):
    pool = ray_reward_pool.RewardPool(1, timeout=5)
    try:
        with pytest.raises(Exception, match=r"sample 1, db_path .*typo\.sqlite.*no such database"):
            pool.score(["x", "y"], [shop_db, str(tmp_path / "typo.sqlite")],
                       [ray_reward_pool.GOLD] * 2)
    finally:
        pool.close()
