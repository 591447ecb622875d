/* iteration.c — iteration annotations of serving frameworks; see iteration.h. */
#include "perfmodel/iteration.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Matches pat at the start of s: '#' stands for one or more digits (each captured in
 * num[], at most max), every other character for itself. Returns the end of the match
 * or NULL. */
static const char *match(const char *s, const char *pat, int64_t *num, int max, int *n)
{
    *n = 0;
    for (; *pat; pat++) {
        if (*pat == '#') {
            if (!isdigit((unsigned char)*s)) return NULL;
            int64_t v = 0;
            while (isdigit((unsigned char)*s)) {
                if (v < INT64_MAX / 10) v = v * 10 + (*s - '0');
                s++;
            }
            if (*n < max) num[(*n)++] = v;
        } else if (*s++ != *pat) {
            return NULL;
        }
    }
    return s;
}

static int word_char(char ch) { return isalnum((unsigned char)ch) || ch == '_'; }

/* "step[" KIND \b: the position after KIND, or NULL */
static const char *sglang_kind(const char *s, const char **kind)
{
    static const char *const kinds[] = {"EXTEND", "DECODE", "MIXED"};
    if (strncmp(s, "step[", 5) != 0) return NULL;
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(kinds[i]);
        if (strncmp(s + 5, kinds[i], n) == 0 && !word_char(s[5 + n])) {
            *kind = kinds[i];
            return s + 5 + n;
        }
    }
    return NULL;
}

/* value of `key=digits` in [a, b) (a key preceded by a non-word character); 0 if absent */
static int64_t kv_int(const char *a, const char *b, const char *key, int *found)
{
    size_t kn = strlen(key);
    *found = 0;
    for (const char *p = a; p + kn < b; p++) {
        if ((p > a && word_char(p[-1])) || strncmp(p, key, kn) != 0 || p[kn] != '=') continue;
        const char *q = p + kn + 1;
        if (q >= b || !isdigit((unsigned char)*q)) continue;
        *found = 1;
        return strtoll(q, NULL, 10);
    }
    return 0;
}

/* ATOM pairs: key=value where value is "[...]" or a run of non-spaces; an int or 0 */
static int64_t atom_value(const char *a, const char *b, const char *key, int *found)
{
    size_t kn = strlen(key);
    *found = 0;
    for (const char *p = a; p + kn < b; p++) {
        if ((p > a && word_char(p[-1])) || strncmp(p, key, kn) != 0 || p[kn] != '=') continue;
        const char *q = p + kn + 1;
        *found = 1;
        if (*q == '[') return 0;
        char *end;
        long long v = strtoll(q, &end, 10);
        if (end == q || (end < b && *end != ' ' && *end != ',' && *end != ']')) return 0;
        return v;
    }
    return 0;
}

void tsql_iter_parse(const char *s, tsql_iter *o)
{
    memset(o, 0, sizeof *o);
    if (!s) return;
    int64_t v[16];
    int n;
    const char *kind;
    if (match(s, "execute_#_context_#(sq#sk#sqsq#sqsk#)_generation_#(sq#sk#sqsq#sqsk#)", v, 16, &n)) {
        o->format = TSQL_ITER_VLLM_DETAILED;
        o->detailed = 1;
        /* v: execute, context, sq sk sqsq sqsk, generation, sq sk sqsq sqsk */
        o->c_sq = v[2], o->c_sk = v[3], o->c_sqsq = v[4], o->c_sqsk = v[5];
        o->g_sq = v[7], o->g_sk = v[8], o->g_sqsq = v[9], o->g_sqsk = v[10];
        o->has_batch = 1;
        o->batch_size = o->c_sq + o->g_sq;
        return;
    }
    if (match(s, "execute_context_#(#)_generation_#(#)", v, 16, &n)) {
        o->format = TSQL_ITER_VLLM_NATIVE;
        o->has_batch = 1;
        o->batch_size = v[1] + v[3];
        return;
    }
    const char *after = sglang_kind(s, &kind);
    if (after) {
        const char *close = strchr(after, ']');
        const char *last = strrchr(s, ']');
        if (!close) return;
        const char *open = strchr(s, '[');
        int f;
        /* detailed: "sqsq=<digit>" before the first ']' */
        int detailed = 0;
        for (const char *p = after; p + 5 < close && !detailed; p++)
            detailed = strncmp(p, "sqsq=", 5) == 0 && isdigit((unsigned char)p[5]);
        if (detailed) {
            o->format = TSQL_ITER_SGLANG_DETAILED;
            o->detailed = 1;
            const char *a = open + 1, *b = last;
            o->c_sq = kv_int(a, b, "c_sq", &f), o->c_sk = kv_int(a, b, "c_sk", &f);
            o->c_sqsq = kv_int(a, b, "c_sqsq", &f), o->c_sqsk = kv_int(a, b, "c_sqsk", &f);
            o->g_sq = kv_int(a, b, "g_sq", &f), o->g_sk = kv_int(a, b, "g_sk", &f);
            o->g_sqsq = kv_int(a, b, "g_sqsq", &f), o->g_sqsk = kv_int(a, b, "g_sqsk", &f);
            int ft, fb;
            int64_t toks = kv_int(a, b, "toks", &ft), bs = kv_int(a, b, "bs", &fb);
            int64_t sum = o->c_sq + o->g_sq;
            if (sum) o->has_batch = 1, o->batch_size = sum;
            else if (ft && toks) o->has_batch = 1, o->batch_size = toks;
            else if (fb) o->has_batch = 1, o->batch_size = bs;
            return;
        }
        o->format = TSQL_ITER_SGLANG_NATIVE;
        int fb, ft;
        int64_t bs = kv_int(after, close, "bs", &fb), toks = kv_int(after, close, "toks", &ft);
        if (fb) {
            o->has_batch = 1;
            o->batch_size = strcmp(kind, "DECODE") == 0 ? bs : (ft && toks ? toks : bs);
        }
        return;
    }
    int prefill = strncmp(s, "prefill[", 8) == 0, decode = strncmp(s, "decode[", 7) == 0;
    const char *last = strrchr(s, ']');
    if ((prefill || decode) && last) {
        const char *a = s + (prefill ? 8 : 7), *b = last;
        int fq, fk, ft, fs;
        int64_t sqsq = atom_value(a, b, "sqsq", &fq), sqsk = atom_value(a, b, "sqsk", &fk);
        int64_t tok = atom_value(a, b, "tok", &ft), sk = atom_value(a, b, "sk", &fs);
        o->format = fq && fk ? TSQL_ITER_ATOM_DETAILED : TSQL_ITER_ATOM_NATIVE;
        o->detailed = fq && fk;
        if (o->detailed) {
            if (prefill) o->c_sq = tok, o->c_sk = sk, o->c_sqsq = sqsq, o->c_sqsk = sqsk;
            else o->g_sq = tok, o->g_sk = sk, o->g_sqsq = sqsq, o->g_sqsk = sqsk;
        }
        if (ft) o->has_batch = 1, o->batch_size = tok;
        return;
    }
    if (match(s, "execute_diffusion_#_#x#", v, 16, &n)) {
        o->format = TSQL_ITER_DIFFUSION;
        o->has_batch = 1;
        o->batch_size = v[0];
    }
}
