/*
 * catalog.c — the traces open on one connection (catalog.h), and trace_open(),
 * trace_close() and tracesql_config(), which change them. (The `traces` table that
 * lists them is ext/vtab/traces.c.)
 *
 *   SELECT trace_open('run.json.gz', 'baseline');   -- -> trace_id
 *   SELECT * FROM traces;
 *   SELECT trace_close('baseline');
 *
 * trace_open reads files, so it is SQLITE_DIRECTONLY: a view or trigger in an
 * untrusted database cannot call it.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/source.h"
#include "load/load.h"
#include "catalog/kernel_op_rules.h"
#include "catalog/load_error.h"
#include "catalog/progress.h"
#include "catalog/registration.h"

tsql_catalog *tsql_catalog_new(sqlite3 *db)
{
    tsql_catalog *c = sqlite3_malloc(sizeof *c);
    if (!c) return NULL;
    memset(c, 0, sizeof *c);
    c->next_id = 1;
    c->progress = -1;
    c->db = db;
    return c;
}

void tsql_entry_ref(tsql_entry *e)
{
    e->refs++;
}

void tsql_entry_unref(tsql_entry *e)
{
    if (!e || --e->refs > 0) return;
    tsql_trace_free(e->trace);
    sqlite3_free(e->label);
    sqlite3_free(e);
}

void tsql_catalog_free(void *p)
{
    tsql_catalog *c = p;
    if (!c) return;
    for (int i = 0; i < c->nopen; i++) tsql_entry_unref(c->open[i]);
    sqlite3_free(c->open);
    tsql_kop_cache_free(c->kernel_op);
    sqlite3_free(c);
}

/* Default label: the file name without directories and trace extensions. */
static char *default_label(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    static const char *const ext[] = {".json.gz", ".json.zip", ".json", ".gz", ".zip"};
    for (size_t i = 0; i < sizeof ext / sizeof *ext; i++) {
        size_t k = strlen(ext[i]);
        if (n > k && strcmp(b + n - k, ext[i]) == 0) {
            n -= k;
            break;
        }
    }
    return sqlite3_mprintf("%.*s", (int)n, b);
}

static int add_entry(tsql_catalog *c, tsql_entry *e)
{
    if (c->nopen == c->capopen) {
        int nc = c->capopen ? c->capopen * 2 : 8;
        tsql_entry **no = sqlite3_realloc64(c->open, (sqlite3_uint64)nc * sizeof *no);
        if (!no) return SQLITE_NOMEM;
        c->open = no;
        c->capopen = nc;
    }
    c->open[c->nopen++] = e;
    return SQLITE_OK;
}

/* Why path cannot be opened, and what to do about it (errno is from the failed call;
 * st is valid when stat succeeded). */
static char *open_error(const char *path, const struct stat *st)
{
    int e = errno;
    const char *why;
    if (e == 0 && S_ISDIR(st->st_mode))
        why = "is a directory: trace_open takes one trace file (.json, .json.gz or .zip); "
              "for the rank traces of a job use trace_open_dir(dir), or open each file by its path";
    else if (e == 0 && !S_ISREG(st->st_mode))
        why = TSQL_NOT_REGULAR_MSG;
    else if (e == ENOENT)
        why = "cannot open: no such file; check the path (a relative path starts at the "
              "working directory of the process that loaded tracesql)";
    else if (e == ENOTDIR)
        why = "cannot open: a part of the path before the file name is not a directory";
    else if (e == EACCES)
        why = "cannot open: permission denied; the file, or a directory on its path, is not "
              "readable by this process (check with ls -l, or copy the trace somewhere readable)";
    else
        why = NULL;
    if (why) return sqlite3_mprintf("tracesql: %s: %s", path, why);
    return sqlite3_mprintf("tracesql: %s: cannot open: %s", path, strerror(e));
}

/* The entry of an unchanged file (same device, inode, size and mtime), or NULL. With
 * label, the entry is relabelled. st receives the file's stat. -1 if it cannot be read. */
static int find_file(tsql_catalog *c, const char *path, const char *label, struct stat *st, tsql_entry **out)
{
    *out = NULL;
    if (stat(path, st) != 0) return -1;
    int64_t mt = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
    for (int i = 0; i < c->nopen; i++) {
        tsql_entry *e = c->open[i];
        if (e->dev == (int64_t)st->st_dev && e->ino == (int64_t)st->st_ino &&
            e->size == (int64_t)st->st_size && e->mtime_ns == mt) {
            if (label && strcmp(label, e->label) != 0) {
                char *nl = sqlite3_mprintf("%s", label);
                if (nl) { /* out of memory: the old label stays */
                    sqlite3_free(e->label);
                    e->label = nl;
                }
            }
            *out = e;
            return 0;
        }
    }
    return 0;
}

