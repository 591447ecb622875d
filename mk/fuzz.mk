# Fuzzing the reader and the tree builder with libFuzzer (clang + libclang-rt).
#   make fuzz          FUZZ_RUNS executions (default 10 million), one core
#   make fuzz-smoke    a short run (FUZZ_SMOKE_RUNS, default 20000)
# The seed corpus (windows of the conformance traces and the demo trace, plus
# tests/data and tests/corpus/files) is generated under build/fuzz/seeds; inputs the
# fuzzer finds go to build/fuzz/corpus, crashes to build/fuzz/artifacts/. A crash
# becomes a regression file under tests/corpus/ (see docs/reliability.md).

FUZZ_CC ?= clang
FUZZ_RUNS ?= 10000000
FUZZ_SMOKE_RUNS ?= 20000
FUZZ_CHUNK ?= 1021
# RSS grows by about 0.2 KB per execution whatever the input, with no leak reported
# (most likely the sanitizer runtime's per-thread records: every load starts a reader
# thread); 10 million executions need about 2.1 GB, hence 4096.
FUZZ_FLAGS ?= -max_len=4096 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
  -dict=tests/fuzz/trace.dict -artifact_prefix=build/fuzz/artifacts/
# trace-cmp instrumentation is left out: it doubled the cost of an execution (the
# dictionary gives the fuzzer the format's words instead), see docs/reliability.md
FUZZ_SAN := -fsanitize=fuzzer,address,undefined -fno-sanitize-coverage=trace-cmp \
  -fno-sanitize-recover=all -fno-omit-frame-pointer

# leaks are checked after every input that allocated more than it freed; a short
# allocation stack and a small quarantine keep an execution cheap
FUZZ_ASAN ?= detect_leaks=1:malloc_context_size=4:quarantine_size_mb=16

comma := ,
.PHONY: fuzz fuzz-smoke fuzz-build fuzz-seeds

# the core library built for the fuzzer: its sanitizers, a tiny source chunk
FUZZ_CFLAGS = -std=c11 -D_GNU_SOURCE -pthread $(WARN) -O1 -g \
  -DTSQL_SOURCE_CHUNK_BYTES=$(FUZZ_CHUNK) -Icore $(DEPS_CFLAGS)
FUZZ_OBJ := $(patsubst %.c,build/fuzz/obj/%.o,$(CORE_SRC) $(GEN_OPS))

build/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(FUZZ_CC) $(FUZZ_CFLAGS) $(subst fuzzer$(comma),fuzzer-no-link$(comma),$(FUZZ_SAN)) -MMD -MP -c $< -o $@

build/fuzz/libtsqlcore.a: $(FUZZ_OBJ)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

build/fuzz/fuzz_reader: tests/fuzz/fuzz_reader.c build/fuzz/libtsqlcore.a
	@mkdir -p build/fuzz
	$(call say,LD,$@)$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) tests/fuzz/fuzz_reader.c \
	  build/fuzz/libtsqlcore.a -o $@ $(DEPS_LIBS) -lm

-include $(shell find build/fuzz/obj -name '*.d' 2>/dev/null)

fuzz-build: build/fuzz/fuzz_reader

build/fuzz/seeds/.stamp: tests/fuzz/make_seeds.py
	@rm -rf build/fuzz/seeds
	$(PYTHON) tests/fuzz/make_seeds.py build/fuzz/seeds
	@touch $@

fuzz-seeds: build/fuzz/seeds/.stamp

fuzz: build/fuzz/fuzz_reader build/fuzz/seeds/.stamp
	@mkdir -p build/fuzz/corpus build/fuzz/artifacts
	ASAN_OPTIONS=$(FUZZ_ASAN) build/fuzz/fuzz_reader $(FUZZ_FLAGS) -runs=$(FUZZ_RUNS) \
	  build/fuzz/corpus build/fuzz/seeds

fuzz-smoke: build/fuzz/fuzz_reader build/fuzz/seeds/.stamp
	@mkdir -p build/fuzz/smoke build/fuzz/artifacts
	ASAN_OPTIONS=$(FUZZ_ASAN) build/fuzz/fuzz_reader $(FUZZ_FLAGS) -runs=$(FUZZ_SMOKE_RUNS) \
	  build/fuzz/smoke build/fuzz/seeds
