/* perf_ops.c — op instances with perf models, evaluated; see perf_ops.h. */
#include "analysis/perf_ops.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attribution.h"
#include "analysis/op_annotation.h"
#include "text/jsonout.h"
#include "text/pyrepr.h"
#include "store/store.h"
#include "util/sort.h"
#include "util/strmap.h"
#include "util/u32vec.h"
#include "util/u64map.h"

#define NONE TSQL_NONE

static const char BWD_WRAPPER[] = "autograd::engine::evaluate_function:";

/* ---------- Sequence-number links (docs/schema.md, perf_ops (Sequence-number link)) ---------- */

typedef struct seq_item { int64_t seq; uint32_t uid; } seq_item;

static int cmp_seq_item(const void *x, const void *y)
{
    const seq_item *a = x, *b = y;
    if (a->seq != b->seq) return a->seq < b->seq ? -1 : 1;
    return (a->uid > b->uid) - (a->uid < b->uid);
}

static int link_fwd_bwd(const tsql_trace *t, tsql_u64map *f2b, tsql_u64map *b2f)
{
    size_t m = 0;
    for (uint32_t i = 0; i < t->n; i++) m += tsql_icol_get(&t->seq, i) != TSQL_NULL;
    seq_item *it = malloc((m ? m : 1) * sizeof *it);
    if (!it) return -1;
    m = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        int64_t s = tsql_icol_get(&t->seq, i);
        if (s != TSQL_NULL) it[m++] = (seq_item){s, i};
    }
    qsort(it, m, sizeof *it, cmp_seq_item);
    uint32_t npairs = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && (tsql_u64map_init(f2b, npairs + 1) || tsql_u64map_init(b2f, npairs + 1))) {
            free(it);
            return -1;
        }
        for (size_t a = 0; a < m;) {
            size_t b = a;
            while (b < m && it[b].seq == it[a].seq) b++;
            uint32_t bw = NONE;
            for (size_t k = a; k < b && bw == NONE; k++)
                if (strncmp(tsql_intern_text(&t->strings, t->name[it[k].uid]), BWD_WRAPPER,
                            sizeof BWD_WRAPPER - 1) == 0)
                    bw = it[k].uid;
            if (bw != NONE) {
                uint32_t fw = NONE;
                double best = 0;
                for (size_t k = a; k < b; k++) {
                    uint32_t u = it[k].uid;
                    if (t->pid[u] == t->pid[bw] && t->tid[u] == t->tid[bw]) continue;
                    double ts = t->ts_ns[u] == TSQL_NULL ? 0.0 : tsql_trace_ts_us(t, u);
                    if (fw == NONE || ts > best) {
                        fw = u;
                        best = ts;
                    }
                }
                if (fw != NONE) {
                    if (pass == 0) npairs++;
                    else {
                        tsql_u64map_put(f2b, fw, bw, 0);
                        tsql_u64map_put(b2f, bw, fw, 1);
                    }
                }
            }
            a = b;
        }
    }
    free(it);
    return 0;
}

/* ---------- ConvBias backward: the forward op whose parameters it copies ----------
 * (docs/perf-models.md, "ConvBias_Backward and ConvBiasReLU_Backward") */

static const char *const CONVBIAS_NAMES[4] = {"ConvBias_", "ConvBiasReLU_", "ConvBias_Backward",
                                              "ConvBiasReLU_Backward"};

struct tsql_convbias_cache {
    const tsql_trace *t;
    const uint32_t *ok;      /* forward ops whose model succeeds, uid order */
    uint32_t nok;
    uint32_t names[4];       /* name ids of CONVBIAS_NAMES (0 = absent) */
    tsql_u64map seq[2];      /* per forward class: Sequence number -> forward uid */
};

/* index into CONVBIAS_NAMES of op uid's name, -1 for any other op */
static int convbias_class(const uint32_t *names, const tsql_trace *t, uint32_t uid)
{
    uint32_t nm = t->name[uid];
    for (int k = 0; nm && k < 4; k++)
        if (names[k] == nm) return k;
    return -1;
}

