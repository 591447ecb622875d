-- module: report._compare_report_ops
-- requires: report._compare_report_ops_rows

-- _compare_report_ops: _compare_report_ops_rows kept (ext/views/view_cache.c): the JSON
-- and the Markdown of one comparison run it once. The arguments: the view, then its columns.
CREATE VIRTUAL TABLE IF NOT EXISTS temp._compare_report_ops USING view_cache(_compare_report_ops_rows,
    operation, baseline_count, variant_count, baseline_avg_us, variant_avg_us,
    baseline_total_ms, variant_total_ms, ratio, avg_ratio, gap_ms, status, baseline_kernel,
    variant_kernel, baseline_cpu_op, variant_cpu_op, phases, note);
