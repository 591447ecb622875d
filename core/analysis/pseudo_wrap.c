/*
 * pseudo_wrap.c — the plan of TraceLens's pseudo ops that stand on the parent chain
 * (docs/inference.md, Pseudo ops): aiter flydsl MoE stages (an op above each stage's
 * Python frame), MLA decode and prefill, DeepSeek V4 paged decode (an op wrapping the
 * children of a Python frame). They are planned on the tree with Python frames as it is
 * before any insertion: no rule reads what an earlier insertion changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pseudo_internal.h"
#include "store/intern.h"
#include "text/jsonout.h"
#include "tree/tree.h"
#include "util/sort.h"
#include "util/u32vec.h"

#define NONE TSQL_NONE

enum { RULE_FLYDSL = 1, RULE_MLA_DECODE = 2, RULE_MLA_PREFILL = 4, RULE_V4 = 8 };

/* ---------- the name patterns, as Python's re reads them ---------- */

/* \s of a str pattern, ASCII part */
static int py_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); }
/* \w of a str pattern: any non-ASCII byte counts (letters of other scripts are words) */
static int word_char(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}
static int digit(char c) { return c >= '0' && c <= '9'; }

/* "aiter/mla.py(<digits>): mla_decode_fwd" somewhere in s (the "." any character but a
 * newline) */
static int match_mla_decode(const char *s)
{
    for (const char *p = strstr(s, "aiter/mla"); p; p = strstr(p + 1, "aiter/mla")) {
        const char *q = p + 9;
        if (!*q || *q == '\n') continue;
        q++;
        if (strncmp(q, "py(", 3) != 0 || !digit(q[3])) continue;
        for (q += 3; digit(*q); q++) {}
        if (strncmp(q, "): mla_decode_fwd", 17) == 0) return 1;
    }
    return 0;
}

/* ":", blanks, then "mla_fp8_prefill_attn" not followed by a word character */
static int match_mla_prefill(const char *s)
{
    for (const char *p = strchr(s, ':'); p; p = strchr(p + 1, ':')) {
        const char *q = p + 1;
        while (py_space((unsigned char)*q)) q++;
        if (strncmp(q, "mla_fp8_prefill_attn", 20) == 0 && !word_char((unsigned char)q[20])) return 1;
    }
    return 0;
}

/* "paged_decode.py(<digits>):", blanks, "sparse_attn_v4_paged_decode"; with `bounded`
 * not followed by a word character (the rule's pattern; the detection's has no bound) */
static int match_v4_at(const char *s, int bounded)
{
    for (const char *p = strstr(s, "paged_decode.py("); p; p = strstr(p + 1, "paged_decode.py(")) {
        const char *q = p + 16;
        if (!digit(*q)) continue;
        while (digit(*q)) q++;
        if (q[0] != ')' || q[1] != ':') continue;
        for (q += 2; py_space((unsigned char)*q); q++) {}
        if (strncmp(q, "sparse_attn_v4_paged_decode", 27) == 0 && (!bounded || !word_char((unsigned char)q[27])))
            return 1;
    }
    return 0;
}
static int match_v4_detect(const char *s) { return match_v4_at(s, 0); }
static int match_v4(const char *s) { return match_v4_at(s, 1); }

static int match_stage1(const char *s)
{
    size_t n = strlen(s), m = sizeof ": flydsl_moe_stage1" - 1;
    return n >= m && strcmp(s + n - m, ": flydsl_moe_stage1") == 0;
}
static int match_stage2(const char *s)
{
    size_t n = strlen(s), m = sizeof ": flydsl_moe_stage2" - 1;
    return n >= m && strcmp(s + n - m, ": flydsl_moe_stage2") == 0;
}

/* ---------- TraceLens's name index ---------- */

/* the events its tree sorts and indexes: ops, runtime and driver calls, Python frames */
static int tree_node(const tsql_trace *t, uint32_t u)
{
    int k = t->kind[u];
    return (k == TSQL_K_CPU_OP || k == TSQL_K_RUNTIME || k == TSQL_K_DRIVER || k == TSQL_K_PYTHON) &&
           !(t->flags[u] & TSQL_F_OLD_SPELLING) && t->ts_ns[u] != TSQL_NULL;
}

