# tracesql — SQLite extension for GPU profiler traces.
#   make          build build/tracesql.so
#   make demo     build, then the perf report on the bundled demo trace
#   make test     build and run every test, normally and under ASan+UBSan
#   make bench    load-time benchmark (generates a ~1.1 GB trace under build/)
#   make install  PREFIX=/usr/local DESTDIR=
#   make deps     install missing Debian packages (as root) or print the command: the
#                 build's (make deps-build, what make and make demo need) and the test
#                 tools (make deps-test, what make test needs)

CC ?= cc
PKG_CONFIG ?= pkg-config
PREFIX ?= /usr/local
DESTDIR ?=
SQLITE3 ?= sqlite3
PYTHON ?= /usr/bin/python3

VERSION := 0.1.0
WARN := -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes -Wcast-qual -Wformat=2 -Wvla
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -fPIC -pthread $(WARN) -DTSQL_VERSION='"$(VERSION)"'
OPT ?= -O2 -g
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# gzip is inflated by ISA-L's igzip when pkg-config finds libisal (~2.5x zlib's speed),
# else by zlib; TSQL_NO_ISAL=1 builds the zlib-only fallback (make test-gzip-fallback
# tests it beside the normal build; see mk/gzip.mk)
HAVE_ISAL := $(if $(TSQL_NO_ISAL),,$(shell $(PKG_CONFIG) --exists libisal 2>/dev/null && echo 1))
ISAL_CFLAGS := $(if $(HAVE_ISAL),-DTSQL_HAVE_ISAL $(shell $(PKG_CONFIG) --cflags libisal))
ISAL_LIBS := $(if $(HAVE_ISAL),$(shell $(PKG_CONFIG) --libs libisal))
DEPS_CFLAGS = $(shell $(PKG_CONFIG) --cflags sqlite3 libcjson zlib 2>/dev/null) $(ISAL_CFLAGS)
DEPS_LIBS = $(shell $(PKG_CONFIG) --libs libcjson zlib 2>/dev/null) $(ISAL_LIBS)

CORE_SRC := $(sort $(shell find core -name '*.c'))
EXT_SRC := $(sort $(shell find ext -name '*.c'))
SQL_SRC := $(shell find sql -name '*.sql' | LC_ALL=C sort)
GEN_SQL := build/gen/sql_views.c
GEN_OPS := build/gen/aten_op_names.c
INCLUDES := -Icore -Iext
# only sqlite3_tracesql_init is exported (it is marked visible in ext/tracesql.c)
VIS := -fvisibility=hidden
# never unmapped: SQLite dlclose()s an extension whose init fails, and anything it had
# registered by then would point into unmapped code
SO_LDFLAGS := -Wl,-z,nodelete
# the name the dynamic loader's cache knows it by, so `.load tracesql` finds an installed
# copy (mk/install.mk)
SO_LDFLAGS += -Wl,-soname,tracesql.so

# Quiet by default; V=1 prints every command.
V ?= 0
ifeq ($(V),0)
Q := @
say = @printf '  %-6s %s\n' $(1) $(2);
else
Q :=
say :=
endif

# One object per source file, with dependency files (-MMD -MP): touching one .c
# recompiles one object. build/obj = optimised, build/asan/obj = sanitizers.
CORE_OBJ := $(patsubst %.c,build/obj/%.o,$(CORE_SRC)) build/obj/gen/aten_op_names.o
EXT_OBJ := $(patsubst %.c,build/obj/%.o,$(EXT_SRC)) build/obj/gen/sql_views.o
CORE_OBJ_ASAN := $(patsubst %.c,build/asan/obj/%.o,$(CORE_SRC)) build/asan/obj/gen/aten_op_names.o
EXT_OBJ_ASAN := $(patsubst %.c,build/asan/obj/%.o,$(EXT_SRC)) build/asan/obj/gen/sql_views.o
CORE_LIB := build/libtsqlcore.a
CORE_LIB_ASAN := build/asan/libtsqlcore.a

