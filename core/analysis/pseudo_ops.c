/*
 * pseudo_ops.c — preparing a trace for the inference report (pseudo_ops.h).
 */
#include "analysis/pseudo_ops.h"

#include <stdlib.h>
#include <string.h>

#include "store/intern.h"

#define SGLANG_PREFIX "sglang_profiler::"

/* the marker of a prepared trace: a cache entry that holds nothing of its own */
static void *no_build(tsql_trace *t)
{
    (void)t;
    return NULL;
}
static void no_free(void *p) { (void)p; }
static const tsql_cache_kind PREPARED = {"inference_prepared", no_build, no_free};
static int prepared_marker;

int tsql_trace_inference_mode(const tsql_trace *t)
{
    return tsql_trace_cache_get(t, &PREPARED) != NULL;
}

/* caches that do not depend on event names or the annotation rule */
static int cache_is_neutral(const char *kind)
{
    static const char *const ok[] = {"names", "python_frame.index", "py_tree", "capture_merged_folder",
                                     "py_tree.copy_parents"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        if (strcmp(kind, ok[i]) == 0) return 1;
    return 0;
}

/* the length of name without a final "_<digits>" when name is "sglang_profiler::X_<digits>"
 * with X non-empty, else 0 */
static size_t sglang_base(const char *name)
{
    size_t pl = sizeof SGLANG_PREFIX - 1, n = strlen(name), i = n;
    if (strncmp(name, SGLANG_PREFIX, pl) != 0) return 0;
    while (i > pl && name[i - 1] >= '0' && name[i - 1] <= '9') i--;
    if (i == n || i <= pl + 1 || name[i - 1] != '_') return 0;
    return i - 1;
}

int64_t tsql_trace_inference_prepare(tsql_trace *t)
{
    if (tsql_trace_inference_mode(t)) return 0;
    for (int i = 0; i < TSQL_CACHE_SLOTS; i++)
        if (t->cache[i].kind && t->cache[i].value && !cache_is_neutral(t->cache[i].kind->name)) return -2;
    /* per name id: 0 not decided, 1 renamed to to[id], 2 kept */
    uint32_t nstr = 0;
    for (uint32_t u = 0; u < t->n; u++)
        if (t->name[u] >= nstr) nstr = t->name[u] + 1;
    uint8_t *state = calloc(nstr ? nstr : 1, 1);
    uint32_t *to = malloc((nstr ? nstr : 1) * sizeof *to);
    int64_t renamed = 0;
    if (!state || !to) goto oom;
    for (uint32_t u = 0; u < t->n; u++) {
        uint32_t id = t->name[u];
        if (!id) continue;
        if (!state[id]) {
            /* decided on the name's first event: TraceLens reads its category */
            const char *nm = tsql_intern_text(&t->strings, id);
            size_t base = sglang_base(nm);
            state[id] = 2;
            if (base && t->kind[u] == TSQL_K_CPU_OP) {
                char *b = malloc(base + 1);
                if (!b) goto oom;
                memcpy(b, nm, base);
                b[base] = 0;
                uint32_t nid = tsql_intern_add(&t->strings, b, base);
                free(b);
                if (!nid) goto oom;
                to[id] = nid;
                state[id] = 1;
            }
        }
        if (state[id] == 1) {
            t->name[u] = to[id];
            renamed++;
        }
    }
    free(state);
    free(to);
    if (tsql_trace_cache_put(t, &PREPARED, &prepared_marker)) return -1;
    return renamed;
oom:
    free(state);
    free(to);
    return -1;
}
