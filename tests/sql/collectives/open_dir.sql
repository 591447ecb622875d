-- trace_open_dir: ranks from distributedInfo or the file name, errors naming the file,
-- all or nothing. tree_rules.json is rank 3 of 8 (distributedInfo); meta_names.json has
-- no distributedInfo and no rank in its name.
.bail off
SELECT trace_open_dir('["tests/data/tree_rules.json"]') AS ids;
SELECT trace_id, rank, world_size FROM traces;
-- a file open already is not loaded again; the same id comes back
SELECT trace_open_dir('tests/data/tree_rules.json') AS ids;
SELECT count(*) AS open_traces FROM traces;
SELECT kind, rank FROM coll_warnings ORDER BY rank LIMIT 3;
-- the rank from the file name: the regex's first group (Python's (?P<rank>...) and \d accepted)
.system mkdir -p build/tmp/open_dir_test
.mode list
.headers off
.once build/tmp/open_dir_test/worker-5_step.json
SELECT '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]}';
.mode csv
.headers on
SELECT trace_open_dir('build/tmp/open_dir_test/worker-*.json', 'worker-(?P<rank>\d+)') AS ids;
SELECT trace_id, rank, world_size FROM traces ORDER BY trace_id;
SELECT trace_open_dir('["tests/data/meta_names.json"]', 'meta_(?P<rank>\w+)');
SELECT trace_open_dir('["tests/data/meta_names.json"]');
-- two files of rank 3: nothing of the call stays open
SELECT trace_open_dir('["tests/data/tree_rules.json", "tests/data/tree_rules.json.gz"]');
SELECT count(*) AS open_traces FROM traces;
SELECT trace_open_dir('["tests/data/no_such_file.json"]');
SELECT trace_open_dir('tests/data/no_such_dir_*.json');
SELECT trace_open_dir('tests/data/tree_rules.json', NULL, 'everything');
SELECT trace_open_dir('["tests/data/bad_syntax.json"]');
SELECT trace_open_dir('[1, 2');
SELECT trace_open_dir('tests/data/tree_rules.json', '(');
-- mode 'collectives': rows copied, the trace not kept (this one was open already: it stays)
SELECT trace_open_dir('tests/data/tree_rules.json.gz', NULL, 'collectives') AS ranks;
SELECT count(*) AS open_traces FROM traces;
SELECT rank, world_size, devices, source FROM coll_rank_info_import;
SELECT count(*) = (SELECT count(*) FROM nccl_rank_rows WHERE trace_id = 1) AS same_rows FROM coll_rank_import;
SELECT rank, count(*) FROM nccl_rows GROUP BY rank;
