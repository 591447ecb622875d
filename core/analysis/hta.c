/*
 * hta.c — HTA's event table of one trace (see hta.h and docs/hta.md): which events
 * are rows, the µs rounding, index_correlation, iteration, the last-step cut and the
 * name classes. Every step is a linear pass or a sort.
 */
#include "analysis/hta.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store/icol.h"

const char *const tsql_hta_ktype_names[4] = {"COMPUTATION", "COMMUNICATION", "MEMORY", "OTHER"};

static int starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

int tsql_hta_kernel_type(const char *name)
{
    const char *s = name ? name : "";
    if (starts(s, "nccl") || starts(s, "hip") || starts(s, "hccl") || strstr(s, "ncclKernel"))
        return TSQL_HTA_COMMUNICATION;
    if (starts(s, "Memcpy") || starts(s, "hipMemcpy") || starts(s, "Memset") || starts(s, "hipMemset") ||
        starts(s, "dma"))
        return TSQL_HTA_MEMORY;
    /* COMPUTATION unless a name HTA lists as not a computation kernel */
    const char *launch = starts(s, "cuda") ? strstr(s + 4, "LaunchKernel") : NULL;
    if (strstr(s, "Memcpy") || strstr(s, "Memset") || strstr(s, "dma") || strstr(s, "Sync") ||
        starts(s, "Stream Wait Event") || launch || starts(s, "runFunction") || starts(s, "job_exe") ||
        starts(s, "packet") || starts(s, "pe_exe") || starts(s, "cpum_exe_subgraph") ||
        starts(s, "collective_subgraph_execution"))
        return TSQL_HTA_OTHER;
    return TSQL_HTA_COMPUTATION;
}

int tsql_hta_name_flags(const char *name)
{
    static const char *const queue[] = {
        "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
        "cudaMemcpyAsync", "cudaMemsetAsync", "runFunction - job_prep_and_submit_for_execution",
        "hipLaunchKernel", "hipExtModuleLaunchKernel", "hipMemsetAsync", "hipMemcpyAsync",
        "hipMemcpyWithStream"};
    if (!name) return 0;
    int f = 0;
    if (!strcmp(name, "cudaLaunchKernel") || !strcmp(name, "cudaLaunchKernelExC") ||
        !strcmp(name, "runFunction - job_prep_and_submit_for_execution"))
        f |= TSQL_HTA_LAUNCH_STATS;
    if (!strcmp(name, "cudaMemsetAsync") || !strcmp(name, "cudaMemcpyAsync")) f |= TSQL_HTA_MEM_LAUNCH;
    for (size_t i = 0; i < sizeof queue / sizeof *queue; i++)
        if (!strcmp(name, queue[i])) f |= TSQL_HTA_QUEUE_LAUNCH;
    /* (cuda.*LaunchKernel)|(cuLaunchKernel)|(^runFunction) at the start */
    if ((starts(name, "cuda") && strstr(name + 4, "LaunchKernel")) || starts(name, "cuLaunchKernel") ||
        starts(name, "runFunction"))
        f |= TSQL_HTA_ATEN_LAUNCH;
    return f;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

int64_t tsql_hta_step_number(const char *name)
{
    if (!name || !starts(name, "ProfilerStep")) return -2;
    const char *p = name + 12;
    while (is_space(*p)) p++;
    if (*p++ != '#') return -1;
    while (is_space(*p)) p++;
    if (*p < '0' || *p > '9') return -1;
    int64_t v = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (INT64_MAX - 9) / 10) return -1; /* too long to be a step number */
        v = v * 10 + (*p - '0');
    }
    return v;
}

int tsql_hta_is_step_name(const char *name)
{
    return name && starts(name, "ProfilerStep#") && name[13] >= '0' && name[13] <= '9';
}

