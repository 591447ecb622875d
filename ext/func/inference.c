/*
 * inference.c — the call-stack functions of the inference report (docs/inference.md,
 * Call stacks; TraceLens's tree with Python frames: core/analysis/py_tree.c):
 *
 *   inference_call_stack(trace, uid [, stop_uid])
 *       JSON array, outermost first: the frames of the path from event uid (itself
 *       included) up to stop_uid (left out) or the root, those named with "nn.Module",
 *       "::" or "/" and the cpu_ops, each with every "_<digits>" removed
 *   inference_kernel_stack(trace, node_uid, gpu_uid)
 *       JSON array: the call stack of GPU event gpu_uid in the unified row of node_uid
 *       (the node's stack, then the frames between the kernel's launch and the node; a
 *       wrapping pseudo op that TraceLens reaches from its list of root ops, not from
 *       above, starts its own stack: docs/inference.md, Pseudo ops)
 *   inference_module_stack(trace, uid)
 *       JSON array: the event's own name, then the name of every ancestor holding
 *       "nn.Module", innermost first (a name longer than 256 characters cut to 256 + "..")
 *   strip_instance_ids(text)      text with every "_<digits>" removed
 *   call_stack_full(summary)      from a kernel_details_summary whose entries carry
 *       "call_stack": the chains call_stack + [kernel name]; one entry: its chain; several:
 *       their common prefix, then each distinct remaining tail as a list (first seen
 *       first); JSON, or NULL when the summary is empty, or the text Not found when an
 *       entry has no name or a frame that is not a string
 *   entry_point(name, call_stack_full)
 *       the Python frame a user looks at for the op (docs/inference.md, entry_point), or
 *       'Not found'
 *   trace_inference_prepare(trace)
 *       the changes TraceLens's inference report makes to the tree before reading it
 *       (SGLang profiler names, the inference annotation rule, the pseudo ops:
 *       pseudo_ops.h), once,
 *       before the trace is analysed; returns the trace id
 * The trace must be open already.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis/pseudo_ops.h"
#include "analysis/py_tree.h"
#include "analysis/unified.h"
#include "catalog/registration.h"
#include "text/jsonout.h"
#include "util/buf.h"
#include "util/vec.h"

#define MODULE_NAME_MAX 256

/* The open trace of argv[0] and a valid uid of argv[1]; NULL after reporting why. */
static tsql_entry *trace_and_uid(sqlite3_context *ctx, sqlite3_value **argv, const char *fn, uint32_t *uid)
{
    tsql_catalog *c = sqlite3_user_data(ctx);
    if (sqlite3_value_numeric_type(argv[1]) != SQLITE_INTEGER) {
        char *m = sqlite3_mprintf("%s: uid must be an integer (an event's uid)", fn);
        sqlite3_result_error(ctx, m ? m : fn, -1);
        sqlite3_free(m);
        return NULL;
    }
    char *zErr = NULL;
    tsql_entry *e = tsql_catalog_resolve(c, argv[0], 0, &zErr);
    if (!e) {
        sqlite3_result_error(ctx, zErr ? zErr : "no such trace (open it with trace_open first)", -1);
        sqlite3_free(zErr);
        return NULL;
    }
    sqlite3_int64 u = sqlite3_value_int64(argv[1]);
    if (u < 0 || u >= (sqlite3_int64)e->trace->n) {
        char *m = sqlite3_mprintf("%s: no event with uid %lld in trace %lld (uids are 0..%u)", fn, (long long)u,
                                  (long long)e->id, e->trace->n ? e->trace->n - 1 : 0);
        sqlite3_result_error(ctx, m ? m : fn, -1);
        sqlite3_free(m);
        tsql_entry_unref(e);
        return NULL;
    }
    *uid = (uint32_t)u;
    return e;
}

static const char *name_of(const tsql_trace *t, uint32_t u)
{
    return t->name[u] ? tsql_intern_text(&t->strings, t->name[u]) : "";
}

/* Appends to b (comma-separated, after *first) the stack frames of the path from `from`
 * up to `stop` (left out) or the root, outermost first, "_<digits>" removed. */
