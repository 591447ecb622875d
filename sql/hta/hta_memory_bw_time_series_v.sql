-- module: hta.hta_memory_bw_time_series_v
-- requires: hta.hta_memory_bw_events

-- hta_memory_bw_time_series: the running bandwidth per rank and copy type, summed
-- in time order (numpy's cumsum); at equal ts tie_order puts the starts first
-- ('start_first') or the ends first ('end_first'), each in row_index order.
CREATE TEMP VIEW IF NOT EXISTS hta_memory_bw_time_series_v AS
SELECT row_index, rank, CAST(ts AS REAL) AS ts, pid, name,
       cumsum(delta) OVER (PARTITION BY rank, name
                           ORDER BY ts, CASE WHEN (delta >= 0) = (hta_arg('tie_order') = 'end_first') THEN 1 ELSE 0 END,
                                    row_index
                           ROWS UNBOUNDED PRECEDING) AS memory_bw_gbps
FROM hta_memory_bw_events
ORDER BY rank, name, ts, CASE WHEN (delta >= 0) = (hta_arg('tie_order') = 'end_first') THEN 1 ELSE 0 END, row_index;
