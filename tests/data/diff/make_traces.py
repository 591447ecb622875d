#!/usr/bin/env python3
"""make_traces.py — writes the small traces of tests/sql/tree_diff/ (run from anywhere).

A trace is a list of top-level nodes; a node is (name, ts, dur, children) for a cpu_op
or ("launch", ts, dur, kernel_name, kernel_ts, kernel_dur) for a cudaLaunchKernel with
its kernel (linked by an ac2g flow). Events are written in the order met, depth first.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def op(name, ts, dur, *kids):
    return (name, ts, dur, list(kids))


def launch(ts, kname, kts, kdur, dur=2):
    return ("launch", ts, dur, kname, kts, kdur)


def write(fname, roots):
    ev, gpu = [], []
    corr = [0]

    def walk(n):
        if n[0] == "launch":
            _, ts, dur, kname, kts, kdur = n
            corr[0] += 1
            c = corr[0]
            ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                       "ts": ts, "dur": dur, "args": {"correlation": c}})
            ev.append({"ph": "s", "id": c, "pid": 1, "tid": 1, "ts": ts, "cat": "ac2g", "name": "ac2g"})
            gpu.append({"ph": "X", "cat": "kernel", "name": kname, "pid": 0, "tid": 7, "ts": kts, "dur": kdur,
                        "args": {"correlation": c, "stream": 7, "device": 0}})
            gpu.append({"ph": "f", "id": c, "pid": 0, "tid": 7, "ts": kts, "cat": "ac2g", "name": "ac2g", "bp": "e"})
            return
        name, ts, dur, kids = n
        ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": ts, "dur": dur,
                   "args": {"Input Dims": [[4, 8]], "Input type": ["float"]}})
        for k in kids:
            walk(k)

    for r in roots:
        walk(r)
    with open(os.path.join(HERE, fname), "w") as f:
        f.write('{"traceEvents": [\n')
        f.write(",\n".join(json.dumps(e) for e in ev + gpu))
        f.write("\n]}\n")


def base(extra_linear=(), relu=True, gemm="gemm_k", extra_roots=(), relu_name="aten::relu"):
    kids = [op("aten::addmm", 10, 40, launch(15, gemm, 100, 10.5))]
    if relu:
        kids.append(op(relu_name, 60, 20, launch(62, "relu_k", 120, 5.25)))
    kids += list(extra_linear)
    return [op("aten::linear", 0, 100, *kids),
            op("aten::add", 200, 20, launch(205, "add_k", 300, 4)),
            op("aten::empty", 400, 5),
            launch(500, "lonely_k", 600, 3)] + list(extra_roots)


write("base.json", base())
# an op inserted under aten::linear
write("inserted.json", base(extra_linear=[op("aten::dropout", 85, 10, launch(87, "dropout_k", 140, 7))]))
# aten::relu (and its kernel) deleted
write("deleted.json", base(relu=False))
# the GEMM kernel renamed
write("renamed.json", base(gemm="gemm_k_v2"))
# aten::relu renamed (same kernel): cpu_op_map pairs the two names
write("renamed_op.json", base(relu_name="aten::relu_"))
# the two ops under aten::linear one level deeper, under a wrapper
write("deeper.json", [
    op("aten::linear", 0, 100,
       op("aten::wrapper", 5, 90,
          op("aten::addmm", 10, 40, launch(15, "gemm_k", 100, 10.5)),
          op("aten::relu", 60, 20, launch(62, "relu_k", 120, 5.25)))),
    op("aten::add", 200, 20, launch(205, "add_k", 300, 4)),
    op("aten::empty", 400, 5),
    launch(500, "lonely_k", 600, 3)])
# a root only the variant has (after the others)
write("extra_root.json", base(extra_roots=[op("aten::mul", 700, 10, launch(702, "mul_k", 800, 2))]))

# same-named siblings whose kernels trade places: the edit distance pairs them in order,
# the disambiguation by descendants pairs them crosswise (the runtime call among them
# makes the alignment an edit distance rather than a positional one)
def dup(first, second):
    return [op("aten::block", 0, 100,
               launch(5, "k0", 200, 2),
               op("aten::op", 10, 20, launch(12, first, 210, 3)),
               op("aten::op", 40, 20, launch(42, second, 220, 4)))]


write("dup_base.json", dup("k1", "k2"))
write("dup_swapped.json", dup("k2", "k1"))
