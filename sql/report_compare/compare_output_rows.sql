-- module: report_compare.compare_output_rows
-- requires: report_compare._compare_output_rows

-- compare_output_rows: which merged rows each output holds, in its order (orow from 1):
-- sorted on the sort column descending, missing values last, ties in merge order (the
-- baseline's column; an only_variant sheet the variant's); gpu_timeline in merge order.
CREATE TEMP VIEW IF NOT EXISTS compare_output_rows AS SELECT * FROM _compare_output_rows;
