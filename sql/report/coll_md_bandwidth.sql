-- module: report.coll_md_bandwidth
-- requires: collectives.nccl_summary_implicit_sync

CREATE TEMP VIEW IF NOT EXISTS coll_md_bandwidth AS
WITH r AS MATERIALIZED (
    SELECT row_number() OVER () AS pos,
           md_row("Collective name", dtype, "In msg nelems", round("Full msg size (MB)", 3), count,
                  round(comm_latency_mean, 3), round("algo bw (GB/s)_mean", 3), round("bus bw (GB/s)_mean", 3),
                  round("Total comm latency (ms)", 3)) AS line
    FROM nccl_summary_implicit_sync
)
SELECT h.pos, h.line FROM (SELECT 1 FROM r WHERE pos = 1),
     (SELECT -4 AS pos, '' AS line
      UNION ALL SELECT -3, '### Bandwidth per collective and size (GiB/s)'
      UNION ALL SELECT -2, ''
      UNION ALL SELECT -1, md_row('Collective name', 'dtype', 'In msg nelems', 'msg_mib', 'count', 'latency_mean_us',
                         'algbw_gibs', 'busbw_gibs', 'total_ms')
      UNION ALL SELECT 0, '|---|---|---:|---:|---:|---:|---:|---:|---:|') h
UNION ALL SELECT pos, line FROM r;
