"""Docs checker: the documentation must describe exactly the surface the extension has.

    python3 tests/docs/check_docs.py [EXT]        (EXT default build/tracesql)

Checks, each counted as one pass or one failure:
  objects    every module, TEMP view and TEMP table the extension creates is named by a
             heading of docs/*.md with a column table under it (header `column | type |
             unit | meaning`) listing every column, hidden ones as parameters (type
             HIDDEN); a unit the column's name promises (NAME_UNITS: _us µs, _mb MiB,
             (%) %, ...) is the documented one; every type a column holds on the test
             traces is documented; a column table listing a column the object does not
             have, or under a heading naming nothing that exists, fails.
             A family heading (`roofline_<sheet>`) covers every object its pattern
             matches that has no heading of its own.
  functions  every SQL function is named by a heading (`name(` or the bare name) whose
             section has a runnable ```sql block calling it, and is listed in the index
             table of docs/functions.md; a heading or index entry naming `x(` that is
             not a function fails.
  files      every file under core/, ext/ and sql/ appears in docs/architecture.md, and
             every core/ ext/ sql/ tests/ mk/ examples/ docs/ path written in docs/*.md
             or README.md exists.
  standalone no page of docs/ nor README.md cites ../shared or a § of a document outside
             the repository.
  blocks     every ```sql block of docs/**/*.md and README.md runs (tests/docs/blocks.py).
Prints `docs: N passed, M failed`; exit status 1 on any failure.
"""
import argparse
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blocks  # noqa: E402
import mdparse  # noqa: E402
import surface  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# one unit convention: what a column name promises (first matching rule wins)
NAME_UNITS = [(re.compile(rx, re.I), unit) for rx, unit in [
    (r"count$", "-"),
    (r"percent|^pct_|\(%\)", "%"),
    (r"flops_per_byte|flops/byte", "FLOP/byte"),
    (r"tflops_s|tflops/s", "TFLOPS/s"),
    (r"(^|_)tb_s($|_)|tb/s", "TB/s"),
    (r"gflops", "GFLOP"),
    (r"_gibs($|_)", "GiB/s"),
    (r"_gbps($|_)", "GB/s"),
    (r"(^|_)us($|_)|\(µs\)", "µs"),
    (r"(^|_)ms($|_)|time ms", "ms"),
    (r"(^|_)ns($|_)", "ns"),
    (r"(^|_)mb($|_)|\(mb\)", "MiB"),
    (r"(^|_)gb($|_)", "GB"),
    (r"(^|_)bytes($|_)", "bytes"),
    (r"(^|_)seconds($|_)", "s"),
]]
UNITS = {"-", "µs", "ms", "ns", "s", "%", "bytes", "MiB", "GB", "GB/s", "GiB/s",
         "TB/s", "TFLOPS", "TFLOPS/s", "GFLOP", "FLOP", "FLOP/byte"}
TYPES = {"INTEGER", "REAL", "TEXT", "HIDDEN", "any"}


class Result:
    def __init__(self):
        self.passed = 0
        self.failed = []

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed.append(what)
        return ok


def family_regex(name):
    """`roofline_<sheet>` -> a regex matching roofline_gemm, ..."""
    parts = re.split(r"<[^>]*>", name)
    return re.compile("^" + r"\w+".join(re.escape(p) for p in parts) + "$")


