/*
** table_cache.h: per-connection state shared by the spidereval functions:
** parsed CSV tables keyed by (path, size, mtime), and parsed gold
** directories. Pure C (jansson for the eval jsonl), no SQLite.
*/
#ifndef SPIDEREVAL_TABLE_CACHE_H
#define SPIDEREVAL_TABLE_CACHE_H

#include <stdint.h>
#include <sys/stat.h>

#include "read/typed_table.h"

/* A read attempt: the table, or why it could not be read. */
typedef struct {
  tt_table *table; /* NULL on error */
  tt_error error;  /* TT_OK or the failure */
  const char *message; /* failure text (owned by the cache) */
} tc_read;

/* What is filled in on first use of a gold instance, kept beside the
** index and reached through the instance's pointer, so that the index's
** instances themselves stay const (the cache is per connection, whose
** calls do not run at once): the gold SQL file, read by gold_sql_tokens,
** and what match_funcs.c derives from the instance. */
typedef struct {
  int sql_tokens; /* the gold SQL file's whitespace tokens, -1 when
                  ** unreadable, -2 until read */
  char *sql_path; /* the file; NULL once found unreadable */
  void *memo;     /* match_funcs.c's parsed condition_cols specs; NULL
                  ** until first set */
  void (*memo_free)(void *memo); /* frees memo with the index */
} gold_lazy;

/* One gold instance of a gold directory. */
typedef struct {
  char *instance_id;
  char *condition_cols; /* JSON text as in the eval jsonl ("null" if absent) */
  int ignore_order;     /* 0/1: Python's truth of the jsonl value */
  const char *missing_key; /* "condition_cols" or "ignore_order" when the
                           ** eval jsonl entry lacks it (snow raises
                           ** KeyError), else NULL */
  int has_eval;         /* listed in the eval jsonl */
  int temporal;         /* "temporal": true in the eval jsonl */
  int toks;             /* "toks" from the eval jsonl, -1 when absent */
  gold_lazy *lazy;      /* what is filled in on first use (never NULL) */
  int nvariants;
  char **variant_paths; /* sorted as Python sorts the names: <id>.csv
                        ** alone, or <id>.csv\n, <id>_a.csv, <id>_a.csv\n,
                        ** <id>_b.csv ... (see gold_variant_name) */
  char *variant_letters; /* the letter, '\0' for <id>.csv and <id>.csv\n */
} gold_instance;

/* 1 when variant v is the instance's own <id>.csv, which the official
** code compares alone (compare_pandas_table); 0 for the variants it
** compares with compare_multi_pandas_table (<id>_a.csv, <id>.csv\n ...:
** the official re.compile(rf'^{id}(_[a-z])?\.csv$').match lets `$` match
** before a final newline). */
int gold_variant_single(const gold_instance *gi, int v);
/* The variant's name after the id: "" (<id>.csv), "a" (<id>_a.csv), "\n"
** (<id>.csv\n) or "a\n" (<id>_a.csv\n); written into buf. */
const char *gold_variant_name(const gold_instance *gi, int v, char buf[3]);

typedef struct {
  char *dir;
  char *eval_path;      /* the *_eval.jsonl used */
  int ninstances;
  gold_instance *inst;  /* sorted by instance_id */
  gold_lazy *lazy;      /* ninstances: each instance's lazy part */
  int64_t stamp;        /* mtimes of the directory parts when read */
  struct ts_pack *pack[TT_NGEN]; /* the small gold tables' snapshots read
                                 ** as each generation reads (NULL: none) */
  char pack_tried[TT_NGEN];      /* 1 once a generation's pack was sought */
} gold_index;

typedef struct se_cache se_cache;

se_cache *se_cache_new(void);
void se_cache_free(se_cache *c);
void se_cache_retain(se_cache *c);
void se_cache_release(se_cache *c); /* frees when the last user lets go */

/* Read a CSV through the cache. The result stays valid until the next
** call on this cache that may evict (any se_cache_read or clear). */
tc_read se_cache_read(se_cache *c, const char *path);

