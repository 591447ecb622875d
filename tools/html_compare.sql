-- html_compare.sql — the comparison sections of the HTML page when it is about two
-- traces: examples/html_report.sh BASELINE VARIANT OUT.html opens both, sets
-- temp.hr_trace (the baseline) and temp.hr_pair(b, v), reads this file, then
-- html_report.sql, which prints the rows of temp.hr_compare (in rowid order) after
-- its header and uses temp.hr_title as the page's title. Nothing is printed here.
-- Drawn from compare_ops / compare_layers (docs/compare.md), gpu_timeline, and the
-- trace diff: tree_diff, diff_stats, diff_ops over the pair in diff_params (docs/diff.md).

CREATE TEMP TABLE hr_compare(html TEXT);
INSERT INTO diff_params SELECT b, v FROM temp.hr_pair;

-- the two sides: which trace, its colour in every chart
CREATE TEMP TABLE hr_side AS
SELECT 'baseline' AS side, 0 AS i, p.b AS trace_id, '#4e79a7' AS color FROM temp.hr_pair p
UNION ALL
SELECT 'variant', 1, p.v, '#f28e2b' FROM temp.hr_pair p;

CREATE TEMP TABLE hr_title AS
SELECT 'tracesql comparison: '
       || (SELECT label FROM traces t JOIN hr_side s USING (trace_id) WHERE s.i = 0)
       || ' vs ' || (SELECT label FROM traces t JOIN hr_side s USING (trace_id) WHERE s.i = 1) AS title,
       -- the comparison's tables: numbers on one line, names (class w) wrap
       'table.cmp td { white-space: nowrap; overflow-wrap: normal; } table.cmp th { overflow-wrap: normal; }
table.cmp td.w { white-space: normal; overflow-wrap: anywhere; }
table.cmp td.r { text-align: right; }
' AS css;

-- the data: one query per view, kept as tables so each is computed once
CREATE TEMP TABLE hr_cmp_ops AS
SELECT c.*, row_number() OVER (ORDER BY abs(c.gap_ms) DESC, c.operation) - 1 AS i
FROM temp.hr_pair p, compare_ops(p.b, p.v) c;

CREATE TEMP TABLE hr_cmp_layers AS
SELECT c.*, row_number() OVER (ORDER BY c.layer) - 1 AS i
FROM temp.hr_pair p, compare_layers(p.b, p.v) c;

CREATE TEMP TABLE hr_cmp_breakdown AS
SELECT s.side, s.i AS si, g.type, g.time_ms, g.percent,
       CASE g.type WHEN 'computation_time' THEN '#4e79a7' WHEN 'exposed_comm_time' THEN '#f28e2b'
                   WHEN 'exposed_memcpy_time' THEN '#59a14f' ELSE '#bab0ac' END AS color,
       CASE g.type WHEN 'computation_time' THEN 0 WHEN 'exposed_comm_time' THEN 1
                   WHEN 'exposed_memcpy_time' THEN 2 ELSE 3 END AS seq
FROM hr_side s JOIN gpu_timeline g USING (trace_id)
WHERE g.type IN ('computation_time', 'exposed_comm_time', 'exposed_memcpy_time', 'idle_time');

-- per lowest common ancestor of the trace diff: each side's GPU busy time there (µs),
-- and the call path from the root (as examples/diff_report.sh prints it)
CREATE TEMP TABLE hr_diff_lca AS
WITH l AS (
    SELECT lowest_common_ancestor_id AS lca,
           max(CASE WHEN source = 'trace1' THEN busy_time END) AS b_us,
           max(CASE WHEN source = 'trace2' THEN busy_time END) AS v_us,
           max(lowest_common_ancestor_name) AS name
    FROM diff_stats WHERE lowest_common_ancestor_id IS NOT NULL
      AND NOT identical  -- an identical pair has only the baseline's rows: nothing changed
    GROUP BY lowest_common_ancestor_id
), t AS (
    SELECT t.merged_id, t.parent_id, t.name FROM temp.hr_pair p, tree_diff(p.b, p.v) t
), path(lca, node, p) AS (
    SELECT l.lca, t.parent_id, t.name FROM l JOIN t ON t.merged_id = l.lca
    UNION ALL
    SELECT path.lca, t.parent_id, t.name || ' > ' || path.p FROM path JOIN t ON t.merged_id = path.node
)
SELECT CAST(l.lca AS INTEGER) AS lca, l.name, coalesce(l.b_us, 0) AS b_us, coalesce(l.v_us, 0) AS v_us,
       coalesce(l.v_us, 0) - coalesce(l.b_us, 0) AS delta,
       (SELECT p FROM path WHERE path.lca = l.lca AND path.node IS NULL) AS call_path
