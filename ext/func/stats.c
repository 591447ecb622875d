/*
 * stats.c — the statistics the perf report needs and SQLite lacks, with
 * pandas' / numpy's definitions (docs/report.md, Summation functions, docs/functions.md,
 * kernel_details_summary):
 *
 *   median(x)                    aggregate: median of non-NULL values (mean of the two
 *                                middle ones for an even count); NULL if none
 *   stdev(x)                     aggregate: sample standard deviation (n - 1); NULL if
 *                                fewer than 2 values (pandas' std)
 *   stdev_pop(x)                 aggregate: population standard deviation (numpy's std)
 *   first(x [, ord])             aggregate: the first non-NULL x in the order of ord
 *                                (pandas' "first"); without ord, the first one seen
 *   kernel_details_summary(kd [, ord])
 *                                aggregate over kernel_details JSON lists (one per op
 *                                instance, in the order of ord): TraceLens's
 *                                per-position kernel statistics as a JSON array
 *   trunc_kernel_details(s)      scalar: the truncated form of such a summary
 *                                (both: docs/functions.md, kernel_details_summary)
 *
 * All are deterministic and innocuous.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "catalog/registration.h"
#include "text/pyrepr.h"
#include "util/sum.h"
#include "util/vec.h"
#include "vtab/table.h"

/* ---------- collected values (dvec, util/vec.h) ---------- */

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* sorts v */
static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* Closes the list text in b with ']' and returns it as the result (out of memory when
 * bad or when that fails); frees b. */
static void result_list(sqlite3_context *ctx, tsql_buf *b, int bad)
{
    if (!bad && tsql_buf_reserve(b, 1) == 0) {
        b->p[b->n++] = ']';
        sqlite3_result_text(ctx, b->p, (int)b->n, SQLITE_TRANSIENT);
    } else {
        sqlite3_result_error_nomem(ctx);
    }
    free(b->p);
    *b = (tsql_buf){0};
}

/* The aggregate's state for a non-NULL first argument; NULL (skip the row) for a NULL
 * one or when out of memory (then the error is set). */
static void *step_state(sqlite3_context *ctx, sqlite3_value **argv, int size)
{
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return NULL;
    void *a = sqlite3_aggregate_context(ctx, size);
    if (!a) sqlite3_result_error_nomem(ctx);
    return a;
}

static void collect_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    dvec *d = step_state(ctx, argv, sizeof *d);
    if (d && dvec_push(d, sqlite3_value_double(argv[0]))) sqlite3_result_error_nomem(ctx);
}

static void median_final(sqlite3_context *ctx)
{
    dvec *d = sqlite3_aggregate_context(ctx, 0);
    if (d && d->n) sqlite3_result_double(ctx, median_of(d->v, d->n));
    if (d) free(d->v);
}

/* sample (ddof 1, pandas) or population (ddof 0, numpy) standard deviation */
static void stdev_final_ddof(sqlite3_context *ctx, size_t ddof)
{
    dvec *d = sqlite3_aggregate_context(ctx, 0);
    double var;
    if (d && d->n > ddof) {
        if (tsql_np_var(d->v, d->n, ddof, &var)) sqlite3_result_error_nomem(ctx);
        else sqlite3_result_double(ctx, sqrt(var));
    }
    if (d) free(d->v);
}

static void stdev_final(sqlite3_context *ctx) { stdev_final_ddof(ctx, 1); }
static void stdev_pop_final(sqlite3_context *ctx) { stdev_final_ddof(ctx, 0); }

/* ---------- first(x, ord): pandas' "first" (first non-NULL value in row order) ---------- */

typedef struct first_acc {
    sqlite3_value *v;
    double ord;
} first_acc;

