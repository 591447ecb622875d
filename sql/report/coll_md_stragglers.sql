-- module: report.coll_md_stragglers
-- requires: collectives.straggler_summary

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
