-- 10_gpu_timeline.sql — report_params (options of the perf-report views) and the
-- gpu_timeline view (TraceLens's gpu_timeline sheet; docs/report.md).

-- report_params: one row per option, read by the report views at query time, so
--   UPDATE report_params SET value = 5 WHERE name = 'short_kernel_threshold_us';
-- changes every view that uses it (per connection: the table is TEMP). Names and
-- defaults follow TraceLens's report options. Other sql/ files may add their own rows
-- (CREATE TEMP TABLE IF NOT EXISTS with this definition, then INSERT OR IGNORE).
CREATE TEMP TABLE IF NOT EXISTS report_params(
    name TEXT PRIMARY KEY,
    value,
    doc TEXT
);
INSERT OR IGNORE INTO report_params(name, value, doc) VALUES
    ('include_unlinked_kernels', 0,
     '1: gpu_timeline (and the total time the kernel views divide by) uses every GPU event; 0: only GPU events TraceLens links to a launch (its default)'),
    ('micro_idle_thresh_us', NULL,
     'NULL: one idle_time row; a number (µs): idle split into micro_idle_time (gaps shorter than it) and macro_idle_time'),
    ('short_kernel_threshold_us', 10,
     'a kernel is short when its duration (µs) is below this (strict)'),
    ('short_kernel_histogram_bins', 100,
     'number of equal-width bins of short_kernel_histogram'),
    ('topk_short_kernels', NULL,
     'NULL: every short_kernels_summary row; N: only the first N rows per trace');

-- gpu_timeline_rows: gpu_timeline_raw under the report options (include_unlinked_kernels,
-- micro_idle_thresh_us): the one place they are read, for gpu_timeline, the kernel
-- views' total time and report_gpu_timeline.
CREATE TEMP VIEW IF NOT EXISTS gpu_timeline_rows AS
SELECT r.trace_id, r.seq, r.type, r.time_us, r.events
FROM (SELECT (SELECT coalesce(CAST(value AS INTEGER), 0) = 0 FROM report_params
              WHERE name = 'include_unlinked_kernels') AS linked,
             (SELECT value FROM report_params WHERE name = 'micro_idle_thresh_us') AS micro) o
JOIN gpu_timeline_raw r ON r.linked_only = o.linked AND r.micro_idle_thresh_us = o.micro;

-- gpu_timeline: TraceLens's GPU timeline per trace, rows in its order.
--   type     computation_time, exposed_comm_time, exposed_memcpy_time, busy_time,
--            idle_time (or micro_idle_time, macro_idle_time), total_time,
--            total_comm_time, total_memcpy_time
--   time_ms  milliseconds
--   percent  of total_time (NULL when total_time is 0)
CREATE TEMP VIEW IF NOT EXISTS gpu_timeline AS
SELECT trace_id, type, time_ms, percent
FROM (
    SELECT trace_id, seq, type,
           time_us / 1e3 AS time_ms,
           time_us / max(CASE WHEN type = 'total_time' THEN time_us END)
                         OVER (PARTITION BY trace_id) * 100 AS percent
    FROM gpu_timeline_rows
)
ORDER BY trace_id, seq;

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
-- Other sql/ files register their sheets with INSERT OR REPLACE.
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
