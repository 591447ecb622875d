#!/usr/bin/env bash
# The sqlite3 shell as a client: `.load` by path with and without the suffix and with
# the entry point named; the views' rows on the demo trace pinned as text; a wrong
# .load path fails with the shell's own message (docs/clients/sqlite3-shell.md).
set -u
cd "$(dirname "$0")/../.."
ext=${TSQL_EXT:-build/tracesql}
sqlite=${SQLITE3:-sqlite3}
fail=0
want='trace_id,type,time_ms,percent
1,computation_time,4.00788799977303,67.8314665876171
1,exposed_comm_time,0.0316470000743866,0.535609385358483
1,exposed_memcpy_time,0.00369199991226196,0.062485221319624
1,busy_time,4.04322699975967,68.4295611942952
1,idle_time,1.86537000012398,31.5704388057048
1,total_time,5.90859699988365,100.0
1,total_comm_time,0.0316470000743866,0.535609385358483
1,total_memcpy_time,0.00369199991226196,0.062485221319624'
for load in "$ext" "$ext.so" "$ext sqlite3_tracesql_init"; do
  got=$("$sqlite" -bail -batch :memory: 2>&1 <<SQL | tr -d '\r'
.load $load
.mode csv
.headers on
SELECT trace_open('examples/demo_trace.json.gz') AS id;
SELECT * FROM gpu_timeline;
SQL
)
  if [ "$got" != "id
1
$want" ]; then
    fail=$((fail + 1)); echo "FAIL .load $load"; diff <(printf '%s\n' "$got") <(printf 'id\n1\n%s\n' "$want") | head
  fi
done
got=$("$sqlite" -batch :memory: '.load build/no_such_extension' 2>&1)
case "$got" in
  *no_such_extension*) ;;
  *) fail=$((fail + 1)); echo "FAIL a wrong .load path: $got" ;;
esac
if [ "$fail" = 0 ]; then
  echo "sqlite3 shell client ($("$sqlite" -version | cut -d' ' -f1)): .load three ways, gpu_timeline pinned"
else
  exit 1
fi
