/*
 * reader_stream.c — the pipelined load of a compressed trace; see reader_stream.h for
 * why the result equals the serial parse and why the ring cannot fill for good.
 *
 * State: one mutex (pl->mu) guards the pieces (by the chunk they start in), the
 * chain and the chunk each worker holds; the ring has its own lock, always taken
 * after pl->mu when both are. A piece's parse runs without the lock; its feed takes
 * it once a chunk.
 */
#include "input/reader_stream.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "input/reader_part.h"
#include "input/source.h"
#include "store/colmem.h"
#include "store/store.h"

enum {
    STREAM_SLOTS = 8,              /* chunks in memory: the pieces being parsed, the rest inflated ahead */
    MIN_STREAM_BYTES = 2 << 20,    /* compressed bytes below which one thread parses */
    MAX_WORKERS = 8,
};

typedef struct pipeline pipeline;

typedef struct spiece {
    pipeline *pl;
    int64_t block;                 /* the chunk it starts in */
    int64_t cur;                   /* the chunk it holds */
    int worker;
    int taken;                     /* it has taken its first chunk */
    int done;                      /* its parse returned */
    atomic_int dead;               /* its start is known wrong, or the load is over */
    tsql_part part;
} spiece;

struct pipeline {
    tsql_source *src;
    const char *path;
    const tsql_load_opts *opts;
    int64_t file_bytes;
    size_t chunk;
    pthread_mutex_t mu;
    spiece **at;                   /* pieces by the chunk they start in; NULL: none */
    int64_t cap;
    int64_t next_claim;            /* the next chunk a worker looks at */
    int64_t head;                  /* the chunk of the chain's first piece not yet appended */
    int64_t killed_to;             /* pieces starting in (head, killed_to) are discarded */
    int appending;                 /* a worker is appending the chain */
    int no_more;                   /* the text ended (or failed) before next_claim */
    int finished;                  /* the chain reached the end of the document */
    int failed;                    /* err holds why */
    int64_t held[MAX_WORKERS];     /* the chunk each worker holds or waits for, -1 none */
    int nworkers;
    atomic_int stop_all;           /* wakes every wait: the load is over */
    atomic_int abort_flag;         /* the progress callback interrupted */
    atomic_llong done_bytes, done_events;
    int doc;                       /* the document's first byte ('{' or '['), 0 unknown */
    tsql_trace *dst;               /* piece 0's store, the chain appended to it */
    tsql_buf meta_first, meta_last;
    int npieces;
    int64_t json_bytes;
    tsql_error err;
};

/* ---- the inflating thread: marks each chunk before it is published ---- */

/* The mark of chunk k: where a piece may start in it (a guessed element start of
 * traceEvents), or -1. Chunk 0 is piece 0's; it tells whether the document is an
 * object or a bare array. */
