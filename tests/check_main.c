/* Runs every Check suite; the exit code is the number of failures. */
#include <stdio.h>
#include <stdlib.h>

#include "check_suites.h"

int main(void) {
  SRunner *sr = srunner_create(suite_pynum());
  srunner_add_suite(sr, suite_typed_table());
  srunner_add_suite(sr, suite_table_compare());
  srunner_add_suite(sr, suite_similarity());
  srunner_add_suite(sr, suite_sql());
  srunner_add_suite(sr, suite_schema_graph());
  srunner_add_suite(sr, suite_equivalence());
  srunner_add_suite(sr, suite_peer_rules());
  srunner_add_suite(sr, suite_official());
  srunner_add_suite(sr, suite_table_snapshot());
  srunner_add_suite(sr, suite_spider_hardness());
  srunner_add_suite(sr, suite_jsonl_lines());
  srunner_add_suite(sr, suite_bytebuf());
  srunner_add_suite(sr, suite_pyjson());
  srunner_add_suite(sr, suite_bigmem());
  srunner_add_suite(sr, suite_result_diff());
  srunner_add_suite(sr, suite_dbt());
  srunner_add_suite(sr, suite_cex());
  srunner_run_all(sr, CK_NORMAL);
  int ran = srunner_ntests_run(sr);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  printf("unit: %d passed, %d failed\n", ran - failed, failed);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