/* per name id: 1 the name matches, 2 not (decided once per name) */
static int name_matches(const tsql_trace *t, uint8_t *state, uint32_t u, int (*match)(const char *))
{
    uint32_t id = t->name[u];
    if (!state[id]) state[id] = match(tsql_pseudo_name(t, u)) ? 1 : 2;
    return state[id] == 1;
}

/* 1 when some name of the index (tree nodes and linked GPU events) matches, 0 not, -1 OOM */
static int index_has(const tsql_trace *t, int (*match)(const char *))
{
    uint8_t *state = calloc((size_t)t->strings.n + 1, 1);
    if (!state) return -1;
    int found = 0;
    /* the name first: it rarely matches, and is decided once */
    for (uint32_t u = 0; u < t->n && !found; u++) {
        if (!t->name[u] || !name_matches(t, state, u, match)) continue;
        if (tree_node(t, u)) found = 1;
        else if (tsql_kind_is_gpu(t->kind[u])) {
            uint32_t r = tsql_kernel_row(t, u);
            found = r != NONE && t->kernels.tl_runtime[r] != NONE;
        }
    }
    free(state);
    return found;
}

/* The python_function events whose name matches, in the order of TraceLens's name index:
 * it adds the tree's events in start order (stable), so the names come by their first
 * event in that order and each name's events in that order. 0, or -1 on OOM. */
static int index_events(const tsql_trace *t, int (*match)(const char *), u32vec *out)
{
    out->n = 0;
    uint8_t *state = calloc((size_t)t->strings.n + 1, 1);
    uint32_t *rank = NULL;
    tsql_keyed *ev = NULL;
    size_t n = 0, cap = 0;
    int rc = -1;
    if (!state) goto done;
    for (uint32_t u = 0; u < t->n; u++) {
        if (!tree_node(t, u) || !name_matches(t, state, u, match)) continue;
        if (n == cap) {
            tsql_keyed *ne = tsql_grow(ev, &cap, sizeof *ne, 64);
            if (!ne) goto done;
            ev = ne;
        }
        ev[n++] = (tsql_keyed){tsql_trace_ts_us(t, u), u, u};
    }
    tsql_keyed_sort(ev, n);
    rank = malloc(((size_t)t->strings.n + 1) * sizeof *rank);
    if (!rank) goto done;
    for (size_t i = 0; i < n; i++) rank[t->name[ev[i].v]] = NONE;
    uint32_t names = 0;
    for (size_t i = 0; i < n; i++)
        if (rank[t->name[ev[i].v]] == NONE) rank[t->name[ev[i].v]] = names++;
    /* keep the Python frames, by (name rank, place in start order) */
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (t->kind[ev[i].v] == TSQL_K_PYTHON) ev[m++] = (tsql_keyed){(double)rank[t->name[ev[i].v]], (uint32_t)i, ev[i].v};
    tsql_keyed_sort(ev, m);
    for (size_t i = 0; i < m; i++)
        if (u32vec_push(out, ev[i].v)) goto done;
    rc = 0;
done:
    free(state);
    free(rank);
    free(ev);
    return rc;
}

/* ---------- the tree with Python frames ---------- */

/* 1 when u is named by string id `name` (0: a name absent from the trace) */
static int t_name_is(const tsql_pseudo_planner *pl, uint32_t u, uint32_t name)
{
    return name && pl->t->name[u] == name;
}

/* the nearest ancestor of u named `name`, or NONE */
static uint32_t ancestor_named(const tsql_pseudo_planner *pl, uint32_t u, uint32_t name)
{
    uint32_t steps = 0;
    for (uint32_t a = pl->pt->parent[u]; a != NONE && steps++ < pl->t->n; a = pl->pt->parent[a])
        if (t_name_is(pl, a, name)) return a;
    return NONE;
}

