/*
 * source_zip.h — the zip codec of the source: an archive of exactly one member,
 * stored or deflated, produced into the ring (source_ring.h).
 * Private to core/input/source*.c.
 */
#ifndef TSQL_SOURCE_ZIP_H
#define TSQL_SOURCE_ZIP_H

#include "input/source_ring.h"

/* The one member of a zip archive, as the central directory describes it. */
struct tsql_zip_member {
    int method;                /* 0 stored, 8 deflate */
    uint32_t crc;
    uint64_t csize;            /* compressed bytes at data_off */
    uint64_t usize;
    int64_t data_off;
};

/* Reads the single central directory entry and its local header into src->zip
 * (allocated here, freed with the source). Sizes and CRC come from the central
 * directory, which is authoritative even when the local header defers them to a
 * data descriptor (flag bit 3). Returns 0, or -1 with err filled. */
int tsql_src_zip_open_member(tsql_source *src, tsql_error *err);

/* Producer for the zip member: copy (stored) or raw inflate (deflate) exactly csize
 * input bytes, then check the CRC-32 and size against the central directory.
 * Returns nothing; the outcome is in src->perr. */
void tsql_src_produce_zip(tsql_source *src);

#endif
