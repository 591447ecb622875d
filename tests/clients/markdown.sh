#!/usr/bin/env bash
# Every Markdown summary the report commands write, read by a real Markdown parser
# (tests/clients/markdown_check.py, Debian's python3-markdown): the perf report's, the
# trace diff's, the collective report's, the cross-platform comparison's summary.md;
# on the demo trace and on a copy of it whose names hold '|', a line break and a long
# text, so escaping and one-line cells are tested. The checker first proves it fails on
# a broken table, a '|' left unescaped and an empty heading. SKIPs loudly without
# python3-markdown.
set -u
cd "$(dirname "$0")/../.."
py=${PYTHON:-/usr/bin/python3}
if ! "$py" -c 'import markdown' 2>/dev/null; then
  echo "SKIP markdown: python3-markdown not installed (make deps-test) — the summaries NOT parsed"
  exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsql-md.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
# the checker can fail
mkdir "$tmp/self"
printf '# t\n\n| a | b |\n|---|---|\n| 1 | x|y |\n' > "$tmp/self/pipe.md"
printf '# t\n\n| a | b |\n|---|---|\n| 1 | long\ncell |\n' > "$tmp/self/wrap.md"
printf '# t\n\n## empty\n\n## next\n\ntext\n' > "$tmp/self/heading.md"
for f in pipe wrap heading; do
  "$py" tests/clients/markdown_check.py "$tmp/self/$f.md" > /dev/null && bad "self-test: $f.md passed"
done
# a demo trace whose names hold '|', a line break and a long text
"$py" - examples/demo_trace.json.gz "$tmp/odd.json.gz" <<'PY'
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1], "rt"))
done = set()
for e in d["traceEvents"]:
    if e.get("cat") == "kernel" and "kernel" not in done:
        e["name"] = "odd|kernel<a|b>\nsecond line " + "x" * 120
        done.add("kernel")
    elif e.get("cat") == "cpu_op" and e.get("name") == "aten::mm":
        e["name"] = "aten::mm|odd"
json.dump(d, gzip.open(sys.argv[2], "wt"))
PY
demo=examples/demo_trace.json.gz
odd=$tmp/odd.json.gz
for t in demo odd; do
  src=${!t}
  tools/tracesql-perf-report "$src" > "$tmp/perf_$t.md" || bad "perf summary of $t"
  tools/tracesql-diff-report tests/data/diff/base.json tests/data/diff/inserted.json > "$tmp/diff_base.md" || bad "diff summary"
  tools/tracesql-diff-report "$demo" "$src" > "$tmp/diff_$t.md" || bad "diff summary of $t"
  tools/tracesql-collective-report "$src" > "$tmp/coll_$t.md" || bad "collective summary of $t"
  tools/tracesql-compare-platforms "$demo" "$src" "$tmp/cmp_$t" > /dev/null || bad "comparison of $t"
done
grep -q 'aten::mm\\|odd' "$tmp/perf_odd.md" || bad "the '|' of aten::mm|odd is not escaped in the perf summary"
"$py" tests/clients/markdown_check.py "$tmp"/*.md "$tmp"/cmp_*/summary.md > "$tmp/check.log" || { cat "$tmp/check.log"; bad "a summary is not valid Markdown"; }
[ "$fail" = 0 ] && echo "markdown: $(grep -c '^ok' "$tmp/check.log") summaries parsed by python3-markdown: every table line a row, every row its column count, no empty heading; the checker fails on a broken table"
[ "$fail" = 0 ]
