#!/usr/bin/env python3
"""gen_random_modules.py — writes random_modules.json beside it: a seeded random trace
for reference.sql, which checks the module_tree table against the recursive SQL that
defined it before. Python frames nest per thread (modules with _call_impl frames in
between), launches fall anywhere (at module starts and ends too), pid/tid are spelled
as 1, 1.0 and "1" (the first two are one thread, the third another), module names
have odd suffixes, and some GPU events share starts or have zero duration.
Run: python3 tests/sql/module_tree/gen_random_modules.py"""
import json
import os
import random

rng = random.Random(14)
events = []
next_pyid = [1]
corr = [1000]
NAMES = ["Linear_3", "Linear_12", "Conv2d", "Block_0", "  Spaced_7", "_5", "Bar_", "",
         "X_99999999999999999999999", "Seq_01", "Drop_out_2", "Norm_x9"]
THREADS = [(1, 1), (1.0, 1), ("1", 1), (1, 2), (2, "t"), (2, 3.5)]


def frame(name, pid, tid, ts, dur, parent):
    pyid = next_pyid[0]
    next_pyid[0] += 1
    args = {"Python id": pyid, "Python thread": 0}
    if parent is not None:
        args["Python parent id"] = parent
    events.append({"ph": "X", "cat": "python_function", "name": name, "pid": pid, "tid": tid,
                   "ts": ts, "dur": dur, "args": args})
    return pyid


def launch(pid, tid, ts):
    corr[0] += 1
    c = corr[0]
    events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": pid,
                   "tid": tid, "ts": ts, "dur": 1, "args": {"correlation": c}})
    kts = 100000 + rng.choice([0, 5, 10, 10, 20]) + rng.randrange(0, 4000)
    events.append({"ph": "X", "cat": "kernel", "name": "k%d" % c, "pid": 0, "tid": 7,
                   "ts": kts, "dur": rng.choice([0, 1, 3, 10, 25]),
                   "args": {"correlation": c, "stream": 7, "device": 0}})
    events.append({"ph": "s", "cat": "ac2g", "name": "ac2g", "id": c,
                   "pid": pid, "tid": tid, "ts": ts})
    events.append({"ph": "f", "bp": "e", "cat": "ac2g", "name": "ac2g", "id": c,
                   "pid": 0, "tid": 7, "ts": kts})


def build(pid, tid, ts, dur, parent, depth):
    """frames inside [ts, ts + dur) with launches between them"""
    t = ts
    while t < ts + dur - 2:
        r = rng.random()
        if r < 0.3 and depth < 6:
            d = rng.randrange(2, max(3, (ts + dur - t) // 2 + 1))
            d = min(d, ts + dur - t)
            is_mod = rng.random() < 0.7
            name = "nn.Module: " + rng.choice(NAMES) if is_mod else "torch/nn/modules/module.py(1500): _call_impl"
            me = frame(name, pid, tid, t, d, parent)
            if is_mod and rng.random() < 0.5:  # a _call_impl frame between module levels
                me = frame("torch/nn/modules/module.py(1500): _call_impl", pid, tid, t, d, me)
            build(pid, tid, t, d, me, depth + 1)
            if rng.random() < 0.3:
                launch(pid, tid, t)           # at a module's start
            if rng.random() < 0.3:
                launch(pid, tid, t + d)       # at its end
            t += d if rng.random() < 0.7 else 0
            t += rng.randrange(0, 3)
        elif r < 0.8:
            launch(pid, tid, t)
            t += rng.randrange(1, 4)
        else:
            t += rng.randrange(1, 5)


for pid, tid in THREADS:
    root = frame("train.py(10): <module>", pid, tid, 0, 300, None)
    build(pid, tid, 0, 300, root, 0)

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "random_modules.json"), "w") as f:
    json.dump({"traceEvents": events}, f, separators=(",", ":"))
