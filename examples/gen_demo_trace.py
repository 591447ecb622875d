#!/usr/bin/env python3
"""Generate a small, deterministic PyTorch profiler (Kineto) Chrome trace.

The trace imitates what torch.profiler (PyTorch 2.x, CUDA 12, NCCL) exports for
one training step of a tiny 3-layer GPT-style model in bf16 on an H100, rank 0
of a 2-rank NCCL job:

  * main thread: ProfilerStep#12 user_annotation, python_function stack with
    nn.Module frames (DemoGPT -> Block -> CausalSelfAttention / MLP -> Linear,
    LayerNorm, GELU), cpu_op trees with shapes, sequence numbers and
    cuda_runtime launches (+ ac2g flows to the GPU), the loss, loss.backward(),
    an all_reduce (c10d::allreduce_ -> record_param_comms -> cuLaunchKernelEx)
    and loss.item();
  * autograd thread: the complete backward pass (evaluate_function wrappers,
    *Backward0 nodes linked to their forward ops by fwdbwd flows,
    AccumulateGrad), launching kernels too;
  * GPU 0: compute stream 7 and NCCL stream 20 with kernel / gpu_memcpy /
    gpu_memset activities, one gpu_user_annotation;
  * a few [memory] instants, M metadata, the profiler span and instants.

Deliberate irregularities that real traces have: two kernels at the start of
the window whose launch happened before it (no runtime event, no flow), and one
launch whose flow end ("f") is missing so it can only be linked by correlation.

Everything is derived from a fixed seed; gzip output uses mtime=0, so reruns are
byte-identical.

Usage: python3 examples/gen_demo_trace.py [OUT]
       (default: demo_trace.json.gz next to this script; OUT ending in .json is
       written uncompressed)
"""

import collections
import gzip
import json
import math
import os
import random
import struct
import sys
from contextlib import contextmanager

SEED = 20240617

# --- clock ------------------------------------------------------------------
# Kineto writes ts/dur in microseconds with a 3-digit (nanosecond) fraction,
# relative to baseTimeNanoseconds. Internally everything is integer ns.
BASE_TIME_NS = 1718611200 * 1_000_000_000
TRACE_START_NS = 1_843_207_112_503          # ts 1843207112.503

PID = 48213
TID_MAIN = 48213
TID_BWD = 48391
GPU_PID = 0
STREAM = 7           # compute stream
NCCL_STREAM = 20     # NCCL stream
NUM_SMS = 132
STEP = 12

# --- model: GPT-ish, bf16 -----------------------------------------------------
B, S, H, NH, HD, FF, V, L = 4, 512, 1024, 16, 64, 4096, 32000, 3
N = B * S
EPS = "1.0000000000000001e-05"   # repr of 1e-5 the way the profiler prints it
WORLD = 2

BF16 = "c10::BFloat16"
F32T = "float"
I64 = "long int"

# --- CUDA API callback ids (CUPTI) -------------------------------------------
CBID = {
    "cudaLaunchKernel": 211,
    "cudaLaunchKernelExC": 430,
    "cuLaunchKernelEx": 652,
    "cudaMemcpyAsync": 41,
    "cudaMemsetAsync": 51,
    "cudaStreamSynchronize": 131,
    "cudaEventRecord": 135,
    "cudaStreamWaitEvent": 147,
    "cudaFuncSetAttribute": 273,
    "cudaStreamIsCapturing": 317,
}
API_DUR = {  # ns ranges for the CPU side of an API call
    "cudaLaunchKernel": (3200, 7800),
    "cudaLaunchKernelExC": (5200, 11500),
    "cuLaunchKernelEx": (6800, 13500),
    "cudaMemsetAsync": (3800, 7200),
    "cudaEventRecord": (1500, 3600),
    "cudaStreamWaitEvent": (1200, 2900),
    "cudaFuncSetAttribute": (400, 1100),
    "cudaStreamIsCapturing": (600, 1500),
}

# --- fake object addresses used in python_function names ----------------------
TYPE_OBJ = "type object at 0x7f53a1e4c8a0"
CAPSULE = "PyCapsule object at 0x7f52d9c1a3f0"
CALL_IMPL = "torch/nn/modules/module.py(1762): _call_impl"
TRACING_STATE = "<built-in method _get_tracing_state of %s>" % CAPSULE
GETATTR = "torch/nn/modules/module.py(1940): __getattr__"


# =============================================================================
# kernel catalogue
# =============================================================================
def _ew(functor, arity):
    return ("void at::native::vectorized_elementwise_kernel<4, {f}, std::array<char*, {a}ul> >"
            "(int, {f}, std::array<char*, {a}ul>)").format(f=functor, a=arity)


def _ew_nc(functor):
    inner = "at::native::gpu_kernel_impl_nocast<{f} >(at::TensorIteratorBase&, {f} const&)::{{lambda(int)#1}}".format(f=functor)
    return "void at::native::elementwise_kernel<128, 2, {i}>(int, {i})".format(i=inner)


def _reduce(t, ops, vt, blk="512, 1"):
    r = "at::native::ReduceOp<{t}, {o}, unsigned int, {v}, 4>".format(t=t, o=ops, v=vt)
    return "void at::native::reduce_kernel<{b}, {r} >({r})".format(b=blk, r=r)


def _flash_bwd_traits():
    return ("pytorch_flash::Flash_bwd_kernel_traits<64, 128, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t, "
            "pytorch_flash::Flash_kernel_traits<64, 128, 128, 8, cutlass::bfloat16_t> >")


_COPY_LAMBDA = ("at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::"
                "{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}")
_GELU = ("at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() "
         "const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}")
_GELU_BWD = ("at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::"
             "operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}")
_TO_F32 = ("at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::"
           "{lambda()#7}::operator()() const::{lambda(float)#1}")
_SUM_BF16 = ("at::native::func_wrapper_t<c10::BFloat16, at::native::sum_functor<c10::BFloat16, float, c10::BFloat16>"
             "::operator()(at::TensorIterator&)::{lambda(float, float)#1}>")
_CAT = ("void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous namespace)::OpaqueType<2u>, "
        "unsigned int, {d}, 128, 1>(at::native::(anonymous namespace)::OpaqueType<2u>*, "
        "at::native::(anonymous namespace)::CatArrInputTensorMetadata<at::native::(anonymous namespace)::OpaqueType<2u>, "
        "unsigned int, 128, 1>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)")
_FUSED_ADAM = ("void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::"
               "FusedOptimizerTensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<c10::BFloat16, 4, "
               "(at::native::ADAM_MODE)1, false>, double*, double, double, double, double, double, bool, float*, float*>"
               "(at::native::(anonymous namespace)::FusedOptimizerTensorListMetadata<4>, at::native::(anonymous namespace)::"
               "FusedAdamMathFunctor<c10::BFloat16, 4, (at::native::ADAM_MODE)1, false>, double*, double, double, double, "
               "double, double, bool, float*, float*)")


def _sm90(layout, tile, wg, splitk):
    return ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_{l}_n_tilesize{t}_warpgroupsize{w}_execute_segment_k_{s}_kernel__5x_cublas"
            .format(l=layout, t=tile, w=wg, s="on" if splitk else "off"))


