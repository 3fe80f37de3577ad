/* hp-summary-library.c - the per-user library of summaries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * This file owns $XDG_DATA_HOME/hotpath/summaries.db (library.sql): every
 * summary written into a capture is mirrored here per program, so that a
 * later capture of the program can offer it. The capture stays the
 * record: nothing here is needed to read one, and every failure here is a
 * warning for the caller, never a reason to lose a capture's data.
 *
 * The file is read as carefully as a capture (hp-capture.c): defensive
 * mode, no extensions, triggers or views, a length limit, a check of its
 * application id, version and columns, at open and in every write.
 * Another Hotpath may be writing it:
 * a short busy timeout, then "locked", rather than a window that waits.
 */

#define G_LOG_DOMAIN "hp-store"

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "store/hp-capture-writer.h"
#include "store/hp-store-db.h"
#include "store/hp-summary-library.h"

extern const char hp_summary_library_sql[];

/* Long enough for another Hotpath's one-row write, short enough not to be
 * felt when the library is locked for good. */
#define BUSY_TIMEOUT_MS 250
#define MAX_VALUE_LENGTH (16 * 1024 * 1024)
#define MAX_ROWS HP_STORE_MAX_SUMMARY_ROWS
/* What one list of a program's summaries reads at most, as a capture's
 * summaries are read (hp-capture.c): each text to
 * HP_STORE_MAX_SUMMARY_CHARS, a path key or path of at most MAX_KEY_BYTES
 * (a call path 10 000 calls deep of long C++ names; a longer one is no
 * summary), times and the capture's name cut, and rows after
 * MAX_LIST_BYTES in all left out, as rows after MAX_ROWS are: a library
 * of 10 000 rows of 16 MB each is read as 64 MB, not 160 GB. */
#define MAX_KEY_BYTES  (1024 * 1024)
#define MAX_LIST_BYTES HP_STORE_MAX_SUMMARY_BYTES

struct _HpSummaryLibrary {
  char    *path;
  sqlite3 *db;
};

static const char *columns[] = {
  "program", "path_key", "path", "text", "created", "updated", "capture", "share",
};

char *
hp_summary_library_default_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "hotpath", "summaries.db", NULL);
}

static void
set_error_db (GError           **error,
              HpSummaryLibrary  *self,
              const char        *what)
{
  int rc = sqlite3_errcode (self->db) & 0xff;
  g_autofree char *message = g_utf8_make_valid (sqlite3_errmsg (self->db), -1);

  if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
    g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                 _("%s: %s: the summary library is locked by another program"), self->path, what);
  else if (rc == SQLITE_NOTADB)
    g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_NOT_CAPTURE,
                 _("%s: %s: not a Hotpath summary library (not a SQLite database)"), self->path, what);
  else if (rc == SQLITE_CORRUPT)
    g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                 _("%s: %s: the summary library is corrupt (%s)"), self->path, what, message);
  else
    g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO, "%s: %s: %s", self->path, what, message);
}

static gboolean
query_int (HpSummaryLibrary *self,
           const char       *sql,
           gint64           *out)
{
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL);

  if (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      *out = sqlite3_column_int64 (stmt, 0);
      rc = SQLITE_OK;
    }
  sqlite3_finalize (stmt);
  return rc == SQLITE_OK;
}

/* Refuses anything but the tables of library.sql as this build knows
 * them. Run inside a transaction: at open, and again by every write, in
 * its own, since another program may have changed the file in between
 * (a CHECK added after the open ran with every summary mirrored). */
