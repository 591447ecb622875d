-- trace_export never overwrites what a user owns (issue 24 item 1, issue 26): not the
-- source of an open trace (by path, another spelling, its label, a link to it), not a
-- file that is not an SQLite database, not through a symbolic link, even with 'replace';
-- its temporary file has a random name beside the target, and stale ones are removed.
.bail off
.shell rm -rf build/tmp/export_refuse && mkdir -p build/tmp/export_refuse
.shell cp tests/data/tree_rules.json build/tmp/export_refuse/t.json
.shell cd build/tmp/export_refuse && ln -s t.json link.json && printf 'my notes\n' > notes.txt && ln -s notes.txt link.db
.shell cd build/tmp/export_refuse && : > .x.db.tsql-tmp-0123456789abcdef && touch -d '2 hours ago' .x.db.tsql-tmp-0123456789abcdef
.shell cd build/tmp/export_refuse && : > .y.db.tsql-tmp-fedcba9876543210
.shell cd build/tmp/export_refuse && : > x.db.tsql-tmp-999999999
SELECT trace_open('build/tmp/export_refuse/t.json', 'mine') AS id;
SELECT trace_export('mine', 'build/tmp/export_refuse/t.json', 'replace');
SELECT trace_export(1, 'build/tmp/export_refuse/./t.json', 'replace');
SELECT trace_export('build/tmp/export_refuse/t.json', 'build/tmp/export_refuse/t.json', 'replace');
SELECT trace_export(1, 'build/tmp/export_refuse/link.json', 'replace');
SELECT trace_export(1, 'build/tmp/export_refuse/notes.txt', 'replace');
SELECT trace_export(1, 'build/tmp/export_refuse/link.db', 'replace');
-- the trace and the files are as they were
SELECT count(*) AS events FROM events('mine');
.shell cmp -s build/tmp/export_refuse/t.json tests/data/tree_rules.json && echo trace untouched
.shell cat build/tmp/export_refuse/notes.txt
-- a database may be replaced; the stale temp file (2 hours old) and an earlier version's
-- temp file of x.db whose process is gone are removed, the fresh one stays
SELECT trace_export(1, 'build/tmp/export_refuse/x.db') > 0 AS written;
SELECT trace_export(1, 'build/tmp/export_refuse/x.db', 'replace') > 0 AS replaced;
.shell ls -A build/tmp/export_refuse
