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
 * A write transaction (BEGIN IMMEDIATE) is opened by the first row written
 * after a commit, and committed every HP_WRITER_BATCH samples and on
 * hp_capture_writer_flush(), so a process killed at any moment leaves the
 * last committed batch behind, a valid capture. With WAL and
 * synchronous=NORMAL a commit does not fsync, which keeps batches cheap.
 *
 * Leaving the lock free. Another program (hotpath-cli summary, the window,
 * a sqlite3 shell) may write into a capture being recorded; it waits for
 * the write lock with SQLite's busy handler, which tries it again every
 * 100 ms at most. A recorder with a backlog began its next transaction
 * the moment it committed, so those tries never found the lock free, and
 * the other program waited until the recorded program ended. So after
 * each commit of a recording that another program has open (SQLite's
 * shared lock on the -shm file's dead-man byte, which every connection
 * holds, seen with F_GETLK; or any capture open in this process, whose
 * locks F_GETLK cannot see), the writer leaves the lock alone for
 * HP_WRITER_YIELD_US (longer than those 100 ms, with room for a loaded
 * machine): samples and stack nodes meanwhile are held as they are
 * (self->held, self->held_stacks: no cost; a new stack node comes with
 * most rounds of a program with varied stacks, and keeping it as SQL,
 * parsed again once the lock is taken, was a sixth of the recorder's
 * CPU), other rows as the SQL they would run, as for another program's lock
 * below; then it takes the lock and writes them. It holds the lock at most
 * HP_WRITER_HOLD_US before it commits again, for a round of records on a
 * loaded machine can take seconds. A program that got the lock meanwhile
 * is then waited for as below, and said so. The writer waits for such a
 * program in turn (busy timeout).
 *
 * The void functions cannot report errors. The first error (a full disk, a
 * lock held for too long) is kept: the transaction it broke is rolled back,
 * nothing is written after it, and every later flush or finish returns it.
 * What was committed before stays, a capture cut short.
 *
 * The aggregates (stack_counts) are counted in memory as samples come, one
 * entry per (stack, thread, event), and written at the end: aggregating the
 * samples table with GROUP BY sorted every sample again, a fifth of the
 * import of a million samples.
 *
 * An import writes a part that nobody reads before it is renamed into
 * place (hp_capture_writer_new_part), and a failed import deletes it: there
 * the batches buy nothing. A part is written in one transaction with its
 * rollback journal in memory (no WAL to copy into the database at the end;
 * defensive mode forbids journal_mode=OFF, and a transaction that appends
 * pages journals little), and its indexes are built once at the end from
 * the finished tables rather than row by row.
 *
 * Another program's lock. A capture being recorded may be opened by
 * another program that takes the write lock and keeps it (a sqlite3 shell
 * in BEGIN EXCLUSIVE, a script that never commits). Once BEGIN IMMEDIATE
 * has waited HP_WRITER_LOCK_TRY_MS for it, the rows are not written but
 * kept, in order, as the SQL they would have run (sqlite3_expanded_sql():
 * the statement with its values), in memory, and at each flush that finds
 * the lock still held (or past HP_WRITER_DEFER_MEMORY) in NAME.pending.sql
 * beside the capture, as SQL sqlite3 applies: a recorder killed meanwhile
 * leaves them there, where hotpath-cli tells the user of them, not in a
 * temporary file nobody knows of (see spill_deferred). Each flush tries the
 * lock again and, once it is free, runs them in one transaction and removes
 * the file. Nothing is lost to the lock, and
 * hp_capture_writer_get_lock_wait() says who holds it and since when.
 * finish() waits HP_WRITER_FINISH_LOCK_WAIT_US for it; if it is still
 * held then, the capture is kept cut short and the rows that wait stay in
 * NAME.pending.sql beside it, which hotpath-cli add-pending adds once
 * the lock is free (the error says so; hp-capture-pending.c, which
 * accepts only this writer's statements: the file may come from anyone). The rows finish() writes (the totals, the
 * complete flag) are written in its own transaction once it has the lock,
 * never one by one while another program holds it; its wait function
 * (hp_capture_writer_set_wait_func) is called as it waits, so that the
 * recorder says so after the program's end as well.
 *
 * Setting up. A recording's capture is created, in WAL mode and with its
 * tables, as this process's part (NAME.PID.part, which no other program
 * opens), and then renamed to its name, never over a file that has it by
 * then. Created in place, the empty file was there for another program to
 * open and lock (a sqlite3 shell in BEGIN EXCLUSIVE) before the writer
 * could switch it to WAL or create its tables, which cannot wait as rows
 * do: the recording ended with "database is locked". Now the capture
 * appears with its tables, in WAL mode (kept in its header), so a lock
 * taken at once holds up its rows alone, which wait as above; until then
 * the window and the CLI see no file, as before they saw an empty one.
 *
 * Lost from its name. A user may remove the capture's folder, rename it,
 * or delete or replace the file while it is written; SQLite goes on
 * writing through its descriptors, and the capture was gone, or elsewhere,
 * while the recorder said "wrote NAME". The writer keeps a descriptor of
 * the file it created, and hp_capture_writer_close() compares it with the
 * name: a file moved (its folder renamed) is made one file where it is
 * now, one deleted is checkpointed through SQLite's descriptors (SQLite
 * will not as it closes a moved file, SQLITE_READONLY_DBMOVED) and
 * copied out of ours to a name that is said. A deleted file cannot be
 * linked back (linkat refuses a file without links), hence the copy.
 *
 * hp_capture_writer_finish() commits the aggregates and the complete flag
 * in one transaction; after that commit the capture is complete and nothing
 * deletes it. It then moves the WAL into the database (one file again);
 * when another program has the capture open, this cannot be done, and the
 * capture is kept in WAL mode, which is just as complete
 * (hp_capture_writer_get_note() says so).
 */

#define G_LOG_DOMAIN "hp-store"

#include "config.h"

#include "store/hp-capture-keys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "store/hp-capture-pending.h"
#include "store/hp-capture-private.h"
#include "store/hp-capture-writer.h"
#include "store/hp-capture-schema.h"
#include "store/hp-store-db.h"
#include "store/hp-writer-sql.h"

#define HP_WRITER_BATCH 8192
/* Samples are inserted this many rows per statement: one statement per
 * row spent more in starting and halting SQLite's program than in the
 * rows (a quarter of importing a million samples). */
#define HP_WRITER_SAMPLE_ROWS 64
/* SQLite's page cache for a part (KiB): the tables' last pages and the
 * B-tree above them stay in memory through the single transaction. */
#define HP_WRITER_BULK_CACHE_KIB 16384
/* How long a write waits for another program's write transaction. */
#define HP_WRITER_BUSY_TIMEOUT_MS 5000
/* A capture being recorded waits this long for another program's write
 * lock before its rows wait in memory instead (see "Another program's
 * lock" above): the recording goes on meanwhile. */
#define HP_WRITER_LOCK_TRY_MS 200
/* Rows waiting for the lock are kept in memory up to this many bytes of
 * SQL between two flushes, then in NAME.pending.sql: a lock held for
 * minutes costs no more memory. */
#define HP_WRITER_DEFER_MEMORY (4 * 1024 * 1024)
/* How long finish() waits for a lock held by another program before it
 * gives up and keeps the rows that wait in NAME.pending.sql. */
#define HP_WRITER_FINISH_LOCK_WAIT_US (60 * G_USEC_PER_SEC)
/* After each commit of a capture being recorded, its rows wait this long
 * before the writer takes the lock again (see "Leaving the lock free"
 * above): SQLite's busy handler, which another program waits with, tries
 * the lock every 100 ms at most, and a loaded machine wakes it late. */
#define HP_WRITER_YIELD_US (150 * 1000)
/* ... and it holds the lock at most this long (see add_sample). */
#define HP_WRITER_HOLD_US (100 * 1000)
/* How long finish() waits for other programs to close the capture before it
 * keeps it in WAL mode. */
#define HP_WRITER_SINGLE_FILE_WAIT_US (3 * G_USEC_PER_SEC)

G_DEFINE_QUARK (hp-store-error-quark, hp_store_error)

typedef struct {
  gint64 parent_id;
  gint64 frame_id;
  gint64 id;
} StackKey;

/* A sample waiting for its multi-row INSERT. */
typedef struct {
  gint64 time;
  gint32 tid;
  gint32 cpu;
  gint64 stack_id;
  gint64 weight;
  gint64 event_id;
} PendingSample;

/* One row of stack_counts, counted as the samples come. */
typedef struct {
  gint64   stack_id;
  gint32   tid;
  gint64   event_id;
  gboolean overflow;  /* the weights add up to more than SQLite can hold */
  gint64   samples;
  gint64   weight;
} StackCount;

struct _HpCaptureWriter {
  char *path;
  sqlite3 *db;

  sqlite3_stmt *insert_metadata;
  sqlite3_stmt *upsert_process;
  sqlite3_stmt *upsert_thread;
  sqlite3_stmt *insert_module;
  sqlite3_stmt *insert_function;
  sqlite3_stmt *insert_frame;
  sqlite3_stmt *update_frame;  /* prepared on first need */
  sqlite3_stmt *insert_stack;
  sqlite3_stmt *insert_sample;
  sqlite3_stmt *insert_samples;  /* HP_WRITER_SAMPLE_ROWS rows */
  PendingSample pending[HP_WRITER_SAMPLE_ROWS];
  guint         n_pending;
  sqlite3_stmt *insert_event;
  sqlite3_stmt *insert_count;

  /* Composite keys (see append_*), owned -> GSIZE_TO_POINTER (id) */
  GHashTable *modules;
  GHashTable *functions;
  GHashTable *frames;
  /* StackKey* (owned, key and value) */
  GHashTable *stacks;
  /* StackCount* (owned, key and value): the rows of stack_counts. After
   * an error they are wrong, but then nothing is finished. */
  GHashTable *counts;
  GString *keybuf;

  gint64 n_modules;
  gint64 n_functions;
  gint64 n_frames;
  gint64 n_stacks;
  gint64 n_events;
  GString *event_names;  /* the events' names, comma-separated (metadata "events") */

  guint64 n_samples;
  guint64 n_committed_samples;
  guint   batch_samples;

  GError  *error;     /* the first error; nothing is written after it */
  char    *note;      /* how a finished capture was kept, when not as one file */
  char    *saved_as;  /* where close() found or saved a capture taken from its name */
  gboolean bulk;      /* a part: one transaction, journal in memory (see above) */
  GPtrArray *deferred_indexes;  /* CREATE INDEX statements run at finish */
  gboolean in_txn;
  gboolean finished;