tsql_entry *tsql_catalog_find_file(tsql_catalog *c, const char *path)
{
    struct stat st;
    tsql_entry *e = NULL;
    return find_file(c, path, NULL, &st, &e) == 0 ? e : NULL;
}

static tsql_entry *adopt(tsql_catalog *c, const char *path, const char *label, tsql_trace *t,
                         const struct stat *st, char **pzErr)
{
    tsql_entry *e = sqlite3_malloc(sizeof *e);
    char *lab = label ? sqlite3_mprintf("%s", label) : default_label(path);
    if (!e || !lab || add_entry(c, e) != SQLITE_OK) {
        sqlite3_free(e);
        sqlite3_free(lab);
        tsql_trace_free(t);
        *pzErr = sqlite3_mprintf("tracesql: out of memory");
        return NULL;
    }
    e->id = c->next_id++;
    e->label = lab;
    e->trace = t;
    e->refs = 1;
    e->dev = (int64_t)st->st_dev;
    e->ino = (int64_t)st->st_ino;
    e->size = (int64_t)st->st_size;
    e->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
    return e;
}

tsql_entry *tsql_catalog_adopt(tsql_catalog *c, const char *path, const char *label, tsql_trace *t,
                               char **pzErr)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        tsql_trace_free(t);
        *pzErr = sqlite3_mprintf("tracesql: %s: cannot open: no such file or not readable", path);
        return NULL;
    }
    return adopt(c, path, label, t, &st, pzErr);
}

void tsql_catalog_remove(tsql_catalog *c, tsql_entry *e)
{
    for (int i = 0; i < c->nopen; i++)
        if (c->open[i] == e) {
            memmove(&c->open[i], &c->open[i + 1], (size_t)(c->nopen - i - 1) * sizeof *c->open);
            c->nopen--;
            tsql_entry_unref(e); /* the catalog's reference */
            return;
        }
}

tsql_entry *tsql_catalog_open(tsql_catalog *c, const char *path, const char *label, char **pzErr)
{
    struct stat st;
    tsql_entry *found = NULL;
    errno = 0;
    if (find_file(c, path, label, &st, &found) != 0 || !S_ISREG(st.st_mode) || access(path, R_OK) != 0) {
        *pzErr = open_error(path, &st);
        return NULL;
    }
    if (found) return found;
    tsql_load_watch watch;
    tsql_load_watch_start(&watch, c, path, (int64_t)st.st_size);
    tsql_load_opts opts = {.mem_limit = c->mem_limit, .progress = tsql_load_watch_progress,
                           .progress_ctx = &watch};
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load(path, &opts, &err);
    watch.show = watch.show && t; /* the error says the rest */
    tsql_load_watch_done(&watch, t);
    watch.show = 0;
    if (t && tsql_load_watch_progress(&watch, t->json_bytes, t->n)) {
        /* interrupted after the last check (tree build): keep nothing */
        tsql_trace_free(t);
        t = NULL;
        tsql_error_set(&err, TSQL_EINTR, -1, "interrupted");
    }
    tsql_load_watch_end(&watch);
    if (!t) {
        *pzErr = tsql_format_error(path, &err);
        return NULL;
    }
    return adopt(c, path, label, t, &st, pzErr);
}

