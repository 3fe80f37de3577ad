/* hp-capture.c - reads a .hotpath capture (SQLite)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * This file owns the reading side of the capture format (schema.sql):
 * deciding whether a file is a capture this build can read, loading its
 * tables into the plain arrays of HpCaptureData, and the summaries, the one
 * thing a reader writes.
 *
 * A capture is untrusted input (it may come from another machine), so the
 * connection runs in defensive mode without extension loading, and every
 * reference between tables is checked while loading: the analysis indexes
 * arrays with these ids and must not have to check them again. A violation
 * is HP_STORE_ERROR_CORRUPT, naming the table and row.
 *
 * One HpCapture is one connection; a worker thread opens its own.
 */

#define G_LOG_DOMAIN "hp-store"

#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "store/hp-capture-private.h"

/* The progress handler runs every this many SQLite VM instructions: often
 * enough to stop within a millisecond, rare enough to cost nothing. */
#define PROGRESS_STEPS 10000

/* Work allowed for one operation, in VM instructions per byte of the file
 * (and of its WAL), plus a floor for tiny files. Loading a capture of 1M
 * samples (23 MB) took 180 000 instructions when finished, and 17 million
 * (0.75 a byte) when cut short, as its samples are aggregated then; rows
 * packed as tightly as SQLite can take under 2 a byte. This leaves ten
 * times that, and still stops an endless query in a file of a few MB
 * within a few seconds (SQLite runs 30 to 100 million a second). */
#define WORK_PER_BYTE  16
#define WORK_MIN       (20 * 1000 * 1000)

typedef enum {
  STOP_NONE,
  STOP_CANCELLED,
  STOP_TOO_MUCH_WORK,
} StopReason;

struct _HpCapture {
  char     *path;
  sqlite3  *db;
  /* NULL when summaries can be written, else why not */
  char     *read_only_reason;

  GCancellable *cancellable;
  gint64        work_limit;  /* progress handler calls per operation */
  gint64        work_done;   /* progress handler calls in this operation */
  StopReason    stopped;     /* why the progress handler stopped SQLite */
};

/* Runs in whichever thread runs SQLite on this connection; the cancellable
 * may be cancelled from any thread. */
static int
on_progress (void *user_data)
{
  HpCapture *self = user_data;

  if (self->cancellable != NULL && g_cancellable_is_cancelled (self->cancellable))
    {
      self->stopped = STOP_CANCELLED;
      return 1;
    }
  if (++self->work_done > self->work_limit)
    {
      self->stopped = STOP_TOO_MUCH_WORK;
      return 1;
    }
  return 0;
}

/* Every public operation starts with a fresh work allowance. */
static void
begin_operation (HpCapture *self)
{
  self->work_done = 0;
  self->stopped = STOP_NONE;
}

/* Sets @error from what stopped SQLite; FALSE when nothing did. */
static gboolean
set_error_stopped (GError    **error,
                   HpCapture  *self)
{
  switch (self->stopped)
    {
    case STOP_CANCELLED:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                   "%s: reading the capture was cancelled", self->path);
      return TRUE;
    case STOP_TOO_MUCH_WORK:
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                   "%s: corrupt capture: reading it takes far more work than a capture "
                   "of its size needs (stopped after %" G_GINT64_FORMAT " million SQLite steps)",
                   self->path, self->work_done * PROGRESS_STEPS / 1000000);
      return TRUE;
    case STOP_NONE:
    default:
      return FALSE;
    }
}

static gboolean
check_cancelled (HpCapture  *self,
                 GError    **error)
{
  if (self->cancellable != NULL && g_cancellable_is_cancelled (self->cancellable))
    {
      self->stopped = STOP_CANCELLED;
      return set_error_stopped (error, self);
    }
  return FALSE;
}

static void
set_error_db (GError     **error,
              HpCapture   *self,
              int          code,
              const char  *what)
{
  if (set_error_stopped (error, self))
    return;
  g_set_error (error, HP_STORE_ERROR, code, "%s: %s: %s",
               self->path, what, sqlite3_errmsg (self->db));
}

