/*
 * test_perfmodel.c — the perf-model library against TraceLens's reference CSVs
 * (GFLOPS_first, Data Moved (MB)_first, FLOPS/Byte_first, Compute Spec and param:
 * columns of the GEMM / CONV_fwd / SDPA_fwd / UnaryElementwise / BinaryElementwise /
 * Reduce_fwd / Normalization sheets of the h100, mi300 and torch.compile references;
 * perf_params of unified_perf_summary), the worked examples of the reference semantics
 * (section 7), hand-computed formulas for models the references do not exercise,
 * categories, derived metrics, roofline, GPU specs and Python repr text.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "text/jsonout.h"
#include "perfmodel/gpu_specs.h"
#include "perfmodel/extension.h"
#include "perfmodel/internal.h"
#include "perfmodel/perfmodel.h"
#include "text/pyrepr.h"

/* ---- helpers ---- */

static char *pyf(double x)
{
    static char buf[8][TSQL_PY_FLOAT_BUFSZ];
    static int k;
    char *b = buf[k++ % 8];
    tsql_py_float(x, b);
    return b;
}

/* evaluates and keeps the result in a static slot (freed on the next call) */
static tsql_perf *eval(const char *name, const char *args, const char *kernel, int bwd)
{
    static tsql_perf p;
    static int init;
    if (!init) tsql_perf_init(&p), init = 1;
    const char *ks[1] = {kernel};
    tsql_perf_eval(&p, name, args, kernel ? ks : NULL, kernel ? 1 : 0, bwd);
    return &p;
}

static const char *param(const tsql_perf *p, const char *name)
{
    const tsql_pm_param *q = tsql_perf_param(p, name);
    return q ? (q->str ? q->str : "<None>") : "<absent>";
}

static char *dict(const tsql_perf *p)
{
    static tsql_buf b;
    b.n = 0;
    if (tsql_perf_params_dict(p, &b)) return NULL;
    return b.p;
}

/* ---- reference CSV rows (generated from ../shared/conformance/tracelens/...) ---- */

typedef struct refcase {
    const char *name, *args, *kernel;
    const char *gflops, *mb, *fpb, *spec; /* the CSV cells, verbatim */
    const char *pname, *pvalue;           /* one param: column */
} refcase;

