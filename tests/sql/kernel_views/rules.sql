-- kernel_context, kernel_summary and the short-kernel views on the hand-made trace:
-- kernels from a plain op (B), a bleeding op (H_bleeds), an op under `execute`
-- (parent op is `execute` itself: no skipping here), a CUDA graph (no cpu_op: the
-- launcher's name and category 'graph'), a kernel linked by correlation only
-- (unlinked for TraceLens: NULLs), and an NCCL kernel under c10d::allreduce_.
SELECT trace_open('tests/data/tree_rules.json');
.print '-- kernel_context'
SELECT uid, name, stream, ts, dur, launcher_uid, launcher, parent_op_uid, parent_op,
       parent_op_category
FROM kernel_context;
.print '-- kernel_summary'
SELECT * FROM kernel_summary;
.print '-- report_kernel_summary: whole-µs durations print as ints, as pandas reads them'
SELECT * FROM report_kernel_summary;
.print '-- short kernels below 5 µs'
UPDATE report_params SET value = 5 WHERE name = 'short_kernel_threshold_us';
SELECT uid, name, dur, parent_op, input_dims, input_strides, concrete_inputs FROM short_kernels;
-- none of them keeps a group: kernels without a parent op or with an argument column
-- missing (here Input Strides) are left out, as pandas drops null group keys
SELECT count(*) FROM short_kernels_summary;
.print '-- below 2.5 µs only kernels without a parent op are short; the trace has ops, so'
.print '-- they are not regrouped by name alone (that is for GPU-only traces): no rows'
UPDATE report_params SET value = 2.5 WHERE name = 'short_kernel_threshold_us';
SELECT count(*) FROM short_kernels;
SELECT count(*) FROM short_kernels_summary;
UPDATE report_params SET value = 5 WHERE name = 'short_kernel_threshold_us';
.print '-- the histogram with 4 bins'
UPDATE report_params SET value = 4 WHERE name = 'short_kernel_histogram_bins';
SELECT * FROM short_kernel_histogram;
SELECT * FROM report_short_kernel_histogram;
.print '-- one short kernel: the range is widened by 0.5 µs each side'
UPDATE report_params SET value = 1.5 WHERE name = 'short_kernel_threshold_us';
SELECT * FROM short_kernel_histogram;
.print '-- none: no rows'
UPDATE report_params SET value = 1 WHERE name = 'short_kernel_threshold_us';
SELECT count(*) FROM short_kernel_histogram;
SELECT count(*) FROM short_kernels_summary;
