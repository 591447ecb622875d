/*
 * kernel_op.c — matching kernel names against the operation rules (kernel_op.h).
 */
#include "analysis/kernel_op.h"

#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "util/hash.h"
#include "util/strmap.h"

const char *const tsql_kop_labels[] = {
    [TSQL_KOP_GEMM] = "GEMM", [TSQL_KOP_CONV] = "Conv", [TSQL_KOP_ATTENTION] = "Attention",
    [TSQL_KOP_RMSNORM] = "RMSNorm", [TSQL_KOP_LAYERNORM] = "LayerNorm",
    [TSQL_KOP_BATCHNORM] = "BatchNorm", [TSQL_KOP_GROUPNORM] = "GroupNorm",
    [TSQL_KOP_SOFTMAX] = "Softmax", [TSQL_KOP_MOE] = "MoE", [TSQL_KOP_ELEMENTWISE] = "Elementwise",
    [TSQL_KOP_REDUCE] = "Reduce", [TSQL_KOP_ROPE] = "RoPE", [TSQL_KOP_KVCACHE] = "KVCache",
    [TSQL_KOP_QUANT] = "Quant", [TSQL_KOP_SAMPLING] = "Sampling", [TSQL_KOP_MEMCPY] = "Memcpy",
    [TSQL_KOP_MEMSET] = "Memset", [TSQL_KOP_COMMUNICATION] = "Communication", [TSQL_KOP_OTHER] = "Other",
    [TSQL_KOP_RMSNORM_GEMM] = "RMSNorm+GEMM", [TSQL_KOP_LAYERNORM_GEMM] = "LayerNorm+GEMM",
    [TSQL_KOP_NLABELS] = NULL,
};

enum tsql_kop_label_id tsql_kop_label_id(const char *label)
{
    for (int i = 0; i < TSQL_KOP_NLABELS; i++)
        if (tsql_kop_labels[i] == label) return (enum tsql_kop_label_id)i;
    return TSQL_KOP_OTHER; /* not reached: the classifiers return the vocabulary's pointers */
}

const char *tsql_kop_label(const char *s)
{
    if (!s) return NULL;
    for (size_t i = 0; tsql_kop_labels[i]; i++)
        if (strcmp(s, tsql_kop_labels[i]) == 0) return tsql_kop_labels[i];
    return NULL;
}

static unsigned char fold(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* Iterative glob: on a mismatch, retry from the last `*` one character further on.
 * Linear in practice, O(len(pat) * n) at worst; no recursion. */
int tsql_glob_ci(const char *pat, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)pat;
    size_t i = 0;
    const unsigned char *star = NULL;
    size_t star_i = 0;
    while (i < n) {
        if (*p == '*') {
            while (*p == '*') p++;
            if (!*p) return 1;
            star = p;
            star_i = i;
        } else if (*p && (*p == '?' || fold(*p) == fold((unsigned char)s[i]))) {
            p++;
            i++;
        } else if (star) {
            p = star;
            i = ++star_i;
        } else {
            return 0;
        }
    }
    while (*p == '*') p++;
    return *p == 0;
}

typedef struct {
    char *pattern, *cpu_op; /* cpu_op NULL = any */
    const char *label;      /* points into tsql_kop_labels */
} kop_rule;

/* memo entries and key bytes kept at most: enough for every distinct kernel of large
 * traces, bounded for a query that classifies arbitrary strings */
#define KOP_MEMO_MAX (1u << 17)
#define KOP_MEMO_MAX_BYTES ((size_t)64 << 20)

struct tsql_kop_rules {
    kop_rule *v;
    size_t n, cap;
    uint64_t key;   /* FNV-1a of the rules' texts in order (tsql_kop_rules_key) */
    /* the label ids of the (name, CPU op) pairs classified so far: key is name, then
     * '\0', then '\1' + cpu_op or nothing */
    tsql_strmap memo;
};

tsql_kop_rules *tsql_kop_rules_new(void)
{
    tsql_kop_rules *r = calloc(1, sizeof(tsql_kop_rules));
    if (r) r->key = TSQL_FNV_SEED;
    return r;
}