static void first_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    first_acc *a = step_state(ctx, argv, sizeof *a);
    if (!a) return;
    double ord = argc > 1 ? sqlite3_value_double(argv[1]) : 0.0;
    if (a->v && (argc < 2 || ord >= a->ord)) return;
    sqlite3_value *c = sqlite3_value_dup(argv[0]);
    if (!c) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sqlite3_value_free(a->v);
    a->v = c;
    a->ord = ord;
}

static void first_final(sqlite3_context *ctx)
{
    first_acc *a = sqlite3_aggregate_context(ctx, 0);
    if (a && a->v) {
        sqlite3_result_value(ctx, a->v);
        sqlite3_value_free(a->v);
    }
}

/* ---------- kernel_details_summary ---------- */

/* Rows are kept until the end because the template is the first non-empty list in
 * row order, and row order is the optional second argument (SQLite does not promise
 * the order in which a group's rows reach an aggregate). */
typedef struct kd_row {
    double ord;
    int n;
    double *dur;           /* n values */
} kd_row;

typedef struct kd_acc {
    kd_row *rows;
    size_t n, cap;
    cJSON *tmpl;           /* the template list (owned), set in final */
    double tmpl_ord;
    int failed;
    int float_durs;            /* a duration was written as a float (4.0, not 4) */
} kd_acc;

/* The "dur" values of a kernel_details list, without building a DOM: in JSON text a
 * ',"dur":' can only be a member (a quote inside a string is escaped). Returns the
 * count, or -1 if the text is not an array. */
static int scan_durs(const char *s, int len, double **out, int *is_float)
{
    int i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) i++;
    if (i >= len || s[i] != '[') return -1;
    static const char key[] = ",\"dur\":";
    const int kl = (int)sizeof key - 1;
    int n = 0;
    for (const char *p = s; (p = memmem(p, (size_t)(s + len - p), key, (size_t)kl)) != NULL; p += kl) n++;
    *out = sqlite3_malloc64((sqlite3_uint64)(n ? n : 1) * sizeof **out);
    if (!*out) return -2;
    int k = 0;
    for (const char *p = s; k < n && (p = memmem(p, (size_t)(s + len - p), key, (size_t)kl)) != NULL; p += kl) {
        const char *v = p + kl;
        char *end = NULL;
        /* the text is not NUL-terminated: copy the number out */
        char num[40];
        size_t m = 0;
        while (v + m < s + len && m < sizeof num - 1 && strchr("0123456789+-.eE", v[m])) m++;
        memcpy(num, v, m);
        num[m] = 0;
        double d = strtod(num, &end);
        if (strpbrk(num, ".eE")) *is_float = 1;
        (*out)[k++] = m && end == num + m ? d : NAN;
    }
    return n;
}

static void kd_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    kd_acc *a = step_state(ctx, argv, sizeof *a);
    if (!a) return;
    if (a->failed) return;
    const char *text = (const char *)sqlite3_value_text(argv[0]);
    int len = sqlite3_value_bytes(argv[0]);
    double ord = argc > 1 ? sqlite3_value_double(argv[1]) : (double)a->n;
    double *durs = NULL;
    int n = text ? scan_durs(text, len, &durs, &a->float_durs) : -1;
    if (n == -2) goto oom;
    if (n < 0) {
        a->failed = 1;
        sqlite3_result_error(ctx, "kernel_details_summary: argument is not a JSON array", -1);
        return;
    }
    if (a->n == a->cap) {
        kd_row *nr = tsql_grow(a->rows, &a->cap, sizeof *nr, 16);
        if (!nr) goto oom;
        a->rows = nr;
    }
    a->rows[a->n++] = (kd_row){ord, n, durs};
    durs = NULL;
    /* the template: the non-empty list with the smallest row order (names, streams) */
    if (n > 0 && (!a->tmpl || ord < a->tmpl_ord)) {
        cJSON *list = cJSON_ParseWithLength(text, (size_t)len);
        if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) != n) {
            cJSON_Delete(list);
            a->failed = 1;
            sqlite3_result_error(ctx, "kernel_details_summary: argument is not a kernel_details list", -1);
            return;
        }
        cJSON_Delete(a->tmpl);
        a->tmpl = list;
        a->tmpl_ord = ord;
    }
    return;