/* Reads a single integer (a PRAGMA); FALSE when the file is not a
 * database SQLite can read. */
static gboolean
query_int (HpCapture  *self,
           const char *sql,
           gint64     *out,
           int        *rc_out)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    {
      rc = sqlite3_step (stmt);
      if (rc == SQLITE_ROW)
        {
          *out = sqlite3_column_int64 (stmt, 0);
          rc = SQLITE_OK;
        }
    }
  sqlite3_finalize (stmt);
  *rc_out = rc;
  return rc == SQLITE_OK;
}

static gboolean
has_sqlite_header (const char  *path,
                   GError     **error)
{
  static const char magic[16] = "SQLite format 3";
  char header[16] = { 0 };
  FILE *f;
  size_t n;

  if ((f = g_fopen (path, "rb")) == NULL)
    {
      int errsv = errno;

      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   "%s: cannot open the capture: %s", path, g_strerror (errsv));
      return FALSE;
    }
  n = fread (header, 1, sizeof header, f);
  fclose (f);

  if (n != sizeof header || memcmp (header, magic, sizeof header) != 0)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_NOT_CAPTURE,
                   "%s: not a Hotpath capture (not a SQLite database)", path);
      return FALSE;
    }
  return TRUE;
}

/* Why summaries of @path cannot be saved, or NULL. Root passes access(W_OK)
 * on anything, so a file without write permission bits counts as read-only
 * too: the user asked for it to stay unchanged. */
static char *
why_read_only (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  GStatBuf st;

  if (g_access (path, W_OK) != 0 ||
      (g_stat (path, &st) == 0 && (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0))
    return g_strdup_printf ("%s: cannot save summaries: the file is read-only", path);
  /* a rollback journal is created beside the file */
  if (g_access (dir, W_OK) != 0)
    return g_strdup_printf ("%s: cannot save summaries: its folder is read-only", path);
  return NULL;
}

/* Bounds the work of one operation by the size of the file, so that a query
 * made endless by a hostile schema stops with an error. */
static void
set_work_limit (HpCapture *self)
{
  g_autofree char *wal = g_strconcat (self->path, "-wal", NULL);
  GStatBuf st;
  gint64 bytes = 0;

  if (g_stat (self->path, &st) == 0)
    bytes += st.st_size;
  if (g_stat (wal, &st) == 0)
    bytes += st.st_size;
  self->work_limit = MAX (bytes * WORK_PER_BYTE, WORK_MIN) / PROGRESS_STEPS;
}

HpCapture *
hp_capture_open (const char  *path,
                 gboolean     writable,
                 GError     **error)
{
  g_autoptr(HpCapture) self = NULL;
  gint64 app_id = 0;
  gint64 version = 0;
  int flags;
  int rc;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   "%s: cannot open the capture: no such file", path);
      return NULL;
    }
  if (!has_sqlite_header (path, error))
    return NULL;

  self = g_new0 (HpCapture, 1);
  self->path = g_strdup (path);
  if (writable)
    self->read_only_reason = why_read_only (path);
  else
    self->read_only_reason = g_strdup_printf ("%s: cannot save summaries: the capture was opened read-only", path);

  flags = (self->read_only_reason == NULL ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY)
          | SQLITE_OPEN_NOMUTEX;
  rc = sqlite3_open_v2 (path, &self->db, flags, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   "%s: cannot open the capture: %s", path,
                   self->db ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc));
      return NULL;
    }
  sqlite3_extended_result_codes (self->db, 1);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
  /* the recorder may still be committing batches */
  sqlite3_busy_timeout (self->db, 5000);
  set_work_limit (self);
  sqlite3_progress_handler (self->db, PROGRESS_STEPS, on_progress, self);
  begin_operation (self);

  if (!query_int (self, "PRAGMA application_id", &app_id, &rc))
    {
      if ((rc & 0xff) == SQLITE_NOTADB || (rc & 0xff) == SQLITE_CORRUPT)
        g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_NOT_CAPTURE,
                     "%s: not a Hotpath capture (not a SQLite database)", path);
      else
        set_error_db (error, self, HP_STORE_ERROR_IO, "cannot read the capture");
      return NULL;
    }
  if (app_id != HP_CAPTURE_APPLICATION_ID)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_NOT_CAPTURE,
                   "%s: not a Hotpath capture", path);
      return NULL;
    }
  if (!query_int (self, "PRAGMA user_version", &version, &rc))
    {
      set_error_db (error, self, HP_STORE_ERROR_IO, "cannot read the capture");
      return NULL;
    }
  if (version > HP_CAPTURE_FORMAT_VERSION)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_VERSION,
                   "%s: capture format version %" G_GINT64_FORMAT " is newer than this "
                   "Hotpath supports (%d); update Hotpath",
                   path, version, HP_CAPTURE_FORMAT_VERSION);
      return NULL;
    }
  if (version < 1)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_VERSION,
                   "%s: unknown capture format version %" G_GINT64_FORMAT, path, version);
      return NULL;
    }

  return g_steal_pointer (&self);
}

