-- module: hta.hta_frequent_cuda_kernel_sequences_v
-- requires: hta.hta_info, hta.hta_job

-- HTA's frequent CUDA kernel sequences of an operator
-- (docs/hta.md), over the roots hta_kernel_sequence_roots finds in HTA's call graph of
-- one rank (core/analysis/hta_callgraph.c).

-- hta_frequent_cuda_kernel_sequences: the call-graph nodes whose name contains
-- operator_name at the smallest depth any of them has, with at least min_pattern_len
-- GPU descendants; grouped by pattern (the op's name and its kernels' names in ts
-- order, '|' between them): how many, their kernels' summed dur and the ops' dur (µs).
CREATE TEMP VIEW IF NOT EXISTS hta_frequent_cuda_kernel_sequences_v AS
SELECT c.name || '|' || c.kernel_names AS pattern, count(*) AS count,
       total(c.kernel_dur_sum) AS "GPU kernel duration (us)", total(c.dur) AS "CPU op duration (us)"
FROM hta_info i CROSS JOIN hta_job j CROSS JOIN hta_kernel_sequence_roots c
WHERE i.rank = hta_arg('rank') AND c.trace_id = i.trace_id
  AND c.time_rounding = hta_arg('time_rounding') AND c.kept_only = j.filtered
  AND c.operator_name = hta_arg('operator_name') AND c.min_pattern_len = hta_arg('min_pattern_len')
GROUP BY pattern ORDER BY count DESC, pattern;
