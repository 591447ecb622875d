/* tree_diff_json.c — TraceDiff's cpu-op maps as JSON; see tree_diff_json.h. */
#include "output/tree_diff_json.h"

#include <stdlib.h>
#include <string.h>

#include "text/jsonout.h"
#include "util/sort.h"

/* ---------- cpu-op maps ---------- */

typedef struct kv { const char *k; const char *v; } kv;

static int cmp_kv(const void *x, const void *y)
{
    const kv *a = x, *b = y;
    int c = strcmp(a->k, b->k);
    return c ? c : strcmp(a->v, b->v);
}

static int put_json_str(tsql_buf *out, const char *s)
{
    return tsql_json_quote(out, s, strlen(s));
}

/* sorted distinct (key, kernel) pairs of the rows of side s (0: both) keyed by key_of */
static kv *collect(const tsql_tree_diff *d, int s, int mapped, size_t *n)
{
    kv *v = malloc(((size_t)d->nrows + 1) * sizeof *v);
    if (!v) return NULL;
    size_t k = 0;
    for (uint32_t i = 0; i < d->nrows; i++) {
        const tsql_diff_row *r = &d->rows[i];
        if (s && r->side != s) continue;
        tsql_trace *t = d->t[r->side - 1];
        const char *key = tsql_intern_text(&d->names, mapped ? r->op_map_name : r->op_name);
        v[k++] = (kv){key, tsql_intern_text(&t->strings, t->name[r->gpu])};
    }
    tsql_qsort(v, k, sizeof *v, cmp_kv);
    *n = k;
    return v;
}

static int put_list(tsql_buf *out, const kv *v, size_t a, size_t b, const char *ind)
{
    if (tsql_bput(out, "[", 1)) return -1;
    int first = 1;
    for (size_t i = a; i < b; i++) {
        if (i > a && strcmp(v[i].v, v[i - 1].v) == 0) continue;
        if (tsql_bput(out, first ? "\n" : ",\n", first ? 1 : 2) || tsql_bput(out, ind, strlen(ind)) || tsql_bput(out, "  ", 2) ||
            put_json_str(out, v[i].v))
            return -1;
        first = 0;
    }
    if (!first && (tsql_bput(out, "\n", 1) || tsql_bput(out, ind, strlen(ind)))) return -1;
    return tsql_bput(out, "]", 1);
}

int tsql_tree_diff_op_map_json(const tsql_tree_diff *d, int which, tsql_buf *out)
{
    if (tsql_bput(out, "", 0)) return -1;
    int rc = -1;
    if (which == 1 || which == 2) {
        size_t n = 0;
        kv *v = collect(d, which, 0, &n);
        if (!v) return -1;
        if (tsql_bput(out, "{", 1)) goto out1;
        for (size_t i = 0; i < n;) {
            size_t j = i;
            while (j < n && strcmp(v[j].k, v[i].k) == 0) j++;
            if (tsql_bput(out, i ? ",\n  " : "\n  ", i ? 4 : 3) || put_json_str(out, v[i].k) || tsql_bput(out, ": ", 2) ||
                put_list(out, v, i, j, "  "))
                goto out1;
            i = j;
        }
        if (tsql_bput(out, n ? "\n}" : "}", n ? 2 : 1)) goto out1;
        rc = 0;
    out1:
        free(v);
        return rc;
    }
    /* cpu_op_map.json: {op: {trace1: {kernels, nn_module_parents}, trace2: {...}}} */
    size_t n1 = 0, n2 = 0;
    kv *v1 = collect(d, 1, 1, &n1), *v2 = collect(d, 2, 1, &n2);
    kv *keys = malloc((n1 + n2 + 1) * sizeof *keys);
    size_t nk = 0;
    if (!v1 || !v2 || !keys) goto out0;
    for (size_t i = 0; i < n1; i++) keys[nk++] = (kv){v1[i].k, ""};
    for (size_t i = 0; i < n2; i++) keys[nk++] = (kv){v2[i].k, ""};
    tsql_qsort(keys, nk, sizeof *keys, cmp_kv);
    if (tsql_bput(out, "{", 1)) goto out0;
    int firstk = 1;
    size_t a1 = 0, a2 = 0;
    for (size_t i = 0; i < nk; i++) {
        if (i && strcmp(keys[i].k, keys[i - 1].k) == 0) continue;
        const char *k = keys[i].k;
        if (tsql_bput(out, firstk ? "\n  " : ",\n  ", firstk ? 3 : 4) || put_json_str(out, k) || tsql_bput(out, ": {", 3))
            goto out0;
        firstk = 0;
        while (a1 < n1 && strcmp(v1[a1].k, k) < 0) a1++;
        while (a2 < n2 && strcmp(v2[a2].k, k) < 0) a2++;
        size_t b1 = a1, b2 = a2;
        while (b1 < n1 && strcmp(v1[b1].k, k) == 0) b1++;
        while (b2 < n2 && strcmp(v2[b2].k, k) == 0) b2++;
        int firsts = 1;
        for (int s = 1; s <= 2; s++) {
            const kv *v = s == 1 ? v1 : v2;
            size_t a = s == 1 ? a1 : a2, b = s == 1 ? b1 : b2;
            if (a == b) continue;
            if (d->identical && s == 2) continue;
            if (!d->identical) {
                if (tsql_bput(out, firsts ? "\n    " : ",\n    ", firsts ? 5 : 6) ||
                    tsql_bput(out, s == 1 ? "\"trace1\": {" : "\"trace2\": {", 11))
                    goto out0;
            }
            const char *ind = d->identical ? "    " : "      ";
            if (tsql_bput(out, "\n", 1) || tsql_bput(out, ind, strlen(ind)) || tsql_bput(out, "\"kernels\": ", 11) ||
                put_list(out, v, a, b, ind) || tsql_bput(out, ",\n", 2) || tsql_bput(out, ind, strlen(ind)) ||
                tsql_bput(out, "\"nn_module_parents\": [\n", 23) || tsql_bput(out, ind, strlen(ind)) ||
                tsql_bput(out, "  \"root\"\n", 9) || tsql_bput(out, ind, strlen(ind)) || tsql_bput(out, "]", 1))
                goto out0;
            if (!d->identical && tsql_bput(out, "\n    }", 6)) goto out0;
            firsts = 0;
        }
        if (tsql_bput(out, "\n  }", 4)) goto out0;
        a1 = b1;
        a2 = b2;
    }
    if (tsql_bput(out, firstk ? "}" : "\n}", firstk ? 1 : 2)) goto out0;
    rc = 0;
out0:
    free(v1);
    free(v2);
    free(keys);
    return rc;
}
