#!/usr/bin/env bash
# examples/compare_reports.sh on small hand-made report folders (data/), each output
# folder byte for byte against expected/: the files pandas writes when TraceLens's
# compare_perf_reports_pytorch runs on the same folders (made once with Debian's pandas;
# pandas is not needed here). Covers three reports, the split sheets, the legacy
# kernel_summary with --sheets, default tags, and the script's argument errors.
#   TSQL_EXT (default build/tracesql), SQLITE3 (default sqlite3)
set -u
cd "$(dirname "$0")/../.."
here=tests/report_compare
export TSQL_EXT=${TSQL_EXT:-build/tracesql}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsql-cmp.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL compare-script $*"; }

run() { # name, then compare_reports.sh's arguments after OUTDIR
    local name=$1
    shift
    if ! bash tools/tracesql-compare-reports "$@" > "$tmp/$name.log" 2>&1; then
        bad "$name: compare_reports.sh failed: $(head -n 3 "$tmp/$name.log")"
        return
    fi
    if diff -r "$tmp/$name" "$here/expected/$name" > "$tmp/$name.diff"; then ok
    else bad "$name: differs from pandas' output:"; head -n 20 "$tmp/$name.diff"; fi
}
run three "$tmp/three" "$here"/data/three/a "$here"/data/three/b "$here"/data/three/c
run split --names base,new "$tmp/split" "$here"/data/split/base "$here"/data/split/new
run legacy --sheets kernel_summary "$tmp/legacy" "$here"/data/legacy/old "$here"/data/legacy/cur

# argument errors: exit status 2 and the message
err() { # expected message, then arguments
    local want=$1
    shift
    out=$(bash tools/tracesql-compare-reports "$@" 2>&1)
    rc=$?
    if [ $rc = 2 ] && [ "$out" = "$want" ]; then ok; else bad "error case: got rc $rc: $out"; fi
}
d=$here/data/three
err "tracesql-compare-reports: --names has 1 names for 2 inputs" --names a "$tmp/e" "$d/a" "$d/b"
err "tracesql-compare-reports: tag 'a' is used twice: tags must be unique (use --names)" "$tmp/e" "$d/a" "$d/a"
err "tracesql-compare-reports: $d/nope: no such file or folder" "$tmp/e" "$d/a" "$d/nope"
err "tracesql-compare-reports: unknown sheet group 'foo' (gpu_timeline, ops_summary, kernel_summary, ops_all, roofline, all)" \
    --sheets foo "$tmp/e" "$d/a" "$d/b"
echo "compare-script: $pass passed, $fail failed"
[ "$fail" = 0 ]
