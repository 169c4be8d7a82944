/* Check suite: JSON read as Python's json.loads reads it (pyjson.c). */
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "base/pyjson.h"

/* Each text Python's json.loads accepts and jansson refuses reads as the
** value given (with 1e308 for NaN, inf and huge numbers); text JSON to
** both reads as jansson reads it; text Python refuses is an error with
** jansson's message for it. */
START_TEST(test_python_numbers) {
  static const struct {
    const char *text, *want; /* want NULL: an error */
  } r[] = {
      {"{\"a\":NaN}", "{\"a\":1e308}"},
      {"[Infinity,-Infinity]", "[1e308,-1e308]"},
      {"NaN", "1e308"},
      {"[9223372036854775807,-9223372036854775808]",
       "[9223372036854775807,-9223372036854775808]"},
      {"[9223372036854775808]", "[1e308]"},
      {"[-9223372036854775809]", "[-1e308]"},
      {"[123456789012345678901234567890123456789012345678901234567890123456789]",
       "[1e308]"},
      {"[1e400,-1.5e400,1e-400,1E+400]", "[1e308,-1e308,0.0,1e308]"},
      {"[\"NaN\",NaN]", "[\"NaN\",1e308]"},
      {"[\"a\\\"NaN\",NaN,\"Infinity\\\\\",Infinity]",
       "[\"a\\\"NaN\",1e308,\"Infinity\\\\\",1e308]"},
      {" {\"ignore_order\": NaN, \"condition_cols\": [0, Infinity]} ",
       "{\"ignore_order\":1e308,\"condition_cols\":[0,1e308]}"},
      {"-NaN", NULL},
      {"nan", NULL},
      {"NaNx", NULL},
      {"[NaN", NULL},
      {"[+1]", NULL},
      {"[01]", NULL},
      {"[-]", NULL},
      {"[1e400", NULL},
      {"infinity", NULL},
      {"-\"NaN\"", NULL},
  };
  for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
    json_error_t je, first;
    json_t *v = pyjson_loadb(r[i].text, strlen(r[i].text), JSON_DECODE_ANY, &je);
    if (!r[i].want) {
      ck_assert_msg(!v, "%s: read, want an error", r[i].text);
      ck_assert_ptr_null(json_loadb(r[i].text, strlen(r[i].text),
                                    JSON_DECODE_ANY, &first));
      ck_assert_str_eq(je.text, first.text);
      continue;
    }
    json_t *want = json_loads(r[i].want, JSON_DECODE_ANY, NULL);
    ck_assert_ptr_nonnull(want);
    char *got = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    ck_assert_msg(v && json_equal(v, want), "%s: got %s, want %s", r[i].text,
                  got ? got : je.text, r[i].want);
    free(got);
    json_decref(v);
    json_decref(want);
  }
}
END_TEST

Suite *suite_pyjson(void) {
  Suite *s = suite_create("pyjson");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_python_numbers);
  suite_add_tcase(s, tc);
  return s;
}
