-- The files tools/tracesql-compare-platforms writes: the cross-platform comparison of
-- the pair in compare_report_params (docs/compare.md).
--   INSERT INTO compare_report_params VALUES ('base.json.gz', 'new.json.gz', NULL);
--   SELECT csv_write(OUTDIR, file, query, options) FROM compare_report_files;
-- compare_report_params: the pair (trace ids, labels or paths, as compare_ops takes
-- them) and the phase (prefill, decode, mixed; NULL = all). One row.
CREATE TEMP TABLE IF NOT EXISTS compare_report_params(baseline, variant, phase);

-- compare_report_json: comparison.json, one row: {"metadata": {"baseline": {...},
-- "variant": {...}, "phase": ...}, "operations": [...], "layers": [...]} (the reference
-- tool's shape), each operation with the baseline's example Python stack.
CREATE TEMP VIEW IF NOT EXISTS compare_report_json AS
WITH p AS (SELECT baseline AS b, variant AS v, phase AS ph FROM compare_report_params LIMIT 1),
m AS MATERIALIZED (SELECT * FROM compare_metadata((SELECT b FROM p), (SELECT v FROM p), (SELECT ph FROM p))),
o AS MATERIALIZED (SELECT * FROM compare_ops((SELECT b FROM p), (SELECT v FROM p), (SELECT ph FROM p))),
s AS MATERIALIZED (
    SELECT o.operation, st.stack
    FROM o, compare_stacks((SELECT b FROM p), o.operation, 1, (SELECT ph FROM p)) st
    WHERE o.baseline_count > 0
),
l AS MATERIALIZED (SELECT * FROM compare_layers((SELECT b FROM p), (SELECT v FROM p), (SELECT ph FROM p)))
SELECT json_object(
  'metadata', json_object(
      'baseline', (SELECT json_object('trace', label, 'platform', platform, 'gpu', gpu,
                       'kernel_count', gpu_events, 'total_kernel_ms', total_ms, 'num_layers', layers,
                       'forward_passes', forward_passes,
                       'phase_breakdown_ms', json_object('prefill', prefill_ms, 'decode', decode_ms,
                                                         'mixed', mixed_ms, 'none', no_phase_ms))
                   FROM m WHERE side = 'baseline'),
      'variant', (SELECT json_object('trace', label, 'platform', platform, 'gpu', gpu,
                       'kernel_count', gpu_events, 'total_kernel_ms', total_ms, 'num_layers', layers,
                       'forward_passes', forward_passes,
                       'phase_breakdown_ms', json_object('prefill', prefill_ms, 'decode', decode_ms,
                                                         'mixed', mixed_ms, 'none', no_phase_ms))
                  FROM m WHERE side = 'variant'),
      'phase', coalesce((SELECT ph FROM p), 'all')),
  'operations', (SELECT json_group_array(json_object(
      'operation', operation, 'baseline_count', baseline_count, 'variant_count', variant_count,
      'baseline_avg_us', baseline_avg_us, 'variant_avg_us', variant_avg_us,
      'baseline_total_ms', baseline_total_ms, 'variant_total_ms', variant_total_ms,
      'ratio', ratio, 'avg_ratio', avg_ratio, 'gap_ms', gap_ms, 'status', status,
      'baseline_kernel', baseline_kernel, 'variant_kernel', variant_kernel,
      'baseline_cpu_op', baseline_cpu_op, 'variant_cpu_op', variant_cpu_op,
      'phases', json(json_array(phases)), 'note', note,
      'baseline_stack', (SELECT stack FROM s WHERE s.operation = o.operation)))
      FROM o),
  'layers', (SELECT json_group_array(json_object(
      'layer', layer, 'baseline_kernels', baseline_kernels, 'variant_kernels', variant_kernels,
      'baseline_total_ms', baseline_total_ms, 'variant_total_ms', variant_total_ms,
      'ratio', ratio, 'gap_ms', gap_ms, 'status', status,
      'in_both', json(CASE WHEN in_both THEN 'true' ELSE 'false' END)))
      FROM l)) AS doc
FROM p;  -- no row (and no comparison run) while compare_report_params is empty

-- compare_report_md: summary.md, one row: the largest gaps first, each with its kernels,
-- CPU ops and the baseline's example Python stack (when the trace has stacks); sides
-- named by label, platform and GPU. Table rows by md_row ('|' in a name escaped).
CREATE TEMP VIEW IF NOT EXISTS compare_report_md AS
WITH p AS (SELECT baseline AS b, variant AS v, phase AS ph FROM compare_report_params LIMIT 1),
m AS MATERIALIZED (SELECT * FROM compare_metadata((SELECT b FROM p), (SELECT v FROM p), (SELECT ph FROM p))),
o AS MATERIALIZED (SELECT * FROM compare_ops((SELECT b FROM p), (SELECT v FROM p), (SELECT ph FROM p))),
s AS MATERIALIZED (
    SELECT o.operation, st.stack
    FROM o, compare_stacks((SELECT b FROM p), o.operation, 1, (SELECT ph FROM p)) st
    WHERE o.baseline_count > 0
),
l AS MATERIALIZED (SELECT * FROM compare_layers((SELECT b FROM p), (SELECT v FROM p), (SELECT ph FROM p))),
ph AS MATERIALIZED (SELECT * FROM compare_phases((SELECT b FROM p), (SELECT v FROM p)))
SELECT '# Comparison: ' || (SELECT label || ' (' || coalesce(platform, '?') || ', ' || coalesce(gpu, '?') || ')' FROM m WHERE side = 'baseline')
    || ' vs ' || (SELECT label || ' (' || coalesce(platform, '?') || ', ' || coalesce(gpu, '?') || ')' FROM m WHERE side = 'variant')
    || char(10) || char(10) || 'Phase: ' || coalesce((SELECT ph FROM p), 'all') || '. GPU time: baseline '
    || printf('%.3f', (SELECT total_ms FROM m WHERE side = 'baseline')) || ' ms, variant '
    || printf('%.3f', (SELECT total_ms FROM m WHERE side = 'variant')) || ' ms; layers '
    || (SELECT layers FROM m WHERE side = 'baseline') || ' / ' || (SELECT layers FROM m WHERE side = 'variant')
    || '.' || char(10) || char(10) || '## Phases (all GPU work; found by: markers, shapes or kernel names)' || char(10) || char(10)
    || '| phase | baseline ms | variant ms | gap ms | passes | found by |' || char(10) || '|---|---:|---:|---:|---:|---|' || char(10)
    || (SELECT group_concat(md_row(phase, printf('%.3f', baseline_ms), printf('%.3f', variant_ms), printf('%+.3f', gap_ms),
           printf('%d / %d', baseline_passes, variant_passes),
           coalesce(baseline_found_by, '-') || ' / ' || coalesce(variant_found_by, '-')), char(10)) FROM ph)
    || char(10) || char(10) || '## Operations, largest gap first' || char(10) || char(10)
    || '| operation | baseline ms | variant ms | gap ms | ratio | status |' || char(10)
    || '|---|---:|---:|---:|---:|---|' || char(10)
    || (SELECT group_concat(md_row(operation, printf('%.3f', baseline_total_ms), printf('%.3f', variant_total_ms),
                                   printf('%+.3f', gap_ms), CASE WHEN ratio IS NULL THEN '-' ELSE printf('%.3f', ratio) END,
                                   status), char(10)) FROM o)
    || char(10) || char(10) || '## Details' || char(10)
    || (SELECT group_concat(char(10) || '### ' || operation || ' (' || status || printf(', %+.3f ms', gap_ms) || ')' || char(10) || char(10)
           || '- baseline: ' || baseline_count || ' kernels, mostly ' || char(96) || coalesce(baseline_kernel, '-') || char(96) || ', from ' || char(96) || coalesce(baseline_cpu_op, '-') || char(96) || char(10)
           || '- variant: ' || variant_count || ' kernels, mostly ' || char(96) || coalesce(variant_kernel, '-') || char(96) || ', from ' || char(96) || coalesce(variant_cpu_op, '-') || char(96) || char(10)
           || coalesce('- ' || note || char(10), '')
           || coalesce('- baseline stack:' || char(10) || char(10) || '  ' || char(96, 96, 96) || char(10) || '  '
                       || replace((SELECT stack FROM s WHERE s.operation = o.operation), char(10), char(10) || '  ')
                       || char(10) || '  ' || char(96, 96, 96) || char(10), ''), '') FROM o)
    || char(10) || '## Layers, largest gap first' || char(10) || char(10)
    || '| layer | baseline ms | variant ms | gap ms | status |' || char(10) || '|---:|---:|---:|---:|---|' || char(10)
    || coalesce((SELECT group_concat(md_row(layer, printf('%.4f', baseline_total_ms), printf('%.4f', variant_total_ms),
                                            printf('%+.4f', gap_ms), status), char(10)) FROM l), '')
    || char(10) AS doc
FROM p;

-- compare_report_files: the files, one row each (query and csv_write options). The CSVs
-- are the comparison tables as the sqlite3 shell's .mode csv wrote them (dialect
-- "sqlite"), an empty table an empty file; the JSON and the Markdown end in a newline.
CREATE TEMP VIEW IF NOT EXISTS compare_report_files AS
WITH p AS (SELECT quote(baseline) AS b, quote(variant) AS v, quote(phase) AS ph FROM compare_report_params LIMIT 1),
f(pos, file, fn) AS (
    VALUES (1, 'operations.csv', 'compare_ops'), (2, 'layers.csv', 'compare_layers'),
           (3, 'kernels.csv', 'compare_kernels'), (4, 'fusion.csv', 'compare_fusion'),
           (5, 'metadata.csv', 'compare_metadata')
)
SELECT f.pos, f.file, printf('SELECT * FROM %s(%s, %s, %s)', f.fn, p.b, p.v, p.ph) AS query,
       '{"dialect": "sqlite", "if_empty": "empty"}' AS options
FROM p, f
UNION ALL
SELECT 6, 'phases.csv', printf('SELECT * FROM compare_phases(%s, %s)', p.b, p.v),
       '{"dialect": "sqlite", "if_empty": "empty"}'
FROM p
UNION ALL
SELECT 7, 'comparison.json', 'SELECT doc || char(10) FROM compare_report_json', '{"dialect": "text"}'
UNION ALL
SELECT 8, 'summary.md', 'SELECT doc || char(10) FROM compare_report_md', '{"dialect": "text"}';
