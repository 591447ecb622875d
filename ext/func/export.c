/*
 * export.c — trace_export(trace, 'file.db' [, 'replace']): one trace as a plain SQLite
 * database that any SQLite (no extension) or BI tool can open.
 *
 *   SELECT trace_export('run.json.gz', 'run.db');          -- -> rows written
 *   SELECT trace_export(1, 'run.db', 'replace');            -- overwrite an existing file
 *
 * Written:
 *   - plain tables traces, events, kernels, tree_edges, trace_warnings with the columns
 *     and declared types of the virtual tables (the hidden `trace` column left out),
 *     holding the rows of that trace;
 *   - for every TEMP view of the connection (the views of the sql/ directory, and any the user
 *     made) that has a trace_id column, a plain table of the same name holding that
 *     view's rows for the trace; views without trace_id are not exported;
 *   - the analysis tables kernel_launchers, perf_ops, unified_ops, collectives,
 *     gpu_timeline_raw (its default arguments) and module_tree the same way;
 *   - indexes on trace_id, (trace_id, uid), (trace_id, parent_uid) and name where those
 *     columns exist;
 *   - a table meta(key, value): tracesql_version, schema_version, trace_id, label,
 *     source_path, source_bytes, json_bytes, load_seconds, exported_at; and
 *     PRAGMA user_version = schema_version.
 * The file is written under a random temporary name next to it (created O_EXCL |
 * O_NOFOLLOW), flushed and renamed into place only when complete, so a failed export
 * leaves no half-written database and nothing is written through a link. An existing
 * non-empty file is refused unless the third argument is 'replace'; a link, the source
 * of an open trace and a file that is not an SQLite database are refused even then
 * (docs/reliability.md, "The export's file").
 *
 * It writes files, so it is registered SQLITE_DIRECTONLY: a view or trigger in a
 * database someone else wrote cannot call it.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "catalog/registration.h"
#include "util/crc32.h"

/* the per-trace virtual tables, analyses included (built for the export if need be) */
static const char *const export_tables[] = {"traces", "events", "kernels", "tree_edges",
                                            "trace_warnings", "kernel_launchers", "perf_ops",
                                            "unified_ops", "collectives", "gpu_timeline_raw",
                                            "module_tree"};

/* PRAGMA user_version of an export: the layout of this file (bumped when it changes) */
#define EXPORT_SCHEMA_VERSION 1

typedef struct exporter {
    sqlite3 *src;        /* the user's connection (virtual tables, temp views) */
    sqlite3 *dst;        /* the file being written */
    int64_t trace_id;
    const tsql_entry *entry;
    int64_t rows;
    char *err;           /* sqlite3_malloc'd message, set once */
} exporter;

static void set_err(exporter *x, char *msg)
{
    if (!x->err) x->err = msg;
    else sqlite3_free(msg);
}

/* Runs sql on the destination. Returns SQLITE_OK or an error (x->err set). */
static int dst_exec(exporter *x, const char *sql)
{
    char *e = NULL;
    int rc = sqlite3_exec(x->dst, sql, NULL, NULL, &e);
    if (rc != SQLITE_OK) set_err(x, sqlite3_mprintf("writing: %s", e ? e : sqlite3_errstr(rc)));
    sqlite3_free(e);
    return rc;
}

/* Copies the rows of `schema.name` with trace_id = x->trace_id into a new plain table
 * `name` of the destination, with the source's non-hidden columns and declared types.
 * has_trace_id is set to 0 (and nothing is copied) when the source has no trace_id
 * column. Returns SQLITE_OK or an error (x->err set). */
