/* capture_plan.c — classify capture traces, find engine steps, pick a capture; see
 * capture_plan.h. */
#include "load/capture_plan.h"

#include <ctype.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>
#include <dirent.h>
#include <sys/stat.h>

#include "load/capture_tree.h"
#include "load/load.h"
#include "util/error.h"

#include "perfmodel/iteration.h"
#include "util/sort.h"

static const char *name_of(const tsql_trace *t, uint32_t u) { return tsql_intern_text(&t->strings, t->name[u]); }

/* "vllm/v1/worker/gpu_model_runner.py(<digits>): _dummy_run" at the start */
static int is_dummy_run(const char *s)
{
    static const char pre[] = "vllm/v1/worker/gpu_model_runner.py(";
    if (strncmp(s, pre, sizeof pre - 1) != 0) return 0;
    s += sizeof pre - 1;
    if (!isdigit((unsigned char)*s)) return 0;
    while (isdigit((unsigned char)*s)) s++;
    return strncmp(s, "): _dummy_run", 13) == 0;
}

/* "capture_<digits>_<rest>": 1 with bs and mode */
static int capture_annotation(const char *s, int64_t *bs, const char **mode)
{
    if (strncmp(s, "capture_", 8) != 0) return 0;
    s += 8;
    if (!isdigit((unsigned char)*s)) return 0;
    *bs = 0;
    while (isdigit((unsigned char)*s)) {
        if (*bs < INT64_MAX / 10) *bs = *bs * 10 + (*s - '0');
        s++;
    }
    if (*s != '_') return 0;
    *mode = s + 1;
    return 1;
}

int tsql_capture_classify(const tsql_trace *t, tsql_capture_class *out)
{
    memset(out, 0, sizeof *out);
    size_t ndummy = 0, nann = 0, nbegin = 0;
    double first_ts = 0;
    int64_t ann_bs = 0;
    const char *ann_mode = NULL;
    for (uint32_t u = 0; u < t->n; u++) {
        if (!t->name[u]) continue;
        const char *nm = name_of(t, u);
        if (is_dummy_run(nm)) ndummy++;
        int64_t bs;
        const char *mode;
        if (t->kind[u] == TSQL_K_USER_ANNOTATION && capture_annotation(nm, &bs, &mode)) {
            double ts = tsql_trace_ts_us(t, u);
            if (!nann || ts < first_ts) first_ts = ts, ann_bs = bs, ann_mode = mode; /* first by ts */
            nann++;
        }
        if (t->kind[u] == TSQL_K_RUNTIME && strstr(nm, "StreamBeginCapture")) nbegin++;
    }
    if (nann && nann == ndummy) {
        out->has_batch = 1;
        out->batch_size = ann_bs;
        snprintf(out->mode, sizeof out->mode, "%s", ann_mode);
        out->from_annotation = 1;
        return 0;
    }
    snprintf(out->mode, sizeof out->mode, "%s", nbegin <= 1 ? "FULL" : "PIECEWISE");
    /* the most frequent first size over the cpu_ops' inputs, ties to the first seen:
     * collect (value, first position), sort by value, count runs */
    size_t cap = 1024, n = 0;
    int64_t *vals = malloc(cap * sizeof *vals);
    if (!vals) return -1;
    for (uint32_t u = 0; u < t->n; u++) {
        if (t->kind[u] != TSQL_K_CPU_OP) continue;
        size_t len;
        const char *raw = tsql_trace_arg_raw(t, u, "Input Dims", &len);
        tsql_buf b = {0};
        if (!raw && t->args[u]) {
            /* a template with placeholders: expand the args */
            if (tsql_trace_args_json(t, u, &b) < 0) {
                free(vals);
                return -1;
            }
            raw = tsql_template_member(b.p, b.n, "Input Dims", &len);
        }
        cJSON *d = raw ? cJSON_ParseWithLength(raw, len) : NULL;
        free(b.p);
        for (const cJSON *e = d && cJSON_IsArray(d) ? d->child : NULL; e; e = e->next) {
            const cJSON *f = cJSON_IsArray(e) ? e->child : NULL;
            if (!f || !cJSON_IsNumber(f) || (double)(int64_t)f->valuedouble != f->valuedouble) continue;
            if (n == cap) {
                int64_t *nv = realloc(vals, 2 * cap * sizeof *vals);
                if (!nv) {
                    cJSON_Delete(d);
                    free(vals);
                    return -1;
                }
                vals = nv, cap *= 2;
            }
            vals[n++] = (int64_t)f->valuedouble;
        }
        cJSON_Delete(d);
    }
    /* counts with first positions: a keyed sort by value (ties keep file order) */
    tsql_keyed *k = malloc((n ? n : 1) * sizeof *k);
    if (!k) {
        free(vals);
        return -1;
    }
    for (size_t i = 0; i < n; i++) k[i] = (tsql_keyed){(double)vals[i], (uint32_t)i, (uint32_t)i};
    tsql_keyed_sort(k, n);
    size_t best_count = 0, best_first = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && k[j].k == k[i].k) j++;
        size_t cnt = j - i, first = k[i].v;
        if (cnt > best_count || (cnt == best_count && first < best_first)) best_count = cnt, best_first = first;
        i = j;
    }
    if (best_count) {
        out->has_batch = 1;
        out->batch_size = vals[best_first];
    }
    free(k);
    free(vals);
    return 0;
}