static const refcase refs[] = {
    /* h100/Qwen BinaryElementwise */
    {"aten::add",
     "{\"Input Dims\": [[16, 16, 559, 64], [16, 16, 559, 64], []], \"Input type\": [\"c10::"
     "BFloat16\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\": [[572416, 64, 1024, 1], "
     "[572416, 35776, 64, 1], []], \"Concrete Inputs\": [\"\", \"\", \"1\"]}",
     NULL,
     "0.009158656", "52.40625", "0.16666666666666666", "vector_bf16", "shape_in1", "(16, 16, 559, 64)"},
    /* h100/Qwen BinaryElementwise */
    {"aten::mul",
     "{\"Input Dims\": [[16, 559, 1024], [16, 559, 1]], \"Input type\": [\"float\", \"float\"]"
     ", \"Input Strides\": [[572416, 1024, 1], [559, 1, 1]], \"Concrete Inputs\": [\"\", \"\"]"
     "}",
     NULL,
     "0.009158656", "69.90911865234375", "0.12493899463152758", "vector_fp32", "shape_in1", "(16, 559, 1024)"},
    /* h100/Qwen GEMM */
    {"aten::mm",
     "{\"Input Dims\": [[8944, 1024], [1024, 2816]], \"Input type\": [\"c10::BFloat16\", \"c1"
     "0::BFloat16\"], \"Input Strides\": [[1024, 1], [1, 1024]], \"Concrete Inputs\": [\"\", "
     "\"\"]}",
     NULL,
     "51.581550592", "71.0078125", "692.7688414567059", "matrix_bf16", "stride_A", "(1024, 1)"},
    /* h100/Qwen GEMM */
    {"aten::addmm",
     "{\"Input Dims\": [[1024], [8944, 1024], [1024, 1024], [], []], \"Input type\": [\"c10"
     "::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\"], \"Input Strid"
     "es\": [[1], [1024, 1], [1, 1024], [], []], \"Concrete Inputs\": [\"\", \"\", \"\", \"1\", \""
     "1\"]}",
     NULL,
     "18.766086144", "36.939453125", "484.4883413525089", "matrix_bf16", "stride_A", "(1024, 1)"},
    /* h100/Qwen GEMM */
    {"aten::bmm",
     "{\"Input Dims\": [[1, 32, 1], [1, 1, 559]], \"Input type\": [\"float\", \"float\"], \"Inp"
     "ut Strides\": [[32, 1, 1], [559, 559, 1]], \"Concrete Inputs\": [\"\", \"\"]}",
     NULL,
     "3.5776e-05", "0.07049179077148438", "0.4840088749391201", "matrix_fp32", "stride_A", "(32, 1, 1)"},
    /* h100/Qwen Reduce_fwd */
    {"aten::mean",
     "{\"Input Dims\": [[16, 559, 1024], [], [], []], \"Input type\": [\"float\", \"ScalarLis"
     "t\", \"Scalar\", \"\"], \"Input Strides\": [[572416, 1024, 1], [], [], []], \"Concrete I"
     "nputs\": [\"\", \"[-1]\", \"True\", \"\"]}",
     NULL,
     "0.009158656", "34.937503814697266", "0.24999997270342147", "vector_fp32", "reduce_type", "mean"},
    /* h100/Qwen SDPA_fwd */
    {"aten::_scaled_dot_product_flash_attention",
     "{\"Input Dims\": [[16, 16, 559, 64], [16, 16, 559, 64], [16, 16, 559, 64], [], [],"
     " [], []], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Sca"
     "lar\", \"Scalar\", \"Scalar\", \"Scalar\"], \"Input Strides\": [[572416, 35776, 64, 1], ["
     "572416, 35776, 64, 1], [572416, 35776, 64, 1], [], [], [], []], \"Concrete Inputs"
     "\": [\"\", \"\", \"\", \"0.\", \"True\", \"False\", \"0.125\"]}",
     NULL,
     "10.239377408", "69.875", "139.75", "matrix_bf16", "causal", "True"},
    /* h100/Qwen UnaryElementwise */
    {"aten::copy_",
     "{\"Input Dims\": [[16, 16, 559, 64], [16, 16, 559, 64], []], \"Input type\": [\"c10::"
     "BFloat16\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\": [[572416, 35776, 64, 1],"
     " [572416, 64, 1024, 1], []], \"Concrete Inputs\": [\"\", \"\", \"False\"]}",
     NULL,
     "0.009158656", "34.9375", "0.25", "vector_bf16", "op_shape", "(16, 16, 559, 64)"},
    /* h100/Qwen UnaryElementwise */
    {"aten::pow",
     "{\"Input Dims\": [[16, 559, 1024], []], \"Input type\": [\"float\", \"Scalar\"], \"Input "
     "Strides\": [[572416, 1024, 1], []], \"Concrete Inputs\": [\"\", \"2\"]}",
     NULL,
     "0.009158656", "69.875", "0.125", "vector_fp32", "op_shape", "(16, 559, 1024)"},
    /* h100/Qwen UnaryElementwise */
    {"aten::silu",
     "{\"Input Dims\": [[16, 559, 2816]], \"Input type\": [\"c10::BFloat16\"], \"Input Stride"
     "s\": [[1574144, 2816, 1]], \"Concrete Inputs\": [\"\"]}",
     NULL,
     "0.025186304", "96.078125", "0.25", "vector_bf16", "op_shape", "(16, 559, 2816)"},
    /* h100/Qwen UnaryElementwise */
    {"aten::neg",
     "{\"Input Dims\": [[16, 16, 559, 32]], \"Input type\": [\"c10::BFloat16\"], \"Input Stri"
     "des\": [[572416, 64, 1024, 1]], \"Concrete Inputs\": [\"\"]}",
     NULL,
     "0.004579328", "17.46875", "0.25", "vector_bf16", "op_shape", "(16, 16, 559, 32)"},
    /* h100/Qwen UnaryElementwise */
    {"aten::rsqrt",
     "{\"Input Dims\": [[16, 559, 1]], \"Input type\": [\"float\"], \"Input Strides\": [[559, "
     "1, 1]], \"Concrete Inputs\": [\"\"]}",
     NULL,
     "8.944e-06", "0.0682373046875", "0.125", "vector_fp32", "op_shape", "(16, 559, 1)"},
    /* h100/Falconsai BinaryElementwise */
    {"aten::add",
     "{\"Input Dims\": [[4, 197, 768], [4, 197, 768], []], \"Input type\": [\"c10::BFloat16"
     "\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\": [[151296, 768, 1], [151296, 768,"
     " 1], []], \"Concrete Inputs\": [\"\", \"\", \"1\"]}",
     NULL,
     "0.000605184", "3.462890625", "0.16666666666666666", "vector_bf16", "shape_in1", "(4, 197, 768)"},
    /* h100/Falconsai BinaryElementwise */
    {"aten::add_",
     "{\"Input Dims\": [[4, 768, 14, 14], [1, 768, 1, 1], []], \"Input type\": [\"c10::BFlo"
     "at16\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\": [[150528, 196, 14, 1], [768,"
     " 1, 1, 1], []], \"Concrete Inputs\": [\"\", \"\", \"1\"]}",
     NULL,
     "0.000602112", "2.29833984375", "0.2498406628425749", "vector_bf16", "shape_in1", "(4, 768, 14, 14)"},
    /* h100/Falconsai CONV_fwd */
    {"aten::convolution",
     "{\"Input Dims\": [[4, 3, 224, 224], [768, 3, 16, 16], [768], [], [], [], [], [], ["
     "]], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"ScalarLis"
     "t\", \"ScalarList\", \"ScalarList\", \"Scalar\", \"ScalarList\", \"Scalar\"], \"Input Stride"
     "s\": [[150528, 50176, 224, 1], [768, 256, 16, 1], [1], [], [], [], [], [], []], \""
     "Concrete Inputs\": [\"\", \"\", \"\", \"[16, 16]\", \"[0, 0]\", \"[1, 1]\", \"False\", \"[0, 0]\""
     ", \"1\"]}",
     NULL,
     "0.924844032", "3.421875", "257.75342465753425", "matrix_bf16", "convNd", "conv2d"},
    /* h100/Falconsai GEMM */
    {"aten::addmm",
     "{\"Input Dims\": [[768], [788, 768], [768, 768], [], []], \"Input type\": [\"c10::BFl"
     "oat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\"], \"Input Strides\": "
     "[[1], [768, 1], [1, 768], [], []], \"Concrete Inputs\": [\"\", \"\", \"\", \"1\", \"1\"]}",
     NULL,
     "0.930167808", "3.43505859375", "258.2422174840085", "matrix_bf16", "stride_A", "(768, 1)"},
    /* h100/Falconsai Normalization */
    {"aten::layer_norm",
     "{\"Input Dims\": [[4, 197, 768], [], [768], [768], [], []], \"Input type\": [\"c10::B"
     "Float16\", \"ScalarList\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\"], \""
     "Input Strides\": [[151296, 768, 1], [], [1], [1], [], []], \"Concrete Inputs\": [\"\""
     ", \"[768]\", \"\", \"\", \"9.9999999999999998e-13\", \"True\"]}",
     NULL,
     "0.003030528", "2.3173828125", "1.2471554993678888", "vector_bf16", "num_channels", "768"},
    /* h100/Falconsai Normalization */
    {"aten::native_layer_norm",
     "{\"Input Dims\": [[4, 197, 768], [], [768], [768], []], \"Input type\": [\"c10::BFloa"
     "t16\", \"ScalarList\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\""
     ": [[151296, 768, 1], [], [1], [1], []], \"Concrete Inputs\": [\"\", \"[768]\", \"\", \"\","
     " \"9.9999999999999998e-13\"]}",
     NULL,
     "0.003030528", "2.3173828125", "1.2471554993678888", "vector_bf16", "num_channels", "768"},
    /* h100/Falconsai SDPA_fwd */
    {"aten::_scaled_dot_product_flash_attention",
     "{\"Input Dims\": [[4, 12, 197, 64], [4, 12, 197, 64], [4, 12, 197, 64], [], [], []"
     ", []], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar"
     "\", \"Scalar\", \"Scalar\", \"Scalar\"], \"Input Strides\": [[151296, 64, 768, 1], [15129"
     "6, 64, 768, 1], [151296, 64, 768, 1], [], [], [], []], \"Concrete Inputs\": [\"\", \""
     "\", \"\", \"0.\", \"False\", \"False\", \"0.125\"]}",
     NULL,
     "0.476884992", "4.6171875", "98.5", "matrix_bf16", "causal", "False"},
    /* h100/timesformer BinaryElementwise */
    {"aten::mul",
     "{\"Input Dims\": [[8, 12, 3137, 3137], []], \"Input type\": [\"c10::BFloat16\", \"doubl"
     "e\"], \"Input Strides\": [[118089228, 9840769, 3137, 1], []], \"Concrete Inputs\": [\""
     "\", \"\"]}",
     NULL,
     "0.944713824", "3603.797248840332", "0.2499999994707392", "vector_bf16", "shape_in1", "(8, 12, 3137, 3137)"},
    /* h100/timesformer BinaryElementwise */
    {"aten::add",
     "{\"Input Dims\": [[1, 25089, 768], [1, 25089, 768], []], \"Input type\": [\"c10::BFlo"
     "at16\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\": [[19268352, 768, 1], [192683"
     "52, 768, 1], []], \"Concrete Inputs\": [\"\", \"\", \"1\"]}",
     NULL,
     "0.019268352", "110.25439453125", "0.16666666666666666", "vector_bf16", "shape_in1", "(1, 25089, 768)"},
    /* h100/timesformer BinaryElementwise */
    {"aten::add_",
     "{\"Input Dims\": [[128, 768, 14, 14], [1, 768, 1, 1], []], \"Input type\": [\"c10::BF"
     "loat16\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\": [[150528, 196, 14, 1], [76"
     "8, 1, 1, 1], []], \"Concrete Inputs\": [\"\", \"\", \"1\"]}",
     NULL,
     "0.019267584", "73.50146484375", "0.24999501763756302", "vector_bf16", "shape_in1", "(128, 768, 14, 14)"},
    /* h100/timesformer CONV_fwd */
    {"aten::convolution",
     "{\"Input Dims\": [[128, 3, 224, 224], [768, 3, 16, 16], [768], [], [], [], [], [],"
     " []], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"ScalarL"
     "ist\", \"ScalarList\", \"ScalarList\", \"Scalar\", \"ScalarList\", \"Scalar\"], \"Input Stri"
     "des\": [[150528, 50176, 224, 1], [768, 256, 16, 1], [1], [], [], [], [], [], []],"
     " \"Concrete Inputs\": [\"\", \"\", \"\", \"[16, 16]\", \"[0, 0]\", \"[1, 1]\", \"False\", \"[0, 0"
     "]\", \"1\"]}",
     NULL,
     "29.595009024", "74.625", "378.2110552763819", "matrix_bf16", "convNd", "conv2d"},
    /* h100/timesformer GEMM */
    {"aten::bmm",
     "{\"Input Dims\": [[96, 3137, 64], [96, 64, 3137]], \"Input type\": [\"c10::BFloat16\","
     " \"c10::BFloat16\"], \"Input Strides\": [[200768, 64, 1], [200768, 3137, 1]], \"Concr"
     "ete Inputs\": [\"\", \"\"]}",
     NULL,
     "120.923369472", "1875.4220581054688", "61.49096477794793", "matrix_bf16", "stride_A", "(200768, 64, 1)"},
    /* h100/timesformer GEMM */
    {"aten::addmm",
     "{\"Input Dims\": [[3072], [25089, 768], [768, 3072], [], []], \"Input type\": [\"c10:"
     ":BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\"], \"Input Stride"
     "s\": [[1], [768, 1], [1, 768], [], []], \"Concrete Inputs\": [\"\", \"\", \"\", \"1\", \"1\"]"
     "}",
     NULL,
     "118.461828096", "188.26318359375", "600.0854801938983", "matrix_bf16", "stride_A", "(768, 1)"},
    /* h100/timesformer Normalization */
    {"aten::layer_norm",
     "{\"Input Dims\": [[1, 25089, 768], [], [768], [768], [], []], \"Input type\": [\"c10:"
     ":BFloat16\", \"ScalarList\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\"],"
     " \"Input Strides\": [[19268352, 768, 1], [], [1], [1], [], []], \"Concrete Inputs\":"
     " [\"\", \"[768]\", \"\", \"\", \"9.9999999999999995e-07\", \"True\"]}",
     NULL,
     "0.096346368", "73.51171875", "1.2499103299856529", "vector_bf16", "num_channels", "768"},
    /* h100/timesformer Normalization */
    {"aten::native_layer_norm",
     "{\"Input Dims\": [[1, 25089, 768], [], [768], [768], []], \"Input type\": [\"c10::BFl"
     "oat16\", \"ScalarList\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\"], \"Input Stride"
     "s\": [[19268352, 768, 1], [], [1], [1], []], \"Concrete Inputs\": [\"\", \"[768]\", \"\","
     " \"\", \"9.9999999999999995e-07\"]}",
     NULL,
     "0.096346368", "73.51171875", "1.2499103299856529", "vector_bf16", "num_channels", "768"},
    /* h100/timesformer Reduce_fwd */
    {"aten::mean",
     "{\"Input Dims\": [[1, 8, 768], [], [], []], \"Input type\": [\"c10::BFloat16\", \"Scala"
     "rList\", \"Scalar\", \"\"], \"Input Strides\": [[19273728, 2409216, 1], [], [], []], \"C"
     "oncrete Inputs\": [\"\", \"[1]\", \"True\", \"\"]}",
     NULL,
     "6.144e-06", "0.011720657348632812", "0.4999186330349878", "vector_bf16", "reduce_type", "mean"},
    /* h100/timesformer UnaryElementwise */
    {"aten::copy_",
     "{\"Input Dims\": [[1, 128, 3, 224, 224], [1, 128, 3, 224, 224], []], \"Input type\":"
     " [\"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\": [[19267584, 1505"
     "28, 50176, 224, 1], [19267584, 150528, 50176, 224, 1], []], \"Concrete Inputs\": ["
     "\"\", \"\", \"False\"]}",
     NULL,
     "0.019267584", "73.5", "0.25", "vector_bf16", "op_shape", "(1, 128, 3, 224, 224)"},
    /* h100/timesformer UnaryElementwise */
    {"aten::upsample_nearest1d",
     "{\"Input Dims\": [[1, 768, 8], [], []], \"Input type\": [\"c10::BFloat16\", \"ScalarLis"
     "t\", \"\"], \"Input Strides\": [[6144, 1, 768], [], []], \"Concrete Inputs\": [\"\", \"[12"
     "8]\", \"\"]}",
     NULL,
     "9.8304e-05", "0.19921875", "0.47058823529411764", "vector_bf16", "output_shape", "(1, 768, 128)"},
    /* h100/bert BinaryElementwise */
    {"aten::add",
     "{\"Input Dims\": [[1, 141, 512], [1, 141, 512], []], \"Input type\": [\"c10::BFloat16"
     "\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\": [[72192, 512, 1], [72192, 512, 1"
     "], []], \"Concrete Inputs\": [\"\", \"\", \"1\"]}",
     NULL,
     "7.2192e-05", "0.4130859375", "0.16666666666666666", "vector_bf16", "shape_in1", "(1, 141, 512)"},
    /* h100/bert BinaryElementwise */
    {"aten::add_",
     "{\"Input Dims\": [[1, 141, 512], [1, 141, 512], []], \"Input type\": [\"c10::BFloat16"
     "\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\": [[72192, 512, 1], [72192, 512, 1"
     "], []], \"Concrete Inputs\": [\"\", \"\", \"1\"]}",
     NULL,
     "7.2192e-05", "0.4130859375", "0.16666666666666666", "vector_bf16", "shape_in1", "(1, 141, 512)"},
    /* h100/bert GEMM */
    {"aten::addmm",
     "{\"Input Dims\": [[512], [141, 512], [512, 512], [], []], \"Input type\": [\"c10::BFl"
     "oat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\"], \"Input Strides\": "
     "[[1], [512, 1], [1, 512], [], []], \"Concrete Inputs\": [\"\", \"\", \"\", \"1\", \"1\"]}",
     NULL,
     "0.0739968", "0.7763671875", "90.89622641509433", "matrix_bf16", "stride_A", "(512, 1)"},
    /* h100/bert Normalization */
    {"aten::layer_norm",
     "{\"Input Dims\": [[1, 141, 512], [], [512], [512], [], []], \"Input type\": [\"c10::B"
     "Float16\", \"ScalarList\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\"], \""
     "Input Strides\": [[72192, 512, 1], [], [1], [1], [], []], \"Concrete Inputs\": [\"\","
     " \"[512]\", \"\", \"\", \"9.9999999999999998e-13\", \"True\"]}",
     NULL,
     "0.000364032", "0.28125", "1.234375", "vector_bf16", "num_channels", "512"},
    /* h100/bert Normalization */
    {"aten::native_layer_norm",
     "{\"Input Dims\": [[1, 141, 512], [], [512], [512], []], \"Input type\": [\"c10::BFloa"
     "t16\", \"ScalarList\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\""
     ": [[72192, 512, 1], [], [1], [1], []], \"Concrete Inputs\": [\"\", \"[512]\", \"\", \"\", "
     "\"9.9999999999999998e-13\"]}",
     NULL,
     "0.000364032", "0.28125", "1.234375", "vector_bf16", "num_channels", "512"},
    /* h100/bert SDPA_fwd */
    {"aten::_scaled_dot_product_flash_attention",
     "{\"Input Dims\": [[1, 8, 141, 64], [1, 8, 141, 64], [1, 8, 141, 64], [], [], [], ["
     "]], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", "
     "\"Scalar\", \"Scalar\", \"Scalar\"], \"Input Strides\": [[72192, 64, 512, 1], [72192, 64"
     ", 512, 1], [72192, 64, 512, 1], [], [], [], []], \"Concrete Inputs\": [\"\", \"\", \"\","
     " \"0.\", \"False\", \"False\", \"0.125\"]}",
     NULL,
     "0.040716288", "0.55078125", "70.5", "matrix_bf16", "causal", "False"},
    /* mi300/Qwen BinaryElementwise */
    {"aten::mul",
     "{\"Input Dims\": [[16, 559, 1024], [16, 559, 1]], \"Input type\": [\"float\", \"float\"]"
     ", \"Input Strides\": [[572416, 1024, 1], [559, 1, 1]], \"Concrete Inputs\": [\"\", \"\"]"
     "}",
     NULL,
     "0.009158656", "69.90911865234375", "0.12493899463152758", "vector_fp32", "shape_in1", "(16, 559, 1024)"},
    /* mi300/Qwen BinaryElementwise */
    {"aten::add",
     "{\"Input Dims\": [[16, 16, 559, 64], [16, 16, 559, 64], []], \"Input type\": [\"c10::"
     "BFloat16\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\": [[572416, 64, 1024, 1], "
     "[572416, 35776, 64, 1], []], \"Concrete Inputs\": [\"\", \"\", \"1\"]}",
     NULL,
     "0.009158656", "52.40625", "0.16666666666666666", "vector_bf16", "shape_in1", "(16, 16, 559, 64)"},
    /* mi300/Qwen GEMM */
    {"aten::mm",
     "{\"Input Dims\": [[8944, 1024], [1024, 2816]], \"Input type\": [\"c10::BFloat16\", \"c1"
     "0::BFloat16\"], \"Input Strides\": [[1024, 1], [1, 1024]], \"Concrete Inputs\": [\"\", "
     "\"\"]}",
     "Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT128x224x64_MI16x16x1_SN_LDSB1_AF"
     "C1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAM"
     "B_GLS0_ISA942_IU1_K1_LBSPPA512_LBSPPB128_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_M"
     "IAV0_MIWT4_7_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_P"
     "LR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW4_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_U"
     "SFGROn1_VSn1_VWA4_VWB1_WSGRA0_WSGRB0_WS64_WG32_8_1",
     "51.581550592", "71.0078125", "692.7688414567059", "matrix_bf16", "transpose", "(True, False)"},
    /* mi300/Qwen GEMM */
    {"aten::addmm",
     "{\"Input Dims\": [[1024], [8944, 1024], [1024, 1024], [], []], \"Input type\": [\"c10"
     "::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\"], \"Input Strid"
     "es\": [[1], [1024, 1], [1, 1024], [], []], \"Concrete Inputs\": [\"\", \"\", \"\", \"1\", \""
     "1\"]}",
     "Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT256x128x64_MI16x16x1_SN_LDSB1_AF"
     "C1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAM"
     "B_GLS0_ISA942_IU1_K1_LBSPPA1024_LBSPPB512_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_"
     "MIAV0_MIWT8_4_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_"
     "PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW8_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_"
     "USFGROn1_VSn1_VWA8_VWB4_WSGRA0_WSGRB0_WS64_WG32_8_1",
     "18.766086144", "36.939453125", "484.4883413525089", "matrix_bf16", "transpose", "(True, False)"},
    /* mi300/Qwen GEMM */
    {"aten::bmm",
     "{\"Input Dims\": [[1, 32, 1], [1, 1, 559]], \"Input type\": [\"float\", \"float\"], \"Inp"
     "ut Strides\": [[32, 1, 1], [559, 559, 1]], \"Concrete Inputs\": [\"\", \"\"]}",
     "Cijk_Ailk_Bljk_S_B_Bias_HA_S_SAV_UserArgs_MT16x16x128_MI16x16x1_SN_LDSB1_AFC1_AF"
     "EM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA2_GRVWB2_GSUAMB_GLS"
     "0_ISA942_IU1_K1_LBSPPA256_LBSPPB512_LBSPPM0_LPA16_LPB8_LPM0_LRVW4_LWPMn1_MIAV0_M"
     "IWT1_1_MO40_NTn1_NTA4_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PK"
     "A1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW1_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn"
     "1_VSn1_VWA1_VWB1_WSGRA0_WSGRB0_WS64_WG16_4_4",
     "3.5776e-05", "0.07049179077148438", "0.4840088749391201", "matrix_fp32", "transpose", "(False, False)"},
    /* mi300/Qwen Reduce_fwd */
    {"aten::mean",
     "{\"Input Dims\": [[16, 559, 1024], [], [], []], \"Input type\": [\"float\", \"ScalarLis"
     "t\", \"Scalar\", \"\"], \"Input Strides\": [[572416, 1024, 1], [], [], []], \"Concrete I"
     "nputs\": [\"\", \"[-1]\", \"True\", \"\"]}",
     NULL,
     "0.009158656", "34.937503814697266", "0.24999997270342147", "vector_fp32", "reduce_type", "mean"},
    /* mi300/Qwen SDPA_fwd */
    {"aten::_scaled_dot_product_flash_attention",
     "{\"Input Dims\": [[16, 16, 559, 64], [16, 16, 559, 64], [16, 16, 559, 64], [], [],"
     " [], []], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Sca"
     "lar\", \"Scalar\", \"Scalar\", \"Scalar\"], \"Input Strides\": [[572416, 35776, 64, 1], ["
     "572416, 35776, 64, 1], [572416, 35776, 64, 1], [], [], [], []], \"Concrete Inputs"
     "\": [\"\", \"\", \"\", \"0.\", \"True\", \"False\", \"0.125\"]}",
     NULL,
     "10.239377408", "69.875", "139.75", "matrix_bf16", "causal", "True"},
    /* mi300/Qwen UnaryElementwise */
    {"aten::copy_",
     "{\"Input Dims\": [[16, 16, 559, 64], [16, 16, 559, 64], []], \"Input type\": [\"c10::"
     "BFloat16\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\": [[572416, 35776, 64, 1],"
     " [572416, 64, 1024, 1], []], \"Concrete Inputs\": [\"\", \"\", \"False\"]}",
     NULL,
     "0.009158656", "34.9375", "0.25", "vector_bf16", "op_shape", "(16, 16, 559, 64)"},
    /* mi300/Qwen UnaryElementwise */
    {"aten::pow",
     "{\"Input Dims\": [[16, 559, 1024], []], \"Input type\": [\"float\", \"Scalar\"], \"Input "
     "Strides\": [[572416, 1024, 1], []], \"Concrete Inputs\": [\"\", \"2\"]}",
     NULL,
     "0.009158656", "69.875", "0.125", "vector_fp32", "op_shape", "(16, 559, 1024)"},
    /* mi300/Qwen UnaryElementwise */
    {"aten::silu",
     "{\"Input Dims\": [[16, 559, 2816]], \"Input type\": [\"c10::BFloat16\"], \"Input Stride"
     "s\": [[1574144, 2816, 1]], \"Concrete Inputs\": [\"\"]}",
     NULL,
     "0.025186304", "96.078125", "0.25", "vector_bf16", "op_shape", "(16, 559, 2816)"},
    /* mi300/Qwen UnaryElementwise */
    {"aten::neg",
     "{\"Input Dims\": [[16, 16, 559, 32]], \"Input type\": [\"c10::BFloat16\"], \"Input Stri"
     "des\": [[572416, 64, 1024, 1]], \"Concrete Inputs\": [\"\"]}",
     NULL,
     "0.004579328", "17.46875", "0.25", "vector_bf16", "op_shape", "(16, 16, 559, 32)"},
    /* mi300/Qwen UnaryElementwise */
    {"aten::rsqrt",
     "{\"Input Dims\": [[16, 559, 1]], \"Input type\": [\"float\"], \"Input Strides\": [[559, "
     "1, 1]], \"Concrete Inputs\": [\"\"]}",
     NULL,
     "8.944e-06", "0.0682373046875", "0.125", "vector_fp32", "op_shape", "(16, 559, 1)"},
    /* mi300/timesformer BinaryElementwise */
    {"aten::mul",
     "{\"Input Dims\": [[8, 12, 3137, 3137], []], \"Input type\": [\"c10::BFloat16\", \"doubl"
     "e\"], \"Input Strides\": [[118089228, 9840769, 3137, 1], []], \"Concrete Inputs\": [\""
     "\", \"\"]}",
     NULL,
     "0.944713824", "3603.797248840332", "0.2499999994707392", "vector_bf16", "shape_in1", "(8, 12, 3137, 3137)"},
    /* mi300/timesformer BinaryElementwise */
    {"aten::add",
     "{\"Input Dims\": [[1, 25089, 768], [1, 25089, 768], []], \"Input type\": [\"c10::BFlo"
     "at16\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\": [[19268352, 768, 1], [192683"
     "52, 768, 1], []], \"Concrete Inputs\": [\"\", \"\", \"1\"]}",
     NULL,
     "0.019268352", "110.25439453125", "0.16666666666666666", "vector_bf16", "shape_in1", "(1, 25089, 768)"},
    /* mi300/timesformer BinaryElementwise */
    {"aten::add_",
     "{\"Input Dims\": [[128, 768, 14, 14], [1, 768, 1, 1], []], \"Input type\": [\"c10::BF"
     "loat16\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\": [[150528, 196, 14, 1], [76"
     "8, 1, 1, 1], []], \"Concrete Inputs\": [\"\", \"\", \"1\"]}",
     NULL,
     "0.019267584", "73.50146484375", "0.24999501763756302", "vector_bf16", "shape_in1", "(128, 768, 14, 14)"},
    /* mi300/timesformer CONV_fwd */
    {"aten::convolution",
     "{\"Input Dims\": [[128, 3, 224, 224], [768, 3, 16, 16], [768], [], [], [], [], [],"
     " []], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"ScalarL"
     "ist\", \"ScalarList\", \"ScalarList\", \"Scalar\", \"ScalarList\", \"Scalar\"], \"Input Stri"
     "des\": [[150528, 50176, 224, 1], [768, 256, 16, 1], [1], [], [], [], [], [], []],"
     " \"Concrete Inputs\": [\"\", \"\", \"\", \"[16, 16]\", \"[0, 0]\", \"[1, 1]\", \"False\", \"[0, 0"
     "]\", \"1\"]}",
     NULL,
     "29.595009024", "74.625", "378.2110552763819", "matrix_bf16", "convNd", "conv2d"},
    /* mi300/timesformer GEMM */
    {"aten::bmm",
     "{\"Input Dims\": [[96, 3137, 64], [96, 64, 3137]], \"Input type\": [\"c10::BFloat16\","
     " \"c10::BFloat16\"], \"Input Strides\": [[200768, 64, 1], [200768, 3137, 1]], \"Concr"
     "ete Inputs\": [\"\", \"\"]}",
     "Cijk_Ailk_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT128x256x32_MI16x16x1_SN_LDSB1_AF"
     "C1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB4_GSUAM"
     "B_GLS0_ISA942_IU1_K1_LBSPPA1024_LBSPPB256_LBSPPM0_LPA0_LPB4_LPM0_LRVW4_LWPMn1_MI"
     "AV0_MIWT8_4_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PL"
     "R1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW8_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_US"
     "FGROn1_VSn1_VWA8_VWB4_WSGRA0_WSGRB0_WS64_WG16_16_1",
     "120.923369472", "1875.4220581054688", "61.49096477794793", "matrix_bf16", "transpose", "(False, False)"},
    /* mi300/timesformer GEMM */
    {"aten::addmm",
     "{\"Input Dims\": [[3072], [25089, 768], [768, 3072], [], []], \"Input type\": [\"c10:"
     ":BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\"], \"Input Stride"
     "s\": [[1], [768, 1], [1, 768], [], []], \"Concrete Inputs\": [\"\", \"\", \"\", \"1\", \"1\"]"
     "}",
     "Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT256x224x64_MI16x16x1_SN_LDSB1_AF"
     "C1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA2_GRVWB2_GSUAM"
     "B_GLS0_ISA942_IU1_K1_LBSPPA1024_LBSPPB128_LBSPPM0_LPA4_LPB4_LPM0_LRVW4_LWPMn1_MI"
     "AV0_MIWT8_7_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PL"
     "R1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW8_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_US"
     "FGROn1_VSn1_VWA8_VWB1_WSGRA0_WSGRB0_WS64_WG32_8_1",
     "118.461828096", "188.26318359375", "600.0854801938983", "matrix_bf16", "transpose", "(True, False)"},
    /* mi300/timesformer Normalization */
    {"aten::layer_norm",
     "{\"Input Dims\": [[1, 25089, 768], [], [768], [768], [], []], \"Input type\": [\"c10:"
     ":BFloat16\", \"ScalarList\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\"],"
     " \"Input Strides\": [[19268352, 768, 1], [], [1], [1], [], []], \"Concrete Inputs\":"
     " [\"\", \"[768]\", \"\", \"\", \"9.9999999999999995e-07\", \"True\"]}",
     NULL,
     "0.096346368", "73.51171875", "1.2499103299856529", "vector_bf16", "num_channels", "768"},
    /* mi300/timesformer Normalization */
    {"aten::native_layer_norm",
     "{\"Input Dims\": [[1, 25089, 768], [], [768], [768], []], \"Input type\": [\"c10::BFl"
     "oat16\", \"ScalarList\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\"], \"Input Stride"
     "s\": [[19268352, 768, 1], [], [1], [1], []], \"Concrete Inputs\": [\"\", \"[768]\", \"\","
     " \"\", \"9.9999999999999995e-07\"]}",
     NULL,
     "0.096346368", "73.51171875", "1.2499103299856529", "vector_bf16", "num_channels", "768"},
    /* mi300/timesformer Reduce_fwd */
    {"aten::mean",
     "{\"Input Dims\": [[1, 8, 768], [], [], []], \"Input type\": [\"c10::BFloat16\", \"Scala"
     "rList\", \"Scalar\", \"\"], \"Input Strides\": [[19273728, 2409216, 1], [], [], []], \"C"
     "oncrete Inputs\": [\"\", \"[1]\", \"True\", \"\"]}",
     NULL,
     "6.144e-06", "0.011720657348632812", "0.4999186330349878", "vector_bf16", "reduce_type", "mean"},
    /* mi300/timesformer UnaryElementwise */
    {"aten::copy_",
     "{\"Input Dims\": [[8, 12, 64, 3137], [8, 12, 64, 3137], []], \"Input type\": [\"c10::"
     "BFloat16\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\": [[2409216, 200768, 3137,"
     " 1], [7227648, 64, 1, 2304], []], \"Concrete Inputs\": [\"\", \"\", \"False\"]}",
     NULL,
     "0.019273728", "73.5234375", "0.25", "vector_bf16", "op_shape", "(8, 12, 64, 3137)"},
    /* mi300/timesformer UnaryElementwise */
    {"aten::upsample_nearest1d",
     "{\"Input Dims\": [[1, 768, 8], [], []], \"Input type\": [\"c10::BFloat16\", \"ScalarLis"
     "t\", \"\"], \"Input Strides\": [[6144, 1, 768], [], []], \"Concrete Inputs\": [\"\", \"[12"
     "8]\", \"\"]}",
     NULL,
     "9.8304e-05", "0.19921875", "0.47058823529411764", "vector_bf16", "output_shape", "(1, 768, 128)"},
    /* triton GEMM */
    {"aten::mm",
     "{\"Input Dims\": [[32768, 2048], [2048, 8192], [32768, 8192]], \"Input type\": [\"c10"
     "::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\"], \"Input Strides\": [[2048, 1], [1,"
     " 2048], [8192, 1]], \"Concrete Inputs\": [\"\", \"\", \"\"]}",
     "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x192x64_MI16x16x1_SN_LDSB1_AFC"
     "1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_G"
     "RVWB8_GSUAMBSK_GLS0_ISA942_IU1_K1_LDSTI0_LBSPPA1024_LBSPPB256_LBSPPM0_LPA16_LPB1"
     "6_LPM0_LRVW8_LWPMn1_MIAV0_MIWT8_6_MO40_NTn1_NTA0_NTB0_NTC0_NTD4_NTM0_NEPBS16_NLC"
     "A1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW8_SK0_SKFTR0_SKXCCM0_T"
     "LDS1_ULSGRO1_USL1_UIOFGRO0_USFGROn1_VSn1_VWA8_VWB2_WSGRA0_WSGRB0_WS64_WG32_8_1",
     "1099.511627776", "672.0", "1560.3809523809523", "matrix_bf16", "transpose", "(True, False)"},
    /* triton SDPA_fwd */
    {"aten::_scaled_dot_product_flash_attention",
     "{\"Input Dims\": [[8, 16, 4096, 128], [8, 16, 4096, 128], [8, 16, 4096, 128], [], "
     "[], [], []], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \""
     "Scalar\", \"Scalar\", \"Scalar\", \"Scalar\"], \"Input Strides\": [[8388608, 128, 2048, 1"
     "], [8388608, 128, 2048, 1], [8388608, 128, 2048, 1], [], [], [], []], \"Concrete "
     "Inputs\": [\"\", \"\", \"\", \"0.\", \"False\", \"False\", \"0.088388347648318433\"]}",
     NULL,
     "1099.511627776", "512.0", "2048.0", "matrix_bf16", "causal", "False"},
};

