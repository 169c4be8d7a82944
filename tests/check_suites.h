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
#endif
