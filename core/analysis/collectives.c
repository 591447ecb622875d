/* collectives.c — the collective calls of one trace; see collectives.h. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "analysis/collectives.h"
#include "text/jsonlex.h"
#include "text/pyrepr.h"

const char *const tsql_coll_size_source_names[4] = {NULL, "kernel", "call", "annotation"};

const char *const tsql_coll_tl_keys[TSQL_COLL_TL_N] = {
    [TSQL_COLL_TL_PG] = "Process Group Name",   [TSQL_COLL_TL_PG_RANKS] = "Process Group Ranks",
    [TSQL_COLL_TL_NAME] = "Collective name",    [TSQL_COLL_TL_GROUP_SIZE] = "Group size",
    [TSQL_COLL_TL_DTYPE] = "dtype",             [TSQL_COLL_TL_IN_NELEMS] = "In msg nelems",
    [TSQL_COLL_TL_OUT_NELEMS] = "Out msg nelems", [TSQL_COLL_TL_IN_SPLIT] = "In split size",
    [TSQL_COLL_TL_OUT_SPLIT] = "Out split size", [TSQL_COLL_TL_STREAM] = "stream",
    [TSQL_COLL_TL_SEQ] = "Seq",
};

/* ---- an args value as TraceLens holds it ------------------------------------------ */

void tsql_pycell_clear(tsql_pycell *cell)
{
    if (cell->type == TSQL_PYCELL_TEXT) free(cell->v.s);
    cell->type = TSQL_PYCELL_NULL;
}

/* cell = the TEXT b[0..n) (copied); 0 or -1 on OOM */
static int pycell_text(tsql_pycell *cell, const char *b, size_t n)
{
    char *d = malloc(n + 1);
    if (!d) return -1;
    memcpy(d, b, n);
    d[n] = 0;
    cell->type = TSQL_PYCELL_TEXT;
    cell->v.s = d;
    return 0;
}

int tsql_coll_pycell(const char *args, size_t n, const char *key, tsql_pycell *cell)
{
    cell->type = TSQL_PYCELL_NULL;
    size_t len = 0;
    const char *v = n > 1 ? tsql_template_member(args, n, key, &len) : NULL;
    if (!v || !len) return 0;
    tsql_buf b = {0};
    int rc = 0;
    switch (*v) {
    case 'n': /* null: None, a missing value */
        return 0;
    case 't': /* json.load's bool, which pandas prints as Python does */
        return pycell_text(cell, "True", 4);
    case 'f':
        return pycell_text(cell, "False", 5);
    case '"':
        if (len < 2 || tsql_unescape(v + 1, len - 2, &b) < 0) rc = -1;
        break;
    case '[': /* TraceLens turns lists into tuples, recursively */
        if (tsql_pyrepr_text(&b, v, len, TSQL_PY_TUPLES, NULL) < 0) rc = -1;
        break;
    case '{': /* a dict stays a dict (lists inside it stay lists) */
        if (tsql_pyrepr_text(&b, v, len, 0, NULL) < 0) rc = -1;
        break;
    default: { /* a number: an integer spelling is a Python int, any other a float */
        int64_t i;
        if (tsql_parse_int64(v, len, &i) == 0) {
            cell->type = TSQL_PYCELL_INT;
            cell->v.i = i;
        } else {
            cell->type = TSQL_PYCELL_REAL;
            cell->v.r = tsql_parse_double(v, len);
        }
        return 0;
    }
    }
    if (rc == 0) rc = pycell_text(cell, b.p ? b.p : "", b.n);
    free(b.p);
    return rc;
}

/* ---- names ------------------------------------------------------------------------ */

static const struct {
    const char *compact, *kind;
} kinds[] = {
    {"allreduce", "allreduce"},       {"allgather", "allgather"},
    {"reducescatter", "reduce_scatter"}, {"alltoall", "all_to_all"},
    {"alltoallv", "all_to_allv"},     {"broadcast", "broadcast"},
    {"reduce", "reduce"},             {"gather", "gather"},
    {"scatter", "scatter"},           {"barrier", "barrier"},
    {"monitoredbarrier", "barrier"},  {"send", "send"},
    {"recv", "recv"},                 {"recvanysource", "recv"},
    {"sendrecv", "sendrecv"},
};

static const char *kind_of_compact(const char *c)
{
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strcmp(c, kinds[i].compact) == 0) return kinds[i].kind;
    return NULL;
}