static int put_stack(tsql_buf *b, int *first, const tsql_trace *t, const tsql_py_tree *pt, uint32_t from,
                     uint32_t stop)
{
    uint32_t *path = NULL;
    size_t n = 0, cap = 0;
    char *tmp = NULL;
    int rc = -1;
    for (uint32_t u = from; u != TSQL_NONE && u != stop && n <= t->n; u = pt->parent[u]) {
        if (!tsql_py_stack_frame(name_of(t, u), t->kind[u])) continue;
        if (n == cap) {
            uint32_t *np = tsql_grow(path, &cap, sizeof *np, 64);
            if (!np) goto out;
            path = np;
        }
        path[n++] = u;
    }
    for (size_t k = n; k-- > 0;) {
        const char *nm = name_of(t, path[k]);
        char *nt = realloc(tmp, strlen(nm) + 1);
        if (!nt) goto out;
        tmp = nt;
        size_t len = tsql_strip_instance_ids(nm, tmp);
        if ((!*first && tsql_bputc(b, ',')) || tsql_json_quote(b, tmp, len)) goto out;
        *first = 0;
    }
    rc = 0;
out:
    free(path);
    free(tmp);
    return rc;
}

/* an optional uid argument: TSQL_NONE for NULL; -1 after reporting a non-integer */
static int opt_uid(sqlite3_context *ctx, sqlite3_value *v, const char *what, uint32_t *out)
{
    *out = TSQL_NONE;
    if (sqlite3_value_type(v) == SQLITE_NULL) return 0;
    if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER) {
        char *m = sqlite3_mprintf("%s must be an integer (an event's uid) or NULL", what);
        sqlite3_result_error(ctx, m ? m : what, -1);
        sqlite3_free(m);
        return -1;
    }
    sqlite3_int64 s = sqlite3_value_int64(v);
    if (s >= 0 && s < (sqlite3_int64)UINT32_MAX) *out = (uint32_t)s;
    return 0;
}

static void fn_call_stack(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) return;
    uint32_t uid, stop = TSQL_NONE;
    if (argc > 2 && opt_uid(ctx, argv[2], "inference_call_stack: stop_uid", &stop)) return;
    tsql_entry *e = trace_and_uid(ctx, argv, "inference_call_stack", &uid);
    if (!e) return;
    const tsql_py_tree *pt = tsql_py_tree_get(e->trace);
    tsql_buf b = {0};
    int first = 1;
    if (!pt || tsql_bputc(&b, '[') || put_stack(&b, &first, e->trace, pt, uid, stop) || tsql_bputc(&b, ']'))
        sqlite3_result_error_nomem(ctx);
    else
        sqlite3_result_text(ctx, b.p, (int)b.n, SQLITE_TRANSIENT);
    free(b.p);
    tsql_entry_unref(e);
}

/* 1 when the unified row of node starts its own stack: a wrapping pseudo op, which
 * TraceLens lists among its root ops while it has an op above it (docs/inference.md,
 * Pseudo ops), reached from that list because an op above it is a unified row itself
 * (the walk from the top stopped there); its stack then starts with it */
static int fresh_root(const tsql_trace *t, uint32_t node)
{
    if (!(t->flags[node] & TSQL_F_TL_ROOT) || t->parent[node] == TSQL_NONE) return 0;
    const tsql_unified *u = tsql_unified_peek(t);
    if (!u) return 0;
    uint32_t steps = 0;
    for (uint32_t a = t->parent[node]; a != TSQL_NONE && steps++ < t->n; a = t->parent[a])
        for (uint32_t i = 0; i < u->n; i++)
            if (!u->rows[i].name && u->rows[i].node == a) return 1;
    return 0;
}

/* inference_kernel_stack(trace, node_uid, gpu_uid): the call stack TraceLens gives GPU
 * event gpu_uid of the unified row of node_uid: the node's stack, then the frames from
 * the GPU event's parent up to the node (or, when the node is not above it, up to the
 * root: TraceLens walks on) */
static void fn_kernel_stack(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    for (int i = 0; i < 3; i++)
        if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return;
    uint32_t node, gpu;
    if (opt_uid(ctx, argv[2], "inference_kernel_stack: gpu_uid", &gpu)) return;
    tsql_entry *e = trace_and_uid(ctx, argv, "inference_kernel_stack", &node);
    if (!e) return;
    tsql_trace *t = e->trace;
    if (gpu == TSQL_NONE || gpu >= t->n) {
        sqlite3_result_error(ctx, "inference_kernel_stack: gpu_uid is not an event of the trace", -1);
        tsql_entry_unref(e);
        return;
    }
    const tsql_py_tree *pt = tsql_py_tree_get(t);
    tsql_buf b = {0};
    int first = 1;
    if (!pt || tsql_bputc(&b, '[') ||
        put_stack(&b, &first, t, pt, node, fresh_root(t, node) ? pt->parent[node] : TSQL_NONE) ||
        put_stack(&b, &first, t, pt, pt->parent[gpu], node) || tsql_bputc(&b, ']'))
        sqlite3_result_error_nomem(ctx);
    else
        sqlite3_result_text(ctx, b.p, (int)b.n, SQLITE_TRANSIENT);
    free(b.p);
    tsql_entry_unref(e);
}

