-- A capture whose launches name other kernels (other_gemm_k, ...): the name counts differ,
-- TraceLens skips the launch and the trace stays the replay's; two warnings say why.
SELECT trace_open('tests/data/inference/merge/replay.json', 'nm');
SELECT trace_merge_capture('nm', 'tests/data/inference/merge/cap_nomatch');
SELECT count(*) AS events FROM events('nm');
SELECT uid, name, launcher_name, tl_launcher_uid FROM kernels('nm') ORDER BY uid;
SELECT code, uid, message FROM trace_warnings('nm');
SELECT name, count FROM ops_summary ORDER BY name;
