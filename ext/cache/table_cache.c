/*
** table_cache.c: per-connection cache of parsed tables and gold folders.
**
** Tables are keyed by path and validated by size and mtime (nanoseconds)
** at every lookup, so a file changed on disk is read again. Failed reads
** are cached too (an unreadable prediction is reported the same way each
** time). Memory is bounded: se_cache_trim() drops the least recently used
** tables beyond SE_CACHE_BUDGET bytes; it runs at the start of each SQL
** call, never while a call holds tables.
*/
#include "cache/table_cache.h"
#include "base/call_count.h"
#include "base/bytebuf.h"
#include "base/pyjson.h"
#include "cache/table_snapshot.h"

#include <dirent.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SE_CACHE_BUDGET ((int64_t)256 << 20)

typedef struct {
  char *path;
  int gen; /* the pandas generation it was read as (tt_gen) */
  int64_t size, mtime_ns;
  tt_table *table;
  tt_error error;
  char *message;
  uint64_t last_use;
  uint64_t epoch; /* validated against the file during this epoch */
  int64_t bytes;
  int pins; /* cursors holding this table: never evicted or replaced */
} cache_entry;

typedef struct gold_entry {
  gold_index *g;
  int pins; /* cursors holding this index: kept even when stale */
  uint64_t epoch; /* validated during this epoch */
  struct gold_entry *next;
} gold_entry;

/* A path's file identity (device, inode), taken once per epoch: a
** direct-mapped memo, a slot per hash of the path. */
#define SE_ID_MEMO 256
typedef struct {
  char *path;
  uint64_t epoch;
  int ok; /* stat() succeeded */
  dev_t dev;
  ino_t ino;
} id_memo;

/* A folder's real path, taken once per epoch (direct-mapped, as above). */
#define SE_REAL_MEMO 64
typedef struct {
  char *path, *real; /* real: NULL when realpath() failed */
  uint64_t epoch;
} real_memo;

struct se_cache {
  int refs;
  cache_entry *slots; /* open addressing, power-of-two size */
  size_t nslots, nused;
  uint64_t clock;
  int64_t bytes;
  gold_entry *golds;
  gold_entry *retired; /* stale indexes still pinned by a cursor */
  int64_t budget;      /* bytes of tables kept (SE_CACHE_BUDGET) */
  uint64_t epoch; /* files validated in the current epoch are not stat'ed */
  char *snapshot_dir; /* gold tables kept parsed on disk here; NULL: off */
  id_memo ids[SE_ID_MEMO]; /* file identities of the current epoch */
  real_memo reals[SE_REAL_MEMO]; /* folders' real paths, this epoch */
};

void se_cache_new_epoch(se_cache *c) { c->epoch++; }


