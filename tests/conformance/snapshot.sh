#!/usr/bin/env bash
# snapshot.sh OUTDIR — every user-visible output of every conformance trace, as text,
# so a refactor can be checked byte for byte: run it before and after, then
#   diff -r BEFORE AFTER
# Per trace: examples/perf_report.sh's CSVs, and one CSV per table and view the
# extension creates (all rows, in the order SQLite returns them), hashed into digests.txt.
# Private views (a name starting with '_', docs/architecture.md) are steps of public ones
# and left out.
#
# Environment: TSQL_EXT (default build/tracesql), SQLITE3, TSQL_CONFORMANCE_DATA.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
out=$1
data=${TSQL_CONFORMANCE_DATA:-../shared/conformance}
ext=${TSQL_EXT:-build/tracesql}
sq=${SQLITE3:-sqlite3}
export TSQL_EXT=$ext
if [ ! -d "$data" ]; then echo "SKIP snapshot: $data not found" >&2; exit 0; fi
mkdir -p "$out"

# the per-trace tables (virtual tables taking a trace) and every temp view
tables=$("$sq" :memory: -cmd ".load $ext" \
  "select name from pragma_module_list where name in
     ('events','kernels','tree_edges','kernel_launchers','ops_summary','perf_ops',
      'unified_ops','collectives','gpu_timeline_raw','trace_warnings','traces',
      'module_tree')
   union all select name from sqlite_temp_master where type='view'
     and name not in ('perf_sheet_queries')
     and name not like '\\_%' escape '\\'
   order by 1")

/usr/bin/python3 tests/conformance/discover.py "$data" traces | while IFS= read -r trace; do
    label=${trace#"$data"/}
    dir=$out/$(printf '%s' "$label" | tr '/' '_')
    rm -rf "$dir"; mkdir -p "$dir/report" "$dir/tables"
    bash examples/perf_report.sh "$trace" "$dir/report" >/dev/null 2>&1 || echo "perf_report failed" > "$dir/report/FAILED"
    {
        printf '.load %s\n.headers on\n.mode csv\n' "$ext"
        printf "select trace_open('%s') is not null;\n" "$trace"
        for t in $tables; do
            printf ".output %s/tables/%s.csv\n" "$dir" "$t"
            # 'traces': all but the path, load time and memory footprint
            if [ "$t" = traces ]; then
                printf "select trace_id, label, format, bytes, json_bytes, events, gpu_events, rank, world_size, devices, gpu_name, base_time_ns, warnings, link_key, tl_compatible, metadata from traces;\n"
            else
                printf "select * from %s;\n" "$t"
            fi
        done
    } > "$dir/script.sql"
    "$sq" -bail :memory: < "$dir/script.sql" > /dev/null 2> "$dir/stderr.txt" || true
    rm -f "$dir/script.sql"
    (cd "$dir" && find . -type f ! -name digests.txt | LC_ALL=C sort | xargs sha1sum) > "$dir/digests.txt"
    echo "snapshot: $label"
done