# Debian packages: build, then test tools
APT_BUILD := sqlite3 libsqlite3-dev libcjson-dev zlib1g-dev libisal-dev pkg-config gcc make
APT_TEST := python3 valgrind clang libclang-rt-14-dev cppcheck clang-tidy \
            sqlite-utils python3-pandas python3-markdown chromium

.PHONY: all deps deps-build deps-test deps-check demo test test-layout test-unit test-sql test-conformance test-asan bench install clean

# The build packages first, then the build, under any -j: a second make, started once the
# check (and any install) is done, reads pkg-config's answers afresh (HAVE_ISAL, flags).
all: deps-check
	@$(MAKE) --no-print-directory $(if $(filter 0,$(V)),-s) build/tracesql.so

build/obj/gen/%.o: build/gen/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(BASE_CFLAGS) $(OPT) $(VIS) -MMD -MP -c $< -o $@

build/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(BASE_CFLAGS) $(OPT) $(VIS) $(INCLUDES) $(DEPS_CFLAGS) -MMD -MP -c $< -o $@

build/asan/obj/gen/%.o: build/gen/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(BASE_CFLAGS) -O1 -g $(SAN) $(VIS) -MMD -MP -c $< -o $@

build/asan/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(BASE_CFLAGS) -O1 -g $(SAN) $(VIS) $(INCLUDES) $(DEPS_CFLAGS) -MMD -MP -c $< -o $@

$(CORE_LIB): $(CORE_OBJ)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

$(CORE_LIB_ASAN): $(CORE_OBJ_ASAN)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

build/tracesql.so: $(EXT_OBJ) $(CORE_LIB)
	$(call say,LD,$@)$(CC) $(BASE_CFLAGS) $(OPT) -shared $(EXT_OBJ) $(CORE_LIB) -o $@ $(DEPS_LIBS) -lm $(SO_LDFLAGS)

build/asan/tracesql.so: $(EXT_OBJ_ASAN) $(CORE_LIB_ASAN)
	$(call say,LD,$@)$(CC) $(BASE_CFLAGS) -O1 -g $(SAN) -shared $(EXT_OBJ_ASAN) $(CORE_LIB_ASAN) -o $@ $(DEPS_LIBS) -lm $(SO_LDFLAGS)

# the views of sql/<area>/*.sql, embedded as C strings; creation order = sql/order.awk's
# order: by the layer of the file's area (sql/layers.txt), after every module its
# header requires (docs/architecture.md, "sql/: the views")
# the folders too: a .sql file removed changes its folder's mtime, and must leave the build
$(GEN_SQL): $(SQL_SRC) $(sort $(dir $(SQL_SRC))) sql/embed.awk sql/order.awk sql/layers.txt
	@mkdir -p build/gen
	$(call say,GEN,$@)LC_ALL=C awk -f sql/order.awk sql/layers.txt $(SQL_SRC) > $@.order \
	  && LC_ALL=C awk -f sql/embed.awk $$(cat $@.order) > $@.tmp && mv $@.tmp $@

# the ATen operator names of the compiled-Triton model, embedded the same way
$(GEN_OPS): core/perfmodel/aten_op_names.txt core/perfmodel/embed_names.awk
	@mkdir -p build/gen
	$(call say,GEN,$@)LC_ALL=C awk -f core/perfmodel/embed_names.awk $< > $@.tmp && mv $@.tmp $@

-include $(shell find build/obj build/asan/obj -name '*.d' 2>/dev/null)

# --- dependencies -----------------------------------------------------------
# the build's packages only (a plain make or make demo installs no test tool)
deps-check:
	@$(PKG_CONFIG) --exists sqlite3 libcjson zlib 2>/dev/null && command -v $(SQLITE3) >/dev/null \
	  && { ! command -v dpkg >/dev/null || dpkg -s libisal-dev >/dev/null 2>&1; } \
	  || $(MAKE) --no-print-directory deps-build

deps: deps-build deps-test
deps-build:
	@$(MAKE) --no-print-directory deps-install DEPS_WHAT=build DEPS_PKGS="$(APT_BUILD)"
