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

#include "store/hp-capture-keys.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <string.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "store/hp-capture-private.h"
#include "store/hp-capture-schema.h"
#include "store/hp-store-db.h"

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

/* SQLITE_LIMIT_LENGTH: the longest text or blob the reader takes. */
#define MAX_VALUE_LENGTH (64 * 1024 * 1024)
#define READER_BUSY_TIMEOUT_MS 5000

/* The longest list of refused schema objects an error names, in bytes: a
 * hostile file may hold thousands, and the message is read by a person. */
#define MAX_REFUSED_LIST 1000

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
  gint64        version;     /* PRAGMA user_version: what the tables hold;
                              * raised by the first write (migration) */
  gboolean      summaries_cut;  /* the last list left summaries out */
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
                   _("%s: reading the capture was cancelled"), self->path);
      return TRUE;
    case STOP_TOO_MUCH_WORK:
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                   _("%s: corrupt capture: reading it takes far more work than a capture "
                     "of its size needs (stopped after %" PRId64 " million SQLite steps)"),
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
  g_autofree char *message = NULL;

  if (set_error_stopped (error, self))
    return;
  /* SQLite's message may quote names from the file */
  if ((sqlite3_errcode (self->db) & 0xff) == SQLITE_TOOBIG)
    message = g_strdup_printf (_("a value is over %d MiB, more than a capture holds (a hostile or broken file)"),
                               MAX_VALUE_LENGTH / (1024 * 1024));
  else
    message = g_utf8_make_valid (sqlite3_errmsg (self->db), -1);
  g_set_error (error, HP_STORE_ERROR, code, "%s: %s: %s", self->path, what, message);
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

/* What a file that is not a regular file is, for the message. */
static const char *
describe_file_type (mode_t mode)
{
  if (S_ISDIR (mode))
    return "a directory";
  if (S_ISFIFO (mode))
    return "a FIFO";
  if (S_ISCHR (mode))
    return "a character device";
  if (S_ISBLK (mode))
    return "a block device";
  if (S_ISSOCK (mode))
    return "a socket";
  return "not a file";
}

static guint32
read_be32 (const guint8 *p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
}

HpCaptureSniff
hp_capture_sniff (const char *path)
{
  static const char magic[16] = "SQLite format 3";
  guint8 header[72];
  struct stat st;
  gssize n;
  int fd;

  g_return_val_if_fail (path != NULL, HP_CAPTURE_SNIFF_OTHER);

  /* a FIFO must not block us */
  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
  if (fd < 0)
    return HP_CAPTURE_SNIFF_OTHER;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      return HP_CAPTURE_SNIFF_OTHER;
    }
  do
    n = read (fd, header, sizeof header);
  while (n < 0 && errno == EINTR);
  close (fd);
  if (n != (gssize) sizeof header || memcmp (header, magic, sizeof magic) != 0)
    return HP_CAPTURE_SNIFF_OTHER;
  /* the header's application id, big-endian at offset 68 */
  return read_be32 (header + 68) == HP_CAPTURE_APPLICATION_ID ? HP_CAPTURE_SNIFF_CAPTURE
                                                               : HP_CAPTURE_SNIFF_SQLITE;
}

/* Checks, before SQLite sees it, that @path is a regular file that starts
 * as a SQLite database and holds as many pages as its header announces.
 *
 * SQLite would block for ever opening a FIFO (open() waits for a writer),
 * read a directory as an empty database and call a truncated file "not a
 * database"; these say what the file is instead. The file is opened
 * without blocking and then fstat()ed, so what is checked is what was
 * opened. SQLite then opens @path again by name: a file swapped for a FIFO
 * in between could still block it, but only by someone who can write the
 * capture's folder, and hp_capture_open() checks afterwards that the name
 * still leads to the file checked here. */
static gboolean
check_file (const char   *path,
            struct stat  *st,
            GError      **error)
{
  static const char magic[16] = "SQLite format 3";
  guint8 header[100] = { 0 };
  gssize n = 0;
  int fd;

  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int errsv = errno;

      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   _("%s: cannot open the capture: %s"), path,
                   errsv == ENOENT ? _("no such file") :
                   errsv == ELOOP ? _("too many levels of symbolic links") :
                   g_strerror (errsv));
      return FALSE;
    }
  if (fstat (fd, st) != 0)
    {
      int errsv = errno;

      close (fd);
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   _("%s: cannot open the capture: %s"), path, g_strerror (errsv));
      return FALSE;
    }
  if (S_ISDIR (st->st_mode))
    {
      close (fd);
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_NOT_CAPTURE,
                   _("%s: not a Hotpath capture: it is a directory"), path);
      return FALSE;
    }
  if (!S_ISREG (st->st_mode))
    {
      close (fd);
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_NOT_CAPTURE,
                   _("%s: not a Hotpath capture: it is not a regular file (%s)"),
                   path, describe_file_type (st->st_mode));
      return FALSE;
    }

  while ((gsize) n < sizeof header)
    {
      gssize r = read (fd, header + n, sizeof header - n);

      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        {
          int errsv = errno;

          close (fd);
          g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                       _("%s: cannot read the capture: %s"), path, g_strerror (errsv));
          return FALSE;
        }
      if (r == 0)
        break;
      n += r;
    }
  close (fd);

  if (n == 0)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_NOT_CAPTURE,
                   _("%s: not a Hotpath capture: the file is empty"), path);
      return FALSE;
    }
  if (memcmp (header, magic, MIN ((gsize) n, sizeof magic)) != 0)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_NOT_CAPTURE,
                   _("%s: not a Hotpath capture (not a SQLite database)"), path);
      return FALSE;
    }
  if ((gsize) n < sizeof header)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                   _("%s: the capture is truncated: it ends after %zd bytes, "
                     "inside its header"), path, n);
      return FALSE;
    }

  /* The header's page count is valid when the change counter beside it
   * matches (SQLite 3.7.0 and later). In WAL mode pages may still be in
   * the -wal file, which SQLite reads itself; check only a file whose
   * content is all in the main file. */
  {
    guint32 page_size = ((guint32) header[16] << 8) | header[17];
    guint32 n_pages = read_be32 (header + 28);
    gboolean count_valid = n_pages > 0 && read_be32 (header + 24) == read_be32 (header + 92);
    gboolean wal = header[18] == 2 || header[19] == 2;

    if (page_size == 1)
      page_size = 65536;
    if (page_size >= 512 && (page_size & (page_size - 1)) == 0 && count_valid && !wal &&
        (guint64) st->st_size < (guint64) n_pages * page_size)
      {
        g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                     _("%s: the capture is truncated: the file has %" PRIu64
                       " bytes of the %" PRIu64 " its header announces "
                       "(was it copied or downloaded completely?)"),
                     path, (guint64) st->st_size, (guint64) n_pages * page_size);
        return FALSE;
      }
  }
  return TRUE;
}

/* The tables of the format and the columns the reader reads (schema.sql),
 * with the format version that brought them. */
static const struct {
  const char *table;
  gint64      since;
  const char *columns[7];
} format_tables[] = {
  { "metadata",     1, { "key", "value" } },
  { "processes",    1, { "pid", "command" } },
  { "threads",      1, { "tid", "pid", "name" } },
  { "modules",      1, { "id", "path", "build_id", "is_kernel" } },
  { "functions",    1, { "id", "name", "module_id", "file", "line" } },
  { "frames",       1, { "id", "function_id", "file", "line", "is_inline", "offset" } },
  { "stacks",       1, { "id", "parent_id", "frame_id" } },
  { "samples",      1, { "time", "tid", "cpu", "stack_id", "weight" } },
  { "stack_counts", 1, { "stack_id", "tid", "samples", "weight" } },
  { "summaries",    1, { "path_key", "path", "text", "created", "updated" } },
  { "events",       2, { "id", "name", "unit", "frequency", "period" } },
  { "samples",      2, { "event_id" } },
  { "stack_counts", 2, { "event_id" } },
  { "summaries",    3, { "capture", "share", "found" } },
  { "frames",       4, { "tier" } },
};

/* The tables Hotpath writes into a capture it did not just create:
 * summaries by every save, those that the migrations of schema.sql alter
 * or fill, and every table of the writer by hotpath-cli add-pending
 * (hp-capture-pending.c, through hp_capture_write()). */
static const char *const written_tables[] = {
  "metadata", "events", "processes", "threads", "modules", "functions", "frames", "stacks", "samples",
  "stack_counts", "summaries",
};

/* Those it writes with INSERT OR REPLACE (a metadata key, summaries
 * copied in): a UNIQUE of the file's own would make one row replace
 * another. (A version 1 stack_counts keeps its older key, (stack_id,
 * tid), until the migration of version 5 rebuilds it.) */
static const char *const keyed_tables[] = { "metadata", "summaries", NULL };

/* Holds the tables Hotpath writes to schema.sql's CHECKs and DEFAULTs
 * (hp_store_db_check_declared()). */
static gboolean
check_written_tables (HpCapture  *self,
                      GError    **error)
{
  g_autofree char *schema = hp_schema_creation_sql ();
  g_autoptr(GError) local_error = NULL;

  if (hp_store_db_check_declared (self->db, self->path, _("the capture format"), schema,
                                  written_tables, G_N_ELEMENTS (written_tables), keyed_tables,
                                  &local_error))
    return TRUE;
  if (!set_error_stopped (error, self))
    g_propagate_error (error, g_steal_pointer (&local_error));
  return FALSE;
}

/* Refuses a schema that holds what could run code (triggers, views,
 * virtual tables, generated columns, indexes of an expression or with a
 * WHERE clause), naming each, and one that lacks a table or column of the
 * format. With triggers and views disabled on the connection they could
 * not run anyway: this says why the file is refused instead of letting a
 * query fail on "access prohibited". An index's expression does run, on
 * every row a summary writes: one of zeroblob (60000000) on summaries
 * made a 114 kB capture 60 MB bigger with each summary saved. Other
 * tables and plain indexes, which a script may add, are left alone: the
 * reader never reads them, and what it writes they can only copy. The
 * tables it writes are held to schema.sql's CHECKs and DEFAULTs
 * (check_written_tables()). Run again by every write, in its
 * transaction: the file may have changed since it was opened. */
