-- module: report.diff_summary_md
-- requires: config.diff_params, diff.diff_stats

-- diff_summary_md: the Markdown summary tools/tracesql-diff-report prints for the pair
-- of diff_params (trace ids), one line per row in (section, pos) order:
--   SELECT line FROM diff_summary_md ORDER BY section, pos
-- Each side named by its label, GPU and path (two runs of one model share a label);
-- the merged tree's counts; then the largest regressions and improvements at the lowest
-- common ancestors of the differences, each side's busy time there (µs) and its call
-- path. GFM tables (md_row); a list with no rows is left out, heading included.
CREATE TEMP VIEW IF NOT EXISTS diff_summary_md AS
WITH p AS (SELECT baseline AS b, variant AS v FROM diff_params LIMIT 1),
l AS (
    SELECT lowest_common_ancestor_id AS lca,
           max(CASE WHEN source = 'trace1' THEN busy_time END) AS b_us,
           max(CASE WHEN source = 'trace2' THEN busy_time END) AS v_us,
           max(lowest_common_ancestor_name) AS name
    FROM diff_stats, p
    WHERE baseline_id = p.b AND variant_id = p.v AND lowest_common_ancestor_id IS NOT NULL
    GROUP BY lowest_common_ancestor_id
), t AS MATERIALIZED (
    SELECT merged_id, parent_id, name, status, is_lca
    FROM p, tree_diff(p.b, p.v)
), path(lca, node, p) AS (
    SELECT l.lca, t.parent_id, t.name FROM l JOIN t ON t.merged_id = l.lca
    UNION ALL
    SELECT path.lca, t.parent_id, t.name || ' > ' || path.p FROM path JOIN t ON t.merged_id = path.node
), d AS (
    SELECT l.lca, l.name, coalesce(l.b_us, 0) AS b_us, coalesce(l.v_us, 0) AS v_us,
           coalesce(l.v_us, 0) - coalesce(l.b_us, 0) AS delta,
           (SELECT p FROM path WHERE path.lca = l.lca AND path.node IS NULL) AS call_path
    FROM l
), ranked AS (
    -- section 1: regressions (largest delta first), 2: improvements (most negative first)
    SELECT 1 AS section, row_number() OVER (ORDER BY delta DESC, lca) AS pos, * FROM d WHERE delta > 0
    UNION ALL
    SELECT 2, row_number() OVER (ORDER BY delta, lca), * FROM d WHERE delta < 0
), sec(section, title) AS (
    VALUES (1, '## Top 10 regressions (variant slower)'), (2, '## Top 10 improvements (variant faster)')
), head(k, line) AS (
    -- a section's heading lines (-3: its title), above its first row
    VALUES (-4, ''), (-3, NULL), (-2, ''),
           (-1, md_row('LCA', 'name', 'baseline (µs)', 'variant (µs)', 'delta (µs)', 'call path')),
           (0, '|---:|---|---:|---:|---:|---|')
), side(k, who, id) AS (
    SELECT 1, 'baseline (trace1)', b FROM p UNION ALL SELECT 2, 'variant (trace2)', v FROM p
), body(section, pos, line) AS (
    SELECT 0, 0, '# Trace diff'
    UNION ALL SELECT 0, 1, ''
    UNION ALL
    SELECT 0, 1 + s.k, '- ' || s.who || ': ' || tr.label || ', ' || coalesce(tr.gpu_name, 'GPU unknown') || ', '
                       || tr.path || ' (' || tr.events || ' events)'
    FROM side s JOIN traces tr ON tr.trace_id = s.id
    UNION ALL
    SELECT 0, 4, '- merged tree: ' || count(*) || ' nodes, ' || sum(status = 'both') || ' in both, '
                 || sum(status = 'baseline') || ' baseline only, ' || sum(status = 'variant') || ' variant only; '
                 || sum(is_lca) || ' lowest common ancestors of differences'
    FROM t
    UNION ALL
    SELECT r.section, h.k, coalesce(h.line, sec.title)
    FROM ranked r JOIN sec USING (section), head h WHERE r.pos = 1
    UNION ALL
    SELECT section, pos, md_row(lca, name, printf('%.3f', b_us), printf('%.3f', v_us), printf('%+.3f', delta),
                                call_path)
    FROM ranked WHERE pos <= 10
)
SELECT section, pos, line FROM body;
