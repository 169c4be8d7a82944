/* One Check suite per module. */
#ifndef SPIDEREVAL_CHECK_SUITES_H
#define SPIDEREVAL_CHECK_SUITES_H
#include <check.h>
#include <stdlib.h>
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
Suite *suite_cex(void);

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

/* Sampled tests: $SE_CHECK_SAMPLE=k (make valgrind sets 5) keeps one
** input in k of the large loops that compare two implementations on many
** inputs (every one under make asan and make test): check_sampled(i) says
** whether input i runs, check_count(n) is how many of n random inputs
** run. The code paths stay covered; only the repetitions go. */
static inline unsigned check_sample(void) {
  const char *e = getenv("SE_CHECK_SAMPLE");
  int k = e ? atoi(e) : 1;
  return k > 1 ? (unsigned)k : 1u;
}
static inline int check_sampled(unsigned i) { return i % check_sample() == 0; }
static inline int check_count(int n) {
  int m = n / (int)check_sample();
  return m > 0 ? m : 1;
}
#endif