static void test_reference_rows(void)
{
    for (size_t i = 0; i < sizeof refs / sizeof *refs; i++) {
        const refcase *r = &refs[i];
        tsql_perf *p = eval(r->name, r->args, r->kernel, 0);
        CHECK_STR(tsql_pm_status_names[p->status], "OK");
        tsql_perf_metrics m;
        tsql_perf_derive(p->flops, p->has_bytes ? p->bytes : NAN, 1, &m);
        CHECK_STR(pyf(m.gflops), r->gflops);
        CHECK_STR(pyf(m.data_moved_mb), r->mb);
        CHECK_STR(pyf(m.flops_per_byte), r->fpb);
        CHECK_STR(p->compute_spec, r->spec);
        if (r->pname[0]) CHECK_STR(param(p, r->pname), r->pvalue[0] ? r->pvalue : "<None>");
    }
}

/* perf_params cells of unified_perf_summary */
static void test_reference_dicts(void)
{
    tsql_perf *p = eval("aten::mm",
                        "{\"Input Dims\": [[8944, 1024], [1024, 2816]], \"Input type\": [\"c10::BFloat16\", "
                        "\"c10::BFloat16\"], \"Input Strides\": [[1024, 1], [1, 1024]]}",
                        "Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT128x224x64_MI16x16x1", 0);
    CHECK_STR(dict(p), "{'M': 8944, 'N': 2816, 'K': 1024, 'bias': False, 'stride_A': (1024, 1), 'stride_B': (1, "
                       "1024), 'dtype_A_B': ('c10::BFloat16', 'c10::BFloat16'), 'B': 1, 'transpose': (True, False)}");
    /* nvjet kernels (H100): last token TN.. → (True, False); sm90_xmma adds nothing */
    p = eval("aten::mm",
             "{\"Input Dims\": [[32768, 2048], [2048, 8192], [32768, 8192]], \"Input type\": [\"c10::BFloat16\", "
             "\"c10::BFloat16\", \"c10::BFloat16\"], \"Input Strides\": [[2048, 1], [1, 2048], [8192, 1]]}",
             "nvjet_tst_256x128_64x4_2x1_v_bz_coopB_TNT", 0);
    CHECK_STR(param(p, "transpose"), "(True, False)");
    CHECK_STR(pyf(p->flops / 1e9), "1099.511627776");
    CHECK_STR(pyf(p->bytes / 1048576), "672.0");
    p = eval("aten::mm", "{\"Input Dims\": [[8, 16], [16, 4]], \"Input type\": [\"float\", \"float\"]}",
             "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64", 0);
    CHECK_STR(param(p, "transpose"), "<absent>");
    CHECK_STR(param(p, "stride_A"), "<None>"); /* no Input Strides key: None */

    p = eval("aten::convolution",
             "{\"Input Dims\": [[4, 3, 224, 224], [768, 3, 16, 16], [768], [], [], [], [], [], []], \"Input type\": "
             "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"ScalarList\", \"ScalarList\", "
             "\"ScalarList\", \"Scalar\", \"ScalarList\", \"Scalar\"], \"Input Strides\": [[150528, 50176, 224, 1], "
             "[768, 256, 16, 1], [1], [], [], [], [], [], []], \"Concrete Inputs\": [\"\", \"\", \"\", \"[16, 16]\", "
             "\"[0, 0]\", \"[1, 1]\", \"False\", \"[0, 0]\", \"1\"]}",
             NULL, 0);
    CHECK_STR(dict(p), "{'convNd': 'conv2d', 'input_shape': (4, 3, 224, 224), 'filter_shape': (768, 3, 16, 16), "
                       "'dtype_input_weight': ('c10::BFloat16', 'c10::BFloat16'), 'input_stride': (150528, 50176, "
                       "224, 1), 'weight_stride': (768, 256, 16, 1), 'bias': False, 'stride': (16, 16), 'padding': "
                       "(0, 0), 'dilation': (1, 1), 'transposed_conv': False, 'output_padding': (0, 0), 'groups': 1}");
    CHECK_STR(param(p, "convNd"), "conv2d"); /* str() of a string: no quotes */

    p = eval("aten::_scaled_dot_product_flash_attention",
             "{\"Input Dims\": [[16, 16, 559, 64], [16, 16, 559, 64], [16, 16, 559, 64], [], [], [], []], \"Input "
             "type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\", \"Scalar\", "
             "\"Scalar\"], \"Concrete Inputs\": [\"\", \"\", \"\", \"0.\", \"True\", \"False\", \"0.125\"]}",
             NULL, 0);
    CHECK_STR(dict(p), "{'B': 16, 'N_Q': 559, 'H_Q': 16, 'N_KV': 559, 'H_KV': 16, 'd_h_qk': 64, 'd_h_v': 64, "
                       "'dropout': 0.0, 'causal': True, 'flash_impl': True, 'dtype_A_B': ('c10::BFloat16', "
                       "'c10::BFloat16')}");
    /* 7.6 worked example: 10.239377408 GFLOPS, 69.875 MB, 139.75 FLOPS/Byte */
    CHECK_STR(pyf(p->flops / 1e9), "10.239377408");
    CHECK_STR(pyf(p->bytes / 1048576), "69.875");
    CHECK_STR(pyf(p->flops / p->bytes), "139.75");

    p = eval("aten::mean",
             "{\"Input Dims\": [[16, 559, 1024], [], [], []], \"Input type\": [\"float\", \"ScalarList\", "
             "\"Scalar\", \"\"], \"Concrete Inputs\": [\"\", \"[-1]\", \"True\", \"\"]}",
             NULL, 0);
    CHECK_STR(dict(p), "{'num_input_elems': 9158656, 'num_output_elems': 1, 'dtype_in_out': ('float', None), "
                       "'reduce_type': 'mean'}");
    CHECK_STR(pyf(p->bytes / 1048576), "34.937503814697266");

    p = eval("triton_poi_fused__unsafe_view_mul_silu_2",
             "{\"Input Dims\": [[8, 4096, 8192], [32768, 8192], []], \"Input type\": [\"c10::BFloat16\", "
             "\"c10::BFloat16\", \"Scalar\"], \"Concrete Inputs\": [\"\", \"\", \"268435456\"]}",
             NULL, 0);
    CHECK_STR(dict(p), "{'fused_ops': 'aten._unsafe_view, aten.mul, aten.silu', 'xnumel': 268435456, 'rnumel': 1}");
    CHECK_STR(pyf(p->flops / 1e9), "1.34217728");
    CHECK_STR(pyf(p->bytes / 1048576), "1536.0");
    CHECK_STR(p->compute_spec, "vector_bfloat16");
    p = eval("triton_poi_fused__unsafe_view_mul_silu_2", "{}", NULL, 0);
    CHECK_STR(tsql_pm_status_names[p->status], "NOT_IMPLEMENTED");

    /* fused_ops: the kernel name split into the 960 known ATen names (reference semantics
     * 7.10; expected lists from an independent implementation of that rule). The first five
     * are every compiled-Triton name in ../shared/conformance; the rest are Inductor
     * names with multi-token ops, and one op no list knows (no segmentation: empty) */
    static const struct { const char *name, *ops; } fused[] = {
        {"triton_poi_fused__unsafe_view_add_3", "aten._unsafe_view, aten.add"},
        {"triton_poi_fused__unsafe_view_mul_silu_2", "aten._unsafe_view, aten.mul, aten.silu"},
        {"triton_poi_fused_add_cos_sin_0", "aten.add, aten.cos, aten.sin"},
        {"triton_red_fused__unsafe_view_add_mean_mul_pow_rsqrt_1", "aten._unsafe_view, aten.add, aten.mean, aten.mul, aten.pow, aten.rsqrt"},
        {"triton_red_fused_add_mean_mul_pow_rsqrt_0", "aten.add, aten.mean, aten.mul, aten.pow, aten.rsqrt"},
        {"triton_poi_fused_addmm_gelu_view_15", "aten.addmm, aten.gelu, aten.view"},
        {"triton_per_fused_native_layer_norm_0", "aten.native_layer_norm"},
        {"triton_poi_fused_split_unsqueeze_1", "aten.split, aten.unsqueeze"},
        {"triton_poi_fused_slice_transpose_4", "aten.slice, aten.transpose"},
        {"triton_poi_fused__scaled_dot_product_flash_attention_transpose_9", "aten._scaled_dot_product_flash_attention, aten.transpose"},
        {"triton_per_fused__to_copy_add_native_layer_norm_native_layer_norm_backward_7", "aten._to_copy, aten.add, aten.native_layer_norm, aten.native_layer_norm_backward"},
        {"triton_poi_fused_nosuchop_add_2", ""},
        {"triton_red_fused__log_softmax_5", "aten._log_softmax"},
        {"triton_poi_fused_clone_view_6", "aten.clone, aten.view"},
    };
    for (size_t i = 0; i < sizeof fused / sizeof *fused; i++) {
        p = eval(fused[i].name,
                 "{\"Input Dims\": [[1024], []], \"Input type\": [\"c10::BFloat16\", \"Scalar\"], "
                 "\"Concrete Inputs\": [\"\", \"1024\"]}",
                 NULL, 0);
        char want[512];
        snprintf(want, sizeof want, "'fused_ops': '%s'", fused[i].ops);
        CHECK_HAS(dict(p), want);
    }
}

