-- Every way a GPU event meets its launch (tests/data/tree_rules.json):
-- ac2g flow pairs, a graph launch shared by two kernels, a correlation-only link
-- (flow end missing: TraceLens drops it), a kernel whose launch is outside the trace,
-- an NCCL kernel (no TraceLens launcher), and "execute" skipped by TraceLens's walk.
SELECT uid, name, kind, launcher_uid, launcher_name, link_kind, op_name, root_op_name,
       tl_runtime_uid, tl_launcher_uid, is_comm, stream, device, grid, block, bytes,
       registers_per_thread, shared_memory
FROM kernels('tests/data/tree_rules.json') ORDER BY uid;
-- TraceLens direct kernel time per launcher name (the ops_summary number)
SELECT e.name, sum(k.busy) AS direct_us, count(*) AS n
FROM (SELECT tl_launcher_uid AS l, busy_time(ts, dur) AS busy FROM kernels(1)
      WHERE tl_launcher_uid IS NOT NULL GROUP BY tl_launcher_uid) k
JOIN events e ON e.trace_id = 1 AND e.uid = k.l
GROUP BY e.name ORDER BY e.name;
-- correlation index
SELECT uid, kind FROM events WHERE trace_id = 1 AND correlation = 50 ORDER BY uid;
SELECT uid FROM kernels WHERE trace_id = 1 AND correlation = 60;
