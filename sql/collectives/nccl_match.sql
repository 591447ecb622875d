-- module: collectives.nccl_match
-- requires: collectives._nccl_match

-- nccl_match: every row of nccl_rows with the collective instance it belongs to.
--   pg_name          TraceLens's Process Group Name: 'all' in simplified mode (no process
--                    group anywhere and one stream per rank), else the name or 'Unknown_Group'
--   index_in_group   0-based position by start time among the rank's rows of pg_name
--   match_key        the instance within pg_name: NCCL's Seq when every row of the group
--                    has one, else index_in_group (TraceLens's only key)
--   collective_id    TraceLens's id: index_in_group of the instance's first row, prefixed
--                    by pg_name and '_' outside simplified mode
--   match_status     'ok'; 'count_mismatch' (matched by position but the ranks have
--                    different numbers of collectives in the group, so positions cannot
--                    be trusted); 'duplicate' (a rank has two rows with one key); or
--                    'mismatch: <fields>' (the ranks disagree on those fields). Only 'ok'
--                    instances enter nccl_implicit_sync and nccl_all2allv.
--   ord              rank * 2^32 + uid: TraceLens's row order (ranks in order, file order)
CREATE TEMP VIEW IF NOT EXISTS nccl_match AS SELECT * FROM _nccl_match;
