#!/usr/bin/env python3
"""make_cp_traces.py — the hand-made traces of the critical path tests (docs/hta.md):
cp_edges.json (the runtime lock across threads, launch and kernel-kernel delays, the
backward thread joined to the forward one, a context sync, a tie between two paths)
and cp_ns.json (ns times rounded to 0 and -1 us kernels, a blocking memcpy, two steps
cut by the last-step filter, the GPU copy of a step listed first) and cp_sync.json
(CUDA event synchronisation: an Event Sync whose kernel is in the window and one whose
kernel is not, a Stream Wait Event that makes one stream's kernel wait for another's,
records and waits with no launch to pair with). cp_oracle/ holds HTA's
critical_path_edges/summary on them (<trace>__N: instance N of ProfilerStep); HTA's
path in cp_sync's aten::op_b window is in tests/sql/hta/critical_path_sync.expected."""
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

ev = []
# CUDA events (Kineto's cuda_sync rows carry wait_on_stream, the stream the event was
# recorded on, and wait_on_cuda_event_record_corr_id, the cudaEventRecord's correlation)
def sync(name, tid, ts, dur, stream, corr, wait_stream, record_corr):
    X(name, "cuda_sync", 0, tid, ts, dur, stream=stream, correlation=corr, device=0,
      wait_on_stream=wait_stream, wait_on_cuda_event_record_corr_id=record_corr, wait_on_cuda_event_id=1)
X("ProfilerStep#1", "user_annotation", 1, 10, 0, 2000)
# op_a: a long kernel on stream 7, an event recorded after it, and the host waits on
# that event (cudaEventSynchronize is blocking: its own span weighs 0, so only the sync
# edge from the kernel's end carries the wait)
X("aten::op_a", "cpu_op", 1, 10, 10, 100)
X("cudaLaunchKernel", "cuda_runtime", 1, 10, 20, 10, correlation=1)
X("cudaEventRecord", "cuda_runtime", 1, 10, 40, 5, correlation=2)
X("kernel_a", "kernel", 0, 7, 40, 500, stream=7, correlation=1)
X("cudaEventSynchronize", "cuda_runtime", 1, 10, 120, 440, correlation=3)
sync("Event Sync", 7, 120, 425, -1, 3, 7, 2)
# an event recorded on stream 30, where nothing was launched before it: no edge
X("cudaEventRecord", "cuda_runtime", 1, 10, 565, 3, correlation=9)
X("cudaEventSynchronize", "cuda_runtime", 1, 10, 570, 10, correlation=10)
sync("Event Sync", 7, 570, 5, -1, 10, 30, 9)
# op_b: a kernel on stream 7, an event after it, stream 20 made to wait for the event,
# then a kernel on stream 20 (launched long before kernel_c ends: only the wait links
# them); a second wait with no launch after it on its stream: no edge
X("aten::op_b", "cpu_op", 1, 10, 600, 300)
X("cudaLaunchKernel", "cuda_runtime", 1, 10, 610, 10, correlation=4)
X("kernel_c", "kernel", 0, 7, 640, 400, stream=7, correlation=4)
X("cudaEventRecord", "cuda_runtime", 1, 10, 630, 5, correlation=5)
X("cudaStreamWaitEvent", "cuda_runtime", 1, 10, 640, 5, correlation=6)
sync("Stream Wait Event", 20, 645, 1, 20, 6, 7, 5)
X("cudaLaunchKernel", "cuda_runtime", 1, 10, 650, 10, correlation=7)
X("kernel_d", "kernel", 0, 20, 1045, 100, stream=20, correlation=7)
X("cudaStreamWaitEvent", "cuda_runtime", 1, 10, 670, 5, correlation=11)
sync("Stream Wait Event", 21, 676, 1, 21, 11, 7, 5)
# the host waits on op_a's event again inside op_b: in op_b's window kernel_a is not
# (its launch is outside), so no edge there
X("cudaEventSynchronize", "cuda_runtime", 1, 10, 700, 20, correlation=12)
sync("Event Sync", 7, 700, 10, -1, 12, 7, 2)
X("cudaDeviceSynchronize", "cuda_runtime", 1, 10, 1000, 200, correlation=8)
X("Context Sync", "cuda_sync", 0, 7, 1000, 200, stream=-1, correlation=8, device=0)
json.dump({"traceEvents": ev}, open(os.path.join(HERE, "cp_sync.json"), "w"), indent=0)
