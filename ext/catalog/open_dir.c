/*
 * open_dir.c — trace_open_dir(): every rank's trace of a job in one call, loaded by two
 * threads, one file each, so both cores parse.
 *
 *   SELECT trace_open_dir('run/traces');                        -- '[1,2,3,4]'
 *   SELECT trace_open_dir('run/rank_[0-9]*.json.gz', 'worker(\d+)');
 *   SELECT trace_open_dir('["a/rank0.json", "b/rank1.json"]');  -- a JSON array of files
 *   SELECT trace_open_dir('run/traces', NULL, 'collectives');    -- events not kept
 *
 * The rank of a file is its distributedInfo.rank, else the first group of rank_regex
 * (default TraceLens's rank[\[\-_/]?(?P<rank>\d+)) found in its base name, then in its
 * path; a file with neither is an error naming it, and so are two files of one rank.
 * Mode 'traces' (default) keeps every trace open and returns their trace ids in rank
 * order as a JSON array. Mode 'collectives' copies each rank's collective rows into the
 * TEMP tables coll_rank_import / coll_rank_info_import (sql/collectives/nccl_rows.sql)
 * as soon as it is loaded, then frees the trace: memory holds at most the traces being
 * loaded (one per thread, plus one waiting) and the collective rows; it returns the
 * ranks imported. Reference: docs/collectives.md.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <dirent.h>
#include <glob.h>
#include <pthread.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "catalog/load_error.h"
#include "catalog/progress.h"
#include "catalog/registration.h"
#include "load/load.h"

#define LOADERS 2 /* threads, one file each */
#define AHEAD 1   /* loaded traces that may wait for the main thread */

/* TraceLens's default rank regex, as a POSIX ERE */
static const char default_rank_regex[] = "rank[][_/-]?([0-9]+)";

typedef struct job_file {
    char *path;
    tsql_trace *trace; /* loaded, or NULL */
    tsql_error err;
    int state;         /* 0 waiting, 1 loading, 2 done (or open already) */
    int64_t rank, id;
} job_file;

typedef struct job {
    job_file *f;
    size_t n, next, consumed;
    int abort;
    size_t mem_limit;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} job;

static int job_progress(void *ctx, int64_t bytes, int64_t events)
{
    (void)bytes;
    (void)events;
    job *j = ctx;
    pthread_mutex_lock(&j->mu);
    int a = j->abort;
    pthread_mutex_unlock(&j->mu);
    return a;
}

static void *loader(void *arg)
{
    job *j = arg;
    for (;;) {
        pthread_mutex_lock(&j->mu);
        /* bounded look-ahead: the main thread frees (or keeps) traces in file order */
        while (!j->abort && j->next < j->n && j->next >= j->consumed + LOADERS + AHEAD)
            pthread_cond_wait(&j->cv, &j->mu);
        while (j->next < j->n && j->f[j->next].state == 2) j->next++; /* already open */
        if (j->abort || j->next >= j->n) {
            pthread_mutex_unlock(&j->mu);
            return NULL;
        }
        size_t i = j->next++;
        j->f[i].state = 1;
        pthread_mutex_unlock(&j->mu);

        tsql_load_opts opts = {.mem_limit = j->mem_limit, .progress = job_progress, .progress_ctx = j,
                               .threads = 1};
        tsql_error err = {0};
        tsql_trace *t = tsql_trace_load(j->f[i].path, &opts, &err);

        pthread_mutex_lock(&j->mu);
        j->f[i].trace = t;
        j->f[i].err = err;
        j->f[i].state = 2;
        pthread_cond_broadcast(&j->cv);
        pthread_mutex_unlock(&j->mu);
    }
}

