#!/usr/bin/env bash
# make install into a staging DESTDIR, then: the files and their layout; the library's
# soname (what ldconfig records, so `.load tracesql` works by name); `.load tracesql`
# by name through the loader's search path; every report command of tools/ is installed
# and runs on the installed demo trace, finding the installed extension and library
# beside it (no TSQL_EXT); the docs keep their folders; make uninstall leaves nothing.
set -u
cd "$(dirname "$0")/../.."
sqlite=${SQLITE3:-sqlite3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsql-install.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/root
prefix=/usr/local
fail=0
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
log=$tmp/log
make --no-print-directory install DESTDIR="$dest" PREFIX=$prefix > "$log" 2>&1 || { cat "$log"; echo "FAIL make install"; exit 1; }
[ "${V:-0}" = 1 ] && cat "$log"
root=$dest$prefix
for f in lib/tracesql.so $(cd tools && ls tracesql-* | sed 's|^|bin/|') share/tracesql/lib/common.sh \
         share/tracesql/demo_trace.json.gz share/tracesql/demo.sql share/tracesql/html_report.sql share/tracesql/html_compare.sql \
         share/doc/tracesql/README.md share/doc/tracesql/docs/architecture.md; do
  [ -e "$root/$f" ] || bad "not installed: $f"
done
# every page of docs/, in its folder (README links docs/...)
(cd docs && find . -name '*.md') | while read -r d; do
  [ -f "$root/share/doc/tracesql/docs/$d" ] || echo "FAIL doc not installed: docs/$d"
done | grep FAIL && fail=$((fail + 1))
[ "$(readlink "$root/lib/tracesql.so")" = "libtracesql.so.$(sed -n 's/^VERSION := //p' Makefile)" ] || bad "lib/tracesql.so is not a link to the versioned file"
soname=$(readelf -d "$root/lib/tracesql.so" 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = tracesql.so ] || bad "soname '$soname' (ldconfig would not record tracesql.so)"
# what ldconfig makes of the directory: a cache entry named tracesql.so
if command -v ldconfig >/dev/null || [ -x /sbin/ldconfig ]; then
  ldc=$(command -v ldconfig || echo /sbin/ldconfig)
  echo "$root/lib" > "$tmp/ld.conf"
  "$ldc" -C "$tmp/ld.cache" -f "$tmp/ld.conf" 2>/dev/null
  "$ldc" -C "$tmp/ld.cache" -p 2>/dev/null | grep -q "tracesql.so (.*) => $root/lib/tracesql.so" ||
    bad "ldconfig does not record tracesql.so for $root/lib"
else
  echo "SKIP: no ldconfig — the loader cache entry NOT checked"
fi
# .load by name, the loader searching the installed lib/ (as its cache does after ldconfig)
got=$(cd "$tmp" && LD_LIBRARY_PATH=$root/lib "$sqlite" -batch :memory: -cmd '.load tracesql' \
      "SELECT trace_open('$root/share/tracesql/demo_trace.json.gz')" "SELECT count(*) FROM kernels" 2>&1)
[ "$got" = $'1\n131' ] || bad ".load tracesql by name: $got"
# the installed commands find the installed extension and their library beside them
unset TSQL_EXT
demo=$root/share/tracesql/demo_trace.json.gz
# run NAME COMMAND ARGS...: the installed command in $tmp, its output in $tmp/NAME.log
run() {
  local name=$1; shift
  (cd "$tmp" && "$root/bin/$name" "$@" > "$tmp/$name.log" 2>&1) || { bad "$name $*"; cat "$tmp/$name.log"; }
}
run tracesql-perf-report "$demo" out
[ -s "$tmp/out/gpu_timeline.csv" ] || bad "tracesql-perf-report wrote no gpu_timeline.csv"
grep -q "^tracesql-perf-report: wrote the sheets (gpu_timeline.csv, " "$tmp/tracesql-perf-report.log" ||
  bad "tracesql-perf-report did not say what it wrote"
run tracesql-perf-report "$demo"
grep -q '^## GPU timeline$' "$tmp/tracesql-perf-report.log" || bad "tracesql-perf-report printed no summary"
run tracesql-inference-report "$demo" inf
[ -s "$tmp/inf/ops_summary.csv" ] || bad "tracesql-inference-report wrote no ops_summary.csv"
grep -q "^tracesql-inference-report: wrote the sheets (gpu_timeline.csv, " "$tmp/tracesql-inference-report.log" ||
  bad "tracesql-inference-report did not say what it wrote"
run tracesql-inference-report "$demo"
grep -q '^## Top 10 ops$' "$tmp/tracesql-inference-report.log" || bad "tracesql-inference-report printed no summary"
run tracesql-diff-report "$demo" "$demo" diff
[ -s "$tmp/diff/merged_tree_output.txt" ] || bad "tracesql-diff-report wrote no merged_tree_output.txt"
run tracesql-compare-platforms "$demo" "$demo" cmp
[ -s "$tmp/cmp/operations.csv" ] && [ -s "$tmp/cmp/summary.md" ] || bad "tracesql-compare-platforms wrote no operations.csv/summary.md"
run tracesql-compare-reports --names a,b reports "$tmp/out" "$demo"
[ -s "$tmp/reports/gpu_timeline.csv" ] || bad "tracesql-compare-reports wrote no gpu_timeline.csv"
run tracesql-collective-report coll "$demo"
[ -s "$tmp/coll/nccl_long.csv" ] || bad "tracesql-collective-report wrote no nccl_long.csv"
run tracesql-hta-report hta "$demo"
[ -s "$tmp/hta/temporal_breakdown.csv" ] && [ -f "$tmp/hta/critical_path_summary.csv" ] ||
  bad "tracesql-hta-report wrote no temporal_breakdown.csv/critical_path_summary.csv"
run tracesql-hta-report "$demo"
grep -q '^## Temporal breakdown' "$tmp/tracesql-hta-report.log" || bad "tracesql-hta-report printed no summary"
run tracesql-html-report "$demo" r.html
grep -q '<h2>Roofline</h2>' "$tmp/r.html" 2>/dev/null || bad "tracesql-html-report wrote no page"
# two traces: the comparison's SQL is found in the installed layout too
run tracesql-html-report "$demo" "$demo" r2.html
grep -q '<h2>GPU time per operation</h2>' "$tmp/r2.html" 2>/dev/null || bad "tracesql-html-report wrote no comparison"
# every installed command was run above
ncmd=0
for c in "$root"/bin/tracesql-*; do
  ncmd=$((ncmd + 1))
  [ -f "$tmp/$(basename "$c").log" ] || bad "$(basename "$c") is installed but not run by this test"
done

make --no-print-directory uninstall DESTDIR="$dest" PREFIX=$prefix > "$log" 2>&1 || { cat "$log"; bad "make uninstall"; }
left=$(find "$dest" -type f -o -type l)
[ -z "$left" ] || bad "left after uninstall: $left"
[ "$fail" = 0 ] && echo "install: DESTDIR layout (lib, bin, share/tracesql, share/doc/tracesql/docs), soname tracesql.so recorded by ldconfig, .load tracesql by name, all $ncmd installed commands run, uninstall leaves no file"
[ "$fail" = 0 ]
