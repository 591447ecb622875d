/*
 * colmem.h — memory of the large per-event arrays, on 2 MiB pages.
 *
 * A load writes a few hundred MB of new columns. With 4 KiB pages each page costs a
 * fault on its first write (~10 µs on the project's VM: a 1.1 GB trace spent about a
 * third of its CPU time in faults); a transparent huge page maps 2 MiB in one fault.
 * Kernels set to THP "madvise" (the usual default) give them only to memory marked
 * MADV_HUGEPAGE, and only in 2 MiB-aligned ranges, which malloc's blocks are not. So a
 * block of 512 KiB or more is its own mapping here, aligned to 2 MiB and
 * marked; growing it moves its pages (mremap) without copying. Smaller blocks are
 * malloc's. Where the kernel has no THP nothing changes but the speed.
 *
 * A block from these functions must be resized and freed by them (never by free()).
 */
#ifndef TSQL_COLMEM_H
#define TSQL_COLMEM_H

#include <stddef.h>

/* Like malloc / calloc / realloc (realloc(NULL, n) allocates; on failure NULL, p kept). */
void *tsql_col_malloc(size_t bytes);
void *tsql_col_calloc(size_t n, size_t size);
void *tsql_col_realloc(void *p, size_t bytes);
/* Frees a block of the functions above; NULL is ignored. */
void tsql_col_free(void *p);

#endif
