# The README's commands run as written (tests/docs/check_readme_tour.py).
#   make test-readme   every ```sh line of README.md (the tour's sqlite3 session fed the
#                      queries that follow it; `make test` itself skipped), no error,
#                      and the output README shows is the output they give
.PHONY: test-readme

test-readme: build/tracesql.so
	@SQLITE3=$(SQLITE3) $(PYTHON) tests/docs/check_readme_tour.py
