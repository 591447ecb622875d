-- make demo: a first report on the bundled demo trace (examples/demo_trace.json.gz).
-- Run by hand:  sqlite3 :memory: -cmd '.load build/tracesql' < examples/demo.sql
.headers on
.mode table
SELECT trace_open('examples/demo_trace.json.gz', 'demo') AS trace_id;
SELECT label, format, events, gpu_events, gpu_name, rank, world_size,
       round(load_seconds * 1000, 1) AS load_ms
FROM traces;

.print
.print Top GPU kernels by total time
SELECT CASE WHEN length(name) > 60 THEN substr(name, 1, 57) || '...' ELSE name END AS kernel,
       count(*) AS calls, round(sum(dur), 3) AS total_us, round(avg(dur), 3) AS mean_us,
       op_name AS launched_by
FROM kernels('demo') GROUP BY name, op_name ORDER BY total_us DESC LIMIT 10;

.print
.print Top CPU ops by direct GPU kernel time (TraceLens rules: leaf op, busy time)
SELECT e.name AS op, count(*) AS instances, round(sum(k.busy), 3) AS direct_kernel_us,
       round(100.0 * sum(k.busy) / (SELECT busy_time(ts, dur) FROM kernels('demo')
                                    WHERE tl_runtime_uid IS NOT NULL), 2) AS pct_of_busy
FROM (SELECT tl_launcher_uid AS l, busy_time(ts, dur) AS busy FROM kernels('demo')
      WHERE tl_launcher_uid IS NOT NULL GROUP BY tl_launcher_uid) k
JOIN events e ON e.trace_id = (SELECT trace_id FROM traces WHERE label = 'demo') AND e.uid = k.l
GROUP BY e.name ORDER BY direct_kernel_us DESC LIMIT 10;

.print
.print GPU work by how it is tied to its launch
SELECT coalesce(link_kind, 'no launch in trace') AS link, kind, count(*) AS n
FROM kernels('demo') GROUP BY 1, 2 ORDER BY 1, 2;