KN = {
    "index_select": ("void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, true>"
                     "(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16 const, "
                     "unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned int, long)"),
    "ln_fwd": ("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, "
               "c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)"),
    "ln_bwd_in": ("void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<c10::BFloat16, float>("
                  "c10::BFloat16 const*, c10::BFloat16 const*, float const*, float const*, c10::BFloat16 const*, c10::BFloat16*, int)"),
    "ln_bwd_gb": ("void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel_32x32<c10::BFloat16, float>(long, long, "
                  "c10::BFloat16 const*, c10::BFloat16 const*, float const*, float const*, c10::BFloat16*, c10::BFloat16*)"),
    "gemm_big": _sm90("tn", "128x256x64", "2x1x1", False),
    "gemm_mid": _sm90("tn", "128x128x64", "1x1x1", False),
    "gemm_splitk": _sm90("tn", "64x128x64", "1x1x1", True),
    "gemm_dgrad": _sm90("nn", "128x128x64", "1x1x1", False),
    "gemm_wgrad": _sm90("nt", "128x128x64", "1x1x1", False),
    "gemm_cutlass": ("void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_256x128_32x3_nn_align8>"
                     "(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_256x128_32x3_nn_align8::Params)"),
    "flash_fwd": ("void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, "
                  "cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, 4, cutlass::bfloat16_t> >, false, true, "
                  "false, false, false, true, false>(pytorch_flash::Flash_fwd_params)"),
    "flash_bwd_dot": "void pytorch_flash::flash_bwd_dot_do_o_kernel<true, %s >(pytorch_flash::Flash_bwd_params)" % _flash_bwd_traits(),
    "flash_bwd": ("void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<%s, true, false, false, false, false, false>"
                  "(pytorch_flash::Flash_bwd_params)" % _flash_bwd_traits()),
    "flash_bwd_cvt": "void pytorch_flash::flash_bwd_convert_dq_kernel<%s >(pytorch_flash::Flash_bwd_params, int)" % _flash_bwd_traits(),
    "add": _ew("at::native::CUDAFunctor_add<c10::BFloat16>", 3),
    "gelu": _ew(_GELU, 2),
    "gelu_bwd": _ew(_GELU_BWD, 3),
    "copy_bf16": _ew_nc(_COPY_LAMBDA).replace("128, 2,", "128, 4,"),
    "to_f32": ("void at::native::unrolled_elementwise_kernel<{l}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, "
               "TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >"
               "(int, {l}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, "
               "at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)").format(l=_TO_F32),
    "to_bf16": _ew("at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}", 2),
    "mul_f32": _ew("at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >", 2),
    "mul_f32_nc": _ew_nc("at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >"),
    "mul_bf16": _ew("at::native::AUnaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >", 2),
    "mean": _reduce("float", "at::native::MeanOps<float, float, float, float>", "float"),
    "sum_bf16": _reduce("c10::BFloat16", _SUM_BF16, "c10::BFloat16", "128, 4"),
    "fill_f32": _ew("at::native::FillFunctor<float>", 1),
    "fill_bf16": _ew("at::native::FillFunctor<c10::BFloat16>", 1),
    "cat3": _CAT.format(d=3),
    "cat1": _CAT.format(d=1),
    "emb_bwd": ("void at::native::(anonymous namespace)::embedding_backward_feature_kernel<c10::BFloat16, float, long>("
                "long const*, c10::BFloat16 const*, c10::BFloat16*, int, long, int)"),
    "fused_adam": _FUSED_ADAM,
    "nccl_ar": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
}


def ktile(m, n, tm, tn):
    return math.ceil(m / tm) * math.ceil(n / tn)


def kspec(key, us, grid, block, regs, smem, occ=None, extra=None):
    return {"cat": "kernel", "name": KN[key], "us": us, "grid": list(grid), "block": list(block),
            "regs": regs, "smem": smem, "occ": occ, "extra": extra}


def k_ew(key, nelem, us, regs=20, per_block=512):
    return kspec(key, us, [math.ceil(nelem / per_block), 1, 1], [128, 1, 1], regs, 0)


def k_gemm(m, n, us, key="gemm_mid", tile=(128, 128)):
    tiles = ktile(m, n, *tile)
    return kspec(key, us, [min(tiles, NUM_SMS), 1, 1], [384, 1, 1], 168, 231424 if tile == (128, 256) else 213008, occ=0)


def k_memset(nbytes, us):
    return {"cat": "gpu_memset", "name": "Memset (Device)", "us": us, "bytes": nbytes}


def k_memcpy(name, nbytes, us):
    return {"cat": "gpu_memcpy", "name": name, "us": us, "bytes": nbytes}


# =============================================================================
# JSON encoding in Kineto's style
# =============================================================================
class Us:
    """A time value kept as integer ns, printed as microseconds.nnn."""
    __slots__ = ("ns",)

    def __init__(self, ns):
        self.ns = int(ns)


class F32:
    """A float32 value printed with 6 decimals (how Kineto prints SM stats)."""
    __slots__ = ("v",)

    def __init__(self, v):
        self.v = struct.unpack("f", struct.pack("f", v))[0]


def enc(v):
    if isinstance(v, Us):
        assert v.ns >= 0
        return "%d.%03d" % divmod(v.ns, 1000)
    if isinstance(v, F32):
        return "%.6f" % v.v
    if isinstance(v, dict):
        return "{" + ", ".join(json.dumps(k) + ": " + enc(x) for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(enc(x) for x in v) + "]"
    if isinstance(v, float):
        return repr(v)
    return json.dumps(v)


# =============================================================================
# op input descriptions (Concrete Inputs / Input type / Input Strides / Input Dims)
# =============================================================================
def contig(shape):
    st, acc = [], 1
    for d in reversed(shape):
        st.append(acc)
        acc *= d
    return list(reversed(st))


def T(shape, dt=BF16, strides=None):
    return (list(shape), dt, list(strides) if strides is not None else contig(shape), "")


def Sc(v):
    return ([], "Scalar", [], v if isinstance(v, str) else str(v))


def SL(vals):
    return ([], "ScalarList", [], "[" + ", ".join(str(x) for x in vals) + "]")


def TL(tensors):
    return ([t[0] for t in tensors], "TensorList", [t[2] for t in tensors], "")


NONE = ([], "", [], "")
STR = ([], "", [], "")   # string arguments show up untyped


# =============================================================================
# trace model
# =============================================================================
class Trace:
    def __init__(self):
        self.rng = random.Random(SEED)
        self.cpu = []          # cpu_op / user_annotation events
        self.py = []           # python_function events
        self.instants = []     # [memory] events
        self.gpu = []          # records {corr, rt, act, s, f}
        self.fwdbwd = []       # (fwd op event, bwd node event)
        self.nodes = []        # autograd nodes in creation (sequence) order
        self.ext = 20992
        self.pyid = 0
        self.corr = 1736411
        self.seq = 5120
        self.stream_free = {STREAM: TRACE_START_NS, NCCL_STREAM: TRACE_START_NS}
        self.mem_alloc = 1926234112
        self.mem_resv = 2906652672
        self.addr = 0x7F4C1A000000
        self.tensor_addrs = ["0x7f52a0b3%04x" % self.rng.randrange(0, 0xFFFF, 16) for _ in range(6)]

    def r(self, lo, hi):
        return self.rng.randint(lo, hi)

    def next_ext(self):
        self.ext += 1
        return self.ext

    def next_corr(self):
        self.corr += self.r(1, 3)
        return self.corr

    def next_seq(self):
        s = self.seq
        self.seq += 1
        return s

    def peek_seq(self):
        return self.seq

    def add_node(self, kind, seq, ev, **info):
        self.nodes.append(dict(kind=kind, seq=seq, ev=ev, **info))

    def tensor_obj(self):
        return "Tensor object at %s" % self.rng.choice(self.tensor_addrs)

    def gpu_run(self, stream, earliest, dur):
        start = max(earliest, self.stream_free[stream] + self.r(600, 1700))
        self.stream_free[stream] = start + dur
        return start


class Thread:
    def __init__(self, tr, tid, t):
        self.tr = tr
        self.tid = tid
        self.t = t
        self.stack = []

    def r(self, lo, hi):
        return self.tr.r(lo, hi)

    def adv(self, lo, hi):
        self.t += self.r(lo, hi)

    def ext_parent(self):
        # the External id a CUDA API call inherits is that of the innermost
        # cpu_op; calls made directly under a user annotation get none
        for ev in reversed(self.stack):
            if ev["cat"] == "python_function":
                continue
            return ev["args"]["External id"] if ev["cat"] == "cpu_op" else None
        return None

    def py_parent(self):
        for ev in reversed(self.stack):
            if ev["cat"] == "python_function":
                return ev["args"]["Python id"]
        return None

    @contextmanager
    def _span(self, ev, pre, post, gap):
        self.stack.append(ev)
        self.adv(*pre)
        try:
            yield ev
        finally:
            self.adv(*post)
            ev["dur"] = Us(self.t - ev["ts"].ns)
            self.stack.pop()
            self.adv(*gap)

    def op(self, name, inputs=None, seq=None, cat="cpu_op", pre=(1200, 3500), post=(500, 1800), gap=(300, 1400)):
        args = {"External id": self.tr.next_ext(), "Record function id": 0}
        if seq is not None:
            args["Sequence number"] = seq
            args["Fwd thread id"] = 0 if self.tid == TID_MAIN else 1
        if inputs is not None:
            args["Concrete Inputs"] = [i[3] for i in inputs]
            args["Input type"] = [i[1] for i in inputs]
            args["Input Strides"] = [i[2] for i in inputs]
            args["Input Dims"] = [i[0] for i in inputs]
        ev = {"ph": "X", "cat": cat, "name": name, "pid": PID, "tid": self.tid,
              "ts": Us(self.t), "dur": None, "args": args}
        self.tr.cpu.append(ev)
        return self._span(ev, pre, post, gap)

    def leaf(self, name, inputs=None, dur=(600, 2600), seq=None):
        with self.op(name, inputs, seq=seq, pre=dur, post=(0, 0)) as ev:
            pass
        return ev

    def py(self, name, module_id=None, pre=(400, 1700), post=(300, 1100), gap=(200, 900)):
        tr = self.tr
        tr.pyid += 1
        args = {"Python parent id": self.py_parent(), "Python id": tr.pyid}
        if module_id is not None:
            args["Python module id"] = module_id
        ev = {"ph": "X", "cat": "python_function", "name": name, "pid": PID, "tid": self.tid,
              "ts": Us(self.t), "dur": None, "args": args}
        tr.py.append(ev)
        return self._span(ev, pre, post, gap)

    def pyleaf(self, name, dur=(80, 900)):
        with self.py(name, pre=dur, post=(0, 0)):
            pass

    @contextmanager
    def module(self, cls, idx, fwd):
        with self.py("nn.Module: %s_%d" % (cls, idx), module_id=idx):
            with self.py(CALL_IMPL):
                self.pyleaf(TRACING_STATE)
                with self.py(fwd):
                    yield

    def getattr(self, n=1):
        for _ in range(n):
            self.pyleaf(GETATTR, (250, 1300))

    def mem(self, nbytes):
        tr = self.tr
        if nbytes > 0:
            tr.addr += (nbytes + 0x1FFFFF) & ~0x1FFFFF
            if tr.mem_alloc + nbytes > tr.mem_resv:
                tr.mem_resv = (tr.mem_alloc + nbytes + (20 << 20)) & ~0x1FFFFF
            addr = tr.addr
        else:
            addr = tr.addr - ((-nbytes + 0x1FFFFF) & ~0x1FFFFF)
        tr.mem_alloc += nbytes
        tr.instants.append({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]",
                            "pid": PID, "tid": self.tid, "ts": Us(self.t),
                            "args": {"Total Reserved": tr.mem_resv, "Total Allocated": tr.mem_alloc,
                                     "Bytes": nbytes, "Addr": addr, "Device Id": 0, "Device Type": 1}})
        self.adv(300, 900)

    # ---- CUDA API calls ------------------------------------------------------
    def _rt(self, api, ts, dur, corr):
        args = {}
        ext = self.ext_parent()
        if ext is not None:
            args["External id"] = ext
        args["cbid"] = CBID[api]
        args["correlation"] = corr
        cat = "cuda_driver" if api.startswith("cu") and not api.startswith("cuda") else "cuda_runtime"
        return {"ph": "X", "cat": cat, "name": api, "pid": PID, "tid": self.tid,
                "ts": Us(ts), "dur": Us(dur), "args": args}

    def api(self, api, dur=None):
        """A CUDA API call without GPU activity (no flow)."""
        corr = self.tr.next_corr()
        d = self.r(*(dur or API_DUR[api]))
        rt = self._rt(api, self.t, d, corr)
        self.tr.gpu.append({"corr": corr, "rt": rt, "act": None, "s": False, "f": False})
        self.t += d
        self.adv(250, 1200)
        return rt

    def launch(self, spec, api="cudaLaunchKernel", stream=STREAM, flow_f=True, not_before=0, extra_args=None):
        """Kernel / memset launch: runtime event + GPU activity + ac2g flow pair."""
        tr = self.tr
        corr = tr.next_corr()
        ts = self.t
        d = self.r(*API_DUR[api])
        gdur = int(spec["us"] * 1000 * (0.95 + 0.1 * tr.rng.random()))
        start = tr.gpu_run(stream, max(ts + self.r(2400, 5200), not_before), gdur)
        rt = self._rt(api, ts, d, corr)
        act = make_activity(spec, start, gdur, stream, corr, rt["args"].get("External id"), extra_args)
        tr.gpu.append({"corr": corr, "rt": rt, "act": act, "s": True, "f": flow_f})
        self.t += d
        self.adv(250, 1200)
        return act

    def memcpy_sync(self, spec):
        """Pageable cudaMemcpyAsync (blocks the CPU until the copy is done) + sync."""
        tr = self.tr
        corr = tr.next_corr()
        ts = self.t
        gdur = int(spec["us"] * 1000 * (0.95 + 0.1 * tr.rng.random()))
        start = tr.gpu_run(STREAM, ts + self.r(4000, 7000), gdur)
        d = start + gdur + self.r(2500, 5000) - ts
        rt = self._rt("cudaMemcpyAsync", ts, d, corr)
        act = make_activity(spec, start, gdur, STREAM, corr, rt["args"].get("External id"))
        tr.gpu.append({"corr": corr, "rt": rt, "act": act, "s": True, "f": True})
        self.t += d
        self.adv(400, 1200)
        self.stream_sync()
        return act

    def stream_sync(self):
        tr = self.tr
        corr = tr.next_corr()
        ts = self.t
        d = max(self.r(1400, 3200), tr.stream_free[STREAM] - ts + self.r(1500, 3000))
        rt = self._rt("cudaStreamSynchronize", ts, d, corr)
        tr.gpu.append({"corr": corr, "rt": rt, "act": None, "s": False, "f": False})
        self.t += d
        self.adv(300, 1000)


