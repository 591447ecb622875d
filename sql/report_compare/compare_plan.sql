-- module: report_compare.compare_plan
-- requires: report_compare.compare_cells, report_compare.compare_config,
-- requires: report_compare.compare_groups, report_compare.compare_reports

-- compare_plan: the compare_config rows that run on the loaded reports: the group is
-- selected (compare_groups, empty = all), the baseline has the sheet, every variant has it
-- too (a roofline sheet also needs rows in every report, as TraceLens skips it
-- otherwise), and kernel_summary takes its legacy form when the baseline lacks
-- "Kernel name".
CREATE TEMP VIEW IF NOT EXISTS compare_plan AS
SELECT c.*, json_extract(c.diffs, '$[0]') AS d0
FROM compare_config c
WHERE (NOT EXISTS (SELECT 1 FROM compare_groups) OR c.grp IN (SELECT grp FROM compare_groups))
  AND EXISTS (SELECT 1 FROM compare_cells h WHERE h.pos = 0 AND h.sheet = c.sheet AND h.row = 0)
  AND c.variant = CASE WHEN c.grp = 'kernel_summary'
                            AND NOT EXISTS (SELECT 1 FROM compare_cells h
                                            WHERE h.pos = 0 AND h.sheet = c.sheet AND h.row = 0
                                              AND h.cell = 'Kernel name')
                       THEN 'legacy' ELSE '' END
  AND NOT EXISTS (SELECT 1 FROM compare_reports r
                  WHERE NOT EXISTS (SELECT 1 FROM compare_cells x
                                    WHERE x.pos = r.pos AND x.sheet = c.sheet
                                      AND x.row = CASE WHEN c.grp = 'roofline' THEN 1 ELSE 0 END));
