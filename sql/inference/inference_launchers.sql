-- module: inference.inference_launchers
-- requires: ops.ops_launchers

-- inference_launchers: kernel_launchers as TraceLens's inference report sees them
-- (docs/inference.md, Launcher tables): the 'inference' rows of ops_launchers
-- (sql/ops/ops_launchers.sql), each launcher with its call_stack, parent_module and
-- num_kernels.
CREATE TEMP VIEW IF NOT EXISTS inference_launchers AS
SELECT trace_id, uid, seq, name, kind, pid, tid, ts, dur, op_category, total_direct_kernel_time,
       total_subtree_kernel_time, direct_kernel_count, kernel_details, first_kernel_name, input_dims,
       input_type, input_strides, concrete_inputs, process_name, process_label, thread_name,
       external_id, call_stack, parent_module, num_kernels
FROM ops_launchers WHERE report = 'inference';
