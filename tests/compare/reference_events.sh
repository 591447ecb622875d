#!/usr/bin/env bash
# The per-event step of the comparison in C (gpu_ops: operation, CPU op and step of every
# GPU event) against the same rules written in SQL
# (tests/compare/reference/compare_events_v.sql, the implementation before the C one),
# which predates the structure rules of phases, passes and layers (docs/compare.md):
# those columns are pinned by tests/sql/compare/structure.sql, modules.sql, phases.sql
# and tests/compare/hopper_structure.sql instead.
# on every trace of ../shared/conformance and the hand-made traces of tests/: every row
# and column must be equal, byte for byte. The conformance traces SKIP loudly when
# ../shared is absent; the hand-made ones always run.
#   TSQL_EXT  extension to load (default build/tracesql)
set -u
cd "$(dirname "$0")/../.."
ext=${TSQL_EXT:-build/tracesql}
traces=$(ls tests/sql/compare/*.json tests/data/compare/*.json tests/data/diff/*.json)
if [ -d ../shared/conformance ]; then
  traces="$traces $(/usr/bin/python3 tests/conformance/discover.py ../shared/conformance traces | grep '\.json\.gz$')"
else
  echo "SKIP: ../shared/conformance not found — reference check on the hand-made traces only"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsql-ref.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# several ProfilerSteps, with and without Python stacks (without them the layers come
# from kernel patterns, per step): the Qwen pair scaled to 3 copies, then stripped
qwen=../shared/conformance/tracelens
if [ -f $qwen/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz ]; then
  for gpu in h100 mi300; do
    env -u LD_PRELOAD /usr/bin/python3 ../shared/tools/scale_trace.py --copies 3 \
      $qwen/$gpu/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz "$tmp/qwen3_$gpu.json" > "$tmp/scale.log" 2>&1 || cat "$tmp/scale.log"
    env -u LD_PRELOAD /usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["traceEvents"] = [e for e in d["traceEvents"] if e.get("cat") != "python_function"]
json.dump(d, open(sys.argv[2], "w"))' "$tmp/qwen3_$gpu.json" "$tmp/qwen3_${gpu}_nopy.json"
    traces="$traces $tmp/qwen3_$gpu.json $tmp/qwen3_${gpu}_nopy.json"
  done
fi
pass=0
fail=0
nogpu=0
for t in $traces; do
  "${SQLITE3:-sqlite3}" -bail -batch :memory: -cmd ".load $ext" -cmd '.mode csv' -cmd '.headers on' \
    -cmd '.nullvalue NULL' > "$tmp/out" 2>&1 <<SQL
.output /dev/null
SELECT trace_open('$t', 't');
.read tests/compare/reference/compare_events_v.sql
INSERT INTO ref_sides VALUES ('trace', 't');
.output $tmp/ref.csv
SELECT trace_id, uid, kind, name, ts, dur, device, stream, op, cpu_op, step
FROM ref_compare_events_v ORDER BY uid;
.output $tmp/c.csv
SELECT trace_id, uid, kind, name, ts, dur, device, stream, op, cpu_op, step FROM gpu_ops('t');
SQL
  if [ -s "$tmp/out" ] || ! cmp -s "$tmp/ref.csv" "$tmp/c.csv"; then
    fail=$((fail + 1))
    echo "FAIL $t"
    cat "$tmp/out"
    diff "$tmp/ref.csv" "$tmp/c.csv" | head -n 10
  else
    pass=$((pass + 1))
    [ -s "$tmp/c.csv" ] || nogpu=$((nogpu + 1))
  fi
done
echo "reference_events: $pass traces equal ($nogpu of them without GPU events), $fail differ"
[ "$fail" = 0 ]