static char *dup_str(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

/* a, b and c joined (c may be ""), malloc'd: the gold index builds a
** path per file, cheaper than a printf */
static char *join3(const char *a, const char *b, const char *c) {
  size_t na = strlen(a), nb = strlen(b), nc = strlen(c);
  char *d = malloc(na + nb + nc + 1);
  if (!d) return NULL;
  memcpy(d, a, na);
  memcpy(d + na, b, nb);
  memcpy(d + na + nb, c, nc + 1);
  return d;
}

static uint64_t hash_str(const char *s) {
  return cc_hash(CC_SEED, s, strlen(s));
}

se_cache *se_cache_new(void) {
  se_cache *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->refs = 1;
  c->budget = SE_CACHE_BUDGET;
  c->snapshot_dir = ts_default_dir();
  return c;
}

int se_cache_set_snapshot_dir(se_cache *c, const char *dir) {
  char *d = NULL;
  if (dir && *dir && !(d = dup_str(dir))) return -1;
  free(c->snapshot_dir);
  c->snapshot_dir = d;
  return 0;
}

const char *se_cache_snapshot_dir(const se_cache *c) { return c->snapshot_dir; }

static void entry_clear(cache_entry *e) {
  free(e->path);
  tt_free(e->table);
  free(e->message);
  memset(e, 0, sizeof *e);
}

static void gold_index_free(gold_index *g) {
  if (!g) return;
  for (int i = 0; i < g->ninstances; i++) {
    gold_instance *gi = &g->inst[i];
    free(gi->instance_id);
    free(gi->condition_cols);
    if (g->lazy) {
      free(g->lazy[i].sql_path);
      if (g->lazy[i].memo_free) g->lazy[i].memo_free(g->lazy[i].memo);
    }
    for (int v = 0; v < gi->nvariants; v++) free(gi->variant_paths[v]);
    free(gi->variant_paths);
    free(gi->variant_letters);
  }
  free(g->inst);
  free(g->lazy);
  free(g->dir);
  free(g->eval_path);
  for (int k = 0; k < TT_NGEN; k++) ts_pack_release(g->pack[k]);
  free(g);
}

void se_cache_clear(se_cache *c) {
  for (size_t i = 0; i < c->nslots; i++) entry_clear(&c->slots[i]);
  free(c->slots);
  c->slots = NULL;
  c->nslots = c->nused = 0;
  c->bytes = 0;
  for (gold_entry **list = &c->golds; list; list = list == &c->golds ? &c->retired : NULL) {
    while (*list) {
      gold_entry *n = (*list)->next;
      gold_index_free((*list)->g);
      free(*list);
      *list = n;
    }
  }
}

/* The identity of path's file (0: it cannot be stat'ed), once per epoch */
static int file_identity(se_cache *c, const char *path, dev_t *dev,
                         ino_t *ino) {
  id_memo *m = &c->ids[hash_str(path) & (SE_ID_MEMO - 1)];
  if (c->epoch && m->epoch == c->epoch && m->path && !strcmp(m->path, path)) {
    *dev = m->dev;
    *ino = m->ino;
    return m->ok;
  }
  struct stat st;
  int ok = stat(path, &st) == 0;
  *dev = ok ? st.st_dev : 0;
  *ino = ok ? st.st_ino : 0;
  char *copy = dup_str(path);
  if (copy) { /* else not memoized */
    free(m->path);
    *m = (id_memo){copy, c->epoch, ok, *dev, *ino};
  }
  return ok;
}

int se_cache_same_file(se_cache *c, const char *a, const char *b) {
  dev_t da, db;
  ino_t ia, ib;
  return file_identity(c, a, &da, &ia) && file_identity(c, b, &db, &ib) &&
         da == db && ia == ib;
}

char *se_cache_realpath(se_cache *c, const char *dir) {
  real_memo *m = &c->reals[hash_str(dir) & (SE_REAL_MEMO - 1)];
  if (!c->epoch || m->epoch != c->epoch || !m->path || strcmp(m->path, dir)) {
    char *real = realpath(dir, NULL), *copy = dup_str(dir);
    if (!copy) return real;
    free(m->path);
    free(m->real);
    *m = (real_memo){copy, real, c->epoch};
  }
  return dup_str(m->real);
}

void se_cache_free(se_cache *c) {
  if (!c) return;
  se_cache_clear(c);
  for (int i = 0; i < SE_ID_MEMO; i++) free(c->ids[i].path);
  for (int i = 0; i < SE_REAL_MEMO; i++) {
    free(c->reals[i].path);
    free(c->reals[i].real);
  }
  free(c->snapshot_dir);
  free(c);
}

void se_cache_retain(se_cache *c) { c->refs++; }
void se_cache_release(se_cache *c) {
  if (c && --c->refs == 0) se_cache_free(c);
}

int64_t se_cache_bytes(const se_cache *c) { return c->bytes; }
int se_cache_entries(const se_cache *c) { return (int)c->nused; }

/* Tables are keyed by path and generation: one file read under two
** generations is two tables. */
static cache_entry *find_slot(se_cache *c, const char *path, int gen) {
  size_t mask = c->nslots - 1;
  size_t i = (size_t)(hash_str(path) + (uint64_t)gen * 0x9e3779b97f4a7c15ull) &
             mask;
  while (c->slots[i].path &&
         (c->slots[i].gen != gen || strcmp(c->slots[i].path, path)))
    i = (i + 1) & mask;
  return &c->slots[i];
}

static int grow(se_cache *c) {
  size_t n = c->nslots ? c->nslots * 2 : 1024;
  cache_entry *old = c->slots;
  size_t oldn = c->nslots;
  c->slots = calloc(n, sizeof(cache_entry));
  if (!c->slots) {
    c->slots = old;
    return -1;
  }
  c->nslots = n;
  for (size_t i = 0; i < oldn; i++)
    if (old[i].path) *find_slot(c, old[i].path, old[i].gen) = old[i];
  free(old);
  return 0;
}

/* Remove the entry at slot index i keeping the probe chains intact. */
static void remove_at(se_cache *c, size_t i) {
  size_t mask = c->nslots - 1;
  c->bytes -= c->slots[i].bytes;
  entry_clear(&c->slots[i]);
  c->nused--;
  size_t j = (i + 1) & mask;
  while (c->slots[j].path) {
    cache_entry e = c->slots[j];
    memset(&c->slots[j], 0, sizeof e);
    *find_slot(c, e.path, e.gen) = e;
    j = (j + 1) & mask;
  }
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Over budget: drop the least recently used tables down to half the
** budget, in one sorted batch (amortised O(log n) per table read). */
void se_cache_trim(se_cache *c) {
  if (c->bytes <= c->budget || c->nused == 0) return;
  uint64_t *uses = malloc(c->nused * sizeof(uint64_t));
  if (!uses) return;
  size_t k = 0;
  for (size_t i = 0; i < c->nslots; i++)
    if (c->slots[i].path) uses[k++] = c->slots[i].last_use;
  if (k == 0) {
    free(uses);
    return;
  }
  qsort(uses, k, sizeof *uses, cmp_u64);
  /* find the last_use threshold that frees enough */
  int64_t need = c->bytes - c->budget / 2;
  uint64_t cut = uses[k - 1];
  int64_t freed = 0;
  for (size_t j = 0; j < k && freed < need; j++) {
    cut = uses[j];
    for (size_t i = 0; i < c->nslots; i++)
      if (c->slots[i].path && c->slots[i].last_use == cut) {
        freed += c->slots[i].bytes;
        break;
      }
  }
  free(uses);
  for (size_t i = 0; i < c->nslots;) {
    if (c->slots[i].path && c->slots[i].last_use <= cut && !c->slots[i].pins) {
      remove_at(c, i); /* may move a later entry into slot i: look again */
      continue;
    }
    i++;
  }
}

static tc_read cache_read(se_cache *c, const char *path, int gold,
                          const struct stat *known, tt_gen gen);

tc_read se_cache_read(se_cache *c, const char *path) {
  return cache_read(c, path, 0, NULL, TT_GEN_DEFAULT);
}

tc_read se_cache_read_stat(se_cache *c, const char *path,
                           const struct stat *st) {
  return cache_read(c, path, 0, st, TT_GEN_DEFAULT);
}

tc_read se_cache_read_gold(se_cache *c, const char *path) {
  return cache_read(c, path, 1, NULL, TT_GEN_DEFAULT);
}

tc_read se_cache_read_gen(se_cache *c, const char *path, tt_gen gen) {
  return cache_read(c, path, 0, NULL, gen);
}

tc_read se_cache_read_stat_gen(se_cache *c, const char *path,
                               const struct stat *st, tt_gen gen) {
  return cache_read(c, path, 0, st, gen);
}

tc_read se_cache_read_gold_gen(se_cache *c, const char *path, tt_gen gen) {
  return cache_read(c, path, 1, NULL, gen);
}

static void gold_pack_attach(const char *snapdir, gold_index *g,
                             tt_gen gen);

/* path's table from generation gen's pack of a gold index in the cache,
** when one holds it as the file st describes; else NULL. A generation's
** pack is attached on the first read of one of its index's tables. */
static tt_table *pack_table_of(se_cache *c, const char *path,
                               const struct stat *st, tt_gen gen) {
  for (gold_entry *ge = c->golds; ge; ge = ge->next) {
    gold_index *g = ge->g;
    size_t n = strlen(g->dir);
    if (strncmp(path, g->dir, n)) continue;
    if (!g->pack_tried[gen]) {
      g->pack_tried[gen] = 1;
      gold_pack_attach(c->snapshot_dir, g, gen);
    }
    tt_table *t = ts_pack_table(g->pack[gen], path, st);
    if (t) return t;
  }
  return NULL;
}

/* known: path's stat() taken just now by the caller, or NULL */
static tc_read cache_read(se_cache *c, const char *path, int gold,
                          const struct stat *known, tt_gen gen) {
  tc_read r = {NULL, TT_OK, NULL};
  if (c->nslots) {
    cache_entry *e = find_slot(c, path, gen);
    if (e->path && e->epoch == c->epoch && c->epoch) {
      e->last_use = ++c->clock;
      r.table = e->table;
      r.error = e->error;
      r.message = e->message;
      return r;
    }
  }
  struct stat st;
  int have_stat = known ? (st = *known, 1) : stat(path, &st) == 0;
  int64_t size = have_stat ? (int64_t)st.st_size : -1;
  int64_t mtime = have_stat ? (int64_t)st.st_mtim.tv_sec * 1000000000 +
                                  st.st_mtim.tv_nsec
                            : -1;
  if ((c->nused + 1) * 2 > c->nslots && grow(c)) {
    r.error = TT_ERR_NOMEM;
    r.message = "out of memory";
    return r;
  }
  cache_entry *e = find_slot(c, path, gen);
  if (e->path) {
    if (e->size == size && e->mtime_ns == mtime) {
      e->last_use = ++c->clock;
      e->epoch = c->epoch;
      r.table = e->table;
      r.error = e->error;
      r.message = e->message;
      return r;
    }
    if (e->pins) {
      /* a cursor holds it: keep serving it until released */
      e->last_use = ++c->clock;
      r.table = e->table;
      r.error = e->error;
      r.message = e->message;
      return r;
    }
    /* changed on disk: read again in place */
    c->bytes -= e->bytes;
    tt_free(e->table);
    free(e->message);
    e->table = NULL;
    e->message = NULL;
  } else {
    e->path = dup_str(path);
    if (!e->path) {
      r.error = TT_ERR_NOMEM;
      r.message = "out of memory";
      return r;
    }
    e->gen = gen;
    c->nused++;
  }
  e->size = size;
  e->mtime_ns = mtime;
  e->epoch = c->epoch;
  e->table = gold && have_stat && c->snapshot_dir
                 ? pack_table_of(c, path, &st, gen)
                 : NULL; /* snapshots turned off: no pack either */
  if (e->table)
    e->error = TT_OK;
  else {
    uint64_t key = cc_hash(CC_SEED, path, strlen(path) + 1);
    key = cc_hash(key, &size, sizeof size);
    key = cc_hash(key, &gen, sizeof gen);
    cc_note("read_csv", cc_hash(key, &mtime, sizeof mtime));
  }
  if (!e->table)
    e->error = gold ? ts_read_file_stat_gen(c->snapshot_dir, path,
                                            have_stat ? &st : NULL, gen,
                                            &e->table, &e->message)
                    : tt_read_file_gen(path, gen, &e->table, &e->message);
  e->bytes = e->table ? (int64_t)e->table->mem_bytes : 64;
  c->bytes += e->bytes;
  e->last_use = ++c->clock;
  r.table = e->table;
  r.error = e->error;
  r.message = e->message;
  return r;
}

/* ------------------------------------------------------------- gold */

/* sql_tokens before the gold SQL file was read */
enum { SQL_NOT_READ = -2 };

static int64_t mtime_of(const char *path) {
  struct stat st;
  if (stat(path, &st)) return -1;
  return (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec +
         (int64_t)st.st_size;
}

static int cmp_inst(const void *a, const void *b) {
  return strcmp(((const gold_instance *)a)->instance_id,
                ((const gold_instance *)b)->instance_id);
}

const gold_instance *gold_find(const gold_index *g, const char *id) {
  gold_instance key;
  memset(&key, 0, sizeof key);
  key.instance_id = (char *)id;
  return bsearch(&key, g->inst, (size_t)g->ninstances, sizeof key, cmp_inst);
}

static int count_tokens(const char *path);

/* The gold SQL file is read on first use (gold_lazy). */
int gold_sql_tokens(const gold_instance *gi) {
  gold_lazy *f = gi->lazy;
  if (!f) return -1;
  if (f->sql_tokens == SQL_NOT_READ) {
    f->sql_tokens = f->sql_path ? count_tokens(f->sql_path) : -1;
    if (f->sql_tokens < 0) {
      free(f->sql_path);
      f->sql_path = NULL;
    }
  }
  return f->sql_tokens;
}

const char *gold_sql_path(const gold_instance *gi) {
  return gold_sql_tokens(gi) >= 0 ? gi->lazy->sql_path : NULL;
}

const char *gold_difficulty(const gold_instance *gi) {
  int t = gi->toks >= 0 ? gi->toks : gold_sql_tokens(gi);
  if (t < 0) return "Unknown";
  if (t < 80) return "Easy";
  if (t < 160) return "Medium";
  return "Hard";
}

/* Count whitespace-separated tokens (Python's str.split()). */
static int count_tokens(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  int n = 0, in = 0, ch;
  while ((ch = fgetc(f)) != EOF) {
    int sp = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' ||
             ch == '\v' || ch == '\f' || (ch >= 0x1c && ch <= 0x1f);
    if (!sp && !in) n++;
    in = !sp;
  }
  fclose(f);
  return n;
}

/* The official rule for the gold files of an instance:
** re.compile(rf'^{id}(_[a-z])?\.csv$').match(name), where Python's `$`
** also matches before a final newline, so "<id>.csv\n" and
** "<id>_a.csv\n" are variants too. Fills id (without the suffix), letter
** ('\0' when none) and *nl (1 for a name ending in "\n"). Returns 0 when
** name is not a gold file name. */
static int split_variant(const char *name, char *id, size_t cap,
                         char *letter, int *nl) {
  size_t n = strlen(name);
  *nl = n > 0 && name[n - 1] == '\n';
  if (*nl) n--;
  if (n < 5 || memcmp(name + n - 4, ".csv", 4)) return 0;
  size_t base = n - 4;
  if (base >= cap) return 0;
  if (base >= 3 && name[base - 2] == '_' && name[base - 1] >= 'a' &&
      name[base - 1] <= 'z') {
    memcpy(id, name, base - 2);
    id[base - 2] = 0;
    *letter = name[base - 1];
    return 2;
  }
  memcpy(id, name, base);
  id[base] = 0;
  *letter = 0;
  return 1;
}

int gold_variant_single(const gold_instance *gi, int v) {
  const char *p = gi->variant_paths[v];
  size_t n = strlen(p);
  return gi->variant_letters[v] == 0 && !(n > 0 && p[n - 1] == '\n');
}

const char *gold_variant_name(const gold_instance *gi, int v, char buf[3]) {
  const char *p = gi->variant_paths[v];
  size_t n = strlen(p), k = 0;
  if (gi->variant_letters[v]) buf[k++] = gi->variant_letters[v];
  if (n > 0 && p[n - 1] == '\n') buf[k++] = '\n';
  buf[k] = 0;
  return buf;
}

typedef struct {
  char *id;
  char letter;
  int nl;   /* the name ends in "\n" */
  char *path;
  int dual; /* "<x>_b.csv" read as the plain file of an instance "<x>_b" */
} variant_file;
/* by id, then as Python's sorted() orders the names of one id: ".csv",
** ".csv\n", "_a.csv", "_a.csv\n", "_b.csv" ... */
static int cmp_variant(const void *a, const void *b) {
  const variant_file *x = a, *y = b;
  int r = strcmp(x->id, y->id);
  if (r) return r;
  if (x->letter != y->letter)
    return (int)(unsigned char)x->letter - (int)(unsigned char)y->letter;
  return x->nl - y->nl;
}

static gold_instance *add_instance(gold_index *g, int *cap, const char *id) {
  if (g->ninstances == *cap) {
    int nc = *cap ? *cap * 2 : 256;
    gold_instance *ni = realloc(g->inst, (size_t)nc * sizeof *ni);
    if (!ni) return NULL;
    g->inst = ni;
    *cap = nc;
  }
  gold_instance *gi = &g->inst[g->ninstances];
  memset(gi, 0, sizeof *gi);
  gi->instance_id = dup_str(id);
  if (!gi->instance_id) return NULL;
  gi->toks = -1;
  g->ninstances++;
  return gi;
}

/* Python's truth of a JSON value (`if ignore_order_:` in the official
** code): false for null, false, 0, 0.0, "", [] and {}; absent is false. */
static int json_truth(json_t *v) {
  if (!v) return 0;
  switch (json_typeof(v)) {
  case JSON_TRUE: return 1;
  case JSON_INTEGER: return json_integer_value(v) != 0;
  case JSON_REAL: return json_real_value(v) != 0.0;
  case JSON_STRING: return json_string_length(v) != 0;
  case JSON_ARRAY: return json_array_size(v) != 0;
  case JSON_OBJECT: return json_object_size(v) != 0;
  default: return 0;
  }
}

/* What the kept gold index is checked against: a file's or folder's
** identity and times (all zero when it does not exist). */
typedef struct {
  uint64_t dev, ino;
  int64_t size, mtime_ns, ctime_ns;
} file_id;

static void file_id_of(const struct stat *st, file_id *id) {
  id->dev = (uint64_t)st->st_dev;
  id->ino = (uint64_t)st->st_ino;
  id->size = (int64_t)st->st_size;
  id->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
  id->ctime_ns = (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
}

static void file_id_at(const char *path, file_id *id) {
  struct stat st;
  memset(id, 0, sizeof *id);
  if (path && !stat(path, &st)) file_id_of(&st, id);
}

/* eval_id (may be NULL) receives the eval jsonl's identity, taken before
** it is read */
static gold_index *gold_load(const char *dir, char **err, file_id *eval_id) {
  char *exec_dir = join3(dir, "/exec_result/", "");
  char *sql_dir = join3(dir, "/sql/", "");
  gold_index *g = calloc(1, sizeof *g);
  variant_file *vf = NULL;
  size_t nvf = 0, capvf = 0;
  int cap = 0;
  DIR *d = NULL;
  if (!exec_dir || !sql_dir || !g) goto nomem;
  g->dir = dup_str(dir);
  /* the eval jsonl: the first *_eval.jsonl in the directory, by name */
  d = opendir(dir);
  if (!d) {
    *err = tt_msgf("gold directory '%s' cannot be opened", dir);
    goto fail;
  }
  {
    char *best = NULL;
    struct dirent *de;
    while ((de = readdir(d))) {
      size_t n = strlen(de->d_name);
      if (n > 11 && !strcmp(de->d_name + n - 11, "_eval.jsonl") &&
          (!best || strcmp(de->d_name, best) < 0)) {
        free(best);
        best = dup_str(de->d_name);
      }
    }
    closedir(d);
    d = NULL;
    if (best) {
      g->eval_path = tt_msgf("%s/%s", dir, best);
      free(best);
    }
  }
  /* exec_result variants */
  d = opendir(exec_dir);
  if (!d) {
    *err = tt_msgf("gold directory '%s' has no exec_result folder", dir);
    goto fail;
  }
  {
    struct dirent *de;
    char id[1024];
    while ((de = readdir(d))) {
      char letter;
      int nl;
      if (!split_variant(de->d_name, id, sizeof id, &letter, &nl)) continue;
      if (nvf == capvf) {
        capvf = capvf ? capvf * 2 : 1024;
        variant_file *n = realloc(vf, capvf * sizeof *vf);
        if (!n) goto nomem;
        vf = n;
      }
      vf[nvf].id = dup_str(id);
      vf[nvf].letter = letter;
      vf[nvf].nl = nl;
      vf[nvf].path = join3(exec_dir, de->d_name, "");
      vf[nvf].dual = 0;
      if (!vf[nvf].id || !vf[nvf].path) goto nomem;
      nvf++;
      /* "<x>_b.csv" is also the plain file of an instance named "<x>_b"
      ** ("<x>_b.csv\n" one of its variants) */
      if (letter) {
        size_t n = strlen(de->d_name) - 4 - (size_t)nl;
        if (n < sizeof id) {
          if (nvf == capvf) {
            capvf *= 2;
            variant_file *nv = realloc(vf, capvf * sizeof *vf);
            if (!nv) goto nomem;
            vf = nv;
          }
          memcpy(id, de->d_name, n);
          id[n] = 0;
          vf[nvf].id = dup_str(id);
          vf[nvf].letter = 0;
          vf[nvf].nl = nl;
          vf[nvf].dual = 1;
          vf[nvf].path = join3(exec_dir, de->d_name, "");
          if (!vf[nvf].id || !vf[nvf].path) goto nomem;
          nvf++;
        }
      }
    }
    closedir(d);
    d = NULL;
  }
  if (nvf > 1) qsort(vf, nvf, sizeof *vf, cmp_variant);
  /* instances from the eval jsonl */
  if (g->eval_path) {
    FILE *f = fopen(g->eval_path, "rb");
    if (!f) {
      *err = tt_msgf("eval jsonl '%s' cannot be opened", g->eval_path);
      goto fail;
    }
    setvbuf(f, NULL, _IOFBF, 1 << 16); /* a few reads, not one per 4 KiB */
    struct stat est;
    if (eval_id && !fstat(fileno(f), &est)) file_id_of(&est, eval_id);
    char *line = NULL;
    size_t lcap = 0;
    ssize_t len;
    int lineno = 0;
    while ((len = getline(&line, &lcap, f)) >= 0) {
      lineno++;
      int blank = 1;
      for (ssize_t i = 0; i < len; i++)
        if (line[i] != ' ' && line[i] != '\n' && line[i] != '\r' &&
            line[i] != '\t')
          blank = 0;
      if (blank) continue;
      json_error_t je;
      json_t *o = pyjson_loadb(line, (size_t)len, 0, &je);
      json_t *iid = o ? json_object_get(o, "instance_id") : NULL;
      if (!o || !json_is_object(o) || !json_is_string(iid)) {
        *err = tt_msgf("eval jsonl '%s' line %d: %s", g->eval_path, lineno,
                    o ? "no string instance_id" : je.text);
        json_decref(o);
        free(line);
        fclose(f);
        goto fail;
      }
      gold_instance *gi = add_instance(g, &cap, json_string_value(iid));
      if (!gi) {
        json_decref(o);
        free(line);
        fclose(f);
        goto nomem;
      }
      gi->has_eval = 1;
      json_t *cc = json_object_get(o, "condition_cols");
      gi->condition_cols =
          cc ? json_dumps(cc, JSON_ENCODE_ANY | JSON_COMPACT) : dup_str("null");
      json_t *io = json_object_get(o, "ignore_order");
      gi->ignore_order = json_truth(io);
      gi->missing_key = !cc ? "condition_cols" : !io ? "ignore_order" : NULL;
      json_t *tp = json_object_get(o, "temporal");
      gi->temporal = tp && json_is_true(tp);
      json_t *tk = json_object_get(o, "toks");
      /* spider2-lite writes toks as a string ("132"); digits only */
      if (tk && json_is_integer(tk)) gi->toks = (int)json_integer_value(tk);
      else if (tk && json_is_string(tk)) {
        const char *z = json_string_value(tk);
        size_t n = strspn(z, "0123456789");
        if (n > 0 && n < 10 && z[n] == '\0') gi->toks = atoi(z);
      }
      json_decref(o);
      if (!gi->condition_cols) {
        free(line);
        fclose(f);
        goto nomem;
      }
    }
    free(line);
    /* a read error is not the end of the file: the list would be cut */
    int read_error = ferror(f);
    fclose(f);
    if (read_error) {
      *err = tt_msgf("eval jsonl '%s' cannot be read after line %d",
                     g->eval_path, lineno);
      goto fail;
    }
  } else {
    /* no eval jsonl: every instance with a gold file (<x>_a.csv is a
    ** variant of x), all columns, row order kept */
    const char *last = NULL;
    for (size_t i = 0; i < nvf; i++) {
      if (vf[i].dual) continue;
      if (last && !strcmp(vf[i].id, last)) continue;
      last = vf[i].id;
      gold_instance *gi = add_instance(g, &cap, vf[i].id);
      if (!gi) goto nomem;
      gi->condition_cols = dup_str("[]");
      if (!gi->condition_cols) goto nomem;
    }
  }
  /* duplicate ids in the jsonl: the last line wins, like a Python dict */
  if (g->ninstances > 1)
    qsort(g->inst, (size_t)g->ninstances, sizeof *g->inst, cmp_inst);
  {
    int w = 0;
    for (int i = 0; i < g->ninstances; i++) {
      if (w > 0 && !strcmp(g->inst[w - 1].instance_id, g->inst[i].instance_id)) {
        gold_instance tmp = g->inst[w - 1];
        g->inst[w - 1] = g->inst[i];
        free(tmp.instance_id);
        free(tmp.condition_cols);
        continue;
      }
      g->inst[w++] = g->inst[i];
    }
    g->ninstances = w;
  }
  /* attach variants and SQL */
  g->lazy =
      calloc((size_t)(g->ninstances ? g->ninstances : 1), sizeof *g->lazy);
  if (!g->lazy) goto nomem;
  for (int i = 0; i < g->ninstances; i++) {
    gold_instance *gi = &g->inst[i];
    variant_file key = {gi->instance_id, 0, 0, NULL, 0};
    variant_file *lo = vf, *hi = vf + nvf;
    while (lo < hi) { /* lower bound of id */
      variant_file *mid = lo + (hi - lo) / 2;
      if (strcmp(mid->id, key.id) < 0) lo = mid + 1;
      else hi = mid;
    }
    variant_file *start = lo;
    size_t count = 0;
    while (start + count < vf + nvf && !strcmp(start[count].id, key.id))
      count++;
    /* <id>.csv itself is compared alone (the official os.path.exists
    ** test); else every name the pattern matches, "<id>.csv\n" included */
    if (count > 0 && start[0].letter == 0 && !start[0].nl) count = 1;
    gi->variant_paths = calloc(count ? count : 1, sizeof(char *));
    gi->variant_letters = calloc(count + 1, 1);
    if (!gi->variant_paths || !gi->variant_letters) goto nomem;
    for (size_t k = 0; k < count; k++) {
      gi->variant_paths[k] = start[k].path; /* each file is one id's */
      start[k].path = NULL;
      gi->variant_letters[k] = start[k].letter;
      gi->nvariants++;
    }
    /* the SQL file is read when its facts are first asked for
    ** (gold_sql_tokens): a verdict never needs them */
    gi->lazy = &g->lazy[i];
    gi->lazy->sql_path = join3(sql_dir, gi->instance_id, ".sql");
    if (!gi->lazy->sql_path) goto nomem;
    gi->lazy->sql_tokens = SQL_NOT_READ;
  }
  goto done;
nomem:
  *err = tt_msgf("out of memory reading gold directory");
fail:
  if (d) closedir(d);
  gold_index_free(g);
  g = NULL;
done:
  for (size_t i = 0; i < nvf; i++) {
    free(vf[i].id);
    free(vf[i].path);
  }
  free(vf);
  free(exec_dir);
  free(sql_dir);
  return g;
}

static int64_t gold_stamp(const char *dir, const char *eval_path) {
  char *e = tt_msgf("%s/exec_result", dir);
  char *s = tt_msgf("%s/sql", dir);
  /* unsigned: the mix may wrap, which is fine for a stamp */
  uint64_t st = (uint64_t)mtime_of(dir) * 31 +
                (uint64_t)(e ? mtime_of(e) : 0) * 17 +
                (uint64_t)(s ? mtime_of(s) : 0) * 7 +
                (uint64_t)(eval_path ? mtime_of(eval_path) : 0);
  free(e);
  free(s);
  return (int64_t)st;
}

/* ------------------------------------------ the gold index on disk */

/* A gold index is kept in the snapshot directory (ts_blob_save) so that a
** new process does not list exec_result and parse the eval jsonl again:
** 5 ms a process on Spider 2.0-Snow's gold. It is trusted while the gold
** folder, its exec_result and sql folders and the eval jsonl have the
** identity and times (nanoseconds, inode change time included) recorded
** when it was made: a file added, removed or renamed changes its folder's
** times, an edited jsonl its own. The folders are stat()ed before the
** listing and the jsonl as it is opened, and the index is kept only when
** nothing changed meanwhile. */
#define GOLD_KEEP_FORMAT 2u

typedef struct {
  uint32_t format, sizes;
  file_id dir, exec, sql;
} gold_keep_stamp;

static void gold_keep_stamp_of(const char *dir, gold_keep_stamp *s) {
  memset(s, 0, sizeof *s);
  s->format = GOLD_KEEP_FORMAT;
  s->sizes = (uint32_t)(sizeof(gold_instance) * 100 + sizeof(file_id));
  char *e = join3(dir, "/exec_result", ""), *q = join3(dir, "/sql", "");
  file_id_at(dir, &s->dir);
  file_id_at(e, &s->exec);
  file_id_at(q, &s->sql);
  if (!e || !q) s->format = 0; /* out of memory: never matches */
  free(e);
  free(q);
}

static char *gold_keep_key(const char *dir) {
  return join3(dir, "\n", "gold index");
}

static void gold_keep_save(const char *snapdir, const char *dir,
                           const gold_index *g, const gold_keep_stamp *before,
                           const file_id *eval_before) {
  gold_keep_stamp after;
  file_id eval_after;
  gold_keep_stamp_of(dir, &after);
  file_id_at(g->eval_path, &eval_after);
  if (!before->format || memcmp(before, &after, sizeof after) ||
      memcmp(eval_before, &eval_after, sizeof eval_after))
    return; /* changed while it was read: not kept */
  bb_buf o = {0};
  bb_put(&o, eval_before, sizeof *eval_before);
  bb_put_str(&o, g->eval_path);
  bb_put_i64(&o, g->ninstances);
  for (int i = 0; i < g->ninstances && !o.nomem; i++) {
    const gold_instance *gi = &g->inst[i];
    bb_put_str(&o, gi->instance_id);
    bb_put_str(&o, gi->condition_cols);
    int missing = !gi->missing_key ? 0
                  : !strcmp(gi->missing_key, "condition_cols") ? 1 : 2;
    int64_t facts[6] = {gi->ignore_order, missing, gi->has_eval,
                        gi->temporal, gi->toks, gi->nvariants};
    bb_put(&o, facts, sizeof facts);
    bb_put(&o, gi->variant_letters, (size_t)gi->nvariants);
    for (int v = 0; v < gi->nvariants; v++)
      bb_put_str(&o, gi->variant_paths[v]);
    bb_put_str(&o, gi->lazy ? gi->lazy->sql_path : NULL);
  }
  char *key = gold_keep_key(dir);
  if (!o.nomem && key)
    ts_blob_save(snapdir, key, before, sizeof *before, o.s, o.n);
  free(key);
  free(o.s);
}

/* The kept index of dir when it is still the folder's, or NULL. */
static gold_index *gold_keep_load(const char *snapdir, const char *dir) {
  gold_keep_stamp now;
  gold_keep_stamp_of(dir, &now);
  if (!now.format) return NULL;
  char *key = gold_keep_key(dir);
  if (!key) return NULL;
  const char *data;
  size_t len;
  char *buf = ts_blob_load(snapdir, key, &now, sizeof now, &data, &len);
  free(key);
  if (!buf) return NULL;
  bb_reader in = bb_reader_of(data, len);
  gold_index *g = calloc(1, sizeof *g);
  file_id eval_kept, eval_now;
  int null;
  bb_read(&in, &eval_kept, sizeof eval_kept);
  if (!g) goto bad;
  g->dir = dup_str(dir);
  g->eval_path = bb_read_str(&in, &null);
  if (in.bad || !g->dir) goto bad;
  file_id_at(g->eval_path, &eval_now);
  if (memcmp(&eval_kept, &eval_now, sizeof eval_now)) goto bad; /* stale */
  int64_t n = bb_read_i64(&in);
  if (in.bad || n < 0 || (uint64_t)n > len / 64 + 1) goto bad;
  g->inst = calloc((size_t)(n ? n : 1), sizeof *g->inst);
  g->lazy = calloc((size_t)(n ? n : 1), sizeof *g->lazy);
  if (!g->inst || !g->lazy) goto bad;
  for (int64_t i = 0; i < n; i++) {
    gold_instance *gi = &g->inst[i];
    g->ninstances = (int)i + 1; /* what gold_index_free must see */
    gi->instance_id = bb_read_str(&in, &null);
    gi->condition_cols = bb_read_str(&in, &null);
    int64_t facts[6];
    bb_read(&in, facts, sizeof facts);
    if (in.bad || !gi->instance_id || !gi->condition_cols ||
        facts[1] < 0 || facts[1] > 2 || facts[5] < 0 ||
        (uint64_t)facts[5] > in.left || facts[4] < INT32_MIN ||
        facts[4] > INT32_MAX)
      goto bad;
    gi->ignore_order = facts[0] != 0;
    gi->missing_key = facts[1] == 1 ? "condition_cols"
                      : facts[1] == 2 ? "ignore_order" : NULL;
    gi->has_eval = facts[2] != 0;
    gi->temporal = facts[3] != 0;
    gi->toks = (int)facts[4];
    int nv = (int)facts[5];
    gi->variant_paths = calloc((size_t)(nv ? nv : 1), sizeof(char *));
    gi->variant_letters = calloc((size_t)nv + 1, 1);
    if (!gi->variant_paths || !gi->variant_letters) goto bad;
    bb_read(&in, gi->variant_letters, (size_t)nv);
    for (int v = 0; v < nv; v++) {
      gi->variant_paths[v] = bb_read_str(&in, &null);
      if (!gi->variant_paths[v]) goto bad;
      gi->nvariants = v + 1;
    }
    gi->lazy = &g->lazy[i];
    gi->lazy->sql_path = bb_read_str(&in, &null);
    gi->lazy->sql_tokens = gi->lazy->sql_path ? SQL_NOT_READ : -1;
    if (in.bad) goto bad;
    if (i > 0 && strcmp(g->inst[i - 1].instance_id, gi->instance_id) >= 0)
      goto bad; /* gold_find needs them sorted */
  }
  if (in.left) goto bad;
  free(buf);
  return g;
bad:
  free(buf);
  gold_index_free(g);
  return NULL;
}

/* The small gold tables travel in one pack beside the kept index (see
** ts_pack_save): a process then opens one file, not one snapshot per
** table. The pack is kept under the index's stamp (the folders'
** identity and times), so a file added, removed or renamed makes it
** again; a table changed in place is served from its own snapshot or
** parsed (ts_pack_table checks each file) until then. Made by the first
** process that finds none, from every variant of the index. */
static char *gold_pack_key(const char *dir, tt_gen gen) {
  /* each generation its own pack; 1.5's keeps the key it always had */
  if (gen == TT_GEN_1_5) return join3(dir, "\n", "gold tables");
  return gen == TT_GEN_2 ? join3(dir, "\n", "gold tables pandas=2")
                         : join3(dir, "\n", "gold tables pandas=3");
}

static void gold_pack_attach(const char *snapdir, gold_index *g,
                             tt_gen gen) {
  const char *dir = g->dir;
  gold_keep_stamp stamp;
  gold_keep_stamp_of(dir, &stamp);
  char *key = gold_pack_key(dir, gen);
  if (!key || !stamp.format) {
    free(key);
    return;
  }
  g->pack[gen] = ts_pack_load(snapdir, key, &stamp, sizeof stamp);
  if (!g->pack[gen]) {
    size_t n = 0;
    for (int i = 0; i < g->ninstances; i++) n += (size_t)g->inst[i].nvariants;
    const char **paths = malloc((n ? n : 1) * sizeof *paths);
    if (paths) {
      n = 0;
      for (int i = 0; i < g->ninstances; i++)
        for (int v = 0; v < g->inst[i].nvariants; v++)
          paths[n++] = g->inst[i].variant_paths[v];
      ts_pack_save_gen(snapdir, key, &stamp, sizeof stamp, paths, n, gen);
      free(paths);
      g->pack[gen] = ts_pack_load(snapdir, key, &stamp, sizeof stamp);
    }
  }
  free(key);
}

const gold_index *se_cache_gold(se_cache *c, const char *dir, char **err) {
  *err = NULL;
  for (gold_entry **pe = &c->golds; *pe; pe = &(*pe)->next) {
    gold_index *g = (*pe)->g;
    if (strcmp(g->dir, dir)) continue;
    if (c->epoch && (*pe)->epoch == c->epoch) return g;
    if (gold_stamp(dir, g->eval_path) == g->stamp) {
      (*pe)->epoch = c->epoch;
      return g;
    }
    gold_entry *dead = *pe;
    *pe = dead->next;
    if (dead->pins) { /* a cursor still reads it: retire, free later */
      dead->next = c->retired;
      c->retired = dead;
    } else {
      gold_index_free(dead->g);
      free(dead);
    }
    break;
  }
  gold_index *g = c->snapshot_dir ? gold_keep_load(c->snapshot_dir, dir) : NULL;
  if (!g) {
    gold_keep_stamp before;
    file_id eval_id;
    memset(&eval_id, 0, sizeof eval_id);
    if (c->snapshot_dir) gold_keep_stamp_of(dir, &before);
    g = gold_load(dir, err, &eval_id);
    if (!g) return NULL;
    if (c->snapshot_dir)
      gold_keep_save(c->snapshot_dir, dir, g, &before, &eval_id);
  }
  g->stamp = gold_stamp(dir, g->eval_path);
  gold_entry *ne = malloc(sizeof *ne);
  if (!ne) {
    gold_index_free(g);
    *err = tt_msgf("out of memory");
    return NULL;
  }
  ne->g = g;
  ne->pins = 0;
  ne->epoch = c->epoch;
  ne->next = c->golds;
  c->golds = ne;
  return g;
}

void se_cache_set_budget(se_cache *c, int64_t bytes) {
  c->budget = bytes < 0 ? 0 : bytes;
}

int64_t se_cache_budget(const se_cache *c) { return c->budget; }

void se_cache_pin(se_cache *c, const char *path, int delta) {
  se_cache_pin_gen(c, path, TT_GEN_DEFAULT, delta);
}

void se_cache_pin_gen(se_cache *c, const char *path, tt_gen gen, int delta) {
  if (!c->nslots) return;
  cache_entry *e = find_slot(c, path, gen);
  if (e->path) e->pins += delta;
}

void se_cache_pin_gold(se_cache *c, const gold_index *g, int delta) {
  for (gold_entry **list = &c->golds; list; list = list == &c->golds ? &c->retired : NULL)
    for (gold_entry **pe = list; *pe; pe = &(*pe)->next)
      if ((*pe)->g == g) {
        (*pe)->pins += delta;
        if ((*pe)->pins == 0 && list == &c->retired) {
          gold_entry *dead = *pe;
          *pe = dead->next;
          gold_index_free(dead->g);
          free(dead);
        }
        return;
      }
}

int se_cache_pinned(const se_cache *c) {
  int n = 0;
  for (size_t i = 0; i < c->nslots; i++) n += c->slots[i].pins;
  for (gold_entry *g = c->golds; g; g = g->next) n += g->pins;
  for (gold_entry *g = c->retired; g; g = g->next) n += g->pins;
  return n;
}
