-- TraceLens's reading of a collective kernel's own args (the tl_* columns of collectives,
-- docs/collectives.md, "The kernel's args as TraceLens reads them"), one spelling per cell
-- (tests/sql/collectives/tl_cells.json):
--   uid 5: JSON true / false in every key → the text True / False (Python's bool as pandas
--          prints it), in the name, list and count columns alike; its Seq comes from its
--          record_param_comms call (12), as the kernel has none;
--   uid 6: the strings "true", "True", "[0, 1]", "2", "[]" stay strings; 1e3 and 2.0 are
--          floats; an array of arrays is a tuple of tuples; stream true → True; Seq 5;
--   uid 7: null is missing; an object is a Python dict whose arrays stay lists; an escaped
--          string is decoded; an integer past int64 is a float; a tuple holding a float,
--          a quoted string and None; no Collective name on a cross_device_reduce kernel
--          (any case) → allreduce.
-- TraceLens itself fails on most of these (a bool Process Group Name cannot be joined to
-- its index, mixed types in a key column cannot be sorted): the views then differ only by
-- producing rows; tl_args.sql holds the spellings it does print.
SELECT trace_open('tests/sql/collectives/tl_cells.json') AS id;
SELECT uid, tl_process_group, tl_group_ranks, tl_collective_name, tl_group_size, tl_dtype,
       tl_in_nelems, tl_out_nelems, tl_in_split_sizes, tl_out_split_sizes, tl_stream, tl_seq
FROM collectives ORDER BY uid;
SELECT uid, typeof(tl_process_group) AS pg, typeof(tl_group_ranks) AS ranks, typeof(tl_group_size) AS gsize,
       typeof(tl_in_nelems) AS in_n, typeof(tl_out_nelems) AS out_n, typeof(tl_stream) AS stream,
       typeof(tl_seq) AS seq
FROM collectives ORDER BY uid;
-- nccl_rank_rows reads the same cells
SELECT uid, pg, pg_ranks, collective_name, group_size, dtype, in_nelems, out_nelems, in_split, out_split,
       stream, seq
FROM nccl_rank_rows ORDER BY uid;
