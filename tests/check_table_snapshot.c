/* Check suite: parsed tables kept on disk (table_snapshot.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_suites.h"
#include "cache/table_snapshot.h"

/* a mix of every store: ints, uint64, exact and inexact floats with NaN,
** bools, str with NaN, a mixed object column, names that need mangling */
static const char *const fixture =
    "i,u,f,b,s,o,s\n"
    "1,18446744073709551615,0.1,True,abc,1,x\n"
    "-2,1,18.960578365843677,False,,a,y\n"
    "3,2,,True,d e,2.5,\n"
    "4,3,1e300,False,\"q,\"\"r\",True,z\n";

static char dir[64], csv[96];

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
}

static void setup(void) {
  snprintf(dir, sizeof dir, "/tmp/se_snap_%ld", (long)getpid());
  mkdir(dir, 0755);
  snprintf(csv, sizeof csv, "%s/t.csv", dir);
  write_file(csv, fixture);
}

static void teardown(void) {
  char *snap = ts_snapshot_path_gen(dir, csv, TT_GEN_DEFAULT);
  unlink(snap);
  free(snap);
  unlink(csv);
  rmdir(dir);
}

/* the same table in every respect the reader sets */
static void assert_same(const tt_table *a, const tt_table *b) {
  ck_assert_int_eq(a->ncols, b->ncols);
  ck_assert_int_eq(a->nrows, b->nrows);
  for (int c = 0; c < a->ncols; c++) {
    ck_assert_str_eq(a->cols[c].name, b->cols[c].name);
    ck_assert_int_eq(a->cols[c].dtype, b->cols[c].dtype);
    ck_assert_int_eq(a->cols[c].store, b->cols[c].store);
    for (int64_t r = 0; r < a->nrows; r++)
      ck_assert_msg(pv_cell_identical(tt_cell(&a->cols[c], r),
                                      tt_cell(&b->cols[c], r)),
                    "column %d row %lld differs", c, (long long)r);
  }
}

START_TEST(test_snapshot_round_trip) {
  tt_table *plain = NULL, *cold = NULL, *warm = NULL;
  ck_assert_int_eq(tt_read_file(csv, &plain, NULL), TT_OK);
  ck_assert_int_eq(ts_read_file(dir, csv, &cold, NULL), TT_OK);
  char *snap = ts_snapshot_path_gen(dir, csv, TT_GEN_DEFAULT);
  struct stat before, after;
  ck_assert_int_eq(stat(snap, &before), 0); /* written by the cold read */
  ck_assert_int_eq(ts_read_file(dir, csv, &warm, NULL), TT_OK);
  /* served by the snapshot: a miss would have renamed a new one in */
  ck_assert_int_eq(stat(snap, &after), 0);
  ck_assert_int_eq(before.st_ino, after.st_ino);
  assert_same(plain, cold);
  assert_same(plain, warm);
  free(snap);
  tt_free(plain);
  tt_free(cold);
  tt_free(warm);
}
END_TEST

/* a damaged snapshot is a miss: the CSV is parsed and the snapshot made
** again; so is a stale one (the CSV rewritten) */
START_TEST(test_snapshot_never_trusted_blindly) {
  tt_table *t = NULL;
  ck_assert_int_eq(ts_read_file(dir, csv, &t, NULL), TT_OK);
  tt_free(t);
  char *snap = ts_snapshot_path_gen(dir, csv, TT_GEN_DEFAULT);
  struct stat st;
  ck_assert_int_eq(stat(snap, &st), 0);
  /* bytes flipped and the file cut, across header, path and payload */
  FILE *f = fopen(snap, "rb");
  char *good = malloc((size_t)st.st_size);
  ck_assert_int_eq(fread(good, 1, (size_t)st.st_size, f), (size_t)st.st_size);
  fclose(f);
  tt_table *plain = NULL;
  ck_assert_int_eq(tt_read_file(csv, &plain, NULL), TT_OK);
  for (off_t i = 0; i < st.st_size; i += 5) {
    int truncate_it = i % 3 == 0;
    f = fopen(snap, "wb");
    if (truncate_it) {
      fwrite(good, 1, (size_t)i, f);
    } else {
      good[i] ^= 0x40;
      fwrite(good, 1, (size_t)st.st_size, f);
      good[i] ^= 0x40;
    }
    fclose(f);
    tt_table *u = NULL;
    ck_assert_int_eq(ts_read_file(dir, csv, &u, NULL), TT_OK);
    assert_same(plain, u);
    tt_free(u);
  }
  /* the CSV rewritten: the old snapshot must not serve it */
  write_file(csv, "i\n42\n");
  tt_table *n = NULL;
  ck_assert_int_eq(ts_read_file(dir, csv, &n, NULL), TT_OK);
  ck_assert_int_eq(n->nrows, 1);
  ck_assert_int_eq(tt_cell(&n->cols[0], 0).v.i, 42);
  tt_free(n);
  tt_free(plain);
  free(good);
  free(snap);
}
END_TEST

