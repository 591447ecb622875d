/*
 * view_cache.h — the view_cache module (view_cache.c): a TEMP virtual table holding a
 * view's rows, computed again only when something the view reads has changed.
 */
#ifndef TSQL_VIEW_CACHE_H
#define TSQL_VIEW_CACHE_H

#include <sqlite3ext.h>

#include "catalog/catalog.h"

/* Registers the module "view_cache" (before the views of sql/ that create such tables). */
int tsql_register_view_cache(sqlite3 *db, tsql_catalog *c);

#endif
