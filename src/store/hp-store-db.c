/* hp-store-db.c - opening a SQLite file of Hotpath's that may be hostile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Captures are mailed around and the summary library is a file in the
 * user's home that anything may have replaced: both are opened as hostile
 * input, with the same SQLite settings, here once. What each then checks
 * (application id, tables, columns) stays with its reader.
 */

#define G_LOG_DOMAIN "hp-store"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "store/hp-capture-writer.h"
#include "store/hp-store-db.h"

const guint8 hp_store_db_journal_magic[8] = { 0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7 };

sqlite3 *
hp_store_db_open (const char  *path,
                  int          flags,
                  const char  *what,
                  int          max_value_length,
                  int          busy_ms,
                  GError     **error)
{
  sqlite3 *db = NULL;
  int rc;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (what != NULL, NULL);

  rc = sqlite3_open_v2 (path, &db, flags, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO, _("%s: cannot open %s: %s"),
                   path, what, db != NULL ? sqlite3_errmsg (db) : sqlite3_errstr (rc));
      sqlite3_close_v2 (db);
      return NULL;
    }
  sqlite3_extended_result_codes (db, 1);
  sqlite3_db_config (db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
  sqlite3_db_config (db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
  /* A trigger in a mailed file would run its SQL when a summary is saved,
   * a view would run a query of its author's in place of a table: neither
   * ever runs. The readers refuse them too, with their names. */
  sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
  sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
  /* expressions of a hostile schema (a column's DEFAULT) cannot build a
   * bigger value than the file's own ever hold */
  sqlite3_limit (db, SQLITE_LIMIT_LENGTH, max_value_length);
  sqlite3_busy_timeout (db, busy_ms);
  return db;
}

gboolean
hp_store_db_file_starts_with (const char   *path,
                              const guint8 *magic,
                              gsize         n,
                              gboolean     *missing)
{
  guint8 header[16];
  gssize got;
  int fd;

  g_return_val_if_fail (n <= sizeof header, FALSE);

  fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0);
  if (missing != NULL)
    *missing = fd < 0 && errno == ENOENT;
  if (fd < 0)
    return FALSE;
  do
    got = read (fd, header, n);
  while (got < 0 && errno == EINTR);
  close (fd);
  return got == (gssize) n && memcmp (header, magic, n) == 0;
}

gboolean
hp_store_db_is_journal (const char *path)
{
  return hp_store_db_file_starts_with (path, hp_store_db_journal_magic, sizeof hp_store_db_journal_magic, NULL);
}

gboolean
hp_store_db_check_version (const char  *path,
                           const char  *what,
                           gint64       version,
                           int          supported,
                           GError     **error)
{
  if (version <= supported)
    return TRUE;
  g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_VERSION,
               _("%s: %s version %" PRId64 " is newer than this Hotpath supports (%d); "
                 "update Hotpath"), path, what, version, supported);
  return FALSE;
}

G_STATIC_ASSERT (HP_STORE_MAX_SUMMARY_CHARS + 1 == 262145);

char *
hp_store_db_column_text (sqlite3_stmt *stmt,
                         int           i)
{
  const char *text;

  if (sqlite3_column_type (stmt, i) == SQLITE_NULL)
    return NULL;
  text = (const char *) sqlite3_column_text (stmt, i);
  if (text == NULL)  /* out of memory */
    return g_strdup ("");
  return g_utf8_make_valid (text, sqlite3_column_bytes (stmt, i));
}

char *
hp_store_db_column_summary_text (sqlite3_stmt *stmt,
                                 int           i)
{
  char *text = hp_store_db_column_text (stmt, i);
  g_autofree char *whole = NULL;

  if (text == NULL || g_utf8_strlen (text, HP_STORE_MAX_SUMMARY_CHARS + 1) <= HP_STORE_MAX_SUMMARY_CHARS)
    return text;
  whole = text;
  return g_strdup_printf ("%.*s\n\n[\u2026 cut: Hotpath reads the first %d characters of a summary]",
                          (int) (g_utf8_offset_to_pointer (whole, HP_STORE_MAX_SUMMARY_CHARS) - whole), whole,
                          HP_STORE_MAX_SUMMARY_CHARS);
}