/* a table whose snapshot is large enough to be mapped (TS_MAP_BYTES):
** every store again, many rows, an object column of mixed cells (read in
** chunks of 1,000 rows: numbers, then text) */
static char *big_fixture(void) {
  size_t cap = 1 << 20, len = 0;
  char *b = malloc(cap);
  ck_assert_ptr_nonnull(b);
  len += (size_t)snprintf(b + len, cap - len, "i,f,s,o,b\n");
  for (int r = 0; r < 4000; r++)
    len += (size_t)snprintf(
        b + len, cap - len, "%d,%s,%s%d,%s,%s\n", r * 7 - 9000,
        r % 5 ? "0.25" : (r % 3 ? "" : "18.960578365843677"),
        r % 11 ? "word" : "", r, r >= 1000 ? "text" : (r % 2 ? "2.5" : "7"),
        r % 2 ? "True" : "False");
  ck_assert_uint_lt(len, cap);
  return b;
}

START_TEST(test_snapshot_mapped) {
  char *text = big_fixture();
  write_file(csv, text);
  free(text);
  tt_test_chunk_lines = 1000;
  tt_table *plain = NULL, *cold = NULL, *warm = NULL;
  ck_assert_int_eq(tt_read_file(csv, &plain, NULL), TT_OK);
  ck_assert_int_eq(ts_read_file(dir, csv, &cold, NULL), TT_OK);
  char *snap = ts_snapshot_path_gen(dir, csv, TT_GEN_DEFAULT);
  struct stat st, again;
  ck_assert_int_eq(stat(snap, &st), 0);
  ck_assert_int_ge(st.st_size, 16 << 10); /* mapped, not read */
  ck_assert_int_eq(ts_read_file(dir, csv, &warm, NULL), TT_OK);
  ck_assert_int_eq(stat(snap, &again), 0);
  ck_assert_int_eq(st.st_ino, again.st_ino); /* served by the snapshot */
  assert_same(plain, cold);
  assert_same(plain, warm);
  ck_assert_int_eq(warm->cols[3].store, TT_STORE_CELLS);
  /* the CSV rewritten: a new snapshot is renamed over the mapped one,
  ** whose table stays whole */
  FILE *f = fopen(csv, "a");
  fputs("1,0.5,w,x,True\n", f);
  fclose(f);
  tt_table *grown = NULL;
  ck_assert_int_eq(ts_read_file(dir, csv, &grown, NULL), TT_OK);
  ck_assert_int_eq(grown->nrows, plain->nrows + 1);
  ck_assert_int_eq(stat(snap, &again), 0);
  ck_assert_int_ne(st.st_ino, again.st_ino);
  assert_same(plain, warm);
  tt_free(grown);
  grown = NULL;
  /* damage anywhere is a miss */
  f = fopen(snap, "rb");
  ck_assert_int_eq(fstat(fileno(f), &st), 0);
  char *good = malloc((size_t)st.st_size);
  ck_assert_int_eq(fread(good, 1, (size_t)st.st_size, f), (size_t)st.st_size);
  fclose(f);
  tt_table *now = NULL;
  ck_assert_int_eq(tt_read_file(csv, &now, NULL), TT_OK);
  for (off_t i = 3; i < st.st_size; i += st.st_size / 23) {
    f = fopen(snap, "wb");
    good[i] ^= 0x10;
    fwrite(good, 1, (size_t)st.st_size, f);
    good[i] ^= 0x10;
    fclose(f);
    ck_assert_int_eq(ts_read_file(dir, csv, &grown, NULL), TT_OK);
    assert_same(now, grown);
    tt_free(grown);
  }
  free(good);
  free(snap);
  tt_free(now);
  tt_free(plain);
  tt_free(cold);
  tt_free(warm);
  tt_test_chunk_lines = 0;
}
END_TEST

