-- module: hta.hta_queue_length_summary_v
-- requires: hta.hta_queue_length_time_series_v

-- hta_queue_length_summary: pandas' describe() of the series per rank and stream.
CREATE TEMP VIEW IF NOT EXISTS hta_queue_length_summary_v AS
SELECT rank, stream, CAST(count(*) AS REAL) AS count, avg(queue_length) AS mean,
       pd_std(queue_length) AS std, CAST(min(queue_length) AS REAL) AS min,
       np_quantile(queue_length, 0.25) AS "25%", np_quantile(queue_length, 0.5) AS "50%",
       np_quantile(queue_length, 0.75) AS "75%", CAST(max(queue_length) AS REAL) AS max
FROM hta_queue_length_time_series_v GROUP BY rank, stream ORDER BY rank, stream;
