-- The per-trace memory ceiling: a trace that needs more fails cleanly with a message
-- saying how to raise it, and nothing stays open. 0 = no ceiling (the default).
.bail off
SELECT tracesql_config('memory_limit_mb') AS default_mb;
SELECT tracesql_config('memory_limit_mb', -1);
SELECT tracesql_config('memory_limit_mb', 1) AS limit_mb;
SELECT trace_open('examples/demo_trace.json.gz');
SELECT count(*) AS open_after_failure FROM traces;
SELECT tracesql_config('memory_limit_mb', 0) AS limit_mb;
SELECT trace_open('examples/demo_trace.json.gz') AS id;
SELECT events, memory_bytes > 1048576 AS over_1_mib FROM traces;
