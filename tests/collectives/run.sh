#!/usr/bin/env bash
# Multi-rank collective report on real and scaled jobs (docs/collectives.md):
#  1. param/dlrm_8ranks (8 real ranks, old-style args, simplified matching) and
#  2. 8 ranks made by scale_trace.py from hta/nccl_data.json.gz (new-style args):
#     the report's implicit-sync rows and straggler summary equal tests/collectives/expect.py's,
#     computed from the JSON without tracesql, and a few values checked by hand;
#  3. end to end: 16 ranks, per-rank export under xargs -P 2, cross-rank merge; every
#     CSV equals the single-process report's byte for byte;
#  4. sqlite3_interrupt stops trace_open_dir and leaves nothing open.
# Needs ../shared (skips loudly without it). Scaled traces are generated under build/tmp.
set -euo pipefail
cd "$(dirname "$0")/../.."
shared=../shared
export TSQL_EXT=${TSQL_EXT:-build/tracesql}
report=examples/collective_report.sh
if [ ! -d "$shared/conformance/param/dlrm_8ranks" ] || [ ! -f "$shared/tools/scale_trace.py" ]; then
    echo "SKIP collectives: $shared/conformance or $shared/tools/scale_trace.py is absent — NOT TESTED" >&2
    exit 0
fi
out=build/tmp/coll_test
rm -rf "$out"
mkdir -p "$out"
fail=0
check() { # name, expected, actual
    if [ "$2" != "$3" ]; then echo "FAIL collectives: $1: expected '$2', got '$3'"; fail=1; fi
}

# 1. DLRM, 8 real ranks
$report -r 'worker(\d+)' "$out/dlrm" "$shared"/conformance/param/dlrm_8ranks
python3 tests/collectives/expect.py "$out/dlrm" 'worker(\d+)' "$shared"/conformance/param/dlrm_8ranks/*.gz || fail=1
# by hand from the JSON: the first SendRecv kernel of each rank starts at
# ...429795 (r0), ...424306 (r1, earliest), ...431930 (r7, latest; dur 10 = the fastest)
check "dlrm instance 0" "0,10,7624,1,3304.375,2" \
    "$(sed -n 2p "$out/dlrm/nccl_implicit_sync.csv" | cut -d, -f1,12-16)"
check "dlrm straggler" "7,1534,191.8,5,0,62.5,8,1746,0" "$(sed -n 2p "$out/dlrm/straggler_summary.csv")"
check "dlrm nccl_long rows" "65" "$(wc -l < "$out/dlrm/nccl_long.csv")"
# no process group, kind or size on old-style kernels: nothing survives the null-key drop
check "dlrm nccl_summary_long rows" "1" "$(wc -l < "$out/dlrm/nccl_summary_long.csv")"

# 2. nccl_data.json.gz scaled to 8 ranks (rank r > 0 shifted by a whole-µs jitter)
hta8=build/tmp/coll_hta8
[ -f "$hta8/rank7.json.gz" ] || python3 "$shared/tools/scale_trace.py" \
    "$shared/conformance/hta/nccl_data.json.gz" --ranks 8 --out-dir "$hta8" >/dev/null 2>&1
$report "$out/hta8" "$hta8"
python3 tests/collectives/expect.py "$out/hta8" 'rank(\d+)' "$hta8"/rank*.json.gz || fail=1
# by hand: 21 kernels per rank (15 allreduce, 6 broadcast); 2049000 Float = 7.816314697265625 MiB
check "hta8 nccl_long rows" "169" "$(wc -l < "$out/hta8/nccl_long.csv")"
check "hta8 implicit rows" "16" "$(wc -l < "$out/hta8/nccl_implicit_sync.csv")"
check "hta8 summary first" "allreduce,Float,2049000,0,2,7.816314697265625" \
    "$(sed -n 2p "$out/hta8/nccl_summary_implicit_sync.csv" | cut -d, -f1-6)"

# 3. 16 ranks: one process versus per-rank export (xargs -P 2) and merge
r16=build/tmp/coll_r16
[ -f "$r16/rank15.json.gz" ] || python3 "$shared/tools/scale_trace.py" \
    "$shared/conformance/hta/nccl_data.json.gz" --ranks 16 --out-dir "$r16" >/dev/null 2>&1
$report "$out/single16" "$r16"
mkdir -p "$out/export16"
ls "$r16"/rank*.json.gz | xargs -P 2 -I{} sh -c \
    'f={}; b=$(basename "$f" .json.gz); exec "$0" --export-rank "$1/$b.db" "$f"' "$report" "$out/export16"
$report --merge "$out/merged16" "$out"/export16/*.db
if diff -r "$out/single16" "$out/merged16" > "$out/diff16.txt"; then :; else
    echo "FAIL collectives: 16-rank merge differs from one process:"; head -20 "$out/diff16.txt"; fail=1
fi
check "16-rank sheets" "5" "$(ls "$out/merged16" | wc -l)"
check "16-rank nccl_long rows" "337" "$(wc -l < "$out/merged16/nccl_long.csv")"

# 4. an interrupt (Ctrl-C) stops trace_open_dir between loads; nothing stays open. On a
# fast machine the whole call may end before the interrupt lands (then SQLite stops the
# statement afterwards, with every trace open): shorter delays are tried until one lands
# inside the call, and each outcome must be one of the two consistent states.
got=$(${PYTHON:-/usr/bin/python3} - "$TSQL_EXT" "$r16" <<'PY'
import sqlite3, sys, threading
for delay in (0.2, 0.05, 0.01, 0.002, 0.0):
    con = sqlite3.connect(":memory:")
    con.enable_load_extension(True)
    con.load_extension(sys.argv[1])
    timer = threading.Timer(delay, con.interrupt)
    timer.start()
    try:
        con.execute("SELECT trace_open_dir(?)", (sys.argv[2],)).fetchone()
        outcome = "not interrupted"
    except sqlite3.OperationalError as e:
        outcome = str(e)
    timer.cancel()
    timer.join()  # never interrupt a later statement, or a closed connection
    outcome += " %d" % con.execute("SELECT count(*) FROM traces").fetchone()[0]
    con.close()
    if outcome not in ("interrupted 16", "not interrupted 16"):
        break  # the interrupt landed inside the call (or something is wrong: printed)
print(outcome)
PY
)
check "interrupt" "tracesql: trace_open_dir: interrupted 0" "$got"

if [ $fail = 0 ]; then echo "collectives: dlrm 8 ranks, hta 8 ranks, 16-rank export/merge: all passed"; fi
exit $fail
