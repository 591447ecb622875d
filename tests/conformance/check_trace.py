#!/usr/bin/python3
"""Compare the tracesql extension with the Python oracle (oracle.py) on one trace.

Usage: check_trace.py TRACE [--ops-summary CSV] [--no-cache]

Checks (one line each: "PASS <check> <trace>" or "FAIL <check> <trace>: ...",
followed by up to a few indented differences on failure):
  counts         events() per (ph, cat) == oracle counts            exact
  links          kernels() tl_runtime_uid / tl_launcher_uid == oracle links   exact
  direct         per-launcher-name busy sum / count == oracle direct  rtol 1e-6, counts exact
  launcher       kernels whose launch (by correlation) is in the trace all have launcher_uid
  ops_summary    (only with --ops-summary) our direct query == TraceLens's ops_summary.csv
                 name / total_direct_kernel_time_sum / Count          rtol 1e-6, counts exact

Environment:
  TSQL_EXT   extension to load (default: <project>/build/tracesql)
  SQLITE3    sqlite3 binary (default: sqlite3)
  TSQL_CONFORMANCE_CACHE  oracle cache directory (default: <project>/build/conformance-cache)

Exit status: 0 if every check passed, 1 otherwise.
"""

import csv
import hashlib
import io
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True  # keep tests/conformance free of __pycache__
sys.path.insert(0, HERE)
import oracle  # noqa: E402

RTOL = 1e-6
ATOL = 1e-9  # µs; only matters when both values are ~0
MAX_SHOWN = 5

Q_COUNTS = "SELECT ph, cat, count(*) AS n FROM events({p}) GROUP BY ph, cat;"
Q_LINKS = ("SELECT uid AS gpu_uid, tl_runtime_uid AS runtime_uid, "
           "tl_launcher_uid AS launcher_uid FROM kernels({p}) "
           "WHERE tl_runtime_uid IS NOT NULL;")
Q_DIRECT = ("SELECT e.name, sum(k.busy) AS total_direct_kernel_time_sum, count(*) AS count "
            "FROM (SELECT tl_launcher_uid AS l, busy_time(ts, dur) AS busy FROM kernels({p}) "
            "WHERE tl_launcher_uid IS NOT NULL GROUP BY tl_launcher_uid) k "
            "JOIN events({p}) e ON e.uid = k.l GROUP BY e.name;")
Q_LAUNCHER = ("SELECT count(*) AS n FROM kernels({p}) WHERE launcher_uid IS NULL AND "
              "correlation IN (SELECT correlation FROM events({p}) "
              "WHERE kind IN ('cuda_runtime','cuda_driver'));")


# ---------------------------------------------------------------- helpers
def sql_str(s):
    return "'" + s.replace("'", "''") + "'"


def dot_arg(s):
    """Quote an argument of a sqlite3 shell dot-command if needed."""
    if s and not any(c in s for c in " \t\"'\\"):
        return s
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def ext_path():
    return os.environ.get("TSQL_EXT") or os.path.join(PROJECT, "build", "tracesql")


class SqlError(Exception):
    pass


def run_sql(query):
    cmd = [os.environ.get("SQLITE3") or "sqlite3", "-bail", "-batch", "-csv", "-header",
           ":memory:", "-cmd", ".load " + dot_arg(ext_path()), query]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    except FileNotFoundError as e:
        raise SqlError("cannot run sqlite3: %s" % e)
    except subprocess.TimeoutExpired:
        raise SqlError("sqlite3 timed out")
    if p.returncode != 0:
        err = p.stderr.decode("utf-8", "replace").strip()
        raise SqlError("sqlite3 exit %d: %s" % (p.returncode, err.splitlines()[0] if err
                                                  else "(no message)"))
    rows = list(csv.reader(io.StringIO(p.stdout.decode("utf-8", "replace"))))
    if not rows:
        return [], []
    return rows[0], rows[1:]


def parse_csv(text):
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], rows[1:]


def to_int(s):
    if s is None or s == "":
        return None
    try:
        return int(s)
    except ValueError:
        return int(float(s))  # tolerate '12.0'


