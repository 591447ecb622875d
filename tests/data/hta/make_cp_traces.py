#!/usr/bin/env python3
"""make_cp_traces.py — the hand-made traces of the critical path tests (docs/hta.md):
cp_edges.json (the runtime lock across threads, launch and kernel-kernel delays, the
backward thread joined to the forward one, a context sync, a tie between two paths)
and cp_ns.json (ns times rounded to 0 and -1 us kernels, a blocking memcpy, two steps
cut by the last-step filter, the GPU copy of a step listed first). cp_oracle/ holds
HTA's critical_path_edges/summary on them (cp_ns__N: instance N of ProfilerStep)."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ev = []
def X(name, cat, pid, tid, ts, dur, **args):
    e = {"ph": "X", "name": name, "cat": cat, "pid": pid, "tid": tid, "ts": ts, "dur": dur}
    if args: e["args"] = args
    ev.append(e)
# main thread 10: a step, a forward op launching three kernels; a second thread's
# cudaHostAlloc takes the runtime lock between two launches; thread 30 is the backward
# thread; a context sync at the end
X("ProfilerStep#1", "user_annotation", 1, 10, 0, 1000)
X("aten::forward_op", "cpu_op", 1, 10, 10, 390)
X("cudaLaunchKernel", "cuda_runtime", 1, 10, 20, 20, correlation=1)
X("cudaLaunchKernel", "cuda_runtime", 1, 10, 50, 20, correlation=2)
X("cudaLaunchKernel", "cuda_runtime", 1, 10, 80, 15, correlation=3)
X("aten::empty", "cpu_op", 1, 10, 97, 0)
X("cudaHostAlloc", "cuda_runtime", 1, 20, 35, 25)
X("autograd::engine::evaluate_function: XBackward0", "cpu_op", 1, 30, 420, 180)
X("cudaLaunchKernel", "cuda_runtime", 1, 30, 430, 20, correlation=4)
X("cudaDeviceSynchronize", "cuda_runtime", 1, 10, 960, 30, correlation=5)
X("gemm_kernel<float>(float*, int)", "kernel", 0, 7, 100, 100, stream=7, correlation=1)
X("void at::native::elementwise_kernel<128, 4>(int)", "kernel", 0, 7, 210, 90, stream=7, correlation=2)
X("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)", "kernel", 0, 8, 320, 580, stream=8, correlation=3)
X("relu_kernel", "kernel", 0, 7, 905, 45, stream=7, correlation=4)
X("Context Sync", "cuda_sync", 0, 7, 960, 30, stream=-1, correlation=5, device=0)
X("ProfilerStep#1", "gpu_user_annotation", 0, 7, 100, 850)
json.dump({"traceEvents": ev}, open(os.path.join(HERE, "cp_edges.json"), "w"), indent=0)

ev = []
# ns-resolution times (HTA rounds them: kernels of 0 and -1 µs), two steps (the
# last-step filter cuts the second), the first step's GPU copy listed first
X("ProfilerStep#1", "gpu_user_annotation", 0, 7, 100.5, 300)
X("ProfilerStep#1", "user_annotation", 1, 10, 0.25, 500)
X("ProfilerStep#2", "user_annotation", 1, 10, 600.25, 300)
X("aten::mm", "cpu_op", 1, 10, 110.3, 200)
X("cudaLaunchKernel", "cuda_runtime", 1, 10, 120.2, 10.5, correlation=1)
X("cudaLaunchKernel", "cuda_runtime", 1, 10, 135.6, 3.3, correlation=2)
X("cudaMemcpyAsync", "cuda_runtime", 1, 10, 150.1, 20.2, correlation=3)
X("cudaLaunchKernel", "cuda_runtime", 1, 10, 200, 5, correlation=4)
X("aten::add", "cpu_op", 1, 10, 610.1, 50)
X("cudaLaunchKernel", "cuda_runtime", 1, 10, 620, 5, correlation=5)
X("kernel_a", "kernel", 0, 7, 140.7, 0.4, stream=7, correlation=1)
X("kernel_b", "kernel", 0, 7, 141.05, 0.5, stream=7, correlation=2)
X("Memcpy HtoD (Pageable -> Device)", "gpu_memcpy", 0, 7, 160.2, 5.3, stream=7, correlation=3)
X("kernel_c", "kernel", 0, 7, 210.5, 50.2, stream=7, correlation=4)
X("kernel_d", "kernel", 0, 7, 640, 10, stream=7, correlation=5)
json.dump({"traceEvents": ev}, open(os.path.join(HERE, "cp_ns.json"), "w"), indent=0)
