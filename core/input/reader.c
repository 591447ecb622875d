/*
 * reader.c — streams a trace file into the event store.
 *
 * One pass over the text, chunk by chunk (source.c). The top-level structure (an
 * object with traceEvents and other members, or a bare array) is followed by a small
 * pull parser that can cross chunk boundaries byte by byte; each event object is then
 * parsed in one go by parse_event() directly inside the chunk. When an event crosses
 * the end of a chunk it is copied into a stitch buffer together with the start of the
 * next chunk(s) and parsed there, so the hot path never copies.
 *
 * Members other than traceEvents are kept as compact JSON text (t->metadata) and
 * read with cJSON once at the end (they are small and irregular).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "input/reader.h"
#include "input/reader_part.h"
#include "input/source.h"
#include "store/store.h"

typedef struct reader {
    tsql_trace *t;
    tsql_error *err;
    tsql_source *src;
    const tsql_load_opts *opts;
    const char *buf;       /* current chunk */
    size_t len, pos;
    int64_t buf_off;       /* offset of buf[0] in the JSON text */
    int eof;
    tsql_buf stitch;       /* an event that crossed a chunk boundary */
    tsql_buf tpl;          /* args template being built */
    tsql_buf tmp;          /* unescaped strings */
    tsql_buf meta;         /* other top-level members */
    struct icache { uint64_t a, b; uint32_t id, n; } *icache; /* ICACHE slots: intern_cached */
    struct { uint32_t id; uint8_t v; } cat_cache[256]; /* kind + 1 (and 0x40 if old) by cat id */
    int64_t next_progress;
    /* a piece of a parallel load (reader_parallel.h): stop at the first bound from
     * bounds[bi] on that is reached between two elements of traceEvents */
    const int64_t *bounds;
    int nbounds, bi;
    int stopped;           /* stopped at bounds[bi] (or at the mark of a fed chunk) */
    /* a piece of a pipelined load (reader_stream.c): its text comes from feed, and it
     * stops at the mark of the chunk it is in when it reaches it between elements */
    int (*feed)(void *ctx, const char **data, size_t *len, int64_t *mark, tsql_error *err);
    void *feed_ctx;
    int64_t chunk_mark;
    atomic_int *abort;     /* another piece saw an interrupt */
    /* a parallel load: text and events done by all pieces, for the progress callback */
    atomic_llong *done_bytes, *done_events;
    int64_t counted_events; /* this piece's events already added to done_events */
    int args_nonfinite;    /* the args being parsed held NaN or Infinity (now null) */
} reader;

/* ---------- chunk access for the top-level parser ---------- */

/* Makes sure a byte is available at pos. Returns 1, 0 at end of input, -1 on error. */
static int rd_fill(reader *r)
{
    while (r->pos >= r->len) {
        if (r->eof) return 0;
        const char *d;
        size_t n;
        if (r->done_bytes) {
            atomic_fetch_add_explicit(r->done_bytes, (long long)r->len, memory_order_relaxed);
            atomic_fetch_add_explicit(r->done_events, (long long)(r->t->n - r->counted_events),
                                      memory_order_relaxed);
            r->counted_events = r->t->n;
        }
        r->buf_off += (int64_t)r->len;
        int rc = r->feed ? r->feed(r->feed_ctx, &d, &n, &r->chunk_mark, r->err)
                         : tsql_source_next(r->src, &d, &n, r->err);
        if (rc < 0) return -1;
        if (rc == 0) {
            r->eof = 1;
            r->buf = NULL;
            r->len = r->pos = 0;
            return 0;
        }
        r->buf = d;
        r->len = n;
        r->pos = 0;
        if (r->opts && r->opts->progress && r->buf_off >= r->next_progress) {
            r->next_progress = r->buf_off + (16 << 20);
            int64_t bytes = r->done_bytes ? atomic_load(r->done_bytes) : r->buf_off;
            int64_t events = r->done_events ? atomic_load(r->done_events) : (int64_t)r->t->n;
            if (r->opts->progress(r->opts->progress_ctx, bytes, events)) {
                if (r->abort) atomic_store(r->abort, 1);
                tsql_error_set(r->err, TSQL_EINTR, r->buf_off, "interrupted");
                return -1;
            }
        }
        if (r->abort && atomic_load_explicit(r->abort, memory_order_relaxed)) {
            tsql_error_set(r->err, TSQL_EINTR, r->buf_off, "interrupted");
            return -1;
        }
    }
    return 1;
}

static int64_t rd_off(const reader *r)
{
    return r->buf_off + (int64_t)r->pos;
}

/* Next non-whitespace byte (not consumed): >= 0, -1 at end, -2 on error. */
static int rd_peek(reader *r)
{
    for (;;) {
        if (r->pos < r->len) {
            const char *q = tsql_skip_ws(r->buf + r->pos, r->buf + r->len);
            r->pos = (size_t)(q - r->buf);
            if (r->pos < r->len) return (unsigned char)*q;
        }
        int rc = rd_fill(r);
        if (rc < 0) return -2;
        if (rc == 0) return -1;
    }
}

/* What a reader of the message should do: a trace is {"traceEvents": [{...}, ...]}. */
#define NOT_AN_EVENT                                                                      \
    "traceEvents element is not an object: expected each element of the traceEvents "   \
    "array (or of a bare top-level array) to be an event object such as "              \
    "{\"ph\": \"X\", \"name\": ..., \"ts\": ...}"

static int syntax(reader *r, int64_t off, const char *msg)
{
    tsql_error_set(r->err, TSQL_EFORMAT, off, "%s", msg);
    return -1;
}

/* Reads one value of the top-level object byte by byte, appending its compact text to
 * out (or dropping it when out is NULL). Used only for the small non-event members. */
static int rd_value_bytes(reader *r, tsql_buf *out)
{
    int depth = 0, in_str = 0, esc = 0, started = 0;
    for (;;) {
        int rc = rd_fill(r);
        if (rc < 0) return -1;
        if (rc == 0) return syntax(r, rd_off(r), "unexpected end of file inside a top-level value");
        char c = r->buf[r->pos];
        if (!in_str) {
            if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
                if (started && depth == 0) return 0;
                r->pos++;
                continue;
            }
            if (depth == 0 && started && (c == ',' || c == '}' || c == ']')) return 0;
            if (c == '"') in_str = 1;
            else if (c == '{' || c == '[') {
                if (++depth > TSQL_MAX_DEPTH)
                    return syntax(r, rd_off(r), "nesting deeper than 512 levels");
            } else if (c == '}' || c == ']') {
                if (depth == 0) return syntax(r, rd_off(r), "unbalanced brackets");
                depth--;
            }
            started = 1;
        } else if (esc) {
            esc = 0;
        } else if (c == '\\') {
            esc = 1;
        } else if (c == '"') {
            in_str = 0;
        }
        if (out) {
            if (tsql_buf_reserve(out, 1)) {
                tsql_error_set(r->err, TSQL_ENOMEM, rd_off(r), "out of memory");
                return -1;
            }
            out->p[out->n++] = c;
        }
        r->pos++;
        if (!in_str && depth == 0 && started && (c == '"' || c == '}' || c == ']')) return 0;
    }
}

