-- module: compare.compare_event_groups_filtered_v
-- requires: compare.compare_phase_guard_v

CREATE TEMP VIEW IF NOT EXISTS compare_event_groups_filtered_v AS
SELECT c.* FROM compare_event_groups c, compare_phase_guard_v guard
WHERE guard.g IS NULL AND c.side IN ('baseline', 'variant')
  AND (compare_arg('phase') IS NULL OR c.phase = compare_arg('phase'));