void
hp_capture_close (HpCapture *self)
{
  if (self == NULL)
    return;
  if (self->db != NULL)
    sqlite3_close_v2 (self->db);
  g_clear_object (&self->cancellable);
  g_free (self->read_only_reason);
  g_free (self->path);
  g_free (self);
}

void
hp_capture_set_cancellable (HpCapture    *self,
                            GCancellable *cancellable)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  g_set_object (&self->cancellable, cancellable);
}

const char *
hp_capture_get_path (HpCapture *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->path;
}

char *
hp_capture_get_metadata (HpCapture  *self,
                         const char *key)
{
  sqlite3_stmt *stmt = NULL;
  char *value = NULL;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  begin_operation (self);
  if (sqlite3_prepare_v2 (self->db, "SELECT value FROM metadata WHERE key = ?", -1, &stmt, NULL) != SQLITE_OK)
    return NULL;
  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
  if (sqlite3_step (stmt) == SQLITE_ROW && sqlite3_column_type (stmt, 0) != SQLITE_NULL)
    value = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  return value;
}

/* Loading ------------------------------------------------------------- */

static char *
column_strdup (sqlite3_stmt *stmt,
               int           i)
{
  if (sqlite3_column_type (stmt, i) == SQLITE_NULL)
    return NULL;
  return g_strdup ((const char *) sqlite3_column_text (stmt, i));
}

typedef gboolean (*RowFunc) (HpCapture     *self,
                             HpCaptureData *data,
                             sqlite3_stmt  *stmt,
                             GError       **error);

static gboolean
for_each_row (HpCapture      *self,
              HpCaptureData  *data,
              const char     *sql,
              RowFunc         func,
              GError        **error)
{
  sqlite3_stmt *stmt = NULL;
  gboolean ret = TRUE;
  int rc;

  if (sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, HP_STORE_ERROR_CORRUPT, "cannot read the capture");
      return FALSE;
    }
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      if (!func (self, data, stmt, error))
        {
          ret = FALSE;
          break;
        }
    }
  if (ret && rc != SQLITE_DONE)
    {
      set_error_db (error, self, HP_STORE_ERROR_CORRUPT, "cannot read the capture");
      ret = FALSE;
    }
  sqlite3_finalize (stmt);
  return ret;
}

/* Places row @id of a dense id space into @array, growing it; [0] stays
 * zeroed. The bound keeps a corrupt id from allocating the address space. */
