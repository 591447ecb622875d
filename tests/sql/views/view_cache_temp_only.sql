-- view_cache is created only in the temp schema (a database file's schema cannot hold one)
CREATE TEMP VIEW v AS SELECT 1 AS a;
CREATE VIRTUAL TABLE main.bad USING view_cache(v, a);
