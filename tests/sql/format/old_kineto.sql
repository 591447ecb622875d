-- 2020-style Kineto: a bare top-level array, old category spellings (Operator,
-- Runtime, Kernel, Memcpy), "external id", async flows named "launch", string tids,
-- B/E pairs, b/e async pairs with hex ids, a counter, sub-ns and beyond-int64 values.
SELECT trace_open('tests/data/old_bare_array.json');
SELECT events, gpu_events, link_key, tl_compatible, warnings FROM traces;
SELECT uid, ph, cat, kind, name, pid, tid, ts, dur, ts_ns, dur_ns, external_id, flow_id, parent_uid
FROM events(1) ORDER BY uid;
-- natively the kernel is linked to its launch; TraceLens would ignore old spellings
SELECT uid, name, kind, launcher_uid, link_kind, op_name, tl_runtime_uid, tl_launcher_uid, bytes
FROM kernels(1);
-- ids beyond int64 keep their text in args
SELECT args FROM events(1) WHERE uid = 8;