FROM l;

-- the ten largest regressions (variant slower) and improvements (variant faster)
CREATE TEMP TABLE hr_diff_top AS
SELECT * FROM (SELECT 'regression' AS kind, * FROM hr_diff_lca WHERE delta > 0 ORDER BY delta DESC, lca LIMIT 10)
UNION ALL
SELECT * FROM (SELECT 'improvement', * FROM hr_diff_lca WHERE delta < 0 ORDER BY delta, lca LIMIT 10);

-- ---------- the sections ----------------------------------------------------------

INSERT INTO hr_compare
SELECT '<h2>The two traces</h2><p class="note">Baseline in blue, variant in orange in every chart of the comparison; '
       || 'the sections after the comparison are about the baseline alone.</p><table class="cmp"><tr><th>side</th><th>label</th>'
       || '<th>GPU</th><th>events</th><th>GPU events</th><th>GPU busy (ms)</th><th>total (ms)</th><th>path</th></tr>';
INSERT INTO hr_compare
SELECT printf('<tr class="side"><td>%s</td><td class="w">%s</td><td class="w">%s</td><td class="r">%d</td><td class="r">%d</td><td class="r">%.3f</td><td class="r">%.3f</td><td class="w">%s</td></tr>',
              s.side, replace(replace(t.label, '&', '&amp;'), '<', '&lt;'),
              replace(coalesce(t.gpu_name, ''), '<', '&lt;'), t.events, t.gpu_events,
              (SELECT time_ms FROM gpu_timeline g WHERE g.trace_id = s.trace_id AND g.type = 'busy_time'),
              (SELECT time_ms FROM gpu_timeline g WHERE g.trace_id = s.trace_id AND g.type = 'total_time'),
              replace(replace(t.path, '&', '&amp;'), '<', '&lt;'))
FROM hr_side s JOIN traces t USING (trace_id) ORDER BY s.i;
INSERT INTO hr_compare SELECT '</table>' FROM temp.hr_pair;

-- the GPU time breakdown of both traces, one stacked bar each, on one ms scale
INSERT INTO hr_compare
SELECT '<h2>GPU time breakdown, both traces</h2><p class="note">gpu_timeline of each trace: computation, exposed '
       || 'communication, exposed memcpy and idle time, on one scale (the longer trace fills the width).</p>'
       || '<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 900 130" width="900" height="130">'
FROM temp.hr_pair;
INSERT INTO hr_compare
SELECT printf('<text x="86" y="%d" text-anchor="end" class="lbl">%s</text>', 30 + si * 44, side)
FROM (SELECT DISTINCT side, si FROM hr_cmp_breakdown) ORDER BY si;
INSERT INTO hr_compare
SELECT printf('<rect x="%.2f" y="%d" width="%.2f" height="34" fill="%s"><title>%s %s: %.3f ms (%.1f%%)</title></rect>',
              90 + before_ms * scale, 8 + si * 44, time_ms * scale, color, side, type, time_ms, percent)
