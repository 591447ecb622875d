/*
 * csv_write.c — csv_write(outdir, name, query [, options]): one query's result written as
 * the CSV file outdir/name, the one writer of every report command's CSVs (tools/).
 *
 *   SELECT csv_write('/tmp/out', 'gpu_timeline.csv',
 *                    'SELECT * FROM report_gpu_timeline WHERE trace_id = 1',
 *                    '{"omit": ["trace_id"], "if_empty": "header"}');   -- -> rows written
 *
 * Cell text and quoting by dialect (options "dialect"):
 *   "python"  (default) what Python's csv module writes with QUOTE_MINIMAL, as TraceLens's
 *             pandas-written sheets hold it: REAL as Python's repr (py_float), INTEGER in
 *             decimal, TEXT and BLOB as their bytes, NULL as an empty cell; a cell (or
 *             column name) holding , " CR or LF is quoted, its " doubled; lines end in LF.
 *   "sqlite"  what the sqlite3 shell's `.mode csv` with `.headers on` writes: REAL as
 *             SQLite's text of it (%!.15g), NULL empty, a cell quoted when it is empty or
 *             holds a comma, a control character, space, " or ', DEL or a non-ASCII byte;
 *             lines end in CR LF; no header line when there are no rows.
 *   "lines"   the first column of each row as it is, one line each (rows that already are
 *             CSV text, e.g. the perf-report comparison's compare_csv).
 *   "text"    the first column of each row as it is, nothing added: a document built by a
 *             function (the trace diff's tree text and JSON maps).
 * Other options:
 *   "omit"       column names never written (e.g. the leading trace_id of report views)
 *   "drop_null"  column names left out when they are NULL in every row
 *   "if_empty"   when the query gives no row: "omit" (default: no file, and a file of
 *                that name left by an earlier run is removed), "header" (the header line
 *                alone), "blank" (one empty line), "empty" (a file of no bytes), or an
 *                array of text lines, written each ended by LF (what pandas writes for
 *                an empty frame whose header is not the sheet's columns)
 * Returns the number of rows written, or NULL when no file was written.
 *
 * Safety: it writes files, so it is SQLITE_DIRECTONLY (no view or trigger of a database
 * file, which someone else may have written, can call it; TEMP ones the connection made
 * itself can, as SQLite allows). `name` must be a plain file name (no '/', not '.' or
 * '..'); outdir must be an existing directory and is not followed if it is a symbolic
 * link (callers pass a resolved path); an existing outdir/name that is not a regular
 * file (a symbolic link, a FIFO, a directory) is refused, never followed or replaced.
 * The file is written under a temporary name in outdir and renamed into place when
 * complete, so a failed query leaves the earlier file as it was. The query must be one
 * read-only statement.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/registration.h"
#include "text/pyrepr.h"
#include "util/buf.h"

typedef enum { CSV_PYTHON, CSV_SQLITE, CSV_LINES, CSV_TEXT } csv_dialect;
typedef enum { EMPTY_OMIT, EMPTY_HEADER, EMPTY_BLANK, EMPTY_FILE, EMPTY_LINES } csv_if_empty;

typedef struct {
    csv_dialect dialect;
    csv_if_empty if_empty;
    char **omit, **drop_null; /* sqlite3_malloc'd names */
    int nomit, ndrop;
    tsql_buf empty_lines;     /* EMPTY_LINES: the file's text, each line ended by LF */
} csv_options;

/* The sqlite3 shell's rule (shell.c, needCsvQuote): a byte that makes a cell quoted. */
static int sqlite_needs_quote(unsigned char c)
{
    return c < 0x20 || c == ' ' || c == '"' || c == '\'' || c >= 0x7f;
}

/* Appends one cell (s, n; s NULL = SQL NULL) in the dialect's quoting. 0 or -1 (OOM). */
static int put_cell(tsql_buf *b, csv_dialect d, const char *s, size_t n)
{
    if (!s) return 0;
    int quote = 0;
    if (d == CSV_PYTHON) {
        for (size_t i = 0; i < n && !quote; i++)
            quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
    } else if (d == CSV_SQLITE) {
        quote = n == 0;
        for (size_t i = 0; i < n && !quote; i++)
            quote = s[i] == ',' || sqlite_needs_quote((unsigned char)s[i]);
    }
    if (!quote) return tsql_bput(b, s, n);
    if (tsql_bputc(b, '"')) return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"' && tsql_bputc(b, '"')) return -1;
        if (tsql_bputc(b, s[i])) return -1;
    }
    return tsql_bputc(b, '"');
}