/* Reads a top-level member name into r->tmp (unescaped). */
static int rd_key(reader *r)
{
    r->tmp.n = 0;
    tsql_buf raw = {0};
    int rc = rd_value_bytes(r, &raw);
    if (rc == 0 && (raw.n < 2 || raw.p[0] != '"'))
        rc = syntax(r, rd_off(r), "expected a member name");
    if (rc == 0 && tsql_unescape(raw.p + 1, raw.n - 2, &r->tmp)) rc = -1;
    free(raw.p);
    return rc;
}

/* ---------- one event ---------- */

/* Kind of a category string; old spellings are normalised and flagged. */
static int kind_of_cat(const char *s, size_t n, const char *name, size_t name_n, int *old)
{
    static const struct { const char *cat; int kind; int old; } map[] = {
        {"cpu_op", TSQL_K_CPU_OP, 0},          {"cuda_runtime", TSQL_K_RUNTIME, 0},
        {"cuda_driver", TSQL_K_DRIVER, 0},     {"kernel", TSQL_K_KERNEL, 0},
        {"gpu_memcpy", TSQL_K_MEMCPY, 0},      {"gpu_memset", TSQL_K_MEMSET, 0},
        {"python_function", TSQL_K_PYTHON, 0}, {"user_annotation", TSQL_K_USER_ANNOTATION, 0},
        {"gpu_user_annotation", TSQL_K_GPU_ANNOTATION, 0},
        {"ac2g", TSQL_K_AC2G, 0},              {"fwdbwd", TSQL_K_FWDBWD, 0},
        {"cpu_instant_event", TSQL_K_INSTANT, 0}, {"Trace", TSQL_K_TRACE, 0},
        {"Operator", TSQL_K_CPU_OP, 1},        {"Runtime", TSQL_K_RUNTIME, 1},
        {"Driver", TSQL_K_DRIVER, 1},          {"Kernel", TSQL_K_KERNEL, 1},
        {"Memcpy", TSQL_K_MEMCPY, 1},          {"Memset", TSQL_K_MEMSET, 1},
    };
    *old = 0;
    for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
        if (strlen(map[i].cat) == n && memcmp(map[i].cat, s, n) == 0) {
            *old = map[i].old;
            return map[i].kind;
        }
    }
    if (n == 5 && memcmp(s, "async", 5) == 0 && name_n == 6 && memcmp(name, "launch", 6) == 0) {
        *old = 1;
        return TSQL_K_AC2G;
    }
    return TSQL_K_OTHER;
}

/* Members of args whose integer value goes to a typed column (placeholder 1..7). */
static int args_column_code(const char *k, size_t n)
{
    switch (n) {
    case 6: if (tsql_eq(k, "stream", 6)) return TSQL_PH_STREAM;
            if (tsql_eq(k, "device", 6)) return TSQL_PH_DEVICE;
            break;
    case 9: if (tsql_eq(k, "Python id", 9)) return TSQL_PH_PYTHON_ID; break;
    case 11: if (tsql_eq(k, "correlation", 11)) return TSQL_PH_CORRELATION;
             if (tsql_eq(k, "External id", 11) || tsql_eq(k, "external id", 11))
                 return TSQL_PH_EXTERNAL_ID;
             break;
    case 15: if (tsql_eq(k, "Sequence number", 15)) return TSQL_PH_SEQ; break;
    case 16: if (tsql_eq(k, "Python parent id", 16)) return TSQL_PH_PYTHON_PARENT; break;
    }
    return 0;
}

/* Members whose integer value differs on every event: cut out into the pool so that
 * the rest of the args text repeats and interns well. */
static int args_pool_key(const char *k, size_t n)
{
    switch (n) {
    case 4: return tsql_eq(k, "Addr", 4);
    case 5: return tsql_eq(k, "Bytes", 5) || tsql_eq(k, "bytes", 5);
    case 6: return tsql_eq(k, "Ev Idx", 6) || tsql_eq(k, "queued", 6);
    case 11: return tsql_eq(k, "external ts", 11);
    case 13: return tsql_eq(k, "Fwd thread id", 13);
    case 14: return tsql_eq(k, "Total Reserved", 14);
    case 15: return tsql_eq(k, "Total Allocated", 15);
    case 18: return tsql_eq(k, "Record function id", 18);
    }
    return 0;
}

typedef struct evfields {
    const char *ph; size_t ph_n;
    const char *cat; size_t cat_n; int cat_esc;
    const char *name; size_t name_n; int name_esc;
    const char *pid; size_t pid_n;
    const char *tid; size_t tid_n;
    const char *ts; size_t ts_n;
    const char *dur; size_t dur_n;
    int64_t ts_ns, dur_ns; /* already read, when ts_fast / dur_fast */
    int ts_fast, dur_fast;
    const char *id; size_t id_n;
    const char *bp; size_t bp_n;
    const char *args;  /* at '{' */
} evfields;

enum { ICACHE = 4096 };

/* tsql_intern_add with a cache in front: a trace repeats the same few names,
 * categories, pids and args templates, so most lookups are answered by one compare
 * with the string last seen at one of 4096 slots chosen from the length and the first and last
 * 8 bytes, without hashing the whole string. Same ids as tsql_intern_add. */
static uint32_t intern_cached(reader *r, const char *s, size_t n)
{
    /* a and b hold the first and last bytes; for n <= 16 they are the whole string */
    uint64_t a = 0, b = 0;
    if (n >= 8) {
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
    } else if (n >= 4) {
        uint32_t x, y;
        memcpy(&x, s, 4);
        memcpy(&y, s + n - 4, 4);
        a = x;
        b = y;
    } else if (n) {
        a = (unsigned char)s[0] | (unsigned)(unsigned char)s[n / 2] << 8 |
            (unsigned)(unsigned char)s[n - 1] << 16;
    }
    uint64_t h = ((a * 0x9E3779B97F4A7C15ull) ^ b ^ n) * 0xC2B2AE3D27D4EB4Full;
    struct icache *c = &r->icache[h >> 52]; /* 12 bits: ICACHE */
    if (c->id && c->n == n && c->a == a && c->b == b &&
        (n <= 16 || memcmp(r->t->strings.str[c->id], s, n) == 0))
        return c->id;
    uint32_t id = tsql_intern_add(&r->t->strings, s, n);
    if (id) *c = (struct icache){a, b, id, (uint32_t)n};
    return id;
}

