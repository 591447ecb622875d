-- module: collectives._nccl_fmt_rows
-- requires: collectives.coll_ranks, collectives.nccl_rows, config.report_params

-- _nccl_fmt_rows: how nccl_fmt is computed; read only through _nccl_fmt (view_cache), which
-- keeps its rows while nothing they depend on changes.
CREATE TEMP VIEW IF NOT EXISTS _nccl_fmt_rows AS

SELECT NOT EXISTS (SELECT 1 FROM nccl_rows WHERE pg IS NOT NULL AND pg <> 'Unknown_Group')
       AND NOT EXISTS (SELECT 1 FROM nccl_rows GROUP BY rank HAVING count(DISTINCT stream) > 1) AS simplified,
       coalesce(min(ts_ns % 1000 = 0), 0) AS int_ts,
       coalesce(min(dur_ns % 1000 = 0), 0) AS int_dur,
       coalesce(max(group_size IS NULL OR typeof(group_size) = 'real') AND max(group_size IS NOT NULL)
                AND NOT max(typeof(group_size) = 'text'), 0) AS real_gsize,
       coalesce(max(in_nelems IS NULL OR typeof(in_nelems) = 'real') AND max(in_nelems IS NOT NULL)
                AND NOT max(typeof(in_nelems) = 'text'), 0) AS real_in_n,
       coalesce(max(out_nelems IS NULL OR typeof(out_nelems) = 'real') AND max(out_nelems IS NOT NULL)
                AND NOT max(typeof(out_nelems) = 'text'), 0) AS real_out_n,
       coalesce(max(stream IS NULL OR typeof(stream) = 'real') AND max(stream IS NOT NULL)
                AND NOT max(typeof(stream) = 'text'), 0) AS real_stream,
       coalesce((SELECT CAST(value AS INTEGER) FROM report_params WHERE name = 'gpus_per_node'),
                (SELECT devices FROM coll_ranks ORDER BY rank LIMIT 1)) AS gpus_per_node
FROM nccl_rows;
