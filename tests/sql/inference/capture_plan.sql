-- capture_merge_plan(trace, folder): per graph launch of each engine step, the capture
-- taken and how its launches align with the replayed kernels.
-- tests/data/inference/replay.json: steps of 3, 9 and 20 tokens; capture/ lists batch
-- sizes 4 (present) and 16 (file missing).
SELECT json_extract(j.value, '$.batch_size') AS bs, json_extract(j.value, '$.graph_uid') AS graph,
       json_extract(j.value, '$.capture_batch_size') AS capture_bs, json_extract(j.value, '$.mode') AS mode,
       json_extract(j.value, '$.code') AS code, json_extract(j.value, '$.kernels') AS kernels,
       json_extract(j.value, '$.why') AS why
FROM json_each(json_extract(capture_merge_plan('tests/data/inference/replay.json',
                                               'tests/data/inference/capture'), '$.launches')) j;
-- no manifest: the folder's traces are classified (batch size from the inputs, FULL:
-- one capture); its launches name kernels the replay does not have
SELECT json_extract(j.value, '$.batch_size') AS bs, json_extract(j.value, '$.capture_batch_size') AS capture_bs,
       json_extract(j.value, '$.code') AS code, json_extract(j.value, '$.why') AS why
FROM json_each(json_extract(capture_merge_plan('tests/data/inference/replay.json',
                                               'tests/data/inference/capture_nomatch'), '$.launches')) j;
-- the conformance cases: one step, one launch each, aligned one to one
SELECT json_extract(capture_merge_plan('../shared/conformance/tracelens/inference/sglang_decode/sglang_Qwen3-8B_decode.json.gz',
         '../shared/conformance/tracelens/inference/sglang_decode/capture_traces'), '$.launches[0].kernels') AS sglang,
       json_extract(capture_merge_plan('../shared/conformance/tracelens/inference/vllm_decode_full/graph_execution.json.gz',
         '../shared/conformance/tracelens/inference/vllm_decode_full/capture_traces'), '$.launches[0].kernels') AS vllm;
