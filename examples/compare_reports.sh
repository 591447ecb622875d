#!/usr/bin/env bash
# compare_reports.sh — TraceLens's perf-report comparison (compare_perf_reports_pytorch),
# written by tracesql.
#
#   examples/compare_reports.sh [--names N1,N2,...] [--sheets G1,G2,...] OUTDIR INPUT1 INPUT2 [INPUT...]
#
#   INPUT     a perf-report CSV folder (ours or TraceLens's) or a trace file (its report
#             is read from the report views, the cells examples/perf_report.sh writes).
#             INPUT1 is the baseline.
#   --names   one tag per input (default: each input's base name without its extension)
#   --sheets  sheet groups: gpu_timeline, ops_summary, kernel_summary, ops_all, roofline,
#             all (default all)
#
# Writes OUTDIR/<sheet>.csv with TraceLens's file names, columns, row order and cell text;
# see docs/compare-reports.md. Environment: TSQL_EXT (the extension; default
# build/tracesql of this project), SQLITE3 (the sqlite3 shell; default sqlite3).
set -euo pipefail

usage() {
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
die() { echo "compare_reports.sh: $*" >&2; exit 2; }

names=''
sheets=''
while [ $# -gt 0 ]; do
    case $1 in
        --names) [ $# -ge 2 ] || usage; names=$2; shift 2 ;;
        --names=*) names=${1#--names=}; shift ;;
        --sheets) [ $# -ge 2 ] || usage; sheets=$2; shift 2 ;;
        --sheets=*) sheets=${1#--sheets=}; shift ;;
        -h|--help) usage ;;
        --) shift; break ;;
        -*) die "unknown option $1" ;;
        *) break ;;
    esac
done
[ $# -ge 3 ] || usage
outdir=$1
shift
inputs=("$@")

here=$(cd "$(dirname "$0")" && pwd)
ext=${TSQL_EXT:-$here/../build/tracesql}
sqlite=${SQLITE3:-sqlite3}
if [ ! -e "$ext" ] && [ ! -e "$ext.so" ] && [ ! -e "$ext.dylib" ] && [ ! -e "$ext.dll" ]; then
    die "extension $ext not found (run make, or set TSQL_EXT)"
fi

# tags: --names, else each input's base name without its extension (TraceLens's rule);
# a trace's .json.gz / .json / .zip ending is dropped whole
tags=()
if [ -n "$names" ]; then
    IFS=, read -r -a tags <<< "$names"
    [ ${#tags[@]} -eq ${#inputs[@]} ] || die "--names has ${#tags[@]} names for ${#inputs[@]} inputs"
else
    for in in "${inputs[@]}"; do
        b=$(basename -- "${in%/}")
        case $b in
            *.json.gz) b=${b%.json.gz} ;;
            *.json|*.zip) b=${b%.*} ;;
            .*) ;;
            *.*) b=${b%.*} ;;
        esac
        tags+=("$b")
    done
fi
dupes=$(printf '%s\n' "${tags[@]}" | sort | uniq -d | head -n 1)
[ -z "$dupes" ] || die "tag '$dupes' is used twice: tags must be unique (use --names)"

groups=()
if [ -n "$sheets" ]; then
    IFS=, read -r -a groups <<< "$sheets"
    for g in "${groups[@]}"; do
        case $g in
            gpu_timeline|ops_summary|kernel_summary|ops_all|roofline|all) ;;
            *) die "unknown sheet group '$g' (gpu_timeline, ops_summary, kernel_summary, ops_all, roofline, all)" ;;
        esac
    done
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare_reports.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# each input: a folder of sheet CSVs, or a trace (its report comes from the report views)
for in in "${inputs[@]}"; do
    [ -d "$in" ] || [ -f "$in" ] || die "$in: no such file or folder"
done
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)

