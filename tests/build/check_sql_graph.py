#!/usr/bin/env python3
"""check_sql_graph.py — the rules of sql/'s layered graph (make test-layout).

Every sql/<area>/<name>.sql file starts with a header (docs/architecture.md, "sql/: the
views"):

    -- module: <area>.<name>                  the file's path, '/' as '.', without .sql
    -- requires: <module>, <module>, ...      every module whose tables or views it reads
                                              (optional; may be repeated)

and sql/layers.txt gives each area its layer. The checker reads every file, finds the
tables and views each one creates (CREATE [TEMP] VIEW|TABLE) and the names of those it
reads (every identifier of its SQL text, comments and string literals removed, that is a
name created by another file and not a CTE of the statement), and fails when:

  - a header is missing, or its module is not the file's path;
  - a module's area has no layer in sql/layers.txt;
  - a file reads a name of a module it does not require (declarations are direct: a
    module read through another one is not declared by it);
  - a file requires a module it does not read, or a module that does not exist;
  - a file reads (or requires) a module of a higher layer, or a module of another area
    of the same layer (areas of one layer are peers: they share only lower layers);
  - a file reads a private name (one that starts with '_') of another area;
  - a name is created by two files;
  - the requires form a cycle.

Usage: check_sql_graph.py [SQLDIR]      (default: the repository's sql/)
       check_sql_graph.py --order [SQLDIR]   prints the load order (what sql/order.awk
                                             computes; the self-test compares both)
Prints one line per violation and "sql graph: N files, M failed".
"""
import os
import re
import sys

HEADER_MODULE = re.compile(r"^--\s*module:\s*(\S+)\s*$")
HEADER_REQUIRES = re.compile(r"^--\s*requires:\s*(.*?)\s*$")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")


def strip_sql(text):
    """Tokens of an SQL text: identifiers (lowercase), punctuation; comments and string
    literals dropped, quoted identifiers unquoted."""
    toks = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "-" and text.startswith("--", i):
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
        elif c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c == "'":
            j = i + 1
            while j < n:
                if text[j] == "'":
                    if j + 1 < n and text[j + 1] == "'":
                        j += 2
                        continue
                    break
                j += 1
            i = j + 1
        elif c in "\"`[":
            close = "]" if c == "[" else c
            j = text.find(close, i + 1)
            j = n if j < 0 else j
            toks.append(text[i + 1:j].lower())
            i = j + 1
        elif c.isalpha() or c == "_":
            m = IDENT.match(text, i)
            toks.append(m.group(0).lower())
            i = m.end()
        elif c.isdigit():
            m = re.compile(r"[0-9A-Za-z_.]+").match(text, i)
            i = m.end()
        elif c.isspace():
            i += 1
        else:
            toks.append(c)
            i += 1
    return toks


def statements(toks):
    cur = []
    for t in toks:
        if t == ";":
            if cur:
                yield cur
            cur = []
        else:
            cur.append(t)
    if cur:
        yield cur


def created(stmt):
    """(kind, name) when the statement is CREATE [TEMP] [VIRTUAL] VIEW|TABLE [IF NOT EXISTS]
    [schema.]name."""
    if len(stmt) < 3 or stmt[0] != "create":
        return None
    i = 1
    if stmt[i] in ("temp", "temporary"):
        i += 1
    if i < len(stmt) and stmt[i] == "virtual":
        i += 1
    if i >= len(stmt) or stmt[i] not in ("view", "table"):
        return None
    kind = stmt[i]
    i += 1
    if stmt[i:i + 3] == ["if", "not", "exists"]:
        i += 3
    if i + 2 < len(stmt) and stmt[i + 1] == ".":
        i += 2
    return kind, stmt[i]


def cte_names(stmt):
    """Names a statement defines as common table expressions (name [(cols)] AS [NOT]
    [MATERIALIZED] ( ...), after WITH, WITH RECURSIVE or a comma)."""
    names = set()
    for i, t in enumerate(stmt):
        if i == 0 or stmt[i - 1] not in ("with", "recursive", ","):
            continue
        j = i + 1
        if j < len(stmt) and stmt[j] == "(":
            depth = 0
            while j < len(stmt):
                depth += {"(": 1, ")": -1}.get(stmt[j], 0)
                j += 1
                if depth == 0:
                    break
        if j < len(stmt) and stmt[j] == "as":
            k = j + 1
            while k < len(stmt) and stmt[k] in ("not", "materialized"):
                k += 1
            if k < len(stmt) and stmt[k] == "(":
                names.add(t)
    return names


