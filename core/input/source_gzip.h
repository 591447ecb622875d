/*
 * source_gzip.h — the gzip codec of the source: inflates every member into the ring
 * (source_ring.h), CRC and size checked. Private to core/input/source*.c.
 */
#ifndef TSQL_SOURCE_GZIP_H
#define TSQL_SOURCE_GZIP_H

#include "input/source_ring.h"

/* Producer for gzip: streaming inflate, one member after another, from the file's
 * read position (src->sniff holds its first bytes). Returns nothing; the outcome is
 * in src->perr. */
void tsql_src_produce_gzip(tsql_source *src);

#endif