/* Interns a string token (with quotes), unescaping if needed. Returns id or 0 on OOM. */
static uint32_t intern_str(reader *r, const char *tok, size_t n, int esc)
{
    if (!esc) return intern_cached(r, tok + 1, n - 2);
    r->tmp.n = 0;
    if (tsql_unescape(tok + 1, n - 2, &r->tmp)) return 0;
    return tsql_intern_add(&r->t->strings, r->tmp.p, r->tmp.n);
}

/* tsql_buf_reserve's test inline: the template buffer is almost always big enough. */
static inline int buf_need(tsql_buf *b, size_t extra)
{
    return b->n + extra <= b->cap ? 0 : tsql_buf_reserve(b, extra);
}

/* Builds the args template for event uid from the object at p; sets columns.
 * Returns the end of the object or NULL (lx has the reason). */
/* the hot path's helpers stay inline (measured: +0.6 % instructions per load otherwise) */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* The start of a member's value after its name (kend: just past the closing quote):
 * `"key": value` directly, else past whitespace, ':' and whitespace. Returns end when
 * the text ends first (more text needed), or NULL with lx->err set to what. */
static ALWAYS_INLINE const char *member_value(tsql_lex *lx, const char *kend, const char *end, const char *what)
{
    if (end - kend >= 3 && kend[0] == ':' && kend[1] == ' ' && !tsql_is_ws(kend[2]))
        return kend + 2; /* the usual spelling */
    const char *p = tsql_skip_ws(kend, end);
    if (p >= end) return end;
    if (*p != ':') {
        lx->err = what;
        lx->at = p;
        return NULL;
    }
    return tsql_skip_ws(p + 1, end);
}

/* NaN, Infinity and -Infinity (Python's json writes them) are not JSON: every reader of
 * args (SQLite's json functions, cJSON, an export read elsewhere) would fail on the whole
 * object. In the compact value o[from..] they become null, outside strings. Returns
 * how many were replaced, or -1 on OOM. */
static int nonfinite_to_null(tsql_buf *o, size_t from)
{
    int found = 0, in_str = 0;
    for (size_t i = from; i < o->n && !found; i++) {
        char ch = o->p[i];
        if (in_str) {
            if (ch == '\\') i++;
            else if (ch == '"') in_str = 0;
        } else if (ch == '"') {
            in_str = 1;
        } else if (ch == 'N' || ch == 'I') {
            found = 1;
        }
    }
    if (!found) return 0;
    size_t n = o->n - from;
    char *v = malloc(n);
    if (!v) return -1;
    memcpy(v, o->p + from, n);
    o->n = from;
    int count = 0;
    in_str = 0;
    for (size_t i = 0; i < n;) {
        size_t lit = 0;
        if (!in_str) {
            if (n - i >= 3 && memcmp(v + i, "NaN", 3) == 0) lit = 3;
            else if (n - i >= 8 && memcmp(v + i, "Infinity", 8) == 0) lit = 8;
            else if (n - i >= 9 && memcmp(v + i, "-Infinity", 9) == 0) lit = 9;
        }
        if (lit) {
            if (buf_need(o, 4)) {
                free(v);
                return -1;
            }
            memcpy(o->p + o->n, "null", 4);
            o->n += 4;
            i += lit;
            count++;
            continue;
        }
        if (buf_need(o, 2)) {
            free(v);
            return -1;
        }
        char ch = v[i];
        o->p[o->n++] = ch;
        i++;
        if (in_str && ch == '\\' && i < n) o->p[o->n++] = v[i++];
        else if (ch == '"') in_str = !in_str;
    }
    free(v);
    return count;
}

static const char *parse_args(reader *r, tsql_lex *lx, const char *p, uint32_t uid, int *oom)
{
    tsql_trace *t = r->t;
    tsql_buf *o = &r->tpl;
    o->n = 0;
    const char *end = lx->end;
    unsigned done = 0; /* columns already set: a repeated key goes to the pool */
    if (buf_need(o, 2)) goto nomem;
    o->p[o->n++] = '{';
    p++;
    p = tsql_skip_ws(p, end);
    if (p >= end) goto incomplete;
    if (*p == '}') {
        o->p[o->n++] = '}';
        return p + 1;
    }
    for (;;) {
        if (p >= end) goto incomplete;
        if (*p != '"') {
            lx->err = "expected a member name in args";
            lx->at = p;
            return NULL;
        }
        int kesc = 0;
        const char *kend = tsql_lex_string(lx, p, &kesc);
        if (!kend) return NULL;
        const char *k = p + 1;
        size_t kn = (size_t)(kend - p - 2);
        p = member_value(lx, kend, end, "expected ':' in args");
        if (!p) return NULL;
        if (p >= end) goto incomplete;
        if (buf_need(o, kn + 4)) goto nomem;
        memcpy(o->p + o->n, k - 1, kn + 2);
        o->n += kn + 2;
        o->p[o->n++] = ':';
        const char *vend;
        char c = *p;
        if ((c >= '0' && c <= '9') || (c == '-' && end - p > 1 && p[1] != 'I')) {
            int64_t v;
            int code = kesc ? 0 : args_column_code(k, kn);
            if (code && (done & (1u << code))) code = 0;
            int pooled = !code && !kesc && args_pool_key(k, kn);
            int have = 0;
            vend = NULL;
            if ((code || pooled) && (vend = tsql_lex_int_fast(p, end, &v))) have = 1;
            if (!vend) {
                vend = tsql_lex_number(lx, p);
                if (!vend) return NULL;
                have = (code || pooled) && tsql_parse_int64(p, (size_t)(vend - p), &v) == 0;
            }
            if (have) {
                if (code) {
                    static const size_t offs[] = {0, offsetof(tsql_trace, correlation),
                                                  offsetof(tsql_trace, external_id),
                                                  offsetof(tsql_trace, stream),
                                                  offsetof(tsql_trace, device),
                                                  offsetof(tsql_trace, seq),
                                                  offsetof(tsql_trace, python_id),
                                                  offsetof(tsql_trace, python_parent)};
                    tsql_icol *col = (tsql_icol *)((char *)t + offs[code]);
                    if (tsql_icol_set(col, uid, v)) goto nomem;
                    done |= 1u << code;
                    o->p[o->n++] = (char)code;
                } else {
                    if (tsql_store_pool_push(t, v)) goto nomem;
                    o->p[o->n++] = TSQL_PH_POOL;
                }
            } else {
                size_t vn = (size_t)(vend - p);
                if (buf_need(o, vn)) goto nomem;
                memcpy(o->p + o->n, p, vn);
                o->n += vn;
            }
        } else if (c == '"') {
            vend = tsql_lex_string(lx, p, NULL);
            if (!vend) return NULL;
            size_t vn = (size_t)(vend - p);
            if (buf_need(o, vn)) goto nomem;
            memcpy(o->p + o->n, p, vn);
            o->n += vn;
        } else {
            size_t from = o->n;
            vend = tsql_lex_copy_compact(lx, p, o);
            if (!vend) {
                if (lx->err && !strcmp(lx->err, "out of memory")) goto nomem;
                return NULL;
            }
            int nf = nonfinite_to_null(o, from);
            if (nf < 0) goto nomem;
            if (nf) r->args_nonfinite = 1;
        }
        p = tsql_skip_ws(vend, end);
        if (p >= end) goto incomplete;
        if (buf_need(o, 2)) goto nomem;
        if (*p == ',') {
            o->p[o->n++] = ',';
            p = tsql_skip_ws(p + 1, end);
            continue;
        }
        if (*p == '}') {
            o->p[o->n++] = '}';
            return p + 1;
        }
        lx->err = "expected ',' or '}' in args";
        lx->at = p;
        return NULL;
    }
incomplete:
    lx->incomplete = 1;
    return NULL;
nomem:
    *oom = 1;
    lx->err = "out of memory";
    lx->at = p;
    return NULL;
}