static gboolean
check_library (HpSummaryLibrary  *self,
               const char        *what,
               GError           **error)
{
  gint64 app_id = 0, version = 0;
  sqlite3_stmt *stmt = NULL;
  guint n_found = 0;
  int rc;

  if (!query_int (self, "PRAGMA application_id", &app_id) ||
      !query_int (self, "PRAGMA user_version", &version))
    {
      set_error_db (error, self, what);
      return FALSE;
    }
  if (app_id != HP_SUMMARY_LIBRARY_APPLICATION_ID)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_NOT_CAPTURE,
                   _("%s: not a Hotpath summary library (another program's database); "
                     "move it away and Hotpath starts a new one"), self->path);
      return FALSE;
    }
  if (!hp_store_db_check_version (self->path, "summary library", version, HP_SUMMARY_LIBRARY_VERSION, error))
    return FALSE;

  if (sqlite3_prepare_v2 (self->db, "SELECT name, hidden FROM pragma_table_xinfo ('summaries')",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, what);
      return FALSE;
    }
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (stmt, 0);

      if (sqlite3_column_int (stmt, 1) != 0)
        break;  /* a generated column: refused below */
      for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
        if (name != NULL && g_ascii_strcasecmp (name, columns[i]) == 0)
          n_found++;
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    {
      set_error_db (error, self, what);
      return FALSE;
    }
  if (rc == SQLITE_ROW || n_found != G_N_ELEMENTS (columns))
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                   _("%s: the summary library's table summaries is not the one Hotpath writes; "
                     "move the file away and Hotpath starts a new one"), self->path);
      return FALSE;
    }
  /* anything may have replaced the file: a CHECK or a DEFAULT of its own
   * would run with each summary mirrored into it */
  {
    static const char *const written[] = { "summaries", NULL };

    /* mirrored with INSERT OR REPLACE: its keys too */
    return hp_store_db_check_declared (self->db, self->path, _("the summary library's format"),
                                       hp_summary_library_sql, written, 1, written, error);
  }
}

/* Checks the library as check_library() does; creates its tables in a
 * file that is still empty. */
