/*
 * gpu_specs.c — the `gpu_specs` table (peak TFLOPS per compute kind, memory
 * bandwidth, detection patterns) and the functions that read it.
 *
 *   SELECT gpu, matrix_bf16, mem_bw_gbps FROM gpu_specs;
 *   INSERT INTO gpu_specs(gpu, vendor, mem_bw_gbps, matrix_bf16, name_pattern, source)
 *     VALUES ('L40S', 'NVIDIA', 864, 362, 'L40S', 'my lab measurement');
 *   SELECT gpu_spec_for('NVIDIA H100 80GB HBM3');                 -- 'H100'
 *   SELECT gpu_peak_tflops('MI300X', 'matrix_bf16');              -- 708.0
 *   SELECT gpu_roofline(1e12, 1e9, 2000, 'MI300X', 'matrix_bf16');
 *
 * Why an eponymous virtual table (not a TEMP table filled at load time): the rows live
 * in the extension's memory, one copy per connection, so (1) the C functions above read
 * exactly what the table shows, user rows included, without re-entering SQL; (2) loading
 * the extension writes nothing into any schema — it works on read-only and attached
 * databases and never collides with a user's own table; (3) the built-in rows are always
 * there. INSERT, UPDATE and DELETE work for the connection's life (built-in rows can be
 * changed too); they are not transactional (a ROLLBACK does not undo them). Rows a user
 * inserted are searched before the built-in ones by gpu_spec_for(). To keep a copy in a
 * database file: CREATE TABLE my_specs AS SELECT * FROM gpu_specs.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfmodel/gpu_specs.h"
#include "perfmodel/perfmodel.h"
#include "text/jsonout.h"
#include "text/pyrepr.h"
#include "vtab/table.h"
#include "catalog/registration.h"

enum { G_GPU, G_VENDOR, G_MEM_BW, G_MEMORY, G_PEAK0, G_PATTERN = G_PEAK0 + TSQL_GPU_NPEAKS, G_SOURCE, G_NCOL };

typedef struct gs_row {
    sqlite3_int64 rowid;
    char *gpu, *vendor, *pattern, *source; /* sqlite3_malloc'd; NULL = SQL NULL */
    double mem_bw, memory_gb;              /* NAN = NULL */
    double peak[TSQL_GPU_NPEAKS];
    int builtin;
} gs_row;

/* the connection's table (pAux of the module and of the functions) */
typedef struct gs_table {
    gs_row *rows;
    int n, cap;
    sqlite3_int64 next_rowid;
} gs_table;

static char *dup_text(const char *s)
{
    return s ? sqlite3_mprintf("%s", s) : NULL;
}

static void row_clear(gs_row *r)
{
    sqlite3_free(r->gpu);
    sqlite3_free(r->vendor);
    sqlite3_free(r->pattern);
    sqlite3_free(r->source);
}

static void gs_table_free(void *p)
{
    gs_table *t = p;
    if (!t) return;
    for (int i = 0; i < t->n; i++) row_clear(&t->rows[i]);
    sqlite3_free(t->rows);
    sqlite3_free(t);
}

static int gs_grow(gs_table *t)
{
    if (t->n < t->cap) return 0;
    int nc = t->cap ? t->cap * 2 : 16;
    gs_row *nr = sqlite3_realloc64(t->rows, (sqlite3_uint64)nc * sizeof *nr);
    if (!nr) return -1;
    t->rows = nr;
    t->cap = nc;
    return 0;
}

static gs_table *gs_table_new(void)
{
    gs_table *t = sqlite3_malloc(sizeof *t);
    if (!t) return NULL;
    memset(t, 0, sizeof *t);
    size_t n;
    const tsql_gpu_spec *b = tsql_gpu_specs(&n);
    for (size_t i = 0; i < n; i++) {
        if (gs_grow(t)) goto oom;
        gs_row *r = &t->rows[t->n];
        memset(r, 0, sizeof *r);
        r->rowid = ++t->next_rowid;
        r->builtin = 1;
        r->mem_bw = b[i].mem_bw_gbps;
        r->memory_gb = b[i].memory_gb;
        memcpy(r->peak, b[i].peak, sizeof r->peak);
        r->gpu = dup_text(b[i].gpu);
        r->vendor = dup_text(b[i].vendor);
        r->pattern = dup_text(b[i].name_pattern);
        r->source = dup_text(b[i].source);
        t->n++;
        if (!r->gpu || !r->vendor || !r->pattern || !r->source) goto oom;
    }
    return t;
oom:
    gs_table_free(t);
    return NULL;
}

