-- module: report._compare_report_metadata
-- requires: report._compare_report_metadata_rows

-- _compare_report_metadata: _compare_report_metadata_rows kept (ext/views/view_cache.c): the JSON
-- and the Markdown of one comparison run it once. The arguments: the view, then its columns.
CREATE VIRTUAL TABLE IF NOT EXISTS temp._compare_report_metadata USING view_cache(_compare_report_metadata_rows,
    side, trace_id, label, gpu, platform, phase_filter, gpu_events, total_ms, layers,
    forward_passes, prefill_ms, decode_ms, mixed_ms, no_phase_ms, phases_from);