static int64_t mark_chunk(void *ctx, int64_t k, int64_t off, const char *text, size_t len)
{
    pipeline *pl = ctx;
    const unsigned char *p = (const unsigned char *)text;
    if (k == 0) {
        size_t i = len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3) ? 3 : 0;
        while (i < len && (p[i] == ' ' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t')) i++;
        if (i < len && (p[i] == '{' || p[i] == '[')) pl->doc = p[i];
        return -1;
    }
    if (!pl->doc) return -1; /* not a trace we can cut: piece 0 reads it all */
    int64_t b = tsql_find_bound_in(p, len);
    return b < 0 ? -1 : off + b;
}

/* ---- bookkeeping, all with pl->mu held ---- */

static spiece *piece_at(const pipeline *pl, int64_t k)
{
    return k >= 0 && k < pl->cap ? pl->at[k] : NULL;
}

/* Tells the ring which chunks no piece needs any more: those below the lowest held
 * or not yet looked at. */
static void release_chunks(pipeline *pl)
{
    int64_t lo = pl->next_claim;
    for (int w = 0; w < pl->nworkers; w++)
        if (pl->held[w] >= 0 && pl->held[w] < lo) lo = pl->held[w];
    tsql_source_release(pl->src, lo);
}

static void free_piece(spiece *p)
{
    if (!p) return;
    tsql_trace_free(p->part.t);
    free(p->part.meta.p);
    free(p);
}

/* Stops a piece: a running one at its next chunk (its result is then dropped by its
 * worker), a finished one is freed now. */
static void discard(pipeline *pl, int64_t k)
{
    spiece *p = piece_at(pl, k);
    if (!p) return;
    if (p->done) {
        pl->at[k] = NULL;
        free_piece(p);
    } else {
        atomic_store(&p->dead, 1);
    }
}

/* The chain's current piece has read every byte before chunk k: the pieces starting
 * in the chunks between its own and k did not start at an element. */
static void discard_before(pipeline *pl, int64_t k)
{
    if (k <= pl->killed_to) return;
    for (int64_t b = pl->killed_to > pl->head + 1 ? pl->killed_to : pl->head + 1; b < k; b++)
        discard(pl, b);
    pl->killed_to = k;
    tsql_source_wake(pl->src);
}

/* Ends the load (done, or failed with e): every running piece and every wait stops
 * (the pieces are freed at the end of the load). */
static void stop_all(pipeline *pl, const tsql_error *e)
{
    if (e && !pl->failed) {
        pl->failed = 1;
        pl->err = *e;
    }
    atomic_store(&pl->stop_all, 1);
    for (int64_t b = 0; b < pl->cap; b++)
        if (pl->at[b] && !pl->at[b]->done) atomic_store(&pl->at[b]->dead, 1);
    tsql_source_wake(pl->src);
}

/* Grows dst's columns and pool ahead of an append by whole steps (tsql_store_append
 * sizes them exactly, which would move them at every piece). Returns 0 or -1. */
static int reserve_rows(tsql_trace *dst, const tsql_trace *src)
{
    while ((uint64_t)dst->cap < (uint64_t)dst->n + src->n)
        if (tsql_store_grow(dst)) return -1;
    size_t want = dst->npool + src->npool;
    if (want > dst->cap_pool) {
        size_t nc = dst->cap_pool ? dst->cap_pool : 4096;
        while (nc < want) nc += nc / 2;
        int64_t *np = tsql_col_realloc(dst->pool, nc * sizeof *np);
        if (!np) return -1;
        dst->pool = np;
        dst->cap_pool = nc;
    }
    return 0;
}

/* Appends the chain's finished pieces in text order, one worker at a time (the
 * appends run without the lock). Called with pl->mu held. */
static void advance(pipeline *pl)
{
    while (!pl->appending && !pl->failed && !pl->finished) {
        spiece *h = piece_at(pl, pl->head);
        if (!h || !h->done) return;
        if (h->part.rc != 0) {
            stop_all(pl, &h->part.err);
            return;
        }
        int last = h->part.end_bound < 0;
        pl->appending = 1;
        pthread_mutex_unlock(&pl->mu);
        int rc = 0;
        if (h->block == 0) {
            pl->dst = h->part.t;
            h->part.t = NULL;
            pl->meta_first = h->part.meta;
            h->part.meta = (tsql_buf){0};
        } else {
            rc = reserve_rows(pl->dst, h->part.t) || tsql_store_append(pl->dst, h->part.t);
            if (last) {
                pl->meta_last = h->part.meta;
                h->part.meta = (tsql_buf){0};
            }
        }
        if (last) pl->json_bytes = h->part.json_bytes;
        pthread_mutex_lock(&pl->mu);
        pl->appending = 0;
        pl->npieces++;
        pl->at[h->block] = NULL;
        int64_t next = h->cur; /* it stopped at the mark of the chunk it holds */
        free_piece(h);
        if (rc) {
            tsql_error e = {0};
            tsql_error_set(&e, TSQL_ENOMEM, -1, "out of memory");
            stop_all(pl, &e);
        } else if (last) {
            pl->finished = 1;
            stop_all(pl, NULL);
        } else {
            discard_before(pl, next);
            pl->head = next;
        }
    }
}

/* ---- a piece's text ---- */

/* The feed of a piece (tsql_part): its first chunk from its start, then the chunks
 * after it. Returns 1 with a chunk, 0 at the end of the text, -1 with err. */
static int feed(void *ctx, const char **data, size_t *len, int64_t *mark, tsql_error *err)
{
    spiece *p = ctx;
    pipeline *pl = p->pl;
    if (atomic_load(&p->dead)) {
        tsql_error_set(err, TSQL_EINTR, -1, "interrupted");
        return -1;
    }
    int64_t k = p->taken ? p->cur + 1 : p->block;
    if (p->taken) {
        pthread_mutex_lock(&pl->mu);
        p->cur = k;
        pl->held[p->worker] = k;
        if (p->block == pl->head) discard_before(pl, k);
        release_chunks(pl);
        pthread_mutex_unlock(&pl->mu);
    }
    int64_t off;
    int rc = tsql_source_chunk(pl->src, k, &p->dead, data, len, &off, mark, err);
    if (rc == -2) {
        tsql_error_set(err, TSQL_EINTR, -1, "interrupted");
        return -1;
    }
    if (rc == 1 && !p->taken) { /* the first chunk, from the piece's start */
        size_t skip = (size_t)(p->part.start - off);
        *data += skip;
        *len -= skip;
    }
    p->taken = 1;
    return rc;
}

/* ---- workers ---- */

typedef struct worker_arg {
    pipeline *pl;
    int w;
} worker_arg;

/* Makes room for a piece at chunk k. Returns 0 or -1 (OOM). */
static int grow_at(pipeline *pl, int64_t k)
{
    if (k < pl->cap) return 0;
    int64_t nc = pl->cap ? pl->cap * 2 : 64;
    while (nc <= k) nc *= 2;
    spiece **na = realloc(pl->at, (size_t)nc * sizeof *na);
    if (!na) return -1;
    memset(na + pl->cap, 0, (size_t)(nc - pl->cap) * sizeof *na);
    pl->at = na;
    pl->cap = nc;
    return 0;
}

/* Creates the piece starting at start in chunk k for worker w. NULL on OOM. */
static spiece *new_piece(pipeline *pl, int64_t k, int64_t start, int w)
{
    spiece *p = calloc(1, sizeof *p);
    if (!p || grow_at(pl, k)) {
        free(p);
        return NULL;
    }
    p->pl = pl;
    p->block = p->cur = k;
    p->worker = w;
    atomic_init(&p->dead, 0);
    tsql_part *t = &p->part;
    t->path = pl->path;
    t->index = k == 0 ? 0 : 1;
    t->bare_array = k > 0 && pl->doc == '['; /* known once chunk 0 was published */
    t->opts = w == 0 ? pl->opts : NULL; /* the progress callback: the caller's thread only */
    t->abort = &pl->abort_flag;
    t->done_bytes = &pl->done_bytes;
    t->done_events = &pl->done_events;
    t->feed = feed;
    t->feed_ctx = p;
    t->start = start;
    /* piece 0's store becomes the trace's: sized as the serial parse sizes it */
    t->reserve = k == 0 ? (pl->file_bytes < INT64_MAX / 4 ? pl->file_bytes * 4 : 0)
                        : (int64_t)pl->chunk;
    pl->at[k] = p;
    return p;
}

/* Parses piece p (created by this worker), then hands its result on. Called and
 * returns with pl->mu held. */
static void run_piece(pipeline *pl, spiece *p, int w)
{
    pthread_mutex_unlock(&pl->mu);
    tsql_reader_parse_part(&p->part);
    pthread_mutex_lock(&pl->mu);
    p->done = 1;
    pl->held[w] = -1;
    release_chunks(pl);
    if (atomic_load(&pl->abort_flag) && !pl->failed) {
        tsql_error e = {0};
        tsql_error_set(&e, TSQL_EINTR, -1, "interrupted");
        stop_all(pl, p->block == pl->head && p->part.rc ? &p->part.err : &e);
    }
    if (pl->failed || pl->finished) return;
    if (atomic_load(&p->dead)) {
        pl->at[p->block] = NULL;
        free_piece(p);
        return;
    }
    advance(pl);
}

/* Takes chunks in order and parses a piece from each marked one. Worker 0 (the
 * caller) starts with piece 0. Returns NULL. */
static void *worker_main(void *arg)
{
    worker_arg *a = arg;
    pipeline *pl = a->pl;
    int w = a->w;
    pthread_mutex_lock(&pl->mu);
    if (w == 0) {
        spiece *p = new_piece(pl, 0, 0, 0);
        if (p) {
            run_piece(pl, p, 0);
        } else {
            tsql_error e = {0};
            tsql_error_set(&e, TSQL_ENOMEM, -1, "out of memory");
            stop_all(pl, &e);
        }
    }
    while (!pl->failed && !pl->finished && !pl->no_more) {
        int64_t c = pl->next_claim++;
        pl->held[w] = c;
        pthread_mutex_unlock(&pl->mu);
        const char *d;
        size_t n;
        int64_t off, mark;
        tsql_error e = {0};
        int rc = tsql_source_chunk(pl->src, c, &pl->stop_all, &d, &n, &off, &mark, &e);
        pthread_mutex_lock(&pl->mu);
        if (rc != 1) { /* the text ended before c (the chain meets its end or error) */
            pl->held[w] = -1;
            pl->no_more = 1;
            release_chunks(pl);
            break;
        }
        if (mark < 0 || c < pl->killed_to || pl->failed || pl->finished) {
            pl->held[w] = -1;
            release_chunks(pl);
            continue;
        }
        spiece *p = new_piece(pl, c, mark, w);
        if (!p) {
            tsql_error_set(&e, TSQL_ENOMEM, -1, "out of memory");
            stop_all(pl, &e);
            break;
        }
        run_piece(pl, p, w);
    }
    pl->held[w] = -1;
    release_chunks(pl);
    pthread_mutex_unlock(&pl->mu);
    return NULL;
}

/* The ring's shape from TSQL_TEST_STREAM ("CHUNK" or "CHUNK,SLOTS"). 1 if forced. */
static int forced_shape(size_t *chunk, int *slots)
{
    const char *s = getenv("TSQL_TEST_STREAM");
    if (!s || !*s) return 0;
    char *e;
    long long c = strtoll(s, &e, 10);
    if (c >= 64) *chunk = (size_t)c;
    if (*e == ',') {
        long k = strtol(e + 1, NULL, 10);
        if (k >= 2 && k <= 64) *slots = (int)k;
    }
    return 1;
}

int tsql_load_stream(const char *path, const tsql_load_opts *opts, int64_t file_bytes,
                     tsql_trace **out, tsql_buf *meta, tsql_error *err)
{
    int threads = opts && opts->threads > 0 ? opts->threads : 2;
    if (threads > MAX_WORKERS) threads = MAX_WORKERS;
    size_t chunk = 0; /* the source's default */
    int slots = STREAM_SLOTS;
    int forced = forced_shape(&chunk, &slots);
    if (threads == 1 || (opts && opts->mem_limit) || (!forced && file_bytes < MIN_STREAM_BYTES))
        return 1;

    pipeline *pl = calloc(1, sizeof *pl);
    if (!pl || pthread_mutex_init(&pl->mu, NULL) != 0) {
        free(pl);
        tsql_error_set(err, TSQL_ENOMEM, -1, "out of memory");
        return -1;
    }
    pl->path = path;
    pl->opts = opts;
    pl->nworkers = threads;
    pl->next_claim = 1; /* chunk 0 is piece 0's, the caller's */
    pl->held[0] = 0;
    for (int w = 1; w < MAX_WORKERS; w++) pl->held[w] = -1;
    atomic_init(&pl->stop_all, 0);
    atomic_init(&pl->abort_flag, 0);
    atomic_init(&pl->done_bytes, 0);
    atomic_init(&pl->done_events, 0);
    tsql_source_cfg cfg = {.chunk_bytes = chunk, .slots = slots, .mark = mark_chunk, .mark_ctx = pl};
    pl->src = tsql_source_open_cfg(path, &cfg, err);
    int rc = -1;
    if (pl->src) {
        pl->file_bytes = tsql_source_file_bytes(pl->src);
        pl->chunk = chunk ? chunk : 4 << 20;

#ifdef __GLIBC__
        /* glibc gives the free top of a heap back to the kernel when it exceeds the
         * trim threshold (128 KiB at first), so every piece's columns, freed at its
         * append, were faulted in again by the next piece page by page (~54,000 more
         * faults than the serial parse on the 1.1 GB trace, ~0.7 s of CPU). Freeing a
         * block that malloc mapped raises that threshold to twice the block's size
         * (mallopt(3): the dynamic mmap threshold), as any program freeing a large
         * block does; the pieces then reuse their memory. */
        void *volatile big = malloc((size_t)30 << 20);
        free(big);
#endif
        /* the helpers, then the caller as worker 0; signals stay on the caller's thread */
        pthread_t tid[MAX_WORKERS];
        worker_arg args[MAX_WORKERS];
        int started = 0;
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        for (int w = 1; w < threads; w++) {
            args[w] = (worker_arg){pl, w};
            if (pthread_create(&tid[started], NULL, worker_main, &args[w]) == 0) started++;
        }
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        args[0] = (worker_arg){pl, 0};
        worker_main(&args[0]);
        for (int k = 0; k < started; k++) pthread_join(tid[k], NULL);

        if (pl->finished && !pl->failed) {
            rc = 0;
        } else if (!pl->failed) { /* cannot happen: the chain ends or fails */
            tsql_error_set(&pl->err, TSQL_EFORMAT, -1, "the pipelined parse stopped early");
        }
        if (rc == 0 && tsql_join_meta(meta, &pl->meta_first, pl->meta_last.n ? &pl->meta_last : NULL)) {
            tsql_error_set(&pl->err, TSQL_ENOMEM, -1, "out of memory");
            rc = -1;
        }
        if (rc == 0) {
            pl->dst->format = tsql_source_kind(pl->src);
            pl->dst->file_bytes = pl->file_bytes;
            pl->dst->json_bytes = pl->json_bytes;
            pl->dst->parse_pieces = pl->npieces;
            *out = pl->dst;
            pl->dst = NULL;
        } else {
            *err = pl->err;
            err->compressed = 1; /* as the serial parse of a compressed file says */
            free(meta->p);
            *meta = (tsql_buf){0};
        }
    }
    tsql_source_close(pl->src);
    for (int64_t k = 0; k < pl->cap; k++) free_piece(pl->at[k]);
    free(pl->at);
    tsql_trace_free(pl->dst);
    free(pl->meta_first.p);
    free(pl->meta_last.p);
    pthread_mutex_destroy(&pl->mu);
    free(pl);
    return rc;
}