static gboolean
check_schema (HpCapture  *self,
              GError    **error)
{
  g_autoptr(GString) code = g_string_new (NULL);
  sqlite3_stmt *stmt = NULL;
  int rc;

  if (sqlite3_prepare_v2 (self->db,
                          "SELECT m.type, m.name, m.sql, m.type = 'index' AND "
                          "  (EXISTS (SELECT 1 FROM pragma_index_xinfo (m.name) WHERE cid = -2) OR "
                          "   EXISTS (SELECT 1 FROM pragma_index_list (m.tbl_name) AS l "
                          "           WHERE l.name = m.name AND l.partial)) "
                          "FROM sqlite_master AS m ORDER BY m.rowid",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, HP_STORE_ERROR_CORRUPT, "corrupt capture: cannot read its schema");
      return FALSE;
    }
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *type = (const char *) sqlite3_column_text (stmt, 0);
      const char *sql = (const char *) sqlite3_column_text (stmt, 2);
      const char *what = NULL;

      if (g_strcmp0 (type, "trigger") == 0)
        what = "trigger";
      else if (g_strcmp0 (type, "view") == 0)
        what = "view";
      else if (g_strcmp0 (type, "table") == 0 && sql != NULL &&
               g_ascii_strncasecmp (sql, "CREATE VIRTUAL", 14) == 0)
        what = "virtual table";
      else if (g_strcmp0 (type, "index") == 0 && sqlite3_column_int (stmt, 3) != 0)
        what = "index";
      else if (g_strcmp0 (type, "table") != 0 && g_strcmp0 (type, "index") != 0)
        what = "schema object";
      if (what != NULL)
        {
          g_autofree char *name = hp_store_db_quote_name ((const char *) sqlite3_column_text (stmt, 1));

          if (code->len > 0)
            g_string_append (code, ", ");
          if (code->len > MAX_REFUSED_LIST)
            {
              g_string_append (code, "…");
              break;
            }
          g_string_append_printf (code, "%s %s", what, name);
          if (g_strcmp0 (type, "index") == 0)
            g_string_append (code, " of an expression or with a WHERE clause");
        }
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    {
      set_error_db (error, self, HP_STORE_ERROR_CORRUPT, "corrupt capture: cannot read its schema");
      return FALSE;
    }
  if (code->len > 0)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                   _("%s: refused: the capture holds %s, which a Hotpath capture never has "
                     "(it could run code when the capture is read or saved)"),
                   self->path, code->str);
      return FALSE;
    }

  if (sqlite3_prepare_v2 (self->db, "SELECT name, hidden FROM pragma_table_xinfo (?1)",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, HP_STORE_ERROR_CORRUPT, "corrupt capture: cannot read its schema");
      return FALSE;
    }
  for (guint t = 0; t < G_N_ELEMENTS (format_tables); t++)
    {
      const char *table = format_tables[t].table;
      g_autoptr(GHashTable) columns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

      if (format_tables[t].since > self->version)
        continue;
      sqlite3_reset (stmt);
      sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
        {
          const char *column = (const char *) sqlite3_column_text (stmt, 0);

          if (sqlite3_column_int (stmt, 1) != 0)
            {
              g_autofree char *name = hp_store_db_quote_name (column);

              g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                           _("%s: refused: column %s of table %s is a generated column, which "
                             "a Hotpath capture never has (it could run code when read)"),
                           self->path, name, table);
              sqlite3_finalize (stmt);
              return FALSE;
            }
          if (column != NULL)
            g_hash_table_add (columns, g_ascii_strdown (column, -1));
        }
      if (rc != SQLITE_DONE)
        {
          set_error_db (error, self, HP_STORE_ERROR_CORRUPT, "corrupt capture: cannot read its schema");
          sqlite3_finalize (stmt);
          return FALSE;
        }
      if (g_hash_table_size (columns) == 0)
        {
          g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                       _("%s: corrupt capture: it has no table %s"), self->path, table);
          sqlite3_finalize (stmt);
          return FALSE;
        }
      for (guint c = 0; c < G_N_ELEMENTS (format_tables[t].columns) && format_tables[t].columns[c]; c++)
        if (!g_hash_table_contains (columns, format_tables[t].columns[c]))
          {
            g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                         _("%s: corrupt capture: table %s has no column %s"),
                         self->path, table, format_tables[t].columns[c]);
            sqlite3_finalize (stmt);
            return FALSE;
          }
    }
  sqlite3_finalize (stmt);
  return check_written_tables (self, error);
}

HpCaptureWritable
hp_capture_check_writable (const char *path)
{
  g_autofree char *dir = NULL;
  GStatBuf st;

  g_return_val_if_fail (path != NULL, HP_CAPTURE_FILE_READ_ONLY);

  if (g_access (path, W_OK) != 0 ||
      (g_stat (path, &st) == 0 && (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0))
    return HP_CAPTURE_FILE_READ_ONLY;
  dir = g_path_get_dirname (path);
  if (g_access (dir, W_OK) != 0)
    return HP_CAPTURE_FOLDER_READ_ONLY;
  return HP_CAPTURE_WRITABLE;
}

/* Why summaries of @path cannot be saved, or NULL. */
static char *
why_read_only (const char *path)
{
  switch (hp_capture_check_writable (path))
    {
    case HP_CAPTURE_FILE_READ_ONLY:
      return g_strdup_printf (_("%s: cannot save summaries: the file is read-only"), path);
    case HP_CAPTURE_FOLDER_READ_ONLY:
      return g_strdup_printf (_("%s: cannot save summaries: its folder is read-only"), path);
    case HP_CAPTURE_WRITABLE:
    default:
      return NULL;
    }
}

/* Bounds the work of one operation by the size of the file, so that a query
 * made endless by a hostile schema stops with an error. */
/* The bytes of the capture: its file and its write-ahead log. */
static gint64
file_bytes (HpCapture *self)
{
  g_autofree char *wal = g_strconcat (self->path, "-wal", NULL);
  GStatBuf st;
  gint64 bytes = 0;

  if (g_stat (self->path, &st) == 0)
    bytes += st.st_size;
  if (g_stat (wal, &st) == 0)
    bytes += st.st_size;
  return bytes;
}

static void
set_work_limit (HpCapture *self)
{
  self->work_limit = MAX (file_bytes (self) * WORK_PER_BYTE, WORK_MIN) / PROGRESS_STEPS;
}

/* A rollback journal beside the capture ("NAME-journal") that is not
 * empty is hot: a write stopped before its commit (a summary being saved
 * when the process was killed or the machine went down), and the
 * capture's pages may be half written. SQLite reads such a file only
 * after rolling the journal back, which puts the pages of the last
 * commit in place again and removes the journal; a journal without
 * SQLite's header (hp_store_db_is_journal) was written before SQLite
 * touched the file and holds nothing to put back, so it is just removed.
 * Both take write access: a read-only connection stops with "attempt to
 * write a readonly database", which named the capture and not the
 * journal. With the capture and its folder writable, one read-write
 * connection lets SQLite do its own recovery, exactly as any program
 * opening the file would; nothing committed is lost. Otherwise the
 * message says what is in the way. */
static gboolean
roll_back_journal (const char  *path,
                   GError     **error)
{
  g_autofree char *journal = g_strconcat (path, "-journal", NULL);
  gboolean real = hp_store_db_is_journal (journal);
  sqlite3 *db;
  int rc;

  switch (hp_capture_check_writable (path))
    {
    case HP_CAPTURE_WRITABLE:
      break;
    case HP_CAPTURE_FILE_READ_ONLY:
    case HP_CAPTURE_FOLDER_READ_ONLY:
    default:
      if (real)
        g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                     _("%s: cannot read the capture: %s holds a write that was cut short, which SQLite must "
                       "roll back before the capture can be read, and the capture or its folder is read-only; "
                       "make both writable and open it again (do not remove the journal: it holds the "
                       "capture's last committed pages)"), path, journal);
      else
        g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                     _("%s: cannot read the capture: %s beside it is not a SQLite journal (damaged, or not "
                       "SQLite's) and SQLite will not read past it while the capture or its folder is read-only; "
                       "it holds nothing to roll back: remove it, or make the capture and its folder writable"),
                     path, journal);
      return FALSE;
    }
  db = hp_store_db_open (path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, "the capture",
                         MAX_VALUE_LENGTH, READER_BUSY_TIMEOUT_MS, error);
  if (db == NULL)
    return FALSE;
  /* the first read takes the shared lock, and rolls back */
  rc = sqlite3_exec (db, "PRAGMA application_id", NULL, NULL, NULL);
  if (rc != SQLITE_OK)
    {
      g_autofree char *message = g_utf8_make_valid (sqlite3_errmsg (db), -1);

      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   _("%s: cannot read the capture: rolling back the write that was cut short (%s) failed: %s"),
                   path, journal, message);
      sqlite3_close_v2 (db);
      return FALSE;
    }
  sqlite3_close_v2 (db);
  g_debug ("%s: rolled back %s (%s)", path, journal, real ? "a write cut short" : "not a journal: removed");
  return TRUE;
}

/* HpCaptures of this process not closed yet (hp_capture_any_open) */
static gint n_alive;

gboolean
hp_capture_any_open (void)
{
  return g_atomic_int_get (&n_alive) > 0;
}

