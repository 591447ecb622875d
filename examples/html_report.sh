#!/usr/bin/env bash
# html_report.sh — one self-contained HTML page about a trace: SVG charts drawn from
# tracesql's views (GPU time breakdown, top ops, top kernels, roofline, collective
# bandwidth, the timeline of one step) and the key tables. No JavaScript, no network.
#
#   examples/html_report.sh TRACE OUT.html
#   examples/html_report.sh BASELINE VARIANT OUT.html
#
# With two traces the page opens with their comparison (compare_ops, compare_layers,
# both GPU time breakdowns, the trace diff's regressions and improvements), then the
# baseline's own sections.
# Environment: TSQL_EXT (the extension; default this project's build/tracesql, or the
# installed one), SQLITE3 (the sqlite3 shell; default sqlite3). The page is written
# under a temporary name and renamed into place when complete. See docs/html-report.md.
set -euo pipefail

if [ $# -ne 2 ] && [ $# -ne 3 ]; then
    sed -n '3,12p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
trace=$1
variant=
if [ $# -eq 3 ]; then variant=$2; fi
out=${!#}
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
compare_sql=${sql%/*}/html_compare.sql
sqlite=${SQLITE3:-sqlite3}
for f in "$trace" ${variant:+"$variant"}; do
    if [ ! -r "$f" ]; then
        echo "html_report.sh: $f: no such file or not readable" >&2
        exit 2
    fi
done
tmp=$out.tmp.$$
trap 'rm -f "$tmp"' EXIT
q=${trace//\'/\'\'}
compare=
if [ -n "$variant" ]; then
    # the pair by trace id: both files may carry the same label (one model, two GPUs)
    compare="CREATE TEMP TABLE hr_pair AS SELECT (SELECT trace_id FROM temp.hr_trace) AS b, trace_open('${variant//\'/\'\'}') AS v;
.read $compare_sql"
fi
"$sqlite" -bail -batch :memory: > "$tmp" <<SQL
.load $ext
.output /dev/null
CREATE TEMP TABLE hr_trace AS SELECT trace_open('$q') AS trace_id;
$compare
.output stdout
.read $sql
SQL
mv "$tmp" "$out"
trap - EXIT
