#!/usr/bin/env python3
"""compare.py — our HTA CSVs (tools/tracesql-hta-report) against HTA's outputs.

    compare.py OURS_DIR ORACLE_DIR

Rows are matched on each file's natural key, never on row order (HTA's sorts are
unstable); numbers compare as numbers within 1e-9 relative (95 = 95.0), an empty
cell is NaN. Files whose values depend on how HTA orders ties are checked as
docs/hta.md says: the queue-length and memory-bandwidth summaries exactly against
the fixed-order files (derived_*), and against HTA's own for the values that do not
depend on ties (count, min, max) and inside the two orders' envelope for the rest.
Prints one line per file; exit status 1 if any differs.
"""
import csv
import gzip
import math
import os
import sys

REL = 1e-9

# file -> key columns (None: the whole row is the key; rows compared as a multiset)
KEYS = {
    "temporal_breakdown": ["rank"],
    "idle_time_breakdown": ["rank", "stream", "idle_category"],
    "idle_interval_stats": ["rank", "stream", "idle_category"],
    "gpu_kernel_breakdown_by_type": ["kernel_type"],
    "gpu_kernel_breakdown_by_kernel": ["rank", "kernel_type", "name"],
    "cuda_kernel_launch_stats": None,
    "cuda_kernel_launch_stats_summary": ["rank"],
    "comm_comp_overlap": ["rank"],
    "aten_op_kernels_and_delay": ["rank", "aten_op_name", "kernel_sequence"],
    "profiler_steps": ["profiler_step"],
    "memory_bw_time_series": ["rank", "row_index"],
    "derived_queue_length_summary__launch_first": ["rank", "stream"],
    "derived_queue_length_summary__kernel_first": ["rank", "stream"],
    "derived_memory_bw_summary__start_first": ["rank", "name"],
    "derived_memory_bw_summary__end_first": ["rank", "name"],
    "preprocessed_events": ["rank", "index"],
    "critical_path_summary": ["bound_by"],
    "critical_path_edges": ["path_pos"],
}

# columns compared otherwise: HTA's critical_path_edges.cat is its internal symbol id,
# ours the category text (docs/hta.md), which must equal s_cat
SKIP_COLUMNS = {"critical_path_edges": {"cat"}}