def close(a, b):
    return abs(a - b) <= RTOL * max(abs(a), abs(b)) + ATOL


def rel_err(a, b):
    d = abs(a - b)
    m = max(abs(a), abs(b))
    return d / m if m else d


# ---------------------------------------------------------------- oracle (cached)
def _oracle_fingerprint():
    h = hashlib.sha1()
    with open(os.path.join(HERE, "oracle.py"), "rb") as f:
        h.update(f.read())
    return h.hexdigest()[:12]


def oracle_outputs(trace, use_cache=True):
    st = os.stat(trace)
    cache_dir = os.environ.get("TSQL_CONFORMANCE_CACHE") or os.path.join(
        PROJECT, "build", "conformance-cache")
    key = hashlib.sha1(("%s|%d|%d|%s" % (os.path.realpath(trace), st.st_size,
                                        st.st_mtime_ns, _oracle_fingerprint())
                        ).encode()).hexdigest()
    path = os.path.join(cache_dir, key + ".json")
    if use_cache:
        try:
            with open(path) as f:
                return json.load(f)
        except (OSError, ValueError):
            pass
    res = oracle.analyze(oracle.load_events(trace))
    out = {w: oracle.render(res, w) for w in ("counts", "links", "direct")}
    out["stats"] = res["stats"]
    if use_cache:
        try:
            os.makedirs(cache_dir, exist_ok=True)
            tmp = path + ".tmp%d" % os.getpid()
            with open(tmp, "w") as f:
                json.dump(out, f)
            os.replace(tmp, path)
        except OSError:
            pass
    return out


# ---------------------------------------------------------------- checks
class Reporter:
    def __init__(self, label):
        self.label = label
        self.failed = 0
        self.passed = 0

    def ok(self, check, note=""):
        self.passed += 1
        print("PASS %-12s %s%s" % (check, self.label, (" (" + note + ")") if note else ""))

    def fail(self, check, why, details=()):
        self.failed += 1
        print("FAIL %-12s %s: %s" % (check, self.label, why))
        details = list(details)
        for d in details[:MAX_SHOWN]:
            print("     " + d)
        if len(details) > MAX_SHOWN:
            print("     ... %d more" % (len(details) - MAX_SHOWN))


def check_counts(rep, p, orc):
    _, want = parse_csv(orc["counts"])
    hdr, got = run_sql(Q_COUNTS.format(p=p))
    W = {(r[0], r[1]): int(r[2]) for r in want}
    G = {}
    for r in got:
        G[(r[0], r[1])] = G.get((r[0], r[1]), 0) + to_int(r[2])
    diffs = []
    for k in sorted(set(W) | set(G)):
        if W.get(k) != G.get(k):
            diffs.append("ph=%r cat=%r: oracle %s, extension %s" % (k[0], k[1], W.get(k), G.get(k)))
    if diffs:
        rep.fail("counts", "%d (ph, cat) groups differ" % len(diffs), diffs)
    else:
        rep.ok("counts", "%d groups, %d events" % (len(W), sum(W.values())))


def check_links(rep, p, orc):
    _, want = parse_csv(orc["links"])
    hdr, got = run_sql(Q_LINKS.format(p=p))
    W = {int(r[0]): (to_int(r[1]), to_int(r[2])) for r in want}
    G = {}
    dup = []
    for r in got:
        g = to_int(r[0])
        if g in G:
            dup.append("gpu_uid %d returned more than once" % g)
        G[g] = (to_int(r[1]), to_int(r[2]))
    diffs = list(dup)
    for g in sorted(set(W) | set(G)):
        w, x = W.get(g), G.get(g)
        if w == x:
            continue
        if w is None:
            diffs.append("gpu_uid %d: not linked by oracle, extension runtime=%s launcher=%s"
                         % (g, x[0], x[1]))
        elif x is None:
            diffs.append("gpu_uid %d: missing in extension (oracle runtime=%s launcher=%s)"
                         % (g, w[0], w[1]))
        else:
            diffs.append("gpu_uid %d: oracle runtime=%s launcher=%s, extension runtime=%s "
                         "launcher=%s" % (g, w[0], w[1], x[0], x[1]))
    st = orc.get("stats", {})
    if diffs:
        rep.fail("links", "%d GPU events differ" % len(diffs), diffs)
    else:
        rep.ok("links", "%d of %s GPU events linked" % (len(W), st.get("gpu_events", "?")))


