/* hp-capture-pending.c - adds the samples that waited for another program's write lock
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * While another program holds a capture's write lock, its recorder keeps
 * the rows it would write as the SQL it would run, and past a flush in
 * NAME.pending.sql beside the capture (hp-capture-writer.c,
 * spill_deferred): "BEGIN;", then one statement a line, each the
 * writer's own with its values expanded by sqlite3_expanded_sql(), then
 * "COMMIT;". A recorder killed meanwhile, or one that gave up waiting,
 * leaves the file there.
 *
 * That file travels with the capture, and may come from anyone: handed
 * to the sqlite3 shell, it could run any SQL and dot-command (.shell,
 * .output, ATTACH), not only the writer's. So nothing in it is run. Each
 * statement must be one of the writer's (hp-writer-sql.h), byte for byte,
 * with a plain value (NULL, an integer, a quoted text) at each parameter;
 * the values are bound to the writer's statement, prepared here. Anything
 * else refuses the whole file, naming its line; what is added is added
 * in one transaction, all of it or nothing.
 */

#define G_LOG_DOMAIN "hp-store"

#include "config.h"

#include <errno.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "store/hp-capture.h"
#include "store/hp-capture-keys.h"
#include "store/hp-capture-pending.h"
#include "store/hp-capture-private.h"
#include "store/hp-capture-writer.h"
#include "store/hp-store-db.h"
#include "store/hp-writer-sql.h"

/* The most rows of samples in one statement: the writer's batch (64),
 * with room to spare, never unbounded. */
#define MAX_SAMPLE_ROWS 1024
/* The longest text value: what the capture reader accepts of a value. */
#define MAX_TEXT_BYTES (1 << 20)
/* How many statements run between two looks at the cancellable. */
#define CANCEL_EVERY 1024

/* The statements the writer defers (never stack_counts: those are
 * written at the end, with the lock held). */
typedef enum {
  STMT_METADATA,
  STMT_PROCESS,
  STMT_THREAD,
  STMT_MODULE,
  STMT_FUNCTION,
  STMT_FRAME,
  STMT_FRAME_UPDATE,
  STMT_STACK,
  STMT_EVENT,
  STMT_SAMPLE,
  N_STMTS
} StmtKind;

static const char *const statements[N_STMTS] = {
  [STMT_METADATA] = HP_WRITER_SQL_METADATA,
  [STMT_PROCESS] = HP_WRITER_SQL_PROCESS,
  [STMT_THREAD] = HP_WRITER_SQL_THREAD,
  [STMT_MODULE] = HP_WRITER_SQL_MODULE,
  [STMT_FUNCTION] = HP_WRITER_SQL_FUNCTION,
  [STMT_FRAME] = HP_WRITER_SQL_FRAME,
  [STMT_FRAME_UPDATE] = HP_WRITER_SQL_FRAME_UPDATE,
  [STMT_STACK] = HP_WRITER_SQL_STACK,
  [STMT_EVENT] = HP_WRITER_SQL_EVENT,
  [STMT_SAMPLE] = HP_WRITER_SQL_SAMPLE,
};

typedef struct {
  gboolean is_null;
  gboolean is_text;
  gint64   number;
  gsize    start;   /* the text: self->text[start, start + len) */
  gsize    len;
} Value;

typedef struct {
  const char   *path;      /* the pending file, for errors */
  const char   *at;
  const char   *end;
  guint         line;
  GString      *text;      /* the text values of the statement, unquoted */
  GArray       *values;    /* Value */
  StmtKind      kind;
  guint         rows;      /* of samples: values->len / 6 */
} Parser;

static void
skip_newlines (Parser *p)
{
  while (p->at < p->end && *p->at == '\n')
    {
      p->line++;
      p->at++;
    }
}

static gboolean
take (Parser     *p,
      const char *literal)
{
  gsize n = strlen (literal);

  if ((gsize) (p->end - p->at) < n || memcmp (p->at, literal, n) != 0)
    return FALSE;
  p->at += n;
  return TRUE;
}

/* A value as sqlite3_expanded_sql() writes one of those the writer binds:
 * NULL, an integer, or a text in single quotes ('' for a quote). */
