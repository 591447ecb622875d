/* test_replay.c — core/output/replay.c: dtype tables, overload choice, argument text,
 * literals from Concrete Inputs, placeholders, refusals. (That every script compiles
 * is checked by tests/replay/check_replay.sh with python3 -m py_compile.) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "output/replay.h"

static tsql_buf out;
static char err[300];

/* script for op name with the given args JSON; NULL if refused */
static const char *script(const char *name, const char *args)
{
    tsql_replay_ctx ctx = {.label = "unit", .uid = 42, .cpu_dur_us = 10.5, .kernel_us = 3.25, .nkernels = 2};
    int rc = tsql_replay_script(name, args, &ctx, &out, err, sizeof err);
    return rc == 0 ? out.p : NULL;
}

static void dtypes(void)
{
    CHECK_STR(tsql_replay_torch_dtype("c10::BFloat16"), "torch.bfloat16");
    CHECK_STR(tsql_replay_torch_dtype("c10::bfloat16"), "torch.bfloat16");
    CHECK_STR(tsql_replay_torch_dtype("c10::Half"), "torch.float16");
    CHECK_STR(tsql_replay_torch_dtype("float"), "torch.float32");
    CHECK_STR(tsql_replay_torch_dtype("double"), "torch.float64");
    CHECK_STR(tsql_replay_torch_dtype("long int"), "torch.int64");
    CHECK_STR(tsql_replay_torch_dtype("int"), "torch.int32");
    CHECK_STR(tsql_replay_torch_dtype("bool"), "torch.bool");
    CHECK_STR(tsql_replay_torch_dtype("unsigned char"), "torch.uint8");
    CHECK_STR(tsql_replay_torch_dtype("c10::Float8_e4m3fn"), "torch.float8_e4m3fn");
    CHECK_STR(tsql_replay_torch_dtype("c10::Float8_e4m3fnuz"), "torch.float8_e4m3fnuz");
    CHECK_STR(tsql_replay_torch_dtype("c10::Float8_e5m2"), "torch.float8_e5m2");
    CHECK_STR(tsql_replay_torch_dtype("c10::Float8_e5m2fnuz"), "torch.float8_e5m2fnuz");
    CHECK_STR(tsql_replay_torch_dtype("c10::complex<float>"), "torch.complex64");
    CHECK_STR(tsql_replay_torch_dtype("Scalar"), NULL);
    CHECK_STR(tsql_replay_torch_dtype(""), NULL);
    CHECK_STR(tsql_replay_torch_dtype(NULL), NULL);
    CHECK_STR(tsql_replay_scalar_type(15), "torch.bfloat16");
    CHECK_STR(tsql_replay_scalar_type(6), "torch.float32");
    CHECK_STR(tsql_replay_scalar_type(4), "torch.int64");
    CHECK_STR(tsql_replay_scalar_type(11), "torch.bool");
    CHECK_STR(tsql_replay_scalar_type(24), "torch.float8_e4m3fn");
    CHECK_STR(tsql_replay_scalar_type(44), "torch.float8_e8m0fnu");
    CHECK_STR(tsql_replay_scalar_type(35), NULL);
    CHECK_STR(tsql_replay_scalar_type(-1), NULL);
}

