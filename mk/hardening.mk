# Limits and the safe SQL surface (tests/limits/), run by `make test`:
#   - test_interrupt: sqlite3_interrupt stops a long trace_open with SQLITE_INTERRUPT and
#     keeps nothing; the memory ceiling fails cleanly. Run against the normal build and,
#     built with ASan+UBSan, against build/asan (LeakSanitizer checks the freed memory);
#   - surface.sh: trace_export output readable by a stock sqlite3, no overwrite without
#     'replace', DIRECTONLY functions refused in an untrusted schema, function flags;
#   - tests/sql/surface/hostile.py: every registered function and table from a view and a
#     trigger of an attached database, trusted_schema ON and OFF (docs/reliability.md).

.PHONY: test-hardening

build/limits/test_interrupt: tests/limits/test_interrupt.c tests/unit/check.h
	@mkdir -p build/limits
	$(CC) -std=c11 -D_GNU_SOURCE -pthread $(WARN) -O1 -g -Itests/unit $(DEPS_CFLAGS) $< -o $@ -lsqlite3

build/limits/asan/test_interrupt: tests/limits/test_interrupt.c tests/unit/check.h
	@mkdir -p build/limits/asan
	$(CC) -std=c11 -D_GNU_SOURCE -pthread $(WARN) -O1 -g $(SAN) -Itests/unit $(DEPS_CFLAGS) $< -o $@ -lsqlite3

test-hardening: build/tracesql.so build/asan/tracesql.so build/limits/test_interrupt build/limits/asan/test_interrupt
	@mkdir -p build/tmp
	@build/limits/test_interrupt build/tracesql
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  build/limits/asan/test_interrupt build/asan/tracesql
	@TSQL_EXT=build/tracesql bash tests/limits/surface.sh
	@SQLITE3=$(SQLITE3) $(PYTHON) tests/sql/surface/hostile.py build/tracesql
	@LD_PRELOAD="$(ASAN_RT) $(UBSAN_RT)" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  SQLITE3=$(SQLITE3) $(PYTHON) tests/sql/surface/hostile.py build/asan/tracesql