/* the second "_"-separated field of s when it is an (optionally negative) integer */
static int second_field_int(const char *s, int64_t *v)
{
    const char *a = strchr(s, '_');
    if (!a) return 0;
    a++;
    const char *b = strchr(a, '_');
    size_t n = b ? (size_t)(b - a) : strlen(a);
    size_t i = (n && a[0] == '-') ? 1 : 0;
    if (i == n) return 0;
    for (size_t j = i; j < n; j++)
        if (!isdigit((unsigned char)a[j])) return 0;
    *v = strtoll(a, NULL, 10);
    return 1;
}

static int has_graphlaunch(const char *s)
{
    for (; *s; s++)
        if (tolower((unsigned char)*s) == 'g' && strncasecmp(s, "graphlaunch", 11) == 0) return 1;
    return 0;
}

void tsql_exec_roots_free(tsql_exec_root *r, size_t n)
{
    for (size_t i = 0; r && i < n; i++) free(r[i].graphs);
    free(r);
}

int tsql_exec_roots(const tsql_trace *t, tsql_exec_root **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    /* candidates of each tier, and the graph launches, by ts */
    size_t nc[2] = {0, 0}, ng = 0;
    for (uint32_t u = 0; u < t->n; u++) {
        if (!t->name[u]) continue;
        const char *nm = name_of(t, u);
        if (t->kind[u] == TSQL_K_USER_ANNOTATION) {
            tsql_iter it;
            tsql_iter_parse(nm, &it);
            if (it.format != TSQL_ITER_NONE) nc[it.detailed ? 0 : 1]++;
        }
        if (has_graphlaunch(nm)) ng++;
    }
    int tier = nc[0] ? 0 : 1;
    size_t n = nc[tier];
    if (!n) return 0;
    tsql_keyed *roots = malloc(n * sizeof *roots), *gl = malloc((ng ? ng : 1) * sizeof *gl);
    tsql_exec_root *r = calloc(n, sizeof *r);
    if (!roots || !gl || !r) {
        free(roots);
        free(gl);
        free(r);
        return -1;
    }
    size_t i = 0, j = 0;
    for (uint32_t u = 0; u < t->n; u++) {
        if (!t->name[u]) continue;
        const char *nm = name_of(t, u);
        if (t->kind[u] == TSQL_K_USER_ANNOTATION) {
            tsql_iter it;
            tsql_iter_parse(nm, &it);
            if (it.format != TSQL_ITER_NONE && it.detailed == !tier)
                roots[i] = (tsql_keyed){tsql_trace_ts_us(t, u), (uint32_t)i, u}, i++;
        }
        if (has_graphlaunch(nm)) gl[j] = (tsql_keyed){tsql_trace_ts_us(t, u), (uint32_t)j, u}, j++;
    }
    tsql_keyed_sort(roots, n);
    tsql_keyed_sort(gl, ng);
    int rc = 0;
    for (i = 0; i < n && !rc; i++) {
        uint32_t u = roots[i].v;
        tsql_exec_root *e = &r[i];
        e->uid = u;
        tsql_iter it;
        tsql_iter_parse(name_of(t, u), &it);
        if (it.has_batch) e->has_batch = 1, e->batch_size = it.batch_size;
        else e->has_batch = second_field_int(name_of(t, u), &e->batch_size);
        double ts = tsql_trace_ts_us(t, u), end = ts + tsql_trace_dur_us(t, u);
        /* launches starting in [ts, end] and ending by end; the first by binary search */
        size_t lo = 0, hi = ng;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (gl[mid].k < ts) lo = mid + 1;
            else hi = mid;
        }
        for (size_t g = lo; g < ng && gl[g].k <= end; g++) {
            uint32_t v = gl[g].v;
            if (gl[g].k + tsql_trace_dur_us(t, v) > end) continue;
            uint32_t *ngs = realloc(e->graphs, (e->ngraphs + 1) * sizeof *ngs);
            if (!ngs) {
                rc = -1;
                break;
            }
            e->graphs = ngs;
            e->graphs[e->ngraphs++] = v;
        }
    }
    free(roots);
    free(gl);
    if (rc) {
        tsql_exec_roots_free(r, n);
        return -1;
    }
    *out = r;
    *nout = n;
    return 0;
}