const char *tsql_coll_kind(const char *name)
{
    if (!name || !*name) return NULL;
    char low[160];
    size_t n = 0;
    for (const char *p = name; *p && n + 1 < sizeof low; p++) low[n++] = (char)tolower((unsigned char)*p);
    low[n] = 0;
    if (strstr(low, "cross_device_reduce")) return "allreduce";
    /* kernel names: ncclKernel_AllReduce_..., ncclDevKernel_SendRecv(...), rccl... */
    if ((strncmp(low, "nccl", 4) == 0 || strncmp(low, "rccl", 4) == 0) && strstr(low, "kernel_")) {
        const char *k = strstr(low, "kernel_") + 7;
        char tok[40];
        size_t i = 0;
        while (k[i] && k[i] != '_' && k[i] != '(' && k[i] != '<' && i + 1 < sizeof tok) {
            tok[i] = k[i];
            i++;
        }
        tok[i] = 0;
        return kind_of_compact(tok);
    }
    /* recorded names, annotations (nccl:all_reduce), ops (c10d::_allgather_base_) */
    const char *s = strrchr(low, ':');
    s = s ? s + 1 : low;
    while (*s == '_' || *s == ' ') s++;
    char w[160];
    size_t m = strlen(s);
    if (m >= sizeof w) m = sizeof w - 1;
    memcpy(w, s, m);
    w[m] = 0;
    static const char *const suffixes[] = {"_coalesced", "_into_tensor", "_tensor", "_base", "_single", "_out"};
    for (int changed = 1; changed;) {
        changed = 0;
        while (m && (w[m - 1] == '_' || w[m - 1] == ' ')) w[--m] = 0;
        for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
            size_t l = strlen(suffixes[i]);
            if (m > l && strcmp(w + m - l, suffixes[i]) == 0) {
                m -= l;
                w[m] = 0;
                changed = 1;
            }
        }
    }
    char c[160];
    size_t j = 0;
    for (size_t i = 0; i < m; i++)
        if (w[i] != '_') c[j++] = w[i];
    c[j] = 0;
    return kind_of_compact(c);
}

typedef struct name_bytes {
    const char *name;
    int bytes;
} name_bytes;