int tsql_hta_needs_rounding(const tsql_trace *t)
{
    for (uint32_t u = 0; u < t->n; u++) {
        int64_t ns = t->ts_ns[u];
        if (ns == TSQL_NULL || ns % 1000 != 0 || (t->flags[u] & TSQL_F_TS_INEXACT)) return 1;
    }
    return 0;
}

/* the text of args.<key> of uid into text (NUL-terminated, at most 63 bytes); 0 if
 * absent or longer */
static int arg_text(const tsql_trace *t, uint32_t uid, const char *key, tsql_buf *buf, char text[64])
{
    size_t len = 0;
    const char *v = tsql_trace_arg_raw(t, uid, key, &len);
    if (!v) {
        buf->n = 0;
        long n = tsql_trace_args_json(t, uid, buf);
        if (n > 0) v = tsql_template_member(buf->p, buf->n, key, &len);
    }
    if (!v || !len || len > 63) return 0;
    memcpy(text, v, len);
    text[len] = 0;
    return 1;
}

double tsql_hta_memory_bw(const tsql_trace *t, uint32_t uid, tsql_buf *buf)
{
    char text[64], *end;
    if (!arg_text(t, uid, "memory bandwidth (GB/s)", buf, text)) return 0.0;
    double x = strtod(text, &end);
    return *end ? 0.0 : x;
}

int64_t tsql_hta_arg_int(const tsql_trace *t, uint32_t uid, const char *key, tsql_buf *buf)
{
    char text[64], *end;
    if (!arg_text(t, uid, key, buf, text)) return -1;
    long long x = strtoll(text, &end, 10);
    return *end || end == text ? -1 : (int64_t)x;
}

void tsql_hta_rows_free(void *p)
{
    tsql_hta_rows *r = p;
    if (!r) return;
    free(r->uid);
    free(r->ts);
    free(r->dur);
    free(r->stream);
    free(r->correlation);
    free(r->index_corr);
    free(r->iteration);
    free(r->partner);
    free(r->flags);
    free(r->ktype);
    free(r->dev);
    free(r->launch);
    free(r->steps);
    free(r->step_names);
    free(r);
}

/* 1 if event u is a row: it has a dur and a cat, and the cat is not "Trace". A B/E
 * pair's dur is the store's (the JSON has none), so HTA drops it. */
