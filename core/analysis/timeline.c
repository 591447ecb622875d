/* timeline.c — the GPU timeline: buckets of GPU events and the sheet rows; see timeline.h. */
#include "analysis/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "tree/tree.h"

const char *const tsql_timeline_row_names[TSQL_TL_NKINDS] = {
    "computation_time", "exposed_comm_time", "exposed_memcpy_time", "busy_time",
    "idle_time",        "micro_idle_time",   "macro_idle_time",     "total_time",
    "total_comm_time",  "total_memcpy_time",
};

/* ---------- classification ---------- */

static int name_in(const char *s, size_t n, const char *const *set, size_t nset)
{
    for (size_t i = 0; i < nset; i++)
        if (strlen(set[i]) == n && memcmp(set[i], s, n) == 0) return 1;
    return 0;
}

/* name is one of set, optionally followed by ".kd" */
static int full_match(const char *name, const char *const *set, size_t nset)
{
    if (!name) return 0;
    size_t n = strlen(name);
    if (name_in(name, n, set, nset)) return 1;
    return n > 3 && memcmp(name + n - 3, ".kd", 3) == 0 && name_in(name, n - 3, set, nset);
}

int tsql_is_rocm_copy_kernel(const char *name)
{
    static const char *const set[] = {
        "MEMORY_COPY_HOST_TO_DEVICE",       "MEMORY_COPY_DEVICE_TO_HOST",
        "MEMORY_COPY_DEVICE_TO_DEVICE",     "__amd_rocclr_copyBuffer",
        "__amd_rocclr_copyBufferAligned",   "__amd_rocclr_copyBufferRect",
        "__amd_rocclr_copyBufferRectAligned",
    };
    return full_match(name, set, sizeof set / sizeof *set);
}

int tsql_is_rocm_fill_kernel(const char *name)
{
    static const char *const set[] = {"__amd_rocclr_fillBuffer", "__amd_rocclr_fillBufferAligned"};
    return full_match(name, set, sizeof set / sizeof *set);
}

int tsql_gpu_bucket_of(int kind, const char *name)
{
    if (kind == TSQL_K_MEMCPY) return TSQL_GPU_MEMCPY;
    if (kind == TSQL_K_KERNEL) {
        if (tsql_is_rocm_copy_kernel(name)) return TSQL_GPU_MEMCPY;
        if (tsql_is_rocm_fill_kernel(name)) return TSQL_GPU_COMP;
    }
    return tsql_is_comm_name(name) ? TSQL_GPU_COMM : TSQL_GPU_COMP;
}

/* ---------- the sheet ---------- */

