/* hp-capture-writer.c - writes a .hotpath capture (SQLite)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * This file owns the writing side of the capture format (schema.sql): it
 * creates the database, interns modules, functions, frames and stack nodes,
 * appends samples, and finishes the capture (aggregates, complete flag,
 * single-file journal mode).
 *
 * Interning never asks SQLite: every identity lives in an in-memory hash
 * table whose value is the id the writer assigned, and a new identity costs
 * one prepared INSERT. The recorder interns a stack node for every frame of
 * every sample, so the stack table is keyed by a plain (parent, frame) pair
 * and a lookup allocates nothing.
 *
 * A transaction is always open. It is committed every HP_WRITER_BATCH
 * samples and on hp_capture_writer_flush(), so a process killed at any
 * moment leaves the last committed batch behind, a valid capture. With WAL
 * and synchronous=NORMAL a commit does not fsync, which keeps batches cheap.
 *
 * The void functions cannot report errors; the first SQLite error is kept
 * and returned by the next flush or finish.
 */

#define G_LOG_DOMAIN "hp-store"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "store/hp-capture-writer.h"

#define HP_WRITER_BATCH 8192

extern const char hp_capture_schema_sql[];

G_DEFINE_QUARK (hp-store-error-quark, hp_store_error)

typedef struct {
  gint64 parent_id;
  gint64 frame_id;
  gint64 id;
} StackKey;

struct _HpCaptureWriter {
  char *path;
  sqlite3 *db;

  sqlite3_stmt *insert_metadata;
  sqlite3_stmt *upsert_process;
  sqlite3_stmt *upsert_thread;
  sqlite3_stmt *insert_module;
  sqlite3_stmt *insert_function;
  sqlite3_stmt *insert_frame;
  sqlite3_stmt *insert_stack;
  sqlite3_stmt *insert_sample;

  /* Composite keys (see append_*), owned -> GSIZE_TO_POINTER (id) */
  GHashTable *modules;
  GHashTable *functions;
  GHashTable *frames;
  /* StackKey* (owned, key and value) */
  GHashTable *stacks;
  GString *keybuf;

  gint64 n_modules;
  gint64 n_functions;
  gint64 n_frames;
  gint64 n_stacks;

  guint64 n_samples;
  guint   batch_samples;

  GError  *error;     /* first deferred error */
  gboolean in_txn;
  gboolean finished;
};

static guint
stack_key_hash (gconstpointer p)
{
  const StackKey *k = p;
  guint64 h = (guint64) k->parent_id * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  h ^= (guint64) k->frame_id + G_GUINT64_CONSTANT (0x632BE59BD9B4E019) + (h << 6) + (h >> 2);
  return (guint) (h ^ (h >> 32));
}

static gboolean
stack_key_equal (gconstpointer a,
                 gconstpointer b)
{
  const StackKey *ka = a;
  const StackKey *kb = b;

  return ka->parent_id == kb->parent_id && ka->frame_id == kb->frame_id;
}

/* Appends a string so that NULL, "" and any content stay distinct and no
 * concatenation of fields is ambiguous: "N" or "S<len>:<bytes>". */
static void
append_str (GString    *buf,
            const char *s)
{
  if (s == NULL)
    g_string_append_c (buf, 'N');
  else
    {
      g_string_append_printf (buf, "S%zu:", strlen (s));
      g_string_append (buf, s);
    }
}

static void
append_int (GString *buf,
            gint64   v)
{
  g_string_append_printf (buf, "I%" G_GINT64_FORMAT ";", v);
}

static void
set_sqlite_error (GError     **error,
                  sqlite3     *db,
                  const char  *path,
                  const char  *what)
{
  g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
               "%s: %s: %s", path, what, sqlite3_errmsg (db));
}

static void
record_error (HpCaptureWriter *self,
              const char      *what)
{
  if (self->error != NULL)
    return;
  set_sqlite_error (&self->error, self->db, self->path, what);
  g_warning ("%s", self->error->message);
}

static gboolean
exec (HpCaptureWriter  *self,
      const char       *sql,
      GError          **error)
{
  char *errmsg = NULL;

  if (sqlite3_exec (self->db, sql, NULL, NULL, &errmsg) != SQLITE_OK)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   "%s: cannot write the capture: %s", self->path,
                   errmsg ? errmsg : sqlite3_errmsg (self->db));
      sqlite3_free (errmsg);
      return FALSE;
    }
  return TRUE;
}