/* an empty cache sized for cap Sequence numbers per class; NULL on OOM */
static tsql_convbias_cache *convbias_alloc(const tsql_trace *t, const uint32_t *names, uint32_t cap)
{
    tsql_convbias_cache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->t = t;
    memcpy(c->names, names, sizeof c->names);
    if (tsql_u64map_init(&c->seq[0], cap) || tsql_u64map_init(&c->seq[1], cap)) {
        tsql_convbias_cache_free(c);
        return NULL;
    }
    return c;
}

/* forward op uid (its model succeeds) becomes the entry of its Sequence number */
static void convbias_put(tsql_convbias_cache *c, uint32_t uid)
{
    int k = convbias_class(c->names, c->t, uid);
    int64_t s = tsql_icol_get(&c->t->seq, uid);
    if (k == 0 || k == 1) {
        if (s != TSQL_NULL) tsql_u64map_put(&c->seq[k], s, uid, 1);
    }
}

tsql_convbias_cache *tsql_convbias_cache_new(const tsql_trace *t, const tsql_perf_ops *p)
{
    tsql_convbias_cache *c = convbias_alloc(t, p->convbias_names, p->nconvbias_fwd);
    if (!c) return NULL;
    c->ok = p->convbias_fwd;
    c->nok = p->nconvbias_fwd;
    for (uint32_t i = 0; i < c->nok; i++) convbias_put(c, c->ok[i]);
    return c;
}

int tsql_convbias_cache_active(const tsql_convbias_cache *c)
{
    return c && (c->names[2] || c->names[3]);
}

void tsql_convbias_cache_note(tsql_convbias_cache *c, uint32_t uid)
{
    if (!c || uid == NONE) return;
    /* only forward ops whose model succeeds: TraceLens caches from a model that was built */
    uint32_t lo = 0, hi = c->nok;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->ok[mid] < uid) lo = mid + 1;
        else hi = mid;
    }
    if (lo < c->nok && c->ok[lo] == uid) convbias_put(c, uid);
}

uint32_t tsql_convbias_cache_fwd(const tsql_convbias_cache *c, uint32_t bwd_uid)
{
    if (!c) return NONE;
    int k = convbias_class(c->names, c->t, bwd_uid);
    int64_t s = tsql_icol_get(&c->t->seq, bwd_uid);
    if (k < 2 || s == TSQL_NULL) return NONE;
    return tsql_u64map_get(&c->seq[k - 2], s);
}

void tsql_convbias_cache_free(tsql_convbias_cache *c)
{
    if (!c) return;
    tsql_u64map_free(&c->seq[0]);
    tsql_u64map_free(&c->seq[1]);
    free(c);
}

const char *tsql_convbias_fwd_args(const tsql_trace *t, uint32_t uid, tsql_buf *b)
{
    b->n = 0;
    if ((t->args[uid] && tsql_trace_args_json(t, uid, b) < 0) || tsql_buf_reserve(b, 3)) return NULL;
    if (!b->n) b->n = (size_t)sprintf(b->p, "{}");
    b->p[b->n] = 0;
    return b->p;
}

/* ---------- GPU events of an instance ---------- */

/* Sorts uids by ts, stable; drops duplicates (same uid) keeping the first. */
static int sort_by_ts(const tsql_trace *t, uint32_t *u, size_t n, int dedupe, size_t *out_n)
{
    tsql_keyed *k = malloc((n ? n : 1) * sizeof *k);
    if (!k) return -1;
    for (size_t i = 0; i < n; i++) k[i] = (tsql_keyed){tsql_trace_ts_us(t, u[i]), (uint32_t)i, u[i]};
    tsql_keyed_sort(k, n);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (dedupe) {
            /* duplicates have the same ts: look back over the equal-ts run */
            int dup = 0;
            for (size_t j = m; j-- > 0 && tsql_trace_ts_us(t, u[j]) == k[i].k;)
                if (u[j] == k[i].v) {
                    dup = 1;
                    break;
                }
            if (dup) continue;
        }
        u[m++] = k[i].v;
    }
    free(k);
    *out_n = m;
    return 0;
}

