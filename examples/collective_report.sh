#!/usr/bin/env bash
# collective_report.sh — the old name of tools/tracesql-collective-report, kept for one release.
exec "$(dirname "$0")/../tools/tracesql-collective-report" "$@"
