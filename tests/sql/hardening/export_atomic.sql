-- trace_export is atomic: an export that fails half-way (here a view that errors while
-- it is copied) leaves the file it would have replaced as it was, and no temporary file.
.bail off
SELECT trace_open('tests/data/tree_rules.json') AS id;
SELECT trace_export(1, 'build/sql_export_atomic.db', 'replace') > 0 AS first_export;
CREATE TEMP VIEW boom AS SELECT trace_id, json_extract('not json', '$') AS x FROM traces;
SELECT trace_export(1, 'build/sql_export_atomic.db', 'replace');
SELECT name FROM fsdir('build') WHERE name LIKE 'build/sql_export_atomic%' ORDER BY name;
ATTACH 'build/sql_export_atomic.db' AS x;
-- the first export, whole: no table of the failed one
SELECT (SELECT value FROM x.meta WHERE key = 'label') AS label,
       (SELECT count(*) FROM x.sqlite_master WHERE name = 'boom') AS has_boom,
       (SELECT count(*) FROM x.events) AS events;
PRAGMA x.integrity_check;
DETACH x;
