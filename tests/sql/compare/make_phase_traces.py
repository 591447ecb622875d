#!/usr/bin/env python3
"""Writes the hand-made traces of tests/sql/compare/phases.sql (run from the project root):
  sglang_like.json  NVIDIA names, SGLang step[EXTEND ...] / step[DECODE ...] annotations;
  vllm_like.json    AMD names, vLLM execute_..._context_..._generation_... annotations, the
                    post-attention norm fused into the next GEMM, a third (mixed) step.
No Python stacks, so layers come from kernel patterns. Each step (ProfilerStep#N) is one
forward pass of 2 layers plus a final norm and the LM head. Durations (µs) are small
integers so the expected totals can be added by hand (see phases.sql)."""
import json

# (name, µs in a prefill step, µs in a decode step); ATTN = the phase's attention kernel
SGLANG_LAYER = [("void flashinfer::norm::FusedAddRMSNormKernel<8u, __nv_bfloat16>", 4, 2),
                ("nvjet_tst_128x64_64x4_1x2_h_bz_NNT", 10, 5),
                ("ATTN", 30, 8),
                ("nvjet_tst_64x64_64x4_1x2_h_bz_NNT", 6, 3),
                ("void flashinfer::norm::FusedAddRMSNormKernel<8u, __nv_bfloat16>", 4, 2),
                ("nvjet_tst_256x128_64x4_2x1_v_bz_TNN", 20, 10)]
SGLANG_ATTN = {"prefill": "void flashinfer::BatchPrefillWithRaggedKVCacheKernel<128u>",
               "decode": "void flashinfer::BatchDecodeWithPagedKVCacheKernel<128u>"}
VLLM_LAYER = [("void vllm::rms_norm_kernel<c10::BFloat16, 8, 4>", 5, 3),
              ("Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x64x64", 12, 6),
              ("ATTN", 40, 10),
              ("Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT64x64x64", 7, 4),
              ("fused_rmsnorm_gemm_bf16_kernel", 25, 12)]
VLLM_ATTN = {"prefill": "kernel_unified_attention_2d", "decode": "kernel_unified_attention_2d",
             "mixed": "kernel_unified_attention_2d"}


def write(path, gpu, steps, layer, attn, final_norm, head):
    ev, state = [], {"corr": 1000, "t": 0.0}

    def launch(name, dur):
        state["corr"] += 1
        c, t = state["corr"], state["t"]
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
                   "tid": 1, "ts": t, "dur": 2, "args": {"correlation": c}})
        ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7,
                   "ts": 100000 + t, "dur": dur,
                   "args": {"correlation": c, "device": 0, "stream": 7}})
        state["t"] += 100

    for s, (annotation, phase) in enumerate(steps):
        start = state["t"]
        state["t"] += 1
        col = 1 if phase == "prefill" else 2
        for _ in range(2):
            for k in layer:
                dur = k[col] if phase != "mixed" else k[1] + k[2]
                launch(attn[phase] if k[0] == "ATTN" else k[0], dur)
        launch(final_norm, 3)
        launch(head, 50)
        end = state["t"]
        ev.append({"ph": "X", "cat": "user_annotation", "name": annotation, "pid": 1, "tid": 1,
                   "ts": start, "dur": end - start})
        ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % (s + 1),
                   "pid": 1, "tid": 1, "ts": start - 0.5, "dur": end - start + 1})
        state["t"] += 1000
    with open(path, "w") as f:
        json.dump({"deviceProperties": [{"id": 0, "name": gpu}], "traceEvents": ev}, f, indent=0)
        f.write("\n")


write("tests/sql/compare/sglang_like.json", "NVIDIA H100 80GB HBM3",
      [("step[EXTEND bs=1 tokens=16]", "prefill"), ("step[DECODE bs=1]", "decode")],
      SGLANG_LAYER, SGLANG_ATTN, SGLANG_LAYER[0][0], "nvjet_tst_lm_head_256x128_NNT")
write("tests/sql/compare/vllm_like.json", "AMD Instinct MI300X",
      [("execute_1_context_1(16)_generation_0(0)", "prefill"),
       ("execute_1_context_0(0)_generation_1(1)", "decode"),
       ("execute_2_context_1(16)_generation_1(1)", "mixed")],
      VLLM_LAYER, VLLM_ATTN, VLLM_LAYER[0][0], "Cijk_Ailk_Bljk_lm_head_MT256x128x64")
