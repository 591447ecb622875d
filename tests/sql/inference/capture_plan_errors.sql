-- a folder that does not exist: a clear error
SELECT capture_merge_plan('tests/data/inference/replay.json', 'tests/data/inference/no_such_folder');
