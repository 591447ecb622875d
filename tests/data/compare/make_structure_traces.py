#!/usr/bin/env python3
"""Writes the hand-made traces of the comparison's structure rules (docs/compare.md,
"Forward passes, phases and layers from the trace's structure"); run from the project root.

  generate.json   a generate() loop with Python stacks and no phase markers: setup kernel,
                  then the top module Model_0 runs 4 times (passes at 1000, 2000, 3000,
                  4000 µs). Each pass: DecoderLayer_0 and _1, each with an Attention_N
                  module launching an SDPA (query length 8 in pass 1, 1 in passes 2-3; pass
                  4 runs no attention), then a sampling kernel after the module ends.
  markers.json    generate.json plus a "step[DECODE bs=4]" annotation over pass 1: the
                  marker wins over the shapes there.
  towers.json     one pass of Owl_0 with a vision tower (VisionEncoder_0: 3 EncoderLayer)
                  and a text tower (TextEncoder_0: 2 EncoderLayer): 5 layers, 0..4.
  no_stacks.json  no Python events (the top module is missing): 2 passes of 2 layers whose
                  RMSNorm runs unfused (pow, mean, add, rsqrt, mul) and a final norm, the LM
                  head and sampling after; SDPA query length 8 then 1.
  qk_norms.json   no Python events, Qwen3-like layers: input norm, QKV GEMM, q norm, k norm,
                  attention, O GEMM, post-attention norm, MLP GEMM (8 kernels); 2 passes of
                  2 layers, each then a final norm and the LM head; query length 8 then 1.
  varlen.json     Model_0 runs 4 times with one Layer_0 / Layer_1 each; variable-length
                  flash-attention calls (query [tokens, 8, 64], cumulative lengths
                  [sequences + 1], longest query as the 6th Concrete Input): pass 1 10
                  tokens in 10 sequences (decode), pass 2 12 tokens in 4 sequences, the
                  longest 9 (the other 3 have 3 tokens: one has 1: mixed), pass 3 16 in 4,
                  longest 4 (prefill); pass 4 two SDPA calls of lengths 1 and 8 (mixed).
  huge.json       two kernels of 9e15 µs each: their sum exceeds int64 ns.
"""
import json

SDPA_KERNEL = "void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128, 128, 4>>"
GEMM = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_kernel"
ELEM = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>"
RMS = "void vllm::rms_norm_kernel<c10::BFloat16, 8>"


class Trace:
    def __init__(self):
        self.ev = []
        self.corr = 1000
        self.pyid = 1

    def module(self, name, ts, dur):
        self.ev.append({"ph": "X", "cat": "python_function", "name": "nn.Module: " + name, "pid": 1,
                        "tid": 1, "ts": ts, "dur": dur,
                        "args": {"Python id": self.pyid, "Python parent id": 0}})
        self.pyid += 1

    def kernel(self, ts, name, op=None, dims=None, dur=10, cpu=True):
        """a kernel launched at ts (its GPU time ts + 100000), under cpu_op op"""
        self.corr += 1
        if op:
            args = {"Input Dims": dims} if dims is not None else {}
            self.ev.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": 1, "tid": 1,
                            "ts": ts - 0.25, "dur": 1, "args": args})
        self.ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
                        "tid": 1, "ts": ts, "dur": 0.5, "args": {"correlation": self.corr}})
        self.ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7,
                        "ts": ts + 100000, "dur": dur,
                        "args": {"correlation": self.corr, "device": 0, "stream": 7}})

    def annotation(self, name, ts, dur):
        self.ev.append({"ph": "X", "cat": "user_annotation", "name": name, "pid": 1, "tid": 1,
                        "ts": ts, "dur": dur})

    def write(self, path):
        with open(path, "w") as f:
            json.dump({"deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}],
                       "traceEvents": self.ev}, f, indent=0)
            f.write("\n")


def sdpa(t, ts, qlen):
    t.kernel(ts, SDPA_KERNEL, "aten::scaled_dot_product_attention", [[1, 4, qlen, 16], [1, 4, 8, 16], [1, 4, 8, 16]])


def generate(markers):
    t = Trace()
    if markers:
        t.annotation("step[DECODE bs=4]", 990, 1000)
    t.kernel(100, ELEM, "aten::fill_", dur=1)                 # setup: the first pass's
    for p, base in enumerate([1000, 2000, 3000, 4000]):
        t.module("Model_0", base, 800)
        t.kernel(base + 10, ELEM, "aten::embedding", dur=2)   # in the pass, no layer
        for layer in range(2):
            lb = base + 100 + 300 * layer
            t.module(f"DecoderLayer_{layer}", lb, 280)
            t.kernel(lb + 10, GEMM, "aten::mm", dur=20)
            if p < 3:                                         # pass 4: no attention
                t.module(f"Attention_{layer}", lb + 50, 100)
                sdpa(t, lb + 60, 8 if p == 0 else 1)
            t.kernel(lb + 200, GEMM, "aten::mm", dur=30)
        t.kernel(base + 900, ELEM, "aten::argmax", dur=3)     # sampling: between passes
    return t


