-- module: perf.perf_sheet_params
-- requires: perf.perf_sheet_ops

-- perf_sheet_params_keyed: the parameter names of each sheet of each report
-- (perf_sheet_ops.report) in order of first appearance over its instances (file order),
-- i.e. the order of TraceLens's "param: ..." columns.
-- Rows with the same params text have the same names at the same places, so the names
-- are read from each distinct params text once, at its first row (d), not from every
-- instance: the first appearance of a name is the least such first row (f).
-- perf_sheet_params: the perf report's rows.
CREATE TEMP VIEW IF NOT EXISTS perf_sheet_params_keyed AS
WITH d AS (
    SELECT trace_id, report, report_sheet AS sheet, sheet_params AS params, min(row) AS row FROM perf_sheet_ops
    GROUP BY trace_id, report, report_sheet, sheet_params
), p AS (
    SELECT d.trace_id, d.report, d.sheet, d.row, j.key AS param, j.id AS pos
    FROM d, json_each(d.params) j
), f AS (
    SELECT *, min(row) OVER (PARTITION BY trace_id, report, sheet, param) AS first_row FROM p
)
SELECT trace_id, report, sheet, param,
       row_number() OVER (PARTITION BY trace_id, report, sheet ORDER BY first_row, pos) AS position
FROM f WHERE row = first_row
ORDER BY trace_id, report, sheet, position;

CREATE TEMP VIEW IF NOT EXISTS perf_sheet_params AS
SELECT trace_id, sheet, param, position FROM perf_sheet_params_keyed WHERE report = 'perf'
ORDER BY trace_id, sheet, position;
