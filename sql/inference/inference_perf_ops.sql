-- module: inference.inference_perf_ops

-- inference_perf_ops: the perf_ops rows of TraceLens's inference report, under its sheet
-- names (docs/inference.md, Perf-model sheets): forward rows only (no F_bwd sheet);
-- Normalization is Normalization_fwd; of the forward rows the training report moves
-- to F_bwd, ConvBias_Backward and ConvBiasReLU_Backward stay in F_fwd and the others
-- are dropped.
CREATE TEMP VIEW IF NOT EXISTS inference_perf_ops AS
SELECT p.*,
       CASE WHEN p.sheet = 'Normalization' THEN 'Normalization_fwd'
            WHEN p.appended THEN substr(p.sheet, 1, length(p.sheet) - 4) || '_fwd'
            ELSE p.sheet END AS inference_sheet
FROM perf_ops p
WHERE p.direction = 'fwd'
  AND (NOT p.appended OR p.name IN ('ConvBias_Backward', 'ConvBiasReLU_Backward'));
