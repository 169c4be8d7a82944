"""The execution reward for RL training of text-to-SQL models.

    from spidereval import reward
    r = reward.sql_execution(completion, "shop.sqlite", "SELECT city FROM customers")
    r.score, r.components     # 1.0, {'format_ok': 1, 'executed': 1, 'match': 1, ...}

The completion's SQL is what Spider 2.0 takes from a model's answer (the
text of its ```sql fence, else the whole text). It runs read-only with a
time bound (sql_match in the bundle; the same path as sql_verdict) and its
result is compared with the gold result under a named rule set:

- 'spider2': the official Spider 2.0 comparison (spider2-lite rules, the
  evaluator of the SQLite tasks): result written and read as pandas does,
  gold columns (condition_cols) each matched by some predicted column,
  numbers within 0.01, ignore_order sorting each column, zero rows
  compared like any result (the lite code's header-only CSV);
- 'spider2-strict': the same, rows must also pair up as whole tuples;
- 'spider2-snow': spider2-snow's rules (zero rows score 0: 'No data found
  for the specified query.', unless empty_ok);
- BIRD / Spider 1.0 rule sets when the bundle provides exec_verdict
  (see RULE_SETS and available_rules()).

The gold is gold SQL (a str; its result is computed once per database file
state and SQL, and cached in the SqlReward object) or a gold result
(bytes of a CSV, a pathlib.Path to a CSV file, a pandas DataFrame, Rows,
a (columns, rows) pair or a list of dicts, see spidereval.tables).

Every call uses its thread's own connection; SqlReward objects can be used
from many threads at once and pickled into worker processes.
"""

import csv
import io
import json
import math
import os
import re
import stat
import sys
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import NamedTuple, Optional

if not __package__:
    # loaded from its file by path, not imported (verl's
    # custom_reward_function.path, OpenRLHF's --remote_rm_url): no parent
    # package, so a relative import would fail ("attempted relative import
    # with no known parent package"). The package this file belongs to is
    # imported instead, from this file's own folder unless already loaded.
    if "spidereval" not in sys.modules:
        import importlib.util as _ilu
        _here = os.path.dirname(os.path.abspath(__file__))
        _spec = _ilu.spec_from_file_location(
            "spidereval", os.path.join(_here, "__init__.py"),
            submodule_search_locations=[_here])
        _pkg = _ilu.module_from_spec(_spec)
        sys.modules["spidereval"] = _pkg
        try:
            _spec.loader.exec_module(_pkg)
        except BaseException:
            del sys.modules["spidereval"]
            raise
    from spidereval._bundle import DB_ERRORS, SpiderevalError, _native, backend
    from spidereval.evaluation import options_text, thread_connection
    from spidereval.tables import table_argument
else:
    from ._bundle import DB_ERRORS, SpiderevalError, _native, backend
    from .evaluation import options_text, thread_connection
    from .tables import table_argument

# rule set -> options of sql_match
_SPIDER2_RULES = {
    "spider2": "lite",
    "spider2-strict": "lite strict",
    "spider2-snow": "snow",
}


# exec_verdict's rule sets (BIRD, Spider 1.0, LiveSQLBench), in bundles
# built with them
_PEER_RULES = ("bird", "bird_f1", "bird_ves", "spider", "livesql")

COMPONENTS = ("format_ok", "executed", "match", "similarity", "cell_recall",
              "cell_precision", "empty_match")


def _number(name, value):
    """value as a finite float, else SpiderevalError naming the option."""
    try:
        if isinstance(value, bool):
            raise TypeError
        f = float(value)
    except (TypeError, ValueError):
        raise SpiderevalError("spidereval: %s must be a number, not %r"
                              % (name, value)) from None
    if not math.isfinite(f):
        raise SpiderevalError("spidereval: %s must be a finite number, not %r"
                              % (name, value))
    return f


class RewardResult(NamedTuple):
    """One reward with its named components."""
    score: float              # the scalar reward (see SqlReward weights)
    format_ok: bool           # the completion holds SQL
    executed: bool            # the SQL ran without error within the bounds
    match: bool               # the result matches the gold under the rules
    similarity: Optional[float]  # partial credit: cell similarity (0..1)
                                 # of the two results, None if not executed
    cell_recall: Optional[float]     # the gold's cells found in the result
    cell_precision: Optional[float]  # the result's cells found in the gold
    rows: int                 # rows the prediction returned
    error_info: str           # '' on a match, else why (official wording)
    rules: str                # the rule set used
    empty_match: Optional[bool] = None  # both results have zero rows (None:
                                        # not known, BIRD / Spider 1.0 rules)

    @property
    def components(self):
        return {"format_ok": int(self.format_ok),
                "executed": int(self.executed), "match": int(self.match),
                "similarity": self.similarity,
                "cell_recall": self.cell_recall,
                "cell_precision": self.cell_precision,
                "empty_match": None if self.empty_match is None
                else int(self.empty_match), "rows": self.rows}