oom:
    sqlite3_free(durs);
    a->failed = 1;
    sqlite3_result_error_nomem(ctx);
}

static int cmp_row(const void *x, const void *y)
{
    const kd_row *a = x, *b = y;
    return (a->ord > b->ord) - (a->ord < b->ord);
}

typedef struct kd_entry {
    double total;
    const char *name;
    int pos;
} kd_entry;

static int cmp_entry(const void *x, const void *y)
{
    const kd_entry *a = x, *b = y;
    if (a->total != b->total) return a->total < b->total ? -1 : 1;
    int c = strcmp(a->name, b->name);
    if (c) return c;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

/* ,"key":x; as_float: an integral x keeps ".0" (numpy's float results) */
static int put_num(tsql_buf *b, int *first, const char *key, double x, int as_float)
{
    if (tsql_json_key(b, first, key)) return -1;
    return as_float ? tsql_json_float(b, x) : tsql_json_double(b, x);
}

static void kd_final(sqlite3_context *ctx)
{
    kd_acc *a = sqlite3_aggregate_context(ctx, 0);
    if (!a) {
        sqlite3_result_text(ctx, "[]", 2, SQLITE_STATIC);
        return;
    }
    tsql_buf b = {0};
    kd_entry *ent = NULL;
    dvec *durs = NULL;
    int nomem = 0, npos_done = 0;
    if (a->failed) goto done;
    if (!a->tmpl) {
        sqlite3_result_text(ctx, "[]", 2, SQLITE_STATIC);
        goto done;
    }
    int npos = cJSON_GetArraySize(a->tmpl);
    durs = sqlite3_malloc64((sqlite3_uint64)npos * sizeof *durs);
    ent = sqlite3_malloc64((sqlite3_uint64)npos * sizeof *ent);
    if (!ent || !durs) {
        nomem = 1;
        goto done;
    }
    memset(durs, 0, (size_t)npos * sizeof *durs);
    /* pool position by position, rows in row order; other lengths are skipped */
    qsort(a->rows, a->n, sizeof *a->rows, cmp_row);
    for (size_t r = 0; r < a->n; r++) {
        if (a->rows[r].n != npos) continue;
        for (int p = 0; p < npos; p++)
            if (!isnan(a->rows[r].dur[p]) && dvec_push(&durs[p], a->rows[r].dur[p])) goto oom;
    }
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, a->tmpl) {
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, "name");
        double s = tsql_pairwise_sum(durs[i].v, durs[i].n);
        ent[i] = (kd_entry){s, cJSON_IsString(nm) ? nm->valuestring : "", i};
        i++;
    }
    npos_done = npos;
    qsort(ent, (size_t)npos, sizeof *ent, cmp_entry);
    if (tsql_buf_reserve(&b, 2)) goto oom;
    b.p[b.n++] = '[';
    for (int k = 0; k < npos; k++) {
        int p = ent[k].pos;
        const cJSON *te = cJSON_GetArrayItem(a->tmpl, p);
        const cJSON *stream = cJSON_GetObjectItemCaseSensitive(te, "stream");
        dvec *d = &durs[p];
        int first = 1;
        if ((k && tsql_bputc(&b, ',')) || tsql_bputc(&b, '{') || tsql_json_key(&b, &first, "name") ||
            tsql_json_text(&b, ent[k].name) || tsql_json_key(&b, &first, "stream") ||
            (cJSON_IsNumber(stream) ? tsql_json_i64(&b, (long long)stream->valuedouble) : tsql_bputs(&b, "null")) ||
            tsql_json_key(&b, &first, "count") || tsql_json_i64(&b, (int64_t)d->n))
            goto oom;
        /* sums, minima and maxima keep the durations' type; means, medians and stds are
         * numpy floats */
        if (put_num(&b, &first, "total_duration_us", ent[k].total, a->float_durs)) goto oom;
        if (d->n) {
            double mean = tsql_np_mean(d->v, d->n), var;
            if (tsql_np_var(d->v, d->n, 0, &var)) goto oom;
            double sd = sqrt(var);
            double mn = d->v[0], mx = d->v[0];
            for (size_t j = 1; j < d->n; j++) {
                if (d->v[j] < mn) mn = d->v[j];
                if (d->v[j] > mx) mx = d->v[j];
            }
            double med = median_of(d->v, d->n);
            if (put_num(&b, &first, "mean_duration_us", mean, 1) || put_num(&b, &first, "median_duration_us", med, 1) ||
                put_num(&b, &first, "std_dev_duration_us", sd, 1) ||
                put_num(&b, &first, "min_duration_us", mn, a->float_durs) ||
                put_num(&b, &first, "max_duration_us", mx, a->float_durs))
                goto oom;
        }
        /* the inference report's per-kernel call stacks ride along from the template
         * (call_stack_full(), ext/func/inference.c) */
        const cJSON *cs = cJSON_GetObjectItemCaseSensitive(te, "call_stack");
        if (cs) {
            char *cst = cJSON_PrintUnformatted(cs);
            int bad = !cst || tsql_json_key(&b, &first, "call_stack") || tsql_bputs(&b, cst);
            cJSON_free(cst);
            if (bad) goto oom;
        }
        if (tsql_bputc(&b, '}')) goto oom;
    }
    if (tsql_buf_reserve(&b, 1)) goto oom;
    b.p[b.n++] = ']';
    sqlite3_result_text(ctx, b.p, (int)b.n, SQLITE_TRANSIENT);
    goto done;