#define ARGS(...) "{" #__VA_ARGS__ "}"

static void expect(const char *name, const char *args, int bwd, double flops, double bytes, const char *spec)
{
    tsql_perf *p = eval(name, args, NULL, bwd);
    if (p->status != TSQL_PM_OK) fprintf(stderr, "%s: %s %s\n", name, tsql_pm_status_names[p->status], p->error);
    CHECK_EQ(p->status, TSQL_PM_OK);
    CHECK_NEAR(p->flops, flops, 0);
    CHECK_NEAR(p->has_bytes ? p->bytes : NAN, bytes, 0);
    if (spec) CHECK_STR(p->compute_spec, spec);
}

static void test_gemm_models(void)
{
    /* baddbmm: (B, M, K) x (B, K, N) + bias, F and Bytes x B */
    expect("aten::baddbmm",
           ARGS("Input Dims": [[4, 64, 32], [4, 64, 128], [4, 128, 32], [], []],
                "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"],
                "Input Strides": [[2048, 32, 1], [8192, 128, 1], [4096, 32, 1], [], []]),
           0, 4.0 * (2 * 64 * 32 * 128 + 64 * 32), 4.0 * (64 * 128 * 2 + 128 * 32 * 2 + 64 * 32 * 2 + 32 * 2),
           "matrix_bf16");
    /* _scaled_mm fp8: output 2 bytes, no bias (more than 3 inputs recorded) */
    expect("aten::_scaled_mm",
           ARGS("Input Dims": [[128, 256], [256, 512], [], [], [], []],
                "Input type": ["c10::Float8_e4m3fn", "c10::Float8_e4m3fn", "float", "float", "", ""]),
           0, 2.0 * 128 * 512 * 256, 128 * 256 + 256 * 512 + 128 * 512 * 2.0, "matrix_fp8");
    /* te_gemm_ts: trans_a = 1 → M, K = A[0], A[1]; trans_b = 0 → N = B[0] */
    expect("tex_ts::te_gemm_ts",
           ARGS("Input Dims": [[64, 128], [], [], [], [], [256, 128], [], [], [], [], [64, 256], [], [], [], [],
                               [], [], [], []],
                "Input type": ["c10::Float8_e4m3fn", "", "", "", "", "c10::Float8_e4m3fn", "", "", "", "",
                               "c10::BFloat16", "", "", "", "", "", "", "", "c10::BFloat16"],
                "Concrete Inputs": ["", "", "", "", "1", "", "", "", "", "0", "", "", "", "", "", "", "", "", ""]),
           0, 2.0 * 64 * 256 * 128, 64 * 128 + 128 * 256 + 64 * 256 * 2.0, "matrix_fp8");
    CHECK_STR(param(eval("tex_ts::te_gemm_ts",
                         ARGS("Input Dims": [[64, 128], [], [], [], [], [256, 128], [], [], [], [], [64, 256], [], [],
                                             [], [], [], [], [], []],
                              "Input type": ["c10::Float8_e4m3fn", "", "", "", "", "c10::Float8_e4m3fn", "", "", "",
                                             "", "c10::BFloat16", "", "", "", "", "", "", "", "c10::BFloat16"],
                              "Concrete Inputs": ["", "", "", "", "1", "", "", "", "", "0", "", "", "", "", "", "",
                                                  "", "", ""]),
                         NULL, 0),
                    "dtype_A_B"),
              "('c10::Float8_e4m3fn', 'c10::Float8_e4m3fn', 'c10::BFloat16', 'c10::BFloat16')");
    /* hipBLASLt fp8: flags (transA, transB, transC) in Concrete Inputs 5..7 */
    const char *fp8 = ARGS("Input Dims": [[128, 256], [], [512, 256], [], [], [], [], [], []],
                           "Input type": ["c10::Float8_e4m3fnuz", "float", "c10::Float8_e4m3fnuz", "float", "Scalar",
                                          "Scalar", "Scalar", "Scalar", "Scalar"],
                           "Concrete Inputs": ["", "", "", "", "15", "0", "1", "0", "0"]);
    expect("primus_turbo::hipblaslt_gemm_fp8", fp8, 0, 2.0 * 128 * 512 * 256, 128 * 256 + 256 * 512 + 128 * 512 * 2.0,
           "matrix_fp8");
    CHECK_STR(param(eval("primus_turbo::hipblaslt_gemm_fp8", fp8, NULL, 0), "M"), "128");
    CHECK_STR(param(eval("primus_turbo::hipblaslt_gemm_fp8", fp8, NULL, 0), "dtype_scaleA"), "float");
    const char *fp8c = ARGS("Input Dims": [[128, 256], [], [512, 256], [], [], [], [], [], []],
                            "Input type": ["c10::Float8_e4m3fnuz", "float", "c10::Float8_e4m3fnuz", "float"],
                            "Concrete Inputs": ["", "", "", "", "15", "0", "1", "true", "0"]);
    CHECK_STR(param(eval("primus_turbo::hipblaslt_gemm_fp8", fp8c, NULL, 0), "M"), "512"); /* transC swaps A, B */
    /* MXFP4: K doubled, block scales every 32 values */
    double fp4_bytes = 128 * 128 + 512 * 128 + 128 * 8 + 512 * 8 + 2.0 * 128 * 512;
    expect("primus_turbo::hipblaslt_gemm_fp4",
           ARGS("Input Dims": [[128, 128], [128, 8], [512, 128], [512, 8], [], [], [], [], []],
                "Input type": ["c10::Float4_e2m1fn_x2", "c10::Float8_e8m0fnu", "c10::Float4_e2m1fn_x2",
                               "c10::Float8_e8m0fnu"],
                "Concrete Inputs": ["", "", "", "", "", "0", "1", "0", ""]),
           0, 2.0 * 128 * 512 * 256, fp4_bytes, "matrix_fp4");
    expect("aiter::gemm_a4w4",
           ARGS("Input Dims": [[128, 128], [512, 128], [128, 8], [512, 8], [], [], [], [], []],
                "Input type": ["c10::Float4_e2m1fn_x2", "c10::Float4_e2m1fn_x2", "c10::Float8_e8m0fnu",
                               "c10::Float8_e8m0fnu", "", "Scalar", "Scalar", "Scalar", "Scalar"]),
           0, 2.0 * 128 * 512 * 256, fp4_bytes, "matrix_fp4");
    expect("vllm::gemm_with_dynamic_quant",
           ARGS("Input Dims": [[32, 4096], [], [11008, 4096]], "Input type": ["c10::BFloat16", "c10::BFloat16", ""]),
           0, 2.0 * 32 * 11008 * 4096, (32 * 4096 + 4096 * 11008 + 32 * 11008) * 2.0, "matrix_bf16");
    expect("_Linear_yfwd_mm",
           ARGS("Input Dims": [[16, 32], [32, 64]], "Input type": ["c10::Float8_e4m3fn", "c10::Float8_e4m3fn"]), 0,
           2.0 * 16 * 64 * 32, 16 * 32 + 32 * 64 + 16 * 64 * 2.0, "matrix_fp8");
    tsql_perf *p = eval("_Linear_yfwd_mm",
                        ARGS("Input Dims": [[16, 32], [32, 64]], "Input type": ["c10::Float8_e4m3fn", "c10::BFloat16"]),
                        NULL, 0);
    CHECK_EQ(p->status, TSQL_PM_ERROR); /* TE v2 pseudo-GEMMs need equal dtypes */
    CHECK_EQ(p->nparams, 0);
    /* GEMMs have no backward metrics */
    p = eval("aten::mm", ARGS("Input Dims": [[8, 16], [16, 4]], "Input type": ["float", "float"]), NULL, 1);
    CHECK_EQ(p->status, TSQL_PM_NOT_IMPLEMENTED);
    /* unknown dtype: Bytes null, Compute Spec "" */
    p = eval("aten::mm", ARGS("Input Dims": [[8, 16], [16, 4]], "Input type": ["c10::ComplexFloat", "float"]), NULL, 0);
    CHECK_EQ(p->status, TSQL_PM_OK);
    CHECK_EQ(p->has_bytes, 0);
    CHECK_STR(p->compute_spec, "");
    /* bmm needs 3-D operands */
    CHECK_EQ(eval("aten::bmm", ARGS("Input Dims": [[8, 16], [16, 4]], "Input type": ["float", "float"]), NULL, 0)->status,
             TSQL_PM_ERROR);
    /* helpers */
    CHECK_NEAR(tsql_gemm_flops(8944, 2816, 1024, 1, 0), 51581550592.0, 0);
    CHECK_NEAR(tsql_gemm_bytes(8944, 1024, 1024, 1, 1, 2, 2, 2, 2) / 1048576, 36.939453125, 0);
    CHECK(isnan(tsql_gemm_bytes(1, 2, 3, 1, 0, 2, 0, 2, 2)));
}

