#!/usr/bin/env python3
"""make bench: load time, throughput and peak memory of trace_open().

Each trace is loaded in a fresh sqlite3 process; the load time is the extension's own
measurement (traces.load_seconds), peak RSS is the whole process's (os.wait4).
The ~1.1 GB trace is generated once under build/bench/ from a conformance trace:

  python3 ../shared/tools/scale_trace.py \
      ../shared/conformance/tracelens/h100/facebook_timesformer-base-finetuned-k400__1016002.json.gz \
      build/bench/timesformer_1100mb.json --target-mb 1100
  (and the same to build/bench/timesformer_1100mb.json.gz for the gzip figure)

Environment: TSQL_BENCH_REPEAT (runs per trace, best kept; default 3),
TSQL_BENCH_ONLY=big (only the two 1.1 GB files), TSQL_BENCH_AB=path/to/other/tracesql
(also load each trace with that build, alternating run by run with TSQL_EXT, and print
both: on a busy machine only such interleaved pairs compare two builds fairly). The load averages before and after
are printed because the machine is shared: a busy neighbour makes every figure worse.

Then the table of issue 14, every figure from this one run, median of
TSQL_BENCH_RUNS (default 5) whole-process runs, the steps of one round interleaved so
that a busy minute hits all of them alike:
  - per-event cJSON baseline (tests/bench/cjson_baseline.c, built by make bench);
  - plain load (sqlite3 + trace_open): wall, user and sys CPU, peak RSS;
  - gzip load of the same trace;
  - examples/perf_report.sh (load and every sheet, CSVs written under build/bench);
  - module_tree after the load (the shell's .timer, in the load's process).
TSQL_BENCH_MB picks the size (default 1100); TSQL_BENCH_HUGE=1 adds the ~4.8 GB trace
(generated under build/bench/, ~5 GB of disk) for the plain load and its linearity.
"""
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.chdir(ROOT)
EXT = os.environ.get("TSQL_EXT", "build/tracesql")
SQLITE = os.environ.get("SQLITE3", "sqlite3")
SHARED = os.path.join("..", "shared")
SOURCE = os.path.join(SHARED, "conformance", "tracelens", "h100",
                      "facebook_timesformer-base-finetuned-k400__1016002.json.gz")
SIZE_MB = int(os.environ.get("TSQL_BENCH_MB", "1100"))
BIG = [f"build/bench/timesformer_{SIZE_MB}mb.json", f"build/bench/timesformer_{SIZE_MB}mb.json.gz"]
HUGE = "build/bench/timesformer_4800mb.json" if os.environ.get("TSQL_BENCH_HUGE") == "1" else ""
RUNS = int(os.environ.get("TSQL_BENCH_RUNS", "5"))
BASELINE = "build/bench/cjson_baseline"
# issue 14's targets
T_PLAIN_S, T_PLAIN_CJSON, T_GZ_PLAIN, T_REPORT_PLAIN, T_MODULE_PLAIN, T_RSS = 1.0, 0.30, 1.15, 2.0, 0.3, 0.35
REPEAT = int(os.environ.get("TSQL_BENCH_REPEAT", "3"))
ONLY_BIG = os.environ.get("TSQL_BENCH_ONLY", "") == "big"
# issue 2's targets for the ~1.1 GB trace
TARGET_PLAIN_S, TARGET_GZ_S, TARGET_RSS = 1.0, 1.2, 0.35


def sql_quote(s):
    return "'" + s.replace("'", "''") + "'"


AB = os.environ.get("TSQL_BENCH_AB", "")


def load_best(path):
    """Best of REPEAT runs with EXT (and with AB, interleaved): (ext result, ab result)."""
    best, best_ab = None, None
    for _ in range(REPEAT):
        r = load_once(path, EXT)
        if best is None or r[0] < best[0]:
            best = r
        if AB:
            r = load_once(path, AB)
            if best_ab is None or r[0] < best_ab[0]:
                best_ab = r
    return best, best_ab


def load_once(path, ext):
    sql = f"SELECT trace_open({sql_quote(path)});\nSELECT load_seconds, events, json_bytes FROM traces;\n"
    r, w = os.pipe()
    ro, wo = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.dup2(r, 0)
        os.dup2(wo, 1)
        os.close(w)
        os.close(ro)
        os.execvp(SQLITE, [SQLITE, "-batch", ":memory:", "-cmd", f".load {ext}"])
    os.close(r)
    os.close(wo)
    os.write(w, sql.encode())
    os.close(w)
    out = b""
    while True:
        chunk = os.read(ro, 65536)
        if not chunk:
            break
        out += chunk
    os.close(ro)
    _, status, ru = os.wait4(pid, 0)
    if status != 0:
        raise SystemExit(f"bench: loading {path} failed (status {status})")
    secs, events, jbytes = out.decode().strip().splitlines()[-1].split("|")
    return float(secs), int(events), int(jbytes), ru.ru_maxrss * 1024


