-- view_cache (ext/views/view_cache.c): a TEMP table keeping a view's rows, computed again
-- only after a change; rows in the view's order, values with their types; equality
-- lookups (served by its index) give what a plain join gives.
CREATE TEMP TABLE src(k, v);
INSERT INTO src VALUES (1, 'one'), (2, 'two'), (2, 2.5), ('3', x'00ff'), (NULL, NULL), (10, ' 4 ');
CREATE TEMP VIEW src_v AS SELECT k, v, typeof(v) AS t FROM src ORDER BY rowid DESC;
CREATE VIRTUAL TABLE temp.src_c USING view_cache(src_v, k, v, t);
SELECT 'rows', k, quote(v), t FROM src_c;
-- a change of the connection's data is seen at the next read
INSERT INTO src VALUES (2, 'three');
SELECT 'after insert', count(*) FROM src_c;
UPDATE src SET v = 'uno' WHERE k = 1;
SELECT 'after update', v FROM src_c WHERE k = 1;
-- equality lookups: integers, text that reads as a number, text, blobs, NULL
SELECT 'k=2', group_concat(quote(v), ' ') FROM src_c WHERE k = 2;
SELECT 'k=2.0', count(*) FROM src_c WHERE k = 2.0;
SELECT 'k=''3''', count(*) FROM src_c WHERE k = '3';
SELECT 'k=3', count(*) FROM src_c WHERE k = 3;
SELECT 'v=blob', k FROM src_c WHERE v = x'00ff';
SELECT 'k=NULL', count(*) FROM src_c WHERE k = NULL;
SELECT 'v=2.5 (a REAL column is scanned)', k FROM src_c WHERE v = 2.5;
-- a join through the index has the rows of the join on the view
SELECT 'join', (SELECT group_concat(x, ',') FROM (SELECT a.k || ':' || b.v AS x FROM src a JOIN src_c b ON b.k = a.k ORDER BY 1)),
               (SELECT group_concat(x, ',') FROM (SELECT a.k || ':' || b.v AS x FROM src a JOIN src_v b ON b.k = a.k ORDER BY 1));
-- opening a trace is a change too: nccl_rows follows the open traces
SELECT 'ranks before', count(*) FROM nccl_rows;
SELECT trace_open('tests/sql/collectives/coll.json') IS NOT NULL;
SELECT 'ranks after open', count(*) > 0 FROM nccl_rows;
SELECT trace_close(1);
SELECT 'ranks after close', count(*) FROM nccl_rows;
-- the declared columns must be the view's: checked at the first read
CREATE VIRTUAL TABLE temp.src_wrong USING view_cache(src_v, k, value, t);
SELECT 'wrong columns', count(*) FROM src_wrong;
