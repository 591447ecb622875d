-- module: inference.inference_perf_ops
-- requires: perf.perf_sheet_ops

-- inference_perf_ops: the perf_ops rows of TraceLens's inference report, under its sheet
-- names (docs/inference.md, Perf-model sheets): the 'inference' rows of perf_sheet_ops
-- (sql/perf/perf_sheet_ops.sql, where the rule is), inference_sheet their sheet there.
CREATE TEMP VIEW IF NOT EXISTS inference_perf_ops AS
SELECT trace_id, row, uid, sheet, direction, appended, name, cat, pid, tid, ts, dur, process_name,
       process_label, thread_name, external_id, input_dims, input_type, input_strides, concrete_inputs,
       gflops, kernel_time_us, tflops_s, data_moved_mb, flops_per_byte, tb_s, compute_spec, flops, bytes,
       params, kernel_details, num_kernels, sheet_params, sheet_kernel_time_int, sheet_roofline_specs,
       sheet_moved_roofline_specs, report_sheet AS inference_sheet
FROM perf_sheet_ops WHERE report = 'inference';
