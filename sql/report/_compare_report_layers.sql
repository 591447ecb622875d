-- module: report._compare_report_layers
-- requires: report._compare_report_layers_rows

-- _compare_report_layers: _compare_report_layers_rows kept (ext/views/view_cache.c): the JSON
-- and the Markdown of one comparison run it once. The arguments: the view, then its columns.
CREATE VIRTUAL TABLE IF NOT EXISTS temp._compare_report_layers USING view_cache(_compare_report_layers_rows,
    layer, baseline_kernels, variant_kernels, baseline_total_ms, variant_total_ms, ratio,
    gap_ms, status, in_both);