def check_objects(res, surf, docs, seen):
    objects = {}
    for kind in ("modules", "views", "tables"):
        objects.update(surf[kind])
    exact = {}   # object -> [(doc, heading, rows)]
    family = []  # (regex, doc, heading, rows)
    for doc in docs:
        for h in doc.headings:
            rows = h.column_rows
            if rows is None:
                continue
            names = h.object_names
            where = "%s:%d `%s`" % (doc.rel, h.line, h.text)
            if not res.check(bool(names), "%s: a column table under a heading that names "
                             "no table or view" % where):
                continue
            for n in names:
                if "<" in n:
                    rx = family_regex(n)
                    hits = [o for o in objects if rx.match(o)]
                    if res.check(bool(hits), "%s: `%s` matches no table or view (stale)"
                                 % (where, n)):
                        family.append((rx, h, doc, rows))
                elif res.check(n in objects, "%s: `%s` is not a table or view of the "
                               "extension (stale)" % (where, n)):
                    exact.setdefault(n, []).append((h, doc, rows))
    covered_by = {}
    for obj in objects:
        secs = exact.get(obj) or [(h, d, r) for rx, h, d, r in family if rx.match(obj)]
        covered_by[obj] = secs
        if not res.check(bool(secs), "`%s`: no heading naming it with a column table"
                         % obj):
            continue
        documented = {}
        for h, d, rows in secs:
            for row in rows:
                for c in row.names:
                    documented.setdefault(c, (row, d))
        for col, decl, hidden in objects[obj]:
            got = documented.get(col)
            if not res.check(got is not None, "`%s`.`%s`: column not documented"
                             % (obj, col)):
                continue
            row, d = got
            where = "%s:%d `%s`.`%s`" % (d.rel, row.line, obj, col)
            problems = []
            typ = row.type.replace("`", "")
            words = set(re.findall(r"[A-Za-z]+", typ)) - {"or"}
            if not words or not words <= TYPES:
                problems.append("type %r is not INTEGER/REAL/TEXT/HIDDEN/any" % row.type)
            if hidden and "HIDDEN" not in words:
                problems.append("hidden parameter column: type must say HIDDEN")
            if not hidden and "HIDDEN" in words:
                problems.append("documented HIDDEN but is a visible column")
            if decl and decl.upper() not in words and "any" not in words and not hidden:
                problems.append("declared %s, documented %r" % (decl, row.type))
            held = seen.get(obj, {}).get(col, set())
            if "any" not in words and not held <= words:
                problems.append("holds %s on the sample traces, documented %r"
                                % ("/".join(sorted(held)), row.type))
            unit = row.unit.replace("`", "").strip()
            if unit not in UNITS:
                problems.append("unit %r is not a unit of the convention (docs/schema.md)"
                                % row.unit)
            for rx, want in NAME_UNITS:
                if rx.search(col):
                    if unit != want:
                        problems.append("the name says %s, documented %r" % (want, row.unit))
                    break
            if not row.meaning.strip():
                problems.append("no meaning")
            res.check(not problems, where + ": " + "; ".join(problems))
    # stale columns: every name a column table lists must exist in what its heading covers
    for doc in docs:
        for h in doc.headings:
            if h.column_rows is None or not h.object_names:
                continue
            objs = [o for o, secs in covered_by.items() if any(s[0] is h for s in secs)]
            if not objs:
                continue
            have = set()
            for o in objs:
                have.update(c for c, _, _ in objects[o])
            for row in h.column_rows:
                for c in row.names:
                    res.check(c in have, "%s:%d: column `%s` listed under `%s` but none of "
                              "%s has it (stale)" % (doc.rel, row.line, c, h.text,
                                                     ", ".join(sorted(objs))))


def check_functions(res, surf, docs):
    funcs = surf["functions"]
    claimed = {}
    for doc in docs:
        for h in doc.headings:
            for f in h.function_calls:
                res.check(f in funcs, "%s:%d `%s`: `%s(` is not a function of the "
                          "extension (stale)" % (doc.rel, h.line, h.text, f))
            for f in h.function_calls | (h.bare_words & set(funcs)):
                claimed.setdefault(f, []).append((doc, h))
    for f in funcs:
        heads = claimed.get(f, [])
        if not res.check(bool(heads), "function %s(): no heading names it" % f):
            continue
        call = re.compile(r"(?<![\w.])%s\s*\(" % re.escape(f), re.I)
        ok = any(call.search(b.code) for d, h in heads for b in d.section_blocks(h)
                 if b.runnable)
        res.check(ok, "function %s(): no runnable ```sql example under %s" % (
            f, ", ".join("%s:%d" % (d.rel, h.line) for d, h in heads)))


def check_function_index(res, surf, docs):
    """docs/functions.md's index table (header `function`) lists every function."""
    funcs = surf["functions"]
    listed = {}
    for doc in docs:
        if os.path.basename(doc.rel) != "functions.md":
            continue
        for header, rows in doc.tables:
            if not header or header[0] != "function":
                continue
            for line, cells in rows:
                for span in re.findall(r"`([^`]+)`", cells[0]):
                    m = mdparse.CALL.match(span)
                    if m:
                        listed.setdefault(m.group(1), "%s:%d" % (doc.rel, line))
    for f in sorted(listed):
        res.check(f in funcs, "%s: `%s(` in the function index is not a function "
                  "(stale)" % (listed[f], f))
    for f in funcs:
        res.check(f in listed, "function %s(): not in the index of docs/functions.md" % f)


PATH_RX = re.compile(r"(?<![\w./-])((?:core|ext|sql|tests|mk|examples|docs)/[\w./*-]*)")


