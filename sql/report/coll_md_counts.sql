-- module: report.coll_md_counts
-- requires: collectives.coll_ranks, collectives.nccl_implicit_sync, collectives.nccl_long

-- The Markdown summary tools/tracesql-collective-report prints (no OUTDIR) over the
-- ranks imported in this connection, one view per section, each one line per row in
-- pos order (SELECT line FROM coll_md_skew ORDER BY pos): coll_md_counts (the heading
-- and counts), coll_md_skew (the worst start skews, µs), coll_md_stragglers (the
-- slowest ranks), coll_md_bandwidth (per collective and size, GiB/s), coll_md_warnings.
-- GFM tables (md_row); a list with no rows is left out, heading included. One view per
-- section: each reads one deep view of sql/collectives/ once, so the command pays for
-- preparing each chain once, as separate statements.
CREATE TEMP VIEW IF NOT EXISTS coll_md_counts AS
SELECT 0 AS pos,
       '## Collectives: ' || (SELECT count(*) FROM coll_ranks) || ' ranks, '
       || (SELECT count(*) FROM nccl_long) || ' collective kernels, '
       || (SELECT count(*) FROM nccl_implicit_sync) || ' implicit-sync collectives' AS line;
