-- module: hta.hta_job
-- requires: hta.hta_info

-- hta_job: one row: the time origin (HTA aligns every rank to the job's first row)
-- and whether the last-step filter applies (asked for, and more than one distinct
-- ProfilerStep#N name over all ranks).
CREATE TEMP VIEW IF NOT EXISTS hta_job AS
SELECT min(min_ts) AS min_ts,
       coalesce(hta_arg('last_step_filter') <> 0
                AND (SELECT count(DISTINCT j.value) FROM hta_info, json_each(hta_info.step_names) j) > 1, 0)
           AS filtered
FROM hta_info;
