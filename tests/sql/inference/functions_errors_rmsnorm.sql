-- argument errors of rmsnorm
SELECT flops_rmsnorm(131072, 0);
