-- module: hta.hta_queue_length_time_series_v
-- requires: hta.hta_queue_events

CREATE TEMP VIEW IF NOT EXISTS hta_queue_length_time_series_v AS
SELECT event_index, rank, ts, pid, tid, stream,
       sum(delta) OVER (PARTITION BY rank, stream
                        ORDER BY ts, CASE WHEN hta_arg('tie_order') = 'kernel_first' THEN delta ELSE -delta END,
                                 event_index
                        ROWS UNBOUNDED PRECEDING) AS queue_length
FROM hta_queue_events
ORDER BY rank, stream, ts, CASE WHEN hta_arg('tie_order') = 'kernel_first' THEN delta ELSE -delta END, event_index;
