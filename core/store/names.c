/* names.c — process and thread names of the M events, looked up once per (pid, tid). */
#include <stdlib.h>
#include <string.h>

#include "store/names.h"
#include "text/jsonlex.h"

/* Looked-up names per (pid, tid): a trace has few threads, so a short list. */
typedef struct meta_entry {
    uint32_t pid, tid;
    char *text;              /* the three names back to back */
    size_t len[3];
} meta_entry;

/* Kept with the trace (store cache): the M events and the names looked up so far. */
typedef struct names {
    uint32_t *meta;          /* uids of the M events, file order */
    uint32_t nmeta;
    meta_entry *e;
    uint32_t n, cap;
    uint32_t last;           /* index of the last hit */
} names;

static void names_free(void *v)
{
    names *c = v;
    if (!c) return;
    for (uint32_t i = 0; i < c->n; i++) free(c->e[i].text);
    free(c->e);
    free(c->meta);
    free(c);
}

static void *names_build(tsql_trace *t)
{
    names *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    for (uint32_t i = 0; i < t->n; i++) c->nmeta += t->ph[i] == 'M';
    c->meta = malloc((size_t)(c->nmeta ? c->nmeta : 1) * sizeof *c->meta);
    if (!c->meta) {
        free(c);
        return NULL;
    }
    for (uint32_t i = 0, m = 0; i < t->n; i++)
        if (t->ph[i] == 'M') c->meta[m++] = i;
    return c;
}

static const tsql_cache_kind NAMES = {"names", names_build, names_free};
static const char unknown[] = "Unknown";

static int token_is(const tsql_trace *t, uint32_t id, const char *s)
{
    size_t n = strlen(s);
    return id && tsql_intern_len(&t->strings, id) == n && memcmp(tsql_intern_str(&t->strings, id), s, n) == 0;
}

/* The string value of args[key] of the last M event called mname on (pid, tid),
 * unescaped into scratch; returns its offset in scratch or -1. */
static long meta_value(const tsql_trace *t, const names *a, uint32_t pid, uint32_t tid,
                       int tid_zero, const char *mname, const char *key, tsql_buf *scratch,
                       size_t *len)
{
    for (uint32_t m = a->nmeta; m-- > 0;) {
        uint32_t i = a->meta[m];
        if (t->pid[i] != pid) continue;
        if (tid_zero ? !token_is(t, t->tid[i], "0") : t->tid[i] != tid) continue;
        if (!token_is(t, t->name[i], mname)) continue;
        size_t n;
        const char *v = tsql_trace_arg_raw(t, i, key, &n);
        if (!v) continue;
        size_t at = scratch->n;
        if (n >= 2 && v[0] == '"') {
            if (tsql_unescape(v + 1, n - 2, scratch)) return -1;
        } else {
            if (tsql_buf_reserve(scratch, n)) return -1;
            memcpy(scratch->p + scratch->n, v, n);
            scratch->n += n;
        }
        *len = scratch->n - at;
        return (long)at;
    }
    return -1;
}

static void meta_fill(const tsql_trace *t, const names *a, uint32_t uid, tsql_meta_names *out,
                      tsql_buf *scratch)
{
    static const char *const mname[3] = {"process_name", "process_labels", "thread_name"};
    static const char *const key[3] = {"name", "labels", "name"};
    long at[3];
    scratch->n = 0;
    for (int i = 0; i < 3; i++)
        at[i] = meta_value(t, a, t->pid[uid], t->tid[uid], i < 2, mname[i], key[i], scratch, &out->len[i]);
    /* pointers only once scratch has stopped growing */
    for (int i = 0; i < 3; i++) {
        out->s[i] = at[i] >= 0 ? scratch->p + at[i] : unknown;
        if (at[i] < 0) out->len[i] = sizeof unknown - 1;
    }
    out->stable = 0;
}

static void meta_from_entry(const meta_entry *m, tsql_meta_names *out)
{
    size_t off = 0;
    for (int i = 0; i < 3; i++) {
        out->s[i] = m->text + off;
        out->len[i] = m->len[i];
        off += m->len[i];
    }
    out->stable = 1;
}

int tsql_meta_lookup(tsql_trace *t, uint32_t uid, tsql_meta_names *out, tsql_buf *scratch)
{
    uint32_t pid = t->pid[uid], tid = t->tid[uid];
    names *c = tsql_trace_cached(t, &NAMES);
    if (!c) return -1;
    if (c->last < c->n && c->e[c->last].pid == pid && c->e[c->last].tid == tid) {
        meta_from_entry(&c->e[c->last], out);
        return 0;
    }
    for (uint32_t i = 0; i < c->n; i++)
        if (c->e[i].pid == pid && c->e[i].tid == tid) {
            c->last = i;
            meta_from_entry(&c->e[i], out);
            return 0;
        }
    meta_fill(t, c, uid, out, scratch);
    /* remember it; on OOM just answer from scratch */
    if (c->n == c->cap) {
        uint32_t nc = c->cap ? c->cap * 2 : 16;
        meta_entry *ne = realloc(c->e, nc * sizeof *ne);
        if (!ne) return 0;
        c->e = ne;
        c->cap = nc;
    }
    size_t l0 = out->len[0], l1 = out->len[1], l2 = out->len[2];
    char *txt = malloc(l0 + l1 + l2 + 1);
    if (!txt) return 0;
    memcpy(txt, out->s[0], l0);
    memcpy(txt + l0, out->s[1], l1);
    memcpy(txt + l0 + l1, out->s[2], l2);
    txt[l0 + l1 + l2] = 0;
    c->e[c->n] = (meta_entry){pid, tid, txt, {l0, l1, l2}};
    c->last = c->n++;
    meta_from_entry(&c->e[c->last], out);
    return 0;
}