static gboolean
take_value (Parser *p)
{
  Value v = { 0 };

  if (take (p, "NULL"))
    v.is_null = TRUE;
  else if (p->at < p->end && *p->at == '\'')
    {
      v.is_text = TRUE;
      v.start = p->text->len;
      for (p->at++;; p->at++)
        {
          if (p->at >= p->end)
            return FALSE;
          if (*p->at == '\'')
            {
              if (p->at + 1 < p->end && p->at[1] == '\'')
                p->at++;
              else
                break;
            }
          else if (*p->at == '\n')
            p->line++;
          else if (*p->at == '\0')
            return FALSE;
          g_string_append_c (p->text, *p->at);
          if (p->text->len - v.start > MAX_TEXT_BYTES)
            return FALSE;
        }
      p->at++;
      v.len = p->text->len - v.start;
    }
  else
    {
      const char *start = p->at;
      char digits[24];

      if (p->at < p->end && *p->at == '-')
        p->at++;
      while (p->at < p->end && g_ascii_isdigit (*p->at) && p->at - start < 21)
        p->at++;
      if (p->at == start || (p->at - start == 1 && *start == '-') || p->at - start > 20)
        return FALSE;
      memcpy (digits, start, p->at - start);
      digits[p->at - start] = '\0';
      if (!g_ascii_string_to_signed (digits, 10, G_MININT64, G_MAXINT64, &v.number, NULL))
        return FALSE;
    }
  g_array_append_val (p->values, v);
  return TRUE;
}

/* @sql, with a value at each '?' */
static gboolean
take_statement (Parser     *p,
                const char *sql)
{
  for (const char *s = sql; *s != '\0'; s++)
    if (*s == '?')
      {
        if (!take_value (p))
          return FALSE;
      }
    else if (p->at >= p->end || *p->at++ != *s)
      return FALSE;
  return TRUE;
}

/* One statement and its ";\n" into p->kind and p->values; FALSE when it
 * is none of the writer's, with p->at anywhere. */
static gboolean
parse_statement (Parser *p)
{
  const char *start = p->at;
  guint line = p->line;

  for (guint kind = 0; kind < N_STMTS; kind++)
    {
      p->at = start;
      p->line = line;
      g_string_truncate (p->text, 0);
      g_array_set_size (p->values, 0);
      p->kind = kind;
      p->rows = 1;
      if (take_statement (p, statements[kind]))
        return take (p, ";\n");
    }
  /* several samples in one statement */
  p->at = start;
  p->line = line;
  g_string_truncate (p->text, 0);
  g_array_set_size (p->values, 0);
  p->kind = STMT_SAMPLE;
  if (!take (p, HP_WRITER_SQL_SAMPLES_HEAD))
    return FALSE;
  for (p->rows = 1;; p->rows++)
    {
      if (p->rows > MAX_SAMPLE_ROWS || !take_statement (p, HP_WRITER_SQL_SAMPLES_ROW))
        return FALSE;
      if (!take (p, ","))
        break;
    }
  return take (p, ";\n");
}

static void
set_line_error (GError     **error,
                const Parser *p,
                guint         line)
{
  g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
               _("%s: line %u is not one of the statements Hotpath's recorder writes there; "
                 "nothing in the file was added"), p->path, line);
}

static gboolean
bind_and_step (sqlite3_stmt   *stmt,
               const Parser   *p,
               guint           first)
{
  int n = sqlite3_bind_parameter_count (stmt);

  for (int i = 0; i < n; i++)
    {
      const Value *v = &g_array_index (p->values, Value, first + i);

      if (v->is_null)
        sqlite3_bind_null (stmt, i + 1);
      else if (v->is_text)
        sqlite3_bind_text (stmt, i + 1, p->text->str + v->start, (int) v->len, SQLITE_STATIC);
      else
        sqlite3_bind_int64 (stmt, i + 1, v->number);
    }
  n = sqlite3_step (stmt);
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
  return n == SQLITE_DONE;
}

/* Reads @pending through; with @db, runs each statement on it too (in
 * the caller's transaction). */
