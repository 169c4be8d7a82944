/* Identifier words and shortest join paths (schema_graph.c). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "agent/schema_graph.h"

static void words_are(const char *in, int expand, const char *want) {
  char *w = sg_words(in, expand);
  ck_assert_ptr_nonnull(w);
  ck_assert_str_eq(w, want);
  free(w);
}

START_TEST(test_words) {
  words_are("order_purchase_ts", 0, "order purchase ts");
  words_are("order_purchase_ts", 1, "order purchase ts timestamp time");
  words_are("orderDate", 0, "order date");
  words_are("HTTPServerLog", 0, "http server log");
  words_are("address2", 0, "address 2");
  words_are("CustomerID", 0, "customer id");
  words_are("  --  ", 0, "");
  words_are("São Paulo", 0, "são paulo");
  words_are("qty", 1, "qty quantity");
}
END_TEST

START_TEST(test_fts_query) {
  int nomem = 1;
  char *q = sg_fts_query("purchase time", SG_EXPAND, &nomem);
  ck_assert_int_eq(nomem, 0);
  ck_assert_str_eq(q, "\"purchase time\" OR \"purchase\" OR \"time\"");
  free(q);
  /* FTS5 syntax in the text stays text */
  q = sg_fts_query("a\" OR NEAR(x", SG_EXPAND, &nomem);
  ck_assert_str_eq(q, "\"a or near x\" OR \"a\" OR \"or\" OR \"near\" OR \"x\"");
  free(q);
  ck_assert_ptr_null(sg_fts_query("!!", 0, &nomem));
  q = sg_fts_query("ts 12", SG_ALL_WORDS, &nomem);
  ck_assert_str_eq(q, "\"ts\" AND \"12\"");
  free(q);
  /* a long text: its first SG_MAX_QUERY_WORDS words, no phrase */
  char longtext[4000] = "";
  for (int i = 0; i < 500; i++) strcat(longtext, "w ");
  q = sg_fts_query(longtext, 0, &nomem);
  int ors = 0;
  for (char *p = q; (p = strstr(p, " OR ")); p++) ors++;
  ck_assert_int_eq(ors, SG_MAX_QUERY_WORDS - 1);
  free(q);
  ck_assert_int_eq(nomem, 0);
}
END_TEST

START_TEST(test_paths) {
  /* 0 -> 1 -> 2 twice (parallel keys 1 and 2), 3 alone */
  sg_edge e[] = {{0, 1}, {1, 2}, {1, 2}, {2, 2}};
  int *p = NULL, len = 0;
  ck_assert_int_eq(sg_shortest_paths(4, e, 4, 0, 2, 20, &p, &len), 2);
  ck_assert_int_eq(len, 2);
  ck_assert_int_eq(p[0], 0);
  ck_assert_int_eq(p[1], 1);
  ck_assert_int_eq(p[2], 0);
  ck_assert_int_eq(p[3], 2);
  free(p);
  /* edges are walked both ways */
  ck_assert_int_eq(sg_shortest_paths(4, e, 4, 2, 0, 20, &p, &len), 2);
  free(p);
  ck_assert_int_eq(sg_shortest_paths(4, e, 4, 0, 3, 20, &p, &len), 0);
  ck_assert_ptr_null(p);
  ck_assert_int_eq(sg_shortest_paths(4, e, 4, 1, 1, 20, &p, &len), 1);
  ck_assert_int_eq(len, 0);
  free(p);
  /* the cap on paths */
  ck_assert_int_eq(sg_shortest_paths(4, e, 4, 0, 2, 1, &p, &len), 1);
  free(p);
  /* a 50-table chain */
  sg_edge chain[49];
  for (int i = 0; i < 49; i++) chain[i] = (sg_edge){i + 1, i};
  ck_assert_int_eq(sg_shortest_paths(50, chain, 49, 0, 49, 20, &p, &len), 1);
  ck_assert_int_eq(len, 49);
  for (int i = 0; i < 49; i++) ck_assert_int_eq(p[i], i);
  free(p);
}
END_TEST

Suite *suite_schema_graph(void) {
  Suite *s = suite_create("schema_graph");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_words);
  tcase_add_test(tc, test_fts_query);
  tcase_add_test(tc, test_paths);
  suite_add_tcase(s, tc);
  return s;
}