class SqlFile:
    def __init__(self, root, path):
        self.path = path
        self.rel = os.path.relpath(path, root).replace(os.sep, "/")
        self.area = self.rel.split("/")[0]
        self.expected_module = self.rel[:-len(".sql")].replace("/", ".")
        self.module = None
        self.requires = []
        self.problems = []
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for line in text.splitlines():
            if not line.startswith("--"):
                break
            m = HEADER_MODULE.match(line)
            if m:
                self.module = m.group(1)
            m = HEADER_REQUIRES.match(line)
            if m:
                self.requires += [r.strip() for r in m.group(1).split(",") if r.strip()]
        self.stmts = list(statements(strip_sql(text)))
        self.creates = []
        for s in self.stmts:
            c = created(s)
            if c:
                self.creates.append(c[1])

    def reads(self, known):
        """{name: first statement index} of known names this file reads."""
        own = set(self.creates)
        out = {}
        for si, s in enumerate(self.stmts):
            ctes = cte_names(s)
            c = created(s)
            for i, t in enumerate(s):
                if t not in known or t in own or t in ctes:
                    continue
                if c and i < 6 and t == c[1]:
                    continue
                if i > 0 and s[i - 1] == ".":          # alias.column
                    continue
                out.setdefault(t, si)
        return out


def read_layers(sqldir):
    layers = {}
    path = os.path.join(sqldir, "layers.txt")
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            layer, area = line.split()
            layers[area] = int(layer)
    return layers


def load(sqldir):
    files = []
    for d, _, names in os.walk(sqldir):
        for n in names:
            if n.endswith(".sql"):
                files.append(SqlFile(sqldir, os.path.join(d, n)))
    files.sort(key=lambda f: f.rel)
    return files


def order(files, layers):
    """The load order: Kahn's topological sort; among the files whose requires are all
    loaded, the lowest (layer, module) first. Returns (ordered, cycle_members)."""
    by_mod = {f.module: f for f in files if f.module}
    pending = {f.module: {r for r in f.requires if r in by_mod} for f in files if f.module}
    done, out = set(), []
    while pending:
        ready = [m for m, reqs in pending.items() if reqs <= done]
        if not ready:
            return out, sorted(pending)
        m = min(ready, key=lambda m: (layers.get(by_mod[m].area, 1 << 30), m))
        out.append(by_mod[m])
        done.add(m)
        del pending[m]
    return out, []


def check(sqldir):
    layers = read_layers(sqldir)
    files = load(sqldir)
    fail = []
    owner = {}
    for f in files:
        if f.module is None:
            fail.append(f"{f.rel}: no '-- module: {f.expected_module}' header")
            f.module = f.expected_module
        elif f.module != f.expected_module:
            fail.append(f"{f.rel}: module '{f.module}' is not the file's path ('{f.expected_module}')")
        if f.area not in layers:
            fail.append(f"{f.rel}: area '{f.area}' has no layer in sql/layers.txt")
        for name in f.creates:
            if name in owner:
                fail.append(f"{f.rel}: creates {name}, already created by {owner[name].rel}")
            else:
                owner[name] = f
    by_mod = {f.module: f for f in files}
    for f in files:
        lf = layers.get(f.area, 0)
        reads = f.reads(owner)
        used = set()
        for name in sorted(reads, key=lambda n: (reads[n], n)):
            g = owner[name]
            used.add(g.module)
            lg = layers.get(g.area, 0)
            where = f"{f.rel}: reads {name} ({g.module})"
            if g.module not in f.requires:
                fail.append(f"{where}, not in its requires")
            if lg > lf:
                fail.append(f"{where}, a higher layer ({g.area}: {lg} > {f.area}: {lf})")
            elif lg == lf and g.area != f.area:
                fail.append(f"{where}, another area of the same layer ({g.area}, layer {lg})")
            if name.startswith("_") and g.area != f.area:
                fail.append(f"{where}, private to sql/{g.area}/")
        for r in f.requires:
            if r not in by_mod:
                fail.append(f"{f.rel}: requires {r}, which no file declares")
            elif r not in used:
                fail.append(f"{f.rel}: requires {r} but reads none of its names")
    _, cycle = order(files, layers)
    if cycle:
        fail.append("the requires form a cycle among: " + ", ".join(cycle))
    return files, fail


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    here = os.path.dirname(os.path.abspath(__file__))
    sqldir = args[0] if args else os.path.join(here, "..", "..", "sql")
    if "--order" in argv:
        files = load(sqldir)
        out, cycle = order(files, read_layers(sqldir))
        if cycle:
            print("cycle: " + ", ".join(cycle), file=sys.stderr)
            return 1
        for f in out:
            print(f.rel)
        return 0
    files, fail = check(sqldir)
    for line in fail:
        print("FAIL sql graph: " + line)
    print(f"sql graph: {len(files)} files, {len(fail)} failed")
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