HpCapture *
hp_capture_open (const char  *path,
                 gboolean     writable,
                 GError     **error)
{
  g_autoptr(HpCapture) self = NULL;
  struct stat st, st_now;
  gint64 app_id = 0;
  gint64 version = 0;
  int flags;
  int rc;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_file (path, &st, error))
    return NULL;

  self = g_new0 (HpCapture, 1);
  g_atomic_int_inc (&n_alive);
  self->path = g_strdup (path);
  if (writable)
    self->read_only_reason = why_read_only (path);
  else
    self->read_only_reason = g_strdup_printf (_("%s: cannot save summaries: the capture was opened read-only"), path);

  flags = (self->read_only_reason == NULL ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY)
          | SQLITE_OPEN_NOMUTEX;
  for (guint attempt = 0;; attempt++)
    {
      /* no value of a capture comes near MAX_VALUE_LENGTH; the recorder
       * may still be committing batches while we wait */
      self->db = hp_store_db_open (path, flags, "the capture", MAX_VALUE_LENGTH, READER_BUSY_TIMEOUT_MS, error);
      if (self->db == NULL)
        return NULL;
      set_work_limit (self);
      sqlite3_progress_handler (self->db, PROGRESS_STEPS, on_progress, self);
      begin_operation (self);
      if (query_int (self, "PRAGMA application_id", &app_id, &rc))
        break;
      if (rc != SQLITE_READONLY_ROLLBACK || attempt > 0)
        break;
      /* a journal left by a write cut short: rolled back, then read again */
      sqlite3_close_v2 (g_steal_pointer (&self->db));
      if (!roll_back_journal (path, error))
        return NULL;
    }
  if (rc != SQLITE_OK)
    {
      if ((rc & 0xff) == SQLITE_NOTADB)
        g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_NOT_CAPTURE,
                     _("%s: not a Hotpath capture (not a SQLite database)"), path);
      else if ((rc & 0xff) == SQLITE_CORRUPT)
        set_error_db (error, self, HP_STORE_ERROR_CORRUPT, "corrupt capture");
      else
        set_error_db (error, self, HP_STORE_ERROR_IO, "cannot read the capture");
      return NULL;
    }
  if (app_id != HP_CAPTURE_APPLICATION_ID)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_NOT_CAPTURE,
                   _("%s: not a Hotpath capture"), path);
      return NULL;
    }
  if (!query_int (self, "PRAGMA user_version", &version, &rc))
    {
      set_error_db (error, self, HP_STORE_ERROR_IO, "cannot read the capture");
      return NULL;
    }
  if (!hp_store_db_check_version (path, "capture format", version, HP_CAPTURE_FORMAT_VERSION, error))
    return NULL;
  if (version < 1)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_VERSION,
                   _("%s: unknown capture format version %" PRId64), path, version);
      return NULL;
    }
  self->version = version;
  if (!check_schema (self, error))
    return NULL;

  /* what SQLite opened by name is the file check_file() looked at */
  if (g_stat (path, &st_now) != 0 || st_now.st_dev != st.st_dev || st_now.st_ino != st.st_ino)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   _("%s: cannot open the capture: the file was replaced while it was opened"), path);
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
  g_atomic_int_dec_and_test (&n_alive);
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

static char *checked_metadata (const char *key,
                               char       *value);

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
  if (sqlite3_step (stmt) == SQLITE_ROW)
    value = checked_metadata (key, hp_store_db_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  return value;
}

/* Loading ------------------------------------------------------------- */

/* Sums of samples and of weights may reach this and no more. */
#define MAX_TOTAL HP_CAPTURE_MAX_TOTAL

/* A value that does not belong where it is, for a message. */
static char *
describe_value (sqlite3_stmt *stmt,
                int           i)
{
  switch (sqlite3_column_type (stmt, i))
    {
    case SQLITE_INTEGER:
      return g_strdup_printf ("%" PRId64, (gint64) sqlite3_column_int64 (stmt, i));
    case SQLITE_FLOAT:
      return g_strdup_printf (_("%g (a real number)"), sqlite3_column_double (stmt, i));
    case SQLITE_TEXT:
      {
        g_autofree char *text = hp_store_db_column_text (stmt, i);
        g_autofree char *quoted = hp_store_db_quote_name (text);

        return g_strdup_printf ("%s (text)", quoted);
      }
    case SQLITE_BLOB:
      {
        const guint8 *blob = sqlite3_column_blob (stmt, i);
        int n = sqlite3_column_bytes (stmt, i);
        GString *hex = g_string_new ("x'");

        for (int k = 0; k < MIN (n, 16); k++)
          g_string_append_printf (hex, "%02x", blob[k]);
        g_string_append (hex, n > 16 ? "…' (a blob)" : "' (a blob)");
        return g_string_free (hex, FALSE);
      }
    case SQLITE_NULL:
    default:
      return g_strdup ("NULL");
    }
}

/* Names a row in messages: "stacks row 66", "stack_counts row (stack_id
 * 3, tid 42)". Built only when there is something to say. */
typedef enum {
  ROW_BY_ID,        /* a, the row's id */
  ROW_BY_ORDINAL,   /* a, the row's number in key order */
  ROW_BY_STACK_TID, /* a and b, the key of stack_counts */
  ROW_BY_ROWID,     /* a, the rowid of a samples row */
} RowKind;

typedef struct {
  const char *table;
  RowKind     kind;
  gint64      a;
  gint64      b;
} RowName;

static char *
row_name (const RowName *row)
{
  switch (row->kind)
    {
    case ROW_BY_ID:
      return g_strdup_printf ("%s row %" PRId64, row->table, row->a);
    case ROW_BY_ORDINAL:
      return g_strdup_printf (_("%s row number %" PRId64), row->table, row->a);
    case ROW_BY_STACK_TID:
      return g_strdup_printf ("%s row (stack_id %" PRId64 ", tid %" PRId64 ")",
                              row->table, row->a, row->b);
    case ROW_BY_ROWID:
    default:
      return g_strdup_printf ("%s row %" PRId64 " (rowid)", row->table, row->a);
    }
}

/* Reads integer column @i of @row into @out; anything but an integer from
 * @min to @max is corruption, named with the row and the column. */
static gboolean
column_integer (HpCapture      *self,
                sqlite3_stmt   *stmt,
                int             i,
                const RowName  *row,
                gint64          min,
                gint64          max,
                gint64         *out,
                GError        **error)
{
  g_autofree char *name = NULL;
  g_autofree char *value = NULL;

  if (sqlite3_column_type (stmt, i) == SQLITE_INTEGER)
    {
      *out = sqlite3_column_int64 (stmt, i);
      if (*out >= min && *out <= max)
        return TRUE;
    }
  name = row_name (row);
  value = describe_value (stmt, i);
  if (sqlite3_column_type (stmt, i) != SQLITE_INTEGER)
    g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                 _("%s: corrupt capture: %s has %s %s, not an integer"),
                 self->path, name, sqlite3_column_name (stmt, i), value);
  else
    g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                 _("%s: corrupt capture: %s has %s %s, out of the range %" PRId64
                   " to %" PRId64),
                 self->path, name, sqlite3_column_name (stmt, i), value, min, max);
  return FALSE;
}

static gboolean
corrupt_ref (HpCapture      *self,
             GError        **error,
             const RowName  *row,
             const char     *what,
             gint64          value,
             const char     *table)
{
  g_autofree char *name = row_name (row);

  g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
               _("%s: corrupt capture: %s refers to %s %" PRId64
                 ", which is not in the %s table"),
               self->path, name, what, value, table);
  return FALSE;
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

/* Appends the row whose id is column 0 of @stmt to @array, whose index is
 * the id. The format numbers rows from 1 without gaps and the rows come in
 * id order, so each id must be the array's length: the memory then grows
 * with the rows of the file, never with an id it holds. */
static gpointer
next_id_row (HpCapture     *self,
             GArray        *array,
             const char    *table,
             sqlite3_stmt  *stmt,
             gint64        *id_out,
             GError       **error)
{
  gint64 expected = array->len;
  RowName row = { table, ROW_BY_ORDINAL, expected, 0 };
  gint64 id;

  if (!column_integer (self, stmt, 0, &row, 1, G_MAXINT64, &id, error))
    return NULL;
  if (id != expected)
    {
      if (id < expected)
        g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                     _("%s: corrupt capture: %s has two rows with id %" PRId64),
                     self->path, table, id);
      else
        g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                     _("%s: corrupt capture: %s has no row with id %" PRId64
                       " but one with id %" PRId64 " (ids run from 1 without gaps)"),
                     self->path, table, expected, id);
      return NULL;
    }
  if (array->len >= G_MAXUINT - 1)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                   _("%s: corrupt capture: %s has too many rows"), self->path, table);
      return NULL;
    }
  g_array_set_size (array, array->len + 1);
  *id_out = id;
  return &g_array_index (array, guint8, (gsize) id * g_array_get_element_size (array));
}

/* The metadata keys that hold a number, and the numbers that make sense
 * there (schema.sql). A capture may come from anywhere: its "-5" Hz, its
 * duration of -1 ns read as 584 years, its 10^23 lost samples are not
 * figures to show. Such a value reads as absent, that is unknown, as in a
 * capture whose writer did not know it. */
#define YEAR_NS (G_GINT64_CONSTANT (366) * 24 * 3600 * 1000000000)

static const struct {
  const char *key;
  gint64      min;
  gint64      max;
} numeric_metadata[] = {
  { HP_META_DURATION_NS,          0, 100 * YEAR_NS },
  { HP_META_FREQUENCY,            1, HP_CAPTURE_MAX_FREQUENCY },
  { HP_META_PERIOD,               1, G_MAXINT64 },
  { HP_META_STACK_SIZE,           1, 1 << 20 },
  { HP_META_CPU_COUNT,            1, 1 << 20 },
  { HP_META_LOST_SAMPLES,         0, (gint64) MAX_TOTAL },
  { HP_META_THROTTLE_EVENTS,      0, (gint64) MAX_TOTAL },
  { HP_META_TRUNCATED_STACKS,     0, (gint64) MAX_TOTAL },
  { HP_META_COMPLETE_STACKS,      0, (gint64) MAX_TOTAL },
  { HP_META_TRUNCATED_STACK_COPY, 0, (gint64) MAX_TOTAL },
  { HP_META_TRUNCATED_AT_JIT,     0, (gint64) MAX_TOTAL },
  { HP_META_UNRESOLVED_FRAMES,    0, (gint64) MAX_TOTAL },
  { HP_META_OTHER_EVENT_SAMPLES,  0, (gint64) MAX_TOTAL },
  { HP_META_EXIT_STATUS,          0, 255 },
  { HP_META_ATTACHED_PID,         1, G_MAXINT32 },
};

/* @value (owned) of the metadata @key as the rest of Hotpath gets it:
 * NULL when it makes no sense there (see above; a start_time that is no
 * ISO 8601 time), and cut to HP_CAPTURE_MAX_METADATA_BYTES, on a
 * character, with "…" (a command line of 64 MB is not a header line). */
