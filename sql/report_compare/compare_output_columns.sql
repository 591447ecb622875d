-- module: report_compare.compare_output_columns
-- requires: report_compare._compare_output_columns

-- compare_output_columns: the columns each output writes, in order (out_col from 0). A
-- split sheet keeps the keys, its reports' "<tag>::" columns and the diff columns of its
-- variant, then loses every column that is empty in all its rows (all of them when it
-- has no rows).
CREATE TEMP VIEW IF NOT EXISTS compare_output_columns AS SELECT * FROM _compare_output_columns;
