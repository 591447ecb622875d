-- coll_summary_md: the Markdown summary tools/tracesql-collective-report prints (no
-- OUTDIR) over the ranks imported in this connection, one line per row in (section,
-- pos) order:  SELECT line FROM coll_summary_md ORDER BY section, pos
-- The counts; the worst start skews (µs); the slowest ranks; the bandwidth per
-- collective and size (GiB/s); the warnings. GFM tables (md_row); a list with no rows
-- is left out, heading included.
CREATE TEMP VIEW IF NOT EXISTS coll_summary_md AS
WITH skew AS (
    SELECT row_number() OVER (ORDER BY "skew in start time" DESC) AS pos,
           md_row(collective_id, "Collective name", "In msg nelems", "skew in start time",
                  "earliest arrival rank", round(comm_latency, 3), round("skew in end time", 3)) AS line
    FROM nccl_implicit_sync ORDER BY "skew in start time" DESC LIMIT 5
), slow AS (
    SELECT row_number() OVER () AS pos,
           md_row(rank, total_wait_time_us, times_arrived_last, pct_arrived_last, total_nccl_dur_us) AS line
    FROM (SELECT * FROM straggler_summary LIMIT 3)
), bw AS (
    SELECT row_number() OVER () AS pos,
           md_row("Collective name", dtype, "In msg nelems", round("Full msg size (MB)", 3), count,
                  round(comm_latency_mean, 3), round("algo bw (GB/s)_mean", 3), round("bus bw (GB/s)_mean", 3),
                  round("Total comm latency (ms)", 3)) AS line
    FROM nccl_summary_implicit_sync
), warn AS (
    SELECT row_number() OVER () AS pos, md_row(kind, rank, process_group, collective_id, detail) AS line
    FROM coll_warnings
), sec(section, title, head, rule, n) AS (
    VALUES (1, '### Worst start skew (µs)',
            md_row('collective_id', 'Collective name', 'In msg nelems', 'skew_start_us', 'earliest arrival rank',
                   'comm_latency_us', 'skew_end_us'), '|---:|---|---:|---:|---:|---:|---:|',
            (SELECT count(*) FROM skew)),
           (2, '### Slowest rank (least total wait, arrives last most often)',
            md_row('rank', 'total_wait_time_us', 'times_arrived_last', 'pct_arrived_last', 'total_nccl_dur_us'),
            '|---:|---:|---:|---:|---:|', (SELECT count(*) FROM slow)),
           (3, '### Bandwidth per collective and size (GiB/s)',
            md_row('Collective name', 'dtype', 'In msg nelems', 'msg_mib', 'count', 'latency_mean_us', 'algbw_gibs',
                   'busbw_gibs', 'total_ms'), '|---|---|---:|---:|---:|---:|---:|---:|---:|',
            (SELECT count(*) FROM bw)),
           (4, '### Warnings', md_row('kind', 'rank', 'process_group', 'collective_id', 'detail'),
            '|---|---:|---|---:|---|', (SELECT count(*) FROM warn))
)
SELECT 0 AS section, 0 AS pos,
       '## Collectives: ' || (SELECT count(*) FROM coll_ranks) || ' ranks, '
       || (SELECT count(*) FROM nccl_long) || ' collective kernels, '
       || (SELECT count(*) FROM nccl_implicit_sync) || ' implicit-sync collectives' AS line
UNION ALL SELECT section, -4, '' FROM sec WHERE n > 0
UNION ALL SELECT section, -3, title FROM sec WHERE n > 0
UNION ALL SELECT section, -2, '' FROM sec WHERE n > 0
UNION ALL SELECT section, -1, head FROM sec WHERE n > 0
UNION ALL SELECT section, 0, rule FROM sec WHERE n > 0
UNION ALL SELECT 1, pos, line FROM skew
UNION ALL SELECT 2, pos, line FROM slow
UNION ALL SELECT 3, pos, line FROM bw
UNION ALL SELECT 4, pos, line FROM warn;