static int is_row(const tsql_trace *t, uint32_t u)
{
    if (t->dur_ns[u] == TSQL_NULL || t->ts_ns[u] == TSQL_NULL || !t->cat[u] || (t->flags[u] & TSQL_F_PAIRED))
        return 0;
    return strcmp(tsql_intern_str(&t->strings, t->cat[u]), "Trace") != 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* index_correlation (HTA joins CPU-side and GPU-side rows on correlation; where an id
 * has several rows, the last one in table order is each row's partner) */
static int link_rows(tsql_trace *t, tsql_hta_rows *r, const uint32_t *row_of)
{
    uint32_t cnt;
    if (tsql_trace_find_correlation(t, 0, &cnt) < 0) return -1;
    const uint32_t *by = t->by_corr;
    for (uint32_t i = 0; i < t->nby_corr;) {
        int64_t c = tsql_icol_get(&t->correlation, by[i]);
        uint32_t j = i, last_cpu = UINT32_MAX, last_gpu = UINT32_MAX;
        while (j < t->nby_corr && tsql_icol_get(&t->correlation, by[j]) == c) {
            uint32_t row = row_of[by[j]];
            if (row != UINT32_MAX && c != -1) {
                if (r->flags[row] & TSQL_HTA_GPU_SIDE) last_gpu = row; /* uids ascend in a group */
                else last_cpu = row;
            }
            j++;
        }
        if (last_cpu != UINT32_MAX && last_gpu != UINT32_MAX) {
            for (uint32_t k = i; k < j; k++) {
                uint32_t row = row_of[by[k]];
                if (row == UINT32_MAX) continue;
                uint32_t other = (r->flags[row] & TSQL_HTA_GPU_SIDE) ? last_cpu : last_gpu;
                r->index_corr[row] = r->uid[other];
            }
        }
        i = j;
    }
    for (uint32_t i = 0; i < r->n; i++) {
        int64_t ic = r->index_corr[i];
        r->partner[i] = ic >= 0 && ic < (int64_t)t->n ? row_of[ic] : UINT32_MAX;
    }
    return 0;
}

/* find with path halving over "next unpainted segment" links */
static uint32_t next_free(uint32_t *next, uint32_t i)
{
    while (next[i] != i) {
        next[i] = next[next[i]];
        i = next[i];
    }
    return i;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static uint32_t segment_of(const double *b, uint32_t nb, double x)
{
    /* last boundary <= x, or nb when x is before every boundary */
    uint32_t lo = 0, hi = nb;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (b[mid] <= x) lo = mid + 1; else hi = mid;
    }
    return lo ? lo - 1 : nb;
}

/* iteration: a CPU row takes the number of the last step row (table order) whose
 * [ts, ts + dur) holds its ts; a GPU row (stream > 0) that of its launching row. The
 * step intervals are cut into elementary segments, each painted by the last step
 * that covers it (steps in reverse table order, each painting only what is left). */
static int number_iterations(const tsql_trace *t, tsql_hta_rows *r)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < r->n; i++)
        if (tsql_hta_step_number(tsql_intern_str(&t->strings, t->name[r->uid[i]])) != -2) k++;
    uint32_t *steps = malloc((size_t)(k ? k : 1) * sizeof *steps);
    double *b = malloc((size_t)(2 * k + 1) * sizeof *b);
    int64_t *seg = malloc((size_t)(2 * k + 1) * sizeof *seg);
    uint32_t *next = malloc((size_t)(2 * k + 2) * sizeof *next);
    if (!steps || !b || !seg || !next) {
        free(steps), free(b), free(seg), free(next);
        return -1;
    }
    k = 0;
    for (uint32_t i = 0; i < r->n; i++)
        if (tsql_hta_step_number(tsql_intern_str(&t->strings, t->name[r->uid[i]])) != -2) steps[k++] = i;
    uint32_t nb = 0;
    for (uint32_t s = 0; s < k; s++) {
        b[nb++] = r->ts[steps[s]];
        b[nb++] = r->ts[steps[s]] + r->dur[steps[s]];
    }
    qsort(b, nb, sizeof *b, cmp_dbl);
    uint32_t m = 0;
    for (uint32_t i = 0; i < nb; i++)
        if (!m || b[i] != b[m - 1]) b[m++] = b[i];
    nb = m;
    for (uint32_t i = 0; i <= nb; i++) next[i] = i, seg[i] = -1;
    for (uint32_t s = k; s-- > 0;) {
        uint32_t row = steps[s];
        double lo = r->ts[row], hi = r->ts[row] + r->dur[row];
        if (!(hi > lo)) continue;
        int64_t num = tsql_hta_step_number(tsql_intern_str(&t->strings, t->name[r->uid[row]]));
        uint32_t first = segment_of(b, nb, lo); /* lo is a boundary: its own segment */
        for (uint32_t i = next_free(next, first); i < nb && b[i] < hi; i = next_free(next, i)) {
            seg[i] = num;
            next[i] = i + 1;
        }
    }
    for (uint32_t i = 0; i < r->n; i++) {
        int64_t st = r->stream[i];
        int cpu_op = st == 0 && t->kind[r->uid[i]] == TSQL_K_CPU_OP &&
                     !strcmp(tsql_intern_text(&t->strings, t->cat[r->uid[i]]), "cpu_op");
        if (st < 0 || cpu_op) {
            uint32_t g = segment_of(b, nb, r->ts[i]);
            r->iteration[i] = g < nb ? seg[g] : -1;
        }
    }
    for (uint32_t i = 0; i < r->n; i++) {
        if (r->stream[i] <= 0) continue;
        uint32_t p = r->partner[i];
        r->iteration[i] = r->index_corr[i] > 0 && p != UINT32_MAX ? r->iteration[p] : -1;
    }
    free(steps), free(b), free(seg), free(next);
    return 0;
}