int tsql_coll_dtype_bytes(const char *dtype)
{
    if (!dtype) return 0;
    /* c10 ScalarType names, as Kineto writes "dtype" (TraceLens's table first) */
    static const name_bytes nccl[] = {
        {"Float", 4},         {"Int", 4},           {"Long", 8},           {"BFloat16", 2},
        {"Bool", 1},          {"Byte", 1},          {"Double", 8},         {"Half", 2},
        {"Short", 2},         {"Char", 1},          {"UInt16", 2},         {"UInt32", 4},
        {"UInt64", 8},        {"ComplexHalf", 4},   {"ComplexFloat", 8},   {"ComplexDouble", 16},
        {"Float8_e4m3fn", 1}, {"Float8_e4m3fnuz", 1}, {"Float8_e5m2", 1},  {"Float8_e5m2fnuz", 1},
        {"Float8_e8m0fnu", 1},
    };
    for (size_t i = 0; i < sizeof nccl / sizeof *nccl; i++)
        if (strcmp(dtype, nccl[i].name) == 0) return nccl[i].bytes;
    /* Kineto "Input type" strings (annotations of older traces), any case */
    static const name_bytes types[] = {
        {"float", 4},          {"double", 8},        {"c10::Half", 2},     {"c10::BFloat16", 2},
        {"long int", 8},       {"int", 4},           {"short int", 2},     {"signed char", 1},
        {"unsigned char", 1},  {"bool", 1},          {"c10::Float8_e4m3fn", 1},
        {"c10::Float8_e4m3fnuz", 1}, {"c10::Float8_e5m2", 1}, {"c10::Float8_e5m2fnuz", 1},
        {"c10::complex<float>", 8}, {"c10::complex<double>", 16},
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (strcasecmp(dtype, types[i].name) == 0) return types[i].bytes;
    return 0;
}

/* ---- helpers ------------------------------------------------------------------------ */

typedef struct ctx {
    const tsql_trace *t;
    tsql_buf buf;  /* the args text of the last args_of() call */
    size_t args_n; /* its length, 0 when that event had no args */
    int oom;
} ctx;

static const char *name_of(const tsql_trace *t, uint32_t u)
{
    return tsql_intern_text(&t->strings, t->name[u]);
}

/* The args of u parsed, or NULL (none, unparseable, or OOM: c->oom set). */
static cJSON *args_of(ctx *c, uint32_t u)
{
    c->args_n = 0;
    if (u == TSQL_NONE || !c->t->args[u]) return NULL;
    c->buf.n = 0;
    if (tsql_trace_args_json(c->t, u, &c->buf) < 0 || tsql_buf_reserve(&c->buf, 1)) {
        c->oom = 1;
        return NULL;
    }
    c->buf.p[c->buf.n] = 0;
    c->args_n = c->buf.n;
    return cJSON_Parse(c->buf.p);
}

static char *dup_str(ctx *c, const char *s)
{
    char *d = strdup(s);
    if (!d) c->oom = 1;
    return d;
}

/* o[key], or NULL when o has no such member or it is JSON null */
static const cJSON *member(const cJSON *o, const char *key)
{
    const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    return cJSON_IsNull(v) ? NULL : v;
}

/* v as compact JSON text */
static char *compact_json(ctx *c, const cJSON *v)
{
    char *p = cJSON_PrintUnformatted(v);
    if (!p) {
        c->oom = 1;
        return NULL;
    }
    char *d = dup_str(c, p);
    cJSON_free(p);
    return d;
}

/* A member as text: strings as they are, other values as compact JSON. */
static char *text_member(ctx *c, const cJSON *o, const char *key)
{
    const cJSON *v = member(o, key);
    if (!v) return NULL;
    return cJSON_IsString(v) ? dup_str(c, v->valuestring) : compact_json(c, v);
}

/* A list member as compact JSON: a JSON array, or a string holding one ("[0, 1]");
 * other strings are kept as they are. */
static char *list_member(ctx *c, const cJSON *o, const char *key)
{
    const cJSON *v = member(o, key);
    if (!v || !cJSON_IsString(v)) return v ? compact_json(c, v) : NULL;
    cJSON *parsed = cJSON_Parse(v->valuestring);
    char *d = cJSON_IsArray(parsed) ? compact_json(c, parsed) : dup_str(c, v->valuestring);
    cJSON_Delete(parsed);
    return d;
}

static int64_t int_member(const cJSON *o, const char *key)
{
    const cJSON *v = member(o, key);
    if (cJSON_IsNumber(v) && v->valuedouble > -9.0e18 && v->valuedouble < 9.0e18 &&
        v->valuedouble == floor(v->valuedouble))
        return (int64_t)v->valuedouble;
    if (cJSON_IsString(v) && v->valuestring[0]) {
        char *e;
        errno = 0;
        long long x = strtoll(v->valuestring, &e, 10);
        if (*e == 0 && errno == 0) return x;
    }
    return TSQL_NULL;
}

static int has_member(const cJSON *o, const char *key)
{
    return member(o, key) != NULL;
}

static int is_op_name(const char *s)
{
    return strncmp(s, "c10d::", 6) == 0 || strncmp(s, "_c10d_functional::", 18) == 0 ||
           strncmp(s, "c10d_functional::", 17) == 0;
}

static int is_backend_annotation(const char *s)
{
    return strncmp(s, "nccl:", 5) == 0 || strncmp(s, "rccl:", 5) == 0 || strncmp(s, "gloo:", 5) == 0;
}

/* ---- annotations, sorted by (pid, tid, ts) for containment lookups ---------------- */

typedef struct ann {
    uint32_t pid, tid;       /* interned spellings: equal ids = same thread */
    int64_t ts, end;         /* ns; end = INT64_MAX when dur is unknown */
    uint32_t uid;
    uint8_t used;            /* held by a kernel's call */
} ann;

static int cmp_ann(const void *a, const void *b)
{
    const ann *x = a, *y = b;
    if (x->pid != y->pid) return x->pid < y->pid ? -1 : 1;
    if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
    if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
    return (x->uid > y->uid) - (x->uid < y->uid);
}

/* The first annotation on u's thread that lies within u's span, or NULL. */
static ann *annotation_in(const tsql_trace *t, ann *as, size_t n, uint32_t u)
{
    if (u == TSQL_NONE || t->ts_ns[u] == TSQL_NULL || t->dur_ns[u] == TSQL_NULL) return NULL;
    int64_t s = t->ts_ns[u], e = s + t->dur_ns[u];
    uint32_t pid = t->pid[u], tid = t->tid[u];
    size_t lo = 0, hi = n;
    while (lo < hi) { /* first (pid, tid, ts) >= (u.pid, u.tid, s) */
        size_t mid = lo + (hi - lo) / 2;
        const ann *a = &as[mid];
        int less = a->pid != pid ? a->pid < pid : a->tid != tid ? a->tid < tid : a->ts < s;
        if (less) lo = mid + 1;
        else hi = mid;
    }
    for (size_t i = lo; i < n; i++) {
        ann *a = &as[i];
        if (a->pid != pid || a->tid != tid || a->ts > e) break;
        if (a->end <= e) return a;
    }
    return NULL;
}

/* ---- rows ------------------------------------------------------------------------- */

static tsql_coll *new_row(ctx *c, tsql_coll_list *l)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 64;
        tsql_coll *nr = realloc(l->rows, nc * sizeof *nr);
        if (!nr) {
            c->oom = 1;
            return NULL;
        }
        l->rows = nr;
        l->cap = nc;
    }
    tsql_coll *r = &l->rows[l->n++];
    memset(r, 0, sizeof *r);
    r->uid = r->call = r->op = r->annotation = TSQL_NONE;
    r->group_size = r->in_nelems = r->out_nelems = TSQL_NULL;
    return r;
}

