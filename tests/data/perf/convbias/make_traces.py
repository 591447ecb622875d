#!/usr/bin/env python3
"""Writes the hand-made traces of the ConvBias backward rule (docs/perf-models.md,
"ConvBias_Backward and ConvBiasReLU_Backward"): pairs.json, order.json and walk.json
beside this file. Run it again after changing a case; the SQL tests tests/sql/perf/convbias_*.sql
hold what TraceLens reports for them.

Layout: forward ops on pid 1 tid 1 (and pid 2 tid 1, another process), the autograd
thread on tid 2; every GPU event on pid 0 tid 7 (stream 7). An autograd wrapper
"autograd::engine::evaluate_function: X" carries the Sequence number of its forward op
and holds the backward op X (same Sequence number); a "bare" backward op has no wrapper.
"""
import json
import os

BF16, FP32 = "c10::BFloat16", "float"


class Trace:
    def __init__(self):
        self.ev = []
        self.corr = 100
        self.gpu_ts = 100000
        self.ext = 1

    def op(self, name, ts, dur, args, pid=1, tid=1, seq=None):
        a = dict(args)
        if seq is not None:
            a["Sequence number"] = seq
        a["External id"] = self.ext
        self.ext += 1
        self.ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": pid, "tid": tid,
                        "ts": ts, "dur": dur, "args": a})

    def launch(self, ts, kernel, kdur, pid=1, tid=1):
        c = self.corr
        self.corr += 1
        self.ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": pid,
                        "tid": tid, "ts": ts, "dur": 4, "args": {"correlation": c}})
        self.ev.append({"ph": "s", "cat": "ac2g", "name": "ac2g", "id": c, "pid": pid, "tid": tid,
                        "ts": ts, "bp": "e"})
        self.ev.append({"ph": "X", "cat": "kernel", "name": kernel, "pid": 0, "tid": 7,
                        "ts": self.gpu_ts, "dur": kdur, "args": {"correlation": c, "stream": 7}})
        self.ev.append({"ph": "f", "cat": "ac2g", "name": "ac2g", "id": c, "pid": 0, "tid": 7,
                        "ts": self.gpu_ts, "bp": "e"})
        self.gpu_ts += 1000

    def fwd(self, name, ts, seq, x, w, dtype=BF16, stride=None, padding=None, pid=1, dtypes=None,
            kernel=True):
        """A ConvBias_ / ConvBiasReLU_ forward op launching one kernel (none when kernel
        is False). stride/padding None: the Concrete Inputs list stops before them
        (TraceLens's defaults)."""
        dims = [list(x), list(w), [w[0]]]
        conc = ["", "", ""]
        types = dtypes or [dtype, dtype, dtype]
        if stride is not None:
            dims += [[], []]
            conc += [str(stride), str(padding)]
            types = types + ["Scalar", "Scalar"]
        strides = []
        for shape in dims:
            s, acc = [], 1
            for d in reversed(shape):
                s.insert(0, acc)
                acc *= d
            strides.append(s)
        self.op(name, ts, 50.5, {"Input Dims": dims, "Input type": types, "Input Strides": strides,
                               "Concrete Inputs": conc}, pid=pid, seq=seq)
        if kernel:
            self.launch(ts + 10, "cudnn_conv_bias_fwd_%d" % seq, 10 + seq / 8 + (ts % 1000) / 1000, pid=pid)

    def bwd(self, name, ts, seq, wrapper=True):
        """A ConvBias_Backward / ConvBiasReLU_Backward op on the autograd thread (inside
        its wrapper unless wrapper=False) launching two kernels."""
        if wrapper:
            self.op("autograd::engine::evaluate_function: " + name, ts, 100.5, {}, tid=2, seq=seq)
        # its own args differ per case, so that each gets its own unified_perf_summary row
        self.op(name, ts + 5, 80.5, {"Input Dims": [[8, 32, 16, seq]], "Input type": [BF16],
                                   "Input Strides": [[512 * seq, 16 * seq, seq, 1]],
                                   "Concrete Inputs": [""]},
                tid=2, seq=seq)
        self.launch(ts + 10, "cudnn_conv_bias_dgrad_%d" % seq, 20 + seq / 4, tid=2)
        self.launch(ts + 20, "cudnn_conv_bias_wgrad_%d" % seq, 10 + seq / 8 + 0.0625, tid=2)

    def write(self, path):
        with open(path, "w") as f:
            json.dump({"schemaVersion": 1, "traceEvents": self.ev}, f, indent=None)
            f.write("\n")


