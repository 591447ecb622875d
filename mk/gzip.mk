# gzip inflaters: ISA-L (when found) and the zlib fallback, both tested.
#   - the inflater a build uses is recorded in build/gen/gzip_inflater, rewritten only
#     when it changes, so switching TSQL_NO_ISAL recompiles source_gzip.c;
#   - test-gzip-fallback builds the zlib-only variant beside the normal one (only
#     source_gzip.c differs: build/noisal/) and runs the gzip-related tests on it: the
#     source and pipelined-load unit tests, the SQL tests of tests/sql/format and tests/sql/errors, and the
#     malformed-trace corpus. `make test` runs it when the normal build uses ISA-L.

.PHONY: test-gzip-fallback

GZ_STAMP := build/gen/gzip_inflater
GZ_KIND := $(if $(HAVE_ISAL),isal,zlib)
$(shell mkdir -p build/gen && { [ "$$(cat $(GZ_STAMP) 2>/dev/null)" = "$(GZ_KIND)" ] || echo $(GZ_KIND) > $(GZ_STAMP); })
build/obj/core/input/source_gzip.o build/asan/obj/core/input/source_gzip.o: $(GZ_STAMP)

NOISAL_CFLAGS = $(filter-out -DTSQL_HAVE_ISAL,$(DEPS_CFLAGS))
NOISAL_CORE := $(filter-out build/obj/core/input/source_gzip.o,$(CORE_OBJ)) build/noisal/source_gzip.o

build/noisal/source_gzip.o: core/input/source_gzip.c
	@mkdir -p $(dir $@)
	$(call say,CC,$< [zlib])$(CC) $(BASE_CFLAGS) $(OPT) $(VIS) $(INCLUDES) $(NOISAL_CFLAGS) -MMD -MP -c $< -o $@

build/noisal/libtsqlcore.a: $(NOISAL_CORE)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

build/noisal/tracesql.so: $(EXT_OBJ) build/noisal/libtsqlcore.a
	$(call say,LD,$@)$(CC) $(BASE_CFLAGS) $(OPT) -shared $(EXT_OBJ) build/noisal/libtsqlcore.a -o $@ \
	  $(shell $(PKG_CONFIG) --libs libcjson zlib 2>/dev/null) -lm $(SO_LDFLAGS)

build/noisal/test_source: tests/unit/input/test_source.c build/noisal/libtsqlcore.a
	$(call say,CC,$< [zlib])$(CC) $(BASE_CFLAGS) $(OPT) $(UNIT_INC) $(NOISAL_CFLAGS) $< \
	  build/noisal/libtsqlcore.a -o $@ $(shell $(PKG_CONFIG) --libs libcjson zlib 2>/dev/null) -lm

build/noisal/test_stream: tests/unit/input/test_stream.c build/noisal/libtsqlcore.a
	$(call say,CC,$< [zlib])$(CC) $(BASE_CFLAGS) $(OPT) $(UNIT_INC) $(NOISAL_CFLAGS) $< \
	  build/noisal/libtsqlcore.a -o $@ $(shell $(PKG_CONFIG) --libs libcjson zlib 2>/dev/null) -lm

-include build/noisal/source_gzip.d

test-gzip-fallback: build/noisal/tracesql.so build/noisal/test_source build/noisal/test_stream
	@! nm build/noisal/tracesql.so | grep -q isal_inflate || { echo "FAIL: the zlib build links ISA-L"; exit 1; }
	@TSQL_TMPDIR=build/tmp/noisal build/noisal/test_source
	@build/noisal/test_stream
	@TSQL_EXT=build/noisal/tracesql TSQL_SQL_DIRS="tests/sql/format tests/sql/errors" \
	  TSQL_SUITE=zlib-sql bash tests/run_sql.sh
	@TSQL_EXT=build/noisal/tracesql TSQL_SUITE=zlib-corpus bash tests/corpus/run.sh
