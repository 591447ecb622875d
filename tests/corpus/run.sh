#!/usr/bin/env bash
# Loads every file of the malformed-trace corpus (tests/corpus/files/) through the
# sqlite3 shell with the extension and checks it against tests/corpus/expected.csv:
#   - "loads": trace_open succeeds, traces.warnings is as expected, the listed warning
#     codes are in trace_warnings, and every table reads without error;
#   - "error": trace_open fails with "tracesql: <file>: <detail...>" and leaves
#     nothing open (SELECT count(*) FROM traces = 0).
# In both cases the shell must not crash (exit status >= 2, a signal) nor hang (timeout).
#   TSQL_EXT        extension to load (default build/tracesql)
#   TSQL_TIMEOUT    seconds per file (default 60)
#   TSQL_SUITE      name printed in the summary (default corpus)
#   TSQL_PRELOAD    libraries to LD_PRELOAD into the shell only (the ASan runtime)
#   TSQL_UPDATE=1   fill the '?' fields of expected.csv from what is observed (review!)
set -u
cd "$(dirname "$0")/../.."
ext=${TSQL_EXT:-build/tracesql}
sqlite=${SQLITE3:-sqlite3}
limit=${TSQL_TIMEOUT:-60}
suite=${TSQL_SUITE:-corpus}
dir=tests/corpus/files
exp=tests/corpus/expected.csv
pass=0
fail=0
observed=$(mktemp)
trap 'rm -f "$observed"' EXIT

rows=$(python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline="")):
    print("\t".join([r["file"], r["outcome"], r["warnings"], r["detail"]]))' "$exp")

while IFS=$'\t' read -r file outcome warnings detail; do
  f="$dir/$file"
  out=$(timeout "$limit" env ${TSQL_PRELOAD:+LD_PRELOAD="$TSQL_PRELOAD"} "$sqlite" -batch :memory: -cmd ".load $ext" -cmd '.mode list' \
        -cmd '.nullvalue NULL' 2>&1 <<SQL
.bail off
SELECT 'OPEN=' || trace_open('$f');
SELECT 'OPEN_TRACES=' || count(*) FROM traces;
SELECT 'WARNINGS=' || warnings FROM traces;
SELECT 'CODES=' || coalesce(group_concat(code, ';'), '') FROM (SELECT DISTINCT code FROM trace_warnings ORDER BY code);
SELECT 'ROWS=' || (SELECT count(*) FROM trace_warnings) || ',' || (SELECT count(*) FROM events)
  || ',' || (SELECT sum(length(args)) FROM events) || ',' || (SELECT count(*) FROM kernels)
  || ',' || (SELECT count(*) FROM tree_edges);
-- args are valid JSON, save raw control bytes inside strings (kept byte for byte, s02)
SELECT 'ARGS_NOT_JSON=' || (SELECT count(*) FROM events WHERE args IS NOT NULL AND NOT json_valid(args)
  AND NOT EXISTS (WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 31)
                  SELECT 1 FROM c WHERE instr(args, char(i)) > 0));
SELECT 'COLL=' || (SELECT count(*) FROM coll_warnings) || ',' || (SELECT count(*) FROM nccl_long);
SQL
)
  rc=$?
  why=""
  if [ "$rc" -ge 2 ]; then
    why="shell exited with status $rc (crash, signal or timeout)"
  else
    open_traces=$(printf '%s\n' "$out" | sed -n 's/^OPEN_TRACES=//p')
    got_w=$(printf '%s\n' "$out" | sed -n 's/^WARNINGS=//p')
    codes=$(printf '%s\n' "$out" | sed -n 's/^CODES=//p')
    err=$(printf '%s\n' "$out" | grep -m1 'tracesql: ' | sed 's/^.*tracesql: /tracesql: /')
    if [ "$outcome" = loads ]; then
      printf '%s\tloads\t%s\t%s\n' "$file" "$got_w" "$codes" >> "$observed"
      if ! printf '%s\n' "$out" | grep -q '^OPEN=[0-9]'; then
        why="expected to load; got: ${err:-$out}"
      elif [ "$open_traces" != 1 ]; then
        why="traces has $open_traces rows after one open"
      elif [ "$warnings" != "?" ] && [ "$got_w" != "$warnings" ]; then
        why="warnings: got $got_w, expected $warnings (codes: $codes)"
      elif ! printf '%s\n' "$out" | grep -q '^ARGS_NOT_JSON=0$'; then
        why="args that are not valid JSON: $(printf '%s\n' "$out" | grep -m1 ARGS_NOT_JSON)"
      elif printf '%s\n' "$out" | grep -q 'Error'; then
        why="a table failed to read: $(printf '%s\n' "$out" | grep -m1 Error)"
      else
        IFS=';' read -ra want <<< "$detail"
        for c in "${want[@]}"; do
          case ";$codes;" in *";$c;"*) ;; *) why="warning code $c not in trace_warnings ($codes)";; esac
        done
      fi
    else
      printf '%s\terror\t\t%s\n' "$file" "${err#tracesql: $f: }" >> "$observed"
      if printf '%s\n' "$out" | grep -q '^OPEN=[0-9]'; then
        why="expected an error; it loaded"
      elif [ "$open_traces" != 0 ]; then
        why="a failed open left $open_traces trace(s) open"
      elif [ "$detail" != "?" ]; then
        case "$err" in
          "tracesql: $f: "*"$detail"*) ;;
          *) why="error: got '$err', expected 'tracesql: $f: ...$detail...'";;
        esac
      fi
    fi
  fi
  if [ -n "$why" ]; then
    fail=$((fail + 1))
    echo "FAIL $file: $why"
  else
    pass=$((pass + 1))
  fi
done <<< "$rows"

if [ "${TSQL_UPDATE:-0}" = 1 ]; then
  python3 - "$exp" "$observed" <<'PY'
import csv, sys
exp, obs = sys.argv[1], sys.argv[2]
seen = {}
for line in open(obs):
    f, outcome, w, d = line.rstrip("\n").split("\t")
    seen[f] = (outcome, w, d)
rows = list(csv.DictReader(open(exp, newline="")))
for r in rows:
    o = seen.get(r["file"])
    if not o or o[0] != r["outcome"]:
        continue
    if r["warnings"] == "?":
        r["warnings"] = o[1]
    if r["detail"] == "?":
        r["detail"] = o[2]
with open(exp, "w", newline="") as f:
    w = csv.DictWriter(f, ["file", "outcome", "warnings", "detail", "what"], lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
print("updated", exp, "- review the diff")
PY
fi
echo "$suite: $pass passed, $fail failed"
[ "$fail" = 0 ]
