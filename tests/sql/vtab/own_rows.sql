-- Tables on the shared machinery that are not per trace: gpu_specs (rows of its own,
-- writable) and traces (one row per open trace, rowid = trace_id).
SELECT trace_open('tests/data/tree_rules.json') AS id;
SELECT trace_open('tests/data/tree_rules.json.gz') AS id;
SELECT rowid, trace_id, label FROM traces ORDER BY rowid;
SELECT x.r, t.trace_id FROM (SELECT 2 AS r) x JOIN traces t ON t.rowid = x.r;
-- a few rows: joined to a per-trace table, traces is the outer loop
EXPLAIN QUERY PLAN SELECT count(*) FROM events e JOIN traces t ON t.trace_id = e.trace_id;
-- gpu_specs: rowids are stable, usable in joins and as UPDATE / DELETE keys
SELECT x.r, g.gpu FROM (SELECT 1 AS r UNION ALL SELECT 2) x JOIN gpu_specs g ON g.rowid = x.r ORDER BY 1;
INSERT INTO gpu_specs(gpu, vendor, mem_bw_gbps, name_pattern, source) VALUES ('T1', 'X', 1, 'T1', 'test');
SELECT rowid = (SELECT max(rowid) FROM gpu_specs) AS last, gpu, mem_bw_gbps, matrix_bf16 FROM gpu_specs WHERE gpu = 'T1';
UPDATE gpu_specs SET matrix_bf16 = 2.5 WHERE rowid = (SELECT rowid FROM gpu_specs WHERE gpu = 'T1');
SELECT gpu, matrix_bf16, gpu_peak_tflops('T1', 'matrix_bf16') AS peak FROM gpu_specs WHERE gpu = 'T1';
INSERT INTO gpu_specs(rowid, gpu) VALUES (1000, 'T2');
SELECT rowid, gpu FROM gpu_specs WHERE rowid >= 1000;
DELETE FROM gpu_specs WHERE rowid = 1000;
SELECT count(*) AS t2 FROM gpu_specs WHERE gpu = 'T2';
-- errors come from the table
INSERT INTO gpu_specs(gpu) VALUES ('t1');
