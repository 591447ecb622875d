/*
 * store.h — internal helpers of the event store shared by reader.c, tree.c and store.c.
 * Private to core/: not part of the public core API (trace.h is).
 */
#ifndef TSQL_STORE_H
#define TSQL_STORE_H

#include "text/jsonlex.h"
#include "store/trace.h"

#define TSQL_MAX_WARNINGS 1000

/* Grows every column to the next capacity. 0 or -1 on OOM. */
int tsql_store_grow(tsql_trace *t);
/* Sizes the empty columns for the events of about bytes of JSON text (an estimate
 * from the text's length, so that they do not start small and grow through copies;
 * unused rows cost address space only, and tsql_store_shrink gives them back). Does
 * nothing for a store with a memory ceiling. 0 or -1 on OOM. */
int tsql_store_reserve_for(tsql_trace *t, int64_t bytes);
/* Releases unused column capacity after loading. 0 or -1 on OOM. */
int tsql_store_shrink(tsql_trace *t);
/* Appends the rows of src, the text that follows dst's in the file, to dst, as if
 * one parse had read both: string ids are remapped into dst's table (new strings get
 * ids in src's order), uids, pool positions and warnings shifted, ids re-based.
 * src's columns are freed one by one as they are copied (src stays freeable).
 * Returns 0 or -1 on OOM. */
int tsql_store_append(tsql_trace *dst, tsql_trace *src);

/* The same for several sources at once, in jobs (one column each) that may run on
 * different threads: begin (string maps, dst sized; NULL on OOM), run every job
 * 0 .. tsql_merge_jobs() - 1 exactly once (0 or -1 on OOM), then end (serial parts;
 * ok = 0 if a job failed; frees the merge; 0 or -1). */
typedef struct tsql_merge tsql_merge;
tsql_merge *tsql_merge_begin(tsql_trace *dst, tsql_trace **src, int nsrc);
int tsql_merge_jobs(const tsql_merge *m);
int tsql_merge_run(tsql_merge *m, int job);
int tsql_merge_end(tsql_merge *m, int ok);
/* Appends one integer to the args pool. 0 or -1 on OOM. */
int tsql_store_pool_push(tsql_trace *t, int64_t v);
/* Records the exact doubles of uid's ts and dur (set TSQL_F_XD on the event). */
int tsql_store_exact_double(tsql_trace *t, uint32_t uid, double ts, double dur);
/* Approximate bytes held by the store. */
size_t tsql_store_bytes(const tsql_trace *t);
/* Fails with TSQL_ENOMEM when the store passed the trace's memory ceiling. */
int tsql_store_check_limit(tsql_trace *t, tsql_error *err, int64_t offset);


/* ns -> µs as the nearest double; exact for |ns| < 2^53 (see reader.c). */
static inline double tsql_ns_to_us(int64_t ns)
{
    if (ns % 1000 == 0) return (double)(ns / 1000); /* NOLINT(bugprone-integer-division): exact, divisible */
    return (double)ns / 1000.0;
}

#endif
