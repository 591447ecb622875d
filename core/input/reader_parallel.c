/*
 * reader_parallel.c — a plain JSON trace parsed in pieces on several threads; see
 * reader_parallel.h for why the result equals the serial parse.
 *
 * Bounds are guessed from the bytes alone: a '{' that follows "}" "," (whitespace
 * allowed) and opens an object whose first member is a usual event key. That is where
 * one event ends and the next begins in every trace writer we know; a guess that lands
 * inside a string or a nested args array costs time (the piece before it runs on
 * through the next piece's text), never correctness.
 *
 * TSQL_TEST_SPLIT (tests only) forces the pieces whatever the file size: a comma
 * list of fractions of the file ("0.5"), byte offsets snapped to the next guess
 * ("1234"), or exact offsets taken as they are ("@1234", to test wrong guesses).
 */
#include "input/reader_parallel.h"

#include <errno.h>
#include <fcntl.h>
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/reader_part.h"
#include "input/reader_stream.h"
#include "input/source.h"
#include "store/store.h"

enum {
    MIN_PARALLEL_BYTES = 32 << 20, /* below this a second thread does not pay */
    MIN_PIECE_BYTES = 16 << 20,
    PIECES_PER_THREAD = 4,         /* a few pieces each, so a slow thread can be helped */
    MAX_PIECES = 64,
    AUTO_THREADS = 2,
    WINDOW = 64 << 10,             /* bytes read at a time while looking for a bound */
    SEARCH_LIMIT = 16 << 20,       /* give up on a bound after this many bytes */
};

