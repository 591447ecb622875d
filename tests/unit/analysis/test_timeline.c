/* test_timeline.c — unit tests of core/timeline.c: unions, differences, idle gaps,
 * classification, the gpu_timeline rows, and the pandas/numpy summation orders. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timeline.h"
#include "check.h"

#define N(a) (sizeof(a) / sizeof *(a))

static int same_ivs(const tsql_iv *a, size_t na, const tsql_iv *b, size_t nb)
{
    if (na != nb) return 0;
    for (size_t i = 0; i < na; i++)
        if (a[i].start != b[i].start || a[i].end != b[i].end) return 0;
    return 1;
}

static void test_union(void)
{
    /* unsorted; touching intervals merge; nested and zero-length ones vanish into others */
    tsql_iv iv[] = {{5, 6}, {0, 1}, {1, 2}, {3, 4}, {3.5, 3.5}, {2.5, 2.5}, {8, 10}, {8.5, 9}};
    size_t n = tsql_iv_union(iv, N(iv));
    tsql_iv want[] = {{0, 2}, {2.5, 2.5}, {3, 4}, {5, 6}, {8, 10}};
    CHECK(same_ivs(iv, n, want, N(want)));
    CHECK_NEAR(tsql_iv_length(iv, n), 2 + 0 + 1 + 1 + 2, 0);

    tsql_iv one[] = {{7, 9}};
    CHECK_EQ(tsql_iv_union(one, 1), 1);
    CHECK_EQ(tsql_iv_union(NULL, 0), 0);

    /* the radix path (>= 512 intervals) agrees with a plain insertion sort */
    enum { M = 3000 };
    tsql_iv *a = malloc(M * sizeof *a), *b = malloc(M * sizeof *b);
    unsigned s = 12345;
    for (int i = 0; i < M; i++) {
        s = s * 1103515245u + 12345u;
        double st = (double)(s % 100000) / 7.0 - 2000.0; /* negative starts too */
        s = s * 1103515245u + 12345u;
        a[i] = b[i] = (tsql_iv){st, st + (double)(s % 50)};
    }
    size_t na = tsql_iv_union(a, M);
    for (int i = 1; i < M; i++) {
        tsql_iv x = b[i];
        int j = i;
        while (j > 0 && b[j - 1].start > x.start) {
            b[j] = b[j - 1];
            j--;
        }
        b[j] = x;
    }
    size_t nb = tsql_iv_merge_sorted(b, M);
    CHECK(same_ivs(a, na, b, nb));
    for (size_t i = 1; i < na; i++) CHECK(a[i].start > a[i - 1].end);
    free(a);
    free(b);
}

static void test_subtract(void)
{
    tsql_iv out[16];
    /* clipping at both ends and a hole in the middle */
    tsql_iv b1[] = {{0, 10}};
    tsql_iv a1[] = {{-5, 1}, {4, 5}, {9, 20}};
    size_t n = tsql_iv_subtract(b1, 1, a1, N(a1), out);
    tsql_iv w1[] = {{1, 4}, {5, 9}};
    CHECK(same_ivs(out, n, w1, N(w1)));

    /* A touching B at one point removes nothing; covering it removes all */
    tsql_iv b2[] = {{2, 4}, {6, 8}};
    tsql_iv a2[] = {{0, 2}, {4, 6}};
    n = tsql_iv_subtract(b2, N(b2), a2, N(a2), out);
    CHECK(same_ivs(out, n, b2, N(b2)));
    tsql_iv a3[] = {{1, 9}};
    CHECK_EQ(tsql_iv_subtract(b2, N(b2), a3, 1, out), 0);

    /* nothing to subtract; zero-length B intervals give nothing */
    n = tsql_iv_subtract(b2, N(b2), NULL, 0, out);
    CHECK(same_ivs(out, n, b2, N(b2)));
    tsql_iv b4[] = {{3, 3}};
    CHECK_EQ(tsql_iv_subtract(b4, 1, NULL, 0, out), 0);
    CHECK_EQ(tsql_iv_subtract(b4, 1, a3, 1, out), 0);

    /* one A interval spanning several B intervals */
    tsql_iv b5[] = {{0, 2}, {3, 5}, {6, 9}};
    tsql_iv a5[] = {{1, 7}};
    n = tsql_iv_subtract(b5, N(b5), a5, 1, out);
    tsql_iv w5[] = {{0, 1}, {7, 9}};
    CHECK(same_ivs(out, n, w5, N(w5)));
}

static void test_gaps(void)
{
    tsql_iv u[] = {{0, 1}, {3, 4}, {10, 11}, {11.5, 12}};
    double micro, macro;
    tsql_iv_gaps(u, N(u), 2.0, &micro, &macro); /* gaps 2, 6, 0.5 */
    CHECK_NEAR(micro, 0.5, 0);
    CHECK_NEAR(macro, 8.0, 0);
    tsql_iv_gaps(u, N(u), 100, &micro, &macro);
    CHECK_NEAR(micro, 8.5, 0);
    CHECK_NEAR(macro, 0, 0);
    tsql_iv_gaps(u, 1, 1, &micro, &macro);
    CHECK_NEAR(micro + macro, 0, 0);
}