/* TraceLens CPU descendants of uid (uid included), for subtree_bwd_events. */
static int tl_cpu_subtree(const tsql_trace *t, uint32_t uid, u32vec *out)
{
    out->n = 0;
    if (u32vec_push(out, uid)) return -1;
    for (size_t i = 0; i < out->n; i++) {
        uint32_t u = out->v[i];
        if (t->flags[u] & TSQL_F_TL_DROPPED) continue;
        for (uint32_t j = t->child_at[u]; j < t->child_at[u + 1]; j++) {
            uint32_t c = t->child[j];
            if (t->edge[c] == TSQL_EDGE_CPU && !(t->flags[c] & TSQL_F_TL_DROPPED) && u32vec_push(out, c))
                return -1;
        }
    }
    return 0;
}

/* {"name": "str form" | null, ...} in the model's parameter order */
static char *params_json(const tsql_perf *p)
{
    tsql_buf b = {0};
    int first = 1;
    if (tsql_bputc(&b, '{')) goto oom;
    for (size_t i = 0; i < p->nparams; i++)
        if (tsql_json_key(&b, &first, p->params[i].name) || tsql_json_text(&b, p->params[i].str)) goto oom;
    if (tsql_bputc(&b, '}')) goto oom;
    return b.p;
oom:
    free(b.p);
    return NULL;
}

/* ---------- the frame's text of each parameter (docs/report.md, cell text) ---------- */

/* The kind of one value, as pandas sees it when it infers a column's dtype. */
enum { V_MISSING, V_INT, V_FLOAT, V_OBJECT };

static int value_kind(const tsql_pm_param *q)
{
    const char *s = q->str;
    if (!s || strcmp(s, "nan") == 0) return V_MISSING;          /* None, NaN */
    if (q->repr && strcmp(q->repr, s) != 0) return V_OBJECT;     /* a string */
    const char *d = s + (*s == '-');
    if (!*d) return V_OBJECT;
    size_t nd = strspn(d, "0123456789");
    if (d[nd] == 0) return V_INT;
    /* Python's float repr: digits with '.' or an exponent, or inf */
    if (strcmp(d, "inf") == 0) return V_FLOAT;
    char *end;
    (void)strtod(s, &end);
    if (*end == 0 && strpbrk(s, ".e") && strspn(d, "0123456789.e+-") == strlen(d)) return V_FLOAT;
    return V_OBJECT;                                             /* bool, tuple, list, ... */
}

/* dtype of one parameter column over a frame */
enum { D_INT64, D_FLOAT64, D_OBJECT };

typedef struct column_kinds {
    uint32_t frame;
    const char *name;
    unsigned seen;               /* 1 << V_* of the values met */
} column_kinds;

static int put_text(tsql_buf *b, const tsql_pm_param *q, int dtype)
{
    int k = value_kind(q);
    if (k == V_MISSING) return tsql_bputs(b, "null");
    if (dtype == D_FLOAT64 && k == V_INT) {            /* astype(str) of a float64 */
        char f[TSQL_PY_FLOAT_BUFSZ];
        tsql_py_float(strtod(q->str, NULL), f);
        return tsql_json_quote(b, f, strlen(f));
    }
    return tsql_json_quote(b, q->str, strlen(q->str));
}

static column_kinds *find_column(column_kinds *c, size_t n, uint32_t frame, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (c[i].frame == frame && strcmp(c[i].name, name) == 0) return &c[i];
    return NULL;
}

/* Fills sheet_params_json of every result. A frame's columns are the union of its
 * rows' parameters; a row without one is missing there. 0 or -1 on OOM. */
