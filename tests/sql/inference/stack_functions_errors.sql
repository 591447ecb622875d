-- The inference report's functions on bad arguments: a clear error or a NULL, never a
-- crash. The runner stops at the first error: it is the last statement (the uid errors:
-- stack_functions_uid_error.sql).
.mode list
.nullvalue NULL
SELECT trace_open('tests/data/inference/report_stacks.json', 'st') IS NOT NULL AS opened;
-- NULL arguments give NULL
SELECT inference_call_stack(NULL, 1) IS NULL, inference_module_stack('st', NULL) IS NULL,
       inference_kernel_stack('st', 31, NULL) IS NULL, strip_instance_ids(NULL) IS NULL,
       call_stack_full(NULL) IS NULL, entry_point(NULL, '[]');
-- an empty summary has no stack; a malformed entry is 'Not found'; a stack that is not
-- a list, or does not name the op, has no entry point
SELECT call_stack_full('[]') IS NULL, call_stack_full('[{"call_stack":["a"]}]'),
       call_stack_full('[{"name":"k","call_stack":[1]}]');
SELECT entry_point('aten::mm', 'Not found'), entry_point('aten::mm', '["x.py(1): f","aten::add"]'),
       entry_point('aten::mm_3', '["x.py(1): f","aten::mm","k"]');
SELECT strip_instance_ids('a_1_b_22c_'), strip_instance_ids('_'), strip_instance_ids('x_');
SELECT call_stack_full('{"name":"k"}');
