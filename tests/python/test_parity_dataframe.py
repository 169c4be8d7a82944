"""On the parity corpus (../shared/parity, every file judged by the official
spider2-snow evaluator):

1. a prediction passed as bytes gets the official verdict of its file;
2. a prediction passed as the pandas DataFrame that pandas reads from the
   file gets the official verdict of that DataFrame written by to_csv and
   read back (the verdict of the written file; equal to the corpus's
   official verdict whenever to_csv gives the file's bytes back).
"""

import csv
import os

import pytest

import spidereval


def corpus(shared):
    with open(os.path.join(shared, "parity", "verdicts.csv"), newline="") as f:
        for row in csv.DictReader(f):
            yield (row["submission"], row["instance_id"], int(row["score"]), row["error"],
                   os.path.join(shared, "parity", "submissions", row["submission"],
                                row["instance_id"] + ".csv"))


def test_bytes_get_the_official_verdict(shared):
    gold = os.path.join(shared, "spider2", "snow", "gold")
    conn = spidereval.connect()
    n = 0
    for sub, iid, score, error, path in corpus(shared):
        with open(path, "rb") as f:
            data = f.read()
        # the stored verdicts were made with pandas 1.5.3
        v = spidereval.verdict(data, gold, iid, conn=conn, pandas="1.5")
        assert v.score == score, (sub, iid, v)
        assert v.error_info.startswith(error), (sub, iid, v)
        n += 1
    assert n > 10000
    print("python: %d parity files judged from bytes" % n)


def test_batch_of_bytes_gets_the_official_verdicts(shared):
    gold = os.path.join(shared, "spider2", "snow", "gold")
    rows = list(corpus(shared))
    items = []
    for sub, iid, score, error, path in rows:
        with open(path, "rb") as f:
            items.append((f.read(), iid))
    got = spidereval.verdicts(items, gold, pandas="1.5")
    assert len(got) == len(rows) > 10000
    for v, (sub, iid, score, error, path) in zip(got, rows):
        assert v.instance_id == iid and v.score == score, (sub, iid, v)
        assert v.error_info.startswith(error), (sub, iid, v)


def test_dataframe_gets_the_verdict_of_its_csv(shared, tmp_path):
    """One parity CSV in four (pandas reads and writes each: the whole
    corpus took 80 s of make test)."""
    pd = pytest.importorskip("pandas")
    gold = os.path.join(shared, "spider2", "snow", "gold")
    conn = spidereval.connect()
    judged = lossless = unreadable = 0
    for sub, iid, score, error, path in list(corpus(shared))[::4]:
        try:
            df = pd.read_csv(path)
        except Exception as e:  # pandas cannot read it: the official 0
            assert score == 0 and error.startswith("Evaluation Error"), (sub, iid, e)
            unreadable += 1
            continue
        data = df.to_csv(index=False).encode("utf-8")
        written = tmp_path / sub / (iid + ".csv")
        written.parent.mkdir(exist_ok=True)
        written.write_bytes(data)
        want = spidereval.verdict(written, gold, iid, conn=conn)
        got = spidereval.verdict(df, gold, iid, conn=conn)
        assert got == want, (sub, iid, got, want)
        with open(path, "rb") as f:
            if f.read() == data:
                assert got.score == score, (sub, iid, got)
                lossless += 1
        judged += 1
    assert judged > 2500 and lossless > 1000
    print("python: %d DataFrames judged (%d round trips byte-identical, "
          "%d files pandas cannot read)" % (judged, lossless, unreadable))