static int frame_texts(tsql_perf_ops *p)
{
    column_kinds *cols = NULL;
    size_t ncols = 0, cap = 0;
    tsql_buf b = {0};
    int rc = 0;
    /* the columns of each frame, and which kinds of values they hold */
    for (uint32_t i = 0; i < p->nresults && !rc; i++) {
        const tsql_perf_result *r = &p->results[i];
        if (r->perf.status != TSQL_PM_OK) continue;
        for (size_t j = 0; j < r->perf.nparams; j++) {
            const tsql_pm_param *q = &r->perf.params[j];
            column_kinds *c = find_column(cols, ncols, r->frame, q->name);
            if (!c) {
                if (ncols == cap) {
                    size_t nc = cap ? cap * 2 : 32;
                    column_kinds *ng = realloc(cols, nc * sizeof *ng);
                    if (!ng) { rc = -1; break; }
                    cols = ng;
                    cap = nc;
                }
                c = &cols[ncols++];
                *c = (column_kinds){r->frame, q->name, 0};
            }
            c->seen |= 1u << value_kind(q);
        }
    }
    /* rows without a column of their frame: missing there */
    for (uint32_t i = 0; i < p->nresults && !rc; i++) {
        const tsql_perf_result *r = &p->results[i];
        if (r->perf.status != TSQL_PM_OK) continue;
        for (size_t k = 0; k < ncols; k++)
            if (cols[k].frame == r->frame && !tsql_perf_param(&r->perf, cols[k].name))
                cols[k].seen |= 1u << V_MISSING;
    }
    for (uint32_t i = 0; i < p->nresults && !rc; i++) {
        tsql_perf_result *r = &p->results[i];
        if (r->perf.status != TSQL_PM_OK) continue;
        b.n = 0;
        rc = tsql_bputc(&b, '{');
        for (size_t j = 0; j < r->perf.nparams && !rc; j++) {
            const tsql_pm_param *q = &r->perf.params[j];
            unsigned seen = find_column(cols, ncols, r->frame, q->name)->seen;
            int dtype = seen & (1u << V_OBJECT) || !(seen & (1u << V_INT | 1u << V_FLOAT)) ? D_OBJECT
                        : seen & (1u << V_FLOAT | 1u << V_MISSING)                      ? D_FLOAT64
                                                                                         : D_INT64;
            rc = (j && tsql_bputc(&b, ',')) || tsql_json_quote(&b, q->name, strlen(q->name)) ||
                 tsql_bputc(&b, ':') || put_text(&b, q, dtype);
        }
        if (!rc) rc = tsql_bputc(&b, '}');
        if (!rc && !(r->sheet_params_json = strdup(b.p))) rc = -1;
    }
    free(cols);
    free(b.p);
    return rc;
}

/* JSON array of the distinct Compute Specs of frame f (1-based; 0: none) that can get a
 * roofline: non-empty spec, bytes known, GFLOPS > 0 (docs/report.md, Roofline columns). NULL on OOM. */
static char *frame_rl_specs(const tsql_perf_ops *p, uint32_t f)
{
    tsql_buf b = {0};
    int rc = tsql_bputc(&b, '[');
    size_t n = 0;
    for (uint32_t i = 0; f && i < p->nresults && !rc; i++) {
        const tsql_perf_result *r = &p->results[i];
        if (r->perf.status != TSQL_PM_OK || r->frame != f - 1 || !r->perf.has_bytes || !(r->perf.flops / 1e9 > 0) ||
            !r->perf.compute_spec[0])
            continue;
        /* distinct: look for "spec" in what is already there */
        char needle[sizeof r->perf.compute_spec + 2];
        snprintf(needle, sizeof needle, "\"%s\"", r->perf.compute_spec);
        if (strstr(b.p, needle)) continue;
        rc = (n++ && tsql_bputc(&b, ',')) || tsql_bputs(&b, needle);
    }
    if (!rc) rc = tsql_bputc(&b, ']');
    if (rc) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

static int roofline_specs(tsql_perf_ops *p, uint32_t (*sheet_frames)[2])
{
    size_t ns = p->nsheets ? p->nsheets : 1;
    if (!(p->sheet_rl_specs = calloc(ns, sizeof *p->sheet_rl_specs)) ||
        !(p->sheet_moved_rl_specs = calloc(ns, sizeof *p->sheet_moved_rl_specs)))
        return -1;
    for (uint32_t s = 0; s < p->nsheets; s++) {
        size_t len = strlen(p->sheets[s]);
        int is_bwd = len > 4 && strcmp(p->sheets[s] + len - 4, "_bwd") == 0;
        uint32_t own = sheet_frames[s][is_bwd], moved = is_bwd ? sheet_frames[s][0] : 0;
        if (!(p->sheet_rl_specs[s] = frame_rl_specs(p, own)) ||
            !(p->sheet_moved_rl_specs[s] = frame_rl_specs(p, moved)))
            return -1;
    }
    return 0;
}

/* ---------- building ---------- */

static const char *const ONE_SHEET[] = {"GEMM", "UnaryElementwise", "BinaryElementwise", "Normalization"};
/* forward-pass rows TraceLens moves to F_bwd, and F_bwd rows it removes (docs/schema.md, perf_ops
 * (appended)) */
static const char *const MOVE_TO_BWD[] = {"flash_attn::_flash_attn_varlen_backward", "aten::convolution_backward",
                                          "ConvBias_Backward", "ConvBiasReLU_Backward"};
static const char *const DROP_FROM_BWD[] = {"aten::convolution", "aten::miopen_convolution", "aten::cudnn_convolution",
                                            "ConvBias_", "ConvBiasReLU_"};

static int in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0) return 1;
    return 0;
}
#define IN(s, list) in_list((s), (list), sizeof(list) / sizeof *(list))

