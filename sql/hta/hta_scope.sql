-- module: hta.hta_scope
-- requires: collectives.coll_trace_ranks

-- HTA's event table as the hta_* analyses read it (docs/hta.md):
-- the traces of the running call with HTA's rank, the job's time origin, whether
-- HTA's incomplete-last-step filter applies, and the rows after it. Every view here
-- reads the running call's arguments with hta_arg() (ext/vtab/hta.c); read directly,
-- outside a hta_* call, they have no rows.

-- hta_scope: the traces of the call: the one given (rank: its distributedInfo rank,
-- else 0, as HTA reads a single file), or every open trace ranked as coll_trace_ranks
-- ranks them (distributedInfo, the file name read by trace_open_dir, else the order
-- the traces were opened in: several traces are ranks 0..N-1).
CREATE TEMP VIEW IF NOT EXISTS hta_scope AS
SELECT t.trace_id,
       CASE WHEN hta_arg('trace_id') IS NULL THEN r.rank ELSE coalesce(t.rank, 0) END AS rank
FROM traces t JOIN coll_trace_ranks r ON r.trace_id = t.trace_id
WHERE hta_arg('time_rounding') IS NOT NULL
  AND (hta_arg('trace_id') IS NULL OR t.trace_id = hta_arg('trace_id'));