long tsql_capture_select(const tsql_capture_entry *e, size_t n, int64_t batch_size, size_t ngraphs,
                         const char **why)
{
    *why = NULL;
    if (!ngraphs) {
        *why = "the step holds no graph launch";
        return -1;
    }
    int found = 0;
    int64_t cbs = 0;
    for (size_t i = 0; i < n; i++) {
        if (!e[i].mode || (strcmp(e[i].mode, "FULL") != 0 && strcmp(e[i].mode, "PIECEWISE") != 0)) continue;
        if (e[i].batch_size >= batch_size && (!found || e[i].batch_size < cbs)) cbs = e[i].batch_size, found = 1;
    }
    if (!found) {
        *why = "no capture was recorded for this batch size or a larger one";
        return -1;
    }
    long full = -1, piece = -1; /* the last entry of each key with its file */
    for (size_t i = 0; i < n; i++) {
        if (e[i].batch_size != cbs || !e[i].mode || !e[i].file_exists) continue;
        if (!strcmp(e[i].mode, "FULL")) full = (long)i;
        else if (!strcmp(e[i].mode, "PIECEWISE")) piece = (long)i;
    }
    if (full >= 0 && piece >= 0) return ngraphs != 1 ? piece : full;
    if (full >= 0) return full;
    if (piece >= 0) return piece;
    *why = "the capture file of the chosen batch size is missing";
    return -1;
}

/* ---- capture windows ---- */

void tsql_capture_windows_free(tsql_capture_window *w, size_t n)
{
    for (size_t i = 0; w && i < n; i++) free(w[i].dispatch);
    free(w);
}

/* The windows are the capture roots of the merge (capture_merge.c): one implementation
 * of TraceLens's capture-root rules for the plan and the splice. */
int tsql_capture_windows(const tsql_trace *c, tsql_capture_window **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    tsql_capture_tree ct;
    if (tsql_capture_tree_build(c, &ct)) return -1;
    if (!ct.nroots) {
        tsql_capture_tree_free(&ct);
        return 0;
    }
    tsql_capture_window *w = calloc(ct.nroots, sizeof *w);
    int rc = w ? 0 : -1;
    for (size_t i = 0; i < ct.nroots && !rc; i++) {
        const tsql_capture_root *r = &ct.roots[i];
        w[i].start = r->start;
        w[i].end = r->end;
        w[i].nroots = r->ntop;
        w[i].ndispatch = r->ndispatch;
        if (!(w[i].dispatch = malloc((r->ndispatch ? r->ndispatch : 1) * sizeof *w[i].dispatch))) rc = -1;
        else if (r->ndispatch) memcpy(w[i].dispatch, r->dispatch, r->ndispatch * sizeof *w[i].dispatch);
    }
    if (rc) {
        tsql_capture_windows_free(w, ct.nroots);
        tsql_capture_tree_free(&ct);
        return -1;
    }
    *out = w;
    *nout = ct.nroots;
    tsql_capture_tree_free(&ct);
    return 0;
}

