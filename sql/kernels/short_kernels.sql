-- module: kernels.short_kernels
-- requires: config.report_params, kernels.kernel_context

-- short_kernels (the kernels below the threshold, with their
-- parent op's arguments), short_kernels_summary and short_kernel_histogram
-- (TraceLens's short-kernel study; docs/report.md). Threshold, bin count and top-k come
-- from report_params (10 µs, 100 bins, all rows by default).

-- short_kernels: kernel_context rows with dur < short_kernel_threshold_us, plus the
-- parent op's argument columns as JSON text (events.input_dims, input_strides,
-- concrete_inputs; NULL when the op has none).
CREATE TEMP VIEW IF NOT EXISTS short_kernels AS
SELECT c.trace_id, c.uid, c.name, c.stream, c.ts, c.dur, c.dur_ns,
       c.launcher_uid, c.launcher, c.parent_op_uid, c.parent_op,
       e.input_dims, e.input_strides, e.concrete_inputs
FROM kernel_context c
LEFT JOIN events e ON e.trace_id = c.trace_id AND e.uid = c.parent_op_uid
WHERE c.dur < (SELECT CAST(value AS REAL) FROM report_params WHERE name = 'short_kernel_threshold_us');
