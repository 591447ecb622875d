#!/usr/bin/env bash
# diff_report.sh — TraceLens's TraceDiff report of two traces, written by tracesql.
#
#   examples/diff_report.sh BASELINE VARIANT OUTDIR
#       writes what TraceLens's TraceDiff writes: diff_stats.csv,
#       diff_stats_unique_args_summary.csv, merged_tree_output.txt, cpu_op_map.json,
#       cpu_op_map_trace1.json, cpu_op_map_trace2.json (baseline = trace1), and
#       diff_stats_names_summary.csv (per-op totals; see docs/diff.md)
#   examples/diff_report.sh BASELINE VARIANT
#       a Markdown summary on stdout: the largest regressions and improvements at the
#       points where the call trees differ, with their call path
#
# Environment: TSQL_EXT (the extension; default build/tracesql of this project),
# SQLITE3 (the sqlite3 shell; default sqlite3).
set -euo pipefail

usage() {
    sed -n '3,13p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

[ $# -ge 2 ] && [ $# -le 3 ] || usage
case ${1:-} in -h|--help) usage ;; esac
baseline=$1
variant=$2
outdir=${3:-}

here=$(cd "$(dirname "$0")" && pwd)
ext=${TSQL_EXT:-$here/../build/tracesql}
sqlite=${SQLITE3:-sqlite3}
if [ ! -e "$ext" ] && [ ! -e "$ext.so" ] && [ ! -e "$ext.dylib" ] && [ ! -e "$ext.dll" ]; then
    echo "diff_report.sh: extension $ext not found (run make, or set TSQL_EXT)" >&2
    exit 2
fi
for f in "$baseline" "$variant"; do
    if [ ! -r "$f" ]; then
        echo "diff_report.sh: $f: no such file or not readable" >&2
        exit 2
    fi
done
if [ -n "$outdir" ]; then
    mkdir -p "$outdir"
    outdir=$(cd "$outdir" && pwd)
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/diff_report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# SQL string literal / dot-command argument
sq() { printf "'%s'" "${1//\'/\'\'}"; }
dq() { local s=${1//\\/\\\\}; printf '"%s"' "${s//\"/\\\"}"; }

{
    echo ".bail on"
    echo "PRAGMA temp_store = MEMORY;"
    echo ".load $(dq "$ext")"
    echo ".headers off"
    echo ".mode list"
    echo ".nullvalue ''"
    echo "CREATE TEMP TABLE _dr AS SELECT trace_open($(sq "$baseline")) AS b, trace_open($(sq "$variant")) AS v;"
    echo "INSERT INTO diff_params SELECT b, v FROM _dr;"
} > "$tmp/run.sql"

if [ -z "$outdir" ]; then
    # ---- Markdown summary ----
    cat >> "$tmp/run.sql" <<'EOF'
-- per lowest common ancestor: each side's busy time there (µs), and its call path
CREATE TEMP TABLE _dr_lca AS
WITH l AS (
    SELECT lowest_common_ancestor_id AS lca,
           max(CASE WHEN source = 'trace1' THEN busy_time END) AS b_us,
           max(CASE WHEN source = 'trace2' THEN busy_time END) AS v_us,
           max(lowest_common_ancestor_name) AS name
    FROM diff_stats WHERE lowest_common_ancestor_id IS NOT NULL
    GROUP BY lowest_common_ancestor_id
), t AS (
    SELECT merged_id, parent_id, name FROM tree_diff((SELECT b FROM _dr), (SELECT v FROM _dr))
), path(lca, node, p) AS (
    SELECT l.lca, t.parent_id, t.name FROM l JOIN t ON t.merged_id = l.lca
    UNION ALL
    SELECT path.lca, t.parent_id, t.name || ' > ' || path.p FROM path JOIN t ON t.merged_id = path.node
)
SELECT l.lca, l.name, coalesce(l.b_us, 0) AS b_us, coalesce(l.v_us, 0) AS v_us,
       coalesce(l.v_us, 0) - coalesce(l.b_us, 0) AS delta,
       (SELECT p FROM path WHERE path.lca = l.lca AND path.node IS NULL) AS call_path
FROM l;
.print "# Trace diff"
.print ""
SELECT '- baseline (trace1): ' || label || ' (' || events || ' events)' FROM traces WHERE trace_id = (SELECT b FROM _dr);
SELECT '- variant (trace2): ' || label || ' (' || events || ' events)' FROM traces WHERE trace_id = (SELECT v FROM _dr);
SELECT '- merged tree: ' || count(*) || ' nodes, ' || sum(status = 'both') || ' in both, '
       || sum(status = 'baseline') || ' baseline only, ' || sum(status = 'variant') || ' variant only; '
       || sum(is_lca) || ' lowest common ancestors of differences'
FROM tree_diff((SELECT b FROM _dr), (SELECT v FROM _dr));
.print ""
.print "## Top 10 regressions (variant slower)"
.print ""
.mode markdown
.headers on
SELECT lca AS "LCA", name, printf('%.3f', b_us) AS "baseline (µs)", printf('%.3f', v_us) AS "variant (µs)",
       printf('%+.3f', delta) AS "delta (µs)", call_path AS "call path"
FROM _dr_lca WHERE delta > 0 ORDER BY delta DESC, lca LIMIT 10;
.headers off
.mode list
.print ""
.print "## Top 10 improvements (variant faster)"
.print ""
.mode markdown
.headers on
SELECT lca AS "LCA", name, printf('%.3f', b_us) AS "baseline (µs)", printf('%.3f', v_us) AS "variant (µs)",
       printf('%+.3f', delta) AS "delta (µs)", call_path AS "call path"
FROM _dr_lca WHERE delta < 0 ORDER BY delta, lca LIMIT 10;
EOF
    "$sqlite" -batch :memory: < "$tmp/run.sql"
    exit 0
fi

# csv_sql VIEW FILE COLUMN...: the SQL that writes the view's rows as FILE, in the
# view's order, cells as Python's csv module writes them (REAL through py_float, NULL
# empty, quotes around a cell with , " CR or LF). Columns named "-source" are left out
# when the pair is identical (TraceLens then drops that column).
csv_sql() {
    local view=$1 file=$2
    shift 2
    local head="" cells="" c name
    for c in "$@"; do
        name=${c#-}
        if [ "$c" != "$name" ] && [ "$identical" = 1 ]; then continue; fi
        local x="\"${name//\"/\"\"}\""
        local v="(CASE typeof($x) WHEN 'null' THEN '' WHEN 'real' THEN py_float($x) ELSE CAST($x AS TEXT) END)"
        local cell="(CASE WHEN instr($v, ',') OR instr($v, '\"') OR instr($v, char(10)) OR instr($v, char(13)) THEN '\"' || replace($v, '\"', '\"\"') || '\"' ELSE $v END)"
        head=${head:+$head,}$name
        if [ -n "$cells" ]; then cells="$cells || ',' || "; fi
        cells=$cells$cell
    done
    echo "CREATE TEMP TABLE \"_dr_$view\" AS SELECT * FROM $view;"
    echo ".output $(dq "$file")"
    echo "SELECT $(sq "$head") WHERE EXISTS (SELECT 1 FROM \"_dr_$view\");"
    echo "SELECT $cells FROM \"_dr_$view\" ORDER BY rowid;"
    echo ".output stdout"
}

# whether the two traces give identical diff_stats rows (one query before the rest)
identical=$("$sqlite" -batch :memory: < <(cat "$tmp/run.sql"; echo "SELECT coalesce(max(identical), 0) FROM tree_diff_stats((SELECT b FROM _dr), (SELECT v FROM _dr));"))

{
    csv_sql diff_stats "$outdir/diff_stats.csv" name cpu_op_name cpu_op_uid -source "Input Dims" \
        "Input Strides" "Input type" "Concrete Inputs" kernel_time busy_time \
        lowest_common_ancestor_name lowest_common_ancestor_id gpu_op_uid nn_module_stack nn_module_parent
    csv_sql diff_stats_unique_args_summary "$outdir/diff_stats_unique_args_summary.csv" name \
        operation_count cpu_op_name cpu_op_uid -source "Input Dims" "Input Strides" "Input type" \
        "Concrete Inputs" busy_time lowest_common_ancestor_name nn_module_stack nn_module_parent \
        kernel_time_mean kernel_time_sum
    csv_sql diff_stats_names_summary "$outdir/diff_stats_names_summary.csv" name row_count \
        kernel_time_trace1_sum_ms kernel_time_trace2_sum_ms diff_sum_ms abs_diff_sum_ms
    echo ".output $(dq "$outdir/merged_tree_output.txt")"
    echo "SELECT tree_diff_text(b, v) FROM _dr;"
    for w in 0 1 2; do
        case $w in 0) f=cpu_op_map.json ;; 1) f=cpu_op_map_trace1.json ;; 2) f=cpu_op_map_trace2.json ;; esac
        echo ".output $(dq "$outdir/$f")"
        echo "SELECT tree_diff_cpu_op_map(b, v, $w) FROM _dr;"
    done
    echo ".output stdout"
} >> "$tmp/run.sql"

"$sqlite" -batch :memory: < "$tmp/run.sql"

# the shell ends every value with a newline: the tree text already ends with one, and
# json.dump writes none
for f in merged_tree_output.txt cpu_op_map.json cpu_op_map_trace1.json cpu_op_map_trace2.json; do
    p=$outdir/$f
    if [ -s "$p" ]; then
        size=$(wc -c < "$p")
        head -c $((size - 1)) "$p" > "$tmp/trim" && cat "$tmp/trim" > "$p"
    fi
done
# TraceLens writes no CSV when diff_stats is empty, and then no cpu-op maps either
for f in diff_stats.csv diff_stats_unique_args_summary.csv diff_stats_names_summary.csv; do
    [ -s "$outdir/$f" ] || rm -f "$outdir/$f"
done
if [ ! -e "$outdir/diff_stats.csv" ]; then
    rm -f "$outdir/cpu_op_map.json" "$outdir/cpu_op_map_trace1.json" "$outdir/cpu_op_map_trace2.json"
fi
