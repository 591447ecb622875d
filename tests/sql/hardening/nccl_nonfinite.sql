-- A rank trace with NaN / Infinity in its NCCL kernel's args and a world_size of 1e12
-- (tests/sql/hardening/nccl_nan.json, issue 26): args stay valid JSON (the non-finite
-- numbers are read as null, with an args_nonfinite warning), so the nccl views and the
-- export work; coll_warnings counts the missing ranks in one row instead of making 1e12.
.bail off
SELECT trace_open('tests/sql/hardening/nccl_nan.json') AS id;
SELECT json_valid(args) AS valid, args FROM events WHERE kind = 'kernel';
SELECT code, count(*) AS n FROM trace_warnings GROUP BY code;
SELECT collective_name, process_group, group_ranks, group_size, seq_in_group, in_nelems, out_nelems,
       in_split_sizes FROM collectives;
SELECT (SELECT count(*) FROM nccl_long) AS nccl_long, (SELECT count(*) FROM nccl_summary_long) AS summary,
       (SELECT count(*) FROM nccl_implicit_sync) AS implicit_sync, (SELECT count(*) FROM nccl_all2allv) AS a2a;
SELECT * FROM coll_warnings;
.shell mkdir -p build/tmp && rm -f build/tmp/nccl_nonfinite.db
SELECT trace_export(1, 'build/tmp/nccl_nonfinite.db') > 0 AS exported;
ATTACH 'build/tmp/nccl_nonfinite.db' AS x;
SELECT count(*) AS kernels, min(json_valid(args)) AS all_valid FROM x.events WHERE args IS NOT NULL;
DETACH x;
.shell rm -f build/tmp/nccl_nonfinite.db