static void overloads(void)
{
    const char *s = script("aten::mm", "{\"Input Dims\":[[2,3],[3,4]],\"Input type\":[\"c10::BFloat16\","
                                       "\"c10::BFloat16\"],\"Input Strides\":[[3,1],[1,3]],"
                                       "\"Concrete Inputs\":[\"\",\"\"]}");
    CHECK_HAS(s, "    return torch.ops.aten.mm.default\n");
    CHECK_HAS(s, "make_tensor((2, 3), (3, 1), torch.bfloat16, device),  # self (Tensor): c10::BFloat16\n");
    CHECK_HAS(s, "make_tensor((3, 4), (1, 3), torch.bfloat16, device),  # mat2 (Tensor)");
    CHECK_HAS(s, "OP_NAME = 'aten::mm'\n");
    CHECK_HAS(s, "TRACE_LABEL = 'unit'\n");
    CHECK_HAS(s, "TRACE_UID = 42\n");
    CHECK_HAS(s, "TRACE_KERNEL_US = 3.250\n");
    CHECK_HAS(s, "recorded: CPU 10.500 us; 2 GPU events, busy 3.250 us\n");
    CHECK_HAS(s, "torch.cuda.Event(enable_timing=True)");
    CHECK_HAS(s, "time.perf_counter()");

    /* a third tensor is the out= argument */
    s = script("aten::mm", "{\"Input Dims\":[[2,3],[3,4],[2,4]],\"Input type\":[\"float\",\"float\",\"float\"]}");
    CHECK_HAS(s, "return torch.ops.aten.mm.out\n");
    CHECK_HAS(s, "        'out': make_tensor((2, 4), None, torch.float32, device),  # out (Tensor, keyword-only)");
    CHECK_HAS(s, "strides not recorded: contiguous");

    /* add: Tensor or Scalar overload from the second argument; alpha keyword-only */
    s = script("aten::add", "{\"Input Dims\":[[4],[4],[]],\"Input type\":[\"float\",\"float\",\"Scalar\"],"
                            "\"Concrete Inputs\":[\"\",\"\",\"2\"]}");
    CHECK_HAS(s, "return torch.ops.aten.add.Tensor\n");
    CHECK_HAS(s, "        'alpha': 2,  # alpha (Scalar, keyword-only)\n");
    s = script("aten::add", "{\"Input Dims\":[[4],[],[]],\"Input type\":[\"float\",\"Scalar\",\"Scalar\"],"
                            "\"Concrete Inputs\":[\"\",\"0.5\",\"1\"]}");
    CHECK_HAS(s, "return torch.ops.aten.add.Scalar\n");
    CHECK_HAS(s, "        0.5,  # other (Scalar)\n");
    CHECK_HAS(s, "        1,  # alpha (Scalar)\n");

    /* dtype / layout / device of a factory op */
    s = script("aten::empty", "{\"Input Dims\":[[],[],[],[],[],[]],\"Input type\":[\"ScalarList\",\"Scalar\","
                              "\"Scalar\",\"\",\"\",\"Scalar\"],\"Concrete Inputs\":[\"[16, 16]\",\"15\",\"0\","
                              "\"\",\"\",\"2\"]}");
    CHECK_HAS(s, "return torch.ops.aten.empty.memory_format\n");
    CHECK_HAS(s, "        [16, 16],  # size (SymInt[])\n");
    CHECK_HAS(s, "'dtype': torch.bfloat16,  # dtype (ScalarType?, keyword-only): recorded as 15\n");
    CHECK_HAS(s, "'layout': torch.strided,");
    CHECK_HAS(s, "'device': device,");
    CHECK_HAS(s, "'memory_format': torch.channels_last,");
    CHECK(strstr(s ? s : "", "'pin_memory'") == NULL);

    /* tensor list: element dtype from the other tensors, else float32 */
    s = script("aten::cat", "{\"Input Dims\":[[[1,2],[3,2]],[]],\"Input type\":[\"TensorList\",\"Scalar\"],"
                            "\"Input Strides\":[[[2,1],[2,1]],[]],\"Concrete Inputs\":[\"\",\"-1\"]}");
    CHECK_HAS(s, "[make_tensor((1, 2), (2, 1), torch.float32, device), make_tensor((3, 2), (2, 1), "
                 "torch.float32, device)],  # tensors (Tensor[]): tensor list of 2");
    CHECK_HAS(s, "        -1,  # dim (int)\n");

    /* no schema: overload packet, positional arguments */
    s = script("mylib::thing", "{\"Input Dims\":[[2],[]],\"Input type\":[\"c10::Half\",\"Scalar\"],"
                               "\"Concrete Inputs\":[\"\",\"3\"]}");
    CHECK_HAS(s, "    return torch.ops.mylib.thing\n");
    CHECK_HAS(s, "not an aten op");
    CHECK_HAS(s, "        3,  # argument 1 (Scalar)\n");
}

