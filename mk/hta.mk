# HTA's analyses (docs/hta.md): every conformance case against HTA's outputs, and
# the hand-made traces of tests/sql/hta/. Needs ../shared for the first part (skips it
# loudly without it).
.PHONY: test-hta
test-hta: build/tracesql.so
	@TSQL_EXT=build/tracesql bash tests/hta/run.sh
