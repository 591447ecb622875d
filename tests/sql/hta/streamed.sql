-- The hta_* functions stream their view one row per step (ext/vtab/view_runner.c), with
-- the call's arguments current only around its own steps: calls with other arguments
-- that run between two rows of a call (a correlated subquery, a join of two calls)
-- must not see its arguments, nor it theirs. Each count is checked against the same
-- call run alone.
SELECT trace_open('tests/data/hta/edges.json', 'edges') IS NOT NULL AS opened;
SELECT count(*) AS filtered FROM hta_preprocessed_events(NULL, 1, 1);
SELECT count(*) AS unfiltered FROM hta_preprocessed_events(NULL, 1, 0);
-- per row of the unfiltered call, a filtered call runs to its end
SELECT count(*) AS rows, min(n) AS min_filtered, max(n) AS max_filtered
FROM (SELECT (SELECT count(*) FROM hta_preprocessed_events(NULL, 1, 1)) AS n
      FROM hta_preprocessed_events(NULL, 1, 0));
-- two calls stepped in turn: each keeps its own rows
SELECT count(*) AS pairs FROM hta_preprocessed_events(NULL, 1, 0) AS a
JOIN hta_preprocessed_events(NULL, 1, 1) AS b ON a."index" = b."index";
-- a LIMIT ends a call early: the next call starts clean
SELECT "index" FROM hta_preprocessed_events(NULL, 1, 0) LIMIT 2;
SELECT count(*) AS again FROM hta_preprocessed_events(NULL, 1, 0);
-- an argument error is the call's own, at its first step
SELECT count(*) FROM hta_idle_time_breakdown('edges', -1);
