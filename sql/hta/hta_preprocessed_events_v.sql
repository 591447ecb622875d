-- module: hta.hta_preprocessed_events_v
-- requires: hta.hta_events

-- HTA's event table itself and its profiler steps (docs/hta.md).

-- hta_preprocessed_events: every row of every rank of the call after HTA's
-- preprocessing, as HTA's get_trace() holds it (ts aligned to the job's first row).
CREATE TEMP VIEW IF NOT EXISTS hta_preprocessed_events_v AS
SELECT rank, uid AS "index", cat, name, pid, tid, ts, dur, stream, correlation, index_correlation,
       iteration, memory_bw_gbps
FROM hta_events ORDER BY rank, uid;