/* ---- replayed kernels of a graph launch ---- */

typedef struct gk {
    uint32_t launch;
    double ts;
    uint32_t uid;
} gk;

static int cmp_gk(const void *x, const void *y)
{
    const gk *a = x, *b = y;
    if (a->launch != b->launch) return a->launch < b->launch ? -1 : 1;
    if (a->ts != b->ts) return a->ts < b->ts ? -1 : 1;
    return (a->uid > b->uid) - (a->uid < b->uid);
}

void tsql_graph_kernels_free(tsql_graph_kernels *g)
{
    free(g->launch);
    free(g->gpu);
    memset(g, 0, sizeof *g);
}

int tsql_graph_kernels_build(const tsql_trace *t, tsql_graph_kernels *o)
{
    memset(o, 0, sizeof *o);
    const tsql_kernels *K = &t->kernels;
    size_t n = 0;
    for (uint32_t r = 0; r < K->n; r++) n += K->link[r] == TSQL_LINK_GRAPH && K->tl_runtime[r] != TSQL_NONE;
    gk *v = malloc((n ? n : 1) * sizeof *v);
    o->launch = malloc((n ? n : 1) * sizeof *o->launch);
    o->gpu = malloc((n ? n : 1) * sizeof *o->gpu);
    if (!v || !o->launch || !o->gpu) {
        free(v);
        tsql_graph_kernels_free(o);
        return -1;
    }
    n = 0;
    for (uint32_t r = 0; r < K->n; r++)
        if (K->link[r] == TSQL_LINK_GRAPH && K->tl_runtime[r] != TSQL_NONE)
            v[n++] = (gk){K->tl_runtime[r], tsql_trace_ts_us(t, K->uid[r]), K->uid[r]};
    qsort(v, n, sizeof *v, cmp_gk);
    for (size_t i = 0; i < n; i++) o->launch[i] = v[i].launch, o->gpu[i] = v[i].uid;
    o->n = n;
    free(v);
    return 0;
}

const uint32_t *tsql_graph_kernels_of(const tsql_graph_kernels *g, uint32_t launch, size_t *n)
{
    size_t lo = 0, hi = g->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (g->launch[mid] < launch) lo = mid + 1;
        else hi = mid;
    }
    size_t end = lo;
    while (end < g->n && g->launch[end] == launch) end++;
    *n = end - lo;
    return g->gpu + lo;
}

/* ---- alignment ---- */

/* the kernel name a dispatch recorded (args.kernel), or NULL; *buf holds it */
static const char *dispatch_kernel(const tsql_trace *c, uint32_t u, char *buf, size_t bufsz)
{
    size_t len;
    const char *raw = tsql_trace_arg_raw(c, u, "kernel", &len);
    if (!raw) return NULL;
    cJSON *j = cJSON_ParseWithLength(raw, len);
    const char *r = NULL;
    if (j && cJSON_IsString(j)) {
        snprintf(buf, bufsz, "%s", j->valuestring);
        r = buf;
    }
    cJSON_Delete(j);
    return r;
}

typedef struct disp {
    uint32_t uid;
    const char *name;   /* the call's name */
    char *kname;        /* args.kernel, or NULL */
} disp;

static int name_match(const disp *d, const char *g)
{
    if (strstr(d->name, "Memcpy") && strstr(g, "Memcpy")) return 1;
    if (strstr(d->name, "Memset") && (strstr(g, "Memset") || strstr(g, "fillBuffer"))) return 1;
    return strcmp(d->kname ? d->kname : d->name, g) == 0;
}

static int is_copy(const disp *d) { return strstr(d->name, "Memcpy") || strstr(d->name, "Memset"); }

void tsql_capture_pairs_free(tsql_capture_pairs *p)
{
    free(p->kernel);
    free(p->dispatch);
    memset(p, 0, sizeof *p);
}

static int fail_pairs(tsql_capture_pairs *o, const char *why, int whole)
{
    o->code = 0;
    o->why = why;
    o->fails_merge = whole;
    o->n = 0;
    return 0;
}

