#!/usr/bin/env bash
# A trace in a directory this process may not enter: trace_open says so and what to do;
# trace_export into a directory it may not write says so. Pinned text. Root reads
# everything, so as root the check runs as user nobody (setpriv); it SKIPs loudly when
# it cannot drop privileges.
set -u
cd "$(dirname "$0")/../.."
ext=${TSQL_EXT:-build/tracesql}
sqlite=${SQLITE3:-sqlite3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsql-perm.XXXXXX") || exit 2
trap 'chmod -R u+rwx "$tmp"; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/locked" "$tmp/readonly"
cp examples/demo_trace.json.gz "$tmp/locked/run.json.gz"
cp "$(realpath "$ext".so 2>/dev/null || realpath "$ext")" "$tmp/tracesql.so"
chmod 755 "$tmp" "$tmp/tracesql.so"
chmod 000 "$tmp/locked"
chmod 555 "$tmp/readonly"
run=()
if [ "$(id -u)" = 0 ]; then
  if ! command -v setpriv >/dev/null; then
    echo "SKIP: running as root without setpriv — unreadable-directory errors NOT tested"; exit 0
  fi
  run=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
got=$(cd "$tmp" && "${run[@]}" "$sqlite" -batch :memory: -cmd ".load ./tracesql" 2>&1 <<'SQL'
.bail off
SELECT trace_open('locked/run.json.gz');
SELECT trace_export(trace_open('locked/run.json.gz'), 'readonly/run.db');
SQL
)
want="Runtime error near line 2: tracesql: locked/run.json.gz: cannot open: permission denied; the file, or a directory on its path, is not readable by this process (check with ls -l, or copy the trace somewhere readable)
Runtime error near line 3: tracesql: locked/run.json.gz: cannot open: permission denied; the file, or a directory on its path, is not readable by this process (check with ls -l, or copy the trace somewhere readable)"
if [ "$got" != "$want" ]; then
  echo "FAIL unreadable directory"; diff <(printf '%s\n' "$got") <(printf '%s\n' "$want"); exit 1
fi
# an export into a directory that is not writable
cp examples/demo_trace.json.gz "$tmp/run.json.gz"; chmod 644 "$tmp/run.json.gz"
got=$(cd "$tmp" && "${run[@]}" "$sqlite" -batch :memory: -cmd ".load ./tracesql" \
      "SELECT trace_export(trace_open('run.json.gz'), 'readonly/run.db')" 2>&1)
want="Error: stepping, tracesql: readonly/run.db: the directory of the file is not writable by this process; choose another path"
if [ "$got" != "$want" ]; then
  echo "FAIL export into a read-only directory"; diff <(printf '%s\n' "$got") <(printf '%s\n' "$want"); exit 1
fi
echo "unreadable directory: trace_open and trace_export say what to do${run:+ (as user nobody)}"
