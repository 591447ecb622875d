"""Every function and table of the extension, reached from a database someone else wrote.

    /usr/bin/python3 tests/sql/surface/hostile.py [EXT]     (EXT default build/tracesql)

The names come from pragma_function_list and pragma_module_list (what the extension adds
to a bare connection), so nothing registered can be left out. Each one must be named in
exactly one class of docs/reliability.md ("Risk classes"), and for each one, from a view
and from a trigger of an ATTACHed database, with trusted_schema ON and OFF:

    top-level only   refused ("unsafe use of ...") in all four cases;
    trusted only     refused with trusted_schema OFF, allowed with it ON;
    state, pure      allowed in all four cases.

"Allowed" means SQLite ran the call: it may still fail on its (NULL) arguments, never
with "unsafe use". The function flags SQLite reports must match the class as well.
Then the issue's reproducers run in the sqlite3 shell (writefile through query_cells).
Prints `hostile-surface: N passed, M failed`.
"""
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
DOC = os.path.join(ROOT, "docs", "reliability.md")
CLASSES = {"top-level only": "top", "trusted schema only": "trusted",
           "connection state": "state", "pure": "pure"}
DIRECTONLY, INNOCUOUS, DETERMINISTIC = 0x80000, 0x200000, 0x800

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL", what)


def doc_classes():
    """name -> class, from the table under '### Risk classes' in docs/reliability.md"""
    text = open(DOC, encoding="utf-8").read()
    sec = text.split("### Risk classes", 1)[1].split("\n#", 1)[0]
    out = {}
    for line in sec.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or cells[0] not in CLASSES:
            continue
        for name in re.findall(r"`([a-z_0-9]+)`", cells[-1]):
            check(name not in out, "%s is in two classes of docs/reliability.md" % name)
            out[name] = CLASSES[cells[0]]
    return out


def connect(ext=None):
    db = sqlite3.connect(":memory:", isolation_level=None)
    if ext:
        db.enable_load_extension(True)
        db.load_extension(ext)
    return db


def surface(ext):
    q_fn = "SELECT name, narg, flags FROM pragma_function_list"
    q_mod = "SELECT name FROM pragma_module_list"
    bare = connect()
    base_fn = {(n, a) for n, a, _ in bare.execute(q_fn)}
    base_mod = {n for (n,) in bare.execute(q_mod)}
    db = connect(ext)
    fns = {}
    for n, a, f in db.execute(q_fn):
        if (n, a) not in base_fn:
            fns[(n, a)] = f
    mods = sorted(n for (n,) in db.execute(q_mod) if n not in base_mod)
    return fns, mods


def flags_ok(cls, f):
    if cls == "top":
        return f & DIRECTONLY and not f & INNOCUOUS
    if cls == "trusted":
        return not f & (DIRECTONLY | INNOCUOUS)
    if cls == "state":
        return f & INNOCUOUS and not f & DIRECTONLY
    return f & INNOCUOUS and f & DETERMINISTIC and not f & DIRECTONLY