def compare_direct(rep, check, want, got, want_label):
    """want/got: {name: (sum, count)}."""
    diffs = []
    worst = 0.0
    for n in sorted(set(want) | set(got)):
        w, x = want.get(n), got.get(n)
        if w is None:
            diffs.append("%r: extra row in extension (sum=%r count=%r)" % (n, x[0], x[1]))
        elif x is None:
            diffs.append("%r: missing in extension (%s sum=%r count=%r)" % (n, want_label, w[0], w[1]))
        else:
            worst = max(worst, rel_err(w[0], x[0]))
            if not close(w[0], x[0]) or w[1] != x[1]:
                diffs.append("%r: %s sum=%r count=%r, extension sum=%r count=%r (rel err %.3g)"
                             % (n, want_label, w[0], w[1], x[0], x[1], rel_err(w[0], x[0])))
    if diffs:
        rep.fail(check, "%d rows differ" % len(diffs), diffs)
    else:
        rep.ok(check, "%d names, max rel err %.2g" % (len(want), worst))


def query_direct(p):
    _, got = run_sql(Q_DIRECT.format(p=p))
    G = {}
    for r in got:
        G[r[0]] = (float(r[1]) if r[1] != "" else 0.0, to_int(r[2]))
    return G


def check_direct(rep, p, orc, got):
    _, want = parse_csv(orc["direct"])
    W = {r[0]: (float(r[1]), int(r[2])) for r in want}
    compare_direct(rep, "direct", W, got, "oracle")


def check_launcher(rep, p):
    _, got = run_sql(Q_LAUNCHER.format(p=p))
    n = to_int(got[0][0]) if got and got[0] else None
    if n == 0:
        rep.ok("launcher")
    else:
        rep.fail("launcher", "%s GPU events have a launch event in the trace but no "
                 "launcher_uid" % n)


def check_ops_summary(rep, ops_csv, got):
    with open(ops_csv, newline="") as f:
        rows = list(csv.DictReader(f))
    W = {r["name"]: (float(r["total_direct_kernel_time_sum"]), int(r["Count"])) for r in rows}
    compare_direct(rep, "ops_summary", W, got, "ops_summary.csv")


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description="compare tracesql with the TraceLens oracle")
    ap.add_argument("trace")
    ap.add_argument("--ops-summary", metavar="CSV",
                    help="also compare the direct query with this TraceLens ops_summary.csv")
    ap.add_argument("--label", help="name to print for the trace (default: as given)")
    ap.add_argument("--no-cache", action="store_true", help="do not use the oracle cache")
    a = ap.parse_args(argv)

    rep = Reporter(a.label or a.trace)
    trace = os.path.abspath(a.trace)
    p = sql_str(trace)

    try:
        orc = oracle_outputs(trace, use_cache=not a.no_cache)
    except Exception as e:  # the oracle itself could not read the trace
        rep.fail("oracle", "%s: %s" % (type(e).__name__, e))
        return 1

    checks = [("counts", lambda: check_counts(rep, p, orc)),
              ("links", lambda: check_links(rep, p, orc))]
    direct_got = {}

    def do_direct():
        direct_got["v"] = query_direct(p)
        check_direct(rep, p, orc, direct_got["v"])
    checks.append(("direct", do_direct))
    checks.append(("launcher", lambda: check_launcher(rep, p)))
    if a.ops_summary:
        def do_ops():
            if "v" not in direct_got:
                direct_got["v"] = query_direct(p)
            check_ops_summary(rep, a.ops_summary, direct_got["v"])
        checks.append(("ops_summary", do_ops))

    for name, fn in checks:
        try:
            fn()
        except SqlError as e:
            rep.fail(name, str(e))
        except Exception as e:
            rep.fail(name, "%s: %s" % (type(e).__name__, e))
    return 1 if rep.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
