#!/usr/bin/env bash
# check_layout.sh — the source layout's rules, checked (make test-layout):
#   - core/ has no .c file at its top, and its stage folders are the ones listed below;
#   - a core file includes only headers of its own stage or of an earlier one;
#   - core/ includes nothing of SQLite or ext/;
#   - ext/ includes no header that says it is private to core/
#     (a header whose first comment says "Private to core/");
#   - ext/ runs one way, each layer including only its own or a lower one's headers:
#     catalog (ext/catalog/) < table framework (the files listed in ext_framework) <
#     tables and functions (the rest of ext/) < entry (ext/tracesql.c).
# Prints one line per violation and "layout: N passed, M failed".
# TSQL_LAYOUT_ROOT checks another tree (tests/build/test_check_layout.sh uses it).
set -u
cd "${TSQL_LAYOUT_ROOT:-$(dirname "$0")/../..}"

# the stages, in pipeline order: a file may include its own stage or an earlier one
stages=(util text store input tree perfmodel analysis output load)
rank() { local i; for i in "${!stages[@]}"; do [ "${stages[$i]}" = "$1" ] && { echo "$i"; return; }; done; echo -1; }

pass=0; fail=0
bad() { echo "FAIL layout: $*"; fail=$((fail + 1)); }

for f in core/*.c; do [ -e "$f" ] && bad "$f: a .c file at the top of core/ (put it in its stage)"; done
for d in core/*/; do
    s=$(basename "$d")
    [ "$(rank "$s")" -ge 0 ] || bad "core/$s/: not a known stage (${stages[*]})"
done
nstages=$(find core -mindepth 1 -maxdepth 1 -type d | wc -l)
[ "$nstages" -ge 4 ] || bad "core/ has $nstages stage folders (at least 4 expected)"

private=$(grep -l -m1 'Private to core/' $(find core -name '*.h') 2>/dev/null | sed 's|^core/||')

while IFS= read -r f; do
    s=${f#core/}; s=${s%%/*}; r=$(rank "$s")
    while IFS=: read -r line inc; do
        case $inc in
            sqlite3*|*/sqlite3*) bad "$f:$line: core/ must not include SQLite ($inc)"; continue ;;
        esac
        t=${inc%%/*}
        if [ ! -e "core/$inc" ]; then
            # a library header (cJSON, zlib), unless it is a core header named without its stage
            if [ -n "$(find core -path "*/$inc" -print -quit)" ]; then
                bad "$f:$line: include \"$inc\" names no stage (write \"stage/file.h\")"
            fi
            continue
        fi
        tr=$(rank "$t")
        if [ "$tr" -gt "$r" ]; then bad "$f:$line: $s includes \"$inc\", a later stage ($t)"; continue; fi
        pass=$((pass + 1))
    done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' "$f" | grep -v '<[a-z0-9_/]*\.h>' \
             | sed -E 's/^([0-9]+):.*include[[:space:]]*["<]([^">]+)[">].*/\1:\2/')
    grep -n '#[[:space:]]*include[[:space:]]*<sqlite3' "$f" | while IFS=: read -r line _; do
        echo "FAIL layout: $f:$line: core/ must not include SQLite"; done | grep . && fail=$((fail + 1))
done < <(find core -name '*.[ch]' | LC_ALL=C sort)

while IFS= read -r f; do
    for p in $private; do
        if grep -q "#[[:space:]]*include[[:space:]]*\"$p\"" "$f"; then
            bad "$f: includes $p, which is private to core/"
        else
            pass=$((pass + 1))
        fi
    done
done < <(find ext -name '*.[ch]' | LC_ALL=C sort)

# ext/'s layers: 0 catalog, 1 table framework, 2 tables and functions, 3 entry
ext_framework=(vtab/table.c vtab/table.h vtab/view_runner.c vtab/view_runner.h)
ext_layer_names=(catalog "table framework" "tables and functions" entry)
ext_layer() {
    local f=${1#ext/} x
    [ "$f" = tracesql.c ] && { echo 3; return; }
    case $f in catalog/*) echo 0; return ;; esac
    for x in "${ext_framework[@]}"; do [ "$f" = "$x" ] && { echo 1; return; }; done
    echo 2
}
while IFS= read -r f; do
    l=$(ext_layer "$f")
    while IFS=: read -r line inc; do
        [ -e "ext/$inc" ] || continue
        il=$(ext_layer "ext/$inc")
        if [ "$il" -gt "$l" ]; then
            bad "$f:$line: ${ext_layer_names[$l]} includes \"$inc\", of a higher layer (${ext_layer_names[$il]})"
        else
            pass=$((pass + 1))
        fi
    done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" \
             | sed -E 's/^([0-9]+):.*include[[:space:]]*"([^"]+)".*/\1:\2/')
done < <(find ext -name '*.[ch]' | LC_ALL=C sort)

echo "layout: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
