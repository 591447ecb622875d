#!/bin/sh
# The report's exact-text rules on hand-made traces, one per rule (gen_traces.py wrote
# the traces; expected/<case>/ is TraceLens's report of each, whole-cell None/nan of
# Debian's pandas 1.5 written as pandas 3's empty cell): strict_report.py compares our
# report with it byte for byte, and invariants.py checks our output. Cases:
#   norm_batch / norm_groupbwd           param dtype over the sheet frame (16 vs 16.0),
#                                        a None param as an empty cell
#   reduce_nokernel / reduce_onekernel   Kernel Time the integer 0 (no kernel in the frame)
#   autograd_node / _below / _helper     the sole-backward rule (Node op row; a modelled
#                                        op below it; a helper op beside it)
#   autograd_node+h100                   the Node row's roofline (backward FLOPs)
#   gemm_fp32+h100 / +no_matrix_fp32     an fp32 GEMM under an arch with and without
#                                        matrix_fp32 (roofline columns or none)
#   unified_nomodel                      no row with perf metrics: unified_perf_summary
#                                        has no GFLOPS ... TFLOPS/s columns
# Prints PASS / FAIL lines; exit status 1 on a FAIL.
#
#   tests/conformance/exact/exact.sh        (TSQL_EXT, SQLITE3, PYTHON as report.sh)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$root" || exit 2
py=${PYTHON:-/usr/bin/python3}
[ -x "$py" ] || py=python3
TSQL_EXT=${TSQL_EXT:-build/tracesql}
export TSQL_EXT
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsql-exact.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
status=0
for ref in "$here"/expected/*/; do
    case=$(basename "$ref")
    trace=$here/${case%%+*}.json
    arch=
    case $case in *+*) arch=$here/arch_${case#*+}.json ;; esac
    out=$tmp/$case
    if ! bash examples/perf_report.sh ${arch:+-p "gpu_arch_json=$arch"} "$trace" "$out" > "$tmp/log" 2>&1; then
        echo "FAIL exact $case: perf_report.sh failed"
        sed 's/^/     /' "$tmp/log" | head -n 5
        status=1
        continue
    fi
    "$py" "$here/../strict_report.py" --label "exact/$case" "$out" "$ref" </dev/null || status=1
    "$py" "$here/../invariants.py" --label "exact/$case" ${arch:+--arch "$arch"} "$out" </dev/null || status=1
done

# an arch option that cannot be used stops the run with its reason (exit status 2)
printf '{"mem_bw_gbps": 1}' > "$tmp/bad_arch.json"
for opt in "gpu_arch_json=$tmp/bad_arch.json:no max_achievable_tflops" \
           "gpu_arch_json=$tmp/no_such.json:no such file" "gpu=H999:not a gpu_specs row"; do
    bash examples/perf_report.sh -p "${opt%%:*}" "$here/gemm_fp32.json" "$tmp/bad" > "$tmp/log" 2>&1
    rc=$?
    # a refused option: non-zero (2 for a usage error, 1 for one the SQL finds), the reason, no OUTDIR left behind
    if [ $rc -ne 0 ] && grep -q "${opt#*:}" "$tmp/log" && [ ! -e "$tmp/bad" ]; then
        echo "PASS exact bad option ${opt%%=*}: ${opt#*:}"
    else
        echo "FAIL exact bad option ${opt%%:*}: exit $rc, $(head -n 1 "$tmp/log")"
        status=1
    fi
done
exit $status
