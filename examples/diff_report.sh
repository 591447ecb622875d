#!/usr/bin/env bash
# diff_report.sh — the old name of tools/tracesql-diff-report, kept for one release.
exec "$(dirname "$0")/../tools/tracesql-diff-report" "$@"
