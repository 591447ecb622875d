/* gpu_specs.c — built-in GPU peak table and device-name detection; see gpu_specs.h. */
#include "perfmodel/gpu_specs.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

const char *const tsql_gpu_col_names[TSQL_GPU_NPEAKS] = {
    "matrix_fp64", "matrix_fp32", "matrix_tf32", "matrix_fp16", "matrix_bf16", "matrix_fp8",
    "matrix_fp4",  "matrix_int8", "vector_fp64", "vector_fp32", "vector_fp16", "vector_bf16",
};

#define NA NAN

/* peak order: matrix fp64 fp32 tf32 fp16 bf16 fp8 fp4 int8 | vector fp64 fp32 fp16 bf16 */
static const tsql_gpu_spec builtin[] = {
    {"A100", "NVIDIA", 2039, 80,
     {19.5, 156, 156, 312, 312, NA, NA, 624, 9.7, 19.5, 78, 39},
     "A100",
     "NVIDIA A100 Tensor Core GPU datasheet, A100 80GB SXM column, dense (non-sparse) figures: "
     "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
     "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf; vector FP16/BF16 = the non-Tensor "
     "FP16 (78) and BF16 (39) peaks of the NVIDIA A100 Tensor Core GPU Architecture whitepaper "
     "(Table 1); matrix_fp32 = the TF32 Tensor Core peak (FP32 GEMMs run on Tensor Cores as "
     "TF32, as in TraceLens's H100 arch file). No FP8/FP4 on Ampere"},
    {"H100", "NVIDIA", 3350, 80,
     {67, 494.5, 494.5, 989.5, 989.5, 1979, NA, 1979, 34, 67, 133.8, 133.8},
     "H100 !PCIe !NVL",
     "NVIDIA H100 Tensor Core GPU datasheet, H100 SXM column, sparse Tensor Core figures halved: "
     "https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet; vector "
     "FP16/BF16 = the non-Tensor FP16/BF16 peak of the NVIDIA H100 Tensor Core GPU Architecture "
     "whitepaper (H100 SXM5, 133.8); matrix_fp32 = the TF32 Tensor Core peak, as TraceLens's "
     "H100 arch file. No FP4 on Hopper"},
    {"H200", "NVIDIA", 4800, 141,
     {67, 494.5, 494.5, 989.5, 989.5, 1979, NA, 1979, 34, 67, 133.8, 133.8},
     "H200 !NVL",
     "NVIDIA H200 Tensor Core GPU specifications, H200 SXM column, sparse Tensor Core figures "
     "halved: https://www.nvidia.com/en-us/data-center/h200/; the H200 is the H100 SXM's GH100 "
     "GPU (same compute figures on both datasheets), so vector FP16/BF16 = the H100 "
     "architecture whitepaper's non-Tensor FP16/BF16 peak (133.8) and matrix_fp32 = the TF32 "
     "Tensor Core peak. No FP4 on Hopper"},
    {"B200", "NVIDIA", 7700, 180,
     {37, 1100, 1100, 2250, 2250, 4500, 9000, 4500, 37, 75, 150, 150},
     "B200",
     "NVIDIA GB200 NVL72 technical specifications, HGX B200 per-GPU column, sparse Tensor Core "
     "figures halved: https://www.nvidia.com/en-us/data-center/gb200-nvl72/; matrix_fp32 = the "
     "TF32 Tensor Core peak. NVIDIA publishes no non-Tensor FP16/BF16 figure for Blackwell: "
     "vector FP16/BF16 = 2 x the FP32 peak, the ratio of the same SM datapath on Hopper "
     "(whitepaper: 133.8 = 2 x 66.9)"},
    {"MI250X", "AMD", 3276.8, 128,
     {95.7, 95.7, NA, 383, 383, NA, NA, 383, 47.9, 47.9, 95.7, 95.7},
     "MI250",
     "AMD Instinct MI250X accelerator specifications: "
     "https://www.amd.com/en/products/accelerators/instinct/mi200/mi250x.html; AMD publishes no "
     "vector FP16/BF16 figure for CDNA 2: vector FP16/BF16 = the packed FP32 vector peak (95.7), "
     "as TraceLens's MI300X/MI325X arch files take the packed FP32 vector peak for them. No "
     "TF32/FP8/FP4 on CDNA 2"},
    {"MI300X", "AMD", 5300, 192,
     {81, 163, NA, 654, 708, 1273, NA, 2600, 40, 81, 163, 163},
     "MI300X",
     "TraceLens bundled arch file MI300X.json (max achievable TFLOPS, as used by "
     "--gpu_arch_platform MI300X); it has no TF32 or FP4 peak"},
    {"MI325X", "AMD", 6000, 256,
     {97, 194, NA, 794, 843, 1519, NA, 3094, 48, 97, 194, 194},
     "MI325X",
     "TraceLens bundled arch file MI325X.json (max achievable TFLOPS, as used by "
     "--gpu_arch_platform MI325X); it has no TF32 or FP4 peak"},
    {"MI355X", "AMD", 8000, 288,
     {78.6, 157.3, NA, 2516.6, 2516.6, 5033.2, 10066.3, 5033.2, 78.6, 157.3, 157.3, 157.3},
     "MI355X",
     "AMD Instinct MI355X accelerator specifications, dense figures: "
     "https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x.html; vector FP16/BF16 "
     "= the FP32 vector peak (157.3), as TraceLens's MI300X/MI325X arch files do. No TF32 "
     "Matrix Core mode on CDNA 4"},
};

