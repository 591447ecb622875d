# embed.awk — turns sql/*.sql into one C array of {name, text} (run by the Makefile).
# Usage: awk -f sql/embed.awk sql/a.sql sql/b.sql > build/gen/sql_views.c
BEGIN {
    print "/* generated from the .sql files of sql/ by sql/embed.awk; do not edit */"
    print "#include <stddef.h>"
    print "const struct tsql_sql_file { const char *name; const char *text; } tsql_sql_files[] = {"
    open_ = 0
}
FNR == 1 {
    if (open_) print "    },"
    n = FILENAME; sub(/^.*\//, "", n)
    printf "    {\"%s\",\n", n
    open_ = 1
}
{
    line = $0
    gsub(/\\/, "\\\\\\\\", line)
    gsub(/"/, "\\\"", line)
    printf "     \"%s\\n\"\n", line
}
END {
    if (open_) print "    },"
    print "    {NULL, NULL}"
    print "};"
}
