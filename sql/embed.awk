# embed.awk — turns the sql/ files into one C array of {name, text} (run by the Makefile).
# Usage: LC_ALL=C awk -f sql/embed.awk sql/a/x.sql sql/b/y.sql > build/gen/sql_views.c
# (the files in load order: sql/order.awk's output)
# Any byte is safe: printable ASCII is copied except  "  \  ?  (escaped, so no
# trigraph such as ??( can form); every other byte is written as a 3-digit octal escape.
BEGIN {
    print "/* generated from the .sql files of sql/ by sql/embed.awk; do not edit */"
    print "#include <stddef.h>"
    print "const struct tsql_sql_file { const char *name; const char *text; } tsql_sql_files[] = {"
    open_ = 0
    for (i = 1; i < 256; i++) code[sprintf("%c", i)] = i
}
function escape(s,    out, i, c, k) {
    out = ""
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        k = code[c]
        if (c == "\"" || c == "\\" || c == "?") out = out "\\" c
        else if (k >= 32 && k < 127) out = out c
        else if (k == 0) { print "embed.awk: " FILENAME ":" FNR ": NUL byte" > "/dev/stderr"; exit 1 }
        else out = out sprintf("\\%03o", k)
    }
    return out
}
FNR == 1 {
    if (open_) print "    },"
    # the path under sql/ (area/name.sql), else the base name
    n = FILENAME
    if (!sub(/^sql\//, "", n)) sub(/^.*\//, "", n)
    printf "    {\"%s\",\n", escape(n)
    open_ = 1
}
{ printf "     \"%s\\n\"\n", escape($0) }
END {
    if (open_) print "    },"
    print "    {NULL, NULL}"
    print "};"
}
