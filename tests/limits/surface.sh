#!/usr/bin/env bash
# The safe SQL surface, checked with the sqlite3 shell:
#   1. trace_export writes a file that a stock sqlite3 (no extension) opens and queries;
#      it refuses to overwrite a non-empty file unless told 'replace';
#   2. a view or trigger in a database someone else wrote cannot call trace_open or
#      trace_export ("unsafe use of ..."), and nothing is opened or written;
#   3. the functions that open or write files or change the configuration are
#      SQLITE_DIRECTONLY, and every other function the extension registers is either
#      DIRECTONLY too or SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS (pure), save the few
#      listed as stateful below (INNOCUOUS).
#   TSQL_EXT extension to load (default build/tracesql); temp files in build/tmp.
set -u
cd "$(dirname "$0")/../.."
ext=${TSQL_EXT:-build/tracesql}
sqlite=${SQLITE3:-sqlite3}
tmp=build/tmp/surface
rm -rf "$tmp" && mkdir -p "$tmp"
pass=0
fail=0
check() { # check NAME GOT WANT
  if [ "$2" = "$3" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); printf 'FAIL %s:\n  got:  %s\n  want: %s\n' "$1" "$2" "$3"; fi
}
contains() { # contains NAME TEXT SUBSTRING
  case "$2" in *"$3"*) pass=$((pass + 1));; *) fail=$((fail + 1)); printf 'FAIL %s:\n  got:  %s\n  want it to contain: %s\n' "$1" "$2" "$3";; esac
}
x() { "$sqlite" -batch :memory: -cmd ".load $ext" "$@" 2>&1; }