static void free_names(char **v, int n)
{
    for (int i = 0; i < n; i++) sqlite3_free(v[i]);
    sqlite3_free(v);
}

static int name_in(char **v, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (s && strcmp(v[i], s) == 0) return 1;
    return 0;
}

/* Reads the options object through SQLite's own JSON functions. NULL or an error message
 * (sqlite3_malloc'd). */
static char *parse_options(sqlite3 *db, const char *json, csv_options *o)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT j.key, j.type, j.value, e.type, e.value FROM json_each(?1) j "
                           "LEFT JOIN json_each(CASE j.type WHEN 'array' THEN j.value END) e "
                           "WHERE json_type(?1) = 'object'",
                           -1, &st, NULL) != SQLITE_OK)
        return sqlite3_mprintf("reading the options: %s", sqlite3_errmsg(db));
    sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
    char *err = NULL;
    int seen = 0, rc;
    while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        seen = 1;
        const char *key = (const char *)sqlite3_column_text(st, 0);
        const char *type = (const char *)sqlite3_column_text(st, 1);
        const char *val = (const char *)sqlite3_column_text(st, 2);
        key = key ? key : "";
        if (strcmp(key, "omit") == 0 || strcmp(key, "drop_null") == 0) {
            const char *etype = (const char *)sqlite3_column_text(st, 3);
            const char *name = (const char *)sqlite3_column_text(st, 4);
            if (!type || strcmp(type, "array") != 0) {
                err = sqlite3_mprintf("option \"%s\" wants an array of column names", key);
                break;
            }
            if (!etype) continue; /* an empty array */
            if (strcmp(etype, "text") != 0) {
                err = sqlite3_mprintf("option \"%s\" wants an array of column names, got a %s in it", key, etype);
                break;
            }
            char ***v = key[0] == 'o' ? &o->omit : &o->drop_null;
            int *n = key[0] == 'o' ? &o->nomit : &o->ndrop;
            char **nv = sqlite3_realloc64(*v, (sqlite3_uint64)(*n + 1) * sizeof *nv);
            char *copy = sqlite3_mprintf("%s", name);
            if (!nv || !copy) {
                sqlite3_free(copy);
                if (nv) *v = nv;
                err = sqlite3_mprintf("out of memory");
                break;
            }
            *v = nv;
            nv[(*n)++] = copy;
        } else if (strcmp(key, "dialect") == 0) {
            if (val && strcmp(type, "text") == 0 && strcmp(val, "python") == 0) o->dialect = CSV_PYTHON;
            else if (val && strcmp(type, "text") == 0 && strcmp(val, "sqlite") == 0) o->dialect = CSV_SQLITE;
            else if (val && strcmp(type, "text") == 0 && strcmp(val, "lines") == 0) o->dialect = CSV_LINES;
            else if (val && strcmp(type, "text") == 0 && strcmp(val, "text") == 0) o->dialect = CSV_TEXT;
            else err = sqlite3_mprintf("option \"dialect\" is one of \"python\", \"sqlite\", \"lines\", \"text\"");
        } else if (strcmp(key, "if_empty") == 0 && type && strcmp(type, "array") == 0) {
            /* the lines an empty result is written as (one array element per row here) */
            const char *etype = (const char *)sqlite3_column_text(st, 3);
            const char *line = (const char *)sqlite3_column_text(st, 4);
            o->if_empty = EMPTY_LINES;
            if (!etype) continue; /* an empty array: a file of no bytes */
            if (strcmp(etype, "text") != 0) {
                err = sqlite3_mprintf("option \"if_empty\" as an array wants lines of text, got a %s in it", etype);
                break;
            }
            if (!line || tsql_bputs(&o->empty_lines, line) || tsql_bputc(&o->empty_lines, '\n'))
                err = sqlite3_mprintf("out of memory reading the options");
        } else if (strcmp(key, "if_empty") == 0) {
            const char *word = val && type && strcmp(type, "text") == 0 ? val : "";
            if (strcmp(word, "omit") == 0) o->if_empty = EMPTY_OMIT;
            else if (strcmp(word, "header") == 0) o->if_empty = EMPTY_HEADER;
            else if (strcmp(word, "blank") == 0) o->if_empty = EMPTY_BLANK;
            else if (strcmp(word, "empty") == 0) o->if_empty = EMPTY_FILE;
            else err = sqlite3_mprintf("option \"if_empty\" is one of \"omit\", \"header\", \"blank\", \"empty\", "
                                       "or an array of lines");
        } else {
            err = sqlite3_mprintf("unknown option \"%s\" (options: dialect, omit, drop_null, if_empty)", key);
        }
    }
    if (!err && rc != SQLITE_DONE) err = sqlite3_mprintf("options are not valid JSON: %s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    if (!err && !seen && json[strspn(json, " \t\r\n")] != '\0') {
        /* no row: an empty object is fine, anything else is not an object */
        sqlite3_stmt *t = NULL;
        int obj = 0;
        if (sqlite3_prepare_v2(db, "SELECT json_type(?1) = 'object'", -1, &t, NULL) == SQLITE_OK) {
            sqlite3_bind_text(t, 1, json, -1, SQLITE_STATIC);
            obj = sqlite3_step(t) == SQLITE_ROW && sqlite3_column_int(t, 0);
        }
        sqlite3_finalize(t);
        if (!obj) err = sqlite3_mprintf("options must be a JSON object, e.g. '{\"if_empty\": \"header\"}'");
    }
    return err;
}