/* row by gpu key (case-insensitive); user rows first */
static const gs_row *gs_find(const gs_table *t, const char *gpu)
{
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < t->n; i++)
            if (t->rows[i].builtin == pass && t->rows[i].gpu && sqlite3_stricmp(t->rows[i].gpu, gpu) == 0)
                return &t->rows[i];
    return NULL;
}

/* ---- the virtual table (the shared machinery, over the connection's rows) ---- */

#define GS_SCHEMA                                                                              \
    "CREATE TABLE x(gpu TEXT, vendor TEXT, mem_bw_gbps REAL, memory_gb REAL, "                 \
    "matrix_fp64 REAL, matrix_fp32 REAL, matrix_tf32 REAL, matrix_fp16 REAL, "                 \
    "matrix_bf16 REAL, matrix_fp8 REAL, matrix_fp4 REAL, matrix_int8 REAL, "                   \
    "vector_fp64 REAL, vector_fp32 REAL, vector_fp16 REAL, vector_bf16 REAL, "                 \
    "name_pattern TEXT, source TEXT)"

static uint32_t gs_nrows(tsql_cursor *cur)
{
    const gs_table *t = tsql_table_data(cur);
    return (uint32_t)t->n;
}

static sqlite3_int64 gs_rowid(tsql_cursor *cur)
{
    const gs_table *t = tsql_table_data(cur);
    return t->rows[cur->row].rowid;
}

static int gs_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const gs_table *t = tsql_table_data(cur);
    const gs_row *r = &t->rows[cur->row];
    switch (col) {
    case G_GPU: tsql_result_text(ctx, r->gpu); break;
    case G_VENDOR: tsql_result_text(ctx, r->vendor); break;
    case G_MEM_BW: tsql_result_real(ctx, r->mem_bw); break;
    case G_MEMORY: tsql_result_real(ctx, r->memory_gb); break;
    case G_PATTERN: tsql_result_text(ctx, r->pattern); break;
    case G_SOURCE: tsql_result_text(ctx, r->source); break;
    default:
        if (col >= G_PEAK0 && col < G_PEAK0 + TSQL_GPU_NPEAKS) tsql_result_real(ctx, r->peak[col - G_PEAK0]);
    }
    return SQLITE_OK;
}

static int set_err(sqlite3_vtab *vt, const char *msg)
{
    sqlite3_free(vt->zErrMsg);
    vt->zErrMsg = sqlite3_mprintf("gpu_specs: %s", msg);
    return SQLITE_CONSTRAINT;
}

/* fills r from the new column values argv[2..]; 0 or an SQLite error code */
static int row_from_values(sqlite3_vtab *vt, gs_row *r, sqlite3_value **cols)
{
    memset(r, 0, sizeof *r);
    char **texts[] = {&r->gpu, &r->vendor, &r->pattern, &r->source};
    static const int tcols[] = {G_GPU, G_VENDOR, G_PATTERN, G_SOURCE};
    for (int k = 0; k < 4; k++) {
        sqlite3_value *v = cols[tcols[k]];
        if (sqlite3_value_type(v) == SQLITE_NULL) continue;
        if (sqlite3_value_type(v) != SQLITE_TEXT)
            return set_err(vt, "gpu, vendor, name_pattern and source must be text");
        *texts[k] = dup_text((const char *)sqlite3_value_text(v));
        if (!*texts[k]) return SQLITE_NOMEM;
    }
    if (!r->gpu || !r->gpu[0]) return set_err(vt, "gpu (the key) must not be NULL or empty");
    double *nums[2 + TSQL_GPU_NPEAKS];
    nums[0] = &r->mem_bw;
    nums[1] = &r->memory_gb;
    for (int k = 0; k < TSQL_GPU_NPEAKS; k++) nums[2 + k] = &r->peak[k];
    for (int k = 0; k < 2 + TSQL_GPU_NPEAKS; k++) {
        sqlite3_value *v = cols[G_MEM_BW + k];
        int ty = sqlite3_value_type(v);
        if (ty == SQLITE_NULL) {
            *nums[k] = NAN;
            continue;
        }
        if (ty == SQLITE_TEXT) ty = sqlite3_value_numeric_type(v);
        if (ty != SQLITE_INTEGER && ty != SQLITE_FLOAT)
            return set_err(vt, "peaks, mem_bw_gbps and memory_gb must be numbers");
        *nums[k] = sqlite3_value_double(v);
    }
    return SQLITE_OK;
}

