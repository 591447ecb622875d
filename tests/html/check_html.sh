#!/usr/bin/env bash
# tools/tracesql-html-report on the demo trace: the page is self-contained (no script, no
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
TSQL_EXT=$ext SQLITE3=$sqlite tools/tracesql-html-report examples/demo_trace.json.gz "$page" || { echo "FAIL html_report.sh"; exit 1; }
# self-contained: nothing fetched, nothing run
if grep -Eiq '<script|<link|<iframe|<img|src=|@import|url\(' "$page"; then bad "the page loads or runs something"; fi
urls=$(grep -Eo 'https?://[^" )]*' "$page" | sort -u | grep -v '^http://www.w3.org/2000/svg$')
[ -z "$urls" ] || bad "URLs in the page: $urls"
# the charts: breakdown, ops, kernels, roofline, collective bandwidth, timeline, HTA's
# idle time and critical path
nsvg=$(grep -o '<svg ' "$page" | wc -l)
[ "$nsvg" = 8 ] || bad "expected 8 charts, found $nsvg"
# the HTA sections hold the demo's values: stream 7's idle time (hta_idle_time_breakdown)
# and the first step's critical path (hta_critical_path_summary)
grep -q '<title>stream 7 host_wait: 1810.0 µs</title>' "$page" || bad "no idle-time bar of stream 7 (host_wait 1810 µs)"
grep -q '<h2>Critical path</h2>' "$page" && grep -q '4995.0 µs over 2091 edges' "$page" ||
  bad "no critical path section of 4995 µs"
grep -q '<text x="36" y="70" class="val">cpu_bound 4995.0 µs (100.0%)</text>' "$page" || bad "no critical path legend"
npts=$("$sqlite" -batch :memory: -cmd ".load $ext" \
  "SELECT trace_open('examples/demo_trace.json.gz') > 0" \
  "SELECT count(*) FROM perf_roofline WHERE flops_per_byte > 0 AND tflops_s > 0" 2>&1 | tail -n 1)
ncirc=$(grep -o '<circle ' "$page" | wc -l)
[ "$npts" = "$ncirc" ] && [ "$ncirc" -gt 50 ] || bad "roofline points: $ncirc circles for $npts instances"
grep -q 'matrix_bf16 989.5 TFLOPS/s' "$page" || bad "no matrix_bf16 roof of the H100"
grep -q '<h2>Timeline of one step: ProfilerStep#12: the GPU work its CPU span launched</h2>' "$page" || bad "no step timeline"
grep -q '<h2>The two traces</h2>' "$page" && bad "a one-trace page with a comparison section"

# the two-trace page: one model on an H100 (baseline) and an MI300X (variant), the
# smallest pair of the conformance traces
data=${TSQL_CONFORMANCE_DATA:-../shared/conformance}
model=gaunernst_bert-small-uncased__1016001
base=$data/tracelens/h100/$model.json.gz
var=$data/tracelens/mi300/$model.json.gz
cpage=
if [ ! -r "$base" ] || [ ! -r "$var" ]; then
  echo "SKIP: $base / $var not found — the two-trace HTML page was NOT tested"