static void literals(void)
{
    const char *s = script("x::y", "{\"Input Dims\":[[],[],[],[],[],[],[],[],[]],"
                                   "\"Input type\":[\"Scalar\",\"Scalar\",\"Scalar\",\"ScalarList\",\"Scalar\","
                                   "\"Scalar\",\"Scalar\",\"Scalar\",\"\"],"
                                   "\"Concrete Inputs\":[\"007\",\"-0010\",\"1e-05\",\"[1, (2, 3.5), ]\","
                                   "\"true\",\"-inf\",\"it's \\\\ \\\"x\\\"\",\"\",\"\"]}");
    CHECK_HAS(s, "        7,  # argument 0");
    CHECK_HAS(s, "        -10,  # argument 1");
    CHECK_HAS(s, "        1e-05,  # argument 2");
    CHECK_HAS(s, "        [1, [2, 3.5]],  # argument 3");
    CHECK_HAS(s, "        True,  # argument 4");
    CHECK_HAS(s, "        float('-inf'),  # argument 5");
    CHECK_HAS(s, "        'it\\'s \\\\ \"x\"',  # argument 6 (Scalar): not a Python literal: passed as a string\n");
    CHECK_HAS(s, "        0,  # argument 7 (Scalar): value not recorded: 0 is a placeholder\n");
    CHECK_HAS(s, "        None,  # argument 8 (None)\n");
    /* an unknown dtype and a control character in a string */
    s = script("x::y", "{\"Input Dims\":[[2,2],[]],\"Input type\":[\"c10::Weird\\n# x\",\"Scalar\"],"
                       "\"Concrete Inputs\":[\"\",\"a\\nb\"]}");
    CHECK_HAS(s, "make_tensor((2, 2), None, torch.float32, device),  # argument 0 (c10::Weird?# x): dtype "
                 "c10::Weird?# x is not known to tracesql: float32 is a placeholder");
    CHECK_HAS(s, "        'a\\x0ab',  # argument 1");
}

static void refusals(void)
{
    CHECK(script("ProfilerStep#1", "{\"Input Dims\":[]}") == NULL);
    CHECK_HAS(err, "not an operator name");
    CHECK(script("a::b::c", "{\"Input Dims\":[]}") == NULL);
    CHECK(script("aten::", "{\"Input Dims\":[]}") == NULL);
    CHECK(script("aten::fo'o", "{\"Input Dims\":[]}") == NULL);
    CHECK(script("aten::relu", NULL) == NULL);
    CHECK_HAS(err, "no recorded inputs");
    CHECK(script("aten::relu", "{\"Sequence number\": 3}") == NULL);
    CHECK(script("aten::relu", "{\"Input Dims\": [[") == NULL);
    CHECK_HAS(err, "not valid JSON");
    CHECK(script(NULL, NULL) == NULL);
    /* no context: a script all the same */
    int rc = tsql_replay_script("aten::relu", "{\"Input Dims\":[[3]],\"Input type\":[\"float\"]}", NULL, &out,
                                err, sizeof err);
    CHECK_EQ(rc, 0);
    CHECK_HAS(out.p, "TRACE_KERNEL_US = None\n");
    CHECK(strstr(out.p, "TRACE_UID") == NULL);
}

static void big_list(void)
{
    /* a tensor list of 2000 tensors */
    tsql_buf a = {0};
    tsql_buf_reserve(&a, 64 * 2000 + 200);
    a.n = (size_t)sprintf(a.p, "{\"Input Dims\":[[");
    for (int i = 0; i < 2000; i++) a.n += (size_t)sprintf(a.p + a.n, "%s[%d,8]", i ? "," : "", i + 1);
    a.n += (size_t)sprintf(a.p + a.n, "],[]],\"Input type\":[\"TensorList\",\"Scalar\"],\"Concrete Inputs\":[\"\",\"0\"]}");
    const char *s = script("aten::cat", a.p);
    CHECK_HAS(s, "make_tensor((2000, 8), None, torch.float32, device)]");
    CHECK_HAS(s, "tensor list of 2000");
    free(a.p);
}

int main(void)
{
    dtypes();
    overloads();
    literals();
    refusals();
    big_list();
    free(out.p);
    return check_report("test_replay");
}