oom:
    nomem = 1;
done:
    if (nomem) sqlite3_result_error_nomem(ctx);
    free(b.p);
    sqlite3_free(ent);
    for (int k = 0; durs && k < npos_done; k++) free(durs[k].v);
    sqlite3_free(durs);
    if (a) {
        for (size_t r = 0; r < a->n; r++) sqlite3_free(a->rows[r].dur);
        free(a->rows);
        cJSON_Delete(a->tmpl);
    }
}

/* round(x, 2) on a numpy float, as TraceLens calls it: numpy scales, rounds half to
 * even and scales back (so 11.265 -> 11.26, where Python's float round gives 11.27). */
static double round2(double x)
{
    return rint(x * 100.0) / 100.0;
}

/* trunc_kernel_details(summary): [{name (64 chars + '...'), stream, mean rounded to 2}] */
static void trunc_kd(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
    cJSON *s = cJSON_ParseWithLength((const char *)sqlite3_value_text(argv[0]),
                                     (size_t)sqlite3_value_bytes(argv[0]));
    if (!cJSON_IsArray(s)) {
        cJSON_Delete(s);
        sqlite3_result_error(ctx, "trunc_kernel_details: argument is not a JSON array", -1);
        return;
    }
    if (cJSON_GetArraySize(s) == 0) {
        cJSON_Delete(s);
        return; /* TraceLens gives None for an empty summary */
    }
    tsql_buf b = {0};
    int bad = tsql_buf_reserve(&b, 1);
    if (!bad) b.p[b.n++] = '[';
    const cJSON *e;
    int k = 0;
    cJSON_ArrayForEach(e, s) {
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, "name");
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "stream");
        const cJSON *mean = cJSON_GetObjectItemCaseSensitive(e, "mean_duration_us");
        const char *name = cJSON_IsString(nm) ? nm->valuestring : "";
        size_t len = strlen(name);
        /* 64 characters, not bytes: count UTF-8 lead bytes */
        size_t cut = 0, chars = 0;
        while (cut < len && chars < 64) {
            cut++;
            while (cut < len && ((unsigned char)name[cut] & 0xC0) == 0x80) cut++;
            chars++;
        }
        int first = 1;
        bad = bad || (k++ && tsql_bputc(&b, ',')) || tsql_bputc(&b, '{') || tsql_json_key(&b, &first, "name");
        if (bad) break;
        if (cut < len) {
            char *tmp = malloc(cut + 4);
            bad = !tmp;
            if (!bad) {
                memcpy(tmp, name, cut);
                memcpy(tmp + cut, "...", 4);
                bad = tsql_json_quote(&b, tmp, cut + 3) != 0;
                free(tmp);
            }
        } else {
            bad = tsql_json_quote(&b, name, len) != 0;
        }
        bad = bad || tsql_json_key(&b, &first, "stream") ||
              (cJSON_IsNumber(st) ? tsql_json_i64(&b, (long long)st->valuedouble) : tsql_bputs(&b, "null"));
        if (!bad && cJSON_IsNumber(mean)) bad = put_num(&b, &first, "mean_duration_us", round2(mean->valuedouble), 1);
        bad = bad || tsql_bputc(&b, '}');
        if (bad) break;
    }
    result_list(ctx, &b, bad);
    cJSON_Delete(s);
}

