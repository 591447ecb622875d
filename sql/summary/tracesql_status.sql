-- module: summary.tracesql_status

-- tracesql_status: one row that says whether this connection has a trace open, and
-- what to do when it has none (the views are empty until trace_open runs on the same
-- connection; a client that opens a new connection per call never sees them filled).
CREATE TEMP VIEW IF NOT EXISTS tracesql_status AS
SELECT n AS open_traces,
       labels,
       CASE WHEN n = 0 THEN
         'no trace is open on this connection, so the views (gpu_timeline, ops_summary, ...) '
         || 'are empty: run SELECT trace_open(''run.json.gz'') on this same connection first. '
         || 'A client that opens a new connection per call (sqlite-utils, some BI tools) '
         || 'cannot keep a trace open: name the trace in each query instead, '
         || 'e.g. SELECT * FROM kernels(''run.json.gz''), or write a plain database once with '
         || 'SELECT trace_export(''run.json.gz'', ''run.db'') and open run.db without the extension.'
       ELSE
         n || ' trace' || CASE WHEN n = 1 THEN '' ELSE 's' END || ' open; the views cover '
         || CASE WHEN n = 1 THEN 'it' ELSE 'all of them: filter by trace_id' END || '.'
       END AS message
FROM (SELECT count(*) AS n, group_concat(label, ', ') AS labels FROM traces);
