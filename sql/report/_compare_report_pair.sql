-- module: report._compare_report_pair
-- requires: config.compare_report_params

-- _compare_report_pair: the comparison the report files describe, one row (none while
-- compare_report_params is empty): b = baseline, v = variant, ph = phase.
CREATE TEMP VIEW IF NOT EXISTS _compare_report_pair AS
SELECT baseline AS b, variant AS v, phase AS ph FROM compare_report_params LIMIT 1;
