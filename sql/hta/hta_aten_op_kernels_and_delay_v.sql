-- module: hta.hta_aten_op_kernels_and_delay_v
-- requires: hta.hta_info, hta.hta_job

-- HTA's ATen-op kernels and launch delay (docs/hta.md): each
-- ATen op instance's kernel sequence, and per (op name, sequence) how often it occurs
-- and the mean delays from the op's start to its first launch and from that launch to
-- its kernel (µs, 3 decimals).
CREATE TEMP VIEW IF NOT EXISTS hta_aten_op_kernels_and_delay_v AS
WITH r AS (  -- the launch records of the call's rows, ts aligned
    SELECT i.rank, a.seq, a.op_tid, a.op_name, a.op_ts, a.aten_op_delay, a.runtime_delay, a.kernel_name
    FROM hta_info i CROSS JOIN hta_job j CROSS JOIN hta_aten_launches a
    WHERE a.trace_id = i.trace_id AND a.time_rounding = hta_arg('time_rounding') AND a.kept_only = j.filtered
),
f AS (  -- the first record of each op instance
    SELECT rank, op_tid, op_name, op_ts, aten_op_delay, runtime_delay,
           row_number() OVER (PARTITION BY rank, op_tid, op_name, op_ts ORDER BY seq) AS n
    FROM r
),
s AS (  -- each instance's kernels, in launch order
    SELECT rank, op_tid, op_name, op_ts, group_concat(kernel_name, ' -> ') AS kernel_sequence
    FROM (SELECT * FROM r ORDER BY rank, op_tid, op_name, op_ts, seq)
    GROUP BY rank, op_tid, op_name, op_ts
)
SELECT s.rank, s.op_name AS aten_op_name, s.kernel_sequence, count(*) AS occurrence_count,
       np_round(avg(f.aten_op_delay), 3) AS avg_aten_op_launch_delay,
       np_round(avg(f.runtime_delay), 3) AS avg_runtime_delay
FROM s JOIN f ON f.rank = s.rank AND f.op_tid IS s.op_tid AND f.op_name = s.op_name AND f.op_ts = s.op_ts AND f.n = 1
GROUP BY s.rank, s.op_name, s.kernel_sequence
ORDER BY s.rank, occurrence_count DESC, aten_op_name, kernel_sequence;
