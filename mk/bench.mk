# make bench's yardstick: a per-event cJSON load (tests/bench/cjson_baseline.c), built
# and run in the same bench run as the extension (see tests/bench/bench.py).

build/bench/cjson_baseline: tests/bench/cjson_baseline.c
	@mkdir -p build/bench
	$(call say,CC,$<)$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 $(shell $(PKG_CONFIG) --cflags libcjson 2>/dev/null) \
	  $< -o $@ $(shell $(PKG_CONFIG) --libs libcjson 2>/dev/null)

bench: build/bench/cjson_baseline
