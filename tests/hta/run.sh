#!/usr/bin/env bash
# HTA's analyses against HTA's own outputs (docs/hta.md): tools/tracesql-hta-report on
# every conformance case (the three H100 traces, the Triton trace, the 8 DLRM ranks),
# each CSV compared with ../shared/conformance/hta_oracle/<case>/ by compare.py (rows
# matched on their key, numbers within 1e-9 relative; the event table too). Then the
# hand-made traces' SQL tests (tests/sql/hta/). Needs ../shared for the first part
# (skips it loudly without it). Then each bad argument's message (errors.sql).
set -uo pipefail
cd "$(dirname "$0")/../.."
export TSQL_EXT=${TSQL_EXT:-build/tracesql}
conf=../shared/conformance
out=build/tmp/hta_test
fail=0
rm -rf "$out"
mkdir -p "$out"
if [ ! -d "$conf/hta_oracle" ]; then
    echo "SKIP hta: $conf/hta_oracle is absent — the oracle comparison is NOT TESTED" >&2
else
    cases=(
        "h100_gpt2_eager $conf/hopper/gpt2_eager.json.gz"
        "h100_resnet50_train $conf/hopper/resnet50_train.json.gz"
        "h100_llama_generate $conf/hopper/llama_generate.json.gz"
        "triton_example $conf/hta/triton_example.json.gz"
        "dlrm_8ranks $(for r in 0 1 2 3 4 5 6 7; do printf '%s ' "$conf/param/dlrm_8ranks/worker${r}_step_12.json.gz"; done)"
    )
    for c in "${cases[@]}"; do
        set -- $c
        name=$1
        shift
        # the operators of the oracle's frequent-kernel-sequence files (:: written __)
        ops=$(ls "$conf/hta_oracle/$name" | sed -n 's/^frequent_cuda_kernel_sequences__\(.*\)\.csv$/\1/p' |
              grep -v '__ns_rounding_disabled$' | sed 's/__/::/g' | paste -sd, -)
        nr_ops=$(ls "$conf/hta_oracle/$name" | sed -n 's/^frequent_cuda_kernel_sequences__\(.*\)__ns_rounding_disabled\.csv$/\1/p' |
                 sed 's/__/::/g' | paste -sd, -)
        [ -z "$nr_ops" ] || tools/tracesql-hta-report --ops "$nr_ops" --no-rounding "$out/$name" "$@" 2>>"$out/$name.log"
        if ! tools/tracesql-hta-report --events --ops "$ops" "$out/$name" "$@" 2>"$out/$name.log"; then
            echo "FAIL hta: $name: tracesql-hta-report failed"; cat "$out/$name.log"; fail=1; continue
        fi
        if python3 tests/hta/compare.py "$out/$name" "$conf/hta_oracle/$name" > "$out/$name.cmp"; then
            echo "hta: $name: $(grep -c '^ok' "$out/$name.cmp") files equal HTA's ($(grep -c '^SKIP' "$out/$name.cmp") not written yet)"
        else
            echo "FAIL hta: $name"; grep -v '^ok\|^SKIP' "$out/$name.cmp"; fail=1
        fi
    done
fi
# the critical path on the hand-made traces (tests/data/hta/make_cp_traces.py) against
# HTA's own output on them (cp_oracle/<trace>[__<instance>]/)
for d in tests/data/hta/cp_oracle/*/; do
    c=$(basename "$d")
    trace=tests/data/hta/${c%%__*}.json
    inst=0
    case $c in *__*) inst=${c##*__} ;; esac
    rm -rf "$out/cp_$c"
    if ! tools/tracesql-hta-report --cp-instance "$inst" "$out/cp_$c" "$trace" > /dev/null 2> "$out/cp_$c.log"; then
        echo "FAIL hta: critical path of $c: the command failed"; cat "$out/cp_$c.log"; fail=1; continue
    fi
    if python3 tests/hta/compare.py "$out/cp_$c" "$d" > "$out/cp_$c.cmp"; then
        echo "hta: critical path of $c (hand-made): $(grep -c '^ok' "$out/cp_$c.cmp") files equal HTA's"
    else
        echo "FAIL hta: critical path of $c"; grep -v '^ok' "$out/cp_$c.cmp"; fail=1
    fi
done
# bad arguments: each statement of errors.sql alone, its output against errors.expected
got=$(grep -v '^--' tests/hta/errors.sql | while IFS= read -r q; do
    printf '%s\n' "$q"
    sqlite3 -batch :memory: -cmd ".load $TSQL_EXT" -cmd '.headers on' \
        '.output /dev/null' "SELECT trace_open('tests/data/hta/edges.json', 'edges');" '.output stdout' "$q" 2>&1
done)
if [ "${TSQL_UPDATE:-0}" = 1 ]; then
    printf '%s\n' "$got" > tests/hta/errors.expected
elif [ "$got" != "$(cat tests/hta/errors.expected)" ]; then
    echo "FAIL hta: errors"; diff <(printf '%s\n' "$got") tests/hta/errors.expected; fail=1
else
    echo "hta: errors: $(grep -vc '^--' tests/hta/errors.sql) statements as expected"
fi
TSQL_SUITE=hta-sql TSQL_SQL_DIRS=tests/sql/hta bash tests/run_sql.sh || fail=1
exit $fail