static int has_trace_suffix(const char *name)
{
    static const char *const ext[] = {".json", ".json.gz", ".gz", ".zip"};
    size_t n = strlen(name);
    if (name[0] == '.') return 0;
    for (size_t i = 0; i < sizeof ext / sizeof *ext; i++) {
        size_t k = strlen(ext[i]);
        if (n > k && strcmp(name + n - k, ext[i]) == 0) return 1;
    }
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_rank(const void *a, const void *b)
{
    const job_file *x = a, *y = b;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The files of a directory (trace suffixes, not hidden), or of a glob pattern, sorted.
 * Returns the count, or -1 with *pzErr set. */
static long list_files(const char *spec, char ***out, char **pzErr)
{
    char **v = NULL;
    size_t n = 0, cap = 0;
    struct stat st;
    if (spec[0] == '[') { /* a JSON array of paths */
        cJSON *a = cJSON_Parse(spec);
        int na = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : -1;
        if (na < 0) {
            cJSON_Delete(a);
            *pzErr = sqlite3_mprintf("tracesql: trace_open_dir: a list of files is a JSON array of paths");
            return -1;
        }
        v = sqlite3_malloc64((size_t)(na ? na : 1) * sizeof *v);
        int oom = !v;
        for (int i = 0; !oom && i < na; i++) {
            const char *p = cJSON_GetStringValue(cJSON_GetArrayItem(a, i));
            if (!p) continue;
            if ((v[n] = sqlite3_mprintf("%s", p)) == NULL) oom = 1;
            else n++;
        }
        cJSON_Delete(a);
        if (oom) {
            for (size_t i = 0; i < n; i++) sqlite3_free(v[i]);
            sqlite3_free(v);
            *pzErr = sqlite3_mprintf("tracesql: out of memory");
            return -1;
        }
        if (n) {
            *out = v; /* in the order given */
            return (long)n;
        }
    } else if (stat(spec, &st) == 0 && S_ISDIR(st.st_mode)) {
        DIR *d = opendir(spec);
        if (!d) {
            *pzErr = sqlite3_mprintf("tracesql: trace_open_dir: %s: cannot read the directory", spec);
            return -1;
        }
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (!has_trace_suffix(de->d_name)) continue;
            char *p = sqlite3_mprintf("%s%s%s", spec, spec[strlen(spec) - 1] == '/' ? "" : "/", de->d_name);
            struct stat fs;
            if (p && (stat(p, &fs) != 0 || !S_ISREG(fs.st_mode))) {
                sqlite3_free(p);
                continue;
            }
            if (p && n == cap) {
                size_t nc = cap ? cap * 2 : 16;
                char **nv = sqlite3_realloc64(v, nc * sizeof *nv);
                if (!nv) {
                    sqlite3_free(p);
                    p = NULL;
                } else {
                    v = nv;
                    cap = nc;
                }
            }
            if (!p) {
                closedir(d);
                for (size_t i = 0; i < n; i++) sqlite3_free(v[i]);
                sqlite3_free(v);
                *pzErr = sqlite3_mprintf("tracesql: out of memory");
                return -1;
            }
            v[n++] = p;
        }
        closedir(d);
    } else {
        glob_t g;
        int rc = glob(spec, 0, NULL, &g);
        if (rc == 0) {
            v = sqlite3_malloc64((g.gl_pathc ? g.gl_pathc : 1) * sizeof *v);
            int oom = !v;
            for (size_t i = 0; !oom && i < g.gl_pathc; i++) {
                if (stat(g.gl_pathv[i], &st) != 0 || !S_ISREG(st.st_mode)) continue;
                if ((v[n] = sqlite3_mprintf("%s", g.gl_pathv[i])) == NULL) oom = 1;
                else n++;
            }
            globfree(&g);
            if (oom) {
                for (size_t i = 0; i < n; i++) sqlite3_free(v[i]);
                sqlite3_free(v);
                *pzErr = sqlite3_mprintf("tracesql: out of memory");
                return -1;
            }
        } else if (rc != GLOB_NOMATCH) {
            *pzErr = sqlite3_mprintf("tracesql: trace_open_dir: %s: cannot read the pattern's directories", spec);
            return -1;
        }
    }
    if (n == 0) {
        sqlite3_free(v);
        *pzErr = sqlite3_mprintf("tracesql: trace_open_dir: %s: no trace files (a directory of .json, "
                                 ".json.gz or .zip files, or a glob pattern)", spec);
        return -1;
    }
    qsort(v, n, sizeof *v, cmp_str);
    *out = v;
    return (long)n;
}

/* Python's (?P<name>...) and \d in a POSIX ERE: the forms TraceLens's users write. */
static char *to_ere(const char *rx)
{
    size_t n = strlen(rx);
    char *o = sqlite3_malloc64(n * 5 + 1);
    if (!o) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (rx[i] == '(' && rx[i + 1] == '?' && rx[i + 2] == 'P' && rx[i + 3] == '<') {
            const char *e = strchr(rx + i + 4, '>');
            if (e) {
                o[k++] = '(';
                i = (size_t)(e - rx);
                continue;
            }
        }
        if (rx[i] == '\\' && rx[i + 1] == 'd') {
            memcpy(o + k, "[0-9]", 5);
            k += 5;
            i++;
            continue;
        }
        o[k++] = rx[i];
    }
    o[k] = 0;
    return o;
}

