/* capture_plan.c — classify capture traces, find engine steps, pick a capture; see
 * capture_plan.h. */
#include "load/capture_plan.h"

#include <ctype.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "perfmodel/iteration.h"
#include "util/sort.h"

static const char *name_of(const tsql_trace *t, uint32_t u) { return tsql_intern_text(&t->strings, t->name[u]); }

/* "vllm/v1/worker/gpu_model_runner.py(<digits>): _dummy_run" at the start */
static int is_dummy_run(const char *s)
{
    static const char pre[] = "vllm/v1/worker/gpu_model_runner.py(";
    if (strncmp(s, pre, sizeof pre - 1)) return 0;
    s += sizeof pre - 1;
    if (!isdigit((unsigned char)*s)) return 0;
    while (isdigit((unsigned char)*s)) s++;
    return strncmp(s, "): _dummy_run", 13) == 0;
}

/* "capture_<digits>_<rest>": 1 with bs and mode */
static int capture_annotation(const char *s, int64_t *bs, const char **mode)
{
    if (strncmp(s, "capture_", 8)) return 0;
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
        if (!e[i].mode || (strcmp(e[i].mode, "FULL") && strcmp(e[i].mode, "PIECEWISE"))) continue;
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