START_TEST(test_snapshot_off_and_errors) {
  tt_table *t = NULL;
  ck_assert_int_eq(ts_read_file(NULL, csv, &t, NULL), TT_OK);
  tt_free(t);
  t = NULL;
  ck_assert_int_eq(ts_read_file("", csv, &t, NULL), TT_OK);
  tt_free(t);
  /* unreadable files give tt_read_file's error and no snapshot */
  char empty[128];
  snprintf(empty, sizeof empty, "%s/empty.csv", dir);
  write_file(empty, "");
  char *err = NULL;
  t = NULL;
  ck_assert_int_eq(ts_read_file(dir, empty, &t, &err), TT_ERR_EMPTY);
  ck_assert_ptr_null(t);
  free(err);
  char *snap = ts_snapshot_path_gen(dir, empty, TT_GEN_DEFAULT);
  ck_assert_int_ne(access(snap, F_OK), 0);
  free(snap);
  unlink(empty);
  err = NULL;
  ck_assert_int_eq(ts_read_file(dir, "/nonexistent/x.csv", &t, &err),
                   TT_ERR_IO);
  free(err);
}
END_TEST

/* blobs (the gold index): served only under the same key and stamp and
** when whole */
START_TEST(test_snapshot_blob) {
  const char key[] = "/some/gold\ngold index", data[] = "0123456789abcdefXYZ";
  const char *got;
  size_t len;
  uint64_t stamp = 42, other = 43;
  ck_assert_ptr_null(ts_blob_load(dir, key, &stamp, sizeof stamp, &got, &len));
  ts_blob_save(dir, key, &stamp, sizeof stamp, data, sizeof data);
  char *buf = ts_blob_load(dir, key, &stamp, sizeof stamp, &got, &len);
  ck_assert_ptr_nonnull(buf);
  ck_assert_uint_eq(len, sizeof data);
  ck_assert_mem_eq(got, data, sizeof data);
  free(buf);
  ck_assert_ptr_null(ts_blob_load(dir, key, &other, sizeof other, &got, &len));
  ck_assert_ptr_null(ts_blob_load(dir, "/other\ngold index", &stamp,
                                  sizeof stamp, &got, &len));
  ck_assert_ptr_null(ts_blob_load(NULL, key, &stamp, sizeof stamp, &got, &len));
  /* every byte flipped and every cut is a miss */
  char *snap = ts_snapshot_path(dir, key);
  struct stat st;
  ck_assert_int_eq(stat(snap, &st), 0);
  FILE *f = fopen(snap, "rb");
  char *good = malloc((size_t)st.st_size);
  ck_assert_int_eq(fread(good, 1, (size_t)st.st_size, f), (size_t)st.st_size);
  fclose(f);
  for (off_t i = 0; i < st.st_size; i++) {
    for (int cut = 0; cut < 2; cut++) {
      f = fopen(snap, "wb");
      if (cut) {
        fwrite(good, 1, (size_t)i, f);
      } else {
        good[i] ^= 0x01;
        fwrite(good, 1, (size_t)st.st_size, f);
        good[i] ^= 0x01;
      }
      fclose(f);
      buf = ts_blob_load(dir, key, &stamp, sizeof stamp, &got, &len);
      ck_assert_msg(buf == NULL, "damage at byte %lld (cut %d) was served",
                    (long long)i, cut);
    }
  }
  unlink(snap);
  free(snap);
  free(good);
}
END_TEST

