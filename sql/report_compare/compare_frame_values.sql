-- module: report_compare.compare_frame_values
-- requires: report_compare._compare_frame_values

-- compare_frame_values: every cell of the merged comparison as pandas holds it: keys and
-- report columns read as read_csv reads them (NULL = NaN), diff = variant − baseline,
-- pct = 100 · (diff / baseline), NULL where the baseline is 0.
CREATE TEMP VIEW IF NOT EXISTS compare_frame_values AS SELECT * FROM _compare_frame_values;
