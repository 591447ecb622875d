/* extension.c — helpers shared by the extension perf models; see extension.h. */
#include "perfmodel/extension.h"

#include <math.h>
#include <string.h>

int pm_is(const pm_ctx *c, const char *cls) { return c->cls && strcmp(c->cls, cls) == 0; }

double pm_dtb(const char *type, double d)
{
    static const struct { const char *name; double b; } tab[] = {
        {"Float8_e4m3fn", 1}, {"Float8_e4m3fnuz", 1}, {"Float8_e5m2", 1}, {"Float8_e5m2fnuz", 1},
        {"FP8", 1}, {"c10::Float8_e4m3fn", 1}, {"c10::Float8_e4m3fnuz", 1},
        {"FP4", 0.5}, {"c10::Float4_e2m1fn_x2", 0.5},
        {"BFloat16", 2}, {"Float16", 2}, {"Half", 2}, {"c10::BFloat16", 2}, {"c10::Half", 2},
        {"Float32", 4}, {"Float", 4}, {"c10::Float", 4},
    };
    if (!type) return d;
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
        if (strcmp(type, tab[i].name) == 0) return tab[i].b;
    return d;
}

int64_t pm_numel(pm_ctx *c, const pm_shape *s) { return pm_prod(c, s->d, s->n); }

int pm_dims_n(pm_ctx *c, int i, int n, pm_shape *s)
{
    if (pm_dims(c, i, s)) return -1;
    if (n >= 0 && s->n != n)
        return pm_err(c, "%s: Input Dims[%d] has %d entries, expected %d", c->name, i, s->n, n);
    return 0;
}

int pm_dims_nonempty(const pm_ctx *c, int i)
{
    const cJSON *v = pm_at_opt(c->dims, i);
    return v && cJSON_IsArray(v) && cJSON_GetArraySize(v) > 0;
}

const cJSON *pm_arg(const pm_ctx *c, const char *key)
{
    const cJSON *v = c->args ? cJSON_GetObjectItemCaseSensitive(c->args, key) : NULL;
    return v && !cJSON_IsNull(v) ? v : NULL;
}