static gboolean
prepare (HpCaptureWriter  *self,
         sqlite3_stmt    **stmt,
         const char       *sql,
         GError          **error)
{
  if (sqlite3_prepare_v3 (self->db, sql, -1, SQLITE_PREPARE_PERSISTENT, stmt, NULL) != SQLITE_OK)
    {
      set_sqlite_error (error, self->db, self->path, "cannot prepare a statement");
      return FALSE;
    }
  return TRUE;
}

/* Runs a bound INSERT and resets it; errors are deferred. */
static void
step (HpCaptureWriter *self,
      sqlite3_stmt    *stmt,
      const char      *what)
{
  if (sqlite3_step (stmt) != SQLITE_DONE)
    record_error (self, what);
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
}

static void
bind_text (sqlite3_stmt *stmt,
           int           i,
           const char   *s)
{
  if (s == NULL)
    sqlite3_bind_null (stmt, i);
  else
    sqlite3_bind_text (stmt, i, s, -1, SQLITE_TRANSIENT);
}

static void
finalize_statements (HpCaptureWriter *self)
{
  g_clear_pointer (&self->insert_metadata, sqlite3_finalize);
  g_clear_pointer (&self->upsert_process, sqlite3_finalize);
  g_clear_pointer (&self->upsert_thread, sqlite3_finalize);
  g_clear_pointer (&self->insert_module, sqlite3_finalize);
  g_clear_pointer (&self->insert_function, sqlite3_finalize);
  g_clear_pointer (&self->insert_frame, sqlite3_finalize);
  g_clear_pointer (&self->insert_stack, sqlite3_finalize);
  g_clear_pointer (&self->insert_sample, sqlite3_finalize);
}

static void
close_db (HpCaptureWriter *self)
{
  finalize_statements (self);
  if (self->db != NULL)
    {
      sqlite3_close_v2 (self->db);
      self->db = NULL;
    }
  self->in_txn = FALSE;
}

static void
unlink_files (const char *path)
{
  static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *p = g_strconcat (path, suffixes[i], NULL);
      g_unlink (p);
    }
}

HpCaptureWriter *
hp_capture_writer_new (const char  *path,
                       GError     **error)
{
  g_autoptr(HpCaptureWriter) self = NULL;
  int fd;
  int rc;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   "%s: cannot create the capture: the file already exists", path);
      return NULL;
    }

  self = g_new0 (HpCaptureWriter, 1);
  self->path = g_strdup (path);
  self->modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->functions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->frames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->stacks = g_hash_table_new_full (stack_key_hash, stack_key_equal, g_free, NULL);
  self->keybuf = g_string_sized_new (256);

  /* SQLite has no O_EXCL; should another process create the file between
   * the check above and here, the schema below fails ("table already
   * exists") rather than mixing two captures. The file is created here
   * first because, when it cannot create it, SQLite retries read-only and
   * keeps that retry's errno: a read-only folder would say "No such file". */
  fd = g_open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      int errsv = errno;

      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   "%s: cannot create the capture: %s", path, g_strerror (errsv));
      return NULL;
    }
  close (fd);

  rc = sqlite3_open_v2 (path, &self->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        NULL);
  if (rc != SQLITE_OK)
    {
      const char *reason = self->db ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc);

      /* "unable to open database file" says less than the system's reason */
      if (self->db != NULL && sqlite3_system_errno (self->db) != 0)
        reason = g_strerror (sqlite3_system_errno (self->db));
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   "%s: cannot create the capture: %s", path, reason);
      close_db (self);
      g_unlink (path);
      return NULL;
    }

  sqlite3_extended_result_codes (self->db, 1);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);

  if (!exec (self, "PRAGMA journal_mode=WAL;"
                   "PRAGMA synchronous=NORMAL;"
                   "BEGIN;"
                   "PRAGMA application_id=" G_STRINGIFY (HP_CAPTURE_APPLICATION_ID) ";"
                   "PRAGMA user_version=" G_STRINGIFY (HP_CAPTURE_FORMAT_VERSION) ";", error) ||
      !exec (self, hp_capture_schema_sql, error) ||
      !exec (self, "COMMIT; BEGIN;", error))
    goto fail;
  self->in_txn = TRUE;

  if (!prepare (self, &self->insert_metadata,
                "INSERT OR REPLACE INTO metadata (key, value) VALUES (?, ?)", error) ||
      !prepare (self, &self->upsert_process,
                "INSERT INTO processes (pid, command) VALUES (?, ?) "
                "ON CONFLICT (pid) DO UPDATE SET command = excluded.command", error) ||
      !prepare (self, &self->upsert_thread,
                "INSERT INTO threads (tid, pid, name) VALUES (?, ?, ?) "
                "ON CONFLICT (tid) DO UPDATE SET pid = excluded.pid, name = excluded.name", error) ||
      !prepare (self, &self->insert_module,
                "INSERT INTO modules (id, path, build_id, is_kernel) VALUES (?, ?, ?, ?)", error) ||
      !prepare (self, &self->insert_function,
                "INSERT INTO functions (id, name, module_id, file, line) VALUES (?, ?, ?, ?, ?)", error) ||
      !prepare (self, &self->insert_frame,
                "INSERT INTO frames (id, function_id, file, line, is_inline, offset) "
                "VALUES (?, ?, ?, ?, ?, ?)", error) ||
      !prepare (self, &self->insert_stack,
                "INSERT INTO stacks (id, parent_id, frame_id) VALUES (?, ?, ?)", error) ||
      !prepare (self, &self->insert_sample,
                "INSERT INTO samples (time, tid, cpu, stack_id, weight) VALUES (?, ?, ?, ?, ?)", error))
    goto fail;

  hp_capture_writer_set_metadata (self, "hotpath_version", PACKAGE_VERSION);

  return g_steal_pointer (&self);

