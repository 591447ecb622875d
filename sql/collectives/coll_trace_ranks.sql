-- module: collectives.coll_trace_ranks

-- coll_trace_ranks: one row per open trace: its rank (distributedInfo, the file name
-- read by trace_open_dir, else its position among the open traces, as TraceLens numbers
-- its list of files), world size, device count and path.
CREATE TEMP VIEW IF NOT EXISTS coll_trace_ranks AS
SELECT trace_id,
       coalesce(rank, (SELECT count(*) FROM traces p WHERE p.trace_id < t.trace_id)) AS rank,
       world_size, devices, path AS source
FROM traces t;
