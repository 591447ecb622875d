"""Writes the hand-made traces of tests/conformance/exact/ (one per rule of the report's
exact text; exact.sh runs the report on each and compares with TraceLens's output,
learned once by running TraceLens on these files and kept in <name>.expected/).

    python3 gen_traces.py OUTDIR
"""
import json
import os
import sys


class Trace:
    def __init__(self):
        self.ev = []
        self.corr = 0
        self.ext = 0
        self.gpu_ts = 1000.5

    def op(self, name, ts, dur, dims=None, types=None, strides=None, conc=None, seq=None, tid=1):
        self.ext += 1
        args = {"External id": self.ext}
        if dims is not None:
            args["Input Dims"] = dims
            args["Input type"] = types
            args["Input Strides"] = strides
            args["Concrete Inputs"] = conc
        if seq is not None:
            args["Sequence number"] = seq
        # float times (JSON integers would make TraceLens's busy times ints)
        self.ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": tid, "ts": ts + 0.25, "dur": dur + 0.5,
                        "args": args})

    def launch(self, ts, kernel, kdur=5.0, tid=1):
        """a cudaLaunchKernel at ts (1 µs) and its kernel, flow-linked"""
        self.corr += 1
        c = self.corr
        self.ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": tid,
                        "ts": ts + 0.5, "dur": 0.5, "args": {"correlation": c, "External id": self.ext}})
        self.ev.append({"ph": "s", "id": c, "pid": 1, "tid": tid, "ts": ts + 0.5, "cat": "ac2g", "name": "ac2g"})
        kts = self.gpu_ts
        self.gpu_ts += kdur + 2
        self.ev.append({"ph": "X", "cat": "kernel", "name": kernel, "pid": 0, "tid": 7, "ts": kts, "dur": kdur + 0.125,
                        "args": {"correlation": c, "stream": 7, "device": 0}})
        self.ev.append({"ph": "f", "id": c, "pid": 0, "tid": 7, "ts": kts, "cat": "ac2g", "name": "ac2g",
                        "bp": "e"})

    def write(self, path):
        ev = sorted(self.ev, key=lambda e: (e["ts"], -e.get("dur", 0)))
        with open(path, "w") as f:
            json.dump({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}],
                       "traceEvents": ev}, f, indent=0)
            f.write("\n")


BN = ([[8, 16, 32, 32], [16], [16], [16], [16], [], [], [], []],
      ["float", "float", "float", "float", "float", "Scalar", "Scalar", "Scalar", "Scalar"],
      [[16384, 1024, 32, 1], [1], [1], [1], [1], [], [], [], []],
      ["", "", "", "", "", "True", "0.1", "1e-05", "True"])


def norm(path, group_norm_bwd):
    """class 2: one native_group_norm_backward row (C / groups, a float) makes every
    num_channels of the Normalization sheet a float"""
    t = Trace()
    t.op("aten::batch_norm", 10, 20, *BN)
    t.launch(15, "void at::native::batch_norm_kernel<float>(float*)")
    if group_norm_bwd:
        # grad_out, input, mean, rstd, weight, N, C, HxW, group, output_mask
        t.op("aten::native_group_norm_backward", 40, 20,
             [[8, 16, 32, 32], [8, 16, 32, 32], [8, 4], [8, 4], [16], [], [], [], [], []],
             ["float", "float", "float", "float", "float", "Scalar", "Scalar", "Scalar", "Scalar", "ScalarList"],
             [[16384, 1024, 32, 1], [16384, 1024, 32, 1], [4, 1], [4, 1], [1], [], [], [], [], []],
             ["", "", "", "", "", "8", "16", "1024", "4", "[True, True, True]"])
        t.launch(45, "void at::native::group_norm_backward_kernel<float>(float*)")
    t.write(path)


def no_kernels(path, with_sum):
    """class 5: a Reduce sheet whose ops launch no kernel prints Kernel Time _min/_max/_sum
    as the integer 0; one op with a kernel in the sheet makes them 0.0 (and class 3:
    FLOPS/Byte through GFLOPS)"""
    t = Trace()
    red = ([[64, 128]], ["float"], [[128, 1]], [""])
    t.op("aten::max", 10, 5, *red)
    t.op("aten::max", 20, 5, *red)
    # TraceLens wants some GPU work in a trace: an op of another sheet
    t.op("aten::mul", 50, 10, [[64, 128], [64, 128]], ["float", "float"], [[128, 1], [128, 1]], ["", ""])
    t.launch(52, "void at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float> >(int)", 12)
    if with_sum:
        t.op("aten::sum", 30, 10, *red)
        t.launch(32, "void at::native::reduce_kernel<512, 1>(float*)")
        # class 3: F = 30, Bytes = 124: ((F / 1e9) * 1e9) / Bytes is 0.24193548387096772,
        # F / Bytes 0.24193548387096775
        t.op("aten::sum", 40, 5, [[2, 15]], ["float"], [[15, 1]], [""])
    t.write(path)


