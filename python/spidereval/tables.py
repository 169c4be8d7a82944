"""Predictions in memory, turned into what the SQL functions take.

The SQL functions read a TEXT argument as a file path and a BLOB as the
bytes of a CSV file (see docs/match_funcs.md). A prediction held in Python
becomes those bytes exactly as pandas would write it for the official
evaluator, so the verdict is the one the file would get:

- bytes: the CSV file's content, as is;
- str: CSV text (UTF-8 encoded), always: a str is never a file name, so a
  model's answer can never become a file read (a one-line answer naming
  the gold file is the CSV text of that name, not the gold's content);
- os.PathLike (pathlib.Path): a file path, the only way to give one;
- a pandas DataFrame: ``df.to_csv(index=False)``;
- rows: ``Rows(columns, rows)``, a ``(columns, rows)`` pair, or a list of
  dicts, written as ``pandas.DataFrame(rows, columns=columns)
  .to_csv(index=False)`` writes them (each column typed as pandas types it:
  only ints -> int64, ints/floats/None -> float64 (1 prints 1.0, None
  empty), only bools -> bool, anything else -> object: str() of each value,
  None empty), without needing pandas.
"""

import csv
import io
import itertools
import os

from ._bundle import SpiderevalError

_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1
_UINT64_MAX = (1 << 64) - 1


class Rows:
    """A result held as column names and rows (sequences of Python values),
    e.g. ``Rows([d[0] for d in cursor.description], cursor.fetchall())``."""

    __slots__ = ("columns", "rows")

    def __init__(self, columns, rows):
        self.columns = list(columns)
        self.rows = rows

    def __repr__(self):
        return "Rows(%r, <%d rows>)" % (self.columns, len(self.rows))


def _is_dataframe(x):
    return type(x).__name__ == "DataFrame" and hasattr(x, "to_csv")


_STR, _INT, _FLOAT, _BOOL = {str}, {int}, {float}, {bool}


def _column_writer(values):
    """How a column's values become CSV fields: None when the csv module
    writes each value as pandas would (str() of it: strings, in-range
    ints, bools, floats without NaN), else a function of one value."""
    types = set(map(type, values))
    if types == _STR or types == _BOOL:
        return None
    if types == _INT and _INT64_MIN <= min(values) and max(values) <= _INT64_MAX:
        return None
    if types == _FLOAT and all(v == v for v in values):
        return None
    kind = _column_kind(values)
    if kind == "float":
        return _float_text
    if kind == "object":
        return _cell_text_object
    return str


def _column_kind(values):
    """The dtype pandas' DataFrame constructor gives a column of Python
    values (lib.maybe_convert_objects with its defaults): 'int', 'float',
    'bool' or 'object'."""
    null = nan = flt = integer = boolean = unsigned = signed = False
    for v in values:
        if v is None:
            null = True
        elif isinstance(v, bool):
            boolean = True
        elif isinstance(v, float):
            if v != v:
                nan = True
            else:
                flt = True
        elif isinstance(v, int):
            integer = True
            if not null:
                if v > _UINT64_MAX or v < _INT64_MIN:
                    return "object"
                if v > _INT64_MAX:
                    unsigned = True
                if v < 0:
                    signed = True
                if unsigned and signed:
                    return "object"
        else:
            return "object"
    if boolean:
        return "bool" if not (null or nan or flt or integer) else "object"
    if null or nan:
        return "float" if (flt or integer or nan) else "object"
    if flt:
        return "float"
    if integer:
        return "int"
    return "object"  # no rows


def _float_text(v):
    return "" if v is None or v != v else repr(float(v))


def _cell_text_object(v):
    if v is None or (isinstance(v, float) and v != v):
        return ""
    return v if isinstance(v, str) else str(v)


_PLAIN = frozenset((type(None), bool, int, float, str))


def _exotic(rows):
    """True when some value is not a plain Python None/bool/int/float/str
    (numpy scalars, dates, Decimal...): pandas itself is asked then."""
    return not _PLAIN.issuperset(map(type, itertools.chain.from_iterable(rows)))


def rows_to_csv(columns, rows):
    """The CSV text pandas.DataFrame(rows, columns=columns).to_csv(index=False)
    writes (pandas 1.5), for rows of plain Python values."""
    columns = list(columns)
    ncols = len(columns)
    rows = [tuple(r) for r in rows]
    for i, r in enumerate(rows):
        if len(r) != ncols:
            raise SpiderevalError(
                "spidereval: row %d has %d values but there are %d column "
                "names %r" % (i, len(r), ncols, columns[:10]))
    if rows and _exotic(rows):
        try:
            import pandas
        except ImportError:
            pandas = None
        if pandas is not None:
            return pandas.DataFrame(rows, columns=columns).to_csv(index=False)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow([str(c) for c in columns])
    if not rows:
        return out.getvalue()
    cols = list(zip(*rows))
    writers = [_column_writer(values) for values in cols]
    if not any(writers):
        w.writerows(rows)
    else:
        text_cols = [values if f is None else [f(v) for v in values]
                     for f, values in zip(writers, cols)]
        w.writerows(zip(*text_cols))
    return out.getvalue()


def records_to_csv(records):
    """A list of dicts as pandas.DataFrame(records).to_csv(index=False):
    columns in order of first appearance, a missing key is NaN."""
    columns = {}
    for r in records:
        if not isinstance(r, dict):
            raise SpiderevalError(
                "spidereval: a list of rows needs dicts (records) or "
                "Rows(columns, rows); got a %s" % type(r).__name__)
        for k in r:
            columns.setdefault(k, None)
    names = list(columns)
    missing = float("nan")
    rows = [[r.get(k, missing) for k in names] for r in records]
    return rows_to_csv(names, rows)


def table_argument(pred, what="prediction"):
    """pred as a SQL argument: str (a path: from os.PathLike only) or bytes
    (a CSV's content: bytes, str, and the in-memory forms)."""
    if isinstance(pred, (bytes, bytearray, memoryview)):
        return bytes(pred)
    if isinstance(pred, os.PathLike):
        path = os.fspath(pred)
        if not isinstance(path, str):
            path = os.fsdecode(path)
        return path
    if isinstance(pred, str):
        text = pred
    elif _is_dataframe(pred):
        text = pred.to_csv(index=False)
    elif isinstance(pred, Rows):
        text = rows_to_csv(pred.columns, pred.rows)
    elif isinstance(pred, tuple) and len(pred) == 2:
        text = rows_to_csv(pred[0], pred[1])
    elif isinstance(pred, list):
        text = records_to_csv(pred)
    else:
        raise SpiderevalError(
            "spidereval: cannot use a %s as the %s (expected a path as "
            "os.PathLike, CSV text or bytes, a pandas DataFrame, Rows(columns, rows), a "
            "(columns, rows) pair or a list of dicts)"
            % (type(pred).__name__, what))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise SpiderevalError(
            "spidereval: the %s cannot be written as UTF-8 (pandas' to_csv "
            "would fail too): %s" % (what, e)) from e