typedef struct builder {
    tsql_trace *t;
    tsql_perf_ops *p;
    tsql_strmap c;        /* the model results so far: their index by key (evaluate) */
    size_t cap_rows, cap_results;
    u32vec gpu;
    tsql_buf args, key, fwd_args;
    const char **knames;
    size_t cap_knames;
    uint32_t (*sheet_frames)[2]; /* per sheet: 1 + its fwd-pass / bwd-pass frame, or 0 */
} builder;

static int sheet_index(builder *b, const char *family, const char *suffix)
{
    char name[96];
    snprintf(name, sizeof name, "%s%s", family, suffix);
    for (uint32_t i = 0; i < b->p->nsheets; i++)
        if (strcmp(b->p->sheets[i], name) == 0) return (int)i;
    char **ns = realloc(b->p->sheets, (b->p->nsheets + 1) * sizeof *ns);
    if (!ns) return -1;
    b->p->sheets = ns;
    uint32_t (*sf)[2] = realloc(b->sheet_frames, (b->p->nsheets + 1) * sizeof *sf);
    if (!sf) return -1;
    b->sheet_frames = sf;
    sf[b->p->nsheets][0] = sf[b->p->nsheets][1] = 0;
    if (!(ns[b->p->nsheets] = strdup(name))) return -1;
    return (int)b->p->nsheets++;
}

static int frame_index(builder *b, const char *family, int bwd)
{
    tsql_perf_ops *p = b->p;
    for (uint32_t i = 0; i < p->nframes; i++)
        if (p->frames[i].bwd == bwd && strcmp(p->frames[i].family, family) == 0) return (int)i;
    tsql_perf_frame *nf = realloc(p->frames, (p->nframes + 1) * sizeof *nf);
    if (!nf) return -1;
    p->frames = nf;
    nf[p->nframes] = (tsql_perf_frame){family, (uint8_t)bwd, 0};
    return (int)p->nframes++;
}

/* Evaluates (or finds) the model result; returns its index, NONE if the row is to be
 * skipped, or NONE - 1 on OOM. gpu[0..ngpu) are the instance's GPU events by ts. */