static gpointer
array_slot (HpCapture   *self,
            GArray      *array,
            const char  *table,
            gint64       id,
            GError     **error)
{
  if (id <= 0 || id > (gint64) array->len + 1000000)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                   "%s: corrupt capture: %s has a row with id %" G_GINT64_FORMAT,
                   self->path, table, id);
      return NULL;
    }
  if ((guint) id >= array->len)
    g_array_set_size (array, (guint) id + 1);
  return &g_array_index (array, guint8, (gsize) id * g_array_get_element_size (array));
}

static gboolean
corrupt_ref (HpCapture   *self,
             GError     **error,
             const char  *table,
             gint64       id,
             const char  *column,
             gint64       value)
{
  g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
               "%s: corrupt capture: %s row %" G_GINT64_FORMAT " has %s %" G_GINT64_FORMAT
               ", which does not exist",
               self->path, table, id, column, value);
  return FALSE;
}

static gboolean
load_metadata_row (HpCapture *self, HpCaptureData *data, sqlite3_stmt *stmt, GError **error)
{
  if (sqlite3_column_type (stmt, 0) != SQLITE_NULL)
    g_hash_table_replace (data->metadata,
                          column_strdup (stmt, 0),
                          g_strdup ((const char *) sqlite3_column_text (stmt, 1) ?: ""));
  return TRUE;
}

static gboolean
load_module_row (HpCapture *self, HpCaptureData *data, sqlite3_stmt *stmt, GError **error)
{
  HpCaptureModule *m = array_slot (self, data->modules, "modules", sqlite3_column_int64 (stmt, 0), error);

  if (m == NULL)
    return FALSE;
  m->path = column_strdup (stmt, 1);
  m->build_id = column_strdup (stmt, 2);
  m->is_kernel = sqlite3_column_int (stmt, 3) != 0;
  if (m->path == NULL)
    m->name = g_strdup ("[unknown]");
  else if (m->path[0] == '[')
    m->name = g_strdup (m->path);
  else
    m->name = g_path_get_basename (m->path);
  return TRUE;
}

static gboolean
load_function_row (HpCapture *self, HpCaptureData *data, sqlite3_stmt *stmt, GError **error)
{
  HpCaptureFunction *f = array_slot (self, data->functions, "functions", sqlite3_column_int64 (stmt, 0), error);

  if (f == NULL)
    return FALSE;
  f->name = column_strdup (stmt, 1);
  if (f->name == NULL)
    f->name = g_strdup ("");
  f->module_id = sqlite3_column_int64 (stmt, 2);
  f->file = column_strdup (stmt, 3);
  f->line = (guint) sqlite3_column_int64 (stmt, 4);
  return TRUE;
}

static gboolean
load_frame_row (HpCapture *self, HpCaptureData *data, sqlite3_stmt *stmt, GError **error)
{
  HpCaptureFrame *f = array_slot (self, data->frames, "frames", sqlite3_column_int64 (stmt, 0), error);

  if (f == NULL)
    return FALSE;
  f->function_id = sqlite3_column_int64 (stmt, 1);
  f->file = column_strdup (stmt, 2);
  f->line = (guint) sqlite3_column_int64 (stmt, 3);
  f->is_inline = sqlite3_column_int (stmt, 4) != 0;
  f->offset = (guint64) sqlite3_column_int64 (stmt, 5);
  return TRUE;
}

static gboolean
load_stack_row (HpCapture *self, HpCaptureData *data, sqlite3_stmt *stmt, GError **error)
{
  gint64 id = sqlite3_column_int64 (stmt, 0);
  HpCaptureStack *s = array_slot (self, data->stacks, "stacks", id, error);

  if (s == NULL)
    return FALSE;
  s->parent_id = sqlite3_column_int64 (stmt, 1);
  s->frame_id = sqlite3_column_int64 (stmt, 2);
  /* the analysis builds trees in one pass in id order */
  if (s->parent_id < 0 || s->parent_id >= id)
    return corrupt_ref (self, error, "stacks", id, "parent_id", s->parent_id);
  return TRUE;
}