  /* rows waiting for another program's write lock (see the top) */
  gboolean deferring;
  gboolean yielding;        /* deferring only to leave the lock free a while */
  gint64   yield_until;     /* monotonic, us: the end of that while */
  GArray  *held;            /* PendingSample, written when that while ends */
  GArray  *held_stacks;     /* StackKey, likewise (written before them) */
  gint64   txn_since;       /* monotonic, us: when the lock was taken */
  HpCaptureWriterWaitFunc wait_func;  /* told while finish() waits for the lock */
  gint64   finish_wait_us;  /* how long finish() waits for it */
  gpointer wait_data;
  GString *deferred;        /* statements, each ended by a NUL */
  FILE    *spill;           /* older ones, in NAME.pending.sql (see spill_deferred) */
  char    *spill_path;
  GArray  *spill_chunks;    /* gint64 pairs: where each move's statements are in it */
  guint64  deferred_samples;
  gint64   lock_since;      /* monotonic, us */
  int      shm_fd;          /* the -shm file, to ask who holds the lock; -1 */

  /* The capture's file, held open from its creation: whoever removes its
   * folder or moves it meanwhile, what was written is still here (see
   * "Lost from its name" at the top). */
  int fd;
};

static guint
stack_key_hash (gconstpointer p)
{
  const StackKey *k = p;
  guint64 h = (guint64) k->parent_id * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  h ^= (guint64) k->frame_id + G_GUINT64_CONSTANT (0x632BE59BD9B4E019) + (h << 6) + (h >> 2);
  return (guint) (h ^ (h >> 32));
}

static guint
stack_count_hash (gconstpointer p)
{
  const StackCount *c = p;
  guint64 h = (guint64) c->stack_id * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15) ^ (guint32) c->tid;

  h = (h ^ (guint64) c->event_id) * G_GUINT64_CONSTANT (0xFF51AFD7ED558CCD);
  return (guint) (h ^ (h >> 32));
}

static gboolean
stack_count_equal (gconstpointer a,
                   gconstpointer b)
{
  const StackCount *ca = a;
  const StackCount *cb = b;

  return ca->stack_id == cb->stack_id && ca->tid == cb->tid && ca->event_id == cb->event_id;
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
  g_string_append_printf (buf, "I%" PRId64 ";", v);
}

/* What went wrong: for an I/O error the system's reason ("No space left on
 * device") says more than SQLite's "disk I/O error", and a write refused by
 * a file size limit (ulimit -f) has no system error at all to show. */
