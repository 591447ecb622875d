-- module: report._compare_report_stacks
-- requires: report._compare_report_stacks_rows

-- _compare_report_stacks: _compare_report_stacks_rows kept (ext/views/view_cache.c): the JSON
-- and the Markdown of one comparison run it once. The arguments: the view, then its columns.
CREATE VIRTUAL TABLE IF NOT EXISTS temp._compare_report_stacks USING view_cache(_compare_report_stacks_rows,
    operation, stack);