static uint32_t evaluate(builder *b, uint32_t uid, const char *family, int bwd, const uint32_t *gpu, size_t ngpu,
                         int use_kernels, uint32_t fwd)
{
    tsql_trace *t = b->t;
    int oom;
    const char *ann = tsql_op_annotation(t, uid, 0, &oom); /* the attention models' step statistics */
    if (oom) return NONE - 1;
    b->key.n = 0;
    if (tsql_buf_reserve(&b->key, 96 + (use_kernels ? ngpu * 11 : 0))) return NONE - 1;
    b->key.n += (size_t)sprintf(b->key.p, "%u:%u:%d:%p", t->name[uid], t->args[uid], bwd, (const void *)ann);
    if (use_kernels)
        for (size_t i = 0; i < ngpu; i++) b->key.n += (size_t)sprintf(b->key.p + b->key.n, ",%u", t->name[gpu[i]]);
    if (fwd != NONE) b->key.n += (size_t)sprintf(b->key.p + b->key.n, ";%u", t->args[fwd]);
    uint64_t found;
    if (tsql_strmap_get(&b->c, b->key.p, b->key.n, &found)) return (uint32_t)found;
    /* new: evaluate */
    if (b->p->nresults == b->cap_results) {
        size_t nc = b->cap_results ? b->cap_results * 2 : 64;
        tsql_perf_result *nr = realloc(b->p->results, nc * sizeof *nr);
        if (!nr) return NONE - 1;
        b->p->results = nr;
        b->cap_results = nc;
    }
    tsql_perf_result *r = &b->p->results[b->p->nresults];
    tsql_perf_init(&r->perf);
    r->params_json = NULL;
    r->sheet_params_json = NULL;
    r->frame = 0;
    b->args.n = 0;
    const char *args = NULL;
    if (t->args[uid]) {
        if (tsql_trace_args_json(t, uid, &b->args) < 0 || tsql_buf_reserve(&b->args, 1)) return NONE - 1;
        b->args.p[b->args.n] = 0;
        args = b->args.p;
    }
    if (ngpu > b->cap_knames) {
        const char **nk = realloc(b->knames, ngpu * sizeof *nk);
        if (!nk) return NONE - 1;
        b->knames = nk;
        b->cap_knames = ngpu;
    }
    for (size_t i = 0; i < ngpu; i++) b->knames[i] = tsql_intern_text(&t->strings, t->name[gpu[i]]);
    /* the forward op whose parameters a ConvBias backward copies: its args text */
    const char *fwd_args = NULL;
    if (fwd != NONE && !(fwd_args = tsql_convbias_fwd_args(t, fwd, &b->fwd_args))) return NONE - 1;
    tsql_perf_eval_fwd(&r->perf, tsql_intern_text(&t->strings, t->name[uid]), args, fwd_args, ann, b->knames, ngpu,
                       bwd);
    if (r->perf.status == TSQL_PM_NOMEM) {
        tsql_perf_free(&r->perf);
        return NONE - 1;
    }
    if (r->perf.status == TSQL_PM_OK) {
        int fr = frame_index(b, family, bwd);
        if (fr < 0 || !(r->params_json = params_json(&r->perf))) {
            tsql_perf_free(&r->perf);
            return NONE - 1;
        }
        r->frame = (uint32_t)fr;
    }
    uint32_t idx = b->p->nresults++;
    /* remember it (failed evaluations too: they fail the same way every time) */
    if (tsql_strmap_put(&b->c, b->key.p, b->key.n, idx)) return NONE - 1;
    return idx;
}

static int add_row(builder *b, uint32_t uid, int bwd, int appended, int sheet, uint32_t result, double kernel_us,
                   uint32_t gpu_at, uint32_t ngpu)
{
    tsql_perf_ops *p = b->p;
    if (p->n == b->cap_rows) {
        size_t nc = b->cap_rows ? b->cap_rows * 2 : 256;
        tsql_perf_op *nr = realloc(p->rows, nc * sizeof *nr);
        if (!nr) return -1;
        p->rows = nr;
        b->cap_rows = nc;
    }
    p->rows[p->n++] = (tsql_perf_op){uid, (uint8_t)bwd, (uint8_t)appended, (uint16_t)sheet, result, kernel_us,
                                     gpu_at, ngpu};
    return 0;
}

/* One instance in one direction: GPU events, kernel time, model, row. fwd: the forward op
 * a ConvBias backward copies (NONE otherwise); *ok (may be NULL) is set when the model
 * succeeds. */
static int instance(builder *b, uint32_t uid, const char *family, int bwd, const u32vec *starts,
                    u32vec *all_gpu, uint32_t fwd, int *ok)
{
    tsql_trace *t = b->t;
    const char *name = tsql_intern_text(&t->strings, t->name[uid]);
    int one_sheet = IN(family, ONE_SHEET);
    /* GPU events: the TraceLens subtrees of every start node */
    b->gpu.n = 0;
    for (size_t i = 0; i < starts->n; i++) {
        if (tsql_tl_subtree_gpu(t, starts->v[i], &b->gpu) < 0) return -1;
    }
    size_t ngpu;
    if (sort_by_ts(t, b->gpu.v, b->gpu.n, starts->n > 1, &ngpu)) return -1;
    /* NOLINTNEXTLINE(clang-analyzer-unix.Malloc): b->gpu is the builder's vector, freed with it */
    uint32_t res = evaluate(b, uid, family, bwd, b->gpu.v, ngpu,
                            strcmp(family, "GEMM") == 0 || strcmp(family, "MoE_unfused") == 0, fwd);
    if (res == NONE - 1) return -1;
    if (ok) *ok = b->p->results[res].perf.status == TSQL_PM_OK;
    if (b->p->results[res].perf.status != TSQL_PM_OK) return 0; /* TraceLens skips the row */
    /* in its frame from here on, even if dropped below (the frame is built first) */
    uint32_t frame = b->p->results[res].frame;
    if (ngpu) b->p->frames[frame].has_gpu = 1;
    int appended = 0;
    const char *suffix = "";
    if (!one_sheet) {
        if (!bwd && IN(name, MOVE_TO_BWD)) {
            appended = 1;
            suffix = "_bwd";
        } else {
            suffix = bwd ? "_bwd" : "_fwd";
        }
    }
    int sheet = sheet_index(b, family, suffix);
    if (sheet < 0) return -1;
    b->sheet_frames[sheet][bwd] = frame + 1;
    if (!one_sheet && bwd && IN(name, DROP_FROM_BWD)) return 0;
    double *sc = malloc((ngpu ? ngpu : 1) * 2 * sizeof *sc);
    if (!sc) return -1;
    double kus = tsql_busy_us(t, b->gpu.v, ngpu, sc);
    free(sc);
    uint32_t at = (uint32_t)all_gpu->n;
    for (size_t i = 0; i < ngpu; i++)
        if (u32vec_push(all_gpu, b->gpu.v[i])) return -1;
    return add_row(b, uid, bwd, appended, sheet, res, kus, at, (uint32_t)ngpu);
}

