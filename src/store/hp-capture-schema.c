/* hp-capture-schema.c - the capture format's SQL, from schema.sql
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * schema.sql is compiled in whole (hp_capture_schema_sql). Its tables come
 * first and are always the newest version; after a line "-- @migrations"
 * come the steps that bring an older capture up to date, each after a line
 * "-- @version N". Keeping both in the one file keeps the format's
 * documentation and its history in one place: a new column goes into the
 * table and into a new step, side by side.
 */

#define G_LOG_DOMAIN "hp-store"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "store/hp-capture-writer.h"
#include "store/hp-capture-schema.h"

extern const char hp_capture_schema_sql[];

#define MIGRATIONS_MARK "\n-- @migrations\n"
#define VERSION_MARK    "\n-- @version "

char *
hp_schema_creation_sql (void)
{
  const char *mark = strstr (hp_capture_schema_sql, MIGRATIONS_MARK);

  g_assert (mark != NULL);
  return g_strndup (hp_capture_schema_sql, mark - hp_capture_schema_sql + 1);
}

char *
hp_schema_migration_sql (gint64 from_version)
{
  const char *p = strstr (hp_capture_schema_sql, MIGRATIONS_MARK);
  GString *sql = g_string_new (NULL);

  g_assert (p != NULL);
  while ((p = strstr (p, VERSION_MARK)) != NULL)
    {
      const char *body;
      const char *end;
      gint64 version;

      p += strlen (VERSION_MARK);
      version = g_ascii_strtoll (p, NULL, 10);
      body = strchr (p, '\n');
      g_assert (body != NULL && version > 1 && version <= HP_CAPTURE_FORMAT_VERSION);
      end = strstr (body, VERSION_MARK);
      if (end == NULL)
        end = body + strlen (body);
      if (version > from_version)
        {
          g_string_append_len (sql, body, end - body);
          g_string_append_printf (sql, "\nPRAGMA user_version = %" G_GINT64_FORMAT ";\n", version);
        }
      p = end;
    }
  return g_string_free (sql, FALSE);
}
