#!/usr/bin/env bash
# strict_selftest.sh — strict_report.py fails on each kind of difference a user would see:
# a missing sheet, a changed cell (a 4 where TraceLens has 4.0), rows out of order outside
# a tie, a different header; and passes a tie permuted and numpy's np.float64() wrapper.
# Then discover.py on a hand-made data folder: traces, arch files, capture manifests,
# perf / arch / inference report folders told apart.
set -u
here=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsql-strict.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
check() { # name want(0|1) ours ref
    mkdir -p "$tmp/o" "$tmp/r"; rm -f "$tmp"/o/* "$tmp"/r/*
    [ -n "$3" ] && printf '%s' "$3" > "$tmp/o/$5.csv"
    printf '%s' "$4" > "$tmp/r/$5.csv"
    "$py" "$here/strict_report.py" --label selftest "$tmp/o" "$tmp/r" > "$tmp/log" 2>&1
    got=$?
    if [ "$got" = "$2" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL strict-selftest $1 (exit $got)"; cat "$tmp/log"; fi
}
ref=$'name,x\na,4.0\nb,np.float64(2.5)\n'
check identical 0 $'name,x\na,4.0\nb,2.5\n' "$ref" ops_summary
check missing 1 "" "$ref" ops_summary
check int-for-float 1 $'name,x\na,4\nb,2.5\n' "$ref" ops_summary
check order 1 $'name,x\nb,2.5\na,4.0\n' "$ref" ops_summary
check header 1 $'Name,x\na,4.0\nb,2.5\n' "$ref" ops_summary
ks=$'Kernel name,Kernel duration (µs)_sum\nk1,5.0\nk2,3.0\nk3,3.0\n'
check tie-permuted 0 $'Kernel name,Kernel duration (µs)_sum\nk1,5.0\nk3,3.0\nk2,3.0\n' "$ks" kernel_summary
check not-a-tie 1 $'Kernel name,Kernel duration (µs)_sum\nk2,3.0\nk1,5.0\nk3,3.0\n' "$ks" kernel_summary
# discover.py: a hand-made data folder with each kind of file it must tell apart
d=$tmp/data; mkdir -p "$d/g/m_perf_report_csvs" "$d/g/m_arch_perf_report_csvs" "$d/g/m_inference_perf_csvs" \
    "$d/inf/perf_csvs" "$d/inf/capture_traces" "$d/g/orphan_perf_report_csvs"
for f in g/m.json.gz inf/replay.json.gz inf/capture_traces/bs_1.json.gz g/cpu_op_map_trace1.json; do : > "$d/$f"; done
printf '{"name": "X", "mem_bw_gbps": 1, "memory_gb": 1, "max_achievable_tflops": {}}' > "$d/g/X_arch.json"
printf '[{"file": "bs_1.json.gz", "batch_size": 1, "mode": "FULL"}]' > "$d/inf/capture_traces/execution_details.json"
disc() { "$py" "$here/discover.py" "$d" "$1" | sed "s|$d/||g"; }
want_traces=$'g/m.json.gz\ninf/capture_traces/bs_1.json.gz\ninf/replay.json.gz'
want_reports=$'g/m_arch_perf_report_csvs\tg/m.json.gz\tg/X_arch.json\tg/m.json.gz+arch\ng/m_perf_report_csvs\tg/m.json.gz\t-\tg/m.json.gz\ng/orphan_perf_report_csvs\t-\t-\tg/orphan_perf_report_csvs'
want_inference=$'g/m_inference_perf_csvs\tg/m.json.gz\t-\tg/m.json.gz+inference\ninf/perf_csvs\tinf/replay.json.gz\tinf/capture_traces\tinf/replay.json.gz+inference'
for kind in traces reports inference; do
    want=want_$kind
    if [ "$(disc $kind)" = "${!want}" ]; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL strict-selftest discover $kind:"; disc $kind; fi
done
echo "strict selftest: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
