#!/usr/bin/env bash
# check_replay.sh — every script replay_script() writes must be valid Python.
#
# Writes one script per op call into build/tmp/replay/ and compiles them all with
# `python3 -m py_compile` (PyTorch is not needed: the scripts are compiled, not run):
#   - every replayable cpu_op of the hand-made trace tests/sql/replay/ops.json (the op
#     kinds of tests/sql/replay/scripts.sql plus hostile names and values);
#   - the first call of every distinct op name with recorded shapes in the conformance
#     traces under ../shared/conformance/ (skipped when that folder is absent).
#   TSQL_EXT   extension to load (default build/tracesql)
#   SQLITE3    sqlite3 shell (default sqlite3); PYTHON (default python3)
set -u
cd "$(dirname "$0")/../.."
ext=${TSQL_EXT:-build/tracesql}
sqlite=${SQLITE3:-sqlite3}
py=${PYTHON:-python3}
out=build/tmp/replay
rm -rf "$out"
mkdir -p "$out"

# the cpu_ops of a trace whose script can be written: an operator name with "::" and
# recorded inputs (the others are refused with an error, see tests/sql/replay/errors.sql)
pick="kind = 'cpu_op' AND name LIKE '%::%' AND name NOT LIKE '%::%::%'
      AND (input_dims IS NOT NULL OR input_type IS NOT NULL)"

# writes the scripts of trace $1 (files $out/$2_<uid>.py); $3 = 1: every such op,
# else the first call of each op name
gen() {
    local trace=$1 tag=$2 all=$3 uids
    if [ "$all" = 1 ]; then
        uids=$("$sqlite" -batch :memory: -cmd ".load $ext" \
               "SELECT uid FROM events('$trace') WHERE $pick ORDER BY uid;") || return 1
    else
        uids=$("$sqlite" -batch :memory: -cmd ".load $ext" \
               "SELECT min(uid) FROM events('$trace') WHERE $pick GROUP BY name ORDER BY 1;") || return 1
    fi
    {
        echo ".bail on"
        echo ".headers off"
        echo ".mode list"
        echo "SELECT trace_open('$trace', 't');"
        for u in $uids; do
            echo ".once $out/${tag}_$u.py"
            echo "SELECT replay_script('t', $u);"
        done
    } > "$out/$tag.sql"
    "$sqlite" -batch :memory: -cmd ".load $ext" < "$out/$tag.sql" >/dev/null || return 1
    echo "$uids" | wc -w
}

fail=0
total=0
n=$(gen tests/sql/replay/ops.json ops 1) || fail=1
total=$((total + ${n:-0}))
conf=../shared/conformance
if [ -d "$conf" ]; then
    i=0
    for t in "$conf"/tracelens/h100/*.json.gz "$conf"/tracelens/torch_compile_triton/trace.json.gz \
             "$conf"/hta/nccl_data.json.gz "$conf"/param/dlrm_8ranks/worker0_step_12.json.gz; do
        [ -f "$t" ] || continue
        i=$((i + 1))
        n=$(gen "$t" "conf$i" 0) || { echo "FAIL writing the scripts of $t"; fail=1; continue; }
        total=$((total + n))
    done
fi

files=$(find "$out" -name '*.py' | sort)
nfiles=$(echo "$files" | grep -c . || true)
if [ "$nfiles" != "$total" ]; then
    echo "FAIL: $total scripts expected, $nfiles written"
    fail=1
fi
for f in $files; do
    if [ ! -s "$f" ]; then
        echo "FAIL: $f is empty"
        fail=1
    fi
done
# shellcheck disable=SC2086
if ! "$py" -m py_compile $files; then
    fail=1
fi
echo "replay: $nfiles scripts written, $([ $fail = 0 ] && echo "all compile" || echo "FAILED")"
[ "$fail" = 0 ]
