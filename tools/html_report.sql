-- html_report.sql — one self-contained HTML page about one open trace: SVG charts
-- drawn from tracesql's views, and the key tables. Run by examples/html_report.sh,
-- which opens the trace and sets temp.hr_trace first; prints the page on stdout.
-- No JavaScript, no network: the charts are SVG text built here with printf.
.mode list
.headers off
.nullvalue ''

-- ---------- helpers: the chart data and the renderers ----------------------------

-- the trace this page is about
CREATE TEMP VIEW hr AS SELECT trace_id FROM temp.hr_trace;
-- with two traces, html_compare.sql has already written the comparison sections and
-- the title; with one, both are empty and the page is the single trace's
CREATE TEMP TABLE IF NOT EXISTS hr_compare(html TEXT);
CREATE TEMP TABLE IF NOT EXISTS hr_title(title TEXT, css TEXT);

-- bar charts: one row per bar, in drawing order; rendered by hr_bars_svg
CREATE TEMP TABLE hr_bars(chart TEXT, ord INTEGER, label TEXT, value REAL, note TEXT, color TEXT);

-- a horizontal bar chart, 900 px wide: labels right-aligned at x = 296 (cut at 42
-- characters, the whole text in the tooltip), bars from 300 up to 300 px, the note after
CREATE TEMP VIEW hr_bars_svg AS
WITH b AS (
    SELECT chart, ord, label, value, note, color,
           max(value) OVER (PARTITION BY chart) AS vmax,
           count(*) OVER (PARTITION BY chart) AS n,
           row_number() OVER (PARTITION BY chart ORDER BY ord) - 1 AS i,
           replace(replace(replace(replace(label, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;') AS lab
    FROM hr_bars
)
SELECT chart, -1 AS k,
       printf('<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 900 %d" width="900" height="%d">',
              n * 22 + 8, n * 22 + 8) AS svg
FROM b WHERE i = 0
UNION ALL
SELECT chart, i,
       printf('<g><title>%s: %s</title><text x="296" y="%d" text-anchor="end" class="lbl">%s</text>'
              || '<rect x="300" y="%d" width="%.1f" height="16" fill="%s"/>'
              || '<text x="%.1f" y="%d" class="val">%s</text></g>',
              lab, note, i * 22 + 17,
              CASE WHEN length(label) > 42 THEN
                replace(replace(replace(substr(label, 1, 41), '&', '&amp;'), '<', '&lt;'), '>', '&gt;') || '…'
              ELSE lab END,
              i * 22 + 4, CASE WHEN vmax > 0 THEN 300.0 * value / vmax ELSE 0 END, color,
              304 + CASE WHEN vmax > 0 THEN 300.0 * value / vmax ELSE 0 END, i * 22 + 17, note)
FROM b
UNION ALL
SELECT chart, 1e9, '</svg>' FROM b WHERE i = 0;

-- the GPU time breakdown as one stacked bar (the parts add up to total_time)
CREATE TEMP VIEW hr_breakdown AS
SELECT type, time_ms, percent,
       CASE type WHEN 'computation_time' THEN '#4e79a7' WHEN 'exposed_comm_time' THEN '#f28e2b'
                 WHEN 'exposed_memcpy_time' THEN '#59a14f' ELSE '#bab0ac' END AS color,
       coalesce(sum(percent) OVER (ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before_pct,
       row_number() OVER (ORDER BY seq) - 1 AS i
FROM (SELECT g.type, g.time_ms, g.percent,
             CASE g.type WHEN 'computation_time' THEN 0 WHEN 'exposed_comm_time' THEN 1
                         WHEN 'exposed_memcpy_time' THEN 2 ELSE 3 END AS seq
      FROM gpu_timeline g, hr WHERE g.trace_id = hr.trace_id
        AND g.type IN ('computation_time', 'exposed_comm_time', 'exposed_memcpy_time', 'idle_time'));

-- the roofline: every perf-model instance with a measured rate, on log-log axes
CREATE TEMP TABLE hr_points AS
SELECT p.sheet, p.name, p.params, p.flops_per_byte AS ai, p.tflops_s AS tf, p.gpu,
       p.peak_tflops, p.mem_bw_gbps, p.compute_spec, p.pct_roofline
FROM perf_roofline p, hr
WHERE p.trace_id = hr.trace_id AND p.flops_per_byte > 0 AND p.tflops_s > 0;

-- plot area: x 80..860, y 40..400; decades that hold every point and every roof
CREATE TEMP TABLE hr_axes AS
SELECT xlo, max(xhi, xlo + 1) AS xhi, ylo, max(yhi, ylo + 1) AS yhi, bw
FROM (SELECT floor(log10(min(ai))) AS xlo,
             ceil(log10(max(max(ai), coalesce(max(peak_tflops) * 1000.0 / max(mem_bw_gbps), 0)))) AS xhi,
             floor(log10(min(tf))) AS ylo,
             ceil(log10(max(max(tf), coalesce(max(peak_tflops), 0)))) AS yhi,
             max(mem_bw_gbps) AS bw
      FROM hr_points)
WHERE xlo IS NOT NULL;

CREATE TEMP VIEW hr_sheet_colors AS
SELECT sheet, CASE (row_number() OVER (ORDER BY sheet) - 1) % 8
    WHEN 0 THEN '#4e79a7' WHEN 1 THEN '#f28e2b' WHEN 2 THEN '#e15759' WHEN 3 THEN '#76b7b2'
    WHEN 4 THEN '#59a14f' WHEN 5 THEN '#edc948' WHEN 6 THEN '#b07aa1' ELSE '#9c755f' END AS color
FROM (SELECT DISTINCT sheet FROM hr_points);

CREATE TEMP VIEW hr_roofline_svg AS
WITH
roofs AS (
    -- one roof per compute peak seen: the memory slope up to the ridge, then flat
    SELECT DISTINCT compute_spec, peak_tflops, mem_bw_gbps FROM hr_points
    WHERE peak_tflops > 0 AND mem_bw_gbps > 0
),
pts AS (
    SELECT p.*, c.color,
           80 + (log10(ai) - a.xlo) / (a.xhi - a.xlo) * 780 AS x,
           400 - (log10(tf) - a.ylo) / (a.yhi - a.ylo) * 360 AS y
    FROM hr_points p JOIN hr_sheet_colors c USING (sheet), hr_axes a
),
xt(d) AS (SELECT xlo FROM hr_axes UNION ALL SELECT d + 1 FROM xt, hr_axes WHERE d < xhi),
yt(d) AS (SELECT ylo FROM hr_axes UNION ALL SELECT d + 1 FROM yt, hr_axes WHERE d < yhi)
SELECT 0 AS k, '<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 900 460" width="900" height="460">'
       || '<rect x="80" y="40" width="780" height="360" fill="#fafafa" stroke="#999"/>' AS svg
UNION ALL
SELECT 1, printf('<line x1="%.1f" y1="40" x2="%.1f" y2="400" class="grid"/><text x="%.1f" y="418" text-anchor="middle" class="tick">1e%d</text>',
                 80 + (d - xlo) / (xhi - xlo) * 780, 80 + (d - xlo) / (xhi - xlo) * 780,
                 80 + (d - xlo) / (xhi - xlo) * 780, CAST(d AS INTEGER))
FROM xt, hr_axes
UNION ALL
SELECT 2, printf('<line x1="80" y1="%.1f" x2="860" y2="%.1f" class="grid"/><text x="74" y="%.1f" text-anchor="end" class="tick">1e%d</text>',
                 400 - (d - ylo) / (yhi - ylo) * 360, 400 - (d - ylo) / (yhi - ylo) * 360,
                 404 - (d - ylo) / (yhi - ylo) * 360, CAST(d AS INTEGER))
FROM yt, hr_axes
UNION ALL
SELECT 3, '<text x="470" y="450" text-anchor="middle" class="axis">arithmetic intensity (FLOPs / byte)</text>'
       || '<text x="18" y="220" text-anchor="middle" class="axis" transform="rotate(-90 18 220)">TFLOPS/s</text>'
UNION ALL
-- a roof: from the left edge (or where the slope enters the plot) to the ridge, then flat
SELECT 4, printf('<polyline fill="none" stroke="#333" stroke-width="1.5" points="%.1f,%.1f %.1f,%.1f 860,%.1f"/>'
                 || '<text x="856" y="%.1f" text-anchor="end" class="roof">%s %.1f TFLOPS/s</text>',
                 80 + (max(xlo, ylo - log10(mem_bw_gbps / 1000.0)) - xlo) / (xhi - xlo) * 780,
                 400 - (max(xlo + log10(mem_bw_gbps / 1000.0), ylo) - ylo) / (yhi - ylo) * 360,
                 80 + (log10(peak_tflops * 1000.0 / mem_bw_gbps) - xlo) / (xhi - xlo) * 780,
                 400 - (log10(peak_tflops) - ylo) / (yhi - ylo) * 360,
                 400 - (log10(peak_tflops) - ylo) / (yhi - ylo) * 360,
                 396 - (log10(peak_tflops) - ylo) / (yhi - ylo) * 360,
                 compute_spec, peak_tflops)
FROM roofs, hr_axes
UNION ALL
SELECT 5, printf('<text x="%.1f" y="%.1f" class="roof">memory %.0f GB/s</text>',
                 86 + (max(xlo, ylo - log10(bw / 1000.0)) - xlo) / (xhi - xlo) * 780,
                 392 - (max(xlo + log10(bw / 1000.0), ylo) - ylo) / (yhi - ylo) * 360, bw)
FROM hr_axes WHERE bw > 0
UNION ALL
SELECT 6, printf('<circle cx="%.1f" cy="%.1f" r="4" fill="%s" fill-opacity="0.75"><title>%s %s: %.3g FLOPs/byte, %.3g TFLOPS/s%s</title></circle>',
                 x, y, color,
                 replace(replace(replace(name, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'),
                 replace(replace(replace(coalesce(params, ''), '&', '&amp;'), '<', '&lt;'), '>', '&gt;'),
                 ai, tf, CASE WHEN pct_roofline IS NOT NULL THEN printf(', %.1f%% of roofline', pct_roofline) ELSE '' END)
FROM pts
UNION ALL
-- the legend: five sheets a row, above the plot
SELECT 7, printf('<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d" class="tick">%s</text>',
                 90 + (i % 5) * 156, 2 + (i / 5) * 14, color, 104 + (i % 5) * 156, 11 + (i / 5) * 14, sheet)
FROM (SELECT sheet, color, row_number() OVER (ORDER BY sheet) - 1 AS i FROM hr_sheet_colors)
UNION ALL
SELECT 9, '</svg>';

-- the timeline of one step: the GPU work of the longest ProfilerStep, i.e. the kernels
-- its CPU span launched (gpu_ops' step), from the first one's start to the last one's
-- end; not the GPU-side ProfilerStep annotation, which on compiled and CUDA-graph traces
-- covers 1 to 100 µs of a step that runs for milliseconds. Else the kernels launched
-- inside the longest CPU ProfilerStep, else the first 20 ms of GPU work; one lane per
-- stream
CREATE TEMP TABLE hr_step AS
WITH gpu_step AS (
    SELECT coalesce((SELECT a.name FROM (SELECT e.name, row_number() OVER (ORDER BY e.ts, e.uid) AS n
                                         FROM events e
                                         WHERE e.trace_id = hr.trace_id AND e.kind = 'user_annotation'
                                           AND e.name LIKE 'ProfilerStep%') a
                     WHERE a.n = g.step), 'step ' || g.step)
           || ': the GPU work its CPU span launched' AS name,
           min(g.ts) AS t0, max(g.ts + g.dur) AS t1
    FROM hr, gpu_ops(hr.trace_id) g
    WHERE g.step IS NOT NULL
    GROUP BY g.step
    ORDER BY max(g.ts + g.dur) - min(g.ts) DESC, g.step LIMIT 1
),
cpu_step AS (
    SELECT s.name, min(k.ts) AS t0, max(k.ts + k.dur) AS t1
    FROM (SELECT e.name, e.ts, e.dur FROM events e, hr
          WHERE e.trace_id = hr.trace_id AND e.kind = 'user_annotation' AND e.name LIKE 'ProfilerStep%'
          ORDER BY e.dur DESC, e.uid LIMIT 1) s,
         kernels k JOIN events r ON r.trace_id = k.trace_id AND r.uid = k.tl_runtime_uid, hr
    WHERE k.trace_id = hr.trace_id AND r.ts >= s.ts AND r.ts <= s.ts + s.dur
    GROUP BY s.name HAVING count(*) > 0
),
first_work AS (
    SELECT 'first 20 ms of GPU work' AS name, min(k.ts) AS t0, min(k.ts) + 20000 AS t1
    FROM kernels k, hr WHERE k.trace_id = hr.trace_id HAVING count(*) > 0
)
SELECT * FROM (SELECT * FROM gpu_step UNION ALL SELECT * FROM cpu_step UNION ALL SELECT * FROM first_work) LIMIT 1;

CREATE TEMP TABLE hr_lanes AS
SELECT k.stream, row_number() OVER (ORDER BY k.stream) - 1 AS lane
FROM kernels k, hr, hr_step s
WHERE k.trace_id = hr.trace_id AND k.ts < s.t1 AND k.ts + k.dur > s.t0
GROUP BY k.stream;

CREATE TEMP VIEW hr_timeline_svg AS
WITH n AS (SELECT count(*) AS lanes FROM hr_lanes)
SELECT 0 AS k, printf('<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 900 %d" width="900" height="%d">',
                      lanes * 34 + 50, lanes * 34 + 50) AS svg FROM n WHERE lanes > 0
UNION ALL
SELECT 1, printf('<text x="76" y="%d" text-anchor="end" class="lbl">stream %s</text><line x1="80" y1="%d" x2="860" y2="%d" class="grid"/>',
                 lane * 34 + 26, stream, lane * 34 + 38, lane * 34 + 38)
FROM hr_lanes
UNION ALL
SELECT 2, printf('<rect x="%.2f" y="%d" width="%.2f" height="24" fill="%s"><title>%s: %.3f µs</title></rect>',
                 80 + max(k.ts - s.t0, 0) / (s.t1 - s.t0) * 780, l.lane * 34 + 12,
                 max((min(k.ts + k.dur, s.t1) - max(k.ts, s.t0)) / (s.t1 - s.t0) * 780, 0.6),
                 CASE WHEN k.is_comm THEN '#f28e2b' WHEN k.kind = 'gpu_memcpy' THEN '#59a14f'
                      WHEN k.kind = 'gpu_memset' THEN '#bab0ac' ELSE '#4e79a7' END,
                 replace(replace(replace(k.name, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), k.dur)
FROM kernels k JOIN hr_lanes l ON l.stream IS k.stream, hr, hr_step s
WHERE k.trace_id = hr.trace_id AND k.ts < s.t1 AND k.ts + k.dur > s.t0
UNION ALL
SELECT 3, printf('<text x="80" y="%d" class="tick">0</text><text x="860" y="%d" text-anchor="end" class="tick">%.3f ms</text>',
                 lanes * 34 + 28, lanes * 34 + 28, (s.t1 - s.t0) / 1000.0)
FROM n, hr_step s WHERE lanes > 0
UNION ALL
SELECT 9, '</svg>' FROM n WHERE lanes > 0;

-- ---------- the chart data ----------------------------------------------------

INSERT INTO hr_bars
SELECT 'ops', row_number() OVER (ORDER BY total_direct_kernel_time_ms DESC, name), name,
       total_direct_kernel_time_ms, printf('%.3f ms (%.1f%%), %d call%s', total_direct_kernel_time_ms, percentage, count,
              CASE WHEN count = 1 THEN '' ELSE 's' END),
       '#4e79a7'
FROM ops_summary o, hr WHERE o.trace_id = hr.trace_id
ORDER BY total_direct_kernel_time_ms DESC, name LIMIT 12;

INSERT INTO hr_bars
SELECT 'kernels', row_number() OVER (ORDER BY total_us DESC, kernel_name), kernel_name, total_us / 1000.0,
       printf('%.3f ms (%.1f%% of kernel time), %d launch%s', total_us / 1000.0, pct, n,
              CASE WHEN n = 1 THEN '' ELSE 'es' END), '#e15759'
FROM (SELECT kernel_name, sum(dur_sum_us) AS total_us, sum(pct_of_kernels_time) AS pct, sum(count) AS n
      FROM kernel_summary k, hr WHERE k.trace_id = hr.trace_id GROUP BY kernel_name)
ORDER BY total_us DESC, kernel_name LIMIT 12;

INSERT INTO hr_bars
SELECT 'coll', row_number() OVER (ORDER BY busbw_gibs_mean DESC), 
       printf('%s %s, %.2f MiB ×%d', collective_name, dtype, coalesce(in_size_mb, 0), count),
       busbw_gibs_mean, printf('%.2f GiB/s bus bandwidth (mean of %d)', busbw_gibs_mean, count), '#f28e2b'
FROM coll_analysis_summary c, hr WHERE c.trace_id = hr.trace_id AND busbw_gibs_mean > 0
ORDER BY busbw_gibs_mean DESC LIMIT 16;

-- HTA's idle time per stream and the critical path of the first step (docs/hta.md);
-- the trace's own rank, the whole trace when it has no ProfilerStep
CREATE TEMP TABLE hr_idle AS
SELECT stream, idle_category AS cat, idle_time,
       CASE idle_category WHEN 'host_wait' THEN 0 WHEN 'kernel_wait' THEN 1 ELSE 2 END AS i
FROM hta_idle_time_breakdown((SELECT trace_id FROM hr)) WHERE idle_time > 0;
CREATE TEMP TABLE hr_idle_rows AS
SELECT stream, row_number() OVER (ORDER BY stream) - 1 AS r, sum(idle_time) AS total FROM hr_idle GROUP BY stream;
CREATE TEMP TABLE hr_cp AS
SELECT * FROM hta_critical_path_edges((SELECT trace_id FROM hr),
    CASE WHEN EXISTS (SELECT 1 FROM hta_profiler_steps((SELECT trace_id FROM hr))) THEN 'ProfilerStep' ELSE '' END,
    0, (SELECT coalesce(rank, 0) FROM traces WHERE trace_id = (SELECT trace_id FROM hr)));
CREATE TEMP TABLE hr_cp_bound AS
SELECT bound_by, sum(duration) AS us, row_number() OVER (ORDER BY sum(duration) DESC, bound_by) - 1 AS i
FROM hr_cp WHERE bound_by <> '' GROUP BY bound_by HAVING sum(duration) > 0;

-- ---------- the page ------------------------------------------------------------

SELECT '<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>' || replace(replace(coalesce((SELECT title FROM hr_title), 'tracesql report: ' || t.label), '&', '&amp;'), '<', '&lt;') || '</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px auto; max-width: 960px; color: #222; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 32px; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 12px; margin: 8px 0; }
td, th { border: 1px solid #ddd; padding: 2px 6px; text-align: left; max-width: 420px; overflow-wrap: anywhere; }
th { background: #f2f2f2; }
svg.chart { display: block; margin: 8px 0; }
.lbl { font: 11px monospace; fill: #222; } .val { font: 11px sans-serif; fill: #444; }
.tick { font: 11px sans-serif; fill: #555; } .axis { font: 12px sans-serif; fill: #222; }
.roof { font: 11px sans-serif; fill: #333; } .grid { stroke: #e3e3e3; stroke-width: 1; }
.note { color: #666; font-size: 12px; }
' || coalesce((SELECT css FROM hr_title), '') || '</style></head><body>
<h1>' || replace(replace(coalesce((SELECT title FROM hr_title), 'tracesql report: ' || t.label), '&', '&amp;'), '<', '&lt;') || '</h1>
<p class="note">' || coalesce((SELECT 'baseline: ' FROM hr_title), '') || replace(replace(t.path, '&', '&amp;'), '<', '&lt;') || ' — ' || t.events || ' events, '
       || t.gpu_events || ' GPU events' || coalesce(', ' || replace(t.gpu_name, '<', '&lt;'), '')
       || '. Written by ' || tracesql_version() || '; every chart is drawn from the views named under it.</p>'
FROM traces t, hr WHERE t.trace_id = hr.trace_id;

SELECT html FROM hr_compare ORDER BY rowid;

SELECT '<h2>GPU time breakdown</h2>';
SELECT '<p class="note">No GPU activity in this trace.</p>'
WHERE NOT EXISTS (SELECT 1 FROM hr_breakdown WHERE time_ms > 0);
SELECT '<p class="note">gpu_timeline: computation, exposed communication, exposed memcpy and idle time add up to the total ('
       || printf('%.3f', (SELECT time_ms FROM gpu_timeline WHERE trace_id = (SELECT trace_id FROM hr) AND type = 'total_time'))
       || ' ms).</p><svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 900 100" width="900" height="100">'
WHERE EXISTS (SELECT 1 FROM hr_breakdown WHERE time_ms > 0);
SELECT printf('<rect x="%.2f" y="8" width="%.2f" height="34" fill="%s"><title>%s: %.3f ms (%.1f%%)</title></rect>'
              || '<rect x="%d" y="60" width="12" height="12" fill="%s"/><text x="%d" y="70" class="val">%s %.3f ms (%.1f%%)</text>',
              20 + before_pct * 8.6, percent * 8.6, color, type, time_ms, percent,
              20 + i * 220, color, 36 + i * 220, replace(type, '_time', ''), time_ms, percent)
FROM hr_breakdown WHERE EXISTS (SELECT 1 FROM hr_breakdown WHERE time_ms > 0) ORDER BY i;
SELECT '</svg>' WHERE EXISTS (SELECT 1 FROM hr_breakdown WHERE time_ms > 0);

SELECT '<h2>Top ops by GPU time</h2><p class="note">ops_summary: direct kernel time of each op name (TraceLens''s leaf-op rule).</p>';
SELECT svg FROM hr_bars_svg WHERE chart = 'ops' ORDER BY k;
SELECT '<p class="note">No op launched GPU work.</p>' WHERE NOT EXISTS (SELECT 1 FROM hr_bars WHERE chart = 'ops');

SELECT '<h2>Top kernels by GPU time</h2><p class="note">kernel_summary, summed by kernel name.</p>';
SELECT svg FROM hr_bars_svg WHERE chart = 'kernels' ORDER BY k;
SELECT '<p class="note">No kernels.</p>' WHERE NOT EXISTS (SELECT 1 FROM hr_bars WHERE chart = 'kernels');

SELECT '<h2>Roofline</h2><p class="note">perf_roofline: each op instance with a perf model, at its arithmetic intensity and achieved TFLOPS/s, under the roofs of '
       || coalesce((SELECT group_concat(DISTINCT gpu) FROM hr_points), 'an unknown GPU (no roofs: see gpu_specs)')
       || '. Points far below their roof are the shapes to look at.</p>';
SELECT svg FROM hr_roofline_svg WHERE EXISTS (SELECT 1 FROM hr_points) ORDER BY k;
SELECT '<p class="note">No op instance with a perf model and a measured rate.</p>' WHERE NOT EXISTS (SELECT 1 FROM hr_points);

SELECT '<h2>Collective bandwidth</h2><p class="note">coll_analysis_summary: mean bus bandwidth per collective, data type and size.</p>'
WHERE EXISTS (SELECT 1 FROM hr_bars WHERE chart = 'coll');
SELECT svg FROM hr_bars_svg WHERE chart = 'coll' ORDER BY k;

SELECT '<h2>Timeline of one step: ' || replace(replace(name, '&', '&amp;'), '<', '&lt;') || '</h2>'
       || '<p class="note">kernels: GPU work per stream (blue compute, orange communication, green memcpy, grey memset).</p>'
FROM hr_step;
SELECT svg FROM hr_timeline_svg ORDER BY k;

SELECT '<h2>GPU idle time by stream</h2><p class="note">hta_idle_time_breakdown (HTA''s rule): the gaps between '
       || 'consecutive kernels of a stream, as host_wait (the kernel was launched after the previous one ended), '
       || 'kernel_wait (a shorter gap than 30 µs) and other.</p>';
SELECT '<p class="note">No idle time between kernels.</p>' WHERE NOT EXISTS (SELECT 1 FROM hr_idle);
SELECT printf('<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 900 %d" width="900" height="%d">',
              40 + 24 * count(*), 40 + 24 * count(*))
FROM hr_idle_rows HAVING count(*) > 0;
SELECT printf('<text x="0" y="%d" class="lbl">stream %d</text><text x="%.2f" y="%d" class="val">%.1f µs</text>',
              20 + 24 * r, stream, 110 + 600.0 * total / (SELECT max(total) FROM hr_idle_rows) + 6, 20 + 24 * r, total)
FROM hr_idle_rows ORDER BY r;
SELECT printf('<rect x="%.2f" y="%d" width="%.2f" height="16" fill="%s"><title>stream %d %s: %.1f µs</title></rect>',
              110 + 600.0 * coalesce((SELECT sum(b.idle_time) FROM hr_idle b WHERE b.stream = a.stream AND b.i < a.i), 0)
                    / (SELECT max(total) FROM hr_idle_rows),
              24 * r + 8, 600.0 * idle_time / (SELECT max(total) FROM hr_idle_rows),
              CASE i WHEN 0 THEN '#d9822b' WHEN 1 THEN '#4c78a8' ELSE '#9e9e9e' END, a.stream, cat, idle_time)
FROM hr_idle a JOIN hr_idle_rows USING (stream) ORDER BY r, i;
SELECT printf('<rect x="%d" y="%d" width="12" height="12" fill="%s"/><text x="%d" y="%d" class="val">%s</text>',
              110 + k * 160, 16 + 24 * (SELECT count(*) FROM hr_idle_rows), c, 126 + k * 160,
              26 + 24 * (SELECT count(*) FROM hr_idle_rows), n)
FROM (SELECT 0 AS k, '#d9822b' AS c, 'host_wait' AS n UNION ALL SELECT 1, '#4c78a8', 'kernel_wait'
      UNION ALL SELECT 2, '#9e9e9e', 'other')
WHERE EXISTS (SELECT 1 FROM hr_idle) ORDER BY k;
SELECT '</svg>' WHERE EXISTS (SELECT 1 FROM hr_idle);

SELECT '<h2>Critical path</h2><p class="note">hta_critical_path_edges (HTA''s critical path analysis) of '
       || CASE WHEN EXISTS (SELECT 1 FROM hta_profiler_steps((SELECT trace_id FROM hr))) THEN 'the first profiler step'
               ELSE 'the whole trace' END
       || ': the chain of CPU ops, launches and kernels that sets its length, '
       || printf('%.1f µs over %d edges', coalesce((SELECT sum(duration) FROM hr_cp), 0), (SELECT count(*) FROM hr_cp))
       || ', split by what bounds each part.</p>';
SELECT '<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 900 '
       || (60 + 20 * ((SELECT count(*) FROM hr_cp_bound) / 3 + 1)) || '" width="900" height="'
       || (60 + 20 * ((SELECT count(*) FROM hr_cp_bound) / 3 + 1)) || '">'
WHERE EXISTS (SELECT 1 FROM hr_cp_bound);
SELECT printf('<rect x="%.2f" y="8" width="%.2f" height="34" fill="%s"><title>%s: %.1f µs (%.1f%%)</title></rect>'
              || '<rect x="%d" y="%d" width="12" height="12" fill="%s"/><text x="%d" y="%d" class="val">%s %.1f µs (%.1f%%)</text>',
              20 + 860.0 * coalesce((SELECT sum(b.us) FROM hr_cp_bound b WHERE b.i < a.i), 0) / t.total,
              860.0 * us / t.total, c.color, bound_by, us, 100.0 * us / t.total,
              20 + (i % 3) * 290, 60 + 20 * (i / 3), c.color, 36 + (i % 3) * 290, 70 + 20 * (i / 3), bound_by, us,
              100.0 * us / t.total)
FROM hr_cp_bound a, (SELECT sum(us) AS total FROM hr_cp_bound) t,
     (SELECT 'cpu_bound' AS b, '#4c78a8' AS color UNION ALL SELECT 'gpu_compute_bound', '#54a24b'
      UNION ALL SELECT 'gpu_communication_bound', '#f58518' UNION ALL SELECT 'gpu_kernel_launch_overhead', '#e45756'
      UNION ALL SELECT 'gpu_kernel_kernel_overhead', '#b279a2' UNION ALL SELECT 'data_loading', '#9d755d') c
WHERE c.b = a.bound_by ORDER BY i;
SELECT '</svg><h3>Events with the most time on the critical path (by name)</h3><table>' WHERE EXISTS (SELECT 1 FROM hr_cp_bound);
.headers on
.mode html
SELECT s_name AS event, s_cat AS cat, bound_by, count(DISTINCT event_idx) AS events, count(*) AS edges,
       printf('%.1f', sum(duration)) AS us_on_path
FROM hr_cp WHERE event_idx IS NOT NULL
GROUP BY s_name, s_cat, bound_by ORDER BY sum(duration) DESC, min(path_pos) LIMIT 10;
.headers off
.mode list
SELECT '</table>' WHERE EXISTS (SELECT 1 FROM hr_cp_bound);
SELECT '<p class="note">No critical path: the window holds no CPU op.</p>' WHERE NOT EXISTS (SELECT 1 FROM hr_cp_bound);

SELECT '<h2>Tables</h2><h3>gpu_timeline</h3><table>';
.headers on
.mode html
SELECT type, printf('%.3f', time_ms) AS time_ms, printf('%.2f', percent) AS percent
FROM gpu_timeline WHERE trace_id = (SELECT trace_id FROM hr);
.headers off
.mode list
-- beside TraceLens's categories (by op name: 'other' holds attention ops such as
-- aten::_flash_attention_forward, and a compiled region is one op), what kernel_op
-- makes of the op's kernels: its classes by share of the op's kernel time
CREATE TEMP TABLE hr_kernel_ops AS
SELECT parent_op, kernel_op(kernel_name, parent_op) AS op, sum(dur_sum_us) AS us
FROM kernel_summary WHERE trace_id = (SELECT trace_id FROM hr) AND parent_op IS NOT NULL
GROUP BY parent_op, op;
SELECT '</table><h3>ops_summary (top 15)</h3>'
       || '<p class="note">categories: TraceLens''s, by op name (GEMM, CONV, SDPA, elementwise, reduce, ...; '
       || '''other'' for the rest, which holds attention ops such as aten::_flash_attention_forward and a whole '
       || 'torch.compile region, see docs/report.md); kernel_op: tracesql''s classes of the op''s kernels, by '
       || 'share of its kernel time (docs/compare.md).</p><table>';
.headers on
.mode html
SELECT name, count, printf('%.3f', total_direct_kernel_time_ms) AS direct_ms,
       printf('%.2f', percentage) AS percent, categories,
       (SELECT group_concat(op || ' ' || printf('%.0f%%', pct), ', ')
        FROM (SELECT k.op, k.us, 100.0 * k.us / sum(k.us) OVER () AS pct FROM hr_kernel_ops k
              WHERE k.parent_op = o.name ORDER BY k.us DESC LIMIT 3)) AS kernel_op
FROM ops_summary o WHERE trace_id = (SELECT trace_id FROM hr)
ORDER BY total_direct_kernel_time_ms DESC, name LIMIT 15;
.headers off
.mode list
SELECT '</table><h3>kernel_summary (top 15)</h3><table>';
.headers on
.mode html
SELECT kernel_name, parent_op, stream, count, printf('%.3f', dur_sum_us) AS total_us,
       printf('%.2f', pct_of_kernels_time) AS pct_of_kernels
FROM kernel_summary WHERE trace_id = (SELECT trace_id FROM hr)
ORDER BY dur_sum_us DESC, kernel_name LIMIT 15;
.headers off
.mode list
SELECT '</table><h3>unified_perf_summary (top 15)</h3><table>';
.headers on
.mode html
SELECT name, op_category, operation_count, printf('%.3f', kernel_time_us_sum) AS kernel_us,
       printf('%.2f', tflops_s_mean) AS tflops_s, printf('%.3f', tb_s_mean) AS tb_s, perf_params
FROM unified_perf_summary WHERE trace_id = (SELECT trace_id FROM hr)
ORDER BY kernel_time_us_sum DESC, name LIMIT 15;
.headers off
.mode list
SELECT '</table>';
SELECT '<h3>coll_analysis_summary</h3><table>' WHERE EXISTS (SELECT 1 FROM coll_analysis_summary WHERE trace_id = (SELECT trace_id FROM hr));
.headers on
.mode html
SELECT collective_name, dtype, group_size, count, printf('%.3f', in_size_mb) AS in_size_mb,
       printf('%.3f', dur_mean_us) AS dur_mean_us, printf('%.3f', busbw_gibs_mean) AS busbw_gibs
FROM coll_analysis_summary WHERE trace_id = (SELECT trace_id FROM hr) ORDER BY dur_sum_us DESC LIMIT 20;
.headers off
.mode list
SELECT '</table>' WHERE EXISTS (SELECT 1 FROM coll_analysis_summary WHERE trace_id = (SELECT trace_id FROM hr));
SELECT '</body></html>';
