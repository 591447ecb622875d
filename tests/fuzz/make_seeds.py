#!/usr/bin/env python3
"""Builds the fuzz seed corpus (python3 stdlib only).

    python3 tests/fuzz/make_seeds.py OUTDIR [CONFORMANCE_DIR]

Seeds are small, valid traces cut from real ones: for every conformance trace
(../shared/conformance/**/*.json.gz, when present) and the bundled demo trace, a few
time windows of about 40 events each (so nesting, launches and flows stay together),
with the top-level metadata members; some written gzip- or zip-compressed. The files
of tests/data/ and tests/corpus/ are added as they are. Nothing here is committed:
the corpus is generated under build/.
"""
import gzip
import io
import json
import os
import sys
import zipfile

MAX_SEED = 3 * 1024


def windows(events, count=6, per=16):
    """Yields up to count lists of about per events that lie in one time window."""
    timed = [e for e in events if isinstance(e, dict) and isinstance(e.get("ts"), (int, float))]
    if not timed:
        return
    timed.sort(key=lambda e: e["ts"])
    step = max(1, len(timed) // count)
    for k in range(count):
        start = k * step
        chunk = timed[start:start + per]
        if not chunk:
            break
        # file order inside the window, as the profiler wrote it
        ids = {id(e) for e in chunk}
        yield [e for e in events if id(e) in ids] or chunk


def small_meta(doc):
    meta = {}
    for k, v in doc.items():
        if k == "traceEvents":
            continue
        text = json.dumps(v)
        if len(text) < 400:
            meta[k] = v
    return meta


def emit(outdir, name, text, mode):
    data = text.encode("utf-8", "surrogatepass")
    if mode == "gz":
        data = gzip.compress(data, 6, mtime=0)
        name += ".gz"
    elif mode == "zip":
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("trace.json", data)
        data = buf.getvalue()
        name += ".zip"
    if len(data) > MAX_SEED * 2:
        return 0
    with open(os.path.join(outdir, name), "wb") as f:
        f.write(data)
    return 1


def from_trace(outdir, path, tag):
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rt", encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"make_seeds: skipping {path}: {e}", file=sys.stderr)
        return 0
    bare = isinstance(doc, list)
    events = doc if bare else doc.get("traceEvents", [])
    meta = {} if bare else small_meta(doc)
    n = 0
    for i, win in enumerate(windows(events)):
        while win:
            body = win if bare else dict(meta if i % 3 == 0 else {}, traceEvents=win)
            text = json.dumps(body, separators=(", ", ": ") if i % 2 else (",", ":"))
            if len(text) <= MAX_SEED:
                break
            win = win[: len(win) * 3 // 4]
        if not win:
            continue
        mode = "gz" if i == 1 else "zip" if i == 4 else "plain"
        n += emit(outdir, f"{tag}_{i}.json", text, mode)
    return n


def main():
    outdir = sys.argv[1]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    conf = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "..", "shared", "conformance")
    os.makedirs(outdir, exist_ok=True)
    n = 0
    sources = []
    for d, _, files in os.walk(conf):
        for f in sorted(files):
            if f.endswith(".json.gz") or f.endswith(".json"):
                sources.append(os.path.join(d, f))
    sources.sort()
    sources.append(os.path.join(root, "examples", "demo_trace.json.gz"))
    for k, p in enumerate(sources):
        tag = os.path.basename(p).split(".")[0][:40] + f"_{k}"
        n += from_trace(outdir, p, tag)
    for d in ("tests/data", "tests/corpus/files"):
        full = os.path.join(root, d)
        if not os.path.isdir(full):
            continue
        for f in sorted(os.listdir(full)):
            src = os.path.join(full, f)
            if os.path.isfile(src) and os.path.getsize(src) <= 8 * 1024:
                with open(src, "rb") as a, open(os.path.join(outdir, "data_" + f), "wb") as b:
                    b.write(a.read())
                n += 1
    print(f"make_seeds: {n} seeds in {outdir}")


if __name__ == "__main__":
    main()