def read(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        return [], []
    return rows[0], rows[1:]


def num(s):
    if s == "" or s.lower() in ("nan", "none"):
        return math.nan
    try:
        return float(s)
    except ValueError:
        return None


def same(a, b):
    x, y = num(a), num(b)
    if x is None or y is None:
        return a == b
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return x == y or abs(x - y) <= REL * max(abs(x), abs(y))


def canon_key(v):
    x = num(v)
    return repr(x) if x is not None and not math.isnan(x) else v


def keyed(header, rows, key, path):
    idx = [header.index(k) for k in key]
    out = {}
    for r in rows:
        k = tuple(canon_key(r[i]) for i in idx)
        if k in out:
            raise SystemExit(f"{path}: key {k} twice")
        out[k] = dict(zip(header, r))
    return out


def compare_keyed(name, ours, ref, key, tolerate_zero_rows=False):
    oh, orows = ours
    rh, rrows = ref
    if not rrows and not orows:
        return []
    if rrows and oh != rh:
        return [f"header {oh} != {rh}"]
    if not rrows:
        return [f"{len(orows)} rows, HTA none"]
    a, b = keyed(oh, orows, key, name), keyed(rh, rrows, key, name)
    errs = []
    for k in sorted(set(a) | set(b)):
        if k not in a or k not in b:
            row = a.get(k) or b.get(k)
            if tolerate_zero_rows and num(row.get("sum", "x")) == 0:
                continue
            errs.append(f"row {k} only in {'ours' if k in a else 'HTA'}")
            continue
        for c in rh:
            if c in SKIP_COLUMNS.get(name, ()):
                if a[k][c] != a[k].get("s_cat", a[k][c]):
                    errs.append(f"row {k} column {c}: ours {a[k][c]!r} != s_cat {a[k].get('s_cat')!r}")
                continue
            if not same(a[k][c], b[k][c]):
                errs.append(f"row {k} column {c}: ours {a[k][c]!r}, HTA {b[k][c]!r}")
    return errs


def compare_multiset(ours, ref):
    oh, orows = ours
    rh, rrows = ref
    if not rrows and not orows:
        return []
    if oh != rh:
        return [f"header {oh} != {rh}"]
    def canon(rows):
        return sorted(tuple(canon_key(v) for v in r) for r in rows)
    a, b = canon(orows), canon(rrows)
    if len(a) != len(b):
        return [f"{len(a)} rows, HTA {len(b)}"]
    errs = []
    for x, y in zip(a, b):
        if any(not same(p, q) for p, q in zip(x, y)):
            errs.append(f"row {x} != {y}")
            if len(errs) > 5:
                break
    return errs


def compare_tie_summary(ours_lf, ours_kf, ref, key):
    """HTA's own tie-dependent summary: count/min/max exact, the rest between the
    two fixed orders (or equal to either)."""
    rh, rrows = ref
    if not rrows and not ours_lf[1]:
        return []
    a, b, h = keyed(*ours_lf, key, "lf"), keyed(*ours_kf, key, "kf"), keyed(rh, rrows, key, "hta")
    errs = []
    if set(a) != set(h):
        return [f"row keys differ: ours {sorted(set(a) - set(h))[:3]} HTA {sorted(set(h) - set(a))[:3]}"]
    for k in h:
        for c in rh:
            if c in key:
                continue
            if c in ("count", "min", "max"):
                if not same(a[k][c], h[k][c]):
                    errs.append(f"row {k} column {c}: ours {a[k][c]}, HTA {h[k][c]}")
                continue
            x, y, z = num(a[k][c]), num(b[k][c]), num(h[k][c])
            if any(map(math.isnan, (x, y, z))):
                if not (math.isnan(x) and math.isnan(z)):
                    errs.append(f"row {k} column {c}: ours {x}, HTA {z}")
                continue
            lo, hi = min(x, y), max(x, y)
            inside = lo - REL * abs(lo) <= z <= hi + REL * abs(hi)
            # std need not lie between the two orders' values: 2% of either
            near = any(abs(z - w) <= 0.02 * max(abs(z), abs(w)) for w in (x, y))
            if not (inside or (c == "std" and near)):
                errs.append(f"row {k} column {c}: HTA {z} outside [{lo}, {hi}]")
    return errs


def series_after_each_ts(header, rows, value, group):
    """the series' value after the last event at each (group..., ts)"""
    gi = [header.index(g) for g in group]
    ti, vi = header.index("ts"), header.index(value)
    out = {}
    for r in rows:
        out.setdefault(tuple(canon_key(r[i]) for i in gi) + (float(r[ti]),), []).append(float(r[vi]))
    return out


def compare_queue_series(ours, ref):
    oh, orows = ours
    rh, rrows = ref
    if not rrows and not orows:
        return []
    if oh != rh:
        return [f"header {oh} != {rh}"]
    errs = []
    # every event, its time and stream: the rows without the (tie-dependent) value
    k = [c for c in rh if c != "queue_length"]
    errs += compare_multiset((k, [[dict(zip(oh, r))[c] for c in k] for r in orows]),
                             (k, [[dict(zip(rh, r))[c] for c in k] for r in rrows]))
    # the value after all events at a ts is the same whatever the tie order: the
    # per-(stream, ts) multiset of values has the same maximum over launches-first
    # orders; compare the value once every event at that ts is counted
    def final(header, rows):
        g = {}
        for r in rows:
            d = dict(zip(header, r))
            key = (d["rank"], d["stream"], float(d["ts"]))
            g.setdefault(key, []).append(int(float(d["queue_length"])))
        return g
    a, b = final(oh, orows), final(rh, rrows)
    for key in b:
        # sum of deltas at a ts is fixed, so the value after the group is last - first + ...:
        # compare the multiset size and the value reached after the whole group
        if key not in a or len(a[key]) != len(b[key]):
            errs.append(f"ts group {key} differs")
        elif sorted(a[key])[-1] < min(b[key]) or sorted(a[key])[0] > max(b[key]):
            errs.append(f"ts group {key}: ours {a[key]}, HTA {b[key]}")
    return errs[:10]


def main():
    ours_dir, ref_dir = sys.argv[1], sys.argv[2]
    failed = 0
    for f in sorted(os.listdir(ref_dir)):
        if not (f.endswith(".csv") or f.endswith(".csv.gz")):
            continue
        name = f.split(".")[0]
        ours_path = os.path.join(ours_dir, f)
        ref = read(os.path.join(ref_dir, f))
        if name in ("queue_length_summary", "memory_bw_summary"):
            first, second = (("launch_first", "kernel_first") if name.startswith("queue")
                             else ("start_first", "end_first"))
            key = ["rank", "stream"] if name.startswith("queue") else ["rank", "name"]
            errs = compare_tie_summary(read(os.path.join(ours_dir, f"derived_{name}__{first}.csv")),
                                       read(os.path.join(ours_dir, f"derived_{name}__{second}.csv")),
                                       ref, key)
        elif name.startswith("frequent_cuda_kernel_sequences__"):
            errs = compare_keyed(name, read(ours_path), ref, ["pattern"]) if os.path.exists(ours_path) else ["missing"]
        elif name not in KEYS and name != "queue_length_time_series":
            print(f"SKIP {f}: not an analysis tracesql writes yet")
            continue
        elif not os.path.exists(ours_path):
            errs = ["missing"]
        elif name == "queue_length_time_series":
            errs = compare_queue_series(read(ours_path), ref)
        elif KEYS[name] is None:
            errs = compare_multiset(read(ours_path), ref)
        else:
            errs = compare_keyed(name, read(ours_path), ref, KEYS[name],
                                 tolerate_zero_rows=name == "gpu_kernel_breakdown_by_type")
        if errs:
            failed += 1
            print(f"FAIL {f}: " + "; ".join(errs[:8]) + (f" (+{len(errs) - 8})" if len(errs) > 8 else ""))
        else:
            print(f"ok   {f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
