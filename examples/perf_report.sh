#!/usr/bin/env bash
# perf_report.sh — the old name of tools/tracesql-perf-report, kept for one release.
exec "$(dirname "$0")/../tools/tracesql-perf-report" "$@"
