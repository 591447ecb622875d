#!/usr/bin/python3
"""Compare a perf report written by examples/perf_report.sh with TraceLens's own.

Usage: compare_report.py OURS_DIR REF_DIR [--label NAME]

For every CSV of REF_DIR (TraceLens's <trace>_perf_report_csvs/):
  - not in OURS_DIR               skipped (the sheet is not produced yet)
  - otherwise the two must have the same header, the same number of rows, in the same
    order, and equal cells:
      empty == empty;
      numbers within rtol 1e-6 (absolute 1e-9 near zero);
      cells holding a Python literal (list, tuple, dict: "((1, 2),)", "[{'name': ...}]")
      compared as values, after stripping numpy wrappers such as np.float64(39.75);
      other text exactly.
    Rows whose order TraceLens leaves to an unstable sort (ties of its sort key, see
    TIE_KEYS) may come in any order among themselves.
A CSV in OURS_DIR that REF_DIR lacks is a FAIL: TraceLens omits that sheet for this
trace. A sheet named in the excuse table of docs/differences.md (as strict_report.py
reads it) passes with its reason printed.

Prints one line per sheet:
  PASS report <label> <sheet> (<rows> rows, max rel err <e>)
  FAIL report <label> <sheet>: <first difference>
and one line listing the reference sheets not produced (not a failure):
  FAIL report <label> <sheet>: TraceLens writes this sheet, we do not
Exit status 1 if any FAIL.
Standard library only.
"""

import ast
import csv
import math
import os
import re
import sys

RTOL = 1e-6
ATOL = 1e-9

# Sheets TraceLens sorts on one column with numpy's unstable quicksort: rows with equal
# values there have no defined order.
TIE_KEYS = {
    "kernel_summary": ["Kernel duration (µs)_sum"],
    "ops_summary": ["total_direct_kernel_time_sum"],
    "ops_summary_by_category": ["total_direct_kernel_time_ms"],
}

NP_WRAPPER = re.compile(r"\bnp\.[A-Za-z_][A-Za-z0-9_]*\(([^()]*)\)")
csv.field_size_limit(1 << 30)


class Diff(Exception):
    pass


def read_csv(path):
    """(header, rows) of a CSV as pandas writes it; an empty DataFrame (a file holding
    only a newline) gives ([], [])."""
    with open(path, newline="", encoding="utf-8") as f:
        text = f.read()
    if text.strip() == "":
        return [], []
    rows = list(csv.reader(text.splitlines(True)))
    return rows[0], rows[1:]


def as_number(s):
    if s in ("True", "False"):
        return None
    m = NP_WRAPPER.fullmatch(s.strip())
    if m:
        s = m.group(1)
    try:
        return float(s)
    except ValueError:
        return None


def as_literal(s):
    t = s.strip()
    if not t or t[0] not in "([{":
        return None
    t = NP_WRAPPER.sub(r"\1", t)
    try:
        return ast.literal_eval(t)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None


class Comparer:
    def __init__(self):
        self.max_rel = 0.0

    def numbers(self, a, b):
        """a (ours) vs b (reference) as floats; records the relative error."""
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        if a == b:
            return True
        d = abs(a - b)
        m = max(abs(a), abs(b))
        # the relative error of every cell is recorded, before the absolute shortcut
        rel = d / m
        self.max_rel = max(self.max_rel, rel)
        return d <= ATOL or rel <= RTOL

    def values(self, a, b):
        """Python values from literal_eval, recursively."""
        if isinstance(a, bool) or isinstance(b, bool):
            return a is b or (type(a) is type(b) and a == b)
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return self.numbers(float(a), float(b))
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            return (type(a) is type(b) and len(a) == len(b)
                    and all(self.values(x, y) for x, y in zip(a, b)))
        if isinstance(a, dict) and isinstance(b, dict):
            return (list(a) == list(b)
                    and all(self.values(a[k], b[k]) for k in a))
        return type(a) is type(b) and a == b

    def cell(self, a, b):
        if a == b:
            return True
        if a == "" or b == "":
            return False
        x, y = as_number(a), as_number(b)
        if x is not None and y is not None:
            return self.numbers(x, y)
        la, lb = as_literal(a), as_literal(b)
        if la is not None and lb is not None:
            return self.values(la, lb)
        return False