static gboolean
load_count_row (HpCapture *self, HpCaptureData *data, sqlite3_stmt *stmt, GError **error)
{
  HpCaptureStackCount c;

  c.stack_id = sqlite3_column_int64 (stmt, 0);
  c.tid = sqlite3_column_int (stmt, 1);
  c.samples = (guint64) sqlite3_column_int64 (stmt, 2);
  c.weight = (guint64) sqlite3_column_int64 (stmt, 3);
  if (c.stack_id < 0 || c.stack_id >= (gint64) data->stacks->len)
    return corrupt_ref (self, error, "samples of thread", c.tid, "stack_id", c.stack_id);
  g_array_append_val (data->stack_counts, c);
  return TRUE;
}

static gboolean
load_thread_row (HpCapture *self, HpCaptureData *data, sqlite3_stmt *stmt, GError **error)
{
  HpCaptureThread t;

  t.tid = sqlite3_column_int (stmt, 0);
  t.pid = sqlite3_column_int (stmt, 1);
  t.name = column_strdup (stmt, 2);
  g_array_append_val (data->threads, t);
  return TRUE;
}

static gboolean
load_process_row (HpCapture *self, HpCaptureData *data, sqlite3_stmt *stmt, GError **error)
{
  HpCaptureProcess p;

  p.pid = sqlite3_column_int (stmt, 0);
  p.command = column_strdup (stmt, 1);
  g_array_append_val (data->processes, p);
  return TRUE;
}

static void
clear_module (gpointer p)
{
  HpCaptureModule *m = p;

  g_free (m->path);
  g_free (m->name);
  g_free (m->build_id);
}

static void
clear_function (gpointer p)
{
  HpCaptureFunction *f = p;

  g_free (f->name);
  g_free (f->file);
}

static void
clear_frame (gpointer p)
{
  g_free (((HpCaptureFrame *) p)->file);
}

static void
clear_thread (gpointer p)
{
  g_free (((HpCaptureThread *) p)->name);
}

static void
clear_process (gpointer p)
{
  g_free (((HpCaptureProcess *) p)->command);
}

static GArray *
new_id_array (gsize          element_size,
              GDestroyNotify clear)
{
  GArray *array = g_array_new (FALSE, TRUE, element_size);

  g_array_set_clear_func (array, clear);
  g_array_set_size (array, 1);  /* [0] unused, zeroed */
  return array;
}

/* Checks the references the analysis follows without checking. */
static gboolean
check_references (HpCapture      *self,
                  HpCaptureData  *data,
                  GError        **error)
{
  for (guint i = 1; i < data->functions->len; i++)
    {
      const HpCaptureFunction *f = &g_array_index (data->functions, HpCaptureFunction, i);

      if (f->name == NULL)
        return corrupt_ref (self, error, "functions", i, "id", i);
      if (f->module_id < 0 || f->module_id >= (gint64) data->modules->len)
        return corrupt_ref (self, error, "functions", i, "module_id", f->module_id);
    }
  for (guint i = 1; i < data->frames->len; i++)
    {
      const HpCaptureFrame *f = &g_array_index (data->frames, HpCaptureFrame, i);

      if (f->function_id <= 0 || f->function_id >= (gint64) data->functions->len)
        return corrupt_ref (self, error, "frames", i, "function_id", f->function_id);
    }
  for (guint i = 1; i < data->stacks->len; i++)
    {
      const HpCaptureStack *s = &g_array_index (data->stacks, HpCaptureStack, i);

      if (s->frame_id <= 0 || s->frame_id >= (gint64) data->frames->len)
        return corrupt_ref (self, error, "stacks", i, "frame_id", s->frame_id);
    }
  return TRUE;
}

