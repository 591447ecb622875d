#!/usr/bin/env bash
# csv_write, the report commands' one CSV writer (docs/report-commands.md): the cell text
# and quoting of each dialect byte for byte, the empty-result rules, the columns left
# out, and its safety: it writes only OUTDIR/NAME, follows no symbolic link, replaces
# nothing that is not a regular file, keeps the earlier file when the query fails, and
# no view of a database (a schema someone else may have written) can call it.
set -u
cd "$(dirname "$0")/../.."
ext=${TSQL_EXT:-build/tracesql}
sqlite=${SQLITE3:-sqlite3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsql-csv.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
bad() { fail=$((fail + 1)); echo "FAIL csv_write: $*"; }
sql() { "$sqlite" -batch :memory: -cmd ".load $ext" "$@" 2>&1; }
same() { # NAME FILE EXPECTED-printf-format
  n=$((n + 1))
  printf "$3" > "$tmp/want"
  cmp -s "$2" "$tmp/want" || bad "$1: got $(od -c "$2" 2>&1 | head -n 3)"
}
d=$tmp/out
mkdir "$d"
q="SELECT 7 AS trace_id, 'a,b' AS \"x,y\", 0.1 + 0.2 AS f, NULL AS n, 'q\"' AS q, 'é c' AS s, '' AS e, 1e20 AS big"
sql "SELECT csv_write('$d', 'py.csv', '${q//\'/\'\'}', '{\"omit\": [\"trace_id\"], \"drop_null\": [\"n\"]}')" > /dev/null
same "python dialect" "$d/py.csv" '"x,y",f,q,s,e,big\n"a,b",0.30000000000000004,"q""",é c,,1e+20\n'
sql "SELECT csv_write('$d', 'sh.csv', '${q//\'/\'\'}', '{\"dialect\": \"sqlite\"}')" > /dev/null
same "sqlite dialect" "$d/sh.csv" 'trace_id,"x,y",f,n,q,s,e,big\r\n7,"a,b",0.3,,"q""","é c","",1.0e+20\r\n'
# the sqlite dialect is what the shell's .mode csv writes
"$sqlite" -batch :memory: -cmd '.headers on' -cmd '.mode csv' "$q" > "$tmp/shell.csv"
n=$((n + 1)); cmp -s "$tmp/shell.csv" "$d/sh.csv" || bad "sqlite dialect differs from the shell's .mode csv"
for e in header blank empty; do
  sql "SELECT csv_write('$d', '$e.csv', 'SELECT 1 AS x WHERE 0', '{\"if_empty\": \"$e\"}')" > /dev/null
done
same "if_empty header" "$d/header.csv" 'x\n'
same "if_empty blank" "$d/blank.csv" '\n'
same "if_empty empty" "$d/empty.csv" ''
sql "SELECT csv_write('$d', 'lines.csv', 'SELECT 1 AS x WHERE 0', '{\"if_empty\": [\"a,a\", \"sum,count\"]}')" > /dev/null
same "if_empty lines" "$d/lines.csv" 'a,a\nsum,count\n'
sql "SELECT csv_write('$d', 'lines0.csv', 'SELECT 1 AS x WHERE 0', '{\"if_empty\": []}')" > /dev/null
same "if_empty no lines" "$d/lines0.csv" ''
got=$(sql "SELECT csv_write('$d', 'bad.csv', 'SELECT 1 AS x WHERE 0', '{\"if_empty\": [1]}')")
n=$((n + 1)); case $got in *"wants lines of text"*) ;; *) bad "if_empty [1]: $got" ;; esac
sql "SELECT csv_write('$d', 'rows.csv', 'SELECT 1 AS x', '{\"if_empty\": [\"a\"]}')" > /dev/null
same "if_empty lines with rows" "$d/rows.csv" 'x\n1\n'
printf 'old\n' > "$d/gone.csv"
got=$(sql "SELECT csv_write('$d', 'gone.csv', 'SELECT 1 AS x WHERE 0') IS NULL")
n=$((n + 1)); [ "$got" = 1 ] && [ ! -e "$d/gone.csv" ] || bad "if_empty omit: returns NULL and removes the earlier file"
sql "SELECT csv_write('$d', 'doc.txt', 'SELECT ''{\"a\": 1}''', '{\"dialect\": \"text\"}')" > /dev/null
same "text dialect" "$d/doc.txt" '{"a": 1}'
# safety
printf 'keep\n' > "$tmp/victim"
ln -s "$tmp/victim" "$d/link.csv"
expect_err() { # NAME WANT SQL
  n=$((n + 1))
  got=$(sql "$3")
  case $got in *"$2"*) ;; *) bad "$1: expected '$2', got '$got'" ;; esac
}
expect_err "symlink" "link.csv exists and is not a regular file (a symbolic link): not replaced" \
  "SELECT csv_write('$d', 'link.csv', 'SELECT 1')"
n=$((n + 1)); [ "$(cat "$tmp/victim")" = keep ] && [ -L "$d/link.csv" ] || bad "the link or its target was touched"
ln -s "$d" "$tmp/dirlink"
expect_err "symlinked outdir" "not a directory, or a symbolic link" "SELECT csv_write('$tmp/dirlink', 'a.csv', 'SELECT 1')"
mkdir "$d/sub.csv"
expect_err "directory" "not a regular file (a directory)" "SELECT csv_write('$d', 'sub.csv', 'SELECT 1')"
expect_err "path in name" "is not a plain file name" "SELECT csv_write('$d', '../escape.csv', 'SELECT 1')"
n=$((n + 1)); [ ! -e "$tmp/escape.csv" ] || bad "wrote outside outdir"
expect_err "write statement" "one read-only statement" "SELECT csv_write('$d', 'w.csv', 'CREATE TABLE t(x)')"
expect_err "two statements" "one read-only statement" "SELECT csv_write('$d', 'w.csv', 'SELECT 1; SELECT 2')"
expect_err "bad option" 'unknown option "bogus"' "SELECT csv_write('$d', 'w.csv', 'SELECT 1', '{\"bogus\": 1}')"
expect_err "NULL outdir" "argument 1, outdir (a folder), must be text; got NULL" "SELECT csv_write(NULL, 'w.csv', 'SELECT 1')"
expect_err "from a view" "unsafe use of csv_write()" \
  "CREATE VIEW v AS SELECT csv_write('$d', 'v.csv', 'SELECT 1'); SELECT * FROM v"
# a failing query leaves the earlier file as it was, and no temporary file
cp "$d/py.csv" "$tmp/before"
expect_err "failing query" "py.csv: no such table: nope" "SELECT csv_write('$d', 'py.csv', 'SELECT * FROM nope')"
n=$((n + 1)); cmp -s "$tmp/before" "$d/py.csv" || bad "a failed query changed the earlier file"
n=$((n + 1)); [ -z "$(find "$d" -name '.*.tmp*')" ] || bad "a temporary file was left"
[ "$fail" = 0 ] && echo "csv_write: $n checks passed (python, sqlite (= the shell's .mode csv), text dialects; empty rules; no symlink followed, nothing but OUTDIR/NAME written, earlier file kept on error, direct-only)"
[ "$fail" = 0 ]
