-- The memory ceiling holds while one huge string is read, not only after its event
-- (issue 26: a gzip of a few MB holding one 1 GiB string took 75 s and 2.1 GB). Here a
-- 32 MiB string (32 KiB of gzip) under a 16 MiB ceiling stops at the ceiling, and
-- nothing stays open.
.bail off
.shell bash tests/sql/hardening/make_big_string.sh build/tmp/ceiling_string.json.gz 32
SELECT tracesql_config('memory_limit_mb', 16) AS ceiling_mb;
SELECT trace_open('build/tmp/ceiling_string.json.gz');
SELECT count(*) AS open FROM traces;
-- with room for it, the same file loads
SELECT tracesql_config('memory_limit_mb', 0) AS ceiling_mb;
SELECT trace_open('build/tmp/ceiling_string.json.gz') AS id;
SELECT length(json_extract(args, '$.s')) AS string_bytes FROM events;
.shell rm -f build/tmp/ceiling_string.json.gz
