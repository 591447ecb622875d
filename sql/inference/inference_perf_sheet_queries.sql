-- module: inference.inference_perf_sheet_queries
-- requires: perf.perf_sheet_queries

-- inference_perf_sheet_queries: per inference perf-model sheet, the SQL printing it as
-- TraceLens's <sheet>.csv: the 'inference' rows of perf_sheet_queries_keyed
-- (sql/perf/perf_sheet_queries.sql; num_kernels right after the "param: ..." columns).
CREATE TEMP VIEW IF NOT EXISTS inference_perf_sheet_queries AS
SELECT trace_id, sheet, sql FROM perf_sheet_queries_keyed WHERE report = 'inference' ORDER BY trace_id, sheet;