/* 1 when some GPU event is below u (TraceLens's gpu_events of u is not empty), -1 OOM */
static int has_gpu(const tsql_pseudo_planner *pl, uint32_t u, u32vec *st)
{
    st->n = 0;
    if (u32vec_push(st, u)) return -1;
    while (st->n) {
        uint32_t x = st->v[--st->n];
        if (tsql_kind_is_gpu(pl->t->kind[x]) && x != u) return 1;
        for (uint32_t j = pl->pc_at[x]; j < pl->pc_at[x + 1]; j++)
            if (u32vec_push(st, pl->pc[j])) return -1;
    }
    return 0;
}

/* u's children in TraceLens's order (start, then file order) appended to st reversed,
 * so that popping visits them in order */
static int push_children_sorted(const tsql_pseudo_planner *pl, uint32_t u, u32vec *st, tsql_keyed **buf, size_t *cap)
{
    uint32_t n = pl->pc_at[u + 1] - pl->pc_at[u];
    if (n > *cap) {
        tsql_keyed *nb = realloc(*buf, (size_t)n * sizeof *nb);
        if (!nb) return -1;
        *buf = nb, *cap = n;
    }
    for (uint32_t j = 0; j < n; j++) {
        uint32_t c = pl->pc[pl->pc_at[u] + j];
        (*buf)[j] = (tsql_keyed){tsql_trace_ts_us(pl->t, c), c, c};
    }
    tsql_keyed_sort(*buf, n);
    for (uint32_t j = n; j-- > 0;)
        if (u32vec_push(st, (*buf)[j].v)) return -1;
    return 0;
}

/* The first descendant of u named `name`, depth first in children order, or NONE;
 * -1 (as *oom) on out of memory. */
static uint32_t first_descendant(const tsql_pseudo_planner *pl, uint32_t u, uint32_t name, u32vec *st, int *oom)
{
    tsql_keyed *buf = NULL;
    size_t cap = 0;
    uint32_t found = NONE;
    st->n = 0;
    if (push_children_sorted(pl, u, st, &buf, &cap)) goto oom;
    while (st->n) {
        uint32_t x = st->v[--st->n];
        if (t_name_is(pl, x, name)) {
            found = x;
            break;
        }
        if (push_children_sorted(pl, x, st, &buf, &cap)) goto oom;
    }
    free(buf);
    return found;
oom:
    free(buf);
    *oom = 1;
    return NONE;
}

/* ---------- args and the plan ---------- */

/* Starts pl->b with the args every wrapping or above op has: the donor's shape lists,
 * "Sequence number" (the donor's, else seq_uid), "Pseudo op": true. Extras follow. */
static int start_args(tsql_pseudo_planner *pl, uint32_t donor, uint32_t seq_uid)
{
    tsql_buf *b = &pl->b;
    b->n = 0;
    int first = 1;
    if (tsql_bputc(b, '{') || tsql_pseudo_put_shapes(pl, donor, NONE, &first)) return -1;
    size_t sl;
    const char *seq = tsql_pseudo_arg(pl->t, donor, "Sequence number", &pl->a, &sl);
    if (seq ? tsql_bprintf(b, "%s\"Sequence number\":%.*s", first ? "" : ",", (int)sl, seq)
            : tsql_bprintf(b, "%s\"Sequence number\":%u", first ? "" : ",", seq_uid))
        return -1;
    return tsql_bputs(b, ",\"Pseudo op\":true");
}

static uint32_t name_id(const tsql_trace *t, const char *s) { return tsql_intern_find(&t->strings, s, strlen(s)); }

/* TraceLens's flydsl MoE rule: for each stage marker, each Python frame named
 * "...: flydsl_moe_stage<k>" with an aiter::fused_moe_ above it gets an op above it whose
 * shapes and Sequence number are that fused_moe_'s */