/* Resets the per-event columns of row uid to "absent". */
static void clear_row(tsql_trace *t, uint32_t uid)
{
    t->ph[uid] = 0;
    t->kind[uid] = TSQL_K_OTHER;
    t->flags[uid] = 0;
    t->cat[uid] = t->name[uid] = t->pid[uid] = t->tid[uid] = 0;
    t->ts_ns[uid] = t->dur_ns[uid] = TSQL_NULL;
    t->args[uid] = 0;
    t->pool_at[uid] = (uint32_t)t->npool;
    t->correlation.v[uid] = t->external_id.v[uid] = t->stream.v[uid] = t->device.v[uid] =
        ICOL_NULL;
    t->seq.v[uid] = t->python_id.v[uid] = t->python_parent.v[uid] = t->flow_id.v[uid] =
        ICOL_NULL;
}

/* Parses a number or numeric string as µs into ns. Returns 0 ok, -1 unusable. */
static int time_value(reader *r, uint32_t uid, int64_t off, const char *tok, size_t n,
                      int fast, int64_t fast_ns, int64_t *ns, double *d, int *need_exact,
                      const char *what)
{
    int inexact = 0;
    if (fast) {
        *ns = fast_ns; /* read by parse_event (tsql_lex_us_fast): exact */
        goto have_ns;
    }
    if (n >= 2 && tok[0] == '"') {
        tsql_trace_warn(r->t, off, uid, "%s_string: %s is a string; its numeric text was used",
                        what, what);
        tok++;
        n -= 2;
    }
    if (tsql_parse_us_to_ns(tok, n, ns, &inexact) != 0) {
        tsql_trace_warn(r->t, off, uid, "%s_invalid: %s is not a number in range; left NULL",
                        what, what);
        *ns = TSQL_NULL;
        return -1;
    }
have_ns:;
    /* ns/1000 computed in double equals Python's float(text) only when ns is exact and
     * representable; otherwise keep the double itself (rare: epoch µs with fractions) */
    int64_t a = *ns < 0 ? -*ns : *ns;
    if (inexact || (a >= (INT64_C(1) << 53) && *ns % 1000 != 0)) {
        *need_exact = 1;
        if (inexact) r->t->flags[uid] |= TSQL_F_TS_INEXACT;
        *d = tsql_parse_double(tok, n);
    } else {
        *d = tsql_ns_to_us(*ns);
    }
    return 0;
}

/* Stores the fields of one event into row uid. Returns 0 or -1 (err set). */
static int store_event(reader *r, const evfields *f, uint32_t uid, int64_t off)
{
    tsql_trace *t = r->t;
    if (f->ph) {
        if (f->ph_n == 3) t->ph[uid] = (uint8_t)f->ph[1];
        else tsql_trace_warn(t, off, uid, "ph_invalid: ph is not a one-letter string");
    } else {
        tsql_trace_warn(t, off, uid, "ph_missing: event has no ph");
    }
    if (f->name) {
        if (f->name[0] == '"') {
            t->name[uid] = intern_str(r, f->name, f->name_n, f->name_esc);
            if (!t->name[uid]) goto nomem;
        } else {
            t->name[uid] = intern_cached(r, f->name, f->name_n);
            if (!t->name[uid]) goto nomem;
        }
    }
    if (f->cat && f->cat[0] == '"') {
        uint32_t id = intern_str(r, f->cat, f->cat_n, f->cat_esc);
        if (!id) goto nomem;
        t->cat[uid] = id;
        int old = 0, kind;
        uint8_t cached = r->cat_cache[id & 255].id == id ? r->cat_cache[id & 255].v : 0;
        if (cached) {
            kind = (cached & 0x3F) - 1;
            old = (cached & 0x40) != 0;
        } else {
            const char *nm = tsql_intern_str(&t->strings, t->name[uid]);
            kind = kind_of_cat(tsql_intern_str(&t->strings, id), tsql_intern_len(&t->strings, id),
                               nm ? nm : "", tsql_intern_len(&t->strings, t->name[uid]), &old);
            /* "async" flows depend on the name too, so they are never cached */
            int is_async = tsql_intern_len(&t->strings, id) == 5 &&
                           !memcmp(tsql_intern_str(&t->strings, id), "async", 5);
            if (!is_async) {
                r->cat_cache[id & 255].id = id;
                r->cat_cache[id & 255].v = (uint8_t)((kind + 1) | (old ? 0x40 : 0));
            }
        }
        if (old) {
            t->flags[uid] |= TSQL_F_OLD_SPELLING;
            t->old_spelling++;
        }
        t->kind[uid] = (uint8_t)kind;
    }
    if (!f->cat && t->ph[uid] == 'i') t->kind[uid] = TSQL_K_INSTANT;
    if (f->pid && !(t->pid[uid] = intern_cached(r, f->pid, f->pid_n))) goto nomem;
    if (f->tid && !(t->tid[uid] = intern_cached(r, f->tid, f->tid_n))) goto nomem;
    int need_exact = 0;
    double dts = 0, ddur = 0;
    if (f->ts)
        time_value(r, uid, off, f->ts, f->ts_n, f->ts_fast, f->ts_ns, &t->ts_ns[uid], &dts,
                   &need_exact, "ts");
    if (f->dur) {
        time_value(r, uid, off, f->dur, f->dur_n, f->dur_fast, f->dur_ns, &t->dur_ns[uid],
                   &ddur, &need_exact, "dur");
        if (t->dur_ns[uid] != TSQL_NULL && t->dur_ns[uid] < 0)
            tsql_trace_warn(t, off, uid, "dur_negative: negative dur");
    }
    if (need_exact) {
        if (tsql_store_exact_double(t, uid, dts, ddur)) goto nomem;
        t->flags[uid] |= TSQL_F_XD;
    }
    if (f->id) {
        int64_t v;
        const char *s = f->id;
        size_t n = f->id_n;
        if (n >= 2 && s[0] == '"') {
            s++;
            n -= 2;
        }
        if (tsql_parse_int64(s, n, &v) == 0) {
            if (tsql_icol_set(&t->flow_id, uid, v)) goto nomem;
        } else if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && n <= 18) {
            char hex[20];
            memcpy(hex, s + 2, n - 2);
            hex[n - 2] = 0;
            char *e;
            unsigned long long u = strtoull(hex, &e, 16);
            if (*e == 0 && tsql_icol_set(&t->flow_id, uid, (int64_t)u)) goto nomem;
        } else {
            tsql_trace_warn(t, off, uid, "id_invalid: id is not an integer; flow left unlinked");
        }
    }
    if (f->bp && f->bp_n == 3 && f->bp[1] == 'e') t->flags[uid] |= TSQL_F_BP_E;
    return 0;
