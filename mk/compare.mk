# Cross-platform comparison on real trace pairs (docs/compare.md).
#   make test-compare   tests/compare/*.sql against ../shared/conformance (SKIPs without it)
.PHONY: test-compare

test-compare: build/tracesql.so
	@TSQL_EXT=build/tracesql bash tests/compare/run.sh
