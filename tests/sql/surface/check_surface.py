"""Surface pin: the extension's modules, functions (with their argument counts),
TEMP views and TEMP tables must equal the lists committed beside this file, so that
anything that disappears (or appears without being reviewed) fails.

    python3 tests/sql/surface/check_surface.py [--lists DIR] [EXT]
                                     (EXT default build/tracesql; DIR default: here)
    TSQL_UPDATE=1 ...    rewrite the lists instead (review the diff before committing)

Prints `surface: N passed, M failed`.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "docs"))
import surface  # noqa: E402


def lists(surf):
    return {
        "modules.txt": sorted(surf["modules"]),
        "functions.txt": sorted("%s/%d" % (f, n) for f, ns in surf["functions"].items()
                                for n in ns),
        "views.txt": sorted(surf["views"]),
        "tables.txt": sorted(surf["tables"]),
    }


def main():
    args = sys.argv[1:]
    lists_dir = HERE
    if len(args) >= 2 and args[0] == "--lists":   # another copy of the lists (selftest)
        lists_dir, args = args[1], args[2:]
    ext = args[0] if args else "build/tracesql"
    got = lists(surface.read(os.path.abspath(ext)))
    passed, failed = 0, 0
    for fn, names in got.items():
        path = os.path.join(lists_dir, fn)
        if os.environ.get("TSQL_UPDATE") == "1":
            with open(path, "w") as f:
                f.write("".join(n + "\n" for n in names))
            print("updated", os.path.relpath(path))
            continue
        with open(path) as f:
            want = [line.strip() for line in f if line.strip()]
        for n in sorted(set(want) - set(names)):
            failed += 1
            print("FAIL %s: %s disappeared" % (fn, n))
        for n in sorted(set(names) - set(want)):
            failed += 1
            print("FAIL %s: %s is new: document it, then add it to the list "
                  "(TSQL_UPDATE=1)" % (fn, n))
        passed += len(set(want) & set(names))
    print("surface: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
