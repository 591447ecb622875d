/*
 * kernel_op.h — the operation a GPU kernel performs (GEMM, Attention, RMSNorm, ...),
 * from its name and the CPU op that launched it, by an ordered list of rules.
 *
 * A rule is (name pattern, optional CPU-op pattern, label). Patterns are globs: `*`
 * any run of characters, `?` any one character, everything else literal, matched
 * without regard to ASCII case over the whole string. The first rule whose patterns
 * both match gives the label; none gives "Other". The rules themselves are data
 * (the TEMP table kernel_op_rules, docs/compare.md); this file only matches them.
 *
 * No SQLite here; ext/func/kernel_op.c is the SQL function kernel_op().
 */
#ifndef TSQL_KERNEL_OP_H
#define TSQL_KERNEL_OP_H

#include <stddef.h>
#include <stdint.h>

/* The labels' positions in tsql_kop_labels, for code that tests a label without
 * comparing its text. */
enum tsql_kop_label_id {
    TSQL_KOP_GEMM, TSQL_KOP_CONV, TSQL_KOP_ATTENTION, TSQL_KOP_RMSNORM, TSQL_KOP_LAYERNORM,
    TSQL_KOP_BATCHNORM, TSQL_KOP_GROUPNORM, TSQL_KOP_SOFTMAX, TSQL_KOP_MOE, TSQL_KOP_ELEMENTWISE,
    TSQL_KOP_REDUCE, TSQL_KOP_ROPE, TSQL_KOP_KVCACHE, TSQL_KOP_QUANT, TSQL_KOP_SAMPLING,
    TSQL_KOP_MEMCPY, TSQL_KOP_MEMSET, TSQL_KOP_COMMUNICATION, TSQL_KOP_OTHER,
    TSQL_KOP_RMSNORM_GEMM, TSQL_KOP_LAYERNORM_GEMM,
    TSQL_KOP_NLABELS
};

/* The fixed vocabulary of labels, NULL-terminated, indexed by enum tsql_kop_label_id. */
extern const char *const tsql_kop_labels[];

/* The id of a label returned by the classifiers (a pointer into tsql_kop_labels). */
enum tsql_kop_label_id tsql_kop_label_id(const char *label);

/* The label spelled exactly as in the vocabulary, or NULL if s is not one. */
const char *tsql_kop_label(const char *s);

/* 1 if the glob pat matches all of s[0..n) (ASCII case folded), else 0. */
int tsql_glob_ci(const char *pat, const char *s, size_t n);

typedef struct tsql_kop_rules tsql_kop_rules;

tsql_kop_rules *tsql_kop_rules_new(void);
void tsql_kop_rules_free(tsql_kop_rules *r);

/* Appends a rule (copied). cpu_op NULL or "" matches any CPU op, including none.
 * Returns 0, or -1 if label is not in the vocabulary or memory ran out. */
int tsql_kop_rules_add(tsql_kop_rules *r, const char *pattern, const char *cpu_op,
                       const char *label);

size_t tsql_kop_rules_count(const tsql_kop_rules *r);

/* A key of the rules' content (patterns, CPU-op patterns, labels, in order): equal
 * rules give equal keys, so results computed with one set can be kept until it
 * changes. */
uint64_t tsql_kop_rules_key(const tsql_kop_rules *r);

/* The length of the part of a kernel name the rules see: a demangled name without its
 * parameter list (the balanced "(...)" that ends it, right after the name), since
 * parameter types (cudnn::reduced_divisor, ...Params) say nothing of what the kernel
 * does; n itself for a name without one, one wholly in parentheses, or a group after a
 * space ("Memcpy HtoD (Pageable -> Device)"). */
size_t tsql_kop_name_len(const char *name, size_t n);

/* The label of a kernel (one of tsql_kop_labels). name NULL gives "Other"; cpu_op
 * may be NULL (then only rules without a CPU-op pattern can match). */
const char *tsql_kop_classify(const tsql_kop_rules *r, const char *name, const char *cpu_op);

/* tsql_kop_classify, remembering the label of each distinct (name, cpu_op) (up to a
 * bound), so classifying every GPU event of a trace costs one rule match per distinct
 * kernel; adding a rule forgets them. Same result as tsql_kop_classify. */
const char *tsql_kop_classify_memo(tsql_kop_rules *r, const char *name, const char *cpu_op);

#endif
