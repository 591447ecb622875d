-- TraceLens's coll_analysis sheet and nccl_long columns on spellings it prints
-- (tests/sql/collectives/tl_args.json; the expected rows are TraceLens's own output on this
-- trace, the trace_id column and our extra nccl_long columns aside):
--   the Process Group Names "true" and "True" are strings, not bools; the dtype "True" is a
--   string with no size; split sizes written as JSON arrays are empty tuples "()";
--   one Group size spelled 2.0 makes the whole column float ("2.0", "4.0"), and one
--   missing Group size (uid 10) drops its row from the sheet but not from nccl_long; one
--   Out msg nelems spelled 8192.0 makes that column float with no value missing;
--   a stream that is JSON true prints True and keeps the other streams integers
--   (the column is not all numbers).
SELECT trace_open('tests/sql/collectives/tl_args.json') AS id;
SELECT * FROM report_coll_analysis;
SELECT collective_id, index_in_group, rank, "Process Group Name", "Process Group Ranks", "Collective name",
       "Group size", dtype, "In msg nelems", "In msg size (MB)", "Out msg nelems", "Out msg size (MB)",
       "In split size", "Out split size", stream, ts, dur, uid, seq
FROM nccl_long;
