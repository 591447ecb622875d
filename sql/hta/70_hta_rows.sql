-- 70_hta_rows.sql — HTA's event table as the hta_* analyses read it (docs/hta.md):
-- the traces of the running call with HTA's rank, the job's time origin, whether
-- HTA's incomplete-last-step filter applies, and the rows after it. Every view here
-- reads the running call's arguments with hta_arg() (ext/vtab/hta.c); read directly,
-- outside a hta_* call, they have no rows.

-- hta_scope: the traces of the call: the one given (rank: its distributedInfo rank,
-- else 0, as HTA reads a single file), or every open trace ranked as coll_trace_ranks
-- ranks them (distributedInfo, the file name read by trace_open_dir, else the order
-- the traces were opened in: several traces are ranks 0..N-1).
CREATE TEMP VIEW IF NOT EXISTS hta_scope AS
SELECT t.trace_id,
       CASE WHEN hta_arg('trace_id') IS NULL THEN r.rank ELSE coalesce(t.rank, 0) END AS rank
FROM traces t JOIN coll_trace_ranks r ON r.trace_id = t.trace_id
WHERE hta_arg('time_rounding') IS NOT NULL
  AND (hta_arg('trace_id') IS NULL OR t.trace_id = hta_arg('trace_id'));

-- hta_info: per trace of the call: rounding applied, first row's ts, step names.
CREATE TEMP VIEW IF NOT EXISTS hta_info AS
SELECT s.trace_id, s.rank, i.rounded, i.min_ts, i.step_names
FROM hta_scope s CROSS JOIN hta_trace_info i
WHERE i.trace_id = s.trace_id AND i.time_rounding = hta_arg('time_rounding');

-- hta_job: one row: the time origin (HTA aligns every rank to the job's first row)
-- and whether the last-step filter applies (asked for, and more than one distinct
-- ProfilerStep#N name over all ranks).
CREATE TEMP VIEW IF NOT EXISTS hta_job AS
SELECT min(min_ts) AS min_ts,
       coalesce(hta_arg('last_step_filter') <> 0
                AND (SELECT count(DISTINCT j.value) FROM hta_info, json_each(hta_info.step_names) j) > 1, 0)
           AS filtered
FROM hta_info;

-- hta_rows_of(subset): the rows of the call after the filter, ts aligned; one view
-- per subset so each scan reads only what it needs. partner_ts: the ts of the row at
-- index_correlation, NULL when the filter removed it.
CREATE TEMP VIEW IF NOT EXISTS hta_events AS
SELECT i.rank, e.trace_id, e.uid, e.cat, e.name, e.pid, e.tid, e.ts - j.min_ts AS ts, e.dur,
       e.stream, e.correlation, e.index_correlation, e.iteration, e.kernel_type, e.gpu_side,
       e.launch_class, e.profiler_step, e.memory_bw_gbps
FROM hta_info i CROSS JOIN hta_job j CROSS JOIN hta_rows e
WHERE e.trace_id = i.trace_id AND e.time_rounding = hta_arg('time_rounding') AND e.subset = 'all'
  AND (NOT j.filtered OR e.keep);

CREATE TEMP VIEW IF NOT EXISTS hta_device_events AS
SELECT i.rank, e.trace_id, e.uid, e.cat, e.name, e.pid, e.tid, e.ts - j.min_ts AS ts, e.dur,
       e.stream, e.correlation, e.index_correlation, e.kernel_type, e.memory_bw_gbps,
       CASE WHEN NOT j.filtered OR e.partner_keep THEN e.partner_ts - j.min_ts END AS partner_ts
FROM hta_info i CROSS JOIN hta_job j CROSS JOIN hta_rows e
WHERE e.trace_id = i.trace_id AND e.time_rounding = hta_arg('time_rounding') AND e.subset = 'device'
  AND (NOT j.filtered OR e.keep);

-- launch_class bits: 8 launch-stats kernel launches, 16 memcpy/memset launches,
-- 32 queue-length launches, 64 ATen-op launches (core/analysis/hta.h)
CREATE TEMP VIEW IF NOT EXISTS hta_launch_events AS
SELECT i.rank, e.trace_id, e.uid, e.name, e.pid, e.tid, e.ts - j.min_ts AS ts, e.dur, e.stream,
       e.correlation, e.index_correlation, e.launch_class
FROM hta_info i CROSS JOIN hta_job j CROSS JOIN hta_rows e
WHERE e.trace_id = i.trace_id AND e.time_rounding = hta_arg('time_rounding') AND e.subset = 'launch'
  AND (NOT j.filtered OR e.keep);

CREATE TEMP VIEW IF NOT EXISTS hta_step_events AS
SELECT i.rank, e.trace_id, e.uid, e.name, e.profiler_step
FROM hta_info i CROSS JOIN hta_job j CROSS JOIN hta_rows e
WHERE e.trace_id = i.trace_id AND e.time_rounding = hta_arg('time_rounding') AND e.subset = 'steps'
  AND (NOT j.filtered OR e.keep);

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
