#!/usr/bin/env bash
# Dumps every comparison output (gpu_ops of each trace; compare_ops, compare_layers,
# compare_kernels, compare_fusion, compare_metadata for all phases and each phase;
# compare_stacks of every operation) for every H100 / MI300 pair of
# ../shared/conformance/tracelens and the hand-made traces of tests/sql/compare, into
# one CSV file per pair under OUT. Run it with two builds and diff the directories to
# check that a change to the comparison's implementation leaves its results unchanged:
#   TSQL_EXT=build/old/tracesql tests/compare/dump_outputs.sh build/dump-old
#   TSQL_EXT=build/tracesql     tests/compare/dump_outputs.sh build/dump-new
#   diff -r build/dump-old build/dump-new
# Extra pairs: TSQL_DUMP_PAIRS="name:baseline.json:variant.json ...".
set -eu
cd "$(dirname "$0")/../.."
out=${1:?usage: dump_outputs.sh OUT_DIR}
ext=${TSQL_EXT:-build/tracesql}
mkdir -p "$out"
pairs="sglang_vllm:tests/sql/compare/sglang_like.json:tests/sql/compare/vllm_like.json"
pairs="$pairs vllm_sglang:tests/sql/compare/vllm_like.json:tests/sql/compare/sglang_like.json"
tl=../shared/conformance/tracelens
if [ -d "$tl/h100" ] && [ -d "$tl/mi300" ]; then
  for b in "$tl"/h100/*.json.gz; do
    v=$tl/mi300/$(basename "$b")
    [ -f "$v" ] && pairs="$pairs $(basename "$b" .json.gz):$b:$v"
  done
else
  echo "SKIP: $tl not found — only the hand-made pairs are dumped" >&2
fi
pairs="$pairs ${TSQL_DUMP_PAIRS:-}"
for p in $pairs; do
  IFS=: read -r name b v <<< "$p"
  # the statements: per phase present in either trace (and all phases), per operation
  sql=$(mktemp "${TMPDIR:-/tmp}/tsql-dump.XXXXXX")
  {
    echo "SELECT trace_open('$b', 'b') IS NOT NULL AS b, trace_open('$v', 'v') IS NOT NULL AS v;"
    echo "SELECT * FROM gpu_ops('b');"
    echo "SELECT * FROM gpu_ops('v');"
    "${SQLITE3:-sqlite3}" -bail -batch :memory: -cmd ".load $ext" -noheader -list \
      "SELECT trace_open('$b', 'b') IS NULL, trace_open('$v', 'v') IS NULL;" \
      "SELECT DISTINCT phase FROM (SELECT phase FROM gpu_ops('b') UNION SELECT phase FROM gpu_ops('v'))
       WHERE phase IS NOT NULL ORDER BY 1;" |
    tail -n +2 | while read -r ph; do
      for f in compare_ops compare_layers compare_kernels compare_fusion compare_metadata; do
        echo "SELECT '$f $ph'; SELECT * FROM $f('b', 'v', '$ph');"
      done
    done
    for f in compare_ops compare_layers compare_kernels compare_fusion compare_metadata; do
      echo "SELECT '$f'; SELECT * FROM $f('b', 'v');"
      echo "SELECT '$f reversed'; SELECT * FROM $f('v', 'b');"
    done
    echo "SELECT 'stacks'; SELECT s.* FROM (SELECT DISTINCT op FROM gpu_ops('b')) o,"
    echo "  compare_stacks('b', o.op, 0) s ORDER BY o.op;"
    echo "SELECT s.* FROM (SELECT DISTINCT op FROM gpu_ops('v')) o, compare_stacks('v', o.op, 0) s ORDER BY o.op;"
  } > "$sql"
  "${SQLITE3:-sqlite3}" -bail -batch :memory: -cmd ".load $ext" -cmd '.mode csv' -cmd '.headers on' \
    -cmd '.nullvalue NULL' < "$sql" > "$out/$name.csv"
  rm -f "$sql"
  echo "$out/$name.csv: $(wc -l < "$out/$name.csv") lines"
done