static int copy_table(exporter *x, const char *schema, const char *name, int *has_trace_id)
{
    sqlite3_str *create = sqlite3_str_new(NULL);
    sqlite3_str *cols = sqlite3_str_new(NULL);
    sqlite3_str *marks = sqlite3_str_new(NULL);
    sqlite3_stmt *info = NULL, *sel = NULL, *ins = NULL;
    char *create_sql = NULL, *cols_sql = NULL, *marks_sql = NULL, *q = NULL;
    int ncols = 0, rc;
    int has_uid = 0, has_parent = 0, has_name = 0;
    *has_trace_id = 0;
    q = sqlite3_mprintf("SELECT name, type FROM pragma_table_xinfo(%Q, %Q) WHERE hidden = 0 ORDER BY cid",
                        name, schema);
    rc = q ? sqlite3_prepare_v2(x->src, q, -1, &info, NULL) : SQLITE_NOMEM;
    if (rc != SQLITE_OK) goto src_fail;
    sqlite3_str_appendf(create, "CREATE TABLE \"%w\"(", name);
    while ((rc = sqlite3_step(info)) == SQLITE_ROW) {
        const char *cn = (const char *)sqlite3_column_text(info, 0);
        const char *ct = (const char *)sqlite3_column_text(info, 1);
        if (!cn) continue;
        if (!strcmp(cn, "trace_id")) *has_trace_id = 1;
        if (!strcmp(cn, "uid")) has_uid = 1;
        if (!strcmp(cn, "parent_uid")) has_parent = 1;
        if (!strcmp(cn, "name")) has_name = 1;
        sqlite3_str_appendf(create, "%s\"%w\"%s%s", ncols ? ", " : "", cn, ct && *ct ? " " : "",
                            ct ? ct : "");
        sqlite3_str_appendf(cols, "%s\"%w\"", ncols ? ", " : "", cn);
        sqlite3_str_appendf(marks, "%s?", ncols ? ", " : "");
        ncols++;
    }
    if (rc != SQLITE_DONE) goto src_fail;
    rc = SQLITE_OK;
    sqlite3_str_appendall(create, ")");
    create_sql = sqlite3_str_finish(create);
    cols_sql = sqlite3_str_finish(cols);
    marks_sql = sqlite3_str_finish(marks);
    create = cols = marks = NULL;
    if (!create_sql || !cols_sql || !marks_sql) {
        rc = SQLITE_NOMEM;
        set_err(x, sqlite3_mprintf("out of memory"));
        goto out;
    }
    if (!*has_trace_id || ncols == 0) goto out;

    if ((rc = dst_exec(x, create_sql)) != SQLITE_OK) goto out;
    sqlite3_free(q);
    q = sqlite3_mprintf("SELECT %s FROM \"%w\".\"%w\" WHERE trace_id = ?1", cols_sql, schema, name);
    rc = q ? sqlite3_prepare_v2(x->src, q, -1, &sel, NULL) : SQLITE_NOMEM;
    if (rc != SQLITE_OK) goto src_fail;
    sqlite3_bind_int64(sel, 1, x->trace_id);
    sqlite3_free(q);
    q = sqlite3_mprintf("INSERT INTO \"%w\"(%s) VALUES (%s)", name, cols_sql, marks_sql);
    rc = q ? sqlite3_prepare_v2(x->dst, q, -1, &ins, NULL) : SQLITE_NOMEM;
    if (rc != SQLITE_OK) {
        set_err(x, sqlite3_mprintf("writing %s: %s", name, sqlite3_errmsg(x->dst)));
        goto out;
    }
    while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
        for (int i = 0; i < ncols; i++) sqlite3_bind_value(ins, i + 1, sqlite3_column_value(sel, i));
        if (sqlite3_step(ins) != SQLITE_DONE) {
            rc = sqlite3_errcode(x->dst);
            set_err(x, sqlite3_mprintf("writing %s: %s", name, sqlite3_errmsg(x->dst)));
            goto out;
        }
        sqlite3_reset(ins);
        x->rows++;
    }
    if (rc != SQLITE_DONE) goto src_fail;
    rc = SQLITE_OK;
    /* indexes for the joins and filters BI tools make: one per key column, so a filter
     * on uid or parent_uid alone finds its rows without naming trace_id */
    static const char *const keys[] = {"trace_id", "uid", "parent_uid", "name"};
    const int have[] = {1, has_uid, has_parent, has_name};
    for (int k = 0; k < 4; k++) {
        if (!have[k]) continue;
        sqlite3_free(q);
        q = sqlite3_mprintf("CREATE INDEX \"%w_%s\" ON \"%w\"(\"%w\")", name, keys[k], name, keys[k]);
        if (!q || (rc = dst_exec(x, q)) != SQLITE_OK) goto out;
    }
    goto out;
