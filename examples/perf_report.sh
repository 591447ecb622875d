#!/usr/bin/env bash
# perf_report.sh — TraceLens's perf report of one trace, written by tracesql.
#
#   examples/perf_report.sh [-p NAME=VALUE]... TRACE OUTDIR
#       one CSV per report_<sheet> view: OUTDIR/<sheet>.csv, TraceLens's file names,
#       headers, row order and cell text (the leading trace_id column is left out)
#   examples/perf_report.sh [-p NAME=VALUE]... TRACE
#       a short Markdown summary on stdout (GPU timeline, top 10 kernels, top 10 ops)
#
#   -p NAME=VALUE   set a report option (a row of report_params), e.g.
#                   -p short_kernel_threshold_us=5 -p micro_idle_thresh_us=50
#                   -p gpu_arch_json=FILE (TraceLens's GPU arch JSON) or -p gpu=H100
#                   (a gpu_specs row): TraceLens's roofline columns
#
# Environment: TSQL_EXT (the extension; default build/tracesql of this project, or
# the installed lib/tracesql.so beside this script's bin/),
# SQLITE3 (the sqlite3 shell; default sqlite3).
#
# Every temp view named report_<sheet> becomes a sheet, so sheets added to sql/ later
# are picked up without changing this script; the perf-model sheets come from the
# queries of perf_sheet_queries. How each is written (order, what an
# empty sheet gives, columns left out when NULL throughout) comes from the
# report_sheets table; see docs/report.md.
set -euo pipefail

usage() {
    sed -n '3,14p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

params=()
while getopts "p:h" opt; do
    case $opt in
        p) case $OPTARG in
               *=*) params+=("$OPTARG") ;;
               *) echo "perf_report.sh: -p wants NAME=VALUE, got '$OPTARG'" >&2; exit 2 ;;
           esac ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] && [ $# -le 2 ] || usage
trace=$1
outdir=${2:-}

here=$(cd "$(dirname "$0")" && pwd)
# this checkout's build, else the installed layout (bin/tracesql-perf-report beside
# lib/tracesql.so), else the name the dynamic loader resolves after make install
if [ -n "${TSQL_EXT:-}" ]; then ext=$TSQL_EXT
elif [ -e "$here/../build/tracesql.so" ] || [ ! -e "$here/../lib/tracesql.so" ]; then ext=$here/../build/tracesql
else ext=$here/../lib/tracesql
fi
sqlite=${SQLITE3:-sqlite3}
if [ ! -e "$ext" ] && [ ! -e "$ext.so" ] && [ ! -e "$ext.dylib" ] && [ ! -e "$ext.dll" ]; then
    echo "perf_report.sh: extension $ext not found (run make, or set TSQL_EXT)" >&2
    exit 2
fi
if [ ! -r "$trace" ]; then
    echo "perf_report.sh: $trace: no such file or not readable" >&2
    exit 2
fi
if [ -n "$outdir" ]; then
    mkdir -p "$outdir"
    outdir=$(cd "$outdir" && pwd)
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/perf_report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# SQL string literal / dot-command argument
sq() { printf "'%s'" "${1//\'/\'\'}"; }
dq() { local s=${1//\\/\\\\}; printf '"%s"' "${s//\"/\\\"}"; }

{
    echo ".bail on"
    # temp tables and sorts in memory (must precede .load: changing temp_store later
    # drops the TEMP schema, views included)
    echo "PRAGMA temp_store = MEMORY;"
    echo ".load $(dq "$ext")"
    echo ".headers off"
    echo ".mode list"
    echo ".nullvalue ''"
    echo "CREATE TEMP TABLE _pr_trace AS SELECT trace_open($(sq "$trace")) AS id;"
    for p in ${params[@]+"${params[@]}"}; do
        name=${p%%=*}
        value=${p#*=}
        # an unknown option stops the run with a message
        echo ".once $(dq "$tmp/param.sql")"
        echo "SELECT '.print ' || $(sq "\"perf_report.sh: unknown report option $name (see SELECT * FROM report_params)\"")"
        echo "       || char(10) || '.exit 2'"
        echo "WHERE NOT EXISTS (SELECT 1 FROM report_params WHERE name = $(sq "$name"));"
        echo ".read $(dq "$tmp/param.sql")"
        case $name=$value in
            gpu_arch_json=?*)
               # the option holds the file's JSON text (gpu_arch reads it)
               [ -r "$value" ] && [ -f "$value" ] || { echo "perf_report.sh: gpu_arch_json: $value: no such file or not readable" >&2; exit 2; }
               echo "UPDATE report_params SET value = CAST(readfile($(sq "$value")) AS TEXT) WHERE name = 'gpu_arch_json';" ;;
            *=|*=null|*=NULL) echo "UPDATE report_params SET value = NULL WHERE name = $(sq "$name");" ;;
            *) echo "UPDATE report_params SET value = CASE WHEN $(sq "$value") GLOB '*[^0-9.eE+-]*'"
               echo "  THEN $(sq "$value") ELSE $(sq "$value") + 0 END WHERE name = $(sq "$name");" ;;
        esac
    done
    # an unusable arch option stops the run with its reason
    echo ".once $(dq "$tmp/arch.sql")"
    echo "SELECT '.print \"perf_report.sh: ' || replace(replace(problem, '\\', '\\\\'), '\"', '\\\"') || '\"'"
    echo "       || char(10) || '.exit 2' FROM gpu_arch_problem;"
    echo ".read $(dq "$tmp/arch.sql")"
} > "$tmp/run.sql"