static char *
checked_metadata (const char *key,
                  char       *value)
{
  if (value == NULL || key == NULL)
    return value;
  for (guint i = 0; i < G_N_ELEMENTS (numeric_metadata); i++)
    if (strcmp (key, numeric_metadata[i].key) == 0)
      {
        gint64 number;

        if (!g_ascii_string_to_signed (value, 10, numeric_metadata[i].min, numeric_metadata[i].max,
                                       &number, NULL))
          {
            g_debug ("metadata %s: %.40s is not a number that makes sense there", key, value);
            g_clear_pointer (&value, g_free);
          }
        return value;
      }
  if (strcmp (key, HP_META_START_TIME) == 0)
    {
      g_autoptr(GDateTime) time = g_date_time_new_from_iso8601 (value, NULL);

      if (time == NULL)
        g_clear_pointer (&value, g_free);
      return value;
    }
  if (strlen (value) > HP_CAPTURE_MAX_METADATA_BYTES)
    {
      const char *end = g_utf8_find_prev_char (value, value + HP_CAPTURE_MAX_METADATA_BYTES + 1);
      g_autofree char *whole = value;

      value = g_strdup_printf ("%.*s…", (int) (end - whole), whole);
    }
  return value;
}

static gboolean
load_metadata_row (HpCapture *self, HpCaptureData *data, sqlite3_stmt *stmt, GError **error)
{
  char *key, *value;

  if (sqlite3_column_type (stmt, 0) == SQLITE_NULL)
    return TRUE;
  key = hp_store_db_column_text (stmt, 0);
  value = checked_metadata (key, hp_store_db_column_text (stmt, 1) ?: g_strdup (""));
  if (value != NULL)
    g_hash_table_replace (data->metadata, key, value);
  else
    g_free (key);
  return TRUE;
}

static gboolean
load_module_row (HpCapture *self, HpCaptureData *data, sqlite3_stmt *stmt, GError **error)
{
  gint64 id, is_kernel;
  HpCaptureModule *m = next_id_row (self, data->modules, "modules", stmt, &id, error);
  RowName row = { "modules", ROW_BY_ID, id, 0 };

  if (m == NULL || !column_integer (self, stmt, 3, &row, G_MININT64, G_MAXINT64, &is_kernel, error))
    return FALSE;
  m->path = hp_store_db_column_text (stmt, 1);
  m->build_id = hp_store_db_column_text (stmt, 2);
  m->is_kernel = is_kernel != 0;
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
  gint64 id, module_id, line;
  HpCaptureFunction *f = next_id_row (self, data->functions, "functions", stmt, &id, error);
  RowName row = { "functions", ROW_BY_ID, id, 0 };

  if (f == NULL ||
      !column_integer (self, stmt, 2, &row, G_MININT64, G_MAXINT64, &module_id, error) ||
      !column_integer (self, stmt, 4, &row, 0, G_MAXINT32, &line, error))
    return FALSE;
  /* 0: unknown module; modules are loaded first */
  if (module_id < 0 || module_id >= (gint64) data->modules->len)
    return corrupt_ref (self, error, &row, "module", module_id, "modules");
  f->name = hp_store_db_column_text (stmt, 1) ?: g_strdup ("");
  f->module_id = module_id;
  f->file = hp_store_db_column_text (stmt, 3);
  f->line = (guint) line;
  return TRUE;
}

static gboolean
load_frame_row (HpCapture *self, HpCaptureData *data, sqlite3_stmt *stmt, GError **error)
{
  gint64 id, function_id, line, is_inline, offset;
  HpCaptureFrame *f = next_id_row (self, data->frames, "frames", stmt, &id, error);
  RowName row = { "frames", ROW_BY_ID, id, 0 };

  if (f == NULL ||
      !column_integer (self, stmt, 1, &row, G_MININT64, G_MAXINT64, &function_id, error) ||
      !column_integer (self, stmt, 3, &row, 0, G_MAXINT32, &line, error) ||
      !column_integer (self, stmt, 4, &row, G_MININT64, G_MAXINT64, &is_inline, error) ||
      /* kernel addresses are stored as negative integers */
      !column_integer (self, stmt, 5, &row, G_MININT64, G_MAXINT64, &offset, error))
    return FALSE;
  if (function_id <= 0 || function_id >= (gint64) data->functions->len)
    return corrupt_ref (self, error, &row, "function", function_id, "functions");
  f->function_id = function_id;
  f->file = hp_store_db_column_text (stmt, 2);
  f->line = (guint) line;
  f->is_inline = is_inline != 0;
  f->offset = (guint64) offset;
  if (self->version >= 4)
    {
      const unsigned char *tier = sqlite3_column_text (stmt, 6);

      /* Anything but one known mark reads as no tier. */
      if (tier != NULL && tier[0] != '\0' && tier[1] == '\0' && strchr ("~^+*", tier[0]) != NULL)
        f->tier = (char) tier[0];
    }
  return TRUE;
}

static gboolean
load_stack_row (HpCapture *self, HpCaptureData *data, sqlite3_stmt *stmt, GError **error)
{
  gint64 id, parent_id, frame_id;
  HpCaptureStack *s = next_id_row (self, data->stacks, "stacks", stmt, &id, error);
  RowName row = { "stacks", ROW_BY_ID, id, 0 };

  if (s == NULL ||
      !column_integer (self, stmt, 1, &row, G_MININT64, G_MAXINT64, &parent_id, error) ||
      !column_integer (self, stmt, 2, &row, G_MININT64, G_MAXINT64, &frame_id, error))
    return FALSE;
  /* the analysis builds trees in one pass in id order */
  if (parent_id < 0)
    return corrupt_ref (self, error, &row, "parent stack", parent_id, "stacks");
  if (parent_id >= id)
    {
      g_autofree char *name = row_name (&row);

      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                   _("%s: corrupt capture: %s has parent stack %" PRId64
                     ", which does not come before it (a parent's id is always smaller)"),
                   self->path, name, parent_id);
      return FALSE;
    }
  if (frame_id <= 0 || frame_id >= (gint64) data->frames->len)
    return corrupt_ref (self, error, &row, "frame", frame_id, "frames");
  s->parent_id = parent_id;
  s->frame_id = frame_id;
  return TRUE;
}

/* Running totals of stack_counts as it loads. */
typedef struct {
  guint64 samples;
  guint64 weight;
} Totals;

/* Checks and appends a row of stack_counts, or of the same aggregate
 * computed from samples: stack_id, tid, samples, weight, event_id. With
 * @per_stack, a row of the stack and event of one of the last rows is
 * added into it instead (tid 0): as the rows come in stack order, each
 * stack and event then has one row. Every row is checked either way. */
static gboolean
add_count (HpCapture       *self,
           HpCaptureData   *data,
           sqlite3_stmt    *stmt,
           const char      *table,
           gboolean         per_stack,
           Totals          *totals,
           GError         **error)
{
  HpCaptureStackCount c;
  RowName row = { table, ROW_BY_STACK_TID, sqlite3_column_int64 (stmt, 0), sqlite3_column_int64 (stmt, 1) };
  gint64 stack_id, tid, samples, weight, event_id;

  if (!column_integer (self, stmt, 0, &row, G_MININT64, G_MAXINT64, &stack_id, error) ||
      !column_integer (self, stmt, 1, &row, G_MININT32, G_MAXINT32, &tid, error) ||
      !column_integer (self, stmt, 2, &row, 0, MAX_TOTAL, &samples, error) ||
      !column_integer (self, stmt, 3, &row, 0, MAX_TOTAL, &weight, error) ||
      !column_integer (self, stmt, 4, &row, G_MININT64, G_MAXINT64, &event_id, error))
    return FALSE;
  /* 0: a sample without any resolved frame */
  if (stack_id < 0 || stack_id >= (gint64) data->stacks->len)
    return corrupt_ref (self, error, &row, "stack", stack_id, "stacks");
  if (event_id <= 0 || event_id >= (gint64) data->events->len)
    return corrupt_ref (self, error, &row, "event", event_id, "events");
  totals->samples += samples;
  totals->weight += weight;
  if (totals->samples > MAX_TOTAL || totals->weight > MAX_TOTAL)
    {
      g_autofree char *name = row_name (&row);

      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                   _("%s: corrupt capture: the %s of %s add up to more than 2^62 at %s"),
                   self->path, totals->samples > MAX_TOTAL ? "samples" : "weights", table, name);
      return FALSE;
    }
  if (per_stack)
    /* a stack's rows of other events are among its last few */
    for (guint i = data->all_counts->len; i > 0; i--)
      {
        HpCaptureStackCount *last = &g_array_index (data->all_counts, HpCaptureStackCount, i - 1);

        if (last->stack_id != stack_id)
          break;
        if (last->event_id == (guint32) event_id)
          {
            last->samples += (guint64) samples;
            last->weight += (guint64) weight;
            return TRUE;
          }
      }
  c.stack_id = stack_id;
  c.tid = per_stack ? 0 : (gint32) tid;
  c.samples = (guint64) samples;
  c.weight = (guint64) weight;
  c.event_id = (guint32) event_id;
  g_array_append_val (data->all_counts, c);
  return TRUE;
}

static gboolean
load_event_row (HpCapture *self, HpCaptureData *data, sqlite3_stmt *stmt, GError **error)
{
  gint64 id, frequency, period;
  HpCaptureEvent *e;
  RowName row = { "events", ROW_BY_ORDINAL, data->events->len, 0 };

  if (data->events->len > HP_CAPTURE_MAX_EVENTS)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                   _("%s: corrupt capture: events has more than %d rows"),
                   self->path, HP_CAPTURE_MAX_EVENTS);
      return FALSE;
    }
  e = next_id_row (self, data->events, "events", stmt, &id, error);
  row.kind = ROW_BY_ID;
  row.a = id;
  if (e == NULL ||
      !column_integer (self, stmt, 3, &row, 0, G_MAXINT64, &frequency, error) ||
      !column_integer (self, stmt, 4, &row, 0, G_MAXINT64, &period, error))
    return FALSE;
  e->name = hp_store_db_column_text (stmt, 1) ?: g_strdup ("");
  e->unit = hp_store_db_column_text (stmt, 2) ?: g_strdup ("");
  /* as the metadata's frequency: a rate no kernel samples at is unknown */
  e->frequency = frequency <= HP_CAPTURE_MAX_FREQUENCY ? (guint64) frequency : 0;
  e->period = (guint64) period;
  return TRUE;
}

/* A capture of version 1, or one whose writer added no event, counts one
 * event that its metadata describes. */
