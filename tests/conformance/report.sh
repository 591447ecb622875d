#!/bin/sh
# Report conformance: examples/perf_report.sh on every conformance trace that ships
# TraceLens's perf report (<stem>_perf_report_csvs/ next to <stem>.json.gz; with the
# folder's GPU arch file for <stem>_arch_perf_report_csvs/), and
# examples/inference_report.sh on every inference reference, then strict_report.py and
# compare_report.py against the reference, and invariants.py (rules any report of ours
# holds, reference or not). Which folder is what: discover.py. Prints
# their PASS / FAIL lines; exit status non-zero iff a FAIL.
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

# one report: run the command, then the strict check (TraceLens's text, byte for byte:
# the test) and the tolerant one (the largest relative error per sheet: a diagnostic)
check() {  # LABEL REF_DIR COMMAND...
    local label=$1 ref=$2 out
    shift 2
    n=$((n + 1))
    out=$tmp/out$n
    if ! "$@" "$out" </dev/null > "$tmp/log" 2>&1; then
        echo "NOTE report $label: the command failed: $*"
        sed 's/^/     /' "$tmp/log" | head -n 10
        rm -rf "$out"; mkdir -p "$out"     # every sheet "not written": FAIL unless excused
    fi
    "$py" "$here/strict_report.py" --label "$label" "$out" "$ref" </dev/null || status=1
    "$py" "$here/compare_report.py" --label "$label" "$out" "$ref" </dev/null || status=1
    # the invariants of any report of ours (invariants.py), reference or not
    "$py" "$here/invariants.py" --label "$label" ${check_arch:+--arch "$check_arch"} "$out" </dev/null || status=1
}
check_arch=

# perf reports (discover.py: <stem>_perf_report_csvs/, and <stem>_arch_perf_report_csvs/
# made with the arch file of its folder)
"$py" "$here/discover.py" "$data" reports > "$tmp/list" || exit 2
while IFS="$(printf '\t')" read -r ref trace arch label; do
    [ "$arch" = - ] && arch=
    if [ "$trace" = - ]; then
        echo "FAIL report $label: no trace (or, for an _arch report, no single arch file) next to $ref"
        status=1
        continue
    fi
    if [ -n "$arch" ]; then
        check_arch=$arch
        check "$label" "$ref" bash examples/perf_report.sh -p "gpu_arch_json=$arch" "$trace"
        check_arch=
    else
        check "$label" "$ref" bash examples/perf_report.sh "$trace"
    fi
done < "$tmp/list"

# inference reports (<dir>/perf_csvs/ with <dir>/capture_traces/, <stem>_inference_perf_csvs/)
"$py" "$here/discover.py" "$data" inference > "$tmp/list" || exit 2
while IFS="$(printf '\t')" read -r ref trace capture label; do
    [ "$capture" = - ] && capture=
    if [ "$trace" = - ]; then
        echo "FAIL report $label: no single trace beside $ref"
        status=1
        continue
    fi
    if [ ! -f examples/inference_report.sh ]; then
        echo "NOTE report $label: examples/inference_report.sh does not exist yet"
        check "$label" "$ref" false
    elif [ -n "$capture" ]; then
        check "$label" "$ref" bash examples/inference_report.sh --capture "$capture" "$trace"
    else
        check "$label" "$ref" bash examples/inference_report.sh "$trace"
    fi
done < "$tmp/list"

if [ "$n" -eq 0 ]; then
    echo "SKIP report: no report folder under $data"
fi

# the exact-text rules on hand-made traces (no ../shared needed)
bash "$here/exact/exact.sh" || status=1
exit $status