/* packs: every small table of the list served as a plain read gives it,
** a big one, a missing one and one pandas cannot read left out; a table
** outlives the caller's reference; a file changed in place is not served;
** another key or stamp, and every flipped byte, are misses */
START_TEST(test_snapshot_pack) {
  char small2[128], big[128], bad[128], missing[128];
  snprintf(small2, sizeof small2, "%s/p2.csv", dir);
  snprintf(big, sizeof big, "%s/big.csv", dir);
  snprintf(bad, sizeof bad, "%s/bad.csv", dir);
  snprintf(missing, sizeof missing, "%s/none.csv", dir);
  write_file(small2, "a,b\n1,x\n2,y\n");
  write_file(bad, "a\n1\n2,3\n"); /* Expected 1 fields in line 3, saw 2 */
  FILE *f = fopen(big, "w");
  ck_assert_ptr_nonnull(f);
  fputs("n\n", f);
  for (int i = 0; i < 5000; i++) fprintf(f, "%d\n", i); /* > 16 KiB */
  fclose(f);
  const char *paths[] = {csv, small2, big, bad, missing};
  const char key[] = "/gold\ngold tables";
  uint64_t stamp = 7, other = 8;
  ck_assert_ptr_null(ts_pack_load(dir, key, &stamp, sizeof stamp));
  ts_pack_save(dir, key, &stamp, sizeof stamp, paths, 5);
  ts_pack *p = ts_pack_load(dir, key, &stamp, sizeof stamp);
  ck_assert_ptr_nonnull(p);
  ck_assert_uint_eq(ts_pack_count(p), 2);
  struct stat st;
  tt_table *plain = NULL, *got = NULL;
  for (int k = 0; k < 2; k++) {
    ck_assert_int_eq(stat(paths[k], &st), 0);
    ck_assert_int_eq(tt_read_file(paths[k], &plain, NULL), TT_OK);
    got = ts_pack_table(p, paths[k], &st);
    ck_assert_ptr_nonnull(got);
    assert_same(plain, got);
    tt_free(plain);
    if (k == 0) tt_free(got);
  }
  ck_assert_int_eq(stat(big, &st), 0);
  ck_assert_ptr_null(ts_pack_table(p, big, &st));
  ck_assert_ptr_null(ts_pack_table(p, "/nowhere.csv", &st));
  /* the table keeps the pack alive after the caller's release */
  ts_pack_release(p);
  ck_assert_int_eq(tt_read_file(small2, &plain, NULL), TT_OK);
  assert_same(plain, got);
  tt_free(plain);
  tt_free(got);
  /* rewritten in place (another size): not served */
  p = ts_pack_load(dir, key, &stamp, sizeof stamp);
  ck_assert_ptr_nonnull(p);
  write_file(small2, "a,b\n1,x\n2,yy\n");
  ck_assert_int_eq(stat(small2, &st), 0);
  ck_assert_ptr_null(ts_pack_table(p, small2, &st));
  ts_pack_release(p);
  ck_assert_ptr_null(ts_pack_load(dir, key, &other, sizeof other));
  ck_assert_ptr_null(ts_pack_load(dir, "/gold2\ngold tables", &stamp,
                                  sizeof stamp));
  /* a damaged pack never serves a damaged table: every flipped byte
  ** makes the load or that table's serving fail (or lies where nothing
  ** read depends on it, and the tables served are still the files') */
  ts_pack_save(dir, key, &stamp, sizeof stamp, paths, 5);
  tt_table *want[2];
  struct stat wst[2];
  for (int k = 0; k < 2; k++) {
    ck_assert_int_eq(stat(paths[k], &wst[k]), 0);
    ck_assert_int_eq(tt_read_file(paths[k], &want[k], NULL), TT_OK);
  }
  char *snap = ts_snapshot_path(dir, key);
  ck_assert_int_eq(stat(snap, &st), 0);
  f = fopen(snap, "rb");
  char *good = malloc((size_t)st.st_size);
  ck_assert_int_eq(fread(good, 1, (size_t)st.st_size, f), (size_t)st.st_size);
  fclose(f);
  off_t refused = 0; /* flips after which a table was not served */
  for (off_t i = 0; i < st.st_size; i++) {
    f = fopen(snap, "wb");
    good[i] ^= 0x10;
    fwrite(good, 1, (size_t)st.st_size, f);
    good[i] ^= 0x10;
    fclose(f);
    p = ts_pack_load(dir, key, &stamp, sizeof stamp);
    int served = 0;
    for (int k = 0; p && k < 2; k++) {
      tt_table *t = ts_pack_table(p, paths[k], &wst[k]);
      if (t) {
        assert_same(want[k], t);
        served++;
        tt_free(t);
      }
    }
    refused += served < 2;
    ts_pack_release(p);
  }
  /* the tables' bytes are nearly all of the file (the rest: the blob's
  ** own hash, padding) */
  ck_assert_int_gt(refused, st.st_size * 9 / 10);
  /* a table that fails its hash removes the pack's file (made again by
  ** the next process); the pack already loaded keeps serving the others */
  f = fopen(snap, "wb");
  good[st.st_size - 20] ^= 0x10; /* the last table's payload */
  fwrite(good, 1, (size_t)st.st_size, f);
  fclose(f);
  p = ts_pack_load(dir, key, &stamp, sizeof stamp);
  ck_assert_ptr_nonnull(p);
  int ok = 0;
  for (int k = 0; k < 2; k++) {
    tt_table *t = ts_pack_table(p, paths[k], &wst[k]);
    ok += t != NULL;
    tt_free(t);
  }
  ck_assert_int_eq(ok, 1);
  ck_assert_int_ne(access(snap, F_OK), 0);
  ts_pack_release(p);
  /* ... but not when the name is already a new pack's (made by another
  ** process meanwhile): that one stays */
  f = fopen(snap, "wb");
  fwrite(good, 1, (size_t)st.st_size, f);
  fclose(f);
  p = ts_pack_load(dir, key, &stamp, sizeof stamp);
  ck_assert_ptr_nonnull(p);
  ts_pack_save(dir, key, &stamp, sizeof stamp, paths, 5);
  for (int k = 0; k < 2; k++) tt_free(ts_pack_table(p, paths[k], &wst[k]));
  ck_assert_int_eq(access(snap, F_OK), 0);
  ts_pack_release(p);
  for (int k = 0; k < 2; k++) tt_free(want[k]);
  /* a directory that cannot be written: nothing made */
  unlink(snap);
  ts_pack_save("/proc/no_such_dir", key, &stamp, sizeof stamp, paths, 5);
  ck_assert_ptr_null(ts_pack_load("/proc/no_such_dir", key, &stamp,
                                  sizeof stamp));
  free(snap);
  free(good);
  unlink(small2);
  unlink(big);
  unlink(bad);
}
END_TEST