static void
add_metadata_event (HpCaptureData *data)
{
  HpCaptureEvent e = { 0, };
  const char *name = g_hash_table_lookup (data->metadata, HP_META_EVENT);
  const char *unit = g_hash_table_lookup (data->metadata, HP_META_EVENT_UNIT);
  const char *frequency = g_hash_table_lookup (data->metadata, HP_META_FREQUENCY);
  const char *period = g_hash_table_lookup (data->metadata, HP_META_PERIOD);

  e.name = g_strdup (name != NULL && *name != '\0' ? name : "samples");
  e.unit = g_strdup (unit != NULL && *unit != '\0' ? unit : "samples");
  if (frequency != NULL)
    e.frequency = g_ascii_strtoull (frequency, NULL, 10);
  if (period != NULL)
    e.period = g_ascii_strtoull (period, NULL, 10);
  g_array_append_val (data->events, e);
}

static gboolean
load_thread_row (HpCapture *self, HpCaptureData *data, sqlite3_stmt *stmt, GError **error)
{
  RowName row = { "threads", ROW_BY_ORDINAL, data->threads->len + 1, 0 };
  HpCaptureThread t;
  gint64 tid, pid;

  if (!column_integer (self, stmt, 0, &row, G_MININT32, G_MAXINT32, &tid, error) ||
      !column_integer (self, stmt, 1, &row, G_MININT32, G_MAXINT32, &pid, error))
    return FALSE;
  t.tid = (gint32) tid;
  t.pid = (gint32) pid;
  t.name = hp_store_db_column_text (stmt, 2);
  g_array_append_val (data->threads, t);
  return TRUE;
}

static gboolean
load_process_row (HpCapture *self, HpCaptureData *data, sqlite3_stmt *stmt, GError **error)
{
  RowName row = { "processes", ROW_BY_ORDINAL, data->processes->len + 1, 0 };
  HpCaptureProcess p;
  gint64 pid;

  if (!column_integer (self, stmt, 0, &row, G_MININT32, G_MAXINT32, &pid, error))
    return FALSE;
  p.pid = (gint32) pid;
  p.command = hp_store_db_column_text (stmt, 1);
  g_array_append_val (data->processes, p);
  return TRUE;
}

/* A bad aggregate of samples came from one bad row (a text weight, a
 * negative one): find the first such row, to name it. FALSE with @error
 * set when found. */
