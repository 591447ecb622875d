-- module: report._md_gpu_timeline
-- requires: timeline.gpu_timeline

-- _md_gpu_timeline: the "GPU timeline" section of the Markdown summaries (perf_summary_md,
-- inference_summary_md): a blank line, the heading, a blank line and the table's header
-- and rule at pos -4..0, then one GFM row per gpu_timeline row at pos 1, 2, ...
-- A trace without timeline rows has no lines, heading included.
CREATE TEMP VIEW IF NOT EXISTS _md_gpu_timeline AS
WITH tl AS (
    SELECT trace_id, row_number() OVER (PARTITION BY trace_id) AS pos,
           md_row(type, printf('%.3f', time_ms), printf('%.2f', percent)) AS line
    FROM gpu_timeline
)
SELECT DISTINCT trace_id, -4 AS pos, '' AS line FROM tl
UNION ALL SELECT DISTINCT trace_id, -3, '## GPU timeline' FROM tl
UNION ALL SELECT DISTINCT trace_id, -2, '' FROM tl
UNION ALL SELECT DISTINCT trace_id, -1, md_row('type', 'time (ms)', '%') FROM tl
UNION ALL SELECT DISTINCT trace_id, 0, '|---|---:|---:|' FROM tl
UNION ALL SELECT trace_id, pos, line FROM tl;