deps-test:
	@$(MAKE) --no-print-directory deps-install DEPS_WHAT=test DEPS_PKGS="$(APT_TEST)"

.PHONY: deps-install
deps-install:
	@missing=""; for p in $(DEPS_PKGS); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then echo "deps: all $(DEPS_WHAT) packages present"; exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
	  echo "deps: installing the $(DEPS_WHAT) packages$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else \
	  echo "deps: missing packages; run:  sudo apt-get install -y$$missing"; exit 1; \
	fi

# --- the demo ---------------------------------------------------------------
demo: all
	@$(SQLITE3) -bail :memory: -cmd '.load build/tracesql' < examples/demo.sql

# --- tests ------------------------------------------------------------------
UNIT_SRC := $(sort $(shell find tests/unit -name 'test_*.c'))
UNIT_TESTS := $(patsubst tests/unit/%.c,build/tests/%,$(UNIT_SRC))
UNIT_INC := $(INCLUDES) -Itests/unit

build/tests/%: tests/unit/%.c $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(BASE_CFLAGS) $(OPT) $(UNIT_INC) $(DEPS_CFLAGS) -MMD -MP $< $(CORE_LIB) -o $@ $(DEPS_LIBS) -lm

build/tests/asan/%: tests/unit/%.c $(CORE_LIB_ASAN)
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(BASE_CFLAGS) -O1 -g $(SAN) $(UNIT_INC) $(DEPS_CFLAGS) -MMD -MP $< $(CORE_LIB_ASAN) -o $@ $(DEPS_LIBS) -lm

-include $(shell find build/tests -name '*.d' 2>/dev/null)

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
	@LD_PRELOAD="$(ASAN_RT) $(UBSAN_RT)" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  TSQL_EXT=build/asan/tracesql bash tests/compare/reference_events.sh

# source layout (include direction), sql/'s layered graph (and its checker's self-test)
# and the SQL embedding
test-layout:
	@bash tests/build/check_layout.sh
	@$(PYTHON) tests/build/check_sql_graph.py
	@PYTHON=$(PYTHON) bash tests/build/test_sql_graph.sh
	@bash tests/build/test_check_layout.sh
	@CC=$(CC) bash tests/build/test_embed.sh

# one line per suite (tests/suite.sh; its log in build/logs/), the details on failure;
# V=1 prints everything
test:
	@$(MAKE) --no-print-directory deps-check && $(MAKE) --no-print-directory deps-test
	@echo "make test: $(words $(TEST_SUITES)) suites, one line each as it starts and ends (logs in build/logs/);"
	@echo "  about 20-30 minutes on 2 cores, most of it test-asan (V=1 prints everything)"
	@$(MAKE) --no-print-directory $(addprefix quiet-,$(TEST_SUITES))
	@echo "make test: all suites passed"

TEST_SUITES = all test-layout test-unit test-sql test-conformance test-compare test-report-compare test-asan test-corpus test-hardening test-replay test-docs test-clients test-html test-install test-readme test-collectives test-hta $(if $(HAVE_ISAL),test-gzip-fallback)

quiet-%:
	@V=$(V) bash tests/suite.sh $* $(MAKE) --no-print-directory $*

# --- benchmark --------------------------------------------------------------
bench: build/tracesql.so
	@$(PYTHON) tests/bench/bench.py
	@$(PYTHON) tests/bench/report_bench.py
	@$(PYTHON) tests/bench/diff_bench.py
	@$(PYTHON) tests/bench/compare_bench.py
	@$(PYTHON) tests/bench/coll_bench.py
	@$(PYTHON) tests/bench/inference_bench.py
	@$(PYTHON) tests/bench/hta_bench.py

# --- install ---------------------------------------------------------------
# make install / uninstall / test-install: mk/install.mk

clean:
	rm -rf build/*.so build/*.a build/obj build/asan build/tests build/tmp build/gen

# Further targets (fuzz, lint, ...) live in mk/*.mk, one concern per file.
-include $(sort $(wildcard mk/*.mk))