/* The rank in s by the first group of re (or the whole match), or -1. */
static int64_t rank_in(const regex_t *re, const char *s)
{
    regmatch_t m[2];
    if (regexec(re, s, 2, m, 0) != 0) return -1;
    regmatch_t g = m[1].rm_so >= 0 ? m[1] : m[0];
    int64_t r = 0;
    int digits = 0;
    for (regoff_t i = g.rm_so; i < g.rm_eo; i++) {
        if (s[i] < '0' || s[i] > '9' || r > 100000000) return -1;
        r = r * 10 + (s[i] - '0');
        digits++;
    }
    return digits ? r : -1;
}

static int64_t rank_of_path(const regex_t *re, const char *path)
{
    const char *b = strrchr(path, '/');
    int64_t r = rank_in(re, b ? b + 1 : path);
    return r >= 0 ? r : rank_in(re, path);
}

/* Has the connection been interrupted, or has the application's progress handler asked
 * to stop? (progress.c's probe; the loader threads cannot run SQL, this thread does.) */
static int interrupted(tsql_load_watch *w)
{
    return tsql_load_watch_progress(w, 0, 0);
}

static int exec_for(sqlite3 *db, const char *sql, int64_t id, char **pzErr)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, id);
        rc = sqlite3_step(st);
        if (rc == SQLITE_DONE) rc = SQLITE_OK;
    }
    if (rc != SQLITE_OK) *pzErr = sqlite3_mprintf("tracesql: trace_open_dir: %s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return rc;
}

