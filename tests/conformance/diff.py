#!/usr/bin/env python3
"""diff.py — examples/diff_report.sh against TraceLens's TraceDiff outputs.

    diff.py DATA_DIR

On the reference pair (TimeSformer, MI300 = baseline / trace1, H100 = variant / trace2)
it runs diff_report.sh and compares with `tracelens/tracediff_test/`:
  - the CSVs as text, with strict_report.py's rules;
  - merged_tree_output.txt byte for byte;
  - the three cpu-op maps equal as JSON.
On the other models shipped for both GPUs (no TraceDiff reference exists for them) it
checks what must hold whatever TraceLens prints: a trace diffed with itself is
"identical" (every merged node in both traces, no source column, a cpu_op_map without
trace1/trace2 levels), and each pair's report is written completely.

Prints one PASS/FAIL line per check. Exit status 1 if any failed.
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import strict_report  # noqa: E402

TIMESFORMER = "facebook_timesformer-base-finetuned-k400__1016002.json.gz"
OTHERS = ["gaunernst_bert-small-uncased__1016001.json.gz",
          "Falconsai_nsfw_image_detection__1016002.json.gz"]
FILES = ["diff_stats.csv", "diff_stats_unique_args_summary.csv", "merged_tree_output.txt",
         "cpu_op_map.json", "cpu_op_map_trace1.json", "cpu_op_map_trace2.json"]

failed = 0


def report(ok, what, why=""):
    global failed
    if ok:
        print("PASS diff %s" % what)
    else:
        failed += 1
        print("FAIL diff %s: %s" % (what, why))


def run(baseline, variant, outdir):
    r = subprocess.run([os.path.join(ROOT, "examples", "diff_report.sh"), baseline, variant, outdir],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return r.returncode, r.stderr.strip()


def read(path, binary=False):
    with open(path, "rb" if binary else "r", **({} if binary else {"encoding": "utf-8", "newline": ""})) as f:
        return f.read()


def reference_pair(data, tmp):
    ref = os.path.join(data, "tracelens", "tracediff_test")
    base = os.path.join(data, "tracelens", "mi300", TIMESFORMER)
    var = os.path.join(data, "tracelens", "h100", TIMESFORMER)
    if not (os.path.isdir(ref) and os.path.exists(base) and os.path.exists(var)):
        report(False, "timesformer", "reference pair or tracediff_test/ missing under %s" % data)
        return
    out = os.path.join(tmp, "ref")
    rc, err = run(base, var, out)
    if rc:
        report(False, "timesformer", "diff_report.sh exited with %d: %s" % (rc, err[-300:]))
        return
    for name in FILES:
        what = "timesformer %s" % name
        ours, theirs = os.path.join(out, name), os.path.join(ref, name)
        if not os.path.exists(ours):
            report(False, what, "not written")
        elif name.endswith(".csv"):
            why = strict_report.compare(read(ours), strict_report.normalise(read(theirs)), name[:-4])
            report(why is None, what, why)
        elif name.endswith(".txt"):
            a, b = read(ours, True), read(theirs, True)
            why = None
            if a != b:
                la, lb = a.split(b"\n"), b.split(b"\n")
                i = next((k for k, (x, y) in enumerate(zip(la, lb)) if x != y), min(len(la), len(lb)))
                why = "line %d differs (%d lines, TraceLens %d)" % (i + 1, len(la), len(lb))
            report(a == b, what, why)
        else:
            a, b = json.loads(read(ours)), json.loads(read(theirs))
            report(a == b, what, "not equal as JSON")


def self_pair(data, tmp, trace):
    label = os.path.basename(trace).split("__")[0]
    out = os.path.join(tmp, "self-" + label)
    rc, err = run(trace, trace, out)
    if rc:
        report(False, "self %s" % label, "diff_report.sh exited with %d: %s" % (rc, err[-300:]))
        return
    tree = read(os.path.join(out, "merged_tree_output.txt"))
    bad = [l for l in tree.splitlines() if ">> trace1:" in l or "<< trace2:" in l or "combined:" in l]
    report(not bad and tree, "self %s merged tree all combined" % label,
           bad[0][:100] if bad else "empty tree")
    stats = os.path.join(out, "diff_stats.csv")
    if os.path.exists(stats):
        with open(stats, encoding="utf-8", newline="") as f:
            head = next(csv.reader(f))
        report("source" not in head, "self %s identical drops source" % label, ",".join(head))
    m = json.loads(read(os.path.join(out, "cpu_op_map.json")))
    flat = all("kernels" in v and "trace1" not in v for v in m.values())
    report(flat, "self %s cpu_op_map is one level" % label, "trace1/trace2 levels present")


def other_pair(data, tmp, name):
    base = os.path.join(data, "tracelens", "mi300", name)
    var = os.path.join(data, "tracelens", "h100", name)
    label = name.split("__")[0]
    if not (os.path.exists(base) and os.path.exists(var)):
        report(False, "pair %s" % label, "traces missing")
        return
    out = os.path.join(tmp, "pair-" + label)
    rc, err = run(base, var, out)
    missing = [f for f in FILES if not os.path.exists(os.path.join(out, f))]
    report(rc == 0 and not missing, "pair %s" % label, err[-300:] if rc else "missing %s" % missing)


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "conformance")
    if not os.path.isdir(data):
        print("SKIP: %s not found — TraceDiff conformance NOT run" % data)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        reference_pair(data, tmp)
        for name in OTHERS:
            self_pair(data, tmp, os.path.join(data, "tracelens", "h100", name))
            other_pair(data, tmp, name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
