#!/usr/bin/env python3
"""Writes tests/data/compare/modules.json (run from the project root): a hand-made trace
whose Python stacks give the comparison's layers from nn.Module blocks, with the edge
cases of docs/compare.md's rules at known times (µs; GPU times are launch + 100000):

  ProfilerStep#1 [0, 1000), ProfilerStep#2 [1000, 2000) on pid 1 / tid 1;
  phase markers: "execute_model_context_ 3_generation_0" [0, 400) (prefill: CAST skips the
  space), "STEP[decode bs=4]" [1000, 1300) (decode: case ignored),
  "execute_context_0_generation_-2" [1700, 1800) (no phase: neither count is > 0);
  modules: Net_0 [5, 995) holding Block_0 [10, 300), Block_1 [300, 600), Head_0 [600, 700),
  and under Block_0 Linear_0 [50, 60), Linear_1 [60, 70) (repeated too, but less CPU time
  than Block); a second Net_0 [1005, 1995) with Block_0 [1010, 1400), Block_1 [1400, 1800).

The kernels (k1..k13, launch time, what the rules give) are listed in KERNELS below;
tests/unit/analysis/test_compare_events.c asserts each one's operation, step, phase, layer
and pass, and tests/compare/reference_events.sh compares the whole with the SQL reference."""
import json

ELEM = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>"
GEMM = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_kernel"
FLASH = "void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128, 128, 4>>"
DECODE = "void flash_fwd_splitkv_decode_kernel<128>"
PREFILL = "void flashinfer::BatchPrefillWithRaggedKVCacheKernel<128u>"
MEMCPY = "Memcpy HtoD (Pageable -> Device)"

# (launch ts or None for no launch, launching thread, kernel name, cpu_op or None, dur)
KERNELS = [
    (2, 1, ELEM, None, 3),          # k1  before Net: no layer; step 1, prefill marker
    (10, 1, GEMM, "aten::mm", 20),  # k2  at Block_0's start: layer 0, pass 1
    (299.5, 1, FLASH, None, 40),    # k3  end of Block_0: layer 0
    (300, 1, GEMM, "aten::mm", 21), # k4  Block_0's end = Block_1's start: layer 1
    (450, 2, GEMM, "aten::mm", 22), # k5  other thread: no layer; after the prefill marker
    (650, 1, ELEM, None, 4),        # k6  in Head_0: no layer
    (None, 1, ELEM, None, 5),       # k7  no launch: probed at its GPU time, outside steps
    (1010, 1, GEMM, "aten::mm", 23),  # k8  pass 2 layer 0, decode marker
    (1350, 1, DECODE, None, 30),    # k9  decode by name, layer 0
    (1500, 1, GEMM, "aten::mm", 24),  # k10 pass 2 layer 1, step 2 phase: mixed
    (1750, 1, GEMM, "aten::mm", 25),  # k11 in a marker without phase: mixed (step)
    (1850, 1, MEMCPY, None, 2),     # k12 after Block_1: no layer; mixed
    (1900, 1, PREFILL, None, 35),   # k13 prefill by name
]


def main():
    ev = []
    ann = [("ProfilerStep#1", 0, 1000), ("ProfilerStep#2", 1000, 1000),
           ("execute_model_context_ 3_generation_0", 0, 400), ("STEP[decode bs=4]", 1000, 300),
           ("execute_context_0_generation_-2", 1700, 100)]
    for name, ts, dur in ann:
        ev.append({"ph": "X", "cat": "user_annotation", "name": name, "pid": 1, "tid": 1,
                   "ts": ts, "dur": dur})
    # (python id, parent id, name, ts, dur)
    mods = [(1, 0, "Net_0", 5, 990), (2, 1, "Block_0", 10, 290), (3, 1, "Block_1", 300, 300),
            (4, 1, "Head_0", 600, 100), (7, 2, "Linear_0", 50, 10), (8, 2, "Linear_1", 60, 10),
            (11, 0, "Net_0", 1005, 990), (12, 11, "Block_0", 1010, 390),
            (13, 11, "Block_1", 1400, 400)]
    for pyid, parent, name, ts, dur in mods:
        ev.append({"ph": "X", "cat": "python_function", "name": "nn.Module: " + name, "pid": 1,
                   "tid": 1, "ts": ts, "dur": dur,
                   "args": {"Python parent id": parent, "Python id": pyid, "Python module id": 0}})
    for i, (t, tid, name, op, dur) in enumerate(KERNELS):
        corr = 5001 + i
        gpu_ts = (t if t is not None else 700) + 100000
        if t is not None:
            if op:
                ev.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": 1, "tid": tid,
                           "ts": t - 0.25, "dur": 1, "args": {}})
            runtime = "cudaMemcpyAsync" if name == MEMCPY else "cudaLaunchKernel"
            ev.append({"ph": "X", "cat": "cuda_runtime", "name": runtime, "pid": 1, "tid": tid,
                       "ts": t, "dur": 0.5, "args": {"correlation": corr}})
        cat = "gpu_memcpy" if name == MEMCPY else "kernel"
        ev.append({"ph": "X", "cat": cat, "name": name, "pid": 0, "tid": 7, "ts": gpu_ts,
                   "dur": dur, "args": {"correlation": corr if t is not None else 9999,
                                        "device": 0, "stream": 7}})
    with open("tests/data/compare/modules.json", "w") as f:
        json.dump({"deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}],
                   "traceEvents": ev}, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