nomem:
    tsql_error_set(r->err, TSQL_ENOMEM, off, "out of memory");
    return -1;
}

enum { K_OTHER, K_S, K_PH, K_TS, K_ID, K_BP, K_CAT, K_PID, K_TID, K_DUR, K_NAME, K_ARGS };

/* Which event member a name (without escapes) is. */
static inline int event_key(const char *k, size_t kn)
{
    switch (kn) {
    case 1: return *k == 's' ? K_S : K_OTHER;
    case 2:
        if (k[0] == 'p' && k[1] == 'h') return K_PH;
        if (k[0] == 't' && k[1] == 's') return K_TS;
        if (k[0] == 'i' && k[1] == 'd') return K_ID;
        if (k[0] == 'b' && k[1] == 'p') return K_BP;
        break;
    case 3:
        if (tsql_eq(k, "cat", 3)) return K_CAT;
        if (tsql_eq(k, "pid", 3)) return K_PID;
        if (tsql_eq(k, "tid", 3)) return K_TID;
        if (tsql_eq(k, "dur", 3)) return K_DUR;
        break;
    case 4:
        if (tsql_eq(k, "name", 4)) return K_NAME;
        if (tsql_eq(k, "args", 4)) return K_ARGS;
        break;
    }
    return K_OTHER;
}

/* Parses one event object at p inside [p, end). Returns the end of the object, or
 * NULL: lx->incomplete (need more text) or lx->err (syntax) or *oom. The event is
 * stored as row t->n only when complete (the row is rewritten on a retry). */
static const char *parse_event(reader *r, tsql_lex *lx, const char *p, int64_t off, int *fail)
{
    tsql_trace *t = r->t;
    const char *end = lx->end;
    evfields f;
    memset(&f, 0, sizeof f);
    uint32_t uid = t->n;
    if (uid >= t->cap) {
        if (tsql_store_grow(t) || tsql_store_check_limit(t, r->err, off)) {
            if (r->err->code == TSQL_OK) tsql_error_set(r->err, TSQL_ENOMEM, off, "out of memory");
            *fail = 1;
            return NULL;
        }
    }
    size_t pool_mark = t->npool;
    size_t xd_mark = t->nxd;
    uint64_t warn_mark = t->warnings_total;
    uint32_t nwarn_mark = t->nwarnings;
    clear_row(t, uid);
    if (*p != '{') {
        lx->err = NOT_AN_EVENT;
        lx->at = p;
        return NULL;
    }
    p = tsql_skip_ws(p + 1, end);
    if (p >= end) goto incomplete;
    if (*p == '}') {
        p++;
        goto done;
    }
    const char *args_end = NULL;
    for (;;) {
        if (p >= end) goto incomplete;
        if (*p != '"') {
            lx->err = "expected a member name";
            lx->at = p;
            return NULL;
        }
        int kesc;
        const char *kend = tsql_lex_string(lx, p, &kesc);
        if (!kend) goto fail_or_more;
        const char *k = p + 1;
        size_t kn = (size_t)(kend - p - 2);
        p = member_value(lx, kend, end, "expected ':'");
        if (!p) return NULL;
        if (p >= end) goto incomplete;
        const char *v = p;
        const char *vend;
        int vesc = 0, fast = 0;
        int64_t fast_ns = 0;
        int key = kesc ? K_OTHER : event_key(k, kn);
        if (*v == '"') vend = tsql_lex_string(lx, v, &vesc);
        else if (*v == '{' && key == K_ARGS) {
            int oom = 0;
            r->args_nonfinite = 0;
            vend = parse_args(r, lx, v, uid, &oom);
            if (vend && r->args_nonfinite)
                tsql_trace_warn(t, off, uid, "args_nonfinite: NaN or Infinity in args, read as null");
            if (oom) {
                tsql_error_set(r->err, TSQL_ENOMEM, off, "out of memory");
                *fail = 1;
                return NULL;
            }
            if (vend) {
                args_end = vend;
                uint32_t id = intern_cached(r, r->tpl.p, r->tpl.n);
                if (!id) {
                    tsql_error_set(r->err, TSQL_ENOMEM, off, "out of memory");
                    *fail = 1;
                    return NULL;
                }
                t->args[uid] = id;
                t->flags[uid] |= TSQL_F_HAS_ARGS;
            }
        } else if ((*v >= '0' && *v <= '9') || (*v == '-' && !(end - v > 1 && v[1] == 'I'))) {
            /* -Infinity (Python writes it) is a literal */
            vend = NULL;
            if (key == K_TS || key == K_DUR) fast = (vend = tsql_lex_us_fast(v, end, &fast_ns)) != NULL;
            if (!vend) vend = tsql_lex_number(lx, v);
        } else
            vend = tsql_lex_skip_value(lx, v);
        if (!vend) goto fail_or_more;
        size_t vn = (size_t)(vend - v);
        switch (key) {
        case K_S: break; /* instant scope: kept only in the file */
        case K_PH: f.ph = v; f.ph_n = vn; break;
        case K_TS: f.ts = v; f.ts_n = vn; f.ts_fast = fast; f.ts_ns = fast_ns; break;
        case K_ID: f.id = v; f.id_n = vn; break;
        case K_BP: f.bp = v; f.bp_n = vn; break;
        case K_CAT: f.cat = v; f.cat_n = vn; f.cat_esc = vesc; break;
        case K_PID: f.pid = v; f.pid_n = vn; break;
        case K_TID: f.tid = v; f.tid_n = vn; break;
        case K_DUR: f.dur = v; f.dur_n = vn; f.dur_fast = fast; f.dur_ns = fast_ns; break;
        case K_NAME: f.name = v; f.name_n = vn; f.name_esc = vesc; break;
        case K_ARGS:
            if (!args_end && *v != '{' && *v != 'n')
                tsql_trace_warn(t, off, uid, "args_not_object: args is not an object; ignored");
            break;
        }
        p = tsql_skip_ws(vend, end);
        if (p >= end) goto incomplete;
        if (*p == ',') {
            p = tsql_skip_ws(p + 1, end);
            continue;
        }
        if (*p == '}') {
            p++;
            break;
        }
        lx->err = "expected ',' or '}' after a member";
        lx->at = p;
        return NULL;
    }
done:
    if (f.name && f.name[0] != '"') {
        tsql_trace_warn(t, off, uid, "name_not_string: name is not a string");
    }
    if (store_event(r, &f, uid, off)) {
        *fail = 1;
        return NULL;
    }
    t->n = uid + 1;
    return p;
fail_or_more:
    if (!lx->incomplete) return NULL;
incomplete:
    lx->incomplete = 1;
    /* undo side effects of the partial parse; the row is rewritten on retry */
    t->npool = pool_mark;
    t->nxd = xd_mark;
    t->warnings_total = warn_mark;
    t->nwarnings = nwarn_mark;
    return NULL;
}