/* The same when the caller has just taken path's stat() (st), which then
** stands for the cache's own check of the file. */
tc_read se_cache_read_stat(se_cache *c, const char *path,
                           const struct stat *st);

/* The same for a gold CSV: on a miss the parsed table comes from its
** snapshot on disk when one was made from this very file, else the CSV is
** parsed and a snapshot written (table_snapshot.h). */
tc_read se_cache_read_gold(se_cache *c, const char *path);

/* The same, read as pandas generation gen reads (the functions above read
** as TT_GEN_DEFAULT): tables are cached, snapshotted and packed per
** generation, since one file read under two generations is two tables. */
tc_read se_cache_read_gen(se_cache *c, const char *path, tt_gen gen);
tc_read se_cache_read_stat_gen(se_cache *c, const char *path,
                               const struct stat *st, tt_gen gen);
tc_read se_cache_read_gold_gen(se_cache *c, const char *path, tt_gen gen);

/* Where gold snapshots are kept (default ts_default_dir(); NULL or "":
** none). Returns -1 on out of memory. */
int se_cache_set_snapshot_dir(se_cache *c, const char *dir);
const char *se_cache_snapshot_dir(const se_cache *c);

/* Start a new validation epoch: within one epoch a file already checked
** against the disk (size, mtime) is trusted without another stat. SQL
** functions start an epoch per statement (sqlite3_get_auxdata). */
void se_cache_new_epoch(se_cache *c);

/* 1 when paths a and b name one file (the same device and inode; 0 when
** either cannot be stat'ed). Within one epoch each path is stat'ed once,
** so a verdict function called for many pairs of the same files in one
** statement does not stat them again per call. */
int se_cache_same_file(se_cache *c, const char *a, const char *b);

/* realpath(dir) (malloc'd; NULL when it fails), taken once per epoch for
** each dir. */
char *se_cache_realpath(se_cache *c, const char *dir);

/* Pin (delta 1) or release (delta -1) a cached table while a cursor holds
** it: a pinned table is neither evicted nor re-read. Likewise a gold index:
** a stale pinned index is kept until released. */
void se_cache_pin(se_cache *c, const char *path, int delta);
void se_cache_pin_gen(se_cache *c, const char *path, tt_gen gen, int delta);
void se_cache_pin_gold(se_cache *c, const gold_index *g, int delta);

/* Pins held by open cursors (clearing must wait for 0). */
int se_cache_pinned(const se_cache *c);

/* Bytes of parsed tables kept before the least recently used are dropped
** (default 256 MiB). */
void se_cache_set_budget(se_cache *c, int64_t bytes);
int64_t se_cache_budget(const se_cache *c);

/* Forget every cached table and gold directory. */
void se_cache_clear(se_cache *c);

/* Bytes held by cached tables, and the count of entries. */
int64_t se_cache_bytes(const se_cache *c);
int se_cache_entries(const se_cache *c);

/*
** The parsed gold directory (cached; re-read when its files change; kept
** in the snapshot directory too, so that a new process need not list
** and parse it again).
** Returns NULL with *err (malloc'd) when the directory has no exec_result
** folder or its eval jsonl is malformed; a directory without an eval jsonl
** gives instances with has_eval = 0 (ignore_order false, all columns).
*/
const gold_index *se_cache_gold(se_cache *c, const char *dir, char **err);

/* bsearch an instance; NULL when absent. */
const gold_instance *gold_find(const gold_index *g, const char *id);

/* Difficulty bucket: "Easy" (< 80 tokens), "Medium" (80-159), "Hard"
** (>= 160), "Unknown" when neither toks nor gold SQL is known. */
const char *gold_difficulty(const gold_instance *gi);
/* whitespace tokens of the gold SQL file, -1 if none; the file (NULL when
** absent). Read on first use. */
int gold_sql_tokens(const gold_instance *gi);
const char *gold_sql_path(const gold_instance *gi);

#endif