src_fail:
    if (rc == SQLITE_OK || rc == SQLITE_ROW) rc = SQLITE_ERROR;
    set_err(x, sqlite3_mprintf("reading %s: %s", name, sqlite3_errmsg(x->src)));
out:
    if (create) sqlite3_free(sqlite3_str_finish(create));
    if (cols) sqlite3_free(sqlite3_str_finish(cols));
    if (marks) sqlite3_free(sqlite3_str_finish(marks));
    sqlite3_finalize(info);
    sqlite3_finalize(sel);
    sqlite3_finalize(ins);
    sqlite3_free(create_sql);
    sqlite3_free(cols_sql);
    sqlite3_free(marks_sql);
    sqlite3_free(q);
    return rc;
}

/* CRC-32 of the whole file at path, as 8 hex digits, or NULL (unreadable). Read again
 * at export time: together with source_bytes and source_mtime it identifies the file. */
static char *file_crc32(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static const size_t chunk = 1 << 20;
    unsigned char *buf = sqlite3_malloc64(chunk);
    uint32_t crc = 0;
    size_t n;
    while (buf && (n = fread(buf, 1, chunk, f)) > 0) crc = tsql_crc32(crc, buf, n);
    int bad = !buf || ferror(f);
    fclose(f);
    sqlite3_free(buf);
    return bad ? NULL : sqlite3_mprintf("%08x", crc);
}

/* The `meta` table (what wrote the file, from which trace) and user_version. SQLITE_OK or
 * an error (x->err set). */
static int write_meta(exporter *x)
{
    const tsql_trace *t = x->entry->trace;
    const tsql_entry *e = x->entry;
    struct stat st;
    /* the file on disk is the one that was loaded only if it is unchanged */
    int same = stat(t->path, &st) == 0 && (int64_t)st.st_size == e->size &&
               (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec == e->mtime_ns &&
               (int64_t)st.st_ino == e->ino;
    char *crc = same ? file_crc32(t->path) : NULL;
    char *sql = sqlite3_mprintf(
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value);"
        "INSERT INTO meta VALUES ('tracesql_version', %Q), ('schema_version', %d),"
        " ('sqlite_version', sqlite_version()), ('trace_id', %lld), ('label', %Q),"
        " ('source_path', %Q), ('source_bytes', %lld), ('source_mtime', %Q), ('source_crc32', %Q),"
        " ('json_bytes', %lld), ('events', %lld), ('gpu_name', %Q), ('load_seconds', %.6f),"
        " ('exported_at', strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ', 'now'));"
        "PRAGMA user_version = %d;",
        TSQL_VERSION, EXPORT_SCHEMA_VERSION, (long long)x->trace_id, e->label, t->path,
        (long long)e->size, "", crc, (long long)t->json_bytes, (long long)t->n, t->gpu_name,
        t->load_seconds, EXPORT_SCHEMA_VERSION);
    sqlite3_free(crc);
    if (!sql) {
        set_err(x, sqlite3_mprintf("out of memory"));
        return SQLITE_NOMEM;
    }
    int rc = dst_exec(x, sql);
    sqlite3_free(sql);
    if (rc == SQLITE_OK) {
        /* the modification time as UTC text, computed by SQLite from the loaded identity */
        char *m = sqlite3_mprintf("UPDATE meta SET value = strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ', %lld, "
                                  "'unixepoch') WHERE key = 'source_mtime'",
                                  (long long)(e->mtime_ns / 1000000000));
        rc = m ? dst_exec(x, m) : SQLITE_NOMEM;
        sqlite3_free(m);
    }
    return rc;
}

