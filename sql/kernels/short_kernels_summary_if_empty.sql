-- module: kernels.short_kernels_summary_if_empty
-- requires: kernels.short_kernels

-- short_kernels_summary_if_empty: per trace, what short_kernels_summary.csv holds when
-- the sheet has no row (csv_write's if_empty, as JSON). TraceLens writes one empty line
-- when the trace has no short kernel, but when it has some and every one is dropped for
-- a missing key (no parent op, or an op without argument lists), pandas writes its
-- empty aggregate's two header lines, which are not the sheet's columns
-- (docs/report.md, "Empty sheets").
CREATE TEMP VIEW IF NOT EXISTS short_kernels_summary_if_empty AS
SELECT t.trace_id,
       CASE WHEN EXISTS (SELECT 1 FROM short_kernels s WHERE s.trace_id = t.trace_id)
            THEN json_array('Kernel duration (µs),Kernel duration (µs),Kernel duration (µs)', 'sum,count,mean')
            ELSE json_quote('blank') END AS if_empty
FROM traces t;