static char *
db_reason (sqlite3 *db)
{
  int code = sqlite3_errcode (db) & 0xff;
  struct rlimit limit;

  if ((code == SQLITE_FULL || code == SQLITE_IOERR || code == SQLITE_CANTOPEN)
      && sqlite3_system_errno (db) != 0)
    return g_strdup (g_strerror (sqlite3_system_errno (db)));
  if ((code == SQLITE_FULL || code == SQLITE_IOERR)
      && getrlimit (RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    {
      g_autofree char *size = g_format_size_full (limit.rlim_cur, G_FORMAT_SIZE_IEC_UNITS);

      return g_strdup_printf (_("%s (the file size limit, ulimit -f, is %s)"), sqlite3_errmsg (db), size);
    }
  return g_strdup (sqlite3_errmsg (db));
}

static void
set_sqlite_error (GError     **error,
                  sqlite3     *db,
                  const char  *path,
                  const char  *what)
{
  g_autofree char *reason = db_reason (db);

  g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
               "%s: %s: %s", path, what, reason);
}

/* The first error: keep it, roll the broken transaction back (what was
 * committed stays), and write nothing more. */
static void
fail (HpCaptureWriter *self,
      GError          *error)
{
  if (self->error == NULL)
    self->error = error;
  else
    g_error_free (error);
  if (self->db != NULL && !sqlite3_get_autocommit (self->db))
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
  self->in_txn = FALSE;
}

static void
record_error (HpCaptureWriter *self,
              const char      *what)
{
  GError *error = NULL;

  if (self->error != NULL)
    return;
  set_sqlite_error (&error, self->db, self->path, what);
  fail (self, error);
}

static gboolean
exec (HpCaptureWriter  *self,
      const char       *sql,
      GError          **error)
{
  if (sqlite3_exec (self->db, sql, NULL, NULL, NULL) != SQLITE_OK)
    {
      set_sqlite_error (error, self->db, self->path, "cannot write the capture");
      return FALSE;
    }
  return TRUE;
}

static gboolean
is_busy (int rc)
{
  return (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
}

static gboolean replay_deferred (HpCaptureWriter *self);
static gboolean spill_deferred (HpCaptureWriter *self, gboolean create);
static void write_held (HpCaptureWriter *self);
static void write_stack (HpCaptureWriter *self, const StackKey *stack);

/* BEGIN IMMEDIATE, waiting for another program's write transaction as
 * long as the busy timeout says. FALSE while the lock is held (a part,
 * which nobody else opens, fails then) or on an error. */
static gboolean
begin_immediate (HpCaptureWriter *self)
{
  int rc = sqlite3_exec (self->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);

  if (rc == SQLITE_OK)
    {
      self->in_txn = TRUE;
      return TRUE;
    }
  if (self->bulk || !is_busy (rc))
    record_error (self, "cannot write the capture");
  return FALSE;
}

/* Takes the write lock and opens the transaction, with what waits for
 * the lock (or waited while the writer let it be) written first. FALSE
 * when another program holds it: the rows wait (self->deferring), as
 * for a lock since the first try; or on an error. */
static gboolean
take_lock (HpCaptureWriter *self)
{
  gint64 tried = g_get_monotonic_time ();

  if (self->error != NULL)
    return FALSE;
  if (self->in_txn)
    return TRUE;
  if (self->deferring ? replay_deferred (self) : begin_immediate (self))
    {
      self->txn_since = g_get_monotonic_time ();
      write_held (self);
      return self->error == NULL;
    }
  if (self->error != NULL)
    return FALSE;
  if (!self->deferring || self->yielding)
    self->lock_since = tried;
  self->deferring = TRUE;
  self->yielding = FALSE;
  write_held (self);
  /* beside the capture, where a kill leaves them found (see spill_deferred) */
  spill_deferred (self, FALSE);
  return FALSE;
}

/* Opens the write transaction for the next row, waiting for another
 * program's (busy timeout). When another program keeps the lock, a
 * capture being recorded defers its rows instead (self->deferring; see
 * the top); so it does for HP_WRITER_YIELD_US after each commit, to
 * leave the lock to a program that waits for it. FALSE once the writer
 * has failed. */
static gboolean
begin (HpCaptureWriter *self)
{
  if (self->error != NULL)
    return FALSE;
  if (self->in_txn || (self->deferring && !self->yielding))
    return TRUE;
  if (self->yield_until != 0 && g_get_monotonic_time () < self->yield_until)
    {
      self->deferring = self->yielding = TRUE;
      return TRUE;
    }
  self->yield_until = 0;
  take_lock (self);
  return self->error == NULL;
}

/* Moves the rows that wait in memory to NAME.pending.sql beside the
 * capture (created with @create even when none wait), as SQL that sqlite3
 * applies: each move one transaction (BEGIN; ...; COMMIT;), flushed, so
 * that a recorder killed meanwhile leaves them where the user finds them
 * (hotpath-cli says so when it opens the capture) rather than in a
 * temporary file nobody knows of. The file is the rows' second home,
 * read back when the lock is free (self->spill_chunks: where each
 * move's statements are), and removed then. FALSE on an error. */
static gboolean
spill_deferred (HpCaptureWriter *self,
                gboolean         create)
{
  gint64 range[2];

  if (self->error != NULL)
    return FALSE;
  if (!create && (self->deferred == NULL || self->deferred->len == 0))
    return TRUE;
  if (self->spill == NULL)
    {
      /* never over another recording's: that one is a capture's too */
      for (guint n = 1; self->spill == NULL && n < 100; n++)
        {
          g_free (self->spill_path);
          self->spill_path = n == 1 ? g_strconcat (self->path, ".pending.sql", NULL)
                                    : g_strdup_printf ("%s.pending-%u.sql", self->path, n);
          self->spill = fopen (self->spill_path, "w+xe");
          if (self->spill == NULL && errno != EEXIST)
            break;
        }
      if (self->spill == NULL)
        {
          fail (self, g_error_new (HP_STORE_ERROR, HP_STORE_ERROR_IO,
                                   _("%s: another program holds the write lock, and what waits for it "
                                     "cannot be kept in %s: %s"), self->path, self->spill_path, g_strerror (errno)));
          g_clear_pointer (&self->spill_path, g_free);
          return FALSE;
        }
      self->spill_chunks = g_array_new (FALSE, FALSE, sizeof range);
    }
  if (self->deferred == NULL || self->deferred->len == 0)
    return TRUE;
  fseek (self->spill, 0, SEEK_END);
  fputs ("BEGIN;\n", self->spill);
  range[0] = ftell (self->spill);
  for (gsize at = 0; at < self->deferred->len; at += strlen (self->deferred->str + at) + 1)
    fprintf (self->spill, "%s;\n", self->deferred->str + at);
  range[1] = ftell (self->spill);
  fputs ("COMMIT;\n", self->spill);
  if (ferror (self->spill) || fflush (self->spill) != 0)
    {
      fail (self, g_error_new (HP_STORE_ERROR, HP_STORE_ERROR_IO,
                               _("%s: another program holds the write lock, and what waits for it "
                                 "cannot be kept in %s: %s"), self->path, self->spill_path, g_strerror (errno)));
      return FALSE;
    }
  g_array_append_val (self->spill_chunks, range);
  g_string_truncate (self->deferred, 0);
  return TRUE;
}

/* Keeps @stmt, bound, as the SQL it would run, for when the lock is free. */
static void
defer (HpCaptureWriter *self,
       sqlite3_stmt    *stmt)
{
  char *sql = sqlite3_expanded_sql (stmt);

  if (sql == NULL)
    {
      fail (self, g_error_new (HP_STORE_ERROR, HP_STORE_ERROR_IO,
                               _("%s: cannot keep what waits for another program's lock: out of memory"),
                               self->path));
      return;
    }
  if (self->deferred == NULL)
    self->deferred = g_string_new (NULL);
  g_string_append_len (self->deferred, sql, strlen (sql) + 1);
  sqlite3_free (sql);
  if (self->deferred->len >= HP_WRITER_DEFER_MEMORY)
    spill_deferred (self, FALSE);
}

static void
drop_deferred (HpCaptureWriter *self)
{
  if (self->spill != NULL)
    fclose (self->spill);
  self->spill = NULL;
  if (self->spill_path != NULL)
    g_unlink (self->spill_path);
  g_clear_pointer (&self->spill_path, g_free);
  g_clear_pointer (&self->spill_chunks, g_array_unref);
  if (self->deferred != NULL)
    g_string_free (self->deferred, TRUE);
  self->deferred = NULL;
  self->deferring = FALSE;
  self->yielding = FALSE;
  self->deferred_samples = 0;
}

/* Runs every statement of @text (NUL-separated, @len bytes). */
static gboolean
replay_text (HpCaptureWriter *self,
             const char      *text,
             gsize            len)
{
  for (gsize at = 0; at < len; at += strlen (text + at) + 1)
    if (sqlite3_exec (self->db, text + at, NULL, NULL, NULL) != SQLITE_OK)
      {
        record_error (self, "cannot write what waited for another program's lock");
        return FALSE;
      }
  return TRUE;
}

/* Once the lock is free: the deferred rows, in one transaction left open
 * for commit(). FALSE while the lock is still held, or on an error. */
static gboolean
replay_deferred (HpCaptureWriter *self)
{
  if (self->error != NULL || !begin_immediate (self))
    return FALSE;
  for (guint i = 0; self->spill != NULL && i < self->spill_chunks->len; i++)
    {
      const gint64 *range = &g_array_index (self->spill_chunks, gint64, 2 * i);
      g_autofree char *text = g_malloc (range[1] - range[0] + 1);

      if (fseek (self->spill, range[0], SEEK_SET) != 0
          || fread (text, 1, range[1] - range[0], self->spill) != (gsize) (range[1] - range[0]))
        {
          fail (self, g_error_new (HP_STORE_ERROR, HP_STORE_ERROR_IO,
                                   _("%s: cannot read back what waited for another program's lock from %s"),
                                   self->path, self->spill_path));
          return FALSE;
        }
      text[range[1] - range[0]] = '\0';
      if (sqlite3_exec (self->db, text, NULL, NULL, NULL) != SQLITE_OK)
        {
          record_error (self, "cannot write what waited for another program's lock");
          return FALSE;
        }
    }
  if (self->deferred != NULL && !replay_text (self, self->deferred->str, self->deferred->len))
    return FALSE;
  drop_deferred (self);
  return TRUE;
}

/* Gives the rows that wait for the lock to NAME.pending.sql, as SQL that
 * sqlite3 applies, and fails with a message that says so. */
static void
give_up_deferred (HpCaptureWriter *self)
{
  g_autofree char *pending = NULL;
  g_autofree char *holder = hp_capture_writer_describe_lock_holder (self);
  gboolean ok = spill_deferred (self, TRUE);
  guint64 waiting = self->deferred_samples;
  double seconds;

  if (self->error != NULL && !ok)
    return;
  /* the file stays: it is the rows' one home now */
  pending = g_steal_pointer (&self->spill_path);
  ok = fclose (self->spill) == 0;
  self->spill = NULL;
  drop_deferred (self);
  seconds = (g_get_monotonic_time () - self->lock_since) / 1e6;
  /* nothing waited but the capture's end: no file to tell of */
  if (ok && waiting == 0)
    {
      GStatBuf st;

      if (g_stat (pending, &st) == 0 && st.st_size == 0 && g_unlink (pending) == 0)
        ok = FALSE;
    }
  if (ok && waiting == 0)
    /* only the capture's end waited (its totals, the complete flag) */
    fail (self, g_error_new (HP_STORE_ERROR, HP_STORE_ERROR_IO,
                             _("%s: %s has held the write lock for %.0f s; every sample is written, "
                               "but the capture is kept cut short, without its totals; the rest that "
                               "waited is kept in %s: once the lock is free, 'hotpath-cli add-pending %s' adds it"),
                             self->path, holder, seconds, pending, self->path));
  else if (ok)
    fail (self, g_error_new (HP_STORE_ERROR, HP_STORE_ERROR_IO,
                             g_dngettext (GETTEXT_PACKAGE,
                                          "%s: %s has held the write lock for %.0f s; the %" PRIu64 " sample "
                                          "that waited for it is kept in %s: once the lock is free, "
                                          "'hotpath-cli add-pending %s' adds it",
                                          "%s: %s has held the write lock for %.0f s; the %" PRIu64 " samples "
                                          "that waited for it are kept in %s: once the lock is free, "
                                          "'hotpath-cli add-pending %s' adds them",
                                          (gulong) MIN (waiting, G_MAXULONG)),
                             self->path, holder, seconds, waiting, pending, self->path));
  else if (waiting == 0)
    fail (self, g_error_new (HP_STORE_ERROR, HP_STORE_ERROR_IO,
                             _("%s: %s has held the write lock for %.0f s; every sample is written, "
                               "but the capture is kept cut short, without its totals"),
                             self->path, holder, seconds));
  else
    fail (self, g_error_new (HP_STORE_ERROR, HP_STORE_ERROR_IO,
                             g_dngettext (GETTEXT_PACKAGE,
                                          "%s: %s has held the write lock for %.0f s, and the %" PRIu64
                                          " sample that waited for it could not be kept in %s either",
                                          "%s: %s has held the write lock for %.0f s, and the %" PRIu64
                                          " samples that waited for it could not be kept in %s either",
                                          (gulong) MIN (waiting, G_MAXULONG)),
                             self->path, holder, seconds, waiting, pending));
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
  if (begin (self) && self->deferring)
    defer (self, stmt);
  else if (self->error == NULL && sqlite3_step (stmt) != SQLITE_DONE)
    {
      sqlite3_reset (stmt);
      record_error (self, what);
    }
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
  g_clear_pointer (&self->update_frame, sqlite3_finalize);
  g_clear_pointer (&self->insert_stack, sqlite3_finalize);
  g_clear_pointer (&self->insert_sample, sqlite3_finalize);
  g_clear_pointer (&self->insert_samples, sqlite3_finalize);
  g_clear_pointer (&self->insert_event, sqlite3_finalize);
  g_clear_pointer (&self->insert_count, sqlite3_finalize);
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
  /* after SQLite let go of its locks (see hp_capture_writer_get_lock_holder) */
  if (self->shm_fd >= 0)
    close (self->shm_fd);
  self->shm_fd = -1;
  self->in_txn = FALSE;
}

/* Whether the file at the writer's path is still the one it writes. */
static gboolean
still_in_place (HpCaptureWriter *self)
{
  GStatBuf held, named;

  if (self->fd < 0 || fstat (self->fd, &held) != 0)
    return TRUE;  /* nothing to compare with */
  return g_lstat (self->path, &named) == 0 && named.st_dev == held.st_dev && named.st_ino == held.st_ino;
}

/* The files SQLite keeps beside a database. */
static const char *const companions[] = { "-wal", "-shm", "-journal" };

void
hp_capture_writer_remove_files (const char *path)
{
  g_return_if_fail (path != NULL);

  g_unlink (path);
  for (guint i = 0; i < G_N_ELEMENTS (companions); i++)
    {
      g_autofree char *p = g_strconcat (path, companions[i], NULL);
      g_unlink (p);
    }
}

/* Parts: a capture that replaces another, or that must not be seen before
 * it is complete (an import), is written as NAME.PID.part beside it. */

char *
hp_capture_writer_part_path (const char *path)
{
  g_return_val_if_fail (path != NULL, NULL);

  return g_strdup_printf ("%s.%d.part", path, (int) getpid ());
}

/* Whether @name is "*.PID.part" (with @companion_out set to the SQLite
 * suffix that follows, or ""); sets *pid. */
static gboolean
parse_part_name (const char  *name,
                 pid_t       *pid,
                 const char **companion_out)
{
  const char *companion = "";
  const char *part;
  const char *digits;
  gsize len = strlen (name);
  guint64 n;

  for (guint i = 0; i < G_N_ELEMENTS (companions); i++)
    if (g_str_has_suffix (name, companions[i]))
      {
        companion = companions[i];
        len -= strlen (companion);
        break;
      }
  if (len < strlen ("x.1.part"))
    return FALSE;
  part = name + len - strlen (".part");
  if (strncmp (part, ".part", strlen (".part")) != 0)
    return FALSE;
  digits = part;
  while (digits > name && g_ascii_isdigit (digits[-1]))
    digits--;
  if (digits == part || digits - 1 <= name || digits[-1] != '.')
    return FALSE;
  {
    g_autofree char *number = g_strndup (digits, part - digits);

    if (!g_ascii_string_to_unsigned (number, 10, 1, G_MAXINT32, &n, NULL))
      return FALSE;
  }
  *pid = (pid_t) n;
  *companion_out = companion;
  return TRUE;
}

/* For "*.PID.part.pending.sql" or "*.PID.part.pending-N.sql" (the names
 * spill_deferred gives a part's waiting rows), the part's name; else
 * NULL. */
static char *
pending_part_name (const char *name)
{
  const char *at = g_strrstr (name, ".part.pending");
  const char *rest;

  if (at == NULL)
    return NULL;
  rest = at + strlen (".part.pending");
  if (strcmp (rest, ".sql") != 0)
    {
      g_autofree char *number = NULL;
      guint64 n;

      if (rest[0] != '-' || !g_str_has_suffix (rest, ".sql") || strlen (rest) <= strlen ("-.sql"))
        return NULL;
      number = g_strndup (rest + 1, strlen (rest) - strlen ("-.sql"));
      if (!g_ascii_string_to_unsigned (number, 10, 2, 999, &n, NULL))
        return NULL;
    }
  return g_strndup (name, at + strlen (".part") - name);
}

static gboolean
pid_is_running (pid_t pid)
{
  return kill (pid, 0) == 0 || errno != ESRCH;
}

/* Whether @part and its companions are what a writer leaves: a SQLite
 * database, or, when that is gone, a WAL (or the index of one) or a
 * journal. Another program's "name.123.part" (a download) is not. */
static gboolean
looks_like_a_part (const char *part)
{
  static const guint8 db_magic[16] = "SQLite format 3";
  static const guint8 wal_magic[2][4] = { { 0x37, 0x7f, 0x06, 0x82 }, { 0x37, 0x7f, 0x06, 0x83 } };
  const guint32 shm_version = 3007000;  /* the first field of a WAL index, native order */
  g_autofree char *wal = g_strconcat (part, "-wal", NULL);
  g_autofree char *shm = g_strconcat (part, "-shm", NULL);
  g_autofree char *journal = g_strconcat (part, "-journal", NULL);
  gboolean missing;

  if (hp_store_db_file_starts_with (part, db_magic, sizeof db_magic, &missing))
    return TRUE;
  if (!missing)
    return FALSE;
  return hp_store_db_file_starts_with (wal, wal_magic[0], 4, NULL)
         || hp_store_db_file_starts_with (wal, wal_magic[1], 4, NULL)
         || hp_store_db_file_starts_with (shm, (const guint8 *) &shm_version, 4, NULL)
         || hp_store_db_is_journal (journal);
}

/* Whether the part @part holds a recording's samples: a recording that
 * replaced a capture and whose recorder was killed (SIGKILL, a crash, a
 * power cut) before it ended (*@complete FALSE), or a finished one that
 * could not be renamed over its capture, nor aside (a folder made
 * read-only for a user: *@complete TRUE). A recording's part is in WAL
 * mode (byte 18 of the header is 2) until it is finished; an import's,
 * written in one transaction with its journal in memory, never is, and
 * holds nothing a kill left whole. */
static gboolean
holds_recording (const char *part,
                 gboolean   *complete)
{
  guint8 header[20];
  sqlite3 *db;
  sqlite3_stmt *stmt = NULL;
  gboolean found = FALSE;
  FILE *f = fopen (part, "rb");
  gboolean sqlite = f != NULL && fread (header, 1, sizeof header, f) == sizeof header
                    && memcmp (header, "SQLite format 3", 16) == 0;
  gboolean wal = sqlite && header[18] == 2;

  if (f != NULL)
    fclose (f);
  *complete = FALSE;
  if (!sqlite)
    return FALSE;
  /* read-write: the samples a kill left in its WAL count too, and closing
   * moves them into the file */
  db = hp_store_db_open (part, SQLITE_OPEN_READWRITE, "the part", 1 << 20, 1000, NULL);
  if (db == NULL)
    return FALSE;
  if (sqlite3_prepare_v2 (db, "SELECT EXISTS (SELECT 1 FROM samples), "
                              "EXISTS (SELECT 1 FROM metadata WHERE key = '" HP_META_COMPLETE "' AND value = '1')",
                          -1, &stmt, NULL) == SQLITE_OK
      && sqlite3_step (stmt) == SQLITE_ROW)
    {
      *complete = sqlite3_column_int (stmt, 1) != 0;
      /* out of WAL mode, only a finished recording is worth keeping */
      found = sqlite3_column_int (stmt, 0) != 0 && (wal || *complete);
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return found;
}

/* NAME.LABEL.hotpath for the capture NAME.hotpath (@n > 1: NAME.LABEL-n.hotpath). */
static char *
labelled_name (const char *capture_name,
               const char *label,
               guint       n)
{
  g_autofree char *stem = g_str_has_suffix (capture_name, ".hotpath")
                          ? g_strndup (capture_name, strlen (capture_name) - strlen (".hotpath"))
                          : g_strdup (capture_name);

  return n == 1 ? g_strdup_printf ("%s.%s.hotpath", stem, label)
                : g_strdup_printf ("%s.%s-%u.hotpath", stem, label, n);
}

/* Keeps the capture in the part @part as NAME.LABEL.hotpath (or -2, -3,
 * ...) beside the capture NAME.hotpath it was to replace; the new name,
 * or NULL. */
static char *
keep_recording (const char *part,
                const char *capture_name,
                const char *label)
{
  for (guint n = 1; n < 100; n++)
    {
      g_autofree char *kept = labelled_name (capture_name, label, n);

      if (g_file_test (kept, G_FILE_TEST_EXISTS))
        continue;
      if (!hp_capture_writer_replace (part, kept, NULL))
        return NULL;
      return g_steal_pointer (&kept);
    }
  return NULL;
}

/* The part @part of a writer that no longer runs is gone, with its
 * WAL and journal, but the rows that waited for the lock are still in
 * NAME.PID.part.pending.sql beside it: left by a recorder killed after
 * it renamed the part to its capture's name and before it moved the
 * file with it, or after the part itself was removed. Which capture
 * they belong to cannot be told from the name (another recording may
 * have taken NAME.hotpath since), and their rows add to no other one,
 * so nothing moves or removes the file: the user is told what it is and
 * how to add it. */
static void
say_orphaned_pending (const char *part,
                      GPtrArray  *kept)
{
  g_autoptr(GPtrArray) waiting = hp_capture_list_pending (part);
  g_autofree char *base = NULL;

  if (waiting->len == 0)
    return;
  /* NAME.hotpath.PID.part: the capture is the name without .PID.part */
  base = g_strndup (part, strlen (part) - strlen (".part"));
  *strrchr (base, '.') = '\0';
  for (guint i = 0; i < waiting->len; i++)
    {
      const char *file = g_ptr_array_index (waiting, i);
      g_autofree char *beside = g_strconcat (base, file + strlen (part), NULL);
      g_autofree char *message = NULL;

      message = g_strdup_printf (_("%s: samples that waited for another program's write lock, left by a recorder "
                                   "that no longer runs; the recording they belong to (%s) is gone. If %s is that "
                                   "recording, cut short, rename the file to %s and run 'hotpath-cli add-pending %s'; "
                                   "if not, remove the file"),
                                 file, part, base, beside, base);
      if (kept != NULL)
        g_ptr_array_add (kept, g_steal_pointer (&message));
      else
        g_message ("%s", message);
    }
}

guint
hp_capture_writer_remove_stale_parts (const char *path,
                                      GPtrArray  *kept)
{
  g_autofree char *dir = NULL;
  g_autoptr(GDir) listing = NULL;
  g_autoptr(GPtrArray) stale = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  guint removed = 0;

  g_return_val_if_fail (path != NULL, 0);

  dir = g_path_get_dirname (path);
  listing = g_dir_open (dir, 0, NULL);
  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      /* the rows that waited for the lock, found by their part's name:
       * they may be all that is left of it */
      g_autofree char *of_part = pending_part_name (name);
      const char *part_name = of_part != NULL ? of_part : name;
      const char *companion;
      pid_t pid;

      if (!parse_part_name (part_name, &pid, &companion) || pid == getpid () || pid_is_running (pid))
        continue;
      /* A part and its companions go together, once, by the part's name. */
      {
        g_autofree char *base = g_strndup (part_name, strlen (part_name) - strlen (companion));

        if (!g_ptr_array_find_with_equal_func (stale, base, g_str_equal, NULL))
          g_ptr_array_add (stale, g_steal_pointer (&base));
      }
    }

  for (guint i = 0; i < stale->len; i++)
    {
      g_autofree char *part = g_build_filename (dir, g_ptr_array_index (stale, i), NULL);
      g_autoptr(GPtrArray) waiting = NULL;
      GStatBuf st;
      gboolean complete;

      if (g_lstat (part, &st) == 0 && !S_ISREG (st.st_mode))
        continue;
      if (!looks_like_a_part (part))
        {
          if (!g_file_test (part, G_FILE_TEST_EXISTS))
            say_orphaned_pending (part, kept);
          continue;
        }
      /* a recording whose samples all waited for another program's lock
       * (held since the part was made) has none in it, but all of them
       * in NAME.PID.part.pending.sql: kept too, and the file with it */
      waiting = hp_capture_list_pending (part);
      if (holds_recording (part, &complete) || waiting->len > 0)
        {
          g_autofree char *base = NULL;
          g_autofree char *kept_as = NULL;
          g_autofree char *message = NULL;

          /* NAME.hotpath.PID.part: the capture is the name without .PID.part */
          base = g_strndup (part, strlen (part) - strlen (".part"));
          *strrchr (base, '.') = '\0';
          kept_as = keep_recording (part, base, complete ? "recovered" : "cut-short");
          if (kept_as != NULL && complete)
            message = g_strdup_printf (_("%s: a finished recording that could not be renamed to %s "
                                         "is kept as %s"), part, base, kept_as);
          else if (kept_as != NULL)
            message = g_strdup_printf (_("%s: a recording that was to replace %s and whose recorder was killed "
                                         "before it ended is kept, cut short, as %s"), part, base, kept_as);
          else
            message = g_strdup_printf (_("%s: a recording that was to replace %s and whose recorder was killed "
                                         "before it ended is left there: open it, or rename it to NAME.hotpath"),
                                       part, base);
          if (waiting->len > 0)
            {
              g_autoptr(GPtrArray) moved = hp_capture_list_pending (kept_as != NULL ? kept_as : part);
              const char *file = moved->len > 0 ? g_ptr_array_index (moved, 0) : g_ptr_array_index (waiting, 0);
              g_autofree char *sentence = NULL;

              sentence = g_strdup_printf (_("The samples that waited for another program's write lock are in %s "
                                            "beside it: 'hotpath-cli add-pending %s' adds them."),
                                          file, kept_as != NULL ? kept_as : part);
              char *both = g_strconcat (message, ". ", sentence, NULL);

              g_free (message);
              message = both;
            }
          if (kept != NULL)
            g_ptr_array_add (kept, g_steal_pointer (&message));
          else
            g_message ("%s", message);
          continue;
        }
      g_debug ("removing %s, left by a writer that no longer runs", part);
      hp_capture_writer_remove_files (part);
      removed++;
    }
  return removed;
}

/* The rows that waited for another program's lock go with their capture
 * (see spill_deferred), under its name, NAME.pending.sql or -N as they
 * were; the old capture's, which @part replaces, go with it. */
static void
move_pending (const char *part,
              const char *path)
{
  g_autoptr(GPtrArray) old = hp_capture_list_pending (path);
  g_autoptr(GPtrArray) moving = hp_capture_list_pending (part);

  for (guint i = 0; i < old->len; i++)
    g_unlink (g_ptr_array_index (old, i));
  for (guint i = 0; i < moving->len; i++)
    {
      const char *from = g_ptr_array_index (moving, i);
      g_autofree char *to = g_strconcat (path, from + strlen (part), NULL);

      if (g_rename (from, to) != 0)
        g_warning ("cannot move %s to %s: %s", from, to, g_strerror (errno));
    }
}

gboolean
hp_capture_writer_replace (const char  *part,
                           const char  *path,
                           GError     **error)
{
  g_autofree char *part_wal = NULL;
  g_autofree char *part_shm = NULL;
  g_autofree char *path_wal = NULL;
  gboolean has_wal;

  g_return_val_if_fail (part != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  part_wal = g_strconcat (part, "-wal", NULL);
  part_shm = g_strconcat (part, "-shm", NULL);
  path_wal = g_strconcat (path, "-wal", NULL);
  has_wal = g_file_test (part_wal, G_FILE_TEST_EXISTS);

  /* A WAL or journal left beside the old capture would be applied to the
   * new one; and a new WAL must never meet the old database, so with a WAL
   * to move the old database goes first. */
  if (has_wal)
    g_unlink (path);
  for (guint i = 0; i < G_N_ELEMENTS (companions); i++)
    {
      g_autofree char *p = g_strconcat (path, companions[i], NULL);

      g_unlink (p);
    }
  if (has_wal && g_rename (part_wal, path_wal) != 0)
    {
      int errsv = errno;

      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   _("cannot write %s: %s"), path_wal, g_strerror (errsv));
      return FALSE;
    }
  if (g_rename (part, path) != 0)
    {
      int errsv = errno;

      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   _("cannot write %s: %s"), path, g_strerror (errsv));
      if (has_wal)
        g_rename (path_wal, part_wal);
      return FALSE;
    }
  /* Rebuilt from the WAL by the next program that opens the capture. */
  g_unlink (part_shm);
  move_pending (part, path);
  return TRUE;
}

static gboolean
prepare_insert_samples (HpCaptureWriter  *self,
                        GError          **error)
{
  g_autoptr(GString) sql = g_string_new (HP_WRITER_SQL_SAMPLES_HEAD);

  for (guint i = 0; i < HP_WRITER_SAMPLE_ROWS; i++)
    g_string_append (sql, i == 0 ? HP_WRITER_SQL_SAMPLES_ROW : "," HP_WRITER_SQL_SAMPLES_ROW);
  return prepare (self, &self->insert_samples, sql->str, error);
}

/* The secondary indexes of a new part: dropped now, and created again by
 * finish() from the statements schema.sql wrote. */
static gboolean
defer_indexes (HpCaptureWriter  *self,
               GError          **error)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  sqlite3_stmt *stmt = NULL;
  int rc;

  if (sqlite3_prepare_v2 (self->db,
                          "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      set_sqlite_error (error, self->db, self->path, "cannot read the schema");
      return FALSE;
    }
  self->deferred_indexes = g_ptr_array_new_with_free_func (g_free);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_ptr_array_add (names, g_strdup ((const char *) sqlite3_column_text (stmt, 0)));
      g_ptr_array_add (self->deferred_indexes, g_strdup ((const char *) sqlite3_column_text (stmt, 1)));
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (error, self->db, self->path, "cannot read the schema");
      return FALSE;
    }
  for (guint i = 0; i < names->len; i++)
    {
      char *sql = sqlite3_mprintf ("DROP INDEX \"%w\"", (const char *) names->pdata[i]);
      gboolean ok = exec (self, sql, error);

      sqlite3_free (sql);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* Opens @file (which exists) as self->db, configured as every writer's
 * connection is; errors name self->path, the capture asked for. */
static gboolean
open_db (HpCaptureWriter  *self,
         const char       *file,
         int               flags,
         GError          **error)
{
  int rc = sqlite3_open_v2 (file, &self->db, flags | SQLITE_OPEN_NOMUTEX, NULL);

  if (rc != SQLITE_OK)
    {
      const char *reason = self->db ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc);

      /* "unable to open database file" says less than the system's reason */
      if (self->db != NULL && sqlite3_system_errno (self->db) != 0)
        reason = g_strerror (sqlite3_system_errno (self->db));
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   _("%s: cannot create the capture: %s"), self->path, reason);
      close_db (self);
      return FALSE;
    }
  sqlite3_extended_result_codes (self->db, 1);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
  /* a recording does not wait long on another program: its rows wait (see the top) */
  sqlite3_busy_timeout (self->db, self->bulk ? HP_WRITER_BUSY_TIMEOUT_MS : HP_WRITER_LOCK_TRY_MS);
  return TRUE;
}

