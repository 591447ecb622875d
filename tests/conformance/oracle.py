#!/usr/bin/python3
"""Independent re-implementation of TraceLens's loading, tree building, runtime->GPU
linking and launcher attribution (docs: ../shared/docs/reference-semantics.md
sections 1, 2, 3, 4.3, 6.4). Standard library only.

Usage: oracle.py TRACE [--what counts|links|direct|timeline|all|stats]
       oracle.py TRACE --selfcheck   (compare with TraceLens's own report CSVs)

Outputs CSV on stdout (header, rows sorted, floats as repr()):
  counts    ph,cat,n                    events per (ph, cat) as json sees them
  links     gpu_uid,runtime_uid,launcher_uid
                                        every linked GPU event, its runtime event and
                                        its launcher (empty for communication kernels)
  direct    name,total_direct_kernel_time_sum,count
                                        == ops_summary.csv columns name,
                                        total_direct_kernel_time_sum, Count
  timeline  type,time_us                the gpu_timeline rows (section 4.4), in µs
  all       all of the above, each preceded by a line "## <what>"

UIDs are 0-based positions in traceEvents. This module is also imported by
check_trace.py (functions `analyze` and `render`).
"""

import csv
import gzip
import io
import json
import re
import sys

GPU_CATS = ("kernel", "gpu_memcpy", "gpu_memset")
RUNTIME_CATS = ("cuda_runtime", "cuda_driver")
# add_python_func is off in the default report: python_function is not a tree node.
TREE_CATS = ("cpu_op", "cuda_runtime", "cuda_driver")
GRAPH_LAUNCH = ("cudaGraphLaunch", "hipGraphLaunch")
COMM_RE = re.compile(r"nccl|rccl|cross_device_reduce", re.IGNORECASE)
MEMCPY_KERNEL_RE = re.compile(
    r"(MEMORY_COPY_(HOST_TO_DEVICE|DEVICE_TO_HOST|DEVICE_TO_DEVICE)"
    r"|__amd_rocclr_copyBuffer(Rect)?(Aligned)?)(\.kd)?")
FILL_KERNEL_RE = re.compile(r"__amd_rocclr_fillBuffer(Aligned)?(\.kd)?")

WHATS = ("counts", "links", "direct", "timeline")


def warn(msg):
    sys.stderr.write("oracle: warning: %s\n" % msg)