static gboolean
find_bad_sample (HpCapture      *self,
                 HpCaptureData  *data,
                 GError        **error)
{
  sqlite3_stmt *stmt = NULL;
  gboolean found = FALSE;

  if (sqlite3_prepare_v2 (self->db,
                          "SELECT rowid, stack_id, tid, weight FROM samples "
                          "WHERE typeof (stack_id) != 'integer' OR typeof (tid) != 'integer' "
                          "   OR typeof (weight) != 'integer' OR weight < 0 OR stack_id < 0 "
                          "   OR tid NOT BETWEEN -2147483648 AND 2147483647 LIMIT 1",
                          -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    {
      RowName row = { "samples", ROW_BY_ROWID, sqlite3_column_int64 (stmt, 0), 0 };
      gint64 v;

      found = !(column_integer (self, stmt, 1, &row, 0, G_MAXINT64, &v, error) &&
                column_integer (self, stmt, 2, &row, G_MININT32, G_MAXINT32, &v, error) &&
                column_integer (self, stmt, 3, &row, 0, G_MAXINT64, &v, error));
    }
  sqlite3_finalize (stmt);
  return !found;
}

/* Loads stack_counts, or aggregates samples in a capture cut short;
 * @per_stack: summed over the threads (add_count()). Both come in stack
 * order: that of stack_counts' key, and of the groups. */
static gboolean
load_counts (HpCapture      *self,
             HpCaptureData  *data,
             gboolean        complete,
             gboolean        per_stack,
             GError        **error)
{
  const char *table = complete ? "stack_counts" : "samples";
  /* version 1 has one event, which every sample counts */
  const char *sql = self->version >= 2 ?
    (complete ?
     "SELECT stack_id, tid, samples, weight, event_id FROM stack_counts" :
     /* min (weight) catches a negative weight that the others in its
      * group would hide */
     "SELECT stack_id, tid, count (*) AS samples, sum (weight) AS weight, event_id, "
     "       min (weight) AS min_weight, min (time), max (time) "
     "FROM samples GROUP BY stack_id, tid, event_id") :
    (complete ?
     "SELECT stack_id, tid, samples, weight, 1 AS event_id FROM stack_counts" :
     "SELECT stack_id, tid, count (*) AS samples, sum (weight) AS weight, 1 AS event_id, "
     "       min (weight) AS min_weight, min (time), max (time) "
     "FROM samples GROUP BY stack_id, tid");
  Totals totals = { 0, 0 };
  g_autoptr(GError) local_error = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean ok = TRUE;
  int rc;

  if (sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, HP_STORE_ERROR_CORRUPT, "cannot read the capture");
      return FALSE;
    }
  while (ok && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 min_weight = 0;

      if (!complete)
        {
          RowName row = { "samples", ROW_BY_STACK_TID,
                          sqlite3_column_int64 (stmt, 0), sqlite3_column_int64 (stmt, 1) };
          gint64 first = 0, last = 0;

          if (!column_integer (self, stmt, 5, &row, 0, G_MAXINT64, &min_weight, &local_error) ||
              !column_integer (self, stmt, 6, &row, 0, G_MAXINT64, &first, &local_error) ||
              !column_integer (self, stmt, 7, &row, 0, G_MAXINT64, &last, &local_error))
            ok = FALSE;
          /* its length, for want of the duration the end writes */
          else if (data->last_time == 0)
            {
              data->first_time = first;
              data->last_time = last;
            }
          else
            {
              data->first_time = MIN (data->first_time, (guint64) first);
              data->last_time = MAX (data->last_time, (guint64) last);
            }
        }
      if (ok)
        ok = add_count (self, data, stmt, table, per_stack, &totals, &local_error);
    }
  if (ok && rc != SQLITE_DONE)
    {
      if (!complete && (rc & 0xff) == SQLITE_ERROR &&
          strcmp (sqlite3_errmsg (self->db), "integer overflow") == 0)
        g_set_error (&local_error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                     _("%s: corrupt capture: the weights of samples add up to more than 2^63"),
                     self->path);
      else
        set_error_db (&local_error, self, HP_STORE_ERROR_CORRUPT, "cannot read the capture");
      ok = FALSE;
    }
  sqlite3_finalize (stmt);
  if (ok)
    return TRUE;
  /* name the sample row rather than its group, when one row is to blame */
  if (!complete && self->stopped == STOP_NONE &&
      g_error_matches (local_error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT) &&
      !find_bad_sample (self, data, error))
    return FALSE;
  g_propagate_error (error, g_steal_pointer (&local_error));
  return FALSE;
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
clear_event (gpointer p)
{
  HpCaptureEvent *e = p;

  g_free (e->name);
  g_free (e->unit);
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

#define HUGE_PAGE ((guintptr) 2 * 1024 * 1024)

/* An array for the rows of a table, with room for @reserve of them. Where
 * that room spans whole 2 MB pages, the kernel is asked for those: the
 * stacks of a big capture fill tens of MB, which in 4 kB pages cost
 * thousands of page faults, a good part of loading it (Debian's
 * transparent huge pages are "madvise"; nothing changes where they are
 * off). */
static GArray *
new_id_array (gsize          element_size,
              GDestroyNotify clear,
              guint          reserve)
{
  GArray *array = g_array_sized_new (FALSE, TRUE, element_size, reserve + 1);
  guintptr start = ((guintptr) array->data + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  guintptr end = ((guintptr) array->data + (gsize) (reserve + 1) * element_size) & ~(HUGE_PAGE - 1);

  if (end > start)
    madvise ((gpointer) start, end - start, MADV_HUGEPAGE);
  g_array_set_clear_func (array, clear);
  g_array_set_size (array, 1);  /* [0] unused, zeroed */
  return array;
}

/* How many rows to make room for before reading a table, so that its
 * array does not grow, copying itself, row by row: @sql's answer (the
 * largest id, which a capture numbers from 1 without gaps, or a count).
 * Nothing when the file would need more than 16 bytes a row to hold that
 * many (a row of stacks with its index takes more, and an array element
 * at most 40): a hostile id costs no memory, and loading names it. */
static guint
rows_to_reserve (HpCapture  *self,
                 const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  gint64 rows = 0;

  if (sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW &&
      sqlite3_column_type (stmt, 0) == SQLITE_INTEGER)
    rows = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  if (rows <= 0 || rows > file_bytes (self) / 16 || rows >= G_MAXUINT - 1)
    return 0;
  return (guint) rows;
}

/* Fills stack_counts with the counts of the events in @mask. With one
 * event, they are all_counts. */
static void
select_counts (HpCaptureData *data,
               guint64        mask)
{
  guint64 every = data->events->len - 1 >= 64 ? G_MAXUINT64
                                              : ((guint64) 1 << (data->events->len - 1)) - 1;

  mask &= every;
  data->event_mask = mask;
  g_clear_pointer (&data->stack_counts, g_array_unref);
  if (mask == every)
    {
      data->stack_counts = g_array_ref (data->all_counts);
      return;
    }
  data->stack_counts = g_array_new (FALSE, FALSE, sizeof (HpCaptureStackCount));
  for (guint i = 0; i < data->all_counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (data->all_counts, HpCaptureStackCount, i);

      if (mask & ((guint64) 1 << (c->event_id - 1)))
        g_array_append_val (data->stack_counts, *c);
    }
}

static HpCaptureData *
load (HpCapture  *self,
      gboolean    per_stack,
      GError    **error)
{
  g_autoptr(HpCaptureData) data = NULL;
  /* in the transaction of hp_capture_check_loads()'s caller: that one's */
  gboolean own_txn = sqlite3_get_autocommit (self->db);
  gboolean ok;

  begin_operation (self);
  if (check_cancelled (self, error))
    return NULL;

  data = g_new0 (HpCaptureData, 1);
  data->modules = new_id_array (sizeof (HpCaptureModule), clear_module, 0);
  data->events = new_id_array (sizeof (HpCaptureEvent), clear_event, 0);
  data->threads = g_array_new (FALSE, TRUE, sizeof (HpCaptureThread));
  g_array_set_clear_func (data->threads, clear_thread);
  data->processes = g_array_new (FALSE, TRUE, sizeof (HpCaptureProcess));
  g_array_set_clear_func (data->processes, clear_process);
  data->metadata = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  /* One read transaction: a recorder committing batches meanwhile does not
   * give us samples that reference stacks we did not read. */
  if (own_txn && sqlite3_exec (self->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, HP_STORE_ERROR_IO, "cannot read the capture");
      return NULL;
    }
  data->functions = new_id_array (sizeof (HpCaptureFunction), clear_function,
                                  rows_to_reserve (self, "SELECT max (id) FROM functions"));
  data->frames = new_id_array (sizeof (HpCaptureFrame), clear_frame,
                               rows_to_reserve (self, "SELECT max (id) FROM frames"));
  data->stacks = new_id_array (sizeof (HpCaptureStack), NULL,
                               rows_to_reserve (self, "SELECT max (id) FROM stacks"));
  /* counted, that is read, only when there is a row for each */
  data->all_counts = g_array_sized_new (FALSE, TRUE, sizeof (HpCaptureStackCount),
                                        per_stack ? 0 : rows_to_reserve (self, "SELECT count (*) FROM stack_counts"));

  /* Each table after those it refers to, so that every reference is
   * checked as its row is read: the analysis indexes arrays with these
   * ids and does not check them again. */
  ok = for_each_row (self, data, "SELECT key, value FROM metadata", load_metadata_row, error) &&
       for_each_row (self, data, "SELECT id, path, build_id, is_kernel FROM modules ORDER BY id",
                     load_module_row, error) &&
       for_each_row (self, data, "SELECT id, name, module_id, file, line FROM functions ORDER BY id",
                     load_function_row, error) &&
       for_each_row (self, data,
                     self->version >= 4
                       ? "SELECT id, function_id, file, line, is_inline, offset, tier FROM frames ORDER BY id"
                       : "SELECT id, function_id, file, line, is_inline, offset FROM frames ORDER BY id",
                     load_frame_row, error) &&
       for_each_row (self, data, "SELECT id, parent_id, frame_id FROM stacks ORDER BY id",
                     load_stack_row, error) &&
       for_each_row (self, data, "SELECT tid, pid, name FROM threads ORDER BY tid",
                     load_thread_row, error) &&
       for_each_row (self, data, "SELECT pid, command FROM processes ORDER BY pid",
                     load_process_row, error) &&
       (self->version < 2 ||
        for_each_row (self, data, "SELECT id, name, unit, frequency, period FROM events ORDER BY id",
                      load_event_row, error));
  if (ok && data->events->len == 1)
    add_metadata_event (data);

  /* A capture cut short has no aggregate: build it from the samples. */
  if (ok)
    {
      gboolean complete = g_strcmp0 (g_hash_table_lookup (data->metadata, HP_META_COMPLETE), "1") == 0;
      gint64 no_counts = 0, has_samples = 0;
      int rc;

      /* One marked complete whose stack_counts is empty but whose samples
       * are not (the aggregate deleted by a script, or a tool that set
       * complete itself) read as no samples at all, silently: the
       * samples are the measurement, stack_counts only their sums. An
       * import without times has counts and no samples, and a recording
       * that took no sample has neither. */
      if (complete &&
          (!query_int (self, "SELECT NOT EXISTS (SELECT 1 FROM stack_counts)", &no_counts, &rc) ||
           (no_counts && !query_int (self, "SELECT EXISTS (SELECT 1 FROM samples)", &has_samples, &rc))))
        {
          /* not read as complete and empty: that is what this check is for */
          set_error_db (error, self, HP_STORE_ERROR_IO, "cannot read the capture");
          ok = FALSE;
        }
      else if (complete && no_counts && has_samples)
        {
          g_debug ("%s: complete, but stack_counts is empty: aggregating its samples", self->path);
          complete = FALSE;
          data->counts_summed = TRUE;
        }
      if (ok)
        ok = load_counts (self, data, complete, per_stack, error);
    }

  if (own_txn)
    sqlite3_exec (self->db, "COMMIT", NULL, NULL, NULL);

  if (!ok)
    {
      g_autoptr(GError) schema_error = NULL;

      /* A trigger or a view added since the capture was opened fails in
       * SQLite with a message about what it hides ("no such table"): name
       * it instead. */
      if (self->stopped == STOP_NONE && error != NULL && *error != NULL &&
          !check_schema (self, &schema_error))
        {
          g_clear_error (error);
          g_propagate_error (error, g_steal_pointer (&schema_error));
        }
      return NULL;
    }
  /* cancelled after SQLite's last step: the caller no longer wants it */
  if (check_cancelled (self, error))
    return NULL;

  select_counts (data, 1);
  return g_steal_pointer (&data);
}

HpCaptureData *
hp_capture_load (HpCapture  *self,
                 GError    **error)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return load (self, FALSE, error);
}

HpCaptureData *
hp_capture_load_stack_totals (HpCapture  *self,
                              GError    **error)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return load (self, TRUE, error);
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
  g_clear_pointer (&data->events, g_array_unref);
  g_clear_pointer (&data->all_counts, g_array_unref);
  g_free (data);
}

/* Summaries ----------------------------------------------------------- */

/* A hostile capture's text of 60 MB is read as far as
 * HP_STORE_MAX_SUMMARY_CHARS (SQLite holds it whole meanwhile, up to
 * MAX_VALUE_LENGTH; a longer one fails the read with a message that says
 * so), and says where it was cut. */
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
  if (sqlite3_prepare_v2 (self->db, "SELECT " HP_STORE_SUMMARY_TEXT_COLUMN " FROM summaries WHERE path_key = ?",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, HP_STORE_ERROR_CORRUPT, "cannot read summaries");
      return NULL;
    }
  sqlite3_bind_text (stmt, 1, path_key, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    text = hp_store_db_column_summary_text (stmt, 0);
  else if (rc != SQLITE_DONE)
    set_error_db (error, self, HP_STORE_ERROR_IO, "cannot read summaries");
  sqlite3_finalize (stmt);
  return text;
}

/* Opens the transaction of a write. An older capture is brought up to
 * this format version first, inside it (schema.sql's migrations), so that
 * the write and the migration land together or not at all. */
static gboolean
begin_write (HpCapture   *self,
             const char  *what,
             GError     **error)
{
  gint64 version = 0;
  int moved = 0;
  int rc;

  if (self->read_only_reason != NULL)
    {
      g_set_error_literal (error, HP_STORE_ERROR, HP_STORE_ERROR_READ_ONLY, self->read_only_reason);
      return FALSE;
    }

  begin_operation (self);
  if (sqlite3_exec (self->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, HP_STORE_ERROR_IO, what);
      return FALSE;
    }
  /* The name may lead to another file by now (one renamed over it, or
   * none): what was checked and would be written is then a file nobody
   * reads again, and what is written would be lost. */
  if (sqlite3_file_control (self->db, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   _("%s: %s: the file was replaced or removed since it was opened; open it again"),
                   self->path, what);
      sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
      return FALSE;
    }
  if (!query_int (self, "PRAGMA user_version", &version, &rc))
    goto fail;
  if (!check_schema (self, error))
    {
      sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
      return FALSE;
    }
  if (version < HP_CAPTURE_FORMAT_VERSION)
    {
      g_autofree char *sql = hp_schema_migration_sql (version);

      if (sqlite3_exec (self->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        {
          g_autofree char *message = g_utf8_make_valid (sqlite3_errmsg (self->db), -1);

          /* A full disk or an I/O error is said as such, not as tables
           * another program changed. */
          if ((sqlite3_errcode (self->db) & 0xff) != SQLITE_ERROR)
            goto fail;
          /* A file labelled older than its tables (its user_version set
           * back by another program) failed here with SQLite's bare
           * "table events already exists". */
          if (!set_error_stopped (error, self))
            g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                         _("%s: %s: the capture is labelled format version %" PRId64 ", but its tables are not "
                           "those of that version (another program changed it), so it cannot be brought up to "
                           "version %d: %s"),
                         self->path, what, version, HP_CAPTURE_FORMAT_VERSION, message);
          sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
          return FALSE;
        }
      self->version = HP_CAPTURE_FORMAT_VERSION;
    }
  return TRUE;

fail:
  set_error_db (error, self, HP_STORE_ERROR_IO, what);
  sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}

/* Commits when @ok, else rolls back and sets @error. */
static gboolean
end_write (HpCapture   *self,
           gboolean     ok,
           const char  *what,
           GError     **error)
{
  if (ok)
    ok = sqlite3_exec (self->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
  if (!ok)
    {
      int code = (sqlite3_errcode (self->db) & 0xff) == SQLITE_READONLY ?
                 HP_STORE_ERROR_READ_ONLY : HP_STORE_ERROR_IO;

      set_error_db (error, self, code, what);
      sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
    }
  return ok;
}

gboolean
hp_capture_write (HpCapture           *self,
                  const char          *what,
                  gint64               extra_bytes,
                  HpCaptureWriteFunc   func,
                  gpointer             user_data,
                  GError             **error)
{
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (what != NULL, FALSE);
  g_return_val_if_fail (func != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->read_only_reason != NULL)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_READ_ONLY,
                   _("%s: %s: the file or its folder is read-only"), self->path, what);
      return FALSE;
    }
  /* what @func writes comes from elsewhere: its work is allowed for too */
  set_work_limit (self);
  self->work_limit += MAX (extra_bytes, 0) * WORK_PER_BYTE / PROGRESS_STEPS;
  if (!begin_write (self, what, error))
    {
      set_work_limit (self);
      return FALSE;
    }
  ok = func (self->db, user_data, error);
  /* @func may have run a handler of its own (hp_capture_check_loads()) */
  sqlite3_progress_handler (self->db, PROGRESS_STEPS, on_progress, self);
  if (!ok)
    {
      if (error != NULL && *error == NULL)
        set_error_db (error, self, HP_STORE_ERROR_IO, what);
      else if (self->stopped != STOP_NONE && error != NULL)
        {
          /* SQLite's "interrupted" said as what stopped it */
          g_clear_error (error);
          set_error_stopped (error, self);
        }
      sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
    }
  else
    ok = end_write (self, TRUE, what, error);
  set_work_limit (self);
  return ok;
}

/* Sets the summary of a call path; a NULL or empty @text deletes it. */
gboolean
hp_capture_set_summary (HpCapture   *self,
                        const char  *path_key,
                        const char  *readable_path,
                        const char  *text,
                        GError     **error)
{
  return hp_capture_set_summary_full (self, path_key, readable_path, text, NAN, error);
}

gboolean
hp_capture_set_summary_full (HpCapture   *self,
                             const char  *path_key,
                             const char  *readable_path,
                             const char  *text,
                             double       share,
                             GError     **error)
{
  g_autoptr(GDateTime) now = NULL;
  g_autofree char *stamp = NULL;
  g_autofree char *capture = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean delete = (text == NULL || text[0] == '\0');
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path_key != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  now = g_date_time_new_now_utc ();
  stamp = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
  capture = g_path_get_basename (self->path);

  if (!begin_write (self, "cannot save the summary", error))
    return FALSE;
  /* written here and now: where and with what share say so, and the path
   * is one of this capture's (the writer found it in the profile) */
  ok = sqlite3_prepare_v2 (self->db,
                           delete ?
                           "DELETE FROM summaries WHERE path_key = ?1" :
                           "INSERT INTO summaries (path_key, path, text, created, updated, capture, share, found) "
                           "VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?6, 1) "
                           "ON CONFLICT (path_key) DO UPDATE SET "
                           "  path = excluded.path, text = excluded.text, updated = excluded.updated, "
                           "  capture = excluded.capture, share = excluded.share, found = 1",
                           -1, &stmt, NULL) == SQLITE_OK;
  if (ok)
    {
      sqlite3_bind_text (stmt, 1, path_key, -1, SQLITE_STATIC);
      if (!delete)
        {
          sqlite3_bind_text (stmt, 2, readable_path ? readable_path : "", -1, SQLITE_STATIC);
          sqlite3_bind_text (stmt, 3, text, -1, SQLITE_STATIC);
          sqlite3_bind_text (stmt, 4, stamp, -1, SQLITE_STATIC);
          sqlite3_bind_text (stmt, 5, capture, -1, SQLITE_STATIC);
          if (isfinite (share))
            sqlite3_bind_double (stmt, 6, share);
          else
            sqlite3_bind_null (stmt, 6);
        }
      ok = sqlite3_step (stmt) == SQLITE_DONE;
    }
  sqlite3_finalize (stmt);
  return end_write (self, ok, "cannot save the summary", error);
}

gboolean
hp_capture_put_summaries (HpCapture  *self,
                          GPtrArray  *summaries,
                          GError    **error)
{
  sqlite3_stmt *stmt = NULL;
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (summaries != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!begin_write (self, "cannot save the summaries", error))
    return FALSE;
  ok = sqlite3_prepare_v2 (self->db,
                           "INSERT OR REPLACE INTO summaries "
                           "(path_key, path, text, created, updated, capture, share, found) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                           -1, &stmt, NULL) == SQLITE_OK;
  for (guint i = 0; ok && i < summaries->len; i++)
    {
      const HpCaptureSummary *summary = g_ptr_array_index (summaries, i);
      g_autofree char *stamp = NULL;

      if (summary->path_key == NULL || summary->text == NULL || summary->text[0] == '\0')
        continue;
      if (summary->created == NULL || summary->updated == NULL)
        {
          g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

          stamp = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
        }
      sqlite3_reset (stmt);
      sqlite3_bind_text (stmt, 1, summary->path_key, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 2, summary->path ? summary->path : "", -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 3, summary->text, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 4, summary->created ? summary->created : stamp, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 5, summary->updated ? summary->updated : stamp, -1, SQLITE_STATIC);
      if (summary->capture != NULL)
        sqlite3_bind_text (stmt, 6, summary->capture, -1, SQLITE_STATIC);
      else
        sqlite3_bind_null (stmt, 6);
      if (isfinite (summary->share))
        sqlite3_bind_double (stmt, 7, summary->share);
      else
        sqlite3_bind_null (stmt, 7);
      sqlite3_bind_int (stmt, 8, summary->found ? 1 : 0);
      ok = sqlite3_step (stmt) == SQLITE_DONE;
    }
  sqlite3_finalize (stmt);
  return end_write (self, ok, "cannot save the summaries", error);
}

/* A share as the file holds it: a number from 0 to 100, else unknown. */
static double
column_share (sqlite3_stmt *stmt,
              int           i)
{
  double share;

  if (sqlite3_column_type (stmt, i) != SQLITE_FLOAT && sqlite3_column_type (stmt, i) != SQLITE_INTEGER)
    return NAN;
  share = sqlite3_column_double (stmt, i);
  return isfinite (share) && share >= 0 && share <= 100 ? share : NAN;
}

/* Whether a list that holds @n summaries, and @bytes of their text,
 * takes no more: HP_STORE_MAX_SUMMARY_ROWS and HP_STORE_MAX_SUMMARY_BYTES
 * (@stmt's first @n_columns count). Marks the capture's summaries cut. */
static gboolean
summary_list_full (HpCapture    *self,
                   sqlite3_stmt *stmt,
                   guint         n,
                   int           n_columns,
                   gint64       *bytes)
{
  for (int i = 0; i < n_columns; i++)
    *bytes += sqlite3_column_bytes (stmt, i);
  if (n < HP_STORE_MAX_SUMMARY_ROWS && *bytes <= HP_STORE_MAX_SUMMARY_BYTES)
    return FALSE;
  self->summaries_cut = TRUE;
  return TRUE;
}

gboolean
hp_capture_summaries_cut (HpCapture *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->summaries_cut;
}

GPtrArray *
hp_capture_list_summary_rows (HpCapture  *self,
                              GError    **error)
{
  return hp_capture_list_summary_rows_after (self, NULL, error);
}

GPtrArray *
hp_capture_list_summary_rows_after (HpCapture   *self,
                                    const char  *after,
                                    GError     **error)
{
  g_autoptr(GPtrArray) rows = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 bytes = 0;
  int rc;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  begin_operation (self);
  /* two statements rather than "?2 IS NULL OR": each a range of the
   * primary key's index, so a page costs its rows, not the table. Past
   * the first page only text keys: a blob (a hostile one) sorts after
   * every text, and would come back on every page */
#define SUMMARY_ROWS_SELECT(where) \
  (self->version >= 3 ? \
   "SELECT path_key, path, " HP_STORE_SUMMARY_TEXT_COLUMN ", created, updated, capture, share, found " \
   "FROM summaries WHERE path_key IS NOT NULL" where " ORDER BY path_key LIMIT ?1" : \
   "SELECT path_key, path, " HP_STORE_SUMMARY_TEXT_COLUMN ", created, updated, NULL, NULL, 1 " \
   "FROM summaries WHERE path_key IS NOT NULL" where " ORDER BY path_key LIMIT ?1")
  if (sqlite3_prepare_v2 (self->db,
                          after != NULL ? SUMMARY_ROWS_SELECT (" AND path_key > ?2 AND typeof (path_key) = 'text'") : SUMMARY_ROWS_SELECT (""),
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, HP_STORE_ERROR_CORRUPT, "cannot read summaries");
      return NULL;
    }
#undef SUMMARY_ROWS_SELECT
  /* one more than is read: whether some were left out */
  sqlite3_bind_int (stmt, 1, HP_STORE_MAX_SUMMARY_ROWS + 1);
  if (after != NULL)
    sqlite3_bind_text (stmt, 2, after, -1, SQLITE_STATIC);
  self->summaries_cut = FALSE;
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hp_capture_summary_free);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      HpCaptureSummary *summary;

      if (summary_list_full (self, stmt, rows->len, 6, &bytes))
        break;
      summary = g_new0 (HpCaptureSummary, 1);
      summary->path_key = hp_store_db_column_text (stmt, 0);
      summary->path = hp_store_db_column_text (stmt, 1) ?: g_strdup ("");
      summary->text = hp_store_db_column_summary_text (stmt, 2) ?: g_strdup ("");
      summary->created = hp_store_db_column_text (stmt, 3);
      summary->updated = hp_store_db_column_text (stmt, 4);
      summary->capture = hp_store_db_column_text (stmt, 5);
      summary->share = column_share (stmt, 6);
      summary->found = sqlite3_column_type (stmt, 7) != SQLITE_INTEGER || sqlite3_column_int64 (stmt, 7) != 0;
      g_ptr_array_add (rows, summary);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE && !self->summaries_cut)
    {
      set_error_db (error, self, HP_STORE_ERROR_IO, "cannot read summaries");
      return NULL;
    }
  return g_steal_pointer (&rows);
}

HpCaptureSummary *
hp_capture_summary_copy (const HpCaptureSummary *summary)
{
  HpCaptureSummary *copy;

  g_return_val_if_fail (summary != NULL, NULL);

  copy = g_new0 (HpCaptureSummary, 1);
  copy->path_key = g_strdup (summary->path_key);
  copy->path = g_strdup (summary->path);
  copy->text = g_strdup (summary->text);
  copy->created = g_strdup (summary->created);
  copy->updated = g_strdup (summary->updated);
  copy->capture = g_strdup (summary->capture);
  copy->share = summary->share;
  copy->found = summary->found;
  return copy;
}

void
hp_capture_summary_free (HpCaptureSummary *summary)
{
  if (summary == NULL)
    return;
  g_free (summary->path_key);
  g_free (summary->path);
  g_free (summary->text);
  g_free (summary->created);
  g_free (summary->updated);
  g_free (summary->capture);
  g_free (summary);
}

GHashTable *
hp_capture_list_summaries (HpCapture  *self,
                           GError    **error)
{
  g_autoptr(GHashTable) table = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 bytes = 0;
  int rc;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  begin_operation (self);
  /* the same rows as hp_capture_list_summary_rows() */
  if (sqlite3_prepare_v2 (self->db, "SELECT path_key, " HP_STORE_SUMMARY_TEXT_COLUMN " FROM summaries "
                                    "WHERE path_key IS NOT NULL ORDER BY path_key LIMIT ?1",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      set_error_db (error, self, HP_STORE_ERROR_CORRUPT, "cannot read summaries");
      return NULL;
    }
  sqlite3_bind_int (stmt, 1, HP_STORE_MAX_SUMMARY_ROWS + 1);
  self->summaries_cut = FALSE;
  table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      char *key;

      if (summary_list_full (self, stmt, g_hash_table_size (table), 2, &bytes))
        break;
      key = hp_store_db_column_text (stmt, 0);
      g_hash_table_replace (table, key, hp_store_db_column_summary_text (stmt, 1) ?: g_strdup (""));
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE && !self->summaries_cut)
    {
      set_error_db (error, self, HP_STORE_ERROR_IO, "cannot read summaries");
      return NULL;
    }
  return g_steal_pointer (&table);
}

gboolean
hp_capture_check_loads (sqlite3       *db,
                        const char    *path,
                        gint64         added_bytes,
                        GCancellable  *cancellable,
                        GError       **error)
{
  HpCapture self = { 0 };
  g_autoptr(HpCaptureData) data = NULL;
  int rc;

  g_return_val_if_fail (db != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* the connection stays the caller's: borrowed, never closed here */
  self.path = (char *) path;
  self.db = db;
  self.cancellable = cancellable;
  set_work_limit (&self);
  self.work_limit += MAX (added_bytes, 0) * WORK_PER_BYTE / PROGRESS_STEPS;
  sqlite3_progress_handler (db, PROGRESS_STEPS, on_progress, &self);
  begin_operation (&self);
  if (!query_int (&self, "PRAGMA user_version", &self.version, &rc))
    set_error_db (error, &self, HP_STORE_ERROR_IO, "cannot read the capture");
  else
    data = load (&self, FALSE, error);
  sqlite3_progress_handler (db, 0, NULL, NULL);
  return data != NULL;
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
  guint64 total_weight = 0;
  /* data made by hand (tests) has one event */
  gint64 n_events = data != NULL && data->events != NULL ? data->events->len : 2;
  guint64 mask = data != NULL && data->events != NULL ? data->event_mask : 1;
  int rc;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  begin_operation (self);
  if (check_cancelled (self, error))
    return NULL;
  if (sqlite3_prepare_v2 (self->db,
                          self->version >= 2 ? "SELECT time, tid, stack_id, weight, event_id FROM samples"
                                             : "SELECT time, tid, stack_id, weight, 1 FROM samples",
                          -1, &stmt, NULL) != SQLITE_OK)
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
      gint64 event_id = sqlite3_column_int64 (stmt, 4);

      row++;
      for (int i = 0; i < 5; i++)
        if (sqlite3_column_type (stmt, i) != SQLITE_INTEGER)
          {
            g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                         _("%s: corrupt capture: samples row %" PRId64 " has a %s that is not an integer"),
                         self->path, row, sqlite3_column_name (stmt, i));
            sqlite3_finalize (stmt);
            return NULL;
          }
      if (time < 0 || weight < 0 || tid < G_MININT32 || tid > G_MAXINT32
          || stack_id < 0 || stack_id >= (gint64) data->stacks->len
          || event_id <= 0 || event_id >= n_events)
        {
          g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                       _("%s: corrupt capture: samples row %" PRId64 " is out of range "
                         "(time %" PRId64 ", tid %" PRId64 ", stack %" PRId64
                         ", weight %" PRId64 ", event %" PRId64 ")"),
                       self->path, row, time, tid, stack_id, weight, event_id);
          sqlite3_finalize (stmt);
          return NULL;
        }
      /* what stack_counts holds is checked so when loading; these are
       * summed again by whatever filters them by time */
      total_weight += (guint64) weight;
      if (total_weight > MAX_TOTAL)
        {
          g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                       _("%s: corrupt capture: the weights of samples add up to more than 2^62 at samples row %" PRId64),
                       self->path, row);
          sqlite3_finalize (stmt);
          return NULL;
        }
      if (!(mask & ((guint64) 1 << (event_id - 1))))
        continue;
      s.time = (guint64) time;
      s.weight = (guint64) weight;
      s.stack_id = (guint32) stack_id;
      s.tid = (gint32) tid;
      s.event_id = (guint32) event_id;
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