static gboolean
read_pending (const char    *pending,
              sqlite3       *db,
              sqlite3_stmt **stmts,
              GCancellable  *cancellable,
              guint64       *n_samples,
              GError       **error)
{
  g_autoptr(GMappedFile) file = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (Value));
  g_autoptr(GError) local_error = NULL;
  Parser p = { 0 };
  guint64 samples = 0;
  guint n_statements = 0;
  gboolean in_txn = FALSE;

  file = g_mapped_file_new (pending, FALSE, &local_error);
  if (file == NULL)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO, _("%s: cannot read the file: %s"),
                   pending, local_error->message);
      return FALSE;
    }
  p.path = pending;
  p.at = g_mapped_file_get_contents (file);
  p.line = 1;
  p.text = text;
  p.values = values;
  /* an empty file maps to NULL, and NULL + 0 is undefined in C */
  if (p.at == NULL)
    p.at = p.end = "";
  else
    p.end = p.at + g_mapped_file_get_length (file);

  for (;;)
    {
      guint line;

      skip_newlines (&p);
      if (p.at >= p.end)
        break;
      line = p.line;
      if (!in_txn && take (&p, "BEGIN;\n"))
        {
          in_txn = TRUE;
          p.line++;
          continue;
        }
      if (in_txn && take (&p, "COMMIT;\n"))
        {
          in_txn = FALSE;
          p.line++;
          continue;
        }
      if (!in_txn || !parse_statement (&p))
        {
          set_line_error (error, &p, line);
          return FALSE;
        }
      p.line++;
      /* the complete flag says the totals are written: only the writer's
       * end writes it, with the lock held, never here */
      if (p.kind == STMT_METADATA)
        {
          const Value *key = &g_array_index (p.values, Value, 0);

          if (!key->is_text
              || (key->len == strlen (HP_META_COMPLETE)
                  && memcmp (p.text->str + key->start, HP_META_COMPLETE, key->len) == 0))
            {
              set_line_error (error, &p, line);
              return FALSE;
            }
        }
      if (p.kind == STMT_SAMPLE)
        samples += p.rows;
      if (db != NULL)
        {
          for (guint row = 0; row < p.rows; row++)
            if (!bind_and_step (stmts[p.kind], &p, row * (guint) sqlite3_bind_parameter_count (stmts[p.kind])))
              {
                g_autofree char *reason = g_utf8_make_valid (sqlite3_errmsg (db), -1);

                g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                             _("%s: line %u cannot be added to the capture (%s); nothing in the file was added"),
                             pending, line, reason);
                return FALSE;
              }
          if (++n_statements % CANCEL_EVERY == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
            return FALSE;
        }
    }
  if (in_txn)
    {
      /* a recorder killed while it wrote the file: its last move is cut */
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                   _("%s: the file ends without its last COMMIT (cut short); nothing in it was added"), pending);
      return FALSE;
    }
  if (n_samples != NULL)
    *n_samples = samples;
  return TRUE;
}

gboolean
hp_capture_check_pending (const char  *pending,
                          guint64     *n_samples,
                          GError     **error)
{
  g_return_val_if_fail (pending != NULL, FALSE);

  return read_pending (pending, NULL, NULL, NULL, n_samples, error);
}

static gint64
pending_bytes (const char *pending)
{
  GStatBuf st;

  return g_stat (pending, &st) == 0 ? st.st_size : 0;
}

/* Runs between the capture's opening and its write transaction: the
 * tests change the file there. */
static void (*before_write_for_testing) (const char *path);

static void
finalize_all (sqlite3_stmt **stmts)
{
  for (guint i = 0; i < N_STMTS; i++)
    g_clear_pointer (&stmts[i], sqlite3_finalize);
}

typedef struct {
  const char   *path;
  const char   *pending;
  GCancellable *cancellable;
  guint64       samples;
} AddPending;

/* Runs in the capture's write transaction, on the connection whose
 * schema was just checked in it (hp_capture_write()). */
