-- module: hta.hta_gpu_kernel_breakdown_by_type_v
-- requires: hta.hta_type_sweep

-- hta_gpu_kernel_breakdown_by_type: time per combination of kernel types running
-- (COMPUTATION overlapping COMMUNICATION, ...), truncated to whole µs per rank, summed
-- over the ranks; percentage of the total (1 decimal).
CREATE TEMP VIEW IF NOT EXISTS hta_gpu_kernel_breakdown_by_type_v AS
WITH l AS (
    SELECT rank,
           substr(CASE WHEN bits & 1 THEN ' overlapping COMPUTATION' ELSE '' END
                  || CASE WHEN bits & 2 THEN ' overlapping COMMUNICATION' ELSE '' END
                  || CASE WHEN bits & 4 AND hta_arg('include_memory_kernels') THEN ' overlapping MEMORY' ELSE '' END,
                  14) AS kernel_type,
           len
    FROM hta_type_sweep WHERE bits > 0
),
r AS (SELECT kernel_type, rank, CAST(total(len) AS INTEGER) AS s FROM l WHERE kernel_type <> '' GROUP BY 1, 2),
k AS (SELECT kernel_type, sum(s) AS sum FROM r GROUP BY 1)
SELECT kernel_type, sum, np_round(100.0 * sum / (SELECT sum(sum) FROM k), 1) AS percentage
FROM k ORDER BY sum DESC, kernel_type;
