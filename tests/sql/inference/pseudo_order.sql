-- The order TraceLens visits ops in when events are not in start order
-- (docs/inference.md, Pseudo ops and unified_perf_summary), on
-- tests/data/inference/pseudo/moe_triton_order.json: moe_triton.json's vllm::moe_forward
-- (uid 2, ts 100, on thread 1 under the Python frame "vllm/model.py(10): forward") and,
-- later in the file, a copy on thread 2 that starts earlier (uid 29, ts 40, no frame
-- above it). What TraceLens's inference report gives the same file:
--   - the MoE rules visit the ops by start: the copy's pseudo ops get UIDs 51-53, the
--     first op's 54-56 (in file order they would be the other way round);
--   - unified_perf_summary's traversal starts from the parentless Python frame (uid 1),
--     then from the other roots by start: vllm::TopK's first instance is uid 4, not 31.
.mode list
.nullvalue NULL
SELECT trace_open('tests/data/inference/pseudo/moe_triton_order.json', 'o') IS NOT NULL AS opened;
SELECT trace_inference_prepare('o') AS prepared;
SELECT uid, name, tid, external_id FROM events('o') WHERE name LIKE 'pseudo_op::%' ORDER BY uid;
SELECT name, ex_uid, operation_count FROM inference_report_unified_perf_summary
WHERE trace_id = 1 ORDER BY rowid;
