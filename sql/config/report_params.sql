-- module: config.report_params

-- report_params: the report options, every area's, created and filled here (the
-- views that read an option say what it does; docs/report.md).

-- report_params: one row per option, read by the report views at query time, so
--   UPDATE report_params SET value = 5 WHERE name = 'short_kernel_threshold_us';
-- changes every view that uses it (per connection: the table is TEMP). Names and
-- defaults follow TraceLens's report options. A new option is a row here.
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
-- the roofline columns' GPU (sql/perf/gpu_arch.sql)
INSERT OR IGNORE INTO report_params(name, value, doc) VALUES
    ('gpu_arch_json', NULL,
     'NULL: no arch (the report has no roofline columns); a GPU arch JSON text in '
     || 'TraceLens''s format ({"name", "mem_bw_gbps", "memory_gb", "max_achievable_tflops": '
     || '{"matrix_bf16": 989.5, ...}}): the perf sheets and unified_perf_summary get '
     || 'TraceLens''s roofline columns against it (perf_report.sh -p gpu_arch_json=FILE '
     || 'reads FILE into it)'),
    ('gpu', NULL, 'NULL: roofline views against the GPU detected from deviceProperties, and '
                  || 'no roofline columns in the report; a gpu_specs.gpu name (e.g. ''H100'', '
                  || '''MI300X''): that GPU everywhere, and the report''s roofline columns against '
                  || 'its gpu_specs row (unless gpu_arch_json is set)');
-- gpus_per_node: node_id and node_span of the multi-rank views (TraceLens's
-- --gpus_per_node); NULL = the device count (deviceProperties) of the lowest rank.
INSERT OR IGNORE INTO report_params(name, value, doc) VALUES
    ('gpus_per_node', NULL,
     'GPUs per node for node_id = rank / gpus_per_node and node_span of the multi-rank collective views; NULL: the device count of the lowest rank''s trace');
-- TraceDiff inside the perf report (sql/diff/unified_perf_diff.sql)
INSERT OR IGNORE INTO report_params(name, value, doc) VALUES
    ('comparison', NULL,
     'NULL: no comparison; a trace (id, label or path): the variant of a TraceDiff with each reported trace as baseline (unified_perf_summary gains the diff columns, and a diff_stats sheet)');
