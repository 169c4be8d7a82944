/*
** spidereval_native.c: the CPython module spidereval._native, the
** project's own C code with SQLite, jansson and PCRE2 linked in
** statically (one self-contained binary: neither the interpreter's
** sqlite3 module nor the system's SQLite matter). Built on the limited
** API of CPython 3.9 (abi3): one binary serves CPython 3.9 and later.
**
**   from spidereval import _native
**   gold = _native.Table(b"city,n\nLima,2\nRecife,1\n")
**   _native.reward("shop.db", "SELECT city, count(*) FROM customers GROUP BY 1",
**                  gold, None, True, "lite", 30.0)
**   -> (1, '', 1, 2, 1.0, 1.0, 1.0)
**
** Everything below calls the same code the loadable extension does: the
** execution service (sandbox/exec.h, spidereval-worker processes found
** beside this module), the comparison (compare/sql_match.h, the official
** rules) and the pandas-faithful reader (read/typed_table.h). The GIL is
** released while a query runs and while results are read and compared.
**
** Functions and types (errors raise _native.Error, lowercase, naming the
** function and the bad value):
**
** Table(csv: bytes, pandas: str|None = None)
**   A result held in memory, read as pandas of generation pandas ('1.5',
**   '2' or '3'; None: the default, 2) reads the CSV file of those bytes.
**   .ncols, .nrows, .pandas. Shared by threads: a comparison holds it
**   alone (its sorted views are built lazily).
** match(pred, gold, condition_cols, ignore_order, options)
**   The verdict of a result held in memory (pred: Table or CSV bytes)
**   against gold (a Table): the tuple (score, error_info, executed, rows,
**   similarity, cell_recall, cell_precision) as sql_match gives them,
**   executed 1. condition_cols: None or JSON text; options: sql_match's
**   words (snow/lite/dbt, strict, emptyok, tol=X, pandas=G, ...). The
**   prediction is read as the gold was: options whose pandas generation
**   is not the gold Table's raise.
** reward(db_path, answer, gold, condition_cols, ignore_order, options,
**        timeout)
**   sql_match: the answer's SQL (its ```sql fence, else the whole text)
**   run read-only in a worker process within timeout seconds and judged
**   against gold; the same tuple (similarity etc. None when nothing ran).
**   A db_path that is not a file raises ("no such database").
** rewards(items) -> list of verdicts
**   reward() of each (db_path, answer, gold, condition_cols, ignore_order,
**   options, timeout) tuple, the queries sent to one worker in one round
**   trip (sx_run_batch), each within its own timeout: a query killed at
**   its deadline fails alone; the others keep their verdicts.
** result_csv(db_path, sql, timeout) -> bytes
**   The CSV pandas writes for sql's result (sql_result_csv); a query that
**   fails raises with its message.
** extract_sql(text) -> str
**   The official fence rule (sql_from_fence).
** Connection(path=":memory:")
**   A SQLite connection (SQLite linked in) with every spidereval function
**   registered: .execute(sql, params=()) -> list of row tuples (params a
**   sequence or a mapping of :names), .executescript(sql), .close().
**   One statement per execute. Used by one thread at a time.
** version() -> str; sqlite_version() -> str; worker_path() -> str|None;
** stats() -> (started, killed, died, served) of the worker pool;
** set_isolation(on) -> previous; pool_size(n) -> size.
*/
#define Py_LIMITED_API 0x03090000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/sql_text.h"
#include "compare/sql_match.h"
#include "compare/table_compare.h"
#include "read/typed_table.h"
#include "sandbox/exec.h"
#include "spidereval.h"

int sqlite3_spidereval_init(sqlite3 *db, char **pzErrMsg,
                            const sqlite3_api_routines *pApi);

static PyObject *NativeError; /* _native.Error */

/* Raise Error with a sqlite3_malloc'd message (freed); NULL message: out
** of memory. Returns NULL. */
static PyObject *raise_msg(char *msg) {
  if (!msg) return PyErr_NoMemory();
  PyErr_SetString(NativeError, msg);
  sqlite3_free(msg);
  return NULL;
}

/* UTF-8 of a str (a new bytes object in *keep, NULL on error). */
static const char *utf8_of(PyObject *s, PyObject **keep, Py_ssize_t *len,
                           const char *fn, const char *what) {
  *keep = NULL;
  if (!PyUnicode_Check(s)) {
    PyErr_Format(PyExc_TypeError, "%s: %s must be a str", fn, what);
    return NULL;
  }
  *keep = PyUnicode_AsUTF8String(s);
  if (!*keep) return NULL;
  char *p;
  if (PyBytes_AsStringAndSize(*keep, &p, len) < 0) {
    Py_CLEAR(*keep);
    return NULL;
  }
  return p;
}

/* ------------------------------------------------------------- Table */

typedef struct {
  PyObject_HEAD
  tt_table *t;
  tt_gen gen;         /* the pandas generation it was read as */
  pthread_mutex_t mu; /* one comparison at a time (lazy views) */
} TableObject;

static PyTypeObject *TableType;

/* Parse n bytes into *out; on failure a Python exception is set. */
static int parse_csv(const char *fn, const char *p, Py_ssize_t n,
                     tt_gen gen, tt_table **out) {
  char *perr = NULL;
  tt_error te;
  if (n <= 16384) { /* a few microseconds: less than giving up the GIL */
    te = tt_parse_gen(p, (size_t)n, gen, out, &perr);
  } else {
    Py_BEGIN_ALLOW_THREADS
    te = tt_parse_gen(p, (size_t)n, gen, out, &perr);
    Py_END_ALLOW_THREADS
  }
  if (te != TT_OK) {
    raise_msg(sqlite3_mprintf("%s: cannot read (a CSV of %lld bytes): %s: %s",
                              fn, (long long)n, tt_exception(te, perr),
                              perr ? perr : ""));
    free(perr);
    return -1;
  }
  free(perr);
  return 0;
}

