-- module: report._compare_report_stacks_rows
-- requires: report._compare_report_ops, report._compare_report_pair

-- _compare_report_stacks_rows: the baseline's example Python stack of each operation it has, the input compare_report_json and
-- compare_report_md share; read only through _compare_report_stacks (view_cache).
CREATE TEMP VIEW IF NOT EXISTS _compare_report_stacks_rows AS
SELECT o.operation, st.stack
FROM _compare_report_pair p, _compare_report_ops o, compare_stacks(p.b, o.operation, 1, p.ph) st
WHERE o.baseline_count > 0;
