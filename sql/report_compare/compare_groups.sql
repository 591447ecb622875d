-- module: report_compare.compare_groups

-- sheet groups to compare (gpu_timeline, ops_summary, kernel_summary, ops_all, roofline);
-- empty = all
CREATE TEMP TABLE IF NOT EXISTS compare_groups(grp TEXT PRIMARY KEY);