/* trace_open_dir(dir_or_glob [, rank_regex [, mode]]) -> JSON array */
static void fn_trace_open_dir(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    tsql_catalog *c = sqlite3_user_data(ctx);
    tsql_load_watch watch = {.db = c->db}; /* its probe, released at done */
    const char *spec = (const char *)sqlite3_value_text(argv[0]);
    const char *rxs = argc > 1 ? (const char *)sqlite3_value_text(argv[1]) : NULL;
    const char *mode = argc > 2 ? (const char *)sqlite3_value_text(argv[2]) : NULL;
    if (!spec) {
        sqlite3_result_error(ctx, "trace_open_dir(dir_or_glob [, rank_regex [, mode]]): dir_or_glob must be text", -1);
        return;
    }
    int collectives = 0;
    if (mode && strcmp(mode, "collectives") == 0) collectives = 1;
    else if (mode && strcmp(mode, "traces") != 0) {
        sqlite3_result_error(ctx, "trace_open_dir: mode is 'traces' (keep every trace open) or "
                                  "'collectives' (keep only the collective rows)", -1);
        return;
    }
    char *zErr = NULL;
    regex_t re;
    char *ere = rxs ? to_ere(rxs) : NULL;
    if (rxs && !ere) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (regcomp(&re, ere ? ere : default_rank_regex, REG_EXTENDED) != 0) {
        char *m = sqlite3_mprintf("tracesql: trace_open_dir: rank_regex '%s' is not a valid regular expression", rxs);
        sqlite3_result_error(ctx, m ? m : "tracesql: out of memory", -1);
        sqlite3_free(m);
        sqlite3_free(ere);
        return;
    }
    sqlite3_free(ere);

    char **paths = NULL;
    long nf = list_files(spec, &paths, &zErr);
    job j = {0};
    pthread_t th[LOADERS];
    int nth = 0;
    tsql_entry **kept = NULL;
    int64_t *ranks = NULL;
    size_t nkept = 0;
    sqlite3_str *out = NULL;
    if (nf < 0) goto done;

    j.n = (size_t)nf;
    j.mem_limit = c->mem_limit;
    j.f = sqlite3_malloc64(j.n * sizeof *j.f);
    kept = sqlite3_malloc64(j.n * sizeof *kept);
    ranks = sqlite3_malloc64(j.n * sizeof *ranks);
    if (!j.f || !kept || !ranks) {
        zErr = sqlite3_mprintf("tracesql: out of memory");
        goto done;
    }
    memset(j.f, 0, j.n * sizeof *j.f);
    for (size_t i = 0; i < j.n; i++) {
        j.f[i].path = paths[i];
        /* a file open and unchanged is not loaded again */
        if (tsql_catalog_find_file(c, paths[i])) j.f[i].state = 2;
    }
    pthread_mutex_init(&j.mu, NULL);
    pthread_cond_init(&j.cv, NULL);
    for (; nth < LOADERS && (size_t)nth < j.n; nth++)
        if (pthread_create(&th[nth], NULL, loader, &j) != 0) break;
    if (nth == 0) {
        zErr = sqlite3_mprintf("tracesql: trace_open_dir: cannot start a loader thread");
        goto stop;
    }

    for (size_t i = 0; i < j.n; i++) {
        /* before each file, not only while waiting: the loaders may be ahead of us */
        if (interrupted(&watch)) {
            zErr = sqlite3_mprintf("tracesql: trace_open_dir: interrupted");
            goto stop;
        }
        tsql_entry *e = tsql_catalog_find_file(c, j.f[i].path);
        tsql_trace *t = NULL;
        if (!e) {
            pthread_mutex_lock(&j.mu);
            while (j.f[i].state != 2) {
                /* wake up now and then to notice sqlite3_interrupt() (Ctrl-C) */
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                ts.tv_nsec += 100000000;
                if (ts.tv_nsec >= 1000000000) {
                    ts.tv_sec++;
                    ts.tv_nsec -= 1000000000;
                }
                pthread_cond_timedwait(&j.cv, &j.mu, &ts);
                if (j.f[i].state != 2 && interrupted(&watch)) {
                    pthread_mutex_unlock(&j.mu);
                    zErr = sqlite3_mprintf("tracesql: trace_open_dir: interrupted");
                    goto stop;
                }
            }
            t = j.f[i].trace;
            j.f[i].trace = NULL;
            pthread_mutex_unlock(&j.mu);
            if (!t) {
                zErr = tsql_format_error(j.f[i].path, &j.f[i].err);
                goto stop;
            }
        }
        tsql_trace *rt = e ? e->trace : t;
        int64_t rank = rt->rank != TSQL_NULL ? rt->rank : rank_of_path(&re, j.f[i].path);
        if (rank < 0) {
            tsql_trace_free(t);
            zErr = sqlite3_mprintf("tracesql: trace_open_dir: %s: no rank (no distributedInfo.rank, and "
                                   "the file name does not match the rank regex '%s')",
                                   j.f[i].path, rxs ? rxs : "rank[\\[\\-_/]?(?P<rank>\\d+)");
            goto stop;
        }
        for (size_t k = 0; k < i; k++)
            if (j.f[k].rank == rank) {
                tsql_trace_free(t);
                zErr = sqlite3_mprintf("tracesql: trace_open_dir: %s and %s are both rank %lld",
                                       j.f[k].path, j.f[i].path, (long long)rank);
                goto stop;
            }
        j.f[i].rank = rank;
        int adopted = 0;
        if (!e) {
            t->rank = rank; /* from the file name: the tables show it as the trace's rank */
            e = tsql_catalog_adopt(c, j.f[i].path, NULL, t, &zErr);
            if (!e) goto stop;
            kept[nkept++] = e;
            adopted = 1;
        } else if (rt->rank == TSQL_NULL) {
            rt->rank = rank;
        }
        j.f[i].id = e->id;
        if (collectives) {
            int rc = exec_for(c->db,
                              "INSERT INTO temp.coll_rank_import SELECT NULL, rank, uid, name, pg, pg_ranks, "
                              "collective_name, group_size, dtype, in_nelems, out_nelems, in_split, out_split, "
                              "stream, seq, ts, dur, ts_ns, dur_ns FROM temp.nccl_rank_rows WHERE trace_id = ?",
                              e->id, &zErr);
            if (rc == SQLITE_OK)
                rc = exec_for(c->db,
                              "INSERT INTO temp.coll_rank_info_import SELECT NULL, rank, world_size, devices, "
                              "source FROM temp.coll_trace_ranks WHERE trace_id = ?",
                              e->id, &zErr);
            if (adopted) { /* a trace the user had open stays open */
                tsql_catalog_remove(c, e);
                nkept--;
            }
            if (rc != SQLITE_OK) goto stop;
        }
        pthread_mutex_lock(&j.mu);
        j.consumed = i + 1;
        pthread_cond_broadcast(&j.cv);
        pthread_mutex_unlock(&j.mu);
    }

stop:
    pthread_mutex_lock(&j.mu);
    if (zErr) j.abort = 1;
    pthread_cond_broadcast(&j.cv);
    pthread_mutex_unlock(&j.mu);
    for (int k = 0; k < nth; k++) pthread_join(th[k], NULL);
    for (size_t i = 0; i < j.n; i++) tsql_trace_free(j.f[i].trace);
    pthread_mutex_destroy(&j.mu);
    pthread_cond_destroy(&j.cv);
    if (zErr) {
        /* all or nothing: the traces this call opened are closed again */
        for (size_t k = 0; k < nkept; k++) tsql_catalog_remove(c, kept[k]);
        goto done;
    }
    /* the result: trace ids (or, for mode 'collectives', ranks) in rank order */
    out = sqlite3_str_new(c->db);
    sqlite3_str_appendchar(out, 1, '[');
    qsort(j.f, j.n, sizeof *j.f, cmp_rank);
    for (size_t i = 0; i < j.n; i++)
        sqlite3_str_appendf(out, "%s%lld", i ? "," : "", (long long)(collectives ? j.f[i].rank : j.f[i].id));
    sqlite3_str_appendchar(out, 1, ']');

done:;
    int stopped = zErr && interrupted(&watch);
    tsql_load_watch_end(&watch);
    regfree(&re);
    for (long i = 0; i < nf; i++) sqlite3_free(paths[i]);
    sqlite3_free(paths);
    sqlite3_free(j.f);
    sqlite3_free(kept);
    sqlite3_free(ranks);
    if (zErr) {
        sqlite3_result_error(ctx, zErr, -1);
        if (stopped) sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
        sqlite3_free(zErr);
        sqlite3_free(sqlite3_str_finish(out));
        return;
    }
    char *s = sqlite3_str_finish(out);
    if (!s) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sqlite3_result_text(ctx, s, -1, sqlite3_free);
}

static const tsql_fn_def open_dir_fns[] = {
    {"trace_open_dir", 1, TSQL_TOP_LEVEL, fn_trace_open_dir, NULL, NULL},
    {"trace_open_dir", 2, TSQL_TOP_LEVEL, fn_trace_open_dir, NULL, NULL},
    {"trace_open_dir", 3, TSQL_TOP_LEVEL, fn_trace_open_dir, NULL, NULL},
};

const tsql_registration tsql_reg_open_dir = {.what = "trace_open_dir", TSQL_FNS(open_dir_fns)};
