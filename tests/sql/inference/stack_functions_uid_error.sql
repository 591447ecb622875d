-- inference_call_stack with a uid outside the trace: an error that says the uid range.
SELECT trace_open('tests/data/inference/report_stacks.json', 'st') IS NOT NULL AS opened;
SELECT inference_call_stack('st', 10000);