def pairs():
    """One forward per Sequence number; the backward after it in the file and in time."""
    t = Trace()
    # 10: ConvBias_ with stride 2 / padding 1 concrete inputs, bf16
    t.fwd("ConvBias_", 100, 10, (8, 16, 32, 32), (32, 16, 3, 3), stride=2, padding=1)
    # 20: ConvBiasReLU_ without stride/padding concrete inputs (defaults 1 and 0), fp32
    t.fwd("ConvBiasReLU_", 200, 20, (4, 8, 20, 20), (16, 8, 5, 5), dtype=FP32)
    # 50: the forward is a ConvBiasReLU_, the backward a ConvBias_Backward: no match
    t.fwd("ConvBiasReLU_", 300, 50, (2, 4, 12, 12), (4, 4, 3, 3), stride=1, padding=1)
    # 30: a 1-D ConvBias_ in another process (pid 2)
    t.fwd("ConvBias_", 400, 30, (2, 6, 100), (12, 6, 7), stride=1, padding=3, pid=2)
    t.bwd("ConvBias_Backward", 1000, 10)
    t.bwd("ConvBiasReLU_Backward", 1200, 20)
    t.bwd("ConvBias_Backward", 1400, 30)
    t.bwd("ConvBias_Backward", 1600, 40)  # no forward with Sequence number 40
    t.bwd("ConvBias_Backward", 1800, 50)
    return t


def order():
    """Which forward a backward gets when the order of events matters."""
    t = Trace()
    # 60: the backward (in its wrapper) comes before its forward, in the file and in time
    t.bwd("ConvBias_Backward", 1000, 60)
    # 70: the same with a bare backward op (no wrapper)
    t.bwd("ConvBias_Backward", 1200, 70, wrapper=False)
    t.fwd("ConvBias_", 2000, 60, (8, 16, 32, 32), (32, 16, 3, 3), stride=2, padding=1)
    t.fwd("ConvBias_", 2100, 70, (4, 8, 20, 20), (16, 8, 5, 5), stride=1, padding=2)
    # 80: two forwards, the first in the file is the later in time; wrapped backward
    t.fwd("ConvBias_", 2500, 80, (2, 4, 16, 16), (8, 4, 3, 3), stride=1, padding=1)
    t.fwd("ConvBias_", 2400, 80, (2, 4, 16, 16), (8, 4, 3, 3), stride=2, padding=1)
    # 90: the same with a bare backward op
    t.fwd("ConvBias_", 2700, 90, (2, 4, 16, 16), (8, 4, 3, 3), stride=1, padding=0)
    t.fwd("ConvBias_", 2600, 90, (2, 4, 16, 16), (8, 4, 3, 3), stride=2, padding=0)
    # 100: the later forward fails to give parameters (input and weight types differ)
    t.fwd("ConvBiasReLU_", 2800, 100, (1, 3, 10, 10), (6, 3, 3, 3), stride=1, padding=1)
    t.fwd("ConvBiasReLU_", 2900, 100, (1, 3, 10, 10), (6, 3, 3, 3), stride=1, padding=1,
          dtypes=[BF16, FP32, BF16])
    # 110: the later forward gives parameters but its metrics fail (stride 0)
    t.fwd("ConvBias_", 3000, 110, (1, 3, 10, 10), (6, 3, 3, 3), stride=1, padding=0)
    t.fwd("ConvBias_", 3100, 110, (1, 3, 10, 10), (6, 3, 3, 3), stride=0, padding=0)
    t.bwd("ConvBias_Backward", 4000, 80)
    t.bwd("ConvBias_Backward", 4200, 90, wrapper=False)
    t.bwd("ConvBiasReLU_Backward", 4400, 100)
    t.bwd("ConvBias_Backward", 4600, 110)
    return t


def walk():
    """unified_perf_summary's collection walk builds models too. Sequence number 5: two
    forward ops without GPU work (never rows of unified_perf_summary), the first in the
    file the later in time; a bare backward op; then, later on the autograd thread, a
    wrapper whose sole op (aten::foo, no model) makes the walk build the linked forward op
    (the later in time) before any row's model."""
    t = Trace()
    # a first event, so that no forward op has UID 0 (TraceLens ignores a link to UID 0)
    t.ev.append({"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "python"}})
    t.fwd("ConvBias_", 100, 5, (2, 4, 16, 16), (8, 4, 3, 3), stride=1, padding=1, kernel=False)
    t.fwd("ConvBias_", 50, 5, (2, 4, 16, 16), (8, 4, 3, 3), stride=2, padding=1, kernel=False)
    t.bwd("ConvBias_Backward", 1000, 5, wrapper=False)
    t.op("autograd::engine::evaluate_function: aten::foo", 2000, 100.5, {}, tid=2, seq=5)
    t.op("aten::foo", 2005, 80.5, {"Input Dims": [[4]], "Input type": [BF16], "Concrete Inputs": [""]}, tid=2)
    t.launch(2010, "foo_kernel", 12.25, tid=2)
    return t


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    pairs().write(os.path.join(here, "pairs.json"))
    order().write(os.path.join(here, "order.json"))
    walk().write(os.path.join(here, "walk.json"))
