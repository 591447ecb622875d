# Real clients of the extension and of its exported files (docs/clients/).
#   make test-clients   the sqlite3 shell (.load), Python's sqlite3 with
#                       enable_load_extension (and pandas.read_sql), sqlite-utils
#                       --load-extension, the exported database read by a plain sqlite3
#                       (the live views' rows, on every conformance trace), the
#                       errors of an unreadable directory, and every Markdown summary
#                       read by python3-markdown (tests/clients/)
.PHONY: test-clients

test-clients: build/tracesql.so
	@TSQL_EXT=build/tracesql PYTHON=$(PYTHON) SQLITE3=$(SQLITE3) V=$(V) bash tests/clients/run.sh