/* ConvBias_Backward / ConvBiasReLU_Backward: the backward formulas on the parameters of
 * their forward op's args (docs/perf-models.md); the values are TraceLens's for
 * tests/data/perf/convbias/pairs.json (Sequence numbers 10 and 20) */
static void test_conv_bias_backward(void)
{
    static tsql_perf p;
    static int init;
    if (!init) tsql_perf_init(&p), init = 1;
    const char *own = ARGS("Input Dims": [[8, 32, 16, 10]], "Input type": ["c10::BFloat16"]);
    const char *fwd = ARGS("Input Dims": [[8, 16, 32, 32], [32, 16, 3, 3], [32], [], []],
                           "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"],
                           "Input Strides": [[16384, 1024, 32, 1], [144, 9, 3, 1], [1], [], []],
                           "Concrete Inputs": ["", "", "", "2", "1"]);
    /* out (8, 32, 16, 16): input grad 65536·2·144, weight grad 4608·2·2048, bias grad 65536;
     * bytes 2·(65536 + 4608 + 131072)·2 + 65536 + 32 */
    CHECK_EQ(tsql_perf_eval_fwd(&p, "ConvBias_Backward", own, fwd, NULL, NULL, 0, 0), TSQL_PM_OK);
    CHECK_NEAR(p.flops, 37814272.0, 0);
    CHECK_NEAR(p.bytes, 870432.0, 0);
    CHECK_NEAR(p.bytes / 1048576, 0.830108642578125, 0);
    CHECK_STR(p.compute_spec, "matrix_bf16");
    CHECK_STR(p.category, "CONV_bwd");
    CHECK_STR(param(&p, "input_shape"), "(8, 16, 32, 32)");
    CHECK_STR(param(&p, "input_stride"), "(16384, 1024, 32, 1)");
    CHECK_STR(param(&p, "stride"), "(2, 2)");
    CHECK_STR(param(&p, "padding"), "(1, 1)");
    CHECK_STR(param(&p, "bias"), "True");
    /* ConvBiasReLU_Backward from a ConvBiasReLU_ without stride/padding inputs (1 and 0), fp32 */
    const char *fwd_relu = ARGS("Input Dims": [[4, 8, 20, 20], [16, 8, 5, 5], [16]],
                                "Input type": ["float", "float", "float"], "Concrete Inputs": ["", "", ""]);
    CHECK_EQ(tsql_perf_eval_fwd(&p, "ConvBiasReLU_Backward", own, fwd_relu, NULL, NULL, 0, 0), TSQL_PM_OK);
    CHECK_NEAR(p.flops, 13123584.0, 0);
    CHECK_NEAR(p.bytes, 275472.0, 0);
    CHECK_STR(p.compute_spec, "matrix_fp32");
    CHECK_STR(param(&p, "stride"), "(1, 1)");
    CHECK_STR(param(&p, "input_stride"), "<None>");
    /* no forward op: the row fails, with a message naming the forward class */
    CHECK_EQ(tsql_perf_eval_fwd(&p, "ConvBias_Backward", own, NULL, NULL, NULL, 0, 0), TSQL_PM_ERROR);
    CHECK(strstr(p.error, "no ConvBias_ with the same Sequence number") != NULL);
    CHECK_EQ(p.nparams, 0);
    CHECK_EQ(eval("ConvBiasReLU_Backward", own, NULL, 0)->status, TSQL_PM_ERROR);
    CHECK(strstr(eval("ConvBiasReLU_Backward", own, NULL, 0)->error, "no ConvBiasReLU_ with") != NULL);
    /* the forward op's own failures are the row's: mixed dtypes, stride 0 */
    CHECK_EQ(tsql_perf_eval_fwd(&p, "ConvBias_Backward", own,
                                ARGS("Input Dims": [[1, 3, 10, 10], [6, 3, 3, 3], [6]],
                                     "Input type": ["c10::BFloat16", "float"], "Concrete Inputs": ["", "", ""]),
                                NULL, NULL, 0, 0),
             TSQL_PM_ERROR);
    CHECK_EQ(tsql_perf_eval_fwd(&p, "ConvBias_Backward", own,
                                ARGS("Input Dims": [[1, 3, 10, 10], [6, 3, 3, 3], [6], [], []],
                                     "Input type": ["float", "float"], "Concrete Inputs": ["", "", "", "0", "0"]),
                                NULL, NULL, 0, 0),
             TSQL_PM_ERROR);
    CHECK_EQ(tsql_perf_eval_fwd(&p, "ConvBias_Backward", own, "{not json", NULL, NULL, 0, 0), TSQL_PM_ERROR);
    CHECK(strstr(p.error, "the forward op's args are not valid JSON") != NULL);
    /* its backward pass is not defined (the class has no backward of its own) */
    CHECK_EQ(tsql_perf_eval_fwd(&p, "ConvBias_Backward", own, fwd, NULL, NULL, 0, 1), TSQL_PM_NOT_IMPLEMENTED);
    /* other names ignore the forward args */
    const char *fused = ARGS("Input Dims": [[2, 4, 10, 10], [8, 4, 3, 3], [8]],
                             "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"],
                             "Concrete Inputs": ["", "", "", "1", "1"]);
    CHECK_EQ(tsql_perf_eval_fwd(&p, "ConvBias_", fused, fwd_relu, NULL, NULL, 0, 0), TSQL_PM_OK);
    CHECK_NEAR(p.flops, 2.0 * 36 * 1600 + 1600, 0);
    CHECK(tsql_op_lookup("ConvBias_Backward")->flags & TSQL_OPF_FWD_PARAMS);
    CHECK(!(tsql_op_lookup("ConvBias_")->flags & TSQL_OPF_FWD_PARAMS));
}

static void test_conv_models(void)
{
    /* backward of the Falconsai patch-embedding convolution: both gradients */
    const char *bwd = ARGS("Input Dims": [[4, 768, 14, 14], [4, 3, 224, 224], [768, 3, 16, 16], [], [], [], [], [], [],
                                          [], []],
                           "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "ScalarList",
                                          "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList", "Scalar",
                                          "ScalarList"],
                           "Input Strides": [[150528, 196, 14, 1], [150528, 50176, 224, 1], [768, 256, 16, 1], [], [],
                                             [], [], [], [], [], []],
                           "Concrete Inputs": ["", "", "", "[768]", "[16, 16]", "[0, 0]", "[1, 1]", "False", "[0, 0]",
                                               "1", "[False, True, True]"]);
    double fin = 2.0 * (3 * 16 * 16) * (4 * 768 * 14 * 14), fw = 2.0 * 4 * (14 * 14) * (768 * 3 * 16 * 16);
    double bb = 2.0 * (602112 + 589824 + 602112) * 2;
    expect("aten::convolution_backward", bwd, 0, fin + fw, bb, "matrix_bf16");
    CHECK_STR(param(eval("aten::convolution_backward", bwd, NULL, 0), "bias"), "[]"); /* Python's `and` */
    /* with a bias: + prod(out) FLOPs, + prod(out) + C_out elements (not bytes) */
    const char *bwdb = ARGS("Input Dims": [[4, 768, 14, 14], [4, 3, 224, 224], [768, 3, 16, 16], [768], [], [], [], [],
                                           [], [], []],
                            "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"],
                            "Concrete Inputs": ["", "", "", "[768]", "[16, 16]", "[0, 0]", "[1, 1]", "False", "[0, 0]",
                                                "1", "[True, True, True]"]);
    expect("aten::convolution_backward", bwdb, 0, fin + fw + 602112, bb + 602112 + 768, NULL);
    CHECK_STR(param(eval("aten::convolution_backward", bwdb, NULL, 0), "input_stride"), "<None>");
    /* transposed 2-D convolution, stride 2 */
    expect("aten::convolution",
           ARGS("Input Dims": [[1, 16, 8, 8], [16, 8, 3, 3], [], [], [], [], [], [], []],
                "Input type": ["float", "float"],
                "Concrete Inputs": ["", "", "", "[2, 2]", "[1, 1]", "[1, 1]", "True", "[1, 1]", "1"]),
           0, 2.0 * (8 * 3 * 3) * (16 * 8 * 8), (1024 + 1152 + 1 * 8 * 16 * 16) * 4.0, "matrix_fp32");
    /* ConvBias_: stride/padding as scalars, bias always */
    expect("ConvBias_",
           ARGS("Input Dims": [[2, 4, 10, 10], [8, 4, 3, 3], [8]],
                "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"],
                "Concrete Inputs": ["", "", "", "1", "1"]),
           0, 2.0 * 36 * 1600 + 1600, (800 + 288 + 8 + 1600) * 2.0, "matrix_bf16");
    /* mixed input/weight dtypes are an error */
    CHECK_EQ(eval("aten::convolution",
                  ARGS("Input Dims": [[1, 3, 8, 8], [4, 3, 3, 3]], "Input type": ["float", "c10::BFloat16"],
                       "Concrete Inputs": ["", "", "", "[1, 1]", "[0, 0]", "[1, 1]", "False", "[0, 0]", "1"]),
                  NULL, 0)->status,
             TSQL_PM_ERROR);
    test_conv_bias_backward();
    /* helper */
    tsql_conv_dims d = {.nd = 2, .x = {4, 3, 224, 224}, .w = {768, 3, 16, 16}, .stride = {16, 16}, .dilation = {1, 1}};
    double f, b;
    int64_t o[5];
    const char *err;
    CHECK_EQ(tsql_conv_eval(&d, 0, 2, &f, &b, o, &err), 0);
    CHECK_NEAR(f, 924844032.0, 0); /* 7.4 worked example */
    CHECK_NEAR(b / 1048576, 3.421875, 0);
    CHECK_EQ(o[2], 14);
}

