#!/usr/bin/env bash
# test_sql_graph.sh — the sql/ graph checker fails where it must (make test-layout):
# hand-made sql folders, one per rule broken, each must fail with its message; a good
# one must pass; sql/order.awk must order it (and the real sql/) as the checker does,
# and must fail on a cycle.
set -u
cd "$(dirname "$0")/../.."
py=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsql-sqlgraph.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL sql graph selftest: $*"; fail=$((fail + 1)); }

# a good folder: base < mid < top; a private helper read inside its area
good() {
    local d=$1; rm -rf "$d"; mkdir -p "$d/base" "$d/mid" "$d/top"
    printf '0 base\n1 mid\n2 top\n' > "$d/layers.txt"
    printf -- '-- module: base.params\n\nCREATE TEMP TABLE IF NOT EXISTS params(name, value);\n' > "$d/base/params.sql"
    printf -- "-- module: mid._rows\n-- requires: base.params\n\n-- a comment naming top_view is no read\nCREATE TEMP VIEW IF NOT EXISTS _rows AS SELECT value, 'top_view' AS s FROM params;\n" > "$d/mid/_rows.sql"
    printf -- '-- module: mid.mid_view\n-- requires: mid._rows\n\nCREATE TEMP VIEW IF NOT EXISTS mid_view AS\nWITH params AS (SELECT 1 AS value) SELECT r.value FROM _rows r, params;\n' > "$d/mid/mid_view.sql"
    printf -- '-- module: top.top_view\n-- requires: base.params,\n-- requires: mid.mid_view\n\nCREATE TEMP VIEW IF NOT EXISTS top_view AS SELECT * FROM mid_view, params;\n' > "$d/top/top_view.sql"
}

# case NAME 'expected message' COMMAND...: COMMAND breaks a good folder in $d
case_() {
    local name=$1 want=$2; shift 2
    d=$tmp/$name; good "$d"
    "$@"
    out=$("$py" tests/build/check_sql_graph.py "$d" 2>&1) && { bad "$name: the checker passed"; return; }
    if printf '%s\n' "$out" | grep -qF -- "$want"; then ok; else bad "$name: no '$want' in: $out"; fi
}

d=$tmp/good; good "$d"
if out=$("$py" tests/build/check_sql_graph.py "$d" 2>&1); then ok; else bad "the good folder failed: $out"; fi
want=$(printf 'base/params.sql\nmid/_rows.sql\nmid/mid_view.sql\ntop/top_view.sql')
[ "$("$py" tests/build/check_sql_graph.py --order "$d")" = "$want" ] && ok || bad "checker order of the good folder"
got=$(LC_ALL=C awk -f sql/order.awk "$d/layers.txt" $(find "$d" -name '*.sql' | LC_ALL=C sort -r) | sed "s|^$d/||")
[ "$got" = "$want" ] && ok || bad "order.awk's order of the good folder: $got"

case_ higher_layer 'reads top_view (top.top_view), a higher layer' \
    eval 'printf -- "-- module: mid.up\n-- requires: top.top_view\n\nCREATE TEMP VIEW up AS SELECT * FROM top_view;\n" > $d/mid/up.sql'
case_ undeclared 'reads params (base.params), not in its requires' \
    eval 'sed -i "/requires: base.params/d" $d/mid/_rows.sql'
case_ transitive_only 'reads _rows (mid._rows), not in its requires' \
    eval 'sed -i "s/FROM mid_view, params/FROM mid_view, _rows, params/" $d/top/top_view.sql'
case_ unused_requires 'requires base.params but reads none of its names' \
    eval 'sed -i "s/-- requires: mid._rows/-- requires: mid._rows, base.params/" $d/mid/mid_view.sql'
case_ unknown_module 'requires mid.nothing, which no file declares' \
    eval 'sed -i "s/-- requires: mid._rows/-- requires: mid._rows, mid.nothing/" $d/mid/mid_view.sql'
case_ private 'reads _rows (mid._rows), private to sql/mid/' \
    eval 'printf -- "-- module: top.peek\n-- requires: mid._rows\n\nCREATE TEMP VIEW peek AS SELECT * FROM \"_rows\";\n" > $d/top/peek.sql'
case_ peer_area 'another area of the same layer (side, layer 1)' \
    eval 'mkdir $d/side; echo "1 side" >> $d/layers.txt; printf -- "-- module: side.s\n-- requires: mid.mid_view\n\nCREATE TEMP VIEW s AS SELECT * FROM mid_view;\n" > $d/side/s.sql'
case_ no_header "no '-- module: top.top_view' header" \
    eval 'sed -i "/-- module:/d" $d/top/top_view.sql'
case_ wrong_module "module 'top.other' is not the file's path" \
    eval 'sed -i "s/-- module: top.top_view/-- module: top.other/" $d/top/top_view.sql'
case_ no_layer "area 'extra' has no layer in sql/layers.txt" \
    eval 'mkdir $d/extra; printf -- "-- module: extra.e\n\nCREATE TEMP VIEW e AS SELECT 1;\n" > $d/extra/e.sql'
case_ twice 'creates mid_view, already created by' \
    eval 'printf -- "-- module: top.again\n\nCREATE TEMP VIEW IF NOT EXISTS mid_view AS SELECT 1;\n" > $d/top/again.sql'
case_ cycle 'the requires form a cycle among: mid._rows, mid.mid_view' \
    eval 'sed -i "s/-- requires: base.params/-- requires: base.params, mid.mid_view/; s/FROM params;/FROM params, mid_view;/" $d/mid/_rows.sql'

# order.awk refuses a cycle (the build fails)
d=$tmp/cycle
if LC_ALL=C awk -f sql/order.awk "$d/layers.txt" $(find "$d" -name '*.sql') >/dev/null 2>"$tmp/err"; then
    bad "order.awk ordered a cycle"
elif grep -q 'cycle' "$tmp/err"; then ok; else bad "order.awk on a cycle: $(cat "$tmp/err")"; fi

# the real sql/: the checker's order is order.awk's
a=$("$py" tests/build/check_sql_graph.py --order sql)
b=$(LC_ALL=C awk -f sql/order.awk sql/layers.txt $(find sql -name '*.sql' | LC_ALL=C sort) | sed 's|^sql/||')
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "order.awk and the checker order sql/ differently"

echo "sql graph selftest: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
