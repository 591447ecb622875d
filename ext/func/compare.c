/*
 * compare.c — the comparison functions as table-valued functions over SQL views
 * (docs/compare.md): compare_ops, compare_layers, compare_kernels, compare_fusion,
 * compare_metadata, compare_phases, compare_stacks (gpu_ops streams from ext/vtab/compare_events.c).
 *
 * Each is an eponymous virtual table whose rows are those of one view of
 * sql/compare/ (named in the table below), evaluated with the call's arguments:
 * the views read them with compare_arg('<name>'). The view is streamed by the shared
 * runner (ext/vtab/view_runner.c), with the call's arguments and traces current
 * around each step, so calls may nest or interleave.
 * Also raise_error(msg), which fails the
 * statement with msg (the views use it for a phase that is in neither trace).
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdlib.h>
#include <string.h>

#include "catalog/registration.h"
#include "vtab/compare_events.h"
#include "vtab/view_runner.h"

/* every function takes its first two arguments; the views are those of sql/compare/ */
#define CMP_REQUIRED 2

static const tsql_view_fn cmp_fns[] = {
    {"compare_ops", "compare_ops_v", 3, {"baseline", "variant", "phase"}, NULL},
    {"compare_layers", "compare_layers_v", 3, {"baseline", "variant", "phase"}, NULL},
    {"compare_kernels", "compare_kernels_v", 3, {"baseline", "variant", "phase"}, NULL},
    {"compare_fusion", "compare_fusion_v", 3, {"baseline", "variant", "phase"}, NULL},
    {"compare_metadata", "compare_metadata_v", 3, {"baseline", "variant", "phase"}, NULL},
    {"compare_phases", "compare_phases_v", 2, {"baseline", "variant"}, NULL},
    {"compare_stacks", "compare_stacks_v", 4, {"trace", "operation", "n", "phase"}, NULL},
};

/* one call running: its arguments (copies) and its traces */
typedef struct cmp_frame {
    const tsql_view_fn *fn;
    sqlite3_value *argv[TSQL_VIEW_MAX_ARGS];
    tsql_cmp_sides *sides;
    struct cmp_frame *up;          /* the call current before this one's step */
    tsql_cmp_sides *up_sides;
} cmp_frame;

typedef struct {
    cmp_frame *top;       /* the innermost call stepping now */
    tsql_cmp_current cur; /* the catalog, and the running call's traces (compare_events, ...) */
} cmp_state;

static void cmp_end(void *frame)
{
    cmp_frame *f = frame;
    for (int a = 0; a < TSQL_VIEW_MAX_ARGS; a++) sqlite3_value_free(f->argv[a]);
    tsql_cmp_sides_unref(f->sides);
    sqlite3_free(f);
}

/* The traces of frame f's trace arguments (baseline, variant, trace), each with its
 * GPU events classified (ext/vtab/compare_events.c). */
static int cmp_sides_of(cmp_state *st, const cmp_frame *f, tsql_cmp_sides **out, char **err)
{
    const char *names[TSQL_VIEW_MAX_ARGS];
    sqlite3_value *specs[TSQL_VIEW_MAX_ARGS], *phase = NULL;
    int n = 0;
    for (int a = 0; a < f->fn->nargs; a++) {
        const char *name = f->fn->args[a];
        if (strcmp(name, "phase") == 0) phase = f->argv[a];
        if (strcmp(name, "baseline") != 0 && strcmp(name, "variant") != 0 && strcmp(name, "trace") != 0) continue;
        names[n] = name;
        specs[n++] = f->argv[a];
    }
    return tsql_cmp_sides_build(st->cur.catalog, names, specs, n, phase, out, err);
}

static int cmp_begin(void *state, const tsql_view_fn *fn, sqlite3_value **argv, void **frame, char **err)
{
    int given = 0;
    for (int a = 0; a < fn->nargs; a++) given |= argv[a] != NULL;
    /* no arguments at all (SELECT * FROM compare_ops): no rows, like an empty listing */
    if (!given) return SQLITE_DONE;
    for (int a = 0; a < CMP_REQUIRED; a++) {
        if (!argv[a] || sqlite3_value_type(argv[a]) == SQLITE_NULL) {
            *err = sqlite3_mprintf("%s: argument %s is required (%s(%s%s%s, ...))", fn->name, fn->args[a],
                                   fn->name, fn->args[0], fn->nargs > 1 ? ", " : "",
                                   fn->nargs > 1 ? fn->args[1] : "");
            return SQLITE_ERROR;
        }
    }
    cmp_frame *f = sqlite3_malloc(sizeof *f);
    if (!f) return SQLITE_NOMEM;
    memset(f, 0, sizeof *f);
    f->fn = fn;
    for (int a = 0; a < fn->nargs; a++)
        if (argv[a] && !(f->argv[a] = sqlite3_value_dup(argv[a]))) {
            cmp_end(f);
            return SQLITE_NOMEM;
        }
    int rc = cmp_sides_of(state, f, &f->sides, err);
    if (rc != SQLITE_OK) {
        cmp_end(f);
        return rc;
    }
    *frame = f;
    return SQLITE_OK;
}

static void cmp_enter(void *state, void *frame)
{
    cmp_state *st = state;
    cmp_frame *f = frame;
    f->up = st->top;
    f->up_sides = st->cur.sides;
    st->top = f;
    st->cur.sides = f->sides;
}

static void cmp_leave(void *state, void *frame)
{
    cmp_state *st = state;
    cmp_frame *f = frame;
    st->top = f->up;
    st->cur.sides = f->up_sides;
}

/* compare_arg(name): the named argument of the innermost comparison call running */
static void fn_compare_arg(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    cmp_state *st = sqlite3_user_data(ctx);
    const char *name = (const char *)sqlite3_value_text(argv[0]);
    if (!st->top) return; /* a view read directly: no arguments, no rows */
    for (int a = 0; name && a < st->top->fn->nargs; a++) {
        if (strcmp(name, st->top->fn->args[a]) == 0) {
            if (st->top->argv[a]) sqlite3_result_value(ctx, st->top->argv[a]);
            return;
        }
    }
    /* an argument the running function does not take is NULL */
}

static void fn_raise_error(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *msg = (const char *)sqlite3_value_text(argv[0]);
    sqlite3_result_error(ctx, msg ? msg : "raise_error", -1);
}

static int register_compare(sqlite3 *db, tsql_catalog *c)
{
    cmp_state *st = sqlite3_malloc(sizeof *st);
    if (!st) return SQLITE_NOMEM;
    st->cur.catalog = c;
    st->cur.sides = NULL;
    st->top = NULL;
    int rc = sqlite3_create_function_v2(db, "compare_arg", 1, tsql_fn_flags(TSQL_STATE), st, fn_compare_arg,
                                        NULL, NULL, sqlite3_free);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function(db, "raise_error", 1, tsql_fn_flags(TSQL_STATE), NULL,
                                     fn_raise_error, NULL, NULL);
    const tsql_view_family family = {.state = st, .cost = 1000, .rows = 100, .begin = cmp_begin,
                                     .enter = cmp_enter, .leave = cmp_leave, .end = cmp_end};
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof cmp_fns / sizeof *cmp_fns; i++)
        rc = tsql_view_fn_register(db, &cmp_fns[i], &family);
    if (rc == SQLITE_OK) rc = tsql_register_compare_tables(db, &st->cur);
    return rc;
}

const tsql_registration tsql_reg_compare = {.what = "comparison functions", .add = register_compare};