static int is_ws(unsigned char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Offset of the first guessed element start at or after from, or -1. */
static int64_t find_bound(int fd, int64_t from, int64_t size)
{
    unsigned char *w = malloc(WINDOW);
    if (!w) return -1;
    int64_t found = -1;
    for (int64_t at = from; found < 0 && at < size && at - from < SEARCH_LIMIT;) {
        ssize_t got = pread(fd, w, WINDOW, (off_t)at);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        size_t n = (size_t)got;
        int64_t b = tsql_find_bound_in(w, n);
        if (b >= 0) found = at + b;
        if (n < WINDOW) break;
        at += WINDOW - 256; /* overlap: a pattern cut by the window end is seen whole next */
    }
    free(w);
    return found;
}

/* Fills bounds (bounds[0] = 0, ascending) for a file of size bytes. Returns how many. */
static int choose_bounds(int fd, int64_t size, int threads, const char *force, int64_t *bounds)
{
    int nb = 1;
    bounds[0] = 0;
    if (force) {
        const char *s = force;
        while (*s && nb < MAX_PIECES) {
            char *e;
            int64_t b;
            if (*s == '@') {
                b = strtoll(s + 1, &e, 10);
            } else if (strchr(s, '.') && (!strchr(s, ',') || strchr(s, '.') < strchr(s, ','))) {
                double f = strtod(s, &e);
                b = find_bound(fd, (int64_t)(f * (double)size), size);
            } else {
                b = find_bound(fd, strtoll(s, &e, 10), size);
            }
            if (e == s) break;
            if (b > bounds[nb - 1] && b < size) bounds[nb++] = b;
            s = *e == ',' ? e + 1 : e;
        }
        return nb;
    }
    /* piece 0 stays where it is in the merge while the others are copied, so it
     * gets a thread's share (1/threads of the file) in one piece; the rest is cut
     * smaller so that whichever thread is free takes the next piece */
    int64_t first = size / threads;
    int64_t rest = size - first;
    int64_t want = (int64_t)(threads - 1) * PIECES_PER_THREAD;
    if (want > rest / MIN_PIECE_BYTES) want = rest / MIN_PIECE_BYTES;
    if (want > MAX_PIECES - 1) want = MAX_PIECES - 1;
    if (want < 1) want = 1;
    for (int64_t k = 0; k < want; k++) {
        int64_t b = find_bound(fd, first + rest / want * k, size);
        if (b > bounds[nb - 1]) bounds[nb++] = b;
    }
    return nb;
}

typedef struct pool {
    tsql_part *parts;
    int nparts;
    atomic_int next;            /* next piece to claim */
    const tsql_load_opts *opts; /* for the caller's thread */
    pthread_t caller;
} pool;

/* Claims and parses pieces until none is left. Only the caller's thread may call the
 * progress callback (it runs SQL on the caller's connection). */
static void *run_pieces(void *arg)
{
    pool *pl = arg;
    int caller = pthread_equal(pthread_self(), pl->caller);
    /* piece 0 (the largest, read in place) is the caller's: a worker started first must
     * not take it, or on a busy machine the caller might get no piece, and then no
     * progress callback (and no interrupt) would run during the parse */
    if (caller) {
        pl->parts[0].opts = pl->opts;
        tsql_reader_parse_part(&pl->parts[0]);
    }
    for (;;) {
        int i = atomic_fetch_add(&pl->next, 1);
        if (i >= pl->nparts) return NULL;
        pl->parts[i].opts = caller ? pl->opts : NULL;
        tsql_reader_parse_part(&pl->parts[i]);
    }
}

typedef struct merge_pool {
    tsql_merge *m;
    atomic_int next, failed;
} merge_pool;

/* Claims and runs merge jobs (one column each) until none is left. */
static void *merge_main(void *arg)
{
    merge_pool *mp = arg;
    int n = tsql_merge_jobs(mp->m);
    for (;;) {
        int j = atomic_fetch_add(&mp->next, 1);
        if (j >= n) return NULL;
        if (tsql_merge_run(mp->m, j)) atomic_store(&mp->failed, 1);
#ifdef __GLIBC__
        /* the sources' columns were freed into the arenas of the threads that built
         * them, where nothing reuses them: give them back as we go, or they add up
         * to ~10% of the store at the peak (measured; < 1 ms a call) */
        malloc_trim(0);
#endif
    }
}

/* Spawns up to threads - 1 helpers, running fn(arg) on each and on this thread. */
static void run_on_threads(int threads, void *(*fn)(void *), void *arg)
{
    pthread_t tid[MAX_PIECES];
    int started = 0;
    /* signals stay on the caller's thread, which owns any handlers */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    for (int k = 1; k < threads && k < MAX_PIECES; k++)
        if (pthread_create(&tid[started], NULL, fn, arg) == 0) started++;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    fn(arg);
    for (int k = 0; k < started; k++) pthread_join(tid[k], NULL);
}

int tsql_load_parallel(const char *path, const tsql_load_opts *opts, tsql_trace **out,
                       tsql_buf *meta, tsql_error *err)
{
    int threads = opts && opts->threads > 0 ? opts->threads : AUTO_THREADS;
    if (threads == 1) return 1;
    const char *force = getenv("TSQL_TEST_SPLIT");
    if (force && !*force) force = NULL;

    /* a plain regular file whose top level we can see in its first bytes */
    /* O_NONBLOCK: a FIFO must not block here (the serial path refuses it) */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return 1; /* the serial path reports it */
    struct stat st;
    unsigned char head[4096];
    ssize_t nh = -1;
    int64_t size = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        size = st.st_size;
        nh = pread(fd, head, sizeof head, 0);
    }
    if (nh > 0 && tsql_source_sniff(head, (size_t)nh) != TSQL_SOURCE_PLAIN) {
        close(fd); /* compressed: parsed in pieces while it is inflated, when it pays */
        return tsql_load_stream(path, opts, size, out, meta, err);
    }
    if (nh <= 0 || (!force && size < MIN_PARALLEL_BYTES)) {
        close(fd);
        return 1;
    }
    size_t i = nh >= 3 && !memcmp(head, "\xEF\xBB\xBF", 3) ? 3 : 0;
    while (i < (size_t)nh && is_ws(head[i])) i++;
    if (i >= (size_t)nh || (head[i] != '[' && head[i] != '{')) {
        close(fd);
        return 1;
    }
    int bare_array = head[i] == '[';
    int64_t bounds[MAX_PIECES];
    int nb = choose_bounds(fd, size, threads, force, bounds);
    close(fd);
    if (nb < 2) return 1;

    tsql_part *parts = calloc((size_t)nb, sizeof *parts);
    if (!parts) {
        tsql_error_set(err, TSQL_ENOMEM, -1, "out of memory");
        return -1;
    }
    atomic_int abort_flag;
    atomic_init(&abort_flag, 0);
    atomic_llong done_bytes, done_events;
    atomic_init(&done_bytes, 0);
    atomic_init(&done_events, 0);
    for (int k = 0; k < nb; k++) {
        parts[k].path = path;
        parts[k].st = &st;
        parts[k].index = k;
        parts[k].bounds = bounds;
        parts[k].nbounds = nb;
        parts[k].bare_array = bare_array;
        parts[k].mem_limit = opts ? opts->mem_limit : 0;
        parts[k].abort = &abort_flag;
        parts[k].done_bytes = &done_bytes;
        parts[k].done_events = &done_events;
    }
    pool pl = {.parts = parts, .nparts = nb, .opts = opts, .caller = pthread_self()};
    atomic_init(&pl.next, 1); /* 0 is the caller's */
    int nthreads = threads < nb ? threads : nb;
    run_on_threads(nthreads, run_pieces, &pl);

    /* follow the proven pieces from the document start */
    int rc = 0, npieces = 1, last = 0;
    for (int k = 0;;) {
        if (parts[k].rc != 0) {
            *err = parts[k].err;
            rc = -1;
            break;
        }
        if (parts[k].end_bound < 0) {
            last = k;
            break;
        }
        k = parts[k].end_bound;
        npieces++;
    }
    if (rc == 0 && atomic_load(&abort_flag)) {
        tsql_error_set(err, TSQL_EINTR, -1, "interrupted");
        rc = -1;
    }
    tsql_trace *t = parts[0].t;
    if (rc == 0 && npieces > 1) {
        tsql_trace *src[MAX_PIECES];
        int nsrc = 0;
        for (int k = parts[0].end_bound; k > 0; k = parts[k].end_bound) src[nsrc++] = parts[k].t;
        merge_pool mp = {.m = tsql_merge_begin(t, src, nsrc)};
        atomic_init(&mp.next, 0);
        atomic_init(&mp.failed, 0);
        int ok = mp.m != NULL;
        if (ok) {
            run_on_threads(nthreads, merge_main, &mp);
            ok = tsql_merge_end(mp.m, !atomic_load(&mp.failed)) == 0;
        }
        if (!ok) {
            tsql_error_set(err, TSQL_ENOMEM, -1, "out of memory");
            rc = -1;
        }
    }
    if (rc == 0) {
        /* the members before traceEvents (piece 0) and after it (the last piece) */
        if (tsql_join_meta(meta, &parts[0].meta, last != 0 ? &parts[last].meta : NULL)) {
            tsql_error_set(err, TSQL_ENOMEM, -1, "out of memory");
            rc = -1;
        }
        t->format = TSQL_SOURCE_PLAIN;
        t->json_bytes = parts[last].json_bytes;
        t->parse_pieces = npieces;
    }
    for (int k = 0; k < nb; k++) {
        if (k != 0 || rc != 0) tsql_trace_free(parts[k].t);
        free(parts[k].meta.p);
    }
    free(parts);
    if (rc != 0) {
        free(meta->p);
        *meta = (tsql_buf){0};
        return -1;
    }
    *out = t;
    return 0;
}