/* Parses the event at r->pos, stitching chunks when it crosses a boundary.
 * Returns 0 or -1 (err set). */
static int rd_event(reader *r)
{
    tsql_lex lx = {.end = r->buf + r->len};
    int fail = 0;
    const char *start = r->buf + r->pos;
    int64_t off = rd_off(r);
    const char *e = parse_event(r, &lx, start, off, &fail);
    if (e) {
        r->pos = (size_t)(e - r->buf);
        return 0;
    }
    if (fail) return -1;
    if (!lx.incomplete) return syntax(r, r->buf_off + (lx.at - r->buf), lx.err);
    /* crosses the chunk end: copy what we have and append more until it parses */
    tsql_buf *s = &r->stitch;
    s->n = 0;
    size_t have = r->len - r->pos;
    if (tsql_buf_reserve(s, have + 1)) goto nomem;
    memcpy(s->p, start, have);
    s->n = have;
    r->pos = r->len;
    size_t want = 64 << 10;
    for (;;) {
        size_t from_this = 0; /* bytes of the current chunk in the stitch */
        /* append from the next chunk(s) */
        int rc = rd_fill(r);
        if (rc < 0) return -1;
        if (rc == 0)
            return syntax(r, off + (int64_t)s->n,
                          "unexpected end of file inside an event (truncated trace?)");
        size_t take = r->len - r->pos < want ? r->len - r->pos : want;
        /* the ceiling holds inside one event too: a 1 GiB string (a few MB of gzip)
         * must stop here, not after it has been copied, unescaped and interned */
        size_t limit = r->t->mem_limit;
        if (limit && (s->n + take > limit || tsql_store_bytes(r->t) > limit - s->n - take)) {
            tsql_error_set(r->err, TSQL_ENOMEM, off,
                           "memory ceiling of %zu MiB reached inside one event (%zu MiB read of it so "
                           "far: a string or value that large); raise it with "
                           "tracesql_config('memory_limit_mb', N)",
                           limit >> 20, (s->n + take) >> 20);
            return -1;
        }
        if (tsql_buf_reserve(s, take + 1)) goto nomem;
        memcpy(s->p + s->n, r->buf + r->pos, take);
        size_t before = s->n;
        s->n += take;
        from_this = take;
        tsql_lex lx2 = {.end = s->p + s->n};
        e = parse_event(r, &lx2, s->p, off, &fail);
        if (e) {
            size_t used_here = (size_t)(e - s->p) - before;
            r->pos += used_here;
            return 0;
        }
        if (fail) return -1;
        if (!lx2.incomplete) return syntax(r, off + (lx2.at - s->p), lx2.err);
        r->pos += from_this;
        if (want < ((size_t)1 << 30)) want *= 2;
    }
nomem:
    tsql_error_set(r->err, TSQL_ENOMEM, off, "out of memory");
    return -1;
}

/* At an element start (r->pos at '{', not the first element): 1 if it is the next
 * bound of a parallel piece (r->stopped set), else 0. Bounds passed over were wrong
 * guesses (inside an event or string) and are skipped. */
static int at_bound(reader *r)
{
    int64_t off = rd_off(r);
    if (r->feed) return r->stopped = off == r->chunk_mark;
    while (r->bi < r->nbounds && r->bounds[r->bi] < off) r->bi++;
    if (r->bi < r->nbounds && r->bounds[r->bi] == off) r->stopped = 1;
    return r->stopped;
}

/* Parses elements of traceEvents from c (peeked, at the first one) to the closing ']'
 * or, for a parallel piece, to its bound. */
static int rd_elements(reader *r, int c)
{
    for (;;) {
        if (c == -1) return syntax(r, rd_off(r), "unexpected end of file in traceEvents (truncated trace?)");
        if (c == -2) return -1;
        if (c != '{') return syntax(r, rd_off(r), NOT_AN_EVENT);
        if (r->t->n >= UINT32_MAX - 2)
            return tsql_error_set(r->err, TSQL_ELIMIT, rd_off(r), "more than 4 billion events"), -1;
        if (rd_event(r)) return -1;
        c = rd_peek(r);
        if (c == ',') {
            r->pos++;
            c = rd_peek(r);
            if (c == ']') return syntax(r, rd_off(r), "trailing comma in traceEvents");
            if (c == '{' && (r->nbounds || r->feed) && at_bound(r)) return 0;
            continue;
        }
        if (c == ']') {
            r->pos++;
            return 0;
        }
        if (c == -1) return syntax(r, rd_off(r), "unexpected end of file in traceEvents (truncated trace?)");
        if (c == -2) return -1;
        return syntax(r, rd_off(r), "expected ',' or ']' between events");
    }
}

