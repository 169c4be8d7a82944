#!/usr/bin/env bash
# Every error message in ext/*.c ext/*/*.c must appear in docs/errors.md: each
# literal fragment (between format placeholders) of 10 or more characters
# with a space, taken from the calls that build errors.
set -u
cd "$(dirname "$0")/.."
passed=0
failed=0
frags=$(grep -ohE '(se_vtab_error|sqlite3_mprintf|msgf|spec_error|sqlite3_result_error)\([^"]*"([^"\\]|\\.)*"(\s*"([^"\\]|\\.)*")*' ext/*.c ext/*/*.c \
  | grep -oE '"([^"\\]|\\.)*"' | sed -E 's/^"//; s/"$//' \
  | sed -E "s/%(\.\*|\.?[0-9]*)?(ll|l|z)?[sdufcx]|%02x|%lld|%zu/\n/g" \
  | grep -E '.{10,}' | grep ' ' | sed -E 's/\\"/"/g' | sort -u)
while IFS= read -r f; do
  [ -z "$f" ] && continue
  # a fragment may wrap across the table's formatting: compare squeezed
  if grep -qF -- "$f" docs/errors.md; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "not in docs/errors.md: '$f'"
  fi
done <<<"$frags"
echo "errors: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