def extract_sql(completion, conn=None):
    """The SQL of a model's answer the way Spider 2.0's evaluator takes it
    from a .sql file (the bundle's sql_from_fence: newlines as text mode
    reads them, then the first match of the official regex
    ```sql\n(.*?)\n``` with its group stripped, else the whole text).
    '' when there is none."""
    if completion is None:
        return ""
    if conn is None and _use_native():
        return _native.extract_sql(completion)
    conn = conn or thread_connection()
    row = conn.execute("SELECT sql_from_fence(?)", (completion,)).fetchone()
    return row[0] or ""


# The extractors below read a model's text, which may be anything a policy
# loops into (a hundred thousand "<answer>" or a fence opened and never
# closed): each runs in time linear in the text. The regular expressions
# they stand for (and the tests compare them with) are in the comments.
_LANG = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                  "0123456789_+-")


def _fences(text):
    """(language, body) of each fence, as
    re.findall(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)```", text, re.S)
    gives them: an opening that finds no newline, or no closing ``` after
    its newline, ends the search (no later opening can find one either)."""
    out = []
    i = text.find("```")
    while i >= 0:
        nl = text.find("\n", i + 3)
        end = text.find("```", nl + 1) if nl >= 0 else -1
        if end < 0:
            break
        j = i + 3
        while j < nl and text[j] in " \t":
            j += 1
        k = j
        while k < nl and text[k] in _LANG:
            k += 1
        out.append((text[j:k], text[nl + 1:end]))
        i = text.find("```", end + 3)
    return out


def _last_fence(text):
    """The last ```sql fence's text, else the last fence of any language,
    else the whole text."""
    fences = _fences(text)
    sql = [body for lang, body in fences if lang.lower() == "sql"]
    if sql or fences:
        return (sql or [body for _, body in fences])[-1].strip()
    return text.strip()


_ANSWER_OPEN = re.compile("<answer>", re.I)
_ANSWER_CLOSE = re.compile("</answer>", re.I)


def _answer_tag(text):
    """The last <answer>...</answer> (DeepSeek-R1 / SQL-R1 style), as the
    last of re.findall(r"<answer>(.*?)</answer>", text, re.S | re.I); a
    ```sql fence inside it is taken as the official way takes it. ''
    without."""
    found, pos = "", 0
    while True:
        o = _ANSWER_OPEN.search(text, pos)
        c = _ANSWER_CLOSE.search(text, o.end()) if o else None
        if c is None:
            return found
        found, pos = text[o.end():c.start()], c.end()


def _solution_body(text):
    """The text of SkyRL-SQL's one <solution>...</solution> (exactly one
    opening and one closing tag, no <think>, <sql> or <observation> tag
    inside), stripped; None when the format does not hold."""
    if text.count("<solution>") != 1:
        return None
    tail = text.split("<solution>", 1)[1]
    if tail.count("</solution>") != 1:
        return None
    body = tail.split("</solution>", 1)[0]
    if re.search(r"</?(think|sql|observation)\b", body, re.I):
        return None
    return body.strip()


def _solution_tag(text):
    """_solution_body, '' when the format does not hold."""
    return _solution_body(text) or ""


class FinalSql(str):
    """An extractor's result taken as the SQL as it is (not read again the
    official way): SkyRL-SQL runs its <solution> text unchanged."""


_OBSERVATION_END = re.compile("</observation>", re.I)
_BLANKS = re.compile(r"\s*")  # \s is str.isspace, what lstrip() strips


def _skyrl_format(text):
    """SkyRL-SQL's whole format rule: the one <solution> of _solution_tag,
    at least one <think>...</think> (re.search(r"<think>(.*?)</think>",
    text, re.S)), and every </observation> before the solution followed
    (after blanks) by <think> (before[m.end():].lstrip().lower()
    .startswith("<think>"), of which seven characters decide). '' else."""
    body = _solution_body(text)
    think = text.find("<think>")
    if body is None or think < 0 or text.find("</think>", think + 7) < 0:
        return ""
    before = text.split("<solution>", 1)[0]
    for m in _OBSERVATION_END.finditer(before):
        j = _BLANKS.match(before, m.end()).end()
        if not before[j:j + 7].lower().startswith("<think>"):
            return ""
    return FinalSql(body)


