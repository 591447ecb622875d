-- Reading cells as pandas' read_csv does: kinds, column dtypes, values (its float parser
.bail off
-- keeps 17 digits and is not correctly rounded), and errors.
SELECT column1 AS v, pd_cell_kind(column1) AS kind FROM (VALUES ('12'), ('-3'), ('1.5'), ('1e3'), (''), ('NaN'),
    ('None'), ('N/A'), ('True'), ('false'), ('tRue'), ('(1, 2)'), ('99999999999999999999'), (NULL));
SELECT pd_column_dtype(column1) FROM (VALUES ('1'), ('2'));
SELECT pd_column_dtype(column1) FROM (VALUES ('1'), (''));
SELECT pd_column_dtype(column1) FROM (VALUES ('1'), ('2.5'));
SELECT pd_column_dtype(column1) FROM (VALUES ('True'), ('False'));
SELECT pd_column_dtype(column1) FROM (VALUES ('True'), (''));
SELECT pd_column_dtype(column1) FROM (VALUES ('1'), ('x'));
SELECT pd_column_dtype(column1) FROM (VALUES (''), ('nan'));
SELECT pd_column_dtype(column1) FROM (VALUES ('1')) WHERE 0;
SELECT py_float(pd_cell('31.905483154296874', 'float64')) AS a,
       py_float(pd_cell('91.43279886779221', 'float64')) AS b,
       py_float(pd_cell('0.006786344981086816', 'float64')) AS c,
       pd_cell('7', 'int64') AS d, typeof(pd_cell('7', 'float64')) AS e,
       pd_cell('true', 'bool') AS f, pd_cell('(1, 2)', 'object') AS g, pd_cell('NaN', 'object') IS NULL AS h;
SELECT pd_cell('x', 'int64');
SELECT pd_cell('1.5', 'int64');
SELECT pd_cell('1e999', 'float64');
SELECT pd_cell('1', 'int32');
