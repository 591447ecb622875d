#!/usr/bin/env bash
# make install into a staging DESTDIR, then: the files and their layout; the library's
# soname (what ldconfig records, so `.load tracesql` works by name); `.load tracesql`
# by name through the loader's search path; the installed report commands run on the
# installed demo trace; the docs keep their folders; make uninstall leaves nothing.
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
for f in lib/tracesql.so bin/tracesql-perf-report bin/tracesql-html-report \
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
# the installed commands find the installed extension beside them
(cd "$tmp" && "$root/bin/tracesql-perf-report" "$root/share/tracesql/demo_trace.json.gz" out > "$tmp/perf.log" 2>&1) ||
  { bad "tracesql-perf-report"; cat "$tmp/perf.log"; }
[ -s "$tmp/out/gpu_timeline.csv" ] || bad "tracesql-perf-report wrote no gpu_timeline.csv"
(cd "$tmp" && "$root/bin/tracesql-html-report" "$root/share/tracesql/demo_trace.json.gz" r.html > "$tmp/html.log" 2>&1) ||
  { bad "tracesql-html-report"; cat "$tmp/html.log"; }
grep -q '<h2>Roofline</h2>' "$tmp/r.html" 2>/dev/null || bad "tracesql-html-report wrote no page"
# two traces: the comparison's SQL is found in the installed layout too
(cd "$tmp" && "$root/bin/tracesql-html-report" "$root/share/tracesql/demo_trace.json.gz" "$root/share/tracesql/demo_trace.json.gz" r2.html > "$tmp/html2.log" 2>&1) ||
  { bad "tracesql-html-report BASELINE VARIANT"; cat "$tmp/html2.log"; }
grep -q '<h2>GPU time per operation</h2>' "$tmp/r2.html" 2>/dev/null || bad "tracesql-html-report wrote no comparison"
make --no-print-directory uninstall DESTDIR="$dest" PREFIX=$prefix > "$log" 2>&1 || { cat "$log"; bad "make uninstall"; }
left=$(find "$dest" -type f -o -type l)
[ -z "$left" ] || bad "left after uninstall: $left"
[ "$fail" = 0 ] && echo "install: DESTDIR layout (lib, bin, share/tracesql, share/doc/tracesql/docs), soname tracesql.so recorded by ldconfig, .load tracesql by name, installed commands run, uninstall leaves no file"
[ "$fail" = 0 ]