# extract= choices: each gives the text the official extraction then reads
# (so a ```sql fence inside a tag is taken as Spider 2.0 takes it)
EXTRACTORS = {"official": None, "last_fence": _last_fence,
              "answer": _answer_tag, "solution": _solution_tag,
              "skyrl": _skyrl_format}


def _extractor(extract):
    if extract is None or callable(extract):
        return extract
    if extract not in EXTRACTORS:
        raise SpiderevalError(
            "spidereval: unknown extract %r (expected %s, or a callable "
            "taking the completion and returning its SQL)"
            % (extract, ", ".join(EXTRACTORS)))
    return EXTRACTORS[extract]


def _zero_rows(csv_arg):
    """Whether a result given as CSV bytes (or a CSV file's path) has a
    header and no row."""
    try:
        if isinstance(csv_arg, str):
            with open(csv_arg, "rb") as f:
                csv_arg = f.read()
        reader = csv.reader(io.StringIO(csv_arg.decode("utf-8", "replace")))
        next(reader, None)
        return next(reader, None) is None
    except (OSError, csv.Error):
        return False


_NATIVE = []  # [True] or [False] once decided


def _use_native():
    """Whether rewards run on the native module (backend() 'native'),
    decided once per process: the choice of the first call holds."""
    if not _NATIVE:
        _NATIVE.append(_native is not None and backend() == "native")
    return _NATIVE[0]


def _peer_rules(conn):
    try:
        return bool(conn.execute(
            "SELECT 1 FROM pragma_function_list WHERE name = 'exec_verdict'"
        ).fetchone())
    except DB_ERRORS:
        return False


def available_rules():
    """The rule sets this bundle supports."""
    rules = list(_SPIDER2_RULES)
    if _peer_rules(thread_connection()):
        rules += list(_PEER_RULES)
    return rules


class _InFlight:
    """A gold result being computed: the other threads wait on done."""
    __slots__ = ("done", "result")

    def __init__(self):
        self.done = threading.Event()
        self.result = None


# the sandbox's and SQLite's messages of failures that may not recur
_TRANSIENT = ("timeout after", "memory limit", "out of memory", "interrupted",
              "database is locked", "database is busy", "disk i/o error")


def _transient(message):
    m = message.lower()
    return any(t in m for t in _TRANSIENT)


_TABLES_MAX = 4096  # parsed gold results kept by the native path

_new_tuple = tuple.__new__  # a RewardResult made without its Python __new__


def _cc_json(cc):
    """condition_cols as the JSON text sql_match takes (None: None)."""
    try:
        return None if cc is None else json.dumps(
            list(cc) if isinstance(cc, (list, tuple)) else cc)
    except (TypeError, ValueError):
        raise SpiderevalError(
            "spidereval: condition_cols must be a list of column indices "
            "or None, not %r" % (cc,)) from None


def _native_table(tables, csv, what, pandas=None):
    """The native module's Table of a gold result's CSV bytes, parsed once
    as pandas generation pandas reads them (tables: a dict keyed by the
    bytes, bounded; one generation per dict)."""
    t = tables.get(csv)
    if t is None:
        try:
            t = _native.Table(csv, pandas)
        except _native.Error as e:
            raise SpiderevalError("spidereval: cannot read %s: %s"
                                  % (what, e)) from None
        if len(tables) >= _TABLES_MAX:
            tables.clear()
        tables[csv] = t
    return t