static int plan_flydsl(tsql_pseudo_planner *pl, u32vec *ev)
{
    tsql_trace *t = pl->t;
    static const char *const names[2] = {"pseudo_op::moe_flydsl_stage1", "pseudo_op::moe_flydsl_stage2"};
    static const char *const markers[2] = {"flydsl_moe_stage1", "flydsl_moe_stage2"};
    int (*const match[2])(const char *) = {match_stage1, match_stage2};
    uint32_t fused = name_id(t, "aiter::fused_moe_");
    for (int s = 0; s < 2; s++) {
        if (index_events(t, match[s], ev)) return -1;
        for (size_t i = 0; i < ev->n; i++) {
            uint32_t T = ev->v[i], D = ancestor_named(pl, T, fused);
            if (D == NONE) continue;
            if (start_args(pl, D, D) || tsql_bprintf(&pl->b, ",\"MoE flydsl stage\":\"%s\"}", markers[s]) ||
                tsql_pseudo_push(pl, (tsql_pseudo_op){.name = names[s], .how = TSQL_PSEUDO_ABOVE, .source = D,
                                                      .kernel = NONE, .launch = NONE, .parent = pl->pt->parent[T],
                                                      .target = T},
                                 &pl->b))
                return -1;
        }
    }
    return 0;
}

/* TraceLens's MLA rules: each matching Python frame with the op `donor` below it and GPU
 * work gets an op wrapping its children, with the donor's shapes */
static int plan_mla(tsql_pseudo_planner *pl, int (*match)(const char *), const char *donor, const char *name,
                    u32vec *ev, u32vec *st)
{
    tsql_trace *t = pl->t;
    uint32_t did = name_id(t, donor);
    if (index_events(t, match, ev)) return -1;
    for (size_t i = 0; i < ev->n; i++) {
        uint32_t X = ev->v[i];
        int oom = 0;
        uint32_t D = first_descendant(pl, X, did, st, &oom);
        if (oom) return -1;
        if (D == NONE) continue;
        int g = has_gpu(pl, X, st);
        if (g < 0) return -1;
        if (!g) continue;
        if (start_args(pl, D, X) || tsql_bputc(&pl->b, '}') ||
            tsql_pseudo_push(pl, (tsql_pseudo_op){.name = name, .how = TSQL_PSEUDO_WRAP, .source = D, .kernel = NONE,
                                                  .launch = NONE, .parent = X, .target = X},
                             &pl->b))
            return -1;
    }
    return 0;
}

/* ---------- DeepSeek V4 ---------- */

/* The decimal text of Python's int(s) into out (at most cap bytes), else NULL: blanks
 * around, a sign, digits with single underscores between them, leading zeros dropped. */
static const char *py_int_text(const char *s, char *out, size_t cap)
{
    if (!s) return NULL;
    while (py_space((unsigned char)*s)) s++;
    int neg = 0;
    if (*s == '+' || *s == '-') neg = *s++ == '-';
    if (!digit(*s)) return NULL;
    size_t n = 0;
    int nonzero = 0;
    for (; digit(*s) || (*s == '_' && digit(s[1]) && digit(s[-1])); s++) {
        if (*s == '_') continue;
        if (*s == '0' && !nonzero) continue;
        nonzero = 1;
        if (n + 3 >= cap) return NULL;
        out[1 + n++] = *s;
    }
    while (py_space((unsigned char)*s)) s++;
    if (*s) return NULL;
    if (!n) {
        out[0] = '0', out[1] = 0;
        return out;
    }
    out[0] = '-';
    out[1 + n] = 0;
    return neg ? out : out + 1;
}

/* Python's comparison of two JSON values of pid / tid / ts (their text): numbers by
 * value, strings by text; a number against a string cannot be compared (*err set) */
static int py_cmp(const char *a, const char *b, int *err)
{
    if (strcmp(a, b) == 0) return 0;
    int an = a[0] != '"', bn = b[0] != '"';
    if (an && bn) {
        double x = strtod(a, NULL), y = strtod(b, NULL);
        return x < y ? -1 : x > y;
    }
    if (!an && !bn) return strcmp(a, b) < 0 ? -1 : 1;
    *err = 1;
    return 0;
}

typedef struct v4_key {
    const char *pid, *tid;
    double ts;
    uint32_t pos, uid;
} v4_key;

static int v4_sort_err;
static int v4_cmp(const void *x, const void *y)
{
    const v4_key *a = x, *b = y;
    int c = py_cmp(a->pid, b->pid, &v4_sort_err);
    if (!c) c = py_cmp(a->tid, b->tid, &v4_sort_err);
    if (!c) c = a->ts < b->ts ? -1 : a->ts > b->ts;
    if (!c) c = a->pos < b->pos ? -1 : a->pos > b->pos;
    return c;
}

