/* test_timeline.c — unit tests of core/analysis/timeline.c: classification of GPU
 * events and the gpu_timeline rows (the interval algebra is tests/unit/util/test_interval.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timeline.h"
#include "check.h"

#define N(a) (sizeof(a) / sizeof *(a))

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

int main(void)
{
    test_classify();
    test_timeline();
    return check_report("test_timeline");
}