# ---------------------------------------------------------------- loading (1.1)
def load_events(path):
    """Return the traceEvents list. Accepts .json.gz / .json, object or bare array
    (a bare array is an extension: TraceLens itself rejects it)."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = json.loads(raw)
    if isinstance(doc, list):
        return doc
    if isinstance(doc, dict) and isinstance(doc.get("traceEvents"), list):
        return doc["traceEvents"]
    raise ValueError("top level is neither an object with traceEvents nor an array")


def _dict(x):
    return x if isinstance(x, dict) else None


# ---------------------------------------------------------------- busy time (3.2)
def merge_intervals(intervals):
    """Union of closed intervals: sort by start (stable), touching intervals merge."""
    if not intervals:
        return []
    iv = sorted(intervals, key=lambda x: x[0])
    merged = [iv[0]]
    for s, e in iv[1:]:
        ls, le = merged[-1]
        if s <= le:
            merged[-1] = (ls, max(le, e))
        else:
            merged.append((s, e))
    return merged


def length(merged):
    total = 0
    for s, e in merged:
        total += e - s  # left-to-right, like Python's sum()
    return total


def busy(intervals):
    return length(merge_intervals(intervals))


def subtract(a_union, b_union):
    """B \\ A for sorted, disjoint unions (TraceLens's subtract_intervalsA_from_B)."""
    result = []
    a_idx, a_len = 0, len(a_union)
    for b_start, b_end in b_union:
        current = b_start
        while a_idx < a_len and a_union[a_idx][1] <= b_start:
            a_idx += 1
        t = a_idx
        while t < a_len and a_union[t][0] < b_end:
            a_start, a_end = a_union[t]
            if a_start > current:
                result.append((current, min(b_end, a_start)))
            current = max(current, a_end)
            if current >= b_end:
                break
            t += 1
        if current < b_end:
            result.append((current, b_end))
    return result


def kahan_sum(values):
    """pandas' groupby sum (compensated summation, in row order)."""
    s = 0.0
    c = 0.0
    for v in values:
        y = v - c
        t = s + y
        c = (t - s) - y
        s = t
    return s


# ---------------------------------------------------------------- analysis
def analyze(events):
    """Return a dict with keys counts, links, direct, timeline: lists of row tuples
    (unsorted) plus 'stats' (a dict of diagnostics)."""
    n_events = len(events)
    stats = {"events": n_events}

    # ---- counts (as json sees them)
    counts = {}
    for e in events:
        if isinstance(e, dict):
            key = (e.get("ph"), e.get("cat"))
        else:
            key = (None, None)
        counts[key] = counts.get(key, 0) + 1

    ev = [e if isinstance(e, dict) else {} for e in events]
    cats = [e.get("cat") for e in ev]

    # ---- t_end (1.7): once, in double arithmetic, unless already present
    t_end = [None] * n_events
    for i, e in enumerate(ev):
        if "t_end" in e:
            t_end[i] = e["t_end"]
        elif "ts" in e and "dur" in e:
            t_end[i] = e["ts"] + e["dur"]

    # ---- linking key (1.10)
    linking_key = "External id"
    for e in ev:
        if e.get("cat") in RUNTIME_CATS and "launch" in str(e.get("name", "")).lower():
            args = _dict(e.get("args")) or {}
            linking_key = "correlation" if "correlation" in args else "External id"
            break
    stats["linking_key"] = linking_key

    # ---- indexes (1.11)
    ac2g_start, ac2g_end = {}, {}
    by_pid_tid_link = {}
    gpu_by_link = {}
    runtime_uids = []
    for i, e in enumerate(ev):
        cat = cats[i]
        if cat == "ac2g":
            ph = e.get("ph")
            if ph == "s":
                ac2g_start[e.get("id")] = i
            elif ph == "f":
                ac2g_end[e.get("id")] = i
            continue
        args = _dict(e.get("args"))
        if args is not None:
            pid, tid, link = e.get("pid"), e.get("tid"), args.get(linking_key)
            if pid is not None and tid is not None and link is not None:
                try:
                    by_pid_tid_link[(pid, tid, link)] = i
                except TypeError:
                    pass  # unhashable value: cannot be a lookup key
            if cat in GPU_CATS and link is not None:
                try:
                    gpu_by_link.setdefault(link, []).append(i)
                except TypeError:
                    pass
        if cat in RUNTIME_CATS:
            runtime_uids.append(i)

    # ---- host call-stack tree (2.2)
    parent = {}
    cands = [i for i in range(n_events) if cats[i] in TREE_CATS]
    cands.sort(key=lambda i: ev[i]["ts"])  # stable: ties keep file order
    stacks = {}
    dropped = bled = 0
    for i in cands:
        e = ev[i]
        key = (e.get("pid"), e.get("tid"))
        S = stacks.get(key)
        if S is None:
            S = stacks[key] = []
        ts = e["ts"]
        while S and ts >= t_end[S[-1]]:
            S.pop()
        if S and t_end[i] > t_end[S[-1]]:
            overlap = t_end[S[-1]] - ts
            if overlap < 1.0 and len(S) >= 2:
                S.pop()  # bleed: e becomes a sibling of the popped node
                bled += 1
            else:
                dropped += 1
                continue  # e is discarded for tree purposes
        if S:
            parent[i] = S[-1]
        S.append(i)
    stats["tree_nodes"] = len(cands)
    stats["tree_dropped"] = dropped
    stats["tree_bleed_pops"] = bled

    # ---- runtime -> GPU linking (2.5)
    linked_by = {}  # gpu uid -> runtime uid (last link wins, like parent)
    nongpu_targets = 0
    for r in runtime_uids:
        e = ev[r]
        args = _dict(e.get("args")) or {}
        link = args.get(linking_key)
        if e.get("name") in GRAPH_LAUNCH:
            if link is None:
                targets = []
            else:
                try:
                    targets = gpu_by_link.get(link, [])
                except TypeError:
                    targets = []
        else:
            targets = []
            try:
                s = ac2g_start.get(link)
                f = ac2g_end.get(link)
            except TypeError:
                s = f = None
            if s is not None and f is not None:
                fe = ev[f]
                try:
                    g = by_pid_tid_link.get((fe.get("pid"), fe.get("tid"), fe.get("id")))
                except TypeError:
                    g = None
                if g is not None:
                    targets = [g]
        for g in targets:
            if g == r:
                # TraceLens would make r its own parent and loop forever.
                warn("runtime event %d links to itself; ignored" % r)
                continue
            if cats[g] not in GPU_CATS:
                nongpu_targets += 1
                warn("runtime event %d links to non-GPU event %d (cat %r)"
                     % (r, g, cats[g]))
            parent[g] = r
            if cats[g] in GPU_CATS:
                linked_by[g] = r
    stats["nongpu_link_targets"] = nongpu_targets

    # parent of a GPU event is the final one (a later link may overwrite it)
    gpu_uids = [i for i in range(n_events) if cats[i] in GPU_CATS]
    stats["gpu_events"] = len(gpu_uids)
    stats["gpu_linked"] = len(linked_by)

    # ---- launchers (3.3)
    links = []
    launcher_kernels = {}  # launcher uid -> [gpu uid] (insertion order = first met)
    for g in gpu_uids:
        if g not in linked_by:
            continue
        r = parent.get(g)
        comm = COMM_RE.search(str(ev[g].get("name", ""))) is not None
        launcher = None
        if not comm:
            cur = parent.get(r)
            leaf = None
            seen = 0
            while cur is not None:
                seen += 1
                if seen > n_events:
                    raise RuntimeError("cycle in parent chain above %d" % r)
                c = cats[cur]
                if c == "cpu_op":
                    if ev[cur].get("name") == "execute":
                        cur = parent.get(cur)
                        continue
                    leaf = cur
                    break
                elif c == "python_function":
                    cur = parent.get(cur)
                else:
                    break
            launcher = leaf if leaf is not None else r
            launcher_kernels.setdefault(launcher, []).append(g)
        links.append((g, r, launcher))

    # ---- ops_summary: direct time per launcher, grouped by name (6.4)
    order = sorted(launcher_kernels, key=lambda u: ev[u].get("ts", 0))
    by_name = {}
    for L in order:
        ks = launcher_kernels[L]
        t = busy([(ev[k]["ts"], t_end[k]) for k in ks])
        name = ev[L].get("name")
        if name is None:
            continue  # pandas groupby drops null keys
        by_name.setdefault(name, []).append(t)
    direct = []
    for name, times in by_name.items():
        direct.append((name, kahan_sum(float(x) for x in times), len(times)))
    stats["launchers"] = len(order)

    # ---- gpu_timeline (4.1, 4.2, 4.4): linked GPU events only
    comp, comm_, memcpy, allg = [], [], [], []
    for g in gpu_uids:
        if g not in linked_by:
            continue
        iv = (ev[g]["ts"], t_end[g])
        allg.append(iv)
        cat = cats[g]
        name = str(ev[g].get("name", ""))
        if cat == "gpu_memcpy":
            memcpy.append(iv)
        elif cat == "kernel" and MEMCPY_KERNEL_RE.fullmatch(name):
            memcpy.append(iv)
        elif cat == "kernel" and FILL_KERNEL_RE.fullmatch(name):
            comp.append(iv)
        elif COMM_RE.search(name):
            comm_.append(iv)
        else:
            comp.append(iv)
    timeline = []
    if allg:
        COMP, COMM, MEMCPY, ALL = (merge_intervals(x) for x in (comp, comm_, memcpy, allg))
        total = ALL[-1][1] - ALL[0][0]
        b = length(ALL)
        timeline = [
            ("computation_time", length(COMP)),
            ("exposed_comm_time", length(subtract(COMP, COMM))),
            ("exposed_memcpy_time", length(subtract(COMM, subtract(COMP, MEMCPY)))),
            ("busy_time", b),
            ("idle_time", total - b),
            ("total_time", total),
            ("total_comm_time", length(COMM)),
            ("total_memcpy_time", length(MEMCPY)),
        ]

    return {"counts": [(k[0], k[1], n) for k, n in counts.items()],
            "links": links, "direct": direct, "timeline": timeline, "stats": stats}


# ---------------------------------------------------------------- output
HEADERS = {
    "counts": ("ph", "cat", "n"),
    "links": ("gpu_uid", "runtime_uid", "launcher_uid"),
    "direct": ("name", "total_direct_kernel_time_sum", "count"),
    "timeline": ("type", "time_us"),
}


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return v
    return json.dumps(v)


def _sort_key(row):
    # None first, numbers numerically, everything else by text
    out = []
    for v in row:
        if v is None:
            out.append((0, 0, ""))
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out.append((1, v, ""))
        else:
            out.append((2, 0, _cell(v)))
    return out


def render(result, what):
    rows = result[what]
    if what == "timeline":
        rows = [(t, float(v)) for t, v in rows]  # keep TraceLens row order
    else:
        rows = sorted(rows, key=_sort_key)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADERS[what])
    for row in rows:
        w.writerow([_cell(v) for v in row])
    return buf.getvalue()


