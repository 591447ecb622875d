-- module: report.coll_md_skew
-- requires: collectives.nccl_implicit_sync

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
