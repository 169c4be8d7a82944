"""spidereval's compute_score_single beside SkyRL-SQL's own (skyrl-gym
0.4.0's skyrl_gym/envs/sql/utils.py, loaded by its file: standard library
only) on the same completions and database: the same reward for every
completion. Two intended differences are not in the corpus: a gold SQL
that fails scores 0 silently in SkyRL and raises GoldError here; an empty
<solution> scores 0 here (Execution Error: empty SQL) where SkyRL's sqlite3
runs no statement, gets no rows and so scores 1.0 against a gold with zero
rows (0.0 against any other, as here)."""

import importlib.util
import os

import pytest

from spidereval import reward
from spidereval.trainers import GoldError

GOLD = "SELECT city, count(*) FROM customers GROUP BY city"
RIGHT = "SELECT city, count(*) FROM customers GROUP BY city"
T = "<think>count the customers of each city</think>\n"
CORPUS = [
    T + "<solution>" + RIGHT + "</solution>",
    T + "<solution>\n" + RIGHT + ";\n</solution>",
    T + "<solution>SELECT city, count(*) FROM customers GROUP BY 1 ORDER BY 2</solution>",
    T + "<solution>SELECT count(*), city FROM customers GROUP BY city</solution>",  # columns swapped
    T + "<solution>SELECT city FROM customers</solution>",
    T + "<solution>SELECT nope FROM customers</solution>",
    T + "<solution>SELECT 1; SELECT 2</solution>",
    T + "<solution>```sql\n" + RIGHT + "\n```</solution>",  # SkyRL runs the fence as SQL
    T + "<solution></solution>",
    T + "<solution>   </solution>",
    T + "<solution>SELECT city, count(*) FROM customers WHERE 0 GROUP BY city</solution>",
    "<solution>" + RIGHT + "</solution>",  # no <think>
    T + RIGHT,  # no <solution>
    T + "<solution>" + RIGHT + "</solution><solution>x</solution>",
    T + "<solution>" + RIGHT,
    T + "<solution><think>x</think>" + RIGHT + "</solution>",
    T + "<solution><SQL>" + RIGHT + "</SQL></solution>",
    T + "<sql>SELECT 1</sql><observation>1</observation>\n\n<think>now</think><solution>" + RIGHT + "</solution>",
    T + "<sql>SELECT 1</sql><observation>1</observation> then <solution>" + RIGHT + "</solution>",
    T + "<sql>SELECT 1</sql></OBSERVATION><think>x</think><solution>" + RIGHT + "</solution>",
    T + "<solution>SELECT city, count(*) + 0.0 FROM customers GROUP BY city</solution>",
    T + "<solution>DELETE FROM customers</solution>",
    "",
]


@pytest.fixture(scope="module")
def skyrl():
    spec = importlib.util.find_spec("skyrl_gym")
    if spec is None:
        pytest.fail("skyrl-gym is not installed in this venv (scripts/trainers-venv.sh)")
    path = os.path.join(spec.submodule_search_locations[0], "envs", "sql", "utils.py")
    s = importlib.util.spec_from_file_location("skyrl_sql_utils", path)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def test_same_rewards_as_skyrl(skyrl, shop_db, tmp_path):
    import shutil
    db = str(tmp_path / "shop.sqlite")  # SkyRL opens it read-write
    shutil.copy(shop_db, db)
    theirs = [skyrl.compute_score_single(c, GOLD, db) for c in CORPUS]
    ours = [reward.compute_score_single(c, GOLD, db) for c in CORPUS]
    diff = [(c, t, o) for c, t, o in zip(CORPUS, theirs, ours) if float(t) != o]
    assert not diff, diff
    assert sorted(set(theirs)) == [-1.0, 0.0, 1.0]


def test_failing_gold_is_not_a_silent_zero(skyrl, shop_db):
    c = CORPUS[0]
    assert skyrl.compute_score_single(c, "SELECT cty FROM customers", shop_db) == 0.0
    with pytest.raises(GoldError, match="no such column: cty"):
        reward.compute_score_single(c, "SELECT cty FROM customers", shop_db)


def test_skyrl_sql_environment(shop_db, tmp_path, monkeypatch):
    """SkyRL's own SQLEnv (skyrl_gym.envs.sql.env) on a Spider-layout
    folder, stepped to the end of an episode: with its own reward, then with
    spidereval's in its place (what docs/python.md's SkyRL start does to
    the import): the same rewards, through the environment's real
    _get_reward (the whole chat history as the completion)."""
    import shutil

    from omegaconf import OmegaConf
    env_mod = pytest.importorskip("skyrl_gym.envs.sql.env")
    root = tmp_path / "dbs"
    (root / "spider" / "database" / "shop").mkdir(parents=True)
    shutil.copy(shop_db, root / "spider" / "database" / "shop" / "shop.sqlite")
    cfg = OmegaConf.create({"db_path": str(root)})
    extras = {"db_id": "shop", "data": "spider", "reward_spec": {"ground_truth": GOLD},
              "max_turns": 3}
    episodes = [
        [T + "<solution>" + RIGHT + "</solution>"],
        [T + "<sql>SELECT 1</sql>", "<think>so</think><solution>" + RIGHT + "</solution>"],
        [T + "<solution>SELECT city FROM customers</solution>"],
        ["<solution>" + RIGHT + "</solution>"],
    ]

    def rewards():
        out = []
        for actions in episodes:
            env = env_mod.SQLEnv(cfg, dict(extras))
            env.init([{"role": "user", "content": "per city?"}])
            for a in actions:
                step = env.step(a)
            assert step["done"]
            out.append(float(step["reward"]))
        return out

    theirs = rewards()
    monkeypatch.setattr(env_mod, "compute_score_single", reward.compute_score_single)
    assert rewards() == theirs == [1.0, 1.0, 0.0, -1.0]