tsql_entry *tsql_catalog_resolve(tsql_catalog *c, sqlite3_value *spec, int may_open, char **pzErr)
{
    int type = sqlite3_value_type(spec);
    int64_t id = 0;
    if (type == SQLITE_FLOAT) {
        /* 2.0 names trace 2, as trace_id = 2.0 does; 2.5 names none */
        double d = sqlite3_value_double(spec);
        if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && d == (double)(int64_t)d) {
            type = SQLITE_INTEGER;
            id = (int64_t)d;
        } else {
            *pzErr = sqlite3_mprintf("tracesql: no open trace with trace_id %s (see SELECT * FROM traces)",
                                     sqlite3_value_text(spec));
            return NULL;
        }
    } else if (type == SQLITE_INTEGER) {
        id = sqlite3_value_int64(spec);
    }
    if (type == SQLITE_INTEGER) {
        for (int i = 0; i < c->nopen; i++)
            if (c->open[i]->id == id) {
                tsql_entry_ref(c->open[i]);
                return c->open[i];
            }
        *pzErr = sqlite3_mprintf("tracesql: no open trace with trace_id %lld (see SELECT * FROM traces)",
                                 (long long)id);
        return NULL;
    }
    if (type != SQLITE_TEXT) {
        /* say what was given: a NULL from a join, a blob from a cast */
        if (type == SQLITE_NULL)
            *pzErr = sqlite3_mprintf("tracesql: the trace argument is NULL; a trace is named by its trace_id, "
                                     "label or path (see SELECT trace_id, label, path FROM traces)");
        else
            *pzErr = sqlite3_mprintf("tracesql: the trace argument is a BLOB (%d bytes); a trace is named by "
                                     "its trace_id (integer), label or path (text)",
                                     sqlite3_value_bytes(spec));
        return NULL;
    }
    const char *s = (const char *)sqlite3_value_text(spec);
    tsql_entry *found = NULL;
    int nfound = 0;
    for (int i = 0; i < c->nopen; i++)
        if (strcmp(c->open[i]->label, s) == 0) {
            found = c->open[i];
            nfound++;
        }
    if (nfound > 1) {
        *pzErr = sqlite3_mprintf("tracesql: label '%s' names %d open traces; use a trace_id", s, nfound);
        return NULL;
    }
    if (!found)
        for (int i = 0; i < c->nopen; i++)
            if (strcmp(c->open[i]->trace->path, s) == 0) found = c->open[i];
    if (!found && may_open) {
        found = tsql_catalog_open(c, s, NULL, pzErr);
        struct stat st;
        if (!found && stat(s, &st) != 0) {
            /* neither a label nor a file: most often a mistyped label, so say which exist */
            sqlite3_free(*pzErr);
            char *labels = sqlite3_mprintf("%s", "");
            for (int i = 0; labels && i < c->nopen && i < 8; i++) {
                char *more = sqlite3_mprintf("%s%s'%s'", labels, i ? ", " : "", c->open[i]->label);
                sqlite3_free(labels);
                labels = more;
            }
            *pzErr = sqlite3_mprintf("tracesql: no open trace is labelled '%s', and no file of that name "
                                     "exists (open: %s%s; see SELECT * FROM traces)",
                                     s, c->nopen ? (labels ? labels : "") : "none", c->nopen > 8 ? ", ..." : "");
            sqlite3_free(labels);
        }
    }
    if (!found) {
        if (!*pzErr)
            *pzErr = sqlite3_mprintf("tracesql: no open trace is labelled or located '%s'", s);
        return NULL;
    }
    tsql_entry_ref(found);
    return found;
}

/* A label the user gives names one trace: the error if it is already another open
 * file's, else NULL. The same file opened again keeps its entry. (Default labels, the
 * file name, may repeat, as run.json and run.json.gz do; naming such a label is then an
 * error that asks for the trace_id.) */
static char *label_taken(const tsql_catalog *c, const char *path, const char *l)
{
    struct stat st;
    if (!l || stat(path, &st) != 0) return NULL; /* the open says what is wrong with the path */
    char *msg = NULL;
    for (int i = 0; i < c->nopen && !msg; i++) {
        const tsql_entry *e = c->open[i];
        if (strcmp(e->label, l) != 0) continue;
        if (e->dev == (int64_t)st.st_dev && e->ino == (int64_t)st.st_ino) continue;
        msg = sqlite3_mprintf("tracesql: %s: the label '%s' is already trace_id %lld (%s); give this trace "
                              "another label: trace_open('%q', 'other_label')",
                              path, l, (long long)e->id, e->trace->path, path);
    }
    return msg;
}

/* trace_open(path [, label]) -> trace_id */
static void fn_trace_open(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    tsql_catalog *c = sqlite3_user_data(ctx);
    const char *path = (const char *)sqlite3_value_text(argv[0]);
    if (!path) {
        sqlite3_result_error(ctx, "trace_open(path [, label]): path must be text", -1);
        return;
    }
    const char *label = argc > 1 ? (const char *)sqlite3_value_text(argv[1]) : NULL;
    if (label && !*label) {
        sqlite3_result_error(ctx, "trace_open(path, label): the label must be non-empty text "
                                  "(or leave it out: the file name is the label)", -1);
        return;
    }
    char *zErr = label_taken(c, path, label);
    tsql_entry *e = zErr ? NULL : tsql_catalog_open(c, path, label, &zErr);
    if (!e) {
        sqlite3_result_error(ctx, zErr ? zErr : "tracesql: out of memory", -1);
        tsql_load_watch quiet = {.db = c->db};
        if (tsql_load_watch_progress(&quiet, 0, 0)) sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
        tsql_load_watch_end(&quiet);
        sqlite3_free(zErr);
        return;
    }
    sqlite3_result_int64(ctx, e->id);
}

