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

Then the table of issue 22, every figure from this one run, best of
TSQL_BENCH_RUNS (default 5) whole-process runs, the steps of one round interleaved so
that a busy minute hits all of them alike, each with the load around it (a figure
taken on a busy machine is printed as void, never as met):
  - the yardstick ../shared/tools/yardstick/cjson_stream.c (built by make bench in
    the same run): its byte scan (the floor) and its per-event cJSON parse;
  - plain load (sqlite3 + trace_open): wall, user and sys CPU, peak RSS;
  - gzip load of the same trace;
  - examples/perf_report.sh (load and every sheet, CSVs written under build/bench);
  - module_tree after the load (the shell's .timer, in the load's process).
TSQL_BENCH_MB picks the size (default 1100); TSQL_BENCH_HUGE=1 adds the ~4.8 GB trace
(generated under build/bench/, ~5 GB of disk) for the plain load and its linearity.
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

from quiet import LOAD_VOID, loadavg, loadavg1, wait_quiet

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
YARDSTICK = "build/bench/cjson_stream"
# a figure taken while the machine was busy is void (issue_table)
OTHERS_VOID = 0.15
# issue 22's targets
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


def cpu_busy_seconds():
    """CPU seconds the whole machine has spent busy since boot (all CPUs, /proc/stat)."""
    try:
        vals = [int(x) for x in open("/proc/stat").readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    return (sum(vals) - vals[3] - vals[4]) / os.sysconf("SC_CLK_TCK")


def figure_run(argv, stdin_text=None):
    """One run of argv with the machine's state around it: timed()'s figures plus the
    1-minute load average before and after, and the CPU the rest of the machine used
    meanwhile, in cores (busy time of every CPU less this run's own user + sys)."""
    before, busy0 = loadavg1(), cpu_busy_seconds()
    wall, user, sys_, rss, out = timed(argv, stdin_text)
    busy1, after = cpu_busy_seconds(), loadavg1()
    others = None if busy0 is None or busy1 is None else max(0.0, (busy1 - busy0) - user - sys_) / wall
    return {"wall": wall, "user": user, "sys": sys_, "rss": rss, "out": out,
            "load_before": before, "load_after": after, "others": others}


def issue_table(plain, gz, huge):
    """Issue 22's table: every figure from this run, the steps of one round interleaved
    (A, B, C, ... A, B, C, ...), the best of RUNS rounds each, against the yardstick
    built in the same make bench. A figure is void, never "met", when the machine was
    not quiet: the load average before the first run not under LOAD_VOID, or other
    processes using more than OTHERS_VOID cores during any of its runs. (The 1-minute
    load average during the bench counts the bench itself, so while it runs the CPU of
    the other processes is what says whether a figure was disturbed.)"""
    if not os.path.exists(YARDSTICK):
        print(f"SKIP issue table: {YARDSTICK} not built (make bench builds it from "
              f"../shared/tools/yardstick/cjson_stream.c)")
        return
    ext = EXT
    report_out = "build/bench/report"
    load_sql = f"SELECT trace_open({sql_quote(plain)});\nSELECT events, json_bytes FROM traces;\n"
    mod_sql = (f"SELECT trace_open({sql_quote(plain)});\n.timer on\nSELECT count(*) FROM module_tree;\n")
    shell = [SQLITE, "-batch", ":memory:", "-cmd", f".load {ext}"]
    wait_quiet()
    start_load = loadavg1()
    print(f"\nissue 22 table: {plain} ({os.path.getsize(plain) / 1e6:.1f} MB), best of {RUNS} "
          f"interleaved rounds; load average before: {loadavg()} ({os.cpu_count()} CPUs)", flush=True)
    steps = {
        "scan": lambda: figure_run([YARDSTICK, plain, "scan"]),
        "cjson": lambda: figure_run([YARDSTICK, plain]),
        "plain": lambda: figure_run(shell, load_sql),
        "gzip": lambda: figure_run(shell, f"SELECT trace_open({sql_quote(gz)});\n"),
        "report": lambda: (shutil.rmtree(report_out, ignore_errors=True),
                           figure_run(["env", f"TSQL_EXT={ext}", "bash", "examples/perf_report.sh",
                                       plain, report_out]))[1],
        "module": lambda: figure_run(shell, mod_sql),
    }
    runs = {k: [] for k in steps}
    events = jbytes = 0
    for _ in range(RUNS):
        for k, step in steps.items():
            r = step()
            if k == "plain":
                events, jbytes = (int(x) for x in r["out"].strip().splitlines()[-1].split("|"))
            if k == "module":    # the query alone, from the shell's timer
                m = re.search(r"Run Time: real ([\d.]+) user ([\d.]+) sys ([\d.]+)", r["out"])
                r["wall"], r["user"], r["sys"] = (float(m.group(i)) for i in (1, 2, 3))
            runs[k].append(r)
    print(f"load average after: {loadavg()}")

    def best(k):
        return min(runs[k], key=lambda r: r["wall"])

    def disturbed(k):
        return max((r["others"] or 0.0) for r in runs[k])

    def void_reason(*keys):
        if start_load is not None and start_load >= LOAD_VOID:
            return f"void: load average {start_load:.2f} >= {LOAD_VOID} before the run (it must be under it)"
        worst = max(disturbed(k) for k in keys)
        if worst > OTHERS_VOID:
            return f"void: other processes used {worst:.2f} cores during it"
        return None

    def verdict(got, want, *keys):
        why = void_reason(*keys)
        if why:
            return why
        return "met" if got <= want else f"missed by {got / want - 1:.0%}"

    def row(label, k, tail=""):
        r = best(k)
        print(f"{label:44} {r['wall']:7.3f} {r['user']:7.3f} {r['sys']:7.3f} "
              f"{r['load_before']:5.2f} {r['load_after']:5.2f} {disturbed(k):6.2f}  {tail}")

    sc, cj, pl, gzw, rep, mod = (best(k)["wall"] for k in ("scan", "cjson", "plain", "gzip", "report", "module"))
    rss = best("plain")["rss"]
    print(f"{events:,} events, {jbytes / 1e6:.1f} MB of JSON")
    print(f"{'what':44} {'wall s':>7} {'user s':>7} {'sys s':>7} {'load<':>5} {'load>':>5} {'others':>6}"
          f"  ratio and target (load< / load>: 1-min load average before / after the best run;"
          f" others: cores used by other processes, worst run)")
    row("yardstick: byte scan (the floor)", "scan")
    row("yardstick: per-event cJSON parse", "cjson")
    row("plain load", "plain",
        f"{pl:.3f} s vs <= {T_PLAIN_S} s: {verdict(pl, T_PLAIN_S, 'plain')}; "
        f"{pl / cj:.2f} x yardstick vs <= {T_PLAIN_CJSON}: {verdict(pl / cj, T_PLAIN_CJSON, 'plain', 'cjson')}; "
        f"{pl / sc:.2f} x the byte scan")
    row("gzip load", "gzip",
        f"{gzw / pl:.2f} x plain vs <= {T_GZ_PLAIN}: {verdict(gzw / pl, T_GZ_PLAIN, 'gzip', 'plain')}")
    row("examples/perf_report.sh (load, every sheet)", "report",
        f"{rep / pl:.2f} x plain vs <= {T_REPORT_PLAIN}: {verdict(rep / pl, T_REPORT_PLAIN, 'report', 'plain')}")
    row("module_tree after load", "module",
        f"{mod / pl:.2f} x plain vs <= {T_MODULE_PLAIN}: {verdict(mod / pl, T_MODULE_PLAIN, 'module', 'plain')}")
    print(f"{'peak RSS of the plain load':44} {rss / 1e6:7.1f} MB  {rss / jbytes:.3f} x JSON vs <= {T_RSS}: "
          f"{verdict(rss / jbytes, T_RSS, 'plain')}")
    if huge:
        hw = [figure_run(shell, f"SELECT trace_open({sql_quote(huge)});\nSELECT events, json_bytes FROM traces;\n")
              for _ in range(max(1, RUNS // 2))]
        ev2, jb2 = (int(x) for x in hw[-1]["out"].strip().splitlines()[-1].split("|"))
        h = min(hw, key=lambda r: r["wall"])
        print(f"{'plain load, ~4.8 GB':44} {h['wall']:7.3f} {h['user']:7.3f} {h['sys']:7.3f}  {ev2:,} events; "
              f"{h['wall'] / jb2 * 1e9:.3f} s/GB vs {pl / jbytes * 1e9:.3f} s/GB at {SIZE_MB} MB; "
              f"peak RSS {h['rss'] / 1e6:.0f} MB ({h['rss'] / jb2:.3f} x JSON)")


def main():
    traces = []
    if not ONLY_BIG:
        listing = subprocess.run([sys.executable, "tests/conformance/discover.py",
                                  os.path.join(SHARED, "conformance"), "traces"],
                                 capture_output=True, text=True)
        traces = listing.stdout.split() if os.path.isdir(SHARED) else []
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
