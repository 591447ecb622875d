-- a view that reads its own kept table is an error, not a loop
CREATE TEMP VIEW loop_v AS SELECT 1 AS a UNION ALL SELECT a FROM loop_c;
CREATE VIRTUAL TABLE temp.loop_c USING view_cache(loop_v, a);
SELECT * FROM loop_c;
