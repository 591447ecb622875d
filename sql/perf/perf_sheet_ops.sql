-- module: perf.perf_sheet_ops

-- perf_sheet_ops: the perf_ops rows the perf-model sheets group, once per report that
-- writes them. TraceLens builds both reports' sheets with one function (docs/report.md,
-- docs/inference.md, Perf-model sheets); here a report is a value of `report`, and
-- each row carries the sheet, order and keys it has there:
--   'perf'       every row: report_sheet = sheet, report_appended = appended,
--                report_num_kernels NULL (not a key)
--   'inference'  forward rows only (no F_bwd sheet); Normalization is
--                Normalization_fwd; of the forward rows the perf report moves to F_bwd,
--                ConvBias_Backward and ConvBiasReLU_Backward stay in F_fwd, sorted with
--                the others (report_appended 0), and the others are dropped;
--                report_num_kernels = num_kernels (a key: GPU events under the op)
-- A reader selects one report (WHERE report = 'perf'): the term goes to the two-row
-- list, so the rows of the other report are not read. (A UNION ALL of two arms would
-- read both: SQLite does not push a grouping reader's terms into a compound subquery.)
CREATE TEMP VIEW IF NOT EXISTS perf_sheet_ops AS
WITH r(report) AS (VALUES ('perf'), ('inference'))
SELECT r.report, p.*,
       CASE WHEN r.report = 'perf' THEN p.sheet
            WHEN p.sheet = 'Normalization' THEN 'Normalization_fwd'
            WHEN p.appended THEN substr(p.sheet, 1, length(p.sheet) - 4) || '_fwd'
            ELSE p.sheet END AS report_sheet,
       CASE WHEN r.report = 'perf' THEN p.appended ELSE 0 END AS report_appended,
       CASE WHEN r.report = 'inference' THEN p.num_kernels END AS report_num_kernels
FROM r, perf_ops p
WHERE r.report = 'perf'
   OR (p.direction = 'fwd' AND (NOT p.appended OR p.name IN ('ConvBias_Backward', 'ConvBiasReLU_Backward')));
