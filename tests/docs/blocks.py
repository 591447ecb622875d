"""Run one ```sql block of the docs the way a reader would.

Each block runs in a fresh `sqlite3 :memory:` shell (list mode, no headers: what
`sqlite3 -cmd '.load build/tracesql'` prints) with the extension loaded and the bundled
demo trace already open as trace 1, label `demo`. The working directory is a scratch
directory holding links to the project's examples/ and tests/, so paths such as
`examples/demo_trace.json.gz` or `tests/data/tree_rules.json` work and files a block
writes (`trace_export`) land in the scratch directory. Any error fails the block; a
```text block right after it is its expected output (trailing spaces ignored).
"""
import os
import shutil
import subprocess
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SQLITE3 = os.environ.get("SQLITE3", "sqlite3")


def _norm(text):
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n"))


def run(ext, code, expected=None, timeout=120):
    """None if the block ran (and printed `expected`, when given), else why not."""
    scratch = tempfile.mkdtemp(prefix="tsql_docs_")
    try:
        for d in ("examples", "tests"):
            os.symlink(os.path.join(ROOT, d), os.path.join(scratch, d))
        script = (".load %s\n.output /dev/null\n"
                  "SELECT trace_open('examples/demo_trace.json.gz', 'demo');\n"
                  ".output stdout\n%s\n" % (ext, code))
        p = subprocess.run([SQLITE3, "-bail", "-batch", ":memory:"], input=script,
                           capture_output=True, text=True, cwd=scratch, timeout=timeout)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if p.returncode != 0 or p.stderr.strip():
        return "error: " + (p.stderr.strip() or "exit %d" % p.returncode).split("\n")[0]
    if expected is not None and _norm(p.stdout) != _norm(expected):
        got = _norm(p.stdout).split("\n")
        want = _norm(expected).split("\n")
        for k in range(max(len(got), len(want))):
            g = got[k] if k < len(got) else "<none>"
            w = want[k] if k < len(want) else "<none>"
            if g != w:
                return "output line %d: got %r, documented %r" % (k + 1, g, w)
    return None
