/* error.c — filling a tsql_error; see error.h. */
#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>

void tsql_error_set(tsql_error *err, int code, int64_t offset, const char *fmt, ...)
{
    if (!err || err->code != TSQL_OK) return;
    err->code = code;
    err->offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}