HpCaptureData *
hp_capture_load (HpCapture  *self,
                 GError    **error)
{
  g_autoptr(HpCaptureData) data = NULL;
  g_autofree char *complete = NULL;
  gboolean ok;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  begin_operation (self);
  if (check_cancelled (self, error))
    return NULL;

  data = g_new0 (HpCaptureData, 1);
  data->modules = new_id_array (sizeof (HpCaptureModule), clear_module);
  data->functions = new_id_array (sizeof (HpCaptureFunction), clear_function);
  data->frames = new_id_array (sizeof (HpCaptureFrame), clear_frame);
  data->stacks = new_id_array (sizeof (HpCaptureStack), NULL);
  data->stack_counts = g_array_new (FALSE, TRUE, sizeof (HpCaptureStackCount));
  data->threads = g_array_new (FALSE, TRUE, sizeof (HpCaptureThread));
  g_array_set_clear_func (data->threads, clear_thread);
  data->processes = g_array_new (FALSE, TRUE, sizeof (HpCaptureProcess));
  g_array_set_clear_func (data->processes, clear_process);
  data->metadata = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  /* One read transaction: a recorder committing batches meanwhile does not
   * give us samples that reference stacks we did not read. */
  if (sqlite3_exec (self->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, HP_STORE_ERROR_IO, "cannot read the capture");
      return NULL;
    }

  ok = for_each_row (self, data, "SELECT key, value FROM metadata", load_metadata_row, error) &&
       for_each_row (self, data, "SELECT id, path, build_id, is_kernel FROM modules ORDER BY id",
                     load_module_row, error) &&
       for_each_row (self, data, "SELECT id, name, module_id, file, line FROM functions ORDER BY id",
                     load_function_row, error) &&
       for_each_row (self, data, "SELECT id, function_id, file, line, is_inline, offset FROM frames ORDER BY id",
                     load_frame_row, error) &&
       for_each_row (self, data, "SELECT id, parent_id, frame_id FROM stacks ORDER BY id",
                     load_stack_row, error) &&
       for_each_row (self, data, "SELECT tid, pid, name FROM threads ORDER BY tid",
                     load_thread_row, error) &&
       for_each_row (self, data, "SELECT pid, command FROM processes ORDER BY pid",
                     load_process_row, error);

  if (ok)
    {
      const char *complete_value = g_hash_table_lookup (data->metadata, "complete");

      /* A capture cut short has no aggregate: build it from the samples. */
      if (g_strcmp0 (complete_value, "1") == 0)
        ok = for_each_row (self, data,
                           "SELECT stack_id, tid, samples, weight FROM stack_counts",
                           load_count_row, error);
      else
        ok = for_each_row (self, data,
                           "SELECT stack_id, tid, count(*), sum(weight) FROM samples "
                           "GROUP BY stack_id, tid",
                           load_count_row, error);
    }

  sqlite3_exec (self->db, "COMMIT", NULL, NULL, NULL);

  if (!ok || !check_references (self, data, error))
    return NULL;
  /* cancelled after SQLite's last step: the caller no longer wants it */
  if (check_cancelled (self, error))
    return NULL;

  return g_steal_pointer (&data);
}

void
hp_capture_data_free (HpCaptureData *data)
{
  if (data == NULL)
    return;
  g_clear_pointer (&data->modules, g_array_unref);
  g_clear_pointer (&data->functions, g_array_unref);
  g_clear_pointer (&data->frames, g_array_unref);
  g_clear_pointer (&data->stacks, g_array_unref);
  g_clear_pointer (&data->stack_counts, g_array_unref);
  g_clear_pointer (&data->threads, g_array_unref);
  g_clear_pointer (&data->processes, g_array_unref);
  g_clear_pointer (&data->metadata, g_hash_table_unref);
  g_free (data);
}

/* Summaries ----------------------------------------------------------- */

