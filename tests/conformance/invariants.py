"""Invariants every perf report of ours must hold, whatever the trace (reference
semantics §6.1.4, §6.1.5, §7.1, §6.11). They catch a class of difference on traces
that have no TraceLens reference:

  1. no whole cell is None, nan, NaN or <NA> (a missing value is an empty cell);
  2. each FLOPS/Byte cell is the text of (GFLOPS * 1e9) / (Data Moved (MB) * 1048576)
     of its own row (TraceLens's ((F / 1e9) * 1e9) / Bytes; Data Moved is
     Bytes / 1048576, exact in doubles), empty when that is not a number;
  3. within one "param:" column of a perf sheet whose values are all numbers, integer
     text never sits beside float text or an empty cell (one dtype per column over the
     frame). F_bwd sheets are left out: their rows moved from F_fwd keep the text of
     the F_fwd frame, so two dtypes can meet there in TraceLens too;
  4. roofline columns exactly where a row has a matching peak: without an arch there
     are none; with one, a row whose Compute Spec has a peak in the arch, GFLOPS > 0
     and known bytes has Roofline Time / Roofline Bound cells, any other row has them
     empty, and a sheet with such a row has the columns;
  5. an inference report (label ending in +inference; docs/inference.md) has no F_bwd
     sheet and no bare Normalization sheet; every perf-model sheet has num_kernels
     right after its "param:" columns, with integer cells; parent_module never holds
     "_<digits>"; in ops_summary total_subtree_kernel_time_count equals Count.

    python3 invariants.py --label LABEL [--arch ARCH_JSON] OUTDIR

Prints PASS / FAIL lines; exit status 1 on a FAIL.
"""
import argparse
import csv
import json
import math
import os
import re
import sys

csv.field_size_limit(sys.maxsize)  # call stacks of deep models exceed the default
MISSING_WORDS = {"None", "nan", "NaN", "<NA>"}
INT_RE = re.compile(r"^-?[0-9]+$")
FLOAT_RE = re.compile(r"^-?([0-9]+\.[0-9]*(e[+-]?[0-9]+)?|[0-9]+e[+-]?[0-9]+|inf)$")

# column names: perf sheets, then unified_perf_summary
FLOPS = [("GFLOPS_first", "Data Moved (MB)_first", "FLOPS/Byte_first"),
         ("GFLOPS", "Data Moved (MB)", "FLOPS/Byte")]
RL = [("Roofline Time (µs)_first", "Roofline Bound_first"),
      ("Roofline Time (µs)_first", "Roofline Bound")]


def num(s):
    try:
        return float(s) if s != "" else None
    except ValueError:
        return None


def check_sheet(name, header, rows, peaks, fails):
    # 1. missing words
    for i, r in enumerate(rows):
        for h, c in zip(header, r):
            if c in MISSING_WORDS:
                fails.append("%s row %d, %s: whole cell %r" % (name, i + 1, h, c))
    # 2. FLOPS/Byte
    for g, d, f in FLOPS:
        if f not in header:
            continue
        gi, di, fi = header.index(g), header.index(d), header.index(f)
        for i, r in enumerate(rows):
            gv, dv = num(r[gi]), num(r[di])
            want = ""
            if gv is not None and dv is not None and dv * 1048576 != 0:
                x = (gv * 1e9) / (dv * 1048576)
                want = "" if math.isnan(x) else repr(x)
            if r[fi] != want:
                fails.append("%s row %d: FLOPS/Byte %r, (GFLOPS*1e9)/(Data Moved*1048576) gives %r"
                             % (name, i + 1, r[fi], want))
    # 3. one dtype per param column
    if not name.endswith("_bwd"):
        for j, h in enumerate(header):
            if not h.startswith("param: "):
                continue
            cells = [r[j] for r in rows]
            ints = any(INT_RE.match(c) for c in cells)
            floats = any(FLOAT_RE.match(c) for c in cells)
            empty = any(c == "" for c in cells)
            other = any(c and not INT_RE.match(c) and not FLOAT_RE.match(c) for c in cells)
            if ints and not other and (floats or empty):
                fails.append("%s, %s: integer text beside %s" % (name, h, "float text" if floats else "empty cells"))
    # 4. roofline columns
    spec_i = header.index("Compute Spec") if "Compute Spec" in header else None
    if spec_i is None:
        return
    tcol = next((t for t, b in RL if t in header and b in header), None)
    bcol = next((b for t, b in RL if t in header and b in header), None)
    if peaks is None:
        if any(h.startswith("Roofline") or h.startswith("Pct Roofline") for h in header):
            fails.append("%s: roofline columns without an arch" % name)
        return
    g, d, _ = FLOPS[0] if FLOPS[0][0] in header else FLOPS[1]
    gi, di = header.index(g), header.index(d)
    for i, r in enumerate(rows):
        gv, dv = num(r[gi]), num(r[di])
        match = (r[spec_i] in peaks and gv is not None and gv > 0 and dv is not None)
        if tcol is None:
            if match:
                fails.append("%s row %d: %s has a peak but the sheet has no roofline columns"
                             % (name, i + 1, r[spec_i]))
            continue
        has = r[header.index(tcol)] != "" and r[header.index(bcol)] != ""
        if has != match:
            fails.append("%s row %d: Compute Spec %r %s a peak but its roofline cells are %s"
                         % (name, i + 1, r[spec_i], "has" if r[spec_i] in peaks else "has no",
                            "filled" if has else "empty"))