/* The cut of the incomplete last step (its rank's part; whether it applies at all
 * depends on every rank and is decided by the views): CPU-side rows before the last
 * start of a ProfilerStep#N row, and the GPU-side rows whose correlation one of them
 * has. */
static int cut_last_step(tsql_hta_rows *r, const tsql_trace *t)
{
    double cut = NAN, cpu_min = NAN;
    for (uint32_t i = 0; i < r->n; i++) {
        if (r->flags[i] & TSQL_HTA_GPU_SIDE) continue;
        if (!(r->ts[i] >= cpu_min)) cpu_min = r->ts[i];
        if (tsql_hta_is_step_name(tsql_intern_str(&t->strings, t->name[r->uid[i]])) && !(r->ts[i] <= cut))
            cut = r->ts[i];
    }
    if (isnan(cut)) cut = cpu_min;
    int64_t *kept = malloc((size_t)(r->n ? r->n : 1) * sizeof *kept);
    if (!kept) return -1;
    uint32_t nk = 0;
    for (uint32_t i = 0; i < r->n; i++) {
        if ((r->flags[i] & TSQL_HTA_GPU_SIDE) || !(r->ts[i] < cut)) continue;
        r->flags[i] |= TSQL_HTA_KEEP;
        kept[nk++] = r->correlation[i];
    }
    qsort(kept, nk, sizeof *kept, cmp_i64);
    for (uint32_t i = 0; i < r->n; i++) {
        if (!(r->flags[i] & TSQL_HTA_GPU_SIDE)) continue;
        int64_t c = r->correlation[i];
        if (bsearch(&c, kept, nk, sizeof *kept, cmp_i64)) r->flags[i] |= TSQL_HTA_KEEP;
    }
    free(kept);
    return 0;
}