def generate(out, mb):
    if not os.path.exists(out):
        print(f"generating {out} (once) ...", flush=True)
        subprocess.run([sys.executable, os.path.join(SHARED, "tools", "scale_trace.py"), SOURCE, out,
                        "--target-mb", str(mb)], check=True, stdout=subprocess.DEVNULL)


def ensure_big():
    if not os.path.isdir(SHARED):
        print(f"SKIP: ../shared not found — the {SIZE_MB} MB benchmark trace cannot be generated")
        return []
    os.makedirs("build/bench", exist_ok=True)
    for out in BIG:
        generate(out, SIZE_MB)
    if HUGE:
        generate(HUGE, 4800)
    return list(BIG)


def timed(argv, stdin_text=None):
    """Whole-process figures of argv: (wall, user, sys, peak RSS bytes, stdout)."""
    r, w = os.pipe()
    ro, wo = os.pipe()
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.dup2(r, 0)
        os.dup2(wo, 1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(w)
        os.close(ro)
        os.execvp(argv[0], argv)
    os.close(r)
    os.close(wo)
    if stdin_text:
        os.write(w, stdin_text.encode())
    os.close(w)
    out = b""
    while True:
        chunk = os.read(ro, 65536)
        if not chunk:
            break
        out += chunk
    os.close(ro)
    _, status, ru = os.wait4(pid, 0)
    wall = time.monotonic() - t0
    if status != 0:
        raise SystemExit(f"bench: {' '.join(argv)} failed (status {status})")
    return wall, ru.ru_utime, ru.ru_stime, ru.ru_maxrss * 1024, out.decode()


def issue_table(plain, gz, huge):
    """Issue 14's table: every figure from this run, median of RUNS rounds."""
    if not os.path.exists(BASELINE):
        print(f"SKIP issue table: {BASELINE} not built (run make bench)")
        return
    ext = EXT
    report_out = "build/bench/report"
    load_sql = f"SELECT trace_open({sql_quote(plain)});\nSELECT events, json_bytes FROM traces;\n"
    mod_sql = (f"SELECT trace_open({sql_quote(plain)});\n.timer on\nSELECT count(*) FROM module_tree;\n")
    rows = {k: [] for k in ("cjson", "plain", "gzip", "report", "module")}
    print(f"\nissue 14 table: {plain} ({os.path.getsize(plain) / 1e6:.1f} MB), "
          f"median of {RUNS} rounds; load average before: {loadavg()}", flush=True)
    events = jbytes = 0
    for _ in range(RUNS):
        w, u, s_, rss, out = timed([BASELINE, plain])
        rows["cjson"].append((w, u, s_, rss))
        w, u, s_, rss, out = timed([SQLITE, "-batch", ":memory:", "-cmd", f".load {ext}"], load_sql)
        events, jbytes = (int(x) for x in out.strip().splitlines()[-1].split("|"))
        rows["plain"].append((w, u, s_, rss))
        w, u, s_, rss, out = timed([SQLITE, "-batch", ":memory:", "-cmd", f".load {ext}"],
                                   f"SELECT trace_open({sql_quote(gz)});\n")
        rows["gzip"].append((w, u, s_, rss))
        shutil.rmtree(report_out, ignore_errors=True)
        env_ext = os.environ.get("TSQL_EXT")
        os.environ["TSQL_EXT"] = ext
        w, u, s_, rss, out = timed(["bash", "examples/perf_report.sh", plain, report_out])
        if env_ext is None:
            del os.environ["TSQL_EXT"]
        rows["report"].append((w, u, s_, rss))
        w, u, s_, rss, out = timed([SQLITE, "-batch", ":memory:", "-cmd", f".load {ext}"], mod_sql)
        m = re.search(r"Run Time: real ([\d.]+) user ([\d.]+) sys ([\d.]+)", out)
        rows["module"].append((float(m.group(1)), float(m.group(2)), float(m.group(3)), rss))
    print(f"load average after: {loadavg()}")

    def med(k, i):
        return statistics.median(r[i] for r in rows[k])
    cj, pl, gzw, rep, mod = (med(k, 0) for k in ("cjson", "plain", "gzip", "report", "module"))
    rss = med("plain", 3)

    def verdict(got, want):
        return "met" if got <= want else f"missed by {got / want - 1:.0%}"
    print(f"{events:,} events, {jbytes / 1e6:.1f} MB of JSON")
    print(f"{'what':44} {'wall s':>7} {'user s':>7} {'sys s':>7}  ratio and target")
    print(f"{'per-event cJSON baseline':44} {cj:7.3f} {med('cjson', 1):7.3f} {med('cjson', 2):7.3f}")
    print(f"{'plain load':44} {pl:7.3f} {med('plain', 1):7.3f} {med('plain', 2):7.3f}  "
          f"{pl:.3f} s vs <= {T_PLAIN_S} s: {verdict(pl, T_PLAIN_S)}; "
          f"{pl / cj:.2f} x cJSON vs <= {T_PLAIN_CJSON}: {verdict(pl / cj, T_PLAIN_CJSON)}")
    print(f"{'gzip load':44} {gzw:7.3f} {med('gzip', 1):7.3f} {med('gzip', 2):7.3f}  "
          f"{gzw / pl:.2f} x plain vs <= {T_GZ_PLAIN}: {verdict(gzw / pl, T_GZ_PLAIN)}")
    print(f"{'examples/perf_report.sh (load, every sheet)':44} {rep:7.3f} {med('report', 1):7.3f} "
          f"{med('report', 2):7.3f}  {rep / pl:.2f} x plain vs <= {T_REPORT_PLAIN}: "
          f"{verdict(rep / pl, T_REPORT_PLAIN)}")
    print(f"{'module_tree after load':44} {mod:7.3f} {med('module', 1):7.3f} {med('module', 2):7.3f}  "
          f"{mod / pl:.2f} x plain vs <= {T_MODULE_PLAIN}: {verdict(mod / pl, T_MODULE_PLAIN)}")
    print(f"{'peak RSS of the plain load':44} {rss / 1e6:7.1f} MB  {rss / jbytes:.3f} x JSON vs <= {T_RSS}: "
          f"{verdict(rss / jbytes, T_RSS)}")
    if huge:
        hw = []
        for _ in range(max(1, RUNS // 2)):
            w, u, s_, r2, out = timed([SQLITE, "-batch", ":memory:", "-cmd", f".load {ext}"],
                                      f"SELECT trace_open({sql_quote(huge)});\nSELECT events, json_bytes FROM traces;\n")
            ev2, jb2 = (int(x) for x in out.strip().splitlines()[-1].split("|"))
            hw.append((w, u, s_, r2))
        w2 = statistics.median(x[0] for x in hw)
        r2 = statistics.median(x[3] for x in hw)
        print(f"{'plain load, ~4.8 GB':44} {w2:7.3f} {statistics.median(x[1] for x in hw):7.3f} "
              f"{statistics.median(x[2] for x in hw):7.3f}  {ev2:,} events; "
              f"{w2 / jb2 * 1e9:.3f} s/GB vs {pl / jbytes * 1e9:.3f} s/GB at {SIZE_MB} MB; "
              f"peak RSS {r2 / 1e6:.0f} MB ({r2 / jb2:.3f} x JSON)")


def loadavg():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def main():
    traces = []
    if not ONLY_BIG:
        traces = sorted(glob.glob(os.path.join(SHARED, "conformance", "**", "*.json.gz"), recursive=True))
        traces = [t for t in traces if "cpu_op_map" not in t]
    big = ensure_big()
    traces += big
    print(f"best of {REPEAT} runs per trace; load average before: {loadavg()} ({os.cpu_count()} CPUs)")
    print(f"{'trace':58} {'file MB':>8} {'JSON MB':>8} {'events':>9} {'load s':>7} {'MB/s':>7} "
          f"{'peak RSS MB':>11} {'RSS/JSON':>8}")
    results = {}
    for t in traces:
        (secs, events, jbytes, rss), ab = load_best(t)
        results[t] = (secs, rss / jbytes if jbytes else 0)
        mb = jbytes / 1e6
        name = os.path.relpath(t, SHARED) if t.startswith(SHARED) else t
        print(f"{name[-58:]:58} {os.path.getsize(t) / 1e6:8.1f} {mb:8.1f} {events:9d} {secs:7.3f} "
              f"{mb / secs if secs else 0:7.0f} {rss / 1e6:11.1f} {rss / jbytes if jbytes else 0:8.2f}",
              flush=True)
        if ab:
            s2, _, _, r2 = ab
            print(f"{'  (TSQL_BENCH_AB build)':58} {'':8} {'':8} {'':9} {s2:7.3f} "
                  f"{mb / s2 if s2 else 0:7.0f} {r2 / 1e6:11.1f} {r2 / jbytes if jbytes else 0:8.2f}",
                  flush=True)
    print(f"load average after: {loadavg()}")
    if len(big) == 2:
        issue_table(big[0], big[1], HUGE)
    if len(big) == 2 and SIZE_MB == 1100:
        (ps, pr), (gs, gr) = results[big[0]], results[big[1]]

        def verdict(got, want, unit):
            return (f"{got:.3f}{unit} vs <= {want}{unit}: " +
                    ("met" if got <= want else f"missed by {got / want - 1:.0%}"))
        print("issue 2 targets (1.1 GB trace):")
        print(f"  plain JSON load  {verdict(ps, TARGET_PLAIN_S, ' s')}")
        print(f"  gzip load        {verdict(gs, TARGET_GZ_S, ' s')}")
        print(f"  peak RSS / JSON  {verdict(max(pr, gr), TARGET_RSS, 'x')}")


if __name__ == "__main__":
    main()
