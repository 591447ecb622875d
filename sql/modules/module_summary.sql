-- module: modules.module_summary

-- module_summary: the nn.Module hierarchy of traces recorded with
-- Python stacks (with_stack=True) per module class (docs/analyses.md). The hierarchy
-- itself, one row per module instance, is the module_tree table (ext/vtab/module_tree.c,
-- core/analysis/module_tree.c: one pass over the tree, where a recursive SQL range
-- join took longer than loading the trace); its rules are these:
--
-- A module instance is a python_function event whose name starts with "nn.Module:"
-- ("nn.Module: Linear_3"). Its parent module is the nearest nn.Module event above it
-- through the Python frames (events.parent_uid, tree_edges kind 'python'). Its GPU
-- work is every GPU event (kernel, memcpy, memset) whose launching runtime call
-- (kernels.launcher_uid) starts inside the module's span [ts, ts + dur) on the same
-- pid and tid — the runtime calls of the module's forward; kernels launched later by
-- autograd for its backward are not the module's. Traces without Python events give
-- no rows.

-- module_summary: module_tree per module class (the `module` column), largest GPU
-- time first. Nested instances of one class (a Sequential in a Sequential) are each
-- counted, so their time is counted more than once.
--   instances            module instances of that class
--   min_depth            the shallowest depth it occurs at
--   cpu_time_us_sum, cpu_time_us_mean   Σ / mean of dur, µs
--   gpu_events           Σ gpu_events
--   gpu_time_us_sum, gpu_time_us_mean   Σ / mean of gpu_time_us, µs
--   self_gpu_time_us_sum                Σ self_gpu_time_us, µs
--   pct_of_model_gpu     gpu_time_us_sum / Σ gpu_time_us of the top-level instances × 100
CREATE TEMP VIEW IF NOT EXISTS module_summary AS
WITH t AS MATERIALIZED (SELECT * FROM module_tree),
tot AS (
    SELECT trace_id, sum(gpu_time_us) AS top_gpu FROM t WHERE depth = 0 GROUP BY trace_id
)
SELECT t.trace_id, module,
       count(*) AS instances,
       min(depth) AS min_depth,
       sum(dur) AS cpu_time_us_sum,
       avg(dur) AS cpu_time_us_mean,
       sum(gpu_events) AS gpu_events,
       sum(gpu_time_us) AS gpu_time_us_sum,
       avg(gpu_time_us) AS gpu_time_us_mean,
       sum(self_gpu_time_us) AS self_gpu_time_us_sum,
       CASE WHEN tot.top_gpu > 0 THEN sum(gpu_time_us) / tot.top_gpu * 100 END AS pct_of_model_gpu
FROM t CROSS JOIN tot USING (trace_id) -- t first, in its row order (the sums add in that order)
GROUP BY t.trace_id, module
ORDER BY t.trace_id, gpu_time_us_sum DESC, cpu_time_us_sum DESC, module;