/* Writes everything into x->dst. Returns SQLITE_OK or an error (x->err set). */
static int export_all(exporter *x)
{
    int rc = dst_exec(x, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN");
    int has;
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof export_tables / sizeof *export_tables; i++)
        rc = copy_table(x, "main", export_tables[i], &has);
    if (rc != SQLITE_OK) return rc;
    /* the temp views, in creation order; a view's name never clashes with the tables
     * above (they are eponymous virtual tables of the same connection) */
    sqlite3_stmt *views = NULL;
    rc = sqlite3_prepare_v2(x->src,
                            "SELECT name FROM sqlite_temp_master WHERE type = 'view' "
                            /* views read through a table-valued function need its
                             * arguments (compare_ops(...), ext/func/compare.c) */
                            "AND name NOT GLOB '*_v' ORDER BY rowid",
                            -1, &views, NULL);
    if (rc != SQLITE_OK) {
        set_err(x, sqlite3_mprintf("listing views: %s", sqlite3_errmsg(x->src)));
        return rc;
    }
    /* names first: copying runs other statements on the connection */
    sqlite3_str *names = sqlite3_str_new(NULL);
    int n = 0;
    while ((rc = sqlite3_step(views)) == SQLITE_ROW) {
        sqlite3_str_appendall(names, (const char *)sqlite3_column_text(views, 0));
        sqlite3_str_appendchar(names, 1, 0);
        n++;
    }
    sqlite3_finalize(views);
    int len = sqlite3_str_length(names);
    char *all = sqlite3_str_finish(names);
    if (rc != SQLITE_DONE || (len && !all)) {
        sqlite3_free(all);
        set_err(x, sqlite3_mprintf("listing views: %s", sqlite3_errmsg(x->src)));
        return SQLITE_ERROR;
    }
    rc = SQLITE_OK;
    const char *p = all;
    for (int i = 0; i < n && rc == SQLITE_OK; i++) {
        rc = copy_table(x, "temp", p, &has);
        p += strlen(p) + 1;
    }
    sqlite3_free(all);
    if (rc == SQLITE_OK) rc = write_meta(x);
    if (rc == SQLITE_OK) rc = dst_exec(x, "COMMIT");
    return rc;
}

/* The directory part of path ("." for a bare name); 0 if it does not fit. */
static int dir_of(const char *path, char *dir, size_t cap)
{
    const char *slash = strrchr(path, '/');
    int n = !slash ? snprintf(dir, cap, ".")
          : slash == path ? snprintf(dir, cap, "/")
                          : snprintf(dir, cap, "%.*s", (int)(slash - path), path);
    return n > 0 && (size_t)n < cap;
}

/* 1 if the regular file at path starts with SQLite's header (read without following a
 * link and without blocking). */
static int is_sqlite_file(const char *path)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return 0;
    char head[16];
    ssize_t n = read(fd, head, sizeof head);
    close(fd);
    return n == (ssize_t)sizeof head && memcmp(head, "SQLite format 3", 16) == 0;
}

/* What stops an export to path, as a message that says what to do, or NULL (static text).
 * Nothing a user owns is overwritten: not through a link, not a file that is not an
 * SQLite database, not the source of an open trace, even with 'replace'. */
static const char *target_problem(const tsql_catalog *c, const char *path, int replace)
{
    struct stat st;
    if (lstat(path, &st) == 0) {
        if (S_ISLNK(st.st_mode))
            return "is a symbolic link; trace_export never writes through a link: give the path of "
                   "the file itself";
        if (S_ISDIR(st.st_mode))
            return "is a directory: give the path of the database file to write, e.g. 'dir/run.db'";
        if (!S_ISREG(st.st_mode)) return "exists and is not a regular file; choose another path";
        for (int i = 0; i < c->nopen; i++)
            if (c->open[i]->dev == (int64_t)st.st_dev && c->open[i]->ino == (int64_t)st.st_ino)
                return "is the source file of an open trace; trace_export never overwrites a trace, "
                       "even with 'replace': choose another path";
        if (st.st_size > 0 && !replace)
            return "file exists and is not empty; pass 'replace' as the third argument to "
                   "overwrite it, or choose another path";
        if (st.st_size > 0 && !is_sqlite_file(path))
            return "exists and is not an SQLite database; trace_export replaces only databases, "
                   "even with 'replace': choose another path";
    }
    /* the directory the file goes in: it must exist and be writable (the temporary file
     * and the rename are made there) */
    char dir[4096];
    if (!dir_of(path, dir, sizeof dir)) return "path too long";
    if (stat(dir, &st) != 0) {
        if (errno == EACCES) return "a directory on the path is not readable by this process";
        return "the directory of the file does not exist; create it first (mkdir -p)";
    }
    if (!S_ISDIR(st.st_mode)) return "a part of the path before the file name is not a directory";
    if (access(dir, W_OK | X_OK) != 0)
        return "the directory of the file is not writable by this process; choose another path";
    return NULL;
}

