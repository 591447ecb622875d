-- module: report_compare._compare_frame_values
-- requires: report_compare._compare_frame_values_rows

-- _compare_frame_values: the rows of _compare_frame_values_rows, computed once and kept while the connection's
-- data, schema and open traces stay the same (ext/views/view_cache.c), so the views
-- that read compare_frame_values several times per query compute it once. The arguments: the
-- view, then its columns (checked at the first read).
CREATE VIRTUAL TABLE IF NOT EXISTS temp._compare_frame_values USING view_cache(_compare_frame_values_rows,
    sheet, mrow, ocol, v);