class SqlReward:
    """An execution reward with its settings and its gold-result cache.

    rules: 'spider2' (default), 'spider2-strict', 'spider2-snow', or a rule
      set of exec_verdict (BIRD, Spider 1.0) when the bundle has it.
    timeout: seconds each query may run (default 30; the gold too).
    ignore_order: compare results ignoring row order (default True; the
      official per-instance flag of Spider 2.0 when known).
    condition_cols: the gold columns that must appear (default: all).
    empty_ok: an empty result is compared like any other (Spider2-E)
      instead of scoring 0.
    weights: the scalar as a weighted sum of the components, e.g.
      {'format_ok': 0.1, 'executed': 0.1, 'match': 0.8}; default: match
      alone (1.0 or 0.0). 'similarity', 'cell_recall' and
      'cell_precision' are partial credit (0 when nothing ran);
      'empty_match' is 1 when both results have zero rows.
    extract: how the SQL is taken from the completion: 'official' (the
      first ```sql fence, Spider 2.0's regex, else the whole text),
      'last_fence', 'answer' (<answer>...</answer>), 'solution' (SkyRL-SQL's
      <solution>...</solution>), 'skyrl' (the same with SkyRL-SQL's whole
      format rule: a <think> block, <think> after each </observation>; its
      text is run as it is, as SkyRL runs it), or a callable completion ->
      SQL ('' or None: no SQL; a FinalSql is run as it is, any other str is
      read the official way).
    format_penalty: the score of a completion without SQL (a negative
      constant such as -1.0, SkyRL-SQL's); default: the weighted sum (0).
    empty_match: None (default): the rule set decides whether two empty
      results match ('spider2' compares them like any result and matches,
      'spider2-snow' scores zero rows 0); True: two empty results always
      match (full credit, SQL-R1's setting); False: they never do (no
      credit for an empty result on a near-empty database).
    pandas: the pandas generation whose read_csv reads both results ('1.5',
      '2' or '3'; None: the default, 2), as in spidereval.verdict.
    """

    def __init__(self, rules="spider2", timeout=30.0, ignore_order=True,
                 condition_cols=None, empty_ok=False, weights=None,
                 extract="official", format_penalty=None, empty_match=None,
                 pandas=None):
        if rules not in _SPIDER2_RULES and rules not in _PEER_RULES:
            raise SpiderevalError(
                "spidereval: unknown rules %r (expected %s)"
                % (rules, ", ".join(list(_SPIDER2_RULES) + list(_PEER_RULES))))
        self.rules = rules
        # sql_match's option words for this rule set, pandas=G checked
        flavor, _, words = _SPIDER2_RULES.get(rules, "lite").partition(" ")
        self._opts = options_text(flavor, words or None, pandas)
        self.pandas = None if pandas is None else str(pandas)
        self.extract = extract
        self._extract = _extractor(extract)
        if format_penalty is not None:
            format_penalty = _number("format_penalty", format_penalty)
            if not format_penalty <= 0:
                raise SpiderevalError(
                    "spidereval: format_penalty must be a negative number or "
                    "0, not %r" % format_penalty)
        self.format_penalty = format_penalty
        if empty_match not in (None, True, False):
            raise SpiderevalError("spidereval: empty_match must be None, True "
                                  "or False, not %r" % (empty_match,))
        self.empty_match = empty_match
        self.timeout = _number("timeout", timeout)
        self.ignore_order = bool(ignore_order)
        self.condition_cols = condition_cols
        self.empty_ok = bool(empty_ok)
        if weights is not None and not isinstance(weights, dict):
            raise SpiderevalError(
                "spidereval: weights must be a dict of component: weight, "
                "not %s" % type(weights).__name__)
        self.weights = dict(weights) if weights else {"match": 1.0}
        for k in self.weights:
            if k not in COMPONENTS:
                raise SpiderevalError(
                    "spidereval: unknown reward component %r in weights "
                    "(expected %s)" % (k, ", ".join(COMPONENTS)))
            self.weights[k] = _number("weights[%r]" % k, self.weights[k])
        if not (0 < self.timeout <= 86400):
            raise SpiderevalError("spidereval: timeout must be above 0 and at "
                                  "most 86400 seconds")
        self._gold = {}
        self._inflight = {}
        self._tables = {}  # native Tables of gold CSVs (native backend)
        # (st_dev, st_ino, st_size, st_mtime_ns, gold SQL) -> the gold's
        # native Table: what _native.reward_cached looks up in C
        self._golds = {}
        self._lock = threading.Lock()
        self.gold_runs = 0  # gold results computed (not taken from the cache)
        self._settle()

    def _settle(self):
        """What every call of these settings shares, worked out once: the
        option words, condition_cols as JSON, the weights in order, and
        whether a call may take the fast path (_native.reward_cached: a
        spider2 rule set, a built-in extraction but SkyRL's)."""
        self._match_opts = self._opts + (" emptyok" if self.empty_ok else "")
        try:
            self._ccj = _cc_json(self.condition_cols)
            ccj_ok = True
        except SpiderevalError:  # raised by each call, on the full path
            self._ccj, ccj_ok = None, False
        self._witems = tuple(self.weights.items())
        self._match_only = self._witems == (("match", 1.0),)
        self._fast = (ccj_ok and self.rules in _SPIDER2_RULES and (
            self._extract is None or self._extract in (
                _last_fence, _answer_tag, _solution_tag)))

    # pickling for process pools: the cache and lock stay behind
    def __getstate__(self):
        d = dict(self.__dict__)
        d["_gold"] = {}
        d["_inflight"] = {}
        d["_tables"] = {}
        d["_golds"] = {}
        del d["_lock"]
        return d

    def __setstate__(self, d):
        self.__dict__.update(d)
        self._lock = threading.Lock()

    def _scalar(self, format_ok, executed, match, similarity=None,
                recall=None, precision=None, empty=None):
        if not format_ok and self.format_penalty is not None:
            return self.format_penalty
        if self._match_only:  # the default: what the sum below gives
            return 1.0 if match else 0.0
        vals = {"format_ok": format_ok, "executed": executed, "match": match,
                "similarity": similarity or 0.0,
                "cell_recall": recall or 0.0,
                "cell_precision": precision or 0.0,
                "empty_match": empty or 0}
        return float(sum(w * float(vals[k]) for k, w in self._witems))

    def _empty_rule(self, empty, match, info):
        """match and error_info once empty_match has ruled on a pair of
        empty results (empty: both have zero rows)."""
        if not empty or self.empty_match is None:
            return match, info
        return self.empty_match, "" if self.empty_match else (
            "Result Error: both results are empty (empty_match=False)")

    def _result(self, format_ok, executed, match, rows, info,
                similarity=None, recall=None, precision=None, empty=None):
        return RewardResult(
            self._scalar(format_ok, executed, match, similarity, recall,
                         precision, empty),
            bool(format_ok), bool(executed), bool(match), similarity, recall,
            precision, rows, info, self.rules, empty)

    def sql_of(self, completion, conn=None):
        """The SQL this reward takes from a completion (see extract)."""
        if completion is not None and not isinstance(completion, str):
            raise SpiderevalError(
                "spidereval: the completion must be a str (the model's text), "
                "not %s" % type(completion).__name__)
        if self._extract is not None and completion is not None:
            completion = self._extract(completion)
            if not isinstance(completion, str):
                if completion is not None:
                    raise SpiderevalError(
                        "spidereval: the extract callable returned a %s, not "
                        "the SQL as a str" % type(completion).__name__)
                completion = ""
            elif isinstance(completion, FinalSql):
                return FinalSql(completion.strip())
        return extract_sql(completion, conn)

    def gold_result(self, db_path, gold_sql, conn=None, st=None):
        """The gold SQL's result as CSV bytes, computed once per database
        file state (device, inode, size, mtime) and SQL, and cached. Raises
        SpiderevalError when the gold cannot be run (the message says
        why)."""
        if st is None:
            try:
                st = os.stat(db_path)
            except OSError as e:
                raise SpiderevalError("spidereval: no such database %r: %s"
                                      % (db_path, e.strerror)) from e
        key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, gold_sql)
        # one computation per key: the first thread to miss computes, the
        # others wait for its result (an in-flight entry)
        with self._lock:
            hit = self._gold.get(key)
            flight = None
            if hit is None:
                flight = self._inflight.get(key)
                owner = flight is None
                if owner:
                    flight = self._inflight[key] = _InFlight()
        if hit is None and not owner:
            flight.done.wait()
            hit = flight.result
        elif hit is None:
            try:
                try:
                    if conn is None and _use_native():
                        csv = _native.result_csv(
                            db_path, _native.extract_sql(gold_sql),
                            self.timeout)
                    else:
                        conn = conn or thread_connection()
                        csv = conn.execute(
                            "SELECT CAST(sql_result_csv(?, ?, ?) AS BLOB)",
                            (db_path, extract_sql(gold_sql, conn),
                             self.timeout)).fetchone()[0]
                    hit = (csv, None)
                except DB_ERRORS as e:
                    msg = str(e)
                    if not msg.startswith("sql_result_csv: "):
                        msg = "sql_result_csv: " + msg
                    hit = (None, "the gold SQL fails: %s" % msg)
            finally:
                if hit is None:  # an exception escaped: the waiters retry
                    hit = (None, "the gold SQL could not be run")
                    transient = True
                else:
                    transient = hit[1] is not None and _transient(hit[1])
                flight.result = hit
                with self._lock:
                    self.gold_runs += 1
                    # a failure that may not recur (a timeout, memory) is
                    # not kept: the next call runs the gold again
                    if not transient:
                        self._gold[key] = hit
                    del self._inflight[key]
                flight.done.set()
        if hit[1]:
            raise SpiderevalError("spidereval: %s" % hit[1])
        return hit[0]

    def __call__(self, completion, db_path, gold, condition_cols=None,
                 ignore_order=None, conn=None):
        """The reward of one completion. Bad completions (no SQL, SQL that
        fails, times out or returns too much) give a low reward with the
        reason in error_info; a database that does not exist or a gold that
        fails gives score 0 with error_info starting 'Gold Error:' (the
        trainers' entry points, spidereval.trainers, raise on it naming the
        sample, or count and log it)."""
        if (self._fast and conn is None and isinstance(gold, str)
                and isinstance(db_path, str) and isinstance(completion, str)
                and _use_native()):
            # the gold result cached for the database file as it is now:
            # one native call extracts the SQL, stats the database, finds
            # the gold Table in self._golds (the gold cache's key), runs
            # and judges the query; None when it cannot decide (no SQL, no
            # such database, the gold not cached): the full path below
            ex = self._extract
            try:
                v = _native.reward_cached(
                    self._golds, db_path,
                    completion if ex is None else ex(completion), gold,
                    self._ccj if condition_cols is None else _cc_json(
                        condition_cols),
                    self.ignore_order if ignore_order is None
                    else bool(ignore_order), self._match_opts, self.timeout)
            except (_native.Error, ValueError, TypeError):
                v = None  # the full path says it
            if v is not None:
                return self._of_cached(v)
        got = self._prepare(completion, db_path, gold, condition_cols,
                            ignore_order, conn)
        if not isinstance(got, _Pending):
            return got
        try:
            v = _native.reward(*got.args)
        except (_native.Error, SpiderevalError) as e:
            return self._result(1, 0, 0, 0, "Gold Error: %s" % str(
                e).replace("spidereval: ", "", 1))
        return self._finish(got, v)

    def _of_cached(self, v):
        """The RewardResult of a verdict of _native.reward_cached."""
        match, info, executed, rows, sim, recall, precision, ge = v
        empty = ge and executed and rows == 0
        if empty and self.empty_match is not None:
            match, info = self._empty_rule(True, match, info)
        return _new_tuple(RewardResult, (
            (1.0 if match else 0.0) if self._match_only else
            self._scalar(1, executed, match, sim, recall, precision, empty),
            True, executed == 1, match == 1, sim, recall, precision, rows,
            info, self.rules, empty == 1))

    def _cached_item(self, completion, db_path, gold, condition_cols=None,
                     ignore_order=None, conn=None):
        """An item of _native.rewards_cached for these arguments of
        __call__, or None where only the full path can score them."""
        if not (conn is None and isinstance(gold, str)
                and isinstance(db_path, str) and isinstance(completion, str)):
            return None
        ex = self._extract
        return (db_path, completion if ex is None else ex(completion), gold,
                self._ccj if condition_cols is None else _cc_json(
                    condition_cols),
                self.ignore_order if ignore_order is None
                else bool(ignore_order), self._match_opts, self.timeout)

    def _finish(self, got, v):
        """The reward of a prepared completion from its native verdict."""
        match, info, executed, rows, sim, recall, precision = v
        empty = bool(executed) and rows == 0 and got.table.nrows == 0
        match, info = self._empty_rule(empty, match, info)
        return self._result(1, executed, match, rows, info, sim, recall,
                            precision, empty)

    def _prepare(self, completion, db_path, gold, condition_cols=None,
                 ignore_order=None, conn=None):
        """Everything of __call__ before the prediction runs: its reward
        when that is known already (no SQL, no database, a gold that fails,
        the sqlite3 backend), or a _Pending with the arguments of
        _native.reward."""
        native = conn is None and _use_native()
        if not native:
            conn = conn or thread_connection()
        sql = self.sql_of(completion, conn)
        if not sql.strip():
            if isinstance(sql, FinalSql):  # the format holds, no statement
                return self._result(1, 0, 0, 0,
                                    "Execution Error: empty SQL")
            return self._result(0, 0, 0, 0,
                                "Format Error: no SQL in the completion")
        if not isinstance(db_path, (str, os.PathLike)):
            raise SpiderevalError("spidereval: db_path must be a path, not %s"
                                  % type(db_path).__name__)
        db_path = os.fspath(db_path)
        try:
            st = os.stat(db_path)
        except OSError:
            st = None
        if st is None or not stat.S_ISREG(st.st_mode):
            return self._result(1, 0, 0, 0,
                                "Gold Error: no such database '%s'" % db_path)
        if self.rules not in _SPIDER2_RULES:
            return self._peer(conn or thread_connection(), sql, db_path, gold)
        io = self.ignore_order if ignore_order is None else ignore_order
        try:
            if isinstance(gold, str):
                gold_arg = self.gold_result(db_path, gold, conn, st)
            else:
                gold_arg = table_argument(gold, "gold")
        except SpiderevalError as e:
            return self._result(1, 0, 0, 0,
                                "Gold Error: %s" % str(e).replace(
                                    "spidereval: ", "", 1))
        opts = self._match_opts
        ccj = _cc_json(self.condition_cols if condition_cols is None
                       else condition_cols)
        if native:
            if isinstance(gold_arg, str):  # a gold CSV file (os.PathLike)
                try:
                    with open(gold_arg, "rb") as f:
                        gold_arg = f.read()
                except OSError as e:
                    return self._result(1, 0, 0, 0, "Gold Error: cannot read "
                                        "gold '%s': %s" % (gold_arg,
                                                          e.strerror))
            try:
                table = _native_table(self._tables, gold_arg, "gold",
                                      self.pandas)
            except (_native.Error, SpiderevalError) as e:
                return self._result(1, 0, 0, 0, "Gold Error: %s" % str(
                    e).replace("spidereval: ", "", 1))
            if isinstance(gold, str):  # for _cached: the gold cache's key
                if len(self._golds) >= _TABLES_MAX:
                    self._golds.clear()
                self._golds[(st.st_dev, st.st_ino, st.st_size,
                             st.st_mtime_ns, gold)] = table
            return _Pending((db_path, sql, table, ccj, bool(io), opts,
                             self.timeout), table)
        else:
            try:
                js = conn.execute(
                    "SELECT sql_match(?, ?, ?, ?, ?, ?, ?)",
                    (db_path, sql, gold_arg, "[]" if ccj is None else ccj,
                     int(bool(io)), opts, self.timeout)).fetchone()[0]
            except DB_ERRORS as e:
                return self._result(1, 0, 0, 0, "Gold Error: %s" % e)
            v = json.loads(js)
            match, info, executed, rows = (v["score"], v["error_info"],
                                           v["executed"], v["rows"])
            sim, recall, precision = (v["similarity"], v["cell_recall"],
                                      v["cell_precision"])
        empty = bool(executed) and rows == 0 and _zero_rows(gold_arg)
        match, info = self._empty_rule(empty, match, info)
        return self._result(1, executed, match, rows, info, sim, recall,
                            precision, empty)

    def _peer(self, conn, sql, db_path, gold):
        """A BIRD / Spider 1.0 / LiveSQLBench rule set: exec_verdict runs
        both queries and judges them as that benchmark's evaluator does."""
        if not _peer_rules(conn):
            raise SpiderevalError(
                "spidereval: unknown rule set %r (this bundle has %s; the "
                "BIRD / Spider 1.0 rule sets need exec_verdict)"
                % (self.rules, ", ".join(_SPIDER2_RULES)))
        if not isinstance(gold, str):
            raise SpiderevalError("spidereval: rule set %r needs gold SQL"
                                  % self.rules)
        try:
            js = conn.execute("SELECT exec_verdict(?, ?, ?, ?, ?)",
                              (db_path, sql, extract_sql(gold, conn), self.rules,
                               self.timeout)).fetchone()[0]
        except DB_ERRORS as e:
            raise SpiderevalError(str(e)) from e
        v = json.loads(js)
        info = v.get("error_info") or ""
        score = v.get("score")
        if score is None or info.startswith("gold"):
            # the upstream evaluator raises (failing gold, blank prediction)
            return self._result(1, 0, 0, 0,
                                "Gold Error: %s" % (info or "no verdict"))
        executed = not info.startswith(("pred", "refused", "timeout"))
        score = float(score)
        # bird_ves rewards a correct result 0.25-1.25 by its speed
        match = score > 0 if self.rules == "bird_ves" else score == 1
        return RewardResult(
            self._scalar(1, executed, score, score), True, executed,
            match, score if executed else None, None, None, 0, info,
            self.rules)

    def rewards(self, items, workers=1, processes=False):
        """Rewards of many items, in input order. An item is a dict with
        completion, db_path, gold (and optionally condition_cols,
        ignore_order) or a (completion, db_path, gold) tuple. workers > 1
        runs them in threads (the GIL is released while a query runs;
        each thread has its own connection), or in processes with
        processes=True. With the native backend the queries of a chunk of
        items (up to BATCH, about four chunks per thread) go to a worker in
        one round trip: a slow query delays the items after it in its chunk
        by at most its timeout; the other threads go on."""
        items = list(items)
        if workers <= 1 and _use_native():
            # one after another: with the native backend, the queries of
            # BATCH items at a time in one round trip to a worker
            # (_native.rewards), each within its own timeout
            return [r for i in range(0, len(items), BATCH)
                    for r in self._batch(items[i:i + BATCH])]
        if workers <= 1:
            return [self._item(it) for it in items]
        if processes:
            with ProcessPoolExecutor(max_workers=workers) as ex:
                chunk = max(1, len(items) // (workers * 8))
                return list(ex.map(self._item, items, chunksize=chunk))
        # threads: each takes chunks of at most BATCH items (about four per
        # thread, so that a chunk of slow queries does not leave the other
        # threads idle), with the native backend a chunk's queries in one
        # round trip to a worker
        size = max(1, min(BATCH, -(-len(items) // (workers * 4))))
        chunks = [items[i:i + size] for i in range(0, len(items), size)]
        with ThreadPoolExecutor(max_workers=workers) as ex:
            return [r for rs in ex.map(self._batch, chunks) for r in rs]

    def _batch(self, items):
        """The rewards of items (native backend), their queries in one
        _native.rewards call."""
        return self._batch_args([self._args(it) for it in items])

    def _batch_args(self, calls):
        """self(*args) of each args of calls, in order; with the native
        backend their queries in one _native.rewards call."""
        if not _use_native():
            return [self(*args) for args in calls]
        got = [None] * len(calls)
        if self._fast:
            # the items whose gold is cached: one _native.rewards_cached
            # call (as __call__ takes _native.reward_cached)
            fast = [(i, self._cached_item(*args))
                    for i, args in enumerate(calls)]
            fast = [(i, a) for i, a in fast if a is not None]
            try:
                vs = _native.rewards_cached(self._golds, [a for _, a in fast])
            except (_native.Error, ValueError, TypeError):
                vs = ()  # the full path says it
            for (i, _), v in zip(fast, vs):
                if v is not None:
                    got[i] = self._of_cached(v)
        got = [g if g is not None else self._prepare(*args)
               for g, args in zip(got, calls)]
        todo = [g for g in got if isinstance(g, _Pending)]
        if todo:
            try:
                verdicts = iter(_native.rewards([g.args for g in todo]))
            except (_native.Error, SpiderevalError):
                # one item's error: each alone, as __call__ tells it
                return [self(*args) for args in calls]
        return [self._finish(g, next(verdicts)) if isinstance(g, _Pending)
                else g for g in got]

    @staticmethod
    def _args(it):
        if isinstance(it, dict):
            return (it["completion"], it["db_path"], it["gold"],
                    it.get("condition_cols"), it.get("ignore_order"))
        return tuple(it)

    def _item(self, it):
        if isinstance(it, dict):
            return self(it["completion"], it["db_path"], it["gold"],
                        it.get("condition_cols"), it.get("ignore_order"))
        return self(*it)


class _Pending:
    """A completion ready to run: the arguments of _native.reward and the
    gold Table."""
    __slots__ = ("args", "table")

    def __init__(self, args, table):
        self.args = args
        self.table = table


# items of SqlReward.rewards sent to a worker in one round trip at most
BATCH = 64

_default = {}


def _reward_for(rules, timeout):
    r = _default.get((rules, timeout))
    if r is None:
        r = _default[(rules, timeout)] = SqlReward(rules, timeout)
    return r


def sql_execution(completion, db_path, gold, rules="spider2", timeout=30.0,
                  condition_cols=None, ignore_order=True, empty_ok=False):
    """The reward of one completion (see SqlReward). Gold results of gold
    SQL are cached per rule set and timeout."""
    r = _reward_for(rules, timeout)
    if empty_ok:
        r = SqlReward(rules, timeout, empty_ok=True)
        shared = _reward_for(rules, timeout)
        r._gold, r._inflight, r._lock = shared._gold, shared._inflight, shared._lock
        r._golds = shared._golds
    return r(completion, db_path, gold, condition_cols, ignore_order)


def rewards(items, workers=1, rules="spider2", timeout=30.0, processes=False):
    """sql_execution over many items, in input order (see
    SqlReward.rewards)."""
    return _reward_for(rules, timeout).rewards(items, workers, processes)


# ---------------------------------------------------------------- adapters
# The trainers' call shapes (verl, TRL, OpenRLHF, SkyRL-SQL) live in
# spidereval.trainers; their entry points are names of this module too, so
# a trainer that loads this file by path finds them here.
if __package__:
    from .trainers import (GoldError, compute_score, compute_score_async,
                           compute_score_batch, compute_score_details,
                           compute_score_single, make_trl_reward, reward,
                           reward_func, trl_reward, trl_reward_async)
else:
    from spidereval.trainers import (
        GoldError, compute_score, compute_score_async, compute_score_batch,
        compute_score_details, compute_score_single, make_trl_reward, reward,
        reward_func, trl_reward, trl_reward_async)
