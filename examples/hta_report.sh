#!/usr/bin/env bash
# hta_report.sh — Holistic Trace Analysis's analyses, written by tracesql.
#
#   examples/hta_report.sh [--events] [--ops OP,...] [--no-rounding] OUTDIR TRACE...
#       one CSV per analysis in OUTDIR, with HTA's file names and columns:
#       temporal_breakdown, idle_time_breakdown, idle_interval_stats,
#       gpu_kernel_breakdown_by_type, gpu_kernel_breakdown_by_kernel,
#       cuda_kernel_launch_stats, cuda_kernel_launch_stats_summary,
#       queue_length_summary, queue_length_time_series, memory_bw_summary,
#       memory_bw_time_series, comm_comp_overlap, aten_op_kernels_and_delay,
#       profiler_steps, and the summaries
#       with each fixed tie order (derived_queue_length_summary__{launch,kernel}_first,
#       derived_memory_bw_summary__{start,end}_first); --events adds HTA's event
#       table as preprocessed_events.csv.gz; --ops adds rank 0's frequent kernel
#       sequences of each operator, frequent_cuda_kernel_sequences__<op>.csv (:: as __;
#       with --no-rounding, HTA's ns rounding off, as HTA needs on ns traces:
#       ...__<op>__ns_rounding_disabled.csv)
#   examples/hta_report.sh TRACE...
#       (the first argument is a trace file) a short Markdown summary
#
# Several traces are the ranks of one job, 0..N-1 in the order given (a trace's own
# distributedInfo.rank wins). An analysis with no rows writes an empty file.
# Environment: TSQL_EXT (the extension; default build/tracesql of this project),
# SQLITE3 (default sqlite3). See docs/hta.md.
set -euo pipefail

usage() {
    sed -n '3,26p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

events=0
ops=""
rounding=1
while [ $# -gt 0 ]; do
    case $1 in
        --events) events=1; shift ;;
        --ops) ops=${2:-}; shift 2 || usage ;;
        --no-rounding) rounding=0; shift ;;
        -h|--help) usage ;;
        --) shift; break ;;
        -*) usage ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] || usage

here=$(cd "$(dirname "$0")" && pwd)
ext=${TSQL_EXT:-$here/../build/tracesql}
sqlite=${SQLITE3:-sqlite3}
if [ ! -e "$ext" ] && [ ! -e "$ext.so" ] && [ ! -e "$ext.dylib" ] && [ ! -e "$ext.dll" ]; then
    echo "hta_report.sh: extension $ext not found (run make, or set TSQL_EXT)" >&2
    exit 2
fi

# SQL string literal
sq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }

outdir=""
case $1 in
    *.json|*.json.gz|*.gz|*.zip) [ -f "$1" ] || outdir=$1 ;;
    *) outdir=$1 ;;
esac
[ -z "$outdir" ] || shift
[ $# -ge 1 ] || usage
for t in "$@"; do
    [ -f "$t" ] || { echo "hta_report.sh: $t: no such trace file" >&2; exit 2; }
done

# the traces, opened in the order given (their rank when they carry none)
open_sql=""
for t in "$@"; do open_sql+="SELECT trace_open($(sq "$t")) IS NULL;"$'\n'; done

run() { "$sqlite" -bail -batch :memory: -cmd ".load $ext" "$@"; }

if [ -z "$outdir" ]; then
    run -cmd '.mode markdown' -cmd '.headers on' <<EOF
.output /dev/null
$open_sql
.output stdout
.print '# HTA analyses'
.print
.print '## Temporal breakdown (µs)'
SELECT * FROM hta_temporal_breakdown;
.print
.print '## Idle time by category (µs)'
SELECT rank, idle_category, sum(idle_time) AS idle_time FROM hta_idle_time_breakdown GROUP BY 1, 2 ORDER BY 1, 2;
.print
.print '## GPU kernel time by type (µs)'
SELECT * FROM hta_gpu_kernel_breakdown_by_type;
.print
.print '## Kernel launches'
SELECT * FROM hta_cuda_kernel_launch_stats_summary;
.print
.print '## Queue length per stream'
SELECT rank, stream, count, round(mean, 3) AS mean, max FROM hta_queue_length_summary;
.print
.print '## Communication overlapped by computation (%)'
SELECT * FROM hta_comm_comp_overlap;
.print
.print '## Profiler steps'
SELECT group_concat(profiler_step, ', ') AS profiler_steps FROM hta_profiler_steps;
EOF
    exit 0
fi

mkdir -p "$outdir"
# name of the CSV = query
analyses=(
    "temporal_breakdown=SELECT * FROM hta_temporal_breakdown"
    "idle_time_breakdown=SELECT * FROM hta_idle_time_breakdown"
    "idle_interval_stats=SELECT * FROM hta_idle_interval_stats"
    "gpu_kernel_breakdown_by_type=SELECT * FROM hta_gpu_kernel_breakdown_by_type"
    "gpu_kernel_breakdown_by_kernel=SELECT * FROM hta_gpu_kernel_breakdown_by_kernel"
    "cuda_kernel_launch_stats=SELECT * FROM hta_cuda_kernel_launch_stats"
    "cuda_kernel_launch_stats_summary=SELECT * FROM hta_cuda_kernel_launch_stats_summary"
    "queue_length_summary=SELECT * FROM hta_queue_length_summary"
    "queue_length_time_series=SELECT * FROM hta_queue_length_time_series"
    "derived_queue_length_summary__launch_first=SELECT * FROM hta_queue_length_summary(NULL, 'launch_first')"
    "derived_queue_length_summary__kernel_first=SELECT * FROM hta_queue_length_summary(NULL, 'kernel_first')"
    "memory_bw_summary=SELECT * FROM hta_memory_bw_summary"
    "memory_bw_time_series=SELECT * FROM hta_memory_bw_time_series"
    "derived_memory_bw_summary__start_first=SELECT * FROM hta_memory_bw_summary(NULL, 'start_first')"
    "derived_memory_bw_summary__end_first=SELECT * FROM hta_memory_bw_summary(NULL, 'end_first')"
    "comm_comp_overlap=SELECT * FROM hta_comm_comp_overlap"
    "aten_op_kernels_and_delay=SELECT * FROM hta_aten_op_kernels_and_delay"
    "profiler_steps=SELECT * FROM hta_profiler_steps"
)
script=".output /dev/null"$'\n'"$open_sql"
for a in "${analyses[@]}"; do
    script+=".output $(sq "$outdir/${a%%=*}.csv")"$'\n'"${a#*=};"$'\n'
done
IFS=, read -r -a op_list <<< "$ops"
for op in "${op_list[@]}"; do
    [ -n "$op" ] || continue
    file="frequent_cuda_kernel_sequences__${op//::/__}"
    [ "$rounding" = 1 ] || file+="__ns_rounding_disabled"
    script+=".output $(sq "$outdir/$file.csv")"$'\n'
    script+="SELECT * FROM hta_frequent_cuda_kernel_sequences(NULL, $(sq "$op"), NULL, 0, $rounding);"$'\n'
done
if [ "$events" = 1 ]; then
    script+=".output $(sq "$outdir/preprocessed_events.csv")"$'\n'"SELECT * FROM hta_preprocessed_events;"$'\n'
fi
printf '%s' "$script" | run -cmd '.mode csv' -cmd '.headers on'
if [ "$events" = 1 ]; then gzip -f "$outdir/preprocessed_events.csv"; fi
echo "hta_report.sh: wrote ${#analyses[@]} CSVs to $outdir" >&2
