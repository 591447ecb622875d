#!/usr/bin/env bash
# test_check_layout.sh — check_layout.sh fails on an include that runs back up.
# On a copy of core/ and ext/: the copy as it is passes; then each include added the
# wrong way (catalog -> framework, framework -> a table, a function -> the entry, a
# core stage -> a later one) must fail with a line naming the file and the layers. Prints "check_layout self-test: N passed, M failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0

fresh() { rm -rf "$tmp/t"; mkdir -p "$tmp/t"; cp -r "$root/core" "$root/ext" "$tmp/t/"; }
run() { TSQL_LAYOUT_ROOT="$tmp/t" bash "$here/check_layout.sh" > "$tmp/out" 2>&1; }

fresh
if run; then pass=$((pass + 1)); else echo "FAIL self-test: the tree as it is fails:"; cat "$tmp/out"; fail=$((fail + 1)); fi

# file to edit | include to add | what the failure line must name
while IFS='|' read -r file inc expect; do
    fresh
    printf '#include "%s"\n' "$inc" >> "$tmp/t/$file"
    if run; then
        echo "FAIL self-test: $file including $inc passed the layout check"; fail=$((fail + 1))
    elif ! grep -q "FAIL layout: $file:.*$expect" "$tmp/out"; then
        echo "FAIL self-test: $file including $inc: no line naming it:"; cat "$tmp/out"; fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
done <<'CASES'
ext/catalog/catalog.c|vtab/table.h|catalog includes "vtab/table.h", of a higher layer (table framework)
ext/catalog/catalog.h|func/compare.c|catalog includes "func/compare.c", of a higher layer (tables and functions)
ext/vtab/table.c|vtab/hta.h|table framework includes "vtab/hta.h", of a higher layer (tables and functions)
ext/vtab/table.h|vtab/compare_events.h|table framework includes "vtab/compare_events.h"
ext/func/perf.c|tracesql.c|tables and functions includes "tracesql.c", of a higher layer (entry)
core/util/buf.c|store/trace.h|util includes "store/trace.h", a later stage
CASES

echo "check_layout self-test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
