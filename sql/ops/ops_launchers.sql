-- module: ops.ops_launchers

-- ops_launchers: the launcher rows the launcher sheets (ops_summary,
-- ops_summary_by_category, ops_unique_args) group, once per report that writes them.
-- TraceLens builds both reports' sheets with one function whose flags add keys
-- (docs/inference.md, Launcher tables); here a report is a value of `report`:
--   'perf'       kernel_launchers as they are; call_stack, parent_module, num_kernels NULL
--   'inference'  the same rows with the inference report's keys:
--     call_stack     JSON array: the launcher's own name, then every nn.Module frame above
--                    it in the tree with Python frames, innermost first
--                    (inference_module_stack)
--     parent_module  call_stack's second name with every "_<digits>" removed, else 'NA'
--     num_kernels    its direct GPU events
-- A reader selects one report (WHERE report = 'perf'): SQLite pushes the term down to
-- the two-row list, so the call stacks are computed for the inference rows only.
CREATE TEMP VIEW IF NOT EXISTS ops_launchers AS
WITH r(report) AS (VALUES ('perf'), ('inference')),
s AS (
    SELECT r.report, l.*,
           CASE WHEN r.report = 'inference' THEN inference_module_stack(l.trace_id, l.uid) END AS call_stack
    FROM r, kernel_launchers l
)
SELECT s.*,
       CASE WHEN report = 'inference'
            THEN coalesce(strip_instance_ids(json_extract(call_stack, '$[1]')), 'NA') END AS parent_module,
       CASE WHEN report = 'inference' THEN direct_kernel_count END AS num_kernels
FROM s;
