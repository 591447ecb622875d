-- The launcher and perf-model sheets of both reports are one view each, keyed by report
-- (docs/schema.md, the _keyed views): on the demo trace, both reports group every
-- launcher (the same operation counts and direct time in total), the perf report's
-- rows have no inference key, the inference report's have them all, and its perf-model
-- rows are the forward ones only, under its sheet names.
.mode list
.nullvalue NULL
SELECT trace_open('examples/demo_trace.json.gz', 'demo') IS NOT NULL AS opened;
SELECT report, count(*) AS groups, sum(operation_count) AS launchers,
       round(sum(total_direct_kernel_time_sum), 3) AS direct_us,
       sum(parent_module IS NULL), sum(num_kernels IS NULL), sum(call_stack IS NULL)
FROM ops_unique_args_keyed GROUP BY report ORDER BY report;
SELECT report, count(*), sum(count), round(max(cumulative_percentage), 6), sum(call_stack_first IS NULL)
FROM ops_summary_keyed GROUP BY report ORDER BY report;
SELECT report, count(*), sum(count), sum(parent_module IS NULL) FROM ops_summary_by_category_keyed
GROUP BY report ORDER BY report;
-- the standard views are the 'perf' rows
SELECT (SELECT count(*) FROM ops_unique_args) = (SELECT count(*) FROM ops_unique_args_keyed WHERE report = 'perf'),
       (SELECT count(*) FROM inference_ops_unique_args) = (SELECT count(*) FROM ops_unique_args_keyed WHERE report = 'inference');
-- perf-model rows: every row in 'perf', the forward ones in 'inference'
SELECT report, count(*), sum(direction = 'fwd'), group_concat(DISTINCT report_sheet)
FROM (SELECT * FROM perf_sheet_ops ORDER BY report, report_sheet) GROUP BY report ORDER BY report;
SELECT report, sheet, count(*), sum(name_count), sum(num_kernels IS NULL) FROM perf_sheet_summary_keyed
GROUP BY report, sheet ORDER BY report, sheet;
