-- module: hta.hta_frequent_cuda_kernel_sequences_v
-- requires: hta.hta_info, hta.hta_job

-- HTA's frequent CUDA kernel sequences of an operator
-- (docs/hta.md), over HTA's call graph of one rank (hta_call_graph).

-- hta_frequent_cuda_kernel_sequences: the call-graph nodes whose name contains
-- operator_name at the smallest depth any of them has, with at least min_pattern_len
-- GPU descendants; grouped by pattern (the op's name and its kernels' names in ts
-- order, '|' between them): how many, their kernels' summed dur and the ops' dur (µs).
CREATE TEMP VIEW IF NOT EXISTS hta_frequent_cuda_kernel_sequences_v AS
WITH g AS (
    SELECT c.* FROM hta_info i CROSS JOIN hta_job j CROSS JOIN hta_call_graph c
    WHERE i.rank = hta_arg('rank') AND c.trace_id = i.trace_id
      AND c.time_rounding = hta_arg('time_rounding') AND c.kept_only = j.filtered
      AND instr(c.name, hta_arg('operator_name')) > 0
),
roots AS (
    SELECT * FROM g WHERE depth = (SELECT min(depth) FROM g) AND num_kernels >= hta_arg('min_pattern_len')
)
SELECT name || '|' || kernel_names AS pattern, count(*) AS count,
       total(kernel_dur_sum) AS "GPU kernel duration (us)", total(dur) AS "CPU op duration (us)"
FROM roots GROUP BY pattern ORDER BY count DESC, pattern;
