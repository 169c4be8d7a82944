"""The official Spider 2.0 verdicts from Python: one prediction, a folder,
the report's numbers. Each thread (and each process) uses its own
connection; nothing is shared between them."""

import json
import os
import threading
from typing import NamedTuple, Optional

from ._bundle import DB_ERRORS, SpiderevalError, connect
from .tables import table_argument

FLAVORS = ("snow", "lite", "dbt")


class Verdict(NamedTuple):
    """One instance's official verdict (spider_verdict's JSON)."""
    score: int               # 1 or 0
    error_info: str          # '' for a pass, else the official category and why
    variant: Optional[str]   # the gold variant that matched ('' for <id>.csv,
                             # 'a' for <id>_a.csv, '\n' for <id>.csv\n)
    variants: int            # gold variants of the instance
    instance_id: Optional[str] = None


_local = threading.local()


def _forget_after_fork():
    # a forked child must not use its parent's connection
    _local.__dict__.pop("conn", None)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


def thread_connection():
    """This thread's own connection with the bundle loaded (opened on first
    use, and again in a forked child)."""
    try:
        return _local.conn
    except AttributeError:
        _local.conn = connect(":memory:", check_same_thread=True)
        return _local.conn


_OPTIONS = {}


PANDAS = ("1.5", "2", "3")


def options_text(flavor="snow", options=None, pandas=None):
    """The options argument of the SQL functions: flavor first, then the
    option words (a string or an iterable of words), then pandas=G when
    pandas names a generation ("1.5", "2" or "3"; None: the default)."""
    if options is None or isinstance(options, str):
        key = (flavor, options, pandas)
        text = _OPTIONS.get(key)
        if text is None:
            text = _OPTIONS.setdefault(key, _options_text(flavor, options,
                                                          pandas))
            if len(_OPTIONS) > 1000:
                _OPTIONS.clear()
        return text
    return _options_text(flavor, options, pandas)


def _options_text(flavor, options, pandas=None):
    if flavor not in FLAVORS:
        raise SpiderevalError("spidereval: unknown flavor %r (expected snow, "
                              "lite or dbt)" % (flavor,))
    if options is None:
        words = ""
    elif isinstance(options, str):
        words = options
    else:
        words = " ".join(options)
    if pandas is not None:
        if str(pandas) not in PANDAS:
            raise SpiderevalError("spidereval: unknown pandas generation %r "
                                  "(expected '1.5', '2' or '3')" % (pandas,))
        words += " pandas=" + str(pandas)
    return (flavor + " " + words).strip()


def _call(conn, sql, args):
    try:
        return conn.execute(sql, args).fetchone()[0]
    except DB_ERRORS as e:
        raise SpiderevalError(str(e)) from e


# spider_verdict's JSON -> (score, error_info, variant, variants): the same
# few texts come back again and again (every pass of an instance, the same
# failures), so each is decoded once (bounded; dict access is atomic)
_DECODED = {}


def _decoded(js):
    t = _DECODED.get(js)
    if t is None:
        v = json.loads(js)
        t = (v["score"], v["error_info"], v["variant"], v["variants"])
        if len(_DECODED) >= 4096:
            _DECODED.clear()
        _DECODED[js] = t
    return t


def verdict(pred, gold_dir, instance_id, flavor="snow", options=None,
            conn=None, pandas=None):
    """The official verdict of one prediction against a Spider 2.0 gold
    directory. pred is a path, CSV text or bytes, a pandas DataFrame,
    Rows(columns, rows), a (columns, rows) pair or a list of dicts (see
    spidereval.tables). Bad predictions give score 0 with the official
    error_info; a bad gold directory, instance or option raises
    SpiderevalError. pandas: the generation whose read_csv reads the
    tables ("1.5", "2" or "3"; None: the default)."""
    conn = conn or thread_connection()
    arg = table_argument(pred)
    js = _call(conn, "SELECT spider_verdict(?, ?, ?, ?)",
               (arg, os.fspath(gold_dir), instance_id,
                options_text(flavor, options, pandas)))
    score, info, variant, variants = _decoded(js)
    return Verdict(score, info, variant, variants, instance_id)


