-- module: inference.inference_unified_stacks

-- inference_unified_stacks: per row of unified_perf_summary (by ex_uid), the call-stack
-- columns of TraceLens's inference report (docs/inference.md, Call stacks):
--   call_stack_full   JSON: the stacks of the row's kernels (those of its first instance
--                     with GPU work, in kernel_details_summary order) each ending with
--                     the kernel's name, merged: their common prefix, then each
--                     distinct tail as a list (call_stack_full()); synthetic rows have
--                     no stack: the kernel's name alone
--   entry_point       the Python frame of the op (entry_point())
CREATE TEMP VIEW IF NOT EXISTS inference_unified_stacks AS
WITH k AS (
    SELECT u.*,
           CASE WHEN u.synthetic THEN u.kernel_details ELSE
               (SELECT json_group_array(json_set(j.value, '$.call_stack',
                           json(inference_kernel_stack(u.trace_id, u.node_uid, json_extract(j.value, '$.gpu_op_uid')))))
                FROM json_each(u.kernel_details) j) END AS kd
    FROM unified_ops u
), g AS (
    SELECT trace_id, name, first(uid, row) AS ex_uid, pd_sum(kernel_time_us, row) AS kernel_time_us_sum,
           call_stack_full(kernel_details_summary(kd, row)) AS call_stack_full
    FROM k
    GROUP BY trace_id, name, op_category, process_name, process_label, thread_name,
             input_dims, input_type, input_strides, concrete_inputs
)
SELECT trace_id, ex_uid, kernel_time_us_sum, call_stack_full,
       coalesce(entry_point(name, call_stack_full), 'Not found') AS entry_point
FROM g;