/* A plain file name: not empty, no '/', not "." or "..". */
static int plain_name(const char *s)
{
    return s[0] && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

typedef struct {
    tsql_buf cells;   /* every cell, already quoted */
    size_t *off;      /* cell i of row r: cells.p[off[r*ncol+i] .. off[r*ncol+i+1]) */
    unsigned char *isnull;
    size_t ncells, cap;
} csv_rows;

static int rows_push(csv_rows *r, int isnull)
{
    if (r->ncells + 2 > r->cap) {
        size_t nc = r->cap ? r->cap * 2 : 1024;
        size_t *o = realloc(r->off, nc * sizeof *o);
        if (!o) return -1;
        r->off = o;
        unsigned char *z = realloc(r->isnull, nc);
        if (!z) return -1;
        r->isnull = z;
        r->cap = nc;
    }
    r->isnull[r->ncells] = (unsigned char)isnull;
    r->off[++r->ncells] = r->cells.n;
    return 0;
}

/* Writes (data, n) to outdir/name through a temporary file renamed into place. NULL or an
 * error message (sqlite3_malloc'd). */
static char *write_file(const char *outdir, const char *name, const char *data, size_t n)
{
    int dfd = open(outdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0)
        return sqlite3_mprintf("%s: %s", outdir,
                               errno == ELOOP || errno == ENOTDIR
                                   ? "not a directory, or a symbolic link (pass the folder it points to)"
                                   : strerror(errno));
    char *err = NULL;
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode)) {
        err = sqlite3_mprintf("%s/%s exists and is not a regular file (%s): not replaced", outdir, name,
                              S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISDIR(st.st_mode) ? "a directory" : "special");
        close(dfd);
        return err;
    }
    char *tmp = sqlite3_mprintf(".%s.tmp%ld", name, (long)getpid());
    if (!tmp) {
        close(dfd);
        return sqlite3_mprintf("out of memory");
    }
    int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
        err = sqlite3_mprintf("%s/%s: cannot create: %s", outdir, tmp, strerror(errno));
    } else {
        size_t done = 0;
        while (!err && done < n) {
            ssize_t w = write(fd, data + done, n - done);
            if (w < 0 && errno == EINTR) continue;
            if (w < 0) err = sqlite3_mprintf("%s/%s: write failed: %s", outdir, name, strerror(errno));
            else done += (size_t)w;
        }
        if (close(fd) != 0 && !err) err = sqlite3_mprintf("%s/%s: write failed: %s", outdir, name, strerror(errno));
        if (!err && renameat(dfd, tmp, dfd, name) != 0)
            err = sqlite3_mprintf("%s/%s: cannot rename into place: %s", outdir, name, strerror(errno));
        if (err) unlinkat(dfd, tmp, 0);
    }
    sqlite3_free(tmp);
    close(dfd);
    return err;
}

