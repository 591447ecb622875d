/*
 * threads.h — the thread of an event as SQL compares it. pid and tid are string ids of
 * their JSON text, and the events table shows them as INTEGER, REAL or TEXT; two events
 * are on one thread when those SQL values are equal (7 = 7.0; "\"a\"" and "\"\\u0061\""
 * are both 'a'). Each id is mapped to a canonical number first: ids with equal SQL values
 * get the same one, and an event's thread key is its canonical pid and tid.
 *
 * Used wherever a launch is matched to the Python frames or modules of its thread
 * (module_tree.c, compare_events.c, python_frame.c). No SQLite here.
 */
#ifndef TSQL_THREADS_H
#define TSQL_THREADS_H

#include <stddef.h>
#include <stdint.h>

#include "store/trace.h"

typedef struct tsql_threads {
    struct tsql_thread_val *v; /* the values of the ids asked for, by id */
    struct tsql_thread_val *by_value; /* the same, by value (for ids not asked for) */
    size_t n;
} tsql_threads;

/* Canonical numbers for the pid and tid ids of the events uids[0..n). 0, or -1 on OOM
 * (*m is then empty and may be freed). */
int tsql_threads_build(const tsql_trace *t, const uint32_t *uids, size_t n, tsql_threads *m);
void tsql_threads_free(tsql_threads *m);

/* The thread key of event uid, one of the events the map was built for. */
uint64_t tsql_threads_key(const tsql_threads *m, const tsql_trace *t, uint32_t uid);

/* The thread key of any event: 0 with *key set, 1 when its pid or tid equals no value
 * in the map (then no event of the map is on its thread), -1 on OOM. */
int tsql_threads_find(const tsql_threads *m, const tsql_trace *t, uint32_t uid, uint64_t *key);

#endif
