# Docs that cannot drift, and a pin on the SQL surface.
#   make test-docs   every table, view, column (with its unit) and function the
#                    extension creates is documented in docs/*.md, and nothing
#                    documented is gone; every ```sql block of docs/*.md and README.md
#                    runs (and prints its ```text block); docs/architecture.md names
#                    every file of core/ ext/ sql/; the lists of modules, functions,
#                    views and TEMP tables equal tests/sql/surface/*.txt; and the
#                    checker still fails on each kind of drift (tests/docs/selftest.sh);
#                    the extension's surface and column types are read once per build
#                    (build/tmp/docs_surface.json) and reused by the selftest's cases
# Needs a python3 whose sqlite3 can load extensions ($(PYTHON), Debian's by default).
.PHONY: test-docs

test-docs: build/tracesql.so
	@SQLITE3=$(SQLITE3) $(PYTHON) tests/sql/surface/check_surface.py build/tracesql
	@SQLITE3=$(SQLITE3) $(PYTHON) tests/docs/check_docs.py build/tracesql --surface-cache build/tmp/docs_surface.json
	@SQLITE3=$(SQLITE3) PYTHON=$(PYTHON) TSQL_EXT=build/tracesql bash tests/docs/selftest.sh