/* if_empty "omit": no file, and an earlier run's regular file of that name removed. */
static char *remove_file(const char *outdir, const char *name)
{
    int dfd = open(outdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0) return sqlite3_mprintf("%s: %s", outdir, strerror(errno));
    struct stat st;
    char *err = NULL;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        if (!S_ISREG(st.st_mode))
            err = sqlite3_mprintf("%s/%s exists and is not a regular file: not removed", outdir, name);
        else if (unlinkat(dfd, name, 0) != 0)
            err = sqlite3_mprintf("%s/%s: cannot remove: %s", outdir, name, strerror(errno));
    }
    close(dfd);
    return err;
}

static void fn_csv_write(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    sqlite3 *db = sqlite3_context_db_handle(ctx);
    for (int i = 0; i < 3; i++) {
        if (sqlite3_value_type(argv[i]) != SQLITE_TEXT) {
            static const char *const what[] = {"outdir (a folder)", "name (a file name)", "query (one SELECT)"};
            char *m = sqlite3_mprintf("csv_write: argument %d, %s, must be text; got %s", i + 1, what[i],
                                      sqlite3_value_type(argv[i]) == SQLITE_NULL ? "NULL" : "a non-text value");
            sqlite3_result_error(ctx, m ? m : "csv_write: bad argument", -1);
            sqlite3_free(m);
            return;
        }
    }
    const char *outdir = (const char *)sqlite3_value_text(argv[0]);
    const char *name = (const char *)sqlite3_value_text(argv[1]);
    const char *query = (const char *)sqlite3_value_text(argv[2]);
    csv_options o = {CSV_PYTHON, EMPTY_OMIT, NULL, NULL, 0, 0, {0}};
    char *err = NULL;
    sqlite3_stmt *st = NULL;
    csv_rows rows = {{0}, NULL, NULL, 0, 0};
    tsql_buf out = {0};
    int64_t nrows = 0;
    int written = 0, oom = 0;
    int *keep = NULL;

    if (!plain_name(name)) {
        err = sqlite3_mprintf("'%s' is not a plain file name (no '/', not '.' or '..'): files are written only "
                              "directly in outdir", name);
        goto done;
    }
    if (argc > 3 && sqlite3_value_type(argv[3]) != SQLITE_NULL) {
        err = parse_options(db, (const char *)sqlite3_value_text(argv[3]), &o);
        if (err) goto done;
    }
    const char *tail = NULL;
    if (sqlite3_prepare_v2(db, query, -1, &st, &tail) != SQLITE_OK) {
        err = sqlite3_mprintf("%s: %s", name, sqlite3_errmsg(db));
        goto done;
    }
    if (!st || (tail && tail[strspn(tail, " \t\r\n;")] != '\0') || !sqlite3_stmt_readonly(st)) {
        err = sqlite3_mprintf("the query must be one read-only statement (a SELECT)");
        goto done;
    }
    int ncol = sqlite3_column_count(st);
    int whole = o.dialect == CSV_LINES || o.dialect == CSV_TEXT; /* the first column as it is */
    if (whole && ncol < 1) {
        err = sqlite3_mprintf("dialects \"lines\" and \"text\" want a query with a column");
        goto done;
    }
    rows.off = malloc(sizeof *rows.off);
    if (!rows.off) goto nomem;
    rows.off[0] = 0;
    rows.cap = 1;
    int rc;
    char fbuf[TSQL_PY_FLOAT_BUFSZ];
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        nrows++;
        for (int i = 0; i < (whole ? 1 : ncol); i++) {
            int t = sqlite3_column_type(st, i);
            const char *s = NULL;
            size_t n = 0;
            if (t == SQLITE_FLOAT && o.dialect == CSV_PYTHON) {
                n = (size_t)tsql_py_float(sqlite3_column_double(st, i), fbuf);
                s = fbuf;
            } else if (t != SQLITE_NULL) {
                s = (const char *)sqlite3_column_text(st, i);
                n = (size_t)sqlite3_column_bytes(st, i);
                if (!s) goto nomem;
            }
            if (whole ? (s && tsql_bput(&rows.cells, s, n)) : put_cell(&rows.cells, o.dialect, s, n))
                goto nomem;
            if (rows_push(&rows, t == SQLITE_NULL)) goto nomem;
        }
    }
    if (rc != SQLITE_DONE) {
        err = sqlite3_mprintf("%s: %s", name, sqlite3_errmsg(db));
        goto done;
    }

    /* the columns written: not omitted, and not all-NULL when droppable */
    int per_row = whole ? 1 : ncol;
    keep = calloc((size_t)per_row, sizeof *keep);
    if (!keep) goto nomem;
    for (int i = 0; i < per_row; i++) {
        const char *cn = sqlite3_column_name(st, i);
        keep[i] = whole || !name_in(o.omit, o.nomit, cn);
        if (keep[i] && name_in(o.drop_null, o.ndrop, cn)) {
            int any = 0;
            for (int64_t r = 0; r < nrows && !any; r++) any = !rows.isnull[(size_t)r * (size_t)per_row + (size_t)i];
            keep[i] = any;
        }
    }
    const char *eol = o.dialect == CSV_SQLITE ? "\r\n" : o.dialect == CSV_TEXT ? "" : "\n";
    int header = !whole && (nrows > 0 || o.if_empty == EMPTY_HEADER);
    if (nrows == 0 && o.if_empty == EMPTY_OMIT) {
        err = remove_file(outdir, name);
        goto done;
    }
    if (header) {
        int first = 1;
        for (int i = 0; i < per_row; i++) {
            if (!keep[i]) continue;
            const char *cn = sqlite3_column_name(st, i);
            if (!cn) goto nomem;
            if ((!first && tsql_bputc(&out, ',')) || put_cell(&out, o.dialect, cn, strlen(cn))) goto nomem;
            first = 0;
        }
        if (tsql_bputs(&out, eol)) goto nomem;
    }
    if (nrows == 0 && o.if_empty == EMPTY_BLANK && tsql_bputs(&out, "\n")) goto nomem;
    if (nrows == 0 && o.if_empty == EMPTY_LINES && o.empty_lines.n &&
        tsql_bput(&out, o.empty_lines.p, o.empty_lines.n))
        goto nomem;
    for (int64_t r = 0; r < nrows; r++) {
        int first = 1;
        for (int i = 0; i < per_row; i++) {
            if (!keep[i]) continue;
            size_t k = (size_t)r * (size_t)per_row + (size_t)i;
            size_t len = rows.off[k + 1] - rows.off[k]; /* no cell text at all: no buffer */
            if ((!first && tsql_bputc(&out, ',')) ||
                (len && tsql_bput(&out, rows.cells.p + rows.off[k], len)))
                goto nomem;
            first = 0;
        }
        if (tsql_bputs(&out, eol)) goto nomem;
    }
    err = write_file(outdir, name, out.p ? out.p : "", out.n);
    written = !err;
    goto done;
nomem:
    oom = 1;
done:
    sqlite3_finalize(st);
    free(keep);
    free(rows.cells.p);
    free(rows.off);
    free(rows.isnull);
    free(out.p);
    free_names(o.omit, o.nomit);
    free_names(o.drop_null, o.ndrop);
    free(o.empty_lines.p);
    if (oom) {
        sqlite3_free(err);
        sqlite3_result_error_nomem(ctx);
    } else if (err) {
        char *m = sqlite3_mprintf("csv_write: %s", err);
        sqlite3_result_error(ctx, m ? m : "csv_write failed", -1);
        sqlite3_free(m);
        sqlite3_free(err);
    } else if (written) {
        sqlite3_result_int64(ctx, nrows);
    } else {
        sqlite3_result_null(ctx);
    }
}

/* it writes files: top-level only */
static const tsql_fn_def csv_write_fns[] = {
    {"csv_write", 3, TSQL_TOP_LEVEL, fn_csv_write, NULL, NULL},
    {"csv_write", 4, TSQL_TOP_LEVEL, fn_csv_write, NULL, NULL},
};

const tsql_registration tsql_reg_csv_write = {.what = "csv_write", TSQL_FNS(csv_write_fns)};