static void test_sdpa_models(void)
{
    const char *qwen = ARGS("Input Dims": [[16, 16, 559, 64], [16, 16, 559, 64], [16, 16, 559, 64], [], [], [], []],
                            "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"],
                            "Concrete Inputs": ["", "", "", "0.", "True", "False", "0.125"]);
    double qk = 16.0 * 16 * 2 * 559 * 559 * 64;
    /* backward, flash: recompute + dV + dP + dQ + dK, halved for causal */
    expect("aten::_scaled_dot_product_flash_attention", qwen, 1, 5 * qk / 2, 7.0 * 9158656 * 2, "matrix_bf16");
    /* GQA, efficient attention (no recompute), not causal */
    const char *gqa = ARGS("Input Dims": [[2, 8, 128, 64], [2, 2, 128, 64], [2, 2, 128, 64], [], [], [], [], []],
                           "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"],
                           "Concrete Inputs": ["", "", "", "", "True", "0.", "False", "None"]);
    double g = 2.0 * 8 * 2 * 128 * 128 * 64, red = 2.0 * 128 * 64 * (8 / 2 - 1);
    expect("aten::_scaled_dot_product_efficient_attention", gqa, 0, 2 * g, (131072 + 32768 + 32768 + 131072) * 2.0,
           "matrix_bf16");
    expect("aten::_scaled_dot_product_efficient_attention", gqa, 1, 4 * g + 2 * red,
           (2 * 131072 + 2 * 32768 + 2 * 32768 + 131072) * 2.0, NULL);
    CHECK_STR(param(eval("aten::_scaled_dot_product_efficient_attention", gqa, NULL, 0), "H_KV"), "2");
    /* causal with N_Q != N_KV is an error */
    CHECK_EQ(eval("aten::_scaled_dot_product_flash_attention",
                  ARGS("Input Dims": [[1, 2, 16, 8], [1, 2, 32, 8], [1, 2, 32, 8]], "Input type": ["float", "float"],
                       "Concrete Inputs": ["", "", "", "0.", "True"]),
                  NULL, 0)->status,
             TSQL_PM_ERROR);
    /* varlen: one longest sequence + (S - 1) equal shorter ones */
    const char *vl = ARGS("Input Dims": [[1000, 8, 64], [1000, 8, 64], [1000, 8, 64], [5], [5]],
                          "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "int", "int"],
                          "Input Strides": [[512, 64, 1], [512, 64, 1], [512, 64, 1], [1], [1]],
                          "Concrete Inputs": ["", "", "", "", "", "400", "400", "0.0", "0.125", "False"]);
    expect("flash_attn::_flash_attn_varlen_forward", vl, 0, 2048.0 * 400 * 400 + 3 * 2048.0 * 200 * 200,
           1000.0 * 8 * 64 * 4 * 2, "matrix_bf16");
    CHECK_STR(param(eval("flash_attn::_flash_attn_varlen_forward", vl, NULL, 0), "max_seqlen_q"), "400.0");
    /* flash_attn backward entry: causal from conc[10], bytes with the dtype's size */
    expect("flash_attn::_flash_attn_backward",
           ARGS("Input Dims": [[2, 128, 8, 64], [2, 128, 8, 64], [2, 128, 8, 64], [2, 128, 8, 64]],
                "Input type": ["float", "float", "float", "float"],
                "Input Strides": [[65536, 512, 64, 1], [65536, 512, 64, 1], [65536, 512, 64, 1], [65536, 512, 64, 1]],
                "Concrete Inputs": ["", "", "", "", "", "", "", "", "0.0", "0.125", "True"]),
           0, 5 * (2.0 * 8 * 2 * 128 * 128 * 64) / 2, 7.0 * 2 * 128 * 8 * 64 * 4, "matrix_fp32");
    /* Evoformer: (Batch, N_seq, N_res, Head, Dim), batch folded */
    tsql_perf *p = eval("EvoformerAttention",
                        ARGS("Input Dims": [[1, 4, 64, 8, 32], [1, 4, 64, 8, 32], [1, 4, 64, 8, 32]],
                             "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"]),
                        NULL, 0);
    CHECK_NEAR(p->flops, 4.0 * 8 * 2 * 64 * 64 * 32 * 2, 0);
    CHECK_NEAR(p->bytes, 4.0 * (4 * 64 * 8 * 32) * 2, 0);
    CHECK_STR(param(p, "dtype_A_B"), "['c10::BFloat16']");
    /* aiter records no dtype: empty Compute Spec */
    p = eval("aiter::mha_fwd",
             ARGS("Input Dims": [[2, 128, 8, 64], [2, 128, 8, 64], [2, 128, 8, 64]],
                  "Concrete Inputs": ["", "", "", "0.0", "0.125", "True"]),
             NULL, 0);
    CHECK_EQ(p->status, TSQL_PM_OK);
    CHECK_STR(p->compute_spec, "");
    CHECK_STR(param(p, "causal"), "True");
    /* helpers */
    tsql_sdpa_dims d = {16, 559, 16, 559, 16, 64, 64, 1, 1};
    double f;
    const char *err;
    CHECK_EQ(tsql_sdpa_flops(&d, 0, &f, &err), 0);
    CHECK_NEAR(f, 10239377408.0, 0);
    CHECK_NEAR(tsql_sdpa_bytes(&d, 0, 2), 73269248.0, 0);
}

static void test_elementwise_models(void)
{
    /* 7.7 worked example: add with a Scalar third input (no output dtype) */
    expect("aten::add",
           ARGS("Input Dims": [[16, 559, 1024], [16, 559, 1024], []],
                "Input type": ["c10::BFloat16", "c10::BFloat16", "Scalar"],
                "Input Strides": [[572416, 1024, 1], [572416, 1024, 1], []], "Concrete Inputs": ["", "", "1"]),
           0, 9158656, 3.0 * 9158656 * 2, "vector_bf16");
    /* a scalar second operand: shape (), 4 bytes, output bpe = bpe_1 */
    expect("aten::mul",
           ARGS("Input Dims": [[4, 8], []], "Input type": ["c10::BFloat16", "Scalar"], "Input Strides": [[8, 1], []]),
           0, 32, 32 * 2 + 4 + 32 * 2.0, "vector_bf16");
    CHECK_EQ(eval("aten::add",
                  ARGS("Input Dims": [[3, 4], [5, 4]], "Input type": ["float", "float"], "Input Strides": [[4, 1], [4, 1]]),
                  NULL, 0)->status,
             TSQL_PM_ERROR); /* not broadcastable */
    expect("LigerSiLUMulFunction",
           ARGS("Input Dims": [[4, 1024], [4, 1024]], "Input type": ["c10::BFloat16", "c10::BFloat16"],
                "Input Strides": [[1024, 1], [1024, 1]]),
           0, 4096, 3 * 4096 * 2.0, "vector_bf16");
    /* replication_pad2d: pairs apply innermost first */
    tsql_perf *p = eval("aten::replication_pad2d",
                        ARGS("Input Dims": [[1, 3, 32, 32], []], "Input type": ["float", "ScalarList"],
                             "Input Strides": [[3072, 1024, 32, 1], []], "Concrete Inputs": ["", "[1, 1, 2, 2]"]),
                        NULL, 0);
    CHECK_STR(param(p, "output_shape"), "(1, 3, 36, 34)");
    CHECK_NEAR(p->flops, 3 * 36 * 34, 0);
    CHECK_NEAR(p->bytes, (3072 + 3 * 36 * 34) * 4.0, 0);
    expect("primus_turbo::quantize_fp8_tensorwise", ARGS("Input Dims": [[128, 256], [], []], "Input type": ["c10::BFloat16"]),
           0, 32768, 32768 * 2 + 32768.0, "vector_bf16");
    expect("primus_turbo::quantize_mxfp4_dual", ARGS("Input Dims": [[128, 256]], "Input type": ["c10::BFloat16"]), 0,
           32768, 32768 * 2 + 2 * 16384 + 128 * 8 + 256 * 4.0, "vector_bf16");
    /* unary: no output dtype → output bpe = input bpe; helpers */
    int64_t a[] = {16, 559, 1024}, b[] = {559, 1}, o[16];
    CHECK_EQ(tsql_broadcast(a, 3, b, 2, o), 3);
    CHECK_EQ(o[1], 559);
    CHECK_EQ(o[2], 1024);
    int64_t c[] = {3};
    CHECK_EQ(tsql_broadcast(a, 3, c, 1, o), -1);
}