/* trace_close(trace) -> 1 if it was open */
static void fn_trace_close(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    tsql_catalog *c = sqlite3_user_data(ctx);
    char *zErr = NULL;
    tsql_entry *e = tsql_catalog_resolve(c, argv[0], 0, &zErr);
    if (!e) {
        sqlite3_free(zErr);
        sqlite3_result_int(ctx, 0);
        return;
    }
    tsql_catalog_remove(c, e);
    tsql_entry_unref(e); /* resolve's reference */
    sqlite3_result_int(ctx, 1);
}

/* tracesql_config(key [, value]) -> current value. Keys: memory_limit_mb, progress. */
#define TSQL_MEM_LIMIT_MAX_MB (1 << 30)

static void fn_config(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    tsql_catalog *c = sqlite3_user_data(ctx);
    const char *key = (const char *)sqlite3_value_text(argv[0]);
    if (key && strcmp(key, "memory_limit_mb") == 0) {
        if (argc > 1) {
            /* an integer, and one whose bytes fit: NULL, text or 2^44 must not wrap to
             * "no limit" */
            sqlite3_int64 v = sqlite3_value_int64(argv[1]);
            if (sqlite3_value_type(argv[1]) != SQLITE_INTEGER || v < 0 || v > TSQL_MEM_LIMIT_MAX_MB) {
                char *m = sqlite3_mprintf("tracesql_config: memory_limit_mb must be an integer from 0 (no "
                                          "limit) to %d (1 PiB); got %s%s%s",
                                          TSQL_MEM_LIMIT_MAX_MB,
                                          sqlite3_value_type(argv[1]) == SQLITE_TEXT ? "'" : "",
                                          sqlite3_value_type(argv[1]) == SQLITE_BLOB ? "a BLOB"
                                          : sqlite3_value_type(argv[1]) == SQLITE_NULL ? "NULL"
                                          : (const char *)sqlite3_value_text(argv[1]),
                                          sqlite3_value_type(argv[1]) == SQLITE_TEXT ? "'" : "");
                sqlite3_result_error(ctx, m ? m : "tracesql_config: bad memory_limit_mb", -1);
                sqlite3_free(m);
                return;
            }
            c->mem_limit = (size_t)v << 20;
        }
        sqlite3_result_int64(ctx, (sqlite3_int64)(c->mem_limit >> 20));
        return;
    }
    if (key && strcmp(key, "progress") == 0) {
        if (argc > 1) {
            sqlite3_int64 v = sqlite3_value_int64(argv[1]);
            if (sqlite3_value_type(argv[1]) != SQLITE_INTEGER || (v != 0 && v != 1)) {
                sqlite3_result_error(ctx, "tracesql_config: progress is 1 (print load progress to "
                                          "stderr) or 0 (quiet)", -1);
                return;
            }
            c->progress = (int)v;
        }
        if (c->progress >= 0) {
            sqlite3_result_int(ctx, c->progress);
        } else {
            const char *env = getenv("TSQL_PROGRESS");
            sqlite3_result_int(ctx, env && *env && *env != '0');
        }
        return;
    }
    sqlite3_result_error(ctx, "tracesql_config: unknown key (known: memory_limit_mb, progress)", -1);
}

static int register_catalog(sqlite3 *db, tsql_catalog *c)
{
    /* the first registration owns the catalog: freed with the connection */
    int rc = sqlite3_create_function_v2(db, "trace_open", 1, tsql_fn_flags(TSQL_TOP_LEVEL), c,
                                        fn_trace_open, NULL, NULL, tsql_catalog_free);
    if (rc != SQLITE_OK) return rc;
    static const tsql_fn_def fns[] = {
        {"trace_open", 2, TSQL_TOP_LEVEL, fn_trace_open, NULL, NULL},
        {"trace_close", 1, TSQL_TOP_LEVEL, fn_trace_close, NULL, NULL},
        {"tracesql_config", 1, TSQL_TOP_LEVEL, fn_config, NULL, NULL},
        {"tracesql_config", 2, TSQL_TOP_LEVEL, fn_config, NULL, NULL},
    };
    return tsql_register_fns(db, fns, sizeof fns / sizeof *fns, c);
}

/* the entry point's first family: it owns the catalog */
const tsql_registration tsql_reg_catalog = {.what = "catalog (trace_open, trace_close, tracesql_config)",
                                            .add = register_catalog};