/* Parses the traceEvents array; r->pos at '['. */
static int rd_events(reader *r)
{
    r->pos++;
    int c = rd_peek(r);
    if (c == -2) return -1;
    if (c == ']') {
        r->pos++;
        return 0;
    }
    return rd_elements(r, c);
}

/* Appends "key": to the metadata text. */
static int meta_key(reader *r)
{
    tsql_buf *m = &r->meta;
    if (tsql_buf_reserve(m, r->tmp.n * 6 + 8)) return -1;
    char sep = m->n ? ',' : '{';
    m->p[m->n++] = sep;
    m->p[m->n++] = '"';
    for (size_t i = 0; i < r->tmp.n; i++) {
        unsigned char c = (unsigned char)r->tmp.p[i];
        if (c == '"' || c == '\\') {
            m->p[m->n++] = '\\';
            m->p[m->n++] = (char)c;
        } else if (c < 0x20) {
            m->n += (size_t)snprintf(m->p + m->n, 7, "\\u%04x", c);
        } else {
            m->p[m->n++] = (char)c;
        }
    }
    m->p[m->n++] = '"';
    m->p[m->n++] = ':';
    return 0;
}

/* After the top-level value: only whitespace may follow. Returns 0 or -1. */
static int rd_end(reader *r)
{
    int c = rd_peek(r);
    if (c == -2) return -1;
    if (c != -1) return syntax(r, rd_off(r), "trailing data after the trace");
    return 0;
}

/* Members of the top-level object from c (peeked: a member name) to the closing '}';
 * with after_value, from just after a member's value instead. A parallel piece
 * returns early with r->stopped. Returns 0 or -1. */
static int rd_members(reader *r, int c, int *seen_events, int after_value)
{
    for (;;) {
        if (!after_value) {
            if (c == -2) return -1;
            if (c != '"') return syntax(r, rd_off(r), c == -1 ? "unexpected end of file (truncated trace?)" : "expected a member name");
            if (rd_key(r)) return -1;
            c = rd_peek(r);
            if (c != ':') return syntax(r, rd_off(r), c == -1 ? "unexpected end of file (truncated trace?)" : "expected ':'");
            r->pos++;
            c = rd_peek(r);
            if (c < 0) return c == -2 ? -1 : syntax(r, rd_off(r), "unexpected end of file (truncated trace?)");
            if (r->tmp.n == 11 && !memcmp(r->tmp.p, "traceEvents", 11) && c != '[' && !*seen_events)
                return syntax(r, rd_off(r), "traceEvents is not an array: expected \"traceEvents\": "
                                            "[ {event}, ... ] in the top-level object");
            if (r->tmp.n == 11 && !memcmp(r->tmp.p, "traceEvents", 11) && c == '[') {
                if (*seen_events) return syntax(r, rd_off(r), "traceEvents appears twice");
                *seen_events = 1;
                if (rd_events(r)) return -1;
                if (r->stopped) return 0;
            } else {
                if (meta_key(r)) {
                    tsql_error_set(r->err, TSQL_ENOMEM, rd_off(r), "out of memory");
                    return -1;
                }
                if (rd_value_bytes(r, &r->meta)) return -1;
            }
        }
        after_value = 0;
        c = rd_peek(r);
        if (c == ',') {
            r->pos++;
            c = rd_peek(r);
            continue;
        }
        if (c == '}') {
            r->pos++;
            return 0;
        }
        if (c == -2) return -1;
        return syntax(r, rd_off(r), c == -1 ? "unexpected end of file (truncated trace?)" : "expected ',' or '}'");
    }
}

/* The whole document. Returns 0 or -1. */
static int rd_document(reader *r)
{
    /* a UTF-8 byte order mark (written by some editors and Windows tools) is skipped */
    if (rd_fill(r) > 0 && r->len - r->pos >= 3 && !memcmp(r->buf + r->pos, "\xEF\xBB\xBF", 3)) {
        r->pos += 3;
        tsql_trace_warn(r->t, 0, -1, "bom: UTF-8 byte order mark at the start; skipped");
    }
    int c = rd_peek(r);
    if (c == -2) return -1;
    if (c == -1) return syntax(r, 0, "empty file: not a trace");
    if (c == '[') {
        r->t->bare_array = 1;
        if (rd_events(r)) return -1;
    } else if (c == '{') {
        r->pos++;
        int seen_events = 0;
        c = rd_peek(r);
        if (c == '}') r->pos++;
        else if (rd_members(r, c, &seen_events, 0)) return -1;
        if (r->stopped) return 0;
        if (!seen_events)
            return syntax(r, rd_off(r), "no traceEvents array: not a Chrome/Kineto trace: expected the key "
                          "\"traceEvents\" (an array of event objects) in the top-level object");
    } else {
        return syntax(r, rd_off(r), "not a trace: expected '{' or '[': a PyTorch profiler / Kineto "
                                        "trace starts with {\"traceEvents\": [ or with a bare array of events");
    }
    if (r->stopped) return 0;
    return rd_end(r);
}

/* A piece of a parallel load that starts at an element of traceEvents (r->pos at its
 * '{'): the elements, then the rest of the document. */
static int rd_piece(reader *r, int bare_array)
{
    int c = rd_peek(r);
    if (c == -2) return -1;
    if (c != '{') return syntax(r, rd_off(r), NOT_AN_EVENT);
    if (rd_elements(r, c)) return -1;
    if (r->stopped) return 0;
    if (!bare_array) {
        int seen_events = 1;
        if (rd_members(r, 0, &seen_events, 1)) return -1;
    }
    return rd_end(r);
}

/* Reads an integer that may be written as a JSON number or string. */
static int64_t json_int(const cJSON *j)
{
    if (cJSON_IsNumber(j)) {
        /* out of int64's range (1e309 is inf, NaN): unknown rather than UB */
        double d = j->valuedouble;
        return d > -9.2e18 && d < 9.2e18 ? (int64_t)d : TSQL_NULL;
    }
    if (cJSON_IsString(j)) {
        int64_t v;
        if (tsql_parse_int64(j->valuestring, strlen(j->valuestring), &v) == 0) return v;
    }
    return TSQL_NULL;
}