static void test_reduce_norm_models(void)
{
    tsql_perf *p = eval("aten::cumsum",
                        ARGS("Input Dims": [[8, 128], []], "Input type": ["float", "Scalar"],
                             "Concrete Inputs": ["", "1"]),
                        NULL, 0);
    CHECK_STR(param(p, "num_output_elems"), "1024");
    CHECK_STR(param(p, "reduce_type"), "sum");
    CHECK_NEAR(p->bytes, 1024 * 4 * 2.0, 0);
    /* typed dim / keepdim values (not what Kineto writes, but the model reads them) */
    p = eval("aten::amax", "{\"Input Dims\": [[8, 128]], \"Input type\": [\"float\"], \"Concrete Inputs\": [\"\", [1], true]}",
             NULL, 0);
    CHECK_STR(param(p, "num_output_elems"), "8");
    CHECK_STR(param(p, "reduce_type"), "max");
    CHECK_NEAR(p->bytes, 1024 * 4 + 8 * 4.0, 0);
    p = eval("aten::sum", "{}", NULL, 0); /* no shape: zeros and no reduce_type */
    CHECK_STR(dict(p), "{'num_input_elems': 0, 'num_output_elems': 0, 'dtype_in_out': (None, None)}");
    CHECK_EQ(p->has_bytes, 0);
    expect("aten::mean", ARGS("Input Dims": [[16, 559, 1024]], "Input type": ["float"]), 1, 9158656,
           9158656 * 4 + 4.0, "vector_fp32");

    /* 7.9 worked example: layer_norm (4, 197, 768) bf16 */
    p = eval("aten::layer_norm",
             ARGS("Input Dims": [[4, 197, 768], [], [768], [768], [], []],
                  "Input type": ["c10::BFloat16", "ScalarList", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"],
                  "Input Strides": [[151296, 768, 1], [], [1], [1], [], []],
                  "Concrete Inputs": ["", "[768]", "", "", "9.9999999999999998e-13", "True"]),
             NULL, 0);
    CHECK_NEAR(p->flops, 3030528, 0);
    CHECK_NEAR(p->bytes, 2429952, 0);
    CHECK_EQ(eval("aten::layer_norm",
                  ARGS("Input Dims": [[4, 8], [], [8], [8]], "Input type": ["float"], "Input Strides": [[8, 1]],
                       "Concrete Inputs": ["", "[8]"]),
                  NULL, 1)->status,
             TSQL_PM_NOT_IMPLEMENTED);
    /* batch norm, training */
    double E = 8 * 16 * 32 * 32, C = 16;
    expect("aten::native_batch_norm",
           ARGS("Input Dims": [[8, 16, 32, 32], [16], [16], [16], [16], [], [], []],
                "Input type": ["float", "float", "float", "float", "float", "Scalar", "Scalar", "Scalar"],
                "Input Strides": [[16384, 1024, 32, 1], [1], [1], [1], [1], [], [], []],
                "Concrete Inputs": ["", "", "", "", "", "True", "0.1", "1e-05"]),
           0, 3 * C + 3 * E + 3 * C + 2 * E, 2 * E * 4 + 6 * C * 4, "vector_fp32");
    /* layer_norm backward: output_mask from Concrete Inputs[7] */
    E = 4 * 197 * 768, C = 768;
    const char *lnb = ARGS("Input Dims": [[4, 197, 768], [4, 197, 768], [], [4, 197, 1], [4, 197, 1], [768], [768], []],
                           "Input type": ["c10::BFloat16", "c10::BFloat16", "ScalarList", "float", "float",
                                          "c10::BFloat16", "c10::BFloat16", "ScalarList"],
                           "Input Strides": [[151296, 768, 1], [151296, 768, 1], [], [197, 1, 1], [197, 1, 1], [1], [1], []],
                           "Concrete Inputs": ["", "", "[768]", "", "", "", "", "[True, True, True]"]);
    expect("aten::native_layer_norm_backward", lnb, 0, C * (4 * (E / C) + 5 * (E / C)),
           E * 2 + E * 2 * 2 + C * 2 + (C * 2 + C * 2 * 2), "vector_bf16");
    CHECK_STR(param(eval("aten::native_layer_norm_backward", lnb, NULL, 0), "output_mask"), "[True, True, True]");
    /* group_norm backward: num_channels = C / groups is a float */
    E = 2 * 32 * 8 * 8, C = 32.0 / 4;
    const char *gnb = ARGS("Input Dims": [[2, 32, 8, 8], [2, 32, 8, 8], [2, 4], [2, 4], [32], [32], [], [], [], []],
                           "Input type": ["float", "float", "float", "float", "float"],
                           "Input Strides": [[2048, 64, 8, 1], [2048, 64, 8, 1], [4, 1], [4, 1], [1], [1], [], [], [], []],
                           "Concrete Inputs": ["", "", "", "", "", "", "2", "32", "4", "[True, True, True]"]);
    expect("aten::native_group_norm_backward", gnb, 0, C * (4 * (E / C) + 5 * (E / C)),
           E * 4 + E * 4 * 2 + C * 4 + (C * 4 + C * 4 * 2), "vector_fp32");
    CHECK_STR(param(eval("aten::native_group_norm_backward", gnb, NULL, 0), "num_channels"), "8.0");
    /* RMSNorm forward / backward */
    E = 4 * 16 * 64, C = 64;
    expect("aten::_fused_rms_norm",
           ARGS("Input Dims": [[4, 16, 64], [], [64], []], "Input type": ["float", "ScalarList", "float", "Scalar"],
                "Input Strides": [[1024, 64, 1], [], [1], []], "Concrete Inputs": ["", "[64]", "", "1e-06"]),
           0, (E / C) * (2 * C + 2) + E * 2, E * 4 * 2 + C * 4, "vector_fp32");
    expect("aten::_fused_rms_norm_backward",
           ARGS("Input Dims": [[4, 16, 64], [4, 16, 64], [], [4, 16, 1], [64], []],
                "Input type": ["float", "float", "ScalarList", "float", "float", "ScalarList"],
                "Input Strides": [[1024, 64, 1], [1024, 64, 1], [], [16, 1, 1], [1], []],
                "Concrete Inputs": ["", "", "[64]", "", "", "[True, True]"]),
           0, 10 * E, E * 4 + 2 * E * 4 + 2 * C * 4, "vector_fp32");
    /* primus fused LayerNorm-modulate, (T, B, H) */
    E = 16 * 2 * 64;
    expect("primus::fused_ln_modulate", ARGS("Input Dims": [[16, 2, 64], [2, 64], [2, 64], []], "Input type": ["c10::BFloat16"]),
           0, 12 * E, 2 * E * 2 + 2 * 2 * 64 * 2 + 2 * 16 * 2 * 4.0, "vector_bf16");
    expect("primus::fused_ln_modulate_backward",
           ARGS("Input Dims": [[16, 2, 64], [16, 2, 64], [32], [32], [2, 64]], "Input type": ["c10::BFloat16"]), 0, 15 * E,
           3 * E * 2 + 2 * 2 * 16 * 4 + 3 * 2 * 64 * 2.0, "vector_bf16");
    CHECK_EQ(eval("aten::instance_norm_backward", "{}", NULL, 0)->status, TSQL_PM_NOT_IMPLEMENTED);
}

static void test_other_models(void)
{
    expect("primus_turbo::grouped_gemm", ARGS("Input Dims": [[1024, 512], [8, 512, 256]], "Input type": ["c10::BFloat16", "c10::BFloat16"]),
           0, 2.0 * 1024 * 512 * 256, (1024 * 512 + 8 * 512 * 256) * 2.0 + 1024 * 256 * 2, "matrix_bf16");
    tsql_perf *p = eval("primus_turbo::grouped_gemm_variable_k",
                        ARGS("Input Dims": [[[64, 128], [32, 256]], [[128, 16], [256, 16]]],
                             "Input type": ["c10::BFloat16", "c10::BFloat16"]),
                        NULL, 0);
    CHECK_NEAR(p->flops, 2.0 * 64 * 128 * 16 + 2.0 * 32 * 256 * 16, 0);
    CHECK_NEAR(p->bytes, (64 * 128 + 128 * 16) * 2 + 64 * 16 * 2 + (32 * 256 + 256 * 16) * 2 + 32 * 16 * 2.0, 0);
    CHECK_STR(param(p, "group_pairs"), "[((64, 128), (128, 16)), ((32, 256), (256, 16))]");
    expect("MoEDispatch", ARGS("Input Dims": [[4096, 2048]], "Input type": ["c10::BFloat16"]), 1, 0, 4096 * 2048 * 2.0, "");
    expect("DaoAILab::_causal_conv1d_fwd_cpp",
           ARGS("Input Dims": [[2, 64, 128], [64, 4], [64]], "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"]),
           0, 2.0 * 2 * 64 * 128 * 4, (2.0 * 2 * 64 * 128 + 64 * 4 + 64) * 2, "matrix_bf16");
    /* Mamba-2 SSD: H = 4, P = 64, G = 1, N = 16, C = 128 → combined_dim = 548 */
    const char *mamba = ARGS("Input Dims": [[1, 16, 548], [288, 4], [288], [4], [4], [4]],
                             "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "float", "float", "float"],
                             "Concrete Inputs": ["", "", "", "", "", "", "128", "", "", "", "", "", "", "", "", "64", "1"]);
    double mf = 2.0 * 288 * 16 * 4 + 2.0 * 16 * 128 * 16 + 2.0 * 4 * 16 * 128 * 64 + 4.0 * 4 * 16 * 16 * 64;
    double mb = 16 * 548 * 2 + 288 * 4 * 2 + 288 * 2 + 4 * (4 + 4 + 4) + 16 * 256 * 2.0;
    expect("MambaSplitConv1dScanCombinedFn", mamba, 0, mf, mb, "matrix_bf16");
    expect("MambaSplitConv1dScanCombinedFn", mamba, 1, mf, mb, NULL); /* backward = forward */
    CHECK_STR(param(eval("MambaSplitConv1dScanCombinedFn", mamba, NULL, 0), "N"), "16");
    expect("FusedRoPEFunc", ARGS("Input Dims": [[128, 2, 8, 64], [128, 1, 1, 64]], "Input type": ["c10::BFloat16", "float"]),
           0, 3.0 * 131072, 2.0 * 131072 * 2, "vector_bf16");
    p = eval("CrossEntropyFunction", ARGS("Input Dims": [[8, 1, 32000], [8, 1]], "Input type": ["c10::BFloat16", "long int"]),
             NULL, 0);
    CHECK_NEAR(p->flops, 5.0 * 8 * 32000, 0);
    CHECK_NEAR(p->bytes, 256000 * 2 + 64 + 32.0, 0);
    CHECK_STR(param(p, "logits_shape"), "[8, 1, 32000]");
}

static void test_registry(void)
{
    /* 5.1 rules 1-4 */
    CHECK_STR(tsql_op_category("aten::mm", NULL), "GEMM");
    CHECK_STR(tsql_op_category("aten::convolution_backward", NULL), "CONV_bwd");
    CHECK_STR(tsql_op_category("aten::cudnn_convolution", NULL), "CONV_fwd");
    CHECK_STR(tsql_op_category("aten::_scaled_dot_product_flash_attention_backward", NULL), "SDPA_bwd");
    CHECK_STR(tsql_op_category("aten::native_layer_norm_backward", NULL), "NORM_bwd");
    CHECK_STR(tsql_op_category("aten::linear", "void at::native::elementwise_kernel<...>"), "elementwise");
    CHECK_STR(tsql_op_category("aten::all", "void at::native::reduce_kernel<512, 1>(...)"), "reduce");
    CHECK_STR(tsql_op_category("aten::_foreach_add_", "void at::native::multi_tensor_apply_kernel<...>"),
              "multi_tensor_apply");
    CHECK_STR(tsql_op_category("aten::fill_", "void at::native::unrolled_reduce<...>"), "reduce");
    CHECK_STR(tsql_op_category("aten::fill_", "void at::native::vectorized_gather<...>"), "other");
    CHECK_STR(tsql_op_category("aten::fill_", "at::native::elementwise"), "other"); /* prefix is "void at::native" */
    CHECK_STR(tsql_op_category("aten::_flash_attention_forward", NULL), "other");
    CHECK_STR(tsql_op_category("triton_poi_fused_add_0", NULL), "triton");
    CHECK_STR(tsql_op_category("record_param_comms", "ncclKernel"), "record_param_comms");
    CHECK_STR(tsql_op_category(NULL, NULL), "other");
    /* a name in both lists: the category-only map wins, the model stays */
    CHECK_STR(tsql_op_category("aiter::fused_dynamic_mxfp4_quant_moe_sort_hip", NULL), "MoE_aux");
    CHECK_EQ(tsql_op_has_model("aiter::fused_dynamic_mxfp4_quant_moe_sort_hip"), 1);
    CHECK_STR(tsql_op_sheet("aten::add"), "BinaryElementwise");
    CHECK_STR(tsql_op_sheet("aten::silu"), "UnaryElementwise");
    CHECK_STR(tsql_op_sheet("aten::_scaled_dot_product_flash_attention"), "SDPA");
    CHECK_STR(tsql_op_sheet("aten::cudnn_convolution"), NULL);
    CHECK_STR(tsql_op_bwd_category("aten::convolution"), "CONV_bwd");
    CHECK_STR(tsql_op_bwd_category("aten::mm"), NULL);
    CHECK_EQ(tsql_op_has_model("aten::mm"), 1);
    CHECK_EQ(tsql_op_has_model("aten::linear"), 0);
    CHECK_EQ(tsql_op_has_model("aten::cudnn_convolution"), 0);
    CHECK_EQ(tsql_op_has_model("triton_red_fused_sum_1"), 1);
    CHECK_EQ(tsql_op_has_model("triton_foo"), 0);
    size_t n;
    const tsql_op_info *all = tsql_op_registry(&n);
    CHECK(n > 280);
    int names_unique = 1;
    for (size_t i = 0; i < n; i++)
        if (tsql_op_lookup(all[i].name) != &all[i]) names_unique = 0;
    CHECK(names_unique);
    /* every row is whole: a perf-model name has its class, sheet and flags, a model
     * function only with a class, a category-only name nothing but its category */
    int whole = 1, nmodel = 0, nimpl = 0;
    for (size_t i = 0; i < n; i++) {
        const tsql_op_info *r = &all[i];
        if (!r->name || !r->category) whole = 0;
        else if (r->flags & TSQL_OPF_MODEL) whole &= r->model_class && r->sheet;
        else whole &= !r->model_class && !r->sheet && !r->bwd_category && !r->model && !r->flags;
        nmodel += (r->flags & TSQL_OPF_MODEL) != 0;
        nimpl += r->model != NULL;
    }
    CHECK(whole);
    CHECK_EQ(nmodel, 245); /* Appendix A */
    CHECK_EQ(nimpl, 245); /* every class */
    /* rows carry their own family function: neighbours of every family */
    static const struct { const char *name; tsql_pm_model model; } fam[] = {
        {"aten::mm", pm_gemm}, {"aiter::_gemm_a4w4_asm", pm_gemm},
        {"aiter::_gemm_a8w8_blockscale_bpreshuffle_asm", pm_gemm_ext}, {"FlashAttnFunc", pm_sdpa},
        {"EvoformerAttention", pm_sdpa}, {"aten::convolution", pm_conv},
        {"ConvBiasReLU_", pm_conv}, {"ConvBias_Backward", pm_conv},
        {"LigerSiLUMulFunction", pm_binary}, {"aten::threshold_backward", pm_binary},
        {"primus_turbo_cpp_extension::ck_grouped_gemm_variable_k", pm_grouped_gemm},
        {"MoECombine", pm_moe_comm}, {"DaoAILab::_causal_conv1d_fwd_cpp", pm_causal_conv1d},
        {"MambaSplitConv1dScanCombinedFn", pm_mamba_ssd}, {"FusedRoPEFunc", pm_fused_rope},
        {"CrossEntropyFunction", pm_cross_entropy}, {"primus::quantize_mxfp4_dual", pm_unary},
        {"aten::upsample_nearest3d", pm_unary}, {"aiter::mhc_fused_post_pre_gemm_sqrsum", pm_mhc},
        {"aiter::_groupnorm_run", pm_norm}, {"primus::fused_ln_modulate_backward", pm_norm},
        {"aten::sum", pm_reduce}, {"aten::amax", pm_reduce}, {"aten::cudnn_convolution", NULL},
    };
    for (size_t i = 0; i < sizeof fam / sizeof *fam; i++) {
        const tsql_op_info *r = tsql_op_lookup(fam[i].name);
        CHECK(r && r->model == fam[i].model);
    }
    const tsql_op_info *op = tsql_op_lookup("aten::convolution_backward");
    CHECK(op && (op->flags & TSQL_OPF_BWD_ONLY) && op->model);
    op = tsql_op_lookup("aiter::rms_norm");
    CHECK(op && (op->flags & TSQL_OPF_EXT) && op->model == pm_rmsnorm);
    CHECK_EQ(eval("aiter::rms_norm", "{}", NULL, 0)->status, TSQL_PM_ERROR); /* no Input Dims */
    CHECK_EQ(eval("aten::linear", "{}", NULL, 0)->status, TSQL_PM_NO_MODEL);
    CHECK_EQ(eval("aten::mm", "{not json", NULL, 0)->status, TSQL_PM_ERROR);
    CHECK_EQ(eval("aten::mm", NULL, NULL, 0)->status, TSQL_PM_ERROR); /* no Input Dims */

    /* 7.2 tables */
    CHECK_EQ(tsql_dtype_bytes("c10::BFloat16"), 2);
    CHECK_EQ(tsql_dtype_bytes("C10::HALF"), 2);
    CHECK_EQ(tsql_dtype_bytes("long int"), 8);
    CHECK_EQ(tsql_dtype_bytes("Scalar"), 4);
    CHECK_EQ(tsql_dtype_bytes("c10::Float8_e5m2"), 1);
    CHECK_EQ(tsql_dtype_bytes("c10::Float8_e5m2fnuz"), 0);
    CHECK_EQ(tsql_dtype_bytes("bool"), 0);
    CHECK_EQ(tsql_dtype_bytes(NULL), 0);
    CHECK_STR(tsql_dtype_precision("float"), "fp32");
    CHECK_STR(tsql_dtype_precision("c10::Float8_e4m3fnuz"), "fp8");
    CHECK_STR(tsql_dtype_precision("c10::Float8_e5m2"), NULL);
    CHECK_STR(tsql_dtype_precision("c10::Float4_e2m1fn_x2"), "fp4");
    CHECK_STR(tsql_dtype_precision("long int"), NULL);
}