# one statement for a batch: item k of :items is its instance_id (the
# prediction's bytes at span k of :spans in :data; substr of a BLOB is a
# BLOB) or a [path, instance_id] pair; spans are fixed-width text (start
# and length, 12 digits each), cheaper to read per row than JSON. The gold
# directory is checked once per statement.
_BATCH = """
SELECT j.key, spider_verdict(
  CASE j.type WHEN 'text' THEN
    substr(:data, CAST(substr(:spans, j.key * 24 + 1, 12) AS INTEGER),
                  CAST(substr(:spans, j.key * 24 + 13, 12) AS INTEGER))
  ELSE j.value ->> 0 END,
  :gold, CASE j.type WHEN 'text' THEN j.value ELSE j.value ->> 1 END,
  :options)
FROM json_each(:items) AS j
"""
_BATCH_ITEMS = 4096          # items per statement
_BATCH_BYTES = 64 << 20      # prediction bytes per statement
_NO_SPAN = b" " * 24


def verdicts(items, gold_dir, flavor="snow", options=None, conn=None,
             pandas=None):
    """The official verdicts of many predictions against one gold
    directory, in input order: items are (pred, instance_id) pairs, each
    pred in any form verdict() takes. The same verdicts as verdict() one by
    one, in one SQL statement per few thousand items (the gold directory
    checked once per statement, not once per item): the fast way for many
    small predictions."""
    conn = conn or thread_connection()
    opts = options_text(flavor, options, pandas)
    gold = os.fspath(gold_dir)
    out = []
    keys, parts, spans, ids = [], [], [], []
    size = 0

    def run():
        # a byte after the last prediction: substr(x'', 1, 0) is NULL, an
        # empty slice of a longer BLOB is an empty BLOB
        parts.append(b"\0")
        try:
            rows = conn.execute(_BATCH, {
                "data": b"".join(parts), "spans": b"".join(spans),
                "items": json.dumps(keys), "gold": gold,
                "options": opts}).fetchall()
        except DB_ERRORS as e:
            raise SpiderevalError(str(e)) from e
        got = [None] * len(keys)
        for k, js in rows:
            got[k] = js
        for js, iid in zip(got, ids):
            score, info, variant, variants = _decoded(js)
            out.append(Verdict(score, info, variant, variants, iid))

    for item in items:
        try:
            pred, iid = item
        except (TypeError, ValueError):
            raise SpiderevalError(
                "spidereval: verdicts() takes (prediction, instance_id) "
                "pairs; got %r" % (item,)) from None
        if not isinstance(iid, str):
            raise SpiderevalError("spidereval: instance_id must be a str, "
                                  "not %s" % type(iid).__name__)
        arg = pred if type(pred) is bytes else table_argument(pred)
        if isinstance(arg, bytes):
            keys.append(iid)
            spans.append(b"%12d%12d" % (size + 1, len(arg)))
            parts.append(arg)
            size += len(arg)
        else:
            keys.append((arg, iid))
            spans.append(_NO_SPAN)
        ids.append(iid)
        if len(keys) >= _BATCH_ITEMS or size >= _BATCH_BYTES:
            run()
            keys, parts, spans, ids = [], [], [], []
            size = 0
    if keys:
        run()
    return out


def _spider2e_sql():
    here = os.path.dirname(os.path.abspath(__file__))
    for p in (os.path.join(here, "sql", "spider2e.sql"),
              os.path.join(here, os.pardir, os.pardir, "sql", "spider2e.sql")):
        if os.path.exists(p):
            with open(p, encoding="utf-8") as f:
                return f.read()
    raise SpiderevalError("spidereval: sql/spider2e.sql is not installed")