static int find_rowid(const gs_table *t, sqlite3_int64 rowid)
{
    for (int i = 0; i < t->n; i++)
        if (t->rows[i].rowid == rowid) return i;
    return -1;
}

static int gs_update(sqlite3_vtab *vt, int argc, sqlite3_value **argv, sqlite_int64 *pRowid)
{
    gs_table *t = ((tsql_vtab *)vt)->data;
    int old = -1;
    if (sqlite3_value_type(argv[0]) != SQLITE_NULL) {
        old = find_rowid(t, sqlite3_value_int64(argv[0]));
        if (old < 0) return SQLITE_OK; /* already gone */
    }
    if (argc == 1) { /* DELETE */
        row_clear(&t->rows[old]);
        memmove(&t->rows[old], &t->rows[old + 1], (size_t)(t->n - old - 1) * sizeof *t->rows);
        t->n--;
        return SQLITE_OK;
    }
    gs_row r;
    int rc = row_from_values(vt, &r, argv + 2);
    if (rc != SQLITE_OK) {
        row_clear(&r);
        return rc;
    }
    /* the gpu key is unique (case-insensitive) */
    for (int i = 0; i < t->n; i++)
        if (i != old && t->rows[i].gpu && sqlite3_stricmp(t->rows[i].gpu, r.gpu) == 0) {
            row_clear(&r);
            return set_err(vt, "a row with this gpu already exists (UPDATE it, or DELETE it first)");
        }
    sqlite3_int64 newid;
    if (sqlite3_value_type(argv[1]) == SQLITE_NULL) newid = old >= 0 ? t->rows[old].rowid : t->next_rowid + 1;
    else newid = sqlite3_value_int64(argv[1]);
    int clash = find_rowid(t, newid);
    if (clash >= 0 && clash != old) {
        row_clear(&r);
        return set_err(vt, "rowid already in use");
    }
    r.rowid = newid;
    if (newid > t->next_rowid) t->next_rowid = newid;
    if (old >= 0) {
        r.builtin = t->rows[old].builtin;
        row_clear(&t->rows[old]);
        t->rows[old] = r;
    } else {
        if (gs_grow(t)) {
            row_clear(&r);
            return SQLITE_NOMEM;
        }
        t->rows[t->n++] = r;
    }
    *pRowid = newid;
    return SQLITE_OK;
}

static const tsql_table gs_table_desc = {
    .name = "gpu_specs",
    .schema = GS_SCHEMA,
    .risk = TSQL_TRUSTED, /* writable: a schema changing the session's peaks must be trusted */
    .col_trace = -1,
    .col_trace_id = -1,
    .column = gs_column,
    .own_nrows = gs_nrows,
    .rowid = gs_rowid,
    .update = gs_update,
};

/* ---- functions over the table ---- */

/* gpu_spec_for(device_name): first matching pattern, user rows before built-in ones */
static void fn_gpu_spec_for(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    gs_table *t = sqlite3_user_data(ctx);
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
    const char *name = (const char *)sqlite3_value_text(argv[0]);
    if (!name) return;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < t->n; i++)
            if (t->rows[i].builtin == pass && tsql_gpu_name_match(t->rows[i].pattern, name)) {
                sqlite3_result_text(ctx, t->rows[i].gpu, -1, SQLITE_TRANSIENT);
                return;
            }
}

/* the row of gpu (text arg i); NULL with an error when unknown */
static const gs_row *gpu_arg(sqlite3_context *ctx, sqlite3_value **argv, int i, const char *fn)
{
    gs_table *t = sqlite3_user_data(ctx);
    const char *g = (const char *)sqlite3_value_text(argv[i]);
    const gs_row *r = g ? gs_find(t, g) : NULL;
    if (!r) {
        char *m = sqlite3_mprintf("%s: unknown gpu '%s' (see SELECT gpu FROM gpu_specs)", fn, g ? g : "");
        sqlite3_result_error(ctx, m, -1);
        sqlite3_free(m);
    }
    return r;
}

/* peak TFLOPS of a Compute Spec; NAN when the column is NULL or the spec unknown */
static double peak_of(const gs_row *r, const char *spec)
{
    int k = tsql_gpu_col_index(spec);
    return k < 0 ? NAN : r->peak[k];
}

