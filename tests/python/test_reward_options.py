"""Bad reward options fail when the reward is made, with SpiderevalError
naming the option and the value: never a bare TypeError, never a score of
nan."""

import pytest

from spidereval import SpiderevalError, reward

BAD = [
    (dict(weights={"match": float("nan")}), r"weights\['match'\] must be a finite number, not nan"),
    (dict(weights={"match": float("inf")}), r"weights\['match'\] must be a finite number, not inf"),
    (dict(weights={"match": "x"}), r"weights\['match'\] must be a number, not 'x'"),
    (dict(weights={"match": None}), r"weights\['match'\] must be a number, not None"),
    (dict(weights=[("match", 1)]), r"weights must be a dict of component: weight, not list"),
    (dict(weights={"bogus": 1}), r"unknown reward component 'bogus' in weights"),
    (dict(format_penalty="x"), r"format_penalty must be a number, not 'x'"),
    (dict(format_penalty=float("nan")), r"format_penalty must be a finite number, not nan"),
    (dict(format_penalty=0.5), r"format_penalty must be a negative number or 0, not 0.5"),
    (dict(timeout="abc"), r"timeout must be a number, not 'abc'"),
    (dict(timeout=None), r"timeout must be a number, not None"),
    (dict(timeout=True), r"timeout must be a number, not True"),
    (dict(timeout=float("nan")), r"timeout must be a finite number, not nan"),
    (dict(timeout=0), r"timeout must be above 0 and at most 86400 seconds"),
    (dict(rules=None), r"unknown rules None \(expected spider2, spider2-strict, spider2-snow, bird"),
    (dict(rules="spider3"), r"unknown rules 'spider3' \(expected spider2, "),
]


@pytest.mark.parametrize("options,message", BAD, ids=[str(o) for o, _ in BAD])
def test_bad_option_named_at_once(options, message):
    with pytest.raises(SpiderevalError, match="^spidereval: " + message):
        reward.SqlReward(**options)


def test_numbers_as_text_and_ints_are_numbers(shop_db):
    r = reward.SqlReward(weights={"match": 2, "executed": "0.5"}, timeout="5",
                         format_penalty=-1)
    assert r.weights == {"match": 2.0, "executed": 0.5} and r.timeout == 5.0
    assert r("```sql\nSELECT 1\n```", shop_db, "SELECT 1").score == 2.5


ODD = [None, 1, 1.5, True, "", "x", [], [1], {}, {"a": 1}, b"bytes", float("nan")]


def test_adapters_on_odd_inputs(shop_db):
    # whatever a misconfigured dataset hands the adapters: a score, or
    # SpiderevalError saying what is wrong; never another exception
    from spidereval import trainers
    gold = "SELECT city, count(*) FROM customers GROUP BY city"
    sol = "```sql\nSELECT city, count(*) FROM customers GROUP BY 1\n```"
    trl = trainers.make_trl_reward(workers=1)
    calls = []
    for v in ODD:
        calls += [
            lambda v=v: trainers.compute_score("s", v, gold, {"db_path": shop_db}),
            lambda v=v: trainers.compute_score("s", sol, v, {"db_path": shop_db}),
            lambda v=v: trainers.compute_score("s", sol, gold, v),
            lambda v=v: trainers.compute_score("s", sol, gold, {"db_path": v}),
            lambda v=v: trainers.compute_score("s", sol, gold, {"db_path": shop_db, "condition_cols": v}),
            lambda v=v: trainers.compute_score("s", sol, gold, {"db_path": shop_db, "ignore_order": v}),
            lambda v=v: trl(prompts=["p"], completions=[v], db_path=[shop_db], gold_sql=[gold]),
            lambda v=v: trl(prompts=["p"], completions=[[{"role": "assistant", "content": v}]],
                            db_path=[shop_db], gold_sql=[gold]),
            lambda v=v: trl(prompts=["p"], completions=[sol], db_path=v, gold_sql=[gold]),
            lambda v=v: trainers.reward_func(v, ["p"], [{"sql": gold, "db_path": shop_db}]),
            lambda v=v: trainers.reward_func([sol], ["p"], [v]),
            lambda v=v: trainers.compute_score_single(v, gold, shop_db),
            lambda v=v: trainers.compute_score_single("<think>a</think><solution>SELECT 1</solution>", gold, v),
        ]
    for i, call in enumerate(calls):
        try:
            got = call()
        except SpiderevalError:
            continue
        except Exception as e:  # pragma: no cover - the failure's report
            pytest.fail("call %d (value %r): %s: %s" % (i, ODD[i // 13], type(e).__name__, e))
        assert not (isinstance(got, float) and got != got), "call %d gave nan" % i
