-- The two inference conformance cases merged with their capture folders. What TraceLens's
-- reference report (perf_csvs, made from its merged tree) implies, and the merged trace
-- here gives:
--  * sglang_decode: ops_summary 16 op names, 522 launcher ops, 9778.6171875 µs of kernel time;
--  * vllm_decode_full: 16 names, 326 ops, 10717.697265625 µs;
--  * gpu_timeline equal to the reference's gpu_timeline.csv row for row.
-- (sglang's attention op is named sglang_profiler::..._100 here until the inference
-- report's name normalisation applies; the count and time are the reference's.)
SELECT trace_open('../shared/conformance/tracelens/inference/sglang_decode/sglang_Qwen3-8B_decode.json.gz', 'sgl') AS sgl;
SELECT trace_open('../shared/conformance/tracelens/inference/vllm_decode_full/graph_execution.json.gz', 'vllm') AS vllm;
SELECT trace_merge_capture('sgl', '../shared/conformance/tracelens/inference/sglang_decode/capture_traces') AS sgl,
       trace_merge_capture('vllm', '../shared/conformance/tracelens/inference/vllm_decode_full/capture_traces') AS vllm;
-- rows of the merged trees (TraceLens's merged trees have as many events) and the
-- replayed kernels re-parented under a copied launch call
SELECT t.label, t.events,
       (SELECT count(*) FROM kernels k JOIN events c ON c.trace_id = k.trace_id AND c.uid = k.launcher_uid
        WHERE k.trace_id = t.trace_id AND c.name NOT LIKE '%GraphLaunch') - (SELECT count(*) FROM kernels k
        WHERE k.trace_id = t.trace_id AND k.link_kind = 'ac2g') AS replayed_relinked,
       (SELECT count(*) FROM events e WHERE e.trace_id = t.trace_id AND e.name = 'CaptureRoot') AS capture_roots
FROM traces t ORDER BY t.trace_id;
SELECT trace_id, count(*) AS names, sum(count) AS ops, sum(total_direct_kernel_time_sum) AS kernel_us
FROM ops_summary GROUP BY trace_id ORDER BY trace_id;
SELECT trace_id, type, time_ms, percent FROM gpu_timeline ORDER BY trace_id, rowid;
SELECT count(*) AS warnings FROM trace_warnings WHERE code = 'capture_merge';
