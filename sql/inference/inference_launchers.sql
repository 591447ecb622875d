-- module: inference.inference_launchers

-- inference_launchers: kernel_launchers as TraceLens's inference report sees them
-- (docs/inference.md, Launcher tables): each launcher with
--   call_stack      JSON array: its own name, then every nn.Module frame above it in the
--                   tree with Python frames, innermost first (inference_module_stack)
--   parent_module   call_stack's second name with every "_<digits>" removed, else 'NA'
--   num_kernels     its direct GPU events
CREATE TEMP VIEW IF NOT EXISTS inference_launchers AS
WITH s AS (
    SELECT l.*, inference_module_stack(l.trace_id, l.uid) AS call_stack FROM kernel_launchers l
)
SELECT s.*, coalesce(strip_instance_ids(json_extract(call_stack, '$[1]')), 'NA') AS parent_module,
       json_array_length(kernel_details) AS num_kernels
FROM s;