def make_activity(spec, start, dur, stream, corr, ext, extra_args=None):
    args = {}
    if ext is not None:
        args["External id"] = ext
    if spec["cat"] == "kernel":
        args.update({"queued": 0, "device": 0, "context": 1, "stream": stream, "correlation": corr})
        nblocks = spec["grid"][0] * spec["grid"][1] * spec["grid"][2]
        threads = spec["block"][0] * spec["block"][1] * spec["block"][2]
        wpb = math.ceil(threads / 32)
        bps = F32(nblocks / NUM_SMS)
        occ = spec["occ"]
        if occ is None:
            lim = min(32, 64 // wpb, 65536 // (spec["regs"] * threads))
            if spec["smem"]:
                lim = min(lim, 233472 // spec["smem"])
            occ = round(min(lim * wpb / 64, nblocks / NUM_SMS * wpb / 64) * 100)
        args["registers per thread"] = spec["regs"]
        args["shared memory"] = spec["smem"]
        args["blocks per SM"] = bps
        args["warps per SM"] = F32(bps.v * wpb)
        args["grid"] = spec["grid"]
        args["block"] = spec["block"]
        args["est. achieved occupancy %"] = occ
        if extra_args:
            args.update(extra_args)
    else:
        args.update({"device": 0, "context": 1, "stream": stream, "correlation": corr,
                     "bytes": spec["bytes"], "memory bandwidth (GB/s)": spec["bytes"] / dur})
    return {"ph": "X", "cat": spec["cat"], "name": spec["name"], "pid": GPU_PID, "tid": stream,
            "ts": Us(start), "dur": Us(dur), "args": args}


# =============================================================================
# the workload
# =============================================================================
class Gen:
    def __init__(self):
        self.tr = Trace()
        self.m = Thread(self.tr, TID_MAIN, TRACE_START_NS + 61_337)
        self.b = None

    # ---- small aten building blocks (run on thread th) -------------------------
    def as_strided(self, th, shape, size, stride, dt=BF16, strides=None):
        th.leaf("aten::as_strided", [T(shape, dt, strides), SL(size), SL(stride), NONE], (250, 1100))

    def transpose(self, th, shape, d0, d1, dt=BF16, strides=None, seq=None):
        strides = list(strides) if strides is not None else contig(shape)
        ns, nst = list(shape), list(strides)
        ns[d0], ns[d1] = ns[d1], ns[d0]
        nst[d0], nst[d1] = nst[d1], nst[d0]
        with th.op("aten::transpose", [T(shape, dt, strides), Sc(d0), Sc(d1)], seq=seq, pre=(900, 2400)) as ev:
            self.as_strided(th, shape, ns, nst, dt, strides)
        return ev, ns, nst

    def t_op(self, th, shape, seq=None):
        with th.op("aten::t", [T(shape)], seq=seq, pre=(900, 2600)) as ev:
            self.transpose(th, shape, 0, 1)
        return ev

    def view(self, th, shape, new, dt=BF16, seq=None):
        return th.leaf("aten::view", [T(shape, dt), SL(new)], (1200, 4200), seq=seq)

    def reshape(self, th, shape, new, dt=BF16, seq=None):
        with th.op("aten::reshape", [T(shape, dt), SL(new)], seq=seq, pre=(1000, 2600)) as ev:
            self.view(th, shape, new, dt)
        return ev

    def empty(self, th, shape, dt_code=15):
        th.leaf("aten::empty", [SL(shape), Sc(dt_code), Sc(0), NONE, NONE, NONE], (1600, 4800))

    def empty_like(self, th, shape, dt=BF16):
        with th.op("aten::empty_like", [T(shape, dt), Sc(15), Sc(0), NONE, NONE, Sc(0)], pre=(1100, 2600)):
            th.leaf("aten::empty_strided", [SL(shape), SL(contig(shape)), Sc(15), Sc(0), NONE, Sc("False")],
                    (1500, 4200))

    # ---- forward modules (main thread) ----------------------------------------
    def layer_norm(self, idx, shape, accum):
        m, tr = self.m, self.tr
        with m.module("LayerNorm", idx, "torch/nn/modules/normalization.py(217): forward"):
            m.getattr(3)
            with m.py("torch/nn/functional.py(2910): layer_norm"):
                m.pyleaf("<built-in function _has_torch_function_variadic>")
                with m.py("<built-in method layer_norm of %s>" % TYPE_OBJ):
                    ins = [T(shape), SL([H]), T([H]), T([H]), Sc(EPS)]
                    with m.op("aten::layer_norm", ins + [Sc("True")], seq=tr.peek_seq()):
                        s = tr.next_seq()
                        with m.op("aten::native_layer_norm", ins, seq=s) as ev:
                            self.empty_like(m, shape)
                            self.empty(m, [B, S, 1], 6)
                            self.empty(m, [B, S, 1], 6)
                            m.launch(kspec("ln_fwd", 7.2, [N, 1, 1], [128, 1, 1], 30, 0))
                        tr.add_node("LN", s, ev, shape=shape, accum=accum)

    def linear(self, idx, fin, fout, k, us, splitk=False, tile=(128, 128)):
        """nn.Linear with bias on a [B, S, fin] input: t, view, addmm, view."""
        m, tr = self.m, self.tr
        x = [B, S, fin]
        with m.module("Linear", idx, "torch/nn/modules/linear.py(125): forward"):
            m.getattr(2)
            with m.py("<built-in function linear>"):
                with m.op("aten::linear", [T(x), T([fout, fin]), T([fout])], seq=tr.peek_seq(), pre=(1500, 3800)):
                    s = tr.next_seq()
                    ev = self.t_op(m, [fout, fin], seq=s)
                    tr.add_node("T", s, ev, shape=[fout, fin])
                    s = tr.next_seq()
                    ev = self.view(m, x, [N, fin], seq=s)
                    tr.add_node("View", s, ev, gout=[N, fin], gin=x)
                    s = tr.next_seq()
                    ins = [T([fout]), T([N, fin]), T([fin, fout], strides=[1, fin]), Sc(1), Sc(1)]
                    with m.op("aten::addmm", ins, seq=s, pre=(6000, 14000)) as ev:
                        if splitk:
                            m.launch(k_memset(1056, 1.1), api="cudaMemsetAsync")
                        m.launch(k_gemm(N, fout, us, k, tile), api="cudaLaunchKernelExC")
                    tr.add_node("Addmm", s, ev, fin=fin, fout=fout, gemm=us)
                    s = tr.next_seq()
                    ev = self.view(m, [N, fout], [B, S, fout], seq=s)
                    tr.add_node("View", s, ev, gout=[B, S, fout], gin=[N, fout])

    def attention(self, i):
        m, tr = self.m, self.tr
        with m.module("CausalSelfAttention", i, "demo/model.py(47): forward"):
            m.getattr()
            self.linear(4 * i, H, 3 * H, "gemm_big", 36.0, tile=(128, 256))
            qkv = [B, S, 3 * H]
            with m.py("<built-in method split of %s>" % tr.tensor_obj()):
                s = tr.next_seq()
                with m.op("aten::split", [T(qkv), Sc(H), Sc(2)], seq=s, pre=(1500, 3000)) as ev:
                    for j in range(3):
                        with m.op("aten::narrow", [T(qkv), Sc(2), Sc(j * H), Sc(H)], pre=(800, 2000)):
                            with m.op("aten::slice", [T(qkv), Sc(2), Sc(j * H), Sc((j + 1) * H), Sc(1)], pre=(700, 1800)):
                                self.as_strided(m, qkv, [B, S, H], contig(qkv), strides=contig(qkv))
                tr.add_node("Split", s, ev)
            part_st = contig(qkv)                      # q/k/v are strided slices of qkv
            for j in range(3):
                with m.py("<built-in method view of %s>" % tr.tensor_obj()):
                    s = tr.next_seq()
                    ev = m.leaf("aten::view", [T([B, S, H], strides=part_st), SL([B, S, NH, HD])], (1300, 3800), seq=s)
                    tr.add_node("View", s, ev, gout=[B, S, NH, HD], gin=[B, S, H])
                with m.py("<built-in method transpose of %s>" % tr.tensor_obj()):
                    s = tr.next_seq()
                    ev, _, _ = self.transpose(m, [B, S, NH, HD], 1, 2, strides=[S * 3 * H, 3 * H, HD, 1], seq=s)
                    tr.add_node("Transpose", s, ev, shape=[B, NH, S, HD])
            qs = [B, NH, S, HD]
            qst = [S * 3 * H, HD, 3 * H, 1]
            with m.py("<built-in function scaled_dot_product_attention>"):
                ins = [T(qs, strides=qst)] * 3 + [NONE, Sc("0."), Sc("True"), NONE, Sc("False")]
                with m.op("aten::scaled_dot_product_attention", ins, seq=tr.peek_seq()):
                    s = tr.next_seq()
                    ins = [T(qs, strides=qst)] * 3 + [Sc("0."), Sc("True"), Sc("False"), NONE]
                    with m.op("aten::_scaled_dot_product_flash_attention", ins, seq=s, pre=(2500, 5000)) as ev:
                        for _ in range(3):
                            self.transpose(m, qs, 1, 2, strides=qst)
                        ks = [B, S, NH, HD]
                        kst = [S * 3 * H, 3 * H, HD, 1]
                        ins = [T(ks, strides=kst)] * 3 + [NONE, NONE, Sc(S), Sc(S), Sc("0."), Sc("True"),
                                                          Sc("False"), Sc("0.125"), NONE, NONE, NONE, NONE]
                        with m.op("aten::_flash_attention_forward", ins, pre=(2000, 4500)):
                            self.empty_like(m, ks)
                            self.empty(m, [B, NH, S], 6)
                            self.empty(m, [2], 4)
                            m.api("cudaStreamIsCapturing")
                            if i == 0:
                                m.api("cudaFuncSetAttribute")
                            m.launch(kspec("flash_fwd", 21.0, [S // 128, NH, B], [128, 1, 1], 255, 49152))
                        self.transpose(m, ks, 1, 2)
                    tr.add_node("SDPA", s, ev)
            with m.py("<built-in method transpose of %s>" % tr.tensor_obj()):
                s = tr.next_seq()
                ev, _, _ = self.transpose(m, qs, 1, 2, strides=[S * H, HD, H, 1], seq=s)
                tr.add_node("Transpose", s, ev, shape=[B, S, NH, HD])
            with m.py("<built-in method contiguous of %s>" % tr.tensor_obj()):
                yst = [S * H, HD, S * HD, 1]
                with m.op("aten::contiguous", [T([B, S, NH, HD], strides=yst), Sc(0)], seq=tr.peek_seq()):
                    s = tr.next_seq()
                    with m.op("aten::clone", [T([B, S, NH, HD], strides=yst), Sc(0)], seq=s) as ev:
                        self.empty_like(m, [B, S, NH, HD])
                        with m.op("aten::copy_", [T([B, S, NH, HD]), T([B, S, NH, HD], strides=yst), Sc("False")]):
                            m.launch(k_ew("copy_bf16", N * H, 9.1, regs=28, per_block=512))
                    tr.add_node("Clone", s, ev)
            with m.py("<built-in method view of %s>" % tr.tensor_obj()):
                s = tr.next_seq()
                ev = self.view(m, [B, S, NH, HD], [B, S, H], seq=s)
                tr.add_node("View", s, ev, gout=[B, S, H], gin=[B, S, NH, HD])
            m.getattr()
            self.linear(4 * i + 1, H, H, "gemm_mid", 15.0)

    def residual_add(self):
        m, tr = self.m, self.tr
        s = tr.next_seq()
        with m.op("aten::add", [T([B, S, H]), T([B, S, H]), Sc(1)], seq=s, pre=(2000, 4500)) as ev:
            m.launch(k_ew("add", N * H, 7.8, regs=22))
        tr.add_node("Add", s, ev)

    def mlp(self, i):
        m, tr = self.m, self.tr
        with m.module("MLP", i, "demo/model.py(66): forward"):
            m.getattr()
            self.linear(4 * i + 2, H, FF, "gemm_big", 45.0, tile=(128, 256))
            m.getattr()
            with m.module("GELU", i, "torch/nn/modules/activation.py(734): forward"):
                with m.py("<built-in function gelu>"):
                    s = tr.next_seq()
                    with m.op("aten::gelu", [T([B, S, FF]), STR], seq=s) as ev:
                        m.launch(k_ew("gelu", N * FF, 16.4, regs=24))
                    tr.add_node("Gelu", s, ev, block=i)
            m.getattr()
            self.linear(4 * i + 3, FF, H, "gemm_splitk", 52.0, splitk=True, tile=(64, 128))

    def block(self, i):
        m = self.m
        with m.module("Block", i, "demo/model.py(86): forward"):
            m.getattr()
            self.layer_norm(2 * i, [B, S, H], accum=True)
            m.getattr()
            self.attention(i)
            self.residual_add()
            m.getattr()
            self.layer_norm(2 * i + 1, [B, S, H], accum=True)
            m.getattr()
            self.mlp(i)
            self.residual_add()

    def forward(self):
        m, tr = self.m, self.tr
        with m.module("DemoGPT", 0, "demo/model.py(112): forward"):
            m.getattr()
            with m.module("Embedding", 0, "torch/nn/modules/sparse.py(190): forward"):
                m.getattr()
                with m.py("torch/nn/functional.py(2551): embedding"):
                    m.pyleaf("<built-in function _has_torch_function_variadic>")
                    with m.py("<built-in method embedding of %s>" % TYPE_OBJ):
                        s = tr.next_seq()
                        ins = [T([V, H]), T([B, S], I64), Sc(-1), Sc("False"), Sc("False")]
                        with m.op("aten::embedding", ins, seq=s) as ev:
                            self.reshape(m, [B, S], [-1], I64)
                            with m.op("aten::index_select", [T([V, H]), Sc(0), T([N], I64)]):
                                self.empty(m, [0])
                                m.mem(N * H * 2)
                                m.launch(kspec("index_select", 6.1, [math.ceil(N * H / 2048), 1, 1], [128, 1, 1], 32, 0))
                            self.view(m, [N, H], [B, S, H])
                        tr.add_node("Embedding", s, ev)
            m.getattr()
            m.pyleaf("torch/nn/modules/container.py(365): __iter__", (600, 1800))
            for i in range(L):
                self.block(i)
            m.getattr()
            self.layer_norm(2 * L, [B, S, H], accum=False)
            # lm_head: Linear without bias -> aten::matmul -> aten::mm
            m.getattr()
            with m.module("Linear", 4 * L, "torch/nn/modules/linear.py(125): forward"):
                m.getattr(2)
                with m.py("<built-in function linear>"):
                    with m.op("aten::linear", [T([B, S, H]), T([V, H]), NONE], seq=tr.peek_seq()):
                        s = tr.next_seq()
                        ev = self.t_op(m, [V, H], seq=s)
                        tr.add_node("T", s, ev, shape=[V, H])
                        with m.op("aten::matmul", [T([B, S, H]), T([H, V], strides=[1, H])], seq=tr.peek_seq()):
                            s = tr.next_seq()
                            ev = self.reshape(m, [B, S, H], [N, H], seq=s)
                            tr.add_node("View", s, ev, gout=[N, H], gin=[B, S, H])
                            s = tr.next_seq()
                            with m.op("aten::mm", [T([N, H]), T([H, V], strides=[1, H])], seq=s, pre=(6000, 12000)) as ev:
                                m.mem(N * V * 2)
                                m.launch(k_gemm(N, V, 255.0, "gemm_big", (128, 256)), api="cudaLaunchKernelExC")
                            tr.add_node("Mm", s, ev)
                            s = tr.next_seq()
                            ev = m.leaf("aten::_unsafe_view", [T([N, V]), SL([B, S, V])], (900, 2200), seq=s)
                            tr.add_node("UnsafeView", s, ev)

    def loss(self):
        """loss = (logits.float() * 0.01).mean()"""
        m, tr = self.m, self.tr
        lg = [B, S, V]
        with m.py("<built-in method float of %s>" % tr.tensor_obj()):
            with m.op("aten::to", [T(lg), Sc(6), Sc("False"), Sc("False"), NONE], seq=tr.peek_seq()):
                s = tr.next_seq()
                with m.op("aten::_to_copy", [T(lg), Sc(6), NONE, NONE, NONE, Sc("False"), NONE], seq=s) as ev:
                    m.leaf("aten::empty_strided", [SL(lg), SL(contig(lg)), Sc(6), Sc(0), NONE, Sc("False")], (2000, 4500))
                    m.mem(N * V * 4)
                    with m.op("aten::copy_", [T(lg, F32T), T(lg), Sc("False")]):
                        m.launch(k_ew("to_f32", N * V, 176.0, regs=30))
                tr.add_node("ToCopy", s, ev)
        s = tr.next_seq()
        with m.op("aten::mul", [T(lg, F32T), Sc("0.01")], seq=s) as ev:
            m.mem(N * V * 4)
            m.launch(k_ew("mul_f32", N * V, 205.0, regs=18))
        tr.add_node("Mul", s, ev)
        m.mem(-N * V * 4)          # the float copy of the logits dies here
        with m.py("<built-in method mean of %s>" % tr.tensor_obj()):
            s = tr.next_seq()
            with m.op("aten::mean", [T(lg, F32T), NONE], seq=s) as ev:
                self.empty(m, [], 6)
                m.launch(kspec("mean", 104.0, [NUM_SMS * 4, 1, 1], [32, 16, 1], 32, 16))
            tr.add_node("Mean", s, ev)
        m.mem(-N * V * 4)

    # ---- backward (autograd thread) -------------------------------------------
    @contextmanager
    def bnode(self, name, node):
        b = self.b
        with b.op("autograd::engine::evaluate_function: " + name, seq=node["seq"], pre=(2000, 5000)):
            with b.op(name, seq=node["seq"], pre=(1500, 3500)) as ev:
                self.tr.fwdbwd.append((node["ev"], ev))
                yield ev

    def accumulate_grad(self, shape):
        b = self.b
        with b.op("autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", pre=(1800, 4000)):
            with b.op("torch::autograd::AccumulateGrad", pre=(1500, 3000)):
                with b.op("aten::detach", [T(shape)], pre=(900, 2000)):
                    b.leaf("detach", [T(shape)], (500, 1400))

    def backward(self):
        b, tr = self.b, self.tr
        for node in reversed(tr.nodes):
            k = node["kind"]
            if k == "Mean":
                with self.bnode("MeanBackward0", node):
                    with b.op("aten::expand", [T([], F32T), SL([B, S, V]), Sc("False")]):
                        self.as_strided(b, [], [B, S, V], [0, 0, 0], F32T)
                    with b.op("aten::div", [T([B, S, V], F32T, [0, 0, 0]), Sc(N * V)]):
                        b.mem(N * V * 4)
                        b.launch(kspec("mul_f32_nc", 112.0, [math.ceil(N * V / 256), 1, 1], [128, 1, 1], 20, 0))
            elif k == "Mul":
                with self.bnode("MulBackward0", node):
                    with b.op("aten::mul", [T([B, S, V], F32T), Sc("0.01")]):
                        b.mem(N * V * 4)
                        b.launch(k_ew("mul_f32", N * V, 203.0, regs=18))
                b.mem(-N * V * 4)           # MeanBackward0's output is consumed
            elif k == "ToCopy":
                with self.bnode("ToCopyBackward0", node):
                    with b.op("aten::to", [T([B, S, V], F32T), Sc(15), Sc("False"), Sc("False"), NONE]):
                        with b.op("aten::_to_copy", [T([B, S, V], F32T), Sc(15), NONE, NONE, NONE, Sc("False"), NONE]):
                            b.leaf("aten::empty_strided", [SL([B, S, V]), SL(contig([B, S, V])), Sc(15), Sc(0), NONE, Sc("False")],
                                   (1800, 4000))
                            b.mem(N * V * 2)
                            with b.op("aten::copy_", [T([B, S, V]), T([B, S, V], F32T), Sc("False")]):
                                b.launch(k_ew("to_bf16", N * V, 151.0, regs=20))
                b.mem(-N * V * 4)           # MulBackward0's output is consumed
            elif k == "UnsafeView":
                with self.bnode("UnsafeViewBackward0", node):
                    self.reshape(b, [B, S, V], [N, V])
            elif k == "View":
                with self.bnode("ViewBackward0", node):
                    self.reshape(b, node["gout"], node["gin"])
            elif k == "T":
                with self.bnode("TBackward0", node):
                    self.t_op(b, node["shape"][::-1])
                self.accumulate_grad(node["shape"])
            elif k == "Transpose":
                with self.bnode("TransposeBackward0", node):
                    self.transpose(b, node["shape"], 1, 2)
            elif k == "Mm":
                with self.bnode("MmBackward0", node):
                    self.t_op(b, [H, V])
                    with b.op("aten::mm", [T([N, V]), T([V, H])], pre=(5000, 11000)):
                        b.launch(kspec("gemm_cutlass", 268.0, [ktile(N, H, 256, 128), 1, 1], [256, 1, 1], 230, 73728),
                                 api="cudaLaunchKernelExC")
                    self.t_op(b, [N, H])
                    with b.op("aten::mm", [T([H, N], strides=[1, H]), T([N, V])], pre=(5000, 11000)):
                        b.launch(k_gemm(H, V, 281.0, "gemm_wgrad", (128, 128)), api="cudaLaunchKernelExC")
            elif k == "Addmm":
                fin, fout, us = node["fin"], node["fout"], node["gemm"]
                with b.op("autograd::engine::evaluate_function: AddmmBackward0", seq=node["seq"], pre=(2000, 5000)):
                    with b.op("AddmmBackward0", seq=node["seq"], pre=(1500, 3500)) as ev:
                        tr.fwdbwd.append((node["ev"], ev))
                        self.t_op(b, [fin, fout])
                        with b.op("aten::mm", [T([N, fout]), T([fout, fin])], pre=(5000, 11000)):
                            b.launch(k_gemm(N, fin, us * 1.04, "gemm_dgrad"), api="cudaLaunchKernelExC")
                        self.t_op(b, [N, fin])
                        with b.op("aten::mm", [T([fin, N], strides=[1, fin]), T([N, fout])], pre=(5000, 11000)):
                            b.launch(k_gemm(fin, fout, us * 1.1, "gemm_wgrad"), api="cudaLaunchKernelExC")
                    with b.op("aten::sum", [T([N, fout]), SL([0]), Sc("True"), NONE]):
                        b.launch(kspec("sum_bf16", 4.0 + fout / 600.0, [math.ceil(fout / 64), 4, 1], [32, 16, 1], 40, 4112))
                    self.view(b, [1, fout], [fout])
                self.accumulate_grad([fout])
            elif k == "LN":
                shape = node["shape"]
                with b.op("autograd::engine::evaluate_function: NativeLayerNormBackward0", seq=node["seq"], pre=(2000, 5000)):
                    with b.op("NativeLayerNormBackward0", seq=node["seq"], pre=(1500, 3500)) as ev:
                        tr.fwdbwd.append((node["ev"], ev))
                        ins = [T(shape), T(shape), SL([H]), T([B, S, 1], F32T), T([B, S, 1], F32T), T([H]), T([H]),
                               ([], "ScalarList", [], "[True, True, True]")]
                        with b.op("aten::native_layer_norm_backward", ins, pre=(2500, 5000)):
                            self.empty_like(b, shape)
                            self.empty_like(b, [H])
                            self.empty_like(b, [H])
                            b.launch(kspec("ln_bwd_in", 10.3, [N, 1, 1], [128, 1, 1], 40, 0))
                            b.launch(kspec("ln_bwd_gb", 9.2, [H // 32, 1, 1], [32, 32, 1], 48, 8448))
                    if node["accum"]:
                        # the residual stream's second gradient is summed into the input buffer
                        with b.op("aten::add", [T(shape), T(shape), Sc(1)]):
                            b.launch(k_ew("add", N * H, 7.9, regs=22))
                self.accumulate_grad([H])
                self.accumulate_grad([H])
            elif k == "Add":
                with self.bnode("AddBackward0", node):
                    pass
            elif k == "Clone":
                with self.bnode("CloneBackward0", node):
                    pass
            elif k == "Gelu":
                with self.bnode("GeluBackward0", node):
                    with b.op("aten::gelu_backward", [T([B, S, FF]), T([B, S, FF]), STR]):
                        # block 1's launch deliberately loses its flow end: correlation-only link
                        b.launch(k_ew("gelu_bwd", N * FF, 24.5, regs=26), flow_f=(node["block"] != 1))
            elif k == "SDPA":
                ks = [B, S, NH, HD]
                qs = [B, NH, S, HD]
                with self.bnode("ScaledDotProductFlashAttentionBackward0", node):
                    ins = [T(qs)] * 4 + [T(qs), T([B, NH, S], F32T), NONE, NONE, Sc(S), Sc(S), Sc("0."), Sc("True"),
                                         T([2], I64), T([], I64), Sc("0.125")]
                    with b.op("aten::_scaled_dot_product_flash_attention_backward", ins, pre=(2500, 5000)):
                        for _ in range(5):
                            self.transpose(b, qs, 1, 2)
                        ins = [T(ks)] * 5 + [T([B, NH, S], F32T), NONE, NONE, Sc(S), Sc(S), Sc("0."), Sc("True"),
                                             T([2], I64), T([], I64), Sc("0.125"), NONE, NONE]
                        with b.op("aten::_flash_attention_backward", ins, pre=(2500, 5000)):
                            for _ in range(3):
                                self.empty_like(b, ks)
                            self.empty(b, [B, NH, S], 6)
                            self.empty(b, [B, S, NH, HD], 6)
                            b.api("cudaStreamIsCapturing")
                            b.launch(k_memset(B * S * NH * HD * 4, 4.6), api="cudaMemsetAsync")
                            b.launch(kspec("flash_bwd_dot", 4.7, [S // 128, B, NH], [256, 1, 1], 40, 0))
                            b.launch(kspec("flash_bwd", 57.5, [S // 128, B, NH], [256, 1, 1], 255, 98304))
                            b.launch(kspec("flash_bwd_cvt", 4.1, [S // 128, B, NH], [256, 1, 1], 64, 24576))
                        for _ in range(3):
                            self.transpose(b, ks, 1, 2)
            elif k == "Split":
                with self.bnode("SplitBackward0", node):
                    parts = [T([B, S, H])] * 3
                    with b.op("aten::cat", [TL(parts), Sc(2)]):
                        b.launch(kspec("cat3", 10.4, [NUM_SMS * 2, 3, 1], [512, 1, 1], 30, 0))
            elif k == "Embedding":
                with self.bnode("EmbeddingBackward0", node):
                    ins = [T([B, S, H]), T([B, S], I64), Sc(V), Sc(-1), Sc("False"), Sc("False")]
                    with b.op("aten::embedding_backward", ins):
                        with b.op("aten::embedding_dense_backward", [T([B, S, H]), T([B, S], I64), Sc(V), Sc(-1), Sc("False")]):
                            with b.op("aten::zeros", [SL([V, H]), Sc(15), NONE, Sc(0), NONE]):
                                self.empty(b, [V, H])
                                with b.op("aten::zero_", [T([V, H])]):
                                    with b.op("aten::fill_", [T([V, H]), Sc(0)]):
                                        b.launch(k_ew("fill_bf16", V * H, 29.5, regs=16))
                            b.launch(kspec("emb_bwd", 13.8, [math.ceil(N / 32), 1, 1], [32, 32, 1], 38, 12288))
                self.accumulate_grad([V, H])
            else:
                raise ValueError(k)

    # ---- the step -------------------------------------------------------------
    def run(self):
        tr, m = self.tr, self.m
        # kernels launched by the previous iteration's optimizer step are still
        # running when the window opens: no runtime event, no flow
        first = TRACE_START_NS + 34_871
        for n, us in enumerate((187.3, 141.9)):
            corr = tr.corr - 57 + 26 * n
            spec = kspec("fused_adam", us, [NUM_SMS * 8, 1, 1], [512, 1, 1], 96, 0)
            start = max(first, tr.stream_free[STREAM] + tr.r(900, 1600))
            dur = int(us * 1000) + tr.r(0, 999)
            tr.stream_free[STREAM] = start + dur
            tr.gpu.append({"corr": corr, "rt": None, "act": make_activity(spec, start, dur, STREAM, corr, None),
                           "s": False, "f": False})

        with m.py("demo/train.py(151): <module>"):
            with m.py("demo/train.py(128): main"):
                m.adv(180_000, 220_000)
                with m.op("ProfilerStep#%d" % STEP, cat="user_annotation", pre=(6000, 9000), post=(4000, 6000)) as step:
                    self.step_ev = step
                    with m.py("demo/train.py(97): train_step"):
                        self.train_step()
                m.adv(20_000, 30_000)
        self.end_ns = m.t + 55_000

    def train_step(self):
        tr, m = self.tr, self.m
        # optimizer.zero_grad(set_to_none=True): CPU only, so no GPU-side annotation
        with m.py("torch/_compile.py(51): inner"):
            with m.py("torch/optim/optimizer.py(981): zero_grad"):
                m.pyleaf("<built-in method get of dict object at 0x7f52d8e41c80>")
                with m.op("Optimizer.zero_grad#AdamW.zero_grad", cat="user_annotation", pre=(3000, 6000)):
                    with m.py("torch/optim/optimizer.py(1012): <genexpr>", pre=(800, 2000)):
                        pass
                    for _ in range(3):
                        m.pyleaf("<built-in function isinstance>", (80, 300))
        # batch to device: pageable H2D copy + sync
        with m.py("<built-in method to of %s>" % tr.tensor_obj()):
            with m.op("aten::to", [T([B, S], I64), NONE, Sc(4), Sc("False"), Sc("False"), NONE]):
                with m.op("aten::_to_copy", [T([B, S], I64), Sc(4), NONE, NONE, NONE, Sc("False"), NONE]):
                    m.leaf("aten::empty_strided", [SL([B, S]), SL([S, 1]), Sc(4), Sc(0), NONE, Sc("False")],
                           (2500, 6000))
                    m.mem(B * S * 8)
                    with m.op("aten::copy_", [T([B, S], I64), T([B, S], I64), Sc("False")], pre=(3000, 6000)):
                        self.h2d = m.memcpy_sync(k_memcpy("Memcpy HtoD (Pageable -> Device)", B * S * 8, 2.3))
        self.forward()
        self.loss()
        # loss.backward()
        with m.py("torch/_tensor.py(648): backward"):
            with m.py("torch/autograd/__init__.py(353): backward"):
                with m.py("torch/autograd/__init__.py(224): _make_grads"):
                    with m.py("<built-in method ones_like of %s>" % TYPE_OBJ):
                        with m.op("aten::ones_like", [T([], F32T), NONE, NONE, NONE, NONE, Sc(1)]):
                            self.empty_like(m, [], F32T)
                            with m.op("aten::fill_", [T([], F32T), Sc(1)]):
                                m.launch(kspec("fill_f32", 1.5, [1, 1, 1], [64, 1, 1], 16, 0))
                with m.py("torch/autograd/graph.py(824): _engine_run_backward"):
                    with m.py("<built-in method run_backward of torch._C._EngineBase object at 0x7f53a0c1d2b0>"):
                        self.b = Thread(tr, TID_BWD, m.t + tr.r(9000, 15000))
                        self.backward()
                        m.t = self.b.t + tr.r(4000, 9000)
        # average the LayerNorm gradients across the two ranks
        shapes = [T([H])] * (4 * L + 2)
        nel = H * (4 * L + 2)
        with m.py("torch/_utils.py(540): _flatten_dense_tensors"):
            with m.py("<built-in method flatten_dense_tensors of PyCapsule object at 0x7f52d9c1b5a0>"):
                with m.op("aten::flatten_dense_tensors", [TL(shapes)]):
                    with m.op("aten::cat", [TL(shapes), Sc(0)]):
                        m.launch(kspec("cat1", 3.2, [4 * L + 2, 1, 1], [512, 1, 1], 30, 0))
        pg = {"Process Group Name": "0", "Process Group Description": "default_pg", "Process Group Ranks": "[0, 1]"}
        with m.py("torch/distributed/c10d_logger.py(81): wrapper"):
            with m.py("torch/distributed/distributed_c10d.py(2810): all_reduce"):
                m.pyleaf("torch/distributed/distributed_c10d.py(1160): _get_default_group")
                with m.py("<built-in method allreduce of PyCapsule object at 0x7f52d9c1b870>"):
                    ins = [TL([T([nel])]), NONE, NONE, NONE, Sc("False"), Sc(-1)]
                    with m.op("c10d::allreduce_", ins, pre=(5000, 9000)):
                        with m.op("record_param_comms", pre=(9000, 15000), post=(4000, 8000)) as rpc:
                            rpc["args"].update({
                                "Collective name": "allreduce", "dtype": "BFloat16",
                                "In msg nelems": nel, "Out msg nelems": nel,
                                "In split size": "[]", "Out split size": "[]",
                                "Global rank start": 0, "Global rank stride": 1, "Group size": WORLD,
                                **pg, "Rank": 0})
                            compute_done = tr.stream_free[STREAM]
                            m.api("cudaEventRecord")
                            m.api("cudaStreamWaitEvent")
                            extra = {"Collective name": "allreduce", "In msg nelems": nel, "Out msg nelems": nel,
                                     "Group size": WORLD, "dtype": "BFloat16", "In split size": "[]",
                                     "Out split size": "[]", **pg}
                            nccl = m.launch(kspec("nccl_ar", 31.0, [4, 1, 1], [544, 1, 1], 96, 88080, occ=0),
                                            api="cuLaunchKernelEx", stream=NCCL_STREAM,
                                            not_before=compute_done + tr.r(1500, 3000), extra_args=extra)
                            m.api("cudaEventRecord")
                with m.py("<built-in method wait of PyCapsule object at 0x7f52d9c1b990>"):
                    m.api("cudaStreamWaitEvent")
                    tr.stream_free[STREAM] = max(tr.stream_free[STREAM], nccl["ts"].ns + nccl["dur"].ns)
        with m.py("<built-in method div_ of %s>" % tr.tensor_obj()):
            with m.op("aten::div_", [T([nel]), Sc(WORLD)]):
                m.launch(k_ew("mul_bf16", nel, 2.1, regs=16))
        # loss.item()
        with m.py("<built-in method item of %s>" % tr.tensor_obj()):
            with m.op("aten::item", [T([], F32T)]):
                with m.op("aten::_local_scalar_dense", [T([], F32T)], pre=(3000, 6000)):
                    self.d2h = m.memcpy_sync(k_memcpy("Memcpy DtoH (Device -> Pageable)", 4, 1.4))


# =============================================================================
# output
# =============================================================================
def build_events(g):
    tr = g.tr
    out = []
    ev_idx = 0
    s_of = {id(f): s for s, f in tr.fwdbwd}
    fwd_ids = {}
    for n, (s, f) in enumerate(tr.fwdbwd, 1):
        fwd_ids[id(s)] = n
        fwd_ids[id(f)] = n

    def flow(ph, fid, ev, cat):
        e = {"ph": ph, "id": fid, "pid": ev["pid"], "tid": ev["tid"], "ts": ev["ts"], "cat": cat, "name": cat}
        if ph == "f":
            e["bp"] = "e"
        return e

    # 1) CPU ops and user annotations (main thread, then the autograd thread)
    order = {TID_MAIN: 0, TID_BWD: 1}
    cpu = sorted(tr.cpu, key=lambda e: (order[e["tid"]], e["ts"].ns))
    for ev in cpu:
        ev["args"]["Ev Idx"] = ev_idx
        ev_idx += 1
        out.append(ev)
        if id(ev) in fwd_ids:
            out.append(flow("f" if id(ev) in s_of else "s", fwd_ids[id(ev)], ev, "fwdbwd"))
    # 2) memory instants, 3) python functions
    for ev in sorted(tr.instants, key=lambda e: e["ts"].ns):
        ev["args"]["Ev Idx"] = ev_idx
        ev_idx += 1
        out.append(ev)
    for ev in sorted(tr.py, key=lambda e: e["ts"].ns):
        ev["args"]["Ev Idx"] = ev_idx
        ev_idx += 1
        out.append(ev)
    # 4) GPU activities and CUDA API calls, in correlation order
    for rec in sorted(tr.gpu, key=lambda r: r["corr"]):
        if rec["act"] is not None:
            out.append(rec["act"])
            if rec["f"]:
                out.append(flow("f", rec["corr"], rec["act"], "ac2g"))
        if rec["rt"] is not None:
            out.append(rec["rt"])
            if rec["s"]:
                out.append(flow("s", rec["corr"], rec["rt"], "ac2g"))
    # 5) the GPU side of the ProfilerStep annotation
    step_ext = g.step_ev["args"]["External id"]
    acts = [r["act"] for r in tr.gpu if r["act"] is not None and r["rt"] is not None]
    g0 = min(a["ts"].ns for a in acts)
    g1 = max(a["ts"].ns + a["dur"].ns for a in acts)
    out.append({"ph": "X", "cat": "gpu_user_annotation", "name": g.step_ev["name"], "pid": GPU_PID, "tid": STREAM,
                "ts": Us(g0), "dur": Us(g1 - g0), "args": {"External id": step_ext}})
    # 6) metadata
    mts = Us(TRACE_START_NS + 151_623)

    def meta(name, pid, tid, args):
        return {"name": name, "ph": "M", "ts": mts, "pid": pid, "tid": tid, "args": args}

    out += [meta("process_name", PID, 0, {"name": "python3"}),
            meta("process_labels", PID, 0, {"labels": "CPU"}),
            meta("process_sort_index", PID, 0, {"sort_index": PID}),
            meta("process_name", GPU_PID, 0, {"name": "python3"}),
            meta("process_labels", GPU_PID, 0, {"labels": "GPU 0"}),
            meta("process_sort_index", GPU_PID, 0, {"sort_index": 5000000})]
    for pid, tid, name in ((GPU_PID, STREAM, "stream 7 "), (GPU_PID, NCCL_STREAM, "stream 20 "),
                           (PID, TID_MAIN, "thread %d (python3)" % TID_MAIN),
                           (PID, TID_BWD, "thread %d (pt_autograd_0)" % TID_BWD)):
        out.append(meta("thread_name", pid, tid, {"name": name}))
        out.append(meta("thread_sort_index", pid, tid, {"sort_index": tid}))
    start = Us(TRACE_START_NS)
    out.append({"ph": "X", "cat": "Trace", "ts": start, "dur": Us(g.end_ns - TRACE_START_NS),
                "pid": "Spans", "tid": "PyTorch Profiler", "name": "PyTorch Profiler (0)", "args": {"Op count": 0}})
    out.append({"name": "process_sort_index", "ph": "M", "ts": start, "pid": "Spans", "tid": 0,
                "args": {"sort_index": 536870912}})
    out.append({"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces",
                "tid": "Trace PyTorch Profiler", "ts": start})
    out.append({"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "",
                "ts": Us(g.end_ns + 38_407_115)})
    return out


def render(g):
    events = build_events(g)
    rng = g.tr.rng
    device = {"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85018279936,
              "computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
              "regsPerBlock": 65536, "warpSize": 32, "sharedMemPerBlock": 49152, "numSms": NUM_SMS,
              "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 232448, "sharedMemPerMultiprocessor": 233472}
    dist = {"backend": "nccl", "rank": 0, "world_size": WORLD, "pg_count": 1,
            "pg_config": [{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl",
                           "pg_size": WORLD, "ranks": list(range(WORLD))}],
            "nccl_version": "2.21.5"}
    head = [
        ("schemaVersion", 1),
        ("deviceProperties", None),
        ("distributedInfo", dist),
        ("cuda_runtime_version", 12040),
        ("cuda_driver_version", 12080),
        ("cupti_version", 22),
        ("with_modules", 1),
        ("record_shapes", 1),
        ("profile_memory", 1),
        ("with_stack", 1),
        ("trace_id", "%032X" % rng.getrandbits(128)),
    ]
    lines = ["{"]
    for k, v in head:
        if k == "deviceProperties":
            lines.append('  "deviceProperties": [')
            lines.append("    " + enc(device))
            lines.append("  ],")
        else:
            lines.append("  %s: %s," % (json.dumps(k), enc(v)))
    lines.append('  "traceEvents": [')
    lines.append(",\n".join("  " + enc(e) for e in events))
    lines.append("  ],")
    lines.append('  "traceName": "demo_trace.json",')
    lines.append('  "displayTimeUnit": "ms",')
    lines.append('  "baseTimeNanoseconds": %d' % BASE_TIME_NS)
    lines.append("}")
    return "\n".join(lines) + "\n"


# =============================================================================
# verification
# =============================================================================
def ns(x):
    return int(round(x * 1000))


def verify(doc):
    """Sanity checks on the parsed trace; returns a list of problems."""
    errs = []
    ev = doc["traceEvents"]
    for k in ("schemaVersion", "deviceProperties", "distributedInfo", "record_shapes", "with_stack",
              "traceName", "displayTimeUnit", "baseTimeNanoseconds"):
        if k not in doc:
            errs.append("missing top-level key " + k)

    # flows
    for cat, exp_s_only in (("ac2g", 1), ("fwdbwd", 0)):
        s = {e["id"]: e for e in ev if e.get("cat") == cat and e["ph"] == "s"}
        f = {e["id"]: e for e in ev if e.get("cat") == cat and e["ph"] == "f"}
        if len(s) != sum(1 for e in ev if e.get("cat") == cat and e["ph"] == "s"):
            errs.append("%s: duplicate s ids" % cat)
        if set(f) - set(s):
            errs.append("%s: f without s: %s" % (cat, sorted(set(f) - set(s))[:5]))
        if len(set(s) - set(f)) != exp_s_only:
            errs.append("%s: %d s without f (expected %d)" % (cat, len(set(s) - set(f)), exp_s_only))
        for i in set(s) & set(f):
            if ns(f[i]["ts"]) <= ns(s[i]["ts"]):
                errs.append("%s %s: f not after s" % (cat, i))

    # launches vs. GPU activities
    rt = {e["args"]["correlation"]: e for e in ev if e.get("cat") in ("cuda_runtime", "cuda_driver")}
    acts = [e for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
    orphans = [a for a in acts if a["args"]["correlation"] not in rt]
    if len(orphans) != 2 or any(a["cat"] != "kernel" for a in orphans):
        errs.append("expected exactly 2 GPU kernels without a launch, got %d" % len(orphans))
    sflow = {e["id"]: e for e in ev if e.get("cat") == "ac2g" and e["ph"] == "s"}
    fflow = {e["id"]: e for e in ev if e.get("cat") == "ac2g" and e["ph"] == "f"}
    for a in acts:
        c = a["args"]["correlation"]
        if c not in rt:
            continue
        r = rt[c]
        if ns(a["ts"]) <= ns(r["ts"]):
            errs.append("GPU activity %d starts before its launch" % c)
        if c not in sflow or ns(sflow[c]["ts"]) != ns(r["ts"]) or sflow[c]["tid"] != r["tid"]:
            errs.append("launch %d: bad/missing s flow" % c)
        if c in fflow and (ns(fflow[c]["ts"]) != ns(a["ts"]) or fflow[c]["tid"] != a["tid"]):
            errs.append("launch %d: f flow does not point at the activity" % c)

    # nesting on every CPU thread / GPU stream; GPU activities never overlap
    by_thread = collections.defaultdict(list)
    for e in ev:
        if e.get("ph") == "X" and e.get("cat") != "Trace":
            by_thread[(e["pid"], e["tid"])].append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e))
    for key, lst in by_thread.items():
        lst.sort(key=lambda x: (x[0], -x[1]))
        stack = []
        for b0, b1, e in lst:
            if b1 <= b0:
                errs.append("%s: non-positive duration %s" % (key, e["name"][:40]))
            while stack and stack[-1][1] <= b0:
                stack.pop()
            if stack and b1 > stack[-1][1]:
                errs.append("%s: %r partially overlaps %r" % (key, e["name"][:40], stack[-1][2]["name"][:40]))
            stack.append((b0, b1, e))
        if key[0] == GPU_PID:
            gpu = sorted((x for x in lst if x[2]["cat"] != "gpu_user_annotation"), key=lambda x: x[0])
            for (a0, a1, _), (b0, _, e) in zip(gpu, gpu[1:]):
                if b0 < a1:
                    errs.append("stream %s: %r overlaps previous activity" % (key[1], e["name"][:40]))

    # metadata for every pid/tid
    used = {(e["pid"], e["tid"]) for e in ev if e.get("ph") in ("X", "i") and isinstance(e.get("pid"), int)}
    tnames = {(e["pid"], e["tid"]) for e in ev if e.get("ph") == "M" and e["name"] == "thread_name"}
    pnames = {e["pid"] for e in ev if e.get("ph") == "M" and e["name"] == "process_labels"}
    for pid, tid in used:
        if (pid, tid) not in tnames:
            errs.append("no thread_name for %s/%s" % (pid, tid))
        if pid not in pnames:
            errs.append("no process_labels for %s" % pid)

    # time format: 3-digit ns fractions (checked on the values)
    for e in ev:
        for k in ("ts", "dur"):
            if k in e and abs(e[k] * 1000 - round(e[k] * 1000)) > 1e-3:
                errs.append("%s not on a ns grid in %s" % (k, e.get("name")))
                break
    return errs


def summary(doc, path, size):
    ev = doc["traceEvents"]
    c = collections.Counter((e.get("ph"), e.get("cat")) for e in ev)
    print("wrote %s: %d events, %d bytes" % (path, len(ev), size))
    for (ph, cat), n in sorted(c.items(), key=lambda kv: (-kv[1], str(kv[0]))):
        print("  %-2s %-20s %5d" % (ph, cat, n))
    xs = [e for e in ev if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
    t0 = min(ns(e["ts"]) for e in ev if "ts" in e and e.get("ph") != "M")
    step = next(e for e in ev if e.get("cat") == "user_annotation")
    print("  step %s: %.3f ms CPU; GPU busy %.3f ms; %d kernels on %d streams" % (
        step["name"], step["dur"] / 1000.0, sum(e["dur"] for e in xs) / 1000.0,
        sum(1 for e in xs if e["cat"] == "kernel"), len({e["tid"] for e in xs})))
    print("  first ts %.3f us (baseTimeNanoseconds %d)" % (t0 / 1000.0, doc["baseTimeNanoseconds"]))


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    out = argv[1] if len(argv) > 1 else os.path.join(here, "demo_trace.json.gz")
    g = Gen()
    g.run()
    text = render(g)
    data = text.encode("utf-8")
    if out.endswith(".json"):
        with open(out, "wb") as fh:
            fh.write(data)
    else:
        with open(out, "wb") as fh:
            with gzip.GzipFile(filename="", mode="wb", fileobj=fh, compresslevel=9, mtime=0) as gz:
                gz.write(data)
    # re-read what was written and check it
    with open(out, "rb") as fh:
        raw = fh.read()
    if not out.endswith(".json"):
        raw = gzip.decompress(raw)
    doc = json.loads(raw)
    errs = verify(doc)
    summary(doc, out, os.path.getsize(out))
    if errs:
        print("VERIFY FAILED:")
        for e in errs[:30]:
            print("  " + e)
        return 1
    print("verify: ok (flows paired except the deliberate correlation-only launch; "
          "2 kernels launched before the window; proper nesting; no overlap on streams)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