static PyObject *Table_new(PyTypeObject *type, PyObject *args,
                           PyObject *kw) {
  static char *kwlist[] = {"csv", "pandas", NULL};
  const char *p, *pandas = NULL;
  Py_ssize_t n;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "y#|z:Table", kwlist, &p, &n,
                                   &pandas))
    return NULL;
  int gen = pandas ? tt_gen_from_name(pandas) : (int)TT_GEN_DEFAULT;
  if (gen < 0) {
    PyErr_Format(NativeError,
                 "Table: unknown pandas generation '%s' (expected '1.5', "
                 "'2' or '3')", pandas);
    return NULL;
  }
  tt_table *t;
  if (parse_csv("Table", p, n, (tt_gen)gen, &t) < 0) return NULL;
  allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
  TableObject *self = (TableObject *)alloc(type, 0);
  if (!self) {
    tt_free(t);
    return NULL;
  }
  self->t = t;
  self->gen = (tt_gen)gen;
  pthread_mutex_init(&self->mu, NULL);
  return (PyObject *)self;
}

static void Table_dealloc(PyObject *o) {
  TableObject *self = (TableObject *)o;
  PyTypeObject *tp = Py_TYPE(o);
  tt_free(self->t);
  pthread_mutex_destroy(&self->mu);
  freefunc f = (freefunc)PyType_GetSlot(tp, Py_tp_free);
  f(o);
  Py_DECREF(tp);
}

static PyObject *Table_ncols(PyObject *o, void *c) {
  (void)c;
  return PyLong_FromLong(((TableObject *)o)->t->ncols);
}

static PyObject *Table_nrows(PyObject *o, void *c) {
  (void)c;
  return PyLong_FromLongLong(((TableObject *)o)->t->nrows);
}

static PyObject *Table_pandas(PyObject *o, void *c) {
  (void)c;
  return PyUnicode_FromString(tt_gen_name(((TableObject *)o)->gen));
}

