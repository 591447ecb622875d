#!/bin/sh
# Conformance run: compare the tracesql extension with the TraceLens oracle on every
# trace under ../shared/conformance (relative to the project root), and with
# TraceLens's own ops_summary.csv where the trace ships one; then the report CSVs of
# examples/perf_report.sh against TraceLens's perf reports (report.sh).
#
#   tests/conformance/run.sh            # from anywhere
#   TSQL_EXT=path/to/tracesql SQLITE3=path/to/sqlite3 tests/conformance/run.sh
#   TSQL_CONFORMANCE_DATA=dir tests/conformance/run.sh   # other data directory
#
# Prints one PASS/FAIL line per check and finally exactly one line
#   conformance: N passed, M failed
# Exit status is non-zero iff M > 0. If the data directory is missing it prints a
# loud SKIP line and exits 0.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root" || exit 2

data=${TSQL_CONFORMANCE_DATA:-../shared/conformance}
py=${PYTHON:-/usr/bin/python3}
[ -x "$py" ] || py=python3

if [ ! -d "$data" ]; then
    echo "SKIP: $data not found — conformance tests NOT run"
    exit 0
fi

ext=${TSQL_EXT:-build/tracesql}
if [ ! -e "$ext" ] && [ ! -e "$ext.so" ] && [ ! -e "$ext.dylib" ] && [ ! -e "$ext.dll" ]; then
    echo "WARNING: extension $ext not found (build it first); every extension check will FAIL"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsql-conformance.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
out=$tmp/all
one=$tmp/one
: > "$out"

# Every trace (discover.py says which files are traces: not arch files, capture
# manifests or TraceDiff's outputs)
"$py" "$here/discover.py" "$data" traces > "$tmp/list" || exit 2

ntraces=0
while IFS= read -r trace; do
    ntraces=$((ntraces + 1))
    label=${trace#"$data"/}
    case "$trace" in
        *.json.gz) stem=${trace%.json.gz} ;;
        *) stem=${trace%.json} ;;
    esac
    ops="${stem}_perf_report_csvs/ops_summary.csv"
    if [ -f "$ops" ]; then
        "$py" "$here/check_trace.py" --label "$label" --ops-summary "$ops" "$trace" \
            </dev/null > "$one" 2>&1
    else
        "$py" "$here/check_trace.py" --label "$label" "$trace" </dev/null > "$one" 2>&1
    fi
    rc=$?
    # a crash that printed no FAIL line still counts as a failure
    if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$one"; then
        echo "FAIL check_trace  $label: exited with status $rc" >> "$one"
    fi
    cat "$one"; cat "$one" >> "$out"
    # the oracle itself must keep reproducing TraceLens's report (no-op without one)
    "$py" "$here/oracle.py" --selfcheck --label "$label" "$trace" </dev/null > "$one" 2>&1
    rc=$?
    if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$one"; then
        echo "FAIL oracle        $label: selfcheck exited with status $rc" >> "$one"
    fi
    cat "$one"; cat "$one" >> "$out"
done < "$tmp/list"

# the TraceLens-format CSVs of examples/perf_report.sh against TraceLens's reports
TSQL_CONFORMANCE_DATA=$data TSQL_EXT=$ext sh "$here/report.sh" </dev/null > "$one" 2>&1
rc=$?
if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$one"; then
    echo "FAIL report        report.sh exited with status $rc" >> "$one"
fi
cat "$one"; cat "$one" >> "$out"

# examples/diff_report.sh against TraceLens's TraceDiff outputs (tracediff_test/)
TSQL_EXT=$ext "$py" "$here/diff.py" "$data" </dev/null > "$one" 2>&1
rc=$?
if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$one"; then
    echo "FAIL diff          diff.py exited with status $rc" >> "$one"
fi
cat "$one"; cat "$one" >> "$out"

# the perf-report comparison against TraceLens's (compare_test_e2e), from reports and traces
TSQL_CONFORMANCE_DATA=$data TSQL_EXT=$ext sh "$here/compare_reports.sh" </dev/null > "$one" 2>&1
rc=$?
if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$one"; then
    echo "FAIL compare       compare_reports.sh exited with status $rc" >> "$one"
fi
cat "$one"; cat "$one" >> "$out"

# the strict check fails on each kind of difference (a check that cannot fail tests nothing)
bash "$here/strict_selftest.sh" > "$one" 2>&1 && echo "PASS strict-selftest" >> "$one" \
    || echo "FAIL strict-selftest" >> "$one"
grep -v '^strict selftest:' "$one" >> "$out"; grep '^\(FAIL\|PASS\) strict-selftest' "$one"

# per trace: sheets identical to TraceLens's text, and those only the tolerant check passes
grep -E '^(PASS|FAIL) strict ' "$out" | awk '{n[$3]++; if ($1 == "PASS") ok[$3]++}
    END {for (t in n) printf "strict %-70s %d of %d sheets identical to TraceLens'"'"'s text\n", t, ok[t], n[t]}' | sort

if [ "$ntraces" -eq 0 ]; then
    echo "FAIL traces        no traces found under $data" | tee -a "$out"
fi
passed=$(grep -c '^PASS ' "$out")
failed=$(grep -c '^FAIL ' "$out")
echo "conformance: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
