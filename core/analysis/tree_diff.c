/* tree_diff.c — TraceLens's TraceDiff: merged tree, alignment, diff_stats; see tree_diff.h. */
#include "analysis/tree_diff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attribution.h"
#include "text/jsonout.h"
#include "tree/tree.h"
#include "util/u32vec.h"
#include "util/u64map.h"

#define NONE TSQL_NONE
#define NOT_YET UINT32_MAX
#define MINUS_ONE (UINT32_MAX - 1) /* uid map: merged alone */

/* qsort of n elements; nothing to do (and no pointer to pass) below two */
static void sort_n(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1) qsort(base, n, size, cmp);
}

/* ---------- names (§9.1) ---------- */

static int put(tsql_buf *b, const char *s, size_t n)
{
    if (tsql_buf_reserve(b, n + 1)) return -1;
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
    return 0;
}

static int is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static int is_digit(char c) { return c >= '0' && c <= '9'; }
/* Python's \s on the characters a name holds (ASCII; \x1c-\x1f count as whitespace) */
static int is_space(unsigned char c) { return c == ' ' || (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x1f); }

int tsql_diff_norm_name(const char *s, size_t n, int strip, tsql_buf *out)
{
    tsql_buf a = {0};
    int rc = -1;
    out->n = 0;
    if (put(out, "", 0)) return -1;
    /* 1. 0x<hex>+ -> 0xXXXX */
    for (size_t i = 0; i < n;) {
        if (s[i] == '0' && i + 2 < n + 0 && s[i + 1] == 'x' && is_hex(s[i + 2])) {
            size_t k = i + 2;
            while (k < n && is_hex(s[k])) k++;
            if (put(&a, "0xXXXX", 6)) goto out;
            i = k;
        } else {
            if (put(&a, s + i, 1)) goto out;
            i++;
        }
    }
    if (!a.p && put(&a, "", 0)) goto out;
    /* 2. .py(<digits>): -> .py: */
    for (size_t i = 0; i < a.n;) {
        if (i + 4 < a.n && memcmp(a.p + i, ".py(", 4) == 0 && is_digit(a.p[i + 4])) {
            size_t k = i + 4;
            while (k < a.n && is_digit(a.p[k])) k++;
            if (k + 1 < a.n + 0 && a.p[k] == ')' && a.p[k + 1] == ':') {
                if (put(out, ".py:", 4)) goto out;
                i = k + 2;
                continue;
            }
        }
        if (put(out, a.p + i, 1)) goto out;
        i++;
    }
    if (strip) {
        /* 3a. ":" + whitespace + a non-whitespace run at the end: removed */
        size_t e = out->n, k = e;
        while (k > 0 && !is_space((unsigned char)out->p[k - 1]) && out->p[k - 1] != '\n') k--;
        if (k < e && k > 0) {
            size_t w = k;
            while (w > 0 && is_space((unsigned char)out->p[w - 1])) w--;
            if (w < k && w > 0 && out->p[w - 1] == ':') {
                /* \S+ may not hold ':' followed by whitespace (it holds none); the
                 * trailing run must start right after the whitespace */
                out->n = w - 1;
                out->p[out->n] = 0;
            }
        }
        /* 3b. <anything>/<name>.py -> <name>.py (no newline before the last '/') */
        size_t m = out->n;
        if (m >= 3 && memcmp(out->p + m - 3, ".py", 3) == 0) {
            size_t sl = m;
            while (sl > 0 && out->p[sl - 1] != '/') sl--;
            int nl = memchr(out->p, '\n', m) != NULL;
            if (sl > 0 && m - sl > 3 && !nl) {
                memmove(out->p, out->p + sl, m - sl);
                out->n = m - sl;
                out->p[out->n] = 0;
            }
        }
    }
    /* 4. the two module-launch APIs are one */
    if ((out->n == 21 && memcmp(out->p, "hipModuleLaunchKernel", 21) == 0) ||
        (out->n == 14 && memcmp(out->p, "cuLaunchKernel", 14) == 0)) {
        out->n = 0;
        if (put(out, "__kernel_launch__", 17)) goto out;
    }
    rc = 0;
out:
    free(a.p);
    return rc;
}

/* ---------- one side: TraceLens's tree without Python frames ---------- */

typedef struct side {
    tsql_trace *t;
    uint32_t *ch_at, *ch;   /* raw children: CPU children by (ts, uid), then GPU children */
    uint32_t *par;          /* TraceLens's parent */
    uint8_t *gp;            /* on the GPU path (not non_gpu_path) */
    uint8_t *pod;           /* in the point-of-difference set */
    uint32_t *nm[2];        /* normalised name id per name string id (non-strip, strip) */
    uint32_t *roots, nroots;
} side;

typedef struct dop { uint8_t op; int32_t i, j; } dop; /* match, delete, insert */
enum { OP_MATCH = 0, OP_DEL = 1, OP_INS = 2 };
TSQL_VEC(dopvec, dop, 64)

typedef struct ctx {
    side s[2];
    tsql_intern *names;
    tsql_buf tmp, tmp2;
    const char *why;
} ctx;

static int is_name(const tsql_trace *t, uint32_t u, const char *s)
{
    uint32_t id = t->name[u];
    size_t n = strlen(s);
    return id && tsql_intern_len(&t->strings, id) == n && memcmp(tsql_intern_str(&t->strings, id), s, n) == 0;
}

static int graph_launch(const tsql_trace *t, uint32_t u)
{
    return is_name(t, u, "cudaGraphLaunch") || is_name(t, u, "hipGraphLaunch");
}

/* a dispatch node: runtime or driver call other than a graph launch */
static int dispatch(const side *sd, uint32_t u)
{
    return tsql_kind_is_launch(sd->t->kind[u]) && !graph_launch(sd->t, u);
}

/* TraceLens's _is_kernel: kernel or memcpy */
static int kernelish(const side *sd, uint32_t u)
{
    int k = sd->t->kind[u];
    return k == TSQL_K_KERNEL || k == TSQL_K_MEMCPY;
}

static uint32_t nkids(const side *sd, uint32_t u) { return sd->ch_at[u + 1] - sd->ch_at[u]; }
static const uint32_t *kids(const side *sd, uint32_t u) { return sd->ch + sd->ch_at[u]; }

typedef struct tsk { double ts; uint32_t pos, uid; } tsk;

static int cmp_tsk(const void *x, const void *y)
{
    const tsk *a = x, *b = y;
    if (a->ts < b->ts) return -1;
    if (a->ts > b->ts) return 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

/* Stable sort of uids by ts (TraceLens's sorted(key=ts)). 0 or -1 on OOM. */
static int sort_by_ts(const side *sd, uint32_t *v, size_t n)
{
    if (n < 2) return 0;
    tsk *k = malloc(n * sizeof *k);
    if (!k) return -1;
    for (size_t i = 0; i < n; i++) k[i] = (tsk){tsql_trace_ts_us(sd->t, v[i]), (uint32_t)i, v[i]};
    sort_n(k, n, sizeof *k, cmp_tsk);
    for (size_t i = 0; i < n; i++) v[i] = k[i].uid;
    free(k);
    return 0;
}

static void side_free(side *sd)
{
    free(sd->ch_at);
    free(sd->ch);
    free(sd->par);
    free(sd->gp);
    free(sd->pod);
    free(sd->nm[0]);
    free(sd->nm[1]);
    free(sd->roots);
}

static int side_build(side *sd, tsql_trace *t)
{
    uint32_t n = t->n;
    const tsql_kernels *K = &t->kernels;
    sd->t = t;
    sd->ch_at = calloc((size_t)n + 2, sizeof *sd->ch_at);
    sd->par = malloc(((size_t)n + 1) * sizeof *sd->par);
    sd->gp = calloc((size_t)n + 1, 1);
    sd->pod = calloc((size_t)n + 1, 1);
    uint32_t ns = t->strings.n + 1;
    sd->nm[0] = malloc((size_t)ns * sizeof(uint32_t));
    sd->nm[1] = malloc((size_t)ns * sizeof(uint32_t));
    if (!sd->ch_at || !sd->par || !sd->gp || !sd->pod || !sd->nm[0] || !sd->nm[1]) return -1;
    for (uint32_t i = 0; i < ns; i++) sd->nm[0][i] = sd->nm[1][i] = NOT_YET;
    for (uint32_t u = 0; u < n; u++) {
        uint32_t p = NONE;
        if (!(t->flags[u] & TSQL_F_TL_DROPPED) && t->edge[u] == TSQL_EDGE_CPU &&
            !tsql_kind_is_gpu(t->kind[u]))
            p = t->parent[u];
        sd->par[u] = p;
    }
    for (uint32_t k = 0; k < K->n; k++)
        if (K->tl_runtime[k] != NONE) sd->par[K->uid[k]] = K->tl_runtime[k];
    for (uint32_t u = 0; u < n; u++)
        if (sd->par[u] != NONE) sd->ch_at[sd->par[u] + 1]++;
    for (uint32_t u = 0; u < n; u++) sd->ch_at[u + 1] += sd->ch_at[u];
    sd->ch = malloc(((size_t)sd->ch_at[n] + 1) * sizeof *sd->ch);
    uint32_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
    if (!sd->ch || !fill) {
        free(fill);
        return -1;
    }
    memcpy(fill, sd->ch_at, (size_t)n * sizeof *fill);
    /* CPU children first (uid order, sorted by ts below), then GPU children (uid order) */
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t u = 0; u < n; u++)
            if (sd->par[u] != NONE && (pass == 1) == (tsql_kind_is_gpu(t->kind[u]) != 0))
                sd->ch[fill[sd->par[u]]++] = u;
    free(fill);
    for (uint32_t u = 0; u < n; u++) {
        uint32_t a = sd->ch_at[u], b = sd->ch_at[u + 1], c = a;
        while (c < b && !tsql_kind_is_gpu(t->kind[sd->ch[c]])) c++;
        if (c - a > 1 && sort_by_ts(sd, sd->ch + a, c - a)) return -1;
    }
    /* GPU path: GPU events, and every node with linked GPU work below it */
    for (uint32_t u = 0; u < n; u++)
        if (tsql_kind_is_gpu(t->kind[u])) sd->gp[u] = 1;
    for (uint32_t k = 0; k < K->n; k++) {
        uint32_t r = K->tl_runtime[k];
        while (r != NONE && !sd->gp[r]) {
            sd->gp[r] = 1;
            r = sd->par[r];
        }
    }
    /* roots (§9.2): cpu_root_nodes by ts, climbed to the top, then down lone wrappers */
    uint32_t nr = 0;
    for (uint32_t u = 0; u < n; u++) nr += (t->flags[u] & TSQL_F_TL_ROOT) != 0;
    uint32_t *cr = malloc(((size_t)nr + 1) * sizeof *cr);
    sd->roots = malloc(((size_t)nr + 1) * sizeof *sd->roots);
    if (!cr || !sd->roots) {
        free(cr);
        return -1;
    }
    nr = 0;
    for (uint32_t u = 0; u < n; u++)
        if (t->flags[u] & TSQL_F_TL_ROOT) cr[nr++] = u;
    if (sort_by_ts(sd, cr, nr)) {
        free(cr);
        return -1;
    }
    for (uint32_t i = 0; i < nr; i++) {
        uint32_t top = cr[i];
        while (sd->par[top] != NONE) top = sd->par[top];
        uint32_t cur = top;
        while (nkids(sd, cur) == 1) {
            uint32_t c = kids(sd, cur)[0];
            if (sd->t->kind[c] == TSQL_K_CPU_OP || dispatch(sd, c)) break;
            cur = c;
        }
        if (!sd->pod[cur]) sd->roots[sd->nroots++] = cur; /* pod doubles as "seen" here */
        sd->pod[cur] = 1;
    }
    for (uint32_t i = 0; i < sd->nroots; i++) sd->pod[sd->roots[i]] = 0;
    free(cr);
    return 0;
}