static tsql_perf_ops *build(tsql_trace *t)
{
    tsql_perf_ops *p = calloc(1, sizeof *p), *out = NULL;
    if (!p) return NULL;
    builder b = {.t = t, .p = p};
    u32vec all_gpu = {0}, starts = {0}, sub = {0};
    p->fwd_to_bwd = calloc(1, sizeof *p->fwd_to_bwd);
    p->bwd_to_fwd = calloc(1, sizeof *p->bwd_to_fwd);
    if (!p->fwd_to_bwd || !p->bwd_to_fwd || link_fwd_bwd(t, p->fwd_to_bwd, p->bwd_to_fwd)) goto fail;
    /* the sheet family of each name, once per string id */
    uint8_t *seen = calloc((size_t)t->strings.n + 1, 1);  /* 0 unknown, 1 none, 2 has */
    const char **fam = calloc((size_t)t->strings.n + 1, sizeof *fam);
    if (!seen || !fam) {
        free(seen);
        free(fam);
        goto fail;
    }
    /* ConvBias forward ops, cached in file order as the sheets' forward pass builds them */
    tsql_convbias_cache *cb = NULL;
    u32vec cb_ok = {0};
    uint32_t ncb = 0;
    for (int k = 0; k < 4; k++)
        p->convbias_names[k] = tsql_intern_find(&t->strings, CONVBIAS_NAMES[k], strlen(CONVBIAS_NAMES[k]));
    int cb_active = p->convbias_names[2] || p->convbias_names[3];
    for (uint32_t u = 0; cb_active && u < t->n; u++) {
        int k = convbias_class(p->convbias_names, t, u);
        ncb += k == 0 || k == 1;
    }
    int rc = cb_active && !(cb = convbias_alloc(t, p->convbias_names, ncb)) ? -1 : 0;
    for (uint32_t u = 0; u < t->n && rc == 0; u++) {
        uint32_t nm = t->name[u];
        if (!nm || tsql_kind_is_gpu(t->kind[u]) || t->ph[u] == 'M' || tsql_kind_is_launch(t->kind[u])) continue;
        const char *name = tsql_intern_text(&t->strings, nm);
        if (!seen[nm]) {
            const char *s = tsql_op_has_model(name) ? tsql_op_sheet(name) : NULL;
            seen[nm] = s ? 2 : 1;
            fam[nm] = s;
        }
        if (seen[nm] != 2) continue;
        const char *family = fam[nm];
        starts.n = 0;
        if (u32vec_push(&starts, u)) rc = -1;
        int cls = cb ? convbias_class(p->convbias_names, t, u) : -1, ok = 0;
        uint32_t fwd = cls >= 2 ? tsql_convbias_cache_fwd(cb, u) : NONE;
        if (!rc) rc = instance(&b, u, family, 0, &starts, &all_gpu, fwd, &ok);
        if (!rc && ok && (cls == 0 || cls == 1)) {
            if (u32vec_push(&cb_ok, u)) rc = -1;
            else convbias_put(cb, u);
        }
        if (rc || IN(family, ONE_SHEET)) continue;
        if (!strcmp(name, "vllm::unified_attention_with_output")) continue;
        /* backward: from every node of subtree_bwd_events(u) */
        if (tl_cpu_subtree(t, u, &sub)) rc = -1;
        starts.n = 0;
        for (size_t i = 0; !rc && i < sub.n; i++) {
            uint32_t bw = tsql_u64map_get(p->fwd_to_bwd, sub.v[i]);
            if (bw != NONE && u32vec_push(&starts, bw)) rc = -1;
        }
        if (!rc && starts.n) rc = instance(&b, u, family, 1, &starts, &all_gpu, fwd, NULL);
    }
    free(seen);
    free(fam);
    tsql_convbias_cache_free(cb);
    p->convbias_fwd = cb_ok.v;
    p->nconvbias_fwd = (uint32_t)cb_ok.n;
    if (!rc) rc = frame_texts(p);
    if (!rc) rc = roofline_specs(p, b.sheet_frames);
    if (!rc && !(p->sheet_int_kernel_time = calloc(p->nsheets ? p->nsheets : 1, 1))) rc = -1;
    for (uint32_t s = 0; !rc && s < p->nsheets; s++) {
        int any_gpu = 0;
        for (int d = 0; d < 2; d++)
            if (b.sheet_frames[s][d]) any_gpu |= p->frames[b.sheet_frames[s][d] - 1].has_gpu;
        p->sheet_int_kernel_time[s] = !any_gpu;
    }
    if (!rc) {
        p->gpu = all_gpu.v;
        all_gpu.v = NULL;
        out = p;
    }
fail:
    tsql_strmap_free(&b.c);
    free(all_gpu.v);
    free(starts.v);
    free(sub.v);
    free(b.gpu.v);
    free(b.args.p);
    free(b.key.p);
    free(b.fwd_args.p);
    free(b.knames);
    free(b.sheet_frames);
    if (!out) tsql_perf_ops_free(p);
    return out;
}