sq() { printf "'%s'" "${1//\'/\'\'}"; }
dq() { local s=${1//\\/\\\\}; printf '"%s"' "${s//\"/\\\"}"; }

{
    echo ".bail on"
    echo "PRAGMA temp_store = MEMORY;"
    echo ".load $(dq "$ext")"
    echo ".headers off"
    echo ".mode list"
    for i in "${!tags[@]}"; do
        if [ -d "${inputs[$i]}" ]; then trace=NULL; else trace="trace_open($(sq "${inputs[$i]}"))"; fi
        echo "INSERT INTO compare_reports(pos, tag, trace_id) VALUES ($i, $(sq "${tags[$i]}"), $trace);"
    done
    echo "INSERT INTO compare_cells SELECT * FROM compare_trace_cells;"
    for g in ${groups[@]+"${groups[@]}"}; do
        [ "$g" = all ] || echo "INSERT OR IGNORE INTO compare_groups VALUES ($(sq "$g"));"
    done
    if printf '%s\n' ${groups[@]+"${groups[@]}"} | grep -qx all; then echo "DELETE FROM compare_groups;"; fi
    n=0
    for i in "${!inputs[@]}"; do
        [ -d "${inputs[$i]}" ] || continue
        for f in "${inputs[$i]}"/*.csv; do
            [ -f "$f" ] || continue
            # an empty sheet (TraceLens writes a lone newline) has no columns to read
            [ -n "$(head -n 1 -- "$f")" ] || continue
            n=$((n + 1))
            sheet=$(basename -- "$f" .csv)
            t=_ci_$n
            echo ".import --csv $(dq "$f") $t"
            echo "INSERT INTO compare_cells SELECT $i, $(sq "$sheet"), 0, cid, name FROM pragma_table_info('$t');"
            echo ".once $(dq "$tmp/cells$n.sql")"
            echo "SELECT 'INSERT INTO compare_cells SELECT $i, ' || $(sq "$(sq "$sheet")") || ', rowid, ' || cid || ', \"'"
            echo "       || replace(name, '\"', '\"\"') || '\" FROM $t;' FROM pragma_table_info('$t');"
            echo ".read $(dq "$tmp/cells$n.sql")"
            echo "DROP TABLE $t;"
        done
    done
    echo "CREATE INDEX temp._cr_i0 ON compare_cells(pos, sheet, col, row);"
    # every stage once: each view is replaced by a table of its rows before the next
    # stage reads it (the views would recompute their inputs at every use)
    for v in compare_plan compare_fields compare_row_keys compare_merged compare_frame_columns \
             compare_frame_values compare_outputs compare_output_rows compare_output_columns \
             compare_output_cells compare_csv; do
        echo "CREATE TEMP TABLE _cr_stage AS SELECT * FROM $v;"
        echo "DROP VIEW $v;"
        echo "CREATE TEMP TABLE $v AS SELECT * FROM _cr_stage;"
        echo "DROP TABLE _cr_stage;"
        case $v in
            compare_fields) echo "CREATE INDEX temp._cr_i1 ON compare_fields(sheet, pos, col);" ;;
            compare_row_keys) echo "CREATE INDEX temp._cr_i2 ON compare_row_keys(sheet, k, pos);" ;;
            compare_merged) echo "CREATE INDEX temp._cr_i3 ON compare_merged(sheet, mrow, pos);" ;;
            compare_frame_values) echo "CREATE INDEX temp._cr_i4 ON compare_frame_values(sheet, mrow, ocol);" ;;
            compare_output_columns) echo "CREATE INDEX temp._cr_i5 ON compare_output_columns(output, out_col);" ;;
        esac
    done
    echo ".once $(dq "$tmp/write.sql")"
    echo "SELECT '.output ' || '\"' || replace(replace($(sq "$outdir") || '/' || output || '.csv', '\\', '\\\\'), '\"', '\\\"') || '\"'"
    echo "       || char(10) || 'SELECT text FROM compare_csv WHERE output = ' || quote(output) || ' ORDER BY line;'"
    echo "       || char(10) || '.output stdout'"
    echo "FROM (SELECT DISTINCT output, ord, sub FROM compare_csv) ORDER BY ord, sub;"
    echo ".read $(dq "$tmp/write.sql")"
    echo "SELECT 'wrote ' || output || '.csv: ' || (count(*) - 1) || ' rows' FROM compare_csv"
    echo "GROUP BY output ORDER BY min(ord), min(sub);"
} > "$tmp/run.sql"

"$sqlite" -batch :memory: < "$tmp/run.sql"
