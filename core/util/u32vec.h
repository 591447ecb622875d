/*
 * u32vec.h — a growable array of uint32 (uids), for the analyses that collect events:
 * u32vec {v, n, cap} and u32vec_push(), as vec.h defines them.
 */
#ifndef TSQL_U32VEC_H
#define TSQL_U32VEC_H

#include <stdint.h>

#include "util/vec.h"

TSQL_VEC(u32vec, uint32_t, 256)

#endif
