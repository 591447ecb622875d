/*
 * python_frame.h — which Python frame was running on a thread at a time: the
 * python_function events of a trace indexed by thread and start, so that the innermost
 * frame holding a time is found without scanning the trace.
 *
 * "Innermost" is the latest-started frame (ties: the larger uid) on the thread (pid and
 * tid equal as SQL values) whose closed span [ts, ts + dur] (µs doubles, the sum as SQL adds
 * the two columns) holds the time. Frames without ts or dur hold no time.
 *
 * No SQLite here; ext/func/python_frame.c is the SQL function python_frame_at().
 */
#ifndef TSQL_PYTHON_FRAME_H
#define TSQL_PYTHON_FRAME_H

#include <stdint.h>

#include "store/trace.h"

typedef struct tsql_pyframes tsql_pyframes;

/* The trace's index, built on first call and kept with the trace; NULL on OOM. */
const tsql_pyframes *tsql_pyframes_get(tsql_trace *t);

/* The innermost python_function on event uid's thread (its pid and tid compared as SQL
 * compares their values: threads.h) holding time, or TSQL_NONE (also when memory runs
 * out reading an escaped pid or tid). */
uint32_t tsql_pyframe_at(const tsql_pyframes *f, const tsql_trace *t, uint32_t uid, double time);

#endif
