"""Python's sqlite3 (Debian's /usr/bin/python3) as a tracesql client, and pandas.

Loads the extension with enable_load_extension, opens the demo trace, reads the views;
checks that the values equal those of the exported file read by a second connection
WITHOUT the extension (exact doubles, same order), that pandas.read_sql gives the same
frame when pandas is installed, and that a fresh connection sees no trace and says so
in tracesql_status. Prints one line; exits 1 with details on a difference.
  python3 tests/clients/python_client.py build/tracesql
"""
import os
import sqlite3
import sys
import tempfile

EXT = sys.argv[1] if len(sys.argv) > 1 else "build/tracesql"
TRACE = "examples/demo_trace.json.gz"
VIEWS = ["gpu_timeline", "ops_summary", "ops_unique_args", "unified_perf_summary", "kernel_summary"]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def connect_with_extension():
    conn = sqlite3.connect(":memory:")
    if not hasattr(conn, "enable_load_extension"):
        sys.exit("FAIL: this Python's sqlite3 was built without extension loading "
                 "(docs/clients/python.md): use Debian's /usr/bin/python3")
    conn.enable_load_extension(True)
    conn.load_extension(EXT)
    conn.enable_load_extension(False)  # nothing else may load code from here on
    return conn


conn = connect_with_extension()
check(conn.execute("SELECT trace_open(?, 'demo')", (TRACE,)).fetchone() == (1,), "trace_open returns 1")
live = {v: conn.execute(f"SELECT * FROM {v} WHERE trace_id = 1").fetchall() for v in VIEWS}
check(all(live[v] for v in VIEWS), "every view has rows")
types = [r[1] for r in live["gpu_timeline"]]
check(types[:2] == ["computation_time", "exposed_comm_time"] and "total_time" in types,
      f"gpu_timeline types: {types}")
total = [r for r in live["gpu_timeline"] if r[1] == "total_time"][0]
check(total[3] == 100.0, f"total_time percent is 100: {total}")

with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "demo.db")
    wrote = conn.execute("SELECT trace_export('demo', ?)", (db,)).fetchone()[0]
    check(wrote > 1000, f"rows written: {wrote}")
    # the export opened by a connection that never loads the extension
    plain = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    for v in VIEWS:
        got = plain.execute(f"SELECT * FROM {v} ORDER BY rowid").fetchall()
        check(got == live[v], f"{v}: exported rows differ from the live view ({len(got)} vs {len(live[v])} rows)")
    meta = dict(plain.execute("SELECT key, value FROM meta"))
    check(meta.get("source_path") == TRACE and meta.get("label") == "demo", f"meta: {meta}")
    try:
        import pandas as pd
    except ImportError:
        print("SKIP: pandas not installed (apt-get install python3-pandas) — read_sql NOT checked")
        pd = None
    if pd is not None:
        a = pd.read_sql("SELECT * FROM ops_summary WHERE trace_id = 1", conn)
        b = pd.read_sql("SELECT * FROM ops_summary ORDER BY rowid", plain)
        check(a.equals(b), "pandas read_sql: live and exported ops_summary frames differ")
        check(len(a) == len(live["ops_summary"]) and "name" in a.columns, "pandas frame shape")
    plain.close()

# the pitfall: another connection has its own (empty) catalog
other = connect_with_extension()
check(other.execute("SELECT count(*) FROM gpu_timeline").fetchone() == (0,), "new connection: no rows")
status = other.execute("SELECT open_traces, message FROM tracesql_status").fetchone()
check(status[0] == 0 and "trace_open" in status[1] and "trace_export" in status[1], f"status: {status}")
n = other.execute("SELECT count(*) FROM kernels(?)", (TRACE,)).fetchone()[0]
check(n == sum(1 for _ in conn.execute("SELECT 1 FROM kernels WHERE trace_id = 1")),
      "the table-valued form opens the trace on the new connection")

if failures:
    print("python client: FAIL")
    for f in failures:
        print("  " + f)
    sys.exit(1)
print(f"python client ({sys.executable}, SQLite {sqlite3.sqlite_version}"
      f"{', pandas' if 'pd' in dir() and pd is not None else ''}): "
      f"{sum(len(r) for r in live.values())} rows of {len(VIEWS)} views equal in the export")