int tsql_capture_align(const tsql_trace *t, const uint32_t *g, size_t ng, const tsql_trace *c, const uint32_t *d,
                       size_t nd, tsql_capture_pairs *o)
{
    memset(o, 0, sizeof *o);
    if (!ng) return fail_pairs(o, "the graph launch has no replayed GPU events", 0);
    disp *ds = calloc(nd ? nd : 1, sizeof *ds);
    o->kernel = malloc(ng * sizeof *o->kernel);
    o->dispatch = malloc(ng * sizeof *o->dispatch);
    if (!ds || !o->kernel || !o->dispatch) {
        free(ds);
        tsql_capture_pairs_free(o);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < nd && !rc; i++) {
        char buf[4096];
        const char *k = dispatch_kernel(c, d[i], buf, sizeof buf);
        ds[i].uid = d[i];
        ds[i].name = c->name[d[i]] ? name_of(c, d[i]) : "";
        if (k && !(ds[i].kname = strdup(k))) rc = -1;
    }
    int multi = 0;
    int64_t s0 = tsql_icol_get(&t->stream, g[0]);
    for (size_t i = 1; i < ng; i++) multi |= tsql_icol_get(&t->stream, g[i]) != s0;
    if (rc) goto done;
    if (multi) {
        for (size_t i = 0; i < nd; i++)
            if (!ds[i].kname && !is_copy(&ds[i])) {
                fail_pairs(o, "the replayed kernels run on several streams and a capture launch did not record "
                              "its kernel name (args.kernel)", 1);
                goto done;
            }
        /* per-stream FIFO queues of the replayed kernels (indices into g), streams in
         * first-appearance order */
        int64_t *streams = malloc(ng * sizeof *streams);
        size_t *head = calloc(ng, sizeof *head), nst = 0, *qn = calloc(ng, sizeof *qn);
        size_t **q = calloc(ng, sizeof *q);
        uint32_t *by_g = calloc(ng, sizeof *by_g); /* the dispatch paired with g[i], 0 = none yet */
        int *has = calloc(ng, sizeof *has);
        if (!streams || !head || !q || !qn || !by_g || !has) rc = -1;
        for (size_t i = 0; i < ng && !rc; i++) {
            int64_t st = tsql_icol_get(&t->stream, g[i]);
            size_t j = 0;
            while (j < nst && streams[j] != st) j++; /* streams are few */
            if (j == nst) {
                streams[nst] = st;
                if (!(q[nst] = malloc(ng * sizeof **q))) rc = -1;
                nst++;
            }
            if (!rc) q[j][qn[j]++] = i;
        }
        for (size_t i = 0; i < nd && !rc; i++) {
            size_t best = SIZE_MAX, best_run = 0;
            for (size_t j = 0; j < nst; j++) {
                if (head[j] >= qn[j] || !name_match(&ds[i], name_of(t, g[q[j][head[j]]]))) continue;
                /* the longest run of consecutive dispatches this queue matches from here */
                size_t run = 0;
                while (i + run < nd && head[j] + run < qn[j] &&
                       name_match(&ds[i + run], name_of(t, g[q[j][head[j] + run]])))
                    run++;
                if (best == SIZE_MAX || run > best_run) best = j, best_run = run;
            }
            if (best == SIZE_MAX) continue; /* dropped */
            size_t gi = q[best][head[best]++];
            by_g[gi] = ds[i].uid, has[gi] = 1;
        }
        int complete = !rc;
        for (size_t i = 0; i < ng && complete; i++) complete = has[i];
        if (!rc && !complete) {
            fail_pairs(o, "some replayed kernels found no capture launch on their stream", 0);
        } else if (!rc) {
            /* the pairs in replay order (by ts) */
            for (size_t i = 0; i < ng; i++) o->kernel[i] = g[i], o->dispatch[i] = by_g[i];
            o->n = ng;
            o->code = 4;
        }
        for (size_t j = 0; j < nst; j++) free(q[j]);
        free(streams);
        free(head);
        free(q);
        free(qn);
        free(by_g);
        free(has);
        goto done;
    }
    if (nd != ng) {
        /* greedy: each kernel takes the next dispatch that matches its name */
        size_t j = 0;
        for (size_t i = 0; i < ng; i++) {
            while (j < nd && !((ds[j].kname || is_copy(&ds[j])) && name_match(&ds[j], name_of(t, g[i])))) j++;
            if (j == nd) {
                fail_pairs(o, "the capture has a different number of launches and some replayed kernel matches "
                              "none of the remaining ones", 0);
                goto done;
            }
            o->kernel[i] = g[i];
            o->dispatch[i] = ds[j++].uid;
        }
        o->n = ng;
        o->code = 2;
        goto done;
    }
    /* equal counts: positional unless a name differs */
    size_t first_bad = ng;
    for (size_t i = 0; i < ng && first_bad == ng; i++) {
        if (!ds[i].kname || is_copy(&ds[i])) continue; /* accepted unchecked */
        if (!name_match(&ds[i], name_of(t, g[i]))) first_bad = i;
    }
    if (first_bad == ng) {
        for (size_t i = 0; i < ng; i++) o->kernel[i] = g[i], o->dispatch[i] = ds[i].uid;
        o->n = ng;
        o->code = 1;
        goto done;
    }
    /* reorder the kernels to the dispatch order, name by name; the name counts must agree:
     * the kernels sorted by (name id, position), one cursor per name */
    {
        tsql_keyed *k = malloc(ng * sizeof *k);
        size_t *cur = NULL;
        if (!k) {
            rc = -1;
            goto done;
        }
        for (size_t i = 0; i < ng; i++) k[i] = (tsql_keyed){(double)t->name[g[i]], (uint32_t)i, (uint32_t)i};
        tsql_keyed_sort(k, ng);
        for (size_t i = 0; i < nd; i++) {
            const char *want = ds[i].kname ? ds[i].kname : ds[i].name;
            uint32_t id = tsql_intern_find(&t->strings, want, strlen(want));
            /* the first entry of that name, then the name's cursor */
            size_t lo = 0, hi = ng;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (k[mid].k < (double)id) lo = mid + 1;
                else hi = mid;
            }
            if (!cur && !(cur = calloc(ng + 1, sizeof *cur))) {
                rc = -1;
                break;
            }
            size_t at = lo + cur[lo];
            if (id == 0 || at >= ng || k[at].k != (double)id) {
                fail_pairs(o, "the capture launches and the replayed kernels have different kernel-name counts", 0);
                break;
            }
            cur[lo]++;
            o->kernel[i] = g[k[at].v];
            o->dispatch[i] = ds[i].uid;
        }
        int ok = !rc && !o->why;
        free(k);
        free(cur);
        if (ok) {
            o->n = ng;
            o->code = 3;
        }
    }
