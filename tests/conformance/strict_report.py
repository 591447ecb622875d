#!/usr/bin/env python3
"""strict_report.py — our perf report against TraceLens's, as text, the way a user diffs them.

    strict_report.py --label LABEL OUR_DIR REF_DIR

Every CSV of REF_DIR (TraceLens's `<stem>_perf_report_csvs/`) must be written in OUR_DIR
with the same text, after one normalisation only: numpy >= 2 writes `np.float64(x)` where
older numpy wrote `x`. Rows are compared in order, except inside a group of rows tied on
the sheet's sort key where TraceLens's sort (numpy quicksort) leaves the order open:
there the group must hold the same rows in any order. A sheet may differ only when a row
of the table "Excused report sheets" in docs/differences.md names the trace and the
sheet, with the reason.

Prints one line per sheet:  PASS strict LABEL SHEET  /  FAIL strict LABEL SHEET: why
"""
import argparse
import csv
import fnmatch
import io
import os
import re
import sys

# sheets whose rows TraceLens sorts on a single column with an unstable sort: ties may
# come out in any order (reference semantics 6.2, 6.9)
TIE_KEYS = {
    "kernel_summary": ["Kernel duration (µs)_sum"],
}

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def excused():
    """(trace glob, sheet) -> reason, from docs/differences.md's excuse table."""
    out = {}
    path = os.path.join(ROOT, "docs", "differences.md")
    text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
    m = re.search(r"^## Excused report sheets\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    for line in (m.group(1).splitlines() if m else []):
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("trace", "") and not set(cells[0]) <= set("-: "):
            out[(cells[0], cells[1])] = cells[2]
    return out


def excuse_for(excuses, label, sheet):
    """The reason a row of the excuse table gives for this trace's sheet, or None.
    Both the trace and the sheet cells are globs (`*` for every sheet)."""
    return next((why for (glob, s), why in excuses.items()
                 if fnmatch.fnmatch(sheet, s) and fnmatch.fnmatch(label, glob)), None)


def normalise(text):
    return re.sub(r"np\.float64\(([^()]*)\)", r"\1", text)


def compare(ours, ref, sheet):
    """None when equal under the rules, else why not."""
    if ours == ref:
        return None
    o = list(csv.reader(io.StringIO(ours)))
    r = list(csv.reader(io.StringIO(ref)))
    if not o or not r or o[0] != r[0]:
        return "header differs"
    if len(o) != len(r):
        return "%d rows, TraceLens has %d" % (len(o) - 1, len(r) - 1)
    keys = [r[0].index(k) for k in TIE_KEYS.get(sheet, []) if k in r[0]]
    i = 1
    while i < len(r):
        j = i + 1
        if keys:
            while j < len(r) and [r[j][k] for k in keys] == [r[i][k] for k in keys]:
                j += 1
        if sorted(map(tuple, o[i:j])) != sorted(map(tuple, r[i:j])):
            for a, b in zip(o[i:j], r[i:j]):
                for col, (x, y) in enumerate(zip(a, b)):
                    if x != y:
                        return "row %d, %s: %r, TraceLens %r" % (i, r[0][col], x[:80], y[:80])
            return "rows %d..%d differ" % (i, j - 1)
        i = j
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--label", required=True)
    ap.add_argument("ours")
    ap.add_argument("ref")
    a = ap.parse_args()
    excuses = excused()
    bad = 0
    for name in sorted(os.listdir(a.ref)):
        if not name.endswith(".csv"):
            continue
        sheet = name[:-4]
        why_excused = excuse_for(excuses, a.label, sheet)
        path = os.path.join(a.ours, name)
        if not os.path.exists(path):
            why = "not written"
        else:
            with open(path, encoding="utf-8", newline="") as f:
                ours = f.read()
            with open(os.path.join(a.ref, name), encoding="utf-8", newline="") as f:
                ref = normalise(f.read())
            why = compare(ours, ref, sheet)
        if why is None:
            print("PASS strict %s %s" % (a.label, sheet))
        elif why_excused:
            print("PASS strict %s %s (excused: %s; %s)" % (a.label, sheet, why_excused, why))
        else:
            print("FAIL strict %s %s: %s" % (a.label, sheet, why))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
