# Multi-rank collective report (docs/collectives.md): real 8-rank DLRM job, scaled
# 8- and 16-rank jobs, per-rank export under xargs -P 2 and the cross-rank merge.
# Needs ../shared; skips loudly without it.
.PHONY: test-collectives
test-collectives: build/tracesql.so
	@TSQL_EXT=build/tracesql bash tests/collectives/run.sh
