-- the view's name alone is not enough: its columns follow
CREATE TEMP VIEW v AS SELECT 1 AS a;
CREATE VIRTUAL TABLE temp.c USING view_cache(v);
