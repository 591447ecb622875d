-- module: report.compare_report_json
-- requires: report._compare_report_layers, report._compare_report_metadata,
-- requires: report._compare_report_ops, report._compare_report_pair, report._compare_report_stacks

-- compare_report_json: comparison.json, one row: {"metadata": {"baseline": {...},
-- "variant": {...}, "phase": ...}, "operations": [...], "layers": [...]} (the reference
-- tool's shape), each operation with the baseline's example Python stack.
CREATE TEMP VIEW IF NOT EXISTS compare_report_json AS
WITH p AS (SELECT * FROM _compare_report_pair),
m AS (SELECT * FROM _compare_report_metadata),
o AS (SELECT * FROM _compare_report_ops),
s AS (SELECT * FROM _compare_report_stacks),
l AS (SELECT * FROM _compare_report_layers)
SELECT json_object(
  'metadata', json_object(
      'baseline', (SELECT json_object('trace', label, 'platform', platform, 'gpu', gpu,
                       'kernel_count', gpu_events, 'total_kernel_ms', total_ms, 'num_layers', layers,
                       'forward_passes', forward_passes,
                       'phase_breakdown_ms', json_object('prefill', prefill_ms, 'decode', decode_ms,
                                                         'mixed', mixed_ms, 'none', no_phase_ms))
                   FROM m WHERE side = 'baseline'),
      'variant', (SELECT json_object('trace', label, 'platform', platform, 'gpu', gpu,
                       'kernel_count', gpu_events, 'total_kernel_ms', total_ms, 'num_layers', layers,
                       'forward_passes', forward_passes,
                       'phase_breakdown_ms', json_object('prefill', prefill_ms, 'decode', decode_ms,
                                                         'mixed', mixed_ms, 'none', no_phase_ms))
                  FROM m WHERE side = 'variant'),
      'phase', coalesce((SELECT ph FROM p), 'all')),
  'operations', (SELECT json_group_array(json_object(
      'operation', operation, 'baseline_count', baseline_count, 'variant_count', variant_count,
      'baseline_avg_us', baseline_avg_us, 'variant_avg_us', variant_avg_us,
      'baseline_total_ms', baseline_total_ms, 'variant_total_ms', variant_total_ms,
      'ratio', ratio, 'avg_ratio', avg_ratio, 'gap_ms', gap_ms, 'status', status,
      'baseline_kernel', baseline_kernel, 'variant_kernel', variant_kernel,
      'baseline_cpu_op', baseline_cpu_op, 'variant_cpu_op', variant_cpu_op,
      'phases', json(json_array(phases)), 'note', note,
      'baseline_stack', (SELECT stack FROM s WHERE s.operation = o.operation)))
      FROM o),
  'layers', (SELECT json_group_array(json_object(
      'layer', layer, 'baseline_kernels', baseline_kernels, 'variant_kernels', variant_kernels,
      'baseline_total_ms', baseline_total_ms, 'variant_total_ms', variant_total_ms,
      'ratio', ratio, 'gap_ms', gap_ms, 'status', status,
      'in_both', json(CASE WHEN in_both THEN 'true' ELSE 'false' END)))
      FROM l)) AS doc
FROM p;
