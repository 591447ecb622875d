# Cross-platform comparison on real trace pairs (docs/compare.md).
#   make test-compare   tests/compare/*.sql against ../shared/conformance (SKIPs without it),
#                       then the per-event step in C against its SQL reference
#                       (tests/compare/reference_events.sh) on every trace we have
.PHONY: test-compare

test-compare: build/tracesql.so
	@TSQL_EXT=build/tracesql bash tests/compare/run.sh
	@TSQL_EXT=build/tracesql bash tests/compare/reference_events.sh
