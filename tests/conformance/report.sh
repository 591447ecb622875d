#!/bin/sh
# Report conformance: examples/perf_report.sh on every conformance trace that ships
# TraceLens's perf report (<stem>_perf_report_csvs/ next to <stem>.json.gz), then
# compare_report.py against that report. Prints compare_report.py's PASS / FAIL / SKIP
# lines; exit status non-zero iff a FAIL.
#
#   tests/conformance/report.sh
#   TSQL_EXT=... SQLITE3=... PYTHON=... TSQL_CONFORMANCE_DATA=dir tests/conformance/report.sh
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root" || exit 2

data=${TSQL_CONFORMANCE_DATA:-../shared/conformance}
py=${PYTHON:-/usr/bin/python3}
[ -x "$py" ] || py=python3
TSQL_EXT=${TSQL_EXT:-build/tracesql}
export TSQL_EXT

if [ ! -d "$data" ]; then
    echo "SKIP report: $data not found — report conformance NOT run"
    exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsql-report.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

status=0
n=0
find "$data" -type d -name '*_perf_report_csvs' | LC_ALL=C sort > "$tmp/list"
while IFS= read -r ref; do
    stem=${ref%_perf_report_csvs}
    case $ref in
        */compare_test_e2e/reference/*)
            # inputs of TraceLens's perf-report comparison (copies of the Qwen reports
            # checked above), not reports of a trace: the comparison's own check uses them
            echo "note report ${ref#"$data"/}: an input of the perf-report comparison, checked there, not a trace's report"
            continue ;;
    esac
    if [ -f "$stem.json.gz" ]; then trace=$stem.json.gz
    elif [ -f "$stem.json" ]; then trace=$stem.json
    else
        echo "FAIL report ${stem#"$data"/}: no trace next to $ref"
        status=1
        continue
    fi
    n=$((n + 1))
    label=${trace#"$data"/}
    out=$tmp/out$n
    if ! bash examples/perf_report.sh "$trace" "$out" </dev/null > "$tmp/log" 2>&1; then
        echo "FAIL report $label: perf_report.sh failed:"
        sed 's/^/     /' "$tmp/log" | head -n 10
        status=1
        continue
    fi
    # strict: TraceLens's text, byte for byte (the test); tolerant: the largest relative
    # error per sheet (a diagnostic for what the strict check reports)
    "$py" "$here/strict_report.py" --label "$label" "$out" "$ref" </dev/null || status=1
    "$py" "$here/compare_report.py" --label "$label" "$out" "$ref" </dev/null || status=1
done < "$tmp/list"
if [ "$n" -eq 0 ]; then
    echo "SKIP report: no *_perf_report_csvs folder under $data"
fi
exit $status
