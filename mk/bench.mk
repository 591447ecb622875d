# make bench's yardstick: the per-event cJSON load the performance targets are stated
# against (../shared/tools/yardstick/cjson_stream.c, with its `scan` mode as the
# byte-scan floor), built in the same run as the figures it is compared with (see
# tests/bench/bench.py). Without ../shared the bench says so and skips the table.
YARDSTICK_SRC := ../shared/tools/yardstick/cjson_stream.c

build/bench/cjson_stream: $(wildcard $(YARDSTICK_SRC))
	@mkdir -p build/bench
	@if [ -f $(YARDSTICK_SRC) ]; then \
	  echo "  CC     $(YARDSTICK_SRC)"; \
	  $(CC) -O2 $(shell $(PKG_CONFIG) --cflags libcjson zlib 2>/dev/null) -o $@ $(YARDSTICK_SRC) \
	    $(shell $(PKG_CONFIG) --libs libcjson zlib 2>/dev/null); \
	else echo "bench: $(YARDSTICK_SRC) not found: the issue table is skipped"; fi

bench: build/bench/cjson_stream