_JUDGED = """
WITH gold AS MATERIALIZED (
  SELECT instance_id, difficulty FROM gold_instances(:gold)
  WHERE (in_eval OR NOT EXISTS (SELECT 1 FROM gold_instances(:gold) WHERE in_eval))
    AND (:instances <> 'spider2e'
         OR instance_id NOT IN (SELECT instance_id FROM temp.spider2e_excluded))
)
SELECT s.instance_id, g.difficulty,
       spider_verdict(s.path, :gold, s.instance_id, :options) AS v
FROM submission_files(:submission) AS s
JOIN gold AS g ON g.instance_id = s.instance_id
ORDER BY s.instance_id
"""


def _judge(conn, result_dir, gold_dir, flavor, options, instances,
           pandas=None):
    if instances not in ("all", "spider2e"):
        raise SpiderevalError("spidereval: instances must be 'all' or "
                              "'spider2e', not %r" % (instances,))
    try:
        conn.executescript(_spider2e_sql())
        rows = conn.execute(_JUDGED, {
            "gold": os.fspath(gold_dir), "submission": os.fspath(result_dir),
            "options": options_text(flavor, options, pandas),
            "instances": instances}).fetchall()
    except DB_ERRORS as e:
        raise SpiderevalError(str(e)) from e
    out = []
    for iid, difficulty, js in rows:
        v = json.loads(js)
        out.append((Verdict(v["score"], v["error_info"], v["variant"],
                            v["variants"], iid), difficulty))
    return out


def evaluate(result_dir, gold_dir, flavor="snow", options=None,
             instances="all", conn=None, pandas=None):
    """The verdict of every instance present in both the submission folder
    and the gold's eval jsonl, ordered by instance_id (sql/evaluate.sql)."""
    conn = conn or thread_connection()
    return [v for v, _ in _judge(conn, result_dir, gold_dir, flavor, options,
                                 instances, pandas)]


def _category(v):
    if v.score == 1:
        return "Correct"
    info = v.error_info
    if info.startswith("Result Error"):
        return "Result Error"
    if info.startswith("No matching gold file found"):
        return "No matching gold file found"
    # up to the second colon: 'Evaluation Error:EmptyDataError'
    first = info.find(":")
    second = info.find(":", first + 1) if first >= 0 else -1
    return info[:second] if second >= 0 else info[:first if first >= 0 else 0]


def report(result_dir, gold_dir, flavor="snow", options=None, instances="all",
           conn=None, pandas=None):
    """The numbers of sql/report.sql as a dict: correct, evaluated,
    score (over evaluated), total (instances of the eval jsonl in scope),
    real_score (over total), not_submitted (total - evaluated), by_difficulty {name: (evaluated, correct)},
    by_outcome {category: count}, verdicts (list of Verdict)."""
    conn = conn or thread_connection()
    judged = _judge(conn, result_dir, gold_dir, flavor, options, instances,
                    pandas)
    try:
        total = conn.execute(
            "SELECT count(*) FROM gold_instances(:gold) WHERE (in_eval OR NOT "
            "EXISTS (SELECT 1 FROM gold_instances(:gold) WHERE in_eval)) AND "
            "(:instances <> 'spider2e' OR instance_id NOT IN (SELECT "
            "instance_id FROM temp.spider2e_excluded))",
            {"gold": os.fspath(gold_dir), "instances": instances}).fetchone()[0]
    except DB_ERRORS as e:
        raise SpiderevalError(str(e)) from e
    correct = sum(v.score for v, _ in judged)
    by_difficulty, by_outcome = {}, {}
    for v, d in judged:
        n, ok = by_difficulty.get(d, (0, 0))
        by_difficulty[d] = (n + 1, ok + v.score)
        c = _category(v)
        by_outcome[c] = by_outcome.get(c, 0) + 1
    n = len(judged)
    return {
        "correct": correct,
        "evaluated": n,
        "score": correct / n if n else 0.0,
        "total": total,
        "real_score": correct / total if total else 0.0,
        "not_submitted": total - n,
        "by_difficulty": by_difficulty,
        "by_outcome": by_outcome,
        "verdicts": [v for v, _ in judged],
    }
