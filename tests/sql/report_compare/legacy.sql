-- An older report whose kernel_summary has no "Kernel name": the legacy keys and diff
-- columns (name; Total Kernel Time (ms), Mean Kernel Time (µs), Count). Only the
-- kernel_summary group is selected, so gpu_timeline is not compared.
INSERT INTO compare_reports(pos, tag) VALUES (0, 'old');
INSERT INTO compare_cells SELECT 0, 'gpu_timeline', r.key, c.key, c.value
FROM json_each('[["type", "time ms", "percent"], ["busy_time", "2.0", "50.0"]]') r, json_each(r.value) c;
INSERT INTO compare_cells SELECT 0, 'kernel_summary', r.key, c.key, c.value
FROM json_each('[["name", "Category", "Total Kernel Time (ms)", "Total Kernel Time (µs)", "Mean Kernel Time (µs)", "Median Kernel Time (µs)", "Count", "Percent"], ["k1", "GEMM", "0.5", "500.0", "250.0", "250.0", "2", "80.0"], ["k2", "other", "0.125", "125.0", "125.0", "125.0", "1", "20.0"]]') r, json_each(r.value) c;
INSERT INTO compare_reports(pos, tag) VALUES (1, 'cur');
INSERT INTO compare_cells SELECT 1, 'gpu_timeline', r.key, c.key, c.value
FROM json_each('[["type", "time ms", "percent"], ["busy_time", "1.0", "50.0"]]') r, json_each(r.value) c;
INSERT INTO compare_cells SELECT 1, 'kernel_summary', r.key, c.key, c.value
FROM json_each('[["name", "Category", "Total Kernel Time (ms)", "Total Kernel Time (µs)", "Mean Kernel Time (µs)", "Median Kernel Time (µs)", "Count", "Percent"], ["k2", "other", "0.25", "250.0", "125.0", "125.0", "2", "100.0"]]') r, json_each(r.value) c;INSERT INTO compare_groups VALUES ('kernel_summary');
SELECT grp, sheet, variant, out FROM compare_plan;
SELECT output, line, text FROM compare_csv ORDER BY ord, sub, line;