def towers():
    t = Trace()
    t.module("Owl_0", 1000, 3000)
    t.module("VisionEncoder_0", 1010, 1500)
    for i in range(3):
        t.module(f"EncoderLayer_{i}", 1100 + 400 * i, 350)
        t.module(f"SelfAttention_{i}", 1110 + 400 * i, 100)
        sdpa(t, 1120 + 400 * i, 16)
        t.kernel(1300 + 400 * i, GEMM, "aten::mm", dur=20)
    t.module("TextEncoder_0", 2600, 1000)
    for i in range(2):
        t.module(f"EncoderLayer_{3 + i}", 2700 + 400 * i, 350)
        t.module(f"SelfAttention_{3 + i}", 2710 + 400 * i, 100)
        sdpa(t, 2720 + 400 * i, 7)
        t.kernel(2900 + 400 * i, GEMM, "aten::mm", dur=20)
    t.kernel(3900, GEMM, "aten::mm", dur=5)                   # the head: no layer
    return t


def unfused_norm(t, ts):
    for j, op in enumerate(["aten::pow", "aten::mean", "aten::add", "aten::rsqrt", "aten::mul"]):
        t.kernel(ts + j, ELEM, op, dur=1)


def no_stacks():
    t = Trace()
    t.kernel(10, ELEM, "aten::fill_", dur=1)                  # before the first run
    for p, base in enumerate([1000, 2000]):
        t.kernel(base, ELEM, "aten::embedding", dur=2)        # before the run: previous pass
        for layer in range(2):
            lb = base + 100 + 300 * layer
            unfused_norm(t, lb)
            t.kernel(lb + 20, GEMM, "aten::mm", dur=20)
            sdpa(t, lb + 60, 8 if p == 0 else 1)
            unfused_norm(t, lb + 100)
            t.kernel(lb + 200, GEMM, "aten::mm", dur=30)
        unfused_norm(t, base + 750)                           # the final norm: ends the run
        t.kernel(base + 800, GEMM, "aten::mm", dur=40)        # LM head: no layer
    return t


def qk_norms():
    t = Trace()
    for p, base in enumerate([1000, 2000]):
        for layer in range(2):
            lb = base + 100 + 300 * layer
            t.kernel(lb, RMS, "vllm::rms_norm", dur=2)        # input norm: the layer's start
            t.kernel(lb + 10, GEMM, "aten::mm", dur=20)
            t.kernel(lb + 20, RMS, "vllm::rms_norm", dur=1)   # q norm
            t.kernel(lb + 30, RMS, "vllm::rms_norm", dur=1)   # k norm
            sdpa(t, lb + 40, 8 if p == 0 else 1)
            t.kernel(lb + 60, GEMM, "aten::mm", dur=10)
            t.kernel(lb + 70, RMS, "vllm::rms_norm", dur=2)   # post-attention norm
            t.kernel(lb + 80, GEMM, "aten::mm", dur=30)
        t.kernel(base + 750, RMS, "vllm::rms_norm", dur=3)    # final norm
        t.kernel(base + 800, GEMM, "aten::mm", dur=40)        # LM head
    return t


def varlen():
    t = Trace()
    calls = [(10, 10, 1), (12, 4, 9), (16, 4, 4)]
    for p, base in enumerate([1000, 2000, 3000, 4000]):
        t.module("Model_0", base, 800)
        for layer in range(2):
            lb = base + 100 + 300 * layer
            t.module(f"Layer_{layer}", lb, 280)
            if p < 3:
                tokens, seqs, maxq = calls[p]
                t.corr += 1
                t.ev.append({"ph": "X", "cat": "cpu_op", "name": "flash_attn::_flash_attn_varlen_forward",
                             "pid": 1, "tid": 1, "ts": lb + 9.75, "dur": 1,
                             "args": {"Input Dims": [[tokens, 8, 64], [tokens, 8, 64], [tokens, 8, 64],
                                                     [seqs + 1], [seqs + 1]],
                                      "Concrete Inputs": ["", "", "", "", "", str(maxq), str(maxq)]}})
                t.ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
                             "tid": 1, "ts": lb + 10, "dur": 0.5, "args": {"correlation": t.corr}})
                t.ev.append({"ph": "X", "cat": "kernel", "name": SDPA_KERNEL, "pid": 0, "tid": 7,
                             "ts": lb + 100010, "dur": 10,
                             "args": {"correlation": t.corr, "device": 0, "stream": 7}})
            else:
                sdpa(t, lb + 10, 1 if layer == 0 else 8)
            t.kernel(lb + 100, GEMM, "aten::mm", dur=20)
    return t


def huge():
    t = Trace()
    t.kernel(10, GEMM, "aten::mm", dur=9e15)
    t.kernel(20, GEMM, "aten::mm", dur=9e15)
    return t


if __name__ == "__main__":
    generate(False).write("tests/data/compare/generate.json")
    generate(True).write("tests/data/compare/markers.json")
    towers().write("tests/data/compare/towers.json")
    no_stacks().write("tests/data/compare/no_stacks.json")
    qk_norms().write("tests/data/compare/qk_norms.json")
    varlen().write("tests/data/compare/varlen.json")
    huge().write("tests/data/compare/huge.json")