int tsql_timeline_compute(tsql_iv *iv, uint8_t *bucket, size_t n, double micro_idle_us,
                          tsql_timeline *out)
{
    memset(out, 0, sizeof *out);
    out->nevents = (uint32_t)n;
    if (n == 0) return 0;
    /* one sort; each bucket is then a sorted subsequence */
    uint32_t *perm = malloc(n * sizeof *perm);
    tsql_iv *mem = malloc(6 * n * sizeof *mem);
    if (!perm || !mem || tsql_iv_order(iv, n, perm)) {
        free(perm);
        free(mem);
        return -1;
    }
    tsql_iv *all = mem, *part[3] = {mem + n, mem + 2 * n, mem + 3 * n};
    tsql_iv *x1 = mem + 4 * n, *x2 = mem + 5 * n; /* differences: each <= n intervals */
    size_t np[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        uint32_t j = perm[i];
        all[i] = iv[j];
        int b = bucket[j] <= TSQL_GPU_MEMCPY ? bucket[j] : TSQL_GPU_COMP;
        part[b][np[b]++] = iv[j];
    }
    free(perm);
    size_t nall = tsql_iv_merge_sorted(all, n);
    size_t ncomp = tsql_iv_merge_sorted(part[TSQL_GPU_COMP], np[TSQL_GPU_COMP]);
    size_t ncomm = tsql_iv_merge_sorted(part[TSQL_GPU_COMM], np[TSQL_GPU_COMM]);
    size_t nmem = tsql_iv_merge_sorted(part[TSQL_GPU_MEMCPY], np[TSQL_GPU_MEMCPY]);
    const tsql_iv *comp = part[TSQL_GPU_COMP], *comm = part[TSQL_GPU_COMM],
                  *memcpy_ = part[TSQL_GPU_MEMCPY];

    double v[TSQL_TL_NKINDS];
    v[TSQL_TL_COMPUTATION] = tsql_iv_length(comp, ncomp);
    v[TSQL_TL_TOTAL_COMM] = tsql_iv_length(comm, ncomm);
    size_t n1 = tsql_iv_subtract(comm, ncomm, comp, ncomp, x1);
    v[TSQL_TL_EXPOSED_COMM] = tsql_iv_length(x1, n1);
    v[TSQL_TL_TOTAL_MEMCPY] = tsql_iv_length(memcpy_, nmem);
    n1 = tsql_iv_subtract(memcpy_, nmem, comp, ncomp, x1);
    size_t n2 = tsql_iv_subtract(x1, n1, comm, ncomm, x2);
    v[TSQL_TL_EXPOSED_MEMCPY] = tsql_iv_length(x2, n2);
    v[TSQL_TL_BUSY] = tsql_iv_length(all, nall);
    v[TSQL_TL_TOTAL] = all[nall - 1].end - all[0].start;
    v[TSQL_TL_IDLE] = v[TSQL_TL_TOTAL] - v[TSQL_TL_BUSY];
    int split = micro_idle_us >= 0; /* false for NaN too */
    v[TSQL_TL_MICRO_IDLE] = v[TSQL_TL_MACRO_IDLE] = 0;
    if (split) tsql_iv_gaps(all, nall, micro_idle_us, &v[TSQL_TL_MICRO_IDLE], &v[TSQL_TL_MACRO_IDLE]);
    out->first_start = all[0].start;
    out->last_end = all[nall - 1].end;
    free(mem);

    static const uint8_t plain[] = {TSQL_TL_COMPUTATION, TSQL_TL_EXPOSED_COMM,
                                    TSQL_TL_EXPOSED_MEMCPY, TSQL_TL_BUSY, TSQL_TL_IDLE,
                                    TSQL_TL_TOTAL, TSQL_TL_TOTAL_COMM, TSQL_TL_TOTAL_MEMCPY};
    static const uint8_t with_split[] = {TSQL_TL_COMPUTATION, TSQL_TL_EXPOSED_COMM,
                                         TSQL_TL_EXPOSED_MEMCPY, TSQL_TL_BUSY,
                                         TSQL_TL_MICRO_IDLE, TSQL_TL_MACRO_IDLE,
                                         TSQL_TL_TOTAL, TSQL_TL_TOTAL_COMM,
                                         TSQL_TL_TOTAL_MEMCPY};
    const uint8_t *order = split ? with_split : plain;
    out->nrows = split ? 9 : 8;
    for (int r = 0; r < out->nrows; r++) {
        out->kind[r] = order[r];
        out->us[r] = v[order[r]];
    }
    return 0;
}

int tsql_timeline_of_trace(const tsql_trace *t, int linked_only, double micro_idle_us,
                           tsql_timeline *out)
{
    const tsql_kernels *K = &t->kernels;
    size_t nk = K->n ? K->n : 1;
    tsql_iv *iv = malloc(nk * sizeof *iv);
    uint8_t *bucket = malloc(nk);
    /* bucket per distinct name (names repeat): 0 = not yet known, else bucket + 1 */
    uint8_t *cache = calloc((size_t)t->strings.n + 1, 1);
    if (!iv || !bucket || !cache) {
        free(iv);
        free(bucket);
        free(cache);
        return -1;
    }
    size_t n = 0;
    for (uint32_t k = 0; k < K->n; k++) {
        if (linked_only && K->tl_runtime[k] == TSQL_NONE) continue;
        uint32_t u = K->uid[k];
        if (t->ts_ns[u] == TSQL_NULL || t->dur_ns[u] == TSQL_NULL) continue;
        double ts = tsql_trace_ts_us(t, u);
        iv[n].start = ts;
        iv[n].end = ts + tsql_trace_dur_us(t, u);
        int kind = t->kind[u];
        uint32_t nm = t->name[u];
        uint8_t b;
        if (kind == TSQL_K_MEMCPY) {
            b = TSQL_GPU_MEMCPY;
        } else {
            /* the name decides for kernels and memsets; the kind only matters for the
             * ROCm copy/fill names, which are kernels in practice */
            if (!cache[nm]) {
                int bk = tsql_gpu_bucket_of(TSQL_K_KERNEL, tsql_intern_str(&t->strings, nm));
                int bm = K->is_comm[k] ? TSQL_GPU_COMM : TSQL_GPU_COMP;
                cache[nm] = (uint8_t)(1 + (bk | (bm << 2)));
            }
            int packed = cache[nm] - 1;
            b = kind == TSQL_K_KERNEL ? (uint8_t)(packed & 3) : (uint8_t)(packed >> 2);
        }
        bucket[n++] = b;
    }
    free(cache);
    int rc = tsql_timeline_compute(iv, bucket, n, micro_idle_us, out);
    free(iv);
    free(bucket);
    return rc;
}
