-- The Markdown summary tools/tracesql-collective-report prints (no OUTDIR) over the
-- ranks imported in this connection, one view per section, each one line per row in
-- pos order (SELECT line FROM coll_md_skew ORDER BY pos): coll_md_counts (the heading
-- and counts), coll_md_skew (the worst start skews, µs), coll_md_stragglers (the
-- slowest ranks), coll_md_bandwidth (per collective and size, GiB/s), coll_md_warnings.
-- GFM tables (md_row); a list with no rows is left out, heading included. One view per
-- section: each reads one deep view of sql/collectives/ once, so the command pays for
-- preparing each chain once, as separate statements.
CREATE TEMP VIEW IF NOT EXISTS coll_md_counts AS
SELECT 0 AS pos,
       '## Collectives: ' || (SELECT count(*) FROM coll_ranks) || ' ranks, '
       || (SELECT count(*) FROM nccl_long) || ' collective kernels, '
       || (SELECT count(*) FROM nccl_implicit_sync) || ' implicit-sync collectives' AS line;

CREATE TEMP VIEW IF NOT EXISTS coll_md_skew AS
WITH r AS MATERIALIZED (
    SELECT row_number() OVER (ORDER BY "skew in start time" DESC) AS pos,
           md_row(collective_id, "Collective name", "In msg nelems", "skew in start time",
                  "earliest arrival rank", round(comm_latency, 3), round("skew in end time", 3)) AS line
    FROM nccl_implicit_sync ORDER BY "skew in start time" DESC LIMIT 5
)
SELECT h.pos, h.line FROM (SELECT 1 FROM r WHERE pos = 1),
     (SELECT -4 AS pos, '' AS line
      UNION ALL SELECT -3, '### Worst start skew (µs)'
      UNION ALL SELECT -2, ''
      UNION ALL SELECT -1, md_row('collective_id', 'Collective name', 'In msg nelems', 'skew_start_us',
                         'earliest arrival rank', 'comm_latency_us', 'skew_end_us')
      UNION ALL SELECT 0, '|---:|---|---:|---:|---:|---:|---:|') h
UNION ALL SELECT pos, line FROM r;

CREATE TEMP VIEW IF NOT EXISTS coll_md_stragglers AS
WITH r AS MATERIALIZED (
    SELECT row_number() OVER () AS pos,
           md_row(rank, total_wait_time_us, times_arrived_last, pct_arrived_last, total_nccl_dur_us) AS line
    FROM (SELECT * FROM straggler_summary LIMIT 3)
)
SELECT h.pos, h.line FROM (SELECT 1 FROM r WHERE pos = 1),
     (SELECT -4 AS pos, '' AS line
      UNION ALL SELECT -3, '### Slowest rank (least total wait, arrives last most often)'
      UNION ALL SELECT -2, ''
      UNION ALL SELECT -1, md_row('rank', 'total_wait_time_us', 'times_arrived_last', 'pct_arrived_last',
                         'total_nccl_dur_us')
      UNION ALL SELECT 0, '|---:|---:|---:|---:|---:|') h
UNION ALL SELECT pos, line FROM r;

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

CREATE TEMP VIEW IF NOT EXISTS coll_md_warnings AS
WITH r AS MATERIALIZED (
    SELECT row_number() OVER () AS pos, md_row(kind, rank, process_group, collective_id, detail) AS line
    FROM coll_warnings
)
SELECT h.pos, h.line FROM (SELECT 1 FROM r WHERE pos = 1),
     (SELECT -4 AS pos, '' AS line
      UNION ALL SELECT -3, '### Warnings'
      UNION ALL SELECT -2, ''
      UNION ALL SELECT -1, md_row('kind', 'rank', 'process_group', 'collective_id', 'detail')
      UNION ALL SELECT 0, '|---|---:|---|---:|---|') h
UNION ALL SELECT pos, line FROM r;
