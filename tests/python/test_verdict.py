"""spidereval.verdict on every input form, evaluate and report."""

import os
import pathlib
import random
import subprocess

import pytest

import spidereval
from spidereval import Rows, SpiderevalError

GOLD = "samples/gold"
SUB = "samples/submission"


@pytest.fixture(autouse=True)
def in_root(root, monkeypatch):
    monkeypatch.chdir(root)


def csv_of(name):
    with open(os.path.join(SUB, name), "rb") as f:
        return f.read()


def test_path_forms():
    v = spidereval.verdict(pathlib.Path(SUB) / "demo002.csv", GOLD, "demo002")
    assert v == spidereval.Verdict(1, "", "b", 2, "demo002")


def test_a_str_is_content_never_a_path():
    # issue 28: a model's answer must never become a file read. A one-line
    # str naming a file (the gold's own, the prediction's) is the CSV text
    # of that name: one column, no rows
    gold_file = os.path.join(GOLD, "exec_result", "demo002_b.csv")
    for name in (str(gold_file), os.path.abspath(str(gold_file)), SUB + "/demo002.csv"):
        v = spidereval.verdict(name, GOLD, "demo002")
        assert v.score == 0 and v.error_info.startswith("Result Error"), (name, v)
        assert v == spidereval.verdict(name.encode(), GOLD, "demo002")
    assert spidereval.verdicts([(str(gold_file), "demo002")], GOLD)[0].score == 0
    # a path is given as os.PathLike; the gold under another name is refused
    v = spidereval.verdict(pathlib.Path(gold_file), GOLD, "demo002")
    assert v.score == 0 and "gold" in v.error_info and "refused" in v.error_info, v


def test_csv_text_and_bytes_give_the_file_verdict():
    for name in sorted(os.listdir(SUB)):
        iid = name[:-4]
        if iid == "demo999":
            continue
        want = spidereval.verdict(pathlib.Path(SUB, name), GOLD, iid)
        assert spidereval.verdict(csv_of(name), GOLD, iid) == want
        text = csv_of(name).decode()
        assert spidereval.verdict(text, GOLD, iid) == want


def test_rows_forms():
    rows = [("South", 980.5), ("North", 1520.25), ("West", 0)]
    for pred in (Rows(["region", "total"], rows), (["region", "total"], rows),
                 [{"region": r, "total": t} for r, t in rows]):
        assert spidereval.verdict(pred, GOLD, "demo002").score == 1
    # typed as pandas types a DataFrame of them: 0 and 0.0 both match
    assert spidereval.verdict((["r", "t"], [("West", 0.0), ("South", 980.5), ("North", 1520.25)]),
                              GOLD, "demo002").score == 1
    v = spidereval.verdict((["r", "t"], [("West", 1)]), GOLD, "demo002")
    assert v.score == 0 and v.error_info.startswith("Result Error")


def test_batch_equals_one_by_one(monkeypatch):
    rows = [("South", 980.5), ("North", 1520.25), ("West", 0)]
    items = []
    for name in sorted(os.listdir(SUB)):
        iid = name[:-4]
        if iid == "demo999":
            continue
        items += [(csv_of(name).decode(), iid), (csv_of(name), iid),
                  (pathlib.Path(SUB) / name, iid)]
    items += [(Rows(["region", "total"], rows), "demo002"), (b"", "demo001"),
              (b"\xff\x00,\n", "demo001"), ("a,b\n1,2\n", "demo002")]
    want = [spidereval.verdict(p, GOLD, i) for p, i in items]
    assert spidereval.verdicts(items, GOLD) == want
    assert spidereval.verdicts(iter(items), GOLD, options=["strict"]) == \
        [spidereval.verdict(p, GOLD, i, options="strict") for p, i in items]
    assert spidereval.verdicts([], GOLD) == []
    # several statements: the same
    from spidereval import evaluation
    monkeypatch.setattr(evaluation, "_BATCH_ITEMS", 3)
    assert spidereval.verdicts(items, GOLD) == want


def test_docs_batch_example():
    import re
    text = open("docs/python.md").read()
    block = re.search(r"```python\n(batch = .*?)\n```\n", text, re.S).group(1)
    # "expr   # value" lines assert expr == value
    block = re.sub(r"^(\[.*?)\s+#\s*(.*)$", r"assert \1 == \2", block, flags=re.M)
    assert block.count("assert") == 1
    exec(compile(block, "docs/python.md", "exec"), {"spidereval": spidereval, "pathlib": pathlib})


def test_batch_bad_items():
    with pytest.raises(SpiderevalError, match=r"takes \(prediction, instance_id\) pairs"):
        spidereval.verdicts([b"a\n1\n"], GOLD)
    with pytest.raises(SpiderevalError, match="instance_id must be a str"):
        spidereval.verdicts([(b"a\n1\n", 3)], GOLD)
    with pytest.raises(SpiderevalError, match="instance 'nope' is not in the gold"):
        spidereval.verdicts([(b"a\n1\n", "demo001"), (b"a\n1\n", "nope")], GOLD)
    with pytest.raises(SpiderevalError, match="cannot use a int as the prediction"):
        spidereval.verdicts([(3, "demo001")], GOLD)


