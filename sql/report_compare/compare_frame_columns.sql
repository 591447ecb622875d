-- module: report_compare.compare_frame_columns
-- requires: report_compare._compare_frame_columns

-- compare_frame_columns: the columns of the merged comparison of each sheet, in
-- TraceLens's order (ocol from 0): the keys; then the columns pandas' re.match
-- ".*__.*_diff|.*__.*_pct" picks, in creation order (the "<d>__<tag>_diff" and
-- "<d>__<tag>_pct" columns, per diff column d, per variant); then every report's other
-- columns renamed "<tag>::<column>", report by report. dtype is the column's pandas dtype
-- after the merge: an int64 column of a report that lacks some merged key becomes
-- float64 (a bool one object), as NaN fills the gaps.
CREATE TEMP VIEW IF NOT EXISTS compare_frame_columns AS SELECT * FROM _compare_frame_columns;
