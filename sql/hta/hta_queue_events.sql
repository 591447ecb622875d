-- module: hta.hta_queue_events
-- requires: hta.hta_device_events, hta.hta_launch_events

-- hta_queue_events: +1 at each launch (the queue-length launch names, with a device
-- partner), taking stream, pid and tid of the device rows of its correlation; -1 at
-- each of those device rows. At equal ts, tie_order puts the launches first
-- ('launch_first') or the kernels first ('kernel_first'), each in event order.
CREATE TEMP VIEW IF NOT EXISTS hta_queue_events AS
WITH l AS MATERIALIZED (
    SELECT rank, correlation, uid, ts FROM hta_launch_events WHERE launch_class & 32 AND index_correlation > 0
),
d AS MATERIALIZED (SELECT rank, correlation, uid, ts, pid, tid, stream FROM hta_device_events),
c AS MATERIALIZED (SELECT DISTINCT rank, correlation FROM l)
SELECT l.uid AS event_index, l.rank, l.ts, d.pid, d.tid, d.stream, 1 AS delta
FROM l JOIN d ON d.rank = l.rank AND d.correlation = l.correlation
UNION ALL
SELECT d.uid, d.rank, d.ts, d.pid, d.tid, d.stream, -1
FROM d JOIN c ON c.rank = d.rank AND c.correlation = d.correlation;