/* A copy of the rows of @from, with room for @extra more, that frees
 * their strings with @clear: the caller duplicates them. */
static GArray *
copy_rows (const GArray   *from,
           guint           extra,
           GDestroyNotify  clear)
{
  GArray *to = g_array_sized_new (FALSE, TRUE, g_array_get_element_size ((GArray *) from), from->len + extra);

  g_array_set_clear_func (to, clear);
  g_array_append_vals (to, from->data, from->len);
  return to;
}

GArray *
hp_capture_functions_copy (const GArray *functions,
                           guint         extra)
{
  GArray *to;

  g_return_val_if_fail (functions != NULL, NULL);

  to = copy_rows (functions, extra, clear_function);
  for (guint i = 0; i < to->len; i++)
    {
      HpCaptureFunction *f = &g_array_index (to, HpCaptureFunction, i);

      f->name = g_strdup (f->name);
      f->file = g_strdup (f->file);
    }
  return to;
}

GArray *
hp_capture_frames_copy (const GArray *frames,
                        guint         extra)
{
  GArray *to;

  g_return_val_if_fail (frames != NULL, NULL);

  to = copy_rows (frames, extra, clear_frame);
  for (guint i = 0; i < to->len; i++)
    {
      HpCaptureFrame *f = &g_array_index (to, HpCaptureFrame, i);

      f->file = g_strdup (f->file);
    }
  return to;
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
  /* data made by hand (tests) may lack them */
  copy->events = data->events ? g_array_ref (data->events) : NULL;
  copy->all_counts = data->all_counts ? g_array_ref (data->all_counts) : NULL;
  copy->event_mask = data->event_mask;
  copy->first_time = data->first_time;
  copy->last_time = data->last_time;
  copy->counts_summed = data->counts_summed;
  return copy;
}

