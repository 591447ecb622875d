#!/usr/bin/env python3
"""make_coll_job.py OUTDIR [RANKS [COLLS]] — a synthetic multi-rank job for the collective
views' benchmark (tests/bench/straggler_bench.py): RANKS Kineto traces (default 16), each
with COLLS NCCL kernels (default 2000) and their launches, one process group of every rank.
Collectives allreduce / allgather / reducescatter in turn, NCCL Seq numbers, start times
jittered per rank by whole microseconds (a fixed formula: the same files every run).
"""
import json
import os
import sys

KERNEL = {"allreduce": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
          "allgather": "ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
          "reducescatter": "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"}


def rank_trace(rank, ranks, colls):
    names = ["allreduce", "allgather", "reducescatter"]
    group = "[" + ", ".join(str(r) for r in range(ranks)) + "]"
    ev = []
    for i in range(colls):
        name = names[i % 3]
        ts = 1_000_000_000 + i * 1000 + (rank * 7919 + i * 104729) % 997
        dur = 50 + (rank * 31 + i * 17) % 500
        corr = 10_000 + i
        nel = 1048576 * (1 + i % 4)
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": 101,
                   "ts": ts - 20, "dur": 5, "args": {"External id": corr, "correlation": corr}})
        ev.append({"ph": "X", "cat": "kernel", "name": KERNEL[name], "pid": 0, "tid": 7, "ts": ts, "dur": dur,
                   "args": {"External id": corr, "device": 0, "stream": 7, "correlation": corr,
                            "Collective name": name, "In msg nelems": nel, "Out msg nelems": nel,
                            "Group size": ranks, "dtype": "Float", "In split size": "[]",
                            "Out split size": "[]", "Process Group Name": "0",
                            "Process Group Description": "default_pg", "Process Group Ranks": group,
                            "Seq": i}})
    return {"schemaVersion": 1,
            "deviceProperties": [{"id": d, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85899345920,
                                  "computeMajor": 8, "computeMinor": 0, "numSms": 108} for d in range(8)],
            "distributedInfo": {"backend": "nccl", "rank": rank, "world_size": ranks},
            "traceEvents": ev}


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    out = argv[1]
    ranks = int(argv[2]) if len(argv) > 2 else 16
    colls = int(argv[3]) if len(argv) > 3 else 2000
    os.makedirs(out, exist_ok=True)
    for r in range(ranks):
        with open(os.path.join(out, f"rank{r}.json"), "w") as f:
            json.dump(rank_trace(r, ranks, colls), f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