/* a pack whose table would start off an 8-byte boundary (a payload length
** that is no multiple of 8, as no pack ts_pack_save writes has) is
** refused whole: its rows would be read at misaligned addresses */
START_TEST(test_snapshot_pack_misaligned) {
  char small2[128];
  snprintf(small2, sizeof small2, "%s/p2.csv", dir);
  write_file(small2, "a,b\n1,x\n2,y\n");
  const char *paths[] = {csv, small2};
  const char key[] = "/gold\ngold tables";
  uint64_t stamp = 7;
  ts_pack_save(dir, key, &stamp, sizeof stamp, paths, 2);
  char *snap = ts_snapshot_path(dir, key);
  struct stat st;
  ck_assert_int_eq(stat(snap, &st), 0);
  size_t size = (size_t)st.st_size;
  char *buf = malloc(size + 1);
  FILE *f = fopen(snap, "rb");
  ck_assert_uint_eq(fread(buf, 1, size, f), size);
  fclose(f);
  /* the first table's header: path_len at 12, payload_len at 56 */
  char *h = memmem(buf, size, "SETTSNP1", 8);
  ck_assert_ptr_nonnull(h);
  uint32_t plen;
  uint64_t len, blob_len;
  memcpy(&plen, h + 12, sizeof plen);
  memcpy(&len, h + 56, sizeof len);
  size_t end = (size_t)(h - buf) + 72 + ((plen + 7) & ~7u) + (size_t)len;
  ck_assert_uint_lt(end, size); /* the second table follows */
  memmove(buf + end + 1, buf + end, size - end);
  buf[end] = 0;
  len++;
  memcpy(h + 56, &len, sizeof len);
  memcpy(&blob_len, buf + 16, sizeof blob_len); /* the blob's payload */
  blob_len++;
  memcpy(buf + 16, &blob_len, sizeof blob_len);
  f = fopen(snap, "wb");
  fwrite(buf, 1, size + 1, f);
  fclose(f);
  ts_pack *p = ts_pack_load(dir, key, &stamp, sizeof stamp);
  ck_assert_ptr_null(p);
  ts_pack_release(p);
  unlink(snap);
  unlink(small2);
  free(snap);
  free(buf);
}
END_TEST

