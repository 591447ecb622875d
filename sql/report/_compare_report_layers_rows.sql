-- module: report._compare_report_layers_rows
-- requires: report._compare_report_pair

-- _compare_report_layers_rows: compare_layers's rows for the pair, the input compare_report_json and
-- compare_report_md share; read only through _compare_report_layers (view_cache).
CREATE TEMP VIEW IF NOT EXISTS _compare_report_layers_rows AS
SELECT c.* FROM _compare_report_pair p, compare_layers(p.b, p.v, p.ph) c;
