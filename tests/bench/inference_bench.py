#!/usr/bin/python3
"""Time of the inference report against the load (issue 20: within 2x the load time).

One sqlite3 process opens the trace (with its capture folder when given), prepares it
for the inference report (trace_inference_prepare), then runs every sheet of the
report once (each analysis is built on first use, so its time is included): the views
behind tools/tracesql-inference-report. Prints the load, one line per sheet (wall and
CPU seconds from the shell's .timer), the totals and the ratio report / load.

    make bench                                   (after tests/bench/bench.py made the trace)
    TSQL_INFERENCE_TRACE=serve.json.gz [TSQL_INFERENCE_CAPTURE=capture_traces] \\
        python3 tests/bench/inference_bench.py
"""
import os
import re
import subprocess
import sys

from quiet import void_reason, wait_quiet

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRACE = os.environ.get("TSQL_INFERENCE_TRACE", os.path.join(ROOT, "build/bench/timesformer_1100mb.json"))
CAPTURE = os.environ.get("TSQL_INFERENCE_CAPTURE", "")
EXT = os.environ.get("TSQL_EXT", os.path.join(ROOT, "build/tracesql"))
SQLITE = os.environ.get("SQLITE3", "sqlite3")

# the inference report's sheets, as tools/tracesql-inference-report writes them
SHEETS = [
    "report_gpu_timeline", "inference_report_ops_summary_by_category", "inference_report_ops_summary",
    "inference_report_ops_unique_args", "inference_report_unified_perf_summary", "inference_perf_sheet_summary",
]


def q(s):
    return "'" + s.replace("'", "''") + "'"


def run():
    script = [".load " + EXT, ".timer on", ".print step load", "SELECT trace_open(%s) > 0;" % q(TRACE)]
    if CAPTURE:
        script += [".print step merge", "SELECT trace_merge_capture(1, %s) > 0;" % q(CAPTURE)]
    script += [".print step prepare", "SELECT trace_inference_prepare(1) > 0;"]
    for v in SHEETS:
        script += [".print step %s" % v, "SELECT count(*) FROM %s WHERE trace_id = 1;" % v]
    p = subprocess.run([SQLITE, "-batch", "-bail", ":memory:"], input="\n".join(script) + "\n",
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("inference_bench: sqlite3 failed: " + p.stderr.strip())
    out, cur = {}, None
    for line in p.stdout.splitlines():
        if line.startswith("step "):
            cur = line[5:]
        m = re.match(r"Run Time: real ([\d.]+) user ([\d.]+) sys ([\d.]+)", line)
        if m and cur:
            out[cur] = (float(m.group(1)), float(m.group(2)) + float(m.group(3)))
    return out


def main():
    if not os.path.exists(TRACE):
        print("inference_bench: SKIP, %s not found (make bench generates it)" % TRACE)
        return 0
    print("inference report after load: %s (%.0f MB)%s" % (
        os.path.relpath(TRACE, ROOT), os.path.getsize(TRACE) / 1e6, ", capture " + CAPTURE if CAPTURE else ""))
    load_before = wait_quiet()
    print("load average before: %.2f" % os.getloadavg()[0])
    t = run()
    nan = (float("nan"), float("nan"))
    load = t.get("load", nan)[0] + t.get("merge", (0.0, 0.0))[0]
    tot_wall = tot_cpu = 0.0
    for step in ["load", "merge", "prepare"] + SHEETS:
        if step not in t:
            continue
        wall, cpu = t[step]
        print("  %-42s %8.3f s wall %8.3f s cpu" % (step, wall, cpu))
        if step in SHEETS or step == "prepare":
            tot_wall += wall
            tot_cpu += cpu
    ratio = tot_wall / load if load > 0 else float("nan")
    print("inference report: %.3f s wall, %.3f s cpu; %.2fx the load (%.3f s); target <= 2x: %s"
          % (tot_wall, tot_cpu, ratio, load, void_reason(load_before) or ("met" if ratio <= 2.0 else "missed")))
    print("load average after: %.2f" % os.getloadavg()[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
