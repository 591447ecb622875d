/*
 * markdown.c — md_row(cell, ...): one row of a Markdown (GFM) table, for the report
 * commands' Markdown summaries (the *_md views of sql/report/).
 *
 *   SELECT md_row('op', 'time (ms)');         -- | op | time (ms) |
 *   SELECT md_row('a|b', NULL, 1.5);          -- | a\|b |  | 1.5 |
 *
 * Every cell on one line: a '|' inside a cell is escaped as '\|' (else it would split
 * the cell), a line break (CR, LF) becomes a space (else the row would end there and
 * the rest be read as another row); NULL is an empty cell; numbers print as SQLite's
 * text of them (format them first with printf for fixed decimals).
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdlib.h>
#include <string.h>

#include "catalog/registration.h"
#include "text/pyrepr.h"
#include "util/buf.h"

static void fn_md_row(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    tsql_buf b = {0};
    int bad = tsql_bputc(&b, '|');
    for (int i = 0; i < argc && !bad; i++) {
        const unsigned char *s = sqlite3_value_text(argv[i]);
        int n = sqlite3_value_bytes(argv[i]);
        bad |= tsql_bputc(&b, ' ');
        for (int k = 0; s && k < n && !bad; k++) {
            if (s[k] == '|') bad |= tsql_bput(&b, "\\|", 2);
            else if (s[k] == '\n' || s[k] == '\r') bad |= tsql_bputc(&b, ' ');
            else bad |= tsql_bputc(&b, (char)s[k]);
        }
        bad |= tsql_bput(&b, " |", 2);
    }
    if (bad) {
        free(b.p);
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sqlite3_result_text64(ctx, b.p, b.n, free, SQLITE_UTF8);
}

static const tsql_fn_def markdown_fns[] = {
    {"md_row", -1, TSQL_PURE, fn_md_row, NULL, NULL},
};

const tsql_registration tsql_reg_markdown = {.what = "md_row", TSQL_FNS(markdown_fns)};
