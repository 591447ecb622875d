#!/usr/bin/env bash
# inference_report.sh — the short name of tools/tracesql-inference-report, kept for one release.
exec "$(dirname "$0")/../tools/tracesql-inference-report" "$@"
