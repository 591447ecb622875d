-- module: hta.hta_type_sweep
-- requires: hta.hta_unions

-- hta_type_sweep: the unions of COMPUTATION (bit 1), COMMUNICATION (2) and MEMORY (4)
-- as one sweep per rank: each segment between consecutive endpoints carries the bits
-- of the unions covering it.
CREATE TEMP VIEW IF NOT EXISTS hta_type_sweep AS
WITH p AS (
    SELECT rank, s AS t, bit FROM (
        SELECT rank, s, CASE class WHEN 'COMPUTATION' THEN 1 WHEN 'COMMUNICATION' THEN 2 ELSE 4 END AS bit
        FROM hta_unions WHERE class IN ('COMPUTATION', 'COMMUNICATION', 'MEMORY'))
    UNION ALL
    SELECT rank, e, -bit FROM (
        SELECT rank, e, CASE class WHEN 'COMPUTATION' THEN 1 WHEN 'COMMUNICATION' THEN 2 ELSE 4 END AS bit
        FROM hta_unions WHERE class IN ('COMPUTATION', 'COMMUNICATION', 'MEMORY'))
),
r AS (
    SELECT rank, t, sum(bit) OVER w AS bits, lead(t) OVER w - t AS len
    FROM p WINDOW w AS (PARTITION BY rank ORDER BY t, bit ROWS UNBOUNDED PRECEDING)
)
SELECT rank, bits, len FROM r WHERE len <> 0;
