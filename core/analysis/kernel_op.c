/*
 * kernel_op.c — matching kernel names against the operation rules (kernel_op.h).
 */
#include "analysis/kernel_op.h"

#include <stdlib.h>
#include <string.h>

const char *const tsql_kop_labels[] = {
    "GEMM", "Conv", "Attention", "RMSNorm", "LayerNorm", "BatchNorm", "GroupNorm",
    "Softmax", "MoE", "Elementwise", "Reduce", "RoPE", "KVCache", "Quant", "Sampling",
    "Memcpy", "Memset", "Communication", "Other", "RMSNorm+GEMM", "LayerNorm+GEMM", NULL,
};

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

struct tsql_kop_rules {
    kop_rule *v;
    size_t n, cap;
};

tsql_kop_rules *tsql_kop_rules_new(void)
{
    return calloc(1, sizeof(tsql_kop_rules));
}

void tsql_kop_rules_free(tsql_kop_rules *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->n; i++) {
        free(r->v[i].pattern);
        free(r->v[i].cpu_op);
    }
    free(r->v);
    free(r);
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
    return 0;
}

size_t tsql_kop_rules_count(const tsql_kop_rules *r)
{
    return r ? r->n : 0;
}

const char *tsql_kop_classify(const tsql_kop_rules *r, const char *name, const char *cpu_op)
{
    if (!r || !name) return "Other";
    size_t n = strlen(name), m = cpu_op ? strlen(cpu_op) : 0;
    for (size_t i = 0; i < r->n; i++) {
        const kop_rule *k = &r->v[i];
        if (k->cpu_op && (!cpu_op || !tsql_glob_ci(k->cpu_op, cpu_op, m))) continue;
        if (tsql_glob_ci(k->pattern, name, n)) return k->label;
    }
    return "Other";
}
