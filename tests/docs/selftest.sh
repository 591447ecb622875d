#!/usr/bin/env bash
# The docs checker must fail on what it is there to catch: each case below breaks a
# copy of docs/ in one way and expects the checker to exit 1 with the given FAIL line
# (and the unbroken copy to pass). Run by make test-docs.
#   PYTHON (default /usr/bin/python3), TSQL_EXT (default build/tracesql)
set -u
cd "$(dirname "$0")/../.."
py=${PYTHON:-/usr/bin/python3}
ext=${TSQL_EXT:-build/tracesql}
work=build/tmp/docs_selftest
pass=0
fail=0

# case NAME EXPECTED-FAIL-TEXT FILE SED-SCRIPT [checker options]
case_() {
  local name=$1 want=$2 file=$3 script=$4
  shift 4
  rm -rf "$work" && mkdir -p "$work" && cp docs/*.md "$work"/
  if [ -n "$file" ]; then
    sed -i "$script" "$work/$file"
    if cmp -s "docs/$file" "$work/$file"; then
      echo "FAIL selftest $name: the edit changed nothing (update the case)"
      fail=$((fail + 1))
      return
    fi
  fi
  out=$("$py" tests/docs/check_docs.py "$ext" --docs "$work" --surface-cache build/tmp/docs_surface.json "$@" 2>&1)
  rc=$?
  if [ -z "$want" ]; then
    if [ $rc = 0 ]; then pass=$((pass + 1)); else
      echo "FAIL selftest $name: the unchanged docs do not pass"; echo "$out" | head -5
      fail=$((fail + 1)); fi
  elif [ $rc = 1 ] && grep -qF -- "$want" <<<"$out"; then
    pass=$((pass + 1))
  else
    echo "FAIL selftest $name: expected exit 1 and '$want', got exit $rc"
    echo "$out" | tail -5
    fail=$((fail + 1))
  fi
}

case_ unchanged "" "" "" --no-blocks
case_ undocumented_column '`traces`.`link_key`: column not documented' \
  schema.md '/^| link_key | TEXT |/d' --no-blocks
case_ stale_column 'column `no_such_column` listed under' \
  schema.md 's/^| link_key | TEXT |/| link_key, no_such_column | TEXT |/' --no-blocks
case_ stale_object '`no_such_view` is not a table or view' \
  report.md 's/^### `short_kernel_histogram` (view)/### `no_such_view` (view)/' --no-blocks
case_ undocumented_object '`short_kernel_histogram`: no heading naming it' \
  report.md 's/^### `short_kernel_histogram` (view)/### The histogram/' --no-blocks
case_ unit_by_name 'dur_sum_us`: the name says µs' \
  report.md 's/^| dur_sum_us | REAL | µs |/| dur_sum_us | REAL | ms |/' --no-blocks
case_ unknown_unit 'is not a unit of the convention' \
  schema.md 's/^| json_bytes | INTEGER | bytes |/| json_bytes | INTEGER | octets |/' --no-blocks
case_ type_held '`gpu_timeline`.`time_ms`: holds REAL' \
  report.md 's/^| time_ms | REAL | ms |/| time_ms | INTEGER | ms |/' --no-blocks
case_ hidden_parameter '`events`.`trace`: hidden parameter column' \
  schema.md '0,/^| trace | HIDDEN |/s//| trace | TEXT |/' --no-blocks
case_ function_heading 'function first(): no heading names it' \
  functions.md 's/^### first(x \[, ord\])/### The first value/' --no-blocks
case_ function_example 'function busy_time(): no runnable' \
  functions.md 's/^SELECT busy_time(ts, dur) FROM kernels/SELECT 18.0 AS busy FROM kernels/' --no-blocks
case_ function_stale '`no_such_function(` is not a function' \
  functions.md 's/^### tracesql_version$/### tracesql_version, no_such_function()/' --no-blocks
case_ function_index 'function trace_close(): not in the index' \
  functions.md '/^| `trace_close(trace)` |/d' --no-blocks
case_ architecture_file 'core/util/buf.c is not in' \
  architecture.md 's/`core\/util\/buf.c`, //' --no-blocks
case_ stale_path '`core/no_such_file.c` does not exist' \
  reliability.md '0,/core\/input\/source.c/s//core\/no_such_file.c/' --no-blocks
case_ block_error 'no such function: no_such_function' \
  functions.md 's/^SELECT tracesql_version() LIKE/SELECT no_such_function() LIKE/' --blocks-of functions.md
case_ block_output 'output line 1: got' \
  functions.md 's/^3.0|3.605551|2.94392$/3.0|3.605551|2.9/' --blocks-of functions.md
case_ standalone 'cites ../shared or a' \
  report.md '0,/^Times are µs/s//Times (see ..\/shared\/docs\/x.md) are µs/' --no-blocks
# the surface pin: a name that disappears, a name that is new
surface_case() {
  local name=$1 want=$2 file=$3 script=$4
  rm -rf "$work" && mkdir -p "$work" && cp tests/sql/surface/*.txt "$work"/
  sed -i "$script" "$work/$file"
  out=$("$py" tests/sql/surface/check_surface.py --lists "$work" "$ext" 2>&1)
  if [ $? = 1 ] && grep -qF -- "$want" <<<"$out"; then pass=$((pass + 1)); else
    echo "FAIL selftest $name: expected exit 1 and '$want'"; echo "$out" | tail -3
    fail=$((fail + 1)); fi
}
surface_case view_disappears 'views.txt: no_such_view disappeared' views.txt '$a no_such_view'
surface_case function_new 'functions.txt: busy_time/2 is new' functions.txt '/^busy_time\/2$/d'
surface_case module_disappears 'modules.txt: no_such_module disappeared' modules.txt '$a no_such_module'
rm -rf "$work"
echo "docs selftest: $pass passed, $fail failed"
[ "$fail" = 0 ]