tsql_hta_rows *tsql_hta_rows_build(tsql_trace *t, int rounding)
{
    tsql_hta_rows *r = calloc(1, sizeof *r);
    uint32_t *row_of = malloc((size_t)(t->n ? t->n : 1) * sizeof *row_of);
    if (!r || !row_of) goto oom;
    uint32_t n = 0;
    for (uint32_t u = 0; u < t->n; u++) row_of[u] = is_row(t, u) ? n++ : UINT32_MAX;
    size_t m = n ? n : 1;
    r->n = n;
    r->uid = malloc(m * sizeof *r->uid);
    r->ts = malloc(m * sizeof *r->ts);
    r->dur = malloc(m * sizeof *r->dur);
    r->stream = malloc(m * sizeof *r->stream);
    r->correlation = malloc(m * sizeof *r->correlation);
    r->index_corr = malloc(m * sizeof *r->index_corr);
    r->iteration = malloc(m * sizeof *r->iteration);
    r->partner = malloc(m * sizeof *r->partner);
    r->flags = calloc(m, 1);
    r->ktype = malloc(m);
    if (!r->uid || !r->ts || !r->dur || !r->stream || !r->correlation || !r->index_corr || !r->iteration ||
        !r->partner || !r->flags || !r->ktype)
        goto oom;
    r->rounded = rounding && tsql_hta_needs_rounding(t);
    r->min_ts = NAN;
    /* kernel type and launch classes once per distinct name */
    uint8_t *cls = calloc((size_t)t->strings.n + 1, 2);
    if (!cls) goto oom;
    for (uint32_t u = 0; u < t->n; u++) {
        uint32_t i = row_of[u];
        if (i == UINT32_MAX) continue;
        r->uid[i] = u;
        double ts = tsql_trace_ts_us(t, u), dur = tsql_trace_dur_us(t, u);
        if (r->rounded) {
            double end = floor(ts + dur);
            ts = ceil(ts);
            dur = end - ts;
        }
        r->ts[i] = ts;
        r->dur[i] = dur;
        if (!(ts >= r->min_ts)) r->min_ts = ts;
        int64_t st = tsql_icol_get(&t->stream, u), c = tsql_icol_get(&t->correlation, u);
        r->stream[i] = st == TSQL_NULL ? -1 : st;
        r->correlation[i] = c == TSQL_NULL ? -1 : c;
        r->index_corr[i] = r->correlation[i] < 0 ? r->correlation[i] == -1 ? -1 : r->correlation[i] : 0;
        r->iteration[i] = -1;
        uint32_t nm = t->name[u];
        if (!cls[2 * nm]) {
            const char *s = tsql_intern_str(&t->strings, nm);
            cls[2 * nm] = (uint8_t)(1 + tsql_hta_kernel_type(s));
            cls[2 * nm + 1] = (uint8_t)tsql_hta_name_flags(s);
        }
        r->ktype[i] = (uint8_t)(cls[2 * nm] - 1);
        int f = cls[2 * nm + 1];
        if (r->stream[i] != -1) f |= TSQL_HTA_DEV;
        const char *s = tsql_intern_text(&t->strings, nm);
        if ((r->stream[i] >= 0 && r->correlation[i] >= 0) || !strcmp(s, "Event Sync") || !strcmp(s, "Context Sync"))
            f |= TSQL_HTA_GPU_SIDE;
        r->flags[i] = (uint8_t)f;
    }
    free(cls);
    if (link_rows(t, r, row_of) || number_iterations(t, r) || cut_last_step(r, t)) goto oom;
    /* the subsets the views scan, and the step names */
    r->dev = malloc(m * sizeof *r->dev);
    r->launch = malloc(m * sizeof *r->launch);
    r->steps = malloc(m * sizeof *r->steps);
    r->step_names = malloc(m * sizeof *r->step_names);
    if (!r->dev || !r->launch || !r->steps || !r->step_names) goto oom;
    for (uint32_t i = 0; i < n; i++) {
        if (r->flags[i] & TSQL_HTA_DEV) r->dev[r->ndev++] = i;
        if (r->flags[i] & (TSQL_HTA_LAUNCH_STATS | TSQL_HTA_MEM_LAUNCH | TSQL_HTA_QUEUE_LAUNCH | TSQL_HTA_ATEN_LAUNCH))
            r->launch[r->nlaunch++] = i;
        uint32_t nm = t->name[r->uid[i]];
        if (tsql_hta_step_number(tsql_intern_str(&t->strings, nm)) != -2) r->steps[r->nsteps++] = i;
        if (tsql_hta_is_step_name(tsql_intern_str(&t->strings, nm))) r->step_names[r->nstep_names++] = nm;
    }
    qsort(r->step_names, r->nstep_names, sizeof *r->step_names, cmp_u32);
    uint32_t k = 0;
    for (uint32_t i = 0; i < r->nstep_names; i++)
        if (!k || r->step_names[i] != r->step_names[k - 1]) r->step_names[k++] = r->step_names[i];
    r->nstep_names = k;
    free(row_of);
    return r;
oom:
    free(row_of);
    tsql_hta_rows_free(r);
    return NULL;
}

static void *build_rounded(tsql_trace *t) { return tsql_hta_rows_build(t, 1); }
static void *build_unrounded(tsql_trace *t) { return tsql_hta_rows_build(t, 0); }

const tsql_cache_kind tsql_hta_rows_kind = {"hta_rows", build_rounded, tsql_hta_rows_free};
const tsql_cache_kind tsql_hta_rows_unrounded_kind = {"hta_rows_unrounded", build_unrounded, tsql_hta_rows_free};
