/*
 * progress.c — what a long trace_open shows while it runs, and its interrupt check.
 *
 * Off by default. On with TSQL_PROGRESS=1 in the environment, or on one connection
 * with SELECT tracesql_config('progress', 1) (which wins over the environment). Then
 * every 16 MiB of JSON text a line goes to stderr, and one when the load is done:
 *   tracesql: run.json: 512.0 MiB (42%), 3400000 events, 410.2 MiB/s
 *   tracesql: run.json: loaded 1203.4 MiB, 8123456 events in 2.9 s (414.9 MiB/s)
 * The percentage is shown for plain files only (a compressed file's text size is
 * known only at its end).
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "catalog/progress.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void tsql_load_watch_start(tsql_load_watch *w, tsql_catalog *c, const char *path, int64_t plain_bytes)
{
    const char *env = getenv("TSQL_PROGRESS");
    w->db = c->db;
    w->probe = NULL;
    w->path = path;
    w->show = c->progress >= 0 ? c->progress : (env && *env && *env != '0');
    /* a percentage only for plain text: gzip and zip files start with 1f 8b / PK */
    w->file_bytes = 0;
    FILE *f = w->show ? fopen(path, "rb") : NULL;
    if (f) {
        unsigned char m[2] = {0, 0};
        if (fread(m, 1, 2, f) == 2 && !(m[0] == 0x1f && m[1] == 0x8b) && !(m[0] == 'P' && m[1] == 'K'))
            w->file_bytes = plain_bytes;
        fclose(f);
    }
    w->t0 = now_seconds();
}

static double mib(int64_t bytes)
{
    return (double)bytes / (1024.0 * 1024.0);
}

int tsql_load_watch_progress(void *watch, int64_t bytes, int64_t events)
{
    tsql_load_watch *w = watch;
    if (w->show && bytes > 0) {
        double dt = now_seconds() - w->t0;
        char pct[32] = "";
        if (w->file_bytes > 0)
            snprintf(pct, sizeof pct, " (%.0f%%)", 100.0 * (double)bytes / (double)w->file_bytes);
        fprintf(stderr, "tracesql: %s: %.1f MiB%s, %lld events, %.1f MiB/s\n", w->path, mib(bytes),
                pct, (long long)events, dt > 0 ? mib(bytes) / dt : 0.0);
        fflush(stderr);
    }
    /* SQLite 3.40 has no sqlite3_is_interrupted(), but a statement stepped while the
     * connection is interrupted fails with SQLITE_INTERRUPT. The probe also runs
     * about 4000 VM steps, so that a progress handler the application set
     * (sqlite3_progress_handler: timeouts, cancel buttons) is called during a load
     * as during any long statement, and can stop it by returning non-zero. The
     * statement is kept for the whole load: SQLite counts its steps across runs, so
     * a handler set for every N > 4000 steps is still reached, every N / 4000 probes. */
    if (!w->probe) {
        int rc = sqlite3_prepare_v2(w->db,
                                    "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 255) "
                                    "SELECT count(*) FROM n",
                                    -1, &w->probe, NULL);
        if (rc != SQLITE_OK) return rc == SQLITE_INTERRUPT; /* the parser sees it first */
    }
    int rc = sqlite3_step(w->probe);
    sqlite3_reset(w->probe);
    return rc == SQLITE_INTERRUPT;
}

void tsql_load_watch_end(tsql_load_watch *w)
{
    sqlite3_finalize(w->probe);
    w->probe = NULL;
}

void tsql_load_watch_done(tsql_load_watch *w, const tsql_trace *t)
{
    if (!w->show || !t) return;
    double dt = now_seconds() - w->t0;
    fprintf(stderr, "tracesql: %s: loaded %.1f MiB, %lld events in %.1f s (%.1f MiB/s)\n", w->path,
            mib(t->json_bytes), (long long)t->n, dt, dt > 0 ? mib(t->json_bytes) / dt : 0.0);
    fflush(stderr);
}
