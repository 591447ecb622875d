#!/usr/bin/env bash
# Comparison tests on real trace pairs: every tests/compare/NAME.sql runs with the
# extension loaded, from the project root, and reads traces under ../shared/conformance;
# its CSV output must equal NAME.expected byte for byte (values derived by hand from the
# traces: see the comments in each .sql). SKIPs loudly when the data is absent.
#   TSQL_EXT      extension to load (default build/tracesql)
#   TSQL_UPDATE=1 rewrite the .expected files instead (review the diff before committing)
set -u
cd "$(dirname "$0")/../.."
if [ ! -d ../shared/conformance/tracelens ]; then
  echo "SKIP: ../shared/conformance not found — comparison tests NOT run"
  exit 0
fi
ext=${TSQL_EXT:-build/tracesql}
pass=0
fail=0
for t in $(find tests/compare -maxdepth 1 -name '*.sql' | sort); do
  exp=${t%.sql}.expected
  got=$("${SQLITE3:-sqlite3}" -bail -batch :memory: -cmd ".load $ext" -cmd '.mode csv' -cmd '.headers on' \
        -cmd '.nullvalue NULL' < "$t" 2>&1)
  if [ "${TSQL_UPDATE:-0}" = 1 ]; then
    printf '%s\n' "$got" > "$exp"; echo "updated $exp"; continue
  fi
  if [ -f "$exp" ] && [ "$got" = "$(cat "$exp")" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL $t"
    if [ -f "$exp" ]; then diff <(printf '%s\n' "$got") "$exp" | head -n 30; else echo "  (no $exp)"; fi
  fi
done
# the report script on the Qwen pair: its files, the JSON's shape, the Markdown's head
exp=tests/compare/report.expected
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsql-compare.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
got=$( { TSQL_EXT=$ext examples/compare_report.sh \
          ../shared/conformance/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz \
          ../shared/conformance/tracelens/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz "$tmp" >/dev/null 2>&1 \
        && (cd "$tmp" && ls) && cut -d, -f1-3,9 "$tmp/operations.csv" && wc -l < "$tmp/layers.csv" \
        && /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sorted(d), sorted(d["metadata"]), len(d["operations"]), len(d["layers"]), d["operations"][0]["operation"], d["metadata"]["variant"]["platform"], d["metadata"]["baseline"]["num_layers"])' "$tmp/comparison.json" \
        && head -11 "$tmp/summary.md"; } 2>&1)
if [ "${TSQL_UPDATE:-0}" = 1 ]; then
  printf '%s\n' "$got" > "$exp"; echo "updated $exp"
elif [ "$got" = "$(cat "$exp")" ]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1)); echo "FAIL examples/compare_report.sh"; diff <(printf '%s\n' "$got") "$exp" | head -n 30
fi
# the report on the Llama generate() trace against itself: the prefill / decode split
# found from the shapes, and one row per layer
exp=tests/compare/report_llama.expected
rm -rf "$tmp/llama"
got=$( { TSQL_EXT=$ext examples/compare_report.sh ../shared/conformance/hopper/llama_generate.json.gz \
          ../shared/conformance/hopper/llama_generate.json.gz "$tmp/llama" >/dev/null 2>&1 \
        && cat "$tmp/llama/phases.csv" && sed -n '/^## Phases/,/^## Operations/p' "$tmp/llama/summary.md" \
        && sed -n '/^## Layers/,$p' "$tmp/llama/summary.md"; } 2>&1)
if [ "${TSQL_UPDATE:-0}" = 1 ]; then
  printf '%s\n' "$got" > "$exp"; echo "updated $exp"
elif [ "$got" = "$(cat "$exp")" ]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1)); echo "FAIL examples/compare_report.sh on llama_generate"; diff <(printf '%s\n' "$got") "$exp" | head -n 30
fi
echo "compare: $pass passed, $fail failed"
[ "$fail" = 0 ]
