#!/usr/bin/env bash
# The exported database read by a stock sqlite3 WITHOUT the extension gives exactly the
# rows of the live views, as text: gpu_timeline, ops_summary, ops_unique_args,
# unified_perf_summary, kernel_summary (and meta, indexes, user_version are there).
# Traces: the demo, and every real trace of ../shared/conformance when present.
#   TSQL_EXT   extension (default build/tracesql)
# Prints one line; details on failure. Exit status non-zero on a difference.
set -u
cd "$(dirname "$0")/../.."
ext=${TSQL_EXT:-build/tracesql}
sqlite=${SQLITE3:-sqlite3}
data=${TSQL_CONFORMANCE_DATA:-../shared/conformance}
views="gpu_timeline ops_summary ops_unique_args unified_perf_summary kernel_summary"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsql-export.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

traces=examples/demo_trace.json.gz
if [ -d "$data" ]; then
  traces="$traces $(/usr/bin/python3 tests/conformance/discover.py "$data" traces | tr '\n' ' ')"
else
  echo "SKIP: $data not found — the export is checked on the demo trace only, NOT on real traces"
fi

pass=0 fail=0 rows=0
for t in $traces; do
  db=$tmp/export.db
  rm -f "$db"
  # a JSON of the corpus that is not a trace (a GPU spec file beside the traces) is not
  # exported: said loudly, not counted
  why=$("$sqlite" -batch :memory: -cmd ".load $ext" "SELECT trace_open('$t') > 0" 2>&1 | grep -o 'not a Chrome/Kineto trace' || true)
  if [ -n "$why" ]; then echo "SKIP $t: $why"; continue; fi
  # live: the views on the connection that opened the trace, then the export
  live=$( { echo "SELECT trace_open('$t');"
            for v in $views; do echo ".print == $v"; echo "SELECT * FROM $v WHERE trace_id = 1;"; done
            echo ".print == export"; echo "SELECT trace_export(1, '$db') > 0 AS ok;"; } |
          "$sqlite" -bail -batch :memory: -cmd ".load $ext" -cmd '.mode csv' -cmd '.headers on' 2>&1 | tail -n +3)
  # plain: a stock sqlite3 shell, no .load; the tables in the order they were written
  plain=$( { for v in $views; do echo ".print == $v"; echo "SELECT * FROM $v ORDER BY rowid;"; done
             echo ".print == export"; echo "SELECT 1 AS ok;"; } |
           "$sqlite" -bail -batch -readonly "$db" -cmd '.mode csv' -cmd '.headers on' 2>&1)
  if [ "$live" = "$plain" ]; then
    pass=$((pass + 1))
    rows=$((rows + $(printf '%s\n' "$live" | grep -vc '^==')))
  else
    fail=$((fail + 1))
    echo "FAIL $t: exported tables differ from the live views"
    diff <(printf '%s\n' "$live") <(printf '%s\n' "$plain") | head -n 20
    continue
  fi
  # what a BI tool needs besides the rows
  got=$("$sqlite" -batch -readonly "$db" "PRAGMA user_version;
    SELECT count(*) FROM meta WHERE key IN ('tracesql_version','source_path','source_bytes','source_crc32','load_seconds') AND value IS NOT NULL AND value <> '';
    SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' ORDER BY name);
    PRAGMA integrity_check;" 2>&1)
  want=$'1\n5\nevents_name events_parent_uid events_trace_id events_uid\nok'
  if [ "$got" != "$want" ]; then
    fail=$((fail + 1)); pass=$((pass - 1))
    echo "FAIL $t: meta / indexes / integrity"; diff <(printf '%s\n' "$got") <(printf '%s\n' "$want")
  fi
done
echo "export read without the extension: $pass traces identical to the live views ($rows rows of $views), $fail failed"
[ "$fail" = 0 ]