#define TMP_TAG ".tsql-tmp-"
#define TMP_HEX 16
#define TMP_STALE_SECONDS 3600

/* 1 if name is one of our temp files: "." <anything> TMP_TAG <TMP_HEX hex digits> */
static int is_our_temp(const char *name)
{
    size_t n = strlen(name), tag = strlen(TMP_TAG);
    if (name[0] != '.' || n < 1 + tag + TMP_HEX) return 0;
    if (memcmp(name + n - TMP_HEX - tag, TMP_TAG, tag) != 0) return 0;
    for (size_t i = n - TMP_HEX; i < n; i++)
        if (!strchr("0123456789abcdef", name[i])) return 0;
    return 1;
}

/* The pid of an earlier version's temp file for base, "<base>.tsql-tmp-<pid>", or 0. */
static long old_temp_pid(const char *name, const char *base)
{
    size_t nb = strlen(base), tag = strlen(TMP_TAG);
    if (strncmp(name, base, nb) != 0 || strncmp(name + nb, TMP_TAG, tag) != 0) return 0;
    const char *d = name + nb + tag;
    if (!*d || strlen(d) > 9) return 0;
    long pid = 0;
    for (; *d; d++) {
        if (*d < '0' || *d > '9') return 0;
        pid = pid * 10 + (*d - '0');
    }
    return pid;
}

/* Removes temp files an export killed midway left in dir: ours by name, regular, owned
 * by this user and untouched for an hour (a running export keeps writing its own); and
 * an earlier version's "<base>.tsql-tmp-<pid>" of this target whose process is gone. */
static void remove_stale_temps(const char *dir, const char *base)
{
    DIR *d = opendir(dir);
    if (!d) return;
    int dfd = dirfd(d);
    time_t now = time(NULL);
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        struct stat st;
        long pid = old_temp_pid(de->d_name, base);
        int stale_name = is_our_temp(de->d_name);
        if (!stale_name && !pid) continue;
        if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        if (!S_ISREG(st.st_mode) || st.st_uid != geteuid()) continue;
        if (stale_name ? now - st.st_mtime > TMP_STALE_SECONDS
                       : pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH)
            unlinkat(dfd, de->d_name, 0);
    }
    closedir(d);
}

/* Creates an empty temp file beside path under a random name that no one can have
 * prepared: O_EXCL refuses anything that exists, O_NOFOLLOW a link. Returns its name
 * (sqlite3_malloc'd) or NULL with *why set. */
static char *create_temp(const char *path, const char **why)
{
    char dir[4096];
    if (!dir_of(path, dir, sizeof dir)) {
        *why = "path too long";
        return NULL;
    }
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    for (int attempt = 0; attempt < 8; attempt++) {
        unsigned char r[TMP_HEX / 2];
        sqlite3_randomness((int)sizeof r, r);
        char hex[TMP_HEX + 1];
        for (int i = 0; i < TMP_HEX / 2; i++) snprintf(hex + 2 * i, 3, "%02x", r[i]);
        char *tmp = sqlite3_mprintf("%s/.%s" TMP_TAG "%s", dir, base, hex);
        if (!tmp) {
            *why = "out of memory";
            return NULL;
        }
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd >= 0) {
            close(fd);
            return tmp;
        }
        sqlite3_free(tmp);
        if (errno != EEXIST) {
            *why = "cannot create the temporary file in the file's directory";
            return NULL;
        }
    }
    *why = "cannot create a temporary file with a fresh name";
    return NULL;
}