def around(a, b, n=70):
    """The two texts cut to a window around their first difference."""
    if len(a) <= n and len(b) <= n:
        return a, b
    k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    lo = max(0, k - 20)

    def cut(s):
        return ("..." if lo else "") + s[lo:lo + n] + ("..." if lo + n < len(s) else "")
    return cut(a), cut(b)


def compare_sheet(sheet, ours, ref):
    """Returns (rows, max rel err); raises Diff with the first difference."""
    oh, orows = read_csv(ours)
    rh, rrows = read_csv(ref)
    if oh != rh:
        extra = [c for c in oh if c not in rh]
        missing = [c for c in rh if c not in oh]
        raise Diff("header differs: ours %r, TraceLens %r%s%s" % (
            oh, rh, (", extra %r" % extra) if extra else "",
            (", missing %r" % missing) if missing else ""))
    if len(orows) != len(rrows):
        raise Diff("%d rows, TraceLens has %d" % (len(orows), len(rrows)))
    cmp = Comparer()

    def row_diff(i, o, r):
        if len(o) != len(r):
            return "row %d: %d cells, TraceLens %d" % (i + 1, len(o), len(r))
        for j, (a, b) in enumerate(zip(o, r)):
            if not cmp.cell(a, b):
                x, y = around(a, b)
                return "row %d, column %r: ours %r, TraceLens %r" % (i + 1, rh[j], x, y)
        return None

    keys = [rh.index(k) for k in TIE_KEYS.get(sheet, []) if k in rh]
    i = 0
    while i < len(rrows):
        d = row_diff(i, orows[i], rrows[i])
        if d is None:
            i += 1
            continue
        if not keys:
            raise Diff(d)
        # a block of reference rows with the same sort key: any order among them
        def key(row):
            return tuple(row[k] for k in keys)
        k0 = key(rrows[i])
        j = i
        while j < len(rrows) and key(rrows[j]) == k0:
            j += 1
        pool = list(range(i, j))
        for a in range(i, j):
            match = next((b for b in pool if row_diff(a, orows[a], rrows[b]) is None), None)
            if match is None:
                raise Diff(d + " (also not among the %d rows tied on %s)" % (
                    j - i, ", ".join(TIE_KEYS[sheet])))
            pool.remove(match)
        i = j
    return len(rrows), cmp.max_rel


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ours")
    ap.add_argument("ref")
    ap.add_argument("--label", help="trace name printed in each line")
    a = ap.parse_args(argv)
    label = a.label or os.path.basename(os.path.normpath(a.ref))
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from strict_report import excused, excuse_for
    excuses = excused()

    def fail(sheet, why):
        """A difference; one the excuse table of docs/differences.md names passes."""
        reason = excuse_for(excuses, label, sheet)
        if reason:
            print("PASS report %s %s (excused: %s; %s)" % (label, sheet, reason, why))
            return 0
        print("FAIL report %s %s: %s" % (label, sheet, why))
        return 1
    ref_sheets = sorted(f[:-4] for f in os.listdir(a.ref) if f.endswith(".csv"))
    our_sheets = sorted(f[:-4] for f in os.listdir(a.ours) if f.endswith(".csv")) \
        if os.path.isdir(a.ours) else []
    failed = 0
    skipped = []
    for sheet in ref_sheets:
        ours = os.path.join(a.ours, sheet + ".csv")
        if not os.path.exists(ours):
            skipped.append(sheet)
            continue
        try:
            n, rel = compare_sheet(sheet, ours, os.path.join(a.ref, sheet + ".csv"))
        except Diff as e:
            failed += fail(sheet, e)
            continue
        print("PASS report %s %s (%d rows, max rel err %.2g)" % (label, sheet, n, rel))
    for sheet in our_sheets:
        if sheet not in ref_sheets:
            failed += fail(sheet, "written, but TraceLens has no such sheet for this trace")
    for sheet in skipped:
        failed += fail(sheet, "TraceLens writes this sheet, we do not")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
