#!/usr/bin/env bash
# compare_report.sh — the old name of tools/tracesql-compare-platforms, kept for one release.
exec "$(dirname "$0")/../tools/tracesql-compare-platforms" "$@"