/* ts_prune removes what can never be served again and nothing else */
START_TEST(test_snapshot_prune) {
  tt_table *t = NULL;
  ts_prune_result r;
  char cwd[4096], *rel = NULL, *blob = NULL, *stamp = NULL;
  ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
  ck_assert_int_eq(ts_read_file(dir, csv, &t, NULL), TT_OK);
  tt_free(t);
  ck_assert_int_eq(chdir(dir), 0); /* a relative path's snapshot */
  ck_assert_int_eq(ts_read_file(dir, "t.csv", &t, NULL), TT_OK);
  tt_free(t);
  ck_assert_int_eq(chdir(cwd), 0);
  rel = ts_snapshot_path_gen(dir, "t.csv", TT_GEN_DEFAULT);
  ck_assert_int_eq(ts_prune(dir, &r), 0);
  ck_assert_uint_eq(r.removed, 0);
  ck_assert_uint_eq(r.kept, 2);
  /* a kept gold result of a database that is gone */
  ts_blob_save(dir, "exec-result\n/nonexistent/se/db.sqlite\n0123", "s", 1,
               "data", 4);
  blob = ts_snapshot_path(dir, "exec-result\n/nonexistent/se/db.sqlite\n0123");
  ck_assert_int_eq(access(blob, F_OK), 0);
  ck_assert_int_eq(ts_prune(dir, &r), 0);
  ck_assert_uint_eq(r.removed, 1);
  ck_assert_int_ne(access(blob, F_OK), 0);
  /* the CSV gone: its snapshot goes, the relative path's stays */
  unlink(csv);
  ck_assert_int_eq(ts_prune(dir, &r), 0);
  ck_assert_uint_eq(r.removed, 1);
  ck_assert_uint_eq(r.kept, 1);
  ck_assert_int_eq(access(rel, F_OK), 0);
  ck_assert_int_eq(ts_prune("/nonexistent/se/dir", &r), ENOENT);
  ck_assert_int_eq(ts_cache_file_name("0123456789abcdef0123456789abcdef.tts"), 1);
  ck_assert_int_eq(ts_cache_file_name("0123456789abcdef0123456789abcdef.tts.12.3.tmp"), 2);
  ck_assert_int_eq(ts_cache_file_name("0123456789abcdef0123456789abcdeF.tts"), 0);
  ck_assert_int_eq(ts_cache_file_name("0123456789abcdef.tts"), 0);
  ck_assert_int_eq(ts_cache_file_name("last-prune"), 0);
  unlink(rel);
  stamp = tt_msgf("%s/last-prune", dir);
  unlink(stamp);
  free(stamp);
  free(rel);
  free(blob);
  write_file(csv, fixture); /* for teardown */
}
END_TEST


Suite *suite_table_snapshot(void) {
  Suite *s = suite_create("table_snapshot");
  TCase *tc = tcase_create("core");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_snapshot_round_trip);
  tcase_add_test(tc, test_snapshot_never_trusted_blindly);
  tcase_add_test(tc, test_snapshot_blob);
  tcase_add_test(tc, test_snapshot_pack_misaligned);
  tcase_add_test(tc, test_snapshot_off_and_errors);
  tcase_add_test(tc, test_snapshot_prune);
  suite_add_tcase(s, tc);
  TCase *ex = exhaustive_case(s);
  tcase_add_checked_fixture(ex, setup, teardown);
  tcase_add_test(ex, test_snapshot_mapped);
  tcase_add_test(ex, test_snapshot_pack);
  return s;
}
