-- module: hta.hta_critical_path_summary_v
-- requires: hta.hta_cp_edges

-- hta_critical_path_summary: the path's duration per bound_by (µs) and its share of
-- the path's length (%).
CREATE TEMP VIEW IF NOT EXISTS hta_critical_path_summary_v AS
WITH e AS (SELECT bound_by, weight FROM hta_cp_edges),
b AS (SELECT bound_by, total(weight) AS duration_us FROM e GROUP BY bound_by)
SELECT bound_by, duration_us / (SELECT total(weight) FROM e) * 100 AS pct_of_duration, duration_us
FROM b ORDER BY bound_by;
