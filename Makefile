# tracesql — SQLite extension for GPU profiler traces.
#   make          build build/tracesql.so
#   make demo     build, then the perf report on the bundled demo trace
#   make test     build and run every test, normally and under ASan+UBSan
#   make bench    load-time benchmark (generates a ~1.1 GB trace under build/)
#   make install  PREFIX=/usr/local DESTDIR=
#   make deps     install missing Debian packages (as root) or print the command

CC ?= cc
PKG_CONFIG ?= pkg-config
PREFIX ?= /usr/local
DESTDIR ?=
SQLITE3 ?= sqlite3
PYTHON ?= /usr/bin/python3

VERSION := 0.1.0
WARN := -Wall -Wextra -Werror
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -fPIC -pthread $(WARN) -DTSQL_VERSION='"$(VERSION)"'
OPT ?= -O2 -g
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

DEPS_CFLAGS = $(shell $(PKG_CONFIG) --cflags sqlite3 libcjson zlib 2>/dev/null)
DEPS_LIBS = $(shell $(PKG_CONFIG) --libs libcjson zlib 2>/dev/null)

CORE_SRC := $(sort $(wildcard core/*.c))
EXT_SRC := $(sort $(wildcard ext/*.c))
HDRS := $(wildcard core/*.h ext/*.h)
SQL_SRC := $(sort $(wildcard sql/*.sql))
GEN_SQL := build/gen/sql_views.c
# never unmapped: SQLite dlclose()s an extension whose init fails, and anything it had
# registered by then would point into unmapped code
SO_LDFLAGS := -Wl,-z,nodelete

# Debian packages: build, then test tools
APT_BUILD := sqlite3 libsqlite3-dev libcjson-dev zlib1g-dev pkg-config gcc make
APT_TEST := python3 valgrind clang libclang-rt-14-dev cppcheck clang-tidy

.PHONY: all deps deps-check demo test test-unit test-sql test-conformance test-asan bench install clean

all: deps-check build/tracesql.so

build/tracesql.so: $(CORE_SRC) $(EXT_SRC) $(HDRS) $(GEN_SQL)
	@mkdir -p build
	$(CC) $(BASE_CFLAGS) $(OPT) $(DEPS_CFLAGS) -shared $(CORE_SRC) $(EXT_SRC) $(GEN_SQL) -o $@ $(DEPS_LIBS) -lm $(SO_LDFLAGS)

build/asan/tracesql.so: $(CORE_SRC) $(EXT_SRC) $(HDRS) $(GEN_SQL)
	@mkdir -p build/asan
	$(CC) $(BASE_CFLAGS) -O1 -g $(SAN) $(DEPS_CFLAGS) -shared $(CORE_SRC) $(EXT_SRC) $(GEN_SQL) -o $@ $(DEPS_LIBS) -lm $(SO_LDFLAGS)

# the views of sql/*.sql, embedded as C strings (file-name order = creation order)
$(GEN_SQL): $(SQL_SRC) sql/embed.awk
	@mkdir -p build/gen
	awk -f sql/embed.awk $(SQL_SRC) > $@

# --- dependencies -----------------------------------------------------------
deps-check:
	@$(PKG_CONFIG) --exists sqlite3 libcjson zlib 2>/dev/null && command -v $(SQLITE3) >/dev/null \
	  || $(MAKE) --no-print-directory deps

deps:
	@missing=""; for p in $(APT_BUILD) $(APT_TEST); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then echo "deps: all Debian packages present"; exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
	  echo "deps: installing$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else \
	  echo "deps: missing packages; run:  sudo apt-get install -y$$missing"; exit 1; \
	fi

# --- the demo ---------------------------------------------------------------
demo: all
	@$(SQLITE3) -bail :memory: -cmd '.load build/tracesql' < examples/demo.sql

# --- tests ------------------------------------------------------------------
UNIT_TESTS := $(patsubst tests/unit/%.c,build/tests/%,$(wildcard tests/unit/test_*.c))

build/tests/%: tests/unit/%.c $(CORE_SRC) $(HDRS)
	@mkdir -p build/tests
	$(CC) $(BASE_CFLAGS) $(OPT) -Icore $(DEPS_CFLAGS) $< $(CORE_SRC) -o $@ $(DEPS_LIBS) -lm

build/tests/asan/%: tests/unit/%.c $(CORE_SRC) $(HDRS)
	@mkdir -p build/tests/asan
	$(CC) $(BASE_CFLAGS) -O1 -g $(SAN) -Icore $(DEPS_CFLAGS) $< $(CORE_SRC) -o $@ $(DEPS_LIBS) -lm

test-unit: $(UNIT_TESTS)
	@for t in $(UNIT_TESTS); do $$t || exit 1; done

test-sql: build/tracesql.so
	@TSQL_EXT=build/tracesql bash tests/run_sql.sh

test-conformance: build/tracesql.so
	@TSQL_EXT=build/tracesql bash tests/conformance/run.sh

# Same suites with AddressSanitizer + UndefinedBehaviorSanitizer. The sqlite3 shell
# is not instrumented, so the runtime is preloaded for the extension.
ASAN_RT = $(shell $(CC) -print-file-name=libasan.so)
UBSAN_RT = $(shell $(CC) -print-file-name=libubsan.so)
test-asan: build/asan/tracesql.so $(patsubst build/tests/%,build/tests/asan/%,$(UNIT_TESTS))
	@for t in $(patsubst build/tests/%,build/tests/asan/%,$(UNIT_TESTS)); do \
	  ASAN_OPTIONS=detect_leaks=1 $$t || exit 1; done
	@LD_PRELOAD="$(ASAN_RT) $(UBSAN_RT)" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  TSQL_EXT=build/asan/tracesql TSQL_SUITE=asan-sql bash tests/run_sql.sh
	@LD_PRELOAD="$(ASAN_RT) $(UBSAN_RT)" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  TSQL_EXT=build/asan/tracesql bash tests/conformance/run.sh

test: all
	@$(MAKE) --no-print-directory test-unit test-sql test-conformance test-asan test-corpus test-hardening test-replay
	@echo "make test: all suites passed"

# --- benchmark --------------------------------------------------------------
bench: build/tracesql.so
	@$(PYTHON) tests/bench/bench.py
	@$(PYTHON) tests/bench/report_bench.py

# --- install ----------------------------------------------------------------
install: build/tracesql.so
	install -d $(DESTDIR)$(PREFIX)/lib/sqlite3 $(DESTDIR)$(PREFIX)/share/doc/tracesql
	install -m 0755 build/tracesql.so $(DESTDIR)$(PREFIX)/lib/sqlite3/tracesql.so
	install -m 0644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/tracesql/

clean:
	rm -rf build/*.so build/asan build/tests build/tmp build/gen

# Further targets (fuzz, lint, ...) live in mk/*.mk, one concern per file.
-include $(sort $(wildcard mk/*.mk))
