-- module: report_compare.compare_config

-- compare_config: TraceLens's comparison of each sheet (docs/compare-reports.md): the
-- group, the output name, merge keys, diff columns (JSON lists), sort column, columns
-- dropped from every report and from the variants only, and whether the result is split
-- into _intersect_/_only_baseline_/_only_variant_ sheets. keys NULL = "name" plus the
-- baseline's "param: ..." columns (the roofline sheets). kernel_summary's 'legacy' row is
-- used when the baseline's sheet has no "Kernel name" column.
CREATE TEMP VIEW IF NOT EXISTS compare_config(grp, sheet, variant, out, split, keys, diffs,
                                              sort_col, drop_all, drop_variants, ord) AS
VALUES
 ('gpu_timeline', 'gpu_timeline', '', 'gpu_timeline', 0, '["type"]', '["time ms"]', NULL, '[]', '[]', 1),
 ('ops_summary', 'ops_summary', '', 'ops_summary', 0, '["name"]',
  '["total_direct_kernel_time_ms","Count"]', 'total_direct_kernel_time_ms',
  '["total_direct_kernel_time_sum"]', '["Cumulative Percentage (%)"]', 2),
 ('kernel_summary', 'kernel_summary', '', 'kernel_summary', 0, '["Kernel name"]',
  '["Kernel duration (µs)_sum","Kernel duration (µs)_mean","Kernel duration (µs)_count"]',
  'Kernel duration (µs)_sum',
  '["Kernel duration (µs)_min","Kernel duration (µs)_max","Parent op category"]',
  '["Cumulative Percentage (%)"]', 3),
 ('kernel_summary', 'kernel_summary', 'legacy', 'kernel_summary', 0, '["name"]',
  '["Total Kernel Time (ms)","Mean Kernel Time (µs)","Count"]', 'Total Kernel Time (ms)',
  '["Total Kernel Time (µs)","Median Kernel Time (µs)","Std Kernel Time (µs)","Min Kernel Time (µs)","Max Kernel Time (µs)","Category"]',
  '["Cumulative Percentage (%)"]', 3),
 ('ops_all', 'ops_all', '', 'ops_all', 1, '["name","Input type","Input Dims","Input Strides","Concrete Inputs"]',
  '["total_direct_kernel_time_sum","total_direct_kernel_time_mean","operation_count"]',
  'total_direct_kernel_time_sum', '[]', '[]', 4),
 ('ops_all', 'ops_unique_args', '', 'ops_unique_args', 1,
  '["name","Input type","Input Dims","Input Strides","Concrete Inputs"]',
  '["total_direct_kernel_time_sum","total_direct_kernel_time_mean","operation_count"]',
  'total_direct_kernel_time_sum', '[]', '[]', 5),
 ('ops_all', 'unified_perf_summary', '', 'unified_perf_summary', 1,
  '["name","Input type","Input Dims","Input Strides","Concrete Inputs"]',
  '["Kernel Time (µs)_sum","Kernel Time (µs)_mean","operation_count"]',
  'Kernel Time (µs)_sum', '[]', '[]', 6),
 ('roofline', 'GEMM', '', 'GEMM', 1, NULL,
  '["Kernel Time (µs)_sum","Kernel Time (µs)_mean","name_count","TFLOPS/s_mean","TB/s_mean"]',
  'Kernel Time (µs)_sum', '[]', '["GFLOPS_first","Data Moved (MB)_first","FLOPS/Byte_first","Input type_first","Input Dims_first","Input Strides_first","Concrete Inputs_first"]', 7),
 ('roofline', 'SDPA_fwd', '', 'SDPA_fwd', 1, NULL,
  '["Kernel Time (µs)_sum","Kernel Time (µs)_mean","name_count","TFLOPS/s_mean","TB/s_mean"]',
  'Kernel Time (µs)_sum', '[]', '["GFLOPS_first","Data Moved (MB)_first","FLOPS/Byte_first","Input type_first","Input Dims_first","Input Strides_first","Concrete Inputs_first"]', 8),
 ('roofline', 'SDPA_bwd', '', 'SDPA_bwd', 1, NULL,
  '["Kernel Time (µs)_sum","Kernel Time (µs)_mean","name_count","TFLOPS/s_mean","TB/s_mean"]',
  'Kernel Time (µs)_sum', '[]', '["GFLOPS_first","Data Moved (MB)_first","FLOPS/Byte_first","Input type_first","Input Dims_first","Input Strides_first","Concrete Inputs_first"]', 9),
 ('roofline', 'CONV_fwd', '', 'CONV_fwd', 1, NULL,
  '["Kernel Time (µs)_sum","Kernel Time (µs)_mean","name_count","TFLOPS/s_mean","TB/s_mean"]',
  'Kernel Time (µs)_sum', '[]', '["GFLOPS_first","Data Moved (MB)_first","FLOPS/Byte_first","Input type_first","Input Dims_first","Input Strides_first","Concrete Inputs_first"]', 10),
 ('roofline', 'CONV_bwd', '', 'CONV_bwd', 1, NULL,
  '["Kernel Time (µs)_sum","Kernel Time (µs)_mean","name_count","TFLOPS/s_mean","TB/s_mean"]',
  'Kernel Time (µs)_sum', '[]', '["GFLOPS_first","Data Moved (MB)_first","FLOPS/Byte_first","Input type_first","Input Dims_first","Input Strides_first","Concrete Inputs_first"]', 11),
 ('roofline', 'UnaryElementwise', '', 'un_eltwise', 1, NULL,
  '["Kernel Time (µs)_sum","Kernel Time (µs)_mean","name_count","TFLOPS/s_mean","TB/s_mean"]',
  'Kernel Time (µs)_sum', '[]', '["GFLOPS_first","Data Moved (MB)_first","FLOPS/Byte_first","Input type_first","Input Dims_first","Input Strides_first","Concrete Inputs_first"]', 12),
 ('roofline', 'BinaryElementwise', '', 'bin_eltwise', 1, NULL,
  '["Kernel Time (µs)_sum","Kernel Time (µs)_mean","name_count","TFLOPS/s_mean","TB/s_mean"]',
  'Kernel Time (µs)_sum', '[]', '["GFLOPS_first","Data Moved (MB)_first","FLOPS/Byte_first","Input type_first","Input Dims_first","Input Strides_first","Concrete Inputs_first"]', 13);
