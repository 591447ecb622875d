# Static analysis and memcheck.
#   make lint       cppcheck and clang-tidy (.clang-tidy) over core/ and ext/; any finding
#                   fails. Findings judged false positives are suppressed inline with
#                   `cppcheck-suppress` / `NOLINT(check)` and a reason next to them.
#                   Gated in CI (.ci/run), not in `make test`: clang-tidy takes ~10 min of
#                   one core over the 80 sources (cppcheck ~35 s). It runs one file per job
#                   (make -j lint) and keeps a stamp per clean file under build/lint/, so a
#                   second run re-checks only the files changed since (any header change,
#                   or .clang-tidy, re-checks all).
#   make valgrind   the unit tests and the SQL tests under valgrind memcheck
#                   (--leak-check=full, --error-exitcode=1): 0 errors, 0 leaks.
# See docs/reliability.md for the last results.

CPPCHECK ?= cppcheck
CLANG_TIDY ?= clang-tidy
VALGRIND ?= valgrind
LINT_SRC = $(CORE_SRC) $(EXT_SRC)
LINT_DEFS = -std=c11 -D_GNU_SOURCE -DTSQL_VERSION='"$(VERSION)"'
VG = $(VALGRIND) --quiet --leak-check=full --show-leak-kinds=definite,indirect,possible \
  --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=1

.PHONY: lint lint-cppcheck lint-tidy valgrind

lint: lint-cppcheck lint-tidy
	@echo "lint: cppcheck and clang-tidy clean"

lint-cppcheck: $(GEN_SQL)
	$(CPPCHECK) --enable=warning,performance,portability --error-exitcode=1 --inline-suppr \
	  --std=c11 --quiet -D_GNU_SOURCE -Icore -Iext $(DEPS_CFLAGS) \
	  --suppress=missingIncludeSystem $(LINT_SRC)

LINT_HDR = $(shell find core ext -name '*.h')
TIDY_STAMPS = $(patsubst %.c,build/lint/%.tidy,$(LINT_SRC))

lint-tidy: $(TIDY_STAMPS)

build/lint/%.tidy: %.c $(LINT_HDR) .clang-tidy $(GEN_SQL)
	@mkdir -p $(dir $@)
	$(call say,TIDY,$<)$(CLANG_TIDY) --quiet $< -- $(LINT_DEFS) $(DEPS_CFLAGS) -Icore -Iext
	@touch $@

# The sqlite3 shell runs under valgrind with the extension loaded: SQL tests and the
# malformed corpus (a memcheck run of the corpus takes a few minutes). Its errors exit
# with 99 so that they are told from an ordinary SQL error (1). The SQL tests are judged
# on valgrind's report only, not on their expected output: valgrind computes with 64-bit
# long doubles, so a few printed REALs differ in their last digits under it. Likewise
# a unit test is judged on valgrind's report: checks that rely on 80-bit long double
# (test_timeline's Kahan-sum reference) fail under valgrind by design.
valgrind: $(UNIT_TESTS) build/tracesql.so
	@for t in $(UNIT_TESTS); do $(VG) --error-exitcode=99 $$t > build/valgrind-unit.out 2>&1; rc=$$?; \
	  if [ $$rc = 99 ] || [ $$rc -ge 128 ] || grep -q '^==[0-9]*==' build/valgrind-unit.out; then \
	    echo "FAIL valgrind $$t (exit $$rc)"; grep '^==' build/valgrind-unit.out | head -30; exit 1; fi; \
	  echo "valgrind $$t: clean (test exit $$rc)"; done
	@printf '#!/bin/sh\nexec %s --error-exitcode=99 %s "$$@"\n' "$(VG)" "$(SQLITE3)" > build/valgrind-sqlite3
	@chmod +x build/valgrind-sqlite3
	@n=0; bad=0; for t in $$(find tests/sql -name '*.sql' | sort); do n=$$((n + 1)); \
	  build/valgrind-sqlite3 -bail -batch :memory: -cmd '.load build/tracesql' < $$t \
	    > build/valgrind-sql.out 2>&1; rc=$$?; \
	  if [ $$rc -ge 2 ] || grep -q '^==[0-9]*==' build/valgrind-sql.out; then \
	    bad=$$((bad + 1)); echo "FAIL $$t (exit $$rc)"; grep '^==' build/valgrind-sql.out | head -30; fi; \
	done; echo "valgrind-sql: $$((n - bad)) passed, $$bad failed"; [ $$bad = 0 ]
	@SQLITE3=build/valgrind-sqlite3 TSQL_EXT=build/tracesql TSQL_TIMEOUT=900 TSQL_SUITE=valgrind-corpus \
	  bash tests/corpus/run.sh
