/*
 * pseudo_plan.c — what the pseudo-op rules share (pseudo_internal.h): names, the name
 * index test, args, the shape lists a pseudo op copies, and appending to the plan. The
 * MoE rules (pseudo_ops.c) and the rules on the parent chain (pseudo_wrap.c) both build
 * on it; it calls neither.
 */
#include "analysis/pseudo_internal.h"

#include <stdlib.h>
#include <string.h>

#include "store/intern.h"
#include "store/store.h"
#include "tree/tree.h"
#include "util/buf.h"

const char *tsql_pseudo_name(const tsql_trace *t, uint32_t u)
{
    return t->name[u] ? tsql_intern_text(&t->strings, t->name[u]) : "";
}

/* 1 when some event of TraceLens's name index carries this name: tree nodes (ops,
 * runtime and driver calls, Python frames) and linked GPU events */
int tsql_pseudo_name_present(const tsql_trace *t, const char *name)
{
    uint32_t id = tsql_intern_find(&t->strings, name, strlen(name));
    if (!id) return 0;
    for (uint32_t u = 0; u < t->n; u++) {
        if (t->name[u] != id) continue;
        int k = t->kind[u];
        if (k == TSQL_K_CPU_OP || k == TSQL_K_RUNTIME || k == TSQL_K_DRIVER || k == TSQL_K_PYTHON) return 1;
        if (tsql_kind_is_gpu(k)) {
            uint32_t r = tsql_kernel_row(t, u);
            if (r != TSQL_NONE && t->kernels.tl_runtime[r] != TSQL_NONE) return 1;
        }
    }
    return 0;
}

/* the value text of args key of u (expanded args in *scratch), or NULL */
const char *tsql_pseudo_arg(const tsql_trace *t, uint32_t u, const char *key, tsql_buf *scratch, size_t *len)
{
    scratch->n = 0;
    long n = tsql_trace_args_json(t, u, scratch);
    if (n <= 0) return NULL;
    return tsql_template_member(scratch->p, scratch->n, key, len);
}

typedef tsql_pseudo_planner planner;

int tsql_pseudo_put_shapes(planner *pl, uint32_t donor, uint32_t fallback, int *first)
{
    static const char *const lists[] = {"Input Dims", "Input type", "Input Strides", "Concrete Inputs"};
    for (size_t i = 0; i < 4; i++) {
        size_t len;
        const char *v = tsql_pseudo_arg(pl->t, donor, lists[i], &pl->a, &len);
        if (!v && fallback != TSQL_NONE) v = tsql_pseudo_arg(pl->t, fallback, lists[i], &pl->a, &len);
        if (!v) continue;
        if (tsql_bprintf(&pl->b, "%s\"%s\":%.*s", *first ? "" : ",", lists[i], (int)len, v)) return -1;
        *first = 0;
    }
    return 0;
}

int tsql_pseudo_push(planner *pl, tsql_pseudo_op op, const tsql_buf *args)
{
    tsql_pseudo_plan *o = pl->out;
    if (o->n == o->cap) {
        size_t nc = o->cap ? o->cap * 2 : 16;
        tsql_pseudo_op *nv = realloc(o->v, nc * sizeof *nv);
        if (!nv) return -1;
        o->v = nv, o->cap = nc;
    }
    op.args = malloc(args->n + 1);
    if (!op.args) return -1;
    memcpy(op.args, args->p, args->n);
    op.args[args->n] = 0;
    op.uid = pl->t->n + (uint32_t)o->n;
    o->v[o->n++] = op;
    return 0;
}

