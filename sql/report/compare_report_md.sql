-- module: report.compare_report_md
-- requires: report._compare_report_layers, report._compare_report_metadata,
-- requires: report._compare_report_ops, report._compare_report_pair, report._compare_report_stacks

-- compare_report_md: summary.md, one row: the largest gaps first, each with its kernels,
-- CPU ops and the baseline's example Python stack (when the trace has stacks); sides
-- named by label, platform and GPU. Table rows by md_row ('|' in a name escaped).
CREATE TEMP VIEW IF NOT EXISTS compare_report_md AS
WITH p AS (SELECT * FROM _compare_report_pair),
m AS (SELECT * FROM _compare_report_metadata),
o AS (SELECT * FROM _compare_report_ops),
s AS (SELECT * FROM _compare_report_stacks),
l AS (SELECT * FROM _compare_report_layers),
ph AS (SELECT * FROM compare_phases((SELECT b FROM p), (SELECT v FROM p)))
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
