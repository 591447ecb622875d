/*
 * hta_table.c — the one shape of the per-trace HTA tables (see vtab/hta.h): their
 * arguments checked and read once per trace, HTA's event table of the trace fetched,
 * the table's fill run, and the hidden argument columns answered; the rest of a row is
 * the table's own column function.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <string.h>

#include "vtab/hta.h"

static const char *const subset_names[] = {"all", "device", "launch", "steps"};

static int given(sqlite3_value *v)
{
    return v && sqlite3_value_type(v) != SQLITE_NULL;
}

/* a whole number >= 0 */
static int count_arg(sqlite3_value *v, int64_t *out)
{
    *out = sqlite3_value_int64(v);
    return sqlite3_value_numeric_type(v) == SQLITE_INTEGER && *out >= 0 ? 0 : -1;
}

/* reads argument k (of kind) into s; 0, or -1 with *err set */
static int read_arg(const char *table, int kind, sqlite3_value *v, tsql_hta_scan *s, char **err)
{
    switch (kind) {
    case TSQL_HTA_ARG_SUBSET:
        if (!given(v)) return 0;
        for (int k = 0; k < 4; k++)
            if (sqlite3_value_text(v) && !strcmp((const char *)sqlite3_value_text(v), subset_names[k])) {
                s->subset = k;
                return 0;
            }
        *err = sqlite3_mprintf("%s: subset must be 'all', 'device', 'launch' or 'steps'", table);
        return -1;
    case TSQL_HTA_ARG_KEPT:
        if (!given(v)) return 0;
        if (sqlite3_value_numeric_type(v) == SQLITE_INTEGER && (sqlite3_value_int64(v) & ~(int64_t)1) == 0) {
            s->kept = sqlite3_value_int(v);
            return 0;
        }
        *err = sqlite3_mprintf("%s: kept_only must be 1 (rows the last-step cut keeps) or 0 (all)", table);
        return -1;
    case TSQL_HTA_ARG_ANNOTATION:
    case TSQL_HTA_ARG_OPERATOR:
        if (!given(v)) return 0;
        if (sqlite3_value_type(v) == SQLITE_TEXT) {
            s->text = (const char *)sqlite3_value_text(v);
            s->text_len = (size_t)sqlite3_value_bytes(v);
            return s->text ? 0 : -1; /* NULL: out of memory */
        }
        *err = kind == TSQL_HTA_ARG_ANNOTATION
                   ? sqlite3_mprintf("%s: annotation must be text (part of an event name, '' = the whole trace)", table)
                   : sqlite3_mprintf("%s: operator_name must be text (part of the operator's name)", table);
        return -1;
    case TSQL_HTA_ARG_INSTANCE:
        if (!given(v) || !count_arg(v, &s->number)) return 0;
        *err = sqlite3_mprintf("%s: instance_id must be a whole number >= 0 (which annotation, from 0)", table);
        return -1;
    case TSQL_HTA_ARG_MIN_KERNELS:
        if (!given(v) || !count_arg(v, &s->number)) return 0;
        *err = sqlite3_mprintf("%s: min_pattern_len must be a whole number >= 0 (kernels an op launches at least)",
                               table);
        return -1;
    default: return 0;
    }
}

void tsql_hta_scan_free(void *scan)
{
    tsql_hta_scan *s = scan;
    if (s && s->free_data) s->free_data(s->data);
    sqlite3_free(s);
}

long tsql_hta_materialize(tsql_cursor *cur, tsql_trace *t, char **err)
{
    const tsql_hta_table *h = (const tsql_hta_table *)cur->table;
    const char *table = h->base.name;
    tsql_hta_scan a = {.t = t, .subset = TSQL_HTA_SUB_ALL};
    int rounding = 1;
    sqlite3_value *v = cur->param[0];
    if (given(v)) {
        if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER || (sqlite3_value_int64(v) & ~(int64_t)1)) {
            *err = sqlite3_mprintf("%s: time_rounding must be 1 (HTA's rounding to whole µs) or 0 (none)", table);
            return -1;
        }
        rounding = sqlite3_value_int(v);
    }
    for (int k = 1; k < h->base.nparams; k++) {
        int kind = h->args[k - 1];
        if (kind == TSQL_HTA_ARG_ANNOTATION) a.text = "ProfilerStep", a.text_len = strlen(a.text);
        if (kind == TSQL_HTA_ARG_MIN_KERNELS) a.number = 3;
        if (read_arg(table, kind, cur->param[k], &a, err)) return -1;
    }
    a.r = tsql_trace_cached(t, rounding ? &tsql_hta_rows_kind : &tsql_hta_rows_unrounded_kind);
    a.rounded_table = rounding;
    tsql_hta_scan *s = a.r ? sqlite3_malloc(sizeof *s) : NULL;
    if (!s) return -1;
    *s = a;
    long n = h->fill(s, err);
    if (n < 0) {
        tsql_hta_scan_free(s);
        return -1;
    }
    cur->mat = s;
    return n;
}

int tsql_hta_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const tsql_hta_table *h = (const tsql_hta_table *)cur->table;
    const tsql_hta_scan *s = cur->mat;
    if (col == h->base.params[0]) {
        sqlite3_result_int(ctx, s->rounded_table);
        return SQLITE_OK;
    }
    for (int k = 1; k < h->base.nparams; k++) {
        if (col != h->base.params[k]) continue;
        switch (h->args[k - 1]) {
        case TSQL_HTA_ARG_SUBSET: sqlite3_result_text(ctx, subset_names[s->subset], -1, SQLITE_STATIC); break;
        case TSQL_HTA_ARG_KEPT: sqlite3_result_int(ctx, s->kept); break;
        case TSQL_HTA_ARG_ANNOTATION:
        case TSQL_HTA_ARG_OPERATOR:
            if (s->text) sqlite3_result_text(ctx, s->text, (int)s->text_len, SQLITE_TRANSIENT);
            break;
        default: sqlite3_result_int64(ctx, s->number); break;
        }
        return SQLITE_OK;
    }
    return h->column(cur, s, ctx, col);
}

void tsql_hta_result_owned(sqlite3_context *ctx, char *text, size_t len)
{
    sqlite3_result_text64(ctx, text, len, sqlite3_free, SQLITE_UTF8);
}