static void fn_module_stack(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) return;
    uint32_t uid;
    tsql_entry *e = trace_and_uid(ctx, argv, "inference_module_stack", &uid);
    if (!e) return;
    tsql_trace *t = e->trace;
    const tsql_py_tree *pt = tsql_py_tree_get(t);
    tsql_buf b = {0};
    if (!pt || tsql_bputc(&b, '[') || tsql_json_text(&b, name_of(t, uid))) goto oom;
    uint32_t steps = 0;
    for (uint32_t u = pt->parent[uid]; u != TSQL_NONE && steps++ < t->n; u = pt->parent[u]) {
        const char *nm = name_of(t, u);
        if (!strstr(nm, "nn.Module")) continue;
        size_t len = strlen(nm);
        if (tsql_bputc(&b, ',')) goto oom;
        if (len > MODULE_NAME_MAX) {
            /* the cut name and its ".." as one JSON string */
            char *cut = malloc(MODULE_NAME_MAX + 3);
            if (!cut) goto oom;
            memcpy(cut, nm, MODULE_NAME_MAX);
            memcpy(cut + MODULE_NAME_MAX, "..", 3);
            int rc = tsql_json_quote(&b, cut, MODULE_NAME_MAX + 2);
            free(cut);
            if (rc) goto oom;
        } else if (tsql_json_quote(&b, nm, len)) {
            goto oom;
        }
    }
    if (tsql_bputc(&b, ']')) goto oom;
    sqlite3_result_text(ctx, b.p, (int)b.n, SQLITE_TRANSIENT);
    goto done;
oom:
    sqlite3_result_error_nomem(ctx);
done:
    free(b.p);
    tsql_entry_unref(e);
}

static void fn_strip_ids(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *s = (const char *)sqlite3_value_text(argv[0]);
    if (!s) return;
    char *out = sqlite3_malloc64((sqlite3_uint64)strlen(s) + 1);
    if (!out) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    size_t n = tsql_strip_instance_ids(s, out);
    sqlite3_result_text(ctx, out, (int)n, sqlite3_free);
}

/* ---------- call_stack_full ---------- */

/* chain k of the summary: its call_stack's strings then the kernel name (borrowed) */
typedef struct chain {
    const char **v;
    int n;
} chain;

static int json_put_list(tsql_buf *b, const char *const *v, int n)
{
    if (tsql_bputc(b, '[')) return -1;
    for (int i = 0; i < n; i++)
        if ((i && tsql_bputc(b, ',')) || tsql_json_text(b, v[i])) return -1;
    return tsql_bputc(b, ']');
}

static int same_tail(const chain *a, const chain *b, int from)
{
    if (a->n != b->n) return 0;
    for (int i = from; i < a->n; i++)
        if (strcmp(a->v[i], b->v[i]) != 0) return 0;
    return 1;
}

