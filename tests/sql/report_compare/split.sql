-- Split sheets (ops_unique_args, GEMM): base vs new. Keys match with an empty (NaN)
-- Input Strides on both sides; rows only one side has go to only_baseline / only_variant,
-- which keep that side's columns and drop columns empty throughout (kernel_details);
-- GEMM merges on "name" plus the "param: ..." columns both reports have, sorted by name
-- (base's "param: extra" becomes a base:: column), with the variants' GFLOPS_first
-- dropped; SDPA_fwd is skipped because new's sheet has no rows. Checked against pandas
-- as three.sql is.
INSERT INTO compare_reports(pos, tag) VALUES (0, 'base');
INSERT INTO compare_cells SELECT 0, 'ops_unique_args', r.key, c.key, c.value
FROM json_each('[["name", "Input type", "Input Dims", "Input Strides", "Concrete Inputs", "op category", "operation_count", "total_direct_kernel_time_mean", "total_direct_kernel_time_sum", "total_direct_kernel_time_median", "kernel_details"], ["aten::mm", "(''float'', ''float'')", "((4, 8), (8, 2))", "((8, 1), (2, 1))", "('''', '''')", "GEMM", "2", "10.0", "20.0", "10.0", "[{''name'': ''k'', ''dur'': np.float64(10.0)}]"], ["aten::add", "(''float'', ''float'')", "((4,), (4,))", "", "('''', '''')", "elementwise", "3", "2.0", "6.0", "2.0", ""], ["aten::relu", "(''float'',)", "((4,),)", "((1,),)", "('''',)", "elementwise", "1", "1.5", "1.5", "1.5", ""]]') r, json_each(r.value) c;
INSERT INTO compare_cells SELECT 0, 'GEMM', r.key, c.key, c.value
FROM json_each('[["name", "param: M", "param: N", "param: K", "param: bias", "param: extra", "GFLOPS_first", "Kernel Time (µs)_sum", "Kernel Time (µs)_mean", "name_count", "TFLOPS/s_mean", "TB/s_mean", "Compute Spec"], ["aten::mm", "4", "2", "8", "False", "1", "0.000128", "20.0", "10.0", "2", "0.0128", "0.1", "matrix_fp32"], ["aten::addmm", "4", "2", "8", "True", "1", "0.000128", "5.0", "5.0", "1", "0.0256", "0.2", "matrix_fp32"]]') r, json_each(r.value) c;
INSERT INTO compare_cells SELECT 0, 'SDPA_fwd', r.key, c.key, c.value
FROM json_each('[["name", "param: B", "Kernel Time (µs)_sum", "Kernel Time (µs)_mean", "name_count", "TFLOPS/s_mean", "TB/s_mean"], ["sdpa", "1", "9.0", "9.0", "1", "1.0", "1.0"]]') r, json_each(r.value) c;
INSERT INTO compare_reports(pos, tag) VALUES (1, 'new');
INSERT INTO compare_cells SELECT 1, 'ops_unique_args', r.key, c.key, c.value
FROM json_each('[["name", "Input type", "Input Dims", "Input Strides", "Concrete Inputs", "op category", "operation_count", "total_direct_kernel_time_mean", "total_direct_kernel_time_sum", "total_direct_kernel_time_median", "kernel_details"], ["aten::add", "(''float'', ''float'')", "((4,), (4,))", "", "('''', '''')", "elementwise", "3", "1.0", "3.0", "1.0", ""], ["aten::mm", "(''float'', ''float'')", "((4, 8), (8, 2))", "((8, 1), (2, 1))", "('''', '''')", "GEMM", "2", "12.5", "25.0", "12.5", "[{''name'': ''k2'', ''dur'': np.float64(12.5)}]"], ["aten::gelu", "(''float'',)", "((4,),)", "((1,),)", "('''',)", "elementwise", "1", "0.75", "0.75", "0.75", ""]]') r, json_each(r.value) c;
INSERT INTO compare_cells SELECT 1, 'GEMM', r.key, c.key, c.value
FROM json_each('[["name", "param: K", "param: M", "param: N", "param: bias", "GFLOPS_first", "Kernel Time (µs)_sum", "Kernel Time (µs)_mean", "name_count", "TFLOPS/s_mean", "TB/s_mean", "Compute Spec"], ["aten::mm", "8", "4", "2", "False", "0.000128", "25.0", "12.5", "2", "0.01024", "0.08", "matrix_fp32"], ["aten::bmm", "8", "4", "2", "False", "0.000256", "4.0", "4.0", "1", "0.064", "0.5", "matrix_fp32"]]') r, json_each(r.value) c;
INSERT INTO compare_cells SELECT 1, 'SDPA_fwd', r.key, c.key, c.value
FROM json_each('[["name", "param: B", "Kernel Time (µs)_sum", "Kernel Time (µs)_mean", "name_count", "TFLOPS/s_mean", "TB/s_mean"]]') r, json_each(r.value) c;SELECT output, line, text FROM compare_csv ORDER BY ord, sub, line;
SELECT output, orow, mrow FROM compare_output_rows ORDER BY output, orow;
