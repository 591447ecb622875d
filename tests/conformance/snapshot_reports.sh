#!/usr/bin/env bash
# snapshot_reports.sh OUTDIR — every file and every stdout the report commands write on
# the conformance traces, so a change to the commands can be checked byte for byte: run
# it before and after, then  diff -r BEFORE AFTER  (snapshot.sh does the same for the
# tables and views). It calls the commands by their old examples/ names, which stay as
# aliases of tools/tracesql-*, so the same script runs on both sides of the move.
#   perf report       every conformance trace: its CSVs and its Markdown summary
#   diff report       timesformer MI300 vs H100 (TraceLens's TraceDiff pair), Qwen vs itself
#   comparison        Qwen H100 vs MI300 (all phases, and decode), GPT-2 eager vs compiled
#   report comparison TraceLens's two Qwen report folders, and the two Qwen traces
#   collectives       param/dlrm_8ranks (CSVs and the Markdown summary)
# Environment: TSQL_EXT (default build/tracesql), SQLITE3, TSQL_CONFORMANCE_DATA.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root" || exit 2
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
out=$1
data=${TSQL_CONFORMANCE_DATA:-../shared/conformance}
export TSQL_EXT=${TSQL_EXT:-build/tracesql}
if [ ! -d "$data" ]; then echo "SKIP snapshot_reports: $data not found — NOT run" >&2; exit 0; fi
mkdir -p "$out"

# run NAME COMMAND...: the command's stdout, stderr and exit status under OUTDIR/NAME.*
run() {
    local name=$1; shift
    "$@" > "$out/$name.stdout" 2> "$out/$name.stderr" < /dev/null
    echo $? > "$out/$name.rc"
}

find "$data" -type f \( -name '*.json.gz' -o -name '*.json' \) ! -name 'cpu_op_map*.json' \
    | LC_ALL=C sort | while IFS= read -r trace; do
    label=$(printf '%s' "${trace#"$data"/}" | tr '/' '_')
    run "perf.$label.csv" bash examples/perf_report.sh "$trace" "$out/perf.$label"
    run "perf.$label.md" bash examples/perf_report.sh "$trace"
done

tl=$data/tracelens
tf=facebook_timesformer-base-finetuned-k400__1016002.json.gz
qw=Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz
run diff.timesformer bash examples/diff_report.sh "$tl/mi300/$tf" "$tl/h100/$tf" "$out/diff.timesformer"
run diff.timesformer.md bash examples/diff_report.sh "$tl/mi300/$tf" "$tl/h100/$tf"
run diff.qwen_self bash examples/diff_report.sh "$tl/h100/$qw" "$tl/h100/$qw" "$out/diff.qwen_self"

run compare.qwen bash examples/compare_report.sh "$tl/h100/$qw" "$tl/mi300/$qw" "$out/compare.qwen"
run compare.qwen_decode bash examples/compare_report.sh "$tl/h100/$qw" "$tl/mi300/$qw" "$out/compare.qwen_decode" --phase decode
if [ -f "$data/hopper/gpt2_eager.json.gz" ] && [ -f "$data/hopper/gpt2_compiled.json.gz" ]; then
    run compare.gpt2 bash examples/compare_report.sh "$data/hopper/gpt2_eager.json.gz" \
        "$data/hopper/gpt2_compiled.json.gz" "$out/compare.gpt2"
fi

e2e=$tl/compare_test_e2e/reference
run reports.folders bash examples/compare_reports.sh --names h100,mi300 "$out/reports.folders" \
    "$e2e/h100_perf_report_csvs" "$e2e/mi300_perf_report_csvs"
run reports.traces bash examples/compare_reports.sh --names h100,mi300 "$out/reports.traces" "$tl/h100/$qw" "$tl/mi300/$qw"

run coll.dlrm bash examples/collective_report.sh -r 'worker(\d+)' "$out/coll.dlrm" "$data/param/dlrm_8ranks"
run coll.dlrm.md bash examples/collective_report.sh -r 'worker(\d+)' "$data/param/dlrm_8ranks"
echo "snapshot_reports: $(find "$out" -type f | wc -l) files in $out"