static void test_metrics(void)
{
    tsql_perf_metrics m;
    tsql_perf_derive(51581550592.0, 74457088.0, 84.4844258626302, &m);
    CHECK_STR(pyf(m.gflops), "51.581550592");
    CHECK_STR(pyf(m.data_moved_mb), "71.0078125");
    CHECK_NEAR(m.tflops_s, 51.581550592 / 1e3 / (84.4844258626302 / 1e6), 1e-15);
    CHECK_NEAR(m.tb_s, 74457088.0 / 1e12 / (84.4844258626302 / 1e6), 1e-15);
    tsql_perf_derive(100, NAN, 0, &m);
    CHECK(isnan(m.tflops_s) && isnan(m.data_moved_mb) && isnan(m.flops_per_byte) && isnan(m.tb_s));
    tsql_perf_derive(100, 0, 2, &m);
    CHECK(isnan(m.flops_per_byte));
    CHECK_NEAR(m.data_moved_mb, 0, 0);
    /* FLOPS/Byte through GFLOPS: ((F / 1e9) * 1e9) / Bytes, one ulp off F / Bytes here
     * (resnet50 batch_norm on (32, 256, 56, 56); a synthetic pair) */
    tsql_perf_derive(128452096.0, 102763520.0, 1, &m);
    CHECK_STR(pyf(m.flops_per_byte), "1.2499775795924466");
    tsql_perf_derive(62812.0, 251248.0, 1, &m);
    CHECK_STR(pyf(m.flops_per_byte), "0.24999999999999997");

    /* roofline: MI300X bf16, the Qwen mm */
    tsql_roofline r;
    CHECK_EQ(tsql_roofline_eval(51581550592.0, 74457088.0, 84.48, 708, 5300, &r), 0);
    CHECK_NEAR(r.compute_us, 51581550592.0 / (708 * 1e12) * 1e6, 0);
    CHECK_NEAR(r.memory_us, 74457088.0 / (5300 * 1e9) * 1e6, 0);
    CHECK_STR(r.bound, "COMPUTE_BOUND");
    CHECK_NEAR(r.pct, r.time_us / 84.48 * 100, 0);
    CHECK_EQ(tsql_roofline_eval(1e6, 1e9, 10, 708, 5300, &r), 0);
    CHECK_STR(r.bound, "MEMORY_BOUND");
    CHECK_EQ(tsql_roofline_eval(1e6, 1e9, 0, 708, 5300, &r), 0);
    CHECK(isnan(r.pct));
    /* the compute time starts from GFLOPS too: gpt2_eager's GEMMs under H100_arch.json */
    CHECK_EQ(tsql_roofline_eval(316189704192.0, 472.25146484375 * 1048576, 6676.357421875 / 2, 989.5, 3350, &r), 0);
    CHECK_STR(pyf(r.time_us), "319.54492591409803");
    CHECK_STR(r.bound, "COMPUTE_BOUND");
    CHECK_EQ(tsql_roofline_eval(19330498560.0, 1, 100, 494.5, 3350, &r), 0);
    CHECK_STR(pyf(r.time_us), "39.09099809908999");
    CHECK_EQ(tsql_roofline_eval(1e6, NAN, 10, 708, 5300, &r), -1); /* no bytes */
    CHECK_EQ(tsql_roofline_eval(0, 1e9, 10, 708, 5300, &r), -1);   /* GFLOPS not > 0 */
    CHECK_EQ(tsql_roofline_eval(1e6, 1e9, 10, NAN, 5300, &r), -1); /* no peak for the spec */
}

static void test_gpu_specs(void)
{
    /* every built-in GPU has vector 16-bit peaks (mixed-precision elementwise, norm and
     * reduce ops) and a matrix fp32 one */
    size_t nspec;
    const tsql_gpu_spec *specs = tsql_gpu_specs(&nspec);
    for (size_t i = 0; i < nspec; i++) {
        CHECK(specs[i].peak[TSQL_GPU_VECTOR_BF16] > 0);
        CHECK(specs[i].peak[TSQL_GPU_VECTOR_FP16] > 0);
        CHECK(specs[i].peak[TSQL_GPU_MATRIX_FP32] > 0);
    }
    CHECK_STR(tsql_gpu_detect("AMD Instinct MI300X"), "MI300X");
    CHECK_STR(tsql_gpu_detect("AMD Instinct MI300X VF"), "MI300X");
    CHECK_STR(tsql_gpu_detect("AMD Instinct MI325X"), "MI325X");
    CHECK_STR(tsql_gpu_detect("AMD Instinct MI250X/MI250"), "MI250X");
    CHECK_STR(tsql_gpu_detect("NVIDIA H100 80GB HBM3"), "H100");
    CHECK_STR(tsql_gpu_detect("NVIDIA H100 PCIe"), NULL); /* different peaks: not the SXM row */
    CHECK_STR(tsql_gpu_detect("NVIDIA H200"), "H200");
    CHECK_STR(tsql_gpu_detect("NVIDIA A100-SXM4-80GB"), "A100");
    CHECK_STR(tsql_gpu_detect("NVIDIA B200"), "B200");
    CHECK_STR(tsql_gpu_detect("AMD Instinct MI355X"), "MI355X");
    CHECK_STR(tsql_gpu_detect("NVIDIA GeForce RTX 4090"), NULL);
    CHECK_STR(tsql_gpu_detect(NULL), NULL);
    CHECK(tsql_gpu_name_match("foo|bar baz", "x BAZ y bar"));
    CHECK(!tsql_gpu_name_match("bar !baz", "bar baz"));
    CHECK(!tsql_gpu_name_match("", "anything"));
    const tsql_gpu_spec *s = tsql_gpu_spec_find("mi300x");
    CHECK(s != NULL);
    if (s) {
        /* TraceLens's MI300X arch file (7.12) */
        CHECK_NEAR(s->mem_bw_gbps, 5300, 0);
        CHECK_NEAR(s->peak[TSQL_GPU_MATRIX_BF16], 708, 0);
        CHECK_NEAR(s->peak[TSQL_GPU_MATRIX_FP16], 654, 0);
        CHECK_NEAR(s->peak[TSQL_GPU_MATRIX_FP8], 1273, 0);
        CHECK_NEAR(s->peak[TSQL_GPU_VECTOR_FP32], 81, 0);
        CHECK(isnan(s->peak[TSQL_GPU_MATRIX_FP4]));
    }
    s = tsql_gpu_spec_find("MI325X");
    CHECK(s && s->peak[TSQL_GPU_MATRIX_BF16] == 843 && s->mem_bw_gbps == 6000 && s->peak[TSQL_GPU_VECTOR_FP64] == 48);
    CHECK_EQ(tsql_gpu_col_index("matrix_bf16"), TSQL_GPU_MATRIX_BF16);
    CHECK_EQ(tsql_gpu_col_index("vector_bfloat16"), -1);
    size_t n;
    const tsql_gpu_spec *all = tsql_gpu_specs(&n);
    CHECK_EQ(n, 8);
    int sourced = 1;
    for (size_t i = 0; i < n; i++)
        if (!all[i].source || strlen(all[i].source) < 20) sourced = 0;
    CHECK(sourced);
}

static tsql_buf repr_buf;

static const char *repr_text(const char *json, int flags)
{
    repr_buf.n = 0;
    const char *err;
    int rc = tsql_pyrepr_text(&repr_buf, json, strlen(json), flags, &err);
    return rc == 0 ? repr_buf.p : rc == -2 ? "<error>" : "<nomem>";
}

static void test_pyrepr(void)
{
    static const struct { double x; const char *s; } floats[] = {
        {0.125, "0.125"}, {1e-05, "1e-05"}, {51.581550592, "51.581550592"}, {100.0, "100.0"}, {1e16, "1e+16"},
        {1e15, "1000000000000000.0"}, {0.0001, "0.0001"}, {0.1 + 0.2, "0.30000000000000004"}, {-0.0, "-0.0"},
        {0.0, "0.0"}, {5e-324, "5e-324"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
        {123456789012345678.0, "1.2345678901234568e+17"}, {692.7688414567059, "692.7688414567059"},
        {-2.5e-7, "-2.5e-07"}, {9999999999999998.0, "9999999999999998.0"},
    };
    for (size_t i = 0; i < sizeof floats / sizeof *floats; i++) CHECK_STR(pyf(floats[i].x), floats[i].s);
    CHECK_STR(pyf(NAN), "nan");
    CHECK_STR(pyf(INFINITY), "inf");
    CHECK_STR(pyf(-INFINITY), "-inf");
    CHECK_STR(pyf(4.0), "4.0");

    /* a float written into JSON keeps its type through py_repr: 4.0 stays 4.0, an int 4 */
    static const struct { double x; const char *json, *repr; } kept[] = {
        {4.0, "4.0", "4.0"}, {0.0, "0.0", "0.0"}, {-0.0, "-0.0", "-0.0"}, {1e-05, "1e-05", "1e-05"},
        {1e16, "1e+16", "1e+16"}, {96.691, "96.691", "96.691"}, {NAN, "null", "None"},
    };
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++) {
        tsql_buf jb = {0};
        CHECK(tsql_json_float(&jb, kept[i].x) == 0 && tsql_buf_reserve(&jb, 1) == 0);
        if (jb.p) {
            jb.p[jb.n] = 0;
            CHECK_STR(jb.p, kept[i].json);
            CHECK_STR(repr_text(jb.p, 0), kept[i].repr);
        }
        free(jb.p);
    }
    CHECK_STR(repr_text("4", 0), "4");

    CHECK_STR(repr_text("[[8944, 1024], [1024, 2816]]", TSQL_PY_TUPLES), "((8944, 1024), (1024, 2816))");
    CHECK_STR(repr_text("[[8944, 1024], [1024, 2816]]", 0), "[[8944, 1024], [1024, 2816]]");
    CHECK_STR(repr_text("[1]", TSQL_PY_TUPLES), "(1,)");
    CHECK_STR(repr_text("[]", TSQL_PY_TUPLES), "()");
    CHECK_STR(repr_text("[[], [768]]", TSQL_PY_TUPLES), "((), (768,))");
    CHECK_STR(repr_text(" [\"c10::BFloat16\", \"\", null] ", TSQL_PY_TUPLES), "('c10::BFloat16', '', None)");
    CHECK_STR(repr_text("[\"\", \"[768]\", \"9.9999999999999998e-13\"]", 0), "['', '[768]', '9.9999999999999998e-13']");
    CHECK_STR(repr_text("{\"a\": [true, false, 2.50, 1e400, -0]}", TSQL_PY_TUPLES), "{'a': (True, False, 2.5, inf, 0)}");
    CHECK_STR(repr_text("12345678901234567890123", 0), "12345678901234567890123");
    CHECK_STR(repr_text("\"it's\"", 0), "\"it's\"");
    CHECK_STR(repr_text("\"it's \\\"x\\\"\"", 0), "'it\\'s \"x\"'");
    CHECK_STR(repr_text("\"a\\\\b\\n\\t\\u0001\\u007f\\u00e9\\u00a0\\u2028\"", 0), "'a\\\\b\\n\\t\\x01\\x7fé\\xa0\\u2028'");
    CHECK_STR(repr_text("\"\\ud83d\\ude00\"", 0), "'\xf0\x9f\x98\x80'"); /* printable emoji kept */
    CHECK_STR(repr_text("[1, 2", 0), "<error>");
    CHECK_STR(repr_text("[1] x", 0), "<error>");
    CHECK_STR(repr_text("01", 0), "<error>");

    /* cJSON values: integral numbers print as ints */
    tsql_buf b = {0};
    tsql_perf *p = eval("aten::mm", "{\"Input Dims\": [[2, 3], [3, 4]], \"Input type\": [\"float\", \"float\"]}", NULL, 0);
    (void)p;
    CHECK_EQ(tsql_py_put_str(&b, "a'b\"c", 5), 0);
    CHECK_STR(b.p, "'a\\'b\"c'");
    b.n = 0;
    CHECK_EQ(tsql_py_put_str(&b, "bad\xff", 4), 0);
    CHECK_STR(b.p, "'bad\\xff'");
    free(b.p);

    /* repr text → JSON */
    tsql_buf j = {0};
    const char *err;
    CHECK_EQ(tsql_py_to_json(&j, "{'M': 8, 'x': (1,), 'd': ('a', None), 'f': 0.5, 'b': True, 'n': nan, 's': \"it's\"}",
                             strlen("{'M': 8, 'x': (1,), 'd': ('a', None), 'f': 0.5, 'b': True, 'n': nan, 's': \"it's\"}"),
                             &err),
             0);
    CHECK_STR(j.p, "{\"M\":8,\"x\":[1],\"d\":[\"a\",null],\"f\":0.5,\"b\":true,\"n\":null,\"s\":\"it's\"}");
    j.n = 0;
    CHECK_EQ(tsql_py_to_json(&j, "(1, 2", 5, &err), -2);
    free(j.p);
}

int main(void)
{
    test_reference_rows();
    test_reference_dicts();
    test_gemm_models();
    test_conv_models();
    test_sdpa_models();
    test_elementwise_models();
    test_reduce_norm_models();
    test_other_models();
    test_registry();
    test_metrics();
    test_gpu_specs();
    test_pyrepr();
    /* free the static result slots */
    tsql_perf_free(eval("aten::linear", NULL, NULL, 0));
    free(dict(eval("aten::linear", NULL, NULL, 0)));
    free(repr_buf.p);
    return check_report("test_perfmodel");
}
