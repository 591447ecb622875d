"""sqlite-utils (Debian's sqlite-utils) as a tracesql client.

Each sqlite-utils call is a new connection, so a trace opened in one call is gone in
the next. Checked here, against Python's sqlite3 reading the same data:
  - `sqlite-utils memory --load-extension=EXT.so` with the table-valued form
    kernels('file') gives the rows the extension gives in one connection;
  - a second call sees no trace: gpu_timeline is empty and tracesql_status says why;
  - trace_export in one call, then `sqlite-utils rows/query` on the file WITHOUT the
    extension give the live views' rows (values compared exactly, JSON round-trip).
Prints one line; exits 1 with details. Skips loudly when sqlite-utils is missing.
  python3 tests/clients/sqlite_utils_client.py build/tracesql
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

EXT = sys.argv[1] if len(sys.argv) > 1 else "build/tracesql"
TRACE = "examples/demo_trace.json.gz"
exe = shutil.which("sqlite-utils")
if not exe:
    print("SKIP: sqlite-utils not installed (apt-get install sqlite-utils) — sqlite-utils client NOT tested")
    sys.exit(0)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def su(*args):
    r = subprocess.run([exe, *args], capture_output=True, text=True)
    if r.returncode != 0:
        failures.append(f"sqlite-utils {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
        return []
    return json.loads(r.stdout)


conn = sqlite3.connect(":memory:")
conn.enable_load_extension(True)
conn.load_extension(EXT)
conn.enable_load_extension(False)
conn.execute("SELECT trace_open(?)", (TRACE,))

so = EXT + ".so"
q = ("SELECT name, count(*) AS n, sum(dur) AS total_us FROM kernels('%s') "
     "GROUP BY name ORDER BY total_us DESC, name" % TRACE)
got = su("memory", "--load-extension=" + so, q)
want = conn.execute(q).fetchall()
check([(r["name"], r["n"], r["total_us"]) for r in got] == want and len(want) > 5,
      f"kernels('file') through sqlite-utils: {len(got)} rows vs {len(want)}")

# the pitfall: the trace opened above is not open in the next call
su("memory", "--load-extension=" + so, "SELECT trace_open('%s')" % TRACE)
got = su("memory", "--load-extension=" + so, "SELECT count(*) AS n FROM gpu_timeline")
check(got == [{"n": 0}], f"a second call has no trace open: {got}")
got = su("memory", "--load-extension=" + so, "SELECT open_traces, message FROM tracesql_status")
check(len(got) == 1 and got[0]["open_traces"] == 0 and "sqlite-utils" in got[0]["message"],
      f"tracesql_status: {got}")

n_views = 0
with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "demo.db")
    got = su("memory", "--load-extension=" + so, "SELECT trace_export('%s', '%s') > 0 AS ok" % (TRACE, db))
    check(got == [{"ok": 1}], f"trace_export: {got}")
    for v in ["gpu_timeline", "ops_summary", "kernel_summary"]:
        rows = su("rows", db, v)  # no extension: plain tables
        live = conn.execute(f"SELECT * FROM {v} WHERE trace_id = 1")
        cols = [d[0] for d in live.description]
        want = [dict(zip(cols, r)) for r in live.fetchall()]
        check(rows == want and rows, f"sqlite-utils rows {v}: differs from the live view")
        n_views += 1
    tables = {t["table"]: t["count"] for t in su("tables", db, "--counts")}
    check(tables.get("events") == conn.execute("SELECT events FROM traces").fetchone()[0],
          f"tables --counts: events {tables.get('events')}")

if failures:
    print("sqlite-utils client: FAIL")
    for f in failures:
        print("  " + f)
    sys.exit(1)
print(f"sqlite-utils client: --load-extension, one connection per call, export read by rows/query ({n_views} views equal)")