# --- 1. export -------------------------------------------------------------------
db=$tmp/export.db
n=$(x "SELECT trace_open('tests/data/tree_rules.json')" "SELECT trace_export(1, '$db')" | tail -1)
total=$("$sqlite" -batch "$db" "SELECT (SELECT count(*) FROM traces) + (SELECT count(*) FROM events)
  + (SELECT count(*) FROM kernels) + (SELECT count(*) FROM tree_edges) + (SELECT count(*) FROM trace_warnings)")
views=$("$sqlite" -batch "$db" "SELECT group_concat(name) FROM sqlite_master WHERE type = 'table'
  AND name NOT IN ('traces', 'events', 'kernels', 'tree_edges', 'trace_warnings', 'meta')")
vrows=0
for v in ${views//,/ }; do vrows=$((vrows + $("$sqlite" -batch "$db" "SELECT count(*) FROM \"$v\""))); done
check "export returns the rows written" "$n" "$((total + vrows))"
check "stock sqlite3 reads the export" "$("$sqlite" -batch "$db" "PRAGMA integrity_check" \
  "SELECT count(*) FROM events" "SELECT count(*) FROM kernels" "SELECT label, events, warnings FROM traces")" \
  "$(printf 'ok\n36\n8\ntree_rules|36|1')"
check "plain tables, same columns as the virtual ones (no hidden trace column)" \
  "$("$sqlite" -batch "$db" "SELECT group_concat(name) FROM pragma_table_info('tree_edges')")" \
  "$(x "SELECT group_concat(name) FROM pragma_table_info('tree_edges')")"
check "declared types kept" "$("$sqlite" -batch "$db" "SELECT type FROM pragma_table_info('events') WHERE name IN ('uid', 'ts', 'name') ORDER BY name")" \
  "$(printf 'TEXT\nREAL\nINTEGER')"
check "indexes on trace_id / uid / parent_uid / name" "$("$sqlite" -batch "$db" "SELECT group_concat(name) FROM (SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('events', 'tree_edges') ORDER BY name)")" \
  "events_name,events_parent_uid,events_trace_id,events_uid,tree_edges_parent_uid,tree_edges_trace_id"
check "a join a BI tool would make" "$("$sqlite" -batch "$db" "SELECT e.name FROM kernels k JOIN events e ON e.trace_id = k.trace_id AND e.uid = k.uid ORDER BY k.uid LIMIT 1")" \
  "$(x "SELECT trace_open('tests/data/tree_rules.json')" "SELECT e.name FROM kernels k JOIN events e ON e.trace_id = k.trace_id AND e.uid = k.uid ORDER BY k.uid LIMIT 1" | tail -1)"
if [ -n "$views" ]; then
  v=${views%%,*}
  check "view $v materialised for the trace" "$("$sqlite" -batch "$db" "SELECT count(*) FROM \"$v\"")" \
    "$(x "SELECT trace_open('tests/data/tree_rules.json')" "SELECT count(*) FROM temp.\"$v\" WHERE trace_id = 1" | tail -1)"
fi
before=$(cksum < "$db")
out=$(x "SELECT trace_open('tests/data/tree_rules.json')" "SELECT trace_export(1, '$db')")
contains "no overwrite without 'replace'" "$out" "tracesql: $db: file exists and is not empty; pass 'replace'"
check "the refused file is untouched" "$(cksum < "$db")" "$before"
out=$(x "SELECT trace_open('tests/data/old_bare_array.json', 'old')" "SELECT trace_export('old', '$db', 'replace')" | tail -1)
check "'replace' overwrites" "$("$sqlite" -batch "$db" "SELECT label FROM traces")" "old"
out=$(x "SELECT trace_export(7, '$tmp/none.db')")
contains "unknown trace" "$out" "no open trace with trace_id 7"
check "nothing written for an unknown trace" "$(ls "$tmp" | grep -c none)" "0"
out=$(x "SELECT trace_open('tests/data/tree_rules.json')" "SELECT trace_export(1, '$tmp/no/such/dir/x.db')")
contains "unwritable target" "$out" "tracesql: $tmp/no/such/dir/x.db: the directory of the file does not exist; create it first (mkdir -p)"
: > "$tmp/empty.db"
n=$(x "SELECT trace_open('tests/data/tree_rules.json')" "SELECT trace_export(1, '$tmp/empty.db') > 0" | tail -1)
check "an empty existing file may be written" "$n" "1"

# --- 2. untrusted schema -----------------------------------------------------------------
evil=$tmp/untrusted.db
"$sqlite" -batch "$evil" "CREATE VIEW v_open AS SELECT trace_open('tests/data/tree_rules.json') AS id;
  CREATE TABLE log(x);
  CREATE TRIGGER t_export AFTER INSERT ON log BEGIN SELECT trace_export(1, '$tmp/stolen.db'); END;
  CREATE VIEW v_config AS SELECT tracesql_config('memory_limit_mb', 1) AS m;
  CREATE VIEW v_tvf AS SELECT count(*) AS n FROM events('tests/data/tree_rules.json');"
out=$("$sqlite" -batch "$evil" -cmd ".load $ext" "SELECT * FROM v_open" 2>&1)
contains "a view cannot call trace_open" "$out" "unsafe use of trace_open()"
out=$("$sqlite" -batch "$evil" -cmd ".load $ext" "SELECT trace_open('tests/data/tree_rules.json')" "INSERT INTO log VALUES (1)" 2>&1)
contains "a trigger cannot call trace_export" "$out" "unsafe use of trace_export()"
check "nothing exported by the trigger" "$([ -e "$tmp/stolen.db" ] && echo exists || echo absent)" "absent"
check "the trigger's insert did not happen" "$("$sqlite" -batch "$evil" "SELECT count(*) FROM log")" "0"
out=$("$sqlite" -batch "$evil" -cmd ".load $ext" "SELECT * FROM v_config" 2>&1)
contains "a view cannot change the configuration" "$out" "unsafe use of tracesql_config()"
out=$("$sqlite" -batch "$evil" -cmd ".load $ext" "SELECT * FROM v_tvf" 2>&1)
contains "a view cannot open a file through a table-valued function" "$out" 'unsafe use of virtual table "events"'
out=$(printf '.bail off\nSELECT * FROM v_open;\nSELECT count(*) FROM traces;\n' | "$sqlite" -batch "$evil" -cmd ".load $ext" 2>&1 | tail -1)
check "nothing opened by the view" "$out" "0"

# --- 3. function flags ------------------------------------------------------------------
list='SELECT name || "/" || narg FROM pragma_function_list WHERE builtin = 0 ORDER BY 1'
mine=$(comm -13 <("$sqlite" -batch :memory: "$list") <(x "$list"))
file_fns="trace_close/1 trace_export/2 trace_export/3 trace_open/1 trace_open/2 tracesql_config/1 tracesql_config/2"
# not pure on purpose: they read the connection's editable gpu_specs table, so they are
# INNOCUOUS but not DETERMINISTIC (ext/vtab/gpu_specs.c)
# python_frame_at reads the traces open in memory (never opens a file);
# kernel_op reads the editable kernel_op_rules table; compare_arg (and hta_arg) the arguments of the
# comparison call running on the connection; raise_error is never DETERMINISTIC, so that
# SQLite cannot evaluate it ahead of the CASE branch that calls it (ext/func/compare.c)
stateful_fns="gpu_spec_for/1 gpu_peak_tflops/2 gpu_mem_bw_gbps/1 gpu_roofline/5 kernel_op/1 kernel_op/2 compare_arg/1 hta_arg/1 raise_error/1 python_frame_at/2 python_frame_at/3"
bad=""
ndirect=0
npure=0
for f in $mine; do
  flags=$(x "SELECT flags FROM pragma_function_list WHERE name = '${f%/*}' AND narg = ${f#*/} LIMIT 1")
  direct=$(( (flags & 0x80000) != 0 ))
  pure=$(( (flags & 0x800) != 0 && (flags & 0x200000) != 0 ))
  case " $file_fns " in
    *" $f "*) [ "$direct" = 1 ] || bad="$bad $f(not DIRECTONLY)"; ndirect=$((ndirect + 1)); continue;;
  esac
  if [ "$direct" = 1 ]; then ndirect=$((ndirect + 1)); continue; fi # cannot run from a schema
  case " $stateful_fns " in
    *" $f "*) [ $(( (flags & 0x200000) != 0 )) = 1 ] || bad="$bad $f(not INNOCUOUS)";;
    *) [ "$pure" = 1 ] || bad="$bad $f(not DETERMINISTIC|INNOCUOUS)"; npure=$((npure + 1));;
  esac
done
[ "$ndirect" -ge 7 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL only $ndirect DIRECTONLY functions"; }
check "every other function is DETERMINISTIC | INNOCUOUS (or listed as stateful)" "${bad:-none}" "none"
[ "$npure" -ge 2 ] || { fail=$((fail + 1)); echo "FAIL only $npure pure functions found"; }
echo "pure functions checked: $npure; DIRECTONLY: $ndirect"

rm -rf "$tmp"
echo "surface: $pass passed, $fail failed"
[ "$fail" = 0 ]