/* Fields from an args object with Kineto's collective keys (kernel or call). */
static void take_keys(ctx *c, tsql_coll *r, const cJSON *a, int src)
{
    if (!a) return;
    if (!r->coll_name) r->coll_name = text_member(c, a, "Collective name");
    if (!r->pg_name) r->pg_name = text_member(c, a, "Process Group Name");
    if (!r->pg_desc) r->pg_desc = text_member(c, a, "Process Group Description");
    if (!r->pg_ranks) r->pg_ranks = list_member(c, a, "Process Group Ranks");
    if (r->group_size == TSQL_NULL) r->group_size = int_member(a, "Group size");
    if (!r->in_split) r->in_split = list_member(c, a, "In split size");
    if (!r->out_split) r->out_split = list_member(c, a, "Out split size");
    if (r->size_source == TSQL_COLL_SIZE_NONE &&
        (has_member(a, "In msg nelems") || has_member(a, "Out msg nelems") || has_member(a, "dtype"))) {
        r->in_nelems = int_member(a, "In msg nelems");
        r->out_nelems = int_member(a, "Out msg nelems");
        r->dtype = text_member(c, a, "dtype");
        r->size_source = (uint8_t)src;
    }
}

/* Element count and dtype from an annotation's first recorded input. */
static void take_annotation(ctx *c, tsql_coll *r, const cJSON *a)
{
    if (!a || r->size_source != TSQL_COLL_SIZE_NONE) return;
    const cJSON *dims = cJSON_GetObjectItemCaseSensitive(a, "Input Dims");
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(a, "Input type");
    const cJSON *d0 = cJSON_IsArray(dims) ? cJSON_GetArrayItem(dims, 0) : NULL;
    const cJSON *t0 = cJSON_IsArray(types) ? cJSON_GetArrayItem(types, 0) : NULL;
    /* cJSON_IsArray / cJSON_IsString are false for NULL (the analyzer cannot see it) */
    if (!d0 || !t0 || !cJSON_IsArray(d0) || !cJSON_IsString(t0) || !t0->valuestring[0]) return;
    int64_t n = 1;
    for (const cJSON *x = d0->child; x; x = x->next) {
        if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble > 9e15) return;
        double p = (double)n * x->valuedouble;
        if (p > 9e15) return;
        n *= (int64_t)x->valuedouble;
    }
    r->in_nelems = n;
    r->dtype = dup_str(c, t0->valuestring);
    r->size_source = TSQL_COLL_SIZE_ANNOTATION;
}

/* 1 when name holds pat, ignoring ASCII case (TraceLens's case-insensitive search) */
static int contains_nocase(const char *name, const char *pat)
{
    size_t m = strlen(pat);
    for (const char *p = name; *p; p++)
        if (strncasecmp(p, pat, m) == 0) return 1;
    return 0;
}

/* TraceLens's reading of the kernel's own args (the last args_of() text), and the
 * collective name it infers from a custom all-reduce kernel's name. */
static void take_tl(ctx *c, tsql_coll *r)
{
    for (int f = 0; f < TSQL_COLL_TL_N; f++)
        if (tsql_coll_pycell(c->buf.p, c->args_n, tsql_coll_tl_keys[f], &r->tl[f]) < 0) c->oom = 1;
    tsql_pycell *name = &r->tl[TSQL_COLL_TL_NAME];
    if (name->type == TSQL_PYCELL_NULL && contains_nocase(name_of(c->t, r->uid), "cross_device_reduce") &&
        pycell_text(name, "allreduce", 9) < 0)
        c->oom = 1;
}