done:
    for (size_t i = 0; i < nd; i++) free(ds[i].kname);
    free(ds);
    if (rc) {
        tsql_capture_pairs_free(o);
        return -1;
    }
    return 0;
}

/* ---- the whole plan ---- */

void tsql_capture_plan_free(tsql_capture_plan *p)
{
    for (size_t i = 0; i < p->nentries; i++) {
        free(p->file[i]);
        free(p->mode[i]);
    }
    free(p->file);
    free(p->batch_size);
    free(p->mode);
    free(p->launch);
    memset(p, 0, sizeof *p);
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *s = malloc(n);
    if (s) snprintf(s, n, "%s/%s", dir, name);
    return s;
}

static int add_entry(tsql_capture_plan *p, char *file, int64_t bs, const char *mode)
{
    char **f = realloc(p->file, (p->nentries + 1) * sizeof *f);
    if (f) p->file = f;
    int64_t *b = realloc(p->batch_size, (p->nentries + 1) * sizeof *b);
    if (b) p->batch_size = b;
    char **m = realloc(p->mode, (p->nentries + 1) * sizeof *m);
    if (m) p->mode = m;
    char *md = strdup(mode);
    if (!f || !b || !m || !md) {
        free(file);
        free(md);
        return -1;
    }
    p->file[p->nentries] = file;
    p->batch_size[p->nentries] = bs;
    p->mode[p->nentries++] = md;
    return 0;
}

