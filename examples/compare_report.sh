#!/usr/bin/env bash
# compare_report.sh — why is one run slower than another: the cross-platform comparison
# of two traces (docs/compare.md), written by tracesql.
#
#   examples/compare_report.sh BASELINE VARIANT OUTDIR [--phase prefill|decode|mixed]
#
# Writes into OUTDIR:
#   operations.csv, layers.csv, kernels.csv, fusion.csv, metadata.csv, phases.csv
#                   compare_ops / compare_layers / compare_kernels / compare_fusion /
#                   compare_metadata / compare_phases, as they are
#   comparison.json {"metadata": {"baseline": {...}, "variant": {...}, "phase": ...},
#                    "operations": [...], "layers": [...]} (the reference tool's shape)
#   summary.md      the largest gaps first, each with its kernels, CPU ops and the
#                   baseline's example Python stack (when the trace has stacks)
#
# Environment: TSQL_EXT (the extension; default build/tracesql of this project),
# SQLITE3 (the sqlite3 shell; default sqlite3).
set -euo pipefail

usage() {
    sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

[ $# -eq 3 ] || [ $# -eq 5 ] || usage
baseline=$1 variant=$2 outdir=$3
phase=
if [ $# -eq 5 ]; then
    [ "$4" = --phase ] || usage
    phase=$5
fi

here=$(cd "$(dirname "$0")" && pwd)
ext=${TSQL_EXT:-$here/../build/tracesql}
sqlite=${SQLITE3:-sqlite3}
if [ ! -e "$ext" ] && [ ! -e "$ext.so" ]; then
    echo "compare_report.sh: extension $ext not found (run make, or set TSQL_EXT)" >&2
    exit 2
fi
for t in "$baseline" "$variant"; do
    [ -r "$t" ] || { echo "compare_report.sh: $t: no such file or not readable" >&2; exit 2; }
done
mkdir -p "$outdir"

q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }
ph=NULL
[ -n "$phase" ] && ph=$(q "$phase")

"$sqlite" -bail -batch :memory: -cmd ".load $ext" <<SQL
SELECT trace_open($(q "$baseline")) IS NULL, trace_open($(q "$variant")) IS NULL;
CREATE TEMP TABLE r_ops AS SELECT * FROM compare_ops($(q "$baseline"), $(q "$variant"), $ph);
CREATE TEMP TABLE r_layers AS SELECT * FROM compare_layers($(q "$baseline"), $(q "$variant"), $ph);
CREATE TEMP TABLE r_kernels AS SELECT * FROM compare_kernels($(q "$baseline"), $(q "$variant"), $ph);
CREATE TEMP TABLE r_fusion AS SELECT * FROM compare_fusion($(q "$baseline"), $(q "$variant"), $ph);
CREATE TEMP TABLE r_meta AS SELECT * FROM compare_metadata($(q "$baseline"), $(q "$variant"), $ph);
CREATE TEMP TABLE r_phases AS SELECT * FROM compare_phases($(q "$baseline"), $(q "$variant"));
CREATE TEMP TABLE r_stacks AS
    SELECT o.operation, s.stack FROM r_ops o, compare_stacks($(q "$baseline"), o.operation, 1, $ph) s
    WHERE o.baseline_count > 0;
.headers on
.mode csv
.once $(q "$outdir/operations.csv")
SELECT * FROM r_ops;
.once $(q "$outdir/layers.csv")
SELECT * FROM r_layers;
.once $(q "$outdir/kernels.csv")
SELECT * FROM r_kernels;
.once $(q "$outdir/fusion.csv")
SELECT * FROM r_fusion;
.once $(q "$outdir/metadata.csv")
SELECT * FROM r_meta;
.once $(q "$outdir/phases.csv")
SELECT * FROM r_phases;
.headers off
.mode list
.once $(q "$outdir/comparison.json")
SELECT json_object(
  'metadata', json_object(
      'baseline', (SELECT json_object('trace', label, 'platform', platform, 'gpu', gpu,
                       'kernel_count', gpu_events, 'total_kernel_ms', total_ms, 'num_layers', layers,
                       'forward_passes', forward_passes,
                       'phase_breakdown_ms', json_object('prefill', prefill_ms, 'decode', decode_ms,
                                                         'mixed', mixed_ms, 'none', no_phase_ms))
                   FROM r_meta WHERE side = 'baseline'),
      'variant', (SELECT json_object('trace', label, 'platform', platform, 'gpu', gpu,
                       'kernel_count', gpu_events, 'total_kernel_ms', total_ms, 'num_layers', layers,
                       'forward_passes', forward_passes,
                       'phase_breakdown_ms', json_object('prefill', prefill_ms, 'decode', decode_ms,
                                                         'mixed', mixed_ms, 'none', no_phase_ms))
                  FROM r_meta WHERE side = 'variant'),
      'phase', coalesce($ph, 'all')),
  'operations', (SELECT json_group_array(json_object(
      'operation', operation, 'baseline_count', baseline_count, 'variant_count', variant_count,
      'baseline_avg_us', baseline_avg_us, 'variant_avg_us', variant_avg_us,
      'baseline_total_ms', baseline_total_ms, 'variant_total_ms', variant_total_ms,
      'ratio', ratio, 'avg_ratio', avg_ratio, 'gap_ms', gap_ms, 'status', status,
      'baseline_kernel', baseline_kernel, 'variant_kernel', variant_kernel,
      'baseline_cpu_op', baseline_cpu_op, 'variant_cpu_op', variant_cpu_op,
      'phases', json(json_array(phases)), 'note', note,
      'baseline_stack', (SELECT stack FROM r_stacks s WHERE s.operation = r_ops.operation)))
      FROM r_ops),
  'layers', (SELECT json_group_array(json_object(
      'layer', layer, 'baseline_kernels', baseline_kernels, 'variant_kernels', variant_kernels,
      'baseline_total_ms', baseline_total_ms, 'variant_total_ms', variant_total_ms,
      'ratio', ratio, 'gap_ms', gap_ms, 'status', status, 'in_both', json(CASE WHEN in_both THEN 'true' ELSE 'false' END)))
      FROM r_layers));
.once $(q "$outdir/summary.md")
SELECT '# Comparison: ' || (SELECT label || ' (' || coalesce(platform, '?') || ', ' || coalesce(gpu, '?') || ')' FROM r_meta WHERE side = 'baseline')
    || ' vs ' || (SELECT label || ' (' || coalesce(platform, '?') || ', ' || coalesce(gpu, '?') || ')' FROM r_meta WHERE side = 'variant')
    || char(10) || char(10) || 'Phase: ' || coalesce($ph, 'all') || '. GPU time: baseline '
    || printf('%.3f', (SELECT total_ms FROM r_meta WHERE side = 'baseline')) || ' ms, variant '
    || printf('%.3f', (SELECT total_ms FROM r_meta WHERE side = 'variant')) || ' ms; layers '
    || (SELECT layers FROM r_meta WHERE side = 'baseline') || ' / ' || (SELECT layers FROM r_meta WHERE side = 'variant')
    || '.' || char(10) || char(10) || '## Phases (all GPU work; found by: markers, shapes or kernel names)' || char(10) || char(10)
    || '| phase | baseline ms | variant ms | gap ms | passes | found by |' || char(10) || '|---|---:|---:|---:|---:|---|' || char(10)
    || (SELECT group_concat(printf('| %s | %.3f | %.3f | %+.3f | %d / %d | %s / %s |', phase, baseline_ms, variant_ms, gap_ms,
           baseline_passes, variant_passes, coalesce(baseline_found_by, '-'), coalesce(variant_found_by, '-')), char(10)) FROM r_phases)
    || char(10) || char(10) || '## Operations, largest gap first' || char(10) || char(10)
    || '| operation | baseline ms | variant ms | gap ms | ratio | status |' || char(10)
    || '|---|---:|---:|---:|---:|---|' || char(10)
    || (SELECT group_concat(printf('| %s | %.3f | %.3f | %+.3f | %s | %s |', operation, baseline_total_ms,
           variant_total_ms, gap_ms, CASE WHEN ratio IS NULL THEN '-' ELSE printf('%.3f', ratio) END, status), char(10)) FROM r_ops)
    || char(10) || char(10) || '## Details' || char(10)
    || (SELECT group_concat(char(10) || '### ' || operation || ' (' || status || printf(', %+.3f ms', gap_ms) || ')' || char(10) || char(10)
           || '- baseline: ' || baseline_count || ' kernels, mostly ' || char(96) || coalesce(baseline_kernel, '-') || char(96) || ', from ' || char(96) || coalesce(baseline_cpu_op, '-') || char(96) || char(10)
           || '- variant: ' || variant_count || ' kernels, mostly ' || char(96) || coalesce(variant_kernel, '-') || char(96) || ', from ' || char(96) || coalesce(variant_cpu_op, '-') || char(96) || char(10)
           || coalesce('- ' || note || char(10), '')
           || coalesce('- baseline stack:' || char(10) || char(10) || '  ' || char(96, 96, 96) || char(10) || '  '
                       || replace((SELECT stack FROM r_stacks s WHERE s.operation = r_ops.operation), char(10), char(10) || '  ')
                       || char(10) || '  ' || char(96, 96, 96) || char(10), ''), '') FROM r_ops)
    || char(10) || '## Layers, largest gap first' || char(10) || char(10)
    || '| layer | baseline ms | variant ms | gap ms | status |' || char(10) || '|---:|---:|---:|---:|---|' || char(10)
    || coalesce((SELECT group_concat(printf('| %d | %.4f | %.4f | %+.4f | %s |', layer, baseline_total_ms, variant_total_ms, gap_ms, status), char(10)) FROM r_layers), '')
    || char(10);
SQL
echo "wrote $outdir/{operations,layers,kernels,fusion,metadata,phases}.csv, comparison.json, summary.md"
