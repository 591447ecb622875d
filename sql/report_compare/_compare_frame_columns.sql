-- module: report_compare._compare_frame_columns
-- requires: report_compare._compare_frame_columns_rows

-- _compare_frame_columns: the rows of _compare_frame_columns_rows, computed once and kept while the connection's
-- data, schema and open traces stay the same (ext/views/view_cache.c), so the views
-- that read compare_frame_columns several times per query compute it once. The arguments: the
-- view, then its columns (checked at the first read).
CREATE VIRTUAL TABLE IF NOT EXISTS temp._compare_frame_columns USING view_cache(_compare_frame_columns_rows,
    sheet, ocol, name, kind, pos, col, field, dtype, src_dtype);