static void fn_call_stack_full(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *s = (const char *)sqlite3_value_text(argv[0]);
    if (!s) return;
    cJSON *sum = cJSON_Parse(s);
    chain *ch = NULL;
    tsql_buf b = {0};
    int n = 0, ok = 1;
    if (!cJSON_IsArray(sum)) {
        cJSON_Delete(sum);
        sqlite3_result_error(ctx, "call_stack_full: argument is not a JSON array (a kernel_details_summary)", -1);
        return;
    }
    n = cJSON_GetArraySize(sum);
    if (n == 0) goto done;
    ch = calloc((size_t)n, sizeof *ch);
    if (!ch) goto oom;
    int k = 0;
    const cJSON *ent;
    cJSON_ArrayForEach(ent, sum) {
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(ent, "name");
        const cJSON *cs = cJSON_GetObjectItemCaseSensitive(ent, "call_stack");
        int m = cJSON_IsArray(cs) ? cJSON_GetArraySize(cs) : 0;
        ch[k].v = malloc((size_t)(m + 1) * sizeof *ch[k].v);
        if (!ch[k].v) goto oom;
        const cJSON *f;
        int i = 0;
        if (cJSON_IsArray(cs))
            cJSON_ArrayForEach(f, cs) ch[k].v[i++] = cJSON_IsString(f) ? f->valuestring : (ok = 0, "");
        if (!cJSON_IsString(nm)) ok = 0;
        ch[k].v[i++] = cJSON_IsString(nm) ? nm->valuestring : "";
        ch[k].n = i;
        k++;
    }
    if (!ok) {
        sqlite3_result_text(ctx, "Not found", -1, SQLITE_STATIC);
        goto done;
    }
    if (n == 1) {
        if (json_put_list(&b, ch[0].v, ch[0].n)) goto oom;
    } else {
        /* the common prefix: positions where every chain agrees, up to the first that
         * does not */
        int pre = ch[0].n;
        for (int j = 1; j < n; j++) {
            int i = 0;
            while (i < pre && i < ch[j].n && !strcmp(ch[0].v[i], ch[j].v[i])) i++;
            pre = i;
        }
        if (tsql_bputc(&b, '[')) goto oom;
        for (int i = 0; i < pre; i++)
            if ((i && tsql_bputc(&b, ',')) || tsql_json_text(&b, ch[0].v[i])) goto oom;
        int first = pre == 0;
        for (int j = 0; j < n; j++) {
            int seen = 0;
            for (int q = 0; q < j && !seen; q++) seen = same_tail(&ch[q], &ch[j], pre);
            if (seen) continue;
            if ((!first && tsql_bputc(&b, ',')) || json_put_list(&b, ch[j].v + pre, ch[j].n - pre)) goto oom;
            first = 0;
        }
        if (tsql_bputc(&b, ']')) goto oom;
    }
    sqlite3_result_text(ctx, b.p, (int)b.n, SQLITE_TRANSIENT);
    goto done;
oom:
    sqlite3_result_error_nomem(ctx);
done:
    for (int j = 0; ch && j < n; j++) free(ch[j].v);
    free(ch);
    free(b.p);
    cJSON_Delete(sum);
}

/* ---------- entry_point ---------- */

static const char *const wrapper_prefixes[] = {"<built-in", "pybind11_builtins", "nn.Module:"};
static const char *const wrapper_paths[] = {
    "torch/_ops.py", "torch/nn/modules/module.py", "torch/utils/_contextlib.py", "torch/utils/_device.py",
    "torch/_tensor.py", "torch/functional.py", "torch/overrides.py", "torch/_inductor/", "torch/_functorch/",
    "torch/distributed/c10d_logger.py", "triton/backends/"};
static const char *const wrapper_functions[] = {
    "__torch_function__", "_call_impl", "_wrapped_call_impl", "decorate_context", "dispatch_wrapper",
    "handle_torch_function", "wrapper", "custom_wrapper", "wrapper_custom", "outer_wrapper"};

/* the function part of a frame: the text after its last "): ", or the whole frame */
static const char *frame_function(const char *f)
{
    const char *r = f, *p;
    while ((p = strstr(r, "): ")) != NULL) r = p + 3;
    return r == f ? f : r;
}

static int is_wrapper(const char *f)
{
    for (size_t i = 0; i < sizeof wrapper_prefixes / sizeof *wrapper_prefixes; i++)
        if (!strncmp(f, wrapper_prefixes[i], strlen(wrapper_prefixes[i]))) return 1;
    for (size_t i = 0; i < sizeof wrapper_paths / sizeof *wrapper_paths; i++)
        if (strstr(f, wrapper_paths[i])) return 1;
    const char *fn = frame_function(f);
    for (size_t i = 0; i < sizeof wrapper_functions / sizeof *wrapper_functions; i++)
        if (!strcmp(fn, wrapper_functions[i])) return 1;
    return 0;
}

static void lower(char *s)
{
    for (; *s; s++) *s = (char)tolower((unsigned char)*s);
}

/* appends the strings of a nested JSON list in order */
static int flatten(const cJSON *a, const char ***v, int *n, int *cap)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, a) {
        if (cJSON_IsArray(x)) {
            if (flatten(x, v, n, cap)) return -1;
        } else if (cJSON_IsString(x)) {
            if (*n == *cap) {
                int nc = *cap ? *cap * 2 : 64;
                const char **nv = realloc((void *)*v, (size_t)nc * sizeof *nv);
                if (!nv) return -1;
                *v = nv;
                *cap = nc;
            }
            (*v)[(*n)++] = x->valuestring;
        }
    }
    return 0;
}

/* the name without a trailing "_<digits>" */
static size_t trim_instance(const char *s)
{
    size_t n = strlen(s), i = n;
    while (i > 0 && isdigit((unsigned char)s[i - 1])) i--;
    return i < n && i > 0 && s[i - 1] == '_' ? i - 1 : n;
}

