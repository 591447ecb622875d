-- trace_warnings: one row per recovery the loader made, with a stable code, the byte
-- offset of the event in the file (NULL for what the tree build finds), and its uid.
-- traces.warnings counts them. Files from the malformed corpus (tests/corpus/).
SELECT trace_open('tests/corpus/files/f01_ts_string.json', 'ts_string') AS id;
SELECT trace_open('tests/corpus/files/o02_unbalanced_be.json', 'be') AS id;
SELECT trace_open('tests/corpus/files/o06_python_cycle.json', 'cycle') AS id;
SELECT trace_open('tests/corpus/files/s06_bom.json', 'bom') AS id;
SELECT trace_open('tests/data/tree_rules.json', 'clean') AS id;
SELECT label, warnings FROM traces ORDER BY trace_id;
SELECT trace_id, seq, byte_offset, uid, code, message FROM trace_warnings ORDER BY trace_id, seq;
-- as a table-valued function, by label
SELECT code, count(*) AS n FROM trace_warnings('be') GROUP BY code ORDER BY code;
-- the offset is where the event starts: '{' at byte 37 of this file
SELECT byte_offset, uid FROM trace_warnings('ts_string') WHERE code = 'ts_string';
SELECT ts, dur FROM events('ts_string');
-- warnings go with their trace
SELECT trace_close('be') AS closed;
SELECT count(*) AS rows_of_closed FROM trace_warnings WHERE trace_id = 2;
