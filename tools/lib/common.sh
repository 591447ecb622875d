# common.sh — the one library of the tracesql-* report commands (sourced, not run).
#
# A command is a thin script: it sources this file, calls tsql_init with its name, checks
# its arguments, writes the SQL of its run into "$tsql_tmp/run.sql" (tsql_preamble first),
# runs it with tsql_run, and says once what it wrote (tsql_wrote). The report's SQL lives
# in sql/ as views; CSV files are written by the extension's csv_write(), never by
# generated SQL or dot-commands.
#
# What it gives:
#   tsql_init NAME        the extension (tsql_ext), the sqlite3 shell (tsql_sqlite), a
#                         temporary folder removed at exit (tsql_tmp), the command's name
#                         in every message; finds the extension of this checkout's build
#                         (tools/../build/tracesql.so) or of an installed layout
#                         (bin/../lib/tracesql.so), TSQL_EXT overriding both
#   tsql_usage            the command's header comment (from its second line to the first
#                         line that is not a comment) on stderr, exit 2
#   tsql_die MESSAGE...   "NAME: MESSAGE" on stderr, exit 2
#   tsql_need_file PATH   dies unless PATH is a readable file
#   tsql_outdir DIR       creates DIR (and missing parents) if missing (folders made here
#                         and left empty by a failed run are removed at exit) and sets
#                         tsql_out to its physical path
#   tsql_sq TEXT          TEXT as an SQL string literal
#   tsql_dq TEXT          TEXT as a double-quoted dot-command argument
#   tsql_preamble         the first lines of every run: .bail, temp store in memory, the
#                         extension loaded, list mode, NULL printed empty
#   tsql_csv NAME QUERY [OPTIONS]
#                         the SQL writing QUERY's rows to OUTDIR/NAME with csv_write
#                         (OPTIONS: its JSON options); the file is recorded in the temp
#                         table _tsql_written(file, rows) unless no file was written
#   tsql_wrote_sql WHAT   the SQL printing once "NAME: wrote WHAT (the files of
#                         _tsql_written) to OUTDIR"
#   tsql_check COND MESSAGE
#                         the SQL that stops the run with MESSAGE unless the SQL
#                         expression COND is true (e.g. an option name is known)
#   tsql_run [DB]         runs "$tsql_tmp/run.sql" in sqlite3 (DB, default :memory:); an
#                         error is printed as "NAME: message", without the shell's
#                         "Runtime error near line N:"
#   tsql_wrote WHAT       "NAME: wrote WHAT to OUTDIR" once, on stdout
#   tsql_share FILE       the path of a data file of the commands (tools/ in a checkout,
#                         share/tracesql/ when installed)
# Environment: TSQL_EXT (the extension, path without .so), SQLITE3 (the sqlite3 shell).

tsql_init() {
    tsql_name=$1
    tsql_here=$(cd "$(dirname "$0")" && pwd)
    if [ -n "${TSQL_EXT:-}" ]; then tsql_ext=$TSQL_EXT
    elif [ -e "$tsql_here/../build/tracesql.so" ]; then tsql_ext=$tsql_here/../build/tracesql
    elif [ -e "$tsql_here/../lib/tracesql.so" ]; then tsql_ext=$tsql_here/../lib/tracesql
    else tsql_ext=tracesql  # the name the dynamic loader resolves after make install + ldconfig
    fi
    tsql_sqlite=${SQLITE3:-sqlite3}
    tsql_tmp=
    tsql_out=
    tsql_made_out=
    tsql_made_top=
    trap tsql_cleanup EXIT
    trap 'exit 130' INT TERM
}

tsql_cleanup() {
    [ -z "$tsql_tmp" ] || rm -rf "$tsql_tmp"
    # folders this run created and left empty (it failed) are not left behind
    if [ -n "$tsql_made_out" ]; then
        local d=$tsql_made_out
        while rmdir -- "$d" 2>/dev/null && [ "$d" != "$tsql_made_top" ]; do d=$(dirname -- "$d"); done
    fi
}

tsql_die() {
    echo "$tsql_name: $*" >&2
    exit 2
}

tsql_usage() {
    awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0" >&2
    exit 2
}

