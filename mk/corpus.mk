# The malformed-trace corpus (tests/corpus/): every file loads with its documented
# recovery or fails with "tracesql: <file>: byte N: ..." and leaves nothing open, with
# the normal build and again under ASan+UBSan (leaks checked when the shell exits).
# `make test` runs it. Regenerate the files with: python3 tests/corpus/make_corpus.py

.PHONY: test-corpus

test-corpus: build/tracesql.so build/asan/tracesql.so
	@TSQL_EXT=build/tracesql bash tests/corpus/run.sh
	@TSQL_PRELOAD="$(ASAN_RT) $(UBSAN_RT)" ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  TSQL_EXT=build/asan/tracesql TSQL_SUITE=asan-corpus bash tests/corpus/run.sh
