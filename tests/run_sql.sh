#!/usr/bin/env bash
# SQL tests: every tests/sql/**/NAME.sql is run in a fresh in-memory database with the
# extension loaded; its output (CSV with headers, NULL shown as NULL, errors included)
# must equal NAME.expected byte for byte.
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
for t in $(find ${TSQL_SQL_DIRS:-tests/sql} -name '*.sql' | sort); do
  exp=${t%.sql}.expected
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
echo "$suite: $pass passed, $fail failed"
[ "$fail" = 0 ]