/* Reads rank, world size, devices and the GPU name from the metadata members. */
int tsql_reader_metadata(tsql_trace *t, tsql_buf *meta)
{
    t->rank = t->world_size = t->devices = t->base_time_ns = TSQL_NULL;
    if (!meta->n) {
        t->metadata = strdup("{}");
        return t->metadata ? 0 : -1;
    }
    if (tsql_buf_reserve(meta, 2)) return -1;
    meta->p[meta->n++] = '}';
    meta->p[meta->n] = 0;
    t->metadata = malloc(meta->n + 1);
    if (!t->metadata) return -1;
    memcpy(t->metadata, meta->p, meta->n + 1);
    /* baseTimeNanoseconds exceeds a double's precision: read it from the text */
    size_t bn;
    const char *b = tsql_template_member(t->metadata, meta->n, "baseTimeNanoseconds", &bn);
    if (b) {
        int64_t v;
        if (bn >= 2 && b[0] == '"') {
            b++;
            bn -= 2;
        }
        if (tsql_parse_int64(b, bn, &v) == 0) t->base_time_ns = v;
    }
    cJSON *root = cJSON_ParseWithLength(t->metadata, meta->n);
    if (!root) {
        tsql_trace_warn(t, -1, -1, "metadata_invalid: top-level metadata could not be parsed; ignored");
        return 0;
    }
    const cJSON *dp = cJSON_GetObjectItemCaseSensitive(root, "deviceProperties");
    if (cJSON_IsArray(dp)) {
        t->devices = cJSON_GetArraySize(dp);
        const cJSON *d0 = cJSON_GetArrayItem(dp, 0);
        const cJSON *nm = d0 ? cJSON_GetObjectItemCaseSensitive(d0, "name") : NULL;
        if (nm && cJSON_IsString(nm)) t->gpu_name = strdup(nm->valuestring);
    }
    const cJSON *di = cJSON_GetObjectItemCaseSensitive(root, "distributedInfo");
    if (cJSON_IsObject(di)) {
        t->rank = json_int(cJSON_GetObjectItemCaseSensitive(di, "rank"));
        t->world_size = json_int(cJSON_GetObjectItemCaseSensitive(di, "world_size"));
    }
    cJSON_Delete(root);
    return 0;
}

/* Creates an empty store for path. NULL on OOM. */
static tsql_trace *new_store(const char *path, const tsql_load_opts *opts)
{
    tsql_trace *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    tsql_intern_init(&t->strings);
    t->mem_limit = opts ? opts->mem_limit : 0;
    t->path = strdup(path);
    if (!t->path) {
        free(t);
        return NULL;
    }
    return t;
}

/* Frees the reader's buffers; the metadata text moves to meta when given. */
static void reader_done(reader *r, tsql_buf *meta)
{
    tsql_source_close(r->src);
    r->src = NULL;
    free(r->stitch.p);
    free(r->tpl.p);
    free(r->tmp.p);
    free(r->icache);
    if (meta) *meta = r->meta;
    else free(r->meta.p);
}

int tsql_reader_parse_part(tsql_part *p)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.err = &p->err;
    r.opts = p->opts;
    r.abort = p->abort;
    r.done_bytes = p->done_bytes;
    r.done_events = p->done_events;
    r.bounds = p->bounds;
    r.nbounds = p->feed ? 0 : p->nbounds;
    r.bi = p->index + 1;
    r.feed = p->feed;
    r.feed_ctx = p->feed_ctx;
    r.chunk_mark = -1;
    p->rc = -1;
    p->end_bound = -1;
    r.t = new_store(p->path, NULL);
    r.icache = calloc(ICACHE, sizeof *r.icache);
    if (!r.t || !r.icache) {
        tsql_trace_free(r.t);
        r.t = NULL;
        free(r.icache);
        tsql_error_set(r.err, TSQL_ENOMEM, -1, "out of memory");
        return -1;
    }
    r.t->mem_limit = p->mem_limit;
    int64_t start = p->feed ? p->start : p->bounds[p->index];
    r.buf_off = start;
    r.next_progress = start;
    if (!p->feed) r.src = tsql_source_open_range(p->path, start, p->st, r.err);
    if (r.src || p->feed) {
        int64_t stop = p->feed ? start + p->reserve
                       : p->index + 1 < p->nbounds ? p->bounds[p->index + 1]
                                                    : tsql_source_file_bytes(r.src);
        if (r.src) r.t->file_bytes = tsql_source_file_bytes(r.src);
        if (tsql_store_reserve_for(r.t, stop - start)) {
            tsql_error_set(r.err, TSQL_ENOMEM, -1, "out of memory");
            p->t = r.t;
            reader_done(&r, &p->meta);
            return -1;
        }
        p->rc = p->index == 0 ? rd_document(&r) : rd_piece(&r, p->bare_array);
        if (p->rc == 0 && r.stopped) p->end_bound = p->feed ? 0 : r.bi;
        if (p->rc == 0 && !r.stopped)
            p->json_bytes = p->feed ? r.buf_off : tsql_source_offset(r.src);
    }
    p->t = r.t;
    reader_done(&r, &p->meta);
    return p->rc;
}

int tsql_reader_parse(const char *path, const tsql_load_opts *opts, tsql_trace **out,
                      tsql_buf *meta, tsql_error *err)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.err = err;
    r.opts = opts;
    r.t = *out = new_store(path, opts);
    r.icache = calloc(ICACHE, sizeof *r.icache);
    if (!r.t || !r.icache) {
        free(r.icache);
        tsql_error_set(err, TSQL_ENOMEM, -1, "out of memory");
        return -1;
    }
    r.src = tsql_source_open_regular(path, err);
    int rc = -1;
    if (r.src) {
        r.t->format = tsql_source_kind(r.src);
        r.t->file_bytes = tsql_source_file_bytes(r.src);
        /* a plain file's size is its text's; compressed traces inflate 5-20x */
        int64_t text = r.t->format == TSQL_SOURCE_PLAIN ? r.t->file_bytes
                       : r.t->file_bytes < INT64_MAX / 4 ? r.t->file_bytes * 4 : 0;
        if (tsql_store_reserve_for(r.t, text)) {
            tsql_error_set(err, TSQL_ENOMEM, -1, "out of memory");
            reader_done(&r, meta);
            return -1;
        }
        rc = rd_document(&r);
        if (rc == 0) r.t->json_bytes = tsql_source_offset(r.src);
    }
    reader_done(&r, meta);
    return rc;
}