static void fn_entry_point(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *name = (const char *)sqlite3_value_text(argv[0]);
    const char *csf = (const char *)sqlite3_value_text(argv[1]);
    cJSON *a = csf ? cJSON_Parse(csf) : NULL;
    const char **v = NULL;
    char *local = NULL, *fn = NULL;
    int n = 0, cap = 0;
    const char *res = "Not found";
    if (!name || !cJSON_IsArray(a)) goto done;
    if (flatten(a, &v, &n, &cap)) goto oom;
    int at = -1;
    for (int i = n; i-- > 0 && at < 0;)
        if (!strcmp(v[i], name)) at = i;
    if (at < 0) {
        size_t tl = trim_instance(name);
        for (int i = n; i-- > 0 && at < 0;)
            if (strlen(v[i]) == tl && !strncmp(v[i], name, tl)) at = i;
    }
    if (at < 0) goto done;
    const char *colons = NULL, *p = name;
    while ((p = strstr(p, "::")) != NULL) colons = p, p += 2;
    local = strdup(colons ? colons + 2 : name);
    if (!local) goto oom;
    lower(local);
    /* inward: the first later .py frame whose function holds the op's local name */
    for (int i = at + 1; i < n; i++) {
        if (!strstr(v[i], ".py")) continue;
        free(fn);
        fn = strdup(frame_function(v[i]));
        if (!fn) goto oom;
        lower(fn);
        if (strstr(fn, local)) {
            res = v[i];
            goto done;
        }
    }
    /* outward: the nearest earlier .py frame that is not a wrapper */
    for (int i = at; i-- > 0;)
        if (strstr(v[i], ".py") && !is_wrapper(v[i])) {
            res = v[i];
            break;
        }
    goto done;
oom:
    sqlite3_result_error_nomem(ctx);
    res = NULL;
done:
    if (res) sqlite3_result_text(ctx, res, -1, SQLITE_TRANSIENT);
    free((void *)v);
    free(local);
    free(fn);
    cJSON_Delete(a);
}

/* trace_inference_prepare(trace) -> trace_id: the inference report's changes to the
 * tree (core/analysis/pseudo_ops.h), once, before the trace is analysed */
static void fn_prepare(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    tsql_catalog *c = sqlite3_user_data(ctx);
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_error(ctx, "trace_inference_prepare(trace): give an open trace (trace_id, label or path)", -1);
        return;
    }
    char *zErr = NULL;
    tsql_entry *e = tsql_catalog_resolve(c, argv[0], 0, &zErr);
    if (!e) {
        sqlite3_result_error(ctx, zErr ? zErr : "trace_inference_prepare: no such trace (trace_open it first)", -1);
        sqlite3_free(zErr);
        return;
    }
    int64_t r = tsql_trace_inference_prepare(e->trace);
    if (r == -2) {
        char *m = sqlite3_mprintf("trace_inference_prepare: trace %lld was already analysed by this connection; "
                                  "call it right after trace_open (and trace_merge_capture), or trace_close the "
                                  "trace and open it again", (long long)e->id);
        sqlite3_result_error(ctx, m ? m : "trace_inference_prepare: the trace was already analysed", -1);
        sqlite3_free(m);
    } else if (r < 0) {
        sqlite3_result_error_nomem(ctx);
    } else {
        sqlite3_result_int64(ctx, e->id);
    }
    tsql_entry_unref(e);
}

/* the stack functions read open traces only (like python_frame_at) */
static const tsql_fn_def inference_fns[] = {
    {"inference_call_stack", 2, TSQL_TRUSTED, fn_call_stack, NULL, NULL},
    {"inference_call_stack", 3, TSQL_TRUSTED, fn_call_stack, NULL, NULL},
    {"inference_kernel_stack", 3, TSQL_TRUSTED, fn_kernel_stack, NULL, NULL},
    {"inference_module_stack", 2, TSQL_TRUSTED, fn_module_stack, NULL, NULL},
    {"trace_inference_prepare", 1, TSQL_TOP_LEVEL, fn_prepare, NULL, NULL},
    {"strip_instance_ids", 1, TSQL_PURE, fn_strip_ids, NULL, NULL},
    {"call_stack_full", 1, TSQL_PURE, fn_call_stack_full, NULL, NULL},
    {"entry_point", 2, TSQL_PURE, fn_entry_point, NULL, NULL},
};

const tsql_registration tsql_reg_inference = {.what = "inference report functions", TSQL_FNS(inference_fns)};