static PyGetSetDef Table_getset[] = {
    {"pandas", Table_pandas, NULL, "the pandas generation it was read as",
     NULL},
    {"ncols", Table_ncols, NULL, "columns", NULL},
    {"nrows", Table_nrows, NULL, "data rows", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot Table_slots[] = {
    {Py_tp_new, Table_new},
    {Py_tp_dealloc, Table_dealloc},
    {Py_tp_getset, Table_getset},
    {Py_tp_doc, "Table(csv: bytes, pandas=None): a result read as pandas "
                "(generation '1.5', '2' or '3') reads that CSV"},
    {0, NULL}};

static PyType_Spec Table_spec = {"spidereval._native.Table",
                                 sizeof(TableObject), 0, Py_TPFLAGS_DEFAULT,
                                 Table_slots};

/* ------------------------------------------------------- match, reward */

/* What match and reward share: the options, the condition_cols spec
** checked against the gold. */
typedef struct {
  sm_settings s;
  cc_spec spec;
  char *spec_error; /* Python Script Error text (malloc'd) or NULL */
} judge_args;

/* The last options text parsed well and its settings (plain values):
** a trainer passes the same words on every call. Read and written with
** the GIL held. */
static char *last_opts;
static sm_settings last_settings;
/* The str object last_opts was read from (a reference held): a call
** passing that same object (a trainer's constant) skips decoding it. */
static PyObject *last_opts_obj;

/* Parse the settings; returns -1 with an exception set. */
static int judge_args_init(const char *fn, PyObject *cc, const char *opts,
                           const tt_table *gold, tt_gen gold_gen,
                           judge_args *a) {
  memset(a, 0, sizeof *a);
  if (last_opts && !strcmp(opts, last_opts)) {
    a->s = last_settings;
  } else {
    char *err = sm_parse_settings(fn, opts, 1, &a->s);
    if (err) {
      raise_msg(err);
      return -1;
    }
    char *keep = strdup(opts);
    if (keep) {
      free(last_opts);
      last_opts = keep;
      last_settings = a->s;
      Py_CLEAR(last_opts_obj); /* it was of the text before */
    }
  }
  if (a->s.o.gen != gold_gen) {
    PyErr_Format(NativeError,
                 "%s: options read as pandas %s, the gold Table was read as "
                 "pandas %s (Table(csv, pandas=...) and pandas= in the "
                 "options must agree)",
                 fn, tt_gen_name(a->s.o.gen), tt_gen_name(gold_gen));
    return -1;
  }
  if (cc == Py_None) {
    a->spec.kind = CC_ALL; /* what "[]" gives in every flavour */
    return 0;
  }
  PyObject *keep = NULL;
  Py_ssize_t len;
  const char *cc_json =
      utf8_of(cc, &keep, &len, fn, "condition_cols (JSON text)");
  if (!cc_json) return -1;
  char *jerr = NULL;
  int bad = tc_variant_spec(cc_json, 1, 0, 1, &a->s.o, &a->spec, &jerr);
  Py_XDECREF(keep);
  if (bad) {
    raise_msg(sqlite3_mprintf("%s: %s", fn,
                              jerr ? jerr : "malformed condition_cols JSON"));
    free(jerr);
    return -1;
  }
  if (a->spec.kind == CC_ERROR) {
    a->spec_error = strdup(a->spec.error ? a->spec.error : "");
  } else if (tc_check_spec(&a->spec, gold, &jerr)) {
    a->spec_error = jerr; /* the official comparison raises: score 0 */
  }
  return 0;
}

static void judge_args_clear(judge_args *a) {
  cc_spec_clear(&a->spec);
  free(a->spec_error);
}

/* The result tuple: (score, error_info, executed, rows, similarity,
** cell_recall, cell_precision), and extra as an eighth item when it is not
** NULL (taken). Takes info (sqlite3_free'd). */
static PyObject *verdict_tuple_x(int score, char *info, int executed,
                                 int64_t rows, double sim, double recall,
                                 double precision, PyObject *extra) {
  PyObject *v[8];
  int n = extra ? 8 : 7;
  v[0] = PyLong_FromLong(score);
  v[1] = PyUnicode_FromString(info ? info : "");
  v[2] = PyLong_FromLong(executed);
  v[3] = PyLong_FromLongLong((long long)rows);
  for (int k = 0; k < 3; k++) {
    double x = k == 0 ? sim : k == 1 ? recall : precision;
    if (sim >= 0) {
      v[4 + k] = PyFloat_FromDouble(x);
    } else {
      Py_INCREF(Py_None);
      v[4 + k] = Py_None;
    }
  }
  v[7] = extra;
  sqlite3_free(info);
  PyObject *t = PyTuple_New(n);
  for (int k = 0; k < n; k++) {
    if (!v[k] && t) Py_CLEAR(t);
    if (t) PyTuple_SetItem(t, k, v[k]); /* (steals v[k]) */
    else Py_XDECREF(v[k]);
  }
  return t;
}

static PyObject *verdict_tuple(int score, char *info, int executed,
                               int64_t rows, double sim, double recall,
                               double precision) {
  return verdict_tuple_x(score, info, executed, rows, sim, recall, precision,
                         NULL);
}

static PyObject *py_match(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *pred_o, *gold_o, *cc, *opts_o;
  int ignore_order;
  const char *opts;
  /* the usual call, arguments unpacked without PyArg_ParseTuple's format
  ** walk: the options the same str object as before, the gold a Table,
  ** ignore_order's truth at hand; anything else as the format says */
  if (last_opts_obj && PyTuple_Size(args) == 5 &&
      PyTuple_GetItem(args, 4) == last_opts_obj &&
      PyObject_TypeCheck((gold_o = PyTuple_GetItem(args, 1)), TableType)) {
    pred_o = PyTuple_GetItem(args, 0);
    cc = PyTuple_GetItem(args, 2);
    opts = last_opts;
    ignore_order = PyObject_IsTrue(PyTuple_GetItem(args, 3));
    if (ignore_order < 0) return NULL; /* as 'p' raises */
  } else if (!PyArg_ParseTuple(args, "OO!Ops:match", &pred_o, TableType,
                               &gold_o, &cc, &ignore_order, &opts)) {
    return NULL;
  }
  opts_o = PyTuple_GetItem(args, 4);
  TableObject *gold = (TableObject *)gold_o;
  tt_table *pred = NULL, *owned = NULL;
  if (PyObject_TypeCheck(pred_o, TableType)) {
    pred = ((TableObject *)pred_o)->t;
    if (((TableObject *)pred_o)->gen != gold->gen) {
      PyErr_Format(NativeError,
                   "match: pred was read as pandas %s, gold as pandas %s",
                   tt_gen_name(((TableObject *)pred_o)->gen),
                   tt_gen_name(gold->gen));
      return NULL;
    }
  } else if (!PyBytes_Check(pred_o)) {
    PyErr_SetString(PyExc_TypeError, "match: pred must be a Table or CSV bytes");
    return NULL;
  }
  judge_args a;
  if (judge_args_init("match", cc, opts, gold->t, gold->gen, &a) < 0)
    return NULL;
  if (opts_o != last_opts_obj && last_opts && !strcmp(opts, last_opts)) {
    Py_INCREF(opts_o);
    Py_XDECREF(last_opts_obj);
    last_opts_obj = opts_o; /* its text is last_opts */
  }
  if (!pred) {
    char *p;
    Py_ssize_t n;
    if (PyBytes_AsStringAndSize(pred_o, &p, &n) < 0 ||
        parse_csv("match", p, n, gold->gen, &owned) < 0) {
      judge_args_clear(&a);
      return NULL;
    }
    pred = owned;
  }
  if (a.spec_error) {
    char *info = sqlite3_mprintf("Python Script Error:%s", a.spec_error);
    int64_t n = pred->nrows;
    judge_args_clear(&a);
    tt_free(owned);
    return info ? verdict_tuple(0, info, 1, n, -1, -1, -1) : PyErr_NoMemory();
  }
  if (pred->nrows == 0 && !a.s.empty_ok) {
    judge_args_clear(&a);
    int64_t n = pred->nrows;
    tt_free(owned);
    return verdict_tuple(
        0, sqlite3_mprintf("No data found for the specified query."), 1, n,
        -1, -1, -1);
  }
  sm_outcome out;
  int r;
  /* a Table given as pred is held too (its views are lazy), gold first */
  int lock_pred = !owned && pred != gold->t;
  /* a judgment of a few cells takes microseconds, less than giving up the
  ** GIL and taking it back: kept while the locks are free at once */
  if (owned && pred->nrows * pred->ncols <= 64 &&
      gold->t->nrows * gold->t->ncols <= 64 &&
      !pthread_mutex_trylock(&gold->mu)) {
    r = sm_judge(pred, gold->t, &a.spec, ignore_order, &a.s.o, a.s.redact,
                 &out);
    pthread_mutex_unlock(&gold->mu);
  } else {
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&gold->mu);
    if (lock_pred) pthread_mutex_lock(&((TableObject *)pred_o)->mu);
    r = sm_judge(pred, gold->t, &a.spec, ignore_order, &a.s.o, a.s.redact,
                 &out);
    if (lock_pred) pthread_mutex_unlock(&((TableObject *)pred_o)->mu);
    pthread_mutex_unlock(&gold->mu);
    Py_END_ALLOW_THREADS
  }
  int64_t n = pred->nrows;
  judge_args_clear(&a);
  tt_free(owned);
  if (r < 0) return PyErr_NoMemory();
  return verdict_tuple(out.score, out.info, 1, n, out.sim, out.recall,
                       out.precision);
}

/* The timeout argument, as the SQL functions check it. */
static int check_timeout(const char *fn, double t) {
  if (!(t > 0 && t <= 86400)) {
    PyErr_Format(NativeError,
                 "%s: timeout must be above 0 and at most 86400 seconds", fn);
    return -1;
  }
  return 0;
}

/* A database path that is a regular file, else an exception. */
static int check_database(const char *fn, const char *path) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
    PyErr_Format(NativeError, "%s: no such database '%s'", fn, path);
    return -1;
  }
  return 0;
}

