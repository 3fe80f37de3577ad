/* hp-capture-schema.h - the capture format's SQL, from schema.sql
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The SQL that creates a capture's tables at HP_CAPTURE_FORMAT_VERSION:
 * schema.sql up to its migrations. */
char *hp_schema_creation_sql  (void);
/* The SQL that brings a capture of @from_version up to
 * HP_CAPTURE_FORMAT_VERSION, each step followed by its PRAGMA
 * user_version; "" when there is nothing to do. To be run inside the
 * transaction of a write. */
char *hp_schema_migration_sql (gint64 from_version);

G_END_DECLS