/* NCCL's sequence number from the call when the kernel has none (the last args_of()
 * text is the call's) */
static void take_call_seq(ctx *c, tsql_coll *r)
{
    tsql_pycell *seq = &r->tl[TSQL_COLL_TL_SEQ];
    if (seq->type == TSQL_PYCELL_NULL && tsql_coll_pycell(c->buf.p, c->args_n, "Seq", seq) < 0) c->oom = 1;
}

static void finish_row(tsql_coll *r, const tsql_trace *t)
{
    const char *k = tsql_coll_kind(r->coll_name);
    if (!k && r->annotation != TSQL_NONE) k = tsql_coll_kind(name_of(t, r->annotation));
    if (!k && r->op != TSQL_NONE) k = tsql_coll_kind(name_of(t, r->op));
    if (!k && r->source == TSQL_COLL_KERNEL) k = tsql_coll_kind(name_of(t, r->uid));
    r->kind = k ? k : "other";
    /* an annotation records the input only: the output is the same size when the
     * collective keeps the size */
    if (r->size_source == TSQL_COLL_SIZE_ANNOTATION && r->out_nelems == TSQL_NULL &&
        (strcmp(r->kind, "allreduce") == 0 || strcmp(r->kind, "broadcast") == 0 ||
         strcmp(r->kind, "all_to_all") == 0))
        r->out_nelems = r->in_nelems;
    r->dtype_bytes = tsql_coll_dtype_bytes(r->dtype);
}

static void free_row(tsql_coll *r)
{
    free(r->coll_name);
    free(r->pg_name);
    free(r->pg_desc);
    free(r->pg_ranks);
    free(r->dtype);
    free(r->in_split);
    free(r->out_split);
    for (int f = 0; f < TSQL_COLL_TL_N; f++) tsql_pycell_clear(&r->tl[f]);
}

void tsql_coll_free(tsql_coll_list *l)
{
    for (size_t i = 0; i < l->n; i++) free_row(&l->rows[i]);
    free(l->rows);
    memset(l, 0, sizeof *l);
}

/* ---- seq_in_group ------------------------------------------------------------------- */

typedef struct gkey {
    const char *pg;          /* NULL sorts first */
    int64_t ts;
    uint32_t uid;
    size_t row;
} gkey;

static int cmp_gkey(const void *a, const void *b)
{
    const gkey *x = a, *y = b;
    if (!x->pg != !y->pg) return x->pg ? 1 : -1;
    if (x->pg) {
        int c = strcmp(x->pg, y->pg);
        if (c) return c;
    }
    if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
    return (x->uid > y->uid) - (x->uid < y->uid);
}

static int cmp_uid(const void *a, const void *b)
{
    const tsql_coll *x = a, *y = b;
    return (x->uid > y->uid) - (x->uid < y->uid);
}

