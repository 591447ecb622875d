-- module: perf.perf_sheet_params

-- perf_sheet_params: the parameter names of each sheet in order of first appearance
-- over its instances (file order), i.e. the order of TraceLens's "param: ..." columns.
-- Rows with the same params text have the same names at the same places, so the names
-- are read from each distinct params text once, at its first row (d), not from every
-- instance: the first appearance of a name is the least such first row.
CREATE TEMP VIEW IF NOT EXISTS perf_sheet_params AS
WITH d AS MATERIALIZED (
    SELECT trace_id, sheet, sheet_params AS params, min(row) AS row FROM perf_ops
    GROUP BY trace_id, sheet, sheet_params
), p AS MATERIALIZED (
    SELECT d.trace_id, d.sheet, d.row, j.key AS param, j.id AS pos
    FROM d, json_each(d.params) j
), f AS (
    SELECT trace_id, sheet, param, min(row) AS first_row FROM p GROUP BY trace_id, sheet, param
)
SELECT f.trace_id, f.sheet, f.param,
       row_number() OVER (PARTITION BY f.trace_id, f.sheet ORDER BY f.first_row, p.pos) AS position
FROM f JOIN p ON p.trace_id = f.trace_id AND p.sheet = f.sheet AND p.param = f.param
                 AND p.row = f.first_row
ORDER BY f.trace_id, f.sheet, position;
