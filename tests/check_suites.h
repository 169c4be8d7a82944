/* One Check suite per module. */
#ifndef SPIDEREVAL_CHECK_SUITES_H
#define SPIDEREVAL_CHECK_SUITES_H
#include <check.h>
Suite *suite_pynum(void);
Suite *suite_typed_table(void);
Suite *suite_table_compare(void);
Suite *suite_similarity(void);
Suite *suite_sql(void);
Suite *suite_schema_graph(void);
Suite *suite_equivalence(void);
Suite *suite_peer_rules(void);
Suite *suite_official(void);
Suite *suite_table_snapshot(void);
Suite *suite_spider_hardness(void);
Suite *suite_jsonl_lines(void);
Suite *suite_bytebuf(void);
Suite *suite_pyjson(void);
Suite *suite_bigmem(void);
Suite *suite_result_diff(void);
Suite *suite_dbt(void);

/* A suite's exhaustive tests (millions of inputs against a reference):
** a second TCase tagged "exhaustive", added to s. make valgrind leaves
** them out (CK_EXCLUDE_TAGS=exhaustive): they run the same code as the
** other tests, only longer, and make asan runs them all. */
static inline TCase *exhaustive_case(Suite *s) {
  TCase *tc = tcase_create("exhaustive");
  tcase_set_tags(tc, "exhaustive");
  suite_add_tcase(s, tc);
  return tc;
}
#endif