def main():
    ext = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "tracesql"))
    classes = doc_classes()
    fns, mods = surface(ext)
    fn_names = {n for n, _ in fns}
    for name in sorted(fn_names | set(mods)):
        check(name in classes, "%s is registered but in no class of docs/reliability.md "
              "(### Risk classes)" % name)
    for name in sorted(set(classes) - fn_names - set(mods)):
        check(False, "%s is classed in docs/reliability.md but not registered" % name)
    for (n, a), f in sorted(fns.items()):
        if n in classes:
            check(flags_ok(classes[n], f), "%s/%d: flags 0x%x do not match its class %s"
                  % (n, a, f, classes[n]))

    # one call per function arity and per module, as a view and as a trigger
    calls = []   # (name, class, select statement)
    for (n, a), _ in sorted(fns.items()):
        args = ", ".join(["NULL"] * (a if a >= 0 else 1))
        calls.append((n, classes.get(n), "SELECT %s(%s)" % (n, args)))
    # a module with no table of its own name (view_cache: CREATE VIRTUAL TABLE only) is
    # reached through a table of its kind written into the hostile schema
    probe = connect(ext)
    schema_vtabs = [m for m in mods
                    if not probe.execute("SELECT count(*) FROM pragma_table_xinfo(?)", (m,)).fetchone()[0]]
    probe.close()
    for m in mods:
        calls.append((m, classes.get(m), "SELECT * FROM %s" % (("vt_" + m) if m in schema_vtabs else m)))

    tmp = tempfile.mkdtemp(prefix="tsql-hostile-")
    try:
        hostile = os.path.join(tmp, "hostile.db")
        mk = connect(ext)   # writes the schema; its views are not run here
        mk.execute("ATTACH ? AS h", (hostile,))
        for i, (_, _, sel) in enumerate(calls):
            mk.execute("CREATE VIEW h.v%d AS %s" % (i, sel))
            mk.execute("CREATE TABLE h.log%d(x)" % i)
            mk.execute("CREATE TRIGGER h.t%d AFTER INSERT ON log%d BEGIN %s; END" % (i, i, sel))
        mk.close()
        if schema_vtabs:
            raw = connect()   # without the extension: the table's schema text only
            raw.execute("ATTACH ? AS h", (hostile,))
            raw.execute("PRAGMA h.writable_schema = ON")
            for m in schema_vtabs:
                raw.execute("INSERT INTO h.sqlite_master VALUES ('table', ?, ?, 0, ?)",
                            ("vt_" + m, "vt_" + m, "CREATE VIRTUAL TABLE vt_%s USING %s(v0, x)" % (m, m)))
            raw.execute("PRAGMA h.writable_schema = OFF")
            raw.close()
        for trusted in ("ON", "OFF"):
            db = connect(ext)
            db.execute("ATTACH ? AS h", (hostile,))
            db.execute("PRAGMA trusted_schema = %s" % trusted)
            for i, (name, cls, sel) in enumerate(calls):
                if cls is None:
                    continue
                refuse = cls == "top" or (cls == "trusted" and trusted == "OFF")
                for how, stmt in (("view", "SELECT * FROM h.v%d" % i),
                                  ("trigger", "INSERT INTO h.log%d VALUES (1)" % i)):
                    try:
                        db.execute(stmt).fetchall()
                        err = ""
                    except sqlite3.Error as e:
                        err = str(e)
                    # view_cache refuses any schema but temp when it connects
                    refused = err.startswith("unsafe use of") or "create it in temp" in err
                    check(refused == refuse, "%s (%s) from a %s, trusted_schema %s: %s"
                          % (sel, cls, how, trusted,
                             "not refused (%s)" % (err or "ran") if refuse else "refused: " + err))
            db.close()
        shell_reproducers(ext, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("hostile-surface: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


def shell(db, *sql):
    sh = os.environ.get("SQLITE3", "sqlite3")
    r = subprocess.run([sh, "-batch", db, "-cmd", ".load " + sys_ext[0]] + list(sql),
                       capture_output=True, text=True, timeout=120)
    return r.stdout + r.stderr


sys_ext = [None]


def shell_reproducers(ext, tmp):
    """issue 26's reproducers with a stock sqlite3 shell (it has writefile, load_extension)"""
    sh = os.environ.get("SQLITE3", "sqlite3")
    if not shutil.which(sh):
        check(False, "no sqlite3 shell (%s)" % sh)
        return
    sys_ext[0] = ext
    h = os.path.join(tmp, "h.db")
    pwned = os.path.join(tmp, "pwned.txt")
    schema = ("CREATE VIEW report AS SELECT * FROM query_cells('SELECT writefile(''%s'', ''x'')');"
              "CREATE VIEW r2 AS SELECT writefile('%s', 'y');"
              "CREATE VIEW kernels AS SELECT * FROM query_cells('SELECT writefile(''%s'', ''z'')');"
              "CREATE VIEW specs AS SELECT * FROM gpu_specs;"
              "CREATE VIEW cmp AS SELECT * FROM compare_ops('%s', '%s');"
              "CREATE TABLE log(x);"
              "CREATE TRIGGER t AFTER INSERT ON log BEGIN DELETE FROM gpu_specs; END;"
              % (pwned, pwned, pwned, os.path.join(ROOT, "tests/data/tree_rules.json"),
                 os.path.join(ROOT, "tests/data/tree_rules.json")))
    subprocess.run([sh, "-batch", h, schema], check=True, capture_output=True)
    for q in ("SELECT * FROM report", "SELECT * FROM r2", "SELECT * FROM kernels"):
        out = shell(h, q)
        check("unsafe use of" in out, "shell, main database: %s: %s" % (q, out.strip()))
        out = shell(":memory:", "ATTACH '%s' AS x" % h, q.replace("FROM ", "FROM x."))
        check("unsafe use of" in out, "shell, attached: %s: %s" % (q, out.strip()))
    check(not os.path.exists(pwned), "the hostile views wrote %s" % pwned)
    out = shell(h, "SELECT * FROM cmp")
    check('unsafe use of virtual table "compare_ops"' in out, "a view opens traces through compare_ops: " + out)
    out = shell(h, "PRAGMA trusted_schema = OFF", "SELECT count(*) FROM specs")
    check('unsafe use of virtual table "gpu_specs"' in out, "gpu_specs read from a view with trusted_schema OFF: " + out)
    out = shell(h, "PRAGMA trusted_schema = OFF", "INSERT INTO log VALUES (1)", "SELECT count(*) > 0 FROM gpu_specs")
    check('unsafe use of virtual table "gpu_specs"' in out, "a trigger rewrote gpu_specs with trusted_schema OFF: " + out)

if __name__ == "__main__":
    main()