static void test_classify(void)
{
    CHECK_EQ(tsql_gpu_bucket_of(TSQL_K_MEMCPY, "Memcpy HtoD (Pageable -> Device)"), TSQL_GPU_MEMCPY);
    CHECK_EQ(tsql_gpu_bucket_of(TSQL_K_MEMCPY, "ncclDevKernel_AllReduce"), TSQL_GPU_MEMCPY);
    CHECK_EQ(tsql_gpu_bucket_of(TSQL_K_KERNEL, "MEMORY_COPY_DEVICE_TO_HOST"), TSQL_GPU_MEMCPY);
    CHECK_EQ(tsql_gpu_bucket_of(TSQL_K_KERNEL, "__amd_rocclr_copyBufferRectAligned.kd"), TSQL_GPU_MEMCPY);
    CHECK_EQ(tsql_gpu_bucket_of(TSQL_K_KERNEL, "__amd_rocclr_copyBuffer"), TSQL_GPU_MEMCPY);
    CHECK_EQ(tsql_gpu_bucket_of(TSQL_K_KERNEL, "__amd_rocclr_copyBuffer.kd.kd"), TSQL_GPU_COMP);
    CHECK_EQ(tsql_gpu_bucket_of(TSQL_K_KERNEL, "x__amd_rocclr_copyBuffer"), TSQL_GPU_COMP);
    CHECK_EQ(tsql_gpu_bucket_of(TSQL_K_KERNEL, "__amd_rocclr_fillBufferAligned.kd"), TSQL_GPU_COMP);
    CHECK_EQ(tsql_gpu_bucket_of(TSQL_K_KERNEL, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL"), TSQL_GPU_COMM);
    CHECK_EQ(tsql_gpu_bucket_of(TSQL_K_KERNEL, "void RCCLgenericKernel<1>"), TSQL_GPU_COMM);
    CHECK_EQ(tsql_gpu_bucket_of(TSQL_K_KERNEL, "cross_device_reduce_2stage<bf16>"), TSQL_GPU_COMM);
    CHECK_EQ(tsql_gpu_bucket_of(TSQL_K_MEMSET, "Memset (Device)"), TSQL_GPU_COMP);
    CHECK_EQ(tsql_gpu_bucket_of(TSQL_K_MEMSET, "nccl memset"), TSQL_GPU_COMM);
    CHECK_EQ(tsql_gpu_bucket_of(TSQL_K_KERNEL, NULL), TSQL_GPU_COMP);
    CHECK(tsql_is_rocm_copy_kernel("MEMORY_COPY_HOST_TO_DEVICE.kd"));
    CHECK(!tsql_is_rocm_copy_kernel("MEMORY_COPY_HOST_TO_HOST"));
    CHECK(tsql_is_rocm_fill_kernel("__amd_rocclr_fillBuffer"));
    CHECK(!tsql_is_rocm_fill_kernel("__amd_rocclr_fillBufferRect"));
}

static double row(const tsql_timeline *t, int kind)
{
    for (int r = 0; r < t->nrows; r++)
        if (t->kind[r] == kind) return t->us[r];
    return -1;
}

static void test_timeline(void)
{
    /* comp [0,10] [12,20]; comm [8,15] (exposed 10..12 = 2); memcpy [18,25] (exposed
     * 20..25 = 5) and [14,14.5] (hidden by comm); a gap 25..30; comp [30,31] */
    tsql_iv iv[] = {{18, 25}, {0, 10}, {12, 20}, {8, 15}, {14, 14.5}, {30, 31}};
    uint8_t b[] = {TSQL_GPU_MEMCPY, TSQL_GPU_COMP, TSQL_GPU_COMP, TSQL_GPU_COMM, TSQL_GPU_MEMCPY,
                   TSQL_GPU_COMP};
    tsql_timeline t;
    CHECK_EQ(tsql_timeline_compute(iv, b, N(iv), -1, &t), 0);
    CHECK_EQ(t.nrows, 8);
    CHECK_EQ(t.nevents, 6);
    static const int order[] = {TSQL_TL_COMPUTATION, TSQL_TL_EXPOSED_COMM, TSQL_TL_EXPOSED_MEMCPY,
                                TSQL_TL_BUSY,        TSQL_TL_IDLE,         TSQL_TL_TOTAL,
                                TSQL_TL_TOTAL_COMM,  TSQL_TL_TOTAL_MEMCPY};
    for (int r = 0; r < 8; r++) CHECK_EQ(t.kind[r], order[r]);
    CHECK_NEAR(row(&t, TSQL_TL_COMPUTATION), 19, 0);
    CHECK_NEAR(row(&t, TSQL_TL_EXPOSED_COMM), 2, 0);
    CHECK_NEAR(row(&t, TSQL_TL_EXPOSED_MEMCPY), 5, 0);
    CHECK_NEAR(row(&t, TSQL_TL_BUSY), 26, 0);
    CHECK_NEAR(row(&t, TSQL_TL_IDLE), 5, 0);
    CHECK_NEAR(row(&t, TSQL_TL_TOTAL), 31, 0);
    CHECK_NEAR(row(&t, TSQL_TL_TOTAL_COMM), 7, 0);
    CHECK_NEAR(row(&t, TSQL_TL_TOTAL_MEMCPY), 7.5, 0);
    /* TraceLens's identity */
    CHECK_NEAR(row(&t, TSQL_TL_COMPUTATION) + row(&t, TSQL_TL_EXPOSED_COMM) +
                   row(&t, TSQL_TL_EXPOSED_MEMCPY) + row(&t, TSQL_TL_IDLE),
               row(&t, TSQL_TL_TOTAL), 1e-12);
    CHECK_STR(tsql_timeline_row_names[t.kind[0]], "computation_time");
    CHECK_STR(tsql_timeline_row_names[t.kind[7]], "total_memcpy_time");

    /* micro / macro idle replace idle_time in place; gaps of 1 and 7 µs */
    tsql_iv iv2[] = {{0, 1}, {2, 3}, {10, 11}};
    uint8_t b2[] = {0, 0, 0};
    CHECK_EQ(tsql_timeline_compute(iv2, b2, N(iv2), 5.0, &t), 0);
    CHECK_EQ(t.nrows, 9);
    CHECK_EQ(t.kind[4], TSQL_TL_MICRO_IDLE);
    CHECK_EQ(t.kind[5], TSQL_TL_MACRO_IDLE);
    CHECK_EQ(t.kind[6], TSQL_TL_TOTAL);
    CHECK_NEAR(t.us[4], 1, 0); /* gap 1 < 5 */
    CHECK_NEAR(t.us[5], 7, 0); /* gap 7 >= 5 */
    /* a gap equal to the threshold is macro */
    tsql_iv iv3[] = {{0, 1}, {6, 7}};
    uint8_t b3[] = {0, 0};
    CHECK_EQ(tsql_timeline_compute(iv3, b3, 2, 5.0, &t), 0);
    CHECK_NEAR(t.us[4], 0, 0);
    CHECK_NEAR(t.us[5], 5, 0);
    /* threshold 0: every gap is macro */
    CHECK_EQ(tsql_timeline_compute(iv3, b3, 2, 0.0, &t), 0);
    CHECK_NEAR(t.us[5], 5, 0);

    /* no events: no rows */
    CHECK_EQ(tsql_timeline_compute(NULL, NULL, 0, -1, &t), 0);
    CHECK_EQ(t.nrows, 0);

    /* doubles as TraceLens has them: ts + dur in double arithmetic, summed in order */
    tsql_iv iv4[] = {{0.1, 0.1 + 0.2}, {0.7, 0.7 + 0.1}};
    uint8_t b4[] = {0, 0};
    CHECK_EQ(tsql_timeline_compute(iv4, b4, 2, -1, &t), 0);
    CHECK(row(&t, TSQL_TL_COMPUTATION) == (0.1 + 0.2 - 0.1) + (0.7 + 0.1 - 0.7));
    CHECK(row(&t, TSQL_TL_TOTAL) == 0.7 + 0.1 - 0.1);
}

static void test_sums(void)
{
    double v[300];
    for (int i = 0; i < 300; i++) v[i] = 0.1 * (i % 7) + 1e-3 * i;
    /* Kahan: against a long-double reference it is exact to the last bit here */
    long double ref = 0;
    for (int i = 0; i < 300; i++) ref += v[i];
    CHECK(tsql_kahan_sum(v, 300) == (double)ref);
    /* pairwise: straight below 8 values, 8 accumulators up to 128, halves above */
    CHECK(tsql_pairwise_sum(v, 5) == (((0.0 + v[0]) + v[1]) + v[2]) + v[3] + v[4]);
    double r[8];
    for (int j = 0; j < 8; j++) r[j] = v[j] + v[j + 8];
    double want = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    want += v[16];
    CHECK(tsql_pairwise_sum(v, 17) == want);
    /* 300 = 144 + 156 (n/2 = 150 rounded down to a multiple of 8) */
    CHECK(tsql_pairwise_sum(v, 300) == tsql_pairwise_sum(v, 144) + tsql_pairwise_sum(v + 144, 156));
    CHECK(tsql_kahan_sum(v, 0) == 0 && tsql_pairwise_sum(v, 0) == 0);
}

int main(void)
{
    test_union();
    test_subtract();
    test_gaps();
    test_classify();
    test_timeline();
    test_sums();
    return check_report("test_timeline");
}
