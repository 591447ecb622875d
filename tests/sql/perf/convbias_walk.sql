-- ConvBias_Backward / ConvBiasReLU_Backward copy the parameters of the ConvBias_ /
-- ConvBiasReLU_ op TraceLens modelled last with the same Sequence number
-- (docs/perf-models.md, "ConvBias_Backward and ConvBiasReLU_Backward").
-- tests/data/perf/convbias/walk.json (Sequence number 5): unified_perf_summary's
-- collection walk builds models too. Two forward ops without GPU work (never its rows):
-- the first in the file has stride 1 and the later ts, the second stride 2. A bare
-- backward op, then a wrapper on the autograd thread whose sole op aten::foo (no model)
-- makes the walk build the linked forward op (latest ts: stride 1) before any row's
-- model. So CONV_bwd copies stride 2 (the last in the file), unified_perf_summary
-- stride 1; aten::foo carries the stride-1 op's backward metrics (a sole backward op).
-- The values are those of TraceLens's report for this trace.
.mode csv
.headers on
SELECT trace_open('tests/data/perf/convbias/walk.json', 'w') IS NOT NULL AS opened;
-- the instances: forward-pass rows TraceLens moves to CONV_bwd
SELECT name, json_extract(input_dims, '$[0][3]') AS seq, sheet, direction, appended, gflops, data_moved_mb,
       kernel_time_us, compute_spec, json_extract(params, '$.input_shape') AS input_shape,
       json_extract(params, '$.stride') AS stride, json_extract(params, '$.padding') AS padding
FROM perf_ops('w') WHERE name LIKE '%Backward' ORDER BY row;
-- the CONV_bwd sheet
SELECT name, gflops_first, data_moved_mb_first, flops_per_byte_first, compute_spec, kernel_time_us_sum, uid_first,
       params
FROM perf_sheet_summary WHERE sheet = 'CONV_bwd';
-- unified_perf_summary: every backward op is a row; 40 and 50 without metrics
SELECT name, "op category", "Input Dims", GFLOPS, "Data Moved (MB)", "FLOPS/Byte", "Compute Spec",
       "Kernel Time (µs)_sum", perf_params
FROM report_unified_perf_summary WHERE name LIKE '%Backward' OR name = 'aten::foo';
