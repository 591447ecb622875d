-- module: config.diff_params

-- diff_params (the pair the diff views compare) and TraceLens's TraceDiff
-- CSVs as views, plus HTA's ops diff (docs/diff.md).

-- diff_params: the (baseline, variant) pairs the diff views read, each a trace id,
-- label or path (a path not open yet is loaded). One row per pair, e.g.
--   INSERT INTO diff_params VALUES ('base.json.gz', 'new.json.gz');
-- Per connection (TEMP); every diff view has rows for every pair in it.
CREATE TEMP TABLE IF NOT EXISTS diff_params(baseline, variant);
