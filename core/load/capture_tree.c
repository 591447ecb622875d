/* capture_tree.c — a capture trace's tree as TraceLens nests it (Python frames with the
 * ops by time) and its capture roots; see capture_tree.h and docs/inference.md
 * "Merging the capture traces". */
#include "load/capture_tree.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "store/store.h"
#include "util/sort.h"
#include "util/u32vec.h"

#define NONE TSQL_NONE

/* ---------- the capture tree: ops, runtime calls and Python frames nested by time ---------- */

static int exact_cat(const tsql_trace *c, uint32_t u, int kind)
{
    return c->kind[u] == kind && !(c->flags[u] & TSQL_F_OLD_SPELLING);
}

/* A node of TraceLens's tree built with Python frames: a complete cpu_op, runtime or
 * driver call, or Python frame. */
static int is_node(const tsql_trace *c, uint32_t u)
{
    int k = c->kind[u];
    return (k == TSQL_K_CPU_OP || k == TSQL_K_RUNTIME || k == TSQL_K_DRIVER || k == TSQL_K_PYTHON) &&
           !(c->flags[u] & TSQL_F_OLD_SPELLING) &&
           (c->ph[u] == 'X' || (c->ph[u] == 'B' && (c->flags[u] & TSQL_F_PAIRED))) && c->ts_ns[u] != TSQL_NULL &&
           c->dur_ns[u] != TSQL_NULL;
}

typedef struct frame {
    uint32_t uid;
    double end;
} frame;

typedef struct tstack {
    uint64_t thread;
    frame *f;
    size_t n, cap;
} tstack;

/* The nesting of tree.c's CPU pass with Python frames among the nodes (stable order by
 * ts, per thread a stack, ">=" closes, an overrun under 1 µs pops the top when two are
 * open, a larger one drops the event). parent[] gets each node's parent; ord[] the nodes
 * in nesting order (*nord of them). */
static int nest_with_python(const tsql_trace *c, uint32_t *parent, uint32_t *ord, uint32_t *nord)
{
    uint32_t m = 0;
    for (uint32_t u = 0; u < c->n; u++) m += (uint32_t)is_node(c, u);
    uint64_t *key = malloc((size_t)(m ? m : 1) * sizeof *key);
    tstack *st = NULL;
    size_t nst = 0, capst = 0;
    int rc = -1;
    if (!key) goto out;
    m = 0;
    for (uint32_t u = 0; u < c->n; u++)
        if (is_node(c, u)) key[m] = tsql_sort_key(tsql_trace_ts_us(c, u)), ord[m++] = u;
    if (tsql_radix_sort(key, ord, m)) goto out;
    *nord = m;
    for (uint32_t k = 0; k < m; k++) {
        uint32_t e = ord[k];
        uint64_t th = tsql_thread_key(c, e);
        size_t si = 0;
        while (si < nst && st[si].thread != th) si++; /* threads are few */
        if (si == nst) {
            if (nst == capst) {
                size_t nc = capst ? capst * 2 : 8;
                tstack *ns = realloc(st, nc * sizeof *ns);
                if (!ns) goto out;
                st = ns, capst = nc;
            }
            st[nst++] = (tstack){th, NULL, 0, 0};
        }
        tstack *s = &st[si];
        double ts = tsql_trace_ts_us(c, e), end = ts + tsql_trace_dur_us(c, e);
        while (s->n && ts >= s->f[s->n - 1].end) s->n--;
        if (s->n && end > s->f[s->n - 1].end) {
            if (s->f[s->n - 1].end - ts < 1.0 && s->n >= 2) s->n--;
            else continue; /* not in TraceLens's tree */
        }
        if (s->n) parent[e] = s->f[s->n - 1].uid;
        if (s->n == s->cap) {
            size_t nc = s->cap ? s->cap * 2 : 32;
            frame *nf = realloc(s->f, nc * sizeof *nf);
            if (!nf) goto out;
            s->f = nf, s->cap = nc;
        }
        s->f[s->n++] = (frame){e, end};
    }
    rc = 0;
out:
    for (size_t i = 0; i < nst; i++) free(st[i].f);
    free(st);
    free(key);
    return rc;
}

static int lower_has(const char *s, const char *needle)
{
    size_t n = strlen(needle);
    for (; *s; s++)
        if (strncasecmp(s, needle, n) == 0) return 1;
    return 0;
}

static const char *name_of(const tsql_trace *t, uint32_t u) { return tsql_intern_text(&t->strings, t->name[u]); }

void tsql_capture_tree_free(tsql_capture_tree *ct)
{
    for (size_t i = 0; ct->roots && i < ct->nroots; i++) {
        free(ct->roots[i].events);
        free(ct->roots[i].dispatch);
    }
    free(ct->roots);
    free(ct->parent);
    memset(ct, 0, sizeof *ct);
}