void tsql_kop_rules_free(tsql_kop_rules *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->n; i++) {
        free(r->v[i].pattern);
        free(r->v[i].cpu_op);
    }
    free(r->v);
    tsql_strmap_free(&r->memo);
    free(r);
}

/* h extended with s and a separator byte (so fields cannot run together) */
static uint64_t key_add(uint64_t h, const char *s)
{
    if (s) h = tsql_fnv1a_add(h, s, strlen(s));
    return (h ^ 0xff) * TSQL_FNV_PRIME;
}

int tsql_kop_rules_add(tsql_kop_rules *r, const char *pattern, const char *cpu_op,
                       const char *label)
{
    const char *lab = tsql_kop_label(label);
    if (!r || !pattern || !lab) return -1;
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        kop_rule *v = realloc(r->v, cap * sizeof *v);
        if (!v) return -1;
        r->v = v;
        r->cap = cap;
    }
    kop_rule k = {strdup(pattern), cpu_op && *cpu_op ? strdup(cpu_op) : NULL, lab};
    if (!k.pattern || (cpu_op && *cpu_op && !k.cpu_op)) {
        free(k.pattern);
        free(k.cpu_op);
        return -1;
    }
    r->v[r->n++] = k;
    r->key = key_add(key_add(key_add(r->key, k.pattern), k.cpu_op ? k.cpu_op : "\x01"), lab);
    /* the labels remembered so far were decided without this rule */
    tsql_strmap_clear(&r->memo);
    return 0;
}

uint64_t tsql_kop_rules_key(const tsql_kop_rules *r)
{
    return r ? r->key : 0;
}

size_t tsql_kop_rules_count(const tsql_kop_rules *r)
{
    return r ? r->n : 0;
}

size_t tsql_kop_name_len(const char *name, size_t n)
{
    if (n == 0 || name[n - 1] != ')') return n;
    size_t depth = 0, i = n;
    while (i-- > 0) {
        if (name[i] == ')') depth++;
        else if (name[i] == '(' && --depth == 0) break;
    }
    /* unbalanced, all in parentheses, or a spaced annotation ("Memcpy HtoD (Pageable ->
     * Device)") rather than a parameter list */
    if (depth != 0 || i == 0 || i == SIZE_MAX || name[i - 1] == ' ') return n;
    return i;
}

const char *tsql_kop_classify(const tsql_kop_rules *r, const char *name, const char *cpu_op)
{
    if (!r || !name) return "Other";
    size_t n = tsql_kop_name_len(name, strlen(name)), m = cpu_op ? strlen(cpu_op) : 0;
    for (size_t i = 0; i < r->n; i++) {
        const kop_rule *k = &r->v[i];
        if (k->cpu_op && (!cpu_op || !tsql_glob_ci(k->cpu_op, cpu_op, m))) continue;
        if (tsql_glob_ci(k->pattern, name, n)) return k->label;
    }
    return "Other";
}


const char *tsql_kop_classify_memo(tsql_kop_rules *r, const char *name, const char *cpu_op)
{
    if (!r || !name) return tsql_kop_classify(r, name, cpu_op);
    size_t n = strlen(name), m = cpu_op ? strlen(cpu_op) : 0;
    size_t len = n + 1 + (cpu_op ? 1 + m : 0);
    char small[256], *key = len <= sizeof small ? small : malloc(len);
    if (!key) return tsql_kop_classify(r, name, cpu_op);
    memcpy(key, name, n + 1);
    if (cpu_op) {
        key[n + 1] = '\1';
        /* NOLINTNEXTLINE(bugprone-not-null-terminated-result): the key is length-counted (len) */
        memcpy(key + n + 2, cpu_op, m);
    }
    uint64_t id = 0;
    const char *label;
    if (tsql_strmap_get(&r->memo, key, len, &id)) {
        label = tsql_kop_labels[id];
    } else {
        label = tsql_kop_classify(r, name, cpu_op);
        /* bounded; out of memory leaves it unremembered, still the right answer */
        if (r->memo.n < KOP_MEMO_MAX && r->memo.bytes + len <= KOP_MEMO_MAX_BYTES)
            (void)tsql_strmap_put(&r->memo, key, len, (uint64_t)tsql_kop_label_id(label));
    }
    if (key != small) free(key);
    return label;
}
