#!/usr/bin/env bash
# examples/html_report.sh on the demo trace: the page is self-contained (no script, no
# link, no URL but the SVG namespace), holds the charts it should (one roofline point
# per perf_roofline instance with a rate), and Debian's headless Chromium renders it
# to a screenshot that is not blank, with no console message. The checker first proves
# it can fail: a blank page is called blank, a page with a script error is caught.
# SKIPs loudly when chromium is not installed (make deps installs it).
set -u
cd "$(dirname "$0")/../.."
ext=${TSQL_EXT:-build/tracesql}
sqlite=${SQLITE3:-sqlite3}
py=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsql-html.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

page=$tmp/demo.html
TSQL_EXT=$ext SQLITE3=$sqlite examples/html_report.sh examples/demo_trace.json.gz "$page" || { echo "FAIL html_report.sh"; exit 1; }
# self-contained: nothing fetched, nothing run
if grep -Eiq '<script|<link|<iframe|<img|src=|@import|url\(' "$page"; then bad "the page loads or runs something"; fi
urls=$(grep -Eo 'https?://[^" )]*' "$page" | sort -u | grep -v '^http://www.w3.org/2000/svg$')
[ -z "$urls" ] || bad "URLs in the page: $urls"
# the charts: breakdown, ops, kernels, roofline, collective bandwidth, timeline
nsvg=$(grep -o '<svg ' "$page" | wc -l)
[ "$nsvg" = 6 ] || bad "expected 6 charts, found $nsvg"
npts=$("$sqlite" -batch :memory: -cmd ".load $ext" \
  "SELECT trace_open('examples/demo_trace.json.gz') > 0" \
  "SELECT count(*) FROM perf_roofline WHERE flops_per_byte > 0 AND tflops_s > 0" 2>&1 | tail -n 1)
ncirc=$(grep -o '<circle ' "$page" | wc -l)
[ "$npts" = "$ncirc" ] && [ "$ncirc" -gt 50 ] || bad "roofline points: $ncirc circles for $npts instances"
grep -q 'matrix_bf16 989.5 TFLOPS/s' "$page" || bad "no matrix_bf16 roof of the H100"
grep -q '<h2>Timeline of one step: ProfilerStep#12</h2>' "$page" || bad "no step timeline"

chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
  echo "SKIP: chromium not installed (apt-get install chromium, or make deps) — the HTML report was NOT rendered"
  [ "$fail" = 0 ]; exit
fi
# render FILE PNG -> console lines on stdout (the page's console, logged by Chromium)
render() {
  local prof; prof=$(mktemp -d "$tmp/profile.XXXXXX")
  timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$prof" --window-size=1000,2600 --hide-scrollbars \
    --enable-logging=stderr --v=0 --screenshot="$2" "file://$(realpath "$1")" 2>&1 | grep ':CONSOLE' || true
}
# blank: less than 2% of the pixels drawn, or a handful of colours
blank() { # PNG -> 0 if blank
  local s; s=$("$py" tests/html/png_stats.py "$1") || return 0
  set -- $s
  [ "$3" -lt 20 ] || [ "$4" -lt 50 ]
}
# the checker can fail
printf '<!DOCTYPE html><html><body></body></html>' > "$tmp/blank.html"
printf '<!DOCTYPE html><html><body><p>x</p><script>no_such_function();</script></body></html>' > "$tmp/error.html"
render "$tmp/blank.html" "$tmp/blank.png" >/dev/null
blank "$tmp/blank.png" || bad "self-test: a blank page was not called blank"
[ -n "$(render "$tmp/error.html" "$tmp/error.png")" ] || bad "self-test: a script error was not seen"
# the report
console=$(render "$page" "$tmp/demo.png")
[ -s "$tmp/demo.png" ] || bad "no screenshot"
[ -z "$console" ] || bad "console messages: $console"
if blank "$tmp/demo.png"; then bad "the screenshot is blank: $("$py" tests/html/png_stats.py "$tmp/demo.png")"; fi
[ -n "${TSQL_HTML_KEEP:-}" ] && cp "$tmp/demo.png" "$page" "$TSQL_HTML_KEEP"/
[ "$fail" = 0 ] && echo "html report: self-contained, $nsvg charts, $ncirc roofline points; rendered by $("$chrome" --version 2>/dev/null | cut -d' ' -f1-2): not blank, no console messages"
[ "$fail" = 0 ]
