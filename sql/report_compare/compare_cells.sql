-- module: report_compare.compare_cells

CREATE TEMP TABLE IF NOT EXISTS compare_cells(
    pos INTEGER NOT NULL,         -- compare_reports.pos
    sheet TEXT NOT NULL,          -- the report's sheet (CSV file name without .csv)
    row INTEGER NOT NULL,         -- 0 = header, then data rows from 1 in file order
    col INTEGER NOT NULL,         -- column position from 0
    cell TEXT,                    -- the cell's text (the column name in row 0)
    PRIMARY KEY (pos, sheet, row, col)
) WITHOUT ROWID;
