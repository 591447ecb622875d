-- Hostile or mistaken inputs fail at once with a message that says what was given and
-- what to do (issue 26, issue 24 item 8): files that are not regular files (a FIFO would
-- block the open forever, /dev/zero never ends), directories, bad trace arguments,
-- duplicate labels, configuration values that would wrap.
.bail off
.shell rm -rf build/tmp/inputs && mkdir -p build/tmp/inputs && mkfifo build/tmp/inputs/pipe.json
SELECT trace_open('build/tmp/inputs/pipe.json');
SELECT trace_open('/dev/zero');
SELECT trace_open('/dev/null');
SELECT trace_open_dir('["build/tmp/inputs/pipe.json"]');
SELECT count(*) FROM events('build/tmp/inputs/pipe.json');
SELECT trace_open('tests/data');
SELECT count(*) FROM traces;
-- the trace argument
SELECT count(*) FROM kernels(NULL);
SELECT count(*) FROM kernels(x'00');
SELECT count(*) FROM kernels(3);
-- labels name one trace
SELECT trace_open('tests/data/tree_rules.json', 'run') AS id;
SELECT trace_open('tests/data/old_bare_array.json', 'run');
SELECT trace_open('tests/data/tree_rules.json', 'run') AS same_file_again;
SELECT trace_open('tests/data/old_bare_array.json', '');
SELECT trace_open('tests/data/old_bare_array.json', 'old') AS id;
SELECT trace_id, label FROM traces ORDER BY trace_id;
-- configuration values are checked, never wrapped
SELECT tracesql_config('memory_limit_mb', 17592186044416);
SELECT tracesql_config('memory_limit_mb', NULL);
SELECT tracesql_config('memory_limit_mb', 'lots');
SELECT tracesql_config('memory_limit_mb', 1.5);
SELECT tracesql_config('memory_limit_mb', -1);
SELECT tracesql_config('memory_limit_mb') AS unchanged;
SELECT tracesql_config('memory_limit_mb', 1073741824) AS max_mb;
SELECT tracesql_config('memory_limit_mb', 0) AS none;
.shell rm -rf build/tmp/inputs
