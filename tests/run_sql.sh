#!/usr/bin/env bash
# SQL tests: every tests/sql/**/NAME.sql is run in a fresh in-memory database with the
# extension loaded; its output (CSV with headers, NULL shown as NULL, errors included)
# must equal NAME.expected byte for byte. A test that opens a file of ../shared SKIPs
# loudly when ../shared is absent (a clone outside this project).
#   TSQL_EXT      extension to load (default build/tracesql)
#   TSQL_SQL_DIRS folders to run (default tests/sql)
#   TSQL_UPDATE=1 rewrite the .expected files instead (review the diff before committing)
set -u
cd "$(dirname "$0")/.."
ext=${TSQL_EXT:-build/tracesql}
sqlite=${SQLITE3:-sqlite3}
suite=${TSQL_SUITE:-sql}
pass=0
fail=0
skipped=0
for t in $(find ${TSQL_SQL_DIRS:-tests/sql} -name '*.sql' | sort); do
  exp=${t%.sql}.expected
  # a test that opens a file of ../shared (a quoted '../shared/ path) cannot run without it
  if [ ! -d ../shared ] && grep -q "'\.\./shared/" "$t"; then
    echo "SKIP $t: it reads ../shared, which is not beside this checkout"
    skipped=$((skipped + 1))
    continue
  fi
  got=$("$sqlite" -bail -batch :memory: -cmd ".load $ext" -cmd '.mode csv' -cmd '.headers on' \
        -cmd '.nullvalue NULL' < "$t" 2>&1)
  if [ "${TSQL_UPDATE:-0}" = 1 ]; then
    printf '%s\n' "$got" > "$exp"
    echo "updated $exp"
    continue
  fi
  if [ -f "$exp" ] && [ "$got" = "$(cat "$exp")" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $t"
    if [ -f "$exp" ]; then
      diff <(printf '%s\n' "$got") "$exp" | head -n 30
    else
      echo "  (no $exp)"
    fi
  fi
done
if [ "$skipped" -gt 0 ]; then
  echo "$suite: $pass passed, $fail failed, $skipped SKIPPED (no ../shared)"
else
  echo "$suite: $pass passed, $fail failed"
fi
[ "$fail" = 0 ]
