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
