-- short_kernels_summary.csv with no row (docs/report.md, "Empty sheets"): a trace whose
-- only short kernel runs under an op without Input Strides has short kernels but no
-- summary row, and TraceLens writes pandas' two header lines of the empty aggregate;
-- the same trace with the strides has its row; with a 12.5 µs kernel there is no short kernel and
-- TraceLens writes one empty line (its files for the three traces checked by hand).
SELECT trace_open('tests/data/perf/short_kernels/dropped.json') AS dropped;
SELECT trace_open('tests/data/perf/short_kernels/kept.json') AS kept;
SELECT trace_open('tests/data/perf/short_kernels/long.json') AS no_short;
SELECT trace_id, count(*) AS short_kernels FROM short_kernels GROUP BY trace_id;
SELECT trace_id, count(*) AS summary_rows FROM short_kernels_summary GROUP BY trace_id;
SELECT trace_id, json_extract(options, '$.if_empty') AS if_empty
FROM perf_report_files WHERE sheet = 'short_kernels_summary' ORDER BY trace_id;
