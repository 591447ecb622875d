#!/usr/bin/env bash
# collective_report.sh — TraceLens's multi-rank collective report, written by tracesql.
#
#   examples/collective_report.sh [-r RANK_REGEX] [-g GPUS_PER_NODE] OUTDIR TRACE_OR_DIR...
#       one CSV per sheet in OUTDIR (TraceLens's file names, headers, cell text):
#       nccl_summary_implicit_sync, nccl_summary_long, [nccl_summary_all2allv],
#       [nccl_all2allv_heatmap], nccl_long, nccl_implicit_sync, [nccl_all2allv],
#       [straggler_summary]; and coll_warnings.csv when a rank or collective could not
#       be matched
#   examples/collective_report.sh [-r RANK_REGEX] [-g N] TRACE_OR_DIR...
#       (the first argument is a trace or a directory of traces) a Markdown summary
#   examples/collective_report.sh [-r RANK_REGEX] --export-rank RANK.db TRACE
#       the per-rank step: only TRACE's collective rows, into RANK.db (small)
#   examples/collective_report.sh [-g N] --merge [OUTDIR] RANK.db...
#       the cross-rank step over per-rank databases (ATTACHed in batches of 8)
#
# Ranks: distributedInfo.rank, else RANK_REGEX on the file name (default TraceLens's
# rank[\[\-_/]?(?P<rank>\d+)). Traces are opened two at a time (trace_open_dir) and
# only their collective rows are kept. Environment: TSQL_EXT (the extension; default
# build/tracesql of this project), SQLITE3 (default sqlite3). See docs/collectives.md.
set -euo pipefail

usage() {
    sed -n '3,21p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

regex=""
gpn=""
mode=report
export_db=""
while [ $# -gt 0 ]; do
    case $1 in
        -r) regex=$2; shift 2 ;;
        -g) gpn=$2; shift 2 ;;
        --export-rank) mode=export; export_db=${2:-}; shift 2 || usage ;;
        --merge) mode=merge; shift ;;
        -h|--help) usage ;;
        --) shift; break ;;
        -*) usage ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] || usage

here=$(cd "$(dirname "$0")" && pwd)
ext=${TSQL_EXT:-$here/../build/tracesql}
sqlite=${SQLITE3:-sqlite3}
if [ ! -e "$ext" ] && [ ! -e "$ext.so" ] && [ ! -e "$ext.dylib" ] && [ ! -e "$ext.dll" ]; then
    echo "collective_report.sh: extension $ext not found (run make, or set TSQL_EXT)" >&2
    exit 2
fi
case $gpn in ''|*[!0-9]*) [ -z "$gpn" ] || { echo "collective_report.sh: -g wants a number" >&2; exit 2; } ;; esac

