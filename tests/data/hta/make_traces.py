#!/usr/bin/env python3
"""make_traces.py — the hand-made traces of tests/sql/hta/ (docs/hta.md), written
next to this script. Each pins an edge of HTA's semantics:

edges.json (ns resolution, one rank): three ProfilerStep#N user annotations and
  their gpu_user_annotation copies (so the last-step filter applies and cuts at the
  GPU copy's start), kernels whose rounded dur is 0 and -1, a memcpy with a
  bandwidth, an NCCL kernel overlapping computation, a cudaMemcpyAsync, a launch in
  the cut-off step, a kernel whose launch is not in the trace, the profiler's own
  "Trace" span, and a stream-0 cpu_op (Triton).
pairs.json: a B/E pair (no dur in the JSON: not a row for HTA), an instant and an X
  event without a cat beside the X events that are rows.
"""
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
events = []


def ev(**kw):
    events.append(kw)


CPU = dict(pid=100, tid=100)
GPU7 = dict(pid=0, tid=7)
GPU8 = dict(pid=0, tid=8)
ev(ph="X", cat="Trace", name="PyTorch Profiler (0)", ts=999.5, dur=2000, **CPU)
for n, (ts, dur) in enumerate([(1000.25, 300.5), (1300.75, 300.0), (1600.9, 300.0)], 1):
    ev(ph="X", cat="user_annotation", name=f"ProfilerStep#{n}", ts=ts, dur=dur, **CPU)
for n, (ts, dur) in enumerate([(1010.1, 280.0), (1320.2, 260.0), (1640.4, 200.0)], 1):
    ev(ph="X", cat="gpu_user_annotation", name=f"ProfilerStep#{n}", ts=ts, dur=dur, **GPU7)

corr = [1000]


def launch(ts, dur, kts, kdur, kname, stream=7, name="cudaLaunchKernel", cat="kernel", args=None):
    corr[0] += 1
    c = corr[0]
    ev(ph="X", cat="cpu_op", name="aten::op", ts=ts - 2.0, dur=dur + 4.0, **CPU)
    ev(ph="X", cat="cuda_runtime", name=name, ts=ts, dur=dur, args={"correlation": c}, **CPU)
    a = {"stream": stream, "correlation": c, "device": 0}
    a.update(args or {})
    ev(ph="X", cat=cat, name=kname, ts=kts, dur=kdur, args=a, pid=0, tid=stream)


# step 1: back-to-back kernels (kernel_wait), one of rounded dur 0 and one of -1
launch(1020.3, 5.2, 1030.4, 10.3, "gemm_kernel_a")
launch(1026.1, 4.0, 1041.5, 0.3, "elementwise_tiny")          # ceil 1042, floor 1041.8 -> -1
launch(1031.0, 4.0, 1043.2, 0.7, "elementwise_zero")          # ceil 1044, floor 1043.9 -> 0
launch(1036.0, 4.0, 1080.0, 20.0, "gemm_kernel_a")            # gap 36 -> other
launch(1110.0, 6.0, 1118.0, 3.0, "Memcpy HtoD (Pinned -> Device)", name="cudaMemcpyAsync",
       cat="gpu_memcpy", args={"memory bandwidth (GB/s)": 12.5, "bytes": 37500})
launch(1112.0, 5.0, 1119.0, 60.0, "ncclKernel_AllReduce_RING_LL_Sum_float", stream=8)
launch(1170.0, 5.0, 1200.5, 9.0, "gemm_kernel_a")            # launched after prev end: host_wait
# step 2
launch(1330.0, 5.0, 1340.0, 12.0, "gemm_kernel_b")
launch(1336.0, 5.0, 1352.5, 4.0, "gemm_kernel_b")
ev(ph="X", cat="cpu_op", name="triton_poi_fused_0", ts=1400.4, dur=30.2, args={"stream": 0}, **CPU)
ev(ph="X", cat="kernel", name="orphan_kernel", ts=1500.0, dur=5.0,
   args={"stream": 7, "correlation": 5000, "device": 0}, **GPU7)
# step 3 (incomplete): its CPU part before the GPU copy's start is kept
launch(1610.0, 5.0, 1650.0, 8.0, "gemm_kernel_c")
launch(1700.0, 5.0, 1710.0, 8.0, "gemm_kernel_d")

with open(os.path.join(here, "edges.json"), "w") as f:
    json.dump({"schemaVersion": 1, "traceEvents": events}, f, indent=0)
    f.write("\n")

pairs = [
    dict(ph="B", cat="user_annotation", name="span", ts=10, pid=1, tid=1),
    dict(ph="E", cat="user_annotation", name="span", ts=20, pid=1, tid=1),
    dict(ph="i", cat="cpu_instant_event", name="mark", ts=12, s="t", pid=1, tid=1),
    dict(ph="X", name="no_cat", ts=13, dur=1, pid=1, tid=1),
    dict(ph="X", cat="cpu_op", name="aten::add", ts=14, dur=2, pid=1, tid=1),
    dict(ph="X", cat="kernel", name="add_kernel", ts=15, dur=1, pid=0, tid=7,
         args={"stream": 7, "correlation": 1}),
]
with open(os.path.join(here, "pairs.json"), "w") as f:
    json.dump({"schemaVersion": 1, "traceEvents": pairs}, f, indent=0)
    f.write("\n")
