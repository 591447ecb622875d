#!/usr/bin/env bash
# compare_reports.sh — the old name of tools/tracesql-compare-reports, kept for one release.
exec "$(dirname "$0")/../tools/tracesql-compare-reports" "$@"
