/*
** duckdb_exec: runs SQL scripts with the pinned libduckdb (loaded as the
** bundle loads it) to build the DuckDB files of the dbt parity corpus.
**
**   build/duckdb_exec OUT.duckdb SCRIPT.sql [GOLD.duckdb]
**
** OUT is made anew; "@GOLD@" in the script is replaced by GOLD's path (the
** scripts of prediction databases ATTACH the gold to derive from it).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "duckdb/duckdb_lib.h"

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: duckdb_exec OUT.duckdb SCRIPT.sql [GOLD.duckdb]\n");
    return 2;
  }
#ifndef SE_HAVE_DUCKDB_H
  fprintf(stderr, "duckdb_exec: built without duckdb.h\n");
  return 1;
#else
  const char *err = NULL;
  const dk_api *a = dk_api_get(&err);
  if (!a) {
    fprintf(stderr, "duckdb_exec: %s\n", err);
    return 1;
  }
  FILE *f = fopen(argv[2], "rb");
  if (!f) {
    perror(argv[2]);
    return 1;
  }
  char *sql = NULL;
  size_t len = 0;
  FILE *ms = open_memstream(&sql, &len);
  int ch;
  const char *gold = argc > 3 ? argv[3] : "";
  char buf[8];
  size_t k = 0;
  while ((ch = fgetc(f)) != EOF) {
    buf[k++] = (char)ch;
    if (memcmp(buf, "@GOLD@", k < 6 ? k : 6) != 0) {
      fwrite(buf, 1, k, ms);
      k = 0;
    } else if (k == 6) {
      fputs(gold, ms);
      k = 0;
    }
  }
  fwrite(buf, 1, k, ms);
  fclose(f);
  fclose(ms);
  unlink(argv[1]);
  duckdb_database db;
  duckdb_connection con;
  char *oerr = NULL;
  if (a->duckdb_open_ext(argv[1], &db, NULL, &oerr) != DuckDBSuccess) {
    fprintf(stderr, "duckdb_exec: %s: %s\n", argv[1], oerr ? oerr : "?");
    return 1;
  }
  a->duckdb_connect(db, &con);
  duckdb_result res;
  int rc = 0;
  if (a->duckdb_query(con, sql, &res) != DuckDBSuccess) {
    fprintf(stderr, "duckdb_exec: %s: %s\n", argv[2], a->duckdb_result_error(&res));
    rc = 1;
  }
  a->duckdb_destroy_result(&res);
  a->duckdb_disconnect(&con);
  a->duckdb_close(&db);
  free(sql);
  return rc;
#endif
}