const tsql_gpu_spec *tsql_gpu_specs(size_t *n)
{
    if (n) *n = sizeof builtin / sizeof *builtin;
    return builtin;
}

static int ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

const tsql_gpu_spec *tsql_gpu_spec_find(const char *gpu)
{
    if (!gpu) return NULL;
    for (size_t i = 0; i < sizeof builtin / sizeof *builtin; i++)
        if (ieq(gpu, builtin[i].gpu)) return &builtin[i];
    return NULL;
}

/* case-insensitive search of w[0..n) in s */
static int contains(const char *s, const char *w, size_t n)
{
    if (n == 0) return 1;
    for (; *s; s++) {
        size_t i = 0;
        while (i < n && s[i] && tolower((unsigned char)s[i]) == tolower((unsigned char)w[i])) i++;
        if (i == n) return 1;
    }
    return 0;
}

int tsql_gpu_name_match(const char *pattern, const char *name)
{
    if (!pattern || !name) return 0;
    const char *alt = pattern;
    for (;;) {
        const char *end = strchr(alt, '|');
        if (!end) end = alt + strlen(alt);
        int ok = 0, words = 0;
        const char *p = alt;
        for (;;) {
            while (p < end && *p == ' ') p++;
            if (p >= end) break;
            const char *q = p;
            while (q < end && *q != ' ') q++;
            int neg = *p == '!';
            const char *w = p + neg;
            size_t n = (size_t)(q - w);
            if (n) {
                words++;
                ok = contains(name, w, n) != neg;
                if (!ok) break;
            }
            p = q;
        }
        if (words && ok) return 1;
        if (!*end) return 0;
        alt = end + 1;
    }
}

const char *tsql_gpu_detect(const char *device_name)
{
    for (size_t i = 0; i < sizeof builtin / sizeof *builtin; i++)
        if (tsql_gpu_name_match(builtin[i].name_pattern, device_name)) return builtin[i].gpu;
    return NULL;
}

int tsql_gpu_col_index(const char *compute_spec)
{
    if (!compute_spec) return -1;
    for (int i = 0; i < TSQL_GPU_NPEAKS; i++)
        if (strcmp(compute_spec, tsql_gpu_col_names[i]) == 0) return i;
    return -1;
}
