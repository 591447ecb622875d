-- module: report.coll_md_warnings
-- requires: collectives.coll_warnings

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
