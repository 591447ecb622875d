#!/usr/bin/python3
"""Time of the whole perf report after load (issue 3), on the ~1.1 GB bench trace.

One sqlite3 process loads the trace once, then runs every perf-report view once
(each view's analysis is built on first use, so its time is included). Prints one
line per view (wall and CPU seconds from the shell's .timer) and the totals.

    make bench                                  (runs tests/bench/bench.py first)
    TSQL_REPORT_TRACE=file.json python3 tests/bench/report_bench.py
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRACE = os.environ.get("TSQL_REPORT_TRACE", os.path.join(ROOT, "build/bench/timesformer_1100mb.json"))
EXT = os.environ.get("TSQL_EXT", os.path.join(ROOT, "build/tracesql"))
SQLITE = os.environ.get("SQLITE3", "sqlite3")

# TraceLens's perf report: every sheet, as the views that feed examples/perf_report.sh
REPORT = [
    "gpu_timeline", "ops_summary_by_category", "ops_summary", "ops_unique_args",
    "unified_perf_summary", "perf_sheet_summary", "kernel_summary",
    "short_kernels_summary", "short_kernel_histogram", "coll_analysis",
]
# further views, timed but not part of TraceLens's report
EXTRA = ["perf_roofline", "module_tree"]


def run(views):
    script = [".load " + EXT, "SELECT trace_open('%s');" % TRACE.replace("'", "''"), ".timer on"]
    for v in views:
        script.append(".print view %s" % v)
        script.append("SELECT count(*) FROM %s;" % v)
    p = subprocess.run([SQLITE, "-batch", ":memory:"], input="\n".join(script) + "\n",
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("report_bench: sqlite3 failed: " + p.stderr.strip())
    out, cur = {}, None
    for line in p.stdout.splitlines():
        if line.startswith("view "):
            cur = line[5:]
        m = re.match(r"Run Time: real ([\d.]+) user ([\d.]+) sys ([\d.]+)", line)
        if m and cur:
            out[cur] = (float(m.group(1)), float(m.group(2)) + float(m.group(3)))
    return out


def main():
    if not os.path.exists(TRACE):
        print("report_bench: SKIP, %s not found (make bench generates it)" % TRACE)
        return 0
    print("report after load: %s (%.0f MB)" % (os.path.relpath(TRACE, ROOT), os.path.getsize(TRACE) / 1e6))
    print("load average before: %.2f" % os.getloadavg()[0])
    t = run(REPORT + EXTRA)
    tot_wall = tot_cpu = 0.0
    for v in REPORT + EXTRA:
        wall, cpu = t.get(v, (float("nan"), float("nan")))
        mark = "" if v in REPORT else "   (not in TraceLens's report)"
        print("  %-26s %7.3f s wall %7.3f s cpu%s" % (v, wall, cpu, mark))
        if v in REPORT:
            tot_wall += wall
            tot_cpu += cpu
    print("whole report (TraceLens's sheets): %.3f s wall, %.3f s cpu; target <= 1.0 s: %s"
          % (tot_wall, tot_cpu, "met" if tot_wall <= 1.0 else "missed"))
    print("load average after: %.2f" % os.getloadavg()[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