int tsql_coll_build(const tsql_trace *t, tsql_coll_list *out)
{
    memset(out, 0, sizeof *out);
    ctx C = {.t = t};
    ctx *c = &C;
    ann *as = NULL;
    size_t nas = 0;
    gkey *order = NULL;

    /* nccl:/rccl:/gloo: user annotations */
    for (uint32_t u = 0; u < t->n; u++)
        if (t->kind[u] == TSQL_K_USER_ANNOTATION && t->ts_ns[u] != TSQL_NULL &&
            is_backend_annotation(name_of(t, u)))
            nas++;
    if (nas) {
        as = malloc(nas * sizeof *as);
        if (!as) goto oom;
        size_t j = 0;
        for (uint32_t u = 0; u < t->n; u++)
            if (t->kind[u] == TSQL_K_USER_ANNOTATION && t->ts_ns[u] != TSQL_NULL &&
                is_backend_annotation(name_of(t, u)))
                as[j++] = (ann){.pid = t->pid[u], .tid = t->tid[u], .ts = t->ts_ns[u],
                                .end = t->dur_ns[u] == TSQL_NULL ? INT64_MAX : t->ts_ns[u] + t->dur_ns[u],
                                .uid = u};
        qsort(as, nas, sizeof *as, cmp_ann);
    }
    uint32_t rpc = tsql_intern_find(&t->strings, "record_param_comms", 18);

    /* communication kernels */
    const tsql_kernels *K = &t->kernels;
    for (uint32_t k = 0; k < K->n; k++) {
        uint32_t g = K->uid[k];
        if (!K->is_comm[k] || t->kind[g] != TSQL_K_KERNEL) continue;
        tsql_coll *r = new_row(c, out);
        if (!r) goto oom;
        r->uid = g;
        r->source = TSQL_COLL_KERNEL;
        uint32_t rt = K->runtime[k];
        for (uint32_t p = rt != TSQL_NONE ? t->parent[rt] : TSQL_NONE, guard = 0;
             p != TSQL_NONE && guard < 100000; p = t->parent[p], guard++) {
            if (t->kind[p] != TSQL_K_CPU_OP) continue;
            if (rpc && t->name[p] == rpc) {
                if (r->call == TSQL_NONE && r->op == TSQL_NONE) r->call = p;
            } else if (r->op == TSQL_NONE && is_op_name(name_of(t, p))) {
                r->op = p;
            }
        }
        uint32_t host = r->call != TSQL_NONE ? r->call : r->op;
        ann *an = annotation_in(t, as, nas, host);
        if (an) {
            r->annotation = an->uid;
            an->used = 1; /* this kernel's, not a row of its own */
        }
        cJSON *a = args_of(c, g);
        take_keys(c, r, a, TSQL_COLL_SIZE_KERNEL);
        take_tl(c, r);
        cJSON_Delete(a);
        if (r->call != TSQL_NONE) {
            a = args_of(c, r->call);
            take_keys(c, r, a, TSQL_COLL_SIZE_CALL);
            take_call_seq(c, r);
            cJSON_Delete(a);
        }
        if (r->annotation != TSQL_NONE) {
            a = args_of(c, r->annotation);
            take_annotation(c, r, a);
            cJSON_Delete(a);
        }
        if (c->oom) goto oom;
        finish_row(r, t);
    }

    /* gloo annotations of no kernel: the CPU backend's work */
    for (size_t i = 0; i < nas; i++) {
        uint32_t u = as[i].uid;
        if (as[i].used || strncmp(name_of(t, u), "gloo:", 5) != 0) continue;
        tsql_coll *r = new_row(c, out);
        if (!r) goto oom;
        r->uid = u;
        r->annotation = u;
        r->source = TSQL_COLL_ANNOTATION;
        cJSON *a = args_of(c, u);
        take_keys(c, r, a, TSQL_COLL_SIZE_CALL);
        take_annotation(c, r, a);
        cJSON_Delete(a);
        if (c->oom) goto oom;
        finish_row(r, t);
    }
    if (out->n > 1) qsort(out->rows, out->n, sizeof *out->rows, cmp_uid);

    /* position of each row in its process group, by start time */
    if (out->n) {
        order = malloc(out->n * sizeof *order);
        if (!order) goto oom;
        for (size_t i = 0; i < out->n; i++)
            order[i] = (gkey){.pg = out->rows[i].pg_name, .ts = t->ts_ns[out->rows[i].uid],
                              .uid = out->rows[i].uid, .row = i};
        qsort(order, out->n, sizeof *order, cmp_gkey);
        int64_t seq = 0;
        for (size_t i = 0; i < out->n; i++) {
            if (i) {
                const char *p = order[i - 1].pg, *q = order[i].pg;
                int same = (!p && !q) || (p && q && strcmp(p, q) == 0);
                seq = same ? seq + 1 : 0;
            }
            out->rows[order[i].row].seq_in_group = seq;
        }
    }
    free(order);
    free(as);
    free(C.buf.p);
    return 0;
oom:
    free(order);
    free(as);
    free(C.buf.p);
    tsql_coll_free(out);
    return -1;
}

static void *build_value(tsql_trace *t)
{
    tsql_coll_list *l = calloc(1, sizeof *l);
    if (l && tsql_coll_build(t, l)) {
        free(l);
        return NULL;
    }
    return l;
}

static void free_value(void *v)
{
    if (v) tsql_coll_free(v);
    free(v);
}

static const tsql_cache_kind KIND = {"collectives", build_value, free_value};

const tsql_coll_list *tsql_coll_get(tsql_trace *t)
{
    return tsql_trace_cached(t, &KIND);
}

const tsql_coll_list *tsql_coll_peek(const tsql_trace *t)
{
    return tsql_trace_cache_get(t, &KIND);
}
