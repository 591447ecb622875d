#!/usr/bin/env bash
# html_report.sh — one self-contained HTML page about a trace: SVG charts drawn from
# tracesql's views (GPU time breakdown, top ops, top kernels, roofline, collective
# bandwidth, the timeline of one step) and the key tables. No JavaScript, no network.
#
#   examples/html_report.sh TRACE OUT.html
#
# Environment: TSQL_EXT (the extension; default this project's build/tracesql, or the
# installed one), SQLITE3 (the sqlite3 shell; default sqlite3). The page is written
# under a temporary name and renamed into place when complete. See docs/html-report.md.
set -euo pipefail

if [ $# -ne 2 ]; then
    sed -n '3,7p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
trace=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
# the extension and the page's SQL: this checkout, or the installed layout
# (bin/tracesql-html-report, lib/tracesql.so, share/tracesql/html_report.sql)
if [ -n "${TSQL_EXT:-}" ]; then ext=$TSQL_EXT
elif [ -e "$here/../build/tracesql.so" ]; then ext=$here/../build/tracesql
elif [ -e "$here/../lib/tracesql.so" ]; then ext=$here/../lib/tracesql
else ext=tracesql
fi
sql=$here/html_report.sql
[ -f "$sql" ] || sql=$here/../share/tracesql/html_report.sql
sqlite=${SQLITE3:-sqlite3}
if [ ! -r "$trace" ]; then
    echo "html_report.sh: $trace: no such file or not readable" >&2
    exit 2
fi
tmp=$out.tmp.$$
trap 'rm -f "$tmp"' EXIT
q=${trace//\'/\'\'}
"$sqlite" -bail -batch :memory: > "$tmp" <<SQL
.load $ext
.output /dev/null
CREATE TEMP TABLE hr_trace AS SELECT trace_open('$q') AS trace_id;
.output stdout
.read $sql
SQL
mv "$tmp" "$out"
trap - EXIT
