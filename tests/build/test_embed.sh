#!/usr/bin/env bash
# test_embed.sh — sql/embed.awk keeps every byte of a .sql file: trigraph-like "??(",
# backslashes, quotes, tabs, CR and UTF-8 come back unchanged from the compiled C string.
set -eu
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tsql-embed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
printf -- "-- ??( ??) ??= ??/ ??' ??< ??> ??! ??- \\\\ \\\\n \"q\" \t é\r\nselect '?';\nno newline at end" > "$tmp/a.sql"
printf 'select 2;\n' > "$tmp/b.sql"
LC_ALL=C awk -f sql/embed.awk "$tmp/a.sql" "$tmp/b.sql" > "$tmp/gen.c"
cat > "$tmp/main.c" <<'C'
#include <stdio.h>
extern const struct tsql_sql_file { const char *name; const char *text; } tsql_sql_files[];
int main(int argc, char **argv) { (void)argc; fputs(tsql_sql_files[atoi_(argv[1])].text, stdout); return 0; }
C
sed -i 's/atoi_(argv\[1\])/argv[1][0] - 0x30/' "$tmp/main.c"
${CC:-cc} -std=c11 -Wall -Wextra -Werror -Wtrigraphs "$tmp/main.c" "$tmp/gen.c" -o "$tmp/t"
pass=0; fail=0
"$tmp/t" 0 > "$tmp/a.out"; { cat "$tmp/a.sql"; echo; } | cmp -s - "$tmp/a.out" && pass=$((pass+1)) || { echo "FAIL embed: a.sql changed"; fail=$((fail+1)); }
"$tmp/t" 1 > "$tmp/b.out"; cmp -s "$tmp/b.sql" "$tmp/b.out" && pass=$((pass+1)) || { echo "FAIL embed: b.sql changed"; fail=$((fail+1)); }
echo "embed: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
