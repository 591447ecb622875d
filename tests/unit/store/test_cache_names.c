/* test_cache_names.c — the store's cache slots (built once, freed once, peek never
 * builds) and the process/thread names of the M events (store/names.c). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "load/load.h"
#include "store/names.h"

static int builds, frees;
static void *build_counter(tsql_trace *t)
{
    builds++;
    int *v = malloc(sizeof *v);
    if (v) *v = (int)t->n;
    return v;
}
static void free_counter(void *v)
{
    if (v) frees++;
    free(v);
}
static const tsql_cache_kind COUNTER = {"counter", build_counter, free_counter};
static const tsql_cache_kind OTHER = {"other", build_counter, free_counter};

static void test_cache(void)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/data/meta_names.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return;
    CHECK(tsql_trace_cache_get(t, &COUNTER) == NULL); /* peek does not build */
    CHECK_EQ(builds, 0);
    int *v = tsql_trace_cached(t, &COUNTER);
    CHECK(v != NULL);
    CHECK_EQ(v ? *v : -1, 7);
    CHECK(tsql_trace_cached(t, &COUNTER) == v);       /* built once */
    CHECK(tsql_trace_cache_get(t, &COUNTER) == v);
    CHECK_EQ(builds, 1);
    CHECK(tsql_trace_cache_get(t, &OTHER) == NULL);   /* kinds are apart */
    CHECK(tsql_trace_cached(t, &OTHER) != NULL);
    CHECK_EQ(builds, 2);
    tsql_trace_free(t);
    CHECK_EQ(frees, 2);                               /* each freed once, with the trace */

    /* every slot taken: the value is refused, not leaked or lost silently */
    t = tsql_trace_load("tests/data/meta_names.json", NULL, &err);
    if (!t) return;
    static tsql_cache_kind many[TSQL_CACHE_SLOTS + 1];
    frees = 0;
    for (int i = 0; i <= TSQL_CACHE_SLOTS; i++) many[i] = (tsql_cache_kind){"many", build_counter, free_counter};
    for (int i = 0; i < TSQL_CACHE_SLOTS; i++) CHECK(tsql_trace_cached(t, &many[i]) != NULL);
    CHECK(tsql_trace_cached(t, &many[TSQL_CACHE_SLOTS]) == NULL);
    CHECK_EQ(frees, 1);                               /* the refused value */
    tsql_trace_free(t);
    CHECK_EQ(frees, 1 + TSQL_CACHE_SLOTS);
}

static void check_names(tsql_trace *t, uint32_t uid, const char *process, const char *label,
                        const char *thread)
{
    tsql_buf scratch = {0};
    tsql_meta_names m;
    CHECK_EQ(tsql_meta_lookup(t, uid, &m, &scratch), 0);
    const char *want[3] = {process, label, thread};
    for (int i = 0; i < 3; i++) {
        char got[64] = {0};
        memcpy(got, m.s[i], m.len[i] < 63 ? m.len[i] : 63);
        CHECK_STR(got, want[i]);
    }
    free(scratch.p);
}

static void test_names(void)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/data/meta_names.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return;
    check_names(t, 4, "trainer", "CPU", "main \"thread\""); /* the last process_name wins */
    check_names(t, 5, "Unknown", "Unknown", "Unknown");     /* no M events for pid 2 */
    check_names(t, 6, "trainer", "CPU", "Unknown");         /* thread 9 is unnamed */
    check_names(t, 4, "trainer", "CPU", "main \"thread\""); /* again, from the cache */
    tsql_buf scratch = {0};
    tsql_meta_names m;
    CHECK_EQ(tsql_meta_lookup(t, 4, &m, &scratch), 0);
    CHECK_EQ(m.stable, 1);                                  /* lives with the trace */
    free(scratch.p);
    tsql_trace_free(t);
}

int main(void)
{
    test_cache();
    test_names();
    return check_report("test_cache_names");
}
