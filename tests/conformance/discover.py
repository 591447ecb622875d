#!/usr/bin/env python3
"""discover.py — what the conformance data folder holds, for every test that walks it.

    discover.py DATA traces      every trace file, one path a line
    discover.py DATA reports     perf reports:      REF_DIR TRACE ARCH LABEL (tab-separated)
    discover.py DATA inference   inference reports: REF_DIR TRACE CAPTURE LABEL

The layout (one rule per kind of file; anything else is ignored):
- a trace is a `*.json.gz` or `*.json` file that is not one of the files below;
- TraceDiff's outputs `cpu_op_map*.json` are not traces;
- a GPU arch file (TraceLens's `--gpu_arch_json_path` format: a JSON object with
  `mem_bw_gbps` and `max_achievable_tflops`, e.g. `H100_arch.json`) is not a trace;
- a capture manifest `execution_details.json` (which CUDA-graph capture trace beside it
  holds which batch size) is not a trace; the capture traces themselves are traces;
- `<stem>_perf_report_csvs/` is the perf report of `<stem>.json.gz` (or `.json`);
- `<stem>_arch_perf_report_csvs/`, when no trace `<stem>_arch.*` exists, is the perf report
  of `<stem>.json.gz` made with the one arch file of its folder (ARCH; label
  `<trace>+arch`);
- `<dir>/perf_csvs/` is the inference report of the one trace in `<dir>`, with
  `<dir>/capture_traces/` as CAPTURE when present; `<stem>_inference_perf_csvs/` is the
  inference report of `<stem>.json.gz` (capture `<stem>_capture_traces/` when present);
  label `<trace>+inference`.
- `compare_test_e2e/reference/` holds inputs of the perf-report comparison, not reports
  of a trace.
A report folder whose trace cannot be found is listed with an empty TRACE, so the caller
fails loudly instead of skipping it. An empty field is printed as `-` (shells' `read`
would merge two tabs). Paths are printed as DATA/..., sorted.
"""
import json
import os
import sys


def is_arch_file(path):
    if not path.endswith(".json") or os.path.getsize(path) > (1 << 20):
        return False
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict) and "max_achievable_tflops" in doc and "mem_bw_gbps" in doc


def walk(data):
    files, dirs = [], []
    for root, dnames, fnames in os.walk(data):
        dnames.sort()
        for d in dnames:
            dirs.append(os.path.join(root, d))
        for f in sorted(fnames):
            files.append(os.path.join(root, f))
    return sorted(files), sorted(dirs)


def traces(data):
    files, _ = walk(data)
    out = []
    for path in files:
        name = os.path.basename(path)
        if not (name.endswith(".json.gz") or name.endswith(".json")):
            continue
        if name.startswith("cpu_op_map") or name == "execution_details.json" or is_arch_file(path):
            continue
        out.append(path)
    return out


def trace_of(stem):
    for ext in (".json.gz", ".json"):
        if os.path.isfile(stem + ext):
            return stem + ext
    return ""


def arch_in(folder):
    found = [os.path.join(folder, f) for f in sorted(os.listdir(folder))
             if is_arch_file(os.path.join(folder, f))]
    return found[0] if len(found) == 1 else ""


def reports(data):
    _, dirs = walk(data)
    rows = []
    for ref in dirs:
        if not ref.endswith("_perf_report_csvs") or "/compare_test_e2e/reference/" in ref + "/":
            continue
        stem = ref[: -len("_perf_report_csvs")]
        trace, arch, label = trace_of(stem), "", ""
        if not trace and stem.endswith("_arch"):
            trace = trace_of(stem[: -len("_arch")])
            arch = arch_in(os.path.dirname(ref))
            if trace and not arch:
                trace = ""          # an arch report without its arch file: fail loudly
            label = trace and os.path.relpath(trace, data) + "+arch"
        label = label or (trace and os.path.relpath(trace, data)) or os.path.relpath(ref, data)
        rows.append((ref, trace, arch, label))
    return rows


def inference(data):
    _, dirs = walk(data)
    rows = []
    for ref in dirs:
        if os.path.basename(ref) == "perf_csvs":
            folder = os.path.dirname(ref)
            capture = os.path.join(folder, "capture_traces")
            inside = [t for t in traces(folder) if os.path.dirname(t) == folder]
            trace = inside[0] if len(inside) == 1 else ""
        elif ref.endswith("_inference_perf_csvs"):
            stem = ref[: -len("_inference_perf_csvs")]
            trace, capture = trace_of(stem), stem + "_capture_traces"
        else:
            continue
        capture = capture if os.path.isdir(capture) else ""
        label = (os.path.relpath(trace, data) + "+inference") if trace else os.path.relpath(ref, data)
        rows.append((ref, trace, capture, label))
    return rows


def main(argv):
    if len(argv) != 3 or argv[2] not in ("traces", "reports", "inference"):
        sys.stderr.write(__doc__)
        return 2
    data = argv[1].rstrip("/")
    if argv[2] == "traces":
        for path in traces(data):
            print(path)
    else:
        for row in (reports if argv[2] == "reports" else inference)(data):
            print("\t".join(field or "-" for field in row))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
