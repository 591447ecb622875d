-- ConvBias_Backward / ConvBiasReLU_Backward copy the parameters of the ConvBias_ /
-- ConvBiasReLU_ op TraceLens modelled last with the same Sequence number
-- (docs/perf-models.md, "ConvBias_Backward and ConvBiasReLU_Backward").
-- tests/data/perf/convbias/order.json: cases where the order of TraceLens's model
-- builds decides (the last Input Dims of a backward op is its Sequence number):
--   60 the backward op, in its autograd wrapper, comes before its forward op (file and
--      time): no CONV_bwd row (the perf-model sheets build models in file order), but
--      metrics in unified_perf_summary (built after the sheets: the cache is full, and its
--      sole-backward check built the linked forward op's model just before);
--   70 the same without the wrapper: unified_perf_summary finds the sheets' last entry;
--   80 two forward ops, the first in the file being the later in time: CONV_bwd copies
--      the later in the file (stride 2), unified_perf_summary the one the wrapper links
--      (latest ts: stride 1);
--   90 the same without the wrapper: unified_perf_summary builds the two forward ops'
--      models in its own (time) order, so the last built is the first in the file;
--   100 the later forward op fails to give parameters (mixed dtypes): not cached;
--   110 the later forward op's output shape fails (stride 0): not cached either.
-- The values are those of TraceLens's report for this trace (CONV_bwd.csv and
-- unified_perf_summary.csv).
.mode csv
.headers on
SELECT trace_open('tests/data/perf/convbias/order.json', 'o') IS NOT NULL AS opened;
-- the instances: forward-pass rows TraceLens moves to CONV_bwd
SELECT name, json_extract(input_dims, '$[0][3]') AS seq, sheet, direction, appended, gflops, data_moved_mb,
       kernel_time_us, compute_spec, json_extract(params, '$.input_shape') AS input_shape,
       json_extract(params, '$.stride') AS stride, json_extract(params, '$.padding') AS padding
FROM perf_ops('o') WHERE name LIKE '%Backward' ORDER BY row;
-- the CONV_bwd sheet
SELECT name, gflops_first, data_moved_mb_first, flops_per_byte_first, compute_spec, kernel_time_us_sum, uid_first,
       params
FROM perf_sheet_summary WHERE sheet = 'CONV_bwd';
-- unified_perf_summary: every backward op is a row; 40 and 50 without metrics
SELECT name, "op category", "Input Dims", GFLOPS, "Data Moved (MB)", "FLOPS/Byte", "Compute Spec",
       "Kernel Time (µs)_sum", perf_params
FROM report_unified_perf_summary WHERE name LIKE '%Backward';
-- the inference report: its CONV_fwd sheet keeps the backward ops' rows, with the same
-- forward ops (its sheets have only the forward pass, which leaves the same cache)
SELECT inference_sheet, name, json_extract(input_dims, '$[0][3]') AS seq, gflops, json_extract(params, '$.stride') AS stride
FROM inference_perf_ops WHERE name LIKE '%Backward' ORDER BY row;