else
  cpage=$tmp/compare.html
  TSQL_EXT=$ext SQLITE3=$sqlite tools/tracesql-html-report "$base" "$var" "$cpage" || { echo "FAIL html_report.sh BASELINE VARIANT"; exit 1; }
  if grep -Eiq '<script|<link|<iframe|<img|src=|@import|url\(' "$cpage"; then bad "the two-trace page loads or runs something"; fi
  urls=$(grep -Eo 'https?://[^" )]*' "$cpage" | sort -u | grep -v '^http://www.w3.org/2000/svg$')
  [ -z "$urls" ] || bad "URLs in the two-trace page: $urls"
  # sql QUERY...: the last line of the answer, both traces open as 1 (baseline) and 2
  sql() {
    "$sqlite" -batch :memory: -cmd ".load $ext" \
      "SELECT trace_open('$base') + trace_open('$var')" "INSERT INTO diff_params VALUES (1, 2)" "$@" 2>&1
  }
  # the operation table is compare_ops, row for row: operation, counts, totals, status
  sql "SELECT operation || '|' || baseline_count || '|' || variant_count || '|' || printf('%.3f|%.3f', baseline_total_ms, variant_total_ms) || '|' || status
       FROM compare_ops(1, 2) ORDER BY abs(gap_ms) DESC, operation" | tail -n +2 > "$tmp/ops.want"
  grep -o '<tr class="op">.*' "$cpage" | sed -E 's#<tr class="op"><td>([^<]*)</td><td class="r">([^<]*)</td><td class="r">([^<]*)</td><td class="r">([^<]*)</td><td class="r">([^<]*)</td><td class="r">[^<]*</td><td class="r">[^<]*</td><td>([^<]*)</td>.*#\1|\2|\3|\4|\5|\6#' > "$tmp/ops.got"
  nops=$(sql "SELECT count(*) FROM compare_ops(1, 2)" | tail -n 1)
  [ "$nops" -gt 3 ] && [ "$(wc -l < "$tmp/ops.got")" = "$nops" ] || bad "operation rows: $(wc -l < "$tmp/ops.got") for $nops rows of compare_ops"
  diff "$tmp/ops.want" "$tmp/ops.got" > "$tmp/ops.diff" || bad "operation table differs from compare_ops: $(cat "$tmp/ops.diff")"
  [ "$(grep -o '<g class="pair">' "$cpage" | wc -l)" = "$nops" ] || bad "not one pair of bars per operation"
  nlayers=$(sql "SELECT count(*) FROM compare_layers(1, 2)" | tail -n 1)
  [ "$nlayers" = 4 ] && [ "$(grep -o '<g class="layer">' "$cpage" | wc -l)" = 4 ] || bad "layer columns: $(grep -o '<g class="layer">' "$cpage" | wc -l) for $nlayers layers"
  # the largest regression: its lowest common ancestor, name and both sides' GPU time
  top=$(sql "SELECT printf('<tr class=\"regression\"><td>regression</td><td class=\"r\">%d</td><td class=\"w\">%s</td><td class=\"r\">%.3f</td><td class=\"r\">%.3f</td>', lca, name, b, v)
             FROM (SELECT lowest_common_ancestor_id AS lca, max(lowest_common_ancestor_name) AS name,
                          max(CASE WHEN source = 'trace1' THEN busy_time END) AS b, max(CASE WHEN source = 'trace2' THEN busy_time END) AS v
                   FROM diff_stats WHERE lowest_common_ancestor_id IS NOT NULL GROUP BY 1) ORDER BY v - b DESC LIMIT 1" | tail -n 1)
  case $top in *aten::_flash_attention_forward*) ;; *) bad "the largest regression is not the flash attention: $top";; esac
  [ "$(grep -o '<tr class="regression">.*' "$cpage" | head -n 1 | cut -c1-${#top})" = "$top" ] || bad "first regression row is not $top"
  [ "$(grep -o '<tr class="regression">' "$cpage" | wc -l)" = 10 ] && [ "$(grep -o '<tr class="improvement">' "$cpage" | wc -l)" = 10 ] \
    || bad "not ten regressions and ten improvements"
  grep -q '<td>baseline</td><td class="w">[^<]*</td><td class="w">NVIDIA H100 80GB HBM3</td>' "$cpage" \
    && grep -q '<td>variant</td><td class="w">[^<]*</td><td class="w">AMD Instinct MI300X VF</td>' "$cpage" || bad "the two traces' table"
  # after the comparison, the baseline's own page, unchanged
  TSQL_EXT=$ext SQLITE3=$sqlite tools/tracesql-html-report "$base" "$tmp/base.html" || bad "html_report.sh BASELINE"
  sed -n '/^<h2>GPU time breakdown<\/h2>$/,$p' "$tmp/base.html" > "$tmp/base.tail"
  sed -n '/^<h2>GPU time breakdown<\/h2>$/,$p' "$cpage" > "$tmp/compare.tail"
  [ -s "$tmp/base.tail" ] && cmp -s "$tmp/base.tail" "$tmp/compare.tail" || bad "the baseline's sections differ from its one-trace page"
  csvg=$(grep -o '<svg ' "$cpage" | wc -l)
  [ "$csvg" = $(( $(grep -o '<svg ' "$tmp/base.html" | wc -l) + 4 )) ] || bad "expected the baseline's charts and 4 more, found $csvg"