# SQL string literal
sq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }
# a JSON array of paths, as one SQL literal
json_list() {
    local out="[" sep="" p
    for p in "$@"; do
        p=${p//\\/\\\\}
        p=${p//\"/\\\"}
        out+="$sep\"$p\""
        sep=","
    done
    sq "$out]"
}
is_trace_arg() {
    case $1 in *.json|*.json.gz|*.gz|*.zip) [ -f "$1" ] && return 0 ;; esac
    [ -d "$1" ] && ls "$1" | grep -Eq '\.(json|json\.gz|gz|zip)$'
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/collective_report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The per-rank tables of a database written by --export-rank (or by the report itself)
PER_RANK_SCHEMA="CREATE TABLE IF NOT EXISTS coll_rank_rows(trace_id, rank, uid, name, pg, pg_ranks,
  collective_name, group_size, dtype, in_nelems, out_nelems, in_split, out_split, stream, seq, ts, dur,
  ts_ns, dur_ns);
CREATE TABLE IF NOT EXISTS coll_rank_info(trace_id, rank, world_size, devices, source);"

# open_to_db DB PATH...: every trace's collective rows into DB (events not kept)
open_to_db() {
    local db=$1; shift
    local list rx=NULL
    if [ $# -eq 1 ] && [ -d "$1" ]; then list=$(sq "$1"); else list=$(json_list "$@"); fi
    [ -z "$regex" ] || rx=$(sq "$regex")
    "$sqlite" -bail -batch "$db" >/dev/null <<EOF
.load $ext
$PER_RANK_SCHEMA
SELECT trace_open_dir($list, $rx, 'collectives');
INSERT INTO main.coll_rank_rows SELECT * FROM temp.coll_rank_import;
INSERT INTO main.coll_rank_info SELECT * FROM temp.coll_rank_info_import;
EOF
}

if [ $mode = export ]; then
    [ -n "$export_db" ] && [ $# -eq 1 ] || usage
    rm -f "$export_db"
    open_to_db "$export_db" "$1"
    exit 0
fi

outdir=""
if [ $mode = merge ]; then
    case $1 in *.db) ;; *) outdir=$1; shift ;; esac
    [ $# -ge 1 ] || usage
    dbs=("$@")
else
    if ! is_trace_arg "$1"; then outdir=$1; shift; fi
    [ $# -ge 1 ] || usage
    open_to_db "$tmp/job.db" "$@"
    dbs=("$tmp/job.db")
fi
if [ -n "$outdir" ]; then
    mkdir -p "$outdir"
    outdir=$(cd "$outdir" && pwd)
fi

# Setup of the report session: the per-rank rows imported, 8 databases at a time
# (SQLite attaches at most 10).
{
    echo ".load $ext"
    echo ".bail on"
    echo ".headers off"
    echo ".mode list"
    [ -z "$gpn" ] || echo "UPDATE report_params SET value = $gpn WHERE name = 'gpus_per_node';"
    i=0
    for db in "${dbs[@]}"; do
        echo "ATTACH $(sq "$db") AS r$i;"
        i=$((i + 1))
        if [ $i = 8 ]; then
            for k in $(seq 0 7); do
                echo "INSERT INTO temp.coll_rank_import SELECT * FROM r$k.coll_rank_rows;"
                echo "INSERT INTO temp.coll_rank_info_import SELECT * FROM r$k.coll_rank_info;"
                echo "DETACH r$k;"
            done
            i=0
        fi
    done
    for k in $(seq 0 $((i - 1))); do
        echo "INSERT INTO temp.coll_rank_import SELECT * FROM r$k.coll_rank_rows;"
        echo "INSERT INTO temp.coll_rank_info_import SELECT * FROM r$k.coll_rank_info;"
        echo "DETACH r$k;"
    done
} > "$tmp/setup.sql"

if [ -z "$outdir" ]; then
    # Markdown summary
    cat "$tmp/setup.sql" - <<'EOF' | "$sqlite" -batch :memory:
.mode list
.headers off
SELECT '## Collectives: ' || (SELECT count(*) FROM coll_ranks) || ' ranks, '
       || (SELECT count(*) FROM nccl_long) || ' collective kernels, '
       || (SELECT count(*) FROM nccl_implicit_sync) || ' implicit-sync collectives';
.print
.print ### Worst start skew (µs)
.mode markdown
.headers on
SELECT collective_id, "Collective name", "In msg nelems", "skew in start time" AS skew_start_us,
       "earliest arrival rank", round(comm_latency, 3) AS comm_latency_us,
       round("skew in end time", 3) AS skew_end_us
FROM nccl_implicit_sync ORDER BY "skew in start time" DESC LIMIT 5;
.print
.print ### Slowest rank (least total wait, arrives last most often)
SELECT rank, total_wait_time_us, times_arrived_last, pct_arrived_last, total_nccl_dur_us
FROM straggler_summary LIMIT 3;
.print
.print ### Bandwidth per collective and size (GiB/s)
SELECT "Collective name", dtype, "In msg nelems", round("Full msg size (MB)", 3) AS msg_mib, count,
       round(comm_latency_mean, 3) AS latency_mean_us, round("algo bw (GB/s)_mean", 3) AS algbw_gibs,
       round("bus bw (GB/s)_mean", 3) AS busbw_gibs, round("Total comm latency (ms)", 3) AS total_ms
FROM nccl_summary_implicit_sync;
.print
.print ### Warnings
SELECT kind, rank, process_group, collective_id, detail FROM coll_warnings;
EOF
    exit 0
fi

# CSV sheets. Each sheet is a temp view _s_<sheet>; its rows are printed as Python's csv
# module writes them (REAL through py_float, NULL empty, quotes around , " CR LF).
cat "$tmp/setup.sql" - > "$tmp/gen.sql" <<'EOF'
-- the detailed sheets' per-rank columns, by rank (ts/dur pairs, then waits)
CREATE TEMP TABLE _isr(pg_name, match_key, rank, ts, dur, wait_time);
INSERT INTO _isr SELECT pg_name, match_key, rank, ts, dur, wait_time FROM nccl_implicit_sync_ranks;
CREATE TEMP TABLE _a2r(pg_name, match_key, rank, ts, dur, in_nelems, out_nelems, in_mb, out_mb, in_split,
                       out_split, skew_start, skew_end);
INSERT INTO _a2r SELECT pg_name, match_key, rank, ts, dur, in_nelems, out_nelems, in_mb, out_mb, in_split,
                        out_split, skew_start, skew_end FROM nccl_all2allv_ranks;
CREATE TEMP TABLE _cols(tab, k, name, expr);
-- a rank missing from some instance has NaN there: pandas makes that column float
INSERT INTO _cols
SELECT '_isr', r.rank * 3 + c.k, 'rank_' || r.rank || '_' || c.col,
       iif(r.n < (SELECT count(DISTINCT pg_name || '/' || match_key) FROM _isr), 'CAST(', '(')
       || 'max(CASE WHEN p.rank = ' || r.rank || ' THEN p.' || c.src || ' END)'
       || iif(r.n < (SELECT count(DISTINCT pg_name || '/' || match_key) FROM _isr), ' AS REAL)', ')')
FROM (SELECT rank, count(*) AS n FROM _isr GROUP BY rank) r,
     (SELECT 0 AS k, 'ts' AS col, 'ts' AS src UNION ALL SELECT 1, 'dur', 'dur') c
UNION ALL
SELECT '_isr', 1000000000 + r.rank, 'rank_' || r.rank || '_wait_time',
       iif(r.n < (SELECT count(DISTINCT pg_name || '/' || match_key) FROM _isr), 'CAST(', '(')
       || 'max(CASE WHEN p.rank = ' || r.rank || ' THEN p.wait_time END)'
       || iif(r.n < (SELECT count(DISTINCT pg_name || '/' || match_key) FROM _isr), ' AS REAL)', ')')
FROM (SELECT rank, count(*) AS n FROM _isr GROUP BY rank) r;
INSERT INTO _cols
SELECT '_a2r', r.rank * 8 + c.k, 'rank_' || r.rank || '_' || c.col,
       'max(CASE WHEN p.rank = ' || r.rank || ' THEN p.' || c.src || ' END)'
FROM (SELECT DISTINCT rank FROM _a2r) r,
     (SELECT 0 AS k, 'ts' AS col, 'ts' AS src UNION ALL SELECT 1, 'dur', 'dur'
      UNION ALL SELECT 2, 'In msg nelems', 'in_nelems' UNION ALL SELECT 3, 'Out msg nelems', 'out_nelems'
      UNION ALL SELECT 4, 'In msg size (MB)', 'in_mb' UNION ALL SELECT 5, 'Out msg size (MB)', 'out_mb'
      UNION ALL SELECT 6, 'In split size', 'in_split' UNION ALL SELECT 7, 'Out split size', 'out_split') c
UNION ALL
SELECT '_a2r', 1000000000 + r.rank * 2 + c.k, 'rank_' || r.rank || '_' || c.col,
       'max(CASE WHEN p.rank = ' || r.rank || ' THEN p.' || c.src || ' END)'
FROM (SELECT DISTINCT rank FROM _a2r) r,
     (SELECT 0 AS k, 'skew in start time' AS col, 'skew_start' AS src
      UNION ALL SELECT 1, 'skew in end time', 'skew_end') c;

SELECT 'CREATE TEMP VIEW _s_nccl_implicit_sync AS SELECT i.collective_id, i."Process Group Name", '
       || 'i."Process Group Ranks", i."Collective name", i."Group size", i.dtype, i."In msg nelems", '
       || 'i."Out msg nelems", i."In msg size (MB)", i."Out msg size (MB)", i."Full msg size (MB)", '
       || 'i.comm_latency, i."skew in start time", i."earliest arrival rank", i.avg_wait_time, '
       || 'i."skew in end time", i."algo bw (GB/s)", i."bus bw (GB/s)"'
       || coalesce((SELECT group_concat(', w.' || '"' || name || '"', '')
                    FROM (SELECT name FROM _cols WHERE tab = '_isr' ORDER BY k)), '')
       || ', i.node_span FROM nccl_implicit_sync i LEFT JOIN (SELECT p.pg_name, p.match_key'
       || coalesce((SELECT group_concat(', ' || expr || ' AS "' || name || '"', '')
                    FROM (SELECT expr, name FROM _cols WHERE tab = '_isr' ORDER BY k)), '')
       || ' FROM _isr p GROUP BY p.pg_name, p.match_key) w USING (pg_name, match_key) ORDER BY i.first_ord;';
SELECT 'CREATE TEMP VIEW _s_nccl_all2allv AS SELECT a.collective_id, a."Process Group Name", '
       || 'a."Process Group Ranks", a."Collective name", a."Group size", a.dtype, a.stream, '
       || 'a."total data communicated (MB)", a."total nelems communicated", a."wall_time (us)", '
       || 'a."max_rank_dur (us)", a."min_rank_dur (us)", a."avg_rank_dur (us)", a."throughput (GB/s)", '
       || 'a."max_rank_throughput (GB/s)", a."min_rank_throughput (GB/s)", a.size_imbalance, '
       || 'a."skew in start time", a."skew in end time"'
       || coalesce((SELECT group_concat(', w.' || '"' || name || '"', '')
                    FROM (SELECT name FROM _cols WHERE tab = '_a2r' ORDER BY k)), '')
       || ', a.node_span FROM nccl_all2allv a LEFT JOIN (SELECT p.pg_name, p.match_key'
       || coalesce((SELECT group_concat(', ' || expr || ' AS "' || name || '"', '')
                    FROM (SELECT expr, name FROM _cols WHERE tab = '_a2r' ORDER BY k)), '')
       || ' FROM _a2r p GROUP BY p.pg_name, p.match_key) w USING (pg_name, match_key) '
       || 'ORDER BY a."total data communicated (MB)" DESC, a.first_ord;';
EOF
cat >> "$tmp/gen.sql" <<'EOF'
SELECT 'CREATE TEMP VIEW _s_nccl_long AS SELECT collective_id, index_in_group, rank, "Process Group Name", '
       || '"Process Group Ranks", "Collective name", "Group size", dtype, "In msg nelems", "In msg size (MB)", '
       || '"Out msg nelems", "Out msg size (MB)", "In split size", "Out split size", stream, ts, dur, node_id, '
       || 'node_span FROM nccl_long;';
-- the bandwidth columns only when some bandwidth is known (TraceLens)
SELECT 'CREATE TEMP VIEW _s_nccl_summary_implicit_sync AS SELECT '
       || (SELECT group_concat('"' || name || '"', ', ') FROM pragma_table_info('nccl_summary_implicit_sync', 'temp')
           WHERE (name NOT LIKE 'algo bw%' OR EXISTS (SELECT 1 FROM nccl_implicit_sync WHERE "algo bw (GB/s)" IS NOT NULL))
             AND (name NOT LIKE 'bus bw%' OR EXISTS (SELECT 1 FROM nccl_implicit_sync WHERE "bus bw (GB/s)" IS NOT NULL)))
       || ' FROM nccl_summary_implicit_sync;';
SELECT 'CREATE TEMP VIEW _s_nccl_summary_long AS SELECT * FROM nccl_summary_long;';
SELECT 'CREATE TEMP VIEW _s_nccl_summary_all2allv AS SELECT * FROM nccl_summary_all2allv;';
SELECT 'CREATE TEMP VIEW _s_nccl_all2allv_heatmap AS SELECT * FROM nccl_all2allv_heatmap;';
SELECT 'CREATE TEMP VIEW _s_straggler_summary AS SELECT * FROM straggler_summary;';
SELECT 'CREATE TEMP VIEW _s_coll_warnings AS SELECT * FROM coll_warnings;';
EOF
cat "$tmp/setup.sql" > "$tmp/run.sql"
"$sqlite" -batch :memory: < "$tmp/gen.sql" | grep '^CREATE TEMP VIEW' > "$tmp/views.sql" || true
# the generator's tables are needed by the sheet views: recreate them, then the views
sed -n '/^-- the detailed sheets/,$p' "$tmp/gen.sql" | sed -n '1,/^INSERT INTO _cols$/{/^INSERT INTO _cols$/!p}' >> "$tmp/run.sql"
cat "$tmp/views.sql" >> "$tmp/run.sql"

# sheets in TraceLens's order; optional ones only when they have rows
sheets="nccl_summary_implicit_sync:always nccl_summary_long:always nccl_summary_all2allv:rows
nccl_all2allv_heatmap:rows nccl_long:always nccl_implicit_sync:always nccl_all2allv:rows
straggler_summary:rows coll_warnings:rows"
{
    cat <<'EOF'
CREATE TEMP TABLE _fmt(tpl TEXT);
INSERT INTO _fmt VALUES ('CASE typeof(@X@) WHEN ''null'' THEN '''' WHEN ''real'' THEN py_float(@X@) ELSE CAST(@X@ AS TEXT) END');
EOF
    for s in $sheets; do
        name=${s%%:*}
        when=${s#*:}
        cond="1"
        [ "$when" = rows ] && cond="EXISTS (SELECT 1 FROM _s_$name)"
        cat <<EOF
.once $tmp/sheet.sql
SELECT CASE WHEN $cond THEN
  '.output ' || $(sq "$outdir/$name.csv") || char(10)
  || 'SELECT ' || quote((SELECT group_concat(CASE WHEN instr(name, ',') OR instr(name, '"')
                                                 THEN '"' || replace(name, '"', '""') || '"' ELSE name END, ',')
                         FROM pragma_table_info('_s_$name', 'temp'))) || ';' || char(10)
  || 'SELECT ' || (SELECT group_concat(
         '(SELECT CASE WHEN instr(v, '','') OR instr(v, ''"'') OR instr(v, char(10)) OR instr(v, char(13)) '
         || 'THEN ''"'' || replace(v, ''"'', ''""'') || ''"'' ELSE v END FROM (SELECT '
         || replace((SELECT tpl FROM _fmt), '@X@', 's."' || replace(name, '"', '""') || '"') || ' AS v))',
         ' || '','' || ') FROM pragma_table_info('_s_$name', 'temp'))
  || ' FROM _s_$name s;' || char(10) || '.output stdout'
ELSE '' END;
.read $tmp/sheet.sql
EOF
    done
} >> "$tmp/run.sql"
"$sqlite" -batch :memory: < "$tmp/run.sql"
