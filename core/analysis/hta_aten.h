/*
 * hta_aten.h — HTA's ATen-op launch records (get_aten_op_kernels_and_delay): for each
 * kernel launch, the innermost ATen op around it (on any thread) and the kernel it
 * launched. Reference: docs/hta.md. The grouping into kernel sequences is SQL
 * (sql/hta/hta_aten_op_kernels_and_delay_v.sql); ext/vtab/hta_rows.c exposes the records as hta_aten_launches.
 */
#ifndef TSQL_HTA_ATEN_H
#define TSQL_HTA_ATEN_H

#include <stdint.h>

#include "analysis/hta.h"

typedef struct tsql_hta_aten {
    uint32_t n;         /* records, in launch (event) order */
    uint32_t *launch;   /* row of the launch (cudaLaunchKernel, cuLaunchKernel, ...) */
    uint32_t *op;       /* row of the ATen op: the latest start among those enclosing it */
    uint32_t *kernel;   /* row of its kernel (the first, when it launched several) */
    uint32_t *nkernels; /* device rows whose index_correlation is the launch */
} tsql_hta_aten;

/* The records of r (rows of trace t); with kept_only, only rows with TSQL_HTA_KEEP
 * take part (the last-step filter). NULL on OOM. */
tsql_hta_aten *tsql_hta_aten_build(const tsql_trace *t, const tsql_hta_rows *r, int kept_only);
void tsql_hta_aten_free(tsql_hta_aten *a);

#endif
