"""README.md runs verbatim: every ```sh block, line by line, as a reader types it.

    python3 tests/docs/check_readme_tour.py

Each command line runs with bash in a scratch directory that links the project's
build/, examples/, tools/, tests/, docs/ and Makefile (so `out/` lands there); `make` lines
run in the project itself. A `sqlite3` line that reads no input of its own (no query
argument, no `<`) is an interactive session: the ```sql block after it is typed into
it. `make test` is skipped (it is what runs this). Every command must exit 0 with
nothing on stderr, and every ```text block that follows prose in README must appear
verbatim in the output of the commands before it. Prints one line; exit 1 on failure.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mdparse  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def interactive_sqlite(line):
    words = shlex.split(line)
    if not words or os.path.basename(words[0]) != "sqlite3" or "<" in line:
        return False
    rest, i = words[1:], 0
    while i < len(rest):  # options; -cmd takes a value
        if rest[i] == "-cmd":
            i += 2
        elif rest[i].startswith("-"):
            i += 1
        else:
            break
    return len(rest) - i <= 1  # at most a database file: no query


def main():
    doc = mdparse.Doc("README.md") if os.getcwd() == ROOT else None
    os.chdir(ROOT)
    doc = doc or mdparse.Doc("README.md")
    scratch = tempfile.mkdtemp(prefix="tsql_readme_")
    failures, ran, skipped, output = [], 0, [], ""
    try:
        for d in ("build", "examples", "tools", "tests", "docs", "Makefile"):
            os.symlink(os.path.join(ROOT, d), os.path.join(scratch, d))
        blocks = doc.blocks
        for k, b in enumerate(blocks):
            if b.lang == "text":
                between = doc.lines[blocks[k - 1].end:b.line - 1] if k else []
                if any(s.strip() for s in between):  # shown output, after prose
                    want = "\n".join(ln.rstrip() for ln in b.code.strip("\n").split("\n"))
                    got = "\n".join(ln.rstrip() for ln in output.split("\n"))
                    if want not in got:
                        failures.append("README.md:%d: the ```text block is not in the output" % b.line)
                continue
            if b.lang != "sh":
                continue
            for line in b.code.split("\n"):
                cmd = re.sub(r"\s+#.*$", "", line).strip()
                if not cmd or cmd.startswith("#"):
                    continue
                if re.match(r"make\s+test\b", cmd):
                    skipped.append(cmd)
                    continue
                stdin = None
                if interactive_sqlite(cmd):
                    nxt = blocks[k + 1] if k + 1 < len(blocks) else None
                    if not nxt or nxt.lang != "sql":
                        failures.append("README.md:%d: `%s` waits for input, and no ```sql block follows" % (b.line, cmd))
                        continue
                    stdin = nxt.code
                cwd = ROOT if cmd.startswith("make") else scratch
                p = subprocess.run(["bash", "-c", cmd], input=stdin or "", capture_output=True,
                                   text=True, cwd=cwd, timeout=300)
                ran += 1
                output += p.stdout
                if p.returncode != 0 or p.stderr.strip():
                    failures.append("README.md:%d: `%s`: exit %d: %s" % (
                        b.line, cmd, p.returncode, (p.stderr.strip() or "").split("\n")[0]))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for f in failures:
        print("FAIL " + f)
    print("readme: %d commands ran verbatim (%s skipped: it runs this), %d failed"
          % (ran, ", ".join("`%s`" % s for s in skipped) or "none", len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
