#!/usr/bin/env python3
"""strict_compare.py — our perf-report comparison against TraceLens's, as text.

    strict_compare.py --label LABEL --baseline TAG OUR_DIR REF_DIR

Every CSV of REF_DIR (compare_perf_reports_pytorch's output) must be written in OUR_DIR
with the same text, under strict_report.py's rules: the one normalisation (numpy >= 2's
`np.float64(x)` wrapper, here on both sides, as the comparison copies cells of its input
reports) and, inside a group of rows tied on the sheet's sort column (the baseline's
`<TAG>::<sort column>`; only_variant sheets: the variant's), the same rows in any order,
since TraceLens sorts with numpy's unstable quicksort. Nothing else is tolerated; an
extra file in OUR_DIR fails too.

Prints one line per file:  PASS strict-compare LABEL SHEET  /  FAIL strict-compare ...
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import strict_report  # noqa: E402

SORT_COLUMNS = {
    "ops_summary": "total_direct_kernel_time_ms",
    "kernel_summary": "Kernel duration (µs)_sum",
    "ops_all": "total_direct_kernel_time_sum",
    "ops_unique_args": "total_direct_kernel_time_sum",
    "unified_perf_summary": "Kernel Time (µs)_sum",
}
ROOFLINE = ("GEMM", "SDPA_fwd", "SDPA_bwd", "CONV_fwd", "CONV_bwd", "un_eltwise", "bin_eltwise")


def tie_key(sheet, baseline):
    """The column whose ties leave the row order open, or None."""
    m = re.match(r"^(.*)_(intersect|only_baseline|only_variant)_(.+)$", sheet)
    if not m:
        col = SORT_COLUMNS.get(sheet)
        return "%s::%s" % (baseline, col) if col else None
    base, part, tag = m.groups()
    col = "Kernel Time (µs)_sum" if base in ROOFLINE else SORT_COLUMNS.get(base)
    if not col:
        return None
    return "%s::%s" % (tag if part == "only_variant" else baseline, col)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--label", required=True)
    ap.add_argument("--baseline", required=True)
    ap.add_argument("ours")
    ap.add_argument("ref")
    a = ap.parse_args()
    bad = 0
    ref_names = sorted(n for n in os.listdir(a.ref) if n.endswith(".csv"))
    for name in ref_names:
        sheet = name[:-4]
        path = os.path.join(a.ours, name)
        if not os.path.exists(path):
            why = "not written"
        else:
            with open(path, encoding="utf-8", newline="") as f:
                ours = strict_report.normalise(f.read())
            with open(os.path.join(a.ref, name), encoding="utf-8", newline="") as f:
                ref = strict_report.normalise(f.read())
            key = tie_key(sheet, a.baseline)
            strict_report.TIE_KEYS[sheet] = [key] if key else []
            why = strict_report.compare(ours, ref, sheet)
        if why is None:
            print("PASS strict-compare %s %s" % (a.label, sheet))
        else:
            print("FAIL strict-compare %s %s: %s" % (a.label, sheet, why))
            bad += 1
    for name in sorted(os.listdir(a.ours)):
        if name.endswith(".csv") and name not in ref_names:
            print("FAIL strict-compare %s %s: written, TraceLens writes no such file" % (a.label, name[:-4]))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