/* _get_name_node: normalised name id, 0 for a missing or empty name. NOT_YET on OOM. */
static uint32_t name_id(ctx *c, const side *sd, uint32_t u, int strip)
{
    uint32_t sid = sd->t->name[u];
    if (!sid || tsql_intern_len(&sd->t->strings, sid) == 0) return 0;
    uint32_t v = sd->nm[strip][sid];
    if (v != NOT_YET) return v;
    if (tsql_diff_norm_name(tsql_intern_str(&sd->t->strings, sid), tsql_intern_len(&sd->t->strings, sid),
                            strip, &c->tmp))
        return NOT_YET;
    v = tsql_intern_add(c->names, c->tmp.p, c->tmp.n);
    if (!v) return NOT_YET;
    sd->nm[strip][sid] = v;
    return v;
}

/* the name compared by the edit distance: the node's name, or its uid as text */
static uint32_t wf_name(ctx *c, const side *sd, uint32_t u, int strip)
{
    uint32_t v = name_id(c, sd, u, strip);
    if (v) return v;
    char num[16];
    int k = snprintf(num, sizeof num, "%u", u);
    v = tsql_intern_add(c->names, num, (size_t)k);
    return v ? v : NOT_YET;
}

/* raw name or the uid as text (TraceLens's _get_op_name), into b (replacing) */
static const char *op_name(const side *sd, uint32_t u, char num[16])
{
    uint32_t sid = sd->t->name[u];
    if (sid && tsql_intern_len(&sd->t->strings, sid)) return tsql_intern_text(&sd->t->strings, sid);
    snprintf(num, 16, "%u", u);
    return num;
}

/* GPU-path children of u in raw order, appended to v */
static int gpu_kids(const side *sd, uint32_t u, u32vec *v)
{
    const uint32_t *k = kids(sd, u);
    for (uint32_t i = 0, n = nkids(sd, u); i < n; i++)
        if (sd->gp[k[i]] && u32vec_push(v, k[i])) return -1;
    return 0;
}

/* Collapse(n) of §9.3: the node reached; its GPU-path children (raw order) in *deeper
 * when it stopped on a count other than one. */
static int collapse(const side *sd, uint32_t u, uint32_t *out, u32vec *deeper)
{
    uint32_t cur = u;
    if (deeper) deeper->n = 0;
    for (;;) {
        if (dispatch(sd, cur)) break;
        const uint32_t *k = kids(sd, cur);
        uint32_t n = nkids(sd, cur), ng = 0, one = NONE;
        if (sd->t->kind[cur] == TSQL_K_CPU_OP) {
            int has = 0;
            for (uint32_t i = 0; i < n && !has; i++) has = dispatch(sd, k[i]);
            if (has) break;
        }
        for (uint32_t i = 0; i < n; i++)
            if (sd->gp[k[i]]) {
                ng++;
                one = k[i];
            }
        if (ng != 1) {
            if (deeper && gpu_kids(sd, cur, deeper)) return -1;
            break;
        }
        cur = one;
    }
    *out = cur;
    return 0;
}

/* ---------- edit distance (§9.4) ---------- */

typedef struct levels {
    uint32_t nlev;
    uint32_t at[5];        /* level d is v[at[d] .. at[d+1]) */
    u32vec v;              /* sorted name ids per level */
} levels;

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

static int bfs_levels(ctx *c, const side *sd, uint32_t u, levels *L)
{
    u32vec fr = {0}, nx = {0};
    int rc = -1;
    L->nlev = 0;
    L->v.n = 0;
    L->at[0] = 0;
    if (u32vec_push(&fr, u)) goto out;
    for (int d = 0; d < 4; d++) {
        nx.n = 0;
        for (size_t i = 0; i < fr.n; i++) {
            const uint32_t *k = kids(sd, fr.v[i]);
            for (uint32_t j = 0, n = nkids(sd, fr.v[i]); j < n; j++) {
                if (!sd->gp[k[j]]) continue;
                uint32_t nm = name_id(c, sd, k[j], 0);
                if (nm == NOT_YET || u32vec_push(&nx, k[j]) || u32vec_push(&L->v, nm)) goto out;
            }
        }
        uint32_t a = L->at[L->nlev];
        sort_n(L->v.v + a, L->v.n - a, sizeof *L->v.v, cmp_u32);
        L->at[++L->nlev] = (uint32_t)L->v.n;
        u32vec t = fr;
        fr = nx;
        nx = t;
        if (!fr.n) break;
    }
    rc = 0;
out:
    free(fr.v);
    free(nx.v);
    return rc;
}

/* (levels matched before the first difference, multiset overlap at it) */
static void match_depth(const levels *a, const levels *b, uint32_t *depth, uint32_t *overlap)
{
    uint32_t mx = a->nlev > b->nlev ? a->nlev : b->nlev;
    for (uint32_t d = 0; d < mx; d++) {
        const uint32_t *x = d < a->nlev ? a->v.v + a->at[d] : NULL;
        const uint32_t *y = d < b->nlev ? b->v.v + b->at[d] : NULL;
        uint32_t nx = d < a->nlev ? a->at[d + 1] - a->at[d] : 0;
        uint32_t ny = d < b->nlev ? b->at[d + 1] - b->at[d] : 0;
        int same = nx == ny && (nx == 0 || memcmp(x, y, nx * sizeof *x) == 0);
        if (!same) {
            uint32_t i = 0, j = 0, o = 0;
            while (i < nx && j < ny) {
                if (x[i] == y[j]) {
                    o++;
                    i++;
                    j++;
                } else if (x[i] < y[j]) i++;
                else j++;
            }
            *depth = d;
            *overlap = o;
            return;
        }
    }
    *depth = mx;
    *overlap = 0;
}

typedef struct scored { uint32_t depth, overlap; uint8_t orig; uint32_t i, j; } scored;

static int cmp_scored(const void *x, const void *y)
{
    const scored *a = x, *b = y;
    if (a->depth != b->depth) return a->depth > b->depth ? -1 : 1;
    if (a->overlap != b->overlap) return a->overlap > b->overlap ? -1 : 1;
    if (a->orig != b->orig) return a->orig ? -1 : 1;
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    return (a->j > b->j) - (a->j < b->j);
}

typedef struct nidx { uint32_t name, idx; } nidx;

