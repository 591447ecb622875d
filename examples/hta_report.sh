#!/usr/bin/env bash
# hta_report.sh — the old name of tools/tracesql-hta-report, kept for one release.
exec "$(dirname "$0")/../tools/tracesql-hta-report" "$@"
