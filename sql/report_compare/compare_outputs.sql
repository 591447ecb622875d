-- module: report_compare.compare_outputs
-- requires: report_compare.compare_plan, report_compare.compare_reports

-- compare_outputs: the sheets the comparison writes. gpu_timeline, ops_summary and
-- kernel_summary whole; every other planned sheet split, per variant, into
-- <out>_intersect_<tag> (rows where both the baseline and the variant have the first
-- diff column), <out>_only_baseline_<tag> and <out>_only_variant_<tag>.
CREATE TEMP VIEW IF NOT EXISTS compare_outputs AS
SELECT p.out AS output, p.grp, p.sheet, 'all' AS part, NULL AS pos, p.ord, 0 AS sub
FROM compare_plan p WHERE NOT p.split
UNION ALL
SELECT p.out || '_' || s.part || '_' || r.tag, p.grp, p.sheet, s.part, r.pos, p.ord, r.pos * 3 + s.i
FROM compare_plan p, compare_reports r,
     (SELECT 0 AS i, 'intersect' AS part UNION ALL SELECT 1, 'only_baseline'
      UNION ALL SELECT 2, 'only_variant') s
WHERE p.split AND r.pos > 0;
