-- Inputs that crashed the fuzzer (tests/fuzz), kept as regressions.
-- fuzz_args_ctl_bytes.json: NUL bytes inside an args key of event 14 were taken for an
-- args-template placeholder on expansion (NULL dereference; 0x08 read past the pool).
SELECT trace_open('tests/data/fuzz_args_ctl_bytes.json') AS id;
SELECT events, warnings FROM traces;
SELECT uid, name, external_id, instr(args, '"External id":21780,') = 2 AS placeholder_expanded,
       length(args) AS args_chars
FROM events WHERE uid = 14;
SELECT count(*) AS events, sum(length(args)) AS args_chars FROM events;
-- fuzz_zip_header_outside.zip: the directory points the local header past the end of
-- the file; the error named that (out-of-file) offset instead of a byte of the file.
.bail off
SELECT trace_open('tests/data/fuzz_zip_header_outside.zip');
-- fuzz_zip_member_past_end.zip: likewise for a member whose data would start past the
-- end: reported at its local header.
SELECT trace_open('tests/data/fuzz_zip_member_past_end.zip');
SELECT count(*) AS open_traces FROM traces;
-- fuzz_metadata_rank_inf.json: "rank": 1e309 (infinity as a double) was converted to an
-- integer (undefined behaviour); an out-of-range rank is now unknown (NULL).
SELECT trace_open('tests/data/fuzz_metadata_rank_inf.json', 'rank_inf') > 0 AS opened;
SELECT rank, world_size FROM traces WHERE label = 'rank_inf';
