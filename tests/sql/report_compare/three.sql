-- Three reports (a = baseline, b, c): gpu_timeline, ops_summary and kernel_summary.
-- Checked against pandas running TraceLens's compare_perf_reports_pytorch on the same
-- cells as CSV files: a key only one variant has (exposed_comm_time, aten::mul); an int
-- column of a report that lacks a key prints as float (a::Count 10.0, b::Count stays 10);
-- a zero baseline gives an empty pct (idle_time); c's cells read with pandas' parser
-- (31.905483154296874 → 31.905483154296878); ops_summary sorted on a's time with NaN last;
-- kernel_summary's duplicate key gemm_k pairs each of a's two rows with b's one row;
-- total_direct_kernel_time_sum, min/max, Parent op category and the variants'
-- Cumulative Percentage (%) dropped.
INSERT INTO compare_reports(pos, tag) VALUES (0, 'a');
INSERT INTO compare_cells SELECT 0, 'gpu_timeline', r.key, c.key, c.value
FROM json_each('[["type", "time ms", "percent"], ["busy_time", "2.0", "50.0"], ["idle_time", "0.0", "0.0"], ["total_time", "4.0", "100.0"]]') r, json_each(r.value) c;
INSERT INTO compare_cells SELECT 0, 'ops_summary', r.key, c.key, c.value
FROM json_each('[["name", "total_direct_kernel_time_sum", "total_direct_kernel_time_ms", "Count", "Categories", "Percentage (%)", "Cumulative Percentage (%)"], ["aten::mm", "3000.0", "3.0", "10", "[''GEMM'']", "60.0", "60.0"], ["aten::add", "2000.0", "2.0", "5", "[''elementwise'']", "40.0", "100.0"]]') r, json_each(r.value) c;
INSERT INTO compare_cells SELECT 0, 'kernel_summary', r.key, c.key, c.value
FROM json_each('[["Parent cpu_op", "Parent op category", "Kernel name", "Kernel stream", "Kernel duration (µs)_sum", "Kernel duration (µs)_count", "Kernel duration (µs)_mean", "Kernel duration (µs)_min", "Kernel duration (µs)_max", "Percent of kernels time (%)", "Cumulative Percentage (%)"], ["aten::mm", "GEMM", "gemm_k", "7", "300.0", "3", "100.0", "90.0", "110.0", "60.0", "60.0"], ["aten::addmm", "GEMM", "gemm_k", "7", "120.5", "2", "60.25", "60.0", "60.5", "24.1", "84.1"], ["aten::add", "elementwise", "add_k", "7", "79.5", "4", "19.875", "19.0", "21.0", "15.9", "100.0"]]') r, json_each(r.value) c;
INSERT INTO compare_reports(pos, tag) VALUES (1, 'b');
INSERT INTO compare_cells SELECT 1, 'gpu_timeline', r.key, c.key, c.value
FROM json_each('[["type", "time ms", "percent"], ["busy_time", "3.0", "60"], ["total_time", "5.0", "100"], ["idle_time", "2.0", "40"]]') r, json_each(r.value) c;
INSERT INTO compare_cells SELECT 1, 'ops_summary', r.key, c.key, c.value
FROM json_each('[["name", "total_direct_kernel_time_sum", "total_direct_kernel_time_ms", "Count", "Categories", "Percentage (%)", "Cumulative Percentage (%)"], ["aten::mm", "3000.0", "3.0", "10", "[''GEMM'']", "66.66666666666667", "66.66666666666667"], ["aten::add", "1000.0", "1.0", "6", "[''elementwise'']", "22.22222222222222", "88.88888888888889"], ["aten::mul", "500.0", "0.5", "2", "[''elementwise'']", "11.11111111111111", "100.0"]]') r, json_each(r.value) c;
INSERT INTO compare_cells SELECT 1, 'kernel_summary', r.key, c.key, c.value
FROM json_each('[["Parent cpu_op", "Parent op category", "Kernel name", "Kernel stream", "Kernel duration (µs)_sum", "Kernel duration (µs)_count", "Kernel duration (µs)_mean", "Kernel duration (µs)_min", "Kernel duration (µs)_max", "Percent of kernels time (%)", "Cumulative Percentage (%)"], ["aten::mm", "GEMM", "gemm_k", "0", "250.0", "3", "83.33333333333333", "80.0", "90.0", "71.42857142857143", "71.42857142857143"], ["aten::mul", "elementwise", "mul_k", "0", "100.0", "4", "25.0", "20.0", "30.0", "28.571428571428573", "100.0"]]') r, json_each(r.value) c;
INSERT INTO compare_reports(pos, tag) VALUES (2, 'c');
INSERT INTO compare_cells SELECT 2, 'gpu_timeline', r.key, c.key, c.value
FROM json_each('[["type", "time ms", "percent"], ["busy_time", "31.905483154296874", "91.43279886779221"], ["exposed_comm_time", "0.5", "1.4"], ["idle_time", "2.986935791015625", "8.56041478722671"], ["total_time", "34.8924189453125", "100.0"]]') r, json_each(r.value) c;
INSERT INTO compare_cells SELECT 2, 'ops_summary', r.key, c.key, c.value
FROM json_each('[["name", "total_direct_kernel_time_sum", "total_direct_kernel_time_ms", "Count", "Categories", "Percentage (%)", "Cumulative Percentage (%)"], ["aten::mm", "0.0", "0.0", "10", "[''GEMM'']", "0.0", "0.0"]]') r, json_each(r.value) c;
INSERT INTO compare_cells SELECT 2, 'kernel_summary', r.key, c.key, c.value
FROM json_each('[["Parent cpu_op", "Parent op category", "Kernel name", "Kernel stream", "Kernel duration (µs)_sum", "Kernel duration (µs)_count", "Kernel duration (µs)_mean", "Kernel duration (µs)_min", "Kernel duration (µs)_max", "Percent of kernels time (%)", "Cumulative Percentage (%)"], ["aten::add", "elementwise", "add_k", "3", "79.5", "4", "19.875", "19.0", "21.0", "100.0", "100.0"]]') r, json_each(r.value) c;SELECT output, line, text FROM compare_csv ORDER BY ord, sub, line;
-- the typed merged frame behind it: dtype after the merge, first rows
SELECT sheet, ocol, name, kind, pos, dtype FROM compare_frame_columns WHERE sheet = 'ops_summary';
SELECT sheet, mrow, pos, row FROM compare_merged WHERE sheet = 'kernel_summary' ORDER BY mrow, pos;