def paths_in(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        text = f.read()
    return {m.group(1).rstrip(".") for m in PATH_RX.finditer(text)}


def check_paths(res, rels):
    """Every project path a doc names exists (a glob matches something)."""
    for rel in rels:
        for p in sorted(paths_in(rel)):
            if "<" in p:
                continue
            full = os.path.join(ROOT, p)
            ok = bool(glob.glob(full, recursive=True)) if "*" in p else os.path.exists(full)
            res.check(ok, "%s: `%s` does not exist (stale)" % (rel, p))


def check_standalone(res, rels):
    """The docs stand alone: no page sends the reader to the workspace's ../shared (its
    corpus or its semantics documents) or to a numbered section (\u00a7) of a document
    that is not in the repository; provenance is cited as TraceLens or HTA themselves."""
    for rel in rels:
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            bad = [str(n) for n, line in enumerate(f, 1) if "../shared" in line or "\u00a7" in line]
        res.check(not bad, "%s: line %s cites ../shared or a \u00a7 of a document outside the repository, "
                  "which a reader cannot open: say what is needed here, cite TraceLens or HTA"
                  % (rel, ", ".join(bad)))


def check_architecture(res, rel):
    mentioned = paths_in(rel)
    for top in ("core", "ext", "sql"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for fn in files:
                p = os.path.relpath(os.path.join(dirpath, fn), ROOT)
                res.check(p in mentioned, "%s is not in %s" % (p, rel))


def read_surface(ext, cache):
    """(surface, observed column types) of ext, from `cache` when it was written for this
    very extension file (same path, size and mtime), else computed (and cached)."""
    so = ext if os.path.exists(ext) else ext + ".so"
    st = os.stat(so)
    key = [os.path.abspath(so), st.st_size, st.st_mtime_ns]
    if cache and os.path.exists(cache):
        try:
            with open(cache, encoding="utf-8") as f:
                c = json.load(f)
            if c.get("key") == key:
                return c["surface"], {o: {k: set(v) for k, v in cols.items()} for o, cols in c["seen"].items()}
        except (OSError, ValueError, KeyError):
            pass
    surf = surface.read(ext)
    objects = dict(surf["modules"], **surf["views"], **surf["tables"])
    seen = surface.observed_types(ext, objects)
    if cache:
        os.makedirs(os.path.dirname(os.path.abspath(cache)), exist_ok=True)
        with open(cache + ".tmp", "w", encoding="utf-8") as f:
            json.dump({"key": key, "surface": surf,
                       "seen": {o: {k: sorted(v) for k, v in cols.items()} for o, cols in seen.items()}}, f)
        os.replace(cache + ".tmp", cache)
    return surf, seen


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ext", nargs="?", default="build/tracesql")
    ap.add_argument("--docs", default="docs", help="folder of the *.md to check")
    ap.add_argument("--readme", default="README.md")
    ap.add_argument("--no-blocks", action="store_true", help="skip running ```sql blocks")
    ap.add_argument("--blocks-of", help="run only the ```sql blocks of the page of this file name")
    ap.add_argument("--surface-cache", help="a JSON file keeping the extension's surface and the "
                    "column types it holds, reused while the extension file is unchanged (the "
                    "selftest's cases differ only in the docs)")
    a = ap.parse_args()
    ext = os.path.abspath(a.ext)
    docs_dir, readme_path = os.path.abspath(a.docs), os.path.abspath(a.readme)
    os.chdir(ROOT)
    surf, seen = read_surface(ext, a.surface_cache)
    paths = [os.path.relpath(p, ROOT)
             for p in sorted(glob.glob(os.path.join(docs_dir, "**", "*.md"), recursive=True))]
    readme = os.path.relpath(readme_path, ROOT)
    docs = [mdparse.Doc(p) for p in paths]
    res = Result()
    check_objects(res, surf, docs, seen)
    check_functions(res, surf, docs)
    check_function_index(res, surf, docs)
    check_architecture(res, os.path.join(os.path.relpath(docs_dir, ROOT), "architecture.md"))
    check_paths(res, paths + [readme])
    check_standalone(res, paths + [readme])
    for doc in docs + [mdparse.Doc(readme)]:
        for b in doc.blocks:
            if b.lang != "sql" or a.no_blocks or (a.blocks_of and os.path.basename(doc.rel) != a.blocks_of):
                continue
            if not b.runnable:
                res.check(True, "")
                continue
            err = blocks.run(ext, b.code, b.expected)
            res.check(err is None, "%s:%d: ```sql block: %s" % (doc.rel, b.line, err))
    for f in res.failed:
        print("FAIL " + f)
    print("docs: %d passed, %d failed" % (res.passed, len(res.failed)))
    sys.exit(1 if res.failed else 0)


if __name__ == "__main__":
    main()
