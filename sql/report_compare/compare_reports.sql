-- module: report_compare.compare_reports

-- The perf-report comparison's inputs (docs/compare-reports.md; docs/compare-reports.md):
-- the reports, in order (pos 0 is the baseline), and every cell of their sheets as the
-- CSV text TraceLens's read_csv sees. Row 0 of a sheet holds its header (cell = the
-- column's name); data rows count from 1. examples/compare_reports.sh fills them from CSV
-- folders; compare_trace_cells holds the cells of open traces' reports.
CREATE TEMP TABLE IF NOT EXISTS compare_reports(
    pos INTEGER PRIMARY KEY,      -- 0 = baseline, then the variants in order
    tag TEXT NOT NULL UNIQUE,     -- the report's name in column names: "<tag>::<column>"
    trace_id INTEGER              -- an open trace whose report this is (compare_trace_cells),
                                  -- NULL for a report read from CSV files
);
