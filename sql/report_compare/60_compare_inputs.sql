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
CREATE TEMP TABLE IF NOT EXISTS compare_cells(
    pos INTEGER NOT NULL,         -- compare_reports.pos
    sheet TEXT NOT NULL,          -- the report's sheet (CSV file name without .csv)
    row INTEGER NOT NULL,         -- 0 = header, then data rows from 1 in file order
    col INTEGER NOT NULL,         -- column position from 0
    cell TEXT,                    -- the cell's text (the column name in row 0)
    PRIMARY KEY (pos, sheet, row, col)
) WITHOUT ROWID;
-- sheet groups to compare (gpu_timeline, ops_summary, kernel_summary, ops_all, roofline);
-- empty = all
CREATE TEMP TABLE IF NOT EXISTS compare_groups(grp TEXT PRIMARY KEY);
