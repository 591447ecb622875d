-- The standard perf report of the SGLang capture trace: the extension ops get their
-- sheets and metrics (GFLOPS, MB, Compute Spec, parameters), as TraceLens's standard
-- report writes them (checked with the reference implementation; the paged attention
-- op keeps its _100 suffix and no sheet row, as there).
SELECT trace_open('../shared/conformance/tracelens/inference/sglang_decode/capture_traces/bs_32_rank0.json.gz', 'cap') > 0 AS opened;
SELECT sheet, name, py_float(gflops_first) AS gflops, py_float(data_moved_mb_first) AS mb, compute_spec,
       name_count, uid_first, params
FROM perf_sheet_summary WHERE trace_id = (SELECT trace_id FROM traces WHERE label = 'cap')
ORDER BY sheet, kernel_time_us_sum DESC, uid_first;
