-- 62_compare_events.sql — the GPU events of a comparison call's traces. The tables
-- compare_events (one row per GPU event and side: its operation, phase, step, layer and
-- pass) and compare_event_groups (the events summed per side, operation, phase, layer,
-- kernel name and CPU op, durations exactly in ns) are computed in C
-- (core/analysis/compare_events.c; the rules: docs/compare.md) and hold the traces of
-- the call running now: read them through gpu_ops(trace) or the compare_* functions.
--
-- gpu_ops_v: gpu_ops(trace) — the GPU events of one trace with their operation
CREATE TEMP VIEW IF NOT EXISTS gpu_ops_v AS
SELECT trace_id, uid, kind, name, ts, dur, device, stream, op, cpu_op, phase, step, layer, pass
FROM compare_events WHERE side = 'trace' ORDER BY uid;