static int cmp_nidx(const void *x, const void *y)
{
    const nidx *a = x, *b = y;
    if (a->name != b->name) return a->name < b->name ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

static int cmp_pair(const void *x, const void *y)
{
    const dop *a = x, *b = y;
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    return (a->j > b->j) - (a->j < b->j);
}

/* ---------- Python's set iteration order ----------
 * TraceLens collects the disambiguated matches in a Python set of (i, j) tuples and
 * emits them in the set's iteration order: the slots of CPython's hash table. That
 * order follows from the tuples' hashes (xxHash-based tuple hash, Python >= 3.8; a
 * small int hashes to itself), the insertion order, linear probing over 9 slots then
 * perturbed probing, and the table growing (x4) when it is 3/5 full. */

static uint64_t py_pair_hash(uint64_t a, uint64_t b)
{
    const uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL, p5 = 2870177450012600261ULL;
    uint64_t acc = p5, lane[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        acc += lane[k] * p2;
        acc = (acc << 31) | (acc >> 33);
        acc *= p1;
    }
    acc += 2 ^ (p5 ^ 3527539ULL);
    return acc == UINT64_MAX ? 1546275796ULL : acc;
}

typedef struct pyslot { uint64_t hash; int32_t k; } pyslot; /* k: item index + 1, 0 = empty */

static void pyset_put(pyslot *tab, size_t mask, uint64_t h, int32_t k)
{
    size_t i = (size_t)h & mask, perturb = (size_t)h;
    for (;;) {
        size_t probes = i + 9 <= mask ? 9 : 0;
        for (size_t p = 0; p <= probes; p++)
            if (!tab[i + p].k) {
                tab[i + p] = (pyslot){h, k};
                return;
            }
        perturb >>= 5;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

/* v[0..n) (distinct pairs, in insertion order) reordered as Python iterates the set */
static int pyset_order(dop *v, size_t n)
{
    size_t size = 8, fill = 0;
    pyslot *tab = calloc(size, sizeof *tab);
    dop *out = malloc((n + 1) * sizeof *out);
    if (!tab || !out) {
        free(tab);
        free(out);
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        pyset_put(tab, size - 1, py_pair_hash((uint64_t)v[k].i, (uint64_t)v[k].j), (int32_t)k + 1);
        fill++;
        if (fill * 5 >= (size - 1) * 3) {
            size_t want = fill > 50000 ? fill * 2 : fill * 4, ns = 8;
            while (ns <= want) ns <<= 1;
            pyslot *nt = calloc(ns, sizeof *nt);
            if (!nt) {
                free(tab);
                free(out);
                return -1;
            }
            for (size_t i = 0; i < size; i++)
                if (tab[i].k) pyset_put(nt, ns - 1, tab[i].hash, tab[i].k);
            free(tab);
            tab = nt;
            size = ns;
        }
    }
    size_t o = 0;
    for (size_t i = 0; i < size; i++)
        if (tab[i].k) out[o++] = v[tab[i].k - 1];
    memcpy(v, out, n * sizeof *v);
    free(tab);
    free(out);
    return 0;
}

int tsql_diff_py_set_order(int32_t (*pairs)[2], size_t n)
{
    dop *v = malloc((n + 1) * sizeof *v);
    if (!v) return -1;
    for (size_t k = 0; k < n; k++) v[k] = (dop){OP_MATCH, pairs[k][0], pairs[k][1]};
    int rc = pyset_order(v, n);
    for (size_t k = 0; k < n && !rc; k++) {
        pairs[k][0] = v[k].i;
        pairs[k][1] = v[k].j;
    }
    free(v);
    return rc;
}

/* Same-name disambiguation (§9.4 step 3) of ops over a[0..m), b[0..n). */
static int disambiguate(ctx *c, const uint32_t *a, size_t m, const uint32_t *b, size_t n, dopvec *ops)
{
    int rc = -1;
    uint32_t *nm1 = malloc((m + 1) * sizeof *nm1), *nm2 = malloc((n + 1) * sizeof *nm2);
    int32_t *mj = malloc((m + 1) * sizeof *mj);
    uint8_t *h1 = calloc(m + 1, 1), *h2 = calloc(n + 1, 1), *a1 = calloc(m + 1, 1), *a2 = calloc(n + 1, 1);
    nidx *s1 = malloc((m + 1) * sizeof *s1), *s2 = malloc((n + 1) * sizeof *s2);
    u32vec matched = {0};
    dopvec nmat = {0}, ndel = {0}, nins = {0}, fin = {0};
    levels *L1 = NULL, *L2 = NULL;
    scored *sc = NULL;
    size_t nL1 = 0, nL2 = 0;
    if (!nm1 || !nm2 || !mj || !h1 || !h2 || !a1 || !a2 || !s1 || !s2) goto out;
    for (size_t i = 0; i < m; i++) {
        nm1[i] = name_id(c, &c->s[0], a[i], 0);
        if (nm1[i] == NOT_YET) goto out;
        mj[i] = -1;
        s1[i] = (nidx){nm1[i], (uint32_t)i};
    }
    for (size_t j = 0; j < n; j++) {
        nm2[j] = name_id(c, &c->s[1], b[j], 0);
        if (nm2[j] == NOT_YET) goto out;
        s2[j] = (nidx){nm2[j], (uint32_t)j};
    }
    for (size_t k = 0; k < ops->n; k++)
        if (ops->v[k].op == OP_MATCH) {
            mj[ops->v[k].i] = ops->v[k].j;
            if (u32vec_push(&matched, nm1[ops->v[k].i]) || u32vec_push(&matched, nm2[ops->v[k].j])) goto out;
        }
    if (!matched.n) {
        rc = 0;
        goto out;
    }
    sort_n(matched.v, matched.n, sizeof *matched.v, cmp_u32);
    sort_n(s1, m, sizeof *s1, cmp_nidx);
    sort_n(s2, n, sizeof *s2, cmp_nidx);
    int any = 0;
    size_t p = 0, q = 0;
    while (p < m && q < n) {
        if (s1[p].name < s2[q].name) {
            p++;
            continue;
        }
        if (s1[p].name > s2[q].name) {
            q++;
            continue;
        }
        uint32_t name = s1[p].name;
        size_t p1 = p, q1 = q;
        while (p1 < m && s1[p1].name == name) p1++;
        while (q1 < n && s2[q1].name == name) q1++;
        size_t ni = p1 - p, nj = q1 - q;
        int in_matched = bsearch(&name, matched.v, matched.n, sizeof *matched.v, cmp_u32) != NULL;
        if (in_matched && (ni > 1 || nj > 1)) {
            any = 1;
            free(L1);
            free(L2);
            L1 = calloc(ni, sizeof *L1);
            L2 = calloc(nj, sizeof *L2);
            nL1 = ni;
            nL2 = nj;
            free(sc);
            sc = malloc(ni * nj * sizeof *sc);
            if (!L1 || !L2 || !sc) goto out;
            for (size_t i = 0; i < ni; i++) {
                h1[s1[p + i].idx] = 1;
                if (bfs_levels(c, &c->s[0], a[s1[p + i].idx], &L1[i])) goto out;
            }
            for (size_t j = 0; j < nj; j++) {
                h2[s2[q + j].idx] = 1;
                if (bfs_levels(c, &c->s[1], b[s2[q + j].idx], &L2[j])) goto out;
            }
            size_t ns = 0;
            for (size_t i = 0; i < ni; i++)
                for (size_t j = 0; j < nj; j++) {
                    scored x = {0, 0, 0, s1[p + i].idx, s2[q + j].idx};
                    match_depth(&L1[i], &L2[j], &x.depth, &x.overlap);
                    x.orig = mj[x.i] == (int32_t)x.j;
                    sc[ns++] = x;
                }
            sort_n(sc, ns, sizeof *sc, cmp_scored);
            size_t want = ni < nj ? ni : nj, got = 0;
            for (size_t k = 0; k < ns && got < want; k++) {
                if (a1[sc[k].i] || a2[sc[k].j]) continue;
                a1[sc[k].i] = a2[sc[k].j] = 1;
                got++;
                if (dopvec_push(&nmat, (dop){OP_MATCH, (int32_t)sc[k].i, (int32_t)sc[k].j})) goto out;
            }
            for (size_t i = 0; i < ni; i++)
                if (!a1[s1[p + i].idx] && dopvec_push(&ndel, (dop){OP_DEL, (int32_t)s1[p + i].idx, -1})) goto out;
            for (size_t j = 0; j < nj; j++)
                if (!a2[s2[q + j].idx] && dopvec_push(&nins, (dop){OP_INS, -1, (int32_t)s2[q + j].idx})) goto out;
            for (size_t i = 0; i < nL1; i++) free(L1[i].v.v);
            for (size_t j = 0; j < nL2; j++) free(L2[j].v.v);
            nL1 = nL2 = 0;
        }
        p = p1;
        q = q1;
    }
    if (!any) {
        rc = 0;
        goto out;
    }
    int subset = 1;
    for (size_t k = 0; k < nmat.n && subset; k++) subset = mj[nmat.v[k].i] == nmat.v[k].j;
    if (subset) {
        rc = 0;
        goto out;
    }
    for (size_t k = 0; k < ops->n; k++) {
        dop o = ops->v[k];
        int handled = (o.op == OP_MATCH && (h1[o.i] || h2[o.j])) || (o.op == OP_DEL && h1[o.i]) ||
                      (o.op == OP_INS && h2[o.j]);
        if (!handled && dopvec_push(&fin, o)) goto out;
    }
    /* the new matches in Python's set order (their insertion order: names by id, then
     * greedily; TraceLens takes the names in string-hash order, which varies by run) */
    if (pyset_order(nmat.v, nmat.n)) goto out;
    sort_n(ndel.v, ndel.n, sizeof *ndel.v, cmp_pair);
    sort_n(nins.v, nins.n, sizeof *nins.v, cmp_pair);
    for (size_t k = 0; k < nmat.n; k++)
        if (dopvec_push(&fin, nmat.v[k])) goto out;
    for (size_t k = 0; k < ndel.n; k++)
        if (dopvec_push(&fin, ndel.v[k])) goto out;
    for (size_t k = 0; k < nins.n; k++)
        if (dopvec_push(&fin, nins.v[k])) goto out;
    free(ops->v);
    *ops = fin;
    fin.v = NULL;
    rc = 0;
out:
    if (L1)
        for (size_t i = 0; i < nL1; i++) free(L1[i].v.v);
    if (L2)
        for (size_t j = 0; j < nL2; j++) free(L2[j].v.v);
    free(L1);
    free(L2);
    free(sc);
    free(nm1);
    free(nm2);
    free(mj);
    free(h1);
    free(h2);
    free(a1);
    free(a2);
    free(s1);
    free(s2);
    free(matched.v);
    free(nmat.v);
    free(ndel.v);
    free(nins.v);
    free(fin.v);
    return rc;
}

/* Wagner-Fischer with TraceLens's backtrack, then the disambiguation: ops over
 * a[0..m) (baseline uids) and b[0..n) (variant uids). */
static int aligned_wf(ctx *c, const uint32_t *a, size_t m, const uint32_t *b, size_t n, int strip, dopvec *ops)
{
    ops->n = 0;
    if ((double)(m + 1) * (double)(n + 1) > 4e9) {
        c->why = "tree_diff: a sibling list is too long for the edit distance";
        return -1;
    }
    uint32_t *na = malloc((m + 1) * sizeof *na), *nb = malloc((n + 1) * sizeof *nb);
    uint32_t *prev = malloc((n + 1) * sizeof *prev), *cur = malloc((n + 1) * sizeof *cur);
    size_t nbits = (m + 1) * (n + 1);
    uint8_t *up = calloc(nbits / 8 + 1, 1); /* bit (i, j): D[i][j] == D[i-1][j] + 1 */
    dopvec rev = {0};
    int rc = -1;
    if (!na || !nb || !prev || !cur || !up) goto out;
    for (size_t i = 0; i < m; i++)
        if ((na[i] = wf_name(c, &c->s[0], a[i], strip)) == NOT_YET) goto out;
    for (size_t j = 0; j < n; j++)
        if ((nb[j] = wf_name(c, &c->s[1], b[j], strip)) == NOT_YET) goto out;
    for (size_t j = 0; j <= n; j++) prev[j] = (uint32_t)j;
    for (size_t i = 1; i <= m; i++) {
        cur[0] = (uint32_t)i;
        for (size_t j = 1; j <= n; j++) {
            uint32_t del = prev[j] + 1, ins = cur[j - 1] + 1, sub = prev[j - 1] + (na[i - 1] != nb[j - 1]);
            uint32_t v = del < ins ? del : ins;
            if (sub < v) v = sub;
            cur[j] = v;
            if (v == del) {
                size_t bit = i * (n + 1) + j;
                up[bit >> 3] |= (uint8_t)(1u << (bit & 7));
            }
        }
        uint32_t *t = prev;
        prev = cur;
        cur = t;
    }
    size_t i = m, j = n;
    while (i > 0 || j > 0) {
        dop o;
        size_t bit = i * (n + 1) + j;
        if (i > 0 && j > 0 && na[i - 1] == nb[j - 1]) {
            o = (dop){OP_MATCH, (int32_t)(i - 1), (int32_t)(j - 1)};
            i--;
            j--;
        } else if (i > 0 && (j == 0 || (up[bit >> 3] >> (bit & 7) & 1))) {
            o = (dop){OP_DEL, (int32_t)(i - 1), -1};
            i--;
        } else {
            o = (dop){OP_INS, -1, (int32_t)(j - 1)};
            j--;
        }
        if (dopvec_push(&rev, o)) goto out;
    }
    for (size_t k = rev.n; k-- > 0;)
        if (dopvec_push(ops, rev.v[k])) goto out;
    rc = disambiguate(c, a, m, b, n, ops);
out:
    free(na);
    free(nb);
    free(prev);
    free(cur);
    free(up);
    free(rev.v);
    return rc;
}

/* ---------- merging one pair (§9.3 steps 2-6) ---------- */

static int any_dispatch(const side *sd, const uint32_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (dispatch(sd, v[i])) return 1;
    return 0;
}

/* positional pairing when the lengths agree and no dispatch node is among them, else
 * aligned_wf */
static int align(ctx *c, const uint32_t *a, size_t m, const uint32_t *b, size_t n, dopvec *ops)
{
    ops->n = 0;
    if (m == n && !any_dispatch(&c->s[0], a, m) && !any_dispatch(&c->s[1], b, n)) {
        for (size_t i = 0; i < m; i++)
            if (dopvec_push(ops, (dop){OP_MATCH, (int32_t)i, (int32_t)i})) return -1;
        return 0;
    }
    return aligned_wf(c, a, m, b, n, 0, ops);
}

/* children of u on side s for get_children_with_missing: GPU-path ones plus, for each
 * name the other side has among its GPU-path children and this side has only off the
 * GPU path, the last child of that name */
static int with_missing(ctx *c, int s, uint32_t u, uint32_t other, u32vec *out)
{
    const side *sd = &c->s[s], *od = &c->s[1 - s];
    out->n = 0;
    if (u == NONE) return 0;
    if (gpu_kids(sd, u, out)) return -1;
    if (other == NONE) return sort_by_ts(sd, out->v, out->n);
    u32vec mine = {0}, theirs = {0}, extra = {0};
    int rc = -1;
    for (size_t i = 0; i < out->n; i++) {
        uint32_t nm = name_id(c, sd, out->v[i], 0);
        if (nm == NOT_YET || u32vec_push(&mine, nm)) goto out;
    }
    if (gpu_kids(od, other, &theirs)) goto out;
    for (size_t i = 0; i < theirs.n; i++) {
        uint32_t nm = name_id(c, od, theirs.v[i], 0);
        if (nm == NOT_YET) goto out;
        theirs.v[i] = nm;
    }
    sort_n(mine.v, mine.n, sizeof *mine.v, cmp_u32);
    sort_n(theirs.v, theirs.n, sizeof *theirs.v, cmp_u32);
    /* names on the other side's GPU path missing from ours */
    for (size_t i = 0; i < theirs.n; i++) {
        if (i && theirs.v[i] == theirs.v[i - 1]) continue;
        if (mine.n && bsearch(&theirs.v[i], mine.v, mine.n, sizeof *mine.v, cmp_u32)) continue;
        const uint32_t *k = kids(sd, u);
        uint32_t last = NONE;
        for (uint32_t j = 0, n = nkids(sd, u); j < n; j++) {
            uint32_t nm = name_id(c, sd, k[j], 0);
            if (nm == NOT_YET) goto out;
            if (nm == theirs.v[i]) last = k[j];
        }
        if (last != NONE && u32vec_push(&extra, last)) goto out;
    }
    for (size_t i = 0; i < extra.n; i++)
        if (u32vec_push(out, extra.v[i])) goto out;
    rc = sort_by_ts(sd, out->v, out->n);
out:
    free(mine.v);
    free(theirs.v);
    free(extra.v);
    return rc;
}

static int same_names(ctx *c, const side *s1, const u32vec *x, const side *s2, const u32vec *y)
{
    if (x->n != y->n) return 0;
    for (size_t i = 0; i < x->n; i++)
        if (name_id(c, s1, x->v[i], 0) != name_id(c, s2, y->v[i], 0)) return 0;
    return 1;
}

static int contains_name(ctx *c, const side *sd, const u32vec *v, uint32_t nm)
{
    for (size_t i = 0; i < v->n; i++)
        if (name_id(c, sd, v->v[i], 0) == nm) return 1;
    return 0;
}

/* last index of uid in v, or -1 */
static long find_last(const u32vec *v, uint32_t uid)
{
    for (size_t i = v->n; i-- > 0;)
        if (v->v[i] == uid) return (long)i;
    return -1;
}

/* Phase 3: wrapper reconciliation. */
static int reconcile(ctx *c, dopvec *ops, u32vec *c1, u32vec *c2)
{
    const side *A = &c->s[0], *B = &c->s[1];
    u32vec dels = {0}, inss = {0}, r1 = {0}, r2 = {0}, imm_d = {0}, imm_i = {0};
    u32vec *sub1 = NULL, *sub2 = NULL;
    uint8_t *has1 = NULL, *has2 = NULL;
    dopvec nops = {0}, fops = {0};
    u32vec free1 = {0}, free2 = {0}, fi1 = {0}, fi2 = {0};
    uint8_t *pin1 = NULL, *pin2 = NULL;
    size_t n1 = c1->n, n2 = c2->n;
    int rc = -1;
    for (size_t k = 0; k < ops->n; k++) {
        if (ops->v[k].op == OP_DEL && u32vec_push(&dels, (uint32_t)ops->v[k].i)) goto out;
        if (ops->v[k].op == OP_INS && u32vec_push(&inss, (uint32_t)ops->v[k].j)) goto out;
    }
    if (!dels.n || !inss.n) {
        rc = 0;
        goto out;
    }
    sub1 = calloc(c1->n + 1, sizeof *sub1);
    sub2 = calloc(c2->n + 1, sizeof *sub2);
    has1 = calloc(c1->n + 1, 1);
    has2 = calloc(c2->n + 1, 1);
    if (!sub1 || !sub2 || !has1 || !has2) goto out;
    int changed = 0;
    for (size_t x = 0; x < dels.n; x++)
        for (size_t y = 0; y < inss.n; y++) {
            uint32_t di = dels.v[x], ii = inss.v[y];
            uint32_t ud = c1->v[di], ui = c2->v[ii];
            int kd = A->t->kind[ud], ki = B->t->kind[ui];
            if (((kd == TSQL_K_KERNEL || tsql_kind_is_launch(kd)) && !graph_launch(A->t, ud)) ||
                ((ki == TSQL_K_KERNEL || tsql_kind_is_launch(ki)) && !graph_launch(B->t, ui)))
                continue;
            uint32_t nd = name_id(c, A, ud, 0), ni = name_id(c, B, ui, 0);
            if (nd == NOT_YET || ni == NOT_YET) goto out;
            imm_d.n = imm_i.n = 0;
            if (gpu_kids(A, ud, &imm_d) || gpu_kids(B, ui, &imm_i)) goto out;
            if (nd && contains_name(c, B, &imm_i, nd)) {
                sub2[ii].n = 0;
                for (size_t k = 0; k < imm_i.n; k++)
                    if (u32vec_push(&sub2[ii], imm_i.v[k])) goto out;
                has2[ii] = 1;
                changed = 1;
            }
            if (ni && contains_name(c, A, &imm_d, ni)) {
                sub1[di].n = 0;
                for (size_t k = 0; k < imm_d.n; k++)
                    if (u32vec_push(&sub1[di], imm_d.v[k])) goto out;
                has1[di] = 1;
                changed = 1;
            }
            if (imm_d.n && imm_i.n && same_names(c, A, &imm_d, B, &imm_i)) {
                sub1[di].n = 0;
                sub2[ii].n = 0;
                for (size_t k = 0; k < imm_d.n; k++)
                    if (u32vec_push(&sub1[di], imm_d.v[k])) goto out;
                for (size_t k = 0; k < imm_i.n; k++)
                    if (u32vec_push(&sub2[ii], imm_i.v[k])) goto out;
                has1[di] = has2[ii] = 1;
                changed = 1;
            }
        }
    if (!changed) {
        rc = 0;
        goto out;
    }
    for (size_t i = 0; i < c1->n; i++) {
        if (has1[i]) {
            for (size_t k = 0; k < sub1[i].n; k++)
                if (u32vec_push(&r1, sub1[i].v[k])) goto out;
        } else if (u32vec_push(&r1, c1->v[i])) goto out;
    }
    for (size_t j = 0; j < c2->n; j++) {
        if (has2[j]) {
            for (size_t k = 0; k < sub2[j].n; k++)
                if (u32vec_push(&r2, sub2[j].v[k])) goto out;
        } else if (u32vec_push(&r2, c2->v[j])) goto out;
    }
    if (sort_by_ts(A, r1.v, r1.n) || sort_by_ts(B, r2.v, r2.n)) goto out;
    pin1 = calloc(r1.n + 1, 1);
    pin2 = calloc(r2.n + 1, 1);
    if (!pin1 || !pin2) goto out;
    for (size_t k = 0; k < ops->n; k++) {
        if (ops->v[k].op != OP_MATCH) continue;
        long ri = find_last(&r1, c1->v[ops->v[k].i]), rj = find_last(&r2, c2->v[ops->v[k].j]);
        if (ri >= 0 && rj >= 0) {
            if (dopvec_push(&nops, (dop){OP_MATCH, (int32_t)ri, (int32_t)rj})) goto out;
            pin1[ri] = pin2[rj] = 1;
        }
    }
    for (size_t i = 0; i < r1.n; i++)
        if (!pin1[i] && (u32vec_push(&free1, (uint32_t)i) || u32vec_push(&fi1, r1.v[i]))) goto out;
    for (size_t j = 0; j < r2.n; j++)
        if (!pin2[j] && (u32vec_push(&free2, (uint32_t)j) || u32vec_push(&fi2, r2.v[j]))) goto out;
    if (free1.n && free2.n) {
        if (align(c, fi1.v, fi1.n, fi2.v, fi2.n, &fops)) goto out;
        for (size_t k = 0; k < fops.n; k++) {
            dop o = fops.v[k];
            dop x = {o.op, o.i >= 0 ? (int32_t)free1.v[o.i] : -1, o.j >= 0 ? (int32_t)free2.v[o.j] : -1};
            if (dopvec_push(&nops, x)) goto out;
        }
    } else {
        for (size_t i = 0; i < free1.n; i++)
            if (dopvec_push(&nops, (dop){OP_DEL, (int32_t)free1.v[i], -1})) goto out;
        for (size_t j = 0; j < free2.n; j++)
            if (dopvec_push(&nops, (dop){OP_INS, -1, (int32_t)free2.v[j]})) goto out;
    }
    free(ops->v);
    *ops = nops;
    nops.v = NULL;
    free(c1->v);
    free(c2->v);
    *c1 = r1;
    *c2 = r2;
    r1.v = r2.v = NULL;
    rc = 0;
out:
    if (sub1)
        for (size_t i = 0; i < n1; i++) free(sub1[i].v);
    if (sub2)
        for (size_t j = 0; j < n2; j++) free(sub2[j].v);
    free(sub1);
    free(sub2);
    free(has1);
    free(has2);
    free(dels.v);
    free(inss.v);
    free(r1.v);
    free(r2.v);
    free(imm_d.v);
    free(imm_i.v);
    free(nops.v);
    free(fops.v);
    free(free1.v);
    free(free2.v);
    free(fi1.v);
    free(fi2.v);
    free(pin1);
    free(pin2);
    return rc;
}

/* Phase 4: collapse the unmatched on both sides and align them again. */
static int canonicalise(ctx *c, dopvec *ops, u32vec *c1, u32vec *c2)
{
    u32vec ui = {0}, uj = {0}, k1 = {0}, k2 = {0}, si = {0}, sj = {0}, x1 = {0}, x2 = {0};
    dopvec p1 = {0}, p2 = {0}, cops = {0}, nops = {0};
    int rc = -1;
    for (size_t k = 0; k < ops->n; k++) {
        if (ops->v[k].op == OP_DEL && u32vec_push(&ui, (uint32_t)ops->v[k].i)) goto out;
        if (ops->v[k].op == OP_INS && u32vec_push(&uj, (uint32_t)ops->v[k].j)) goto out;
    }
    if (!ui.n || !uj.n) {
        rc = 0;
        goto out;
    }
    for (size_t i = 0; i < ui.n; i++) {
        uint32_t to;
        if (collapse(&c->s[0], c1->v[ui.v[i]], &to, NULL) || u32vec_push(&k1, to)) goto out;
    }
    for (size_t j = 0; j < uj.n; j++) {
        uint32_t to;
        if (collapse(&c->s[1], c2->v[uj.v[j]], &to, NULL) || u32vec_push(&k2, to)) goto out;
    }
    if (aligned_wf(c, k1.v, k1.n, k2.v, k2.n, 0, &p1)) goto out;
    for (size_t k = 0; k < p1.n; k++) {
        if (p1.v[k].op == OP_DEL && u32vec_push(&si, (uint32_t)p1.v[k].i)) goto out;
        if (p1.v[k].op == OP_INS && u32vec_push(&sj, (uint32_t)p1.v[k].j)) goto out;
    }
    if (si.n && sj.n) {
        for (size_t i = 0; i < si.n; i++)
            if (u32vec_push(&x1, k1.v[si.v[i]])) goto out;
        for (size_t j = 0; j < sj.n; j++)
            if (u32vec_push(&x2, k2.v[sj.v[j]])) goto out;
        if (aligned_wf(c, x1.v, x1.n, x2.v, x2.n, 1, &p2)) goto out;
        for (size_t k = 0; k < p1.n; k++)
            if (p1.v[k].op == OP_MATCH && dopvec_push(&cops, p1.v[k])) goto out;
        for (size_t k = 0; k < p2.n; k++) {
            dop o = p2.v[k];
            dop x = {o.op, o.i >= 0 ? (int32_t)si.v[o.i] : -1, o.j >= 0 ? (int32_t)sj.v[o.j] : -1};
            if (dopvec_push(&cops, x)) goto out;
        }
    } else {
        for (size_t k = 0; k < p1.n; k++)
            if (dopvec_push(&cops, p1.v[k])) goto out;
    }
    for (size_t k = 0; k < ops->n; k++)
        if (ops->v[k].op == OP_MATCH && dopvec_push(&nops, ops->v[k])) goto out;
    for (size_t k = 0; k < cops.n; k++) {
        dop o = cops.v[k];
        dop x = {o.op, -1, -1};
        if (o.i >= 0) {
            x.i = (int32_t)ui.v[o.i];
            c1->v[x.i] = k1.v[o.i];
        }
        if (o.j >= 0) {
            x.j = (int32_t)uj.v[o.j];
            c2->v[x.j] = k2.v[o.j];
        }
        if (dopvec_push(&nops, x)) goto out;
    }
    free(ops->v);
    *ops = nops;
    nops.v = NULL;
    rc = 0;
out:
    free(ui.v);
    free(uj.v);
    free(k1.v);
    free(k2.v);
    free(si.v);
    free(sj.v);
    free(x1.v);
    free(x2.v);
    free(p1.v);
    free(p2.v);
    free(cops.v);
    free(nops.v);
    return rc;
}

/* The aligned children of the pair (*u1, *u2) as pairs of uids (NONE = absent side);
 * *u1 / *u2 become the collapsed nodes of phase 1 when it applies. */
static int merge_children(ctx *c, uint32_t *u1, uint32_t *u2, u32vec *p1, u32vec *p2)
{
    u32vec c1 = {0}, c2 = {0}, deeper = {0};
    dopvec ops = {0};
    int rc = -1;
    p1->n = p2->n = 0;
    if (with_missing(c, 0, *u1, *u2, &c1) || with_missing(c, 1, *u2, *u1, &c2)) goto out;
    /* phase 1: one side's lone child collapsed to where it branches */
    if (c1.n != c2.n) {
        int s = c1.n == 1 ? 0 : c2.n == 1 ? 1 : -1;
        if (s >= 0) {
            u32vec *cs = s == 0 ? &c1 : &c2;
            uint32_t to;
            if (collapse(&c->s[s], cs->v[0], &to, &deeper)) goto out;
            if (deeper.n) {
                if (s == 0) *u1 = to;
                else *u2 = to;
                u32vec t = *cs;
                *cs = deeper;
                deeper = t;
            }
        }
    }
    /* phase 2 */
    if (align(c, c1.v, c1.n, c2.v, c2.n, &ops)) goto out;
    /* phase 3 */
    int unmatched = 0;
    for (size_t k = 0; k < ops.n && !unmatched; k++) unmatched = ops.v[k].op != OP_MATCH;
    if (unmatched && reconcile(c, &ops, &c1, &c2)) goto out;
    /* phase 4 */
    if (canonicalise(c, &ops, &c1, &c2)) goto out;
    for (size_t k = 0; k < ops.n; k++) {
        dop o = ops.v[k];
        uint32_t x1 = o.i >= 0 && (size_t)o.i < c1.n ? c1.v[o.i] : NONE;
        uint32_t x2 = o.j >= 0 && (size_t)o.j < c2.n ? c2.v[o.j] : NONE;
        if (u32vec_push(p1, x1) || u32vec_push(p2, x2)) goto out;
    }
    rc = 0;
out:
    free(c1.v);
    free(c2.v);
    free(deeper.v);
    free(ops.v);
    return rc;
}

/* ---------- the merge (§9.3), iteratively ---------- */

typedef struct priv {
    tsql_u64map memo;       /* (uid1, uid2) -> merged id */
    tsql_u64map uidmap;     /* (side, uid) -> the other uid, MINUS_ONE when alone */
    tsql_u64map find[2];    /* uid -> merged id, per side */
} priv;

static int64_t pair_key(uint32_t a, uint32_t b)
{
    return (int64_t)(((uint64_t)(a == NONE ? 0 : (uint64_t)a + 1) << 32) | (b == NONE ? 0 : (uint64_t)b + 1));
}

static int map_room(tsql_u64map *m)
{
    if ((uint64_t)m->n * 2 + 4 < m->nslots) return 0;
    tsql_u64map big;
    if (tsql_u64map_init(&big, m->nslots)) {
        tsql_u64map_free(&big);
        return -1;
    }
    for (uint32_t j = 0; j < m->nslots; j++)
        if (m->vals[j] != UINT32_MAX) tsql_u64map_put(&big, m->keys[j], m->vals[j], 1);
    tsql_u64map_free(m);
    *m = big;
    return 0;
}

typedef struct frame {
    uint32_t id;
    u32vec p1, p2;          /* the aligned child pairs */
    size_t next;
    u32vec kid;             /* merged ids of the children so far */
} frame;

typedef struct mgr {
    tsql_tree_diff *d;
    size_t cap;
    u32vec pool;            /* children lists */
} mgr;

static int grow_nodes(mgr *g)
{
    tsql_tree_diff *d = g->d;
    if (d->n < g->cap) return 0;
    size_t nc = g->cap ? g->cap * 2 : 1024;
#define GROW(f)                                                     \
    do {                                                            \
        void *np = realloc(d->f, nc * sizeof *d->f);                \
        if (!np) return -1;                                         \
        d->f = np;                                                  \
    } while (0)
    GROW(uid1);
    GROW(uid2);
    GROW(type);
    GROW(pod);
    GROW(is_lca);
    GROW(parent);
    GROW(depth);
    GROW(kid_at);
    GROW(kid_n);
#undef GROW
    g->cap = nc;
    return 0;
}

/* Creates the merged node of (u1, u2) under parent (§9.3 steps 0-1) and computes its
 * child pairs into f. */
static int new_node(ctx *c, mgr *g, priv *pv, uint32_t u1, uint32_t u2, uint32_t parent, frame *f)
{
    tsql_tree_diff *d = g->d;
    side *A = &c->s[0], *B = &c->s[1];
    if (u1 != NONE && u2 != NONE) {
        if (!A->pod[u1] && !B->pod[u2]) {
            uint32_t n1 = name_id(c, A, u1, 0), n2 = name_id(c, B, u2, 0);
            if (n1 == NOT_YET || n2 == NOT_YET) return -1;
            if (n1 != n2) A->pod[u1] = B->pod[u2] = 1;
        }
    } else if (u1 != NONE) A->pod[u1] = 1;
    else B->pod[u2] = 1;
    if (grow_nodes(g) || map_room(&pv->memo) || map_room(&pv->uidmap)) return -1;
    uint32_t id = d->n++;
    tsql_u64map_put(&pv->memo, pair_key(u1, u2), id, 1);
    if (u1 != NONE) tsql_u64map_put(&pv->uidmap, (int64_t)u1, u2 == NONE ? MINUS_ONE : u2, 1);
    if (u2 != NONE) tsql_u64map_put(&pv->uidmap, (int64_t)((1ull << 32) | u2), u1 == NONE ? MINUS_ONE : u1, 1);
    d->pod[id] = (u1 != NONE && A->pod[u1]) || (u2 != NONE && B->pod[u2]);
    d->is_lca[id] = 0;
    d->parent[id] = parent;
    d->depth[id] = parent == NONE ? 0 : d->depth[parent] + 1;
    d->type[id] = u1 != NONE && u2 != NONE ? TSQL_DIFF_BOTH : u1 != NONE ? TSQL_DIFF_BASELINE : TSQL_DIFF_VARIANT;
    d->kid_at[id] = 0;
    d->kid_n[id] = 0;
    f->id = id;
    f->next = 0;
    f->kid.n = 0;
    if (merge_children(c, &u1, &u2, &f->p1, &f->p2)) return -1;
    d->uid1[id] = u1;
    d->uid2[id] = u2;
    return 0;
}

static int merge_all(ctx *c, tsql_tree_diff *d, priv *pv)
{
    mgr g = {d, 0, {0}};
    frame *st = NULL;
    size_t nst = 0, capst = 0;
    int rc = -1;
    side *A = &c->s[0], *B = &c->s[1];
    uint32_t nr = A->nroots > B->nroots ? A->nroots : B->nroots;
    d->roots = malloc(((size_t)nr + 1) * sizeof *d->roots);
    if (!d->roots) goto out;
    for (uint32_t r = 0; r < nr; r++) {
        uint32_t u1 = r < A->nroots ? A->roots[r] : NONE, u2 = r < B->nroots ? B->roots[r] : NONE;
        uint32_t got = tsql_u64map_get(&pv->memo, pair_key(u1, u2));
        if (got != NONE) {
            d->roots[d->nroots++] = got;
            continue;
        }
        if (nst == capst) {
            frame *ns = tsql_grow(st, &capst, sizeof *st, 64);
            if (!ns) goto out;
            memset(ns + nst, 0, (capst - nst) * sizeof *ns);
            st = ns;
        }
        if (new_node(c, &g, pv, u1, u2, NONE, &st[nst])) goto out;
        d->roots[d->nroots++] = st[nst].id;
        nst++;
        while (nst) {
            frame *f = &st[nst - 1];
            if (f->next < f->p1.n) {
                uint32_t c1 = f->p1.v[f->next], c2 = f->p2.v[f->next];
                f->next++;
                uint32_t got2 = tsql_u64map_get(&pv->memo, pair_key(c1, c2));
                if (got2 != NONE) {
                    if (u32vec_push(&f->kid, got2)) goto out;
                    continue;
                }
                if (nst == capst) {
                    frame *ns = tsql_grow(st, &capst, sizeof *st, 64);
                    if (!ns) goto out;
                    memset(ns + nst, 0, (capst - nst) * sizeof *ns);
                    st = ns;
                    f = &st[nst - 1];
                }
                uint32_t pid = f->id;
                if (new_node(c, &g, pv, c1, c2, pid, &st[nst])) goto out;
                if (u32vec_push(&st[nst - 1].kid, st[nst].id)) goto out;
                nst++;
                continue;
            }
            d->kid_at[f->id] = (uint32_t)g.pool.n;
            d->kid_n[f->id] = (uint32_t)f->kid.n;
            for (size_t k = 0; k < f->kid.n; k++)
                if (u32vec_push(&g.pool, f->kid.v[k])) goto out;
            nst--;
        }
    }
    d->kids = g.pool.v;
    g.pool.v = NULL;
    if (!d->kids && !(d->kids = malloc(sizeof *d->kids))) goto out;
    rc = 0;
out:
    for (size_t i = 0; i < capst; i++) {
        free(st[i].p1.v);
        free(st[i].p2.v);
        free(st[i].kid.v);
    }
    free(st);
    free(g.pool.v);
    return rc;
}

/* ---------- diff_stats (§9.6) ---------- */

TSQL_VEC(rowvec, tsql_diff_row, 256)

/* name with every "(<digits>)" removed, interned */
static uint32_t lca_text(ctx *c, const side *sd, uint32_t u)
{
    char num[16];
    const char *s = op_name(sd, u, num);
    size_t n = strlen(s);
    c->tmp.n = 0;
    if (put(&c->tmp, "", 0)) return 0;
    for (size_t i = 0; i < n;) {
        if (s[i] == '(' && i + 1 < n && is_digit(s[i + 1])) {
            size_t k = i + 1;
            while (k < n && is_digit(s[k])) k++;
            if (k < n && s[k] == ')') {
                i = k + 1;
                continue;
            }
        }
        if (put(&c->tmp, s + i, 1)) return 0;
        i++;
    }
    return tsql_intern_add(c->names, c->tmp.p, c->tmp.n);
}

static double round3(double x)
{
    return rint(x * 1000.0) / 1000.0;
}

static int add_rows(ctx *c, int s, const u32vec *g, uint32_t lca, uint32_t lname, double busy, rowvec *rows)
{
    const side *sd = &c->s[s];
    for (size_t i = 0; i < g->n; i++) {
        uint32_t p = sd->par[g->v[i]];
        while (p != NONE && sd->t->kind[p] != TSQL_K_CPU_OP) p = sd->par[p];
        if (p == NONE) continue;
        tsql_diff_row r = {(uint8_t)(s + 1), g->v[i], p, lca, round3(busy), lname, 0, 0};
        if (rowvec_push(rows, r)) return -1;
    }
    return 0;
}

static double busy_of(const side *sd, const u32vec *g)
{
    if (!g->n) return 0.0;
    double *scratch = malloc(2 * g->n * sizeof *scratch);
    if (!scratch) return NAN;
    double b = tsql_busy_us(sd->t, g->v, g->n, scratch);
    free(scratch);
    return b;
}

typedef struct sframe { uint32_t m, parent; uint32_t next; } sframe;

static int diff_stats(ctx *c, tsql_tree_diff *d, rowvec *rows)
{
    const side *A = &c->s[0], *B = &c->s[1];
    uint8_t *visited = calloc((size_t)d->n + 1, 1);
    sframe *st = NULL;
    size_t nst = 0, capst = 0;
    u32vec g1 = {0}, g2 = {0}, t1 = {0}, t2 = {0};
    int rc = -1;
    if (!visited) goto out;
    for (uint32_t r = 0; r < d->nroots; r++) {
        if (nst == capst) {
            sframe *ns = tsql_grow(st, &capst, sizeof *st, 64);
            if (!ns) goto out;
            st = ns;
        }
        st[nst++] = (sframe){d->roots[r], NONE, UINT32_MAX};
        while (nst) {
            sframe *f = &st[nst - 1];
            uint32_t m = f->m;
            if (f->next == UINT32_MAX) {
                /* first visit */
                f->next = 0;
                if (visited[m]) {
                    nst--;
                    continue;
                }
                int t = d->type[m];
                if (t == TSQL_DIFF_BOTH) {
                    uint32_t e1 = d->uid1[m], e2 = d->uid2[m];
                    if (A->gp[e1] && B->gp[e2]) {
                        t1.n = t2.n = 0;
                        for (uint32_t k = 0; k < d->kid_n[m]; k++) {
                            uint32_t ch = d->kids[d->kid_at[m] + k];
                            if (d->type[ch] == TSQL_DIFF_BOTH) continue;
                            if (d->uid1[ch] != NONE && A->gp[d->uid1[ch]] && u32vec_push(&t1, ch)) goto out;
                            if (d->uid2[ch] != NONE && B->gp[d->uid2[ch]] && u32vec_push(&t2, ch)) goto out;
                        }
                        if (t1.n || t2.n || (kernelish(A, e1) && kernelish(B, e2))) {
                            uint32_t l1 = lca_text(c, A, e1), l2 = lca_text(c, B, e2), ln = l1;
                            if (!l1 || !l2) goto out;
                            if (l1 != l2) {
                                c->tmp.n = 0;
                                const char *s1 = tsql_intern_str(c->names, l1), *s2 = tsql_intern_str(c->names, l2);
                                if (put(&c->tmp, s1, strlen(s1)) || put(&c->tmp, " | ", 3) ||
                                    put(&c->tmp, s2, strlen(s2)))
                                    goto out;
                                if (!(ln = tsql_intern_add(c->names, c->tmp.p, c->tmp.n))) goto out;
                            }
                            g1.n = g2.n = 0;
                            for (size_t k = 0; k < t1.n; k++) {
                                uint32_t cu = d->uid1[t1.v[k]];
                                if (tsql_tl_subtree_gpu(A->t, cu, &g1) < 0) goto out;
                                if (kernelish(A, cu) && u32vec_push(&g1, cu)) goto out;
                            }
                            if (kernelish(A, e1) && u32vec_push(&g1, e1)) goto out;
                            for (size_t k = 0; k < t2.n; k++) {
                                uint32_t cu = d->uid2[t2.v[k]];
                                if (tsql_tl_subtree_gpu(B->t, cu, &g2) < 0) goto out;
                                if (kernelish(B, cu) && u32vec_push(&g2, cu)) goto out;
                            }
                            if (kernelish(B, e2) && u32vec_push(&g2, e2)) goto out;
                            double b1 = busy_of(A, &g1), b2 = busy_of(B, &g2);
                            if (isnan(b1) || isnan(b2)) goto out;
                            if (add_rows(c, 0, &g1, m, ln, b1, rows) || add_rows(c, 1, &g2, m, ln, b2, rows))
                                goto out;
                            d->is_lca[m] = 1;
                            visited[m] = 1;
                            for (size_t k = 0; k < t1.n; k++) visited[t1.v[k]] = 1;
                            for (size_t k = 0; k < t2.n; k++) visited[t2.v[k]] = 1;
                        }
                    }
                    if (!A->gp[e1] && !B->gp[e2]) {
                        nst--;
                        continue;
                    }
                } else {
                    int s = t == TSQL_DIFF_BASELINE ? 0 : 1;
                    const side *sd = &c->s[s];
                    uint32_t e = s == 0 ? d->uid1[m] : d->uid2[m];
                    if (sd->gp[e]) {
                        uint32_t lname = 0, lca = f->parent;
                        if (lca != NONE) {
                            uint32_t pe = s == 0 ? d->uid1[lca] : d->uid2[lca];
                            if (!(lname = lca_text(c, sd, pe))) goto out;
                        }
                        g1.n = 0;
                        if (tsql_tl_subtree_gpu(sd->t, e, &g1) < 0) goto out;
                        double b = busy_of(sd, &g1);
                        if (isnan(b) || add_rows(c, s, &g1, lca, lname, b, rows)) goto out;
                    }
                    visited[m] = 1;
                    nst--;
                    continue;
                }
            }
            if (f->next < d->kid_n[m]) {
                uint32_t ch = d->kids[d->kid_at[m] + f->next++];
                if (nst == capst) {
                    sframe *ns = tsql_grow(st, &capst, sizeof *st, 64);
                    if (!ns) goto out;
                    st = ns;
                }
                st[nst++] = (sframe){ch, m, UINT32_MAX};
                continue;
            }
            nst--;
        }
    }
    rc = 0;
out:
    free(visited);
    free(st);
    free(g1.v);
    free(g2.v);
    free(t1.v);
    free(t2.v);
    return rc;
}

/* the trace1 rows equal the trace2 rows, column by column (DataFrame.equals) */
static int rows_identical(ctx *c, const tsql_tree_diff *d)
{
    uint32_t n1 = 0, n2 = 0;
    for (uint32_t i = 0; i < d->nrows; i++) {
        if (d->rows[i].side == 1) n1++;
        else n2++;
    }
    if (n1 != n2 || !n1) return 0;
    const tsql_diff_row *r1 = d->rows, *r2 = d->rows;
    tsql_buf a = {0}, b = {0};
    int same = 1;
    for (uint32_t k = 0; k < n1 && same; k++, r1++, r2++) {
        while (r1->side != 1) r1++;
        while (r2->side != 2) r2++;
        const side *A = &c->s[0], *B = &c->s[1];
        char x[16], y[16];
        same = r1->gpu == r2->gpu && r1->op == r2->op && r1->lca == r2->lca && r1->busy_us == r2->busy_us &&
               r1->lca_name == r2->lca_name && strcmp(op_name(A, r1->gpu, x), op_name(B, r2->gpu, y)) == 0 &&
               strcmp(op_name(A, r1->op, x), op_name(B, r2->op, y)) == 0 &&
               tsql_trace_dur_us(A->t, r1->gpu) == tsql_trace_dur_us(B->t, r2->gpu);
        if (same) {
            a.n = b.n = 0;
            long la = tsql_trace_args_json(A->t, r1->op, &a), lb = tsql_trace_args_json(B->t, r2->op, &b);
            same = la == lb && la >= 0 && (la == 0 || memcmp(a.p, b.p, (size_t)la) == 0);
        }
    }
    free(a.p);
    free(b.p);
    return same;
}

/* ---------- cpu_op_map's renaming (TraceLens's get_rename_map) ---------- */

/* text id of s[0..n) in names, 0 on OOM */
static uint32_t text_id(tsql_intern *names, const char *s, size_t n)
{
    return tsql_intern_add(names, s, n);
}

static const char *after_colons(const char *s)
{
    const char *p = s, *q;
    while ((q = strstr(p, "::"))) p = q + 2;
    return p;
}

/* find_common_name: every op's nn_module_parent is "root" here (no Python frames) */
static uint32_t common_name(tsql_intern *names, const char *n1, const char *n2, tsql_buf *tmp)
{
    const char *a = after_colons(n1), *b = after_colons(n2);
    if (strcmp(a, b) == 0 || strstr(b, a)) return text_id(names, a, strlen(a));
    if (strstr(a, b)) return text_id(names, b, strlen(b));
    size_t la = strlen(a), lb = strlen(b);
    size_t pa = la < 20 ? la : 20, pb = lb < 20 ? lb : 20;
    if (pa == pb && memcmp(a, b, pa) == 0) {
        tmp->n = 0;
        if (put(tmp, a, la) || put(tmp, "/", 1) || put(tmp, b, lb)) return 0;
        return text_id(names, tmp->p, tmp->n);
    }
    return text_id(names, "root", 4);
}

static int push_unique(u32vec *v, uint32_t x)
{
    for (size_t i = 0; i < v->n; i++)
        if (v->v[i] == x) return 0;
    return u32vec_push(v, x);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static int rename_ops(ctx *c, tsql_tree_diff *d)
{
    tsql_intern *N = c->names;
    uint32_t nr = d->nrows;
    uint32_t *opn = malloc(((size_t)nr + 1) * sizeof *opn);
    uint32_t *ren = NULL; /* text id -> renamed text id (0 = itself) */
    uint32_t *first = NULL;
    uint64_t *ord = NULL;
    uint8_t *seen = NULL;  /* op names already paired under an earlier LCA */
    u32vec l1 = {0}, l2 = {0}, l1c = {0};
    int rc = -1;
    if (!opn) goto out;
    for (uint32_t i = 0; i < nr; i++) {
        char num[16];
        const side *sd = &c->s[d->rows[i].side - 1];
        const char *s = op_name(sd, d->rows[i].op, num);
        if (!(opn[i] = text_id(N, s, strlen(s)))) goto out;
    }
    /* the rows of each LCA, LCAs in order of first appearance (pandas' unique()) */
    first = malloc(((size_t)d->n + 1) * sizeof *first);
    ord = malloc(((size_t)nr + 1) * sizeof *ord);
    seen = calloc((size_t)N->n + 1, 1);
    if (!first || !ord || !seen) goto out;
    for (uint32_t m = 0; m < d->n; m++) first[m] = NONE;
    size_t no = 0;
    for (uint32_t i = 0; i < nr; i++) {
        uint32_t l = d->rows[i].lca;
        if (l == NONE) continue;
        if (first[l] == NONE) first[l] = i;
        ord[no++] = ((uint64_t)first[l] << 32) | i;
    }
    sort_n(ord, no, sizeof *ord, cmp_u64);
    ren = calloc((size_t)N->n + 64, sizeof *ren);
    size_t nren = (size_t)N->n + 64;
    if (!ren) goto out;
#define RENAME(x, to)                                                                   \
    do {                                                                                \
        if ((x) >= nren) {                                                              \
            size_t nn = (size_t)(x) * 2 + 64;                                           \
            uint32_t *r2 = realloc(ren, nn * sizeof *r2);                               \
            if (!r2) goto out;                                                          \
            memset(r2 + nren, 0, (nn - nren) * sizeof *r2);                             \
            ren = r2;                                                                   \
            nren = nn;                                                                  \
        }                                                                               \
        ren[(x)] = (to);                                                                \
    } while (0)
    for (size_t g = 0; g < no;) {
        size_t h = g;
        while (h < no && ord[h] >> 32 == ord[g] >> 32) h++;
        l1.n = l2.n = 0;
        for (size_t k = g; k < h; k++) {
            uint32_t i = (uint32_t)ord[k];
            if (push_unique(d->rows[i].side == 1 ? &l1 : &l2, opn[i])) goto out;
        }
        g = h;
        if (!l1.n || !l2.n) continue;
        int all = 1;
        for (size_t i = 0; i < l1.n && all; i++) all = seen[l1.v[i]];
        for (size_t i = 0; i < l2.n && all; i++) all = seen[l2.v[i]];
        if (all) continue;
        for (size_t i = 0; i < l1.n; i++) seen[l1.v[i]] = 1;
        for (size_t i = 0; i < l2.n; i++) seen[l2.v[i]] = 1;
        if (l1.n == l2.n) {
            for (size_t i = 0; i < l1.n; i++) {
                if (l1.v[i] == l2.v[i]) continue;
                uint32_t cn = common_name(N, tsql_intern_str(N, l1.v[i]), tsql_intern_str(N, l2.v[i]), &c->tmp2);
                if (!cn) goto out;
                RENAME(l2.v[i], cn);
                RENAME(l1.v[i], cn);
            }
        } else {
            /* drop the names both lists hold, then pair the rest greedily */
            l1c.n = 0;
            for (size_t i = 0; i < l1.n; i++)
                if (u32vec_push(&l1c, l1.v[i])) goto out;
            for (size_t i = 0; i < l1.n; i++) {
                long at = find_last(&l2, l1.v[i]);
                if (at < 0) continue;
                long a1 = find_last(&l1c, l1.v[i]);
                memmove(l1c.v + a1, l1c.v + a1 + 1, (l1c.n - (size_t)a1 - 1) * sizeof *l1c.v);
                l1c.n--;
                memmove(l2.v + at, l2.v + at + 1, (l2.n - (size_t)at - 1) * sizeof *l2.v);
                l2.n--;
            }
            for (size_t i = 0; i < l1c.n; i++) {
                if (!l2.n) continue;
                /* the first remaining name always has a common name ("root" at worst) */
                uint32_t cn = common_name(N, tsql_intern_str(N, l1c.v[i]), tsql_intern_str(N, l2.v[0]), &c->tmp2);
                if (!cn) goto out;
                RENAME(l1c.v[i], cn);
                RENAME(l2.v[0], cn);
                memmove(l2.v, l2.v + 1, (l2.n - 1) * sizeof *l2.v);
                l2.n--;
            }
        }
    }
#undef RENAME
    for (uint32_t i = 0; i < nr; i++) {
        d->rows[i].op_name = opn[i];
        d->rows[i].op_map_name = opn[i] < nren && ren[opn[i]] ? ren[opn[i]] : opn[i];
    }
    rc = 0;
out:
    free(opn);
    free(ren);
    free(first);
    free(ord);
    free(seen);
    free(l1.v);
    free(l2.v);
    free(l1c.v);
    return rc;
}

/* every GPU event's duration a whole number of µs (traces written in integer µs) */
static int whole_durations(const tsql_trace *t)
{
    for (uint32_t k = 0; k < t->kernels.n; k++) {
        int64_t dn = t->dur_ns[t->kernels.uid[k]];
        if (dn != TSQL_NULL && dn % 1000 != 0) return 0;
    }
    return 1;
}

/* ---------- build, free, cache ---------- */

void tsql_tree_diff_free(tsql_tree_diff *d)
{
    if (!d) return;
    free(d->uid1);
    free(d->uid2);
    free(d->type);
    free(d->pod);
    free(d->is_lca);
    free(d->parent);
    free(d->depth);
    free(d->kid_at);
    free(d->kid_n);
    free(d->kids);
    free(d->roots);
    free(d->rows);
    tsql_intern_free(&d->names);
    priv *pv = d->priv;
    if (pv) {
        tsql_u64map_free(&pv->memo);
        tsql_u64map_free(&pv->uidmap);
        tsql_u64map_free(&pv->find[0]);
        tsql_u64map_free(&pv->find[1]);
        free(pv);
    }
    free(d);
}

tsql_tree_diff *tsql_tree_diff_build(tsql_trace *baseline, tsql_trace *variant, const char **why)
{
    ctx c;
    memset(&c, 0, sizeof c);
    tsql_tree_diff *d = calloc(1, sizeof *d);
    priv *pv = calloc(1, sizeof *pv);
    rowvec rows = {0};
    if (why) *why = NULL;
    if (!d || !pv) {
        free(d);
        free(pv);
        return NULL;
    }
    d->priv = pv;
    d->t[0] = baseline;
    d->t[1] = variant;
    tsql_intern_init(&d->names);
    c.names = &d->names;
    if (side_build(&c.s[0], baseline) || side_build(&c.s[1], variant)) goto fail;
    uint32_t guess = baseline->n + variant->n + 16;
    if (tsql_u64map_init(&pv->memo, guess / 4) || tsql_u64map_init(&pv->uidmap, guess / 4)) goto fail;
    if (merge_all(&c, d, pv)) goto fail;
    if (tsql_u64map_init(&pv->find[0], d->n) || tsql_u64map_init(&pv->find[1], d->n)) goto fail;
    for (uint32_t m = 0; m < d->n; m++) {
        if (d->uid1[m] != NONE) tsql_u64map_put(&pv->find[0], d->uid1[m], m, 1);
        if (d->uid2[m] != NONE) tsql_u64map_put(&pv->find[1], d->uid2[m], m, 1);
    }
    if (diff_stats(&c, d, &rows)) goto fail;
    d->rows = rows.v;
    d->nrows = (uint32_t)rows.n;
    rows.v = NULL;
    if (rename_ops(&c, d)) goto fail;
    d->identical = rows_identical(&c, d);
    d->whole_kernel_time = whole_durations(baseline) && whole_durations(variant);
    side_free(&c.s[0]);
    side_free(&c.s[1]);
    free(c.tmp.p);
    free(c.tmp2.p);
    return d;
fail:
    if (why) *why = c.why;
    side_free(&c.s[0]);
    side_free(&c.s[1]);
    free(c.tmp.p);
    free(c.tmp2.p);
    free(rows.v);
    tsql_tree_diff_free(d);
    return NULL;
}

#define DIFF_CACHE 4
typedef struct diff_cache {
    int64_t key[DIFF_CACHE];
    tsql_trace *var[DIFF_CACHE];
    tsql_tree_diff *d[DIFF_CACHE];
    unsigned age[DIFF_CACHE], clock;
} diff_cache;

static void *cache_build(tsql_trace *t)
{
    (void)t;
    return calloc(1, sizeof(diff_cache));
}
static void cache_free(void *v)
{
    diff_cache *dc = v;
    if (!dc) return;
    for (int i = 0; i < DIFF_CACHE; i++) tsql_tree_diff_free(dc->d[i]);
    free(dc);
}
static const tsql_cache_kind CACHE_KIND = {"tree_diff", cache_build, cache_free};

tsql_tree_diff *tsql_tree_diff_get(tsql_trace *baseline, tsql_trace *variant, int64_t variant_key,
                                   const char **why)
{
    if (why) *why = NULL;
    diff_cache *dc = tsql_trace_cached(baseline, &CACHE_KIND);
    if (!dc) return NULL;
    for (int i = 0; i < DIFF_CACHE; i++)
        if (dc->d[i] && dc->key[i] == variant_key && dc->var[i] == variant) {
            dc->age[i] = ++dc->clock;
            return dc->d[i];
        }
    tsql_tree_diff *d = tsql_tree_diff_build(baseline, variant, why);
    if (!d) return NULL;
    int slot = 0;
    for (int i = 0; i < DIFF_CACHE; i++) {
        if (!dc->d[i]) {
            slot = i;
            break;
        }
        if (dc->age[i] < dc->age[slot]) slot = i;
    }
    tsql_tree_diff_free(dc->d[slot]);
    dc->d[slot] = d;
    dc->key[slot] = variant_key;
    dc->var[slot] = variant;
    dc->age[slot] = ++dc->clock;
    return d;
}

/* ---------- lookups ---------- */

int64_t tsql_tree_diff_corresponding(const tsql_tree_diff *d, int side, uint32_t uid)
{
    const priv *pv = d->priv;
    if (side != 1 && side != 2) return -2;
    uint32_t v = tsql_u64map_get(&pv->uidmap, (int64_t)(side == 2 ? (1ull << 32) | uid : uid));
    if (v == NONE) return -2;
    return v == MINUS_ONE ? -1 : (int64_t)v;
}

uint32_t tsql_tree_diff_find(const tsql_tree_diff *d, int side, uint32_t uid)
{
    const priv *pv = d->priv;
    if (side != 1 && side != 2) return NONE;
    return tsql_u64map_get(&pv->find[side - 1], uid);
}

double tsql_tree_diff_gpu_us(const tsql_tree_diff *d, uint32_t m, int side)
{
    if (m >= d->n) return NAN;
    uint32_t u = side == 1 ? d->uid1[m] : d->uid2[m];
    tsql_trace *t = d->t[side - 1];
    if (u == NONE) return NAN;
    u32vec g = {0};
    if (tsql_kind_is_gpu(t->kind[u])) {
        if (u32vec_push(&g, u)) return NAN;
    } else if (tsql_tl_subtree_gpu(t, u, &g) < 0) {
        free(g.v);
        return NAN;
    }
    double r = 0.0;
    if (g.n) {
        double *scratch = malloc(2 * g.n * sizeof *scratch);
        r = scratch ? tsql_busy_us(t, g.v, g.n, scratch) : NAN;
        free(scratch);
    }
    free(g.v);
    return r;
}

/* ---------- merged_tree_output.txt (§9.5) ---------- */

static const char *label_name(const tsql_tree_diff *d, int s, uint32_t u, char num[16])
{
    tsql_trace *t = d->t[s];
    uint32_t sid = t->name[u];
    if (sid && tsql_intern_len(&t->strings, sid)) return tsql_intern_text(&t->strings, sid);
    snprintf(num, 16, "%u", u);
    return num;
}

static int put_line(const tsql_tree_diff *d, uint32_t m, const char *prefix, size_t plen, int last, tsql_buf *out)
{
    char a[16], b[16];
    if (put(out, prefix, plen) || put(out, last ? "└── " : "├── ", strlen(last ? "└── " : "├── ")))
        return -1;
    const char *n1 = d->uid1[m] != NONE ? label_name(d, 0, d->uid1[m], a) : "";
    const char *n2 = d->uid2[m] != NONE ? label_name(d, 1, d->uid2[m], b) : "";
    int rc;
    if (d->type[m] == TSQL_DIFF_BOTH) {
        if (strcmp(n1, n2) == 0) rc = put(out, n1, strlen(n1));
        else rc = put(out, "combined: ", 10) || put(out, n1, strlen(n1)) || put(out, " | ", 3) || put(out, n2, strlen(n2));
    } else if (d->type[m] == TSQL_DIFF_BASELINE) {
        rc = put(out, ">> trace1: ", 11) || put(out, n1, strlen(n1));
    } else {
        rc = put(out, "<< trace2: ", 11) || put(out, n2, strlen(n2));
    }
    return rc || put(out, "\n", 1);
}

typedef struct tframe { uint32_t m; size_t plen; int last; u32vec kids; size_t next; } tframe;

static int text_subtree(const tsql_tree_diff *d, uint32_t root, int last, tsql_buf *out)
{
    tsql_buf pre = {0};
    tframe *st = NULL;
    size_t nst = 0, capst = 0;
    int rc = -1;
    if (put(&pre, "", 0)) goto out;
    st = calloc(1, sizeof *st);
    if (!st) goto out;
    capst = 1;
    st[0] = (tframe){root, 0, last, {0}, 0};
    nst = 1;
    int fresh = 1;
    while (nst) {
        tframe *f = &st[nst - 1];
        if (fresh) {
            if (put_line(d, f->m, pre.p, f->plen, f->last, out)) goto out;
            f->kids.n = 0;
            for (int ty = 0; ty < 3; ty++)
                for (uint32_t k = 0; k < d->kid_n[f->m]; k++) {
                    uint32_t ch = d->kids[d->kid_at[f->m] + k];
                    if (d->type[ch] == ty && u32vec_push(&f->kids, ch)) goto out;
                }
            f->next = 0;
            fresh = 0;
        }
        if (f->next < f->kids.n) {
            uint32_t ch = f->kids.v[f->next];
            int clast = f->next + 1 == f->kids.n;
            f->next++;
            pre.n = f->plen;
            const char *seg = f->last ? "    " : "│   ";
            if (put(&pre, seg, strlen(seg))) goto out;
            if (nst == capst) {
                tframe *ns = tsql_grow(st, &capst, sizeof *st, 64);
                if (!ns) goto out;
                memset(ns + nst, 0, (capst - nst) * sizeof *ns);
                st = ns;
                f = &st[nst - 1];
            }
            st[nst].m = ch;
            st[nst].plen = pre.n;
            st[nst].last = clast;
            st[nst].next = 0;
            nst++;
            fresh = 1;
            continue;
        }
        nst--;
    }
    rc = 0;
out:
    for (size_t i = 0; i < capst; i++) free(st[i].kids.v);
    free(st);
    free(pre.p);
    return rc;
}

static int has_gpu(const tsql_tree_diff *d, uint32_t m)
{
    /* the variant's or the baseline's node on the GPU path */
    for (int s = 0; s < 2; s++) {
        uint32_t u = s == 0 ? d->uid1[m] : d->uid2[m];
        if (u == NONE) continue;
        tsql_trace *t = d->t[s];
        if (tsql_kind_is_gpu(t->kind[u])) return 1;
        u32vec g = {0};
        long n = tsql_tl_subtree_gpu(t, u, &g);
        free(g.v);
        if (n != 0) return 1;
    }
    return 0;
}

int tsql_tree_diff_text(const tsql_tree_diff *d, uint32_t root, int prune_non_gpu, tsql_buf *out)
{
    if (put(out, "", 0)) return -1;
    if (root != NONE) return root < d->n ? text_subtree(d, root, 1, out) : 0;
    for (uint32_t r = 0; r < d->nroots; r++) {
        if (prune_non_gpu && !has_gpu(d, d->roots[r])) continue;
        if (text_subtree(d, d->roots[r], r + 1 == d->nroots, out)) return -1;
    }
    return 0;
}

/* ---------- cpu-op maps ---------- */

typedef struct kv { const char *k; const char *v; } kv;

static int cmp_kv(const void *x, const void *y)
{
    const kv *a = x, *b = y;
    int c = strcmp(a->k, b->k);
    return c ? c : strcmp(a->v, b->v);
}

static int put_json_str(tsql_buf *out, const char *s)
{
    return tsql_json_quote(out, s, strlen(s));
}

/* sorted distinct (key, kernel) pairs of the rows of side s (0: both) keyed by key_of */
static kv *collect(const tsql_tree_diff *d, int s, int mapped, size_t *n)
{
    kv *v = malloc(((size_t)d->nrows + 1) * sizeof *v);
    if (!v) return NULL;
    size_t k = 0;
    for (uint32_t i = 0; i < d->nrows; i++) {
        const tsql_diff_row *r = &d->rows[i];
        if (s && r->side != s) continue;
        tsql_trace *t = d->t[r->side - 1];
        const char *key = tsql_intern_text(&d->names, mapped ? r->op_map_name : r->op_name);
        v[k++] = (kv){key, tsql_intern_text(&t->strings, t->name[r->gpu])};
    }
    sort_n(v, k, sizeof *v, cmp_kv);
    *n = k;
    return v;
}

static int put_list(tsql_buf *out, const kv *v, size_t a, size_t b, const char *ind)
{
    if (put(out, "[", 1)) return -1;
    int first = 1;
    for (size_t i = a; i < b; i++) {
        if (i > a && strcmp(v[i].v, v[i - 1].v) == 0) continue;
        if (put(out, first ? "\n" : ",\n", first ? 1 : 2) || put(out, ind, strlen(ind)) || put(out, "  ", 2) ||
            put_json_str(out, v[i].v))
            return -1;
        first = 0;
    }
    if (!first && (put(out, "\n", 1) || put(out, ind, strlen(ind)))) return -1;
    return put(out, "]", 1);
}

int tsql_tree_diff_op_map_json(const tsql_tree_diff *d, int which, tsql_buf *out)
{
    if (put(out, "", 0)) return -1;
    int rc = -1;
    if (which == 1 || which == 2) {
        size_t n = 0;
        kv *v = collect(d, which, 0, &n);
        if (!v) return -1;
        if (put(out, "{", 1)) goto out1;
        for (size_t i = 0; i < n;) {
            size_t j = i;
            while (j < n && strcmp(v[j].k, v[i].k) == 0) j++;
            if (put(out, i ? ",\n  " : "\n  ", i ? 4 : 3) || put_json_str(out, v[i].k) || put(out, ": ", 2) ||
                put_list(out, v, i, j, "  "))
                goto out1;
            i = j;
        }
        if (put(out, n ? "\n}" : "}", n ? 2 : 1)) goto out1;
        rc = 0;
    out1:
        free(v);
        return rc;
    }
    /* cpu_op_map.json: {op: {trace1: {kernels, nn_module_parents}, trace2: {...}}} */
    size_t n1 = 0, n2 = 0;
    kv *v1 = collect(d, 1, 1, &n1), *v2 = collect(d, 2, 1, &n2);
    kv *keys = malloc((n1 + n2 + 1) * sizeof *keys);
    size_t nk = 0;
    if (!v1 || !v2 || !keys) goto out0;
    for (size_t i = 0; i < n1; i++) keys[nk++] = (kv){v1[i].k, ""};
    for (size_t i = 0; i < n2; i++) keys[nk++] = (kv){v2[i].k, ""};
    sort_n(keys, nk, sizeof *keys, cmp_kv);
    if (put(out, "{", 1)) goto out0;
    int firstk = 1;
    size_t a1 = 0, a2 = 0;
    for (size_t i = 0; i < nk; i++) {
        if (i && strcmp(keys[i].k, keys[i - 1].k) == 0) continue;
        const char *k = keys[i].k;
        if (put(out, firstk ? "\n  " : ",\n  ", firstk ? 3 : 4) || put_json_str(out, k) || put(out, ": {", 3))
            goto out0;
        firstk = 0;
        while (a1 < n1 && strcmp(v1[a1].k, k) < 0) a1++;
        while (a2 < n2 && strcmp(v2[a2].k, k) < 0) a2++;
        size_t b1 = a1, b2 = a2;
        while (b1 < n1 && strcmp(v1[b1].k, k) == 0) b1++;
        while (b2 < n2 && strcmp(v2[b2].k, k) == 0) b2++;
        int firsts = 1;
        for (int s = 1; s <= 2; s++) {
            const kv *v = s == 1 ? v1 : v2;
            size_t a = s == 1 ? a1 : a2, b = s == 1 ? b1 : b2;
            if (a == b) continue;
            if (d->identical && s == 2) continue;
            if (!d->identical) {
                if (put(out, firsts ? "\n    " : ",\n    ", firsts ? 5 : 6) ||
                    put(out, s == 1 ? "\"trace1\": {" : "\"trace2\": {", 11))
                    goto out0;
            }
            const char *ind = d->identical ? "    " : "      ";
            if (put(out, "\n", 1) || put(out, ind, strlen(ind)) || put(out, "\"kernels\": ", 11) ||
                put_list(out, v, a, b, ind) || put(out, ",\n", 2) || put(out, ind, strlen(ind)) ||
                put(out, "\"nn_module_parents\": [\n", 23) || put(out, ind, strlen(ind)) ||
                put(out, "  \"root\"\n", 9) || put(out, ind, strlen(ind)) || put(out, "]", 1))
                goto out0;
            if (!d->identical && put(out, "\n    }", 6)) goto out0;
            firsts = 0;
        }
        if (put(out, "\n  }", 4)) goto out0;
        a1 = b1;
        a2 = b2;
    }
    if (put(out, firstk ? "}" : "\n}", firstk ? 1 : 2)) goto out0;
    rc = 0;
out0:
    free(v1);
    free(v2);
    free(keys);
    return rc;
}
