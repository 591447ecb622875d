#!/usr/bin/env bash
# Load progress on stderr: quiet by default; TSQL_PROGRESS=1 or
# tracesql_config('progress', 1) prints bytes, events and the rate every 16 MiB and a
# last line when done; tracesql_config('progress', 0) wins over the environment.
# Uses a generated ~47 MiB plain trace (300000 events).
set -u
cd "$(dirname "$0")/../.."
ext=${TSQL_EXT:-build/tracesql}
sqlite=${SQLITE3:-sqlite3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsql-progress.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
f=$tmp/big.json
awk 'BEGIN { printf "{\"traceEvents\": [";
  for (i = 0; i < 300000; i++) {
    if (i) printf ",";
    printf "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::op_with_a_longer_name_%d\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":1,\"args\":{\"External id\":%d,\"Input Dims\":[[1,2,3],[4,5,6]]}}\n", i % 50, i * 2, i }
  print "]}" }' > "$f"
fail=0
expect() { # what, stderr, extended regex every line must match, minimum number of lines
  local n; n=$(printf '%s' "$2" | grep -c '')
  if [ "$n" -lt "$4" ] || printf '%s\n' "$2" | grep -Evq "$3"; then
    fail=$((fail + 1)); echo "FAIL $1:"; printf '%s\n' "$2" | sed 's/^/  /'
  fi
}
line="^tracesql: $f: [0-9]+\.[0-9] MiB \([0-9]+%\), [0-9]+ events, [0-9]+\.[0-9] MiB/s$|^tracesql: $f: loaded 46\.7 MiB, 300000 events in [0-9]+\.[0-9] s \([0-9]+\.[0-9] MiB/s\)$"
err=$("$sqlite" -batch :memory: -cmd ".load $ext" "SELECT trace_open('$f')" 2>&1 >/dev/null)
[ -z "$err" ] || { fail=$((fail + 1)); echo "FAIL not quiet by default: $err"; }
err=$(TSQL_PROGRESS=1 "$sqlite" -batch :memory: -cmd ".load $ext" "SELECT trace_open('$f')" 2>&1 >/dev/null)
expect "TSQL_PROGRESS=1" "$err" "$line" 2
printf '%s\n' "$err" | tail -n 1 | grep -q 'loaded 46.7 MiB, 300000 events' || { fail=$((fail + 1)); echo "FAIL: no last line"; }
err=$("$sqlite" -batch :memory: -cmd ".load $ext" "SELECT tracesql_config('progress', 1)" "SELECT trace_open('$f')" 2>&1 >/dev/null)
expect "tracesql_config('progress', 1)" "$err" "$line" 2
err=$(TSQL_PROGRESS=1 "$sqlite" -batch :memory: -cmd ".load $ext" "SELECT tracesql_config('progress', 0)" "SELECT trace_open('$f')" 2>&1 >/dev/null)
[ -z "$err" ] || { fail=$((fail + 1)); echo "FAIL config 0 over TSQL_PROGRESS=1: $err"; }
err=$("$sqlite" -batch :memory: -cmd ".load $ext" "SELECT tracesql_config('progress', 2)" 2>&1)
[ "$err" = "Error: stepping, tracesql_config: progress is 1 (print load progress to stderr) or 0 (quiet)" ] ||
  { fail=$((fail + 1)); echo "FAIL bad value: $err"; }
[ "$fail" = 0 ] && echo "load progress: quiet by default; TSQL_PROGRESS=1 and tracesql_config('progress', 1) print bytes, events, rate"