/* reward() of a parsed call: the answer run on db and judged against
** gold. cached: reward_cached's way (the database was just looked at:
** one that is gone when the query did not run gives None, not an error;
** the gold's zero rows appended as an eighth item). */
static PyObject *reward_core(const char *fn, const char *db,
                             const char *answer, size_t answer_len,
                             TableObject *gold, PyObject *cc,
                             int ignore_order, const char *opts,
                             double timeout, int cached) {
  if (check_timeout(fn, timeout) < 0) return NULL;
  judge_args a;
  if (judge_args_init(fn, cc, opts, gold->t, gold->gen, &a) < 0)
    return NULL;
  a.s.lim.timeout = timeout;
  PyObject *gold_empty = NULL;
  if (cached) {
    gold_empty = PyBool_FromLong(gold->t->nrows == 0);
    if (!gold_empty) {
      judge_args_clear(&a);
      return NULL;
    }
  }
  if (a.spec_error) {
    char *info = sqlite3_mprintf("Python Script Error:%s", a.spec_error);
    judge_args_clear(&a);
    if (!cached && check_database(fn, db) < 0) {
      sqlite3_free(info);
      return NULL;
    }
    if (!info) {
      Py_XDECREF(gold_empty);
      return PyErr_NoMemory();
    }
    return verdict_tuple_x(0, info, 0, 0, -1, -1, -1, gold_empty);
  }
  tt_table *pred = NULL;
  int executed = 0, r;
  int64_t nrows = 0;
  char *info = NULL;
  sm_outcome out = {0, -1, -1, -1, NULL};
  Py_BEGIN_ALLOW_THREADS
  r = sm_run_prediction_gen(db, answer, answer_len, &a.s.lim, a.s.empty_ok,
                            gold->gen, &pred, &executed, &nrows, &info);
  if (r == 0) {
    pthread_mutex_lock(&gold->mu);
    r = sm_judge(pred, gold->t, &a.spec, ignore_order, &a.s.o, a.s.redact,
                 &out);
    pthread_mutex_unlock(&gold->mu);
    info = out.info;
  }
  tt_free(pred);
  Py_END_ALLOW_THREADS
  judge_args_clear(&a);
  if (r < 0) {
    sqlite3_free(info);
    Py_XDECREF(gold_empty);
    return PyErr_NoMemory();
  }
  /* a database that is not a file raises: looked at when the query did
  ** not run (one stat less per reward; the verdict of a query that ran
  ** on it stands for itself) */
  if (!executed && check_database(fn, db) < 0) {
    sqlite3_free(info);
    Py_XDECREF(gold_empty);
    if (!cached) return NULL;
    PyErr_Clear(); /* gone since it was looked at: the caller's slow path */
    Py_RETURN_NONE;
  }
  return verdict_tuple_x(out.score, info, executed, executed ? nrows : 0,
                         out.sim, out.recall, out.precision, gold_empty);
}

static PyObject *py_reward(PyObject *m, PyObject *args) {
  (void)m;
  const char *db, *answer, *opts;
  Py_ssize_t answer_len;
  PyObject *gold_o, *cc;
  int ignore_order;
  double timeout;
  if (!PyArg_ParseTuple(args, "ss#O!Opsd:reward", &db, &answer, &answer_len,
                        TableType, &gold_o, &cc, &ignore_order, &opts,
                        &timeout))
    return NULL;
  return reward_core("reward", db, answer, (size_t)answer_len,
                     (TableObject *)gold_o, cc, ignore_order, opts, timeout,
                     0);
}

/* reward_cached(golds, db_path, answer, gold_sql, condition_cols,
** ignore_order, options, timeout): reward() whose gold Table is
** golds[(st_dev, st_ino, st_size, st_mtime_ns, gold_sql)] of db_path's
** stat now (the key the package's gold cache uses), with the gold's zero
** rows as an eighth item; None when that is not decided here: the answer
** has no SQL (no printable ASCII in its fenced text), db_path is not a
** regular file (or holds a NUL), the key is not in golds. One call and one
** stat for what SqlReward did in Python around reward(). */
/* reward_cached's lookup: the gold Table (a new reference) of
** golds[(st_dev, st_ino, st_size, st_mtime_ns, gold_sql)] of db_o's stat
** now, with the answer's fenced SQL in *fenced (malloc'd, *fl bytes) and
** db_o's UTF-8 in *db (kept by *keep). NULL when undecided (no SQL, not a
** regular file, no such key), or on an error with an exception set. */
static TableObject *cached_gold(PyObject *golds, PyObject *db_o,
                                const char *answer, Py_ssize_t answer_len,
                                PyObject *gold_sql, char **fenced, size_t *fl,
                                PyObject **keep, const char **db) {
  *keep = NULL;
  *fl = 0;
  *fenced = sql_from_fence(answer, (size_t)answer_len, fl);
  if (!*fenced) {
    PyErr_NoMemory();
    return NULL;
  }
  int has_sql = 0;
  for (size_t i = 0; i < *fl && !has_sql; i++)
    has_sql = (*fenced)[i] > 0x20 && (*fenced)[i] < 0x7f;
  Py_ssize_t db_len;
  struct stat st;
  long long mtime_ns;
  if (!has_sql) return NULL;
  *db = utf8_of(db_o, keep, &db_len, "reward_cached", "db_path");
  if (!*db) return NULL;
  if ((Py_ssize_t)strlen(*db) != db_len || stat(*db, &st) != 0 ||
      !S_ISREG(st.st_mode) ||
      __builtin_mul_overflow((long long)st.st_mtim.tv_sec, 1000000000LL,
                             &mtime_ns) ||
      __builtin_add_overflow(mtime_ns, (long long)st.st_mtim.tv_nsec,
                             &mtime_ns))
    return NULL;
  PyObject *key = Py_BuildValue("(KKLLO)", (unsigned long long)st.st_dev,
                                (unsigned long long)st.st_ino,
                                (long long)st.st_size, mtime_ns, gold_sql);
  if (!key) return NULL;
  PyObject *gold = PyDict_GetItemWithError(golds, key); /* borrowed */
  Py_DECREF(key);
  if (!gold || !PyObject_TypeCheck(gold, TableType)) return NULL;
  Py_INCREF(gold); /* held while the GIL is released: golds may drop it */
  return (TableObject *)gold;
}

