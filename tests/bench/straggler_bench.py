#!/usr/bin/env python3
"""straggler_bench.py — straggler_summary on a synthetic 16-rank job of 2000 collectives per
rank (32,000 NCCL kernels), timed in fresh sqlite3 processes.

Usage: straggler_bench.py [EXT ...]      (default: build/tracesql)
The job (16 Kineto traces) is written once by tests/bench/make_coll_job.py under
build/bench/coll<RANKS>x<COLLS>/. Each run opens it (trace_open_dir) and prints
straggler_summary. Each extension (a path without .so) is run TSQL_BENCH_REPEAT times
(default 3), interleaved (A B A B ...), so a busy machine weighs on each alike. Printed per
run: the user CPU seconds of the straggler_summary statement alone (the shell's .timer),
and the user, system and wall seconds of the whole process (os.times' children, the
trace loading included); then the best statement user time per extension and the ratio.
Every run must print the same rows.
Environment: SQLITE3, TSQL_BENCH_REPEAT, TSQL_BENCH_RANKS (16), TSQL_BENCH_COLLS (2000).
"""
import hashlib
import os
import subprocess
import sys
import time

SQLITE = os.environ.get("SQLITE3", "sqlite3")
REPEAT = int(os.environ.get("TSQL_BENCH_REPEAT", "3"))
RANKS = int(os.environ.get("TSQL_BENCH_RANKS", "16"))
COLLS = int(os.environ.get("TSQL_BENCH_COLLS", "2000"))

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
JOBDIR = os.path.join("build", "bench", f"coll{RANKS}x{COLLS}")
JOB = f"SELECT length(trace_open_dir('{JOBDIR}'));\n.timer on\n"
QUERY = "SELECT * FROM straggler_summary;\n"


def run(ext):
    """(wall s, output) of one sqlite3 process (its CPU times: os.times() around it)."""
    t0 = time.monotonic()
    p = subprocess.Popen([SQLITE, "-batch", "-bail", ":memory:", "-cmd", f".load {ext}"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out, _ = p.communicate((JOB + QUERY).encode())
    out = out.decode()
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"straggler_bench: {ext} failed: {out[:500]}")
    rows = [ln for ln in out.splitlines() if not ln.startswith("Run Time:")]
    timer = [ln for ln in out.splitlines() if ln.startswith("Run Time:")]
    # "Run Time: real 1.234 user 0.567 sys 0.089"
    stmt_user = float(timer[-1].split()[5])
    return wall, stmt_user, "\n".join(rows).encode()


def main(argv):
    exts = argv[1:] or ["build/tracesql"]
    os.chdir(ROOT)
    if not os.path.exists(os.path.join(JOBDIR, f"rank{RANKS - 1}.json")):
        subprocess.run([sys.executable, os.path.join(HERE, "make_coll_job.py"), JOBDIR, str(RANKS), str(COLLS)],
                       check=True)
    best, outs = {}, {}
    for k in range(REPEAT):
        for ext in exts:
            before = os.times()
            wall, stmt_user, out = run(ext)
            after = os.times()
            user = after.children_user - before.children_user
            syst = after.children_system - before.children_system
            print(f"{ext}: run {k + 1}: straggler_summary user {stmt_user:.2f} s; process user {user:.2f} s, "
                  f"sys {syst:.2f} s, wall {wall:.2f} s", flush=True)
            best[ext] = min(best.get(ext, stmt_user), stmt_user)
            outs.setdefault(ext, out)
            if out != outs[ext]:
                sys.exit(f"straggler_bench: {ext} printed different rows on run {k + 1}")
    digests = {hashlib.sha1(o).hexdigest() for o in outs.values()}
    lines = next(iter(outs.values())).count(b"\n")
    print(f"straggler_summary: {lines} rows; {'same rows for every extension' if len(digests) == 1 else 'ROWS DIFFER'}")
    for ext in exts:
        print(f"best straggler_summary user CPU {ext}: {best[ext]:.2f} s")
    if len(exts) == 2:
        a, b = (best[e] for e in exts)
        print(f"ratio {exts[0]} / {exts[1]}: {a / b:.1f}x")
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
