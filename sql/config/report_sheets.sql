-- module: config.report_sheets

-- report_sheets: how examples/perf_report.sh writes each report_<sheet> view as
-- <sheet>.csv. Views named report_% without a row here get the defaults (position
-- 40, among the perf-model sheets; if_empty 'omit'; no optional columns;
-- needs_cpu_ops 1).
--   position          order of the sheets (TraceLens's report order)
--   if_empty          when the view has no row for the trace: 'omit' (no file, as
--                     TraceLens omits empty sheets), 'header' (the header line only)
--                     or 'blank' (a file with one empty line: pandas' empty DataFrame)
--   optional_columns  JSON array of columns left out of the CSV when they are NULL in
--                     every row of the trace (columns TraceLens only has when it found
--                     something to put in them, e.g. 'Parent cpu_op' of a GPU-only trace)
--   needs_cpu_ops     1: no file for a trace without cpu_op events (TraceLens's GPU-only
--                     report has only gpu_timeline, kernel_summary and the short-kernel
--                     sheets)
-- A new sheet is a row here (its settings; the view report_<sheet> is the sheet).
CREATE TEMP TABLE IF NOT EXISTS report_sheets(
    sheet TEXT PRIMARY KEY,
    position INTEGER NOT NULL DEFAULT 40,
    if_empty TEXT NOT NULL DEFAULT 'omit' CHECK (if_empty IN ('omit', 'header', 'blank')),
    optional_columns TEXT NOT NULL DEFAULT '[]',
    needs_cpu_ops INTEGER NOT NULL DEFAULT 1
);
INSERT OR IGNORE INTO report_sheets(sheet, position, if_empty, optional_columns, needs_cpu_ops) VALUES
    ('gpu_timeline', 1, 'omit', '[]', 0),
    ('ops_summary_by_category', 2, 'omit', '[]', 1),
    ('ops_summary', 3, 'omit', '[]', 1),
    ('ops_unique_args', 4, 'omit', '[]', 1),
    ('ops_unique_args_kl_overlap', 5, 'omit', '[]', 1),
    ('unified_perf_summary', 6, 'omit', '[]', 1),
    ('diff_stats', 7, 'omit', '[]', 1),
    ('unified_perf_summary_kl_overlap', 8, 'omit', '[]', 1),
    ('kernel_summary', 50, 'omit', '["Parent cpu_op"]', 0),
    ('short_kernel_histogram', 51, 'header', '[]', 0),
    ('short_kernels_summary', 52, 'blank',
     '["Parent cpu_op", "Input dims", "Input strides", "Concrete Inputs"]', 0),
    ('coll_analysis', 60, 'omit', '[]', 1);
-- the diff columns are written only when some row has them
UPDATE report_sheets
SET optional_columns = '["speedup (trace2/trace1)", "delta_us (trace2 - trace1)", "lca_count_trace2", "lca_id", "lca_name", "lca_total_kernel_time_trace1_us", "lca_total_kernel_time_trace2_us"]'
WHERE sheet = 'unified_perf_summary';
UPDATE report_sheets SET optional_columns = '["source"]' WHERE sheet = 'diff_stats';
-- report_unified_perf_summary: TraceLens's unified_perf_summary.csv; trace_id first.
-- The roofline columns (docs/report.md, Roofline columns: Roofline Bound after Compute Spec, the others after
-- TFLOPS/s_max) are there when a row of the trace got a roofline against gpu_arch:
-- then an empty cell is '' (not NULL), so that perf_report.sh keeps the column, and
-- without one every cell is NULL and the column is left out (optional_columns).
-- Likewise the perf-model columns (GFLOPS, Data Moved (MB), FLOPS/Byte, Compute Spec,
-- TB/s_*, TFLOPS/s_*): TraceLens's frame has them only when a row got perf metrics.
UPDATE report_sheets
SET optional_columns = json_insert(optional_columns, '$[#]', 'GFLOPS', '$[#]', 'Data Moved (MB)',
                                   '$[#]', 'FLOPS/Byte', '$[#]', 'Compute Spec',
                                   '$[#]', 'TB/s_mean', '$[#]', 'TB/s_std', '$[#]', 'TB/s_median',
                                   '$[#]', 'TB/s_min', '$[#]', 'TB/s_max', '$[#]', 'TFLOPS/s_mean',
                                   '$[#]', 'TFLOPS/s_std', '$[#]', 'TFLOPS/s_median',
                                   '$[#]', 'TFLOPS/s_min', '$[#]', 'TFLOPS/s_max')
WHERE sheet = 'unified_perf_summary' AND NOT EXISTS (
    SELECT 1 FROM json_each(optional_columns) WHERE value = 'GFLOPS');
UPDATE report_sheets
SET optional_columns = json_insert(optional_columns, '$[#]', 'Roofline Bound',
                                   '$[#]', 'Roofline Time (µs)_first', '$[#]', 'Pct Roofline_mean',
                                   '$[#]', 'Pct Roofline_median', '$[#]', 'Pct Roofline_std',
                                   '$[#]', 'Pct Roofline_min', '$[#]', 'Pct Roofline_max')
WHERE sheet = 'unified_perf_summary' AND NOT EXISTS (
    SELECT 1 FROM json_each(optional_columns) WHERE value = 'Roofline Bound');