void tsql_perf_ops_free(tsql_perf_ops *p)
{
    if (!p) return;
    free(p->rows);
    free(p->gpu);
    for (uint32_t i = 0; i < p->nresults; i++) {
        tsql_perf_free(&p->results[i].perf);
        free(p->results[i].params_json);
        free(p->results[i].sheet_params_json);
    }
    free(p->frames);
    free(p->convbias_fwd);
    free(p->sheet_int_kernel_time);
    for (uint32_t i = 0; p->sheet_rl_specs && i < p->nsheets; i++) free(p->sheet_rl_specs[i]);
    for (uint32_t i = 0; p->sheet_moved_rl_specs && i < p->nsheets; i++) free(p->sheet_moved_rl_specs[i]);
    free(p->sheet_rl_specs);
    free(p->sheet_moved_rl_specs);
    free(p->results);
    for (uint32_t i = 0; i < p->nsheets; i++) free(p->sheets[i]);
    free(p->sheets);
    if (p->fwd_to_bwd) tsql_u64map_free(p->fwd_to_bwd);
    if (p->bwd_to_fwd) tsql_u64map_free(p->bwd_to_fwd);
    free(p->fwd_to_bwd);
    free(p->bwd_to_fwd);
    free(p);
}

static void *build_value(tsql_trace *t) { return build(t); }
static void free_value(void *v) { tsql_perf_ops_free(v); }
static const tsql_cache_kind KIND = {"perf_ops", build_value, free_value};

const tsql_perf_ops *tsql_perf_ops_get(tsql_trace *t)
{
    return tsql_trace_cached(t, &KIND);
}

const tsql_perf_ops *tsql_perf_ops_peek(const tsql_trace *t)
{
    return tsql_trace_cache_get(t, &KIND);
}

uint32_t tsql_bwd_of(tsql_trace *t, uint32_t fwd_uid)
{
    const tsql_perf_ops *p = tsql_perf_ops_get(t);
    return p ? tsql_u64map_get(p->fwd_to_bwd, fwd_uid) : NONE;
}

uint32_t tsql_fwd_of(tsql_trace *t, uint32_t bwd_uid)
{
    const tsql_perf_ops *p = tsql_perf_ops_get(t);
    return p ? tsql_u64map_get(p->bwd_to_fwd, bwd_uid) : NONE;
}