SDPA_DIMS = [[2, 4, 128, 64], [2, 4, 128, 64], [2, 4, 128, 64], [], [], [], [], []]
SDPA_TYPES = ["c10::BFloat16"] * 3 + ["", "Scalar", "Scalar", "", "Scalar"]
SDPA_STRIDES = [[32768, 8192, 64, 1]] * 3 + [[], [], [], [], []]
SDPA_CONC = ["", "", "", "", "True", "0.0", "", ""]


def autograd(path, below, helper):
    """class 4: the sole-backward rule. The forward op has a model with a backward
    category; below its autograd wrapper, the Node op ScaledDotProductCudnnAttentionBackward0
    runs the backward op (category only, no model). below: a modelled op (aten::mm) under
    the backward op; helper: an aten::fill_ with a kernel beside the Node op."""
    t = Trace()
    # as PyTorch records it: the public op around the cuDNN one, one Sequence number for
    # both, the autograd wrapper and its Node op
    t.op("aten::scaled_dot_product_attention", 8, 34, SDPA_DIMS, SDPA_TYPES, SDPA_STRIDES, SDPA_CONC, seq=7)
    t.op("aten::_scaled_dot_product_cudnn_attention", 10, 30, SDPA_DIMS, SDPA_TYPES, SDPA_STRIDES, SDPA_CONC, seq=7)
    t.launch(20, "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_3_64x64x128_4x1x1_kernel0_0", 20)
    # the backward runs on the autograd thread (the link needs another thread, §2.8)
    t.op("autograd::engine::evaluate_function: ScaledDotProductCudnnAttentionBackward0", 100, 60, seq=7, tid=2)
    t.op("ScaledDotProductCudnnAttentionBackward0", 102, 40,
         [[2, 4, 128, 64], [2, 4, 128, 64]], ["c10::BFloat16", "c10::BFloat16"],
         [[32768, 8192, 64, 1], [32768, 8192, 64, 1]], ["", ""], seq=7, tid=2)
    t.op("aten::_scaled_dot_product_cudnn_attention_backward", 104, 36,
         [[2, 4, 128, 64]] * 4, ["c10::BFloat16"] * 4, [[32768, 8192, 64, 1]] * 4, [""] * 4, tid=2)
    if below:
        t.op("aten::mm", 106, 10, [[256, 64], [64, 128]], ["c10::BFloat16"] * 2, [[64, 1], [128, 1]], ["", ""], tid=2)
        t.launch(108, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_"
                      "segment_k_off_kernel__5x_cublas", 8, tid=2)
    t.launch(120, "cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_3_64x64x128_4x1x1_kernel0_0", 30, tid=2)
    if helper:
        t.op("aten::fill_", 145, 10, [[2, 4, 128, 64], []], ["c10::BFloat16", "Scalar"],
             [[32768, 8192, 64, 1], []], ["", "0"], tid=2)
        t.launch(147, "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<c10::BFloat16> >(int)", 4, tid=2)
    t.write(path)


def gemm_fp32(path):
    """class 6: an fp32 GEMM gets a roofline only under an arch with matrix_fp32"""
    t = Trace()
    t.op("aten::mm", 10, 20, [[512, 256], [256, 1024]], ["float", "float"], [[256, 1], [1024, 1]], ["", ""])
    t.launch(12, "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_"
                 "alignc4_execute_kernel__5x_cublas", 40)
    t.op("aten::mul", 40, 10, [[512, 1024], [512, 1024]], ["float", "float"], [[1024, 1], [1024, 1]], ["", ""])
    t.launch(42, "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float> >(int)", 6)
    t.write(path)


def no_model(path):
    """unified_perf_summary has the perf-model columns (GFLOPS ... TFLOPS/s_*) only when a
    row got perf metrics: here none does"""
    t = Trace()
    t.op("my_lib::op", 10, 10, [[64, 128]], ["float"], [[128, 1]], [""])
    t.launch(12, "my_kernel", 12)
    t.write(path)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    norm(os.path.join(out, "norm_batch.json"), False)
    norm(os.path.join(out, "norm_groupbwd.json"), True)
    no_kernels(os.path.join(out, "reduce_nokernel.json"), False)
    no_kernels(os.path.join(out, "reduce_onekernel.json"), True)
    autograd(os.path.join(out, "autograd_node.json"), False, False)
    autograd(os.path.join(out, "autograd_below.json"), True, False)
    autograd(os.path.join(out, "autograd_helper.json"), False, True)
    gemm_fp32(os.path.join(out, "gemm_fp32.json"))
    no_model(os.path.join(out, "unified_nomodel.json"))


if __name__ == "__main__":
    main()
