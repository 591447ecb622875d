#!/usr/bin/env bash
# Runs one test suite quietly for make test: its whole output goes to
# build/logs/NAME.log; a line when it starts, a line every minute it runs on (so a long
# suite is not silence), then on success one line (the suite's own summary, its last
# line, and any SKIP or WARNING line, which must stay loud) with its duration; on
# failure the log's last 150 lines. V=1 prints everything as it runs.
#   tests/suite.sh NAME COMMAND...
set -u
name=$1
shift
if [ "${V:-0}" = 1 ]; then
  exec "$@"
fi
mkdir -p build/logs
log=build/logs/$name.log
start=$(date +%s)
printf '  %-18s running...\n' "$name"
# the minute ticker: a background loop of this shell, ended below by its own pid
( m=0; while sleep 60 </dev/null >/dev/null 2>&1; do m=$((m + 1)); printf '  %-18s still running (%d min)\n' "$name" "$m"; done ) &
ticker=$!
trap 'kill "$ticker" 2>/dev/null' EXIT
"$@" > "$log" 2>&1
rc=$?
kill "$ticker" 2>/dev/null
wait "$ticker" 2>/dev/null
secs=$(( $(date +%s) - start ))
if [ "$rc" = 0 ]; then
  grep -E '^(SKIP|WARNING)' "$log" | sed "s/^/  $name: /"
  units=$(grep -Ec '^test_[a-z0-9_]+: [0-9]+ passed, [0-9]+ failed$' "$log")
  if [ "$units" -gt 1 ]; then
    summary=$(awk '/^test_[a-z0-9_]+: [0-9]+ passed, [0-9]+ failed$/ { p += $2; f += $4; n++ }
                   END { printf "unit: %d passed, %d failed in %d test programs", p, f, n }' "$log")
    last=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1)
    case $last in test_*) ;; *) summary="$summary; then $last" ;; esac
  else
    summary=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1)
  fi
  printf '  %-18s %s (%ds)\n' "$name" "${summary:-ok}" "$secs"
else
  tail -n 150 "$log"
  printf '  %-18s FAILED (exit %d, after %ds); whole log: %s\n' "$name" "$rc" "$secs" "$log"
  exit 1
fi