int tsql_capture_tree_build(const tsql_trace *c, tsql_capture_tree *ct)
{
    memset(ct, 0, sizeof *ct);
    size_t n1 = c->n ? c->n : 1;
    uint32_t *ord = malloc(n1 * sizeof *ord), nord = 0;
    uint32_t *child_at = NULL, *child = NULL, *fill = NULL;
    uint8_t *in = NULL;
    ct->parent = malloc(n1 * sizeof *ct->parent);
    int rc = -1;
    if (!ord || !ct->parent) goto out;
    for (uint32_t u = 0; u < c->n; u++) ct->parent[u] = NONE;
    if (nest_with_python(c, ct->parent, ord, &nord)) goto out;
    /* GPU events hang under the call TraceLens links them to */
    const tsql_kernels *K = &c->kernels;
    for (uint32_t k = 0; k < K->n; k++)
        if (K->tl_runtime[k] != NONE) ct->parent[K->uid[k]] = K->tl_runtime[k];
    /* children: nodes in nesting order, then GPU events in uid order */
    child_at = calloc((size_t)c->n + 2, sizeof *child_at);
    child = malloc(n1 * sizeof *child);
    fill = malloc(((size_t)c->n + 1) * sizeof *fill);
    in = calloc(n1, 1);
    if (!child_at || !child || !fill || !in) goto out;
    for (uint32_t u = 0; u < c->n; u++)
        if (ct->parent[u] != NONE) child_at[ct->parent[u] + 1]++;
    for (uint32_t u = 1; u <= c->n; u++) child_at[u] += child_at[u - 1];
    memcpy(fill, child_at, ((size_t)c->n + 1) * sizeof *fill);
    for (uint32_t k = 0; k < nord; k++)
        if (ct->parent[ord[k]] != NONE) child[fill[ct->parent[ord[k]]]++] = ord[k];
    for (uint32_t k = 0; k < K->n; k++)
        if (K->tl_runtime[k] != NONE) child[fill[K->tl_runtime[k]]++] = K->uid[k];
    /* the windows: StreamBeginCapture / StreamEndCapture calls paired in file order */
    size_t nb = 0, ne = 0;
    for (uint32_t u = 0; u < c->n; u++) {
        if (!exact_cat(c, u, TSQL_K_RUNTIME) || !c->name[u]) continue;
        nb += strstr(name_of(c, u), "StreamBeginCapture") != NULL;
        ne += strstr(name_of(c, u), "StreamEndCapture") != NULL;
    }
    size_t nw = nb < ne ? nb : ne;
    if (!nw) {
        rc = 0;
        goto out;
    }
    if (!(ct->roots = calloc(nw, sizeof *ct->roots))) goto out;
    ct->nroots = nw;
    size_t ib = 0, ie = 0;
    for (uint32_t u = 0; u < c->n; u++) {
        if (!exact_cat(c, u, TSQL_K_RUNTIME) || !c->name[u]) continue;
        const char *nm = name_of(c, u);
        if (strstr(nm, "StreamBeginCapture") && ib < nw)
            ct->roots[ib++].start = tsql_trace_ts_us(c, u) + tsql_trace_dur_us(c, u);
        else if (strstr(nm, "StreamEndCapture") && ie < nw)
            ct->roots[ie++].end = tsql_trace_ts_us(c, u);
    }
    for (size_t w = 0; w < nw; w++) {
        tsql_capture_root *r = &ct->roots[w];
        /* in the window: any event whose span lies inside it */
        for (uint32_t u = 0; u < c->n; u++) {
            double ts = tsql_trace_ts_us(c, u);
            in[u] = c->ts_ns[u] != TSQL_NULL && ts >= r->start &&
                    ts + (c->dur_ns[u] != TSQL_NULL ? tsql_trace_dur_us(c, u) : 0.0) <= r->end;
        }
        /* breadth first from the roots (in-window ops and frames whose parent lies outside) */
        size_t cap = 64, n = 1;
        r->events = malloc(cap * sizeof *r->events);
        if (!r->events) goto out;
        r->events[0] = NONE;
        for (uint32_t u = 0; u < c->n; u++) {
            if (!in[u] || !(exact_cat(c, u, TSQL_K_CPU_OP) || exact_cat(c, u, TSQL_K_PYTHON))) continue;
            if (ct->parent[u] == NONE || in[ct->parent[u]]) continue;
            if (n == cap) {
                uint32_t *ne2 = realloc(r->events, (cap *= 2) * sizeof *ne2);
                if (!ne2) goto out;
                r->events = ne2;
            }
            r->events[n++] = u;
        }
        r->ntop = n - 1;
        for (size_t q = 1; q < n; q++) {
            uint32_t u = r->events[q];
            for (uint32_t j = child_at[u]; j < child_at[u + 1]; j++) {
                if (n == cap) {
                    uint32_t *ne2 = realloc(r->events, (cap *= 2) * sizeof *ne2);
                    if (!ne2) goto out;
                    r->events = ne2;
                }
                r->events[n++] = child[j];
            }
        }
        r->nevents = n;
        /* then by ts, stably (the CaptureRoot stays first) */
        tsql_keyed *kk = malloc(n * sizeof *kk);
        if (!kk) goto out;
        for (size_t q = 1; q < n; q++)
            kk[q] = (tsql_keyed){tsql_trace_ts_us(c, r->events[q]), (uint32_t)q, r->events[q]};
        tsql_keyed_sort(kk + 1, n - 1);
        for (size_t q = 1; q < n; q++) r->events[q] = kk[q].v;
        free(kk);
        /* the launch calls among them */
        r->dispatch = malloc(n * sizeof *r->dispatch);
        if (!r->dispatch) goto out;
        for (size_t q = 1; q < n; q++) {
            uint32_t u = r->events[q];
            if (!(exact_cat(c, u, TSQL_K_RUNTIME) || exact_cat(c, u, TSQL_K_DRIVER)) || !c->name[u]) continue;
            const char *nm = name_of(c, u);
            if (lower_has(nm, "launch") || lower_has(nm, "memcpy") || lower_has(nm, "memset"))
                r->dispatch[r->ndispatch++] = u;
        }
    }
    rc = 0;
out:
    free(ord);
    free(child_at);
    free(child);
    free(fill);
    free(in);
    if (rc) tsql_capture_tree_free(ct);
    return rc;
}
