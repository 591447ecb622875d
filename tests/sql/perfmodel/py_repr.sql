-- Python repr text of JSON values and doubles (the way TraceLens's CSV cells print).
SELECT py_repr('[[8944, 1024], [1024, 2816]]', 1) AS as_tuple, py_repr('[[8944, 1024], [1024, 2816]]') AS as_list,
       py_repr('[768]', 1) AS one, py_repr('[]', 1) AS empty;
SELECT py_repr('["c10::BFloat16", "", null, true]', 1) AS mixed, py_repr('"it''s"') AS dq, py_repr('{"a": 1.50}') AS d;
SELECT py_float(0.125) AS a, py_float(1e-05) AS b, py_float(51.581550592) AS c, py_float(100) AS d,
       py_float(1e16) AS e, py_float(0.1 + 0.2) AS f, py_float('2.5') AS g, py_float(NULL) AS h;
SELECT py_to_json('((1, 2), None, ''a'', 0.5, True, nan)') AS j;
