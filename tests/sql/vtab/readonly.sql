-- Only gpu_specs is writable: a write to a per-trace table is refused when it is
-- prepared, even with no trace open (nothing to scan).
SELECT count(*) AS open FROM traces;
DELETE FROM events;