FROM (SELECT b.*, coalesce(sum(time_ms) OVER (PARTITION BY si ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before_ms,
             700.0 / nullif((SELECT max(t) FROM (SELECT sum(time_ms) AS t FROM hr_cmp_breakdown GROUP BY si)), 0) AS scale
      FROM hr_cmp_breakdown b)
WHERE scale IS NOT NULL ORDER BY si, seq;
INSERT INTO hr_compare
SELECT printf('<text x="%.2f" y="%d" class="val">%.3f ms</text>', 94 + total * 700.0 / tmax, 30 + si * 44, total)
FROM (SELECT si, sum(time_ms) AS total, max(sum(time_ms)) OVER () AS tmax FROM hr_cmp_breakdown GROUP BY si)
WHERE tmax > 0 ORDER BY si;
INSERT INTO hr_compare
SELECT printf('<rect x="%d" y="104" width="12" height="12" fill="%s"/><text x="%d" y="114" class="val">%s</text>',
              90 + seq * 200, color, 106 + seq * 200, replace(type, '_time', ''))
FROM (SELECT DISTINCT seq, type, color FROM hr_cmp_breakdown) ORDER BY seq;
INSERT INTO hr_compare SELECT '</svg>' FROM temp.hr_pair;

-- compare_ops: a pair of bars per operation (baseline above, variant below), largest gap first
INSERT INTO hr_compare
SELECT '<h2>GPU time per operation</h2><p class="note">compare_ops: every GPU event of each trace under one operation '
       || 'label (kernel_op), total ms per side, largest |gap| first. Σ of each side is that trace''s GPU time.</p>'
       || printf('<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 900 %d" width="900" height="%d">',
                 count(*) * 34 + 30, count(*) * 34 + 30)
       || '<rect x="300" y="4" width="12" height="12" fill="#4e79a7"/><text x="316" y="14" class="val">baseline</text>'
       || '<rect x="390" y="4" width="12" height="12" fill="#f28e2b"/><text x="406" y="14" class="val">variant</text>'
FROM hr_cmp_ops HAVING count(*) > 0;
INSERT INTO hr_compare
SELECT printf('<g class="pair"><title>%s: baseline %.3f ms (%d), variant %.3f ms (%d), gap %+.3f ms, %s</title>'
              || '<text x="296" y="%d" text-anchor="end" class="lbl">%s</text>'
              || '<rect x="300" y="%d" width="%.1f" height="13" fill="#4e79a7"/><text x="%.1f" y="%d" class="val">%.3f ms</text>'
              || '<rect x="300" y="%d" width="%.1f" height="13" fill="#f28e2b"/><text x="%.1f" y="%d" class="val">%.3f ms</text></g>',
              operation, baseline_total_ms, baseline_count, variant_total_ms, variant_count, gap_ms, status,
              i * 34 + 44, operation,
              i * 34 + 24, 420.0 * baseline_total_ms / vmax, 304 + 420.0 * baseline_total_ms / vmax, i * 34 + 35, baseline_total_ms,
              i * 34 + 38, 420.0 * variant_total_ms / vmax, 304 + 420.0 * variant_total_ms / vmax, i * 34 + 49, variant_total_ms)
FROM (SELECT o.*, (SELECT max(max(baseline_total_ms), max(variant_total_ms)) FROM hr_cmp_ops) AS vmax FROM hr_cmp_ops o)
WHERE vmax > 0 ORDER BY i;
INSERT INTO hr_compare SELECT '</svg>' WHERE EXISTS (SELECT 1 FROM hr_cmp_ops);
INSERT INTO hr_compare
SELECT '<p class="note">No GPU event in either trace.</p>' FROM temp.hr_pair WHERE NOT EXISTS (SELECT 1 FROM hr_cmp_ops);
INSERT INTO hr_compare
SELECT '<table class="cmp compare-ops"><tr><th>operation</th><th>baseline count</th><th>variant count</th>'
       || '<th>baseline ms</th><th>variant ms</th><th>ratio</th><th>gap ms</th><th>status</th>'
       || '<th>baseline top kernel</th><th>variant top kernel</th><th>note</th></tr>'
WHERE EXISTS (SELECT 1 FROM hr_cmp_ops);
-- a kernel name: cut at 60 characters in the cell, the whole name in its tooltip
CREATE TEMP VIEW hr_kernel_cell AS
SELECT name, printf('<td class="w" title="%s">%s</td>', esc,
                    CASE WHEN length(name) > 60 THEN replace(replace(replace(substr(name, 1, 59), '&', '&amp;'), '<', '&lt;'), '>', '&gt;') || '…'
                         ELSE esc END) AS td
FROM (SELECT name, replace(replace(replace(replace(name, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;') AS esc
      FROM (SELECT baseline_kernel AS name FROM hr_cmp_ops UNION SELECT variant_kernel FROM hr_cmp_ops));
INSERT INTO hr_compare
SELECT printf('<tr class="op"><td>%s</td><td class="r">%d</td><td class="r">%d</td><td class="r">%.3f</td><td class="r">%.3f</td><td class="r">%s</td><td class="r">%+.3f</td><td>%s</td>%s%s<td class="w">%s</td></tr>',
              operation, baseline_count, variant_count, baseline_total_ms, variant_total_ms,
              CASE WHEN ratio IS NULL THEN '' ELSE printf('%.3f', ratio) END, gap_ms, status,
              coalesce((SELECT td FROM hr_kernel_cell k WHERE k.name = o.baseline_kernel), '<td class="w"></td>'),
              coalesce((SELECT td FROM hr_kernel_cell k WHERE k.name = o.variant_kernel), '<td class="w"></td>'),
              replace(replace(coalesce(note, ''), '&', '&amp;'), '<', '&lt;'))
FROM hr_cmp_ops o ORDER BY i;
INSERT INTO hr_compare SELECT '</table>' WHERE EXISTS (SELECT 1 FROM hr_cmp_ops);

-- compare_layers: a pair of columns per transformer layer, in layer order
INSERT INTO hr_compare
SELECT '<h2>GPU time per layer</h2><p class="note">compare_layers: GPU time of each transformer layer '
       || '(summed over forward passes), baseline and variant, in layer order.</p>'
       || '<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 900 300" width="900" height="300">'
       || '<rect x="80" y="30" width="780" height="230" fill="#fafafa" stroke="#999"/>'
       || printf('<text x="74" y="34" text-anchor="end" class="tick">%.3f ms</text><text x="74" y="264" text-anchor="end" class="tick">0</text>',
                 max(max(baseline_total_ms), max(variant_total_ms)))
       || '<rect x="80" y="6" width="12" height="12" fill="#4e79a7"/><text x="96" y="16" class="val">baseline</text>'
       || '<rect x="170" y="6" width="12" height="12" fill="#f28e2b"/><text x="186" y="16" class="val">variant</text>'
       || '<text x="470" y="292" text-anchor="middle" class="axis">layer</text>'
FROM hr_cmp_layers HAVING count(*) > 0;
INSERT INTO hr_compare
SELECT printf('<g class="layer"><title>layer %d: baseline %.3f ms (%d kernels), variant %.3f ms (%d kernels), gap %+.3f ms, %s</title>'
              || '<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="#4e79a7"/>'
              || '<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="#f28e2b"/>%s</g>',
              layer, baseline_total_ms, baseline_kernels, variant_total_ms, variant_kernels, gap_ms, status,
              80 + i * w + w * 0.1, 260 - 230.0 * baseline_total_ms / vmax, w * 0.4, 230.0 * baseline_total_ms / vmax,
              80 + i * w + w * 0.5, 260 - 230.0 * variant_total_ms / vmax, w * 0.4, 230.0 * variant_total_ms / vmax,
              CASE WHEN i % ((n + 39) / 40) = 0
                   THEN printf('<text x="%.2f" y="276" text-anchor="middle" class="tick">%d</text>', 80 + (i + 0.5) * w, layer)
                   ELSE '' END)
FROM (SELECT l.*, 780.0 / count(*) OVER () AS w, count(*) OVER () AS n,
             (SELECT max(max(baseline_total_ms), max(variant_total_ms)) FROM hr_cmp_layers) AS vmax
      FROM hr_cmp_layers l)
WHERE vmax > 0 ORDER BY i;
INSERT INTO hr_compare SELECT '</svg>' WHERE EXISTS (SELECT 1 FROM hr_cmp_layers);

-- the trace diff: where in the call tree the GPU time changed
INSERT INTO hr_compare
SELECT '<h2>Trace diff: regressions and improvements</h2><p class="note">tree_diff merges the two call trees; '
       || printf('%d merged nodes, %d in both, %d baseline only, %d variant only; %d lowest common ancestors of differences. ',
                 count(*), sum(t.status = 'both'), sum(t.status = 'baseline'), sum(t.status = 'variant'), sum(t.is_lca))
       || 'diff_stats gives each side''s GPU busy time (µs) under each lowest common ancestor (LCA); '
       || 'the ten largest regressions (red, variant slower) and improvements (green, variant faster):</p>'
FROM temp.hr_pair p, tree_diff(p.b, p.v) t;
INSERT INTO hr_compare
SELECT printf('<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 900 %d" width="900" height="%d">'
              || '<line x1="560" y1="0" x2="560" y2="%d" stroke="#999"/>',
              count(*) * 22 + 8, count(*) * 22 + 8, count(*) * 22 + 8)
FROM hr_diff_top HAVING count(*) > 0;
INSERT INTO hr_compare
SELECT printf('<g class="lca"><title>LCA %d %s: baseline %.3f µs, variant %.3f µs, %+.3f µs</title>'
              || '<text x="296" y="%d" text-anchor="end" class="lbl">%s</text>'
              || '<rect x="%.1f" y="%d" width="%.1f" height="16" fill="%s"/>'
              || '<text x="896" y="%d" text-anchor="end" class="val">%+.3f µs</text></g>',
              lca, nm, b_us, v_us, delta, k * 22 + 17,
              '#' || lca || ' ' || CASE WHEN length(name) > 36 THEN replace(replace(substr(name, 1, 35), '&', '&amp;'), '<', '&lt;') || '…' ELSE nm END,
              CASE WHEN delta > 0 THEN 560 ELSE 560 - 200.0 * -delta / dmax END, k * 22 + 4, 200.0 * abs(delta) / dmax,
              CASE WHEN delta > 0 THEN '#e15759' ELSE '#59a14f' END, k * 22 + 17, delta)
FROM (SELECT d.*, row_number() OVER (ORDER BY kind DESC, abs(delta) DESC, lca) - 1 AS k,
             max(abs(delta)) OVER () AS dmax,
             replace(replace(replace(name, '&', '&amp;'), '<', '&lt;'), '>', '&gt;') AS nm
      FROM hr_diff_top d)
ORDER BY k;
INSERT INTO hr_compare SELECT '</svg>' WHERE EXISTS (SELECT 1 FROM hr_diff_top);
INSERT INTO hr_compare
SELECT CASE WHEN EXISTS (SELECT 1 FROM diff_stats WHERE identical)
            THEN '<p class="note">The pair is identical (diff_stats): the same kernels at the same places, with the same times.</p>'
            ELSE '<p class="note">No GPU time changed under a difference of the call trees.</p>' END
FROM temp.hr_pair WHERE NOT EXISTS (SELECT 1 FROM hr_diff_top);
INSERT INTO hr_compare
SELECT '<table class="cmp diff-top"><tr><th></th><th>LCA</th><th>name</th><th>baseline µs</th><th>variant µs</th>'
       || '<th>delta µs</th><th>call path</th></tr>'
WHERE EXISTS (SELECT 1 FROM hr_diff_top);
INSERT INTO hr_compare
SELECT printf('<tr class="%s"><td>%s</td><td class="r">%d</td><td class="w">%s</td><td class="r">%.3f</td><td class="r">%.3f</td><td class="r">%+.3f</td><td class="w">%s</td></tr>',
              kind, kind, lca, replace(replace(replace(name, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), b_us, v_us, delta,
              replace(replace(replace(coalesce(call_path, ''), '&', '&amp;'), '<', '&lt;'), '>', '&gt;'))
FROM hr_diff_top ORDER BY kind DESC, abs(delta) DESC, lca;
INSERT INTO hr_compare SELECT '</table>' WHERE EXISTS (SELECT 1 FROM hr_diff_top);

-- diff_ops: GPU events by name, counts and total time on both sides
INSERT INTO hr_compare
SELECT '<h3>GPU events that changed most (diff_ops, top 15)</h3><table class="cmp diff-ops"><tr><th>name</th><th>kind</th>'
       || '<th>baseline count</th><th>variant count</th><th>baseline µs</th><th>variant µs</th><th>delta µs</th><th>change</th></tr>'
FROM temp.hr_pair;
INSERT INTO hr_compare
SELECT printf('<tr class="gpu-op"><td class="w" title="%s">%s</td><td>%s</td><td class="r">%d</td><td class="r">%d</td><td class="r">%.3f</td><td class="r">%.3f</td><td class="r">%+.3f</td><td>%s</td></tr>',
              replace(replace(replace(replace(name, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'),
              CASE WHEN length(name) > 60 THEN replace(replace(replace(substr(name, 1, 59), '&', '&amp;'), '<', '&lt;'), '>', '&gt;') || '…'
                   ELSE replace(replace(replace(name, '&', '&amp;'), '<', '&lt;'), '>', '&gt;') END, kind,
              baseline_count, variant_count, baseline_dur_us, variant_dur_us, dur_diff_us, change)
FROM (SELECT * FROM diff_ops WHERE kind <> 'cpu_op' ORDER BY abs(dur_diff_us) DESC, name, kind LIMIT 15);
INSERT INTO hr_compare SELECT '</table>' FROM temp.hr_pair;

INSERT INTO hr_compare
SELECT '<h2 class="baseline">The baseline alone: ' || replace(replace(t.label, '&', '&amp;'), '<', '&lt;')
       || coalesce(' (' || replace(t.gpu_name, '<', '&lt;') || ')', '') || '</h2>'
FROM hr_side s JOIN traces t USING (trace_id) WHERE s.i = 0;