tsql_need_ext() {
    case $tsql_ext in
        */*) [ -e "$tsql_ext" ] || [ -e "$tsql_ext.so" ] || [ -e "$tsql_ext.dylib" ] || [ -e "$tsql_ext.dll" ] ||
                 tsql_die "extension $tsql_ext not found (run make in the project, or set TSQL_EXT)" ;;
    esac
    tsql_tmp=$(mktemp -d "${TMPDIR:-/tmp}/$tsql_name.XXXXXX") || tsql_die "cannot create a temporary folder"
}

tsql_need_file() {
    [ -f "$1" ] && [ -r "$1" ] || tsql_die "$1: no such file or not readable"
}

tsql_outdir() {
    local d=$1
    [ -n "$d" ] || tsql_die "the output folder is empty"
    if [ ! -e "$d" ]; then
        # the folders this run creates, the topmost first missing one recorded, so that a
        # failed run removes them again (when still empty)
        local top=$d
        while [ ! -e "$(dirname -- "$top")" ]; do top=$(dirname -- "$top"); done
        mkdir -p -- "$d" || tsql_die "$d: cannot create the folder"
        tsql_made_top=$(cd "$top" && pwd -P)
        tsql_made_out=$(cd "$d" && pwd -P)
    fi
    [ -d "$d" ] || tsql_die "$d exists and is not a folder"
    [ -w "$d" ] || tsql_die "$d: folder not writable"
    tsql_out=$(cd "$d" && pwd -P)
}

tsql_sq() { printf "'%s'" "${1//\'/\'\'}"; }
tsql_dq() { local s=${1//\\/\\\\}; printf '"%s"' "${s//\"/\\\"}"; }

tsql_preamble() {
    echo ".bail on"
    # temp tables and sorts in memory (before .load: changing temp_store later drops the
    # TEMP schema, views included)
    echo "PRAGMA temp_store = MEMORY;"
    echo ".load $(tsql_dq "$tsql_ext")"
    echo ".headers off"
    echo ".mode list"
    echo ".nullvalue ''"
}

tsql_csv() {
    local opts=NULL
    [ $# -lt 3 ] || opts=$(tsql_sq "$3")
    echo "CREATE TEMP TABLE IF NOT EXISTS _tsql_written(file TEXT, rows INTEGER);"
    echo "INSERT INTO _tsql_written SELECT $(tsql_sq "$1"), n FROM"
    echo "  (SELECT csv_write($(tsql_sq "$tsql_out"), $(tsql_sq "$1"), $(tsql_sq "$2"), $opts) AS n) WHERE n IS NOT NULL;"
}

tsql_wrote_sql() {
    echo "CREATE TEMP TABLE IF NOT EXISTS _tsql_written(file TEXT, rows INTEGER);"
    echo "SELECT $(tsql_sq "$tsql_name: wrote $1 (") || group_concat(file, ', ') || ') to ' || $(tsql_sq "$tsql_out")"
    echo "FROM (SELECT file FROM _tsql_written ORDER BY rowid);"
}

tsql_check_n=0
tsql_check() {
    tsql_check_n=$((tsql_check_n + 1))
    echo "CREATE TEMP TABLE IF NOT EXISTS _tsql_check(ok);"
    echo "CREATE TEMP TRIGGER _tsql_check_$tsql_check_n BEFORE INSERT ON _tsql_check WHEN NOT NEW.ok"
    echo "BEGIN SELECT RAISE(FAIL, $(tsql_sq "$2")); END;"
    echo "INSERT INTO _tsql_check SELECT coalesce(($1), 0);"
    echo "DROP TRIGGER _tsql_check_$tsql_check_n;"
}

tsql_run() {
    local db=${1:-:memory:} rc
    # stdout as it is; stderr without the shell's "Runtime error near line N: " and with
    # the command's name
    { "$tsql_sqlite" -batch "$db" < "$tsql_tmp/run.sql" 2>&1 1>&3 3>&- |
          sed -E -e "s/^((Runtime|Parse) error near line [0-9]+|Error)(: near line [0-9]+)?: /$tsql_name: /" \
                 -e "s/^($tsql_name: )csv_write: [^ :]+: /\\1/" -e "s/ \\(19\\)\$//" >&2
      rc=${PIPESTATUS[0]}; } 3>&1
    if [ "$rc" != 0 ]; then exit 1; fi
    # the run succeeded: the folder stays even if empty
    tsql_made_out=
    tsql_made_top=
}

tsql_wrote() {
    echo "$tsql_name: wrote $* to $tsql_out"
}

tsql_share() {
    if [ -f "$tsql_here/$1" ]; then echo "$tsql_here/$1"
    elif [ -f "$tsql_here/../share/tracesql/$1" ]; then echo "$tsql_here/../share/tracesql/$1"
    else tsql_die "$1 not found beside the command or in ../share/tracesql"
    fi
}