if [ -z "$outdir" ]; then
    # ---- Markdown summary ----
    cat >> "$tmp/run.sql" <<'EOF'
.print "# Perf report"
.print ""
SELECT '- trace: ' || label || ' (' || events || ' events, ' || gpu_events || ' GPU events)'
FROM traces WHERE trace_id = (SELECT id FROM _pr_trace);
.print ""
.print "## GPU timeline"
.print ""
.mode markdown
.headers on
SELECT type, printf('%.3f', time_ms) AS "time (ms)", printf('%.2f', percent) AS "%"
FROM gpu_timeline WHERE trace_id = (SELECT id FROM _pr_trace);
.headers off
.mode list
.print ""
.print "## Top 10 kernels"
.print ""
.mode markdown
.headers on
SELECT coalesce(parent_op_category, '') AS category, coalesce(parent_op, '') AS "parent op",
       CASE WHEN length(kernel_name) > 60 THEN substr(kernel_name, 1, 57) || '...'
            ELSE kernel_name END AS kernel,
       count, printf('%.1f', dur_sum_us) AS "total (µs)",
       printf('%.2f', pct_of_total_time) AS "% of time"
FROM kernel_summary WHERE trace_id = (SELECT id FROM _pr_trace) LIMIT 10;
.headers off
.mode list
EOF
    # top ops only where an ops_summary table with these columns exists
    cat >> "$tmp/run.sql" <<EOF
.once $(dq "$tmp/ops.sql")
SELECT '.print ""' || char(10) || '.print "## Top 10 ops"' || char(10) || '.print ""' || char(10)
       || '.mode markdown' || char(10) || '.headers on' || char(10)
       || 'SELECT name AS op, count, printf(''%.3f'', total_direct_kernel_time_ms)'
       || ' AS "direct kernel time (ms)", printf(''%.2f'', percentage) AS "%" FROM ops_summary'
       || ' WHERE trace_id = (SELECT id FROM _pr_trace) ORDER BY rank LIMIT 10;'
WHERE (SELECT count(*) FROM pragma_table_info('ops_summary')
       WHERE name IN ('name', 'count', 'total_direct_kernel_time_ms', 'percentage', 'rank',
                      'trace_id')) = 6;
.read $(dq "$tmp/ops.sql")
EOF
    "$sqlite" -batch :memory: < "$tmp/run.sql"
    exit 0
fi

# ---- one CSV per report_<sheet> view ----
# Each view is read once into a temp table _pr_<sheet>. The SQL that checks and writes
# each one is written by SQL (.once FILE, then .read FILE runs it).
cat >> "$tmp/run.sql" <<EOF
-- a trace without cpu_op events is GPU-only: TraceLens writes no CPU-side sheets
CREATE TEMP TABLE _pr_gpu_only AS
SELECT NOT EXISTS (SELECT 1 FROM events
                   WHERE trace_id = (SELECT id FROM _pr_trace) AND kind = 'cpu_op') AS v;
CREATE TEMP TABLE _pr_sheets AS
SELECT substr(m.name, 8) AS sheet, m.name AS view,
       coalesce(r.position, 40) AS position, coalesce(r.if_empty, 'omit') AS if_empty,
       coalesce(r.optional_columns, '[]') AS optional_columns, 0 AS nrows
FROM sqlite_temp_master m LEFT JOIN report_sheets r ON r.sheet = substr(m.name, 8)
WHERE m.type = 'view' AND m.name LIKE 'report\_%' ESCAPE '\\' AND length(m.name) > 7
  AND NOT (coalesce(r.needs_cpu_ops, 1) AND (SELECT v FROM _pr_gpu_only));

.once $(dq "$tmp/1.sql")
SELECT 'CREATE TEMP TABLE "_pr_' || replace(sheet, '"', '""') || '" AS SELECT * FROM "'
       || replace(view, '"', '""') || '" WHERE trace_id = ' || (SELECT id FROM _pr_trace)
       || ';' || char(10)
       || 'UPDATE _pr_sheets SET nrows = (SELECT count(*) FROM "_pr_'
       || replace(sheet, '"', '""') || '") WHERE sheet = ' || quote(sheet) || ';'
FROM _pr_sheets ORDER BY position, sheet;
.read $(dq "$tmp/1.sql")