def test_dataframe():
    pd = pytest.importorskip("pandas")
    df = pd.read_csv(SUB + "/demo002.csv")
    assert spidereval.verdict(df, GOLD, "demo002").score == 1
    assert spidereval.verdict(df.iloc[:1], GOLD, "demo002").score == 0


def test_bad_predictions_are_verdicts():
    v = spidereval.verdict(b"", GOLD, "demo001")
    assert v.score == 0 and v.error_info == "Evaluation Error:EmptyDataError: No columns to parse from file"
    v = spidereval.verdict(b"\xff\n1", GOLD, "demo001")
    assert v.error_info.startswith("Evaluation Error:UnicodeDecodeError")
    v = spidereval.verdict(pathlib.Path("no/such/file.csv"), GOLD, "demo001")
    assert v.error_info.startswith("Evaluation Error:FileNotFoundError")
    v = spidereval.verdict((["a"], []), GOLD, "demo001")
    assert v.score == 0


def test_bad_arguments_raise():
    with pytest.raises(SpiderevalError, match="not in the gold directory"):
        spidereval.verdict(b"a\n1\n", GOLD, "nope")
    with pytest.raises(SpiderevalError, match="gold directory 'nowhere'"):
        spidereval.verdict(b"a\n1\n", "nowhere", "demo001")
    with pytest.raises(SpiderevalError, match="unknown flavor"):
        spidereval.verdict(b"a\n1\n", GOLD, "demo001", flavor="bird")
    with pytest.raises(SpiderevalError, match="unknown option 'fast'"):
        spidereval.verdict(b"a\n1\n", GOLD, "demo001", options="fast")
    with pytest.raises(SpiderevalError, match="cannot use a int"):
        spidereval.verdict(42, GOLD, "demo001")
    with pytest.raises(SpiderevalError, match="row 1 has 1 values but there are 2"):
        spidereval.verdict((["a", "b"], [(1, 2), (3,)]), GOLD, "demo001")
    with pytest.raises(SpiderevalError, match="cannot be written as UTF-8"):
        spidereval.verdict((["a"], [("\udc80",)]), GOLD, "demo001")


def test_options_and_flavors():
    near = b"region,total\nSouth,980.505\nNorth,1520.25\nWest,0\n"
    assert spidereval.verdict(near, GOLD, "demo002").score == 1
    assert spidereval.verdict(near, GOLD, "demo002", options="tol=0.001").score == 0
    assert spidereval.verdict(near, GOLD, "demo002", options=["tol=0.001", "strict"]).score == 0
    for flavor in ("snow", "lite", "dbt"):
        assert spidereval.verdict(near, GOLD, "demo002", flavor=flavor).score == 1


def sqlite_lines(script, root):
    out = subprocess.run(
        ["sqlite3", ":memory:", "-cmd", ".load build/spidereval",
         "-cmd", ".parameter set :submission '%s'" % SUB,
         "-cmd", ".parameter set :gold '%s'" % GOLD],
        input=open(script).read(), capture_output=True, text=True, cwd=root, check=True)
    return out.stdout


def test_evaluate_equals_evaluate_sql(root):
    import csv
    import io
    got = spidereval.evaluate(SUB, GOLD)
    want = list(csv.reader(io.StringIO(sqlite_lines("sql/evaluate.sql", root))))[1:]
    assert [(v.instance_id, str(v.score), v.error_info) for v in got] == \
        [tuple(w) for w in want]


def test_report_equals_report_sql(root):
    import re
    r = spidereval.report(SUB, GOLD)
    text = sqlite_lines("sql/report.sql", root)

    def has(pattern):
        assert re.search(pattern, text, re.M), (pattern, text)
    has(r"correct / evaluated:\s+%d / %d$" % (r["correct"], r["evaluated"]))
    has(r"score over evaluated:\s+%.4f$" % r["score"])
    has(r"score over all %d in eval:\s+%.4f$" % (r["total"], r["real_score"]))
    assert r["total"] - r["evaluated"] == r["not_submitted"] == 1
    for cat, n in r["by_outcome"].items():
        has(r"^│ %s\s+│ %d\s+│" % (re.escape(cat), n))
    for d, (n, ok) in r["by_difficulty"].items():
        has(r"^│ %s\s+│ %d\s+│ %d\s+│" % (d, n, ok))
    assert spidereval.report(SUB, GOLD, instances="spider2e")["correct"] == r["correct"]


def test_rows_written_as_pandas_writes_them():
    pd = pytest.importorskip("pandas")
    pool = [None, float("nan"), True, False, 0, 1, -3, 2**63, 2**63 - 1, -2**63, 2**64,
            1.0, 0.1, 1e16, -0.0, float("inf"), 1e-5, "a", "", " x ", "a,b", 'q"q',
            "line\nbreak", "NULL", "None", "1", 12.5]
    rnd = random.Random(7)
    for _ in range(3000):
        ncols = rnd.randint(1, 3)
        sub = rnd.sample(pool, rnd.randint(1, 4))
        rows = [[rnd.choice(sub) for _ in range(ncols)] for _ in range(rnd.randint(0, 4))]
        cols = ["c%d" % i for i in range(ncols)]
        assert spidereval.rows_to_csv(cols, rows) == \
            pd.DataFrame(rows, columns=cols).to_csv(index=False), rows
