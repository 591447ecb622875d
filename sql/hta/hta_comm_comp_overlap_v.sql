-- module: hta.hta_comm_comp_overlap_v
-- requires: hta.hta_info, hta.hta_unions

-- hta_comm_comp_overlap: the share of the communication union that overlaps the
-- computation union, in % (2 decimals); NULL (HTA's NaN) without communication.
CREATE TEMP VIEW IF NOT EXISTS hta_comm_comp_overlap_v AS
WITH p AS (
    SELECT rank, s AS t, CASE class WHEN 'COMMUNICATION' THEN 1 ELSE 2 END AS bit
    FROM hta_unions WHERE class IN ('COMPUTATION', 'COMMUNICATION')
    UNION ALL
    SELECT rank, e, CASE class WHEN 'COMMUNICATION' THEN -1 ELSE -2 END
    FROM hta_unions WHERE class IN ('COMPUTATION', 'COMMUNICATION')
),
w AS (  -- running == 3 exactly: both unions (a negative-length group can make other sums)
    SELECT rank, sum(bit) OVER w AS running, lead(t) OVER w - t AS len
    FROM p WINDOW w AS (PARTITION BY rank ORDER BY t, bit ROWS UNBOUNDED PRECEDING)
),
o AS (SELECT rank, total(len) FILTER (WHERE running = 3) AS overlap FROM w GROUP BY rank),
m AS (SELECT rank, total(e - s) AS comm FROM hta_unions WHERE class = 'COMMUNICATION' GROUP BY rank)
SELECT i.rank, np_round(100.0 * coalesce(o.overlap, 0) / nullif(m.comm, 0), 2) AS comp_comm_overlap_pctg
FROM hta_info i LEFT JOIN o ON o.rank = i.rank LEFT JOIN m ON m.rank = i.rank ORDER BY i.rank;