/* Gives the set-up capture @from the name @to, unless something has that
 * name by now (another writer, a user): a new capture never replaces a
 * file. Where the file system cannot rename without replacing, a hard
 * link does the same; where it has no links either, the check is made
 * just before a plain rename. */
static gboolean
move_into_place (const char  *from,
                 const char  *to,
                 GError     **error)
{
  int errsv;

  if (renameat2 (AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
    return TRUE;
  errsv = errno;
  if (errsv == EINVAL || errsv == ENOSYS || errsv == ENOTSUP)
    {
      if (link (from, to) == 0)
        {
          g_unlink (from);
          return TRUE;
        }
      errsv = errno;
      if (errsv != EEXIST && !g_file_test (to, G_FILE_TEST_EXISTS))
        {
          if (g_rename (from, to) == 0)
            return TRUE;
          errsv = errno;
        }
    }
  if (errsv == EEXIST)
    g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                 _("%s: cannot create the capture: the file already exists"), to);
  else
    g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                 _("%s: cannot create the capture: %s"), to, g_strerror (errsv));
  return FALSE;
}

static HpCaptureWriter *
writer_create (const char  *path,
               gboolean     bulk,
               GError     **error)
{
  g_autoptr(HpCaptureWriter) self = NULL;
  g_autofree char *creation_sql = hp_schema_creation_sql ();
  g_autofree char *setup = NULL;
  gboolean in_place = FALSE;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   _("%s: cannot create the capture: the file already exists"), path);
      return NULL;
    }

  self = g_new0 (HpCaptureWriter, 1);
  self->fd = -1;
  self->finish_wait_us = HP_WRITER_FINISH_LOCK_WAIT_US;
  self->path = g_strdup (path);
  self->shm_fd = -1;
  self->bulk = bulk;
  self->modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->functions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->frames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->stacks = g_hash_table_new_full (stack_key_hash, stack_key_equal, g_free, NULL);
  self->counts = g_hash_table_new_full (stack_count_hash, stack_count_equal, g_free, NULL);
  self->keybuf = g_string_sized_new (256);

  /* A part is private already; a recording's capture is set up as this
   * process's part and renamed into place with its tables (see "Setting
   * up" at the top). */
  setup = bulk ? g_strdup (path) : hp_capture_writer_part_path (path);
  if (!bulk)
    hp_capture_writer_remove_files (setup);  /* ours, left by an earlier writer of this process */

  /* The file is created here first, never over an existing one (SQLite has
   * no O_EXCL), and because, when SQLite cannot create it, it retries
   * read-only and keeps that retry's errno: a read-only folder would say
   * "No such file". Its descriptor is kept: it is how the writer knows
   * its file, wherever it goes (see "Lost from its name" at the top). It
   * is closed only after SQLite's own: closing a descriptor of a file
   * drops every POSIX lock this process holds on it. */
  fd = g_open (setup, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      int errsv = errno;

      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   _("%s: cannot create the capture: %s"), path, g_strerror (errsv));
      return NULL;
    }
  self->fd = fd;

  if (!open_db (self, setup, SQLITE_OPEN_READWRITE, error))
    goto fail;
  /* WAL is kept in the file's header: the capture is in WAL mode from the
   * moment it has its name, and nobody can be in the way of the switch. */
  if (!exec (self, bulk ? "PRAGMA journal_mode=MEMORY;"
                          "PRAGMA synchronous=OFF;"
                          "PRAGMA locking_mode=EXCLUSIVE;"
                          "PRAGMA cache_size=-" G_STRINGIFY (HP_WRITER_BULK_CACHE_KIB) ";"
                        : "PRAGMA synchronous=OFF;"
                          "PRAGMA journal_mode=WAL;", error) ||
      !exec (self, "BEGIN;"
                   "PRAGMA application_id=" G_STRINGIFY (HP_CAPTURE_APPLICATION_ID) ";"
                   "PRAGMA user_version=" G_STRINGIFY (HP_CAPTURE_FORMAT_VERSION) ";", error) ||
      !exec (self, creation_sql, error) ||
      (bulk && !defer_indexes (self, error)) ||
      !exec (self, "COMMIT;", error))
    goto fail;

  if (bulk)
    in_place = TRUE;
  else
    {
      /* Closing the only connection moves the WAL into the file and
       * deletes it: what is renamed is one file. Nobody else opens a
       * part, so it was written without SQLite's syncs (nine of them,
       * 20-40 ms of a recording's start here); it is synced once, before
       * its name can lead to it. */
      close_db (self);
      if (fdatasync (self->fd) != 0)
        {
          int errsv = errno;

          g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                       _("%s: cannot create the capture: %s"), path, g_strerror (errsv));
          goto fail;
        }
      if (!move_into_place (setup, path, error))
        goto fail;
      in_place = TRUE;
      if (!open_db (self, path, SQLITE_OPEN_READWRITE, error) ||
          !exec (self, "PRAGMA synchronous=NORMAL;", error))
        goto fail;
    }

  if (!prepare (self, &self->insert_metadata, HP_WRITER_SQL_METADATA, error) ||
      !prepare (self, &self->upsert_process, HP_WRITER_SQL_PROCESS, error) ||
      !prepare (self, &self->upsert_thread, HP_WRITER_SQL_THREAD, error) ||
      !prepare (self, &self->insert_module, HP_WRITER_SQL_MODULE, error) ||
      !prepare (self, &self->insert_function, HP_WRITER_SQL_FUNCTION, error) ||
      !prepare (self, &self->insert_frame, HP_WRITER_SQL_FRAME, error) ||
      !prepare (self, &self->insert_stack, HP_WRITER_SQL_STACK, error) ||
      !prepare (self, &self->insert_sample, HP_WRITER_SQL_SAMPLE, error) ||
      !prepare_insert_samples (self, error) ||
      !prepare (self, &self->insert_event, HP_WRITER_SQL_EVENT, error) ||
      !prepare (self, &self->insert_count, HP_WRITER_SQL_COUNT, error))
    goto fail;

  hp_capture_writer_set_metadata (self, HP_META_HOTPATH_VERSION, PACKAGE_VERSION);

  return g_steal_pointer (&self);

