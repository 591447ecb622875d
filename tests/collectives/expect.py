#!/usr/bin/env python3
"""Independent check of the multi-rank collective report
(docs/collectives.md: nccl_long to nccl_all2allv).

Reads every rank's trace JSON directly (no tracesql), matches the k-th collective kernel
of each process group across ranks, computes the implicit-sync columns and the straggler
summary as the semantics prescribe, and compares them, as text, with the CSVs
examples/collective_report.sh wrote.

    expect.py REPORT_DIR RANK_REGEX TRACE...
Exits 1 on the first difference. Stdlib only.
"""
import csv, gzip, json, os, re, sys

PAT = re.compile(r"nccl|rccl|cross_device_reduce", re.I)
IMPLICIT = {"allreduce": "allreduce", "allreduce_coalesced": "allreduce",
            "reducescatter": "reducescatter", "_reduce_scatter_base": "reducescatter",
            "reduce_scatter_tensor_coalesced": "reducescatter",
            "allgather": "allgather", "all_gather": "allgather", "_allgather_base": "allgather",
            "all_gather_into_tensor_coalesced": "allgather", "allgather_into_tensor_coalesced": "allgather",
            "all_to_all": "alltoall"}
BPE = {"Float": 4, "Int": 4, "Long": 8, "BFloat16": 2, "Bool": 1, "Byte": 1, "Double": 8, "Half": 2, "Short": 2}


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        return json.load(f)


def text(v):
    if v is None or (isinstance(v, float) and v != v):
        return ""
    return repr(v) if isinstance(v, float) else str(v)


def main():
    outdir, rank_rx, files = sys.argv[1], re.compile(sys.argv[2]), sys.argv[3:]
    rows = []  # (rank, ev) in rank order, file order
    by_rank = {}
    for p in files:
        d = load(p)
        r = (d.get("distributedInfo") or {}).get("rank")
        if r is None:
            r = int(rank_rx.search(os.path.basename(p)).group(1))
        by_rank[r] = [e for e in d["traceEvents"] if e.get("cat") == "kernel" and PAT.search(e.get("name", ""))
                      and ((e.get("args") or {}).get("correlation") is not None
                           or (e.get("args") or {}).get("External id") is not None)]
    for r in sorted(by_rank):
        rows += [(r, e) for e in by_rank[r]]
    pg = lambda e: e["args"].get("Process Group Name")
    simplified = all(pg(e) in (None, "Unknown_Group") for _, e in rows) and all(
        len({e["args"].get("stream") for e in by_rank[r] if e["args"].get("stream") is not None}) <= 1 for r in by_rank)
    # instances: the k-th by ts of each (group, rank)
    inst, order = {}, []
    for r in sorted(by_rank):
        seen = {}
        for e in sorted(by_rank[r], key=lambda e: e["ts"]):  # sorted() is stable: ties in file order
            g = "all" if simplified else (pg(e) if pg(e) is not None else "Unknown_Group")
            k = seen.get(g, 0)
            seen[g] = k + 1
            cid = str(k) if simplified else f"{g}_{k}"
            inst.setdefault(cid, {})[r] = e
    for r, e in rows:  # first appearance, rank order then file order
        for cid, m in inst.items():
            if m.get(r) is e and cid not in order:
                order.append(cid)
    got = list(csv.reader(open(os.path.join(outdir, "nccl_implicit_sync.csv"))))
    head, body = got[0], got[1:]
    want, waits = [], []
    for cid in order:
        m = inst[cid]
        first = m[min(m)]
        name = first["args"].get("Collective name")
        t = IMPLICIT.get(name)
        if not (t or (simplified and (name is None or name not in IMPLICIT and name != "all_to_allv"))):
            continue
        ranks = sorted(m)
        ts = {r: m[r]["ts"] for r in ranks}
        dur = {r: m[r]["dur"] for r in ranks}
        latest = max(ts.values())
        wait = {r: latest - ts[r] for r in ranks}
        mw, er = max((wait[r], r) for r in ranks)
        lat = min(dur.values())
        ends = [ts[r] + dur[r] for r in ranks]
        a = first["args"]
        bpe = BPE.get(a.get("dtype")) if a.get("In msg nelems") is not None else None
        in_mb = a["In msg nelems"] * bpe / 1024 ** 2 if bpe else None
        out_mb = a["Out msg nelems"] * bpe / 1024 ** 2 if bpe else None
        full = (out_mb if t == "allgather" else in_mb) if (in_mb is not None and t) else None
        algo = (full / 1024) / (lat / 1e6) if full is not None and lat > 0 else None
        n = a.get("Group size")
        f = {"allreduce": 2 * (n - 1) / n} if n else {}
        if n and t in ("reducescatter", "allgather", "alltoall"):
            f[t] = (n - 1) / n
        bus = algo * f[t] if algo is not None and t in f else None
        want.append([cid, text(lat), text(mw), text(er), text(sum(wait[r] for r in ranks) / len(ranks)),
                     text(max(ends) - min(ends)), text(full), text(algo), text(bus)])
        waits.append(wait)
    cols = ["collective_id", "comm_latency", "skew in start time", "earliest arrival rank", "avg_wait_time",
            "skew in end time", "Full msg size (MB)", "algo bw (GB/s)", "bus bw (GB/s)"]
    idx = [head.index(c) for c in cols]
    mine = [[row[i] for i in idx] for row in body]
    if mine != want:
        for a, b in zip(mine, want):
            if a != b:
                print("nccl_implicit_sync differs:\n  report  ", a, "\n  expected", b)
                break
        else:
            print(f"nccl_implicit_sync: {len(mine)} rows, expected {len(want)}")
        return 1
    # straggler summary: totals per rank (integer µs stay integers), arrivals
    n = len(waits)
    st = {row[0]: row for row in list(csv.reader(open(os.path.join(outdir, "straggler_summary.csv"))))[1:]}
    for r in sorted(by_rank):
        w = [x[r] for x in waits if r in x]
        last = sum(1 for x in waits if min(x, key=lambda q: (x[q], q)) == r)
        tot = sum(w)
        exp = [str(r), text(tot if isinstance(tot, int) else round(tot, 1)), str(last),
               text(round(100.0 * last / n, 1)), str(n)]
        row = st[str(r)]
        if [row[0], row[1], row[3], row[5], row[6]] != exp:
            print(f"straggler_summary rank {r}: report {row}, expected {exp}")
            return 1
    print(f"expect.py: {len(want)} implicit-sync collectives and {len(by_rank)} ranks agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
