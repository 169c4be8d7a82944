#!/bin/sh
# inline_sql.sh SQL_DIR SCRIPT: SCRIPT with each ".read sql/NAME.sql" line
# replaced by the text of SQL_DIR/NAME.sql (recursively), so that the
# result runs from any directory; lines ending in "-- repository only"
# (the checks that the parts can be read from the working directory) are
# left out. Writes to stdout; exits 1 naming a part it cannot read.
# The build's copies (build/sql/) and the installed scripts are made with
# it; cli/embed_sql.sh embeds those copies in the spidereval command.
set -e
[ $# -eq 2 ] || { echo "usage: inline_sql.sh SQL_DIR SCRIPT" >&2; exit 2; }
awk -v dir="$1" -v top="$2" '
function inline(file, from, depth,    line, name, got) {
  if (depth > 8) {
    printf "inline_sql.sh: %s: .read nested more than 8 deep\n", from > "/dev/stderr"
    exit 1
  }
  while ((got = (getline line < file)) > 0) {
    if (line ~ /^\.read sql\/[A-Za-z0-9_.-]+\.sql[ \t\r]*$/) {
      name = line
      sub(/^\.read sql\//, "", name)
      sub(/[ \t\r]*$/, "", name)
      inline(dir "/" name, file, depth + 1)
    } else if (line !~ /-- repository only[ \t\r]*$/) {
      print line
    }
  }
  if (got < 0) {
    printf "inline_sql.sh: %s: cannot read %s\n", from, file > "/dev/stderr"
    exit 1
  }
  close(file)
}
BEGIN { inline(top, top, 0) }'