static const char *id_text(const tsql_trace *t, uint32_t id) { return id ? tsql_intern_text(&t->strings, id) : "0"; }

/* the names of the GPU events below u, in TraceLens's gpu_events order (by launch call,
 * then by GPU event) */
static int gpu_names(const tsql_pseudo_planner *pl, uint32_t u, u32vec *st, tsql_keyed **out, size_t *n)
{
    size_t cap = 0;
    *n = 0;
    st->n = 0;
    if (u32vec_push(st, u)) return -1;
    while (st->n) {
        uint32_t x = st->v[--st->n];
        if (tsql_kind_is_gpu(pl->t->kind[x]) && x != u) {
            if (*n == cap) {
                tsql_keyed *nb = tsql_grow(*out, &cap, sizeof *nb, 16);
                if (!nb) return -1;
                *out = nb;
            }
            (*out)[(*n)++] = (tsql_keyed){(double)pl->pt->parent[x], x, x};
        }
        for (uint32_t j = pl->pc_at[x]; j < pl->pc_at[x + 1]; j++)
            if (u32vec_push(st, pl->pc[j])) return -1;
    }
    tsql_keyed_sort(*out, *n);
    return 0;
}

static int starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* "qk_norm_rope_H<h>_D<d>_RD<digits>" in s: h and d as Python ints */
static int qk_geometry(const char *s, char *h, char *d, size_t cap)
{
    for (const char *p = strstr(s, "qk_norm_rope_H"); p; p = strstr(p + 1, "qk_norm_rope_H")) {
        const char *q = p + 14, *h0 = q;
        while (digit(*q)) q++;
        if (q == h0 || strncmp(q, "_D", 2) != 0) continue;
        const char *d0 = q + 2;
        for (q = d0; digit(*q);) q++;
        if (q == d0 || strncmp(q, "_RD", 3) != 0 || !digit(q[3])) continue;
        char tmp[64];
        size_t hl = (size_t)(d0 - 2 - h0), dl = (size_t)(q - d0);
        if (hl >= sizeof tmp || dl >= sizeof tmp) continue;
        memcpy(tmp, h0, hl), tmp[hl] = 0;
        const char *hv = py_int_text(tmp, h, cap);
        memmove(h, hv, strlen(hv) + 1);
        memcpy(tmp, d0, dl), tmp[dl] = 0;
        const char *dv = py_int_text(tmp, d, cap);
        memmove(d, dv, strlen(dv) + 1);
        return 1;
    }
    return 0;
}

/* TraceLens's DeepSeek V4 rule: the matching Python frames by (pid, tid, ts), each with an
 * aiter::v4_attention_with_output above it and GPU work, get an op wrapping their
 * children, named by the mode the attention op's kernels show */