static PyObject *py_reward_cached(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *golds, *db_o, *gold_sql, *cc;
  const char *answer, *opts;
  Py_ssize_t answer_len;
  int ignore_order;
  double timeout;
  if (!PyArg_ParseTuple(args, "O!Us#UOpsd:reward_cached", &PyDict_Type,
                        &golds, &db_o, &answer, &answer_len, &gold_sql, &cc,
                        &ignore_order, &opts, &timeout))
    return NULL;
  char *fenced = NULL;
  size_t fl;
  PyObject *keep, *res;
  const char *db;
  TableObject *gold = cached_gold(golds, db_o, answer, answer_len, gold_sql,
                                  &fenced, &fl, &keep, &db);
  if (gold) {
    res = reward_core("reward_cached", db, fenced, fl, gold, cc,
                      ignore_order, opts, timeout, 1);
    Py_DECREF(gold);
  } else if (PyErr_Occurred()) {
    res = NULL;
  } else {
    Py_INCREF(Py_None);
    res = Py_None;
  }
  free(fenced);
  Py_XDECREF(keep);
  return res;
}

/* rewards(items): reward() of each (db_path, answer, gold, condition_cols,
** ignore_order, options, timeout) tuple, the queries in one round trip to
** a worker (sm_run_predictions), each within its own timeout. With golds
** (rewards_cached), each item is (db_path, answer, gold_sql, ...) as
** reward_cached takes it, and its verdict reward_cached's (None when
** undecided). */
static PyObject *rewards_impl(PyObject *golds, PyObject *arg) {
  const char *fn = golds ? "rewards_cached" : "rewards";
  PyObject *seq = PySequence_List(arg); /* items held while they are used */
  if (!seq) return NULL;
  Py_ssize_t n = PyList_Size(seq);
  size_t un = (size_t)(n ? n : 1);
  judge_args *a = calloc(un, sizeof *a);
  sm_prediction *in = calloc(un, sizeof *in);
  TableObject **gold = calloc(un, sizeof *gold);
  int *io = calloc(un, sizeof *io), *run = calloc(un, sizeof *run);
  int *executed = calloc(un, sizeof *executed), *outcome = calloc(un, sizeof *outcome);
  int64_t *nrows = calloc(un, sizeof *nrows);
  tt_table **pred = calloc(un, sizeof *pred);
  char **info = calloc(un, sizeof *info);
  sm_outcome *out = calloc(un, sizeof *out);
  size_t *runs = calloc(un, sizeof *runs);
  sm_prediction *torun = calloc(un, sizeof *torun);
  int *undecided = calloc(un, sizeof *undecided);
  char **fenced = calloc(un, sizeof *fenced);
  PyObject **keeps = calloc(un, sizeof *keeps);
  PyObject *list = NULL;
  Py_ssize_t parsed = 0, looked = 0;
  if (!a || !in || !gold || !io || !run || !executed || !outcome || !nrows ||
      !pred || !info || !out || !runs || !torun || !undecided || !fenced ||
      !keeps) {
    PyErr_NoMemory();
    goto done;
  }
  size_t nrun = 0;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *item = PySequence_GetItem(seq, i); /* (the list holds it) */
    const char *db, *answer, *opts;
    Py_ssize_t answer_len;
    PyObject *gold_o, *cc;
    double timeout;
    if (!item) goto done;
    Py_DECREF(item);
    if (!PyTuple_Check(item)) {
      PyErr_Format(PyExc_TypeError, "%s: item %zd is not a tuple", fn, i);
      goto done;
    }
    if (golds) {
      PyObject *db_o, *gold_sql;
      size_t fl;
      if (!PyArg_ParseTuple(item, "Us#UOpsd:rewards_cached", &db_o, &answer,
                            &answer_len, &gold_sql, &cc, &io[i], &opts,
                            &timeout) ||
          check_timeout(fn, timeout) < 0)
        goto done;
      looked = i + 1;
      gold[i] = cached_gold(golds, db_o, answer, answer_len, gold_sql,
                            &fenced[i], &fl, &keeps[i], &db);
      if (!gold[i]) {
        if (PyErr_Occurred()) goto done;
        undecided[i] = 1;
        parsed = i + 1;
        continue;
      }
      answer = fenced[i];
      answer_len = (Py_ssize_t)fl;
    } else {
      if (!PyArg_ParseTuple(item, "ss#O!Opsd:rewards", &db, &answer,
                            &answer_len, TableType, &gold_o, &cc, &io[i],
                            &opts, &timeout))
        goto done;
      gold[i] = (TableObject *)gold_o;
      if (check_timeout(fn, timeout) < 0 || check_database(fn, db) < 0)
        goto done;
    }
    if (judge_args_init(fn, cc, opts, gold[i]->t, gold[i]->gen, &a[i]) < 0)
      goto done;
    parsed = i + 1;
    a[i].s.lim.timeout = timeout;
    sm_prediction p = {db, answer, (size_t)answer_len, a[i].s.lim,
                       a[i].s.empty_ok, gold[i]->gen};
    in[i] = p;
    out[i].score = 0;
    out[i].sim = out[i].recall = out[i].precision = -1;
    if (!a[i].spec_error) {
      run[i] = 1;
      runs[nrun] = (size_t)i;
      torun[nrun++] = p;
    }
  }
  int r = 0;
  Py_BEGIN_ALLOW_THREADS
  r = sm_run_predictions(nrun, torun, pred, executed, nrows, info, outcome);
  for (size_t k = 0; k < nrun && r == 0; k++) {
    size_t i = runs[k];
    if (outcome[k] != 0) continue;
    pthread_mutex_lock(&gold[i]->mu);
    int j = sm_judge(pred[k], gold[i]->t, &a[i].spec, io[i], &a[i].s.o,
                     a[i].s.redact, &out[i]);
    pthread_mutex_unlock(&gold[i]->mu);
    if (j < 0) r = -1;
    info[k] = out[i].info;
    out[i].info = NULL;
  }
  for (size_t k = 0; k < nrun; k++) {
    tt_free(pred[k]);
    pred[k] = NULL;
  }
  Py_END_ALLOW_THREADS
  if (r < 0) {
    PyErr_NoMemory();
    goto done;
  }
  list = PyList_New(n);
  for (Py_ssize_t i = 0, k = 0; list && i < n; i++) {
    PyObject *t, *extra = NULL;
    if (undecided[i]) {
      Py_INCREF(Py_None);
      PyList_SetItem(list, i, Py_None);
      continue;
    }
    if (golds && !(extra = PyBool_FromLong(gold[i]->t->nrows == 0))) {
      Py_CLEAR(list);
      break;
    }
    if (!run[i]) {
      char *e = sqlite3_mprintf("Python Script Error:%s", a[i].spec_error);
      t = e ? verdict_tuple_x(0, e, 0, 0, -1, -1, -1, extra) : NULL;
      if (!e) {
        Py_XDECREF(extra);
        PyErr_NoMemory();
      }
    } else {
      t = verdict_tuple_x(out[i].score, info[k], executed[k],
                          executed[k] ? nrows[k] : 0, out[i].sim,
                          out[i].recall, out[i].precision, extra);
      info[k++] = NULL; /* taken */
    }
    if (!t) {
      Py_CLEAR(list);
      break;
    }
    PyList_SetItem(list, i, t); /* (steals t) */
  }