static void fn_gpu_peak(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) return;
    const gs_row *r = gpu_arg(ctx, argv, 0, "gpu_peak_tflops");
    if (!r) return;
    tsql_result_real(ctx, peak_of(r, (const char *)sqlite3_value_text(argv[1])));
}

static void fn_gpu_mem_bw(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
    const gs_row *r = gpu_arg(ctx, argv, 0, "gpu_mem_bw_gbps");
    if (r) tsql_result_real(ctx, r->mem_bw);
}

/* gpu_roofline(flops, bytes, kernel_us, gpu, compute_spec): roofline() with the peaks
 * looked up; NULL when TraceLens would give no roofline (unknown spec, no bytes, ...) */
static void fn_gpu_roofline(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    double v[3];
    static const char *const names[] = {"flops", "bytes", "kernel_us"};
    for (int i = 0; i < 3; i++) {
        int ty = sqlite3_value_type(argv[i]);
        if (ty == SQLITE_NULL) return;
        if (ty == SQLITE_TEXT) ty = sqlite3_value_numeric_type(argv[i]);
        if (ty != SQLITE_INTEGER && ty != SQLITE_FLOAT) {
            char *m = sqlite3_mprintf("gpu_roofline: %s must be a number", names[i]);
            sqlite3_result_error(ctx, m, -1);
            sqlite3_free(m);
            return;
        }
        v[i] = sqlite3_value_double(argv[i]);
    }
    if (sqlite3_value_type(argv[3]) == SQLITE_NULL || sqlite3_value_type(argv[4]) == SQLITE_NULL) return;
    const gs_row *r = gpu_arg(ctx, argv, 3, "gpu_roofline");
    if (!r) return;
    tsql_roofline rf;
    if (tsql_roofline_eval(v[0], v[1], v[2], peak_of(r, (const char *)sqlite3_value_text(argv[4])), r->mem_bw, &rf))
        return;
    char a[TSQL_PY_FLOAT_BUFSZ], b[TSQL_PY_FLOAT_BUFSZ], c[TSQL_PY_FLOAT_BUFSZ], d[TSQL_PY_FLOAT_BUFSZ];
    tsql_py_float(rf.time_us, a);
    if (isnan(rf.pct)) strcpy(b, "null");
    else tsql_py_float(rf.pct, b);
    tsql_py_float(rf.compute_us, c);
    tsql_py_float(rf.memory_us, d);
    tsql_buf o = {0};
    int first = 1;
    int bad = tsql_bputc(&o, '{') || tsql_json_key(&o, &first, "bound") || tsql_json_text(&o, rf.bound) ||
              tsql_json_key(&o, &first, "roofline_time_us") || tsql_bputs(&o, a) ||
              tsql_json_key(&o, &first, "pct_roofline") || tsql_bputs(&o, b) ||
              tsql_json_key(&o, &first, "compute_us") || tsql_bputs(&o, c) ||
              tsql_json_key(&o, &first, "memory_us") || tsql_bputs(&o, d) || tsql_bputc(&o, '}');
    if (bad) sqlite3_result_error_nomem(ctx);
    else sqlite3_result_text(ctx, o.p, (int)o.n, SQLITE_TRANSIENT);
    free(o.p);
}

static int register_gpu_specs(sqlite3 *db, tsql_catalog *c)
{
    gs_table *t = gs_table_new();
    if (!t) return SQLITE_NOMEM;
    /* the module owns the table: freed when the connection closes */
    int rc = tsql_register_table_data(db, &gs_table_desc, c, t, gs_table_free);
    if (rc != SQLITE_OK) return rc;
    /* these read the connection's (editable) table: innocuous, not deterministic */
    static const tsql_fn_def fns[] = {
        {"gpu_spec_for", 1, TSQL_STATE, fn_gpu_spec_for, NULL, NULL},
        {"gpu_peak_tflops", 2, TSQL_STATE, fn_gpu_peak, NULL, NULL},
        {"gpu_mem_bw_gbps", 1, TSQL_STATE, fn_gpu_mem_bw, NULL, NULL},
        {"gpu_roofline", 5, TSQL_STATE, fn_gpu_roofline, NULL, NULL},
    };
    return tsql_register_fns(db, fns, sizeof fns / sizeof *fns, t);
}

const tsql_registration tsql_reg_gpu_specs = {.what = "gpu_specs", .add = register_gpu_specs};