static int plan_v4(tsql_pseudo_planner *pl, u32vec *ev, u32vec *st)
{
    tsql_trace *t = pl->t;
    if (index_events(t, match_v4, ev)) return -1;
    if (!ev->n) return 0;
    v4_key *keys = malloc(ev->n * sizeof *keys);
    tsql_keyed *kn = NULL;
    size_t nk = 0;
    int rc = -1;
    if (!keys) return -1;
    for (size_t i = 0; i < ev->n; i++) {
        uint32_t u = ev->v[i];
        keys[i] = (v4_key){id_text(t, t->pid[u]), id_text(t, t->tid[u]), tsql_trace_ts_us(t, u), (uint32_t)i, u};
    }
    v4_sort_err = 0;
    qsort(keys, ev->n, sizeof *keys, v4_cmp);
    if (v4_sort_err) { /* Python cannot sort them: the rule fails as a whole */
        free(keys);
        return 0;
    }
    const char *model = getenv("TL_MODEL");
    char tpbuf[64];
    const char *tp = py_int_text(getenv("TL_TP"), tpbuf, sizeof tpbuf);
    if (!tp) tp = "1";
    uint32_t attn = name_id(t, "aiter::v4_attention_with_output");
    for (size_t i = 0; i < ev->n; i++) {
        uint32_t X = keys[i].uid, D = ancestor_named(pl, X, attn);
        if (D == NONE) continue;
        int g = has_gpu(pl, X, st);
        if (g < 0) goto done;
        if (!g) continue;
        if (gpu_names(pl, D, st, &kn, &nk)) goto done;
        int hca = 0, csa = 0;
        char h[64], d[64];
        int geo = 0;
        for (size_t j = 0; j < nk; j++) {
            const char *s = tsql_pseudo_name(t, kn[j].v);
            if (starts(s, "hca_compress_forward") || starts(s, "hca_norm_rope_scatter") || starts(s, "hca_")) hca = 1;
            if (starts(s, "fused_compress_attn") || starts(s, "_update_compressor_states_kernel")) csa = 1;
            if (!geo) geo = qk_geometry(s, h, d, sizeof h);
        }
        const char *mode = hca ? "hca" : csa ? "csa" : "swa";
        static const char *const names[3] = {"pseudo_v4_paged_decode_hca", "pseudo_v4_paged_decode_csa",
                                             "pseudo_v4_paged_decode_swa"};
        if (start_args(pl, D, X) || tsql_bprintf(&pl->b, ",\"v4_mode\":\"%s\",\"v4_call_index\":%zu,\"v4_model_name\":", mode, i))
            goto done;
        if (model ? tsql_json_quote(&pl->b, model, strlen(model)) : tsql_bputs(&pl->b, "null")) goto done;
        if (tsql_bprintf(&pl->b, ",\"v4_tp\":%s", tp) || (geo && tsql_bprintf(&pl->b, ",\"v4_H_Q\":%s,\"v4_d_h\":%s", h, d)) ||
            tsql_bputc(&pl->b, '}'))
            goto done;
        if (tsql_pseudo_push(pl, (tsql_pseudo_op){.name = names[hca ? 0 : csa ? 1 : 2], .how = TSQL_PSEUDO_WRAP,
                                                  .source = D, .kernel = NONE, .launch = NONE, .parent = X,
                                                  .target = X},
                             &pl->b))
            goto done;
    }
    rc = 0;
done:
    free(keys);
    free(kn);
    return rc;
}

int tsql_pseudo_wrapping_rules(const tsql_trace *t)
{
    int rules = 0, has;
    if (tsql_pseudo_name_present(t, "aiter::fused_moe_")) rules |= RULE_FLYDSL;
    if (tsql_pseudo_name_present(t, "aiter::mla_decode_stage1_asm_fwd")) {
        if ((has = index_has(t, match_mla_decode)) < 0) return -1;
        if (has) rules |= RULE_MLA_DECODE;
    }
    if (tsql_pseudo_name_present(t, "aiter::mla_prefill_ps_asm_fwd")) {
        if ((has = index_has(t, match_mla_prefill)) < 0) return -1;
        if (has) rules |= RULE_MLA_PREFILL;
    }
    if ((has = index_has(t, match_v4_detect)) < 0) return -1;
    if (has) rules |= RULE_V4;
    return rules;
}

int tsql_pseudo_plan_wrapping(tsql_pseudo_planner *pl, int rules)
{
    u32vec ev = {0}, st = {0};
    int rc = -1;
    if ((rules & RULE_FLYDSL) && plan_flydsl(pl, &ev)) goto done;
    if ((rules & RULE_MLA_DECODE) &&
        plan_mla(pl, match_mla_decode, "aiter::mla_decode_stage1_asm_fwd", "pseudo_mla_decode_fwd", &ev, &st))
        goto done;
    if ((rules & RULE_MLA_PREFILL) &&
        plan_mla(pl, match_mla_prefill, "aiter::mla_prefill_ps_asm_fwd", "pseudo_mla_prefill_fwd", &ev, &st))
        goto done;
    if ((rules & RULE_V4) && plan_v4(pl, &ev, &st)) goto done;
    rc = 0;
done:
    free(ev.v);
    free(st.v);
    return rc;
}
