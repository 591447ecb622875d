#!/bin/sh
# Perf-report comparison conformance: examples/compare_reports.sh --names h100,mi300 on
# TraceLens's two Qwen reports (compare_test_e2e/reference/*_perf_report_csvs), and again
# on the two Qwen traces themselves, each checked by strict_compare.py against
# TraceLens's comparison (compare_h100_mi300_qwen_csvs/). Then a selftest: a copy of our
# output with one cell changed, one row swapped and one file missing must FAIL.
# Prints PASS / FAIL / SKIP lines; exit status non-zero iff a FAIL.
#
#   tests/conformance/compare_reports.sh
#   TSQL_EXT=... SQLITE3=... PYTHON=... TSQL_CONFORMANCE_DATA=dir tests/conformance/compare_reports.sh
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root" || exit 2

data=${TSQL_CONFORMANCE_DATA:-../shared/conformance}
py=${PYTHON:-/usr/bin/python3}
[ -x "$py" ] || py=python3
TSQL_EXT=${TSQL_EXT:-build/tracesql}
export TSQL_EXT

e2e=$data/tracelens/compare_test_e2e/reference
ref=$e2e/compare_h100_mi300_qwen_csvs
qwen=Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz
if [ ! -d "$ref" ]; then
    echo "SKIP compare: $ref not found — perf-report comparison conformance NOT run"
    exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsql-compare.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

status=0
run() { # label outdir baseline variant
    if ! bash examples/compare_reports.sh --names h100,mi300 "$2" "$3" "$4" </dev/null > "$tmp/log" 2>&1; then
        echo "FAIL compare $1: compare_reports.sh failed:"
        sed 's/^/     /' "$tmp/log" | head -n 10
        status=1
        return 1
    fi
    "$py" "$here/strict_compare.py" --label "$1" --baseline h100 "$2" "$ref" </dev/null || status=1
}

run compare_test_e2e/reports "$tmp/reports" "$e2e/h100_perf_report_csvs" "$e2e/mi300_perf_report_csvs"
if [ -f "$data/tracelens/h100/$qwen" ] && [ -f "$data/tracelens/mi300/$qwen" ]; then
    run compare_test_e2e/traces "$tmp/traces" "$data/tracelens/h100/$qwen" "$data/tracelens/mi300/$qwen"
else
    echo "FAIL compare compare_test_e2e/traces: the Qwen traces are missing under $data/tracelens"
    status=1
fi

# the checker fails on each kind of difference
if [ -d "$tmp/reports" ]; then
    for kind in cell order missing; do
        rm -rf "$tmp/bad"; cp -r "$tmp/reports" "$tmp/bad"
        case $kind in
            cell) sed -i '2s/-6\.774871295533948/-6.774871295533949/' "$tmp/bad/gpu_timeline.csv" ;;
            order) "$py" -c 'import sys; p=sys.argv[1]; l=open(p,encoding="utf-8").read().split("\n"); l[1],l[2]=l[2],l[1]; open(p,"w",encoding="utf-8").write("\n".join(l))' "$tmp/bad/ops_summary.csv" ;;
            missing) rm "$tmp/bad/GEMM_only_variant_mi300.csv" ;;
        esac
        if "$py" "$here/strict_compare.py" --label selftest --baseline h100 "$tmp/bad" "$ref" </dev/null >/dev/null; then
            echo "FAIL compare selftest: strict_compare.py passed a copy with a changed $kind"
            status=1
        else
            echo "PASS compare selftest: a changed $kind fails"
        fi
    done
fi
exit $status