# ---------------------------------------------------------------- self-check
SELF_RTOL = 1e-9


def report_dir(trace):
    """TraceLens's report next to a trace: <stem>_perf_report_csvs/ (or None)."""
    import os
    stem = trace
    for suf in (".json.gz", ".json"):
        if stem.endswith(suf):
            stem = stem[: -len(suf)]
            break
    d = stem + "_perf_report_csvs"
    return d if os.path.isdir(d) else None


def _rel(a, b):
    m = max(abs(a), abs(b))
    return abs(a - b) / m if m else 0.0


def selfcheck(trace, label=None):
    """Compare the oracle with TraceLens's own CSVs next to the trace.
    Prints PASS/FAIL lines; returns the number of failures."""
    import os
    label = label or trace
    d = report_dir(trace)
    if d is None:
        return 0
    res = analyze(load_events(trace))
    failed = 0
    ops = os.path.join(d, "ops_summary.csv")
    if os.path.exists(ops):
        with open(ops, newline="") as f:
            ref = {r["name"]: (float(r["total_direct_kernel_time_sum"]), int(r["Count"]))
                   for r in csv.DictReader(f)}
        mine = {n: (float(v), c) for n, v, c in res["direct"]}
        bad, worst = [], 0.0
        for n in sorted(set(ref) | set(mine)):
            if n not in ref or n not in mine:
                bad.append("%r only in %s" % (n, "oracle" if n in mine else "ops_summary.csv"))
                continue
            r = _rel(mine[n][0], ref[n][0])
            worst = max(worst, r)
            if r > SELF_RTOL or mine[n][1] != ref[n][1]:
                bad.append("%r: oracle %r/%d, ops_summary.csv %r/%d"
                           % (n, mine[n][0], mine[n][1], ref[n][0], ref[n][1]))
        if bad:
            failed += 1
            print("FAIL %-12s %s: %d rows differ" % ("oracle-ops", label, len(bad)))
            for b in bad[:5]:
                print("     " + b)
        else:
            print("PASS %-12s %s (%d names, max rel err %.2g)"
                  % ("oracle-ops", label, len(ref), worst))
    tl = os.path.join(d, "gpu_timeline.csv")
    if os.path.exists(tl):
        with open(tl, newline="") as f:
            ref = {r["type"]: float(r["time ms"]) for r in csv.DictReader(f)}
        mine = {k: float(v) / 1000 for k, v in res["timeline"]}
        bad, worst = [], 0.0
        for k, v in ref.items():
            if k not in mine:
                bad.append("%s missing in oracle" % k)
                continue
            r = _rel(mine[k], v)
            worst = max(worst, r)
            if r > SELF_RTOL:
                bad.append("%s: oracle %r ms, gpu_timeline.csv %r ms" % (k, mine[k], v))
        if bad:
            failed += 1
            print("FAIL %-12s %s: %d rows differ" % ("oracle-tl", label, len(bad)))
            for b in bad[:5]:
                print("     " + b)
        else:
            print("PASS %-12s %s (busy %r us of %d linked GPU events, max rel err %.2g)"
                  % ("oracle-tl", label, mine.get("busy_time", 0) * 1000,
                     res["stats"]["gpu_linked"], worst))
    return failed


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace")
    ap.add_argument("--what", default="direct", choices=WHATS + ("all", "stats"))
    ap.add_argument("--selfcheck", action="store_true",
                    help="compare with TraceLens's <stem>_perf_report_csvs/ops_summary.csv "
                         "and gpu_timeline.csv next to the trace (prints PASS/FAIL lines)")
    ap.add_argument("--label", help="trace name to print with --selfcheck")
    a = ap.parse_args(argv)
    if a.selfcheck:
        return 1 if selfcheck(a.trace, a.label) else 0
    res = analyze(load_events(a.trace))
    out = sys.stdout
    if a.what == "stats":
        for k, v in res["stats"].items():
            out.write("%s=%s\n" % (k, v))
    elif a.what == "all":
        for w in WHATS:
            out.write("## %s\n" % w)
            out.write(render(res, w))
    else:
        out.write(render(res, a.what))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
