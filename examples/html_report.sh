#!/usr/bin/env bash
# html_report.sh — the old name of tools/tracesql-html-report, kept for one release.
exec "$(dirname "$0")/../tools/tracesql-html-report" "$@"
