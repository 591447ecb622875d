# The perf-report comparison script on hand-made report folders, against pandas' output.
#   make test-compare   tests/report_compare/run.sh (no ../shared needed; the
#                       TraceLens references are checked by test-conformance)
.PHONY: test-compare

test-compare: build/tracesql.so
	@TSQL_EXT=build/tracesql bash tests/report_compare/run.sh
