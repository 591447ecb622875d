# embed_names.awk — core/perfmodel/aten_op_names.txt as a sorted C array (run by the
# Makefile): tsql_aten_op_names[0 .. tsql_aten_op_count). Names are [a-z0-9_]; any
# other byte stops the build, so the array needs no escaping.
BEGIN { n = 0; print "/* generated from core/perfmodel/aten_op_names.txt by embed_names.awk; do not edit */"
        print "#include <stddef.h>"; print "const char *const tsql_aten_op_names[] = {" }
/^#/ || /^[ \t]*$/ { next }
{
    if ($0 !~ /^[a-z0-9_]+$/) { print "embed_names.awk: line " FNR ": not an operator name" > "/dev/stderr"; exit 1 }
    if (n && $0 <= last) { print "embed_names.awk: line " FNR ": names must be sorted and distinct" > "/dev/stderr"; exit 1 }
    printf "    \"%s\",\n", $0; last = $0; n++
}
END { print "};"; printf "const size_t tsql_aten_op_count = %d;\n", n }
