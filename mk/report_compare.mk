# The perf-report comparison script on hand-made report folders, against pandas' output.
#   make test-report-compare tests/report_compare/run.sh (no ../shared needed; the
#                       TraceLens references are checked by test-conformance)
.PHONY: test-report-compare

test-report-compare: build/tracesql.so
	@TSQL_EXT=build/tracesql bash tests/report_compare/run.sh