char *
hp_capture_get_summary (HpCapture   *self,
                        const char  *path_key,
                        GError     **error)
{
  sqlite3_stmt *stmt = NULL;
  char *text = NULL;
  int rc;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (path_key != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  begin_operation (self);
  if (sqlite3_prepare_v2 (self->db, "SELECT text FROM summaries WHERE path_key = ?", -1, &stmt, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, HP_STORE_ERROR_CORRUPT, "cannot read summaries");
      return NULL;
    }
  sqlite3_bind_text (stmt, 1, path_key, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    text = column_strdup (stmt, 0);
  else if (rc != SQLITE_DONE)
    set_error_db (error, self, HP_STORE_ERROR_IO, "cannot read summaries");
  sqlite3_finalize (stmt);
  return text;
}

/* Sets the summary of a call path; a NULL or empty @text deletes it. */
gboolean
hp_capture_set_summary (HpCapture   *self,
                        const char  *path_key,
                        const char  *readable_path,
                        const char  *text,
                        GError     **error)
{
  g_autoptr(GDateTime) now = NULL;
  g_autofree char *stamp = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean delete = (text == NULL || text[0] == '\0');
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path_key != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->read_only_reason != NULL)
    {
      g_set_error_literal (error, HP_STORE_ERROR, HP_STORE_ERROR_READ_ONLY, self->read_only_reason);
      return FALSE;
    }

  begin_operation (self);
  now = g_date_time_new_now_utc ();
  stamp = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");

  if (sqlite3_exec (self->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, HP_STORE_ERROR_IO, "cannot save the summary");
      return FALSE;
    }
  ok = sqlite3_prepare_v2 (self->db,
                           delete ?
                           "DELETE FROM summaries WHERE path_key = ?1" :
                           "INSERT INTO summaries (path_key, path, text, created, updated) "
                           "VALUES (?1, ?2, ?3, ?4, ?4) "
                           "ON CONFLICT (path_key) DO UPDATE SET "
                           "  path = excluded.path, text = excluded.text, updated = excluded.updated",
                           -1, &stmt, NULL) == SQLITE_OK;
  if (ok)
    {
      sqlite3_bind_text (stmt, 1, path_key, -1, SQLITE_STATIC);
      if (!delete)
        {
          sqlite3_bind_text (stmt, 2, readable_path ? readable_path : "", -1, SQLITE_STATIC);
          sqlite3_bind_text (stmt, 3, text, -1, SQLITE_STATIC);
          sqlite3_bind_text (stmt, 4, stamp, -1, SQLITE_STATIC);
        }
      ok = sqlite3_step (stmt) == SQLITE_DONE;
    }
  sqlite3_finalize (stmt);
  if (ok)
    ok = sqlite3_exec (self->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
  if (!ok)
    {
      int code = (sqlite3_errcode (self->db) & 0xff) == SQLITE_READONLY ?
                 HP_STORE_ERROR_READ_ONLY : HP_STORE_ERROR_IO;

      set_error_db (error, self, code, "cannot save the summary");
      sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
      return FALSE;
    }
  return TRUE;
}

GHashTable *
hp_capture_list_summaries (HpCapture  *self,
                           GError    **error)
{
  g_autoptr(GHashTable) table = NULL;
  sqlite3_stmt *stmt = NULL;
  int rc;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  begin_operation (self);
  if (sqlite3_prepare_v2 (self->db, "SELECT path_key, text FROM summaries", -1, &stmt, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, HP_STORE_ERROR_CORRUPT, "cannot read summaries");
      return NULL;
    }
  table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      char *key = column_strdup (stmt, 0);

      if (key != NULL)
        g_hash_table_replace (table, key, g_strdup ((const char *) sqlite3_column_text (stmt, 1) ?: ""));
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      set_error_db (error, self, HP_STORE_ERROR_IO, "cannot read summaries");
      return NULL;
    }
  return g_steal_pointer (&table);
}

/* Tests -------------------------------------------------------------- */

gboolean
hp_capture_run_sql_for_testing (HpCapture   *self,
                                const char  *sql,
                                gint64       work_limit,
                                GError     **error)
{
  gint64 saved_limit = self->work_limit;
  sqlite3_stmt *stmt = NULL;
  int rc;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (sql != NULL, FALSE);

  begin_operation (self);
  if (work_limit > 0)
    self->work_limit = work_limit / PROGRESS_STEPS;
  rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
      ;
  sqlite3_finalize (stmt);
  self->work_limit = saved_limit;
  if (rc != SQLITE_OK && rc != SQLITE_DONE)
    {
      set_error_db (error, self, HP_STORE_ERROR_CORRUPT, "cannot read the capture");
      return FALSE;
    }
  return TRUE;
}

/* Samples ------------------------------------------------------------- */

static int
compare_samples (gconstpointer a,
                 gconstpointer b)
{
  const HpCaptureSample *sa = a, *sb = b;

  if (sa->tid != sb->tid)
    return sa->tid < sb->tid ? -1 : 1;
  if (sa->time != sb->time)
    return sa->time < sb->time ? -1 : 1;
  return 0;
}

GArray *
hp_capture_load_samples (HpCapture           *self,
                         const HpCaptureData *data,
                         GError             **error)
{
  g_autoptr(GArray) samples = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 row = 0;
  int rc;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  begin_operation (self);
  if (check_cancelled (self, error))
    return NULL;
  if (sqlite3_prepare_v2 (self->db, "SELECT time, tid, stack_id, weight FROM samples", -1, &stmt, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, HP_STORE_ERROR_CORRUPT, "cannot read the samples");
      return NULL;
    }
  samples = g_array_new (FALSE, FALSE, sizeof (HpCaptureSample));
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      HpCaptureSample s;
      gint64 time = sqlite3_column_int64 (stmt, 0);
      gint64 tid = sqlite3_column_int64 (stmt, 1);
      gint64 stack_id = sqlite3_column_int64 (stmt, 2);
      gint64 weight = sqlite3_column_int64 (stmt, 3);

      row++;
      for (int i = 0; i < 4; i++)
        if (sqlite3_column_type (stmt, i) != SQLITE_INTEGER)
          {
            g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                         "%s: corrupt capture: samples row %" G_GINT64_FORMAT " has a %s that is not an integer",
                         self->path, row, sqlite3_column_name (stmt, i));
            sqlite3_finalize (stmt);
            return NULL;
          }
      if (time < 0 || weight < 0 || tid < G_MININT32 || tid > G_MAXINT32
          || stack_id < 0 || stack_id >= (gint64) data->stacks->len)
        {
          g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                       "%s: corrupt capture: samples row %" G_GINT64_FORMAT " is out of range "
                       "(time %" G_GINT64_FORMAT ", tid %" G_GINT64_FORMAT ", stack %" G_GINT64_FORMAT
                       ", weight %" G_GINT64_FORMAT ")",
                       self->path, row, time, tid, stack_id, weight);
          sqlite3_finalize (stmt);
          return NULL;
        }
      s.time = (guint64) time;
      s.weight = (guint64) weight;
      s.stack_id = (guint32) stack_id;
      s.tid = (gint32) tid;
      g_array_append_val (samples, s);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      set_error_db (error, self, HP_STORE_ERROR_CORRUPT, "cannot read the samples");
      return NULL;
    }
  /* the recorder writes in time order per batch; sorting is cheap then */
  g_array_sort (samples, compare_samples);
  return g_steal_pointer (&samples);
}

HpCaptureData *
hp_capture_data_new_with_counts (const HpCaptureData *data,
                                 GArray              *stack_counts)
{
  HpCaptureData *copy;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (stack_counts != NULL, NULL);

  copy = g_new0 (HpCaptureData, 1);
  copy->modules = g_array_ref (data->modules);
  copy->functions = g_array_ref (data->functions);
  copy->frames = g_array_ref (data->frames);
  copy->stacks = g_array_ref (data->stacks);
  copy->stack_counts = stack_counts;
  copy->threads = g_array_ref (data->threads);
  copy->processes = g_array_ref (data->processes);
  copy->metadata = g_hash_table_ref (data->metadata);
  return copy;
}
