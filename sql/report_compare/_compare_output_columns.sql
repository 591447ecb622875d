-- module: report_compare._compare_output_columns
-- requires: report_compare._compare_output_columns_rows

-- _compare_output_columns: the rows of _compare_output_columns_rows, computed once and kept while the connection's
-- data, schema and open traces stay the same (ext/views/view_cache.c), so the views
-- that read compare_output_columns several times per query compute it once. The arguments: the
-- view, then its columns (checked at the first read).
CREATE VIRTUAL TABLE IF NOT EXISTS temp._compare_output_columns USING view_cache(_compare_output_columns_rows,
    output, sheet, out_col, ocol, name, dtype);
