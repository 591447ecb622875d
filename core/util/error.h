/*
 * error.h — the one error record core/ fills and ext/ formats.
 *
 * Every failure in core/ carries where it happened: the file, and the byte offset
 * in the (uncompressed) JSON text. ext/ turns it into
 *   "tracesql: <path>: byte <offset>: <msg>"
 * (or "uncompressed byte" for .gz / .zip inputs).
 */
#ifndef TSQL_ERROR_H
#define TSQL_ERROR_H

#include <stdint.h>

enum tsql_errcode {
    TSQL_OK = 0,
    TSQL_EIO,       /* cannot open / read the file */
    TSQL_EFORMAT,   /* not a trace: bad JSON, bad gzip/zip, wrong shape */
    TSQL_ENOMEM,    /* allocation failed or the memory ceiling was reached */
    TSQL_EINTR,     /* interrupted by the caller's progress callback */
    TSQL_ELIMIT     /* an input exceeds a hard limit (string, nesting, event count) */
};

typedef struct tsql_error {
    int code;              /* enum tsql_errcode */
    int compressed;        /* 1 if offset is in the uncompressed stream of a .gz/.zip */
    int64_t offset;        /* byte offset of the problem, -1 when not applicable */
    char msg[256];         /* human-readable cause, no path, no offset */
} tsql_error;

/* Record an error (printf-style). Keeps the first error: later calls are ignored. */
void tsql_error_set(tsql_error *err, int code, int64_t offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
