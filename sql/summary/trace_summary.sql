-- module: summary.trace_summary

-- sql/: the relational analyses, one view per file, created in the temp schema of every
-- connection that loads tracesql (embedded at build time; file-name order).
-- trace_summary: one line per open trace with its event and GPU-activity counts.
CREATE TEMP VIEW IF NOT EXISTS trace_summary AS
SELECT t.trace_id, t.label, t.events,
       (SELECT count(*) FROM kernels k WHERE k.trace_id = t.trace_id) AS gpu_events
FROM traces t;
