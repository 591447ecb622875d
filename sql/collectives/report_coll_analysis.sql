-- module: collectives.report_coll_analysis

-- report_coll_analysis: TraceLens's coll_analysis.csv (docs/collectives.md, nccl_rank_rows and
-- nccl_long; nccl_summary_long), trace_id first. TraceLens reads the collective's fields from the
-- kernel event's args only, so a trace whose kernels do not carry them (Kineto before 2.3) has no
-- rows here; the native views coll_analysis / coll_analysis_summary also read the CPU side.
--
-- Rows: communication kernels (cat exactly 'kernel', name containing nccl, rccl or
-- cross_device_reduce, with a correlation or External id), rank 0 (TraceLens numbers
-- ranks by position in its list of files; the report passes one). Grouped by the 11
-- keys; a row with a missing key is dropped (pandas); groups by key, then by dur_sum
-- descending. Cell text as pandas writes it: args arrays become tuples, booleans True /
-- False, a key column of numbers with a missing value or a float anywhere in the trace
-- prints as floats ("2.0") unless it also holds a string or a bool, durations
-- that are all whole numbers keep integer sums, minima and maxima. GPU-only traces
-- (no cpu_op) have no coll_analysis sheet. The sheet's place in the report is its
-- report_sheets row (sql/config/report_sheets.sql).
CREATE TEMP VIEW IF NOT EXISTS report_coll_analysis AS
-- each key as pandas holds it (the tl_* columns of collectives: strings as they are, arrays
-- as tuples, booleans as True / False)
WITH v AS MATERIALIZED (
    SELECT k.trace_id, k.uid, k.dur, k.dur_ns,
           c.tl_process_group AS pg,
           c.tl_group_ranks AS ranks,
           c.tl_collective_name AS cname,
           c.tl_group_size AS gsize,
           c.tl_dtype AS dtype,
           c.tl_in_nelems AS in_n,
           c.tl_out_nelems AS out_n,
           c.tl_in_split_sizes AS in_split,
           c.tl_out_split_sizes AS out_split,
           c.tl_stream AS stream
    FROM kernels k JOIN events e ON e.trace_id = k.trace_id AND e.uid = k.uid
    JOIN collectives c ON c.trace_id = k.trace_id AND c.uid = k.uid
    WHERE k.is_comm AND k.kind = 'kernel' AND e.cat = 'kernel'
      AND (k.correlation IS NOT NULL OR k.external_id IS NOT NULL)
),
-- TraceLens's NCCL dtype table (bytes per element); other dtypes have no size
s AS (
    SELECT v.*,
           CASE WHEN in_n IS NOT NULL THEN
               CASE dtype WHEN 'Float' THEN 4 WHEN 'Int' THEN 4 WHEN 'Long' THEN 8
                          WHEN 'BFloat16' THEN 2 WHEN 'Bool' THEN 1 WHEN 'Byte' THEN 1
                          WHEN 'Double' THEN 8 WHEN 'Half' THEN 2 WHEN 'Short' THEN 2 END
           END AS bpe
    FROM v
),
-- how pandas types each column of the trace's nccl_long table: float when every value is
-- a number and one is missing or a float; any text (a string, a bool) keeps each as it is
fmt AS (
    SELECT trace_id,
           max(gsize IS NULL OR typeof(gsize) = 'real') AND NOT max(typeof(gsize) = 'text') AS f_gsize,
           max(in_n IS NULL OR typeof(in_n) = 'real') AND NOT max(typeof(in_n) = 'text') AS f_in_n,
           max(out_n IS NULL OR typeof(out_n) = 'real') AND NOT max(typeof(out_n) = 'text') AS f_out_n,
           max(stream IS NULL OR typeof(stream) = 'real') AND NOT max(typeof(stream) = 'text') AS f_stream,
           min(dur_ns % 1000 = 0) AS int_dur,
           EXISTS (SELECT 1 FROM events c WHERE c.trace_id = v.trace_id AND c.kind = 'cpu_op') AS has_cpu
    FROM v GROUP BY trace_id
),
g AS (
    SELECT trace_id, pg, ranks, cname, gsize, dtype, in_n, out_n, in_split, out_split, stream,
           first(in_n * bpe / 1048576.0, uid) AS in_mb,
           first(out_n * bpe / 1048576.0, uid) AS out_mb,
           pd_sum(dur, uid) AS dur_sum,
           count(*) AS n,
           pd_std(dur, uid) AS dur_std,
           min(dur) AS dur_min,
           max(dur) AS dur_max
    FROM s
    WHERE pg IS NOT NULL AND ranks IS NOT NULL AND cname IS NOT NULL AND gsize IS NOT NULL
      AND dtype IS NOT NULL AND in_n IS NOT NULL AND out_n IS NOT NULL AND in_split IS NOT NULL
      AND out_split IS NOT NULL AND stream IS NOT NULL
    GROUP BY trace_id, pg, ranks, cname, gsize, dtype, in_n, out_n, in_split, out_split, stream
)
SELECT g.trace_id,
       0 AS rank,
       pg AS "Process Group Name",
       ranks AS "Process Group Ranks",
       cname AS "Collective name",
       CASE WHEN f_gsize THEN py_float(gsize) ELSE gsize END AS "Group size",
       dtype,
       CASE WHEN f_in_n THEN py_float(in_n) ELSE in_n END AS "In msg nelems",
       CASE WHEN f_out_n THEN py_float(out_n) ELSE out_n END AS "Out msg nelems",
       in_split AS "In split size",
       out_split AS "Out split size",
       CASE WHEN f_stream THEN py_float(stream) ELSE stream END AS stream,
       py_float(in_mb) AS "In msg size (MB)_first",
       py_float(out_mb) AS "Out msg size (MB)_first",
       CASE WHEN int_dur THEN CAST(dur_sum AS INTEGER) ELSE py_float(dur_sum) END AS dur_sum,
       py_float(dur_sum / n) AS dur_mean,
       py_float(dur_std) AS dur_std,
       CASE WHEN int_dur THEN CAST(dur_min AS INTEGER) ELSE py_float(dur_min) END AS dur_min,
       CASE WHEN int_dur THEN CAST(dur_max AS INTEGER) ELSE py_float(dur_max) END AS dur_max,
       n AS operation_count
FROM g JOIN fmt USING (trace_id)
WHERE fmt.has_cpu
ORDER BY g.trace_id, g.dur_sum DESC, pg, ranks, cname, gsize, dtype, in_n, out_n, in_split,
         out_split, stream;
