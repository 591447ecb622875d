-- module: compare.compare_filtered_v
-- requires: compare.compare_phase_guard_v

CREATE TEMP VIEW IF NOT EXISTS compare_filtered_v AS
SELECT e.* FROM compare_events e, compare_phase_guard_v guard
WHERE guard.g IS NULL AND e.side IN ('baseline', 'variant')
  AND (compare_arg('phase') IS NULL OR e.phase = compare_arg('phase'));