static gboolean
check_or_create (HpSummaryLibrary  *self,
                 GError           **error)
{
  gint64 app_id = 0, version = 0, n_objects = 0;
  gboolean ok;

  if (sqlite3_exec (self->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK ||
      !query_int (self, "PRAGMA application_id", &app_id) ||
      !query_int (self, "PRAGMA user_version", &version) ||
      !query_int (self, "SELECT count(*) FROM sqlite_master", &n_objects))
    {
      set_error_db (error, self, "cannot open the summary library");
      sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
      return FALSE;
    }
  if (app_id == 0 && version == 0 && n_objects == 0)
    {
      g_autofree char *sql = g_strdup_printf ("PRAGMA application_id = %d; PRAGMA user_version = %d; %s",
                                              HP_SUMMARY_LIBRARY_APPLICATION_ID,
                                              HP_SUMMARY_LIBRARY_VERSION, hp_summary_library_sql);

      if (sqlite3_exec (self->db, sql, NULL, NULL, NULL) != SQLITE_OK ||
          sqlite3_exec (self->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        {
          set_error_db (error, self, "cannot create the summary library");
          sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
          return FALSE;
        }
      return TRUE;
    }
  ok = check_library (self, "cannot read the summary library", error);
  sqlite3_exec (self->db, "COMMIT", NULL, NULL, NULL);
  return ok;
}

/* Opens the transaction of a write, in which the library is checked
 * again: the file may have changed since it was opened. */
static gboolean
begin_write (HpSummaryLibrary  *self,
             const char        *what,
             GError           **error)
{
  int moved = 0;

  if (sqlite3_exec (self->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, what);
      return FALSE;
    }
  /* another file renamed over it: what is written would be lost */
  if (sqlite3_file_control (self->db, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   _("%s: %s: the file was replaced or removed since it was opened"), self->path, what);
      sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
      return FALSE;
    }
  if (!check_library (self, what, error))
    {
      sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
      return FALSE;
    }
  return TRUE;
}

/* Commits when @ok, else rolls back. */
static gboolean
end_write (HpSummaryLibrary  *self,
           gboolean           ok,
           const char        *what,
           GError           **error)
{
  if (ok && sqlite3_exec (self->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, what);
      ok = FALSE;
    }
  if (!ok)
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
  return ok;
}

HpSummaryLibrary *
hp_summary_library_open (const char  *path,
                         GError     **error)
{
  g_autoptr(HpSummaryLibrary) self = NULL;
  g_autofree char *folder = NULL;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_new0 (HpSummaryLibrary, 1);
  self->path = path != NULL ? g_strdup (path) : hp_summary_library_default_path ();
  folder = g_path_get_dirname (self->path);
  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   _("%s: cannot create the summary library's folder: %s"), self->path, g_strerror (saved));
      return NULL;
    }
  if (g_file_test (self->path, G_FILE_TEST_EXISTS) && !g_file_test (self->path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_NOT_CAPTURE,
                   _("%s: not a Hotpath summary library (not a regular file)"), self->path);
      return NULL;
    }
  self->db = hp_store_db_open (self->path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                               "the summary library", MAX_VALUE_LENGTH, BUSY_TIMEOUT_MS, error);
  if (self->db == NULL)
    return NULL;
  if (!check_or_create (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

void
hp_summary_library_close (HpSummaryLibrary *self)
{
  if (self == NULL)
    return;
  if (self->db != NULL)
    sqlite3_close_v2 (self->db);
  g_free (self->path);
  g_free (self);
}

const char *
hp_summary_library_get_path (HpSummaryLibrary *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->path;
}

/* @copied: @summary is a copy of one written before (an import), which
 * must not replace a text of its path written since: the library keeps
 * the later one. A new edit always replaces, whatever time a hostile
 * capture may have put in the row it replaces. */
static gboolean
put (HpSummaryLibrary        *self,
     const char              *program,
     const HpCaptureSummary  *summary,
     gboolean                 copied,
     GError                 **error)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
  gboolean delete;
  sqlite3_stmt *stmt = NULL;
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (program != NULL, FALSE);
  g_return_val_if_fail (summary != NULL && summary->path_key != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  delete = summary->text == NULL || summary->text[0] == '\0';
  ok = sqlite3_prepare_v2 (self->db,
                           delete ?
                           "DELETE FROM summaries WHERE program = ?1 AND path_key = ?2" :
                           copied ?
                           "INSERT INTO summaries "
                           "(program, path_key, path, text, created, updated, capture, share) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) "
                           "ON CONFLICT (program, path_key) DO UPDATE SET path = excluded.path, "
                           "text = excluded.text, created = excluded.created, updated = excluded.updated, "
                           "capture = excluded.capture, share = excluded.share "
                           "WHERE excluded.updated >= summaries.updated" :
                           "INSERT OR REPLACE INTO summaries "
                           "(program, path_key, path, text, created, updated, capture, share) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                           -1, &stmt, NULL) == SQLITE_OK;
  if (ok)
    {
      sqlite3_bind_text (stmt, 1, program, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 2, summary->path_key, -1, SQLITE_STATIC);
      if (!delete)
        {
          sqlite3_bind_text (stmt, 3, summary->path ? summary->path : "", -1, SQLITE_STATIC);
          sqlite3_bind_text (stmt, 4, summary->text, -1, SQLITE_STATIC);
          sqlite3_bind_text (stmt, 5, summary->created ? summary->created : stamp, -1, SQLITE_STATIC);
          sqlite3_bind_text (stmt, 6, summary->updated ? summary->updated : stamp, -1, SQLITE_STATIC);
          if (summary->capture != NULL)
            sqlite3_bind_text (stmt, 7, summary->capture, -1, SQLITE_STATIC);
          if (isfinite (summary->share))
            sqlite3_bind_double (stmt, 8, summary->share);
        }
      ok = sqlite3_step (stmt) == SQLITE_DONE;
    }
  if (!ok)
    set_error_db (error, self, "cannot save the summary in the summary library");
  sqlite3_finalize (stmt);
  return ok;
}

/* One summary, in a write transaction of its own. */
static gboolean
put_one (HpSummaryLibrary        *self,
         const char              *program,
         const HpCaptureSummary  *summary,
         gboolean                 copied,
         GError                 **error)
{
  const char *what = "cannot save the summary in the summary library";

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!begin_write (self, what, error))
    return FALSE;
  return end_write (self, put (self, program, summary, copied, error), what, error);
}

gboolean
hp_summary_library_put (HpSummaryLibrary        *self,
                        const char              *program,
                        const HpCaptureSummary  *summary,
                        GError                 **error)
{
  return put_one (self, program, summary, FALSE, error);
}

gboolean
hp_summary_library_put_copy (HpSummaryLibrary        *self,
                             const char              *program,
                             const HpCaptureSummary  *summary,
                             GError                 **error)
{
  return put_one (self, program, summary, TRUE, error);
}

gboolean
hp_summary_library_put_all (HpSummaryLibrary  *self,
                            const char        *program,
                            GPtrArray         *summaries,
                            gboolean           copied,
                            GError           **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (summaries != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* one transaction: a write of its own each was a sync each, a minute
   * and a half for the 19 000 of an import */
  if (!begin_write (self, "cannot save the summaries in the summary library", error))
    return FALSE;
  for (guint i = 0; i < summaries->len; i++)
    if (!put (self, program, g_ptr_array_index (summaries, i), copied, error))
      return end_write (self, FALSE, "cannot save the summaries in the summary library", error);
  return end_write (self, TRUE, "cannot save the summaries in the summary library", error);
}

GPtrArray *
hp_summary_library_list (HpSummaryLibrary  *self,
                         const char        *program,
                         GError           **error)
{
  g_autoptr(GPtrArray) rows = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 bytes = 0;
  int rc = SQLITE_DONE;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (program != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* Rows that are no summary (a key or text that is not text, a key too
   * long) are left out by SQLite, within the LIMIT, so that millions of
   * them are not stepped through one by one either. */
  if (sqlite3_prepare_v2 (self->db,
                          "SELECT path_key, path, " HP_STORE_SUMMARY_TEXT_COLUMN ", "
                          "substr (created, 1, 64), substr (updated, 1, 64), substr (capture, 1, 4096), share "
                          "FROM summaries WHERE program = ?1 AND typeof (path_key) = 'text' "
                          "AND typeof (text) = 'text' "
                          "AND length (CAST (path_key AS BLOB)) <= ?2 AND length (CAST (path AS BLOB)) <= ?2 "
                          "ORDER BY path_key LIMIT ?3",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, "cannot read the summary library");
      return NULL;
    }
  sqlite3_bind_text (stmt, 1, program, -1, SQLITE_STATIC);
  sqlite3_bind_int (stmt, 2, MAX_KEY_BYTES);
  sqlite3_bind_int (stmt, 3, MAX_ROWS);
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hp_capture_summary_free);
  while (bytes <= MAX_LIST_BYTES && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      HpCaptureSummary *summary;
      double share = NAN;
      int type = sqlite3_column_type (stmt, 6);

      for (int i = 0; i < 6; i++)
        bytes += sqlite3_column_bytes (stmt, i);
      if (bytes > MAX_LIST_BYTES)
        break;
      if (type == SQLITE_FLOAT || type == SQLITE_INTEGER)
        share = sqlite3_column_double (stmt, 6);
      summary = g_new0 (HpCaptureSummary, 1);
      summary->path_key = hp_store_db_column_text (stmt, 0);
      summary->path = hp_store_db_column_text (stmt, 1) ?: g_strdup ("");
      summary->text = hp_store_db_column_summary_text (stmt, 2);
      summary->created = hp_store_db_column_text (stmt, 3);
      summary->updated = hp_store_db_column_text (stmt, 4);
      summary->capture = hp_store_db_column_text (stmt, 5);
      summary->share = isfinite (share) && share >= 0 && share <= 100 ? share : NAN;
      summary->found = TRUE;
      g_ptr_array_add (rows, summary);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    {
      set_error_db (error, self, "cannot read the summary library");
      return NULL;
    }
  return g_steal_pointer (&rows);
}

gboolean
hp_summary_library_mirror (const char              *program,
                           const HpCaptureSummary  *summary,
                           gboolean                 copied,
                           GError                 **error)
{
  g_autoptr(HpSummaryLibrary) self = hp_summary_library_open (NULL, error);

  return self != NULL && put_one (self, program, summary, copied, error);
}