/* Flushes the file (and, for a directory, its entries) to disk. 0 or -1. */
static int sync_path(const char *p, int is_dir)
{
    int fd = open(p, (is_dir ? O_RDONLY | O_DIRECTORY : O_RDONLY | O_NOFOLLOW) | O_CLOEXEC);
    if (fd < 0) return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

/* trace_export(trace, path [, 'replace']) -> rows written */
static void fn_trace_export(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    tsql_catalog *c = sqlite3_user_data(ctx);
    const char *path = (const char *)sqlite3_value_text(argv[1]);
    if (!path || !*path) {
        sqlite3_result_error(ctx, "trace_export(trace, path [, 'replace']): path must be text", -1);
        return;
    }
    int replace = 0;
    if (argc > 2) {
        const char *mode = (const char *)sqlite3_value_text(argv[2]);
        if (!mode || strcmp(mode, "replace") != 0) {
            sqlite3_result_error(ctx, "trace_export: the third argument can only be 'replace'", -1);
            return;
        }
        replace = 1;
    }
    char *zErr = NULL;
    tsql_entry *e = tsql_catalog_resolve(c, argv[0], 1, &zErr);
    if (!e) {
        sqlite3_result_error(ctx, zErr ? zErr : "tracesql: out of memory", -1);
        sqlite3_free(zErr);
        return;
    }
    /* checked once the trace is open, so that its own source counts too */
    const char *why = target_problem(c, path, replace);
    if (why) {
        char *m = sqlite3_mprintf("tracesql: %s: %s", path, why);
        sqlite3_result_error(ctx, m ? m : "tracesql: cannot export there", -1);
        sqlite3_free(m);
        tsql_entry_unref(e);
        return;
    }
    exporter x = {.src = sqlite3_context_db_handle(ctx), .trace_id = e->id, .entry = e};
    char dir[4096];
    if (dir_of(path, dir, sizeof dir)) {
        const char *slash = strrchr(path, '/');
        remove_stale_temps(dir, slash ? slash + 1 : path);
    }
    /* a fresh random name per export: two exports to one path never meet, and no one
     * can plant a file or link under it */
    const char *tmp_why = NULL;
    char *tmp = create_temp(path, &tmp_why);
    int rc = SQLITE_ERROR;
    if (!tmp) {
        set_err(&x, sqlite3_mprintf("%s", tmp_why));
    } else {
        rc = sqlite3_open_v2(tmp, &x.dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL);
        if (rc != SQLITE_OK)
            set_err(&x, sqlite3_mprintf("cannot create: %s", x.dst ? sqlite3_errmsg(x.dst) : "out of memory"));
        else
            rc = export_all(&x);
        if (sqlite3_close(x.dst) != SQLITE_OK && rc == SQLITE_OK) {
            rc = SQLITE_ERROR;
            set_err(&x, sqlite3_mprintf("closing the new file failed"));
        }
        if (rc == SQLITE_OK && sync_path(tmp, 0) != 0) {
            rc = SQLITE_ERROR;
            set_err(&x, sqlite3_mprintf("cannot flush the new file to disk: %s", strerror(errno)));
        }
        /* rename replaces a name, never writes through it */
        if (rc == SQLITE_OK && rename(tmp, path) != 0) {
            rc = SQLITE_ERROR;
            set_err(&x, sqlite3_mprintf("cannot rename %s into place: %s", tmp, strerror(errno)));
        }
        if (rc == SQLITE_OK) sync_path(dir, 1); /* the rename itself; best effort */
        if (rc != SQLITE_OK) unlink(tmp);
    }
    tsql_entry_unref(e);
    if (rc == SQLITE_OK) {
        sqlite3_result_int64(ctx, x.rows);
    } else {
        char *m = sqlite3_mprintf("tracesql: %s: export failed: %s", path, x.err ? x.err : "out of memory");
        sqlite3_result_error(ctx, m ? m : "tracesql: export failed", -1);
        sqlite3_free(m);
        if (rc == SQLITE_NOMEM) sqlite3_result_error_nomem(ctx);
    }
    sqlite3_free(x.err);
    sqlite3_free(tmp);
}

static const tsql_fn_def export_fns[] = {
    {"trace_export", 2, TSQL_TOP_LEVEL, fn_trace_export, NULL, NULL},
    {"trace_export", 3, TSQL_TOP_LEVEL, fn_trace_export, NULL, NULL},
};

const tsql_registration tsql_reg_export = {.what = "trace_export", TSQL_FNS(export_fns)};