done:
  for (Py_ssize_t i = 0; a && i < parsed; i++) judge_args_clear(&a[i]);
  for (Py_ssize_t i = 0; info && i < n; i++) sqlite3_free(info[i]);
  free(a);
  free(in);
  free(io);
  free(run);
  free(executed);
  free(outcome);
  free(nrows);
  free(pred);
  free(info);
  free(out);
  free(runs);
  free(torun);
  for (Py_ssize_t i = 0; golds && gold && fenced && keeps && i < looked;
       i++) {
    Py_XDECREF(gold[i]); /* cached_gold's references */
    free(fenced[i]);
    Py_XDECREF(keeps[i]);
  }
  free(undecided);
  free(fenced);
  free(keeps);
  free(gold);
  Py_DECREF(seq);
  return list;
}

static PyObject *py_rewards(PyObject *m, PyObject *arg) {
  (void)m;
  return rewards_impl(NULL, arg);
}

/* rewards_cached(golds, items): reward_cached of each (db_path, answer,
** gold_sql, condition_cols, ignore_order, options, timeout) with the
** decided ones' queries in one round trip (None for an undecided item). */
static PyObject *py_rewards_cached(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *golds, *items;
  if (!PyArg_ParseTuple(args, "O!O:rewards_cached", &PyDict_Type, &golds,
                        &items))
    return NULL;
  return rewards_impl(golds, items);
}

static PyObject *py_result_csv(PyObject *m, PyObject *args) {
  (void)m;
  const char *db, *sql;
  Py_ssize_t sql_len;
  double timeout;
  if (!PyArg_ParseTuple(args, "ss#d:result_csv", &db, &sql, &sql_len,
                        &timeout))
    return NULL;
  if (check_timeout("result_csv", timeout) < 0 ||
      check_database("result_csv", db) < 0)
    return NULL;
  sx_request q;
  memset(&q, 0, sizeof q);
  q.op = SX_CSV;
  q.db_path = db;
  q.sql = sql;
  q.sql_len = (size_t)sql_len;
  q.flags = SX_UTF8_STRICT;
  q.keep = -1;
  sb_limits_init(&q.lim, timeout);
  sx_result res;
  int r;
  Py_BEGIN_ALLOW_THREADS
  r = sx_run(&q, &res);
  Py_END_ALLOW_THREADS
  if (r < 0) return PyErr_NoMemory();
  PyObject *out = NULL;
  if (res.status != SB_OK)
    PyErr_Format(NativeError, "%s", res.errmsg ? res.errmsg : "failed");
  else
    out = PyBytes_FromStringAndSize(res.csv, (Py_ssize_t)res.csv_len);
  sx_result_free(&res);
  return out;
}

static PyObject *py_extract_sql(PyObject *m, PyObject *arg) {
  (void)m;
  PyObject *keep;
  Py_ssize_t len;
  const char *p = utf8_of(arg, &keep, &len, "extract_sql", "text");
  if (!p) return NULL;
  size_t out_len = 0;
  char *sql = sql_from_fence(p, (size_t)len, &out_len);
  Py_DECREF(keep);
  if (!sql) return PyErr_NoMemory();
  PyObject *s = PyUnicode_DecodeUTF8(sql, (Py_ssize_t)out_len, "strict");
  free(sql);
  return s;
}

/* -------------------------------------------------------- Connection */

typedef struct {
  PyObject_HEAD
  sqlite3 *db;
} ConnectionObject;

static PyTypeObject *ConnectionType;

static PyObject *db_error(sqlite3 *db) {
  PyErr_SetString(NativeError, db ? sqlite3_errmsg(db) : "out of memory");
  return NULL;
}

