/* tree_diff_names.c — TraceDiff's name normalisation (docs/diff.md, "How the trees are
 * merged"): the names the edit distance compares. */
#include "analysis/tree_diff_names.h"

#include <stdlib.h>
#include <string.h>

static int is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static int is_digit(char c) { return c >= '0' && c <= '9'; }
/* Python's \s on the characters a name holds (ASCII; \x1c-\x1f count as whitespace) */
static int is_space(unsigned char c) { return c == ' ' || (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x1f); }

int tsql_diff_norm_name(const char *s, size_t n, int strip, tsql_buf *out)
{
    tsql_buf a = {0};
    int rc = -1;
    out->n = 0;
    if (tsql_bput(out, "", 0)) return -1;
    /* 1. 0x<hex>+ -> 0xXXXX */
    for (size_t i = 0; i < n;) {
        if (s[i] == '0' && i + 2 < n + 0 && s[i + 1] == 'x' && is_hex(s[i + 2])) {
            size_t k = i + 2;
            while (k < n && is_hex(s[k])) k++;
            if (tsql_bput(&a, "0xXXXX", 6)) goto out;
            i = k;
        } else {
            if (tsql_bput(&a, s + i, 1)) goto out;
            i++;
        }
    }
    if (!a.p && tsql_bput(&a, "", 0)) goto out;
    /* 2. .py(<digits>): -> .py: */
    for (size_t i = 0; i < a.n;) {
        if (i + 4 < a.n && memcmp(a.p + i, ".py(", 4) == 0 && is_digit(a.p[i + 4])) {
            size_t k = i + 4;
            while (k < a.n && is_digit(a.p[k])) k++;
            if (k + 1 < a.n + 0 && a.p[k] == ')' && a.p[k + 1] == ':') {
                if (tsql_bput(out, ".py:", 4)) goto out;
                i = k + 2;
                continue;
            }
        }
        if (tsql_bput(out, a.p + i, 1)) goto out;
        i++;
    }
    if (strip) {
        /* 3a. ":" + whitespace + a non-whitespace run at the end: removed */
        size_t e = out->n, k = e;
        while (k > 0 && !is_space((unsigned char)out->p[k - 1]) && out->p[k - 1] != '\n') k--;
        if (k < e && k > 0) {
            size_t w = k;
            while (w > 0 && is_space((unsigned char)out->p[w - 1])) w--;
            if (w < k && w > 0 && out->p[w - 1] == ':') {
                /* \S+ may not hold ':' followed by whitespace (it holds none); the
                 * trailing run must start right after the whitespace */
                out->n = w - 1;
                out->p[out->n] = 0;
            }
        }
        /* 3b. <anything>/<name>.py -> <name>.py (no newline before the last '/') */
        size_t m = out->n;
        if (m >= 3 && memcmp(out->p + m - 3, ".py", 3) == 0) {
            size_t sl = m;
            while (sl > 0 && out->p[sl - 1] != '/') sl--;
            int nl = memchr(out->p, '\n', m) != NULL;
            if (sl > 0 && m - sl > 3 && !nl) {
                memmove(out->p, out->p + sl, m - sl);
                out->n = m - sl;
                out->p[out->n] = 0;
            }
        }
    }
    /* 4. the two module-launch APIs are one */
    if ((out->n == 21 && memcmp(out->p, "hipModuleLaunchKernel", 21) == 0) ||
        (out->n == 14 && memcmp(out->p, "cuLaunchKernel", 14) == 0)) {
        out->n = 0;
        if (tsql_bput(out, "__kernel_launch__", 17)) goto out;
    }
    rc = 0;
out:
    free(a.p);
    return rc;
}