static gboolean
add_in_transaction (sqlite3   *db,
                    gpointer   user_data,
                    GError   **error)
{
  AddPending *add = user_data;
  sqlite3_stmt *stmts[N_STMTS] = { NULL };
  sqlite3_stmt *stmt = NULL;
  gboolean complete = FALSE;
  gboolean ok;
  int rc;

  /* Finished, with its totals written: rows added now would not be
   * counted. Read in the transaction: a recorder finishing the capture
   * since it was opened has finished it by now. */
  if (sqlite3_prepare_v2 (db, "SELECT value = '1' FROM metadata WHERE key = ?1", -1, &stmt, NULL) != SQLITE_OK)
    return FALSE;
  sqlite3_bind_text (stmt, 1, HP_META_COMPLETE, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    complete = sqlite3_column_int (stmt, 0) != 0;
  sqlite3_finalize (stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return FALSE;
  if (complete)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                   _("%s: the capture is finished, with its totals written: the samples in %s "
                     "are not of it, and are not added"), add->path, add->pending);
      return FALSE;
    }

  for (guint i = 0; i < N_STMTS; i++)
    if (sqlite3_prepare_v2 (db, statements[i], -1, &stmts[i], NULL) != SQLITE_OK)
      {
        finalize_all (stmts);
        return FALSE;
      }
  ok = read_pending (add->pending, db, stmts, add->cancellable, &add->samples, error);
  finalize_all (stmts);
  /* Each statement is the writer's, but its values are the file's: a
   * stack that is its own parent, a frame of a function that is not
   * there, a negative weight. The reader refuses the whole capture for
   * one such row, so a file that adds one would leave the samples that
   * were there unreadable: the capture must load as this transaction
   * leaves it, or nothing is added. */
  if (ok)
    {
      g_autoptr(GError) load_error = NULL;

      if (!hp_capture_check_loads (db, add->path, pending_bytes (add->pending), add->cancellable, &load_error))
        {
          if (g_cancellable_is_cancelled (add->cancellable))
            g_propagate_error (error, g_steal_pointer (&load_error));
          else
            g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                         _("%s: the capture would not load with the rows in this file (%s); "
                           "nothing in the file was added"), add->pending, load_error->message);
          ok = FALSE;
        }
    }
  return ok;
}

gboolean
hp_capture_add_pending (const char    *path,
                        const char    *pending,
                        GCancellable  *cancellable,
                        guint64       *n_samples,
                        GError       **error)
{
  HpCapture *capture;
  AddPending add = { path, pending, cancellable, 0 };
  gboolean ok;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (pending != NULL, FALSE);

  /* refused before anything is opened for writing */
  if (!read_pending (pending, NULL, NULL, NULL, NULL, error))
    return FALSE;
  /* a capture of Hotpath's, of a version this build reads */
  capture = hp_capture_open (path, TRUE, error);
  if (capture == NULL)
    return FALSE;
  if (before_write_for_testing != NULL)
    before_write_for_testing (path);
  /* checked again and written in one transaction of this connection */
  hp_capture_set_cancellable (capture, cancellable);
  ok = hp_capture_write (capture, "cannot add the samples", pending_bytes (pending),
                         add_in_transaction, &add, error);
  hp_capture_close (capture);
  if (!ok)
    return FALSE;
  if (n_samples != NULL)
    *n_samples = add.samples;
  /* added: adding them again would fail on their rows */
  if (g_unlink (pending) != 0 && errno != ENOENT)
    {
      int errsv = errno;

      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   _("%s: its samples were added to %s, but the file cannot be removed (%s): remove it"),
                   pending, path, g_strerror (errsv));
      return FALSE;
    }
  return TRUE;
}

void
hp_capture_pending_set_before_write_for_testing (void (*hook) (const char *path))
{
  before_write_for_testing = hook;
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

GPtrArray *
hp_capture_list_pending (const char *path)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *prefix = NULL;
  g_autoptr(GDir) listing = NULL;
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_return_val_if_fail (path != NULL, found);

  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  prefix = g_strconcat (base, ".pending", NULL);
  listing = g_dir_open (dir, 0, NULL);
  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      const char *rest;
      g_autofree char *file = NULL;

      if (!g_str_has_prefix (name, prefix) || !g_str_has_suffix (name, ".sql"))
        continue;
      /* NAME.pending.sql or NAME.pending-N.sql (spill_deferred's names) */
      rest = name + strlen (prefix);
      if (strcmp (rest, ".sql") != 0)
        {
          guint64 n;
          g_autofree char *number = NULL;

          if (rest[0] != '-' || strlen (rest) <= strlen ("-.sql"))
            continue;
          number = g_strndup (rest + 1, strlen (rest) - strlen ("-.sql"));
          if (!g_ascii_string_to_unsigned (number, 10, 2, 999, &n, NULL))
            continue;
        }
      file = g_build_filename (dir, name, NULL);
      if (g_file_test (file, G_FILE_TEST_IS_REGULAR) && !g_file_test (file, G_FILE_TEST_IS_SYMLINK))
        g_ptr_array_add (found, g_steal_pointer (&file));
    }
  g_ptr_array_sort (found, compare_paths);
  return found;
}