fail:
  if (in_place)
    hp_capture_writer_abort (self);
  else
    {
      close_db (self);
      hp_capture_writer_remove_files (setup);
    }
  return NULL;
}

HpCaptureWriter *
hp_capture_writer_new (const char  *path,
                       GError     **error)
{
  return writer_create (path, FALSE, error);
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

static void
bind_tier (sqlite3_stmt *stmt,
           int           column,
           char          tier)
{
  if (tier != 0)
    sqlite3_bind_text (stmt, column, &tier, 1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null (stmt, column);
}

static gint64
intern_frame (HpCaptureWriter *self,
              gint64           function_id,
              const char      *file,
              guint            line,
              gboolean         is_inline,
              char             tier,
              guint64          offset)
{
  gint64 id;

  g_string_truncate (self->keybuf, 0);
  append_int (self->keybuf, function_id);
  append_str (self->keybuf, file);
  append_int (self->keybuf, line);
  append_int (self->keybuf, !!is_inline);
  if (tier != 0)
    append_int (self->keybuf, tier);
  if ((id = lookup (self, self->frames)) != 0)
    return id;

  id = ++self->n_frames;
  sqlite3_bind_int64 (self->insert_frame, 1, id);
  sqlite3_bind_int64 (self->insert_frame, 2, function_id);
  bind_text (self->insert_frame, 3, file);
  sqlite3_bind_int64 (self->insert_frame, 4, line);
  sqlite3_bind_int (self->insert_frame, 5, !!is_inline);
  sqlite3_bind_int64 (self->insert_frame, 6, (gint64) offset);
  bind_tier (self->insert_frame, 7, tier);
  step (self, self->insert_frame, "cannot write a frame");
  remember (self, self->frames, id);
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
  g_return_val_if_fail (self != NULL && self->db != NULL, 0);

  return intern_frame (self, function_id, file, line, is_inline, 0, offset);
}

gint64
hp_capture_writer_intern_tier_frame (HpCaptureWriter *self,
                                     gint64           function_id,
                                     const char      *file,
                                     guint            line,
                                     char             tier,
                                     guint64          offset)
{
  g_return_val_if_fail (self != NULL && self->db != NULL, 0);

  return intern_frame (self, function_id, file, line, FALSE, tier, offset);
}

gint64
hp_capture_writer_add_frame (HpCaptureWriter *self,
                             gint64           function_id,
                             guint64          offset)
{
  gint64 id;

  g_return_val_if_fail (self != NULL && self->db != NULL, 0);

  id = ++self->n_frames;
  sqlite3_bind_int64 (self->insert_frame, 1, id);
  sqlite3_bind_int64 (self->insert_frame, 2, function_id);
  sqlite3_bind_null (self->insert_frame, 3);
  sqlite3_bind_int64 (self->insert_frame, 4, 0);
  sqlite3_bind_int (self->insert_frame, 5, 0);
  sqlite3_bind_int64 (self->insert_frame, 6, (gint64) offset);
  sqlite3_bind_null (self->insert_frame, 7);
  step (self, self->insert_frame, "cannot write a frame");
  return id;
}

void
hp_capture_writer_update_frame (HpCaptureWriter *self,
                                gint64           frame_id,
                                gint64           function_id,
                                const char      *file,
                                guint            line,
                                char             tier)
{
  g_return_if_fail (self != NULL && self->db != NULL);
  g_return_if_fail (frame_id > 0 && frame_id <= self->n_frames);

  if (self->error != NULL)
    return;
  if (self->update_frame == NULL
      && !prepare (self, &self->update_frame,
                   HP_WRITER_SQL_FRAME_UPDATE, &self->error))
    return;
  sqlite3_bind_int64 (self->update_frame, 1, function_id);
  bind_text (self->update_frame, 2, file);
  sqlite3_bind_int64 (self->update_frame, 3, line);
  bind_tier (self->update_frame, 4, tier);
  sqlite3_bind_int64 (self->update_frame, 5, frame_id);
  step (self, self->update_frame, "cannot write a frame");
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

  /* while the writer leaves the lock free, held as the samples are */
  if (self->error == NULL && begin (self) && self->yielding)
    {
      if (self->held_stacks == NULL)
        self->held_stacks = g_array_new (FALSE, FALSE, sizeof (StackKey));
      g_array_append_val (self->held_stacks, *found);
      return found->id;
    }
  write_stack (self, found);
  return found->id;
}

static void
write_stack (HpCaptureWriter *self,
             const StackKey  *stack)
{
  sqlite3_bind_int64 (self->insert_stack, 1, stack->id);
  sqlite3_bind_int64 (self->insert_stack, 2, stack->parent_id);
  sqlite3_bind_int64 (self->insert_stack, 3, stack->frame_id);
  step (self, self->insert_stack, "cannot write a stack");
}

gint64
hp_capture_writer_add_event (HpCaptureWriter *self,
                             const char      *name,
                             const char      *unit,
                             guint64          frequency,
                             guint64          period)
{
  gint64 id;

  g_return_val_if_fail (self != NULL && self->db != NULL, 0);
  g_return_val_if_fail (name != NULL && unit != NULL, 0);

  id = ++self->n_events;
  sqlite3_bind_int64 (self->insert_event, 1, id);
  sqlite3_bind_text (self->insert_event, 2, name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (self->insert_event, 3, unit, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (self->insert_event, 4, (gint64) MIN (frequency, G_MAXINT64));
  sqlite3_bind_int64 (self->insert_event, 5, (gint64) MIN (period, G_MAXINT64));
  step (self, self->insert_event, "cannot write an event");

  /* every event in the metadata too, for a look at the file without the
   * events table: "cpu-clock,page-faults,off-cpu" */
  if (self->event_names == NULL)
    self->event_names = g_string_new (NULL);
  g_string_append_printf (self->event_names, "%s%s", id > 1 ? "," : "", name);
  hp_capture_writer_set_metadata (self, HP_META_EVENTS, self->event_names->str);

  if (id == 1)
    {
      hp_capture_writer_set_metadata (self, HP_META_EVENT, name);
      hp_capture_writer_set_metadata (self, HP_META_EVENT_UNIT, unit);
      if (frequency > 0)
        hp_capture_writer_set_metadata_int (self, HP_META_FREQUENCY, (gint64) MIN (frequency, G_MAXINT64));
      if (period > 0)
        hp_capture_writer_set_metadata_int (self, HP_META_PERIOD, (gint64) MIN (period, G_MAXINT64));
    }
  return id;
}

/* Inserts @n samples: each full set of HP_WRITER_SAMPLE_ROWS with one
 * statement, the rest (at a commit) one by one. While the writer leaves
 * the lock free they are held as they are (self->held), and written when
 * it takes the lock again. Errors are deferred. */
static void
write_samples (HpCaptureWriter     *self,
               const PendingSample *samples,
               guint                n)
{
  if (n == 0 || self->error != NULL || !begin (self))
    return;
  if (self->yielding)
    {
      if (self->held == NULL)
        self->held = g_array_new (FALSE, FALSE, sizeof (PendingSample));
      g_array_append_vals (self->held, samples, n);
      return;
    }
  if (self->deferring)
    self->deferred_samples += n;
  for (guint start = 0, rows; start < n; start += rows)
    {
      gboolean full = n - start >= HP_WRITER_SAMPLE_ROWS;
      sqlite3_stmt *stmt = full ? self->insert_samples : self->insert_sample;

      rows = full ? HP_WRITER_SAMPLE_ROWS : 1;
      for (guint i = 0; i < rows; i++)
        {
          const PendingSample *p = &samples[start + i];
          int at = (int) i * 6;

          /* every column is bound each time: no clear_bindings needed */
          sqlite3_bind_int64 (stmt, at + 1, p->time);
          sqlite3_bind_int (stmt, at + 2, p->tid);
          sqlite3_bind_int (stmt, at + 3, p->cpu);
          sqlite3_bind_int64 (stmt, at + 4, p->stack_id);
          sqlite3_bind_int64 (stmt, at + 5, p->weight);
          sqlite3_bind_int64 (stmt, at + 6, p->event_id);
        }
      if (self->deferring)
        {
          defer (self, stmt);
          sqlite3_reset (stmt);
          if (self->error != NULL)
            return;
          continue;
        }
      if (sqlite3_step (stmt) != SQLITE_DONE)
        {
          sqlite3_reset (stmt);
          record_error (self, "cannot write a sample");
          return;
        }
      sqlite3_reset (stmt);
    }
}

static void
write_pending_samples (HpCaptureWriter *self)
{
  guint n = self->n_pending;

  self->n_pending = 0;
  write_samples (self, self->pending, n);
}

/* The stack nodes and samples held while the writer left the lock free:
 * written now that it has it, or kept as SQL as the rest when another
 * program took it. */
static void
write_held (HpCaptureWriter *self)
{
  g_autoptr(GArray) held = g_steal_pointer (&self->held);
  g_autoptr(GArray) stacks = g_steal_pointer (&self->held_stacks);

  for (guint i = 0; stacks != NULL && i < stacks->len && self->error == NULL; i++)
    write_stack (self, &g_array_index (stacks, StackKey, i));
  if (held != NULL)
    write_samples (self, (const PendingSample *) held->data, held->len);
}

static void
count_samples (HpCaptureWriter *self,
               gint64           stack_id,
               gint32           tid,
               gint64           event_id,
               gint64           samples,
               gint64           weight)
{
  StackCount key = { stack_id, tid, event_id, FALSE, 0, 0 };
  StackCount *count = g_hash_table_lookup (self->counts, &key);

  if (count == NULL)
    {
      count = g_new (StackCount, 1);
      *count = key;
      g_hash_table_add (self->counts, count);
    }
  /* As SQLite's sum() would: an overflow is an error, at finish(). */
  if (__builtin_add_overflow (count->samples, samples, &count->samples) ||
      __builtin_add_overflow (count->weight, weight, &count->weight))
    count->overflow = TRUE;
}

void
hp_capture_writer_add_sample (HpCaptureWriter *self,
                              guint64          time,
                              gint32           tid,
                              gint32           cpu,
                              gint64           stack_id,
                              guint64          weight)
{
  hp_capture_writer_add_event_sample (self, 1, time, tid, cpu, stack_id, weight);
}

void
hp_capture_writer_add_event_sample (HpCaptureWriter *self,
                                    gint64           event_id,
                                    guint64          time,
                                    gint32           tid,
                                    gint32           cpu,
                                    gint64           stack_id,
                                    guint64          weight)
{
  g_return_if_fail (self != NULL && self->db != NULL);
  g_return_if_fail (!self->finished);
  /* event 1 exists without a row: see hp_capture_writer_add_event() */
  g_return_if_fail (event_id >= 1 && event_id <= MAX (self->n_events, 1));

  if (!begin (self))
    return;
  self->pending[self->n_pending++] = (PendingSample) {
    (gint64) time, tid, cpu, stack_id, (gint64) weight, event_id
  };
  if (self->n_pending == HP_WRITER_SAMPLE_ROWS)
    write_pending_samples (self);
  count_samples (self, stack_id, tid, event_id, 1, (gint64) weight);

  self->n_samples++;
  /* a batch, or the lock held for HP_WRITER_HOLD_US (looked at every
   * HP_WRITER_SAMPLE_ROWS samples): a loaded machine may stretch a round
   * of records, and the lock with it, to seconds */
  if (++self->batch_samples >= HP_WRITER_BATCH
      || (!self->bulk && self->in_txn && self->batch_samples % HP_WRITER_SAMPLE_ROWS == 0
          && g_get_monotonic_time () - self->txn_since >= HP_WRITER_HOLD_US))
    hp_capture_writer_flush (self, NULL);
}

void
hp_capture_writer_add_count (HpCaptureWriter *self,
                             gint64           event_id,
                             gint32           tid,
                             gint64           stack_id,
                             guint64          samples,
                             guint64          weight)
{
  g_return_if_fail (self != NULL && self->db != NULL);
  g_return_if_fail (!self->finished);
  g_return_if_fail (event_id >= 1 && event_id <= MAX (self->n_events, 1));
  g_return_if_fail (self->bulk);
  g_return_if_fail (samples <= G_MAXINT64 && weight <= G_MAXINT64);

  if (self->error != NULL || samples == 0)
    return;
  count_samples (self, stack_id, tid, event_id, (gint64) samples, (gint64) weight);
}

guint64
hp_capture_writer_get_n_samples (HpCaptureWriter *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_samples;
}

guint64
hp_capture_writer_get_n_committed_samples (HpCaptureWriter *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_committed_samples;
}

const GError *
hp_capture_writer_get_error (HpCaptureWriter *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->error;
}

const char *
hp_capture_writer_get_note (HpCaptureWriter *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->note;
}

static gboolean
take_deferred_error (HpCaptureWriter  *self,
                     GError          **error)
{
  if (self->error == NULL)
    return TRUE;
  if (error != NULL)
    g_propagate_error (error, g_error_copy (self->error));
  return FALSE;
}

/* The -shm file of the capture, opened once and kept (see
 * hp_capture_writer_get_lock_holder); -1 when it cannot be. */
static int
shm_fd (HpCaptureWriter *self)
{
  if (self->shm_fd < 0)
    {
      g_autofree char *shm = g_strconcat (self->path, "-shm", NULL);

      self->shm_fd = open (shm, O_RDONLY | O_CLOEXEC);
    }
  return self->shm_fd;
}

/* Whether another connection may want the write lock: one of another
 * process (its shared lock on the -shm file's dead-man byte, 128, which
 * SQLite's os_unix.c holds for every open connection), or any capture
 * open in this process (F_GETLK sees no lock of ours). When in doubt,
 * TRUE. Nobody else: no reason to leave the lock free after a commit,
 * and rows written at once cost a sixth less than rows held. */
static gboolean
others_have_it_open (HpCaptureWriter *self)
{
  struct flock lock = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 128, .l_len = 1 };

  if (hp_capture_any_open ())
    return TRUE;
  if (shm_fd (self) < 0 || fcntl (self->shm_fd, F_GETLK, &lock) != 0)
    return TRUE;
  return lock.l_type != F_UNLCK;
}

static gboolean
commit (HpCaptureWriter  *self,
        GError          **error)
{
  write_pending_samples (self);
  if (!take_deferred_error (self, error))
    return FALSE;
  /* rows that wait for another program's lock: written once it is free */
  if (self->deferring && !take_lock (self))
    return take_deferred_error (self, error);
  if (self->in_txn)
    {
      if (sqlite3_exec (self->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        {
          record_error (self, "cannot write the capture");
          return take_deferred_error (self, error);
        }
      self->in_txn = FALSE;
    }
  self->n_committed_samples = self->n_samples;
  /* the lock is free for a while now, for a program that waits for it */
  if (!self->bulk && others_have_it_open (self))
    self->yield_until = g_get_monotonic_time () + HP_WRITER_YIELD_US;
  return TRUE;
}

/* Who holds the write lock of a capture in WAL mode: the fcntl lock
 * SQLite takes on byte 120 of the -shm file (WAL_WRITE_LOCK), as
 * F_GETLK reports its owner. */
int
hp_capture_writer_get_lock_holder (HpCaptureWriter  *self,
                                   char            **name)
{
  struct flock lock = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 120, .l_len = 1 };
  g_autofree char *comm_path = NULL;
  g_autofree char *comm = NULL;

  g_return_val_if_fail (self != NULL, 0);

  if (name != NULL)
    *name = NULL;
  /* the WAL's write lock: a byte of the -shm file (SQLite's os_unix.c).
   * The file stays open until the database is closed: closing a file
   * drops every fcntl lock the process holds on it, SQLite's own too
   * (its shared lock that says the -shm is in use, without which the
   * next program to open the capture would reset it under us). */
  if (shm_fd (self) < 0 || fcntl (self->shm_fd, F_GETLK, &lock) != 0 || lock.l_type == F_UNLCK || lock.l_pid <= 0)
    return 0;
  comm_path = g_strdup_printf ("/proc/%d/comm", (int) lock.l_pid);
  if (name != NULL && g_file_get_contents (comm_path, &comm, NULL, NULL))
    *name = g_strdup (g_strstrip (comm));
  return (int) lock.l_pid;
}

char *
hp_capture_writer_describe_lock_holder (HpCaptureWriter *self)
{
  g_autofree char *name = NULL;
  int pid = hp_capture_writer_get_lock_holder (self, &name);

  if (pid <= 0)
    return g_strdup (_("another program"));
  if (name != NULL)
    return g_strdup_printf (_("another program (%s, PID %d)"), name, pid);
  return g_strdup_printf (_("another program (PID %d)"), pid);
}

gdouble
hp_capture_writer_get_lock_wait (HpCaptureWriter *self,
                                 guint64         *samples)
{
  g_return_val_if_fail (self != NULL, 0);

  if (samples != NULL)
    *samples = self->deferring && !self->yielding ? self->deferred_samples + self->n_pending : 0;
  if (!self->deferring || self->yielding)
    return 0;
  return MAX ((g_get_monotonic_time () - self->lock_since) / (gdouble) G_USEC_PER_SEC, 1e-6);
}

void
hp_capture_writer_set_wait_func (HpCaptureWriter        *self,
                                 HpCaptureWriterWaitFunc func,
                                 gpointer                data)
{
  g_return_if_fail (self != NULL);

  self->wait_func = func;
  self->wait_data = data;
}

void
hp_capture_writer_set_finish_wait (HpCaptureWriter *self,
                                   guint            ms)
{
  g_return_if_fail (self != NULL);

  self->finish_wait_us = (gint64) ms * 1000;
}

gboolean
hp_capture_writer_flush (HpCaptureWriter  *self,
                         GError          **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (self->db != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  self->batch_samples = 0;
  /* A part is committed once, at the end (see the top of this file). */
  if (self->bulk)
    return take_deferred_error (self, error);
  return commit (self, error);
}

/* The journal mode, or NULL when the statement failed (sets *rc). */
static char *
set_journal_mode (HpCaptureWriter *self,
                  const char      *sql,
                  int             *rc)
{
  sqlite3_stmt *stmt = NULL;
  char *mode = NULL;

  *rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL);
  if (*rc == SQLITE_OK)
    {
      *rc = sqlite3_step (stmt);
      if (*rc == SQLITE_ROW)
        mode = g_ascii_strdown ((const char *) sqlite3_column_text (stmt, 0) ?: "", -1);
    }
  sqlite3_finalize (stmt);
  return mode;
}

/* Moves the WAL into the database and leaves WAL mode, so the capture is
 * one file again. That needs the capture to itself: while another program
 * has it open (a reader, a summary being saved) this is retried for a few
 * seconds, and then the capture is kept in WAL mode, complete all the same. */
static void
make_single_file (HpCaptureWriter *self)
{
  gint64 deadline = g_get_monotonic_time () + HP_WRITER_SINGLE_FILE_WAIT_US;
  g_autofree char *reason = NULL;
  int rc = SQLITE_OK;

  for (;;)
    {
      g_autofree char *mode = NULL;

      /* Copy what readers allow into the database first: what stays in
       * the WAL then is small. */
      sqlite3_exec (self->db, "PRAGMA wal_checkpoint(PASSIVE)", NULL, NULL, NULL);
      mode = set_journal_mode (self, "PRAGMA journal_mode=DELETE", &rc);
      if (g_strcmp0 (mode, "delete") == 0)
        {
          g_autofree char *wal = g_strconcat (self->path, "-wal", NULL);
          g_autofree char *dir = g_path_get_dirname (self->path);

          /* SQLite says so even when it could not delete the WAL: a
           * folder made read-only meanwhile (chmod, for a user but root) */
          if (!g_file_test (wal, G_FILE_TEST_EXISTS))
            return;
          reason = g_strdup (g_strerror (access (dir, W_OK) != 0 ? errno : EACCES));
          break;
        }
      if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED && rc != SQLITE_ROW)
        {
          reason = db_reason (self->db);
          break;
        }
      if (g_get_monotonic_time () >= deadline)
        break;
      g_usleep (50 * 1000);
    }

  if (reason != NULL)
    self->note = g_strdup_printf (_("the capture is complete, but it could not be made one file (%s): "
                                    "it is kept with its -wal file beside it; move or copy the two together"),
                                  reason);
  else
    self->note = g_strdup_printf (_("the capture is complete; another program has it open, so it is kept "
                                    "with its -wal file beside it until the last program closes it "
                                    "(move or copy the two together)"));
}

/* The stack_counts rows, from the counts of the committed samples. */
static gboolean
write_counts (HpCaptureWriter *self)
{
  GHashTableIter iter;
  StackCount *count;

  if (sqlite3_exec (self->db, "DELETE FROM stack_counts", NULL, NULL, NULL) != SQLITE_OK)
    {
      record_error (self, "cannot write the capture");
      return FALSE;
    }
  g_hash_table_iter_init (&iter, self->counts);
  while (g_hash_table_iter_next (&iter, (gpointer *) &count, NULL))
    {
      if (count->overflow)
        {
          fail (self, g_error_new (HP_STORE_ERROR, HP_STORE_ERROR_IO,
                                   _("%s: cannot write the capture: the samples or weights of stack %" PRId64
                                     " in thread %d (event %" PRId64 ") add up to more than 2^63"),
                                   self->path, count->stack_id, count->tid, count->event_id));
          return FALSE;
        }
      sqlite3_bind_int64 (self->insert_count, 1, count->stack_id);
      sqlite3_bind_int (self->insert_count, 2, count->tid);
      sqlite3_bind_int64 (self->insert_count, 3, count->event_id);
      sqlite3_bind_int64 (self->insert_count, 4, count->samples);
      sqlite3_bind_int64 (self->insert_count, 5, count->weight);
      if (sqlite3_step (self->insert_count) != SQLITE_DONE)
        {
          sqlite3_reset (self->insert_count);
          record_error (self, "cannot write the capture");
          return FALSE;
        }
      sqlite3_reset (self->insert_count);
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

  /* The write lock, with what waits for it written first, as long as it
   * may take: the rows below are written in this transaction, never one
   * by one in a lock another program took meanwhile. The wait is told. */
  write_pending_samples (self);
  {
    gint64 deadline = g_get_monotonic_time () + self->finish_wait_us;

    while (!take_lock (self) && self->error == NULL)
      {
        if (self->wait_func != NULL)
          self->wait_func (self->wait_data);
        if (g_get_monotonic_time () >= deadline)
          give_up_deferred (self);
        else
          g_usleep (100 * 1000);
      }
    if (!take_deferred_error (self, error))
      return FALSE;
  }

  /* The aggregate and the complete flag are one transaction with the last
   * batch: a reader sees either a complete capture or none of them. */
  if (!write_counts (self))
    return take_deferred_error (self, error);
  for (guint i = 0; self->deferred_indexes != NULL && i < self->deferred_indexes->len; i++)
    if (sqlite3_exec (self->db, self->deferred_indexes->pdata[i], NULL, NULL, NULL) != SQLITE_OK)
      {
        record_error (self, "cannot write the capture");
        return take_deferred_error (self, error);
      }
  if (sqlite3_exec (self->db,
                    "INSERT OR REPLACE INTO metadata (key, value) VALUES ('" HP_META_COMPLETE "', '1');",
                    NULL, NULL, NULL) != SQLITE_OK)
    {
      record_error (self, "cannot write the capture");
      return take_deferred_error (self, error);
    }
  if (!commit (self, error))
    return FALSE;
  self->finished = TRUE;

  /* Complete from here on: what follows cannot fail the capture. A file
   * no longer at its name is made one file by hp_capture_writer_close(). */
  finalize_statements (self);
  if (still_in_place (self))
    make_single_file (self);
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
      hp_capture_writer_remove_files (self->path);
    }
}

/* Not finished: keeps what was written (the capture opens as cut short),
 * and what waits for another program's lock where it can be had. */
static void
commit_unfinished (HpCaptureWriter *self)
{
  if (self->db != NULL && self->deferring && self->error == NULL && !self->bulk)
    {
      commit (self, NULL);
      if (self->deferring && self->error == NULL)
        give_up_deferred (self);
    }
  if (self->db != NULL && self->in_txn && self->error == NULL)
    commit (self, NULL);
}

/* Makes the closed capture at @path one file (it may be in WAL mode, with
 * a -wal beside it that names it by an old name); left as it is when that
 * fails, a capture all the same. */
static void
make_one_file (const char *path)
{
  sqlite3 *db = NULL;

  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) == SQLITE_OK)
    {
      sqlite3_db_config (db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
      sqlite3_busy_timeout (db, 1000);
      sqlite3_exec (db, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL);
    }
  sqlite3_close (db);
}

/* Copies the file the writer holds open to @target, a new file; FALSE
 * with errno set when that fails (nothing is left at @target). */
static gboolean
copy_held_file (HpCaptureWriter *self,
                const char      *target)
{
  char buf[64 * 1024];
  int out = g_open (target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  off_t at = 0;
  int errsv = 0;

  if (out < 0)
    return FALSE;
  for (;;)
    {
      ssize_t n = pread (self->fd, buf, sizeof buf, at);
      ssize_t done = 0;

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          errsv = n < 0 ? errno : 0;
          break;
        }
      while (done < n)
        {
          ssize_t w = write (out, buf + done, n - done);

          if (w < 0 && errno == EINTR)
            continue;
          if (w <= 0)
            {
              errsv = w < 0 ? errno : ENOSPC;
              break;
            }
          done += w;
        }
      if (errsv != 0)
        break;
      at += n;
    }
  if (errsv == 0 && fsync (out) != 0)
    errsv = errno;
  if (close (out) != 0 && errsv == 0)
    errsv = errno;
  if (errsv != 0)
    {
      g_unlink (target);
      errno = errsv;
      return FALSE;
    }
  return TRUE;
}

/* Saves the capture the writer holds open, whose file was deleted (or its
 * folder removed): at @capture when that name is free again in a folder
 * that exists, else as NAME.recovered.hotpath beside it, else in the
 * user's data folder (hotpath/recovered/), else in the temporary folder.
 * The file saved, or NULL with the last reason in *@reason. */
static char *
save_held_file (HpCaptureWriter  *self,
                const char       *capture,
                char            **reason)
{
  g_autofree char *dir = g_path_get_dirname (capture);
  g_autofree char *name = g_path_get_basename (capture);
  g_autofree char *data_dir = g_build_filename (g_get_user_data_dir (), "hotpath", "recovered", NULL);
  g_autofree char *in_data_dir = g_build_filename (data_dir, name, NULL);
  g_autofree char *in_tmp = g_build_filename (g_get_tmp_dir (), name, NULL);
  const char *const places[] = { capture, in_data_dir, in_tmp };
  GStatBuf st;
  int errsv = ENOENT;

  if (g_lstat (capture, &st) != 0 && errno == ENOENT && g_file_test (dir, G_FILE_TEST_IS_DIR)
      && copy_held_file (self, capture))
    {
      make_one_file (capture);
      return g_strdup (capture);
    }
  g_mkdir_with_parents (data_dir, 0700);
  for (guint i = 0; i < G_N_ELEMENTS (places); i++)
    for (guint n = 1; n < 100; n++)
      {
        /* in the data folder, the name itself comes first */
        g_autofree char *target = i == 1 && n == 1 ? g_strdup (places[i])
                                                   : labelled_name (places[i], "recovered", i == 1 ? n - 1 : n);

        if (copy_held_file (self, target))
          {
            make_one_file (target);
            return g_steal_pointer (&target);
          }
        if (errno != EEXIST)
          {
            errsv = errno;
            break;
          }
      }
  *reason = g_strdup (g_strerror (errsv));
  return NULL;
}

/* The -wal and -shm SQLite made by the writer's path stay there when the
 * file was moved or deleted: gone with the WAL emptied into the file,
 * unless a database has that name now, to which they might belong. */
static void
remove_left_companions (HpCaptureWriter *self)
{
  static const guint8 db_magic[16] = "SQLite format 3";
  g_autofree char *wal = g_strconcat (self->path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (self->path, "-shm", NULL);
  GStatBuf st;

  if (g_lstat (wal, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size != 0
      || hp_store_db_file_starts_with (self->path, db_magic, sizeof db_magic, NULL))
    return;
  g_unlink (wal);
  g_unlink (shm);
}

gboolean
hp_capture_writer_close (HpCaptureWriter  *self,
                         const char       *capture,
                         GError          **error)
{
  g_autofree char *proc = NULL;
  g_autofree char *now = NULL;
  g_autofree char *reason = NULL;
  char *saved;
  GStatBuf held;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (capture != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  commit_unfinished (self);
  if (still_in_place (self))
    {
      close_db (self);
      return TRUE;
    }
  /* SQLite does not move the WAL into a file that was moved or deleted
   * when it closes it, nor leave WAL mode (SQLITE_READONLY_DBMOVED): a
   * checkpoint does, through the descriptors it holds. */
  if (self->db != NULL)
    sqlite3_exec (self->db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
  close_db (self);
  remove_left_companions (self);

  /* Moved, or its folder renamed: whole where it is now. A part there
   * would be taken for a dead writer's; it gets a capture's name. */
  proc = g_strdup_printf ("/proc/self/fd/%d", self->fd);
  if (fstat (self->fd, &held) == 0 && held.st_nlink > 0
      && (now = g_file_read_link (proc, NULL)) != NULL && g_path_is_absolute (now)
      && !g_str_has_suffix (now, " (deleted)"))
    {
      g_autofree char *base = g_path_get_basename (now);
      pid_t pid;
      const char *companion;

      make_one_file (now);
      if (parse_part_name (base, &pid, &companion) && companion[0] == '\0' && pid == getpid ())
        {
          g_autofree char *dir = g_path_get_dirname (now);
          g_autofree char *name = g_path_get_basename (capture);
          g_autofree char *beside = g_build_filename (dir, name, NULL);
          char *kept = keep_recording (now, beside, "recovered");

          if (kept != NULL)
            {
              g_free (now);
              now = kept;
            }
        }
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   _("%s: the file was moved (or its folder renamed) while it was being written; "
                     "the capture is at %s"), self->path, now);
      g_free (self->saved_as);
      self->saved_as = g_steal_pointer (&now);
      return FALSE;
    }

  /* Deleted (or its folder removed, or replaced by another file): the
   * descriptor holds the last of it. */
  saved = save_held_file (self, capture, &reason);
  if (saved == NULL)
    g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                 _("%s: the file was deleted (or its folder removed) while it was being written, "
                   "and the capture could not be saved anywhere else (%s): it is lost"), self->path, reason);
  else if (strcmp (saved, self->path) == 0)
    g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                 _("%s: the file was deleted while it was being written; the capture is written there again"),
                 self->path);
  else
    g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                 _("%s: the file was deleted (or its folder removed, or replaced) while it was being written; "
                   "the capture is saved as %s"), self->path, saved);
  g_free (self->saved_as);
  self->saved_as = saved;
  return FALSE;
}

const char *
hp_capture_writer_get_saved_as (HpCaptureWriter *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->saved_as;
}

char *
hp_capture_writer_keep_aside (const char *part,
                              const char *capture)
{
  g_return_val_if_fail (part != NULL, NULL);
  g_return_val_if_fail (capture != NULL, NULL);

  return keep_recording (part, capture, "recovered");
}

HpCaptureWriter *
hp_capture_writer_new_part (const char  *capture,
                            GError     **error)
{
  g_autofree char *part = NULL;

  g_return_val_if_fail (capture != NULL, NULL);

  hp_capture_writer_remove_stale_parts (capture, NULL);
  part = hp_capture_writer_part_path (capture);
  /* ours, from an earlier import by this process that was not ended */
  hp_capture_writer_remove_files (part);
  return writer_create (part, TRUE, error);
}

gboolean
hp_capture_writer_end_part (HpCaptureWriter  *self,
                            const char       *capture,
                            gboolean          ok,
                            GError          **error)
{
  g_autofree char *part = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (capture != NULL, FALSE);

  part = g_strdup (self->path);
  if (ok)
    ok = hp_capture_writer_finish (self, error);
  if (!ok)
    {
      hp_capture_writer_abort (self);
      hp_capture_writer_free (self);
      return FALSE;
    }
  /* a part deleted or moved meanwhile (its folder removed) is saved elsewhere, and said */
  if (!hp_capture_writer_close (self, capture, error))
    {
      hp_capture_writer_free (self);
      return FALSE;
    }
  hp_capture_writer_free (self);
  if (!hp_capture_writer_replace (part, capture, error))
    {
      g_autofree char *kept = hp_capture_writer_keep_aside (part, capture);

      if (kept != NULL)
        g_prefix_error (error, _("the capture is kept as %s: "), kept);
      else
        hp_capture_writer_remove_files (part);
      return FALSE;
    }
  return TRUE;
}

void
hp_capture_writer_free (HpCaptureWriter *self)
{
  if (self == NULL)
    return;

  commit_unfinished (self);
  close_db (self);
  if (self->fd >= 0)
    close (self->fd);

  g_clear_pointer (&self->modules, g_hash_table_unref);
  g_clear_pointer (&self->functions, g_hash_table_unref);
  g_clear_pointer (&self->frames, g_hash_table_unref);
  g_clear_pointer (&self->stacks, g_hash_table_unref);
  g_clear_pointer (&self->counts, g_hash_table_unref);
  if (self->keybuf != NULL)
    g_string_free (self->keybuf, TRUE);
  g_clear_error (&self->error);
  g_clear_pointer (&self->deferred_indexes, g_ptr_array_unref);
  drop_deferred (self);
  g_clear_pointer (&self->held, g_array_unref);
  g_clear_pointer (&self->held_stacks, g_array_unref);
  g_free (self->note);
  g_free (self->saved_as);
  if (self->event_names != NULL)
    g_string_free (self->event_names, TRUE);
  g_free (self->path);
  g_free (self);
}
