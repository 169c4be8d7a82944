"""The pandas generation as a parameter of the verdict functions
(issue 34): pandas="1.5", "2" or "3" is passed through as the option word
pandas=G of the SQL functions."""

import os

import pytest

import spidereval
from spidereval.evaluation import SpiderevalError


def test_pandas_parameter_reads_none_by_generation(root):
    gold = os.path.join(root, "tests", "fixtures", "gold_pgen")
    pred = b"a\nNone\n"
    assert spidereval.verdict(pred, gold, "n1", pandas="1.5").score == 0
    assert spidereval.verdict(pred, gold, "n1", pandas="2").score == 1
    assert spidereval.verdict(pred, gold, "n1", pandas=3).score == 1
    got = spidereval.verdicts([(pred, "n1"), (pred, "n1")], gold, pandas="2")
    assert [v.score for v in got] == [1, 1]
    sub = os.path.join(root, "tests", "fixtures", "sub_pgen")
    assert [v.score for v in spidereval.evaluate(sub, gold, pandas="1.5")] == [1, 0]
    assert [v.score for v in spidereval.evaluate(sub, gold, pandas="2")] == [0, 1]
    assert spidereval.report(sub, gold, pandas="2")["correct"] == 1


def test_unknown_pandas_generation_is_an_error(root):
    gold = os.path.join(root, "tests", "fixtures", "gold_pgen")
    with pytest.raises(SpiderevalError, match="unknown pandas generation '2.2'"):
        spidereval.verdict(b"a\n0\n", gold, "n1", pandas="2.2")


def test_reward_reads_both_results_as_its_generation(shop_db):
    # the gold's 0 against a prediction's text 'None': NA from pandas 2 on
    gold, pred = "SELECT 0 AS a", "SELECT 'None' AS a"
    assert spidereval.reward.SqlReward(pandas="1.5")(pred, shop_db, gold).match is False
    assert spidereval.reward.SqlReward(pandas="2")(pred, shop_db, gold).match is True
    assert spidereval.reward.SqlReward()(pred, shop_db, gold).match is True
    assert spidereval.reward.SqlReward(pandas=3)(pred, shop_db, gold).match is True
    with pytest.raises(SpiderevalError, match="unknown pandas generation '2.2'"):
        spidereval.reward.SqlReward(pandas="2.2")


def test_native_table_carries_its_generation():
    native = pytest.importorskip("spidereval._native")
    g15 = native.Table(b"a\n0\n", "1.5")
    assert (g15.pandas, native.Table(b"a\n0\n").pandas) == ("1.5", "2")
    assert native.match(b"a\nNone\n", g15, None, True, "lite pandas=1.5")[0] == 0
    assert native.match(b"a\nNone\n", native.Table(b"a\n0\n", "3"), None, True,
                        "lite pandas=3")[0] == 1
    with pytest.raises(native.Error, match="options read as pandas 2, the gold "
                       "Table was read as pandas 1.5"):
        native.match(b"a\nNone\n", g15, None, True, "lite")
    with pytest.raises(native.Error, match="pred was read as pandas 2, gold as "
                       "pandas 1.5"):
        native.match(native.Table(b"a\nNone\n"), g15, None, True, "lite pandas=1.5")
    with pytest.raises(native.Error, match="Table: unknown pandas generation '4'"):
        native.Table(b"a\n0\n", "4")