-- the perf-model sheets (GEMM, SDPA_fwd, ...): their "param: ..." columns depend on the
-- trace, so each comes as a query from perf_sheet_queries rather than as a view
.once $(dq "$tmp/1b.sql")
SELECT 'CREATE TEMP TABLE "_pr_' || replace(q.sheet, '"', '""') || '" AS SELECT NULL AS trace_id, * FROM ('
       || q.sql || ');' || char(10)
       || 'INSERT INTO _pr_sheets(sheet, view, position, if_empty, optional_columns, nrows) VALUES ('
       || quote(q.sheet) || ', NULL, 40, ''omit'', ''[]'', (SELECT count(*) FROM "_pr_'
       || replace(q.sheet, '"', '""') || '"));'
FROM perf_sheet_queries q
WHERE q.trace_id = (SELECT id FROM _pr_trace) AND NOT (SELECT v FROM _pr_gpu_only)
  AND q.sheet NOT IN (SELECT sheet FROM _pr_sheets)
ORDER BY q.sheet;
.read $(dq "$tmp/1b.sql")

CREATE TEMP TABLE _pr_cols AS
SELECT s.sheet, p.cid, p.name,
       EXISTS (SELECT 1 FROM json_each(s.optional_columns) j WHERE j.value = p.name) AS optional,
       0 AS dropped
FROM _pr_sheets s, pragma_table_info('_pr_' || s.sheet, 'temp') p
WHERE NOT (p.cid = 0 AND p.name = 'trace_id');

.once $(dq "$tmp/2.sql")
SELECT 'UPDATE _pr_cols SET dropped = NOT EXISTS (SELECT 1 FROM "_pr_'
       || replace(sheet, '"', '""') || '" WHERE "' || replace(name, '"', '""')
       || '" IS NOT NULL) WHERE sheet = ' || quote(sheet) || ' AND name = ' || quote(name) || ';'
FROM _pr_cols WHERE optional;
.read $(dq "$tmp/2.sql")
EOF

# CSV text of each row as Python's csv module writes it (QUOTE_MINIMAL): REAL values
# through py_float(), NULL as an empty cell, quotes around a cell with , " CR or LF.
# In the templates @X@ stands for the column and @V@ for the value's alias.
cat >> "$tmp/run.sql" <<'EOF'
CREATE TEMP TABLE _pr_tpl(val TEXT, cell TEXT);
INSERT INTO _pr_tpl VALUES (
  'CASE typeof(@X@) WHEN ''null'' THEN '''' WHEN ''real'' THEN py_float(@X@) ELSE CAST(@X@ AS TEXT) END AS @V@',
  'CASE WHEN instr(@V@, '','') OR instr(@V@, ''"'') OR instr(@V@, char(10)) OR instr(@V@, char(13)) THEN ''"'' || replace(@V@, ''"'', ''""'') || ''"'' ELSE @V@ END');
CREATE TEMP TABLE _pr_out AS
WITH e AS (
    SELECT c.sheet, c.cid,
           replace(replace(t.val, '@X@', '"' || replace(c.name, '"', '""') || '"'), '@V@', 'v' || c.cid) AS val,
           replace(t.cell, '@V@', 'v' || c.cid) AS cell,
           CASE WHEN instr(c.name, ',') OR instr(c.name, '"') OR instr(c.name, char(10))
                     OR instr(c.name, char(13))
                THEN '"' || replace(c.name, '"', '""') || '"' ELSE c.name END AS head
    FROM _pr_cols c, _pr_tpl t
    WHERE NOT c.dropped
)
SELECT sheet,
       (SELECT group_concat(head, ',')
        FROM (SELECT head FROM e WHERE e.sheet = s.sheet ORDER BY cid)) AS header,
       (SELECT group_concat(val, ', ')
        FROM (SELECT val FROM e WHERE e.sheet = s.sheet ORDER BY cid)) AS vals,
       (SELECT group_concat(cell, ' || '','' || ')
        FROM (SELECT cell FROM e WHERE e.sheet = s.sheet ORDER BY cid)) AS line
FROM _pr_sheets s;
EOF

cat >> "$tmp/run.sql" <<EOF
.once $(dq "$tmp/3.sql")
SELECT '.output "' || replace(replace($(sq "$outdir") || '/' || s.sheet || '.csv', '\\', '\\\\'),
                              '"', '\\"') || '"' || char(10)
       || CASE WHEN s.nrows > 0 THEN
                   'SELECT ' || quote(o.header) || ';' || char(10)
                   || 'SELECT ' || o.line || ' FROM (SELECT ' || o.vals
                   || ', rowid AS r_ FROM "_pr_' || replace(s.sheet, '"', '""') || '") ORDER BY r_;'
               WHEN s.if_empty = 'header' THEN 'SELECT ' || quote(o.header) || ';'
               ELSE 'SELECT '''';'
          END || char(10) || '.output stdout'
FROM _pr_sheets s JOIN _pr_out o USING (sheet)
WHERE s.nrows > 0 OR s.if_empty IN ('header', 'blank')
ORDER BY s.position, s.sheet;
.read $(dq "$tmp/3.sql")
EOF

"$sqlite" -batch :memory: < "$tmp/run.sql"