static PyObject *Connection_new(PyTypeObject *type, PyObject *args,
                                PyObject *kw) {
  static char *kwlist[] = {"path", NULL};
  const char *path = ":memory:";
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|s:Connection", kwlist, &path))
    return NULL;
  sqlite3 *db = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = sqlite3_open_v2(path, &db,
                       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                           SQLITE_OPEN_URI,
                       NULL);
  Py_END_ALLOW_THREADS
  if (rc != SQLITE_OK) {
    PyErr_Format(NativeError, "Connection: cannot open '%s': %s", path,
                 db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return NULL;
  }
  char *err = NULL;
  if (sqlite3_spidereval_init(db, &err, NULL) != SQLITE_OK) {
    PyErr_Format(NativeError, "Connection: cannot register spidereval: %s",
                 err ? err : "?");
    sqlite3_free(err);
    sqlite3_close(db);
    return NULL;
  }
  allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
  ConnectionObject *self = (ConnectionObject *)alloc(type, 0);
  if (!self) {
    sqlite3_close(db);
    return NULL;
  }
  self->db = db;
  return (PyObject *)self;
}

static void Connection_dealloc(PyObject *o) {
  ConnectionObject *self = (ConnectionObject *)o;
  PyTypeObject *tp = Py_TYPE(o);
  sqlite3_close_v2(self->db);
  freefunc f = (freefunc)PyType_GetSlot(tp, Py_tp_free);
  f(o);
  Py_DECREF(tp);
}

static int open_check(ConnectionObject *self) {
  if (!self->db) {
    PyErr_SetString(NativeError, "Connection: closed");
    return -1;
  }
  return 0;
}

static int bind_value(sqlite3_stmt *st, int i, PyObject *v) {
  if (v == Py_None) return sqlite3_bind_null(st, i);
  if (PyBool_Check(v) || PyLong_Check(v)) {
    long long x = PyLong_AsLongLong(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    return sqlite3_bind_int64(st, i, x);
  }
  if (PyFloat_Check(v)) return sqlite3_bind_double(st, i, PyFloat_AsDouble(v));
  if (PyUnicode_Check(v)) {
    PyObject *keep;
    Py_ssize_t len;
    const char *p = utf8_of(v, &keep, &len, "execute", "a parameter");
    if (!p) return -1;
    int rc = sqlite3_bind_text64(st, i, p, (sqlite3_uint64)len,
                                 SQLITE_TRANSIENT, SQLITE_UTF8);
    Py_DECREF(keep);
    return rc;
  }
  if (PyBytes_Check(v)) {
    char *p;
    Py_ssize_t n;
    if (PyBytes_AsStringAndSize(v, &p, &n) < 0) return -1;
    return sqlite3_bind_blob64(st, i, p, (sqlite3_uint64)n, SQLITE_TRANSIENT);
  }
  PyErr_Format(NativeError,
               "execute: parameter %d has an unsupported type (None, int, "
               "float, str or bytes)",
               i);
  return -1;
}

/* Bind params (a sequence, or a mapping of names) to st; -1 with an
** exception set. */
static int bind_params(sqlite3_stmt *st, PyObject *params) {
  int n = sqlite3_bind_parameter_count(st);
  if (!params || params == Py_None) {
    if (n) {
      PyErr_Format(NativeError, "execute: the statement takes %d parameters, "
                   "none given", n);
      return -1;
    }
    return 0;
  }
  int mapping = PyDict_Check(params);
  if (!mapping && !PyTuple_Check(params) && !PyList_Check(params)) {
    PyErr_SetString(PyExc_TypeError,
                    "execute: params must be a tuple, a list or a dict");
    return -1;
  }
  if (!mapping && PySequence_Size(params) != n) {
    PyErr_Format(NativeError, "execute: the statement takes %d parameters, "
                 "%zd given", n, PySequence_Size(params));
    return -1;
  }
  for (int i = 1; i <= n; i++) {
    PyObject *v;
    if (mapping) {
      const char *name = sqlite3_bind_parameter_name(st, i);
      if (!name) {
        PyErr_Format(NativeError, "execute: parameter %d has no name (a dict "
                     "needs :name parameters)", i);
        return -1;
      }
      v = PyDict_GetItemString(params, name + 1); /* borrowed */
      if (!v) {
        PyErr_Format(NativeError, "execute: no value for parameter '%s'",
                     name);
        return -1;
      }
      Py_INCREF(v);
    } else {
      v = PySequence_GetItem(params, i - 1);
      if (!v) return -1;
    }
    int rc = bind_value(st, i, v);
    Py_DECREF(v);
    if (rc < 0) return -1;
    if (rc != SQLITE_OK) {
      db_error(sqlite3_db_handle(st));
      return -1;
    }
  }
  return 0;
}

static PyObject *column_value(sqlite3_stmt *st, int c) {
  switch (sqlite3_column_type(st, c)) {
  case SQLITE_INTEGER:
    return PyLong_FromLongLong(sqlite3_column_int64(st, c));
  case SQLITE_FLOAT:
    return PyFloat_FromDouble(sqlite3_column_double(st, c));
  case SQLITE_TEXT: {
    const char *p = (const char *)sqlite3_column_text(st, c);
    return PyUnicode_DecodeUTF8(p, sqlite3_column_bytes(st, c), "strict");
  }
  case SQLITE_BLOB: {
    const void *p = sqlite3_column_blob(st, c);
    return PyBytes_FromStringAndSize(p ? p : "",
                                     sqlite3_column_bytes(st, c));
  }
  default:
    Py_RETURN_NONE;
  }
}

static PyObject *Connection_execute(PyObject *o, PyObject *args) {
  ConnectionObject *self = (ConnectionObject *)o;
  const char *sql;
  Py_ssize_t sql_len;
  PyObject *params = NULL;
  if (!PyArg_ParseTuple(args, "s#|O:execute", &sql, &sql_len, &params))
    return NULL;
  if (open_check(self) < 0) return NULL;
  sqlite3_stmt *st = NULL;
  const char *tail = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = sqlite3_prepare_v2(self->db, sql, (int)sql_len, &st, &tail);
  Py_END_ALLOW_THREADS
  if (rc != SQLITE_OK) return db_error(self->db);
  if (!st) return PyList_New(0); /* only white space and comments */
  while (tail && *tail && strchr(" \t\r\n;", *tail)) tail++;
  if (tail && *tail) {
    sqlite3_finalize(st);
    PyErr_SetString(NativeError, "execute: one statement at a time (use "
                                 "executescript)");
    return NULL;
  }
  PyObject *rows = NULL;
  if (bind_params(st, params) < 0) goto done;
  rows = PyList_New(0);
  if (!rows) goto done;
  int ncols = sqlite3_column_count(st);
  for (;;) {
    Py_BEGIN_ALLOW_THREADS
    rc = sqlite3_step(st);
    Py_END_ALLOW_THREADS
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) {
      Py_CLEAR(rows);
      db_error(self->db);
      goto done;
    }
    PyObject *row = PyTuple_New(ncols);
    if (!row) {
      Py_CLEAR(rows);
      goto done;
    }
    for (int c = 0; c < ncols; c++) {
      PyObject *v = column_value(st, c);
      if (!v) {
        Py_DECREF(row);
        Py_CLEAR(rows);
        goto done;
      }
      PyTuple_SetItem(row, c, v);
    }
    int bad = PyList_Append(rows, row);
    Py_DECREF(row);
    if (bad) {
      Py_CLEAR(rows);
      goto done;
    }
  }
done:
  sqlite3_finalize(st);
  return rows;
}

static PyObject *Connection_executescript(PyObject *o, PyObject *args) {
  ConnectionObject *self = (ConnectionObject *)o;
  const char *sql;
  if (!PyArg_ParseTuple(args, "s:executescript", &sql)) return NULL;
  if (open_check(self) < 0) return NULL;
  char *err = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = sqlite3_exec(self->db, sql, NULL, NULL, &err);
  Py_END_ALLOW_THREADS
  if (rc != SQLITE_OK) {
    PyErr_SetString(NativeError, err ? err : sqlite3_errmsg(self->db));
    sqlite3_free(err);
    return NULL;
  }
  Py_RETURN_NONE;
}

static PyObject *Connection_close(PyObject *o, PyObject *unused) {
  (void)unused;
  ConnectionObject *self = (ConnectionObject *)o;
  sqlite3_close_v2(self->db);
  self->db = NULL;
  Py_RETURN_NONE;
}

static PyMethodDef Connection_methods[] = {
    {"execute", Connection_execute, METH_VARARGS,
     "execute(sql, params=()) -> list of row tuples"},
    {"executescript", Connection_executescript, METH_VARARGS,
     "executescript(sql): run statements"},
    {"close", Connection_close, METH_NOARGS, "close()"},
    {NULL, NULL, 0, NULL}};

static PyType_Slot Connection_slots[] = {
    {Py_tp_new, Connection_new},
    {Py_tp_dealloc, Connection_dealloc},
    {Py_tp_methods, Connection_methods},
    {Py_tp_doc, "Connection(path=':memory:'): SQLite with spidereval"},
    {0, NULL}};

static PyType_Spec Connection_spec = {"spidereval._native.Connection",
                                      sizeof(ConnectionObject), 0,
                                      Py_TPFLAGS_DEFAULT, Connection_slots};

/* ------------------------------------------------------------ module */

static PyObject *py_version(PyObject *m, PyObject *unused) {
  (void)m;
  (void)unused;
  return PyUnicode_FromString(SPIDEREVAL_VERSION);
}

static PyObject *py_sqlite_version(PyObject *m, PyObject *unused) {
  (void)m;
  (void)unused;
  return PyUnicode_FromString(sqlite3_libversion());
}

static PyObject *py_worker_path(PyObject *m, PyObject *unused) {
  (void)m;
  (void)unused;
  const char *p = sx_worker_path();
  if (!p) Py_RETURN_NONE;
  return PyUnicode_FromString(p);
}

static PyObject *py_stats(PyObject *m, PyObject *unused) {
  (void)m;
  (void)unused;
  sx_stats s;
  sx_get_stats(&s);
  return Py_BuildValue("(LLLL)", (long long)s.started, (long long)s.killed,
                       (long long)s.died, (long long)s.served);
}

static PyObject *py_set_isolation(PyObject *m, PyObject *arg) {
  (void)m;
  int on = PyObject_IsTrue(arg);
  if (on < 0) return NULL;
  return PyBool_FromLong(sx_set_isolation(on));
}

static PyObject *py_pool_size(PyObject *m, PyObject *arg) {
  (void)m;
  long n = PyLong_AsLong(arg);
  if (n == -1 && PyErr_Occurred()) return NULL;
  return PyLong_FromLong(sx_pool_size((int)n));
}

static PyMethodDef module_methods[] = {
    {"match", py_match, METH_VARARGS,
     "match(pred, gold, condition_cols, ignore_order, options) -> verdict"},
    {"reward", py_reward, METH_VARARGS,
     "reward(db_path, answer, gold, condition_cols, ignore_order, options, "
     "timeout) -> verdict"},
    {"reward_cached", py_reward_cached, METH_VARARGS,
     "reward_cached(golds, db_path, answer, gold_sql, condition_cols, "
     "ignore_order, options, timeout) -> verdict + (gold_empty,) or None"},
    {"rewards_cached", py_rewards_cached, METH_VARARGS,
     "rewards_cached(golds, items) -> reward_cached of each item, the "
     "decided ones' queries in one round trip"},
    {"rewards", py_rewards, METH_O,
     "rewards(items) -> verdicts: reward() of each (db_path, answer, gold, "
     "condition_cols, ignore_order, options, timeout), the queries in one "
     "round trip to a worker"},
    {"result_csv", py_result_csv, METH_VARARGS,
     "result_csv(db_path, sql, timeout) -> bytes"},
    {"extract_sql", py_extract_sql, METH_O, "extract_sql(text) -> str"},
    {"version", py_version, METH_NOARGS, "spidereval's version"},
    {"sqlite_version", py_sqlite_version, METH_NOARGS,
     "the SQLite linked in"},
    {"worker_path", py_worker_path, METH_NOARGS,
     "the spidereval-worker program found, or None"},
    {"stats", py_stats, METH_NOARGS,
     "(started, killed, died, served) of the worker pool"},
    {"set_isolation", py_set_isolation, METH_O,
     "queries in worker processes (True) or in this process"},
    {"pool_size", py_pool_size, METH_O, "workers at most (n <= 0 keeps it)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT, "_native",
    "spidereval's C code as a CPython module (see docs/python.md)", -1,
    module_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__native(void) {
  PyObject *m = PyModule_Create(&native_module);
  if (!m) return NULL;
  NativeError = PyErr_NewException("spidereval._native.Error", NULL, NULL);
  TableType = (PyTypeObject *)PyType_FromSpec(&Table_spec);
  ConnectionType = (PyTypeObject *)PyType_FromSpec(&Connection_spec);
  if (!NativeError || !TableType || !ConnectionType ||
      PyModule_AddObject(m, "Error", NativeError) < 0 ||
      PyModule_AddObject(m, "Table", (PyObject *)TableType) < 0 ||
      PyModule_AddObject(m, "Connection", (PyObject *)ConnectionType) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  /* the module keeps them: one more reference each for the C globals */
  Py_INCREF(NativeError);
  Py_INCREF(TableType);
  Py_INCREF(ConnectionType);
  return m;
}
