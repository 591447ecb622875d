-- argument errors of the inference formula functions
SELECT flops_moe('up', 32, 3072, 3072, 0, 4);