fi

# the one-step timeline on the H100 traces (compiled, CUDA graph: their GPU-side
# ProfilerStep lasts 1 to 100 µs): it spans the step's GPU work, i.e. from the first to
# the last end of the GPU events gpu_ops gives that step, not the annotation
hopper=../shared/conformance/hopper
hpages=()
if [ -d "$hopper" ]; then
  for t in gpt2_eager gpt2_compiled gpt2_cudagraph resnet50_train llama_generate; do
    [ -f "$hopper/$t.json.gz" ] || { bad "$hopper/$t.json.gz missing"; continue; }
    TSQL_EXT=$ext SQLITE3=$sqlite tools/tracesql-html-report "$hopper/$t.json.gz" "$tmp/$t.html" > /dev/null || { bad "$t page"; continue; }
    hpages+=("$t")
    got=$(grep -o 'class="tick">[0-9.]* ms</text>' "$tmp/$t.html" | tail -n 1 | grep -o '[0-9.]*')
    want=$("$sqlite" -batch :memory: -cmd ".load $ext" "SELECT trace_open('$hopper/$t.json.gz') > 0" \
      "SELECT CASE WHEN max(span) IS NULL THEN '20.000' ELSE printf('%.3f', max(span) / 1000.0) END FROM (SELECT max(ts + dur) - min(ts) AS span FROM gpu_ops(1) WHERE step IS NOT NULL GROUP BY step)" 2>&1 | tail -n 1)
    [ "$got" = "$want" ] || bad "$t: one-step timeline spans $got ms, the longest step's GPU work $want ms"
  done
else
  echo "SKIP: $hopper not found — the one-step timeline of compiled and CUDA-graph traces NOT checked"
fi

chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
  echo "SKIP: chromium not installed (apt-get install chromium, or make deps) — the HTML reports were NOT rendered"
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
if [ -n "$cpage" ]; then
  console=$(render "$cpage" "$tmp/compare.png")
  [ -s "$tmp/compare.png" ] || bad "no screenshot of the two-trace page"
  [ -z "$console" ] || bad "console messages on the two-trace page: $console"
  if blank "$tmp/compare.png"; then bad "the two-trace screenshot is blank: $("$py" tests/html/png_stats.py "$tmp/compare.png")"; fi
  [ -n "${TSQL_HTML_KEEP:-}" ] && cp "$tmp/compare.png" "$cpage" "$TSQL_HTML_KEEP"/
fi
for t in ${hpages[@]+"${hpages[@]}"}; do
  console=$(render "$tmp/$t.html" "$tmp/$t.png")
  [ -z "$console" ] || bad "$t: console messages: $console"
  if blank "$tmp/$t.png"; then bad "$t: the screenshot is blank"; fi
  [ -n "${TSQL_HTML_KEEP:-}" ] && cp "$tmp/$t.png" "$tmp/$t.html" "$TSQL_HTML_KEEP"/
done
[ "$fail" = 0 ] && echo "html report: self-contained, $nsvg charts, $ncirc roofline points${cpage:+; two-trace page: $csvg charts, $nops operations, $nlayers layers}; ${#hpages[@]} H100 pages, each one-step timeline the step's GPU work; rendered by $("$chrome" --version 2>/dev/null | cut -d' ' -f1-2): not blank, no console messages"
[ "$fail" = 0 ]
