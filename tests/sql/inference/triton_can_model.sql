-- The compiled-Triton model in unified_perf_summary applies to an event only when its args
-- give the kernel's metadata (docs/inference.md, unified_perf_summary): non-empty Concrete
-- Inputs, Input Dims and Input type, and a launch size (a string Python's int() reads) among
-- the Concrete Inputs. Otherwise the op has no model and its row stays (has_perf_model 0,
-- no metrics). tests/data/inference/triton/can_model.json: one op of each case; the
-- values are what TraceLens's inference report writes for it.
.mode list
.nullvalue NULL
SELECT trace_open('tests/data/inference/triton/can_model.json', 'tc') IS NOT NULL AS opened;
SELECT trace_inference_prepare('tc') AS prepared;
SELECT name, op_category, ex_uid, operation_count, gflops, data_moved_mb, compute_spec, kernel_time_us_sum,
       perf_params, has_perf_model
FROM unified_perf_summary WHERE trace_id = 1;
