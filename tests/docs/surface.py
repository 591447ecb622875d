"""The extension's SQL surface, read from a live connection.

Shared by the docs checker (tests/docs/check_docs.py) and the surface pin
(tests/sql/surface/check_surface.py). Needs a Python whose sqlite3 module allows
loading extensions (Debian's /usr/bin/python3 does; pyenv builds often do not).
"""
import sqlite3
import sys


def connect(ext):
    con = sqlite3.connect(":memory:")
    if not hasattr(con, "enable_load_extension"):
        sys.exit("surface: this python's sqlite3 cannot load extensions; "
                 "run it with /usr/bin/python3 (PYTHON=...)")
    con.enable_load_extension(True)
    con.load_extension(ext)
    return con


def read(ext):
    """{'modules', 'views', 'tables': {name: [(column, decl_type, hidden)]},
    'functions': {name: sorted nargs}} of what loading `ext` adds to a plain
    connection (SQLite's own modules and functions subtracted)."""
    plain = sqlite3.connect(":memory:")
    base_mods = {r[0] for r in plain.execute("SELECT name FROM pragma_module_list")}
    base_funcs = {(r[0], r[1]) for r in plain.execute(
        "SELECT name, narg FROM pragma_function_list")}
    con = connect(ext)

    def columns(name):
        return [(r[0], r[1], r[2]) for r in con.execute(
            "SELECT name, type, hidden FROM pragma_table_xinfo(?)", (name,))]

    mods = sorted({r[0] for r in con.execute("SELECT name FROM pragma_module_list")}
                  - base_mods)
    # names starting with '_' are private to their sql/ area (docs/architecture.md,
    # "sql/: the views"): not part of the surface
    temp = list(con.execute(
        "SELECT type, name FROM sqlite_temp_master WHERE type IN ('view', 'table') "
        "AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY name"))
    funcs = {}
    for name, narg in con.execute("SELECT name, narg FROM pragma_function_list"):
        if (name, narg) not in base_funcs:
            funcs.setdefault(name, set()).add(narg)
    return {
        "modules": {m: columns(m) for m in mods},
        "views": {n: columns(n) for t, n in temp if t == "view"},
        "tables": {n: columns(n) for t, n in temp if t == "table"},
        "functions": {f: sorted(n) for f, n in sorted(funcs.items())},
    }


# traces whose values the docs checker compares with the documented column types
SAMPLE_TRACES = ["examples/demo_trace.json.gz", "tests/data/tree_rules.json",
                 "tests/sql/collectives/coll.json"]


# objects that need arguments beyond the trace: what they are read with (the first two
# sample traces as a pair)
OBJECT_ARGS = {"tree_diff": "(1, 2)", "tree_diff_stats": "(1, 2)",
               "hta_cp_path": " WHERE annotation = ''"}  # the whole trace: sample traces have no step


def observed_types(ext, objects, traces=SAMPLE_TRACES):
    """{object: {column: {'INTEGER', 'REAL', 'TEXT', 'BLOB'}}} over the rows the
    objects have with `traces` open (NULLs left out)."""
    con = connect(ext)
    for p in traces:
        con.execute("SELECT trace_open(?)", (p,))
    con.execute("INSERT INTO diff_params VALUES (1, 2)")  # the diff views' pair
    out = {}
    for obj, cols in objects.items():
        seen = out.setdefault(obj, {})
        shown = [col for col, _, hidden in cols if not hidden]
        if not shown:
            continue
        # one scan per object (a view may be costly to compute), typeof of every column
        q = 'SELECT DISTINCT %s FROM "%s"%s' % (
            ", ".join('upper(typeof("%s"))' % c.replace('"', '""') for c in shown),
            obj.replace('"', '""'), OBJECT_ARGS.get(obj, ""))
        for col in shown:
            seen[col] = set()
        for row in con.execute(q):
            for col, t in zip(shown, row):
                if t != "NULL":
                    seen[col].add(t)
    return out
