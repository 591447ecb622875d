/*
 * test_interrupt.c — sqlite3_interrupt stops a long trace_open promptly and cleanly.
 *
 *   test_interrupt EXTENSION [TMPDIR]
 *
 * Writes a large generated trace (about 1.2 M events, ~180 MB) to TMPDIR (default
 * build/tmp), starts SELECT trace_open() on it in one thread and calls
 * sqlite3_interrupt() from another after 100 ms. Checks that the statement fails with
 * SQLITE_INTERRUPT and a "tracesql: ...: interrupted" message, that it stops within
 * 2 s of the interrupt, that `traces` is empty afterwards (nothing half-open) and that
 * the same connection then opens a small trace normally. Memory: run it under valgrind
 * or build it with ASan (mk/hardening.mk does the latter) so that anything the
 * interrupted load kept is reported as a leak at exit.
 */
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Writes a valid trace of n CPU ops with kernels. Returns 0 or -1. */
static int write_trace(const char *path, long n)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs("{\"schemaVersion\": 1, \"traceEvents\": [\n", f);
    for (long i = 0; i < n; i++) {
        long ts = 1000 + i * 10;
        fprintf(f,
                "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::op%ld\", \"pid\": 1, "
                "\"tid\": 1, \"ts\": %ld.5, \"dur\": 8.25, \"args\": {\"External id\": %ld, "
                "\"Record function id\": 0, \"Ev Idx\": %ld}}",
                i ? ",\n" : "", i % 97, ts, i, i);
    }
    fputs("\n]}\n", f);
    return fclose(f) == 0 ? 0 : -1;
}

typedef struct job {
    sqlite3 *db;
    const char *sql;
    int rc;
    char msg[512];
    double t_end;
} job;

static void *run(void *arg)
{
    job *j = arg;
    sqlite3_stmt *st = NULL;
    j->rc = sqlite3_prepare_v2(j->db, j->sql, -1, &st, NULL);
    if (j->rc == SQLITE_OK) {
        j->rc = sqlite3_step(st);
        if (j->rc != SQLITE_ROW) j->rc = sqlite3_errcode(j->db);
    }
    snprintf(j->msg, sizeof j->msg, "%s", sqlite3_errmsg(j->db));
    sqlite3_finalize(st);
    j->t_end = now();
    return NULL;
}

static long long one_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    long long v = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    else
        fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return v;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s EXTENSION [TMPDIR]\n", argv[0]);
        return 2;
    }
    const char *dir = argc > 2 ? argv[2] : "build/tmp";
    char path[1024];
    snprintf(path, sizeof path, "%s/interrupt_trace.json", dir);
    if (write_trace(path, 1200000) != 0) {
        perror(path);
        return 2;
    }
    sqlite3 *db = NULL;
    CHECK_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
    sqlite3_enable_load_extension(db, 1);
    char *err = NULL;
    if (sqlite3_load_extension(db, argv[1], NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "cannot load %s: %s\n", argv[1], err ? err : "?");
        sqlite3_free(err);
        return 2;
    }

    /* 1. interrupted after 100 ms */
    char sql[1200];
    snprintf(sql, sizeof sql, "SELECT trace_open('%s')", path);
    job j = {.db = db, .sql = sql};
    pthread_t th;
    double t0 = now();
    pthread_create(&th, NULL, run, &j);
    usleep(100 * 1000);
    double t_int = now();
    sqlite3_interrupt(db);
    pthread_join(th, NULL);
    CHECK_EQ(j.rc, SQLITE_INTERRUPT);
    CHECK(strstr(j.msg, "interrupted") != NULL);
    printf("interrupt: rc=%d after %.0f ms, stopped %.0f ms after the interrupt: %s\n", j.rc,
           (t_int - t0) * 1e3, (j.t_end - t_int) * 1e3, j.msg);
    CHECK(j.t_end - t_int < 2.0);
    CHECK_EQ(one_int(db, "SELECT count(*) FROM traces"), 0);

    /* 2. the connection is usable afterwards, and the interrupt did not stick */
    CHECK_EQ(one_int(db, "SELECT trace_open('tests/data/tree_rules.json')"), 1);
    CHECK_EQ(one_int(db, "SELECT count(*) FROM events"), 36);

    /* 3. the memory ceiling: the big trace fails cleanly, nothing stays open */
    CHECK_EQ(one_int(db, "SELECT tracesql_config('memory_limit_mb', 16)"), 16);
    sqlite3_stmt *st = NULL;
    CHECK_EQ(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    CHECK_EQ(sqlite3_step(st), SQLITE_ERROR);
    const char *m = sqlite3_errmsg(db);
    printf("memory ceiling: %s\n", m);
    CHECK(strstr(m, "memory ceiling of 16 MiB reached") != NULL);
    CHECK(strstr(m, ": byte ") != NULL);
    sqlite3_finalize(st);
    CHECK_EQ(one_int(db, "SELECT count(*) FROM traces"), 1); /* only tree_rules */

    CHECK_EQ(sqlite3_close(db), SQLITE_OK);
    unlink(path);
    return check_report("test_interrupt");
}
