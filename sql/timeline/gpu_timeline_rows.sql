-- module: timeline.gpu_timeline_rows
-- requires: config.report_params

-- gpu_timeline_rows: gpu_timeline_raw under the report options (include_unlinked_kernels,
-- micro_idle_thresh_us): the one place they are read, for gpu_timeline, the kernel
-- views' total time and report_gpu_timeline.
CREATE TEMP VIEW IF NOT EXISTS gpu_timeline_rows AS
SELECT r.trace_id, r.seq, r.type, r.time_us, r.events
FROM (SELECT (SELECT coalesce(CAST(value AS INTEGER), 0) = 0 FROM report_params
              WHERE name = 'include_unlinked_kernels') AS linked,
             (SELECT value FROM report_params WHERE name = 'micro_idle_thresh_us') AS micro) o
JOIN gpu_timeline_raw r ON r.linked_only = o.linked AND r.micro_idle_thresh_us = o.micro;
