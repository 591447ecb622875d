-- ConvBias_Backward / ConvBiasReLU_Backward copy the parameters of the ConvBias_ /
-- ConvBiasReLU_ op TraceLens modelled last with the same Sequence number
-- (docs/perf-models.md, "ConvBias_Backward and ConvBiasReLU_Backward").
-- tests/data/perf/convbias/pairs.json: one forward op per Sequence number, before its
-- backward op (the last Input Dims of a backward op is its Sequence number):
--   10 ConvBias_ with stride 2 / padding 1 inputs; 20 ConvBiasReLU_ without them
--   (stride 1, padding 0); 30 a 1-D ConvBias_ in another process (pid 2): the cache is
--   keyed by the number alone; 40 no forward op; 50 a ConvBiasReLU_ forward for a
--   ConvBias_Backward: another class's cache, no match.
-- The values are those of TraceLens's report for this trace (CONV_bwd.csv and
-- unified_perf_summary.csv): 40 and 50 have no CONV_bwd row and no metrics.
.mode csv
.headers on
SELECT trace_open('tests/data/perf/convbias/pairs.json', 'p') IS NOT NULL AS opened;
-- the instances: forward-pass rows TraceLens moves to CONV_bwd
SELECT name, json_extract(input_dims, '$[0][3]') AS seq, sheet, direction, appended, gflops, data_moved_mb,
       kernel_time_us, compute_spec, json_extract(params, '$.input_shape') AS input_shape,
       json_extract(params, '$.stride') AS stride, json_extract(params, '$.padding') AS padding
FROM perf_ops('p') WHERE name LIKE '%Backward' ORDER BY row;
-- the CONV_bwd sheet
SELECT name, gflops_first, data_moved_mb_first, flops_per_byte_first, compute_spec, kernel_time_us_sum, uid_first,
       params
FROM perf_sheet_summary WHERE sheet = 'CONV_bwd';
-- unified_perf_summary: every backward op is a row; 40 and 50 without metrics
SELECT name, "op category", "Input Dims", GFLOPS, "Data Moved (MB)", "FLOPS/Byte", "Compute Spec",
       "Kernel Time (µs)_sum", perf_params
FROM report_unified_perf_summary WHERE name LIKE '%Backward';
