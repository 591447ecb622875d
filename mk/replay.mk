# Event replay: every script replay_script() writes must compile as Python.
#   make test-replay   writes the scripts of tests/sql/replay/ops.json and of the
#                      conformance traces into build/tmp/replay/ and runs
#                      python3 -m py_compile on them (PyTorch is not needed)
.PHONY: test-replay

test-replay: build/tracesql.so
	@TSQL_EXT=build/tracesql PYTHON=$(PYTHON) bash tests/replay/check_replay.sh
