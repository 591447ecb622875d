-- module: report_compare._compare_output_rows
-- requires: report_compare._compare_output_rows_rows

-- _compare_output_rows: the rows of _compare_output_rows_rows, computed once and kept while the connection's
-- data, schema and open traces stay the same (ext/views/view_cache.c), so the views
-- that read compare_output_rows several times per query compute it once. The arguments: the
-- view, then its columns (checked at the first read).
CREATE VIRTUAL TABLE IF NOT EXISTS temp._compare_output_rows USING view_cache(_compare_output_rows_rows,
    output, orow, mrow);