fail:
  hp_capture_writer_abort (self);
  return NULL;
}

void
hp_capture_writer_set_metadata (HpCaptureWriter *self,
                                const char      *key,
                                const char      *value)
{
  g_return_if_fail (self != NULL && self->db != NULL);
  g_return_if_fail (key != NULL);

  sqlite3_bind_text (self->insert_metadata, 1, key, -1, SQLITE_TRANSIENT);
  bind_text (self->insert_metadata, 2, value);
  step (self, self->insert_metadata, "cannot write metadata");
}

void
hp_capture_writer_set_metadata_int (HpCaptureWriter *self,
                                    const char      *key,
                                    gint64           value)
{
  g_return_if_fail (self != NULL && self->db != NULL);
  g_return_if_fail (key != NULL);

  sqlite3_bind_text (self->insert_metadata, 1, key, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (self->insert_metadata, 2, value);
  step (self, self->insert_metadata, "cannot write metadata");
}

void
hp_capture_writer_set_process (HpCaptureWriter *self,
                               gint32           pid,
                               const char      *command)
{
  g_return_if_fail (self != NULL && self->db != NULL);

  sqlite3_bind_int (self->upsert_process, 1, pid);
  bind_text (self->upsert_process, 2, command);
  step (self, self->upsert_process, "cannot write a process");
}

void
hp_capture_writer_set_thread (HpCaptureWriter *self,
                              gint32           tid,
                              gint32           pid,
                              const char      *name)
{
  g_return_if_fail (self != NULL && self->db != NULL);

  sqlite3_bind_int (self->upsert_thread, 1, tid);
  sqlite3_bind_int (self->upsert_thread, 2, pid);
  bind_text (self->upsert_thread, 3, name);
  step (self, self->upsert_thread, "cannot write a thread");
}

/* Looks self->keybuf up in @table; returns its id, or 0 when new (the
 * caller then inserts the row and calls remember()). */
static gint64
lookup (HpCaptureWriter *self,
        GHashTable      *table)
{
  return (gint64) GPOINTER_TO_SIZE (g_hash_table_lookup (table, self->keybuf->str));
}

static void
remember (HpCaptureWriter *self,
          GHashTable      *table,
          gint64           id)
{
  g_hash_table_insert (table,
                       g_strndup (self->keybuf->str, self->keybuf->len),
                       GSIZE_TO_POINTER ((gsize) id));
}

gint64
hp_capture_writer_intern_module (HpCaptureWriter *self,
                                 const char      *path,
                                 const char      *build_id,
                                 gboolean         is_kernel)
{
  gint64 id;

  g_return_val_if_fail (self != NULL && self->db != NULL, 0);

  g_string_truncate (self->keybuf, 0);
  append_str (self->keybuf, path);
  append_str (self->keybuf, build_id);
  append_int (self->keybuf, !!is_kernel);
  if ((id = lookup (self, self->modules)) != 0)
    return id;

  id = ++self->n_modules;
  sqlite3_bind_int64 (self->insert_module, 1, id);
  bind_text (self->insert_module, 2, path);
  bind_text (self->insert_module, 3, build_id);
  sqlite3_bind_int (self->insert_module, 4, !!is_kernel);
  step (self, self->insert_module, "cannot write a module");
  remember (self, self->modules, id);
  return id;
}

gint64
hp_capture_writer_intern_function (HpCaptureWriter *self,
                                   const char      *name,
                                   gint64           module_id,
                                   const char      *file,
                                   guint            line)
{
  gint64 id;

  g_return_val_if_fail (self != NULL && self->db != NULL, 0);

  g_string_truncate (self->keybuf, 0);
  append_str (self->keybuf, name);
  append_int (self->keybuf, module_id);
  append_str (self->keybuf, file);
  append_int (self->keybuf, line);
  if ((id = lookup (self, self->functions)) != 0)
    return id;

  id = ++self->n_functions;
  sqlite3_bind_int64 (self->insert_function, 1, id);
  /* name is NOT NULL in the schema: an unnamed function is "" */
  sqlite3_bind_text (self->insert_function, 2, name ? name : "", -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (self->insert_function, 3, module_id);
  bind_text (self->insert_function, 4, file);
  sqlite3_bind_int64 (self->insert_function, 5, line);
  step (self, self->insert_function, "cannot write a function");
  remember (self, self->functions, id);
  return id;
}

gint64
hp_capture_writer_intern_frame (HpCaptureWriter *self,
                                gint64           function_id,
                                const char      *file,
                                guint            line,
                                gboolean         is_inline,
                                guint64          offset)
{
  gint64 id;

  g_return_val_if_fail (self != NULL && self->db != NULL, 0);

  g_string_truncate (self->keybuf, 0);
  append_int (self->keybuf, function_id);
  append_str (self->keybuf, file);
  append_int (self->keybuf, line);
  append_int (self->keybuf, !!is_inline);
  if ((id = lookup (self, self->frames)) != 0)
    return id;

  id = ++self->n_frames;
  sqlite3_bind_int64 (self->insert_frame, 1, id);
  sqlite3_bind_int64 (self->insert_frame, 2, function_id);
  bind_text (self->insert_frame, 3, file);
  sqlite3_bind_int64 (self->insert_frame, 4, line);
  sqlite3_bind_int (self->insert_frame, 5, !!is_inline);
  sqlite3_bind_int64 (self->insert_frame, 6, (gint64) offset);
  step (self, self->insert_frame, "cannot write a frame");
  remember (self, self->frames, id);
  return id;
}

gint64
hp_capture_writer_intern_stack (HpCaptureWriter *self,
                                gint64           parent_id,
                                gint64           frame_id)
{
  StackKey key = { parent_id, frame_id, 0 };
  StackKey *found;

  g_return_val_if_fail (self != NULL && self->db != NULL, 0);
  g_return_val_if_fail (parent_id >= 0 && parent_id <= self->n_stacks, 0);

  if ((found = g_hash_table_lookup (self->stacks, &key)) != NULL)
    return found->id;

  found = g_new (StackKey, 1);
  *found = key;
  found->id = ++self->n_stacks;
  g_hash_table_add (self->stacks, found);

  sqlite3_bind_int64 (self->insert_stack, 1, found->id);
  sqlite3_bind_int64 (self->insert_stack, 2, parent_id);
  sqlite3_bind_int64 (self->insert_stack, 3, frame_id);
  step (self, self->insert_stack, "cannot write a stack");
  return found->id;
}

void
hp_capture_writer_add_sample (HpCaptureWriter *self,
                              guint64          time,
                              gint32           tid,
                              gint32           cpu,
                              gint64           stack_id,
                              guint64          weight)
{
  sqlite3_stmt *stmt;

  g_return_if_fail (self != NULL && self->db != NULL);
  g_return_if_fail (!self->finished);

  stmt = self->insert_sample;
  sqlite3_bind_int64 (stmt, 1, (gint64) time);
  sqlite3_bind_int (stmt, 2, tid);
  sqlite3_bind_int (stmt, 3, cpu);
  sqlite3_bind_int64 (stmt, 4, stack_id);
  sqlite3_bind_int64 (stmt, 5, (gint64) weight);
  /* every column is bound each time: no clear_bindings needed */
  if (sqlite3_step (stmt) != SQLITE_DONE)
    record_error (self, "cannot write a sample");
  sqlite3_reset (stmt);

  self->n_samples++;
  if (++self->batch_samples >= HP_WRITER_BATCH)
    {
      g_autoptr(GError) error = NULL;

      if (!hp_capture_writer_flush (self, &error) && self->error == NULL)
        {
          g_warning ("%s", error->message);
          self->error = g_steal_pointer (&error);
        }
    }
}

guint64
hp_capture_writer_get_n_samples (HpCaptureWriter *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_samples;
}

static gboolean
take_deferred_error (HpCaptureWriter  *self,
                     GError          **error)
{
  if (self->error == NULL)
    return TRUE;
  g_propagate_error (error, g_steal_pointer (&self->error));
  return FALSE;
}

gboolean
hp_capture_writer_flush (HpCaptureWriter  *self,
                         GError          **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (self->db != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  self->batch_samples = 0;
  if (!take_deferred_error (self, error))
    return FALSE;
  if (self->in_txn)
    {
      if (!exec (self, "COMMIT", error))
        return FALSE;
      self->in_txn = FALSE;
    }
  if (!self->finished)
    {
      if (!exec (self, "BEGIN", error))
        return FALSE;
      self->in_txn = TRUE;
    }
  return TRUE;
}

gboolean
hp_capture_writer_finish (HpCaptureWriter  *self,
                          GError          **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (self->db != NULL, FALSE);
  g_return_val_if_fail (!self->finished, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!take_deferred_error (self, error))
    return FALSE;

  /* The aggregate and the complete flag are one transaction with the last
   * batch: a reader sees either a complete capture or none of them. */
  if (!self->in_txn)
    {
      if (!exec (self, "BEGIN", error))
        return FALSE;
      self->in_txn = TRUE;
    }
  if (!exec (self,
             "DELETE FROM stack_counts;"
             "INSERT INTO stack_counts (stack_id, tid, samples, weight) "
             "  SELECT stack_id, tid, count(*), sum(weight) FROM samples "
             "  GROUP BY stack_id, tid;"
             "INSERT OR REPLACE INTO metadata (key, value) VALUES ('complete', '1');",
             error))
    return FALSE;
  if (!exec (self, "COMMIT", error))
    return FALSE;
  self->in_txn = FALSE;
  self->finished = TRUE;

  /* One file again: move the WAL into the database and drop it. */
  finalize_statements (self);
  if (!exec (self, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE;", error))
    return FALSE;

  return TRUE;
}

void
hp_capture_writer_abort (HpCaptureWriter *self)
{
  g_return_if_fail (self != NULL);

  if (self->db != NULL)
    {
      if (self->in_txn)
        sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
      close_db (self);
      unlink_files (self->path);
    }
}

void
hp_capture_writer_free (HpCaptureWriter *self)
{
  if (self == NULL)
    return;

  /* Not finished: keep what was written (the capture opens as cut short). */
  if (self->db != NULL && self->in_txn)
    {
      if (sqlite3_exec (self->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        g_warning ("%s: cannot write the capture: %s", self->path, sqlite3_errmsg (self->db));
    }
  close_db (self);

  g_clear_pointer (&self->modules, g_hash_table_unref);
  g_clear_pointer (&self->functions, g_hash_table_unref);
  g_clear_pointer (&self->frames, g_hash_table_unref);
  g_clear_pointer (&self->stacks, g_hash_table_unref);
  if (self->keybuf != NULL)
    g_string_free (self->keybuf, TRUE);
  g_clear_error (&self->error);
  g_free (self->path);
  g_free (self);
}
