#!/usr/bin/python3
"""Time of each HTA analysis after load (issue 25), on the ~1.1 GB bench trace.

One sqlite3 process loads the trace (timed), builds HTA's event table once (timed: it
is built on the first hta_* call and kept with the trace), then runs every hta_*
function once. Prints one line per analysis (wall and CPU seconds from the shell's
.timer) against the target: each analysis within 2x the load.

    make bench                                  (runs tests/bench/bench.py first)
    TSQL_HTA_TRACE=file.json python3 tests/bench/hta_bench.py
    TSQL_HTA_OP=aten::linear   the operator of the kernel-sequence analysis
"""
import os
import re
import subprocess
import sys

from quiet import void_reason, wait_quiet

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRACE = os.environ.get("TSQL_HTA_TRACE", os.path.join(ROOT, "build/bench/timesformer_1100mb.json"))
EXT = os.environ.get("TSQL_EXT", os.path.join(ROOT, "build/tracesql"))
SQLITE = os.environ.get("SQLITE3", "sqlite3")
OP = os.environ.get("TSQL_HTA_OP", "aten::linear")


def sq(s):
    return "'" + s.replace("'", "''") + "'"


# the window of the critical path: the first step, else the whole trace (as
# tools/tracesql-hta-report picks it)
CP_ANN = "(SELECT CASE WHEN EXISTS (SELECT 1 FROM hta_profiler_steps) THEN 'ProfilerStep' ELSE '' END)"

# name -> the query timed (every function of docs/hta.md)
ANALYSES = [
    ("event table", "SELECT count(*) FROM hta_trace_info"),
    ("temporal_breakdown", "SELECT count(*) FROM hta_temporal_breakdown"),
    ("idle_time_breakdown", "SELECT count(*) FROM hta_idle_time_breakdown"),
    ("idle_interval_stats", "SELECT count(*) FROM hta_idle_interval_stats"),
    ("gpu_kernel_breakdown_by_type", "SELECT count(*) FROM hta_gpu_kernel_breakdown_by_type"),
    ("gpu_kernel_breakdown_by_kernel", "SELECT count(*) FROM hta_gpu_kernel_breakdown_by_kernel"),
    ("cuda_kernel_launch_stats", "SELECT count(*) FROM hta_cuda_kernel_launch_stats"),
    ("cuda_kernel_launch_stats_summary", "SELECT count(*) FROM hta_cuda_kernel_launch_stats_summary"),
    ("queue_length_time_series", "SELECT count(*) FROM hta_queue_length_time_series"),
    ("queue_length_summary", "SELECT count(*) FROM hta_queue_length_summary"),
    ("memory_bw_time_series", "SELECT count(*) FROM hta_memory_bw_time_series"),
    ("memory_bw_summary", "SELECT count(*) FROM hta_memory_bw_summary"),
    ("comm_comp_overlap", "SELECT count(*) FROM hta_comm_comp_overlap"),
    ("aten_op_kernels_and_delay", "SELECT count(*) FROM hta_aten_op_kernels_and_delay"),
    ("frequent_cuda_kernel_sequences", "SELECT count(*) FROM hta_frequent_cuda_kernel_sequences(NULL, %s)" % sq(OP)),
    ("profiler_steps", "SELECT count(*) FROM hta_profiler_steps"),
    ("critical_path_edges", "SELECT count(*) FROM hta_critical_path_edges(NULL, %s)" % CP_ANN),
    ("critical_path_summary", "SELECT count(*) FROM hta_critical_path_summary(NULL, %s)" % CP_ANN),
]


def run():
    script = [".load " + EXT, ".timer on", ".print step load", "SELECT trace_open(%s) > 0;" % sq(TRACE)]
    for name, q in ANALYSES:
        script.append(".print step " + name)
        script.append(q + ";")
    p = subprocess.run([SQLITE, "-batch", ":memory:"], input="\n".join(script) + "\n",
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("hta_bench: sqlite3 failed: " + p.stderr.strip())
    out, cur = {}, None
    for line in p.stdout.splitlines():
        if line.startswith("step "):
            cur = line[5:]
        m = re.match(r"Run Time: real ([\d.]+) user ([\d.]+) sys ([\d.]+)", line)
        if m and cur:
            out[cur] = (float(m.group(1)), float(m.group(2)) + float(m.group(3)))
            cur = None
    return out


def main():
    if not os.path.exists(TRACE):
        print("hta_bench: SKIP, %s not found (make bench generates it)" % TRACE)
        return 0
    print("HTA analyses after load: %s (%.0f MB)" % (os.path.relpath(TRACE, ROOT), os.path.getsize(TRACE) / 1e6))
    load_before = wait_quiet()
    print("load average before: %.2f" % os.getloadavg()[0])
    t = run()
    load = t.get("load", (float("nan"),))[0]
    print("  %-34s %7.3f s wall %7.3f s cpu" % ("load (trace_open)", load, t.get("load", (0, 0))[1]))
    missed = []
    for name, _ in ANALYSES:
        wall, cpu = t.get(name, (float("nan"), float("nan")))
        ok = wall <= 2 * load
        if not ok and name != "event table":
            missed.append(name)
        print("  %-34s %7.3f s wall %7.3f s cpu  %.2fx load%s" % (name, wall, cpu, wall / load if load else 0,
                                                                   "" if ok else "   over 2x"))
    print("each analysis within 2x the load: %s" % (void_reason(load_before) or
                                                    ("met" if not missed else "missed (" + ", ".join(missed) + ")")))
    print("load average after: %.2f" % os.getloadavg()[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