/* ---------- py_sorted_set(x): Python's repr of sorted(set(x)) for text ---------- */

typedef struct set_ctx {
    char **s;
    size_t n, cap;
    int oom;
} set_ctx;

static void set_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    set_ctx *p = step_state(ctx, argv, sizeof *p);
    if (!p) return;
    const char *v = (const char *)sqlite3_value_text(argv[0]);
    if (!v) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->s[i], v) == 0) return; /* a group holds few distinct values */
    if (p->n == p->cap) {
        size_t nc = p->cap ? 2 * p->cap : 8;
        char **ns = realloc(p->s, nc * sizeof *ns);
        if (!ns) {
            p->oom = 1;
            return;
        }
        p->s = ns;
        p->cap = nc;
    }
    if (!(p->s[p->n] = strdup(v))) p->oom = 1;
    else p->n++;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static void set_final(sqlite3_context *ctx)
{
    set_ctx *p = sqlite3_aggregate_context(ctx, 0);
    size_t n = p ? p->n : 0;
    tsql_buf b = {0};
    int bad = p && p->oom;
    if (n) qsort(p->s, n, sizeof *p->s, cmp_str);
    bad = bad || tsql_buf_reserve(&b, 1);
    if (!bad) b.p[b.n++] = '[';
    for (size_t i = 0; i < n && !bad; i++) {
        if (i) bad = tsql_buf_reserve(&b, 2) || (memcpy(b.p + b.n, ", ", 2), b.n += 2, 0);
        bad = bad || tsql_py_put_str(&b, p->s[i], strlen(p->s[i]));
    }
    result_list(ctx, &b, bad);
    for (size_t i = 0; i < n; i++) free(p->s[i]);
    if (p) free(p->s);
}

static const tsql_fn_def stats_fns[] = {
    {"median", 1, TSQL_PURE, NULL, collect_step, median_final},
    {"stdev", 1, TSQL_PURE, NULL, collect_step, stdev_final},
    {"stdev_pop", 1, TSQL_PURE, NULL, collect_step, stdev_pop_final},
    {"first", 1, TSQL_PURE, NULL, first_step, first_final},
    {"first", 2, TSQL_PURE, NULL, first_step, first_final},
    {"kernel_details_summary", 1, TSQL_PURE, NULL, kd_step, kd_final},
    {"kernel_details_summary", 2, TSQL_PURE, NULL, kd_step, kd_final},
    {"trunc_kernel_details", 1, TSQL_PURE, trunc_kd, NULL, NULL},
    {"py_sorted_set", 1, TSQL_PURE, NULL, set_step, set_final},
};

const tsql_registration tsql_reg_stats = {.what = "statistics functions", TSQL_FNS(stats_fns)};
