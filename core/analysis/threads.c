/* threads.c — canonical thread numbers of pid / tid ids (threads.h). */
#include "analysis/threads.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/jsonlex.h"
#include "util/buf.h"

enum { V_NULL = 0, V_INT = 1, V_REAL = 2, V_TEXT = 3 }; /* SQLite's order of classes */

typedef struct tsql_thread_val {
    int cls;
    int64_t i;
    double r;
    const char *s;           /* V_TEXT: bytes (into the strings or into own) */
    size_t n;
    char *own;               /* unescaped text, malloc'd */
    uint32_t id, canon;
} sqlval;

static int sqlval_cmp(const void *x, const void *y)
{
    const sqlval *a = x, *b = y;
    if (a->cls != b->cls) return a->cls < b->cls ? -1 : 1;
    switch (a->cls) {
    case V_INT: return (a->i > b->i) - (a->i < b->i);
    case V_REAL: return (a->r > b->r) - (a->r < b->r);
    case V_TEXT: {
        int c = memcmp(a->s, b->s, a->n < b->n ? a->n : b->n);
        return c ? c : (a->n > b->n) - (a->n < b->n);
    }
    default: return 0;
    }
}

static int id_cmp(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

static int val_by_id(const void *x, const void *y)
{
    const sqlval *a = x, *b = y;
    return (a->id > b->id) - (a->id < b->id);
}

/* The SQL value of pid/tid text id (as tsql_result_pidtid shows it). 0, or -1 on OOM. */
static int sql_value(const tsql_trace *t, uint32_t id, sqlval *v)
{
    memset(v, 0, sizeof *v);
    v->id = id;
    if (!id) return 0;
    const char *s = tsql_intern_str(&t->strings, id);
    size_t n = tsql_intern_len(&t->strings, id);
    int64_t i;
    if (n >= 2 && s[0] == '"') {
        v->cls = V_TEXT;
        v->s = s + 1;
        v->n = n - 2;
        if (memchr(s, '\\', n)) {
            tsql_buf b = {0};
            if (tsql_unescape(s + 1, n - 2, &b)) {
                free(b.p);
                return -1;
            }
            v->own = b.p;
            v->s = b.p ? b.p : "";
            v->n = b.n;
        }
    } else if (tsql_parse_int64(s, n, &i) == 0) {
        v->cls = V_INT;
        v->i = i;
    } else if (n && ((s[0] >= '0' && s[0] <= '9') || s[0] == '-')) {
        double d = tsql_parse_double(s, n);
        /* an integral double equals the integer of the same value; NaN shows as NULL */
        if (isnan(d)) {
            v->cls = V_NULL;
        } else if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && d == floor(d)) {
            v->cls = V_INT;
            v->i = (int64_t)d;
        } else {
            v->cls = V_REAL;
            v->r = d == 0.0 ? 0.0 : d;
        }
    } else {
        v->cls = V_TEXT;
        v->s = s;
        v->n = n;
    }
    return 0;
}

static int by_value_then_id(const void *x, const void *y)
{
    int c = sqlval_cmp(x, y);
    return c ? c : val_by_id(x, y);
}

int tsql_threads_build(const tsql_trace *t, const uint32_t *uids, size_t n, tsql_threads *m)
{
    memset(m, 0, sizeof *m);
    uint32_t *ids = malloc((2 * n + 1) * sizeof *ids);
    if (!ids) return -1;
    size_t nids = 0;
    for (size_t i = 0; i < n; i++) {
        ids[nids++] = t->pid[uids[i]];
        ids[nids++] = t->tid[uids[i]];
    }
    qsort(ids, nids, sizeof *ids, id_cmp);
    size_t nu = 0;
    for (size_t i = 0; i < nids; i++)
        if (!nu || ids[nu - 1] != ids[i]) ids[nu++] = ids[i];
    m->n = nu;
    m->v = calloc(nu ? nu : 1, sizeof *m->v);
    m->by_value = malloc((nu ? nu : 1) * sizeof *m->by_value);
    if (!m->v || !m->by_value) {
        free(ids);
        return -1;
    }
    for (size_t i = 0; i < nu; i++)
        if (sql_value(t, ids[i], &m->v[i])) {
            free(ids);
            return -1;
        }
    free(ids);
    qsort(m->v, nu, sizeof *m->v, by_value_then_id);
    for (size_t i = 0; i < nu; i++)
        m->v[i].canon = i && sqlval_cmp(&m->v[i - 1], &m->v[i]) == 0 ? m->v[i - 1].canon : (uint32_t)i;
    memcpy(m->by_value, m->v, nu * sizeof *m->v);
    qsort(m->v, nu, sizeof *m->v, val_by_id);
    return 0;
}

void tsql_threads_free(tsql_threads *m)
{
    for (size_t i = 0; m->v && i < m->n; i++) free(m->v[i].own); /* by_value shares them */
    free(m->v);
    free(m->by_value);
    memset(m, 0, sizeof *m);
}

/* The canonical number of id, or UINT32_MAX when its value is not in the map; *oom
 * set when its value could not be read. */
static uint32_t canon_of(const tsql_threads *m, const tsql_trace *t, uint32_t id, int *oom)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->v[mid].id < id) lo = mid + 1; else hi = mid;
    }
    if (lo < m->n && m->v[lo].id == id) return m->v[lo].canon;
    sqlval x;
    if (sql_value(t, id, &x)) {
        *oom = 1;
        return UINT32_MAX;
    }
    lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sqlval_cmp(&m->by_value[mid], &x) < 0) lo = mid + 1; else hi = mid;
    }
    uint32_t c = lo < m->n && sqlval_cmp(&m->by_value[lo], &x) == 0 ? m->by_value[lo].canon : UINT32_MAX;
    free(x.own);
    return c;
}

uint64_t tsql_threads_key(const tsql_threads *m, const tsql_trace *t, uint32_t uid)
{
    int oom = 0; /* the ids of the map's own events are found by id: no value is read */
    return (uint64_t)canon_of(m, t, t->pid[uid], &oom) << 32 | canon_of(m, t, t->tid[uid], &oom);
}

int tsql_threads_find(const tsql_threads *m, const tsql_trace *t, uint32_t uid, uint64_t *key)
{
    int oom = 0;
    uint32_t p = canon_of(m, t, t->pid[uid], &oom), q = canon_of(m, t, t->tid[uid], &oom);
    if (oom) return -1;
    if (p == UINT32_MAX || q == UINT32_MAX) return 1;
    *key = (uint64_t)p << 32 | q;
    return 0;
}