int tsql_capture_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* the manifest, or the folder's traces classified */
static int read_manifest(const char *folder, tsql_capture_plan *p, tsql_error *err)
{
    char *path = join(folder, "execution_details.json");
    if (!path) return tsql_error_set(err, TSQL_ENOMEM, -1, "out of memory"), -1;
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        free(path);
        return tsql_error_set(err, TSQL_EIO, -1, "execution_details.json is not a regular file"), -1;
    }
    FILE *f = fopen(path, "rb");
    free(path);
    if (f) {
        char *text = NULL;
        size_t n = 0, cap = 0;
        for (;;) {
            if (n + 4096 > cap) {
                char *nt = realloc(text, cap = cap * 2 + 8192);
                if (!nt) break;
                text = nt;
            }
            size_t r = fread(text + n, 1, cap - n, f);
            n += r;
            if (!r) break;
        }
        fclose(f);
        cJSON *j = text ? cJSON_ParseWithLength(text, n) : NULL;
        free(text);
        if (!j || !cJSON_IsArray(j)) {
            cJSON_Delete(j);
            tsql_error_set(err, TSQL_EFORMAT, -1,
                           "execution_details.json is not a JSON list of {file, batch_size, mode}");
            return -1;
        }
        for (const cJSON *e = j->child; e; e = e->next) {
            const cJSON *fi = cJSON_GetObjectItemCaseSensitive(e, "file");
            const cJSON *bs = cJSON_GetObjectItemCaseSensitive(e, "batch_size");
            const cJSON *mo = cJSON_GetObjectItemCaseSensitive(e, "mode");
            /* entries without an integer batch size or a text mode are not usable */
            if (!cJSON_IsString(fi) || !cJSON_IsNumber(bs) || bs->valuedouble != (double)(int64_t)bs->valuedouble ||
                !cJSON_IsString(mo))
                continue;
            char *fp = join(folder, fi->valuestring);
            if (!fp || add_entry(p, fp, (int64_t)bs->valuedouble, mo->valuestring)) {
                cJSON_Delete(j);
                return tsql_error_set(err, TSQL_ENOMEM, -1, "out of memory"), -1;
            }
        }
        cJSON_Delete(j);
        return 0;
    }
    DIR *d = opendir(folder);
    if (!d) return tsql_error_set(err, TSQL_EIO, -1, "cannot read the capture folder"), -1;
    char **names = NULL;
    size_t nn = 0;
    int rc = 0;
    for (struct dirent *e; (e = readdir(d)) && !rc;) {
        if (!ends_with(e->d_name, ".json") && !ends_with(e->d_name, ".json.gz")) continue;
        char **nv = realloc(names, (nn + 1) * sizeof *nv);
        if (!nv || !(nv[nn] = strdup(e->d_name))) {
            if (nv) names = nv;
            rc = -1;
            break;
        }
        names = nv;
        nn++;
    }
    closedir(d);
    if (!rc && nn) qsort(names, nn, sizeof *names, cmp_str);
    for (size_t i = 0; i < nn && !rc; i++) {
        char *fp = join(folder, names[i]);
        tsql_error le = {0};
        if (fp && !tsql_capture_regular_file(fp)) { /* a folder, FIFO or device named *.json */
            tsql_error_set(err, TSQL_EIO, -1, "capture trace %s: not a regular file", names[i]);
            free(fp);
            rc = -2;
            break;
        }
        tsql_trace *t = fp ? tsql_trace_load(fp, NULL, &le) : NULL;
        tsql_capture_class cc;
        if (!t) {
            tsql_error_set(err, fp ? le.code : TSQL_ENOMEM, -1, "capture trace %s: %s", names[i], fp ? le.msg : "");
            free(fp);
            rc = -2;
            break;
        }
        if (tsql_capture_classify(t, &cc)) rc = -1;
        tsql_trace_free(t);
        if (!rc && cc.has_batch && add_entry(p, fp, cc.batch_size, cc.mode)) rc = -1;
        else if (rc || !cc.has_batch) free(fp);
    }
    for (size_t i = 0; i < nn; i++) free(names[i]);
    free(names);
    if (rc == -1) tsql_error_set(err, TSQL_ENOMEM, -1, "out of memory");
    return rc ? -1 : 0;
}

int tsql_capture_manifest(const char *folder, tsql_capture_plan *p, tsql_error *err)
{
    memset(p, 0, sizeof *p);
    memset(err, 0, sizeof *err);
    return read_manifest(folder, p, err);
}

