-- busy_time, pd_sum and np_sum: the shared core primitives (core/util/interval.c,
-- core/util/sum.c) as SQL aggregates, with values worked out by hand.

-- union of overlapping, nested, touching and zero-length intervals:
-- [0,2] (touching [0,1] [1,2]), [3,4] (holds [3.5,3.5]), [5,6], [8,10] (holds [8.5,9]) = 6
WITH v(ts, dur) AS (VALUES (5, 1), (0, 1), (1, 1), (3, 1), (3.5, 0), (8, 2), (8.5, 0.5),
                           (NULL, 4), (7, NULL))
SELECT busy_time(ts, dur) AS busy FROM v;
SELECT busy_time(ts, dur) AS busy_of_nothing FROM (SELECT 1 AS ts, 1 AS dur) WHERE 0;
-- ts + dur in double arithmetic, lengths summed left to right:
-- (0.1 + 0.2 - 0.1) + (0.7 + 0.1 - 0.7)
WITH v(ts, dur) AS (VALUES (0.7, 0.1), (0.1, 0.2))
SELECT busy_time(ts, dur) = (0.1 + 0.2 - 0.1) + (0.7 + 0.1 - 0.7) AS python_bits,
       busy_time(ts, dur) = 0.3 AS exact_decimal FROM v;

-- pandas' compensated sum keeps what a plain left-to-right sum loses: 1 + ten times
-- 1e-16 (the excess over 1 shown)
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10),
     v(x) AS (SELECT 1.0 UNION ALL SELECT 1e-16 FROM n),
     plain(i, s) AS (SELECT 0, 1.0 UNION ALL SELECT i + 1, s + 1e-16 FROM plain WHERE i < 10)
SELECT (SELECT pd_sum(x) FROM v) - 1.0 AS pd_excess,
       (SELECT s FROM plain WHERE i = 10) - 1.0 AS plain_excess;
-- the order argument decides the order of addition (Kahan, not Neumaier: 0 in order)
WITH v(x, o) AS (VALUES (1e100, 2), (1.0, 1), (-1e100, 4), (1.0, 3))
SELECT pd_sum(x, o) AS in_order, pd_sum(x, -o) AS reversed FROM v;
-- numpy's pairwise sum of 1e16 then eight 1s: ((1e16 + 1) + (1 + 1)) + ((1 + 1) + (1 + 1))
-- = 1e16 + 6, then + 1 rounds to 1e16 + 8 (the excess over 1e16 shown); a plain sum
-- would stay at 1e16
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 8),
     v(x, o) AS (SELECT 1e16, 0 UNION ALL SELECT 1.0, i FROM n)
SELECT np_sum(x, o) - 1e16 AS np_excess, np_sum(x, -o) - 1e16 AS np_excess_reversed FROM v;
-- integers stay exact integers; NULLs are skipped; nothing sums to 0.0
WITH v(x) AS (VALUES (9007199254740993), (NULL), (1))
SELECT pd_sum(x) AS pd_int, np_sum(x) AS np_int FROM v;
SELECT pd_sum(x) AS pd_none, np_sum(x) AS np_none FROM (SELECT 1 AS x) WHERE 0;