HpCaptureData *
hp_capture_data_select_events (const HpCaptureData *data,
                               guint64              event_mask)
{
  HpCaptureData *copy;

  g_return_val_if_fail (data != NULL, NULL);

  g_return_val_if_fail (data->events != NULL && data->all_counts != NULL, NULL);

  copy = hp_capture_data_new_with_counts (data, g_array_new (FALSE, FALSE, sizeof (HpCaptureStackCount)));
  select_counts (copy, event_mask);
  return copy;
}

HpCaptureData *
hp_capture_data_new_weighted (const HpCaptureData *data)
{
  GArray *counts;

  g_return_val_if_fail (data != NULL, NULL);

  counts = g_array_sized_new (FALSE, FALSE, sizeof (HpCaptureStackCount), data->stack_counts->len);
  g_array_append_vals (counts, data->stack_counts->data, data->stack_counts->len);
  for (guint i = 0; i < counts->len; i++)
    {
      HpCaptureStackCount *c = &g_array_index (counts, HpCaptureStackCount, i);

      c->samples = c->weight;
    }
  return hp_capture_data_new_with_counts (data, counts);
}

void
hp_capture_data_get_event (const HpCaptureData *data,
                           const char         **name,
                           const char         **unit)
{
  const HpCaptureEvent *first = NULL;
  guint n = 0;
  gboolean same_unit = TRUE;

  g_return_if_fail (data != NULL);

  *name = g_hash_table_lookup (data->metadata, HP_META_EVENT);
  *unit = g_hash_table_lookup (data->metadata, HP_META_EVENT_UNIT);
  if (data->events == NULL)
    return;
  for (guint i = 1; i < data->events->len; i++)
    if (data->event_mask & ((guint64) 1 << (i - 1)))
      {
        const HpCaptureEvent *e = &g_array_index (data->events, HpCaptureEvent, i);

        if (first == NULL)
          first = e;
        else
          same_unit = same_unit && g_strcmp0 (first->unit, e->unit) == 0;
        n++;
      }
  if (first == NULL)
    return;
  if (n == 1)
    {
      *name = first->name;
      *unit = first->unit;
    }
  else if (n == 2 && same_unit &&
           hp_capture_data_find_event (data, HP_EVENT_CPU_CLOCK) != 0 &&
           hp_capture_data_find_event (data, HP_EVENT_OFF_CPU) != 0 &&
           (data->event_mask & ((guint64) 1 << (hp_capture_data_find_event (data, HP_EVENT_CPU_CLOCK) - 1))) &&
           (data->event_mask & ((guint64) 1 << (hp_capture_data_find_event (data, HP_EVENT_OFF_CPU) - 1))))
    {
      *name = HP_EVENT_WALL;
      *unit = first->unit;
    }
  else
    {
      *name = "several events";
      *unit = same_unit ? first->unit : "mixed units";
    }
}

guint64
hp_capture_data_event_mask (const HpCaptureData *data,
                            const char          *name)
{
  guint id;

  g_return_val_if_fail (data != NULL, 0);
  g_return_val_if_fail (name != NULL, 0);

  if (g_strcmp0 (name, HP_EVENT_WALL) == 0)
    {
      guint on = hp_capture_data_find_event (data, HP_EVENT_CPU_CLOCK);
      guint off = hp_capture_data_find_event (data, HP_EVENT_OFF_CPU);

      return on != 0 && off != 0 ? ((guint64) 1 << (on - 1)) | ((guint64) 1 << (off - 1)) : 0;
    }
  id = hp_capture_data_find_event (data, name);
  return id != 0 ? (guint64) 1 << (id - 1) : 0;
}

guint64
hp_capture_data_count_all_samples (const HpCaptureData *data)
{
  const GArray *counts;
  guint64 n = 0;

  g_return_val_if_fail (data != NULL, 0);

  counts = data->all_counts != NULL ? data->all_counts : data->stack_counts;
  for (guint i = 0; counts != NULL && i < counts->len; i++)
    n += g_array_index (counts, HpCaptureStackCount, i).samples;
  return n;
}

guint
hp_capture_data_find_event (const HpCaptureData *data,
                            const char          *name)
{
  g_return_val_if_fail (data != NULL, 0);
  g_return_val_if_fail (name != NULL, 0);

  for (guint i = 1; data->events != NULL && i < data->events->len; i++)
    if (g_strcmp0 (g_array_index (data->events, HpCaptureEvent, i).name, name) == 0)
      return i;
  return 0;
}