static int push_launch(tsql_capture_plan *p, const tsql_capture_launch *l)
{
    tsql_capture_launch *nl = realloc(p->launch, (p->n + 1) * sizeof *nl);
    if (!nl) return -1;
    p->launch = nl;
    p->launch[p->n++] = *l;
    return 0;
}

int tsql_capture_plan_make(const tsql_trace *r, const char *folder, tsql_capture_plan *p, tsql_error *err)
{
    memset(p, 0, sizeof *p);
    memset(err, 0, sizeof *err);
    if (read_manifest(folder, p, err)) {
        tsql_capture_plan_free(p);
        return -1;
    }
    tsql_capture_entry *ent = calloc(p->nentries ? p->nentries : 1, sizeof *ent);
    tsql_trace **loaded = calloc(p->nentries ? p->nentries : 1, sizeof *loaded);
    tsql_exec_root *roots = NULL;
    size_t nroots = 0;
    tsql_graph_kernels gks = {0};
    int rc = 0;
    if (!ent || !loaded || tsql_exec_roots(r, &roots, &nroots) || tsql_graph_kernels_build(r, &gks)) rc = -1;
    for (size_t i = 0; i < p->nentries && !rc; i++) {
        ent[i] = (tsql_capture_entry){p->batch_size[i], p->mode[i], tsql_capture_regular_file(p->file[i])};
    }
    for (size_t s = 0; s < nroots && !rc; s++) {
        tsql_exec_root *x = &roots[s];
        tsql_capture_launch l = {.step = x->uid, .graph = TSQL_NONE, .has_batch = x->has_batch,
                                 .batch_size = x->batch_size, .entry = -1};
        const char *why = NULL;
        long e = -1;
        if (!x->has_batch) why = "the step's annotation gives no batch size";
        else e = tsql_capture_select(ent, p->nentries, x->batch_size, x->ngraphs, &why);
        if (e < 0) {
            l.why = why;
            if (!x->ngraphs) rc = push_launch(p, &l);
            for (size_t g = 0; g < x->ngraphs && !rc; g++) l.graph = x->graphs[g], rc = push_launch(p, &l);
            continue;
        }
        l.entry = e;
        if (!loaded[e]) {
            tsql_error le = {0};
            loaded[e] = tsql_trace_load(p->file[e], NULL, &le);
            if (!loaded[e]) {
                tsql_error_set(err, le.code, -1, "capture trace %s: %s", p->file[e], le.msg);
                rc = -2;
                break;
            }
        }
        tsql_capture_window *w = NULL;
        size_t nw = 0;
        if (tsql_capture_windows(loaded[e], &w, &nw)) {
            rc = -1;
            break;
        }
        for (size_t g = 0; g < x->ngraphs && !rc; g++) {
            l.graph = x->graphs[g];
            l.code = 0, l.why = NULL, l.nkernels = 0;
            const tsql_capture_window *win = nw == 1 ? &w[0] : nw == x->ngraphs ? &w[g] : NULL;
            if (!win) {
                l.why = nw ? "the capture has another number of capture windows than the step has graph launches"
                           : "the capture trace records no StreamBeginCapture / StreamEndCapture pair";
                rc = push_launch(p, &l);
                continue;
            }
            size_t ng = 0;
            const uint32_t *gv = tsql_graph_kernels_of(&gks, l.graph, &ng);
            tsql_capture_pairs pr;
            if (tsql_capture_align(r, gv, ng, loaded[e], win->dispatch, win->ndispatch, &pr)) {
                rc = -1;
                break;
            }
            l.code = pr.code, l.why = pr.why, l.nkernels = pr.n;
            if (pr.fails_merge && !p->fails_merge) p->fails_merge = 1, p->fails_why = pr.why;
            tsql_capture_pairs_free(&pr);
            rc = push_launch(p, &l);
        }
        tsql_capture_windows_free(w, nw);
    }
    for (size_t i = 0; loaded && i < p->nentries; i++) tsql_trace_free(loaded[i]);
    free(loaded);
    free(ent);
    tsql_exec_roots_free(roots, nroots);
    tsql_graph_kernels_free(&gks);
    if (rc) {
        if (rc == -1) tsql_error_set(err, TSQL_ENOMEM, -1, "out of memory");
        tsql_capture_plan_free(p);
        return -1;
    }
    return 0;
}
