#!/usr/bin/env bash
# Real clients (docs/clients/): the sqlite3 shell, Python's sqlite3 (+ pandas),
# sqlite-utils, the exported file read without the extension, and the error texts a
# user sees for an unreadable directory, the Markdown summaries read by python3-markdown.
# One line per client; a client's whole output
# when it fails (or with V=1).
set -u
cd "$(dirname "$0")/../.."
ext=${TSQL_EXT:-build/tracesql}
py=${PYTHON:-/usr/bin/python3}
fail=0 pass=0
for t in "bash tests/clients/shell_client.sh" \
         "$py tests/clients/python_client.py $ext" \
         "$py tests/clients/sqlite_utils_client.py $ext" \
         "bash tests/clients/export_plain.sh" \
         "bash tests/clients/unreadable_dir.sh" \
         "bash tests/clients/progress.sh" \
         "bash tests/clients/markdown.sh" \
         "bash tests/clients/csv_write.sh"; do
  if out=$(TSQL_EXT=$ext $t 2>&1); then
    pass=$((pass + 1))
    if [ "${V:-0}" = 1 ]; then printf '%s\n' "$out"; else printf '%s\n' "$out" | grep '^SKIP' ; printf '%s\n' "$out" | tail -n 1; fi
  else
    fail=$((fail + 1)); echo "FAIL: $t"; printf '%s\n' "$out" | sed 's/^/  /'
  fi
done
echo "clients: $pass passed, $fail failed (sqlite3 shell, Python + pandas, sqlite-utils, export read without the extension, unreadable directory, load progress, the Markdown summaries read by a Markdown parser, csv_write's files)"
[ "$fail" = 0 ]
