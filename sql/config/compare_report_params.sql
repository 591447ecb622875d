-- module: config.compare_report_params

-- The files tools/tracesql-compare-platforms writes: the cross-platform comparison of
-- the pair in compare_report_params (docs/compare.md).
--   INSERT INTO compare_report_params VALUES ('base.json.gz', 'new.json.gz', NULL);
--   SELECT csv_write(OUTDIR, file, query, options) FROM compare_report_files;
-- compare_report_params: the pair (trace ids, labels or paths, as compare_ops takes
-- them) and the phase (prefill, decode, mixed; NULL = all). One row.
CREATE TEMP TABLE IF NOT EXISTS compare_report_params(baseline, variant, phase);