PERF_SHEET_END = "GFLOPS_first"
INSTANCE_ID = re.compile(r"_[0-9]")


def check_inference(name, header, rows, fails):
    """Invariant 5 on one sheet of an inference report."""
    if name.endswith("_bwd") or name == "Normalization":
        fails.append("%s: the inference report has no such sheet" % name)
    if PERF_SHEET_END in header:
        at = header.index(PERF_SHEET_END)
        if at == 0 or header[at - 1] != "num_kernels":
            fails.append("%s: num_kernels is not right before %s" % (name, PERF_SHEET_END))
        else:
            bad = [r[at - 1] for r in rows if not INT_RE.match(r[at - 1])]
            if bad:
                fails.append("%s: num_kernels cell %r is not an integer" % (name, bad[0]))
    if "parent_module" in header:
        i = header.index("parent_module")
        bad = [r[i] for r in rows if INSTANCE_ID.search(r[i])]
        if bad:
            fails.append("%s: parent_module %r keeps an instance number" % (name, bad[0]))
    if name == "ops_summary" and "total_subtree_kernel_time_count" in header and "Count" in header:
        i, j = header.index("total_subtree_kernel_time_count"), header.index("Count")
        bad = [r for r in rows if r[i] != r[j]]
        if bad:
            fails.append("%s: total_subtree_kernel_time_count %s beside Count %s" % (name, bad[0][i], bad[0][j]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--label", required=True)
    ap.add_argument("--arch")
    ap.add_argument("outdir")
    a = ap.parse_args()
    peaks = None
    if a.arch:
        with open(a.arch) as f:
            arch = json.load(f)
        peaks = {k for k, v in arch.get("max_achievable_tflops", {}).items()
                 if isinstance(v, (int, float)) and "mem_bw_gbps" in arch}
    status = 0
    for fn in sorted(os.listdir(a.outdir)):
        if not fn.endswith(".csv"):
            continue
        with open(os.path.join(a.outdir, fn), newline="", encoding="utf-8") as f:
            table = [r for r in csv.reader(f)]
        if not table or not table[0]:
            continue
        fails = []
        check_sheet(fn[:-4], table[0], table[1:], peaks, fails)
        if a.label.endswith("+inference"):
            check_inference(fn[:-4], table[0], table[1:], fails)
        if fails:
            status = 1
            print("FAIL invariants %s %s: %s%s" % (a.label, fn[:-4], fails[0],
                                                  " (+%d more)" % (len(fails) - 1) if len(fails) > 1 else ""))
        else:
            print("PASS invariants %s %s" % (a.label, fn[:-4]))
    return status


if __name__ == "__main__":
    sys.exit(main())
