-- module: hta.hta_unions
-- requires: hta.hta_device_events

-- hta_unions: HTA's merge of the device rows' intervals, per rank and class ('ALL',
-- or a kernel type): sorted by ts, a row starts a new group when its ts is past
-- every earlier end (touching intervals merge; a negative dur takes part as it is).
CREATE TEMP VIEW IF NOT EXISTS hta_unions AS
WITH r AS (
    SELECT rank, 'ALL' AS class, ts, ts + dur AS e, uid FROM hta_device_events
    UNION ALL
    SELECT rank, kernel_type, ts, ts + dur, uid FROM hta_device_events
),
b AS (
    SELECT rank, class, ts, e,
           coalesce(ts > max(e) OVER (PARTITION BY rank, class ORDER BY ts, uid
                                      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 1) AS brk,
           uid
    FROM r
),
g AS (
    SELECT rank, class, ts, e,
           sum(brk) OVER (PARTITION BY rank, class ORDER BY ts, uid ROWS UNBOUNDED PRECEDING) AS grp
    FROM b
)
SELECT rank, class, grp, min(ts) AS s, max(e) AS e FROM g GROUP BY rank, class, grp;
