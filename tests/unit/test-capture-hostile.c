/* test-capture-hostile.c - the capture reader against files made to hurt it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A capture is a file people mail to each other, so the reader treats it as
 * untrusted. Each test here writes a valid capture with the store's writer,
 * then turns it hostile with plain SQL or file-system calls (a trigger, a
 * view, absurd or sparse rows, a truncated file, a FIFO, a symlink loop,
 * invalid UTF-8), and checks that the reader gives a clear error or a safe
 * result. Every test runs in a subprocess limited to 300 MB of address
 * space and 10 s, the bounds the reader promises for files of a few MB: a
 * hang or a runaway allocation fails the test instead of the machine.
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

#include "perf/hp-perf-file.h"
#include "store/hp-capture-private.h"
#include "store/hp-store-db.h"
#include "test-common.h"

#define MEMORY_LIMIT   (300 * 1024 * 1024)
#define SECONDS_LIMIT  10

typedef HpTestScratch Fixture;

/* Runs the rest of the calling test in a subprocess under the limits;
 * the parent returns from the test with the subprocess's verdict. */
#define RUN_BOUNDED()                                                       \
  G_STMT_START {                                                            \
    if (!g_test_subprocess ())                                              \
      {                                                                     \
        g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR); \
        g_test_trap_assert_passed ();                                       \
        return;                                                             \
      }                                                                     \
    limit_resources ();                                                     \
  } G_STMT_END

static void
limit_resources (void)
{
  struct rlimit rl = { MEMORY_LIMIT, MEMORY_LIMIT };

  g_assert_cmpint (setrlimit (RLIMIT_AS, &rl), ==, 0);
  alarm (SECONDS_LIMIT);
}

/* A small valid capture: main → work → {leaf_a, leaf_b} in /usr/bin/app,
 * 30 samples on two threads. @finish: with stack_counts, as a recording
 * that ended; otherwise as one cut short, whose samples are aggregated on
 * loading. */
static void
write_capture (const char *path,
               gboolean    finish)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  const char *names[] = { "main", "work", "leaf_a", "leaf_b" };
  gint64 module, frames[4], s_main, s_work, s_a, s_b;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "command", "./app --fast");
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_process (w, 42, "app");
  hp_capture_writer_set_thread (w, 42, 42, "app");
  hp_capture_writer_set_thread (w, 43, 42, "worker");
  module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      gint64 f = hp_capture_writer_intern_function (w, names[i], module, "app.c", 10 * i);

      frames[i] = hp_capture_writer_intern_frame (w, f, "app.c", 10 * i + 1, FALSE, 0x100 * i);
    }
  s_main = hp_capture_writer_intern_stack (w, 0, frames[0]);
  s_work = hp_capture_writer_intern_stack (w, s_main, frames[1]);
  s_a = hp_capture_writer_intern_stack (w, s_work, frames[2]);
  s_b = hp_capture_writer_intern_stack (w, s_work, frames[3]);
  for (guint i = 0; i < 20; i++)
    hp_capture_writer_add_sample (w, i, 42, 0, s_a, 1000);
  for (guint i = 0; i < 10; i++)
    hp_capture_writer_add_sample (w, 100 + i, 43, 1, s_b, 1000);
  if (finish)
    {
      g_assert_true (hp_capture_writer_finish (w, &error));
      g_assert_no_error (error);
    }
}

/* Asserts that loading @path fails as corrupt with a message holding
 * every one of the NULL-terminated @fragments: with hp_capture_load(),
 * and with hp_capture_load_stack_totals(), which checks every row as it
 * does while adding them up. */
static void
assert_load_corrupt (const char *path,
                     ...)
{
  for (guint per_stack = 0; per_stack < 2; per_stack++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HpCapture) capture = hp_capture_open (path, FALSE, &error);
      g_autoptr(HpCaptureData) data = NULL;
      const char *fragment;
      va_list ap;

      if (capture != NULL)
        data = per_stack ? hp_capture_load_stack_totals (capture, &error) : hp_capture_load (capture, &error);
      g_assert_null (data);
      g_assert_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT);
      g_printerr ("# %s\n", error->message);
      g_assert_true (g_str_has_prefix (error->message, path));
      va_start (ap, path);
      while ((fragment = va_arg (ap, const char *)) != NULL)
        if (strstr (error->message, fragment) == NULL)
          g_error ("\"%s\" is not in \"%s\"", fragment, error->message);
      va_end (ap);
    }
}

/* Cancelling ---------------------------------------------------------- */

static void
test_cancel_before_load (Fixture       *fx,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) loaded = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  capture = hp_capture_open (fx->path, FALSE, &error);
  g_assert_no_error (error);
  hp_capture_set_cancellable (capture, cancellable);
  g_cancellable_cancel (cancellable);
  loaded = hp_capture_load (capture, &error);
  g_assert_null (loaded);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* a new cancellable, a new load */
  g_clear_object (&cancellable);
  cancellable = g_cancellable_new ();
  hp_capture_set_cancellable (capture, cancellable);
  loaded = hp_capture_load (capture, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded);
}

#define ENDLESS_QUERY \
  "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"

typedef struct {
  HpCapture *capture;
  GError    *error;
  gboolean   ok;
  gint64     seconds_us;
} EndlessJob;

static gpointer
run_endless (gpointer user_data)
{
  EndlessJob *job = user_data;
  gint64 t0 = g_get_monotonic_time ();

  /* no work limit to speak of: only the cancellable stops it */
  job->ok = hp_capture_run_sql_for_testing (job->capture, ENDLESS_QUERY, G_MAXINT64 / 2, &job->error);
  job->seconds_us = g_get_monotonic_time () - t0;
  return NULL;
}

/* Cancel from another thread stops SQLite in the middle of a query, as the
 * window's Cancel must stop its loader thread. */
static void
test_cancel_during_query (Fixture       *fx,
                          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  EndlessJob job = { 0 };
  GThread *thread;

  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  capture = hp_capture_open (fx->path, FALSE, &error);
  g_assert_no_error (error);
  hp_capture_set_cancellable (capture, cancellable);
  job.capture = capture;
  thread = g_thread_new ("endless", run_endless, &job);
  g_usleep (200 * 1000);
  g_cancellable_cancel (cancellable);
  g_thread_join (thread);

  g_assert_false (job.ok);
  g_assert_error (job.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_printerr ("# %s (after %.3f s)\n", job.error->message, job.seconds_us / 1e6);
  g_clear_error (&job.error);
}

/* Without a cancellable, an endless query still stops, on the work limit
 * that the size of the file sets. */
static void
test_work_limit (Fixture       *fx,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) loaded = NULL;
  gint64 t0;

  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  capture = hp_capture_open (fx->path, FALSE, &error);
  g_assert_no_error (error);
  t0 = g_get_monotonic_time ();
  g_assert_false (hp_capture_run_sql_for_testing (capture, ENDLESS_QUERY, 0, &error));
  g_assert_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "far more work than a capture of its size needs"));
  g_printerr ("# %s (after %.3f s)\n", error->message, (g_get_monotonic_time () - t0) / 1e6);
  g_clear_error (&error);

  /* and the next operation has its own allowance */
  loaded = hp_capture_load (capture, &error);
  g_assert_no_error (error);
  g_clear_pointer (&capture, hp_capture_close);

  /* A file of 5 MB (a table a script added) allows more work, and still
   * stops within the bounds (the subprocess's 10 s). */
  hp_test_sql (fx->path, "CREATE TABLE padding (x); INSERT INTO padding VALUES (zeroblob (5000000));");
  capture = hp_capture_open (fx->path, FALSE, &error);
  g_assert_no_error (error);
  t0 = g_get_monotonic_time ();
  g_assert_false (hp_capture_run_sql_for_testing (capture, ENDLESS_QUERY, 0, &error));
  g_assert_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT);
  g_printerr ("# %s (after %.3f s)\n", error->message, (g_get_monotonic_time () - t0) / 1e6);
  /* 16 steps a byte */
  g_assert_nonnull (strstr (error->message, "stopped after "));
  g_assert_cmpint (atoi (strstr (error->message, "stopped after ") + strlen ("stopped after ")), >=, 80);
}

/* Schema objects that run code ------------------------------------------ */

static void
assert_open_refused (const char *path,
                     gboolean    writable,
                     ...)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = hp_capture_open (path, writable, &error);
  const char *fragment;
  va_list ap;

  g_assert_null (capture);
  g_assert_nonnull (error);
  g_printerr ("# %s\n", error->message);
  g_assert_true (g_str_has_prefix (error->message, path));
  va_start (ap, writable);
  while ((fragment = va_arg (ap, const char *)) != NULL)
    if (strstr (error->message, fragment) == NULL)
      g_error ("\"%s\" is not in \"%s\"", fragment, error->message);
  va_end (ap);
}

/* A trigger on summaries would delete the stacks and rewrite the summary
 * when one is saved: the capture is refused, and nothing runs. */
static void
test_trigger (Fixture       *fx,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;

  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path,
       "CREATE TRIGGER evil AFTER INSERT ON summaries BEGIN "
       "  DELETE FROM stacks; UPDATE summaries SET text = 'pwned'; "
       "END;");

  assert_open_refused (fx->path, TRUE, "trigger \"evil\"", NULL);
  assert_open_refused (fx->path, FALSE, "trigger \"evil\"", NULL);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM stacks"), ==, 4);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM summaries"), ==, 0);
}

/* A trigger and a view that appear after the capture was opened (and its
 * schema checked), as another process may add them: the connection
 * itself never runs them. */
static void
test_added_after_open (Fixture       *fx,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) loaded = NULL;

  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  capture = hp_capture_open (fx->path, TRUE, &error);
  g_assert_no_error (error);

  hp_test_sql (fx->path,
       "CREATE TRIGGER evil AFTER INSERT ON summaries BEGIN "
       "  DELETE FROM stacks; UPDATE summaries SET text = 'pwned'; "
       "END;");
  /* saving may fail or not; the trigger must not run */
  if (!hp_capture_set_summary (capture, "app\tmain\n", "main", "entry", &error))
    {
      g_printerr ("# %s\n", error->message);
      g_clear_error (&error);
    }
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM stacks"), ==, 4);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM summaries WHERE text = 'pwned'"), ==, 0);

  hp_test_sql (fx->path,
       "DROP TRIGGER evil;"
       "DROP TABLE stacks;"
       "CREATE VIEW stacks AS WITH RECURSIVE r (id, parent_id, frame_id) AS "
       "  (SELECT 1, 0, 1 UNION ALL SELECT id + 1, id, 1 FROM r) SELECT * FROM r;");
  loaded = hp_capture_load (capture, &error);
  g_assert_null (loaded);
  g_assert_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT);
  g_printerr ("# %s\n", error->message);
  g_assert_nonnull (strstr (error->message, "view \"stacks\""));
}

static gint64
file_size (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return st.st_size;
}

/* An index of an expression runs it on each row a summary writes: one of
 * zeroblob (60000000) on summaries made each summary saved write 60 MB
 * into the capture (and one of printf as much). A partial index runs its
 * WHERE clause. Both are refused when the capture is opened, and by a
 * write when one was added after the capture was opened. */
static void
test_expression_index (Fixture       *fx,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  gint64 size;

  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path, "CREATE INDEX big ON summaries (zeroblob (60000000));");
  size = file_size (fx->path);
  assert_open_refused (fx->path, TRUE, "index \"big\" of an expression", NULL);
  assert_open_refused (fx->path, FALSE, "index \"big\" of an expression", NULL);

  hp_test_sql (fx->path,
       "DROP INDEX big;"
       "CREATE INDEX some ON stacks (frame_id) WHERE frame_id > 1;");
  assert_open_refused (fx->path, TRUE, "index \"some\" of an expression or with a WHERE clause", NULL);

  hp_test_sql (fx->path, "DROP INDEX some; CREATE INDEX plain ON summaries (text);");
  capture = hp_capture_open (fx->path, TRUE, &error);
  g_assert_no_error (error);
  hp_test_sql (fx->path, "CREATE INDEX big ON summaries (zeroblob (60000000));");
  g_assert_false (hp_capture_set_summary (capture, "app\tmain\n", "main", "entry", &error));
  g_printerr ("# %s\n", error->message);
  g_assert_nonnull (strstr (error->message, "index \"big\" of an expression"));
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM summaries"), ==, 0);
  g_assert_cmpint (file_size (fx->path), <, size + 1000000);
}

/* A view with an endless recursive query in place of a table. */
static void
test_recursive_view (Fixture       *fx,
                     gconstpointer  data)
{
  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path,
       "DROP TABLE stacks;"
       "CREATE VIEW stacks AS WITH RECURSIVE r (id, parent_id, frame_id) AS "
       "  (SELECT 1, 0, 1 UNION SELECT id + 1, id, 1 FROM r) SELECT * FROM r;");

  assert_open_refused (fx->path, FALSE, "view \"stacks\"", NULL);
}

/* A generated column in place of a name, building a 100 MB string each
 * time a row is read. */
static void
test_generated_column (Fixture       *fx,
                       gconstpointer  data)
{
  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path,
       "CREATE TABLE f2 (id INTEGER PRIMARY KEY, module_id INTEGER NOT NULL, file TEXT, "
       "  line INTEGER NOT NULL DEFAULT 0, name TEXT AS (printf ('%.*c', 100000000, 'x')));"
       "INSERT INTO f2 (id, module_id, file, line) SELECT id, module_id, file, line FROM functions;"
       "DROP TABLE functions;"
       "ALTER TABLE f2 RENAME TO functions;");

  assert_open_refused (fx->path, FALSE, "column \"name\" of table functions is a generated column", NULL);
}

/* summaries as schema.sql declares it, with @extra after its columns */
static void
replace_summaries (const char *path,
                   const char *extra)
{
  g_autofree char *sql = g_strdup_printf ("DROP TABLE summaries;"
                                          "CREATE TABLE summaries (path_key TEXT PRIMARY KEY, path TEXT NOT NULL, "
                                          "  text TEXT NOT NULL, created TEXT NOT NULL, updated TEXT NOT NULL, "
                                          "  capture TEXT, share REAL, found INTEGER NOT NULL DEFAULT 1%s);",
                                          extra);

  hp_test_sql (path, sql);
}

/* A CHECK constraint or a DEFAULT expression on a table Hotpath writes
 * runs the file's SQL with each summary saved: a DEFAULT of zeroblob
 * (60000000) on a column a summary does not name wrote 60 MB into the
 * capture with each one, a CHECK could refuse every save or spend the
 * work allowance. Both are refused when the capture is opened, naming the
 * table, compared with schema.sql's own tables; a constant DEFAULT on a
 * column a script added is left alone. */
static void
test_check_and_default (Fixture       *fx,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  gint64 size;

  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  size = file_size (fx->path);

  replace_summaries (fx->path, ", pad BLOB DEFAULT (zeroblob (60000000))");
  assert_open_refused (fx->path, TRUE, "column \"pad\" of table summaries has the DEFAULT \"zeroblob (60000000)\"", NULL);
  assert_open_refused (fx->path, FALSE, "column \"pad\" of table summaries", NULL);

  /* a column of the format with a DEFAULT other than schema.sql's */
  replace_summaries (fx->path, "");
  hp_test_sql (fx->path, "CREATE TABLE f2 (id INTEGER PRIMARY KEY, function_id INTEGER NOT NULL, file TEXT, "
                         "  line INTEGER NOT NULL DEFAULT (length (printf ('%.*c', 50000000, 'x'))), "
                         "  is_inline INTEGER NOT NULL DEFAULT 0, offset INTEGER NOT NULL DEFAULT 0, tier TEXT);"
                         "INSERT INTO f2 SELECT * FROM frames; DROP TABLE frames; ALTER TABLE f2 RENAME TO frames;");
  assert_open_refused (fx->path, TRUE, "column \"line\" of table frames has the DEFAULT", "declares 0", NULL);

  g_unlink (fx->path);
  write_capture (fx->path, TRUE);
  replace_summaries (fx->path, ", CONSTRAINT nosy CHECK (text NOT LIKE '%password%')");
  assert_open_refused (fx->path, TRUE, "table summaries has the CHECK constraint \"nosy\"", NULL);
  replace_summaries (fx->path, ", spin INTEGER CHECK (length (printf ('%.*c', 50000000, 'x')) > 0)");
  assert_open_refused (fx->path, TRUE, "table summaries has the CHECK constraint", NULL);

  /* one a migration would run on every sample of an older capture */
  g_unlink (fx->path);
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path, "CREATE TABLE s2 (time INTEGER NOT NULL, tid INTEGER NOT NULL, cpu INTEGER NOT NULL, "
                         "  stack_id INTEGER NOT NULL, weight INTEGER NOT NULL, event_id INTEGER NOT NULL DEFAULT 1, "
                         "  CHECK (time >= 0));"
                         "INSERT INTO s2 SELECT * FROM samples; DROP TABLE samples; ALTER TABLE s2 RENAME TO samples;");
  assert_open_refused (fx->path, TRUE, "table samples has the CHECK constraint \"time >= 0\"", NULL);

  /* tables that hotpath-cli add-pending writes into */
  g_unlink (fx->path);
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path, "CREATE TABLE st2 (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL, "
                         "  frame_id INTEGER NOT NULL CHECK (frame_id < 1000));"
                         "INSERT INTO st2 SELECT * FROM stacks; DROP TABLE stacks; ALTER TABLE st2 RENAME TO stacks;");
  assert_open_refused (fx->path, TRUE, "table stacks has the CHECK constraint \"frame_id < 1000\"", NULL);

  /* a column a script added with a constant DEFAULT: opened and written */
  g_unlink (fx->path);
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path, "ALTER TABLE summaries ADD COLUMN reviewed INTEGER DEFAULT 0;"
                         "ALTER TABLE summaries ADD COLUMN reviewer TEXT DEFAULT 'nobody''s';"
                         "ALTER TABLE summaries ADD COLUMN tag BLOB DEFAULT x'00ff';");
  capture = hp_capture_open (fx->path, TRUE, &error);
  g_assert_no_error (error);
  g_assert_true (hp_capture_set_summary (capture, "app\tmain\n", "main", "entry", &error));
  g_assert_no_error (error);

  /* added after the capture was opened: the next save refuses it */
  hp_test_sql (fx->path, "CREATE TABLE s2 AS SELECT * FROM summaries;");
  replace_summaries (fx->path, ", pad BLOB DEFAULT (zeroblob (60000000))");
  hp_test_sql (fx->path, "INSERT INTO summaries (path_key, path, text, created, updated, capture, share, found, pad) "
                         "  SELECT path_key, path, text, created, updated, capture, share, found, NULL FROM s2;"
                         "DROP TABLE s2;");
  g_assert_false (hp_capture_set_summary (capture, "app\tmain\twork\n", "main → work", "more", &error));
  g_printerr ("# %s\n", error->message);
  g_assert_nonnull (strstr (error->message, "column \"pad\" of table summaries"));
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM summaries"), ==, 1);
  g_assert_cmpint (file_size (fx->path), <, size + 1000000);
}

/* A column a script added takes its DEFAULT into each summary saved: one
 * of x'00…' of 4 MiB made the capture 4 MiB bigger with each. NULL and a
 * short constant are left alone; a longer one is refused, naming the
 * file, the table and the column. */
static void
test_long_default (Fixture       *fx,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(GString) sql = g_string_new ("ALTER TABLE summaries ADD COLUMN pad BLOB DEFAULT x'");

  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  for (guint i = 0; i < 4 * 1024 * 1024; i++)
    g_string_append (sql, "00");
  g_string_append (sql, "';");
  hp_test_sql (fx->path, sql->str);
  assert_open_refused (fx->path, TRUE, "column \"pad\" of table summaries has a DEFAULT of 8388611 bytes",
                       "at most 64 bytes", NULL);
  assert_open_refused (fx->path, FALSE, "column \"pad\" of table summaries has a DEFAULT", NULL);

  /* 65 bytes of text: refused; 64 and NULL: written */
  g_unlink (fx->path);
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path, "ALTER TABLE summaries ADD COLUMN note TEXT DEFAULT "
                         "'123456789012345678901234567890123456789012345678901234567890123';");
  assert_open_refused (fx->path, TRUE, "column \"note\" of table summaries has a DEFAULT of 65 bytes", NULL);
  g_unlink (fx->path);
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path, "ALTER TABLE summaries ADD COLUMN note TEXT DEFAULT "
                         "'12345678901234567890123456789012345678901234567890123456789012';"
                         "ALTER TABLE summaries ADD COLUMN empty BLOB DEFAULT NULL;");
  capture = hp_capture_open (fx->path, TRUE, &error);
  g_assert_no_error (error);
  g_assert_true (hp_capture_set_summary (capture, "app\tmain\n", "main", "entry", &error));
  g_assert_no_error (error);
}

/* A UNIQUE constraint schema.sql does not declare, or an ON CONFLICT
 * clause, on summaries: with "capture TEXT UNIQUE ON CONFLICT REPLACE"
 * each summary saved silently deleted the one saved before (all name the
 * same capture). Refused, naming the file and the table. */
static void
test_unique_and_on_conflict (Fixture       *fx,
                             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;

  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path, "DROP TABLE summaries;"
                         "CREATE TABLE summaries (path_key TEXT PRIMARY KEY, path TEXT NOT NULL, "
                         "  text TEXT NOT NULL, created TEXT NOT NULL, updated TEXT NOT NULL, "
                         "  capture TEXT UNIQUE ON CONFLICT REPLACE, share REAL, found INTEGER NOT NULL DEFAULT 1);");
  assert_open_refused (fx->path, TRUE, "table summaries has an ON CONFLICT clause", NULL);
  assert_open_refused (fx->path, FALSE, "table summaries has an ON CONFLICT clause", NULL);

  /* hidden from a plain reading of the SQL by a comment */
  replace_summaries (fx->path, ", note TEXT NOT NULL ON/* */conflict IGNORE DEFAULT 'on conflict'");
  assert_open_refused (fx->path, TRUE, "table summaries has an ON CONFLICT clause", NULL);

  /* a UNIQUE of its own: INSERT OR REPLACE (summaries copied in) would
   * replace as well */
  replace_summaries (fx->path, ", UNIQUE (capture)");
  assert_open_refused (fx->path, TRUE, "table summaries has a UNIQUE or PRIMARY KEY constraint on \"(capture)\"",
                       NULL);
  replace_summaries (fx->path, "");
  hp_test_sql (fx->path, "CREATE UNIQUE INDEX one_per_text ON summaries (text COLLATE NOCASE);");
  assert_open_refused (fx->path, TRUE, "table summaries has a UNIQUE or PRIMARY KEY constraint on "
                       "\"(text collate nocase)\"", NULL);
  /* metadata is written with INSERT OR REPLACE too */
  replace_summaries (fx->path, "");
  hp_test_sql (fx->path, "CREATE UNIQUE INDEX one_per_value ON metadata (value);");
  assert_open_refused (fx->path, TRUE, "table metadata has a UNIQUE or PRIMARY KEY constraint on \"(value)\"",
                       NULL);
  hp_test_sql (fx->path, "DROP INDEX one_per_value;");
  /* a primary key other than schema.sql's */
  hp_test_sql (fx->path, "DROP TABLE summaries;"
                         "CREATE TABLE summaries (path_key TEXT, path TEXT NOT NULL, "
                         "  text TEXT NOT NULL, created TEXT NOT NULL, updated TEXT NOT NULL, "
                         "  capture TEXT, share REAL, found INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (capture, path_key));");
  assert_open_refused (fx->path, TRUE, "constraint on \"(capture, path_key)\"", NULL);

  /* schema.sql's own, a plain index, and the words in a name or a string:
   * opened, and two summaries are two */
  replace_summaries (fx->path, ", \"on conflict\" TEXT DEFAULT 'on conflict'");
  hp_test_sql (fx->path, "CREATE INDEX by_capture ON summaries (capture);");
  capture = hp_capture_open (fx->path, TRUE, &error);
  g_assert_no_error (error);
  g_assert_true (hp_capture_set_summary (capture, "app\tmain\n", "main", "entry", &error));
  g_assert_true (hp_capture_set_summary (capture, "app\tmain\twork\n", "main → work", "more", &error));
  g_assert_no_error (error);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM summaries"), ==, 2);
}

/* A capture labelled version 1 that holds the tables of a later version
 * (its user_version set back by another program): it reads as version 1,
 * and saving a summary, which would bring it up to date first, says what
 * is wrong with the file instead of SQLite's bare "table events already
 * exists", and changes nothing. */
static void
test_version_label_older_than_tables (Fixture       *fx,
                                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) loaded = NULL;

  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path, "PRAGMA user_version = 1;");

  capture = hp_capture_open (fx->path, TRUE, &error);
  g_assert_no_error (error);
  loaded = hp_capture_load (capture, &error);
  g_assert_no_error (error);
  g_assert_false (hp_capture_set_summary (capture, "app\tmain\n", "main", "entry", &error));
  g_printerr ("# %s\n", error->message);
  g_assert_true (g_str_has_prefix (error->message, fx->path));
  g_assert_nonnull (strstr (error->message, "labelled format version 1, but its tables are not those of that version"));
  g_assert_nonnull (strstr (error->message, "table events already exists"));
  g_assert_cmpint (hp_test_sql_int (fx->path, "PRAGMA user_version"), ==, 1);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM summaries"), ==, 0);
}

static guint64
total_samples (HpCaptureData *data)
{
  guint64 n = 0;

  for (guint i = 0; i < data->stack_counts->len; i++)
    n += g_array_index (data->stack_counts, HpCaptureStackCount, i).samples;
  return n;
}

/* A capture marked complete whose stack_counts was emptied (by a script,
 * or a tool that set complete itself) read as 0 samples, silently: its
 * samples are counted instead, as in a capture cut short. */
static void
test_complete_without_counts (Fixture       *fx,
                              gconstpointer  data)
{
  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);

  /* with its totals, then without: only then are they said to be summed
   * (the front ends say so, hp-capture-health.h) */
  for (guint deleted = 0; deleted < 2; deleted++)
    {
      if (deleted)
        hp_test_sql (fx->path, "DELETE FROM stack_counts;");
      for (guint per_stack = 0; per_stack < 2; per_stack++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(HpCapture) capture = hp_capture_open (fx->path, FALSE, &error);
          g_autoptr(HpCaptureData) loaded = NULL;
          g_autoptr(HpCaptureData) copy = NULL;

          g_assert_no_error (error);
          loaded = per_stack ? hp_capture_load_stack_totals (capture, &error) : hp_capture_load (capture, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (total_samples (loaded), ==, 30);
          g_assert_cmpint (loaded->counts_summed, ==, deleted);
          /* a filter's copy keeps it */
          copy = hp_capture_data_new_weighted (loaded);
          g_assert_cmpint (copy->counts_summed, ==, deleted);
        }
    }
}

static void
test_missing_table (Fixture       *fx,
                    gconstpointer  data)
{
  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path, "DROP TABLE summaries");
  assert_open_refused (fx->path, FALSE, "corrupt capture: it has no table summaries", NULL);
}

/* Files that are not captures ----------------------------------------- */

static void
test_fifo (Fixture       *fx,
           gconstpointer  data)
{
  RUN_BOUNDED ();
  g_assert_cmpint (mkfifo (fx->path, 0600), ==, 0);
  /* opening a FIFO for reading blocks until a writer comes: it must not */
  assert_open_refused (fx->path, FALSE, "is not a regular file (a FIFO)", NULL);
  assert_open_refused (fx->path, TRUE, "is not a regular file (a FIFO)", NULL);
  /* nor must the check that comes first in `report` and the window: is
   * it a perf.data? */
  g_assert_false (hp_perf_file_sniff (fx->path));
}

static void
test_directory (Fixture       *fx,
                gconstpointer  data)
{
  RUN_BOUNDED ();
  g_assert_cmpint (g_mkdir (fx->path, 0700), ==, 0);
  assert_open_refused (fx->path, FALSE, "is a directory", NULL);
  assert_open_refused (fx->path, TRUE, "is a directory", NULL);
}

static void
test_device (Fixture       *fx,
             gconstpointer  data)
{
  RUN_BOUNDED ();
  if (!g_file_test ("/dev/zero", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /dev/zero");
      return;
    }
  assert_open_refused ("/dev/zero", FALSE, "is not a regular file (a character device)", NULL);
}

static void
test_symlink_loop (Fixture       *fx,
                   gconstpointer  data)
{
  g_autofree char *other = NULL;

  RUN_BOUNDED ();
  other = g_build_filename (fx->dir, "other.hotpath", NULL);
  g_assert_cmpint (symlink (other, fx->path), ==, 0);
  g_assert_cmpint (symlink (fx->path, other), ==, 0);
  assert_open_refused (fx->path, FALSE, "too many levels of symbolic links", NULL);
}

/* A capture cut short by a copy or a download. */
static void
test_truncated (Fixture       *fx,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  g_assert_cmpint (hp_test_sql_int (fx->path, "PRAGMA page_count"), >, 4);
  g_assert_cmpint (truncate (fx->path, 3 * hp_test_sql_int (fx->path, "PRAGMA page_size")), ==, 0);
  assert_open_refused (fx->path, FALSE, "the capture is truncated", NULL);

  g_assert_cmpint (truncate (fx->path, 60), ==, 0);
  assert_open_refused (fx->path, FALSE, "the capture is truncated", "inside its header", NULL);

  g_assert_cmpint (truncate (fx->path, 0), ==, 0);
  assert_open_refused (fx->path, FALSE, "the file is empty", NULL);
}

/* Journals ------------------------------------------------------------ */

/* @path opens read-only and loads whole, as write_capture() made it,
 * with no journal left beside it. */
static void
assert_capture_whole (const char *path)
{
  g_autofree char *journal = g_strconcat (path, "-journal", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = hp_capture_open (path, FALSE, &error);
  g_autoptr(HpCaptureData) loaded = NULL;
  g_autofree char *command = NULL;

  g_assert_no_error (error);
  loaded = hp_capture_load (capture, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (loaded->stacks->len, ==, 5);
  command = hp_capture_get_metadata (capture, "command");
  g_assert_cmpstr (command, ==, "./app --fast");
  g_assert_false (g_file_test (journal, G_FILE_TEST_EXISTS));
  g_assert_cmpint (hp_test_sql_int (path, "SELECT count(*) FROM metadata WHERE key = 'filler'"), ==, 0);
  g_assert_cmpint (hp_test_sql_int (path, "SELECT count(*) FROM pragma_integrity_check "
                                          "WHERE integrity_check = 'ok'"), ==, 1);
}

/* Leaves @path with a hot journal as a process killed in the middle of a
 * write does: a transaction that rewrote the command, spilled to the file
 * (so the file holds pages of a write never committed), and no commit. */
static void
cut_a_write_short (const char *path)
{
  pid_t pid = fork ();
  int status;

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      sqlite3 *db = NULL;

      if (sqlite3_open (path, &db) != SQLITE_OK ||
          sqlite3_exec (db, "PRAGMA journal_mode=DELETE; PRAGMA cache_size=2; BEGIN;"
                            "UPDATE metadata SET value = printf ('%.300000c', 'z') WHERE key = 'command';"
                            "INSERT INTO metadata VALUES ('filler', printf ('%.300000c', 'f'));",
                        NULL, NULL, NULL) != SQLITE_OK)
        _exit (2);
      _exit (0);  /* killed before the commit: no rollback, no close */
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
}

/* A write cut short leaves a hot journal beside the capture; a reader
 * that opened it read-only got "attempt to write a readonly database",
 * which named the capture and not the problem. It is rolled back now as
 * SQLite rolls back for any program that opens it for writing: the last
 * committed capture comes back whole. A read-only capture gets a message
 * that names the journal and says not to remove it. */
static void
test_hot_journal (Fixture       *fx,
                  gconstpointer  data)
{
  g_autofree char *journal = g_strconcat (fx->path, "-journal", NULL);
  GStatBuf st;

  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  cut_a_write_short (fx->path);
  g_assert_true (hp_store_db_is_journal (journal));
  g_assert_cmpint (g_stat (fx->path, &st), ==, 0);
  g_assert_cmpint (st.st_size, >, 300000);  /* the pages of the cut write are in the file */

  /* read-only file: nothing is touched, the message says why */
  g_assert_cmpint (g_chmod (fx->path, 0444), ==, 0);
  assert_open_refused (fx->path, FALSE, journal, "cut short", "read-only", "do not remove", NULL);
  g_assert_true (hp_store_db_is_journal (journal));
  g_assert_cmpint (g_chmod (fx->path, 0644), ==, 0);

  /* read-only open of a writable file: rolled back, the capture whole */
  assert_capture_whole (fx->path);
}

/* Random bytes as a journal: SQLite finds no header in it, so nothing to
 * roll back, but a read-only connection still stopped at it. */
static void
test_garbage_journal (Fixture       *fx,
                      gconstpointer  data)
{
  g_autofree char *journal = g_strconcat (fx->path, "-journal", NULL);
  g_autofree char *garbage = g_malloc (4096);

  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  for (guint i = 0; i < 4096; i++)
    garbage[i] = (char) g_test_rand_int_range (1, 256);
  g_assert_true (g_file_set_contents (journal, garbage, 4096, NULL));

  g_assert_cmpint (g_chmod (fx->path, 0444), ==, 0);
  assert_open_refused (fx->path, FALSE, journal, "not a SQLite journal", "remove it", NULL);
  assert_open_refused (fx->path, TRUE, journal, "not a SQLite journal", NULL);
  g_assert_true (g_file_test (journal, G_FILE_TEST_EXISTS));
  g_assert_cmpint (g_chmod (fx->path, 0644), ==, 0);

  assert_capture_whole (fx->path);
}

/* Absurd rows ----------------------------------------------------------- */

static void
test_negative_count (Fixture       *fx,
                     gconstpointer  data)
{
  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path, "UPDATE stack_counts SET samples = -5 WHERE stack_id = 3");
  assert_load_corrupt (fx->path, "stack_counts row (stack_id 3, tid 42) has samples -5", NULL);
}

/* Counts near 2^63: alone, and two whose sum would overflow (the report
 * then showed shares of 200 %). */
static void
test_huge_counts (Fixture       *fx,
                  gconstpointer  data)
{
  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path, "UPDATE stack_counts SET samples = 9223372036854775000 WHERE stack_id = 3");
  assert_load_corrupt (fx->path, "stack_counts row (stack_id 3, tid 42) has samples 9223372036854775000", NULL);

  hp_test_sql (fx->path, "UPDATE stack_counts SET samples = 3000000000000000000");
  assert_load_corrupt (fx->path, "the samples of stack_counts add up to more than 2^62", NULL);

  hp_test_sql (fx->path, "UPDATE stack_counts SET samples = 1, weight = 4611686018427387000");
  assert_load_corrupt (fx->path, "the weights of stack_counts add up to more than 2^62", NULL);
}

static void
test_text_in_counts (Fixture       *fx,
                     gconstpointer  data)
{
  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path, "UPDATE stack_counts SET weight = 'lots' WHERE stack_id = 4");
  assert_load_corrupt (fx->path, "stack_counts row (stack_id 4, tid 43) has weight \"lots\" (text)", NULL);

  hp_test_sql (fx->path, "UPDATE stack_counts SET weight = 1.5 WHERE stack_id = 4");
  assert_load_corrupt (fx->path, "stack_counts row (stack_id 4, tid 43) has weight 1.5 (a real number)", NULL);

  hp_test_sql (fx->path, "UPDATE stack_counts SET weight = 1, tid = x'00' WHERE stack_id = 4");
  assert_load_corrupt (fx->path, "has tid x'00' (a blob), not an integer", NULL);
}

/* A capture cut short aggregates its samples: a bad sample row is named. */
static void
test_bad_samples (Fixture       *fx,
                  gconstpointer  data)
{
  RUN_BOUNDED ();
  write_capture (fx->path, FALSE);
  hp_test_sql (fx->path, "UPDATE samples SET weight = -7 WHERE rowid = 5");
  assert_load_corrupt (fx->path, "samples row 5 (rowid) has weight -7", NULL);

  hp_test_sql (fx->path, "UPDATE samples SET weight = 1000 WHERE rowid = 5;"
                 "UPDATE samples SET stack_id = 'three' WHERE rowid = 7");
  assert_load_corrupt (fx->path, "samples row 7 (rowid) has stack_id \"three\" (text)", NULL);

  hp_test_sql (fx->path, "UPDATE samples SET stack_id = 3 WHERE rowid = 7;"
                 "UPDATE samples SET weight = 9000000000000000000 WHERE rowid IN (1, 2)");
  assert_load_corrupt (fx->path, "the weights of samples add up to more than 2^63", NULL);
}

/* The samples of a finished capture, which only a time range reads: each
 * weight under 2^63, their sum over it. Before, they were taken, and
 * `report --from --to` on a capture whose samples weigh 2^63 - 1 each gave
 * a total weight smaller than a self weight, the sums wrapped. */
static void
test_huge_sample_weights (Fixture       *fx,
                          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) loaded = NULL;
  g_autoptr(GArray) samples = NULL;

  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path, "UPDATE samples SET weight = 4000000000000000000 WHERE rowid IN (3, 4)");
  capture = hp_capture_open (fx->path, FALSE, &error);
  g_assert_no_error (error);
  loaded = hp_capture_load (capture, &error);
  g_assert_no_error (error);
  samples = hp_capture_load_samples (capture, loaded, &error);
  g_assert_null (samples);
  g_assert_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT);
  g_printerr ("# %s\n", error->message);
  g_assert_true (g_str_has_prefix (error->message, fx->path));
  g_assert_nonnull (strstr (error->message, "the weights of samples add up to more than 2^62 at samples row 4"));
}

/* Text and real numbers in id and reference columns, which an INTEGER
 * PRIMARY KEY cannot hold: the table is rebuilt without one. */
static void
test_bad_ids (Fixture       *fx,
              gconstpointer  data)
{
  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path,
       "CREATE TABLE f2 (id, name, module_id, file, line);"
       "INSERT INTO f2 SELECT id, name, module_id, file, line FROM functions;"
       "DROP TABLE functions;"
       "ALTER TABLE f2 RENAME TO functions;"
       "UPDATE functions SET id = 2.5 WHERE id = 2;");
  assert_load_corrupt (fx->path, "functions row number 2 has id 2.5 (a real number)", NULL);

  hp_test_sql (fx->path, "UPDATE functions SET id = 1 WHERE id = 2.5");
  assert_load_corrupt (fx->path, "functions has two rows with id 1", NULL);

  hp_test_sql (fx->path, "UPDATE functions SET id = 2 WHERE rowid = 2;"
                 "UPDATE functions SET module_id = NULL WHERE id = 3");
  assert_load_corrupt (fx->path, "functions row 3 has module_id NULL", NULL);

  hp_test_sql (fx->path, "UPDATE functions SET module_id = 1 WHERE id = 3;"
                 "UPDATE stacks SET frame_id = 'x' WHERE id = 2");
  assert_load_corrupt (fx->path, "stacks row 2 has frame_id \"x\" (text)", NULL);
}

/* Ids far apart, each less than a million past the last: the old reader
 * grew its arrays to the largest id, 500 million entries here, and
 * aborted under the memory limit before it found anything wrong. */
static void
test_sparse_ids (Fixture       *fx,
                 gconstpointer  data)
{
  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path,
       "WITH RECURSIVE k (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < 500) "
       "INSERT INTO functions (id, name, module_id) SELECT n * 999999, 'f' || n, 1 FROM k;");
  assert_load_corrupt (fx->path, "functions has no row with id 5 but one with id 999999 "
                       "(ids run from 1 without gaps)", NULL);
}

static void
test_missing_reference (Fixture       *fx,
                        gconstpointer  data)
{
  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path, "UPDATE stacks SET frame_id = 70 WHERE id = 4");
  assert_load_corrupt (fx->path, "stacks row 4 refers to frame 70, which is not in the frames table", NULL);

  hp_test_sql (fx->path, "UPDATE stacks SET frame_id = 4 WHERE id = 4;"
                 "UPDATE frames SET function_id = 0 WHERE id = 2");
  assert_load_corrupt (fx->path, "frames row 2 refers to function 0, which is not in the functions table", NULL);

  hp_test_sql (fx->path, "UPDATE frames SET function_id = 2 WHERE id = 2;"
                 "UPDATE stacks SET parent_id = 4 WHERE id = 3");
  assert_load_corrupt (fx->path, "stacks row 3 has parent stack 4, which does not come before it", NULL);

  hp_test_sql (fx->path, "UPDATE stacks SET parent_id = 2 WHERE id = 3;"
                 "UPDATE stack_counts SET stack_id = 9 WHERE stack_id = 4");
  assert_load_corrupt (fx->path, "stack_counts row (stack_id 9, tid 43) refers to stack 9, "
                       "which is not in the stacks table", NULL);
}

/* Text --------------------------------------------------------------------- */

static void
assert_replaced (const char *text)
{
  g_assert_nonnull (text);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_nonnull (strstr (text, "\xef\xbf\xbd"));  /* U+FFFD */
}

/* Invalid UTF-8 (and a NUL) in every kind of text reaches the rest of
 * Hotpath as valid UTF-8 with replacement characters. */
static void
test_invalid_utf8 (Fixture       *fx,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) loaded = NULL;
  g_autoptr(GHashTable) summaries = NULL;
  g_autofree char *command = NULL;
  g_autofree char *summary = NULL;
  const char *bad = "CAST (x'6d61696eff41fe00425c' AS TEXT)";  /* "main\xffA\xfe\0B\\" */
  g_autofree char *statement = NULL;

  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  statement = g_strdup_printf (
    "UPDATE functions SET name = %1$s, file = %1$s WHERE id = 1;"
    "UPDATE frames SET file = %1$s WHERE id = 1;"
    "UPDATE modules SET path = '/usr/bin/' || %1$s, build_id = %1$s;"
    "UPDATE threads SET name = %1$s;"
    "UPDATE processes SET command = %1$s;"
    "UPDATE metadata SET value = %1$s WHERE key = 'command';"
    "INSERT INTO metadata VALUES (%1$s, 'x');"
    "INSERT INTO summaries (path_key, path, text, created, updated) VALUES (%1$s, %1$s, %1$s, '', '');", bad);
  hp_test_sql (fx->path, statement);

  capture = hp_capture_open (fx->path, FALSE, &error);
  g_assert_no_error (error);
  loaded = hp_capture_load (capture, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (g_array_index (loaded->functions, HpCaptureFunction, 1).name, ==,
                   "main\xef\xbf\xbd" "A\xef\xbf\xbd\xef\xbf\xbd" "B\\");
  assert_replaced (g_array_index (loaded->functions, HpCaptureFunction, 1).file);
  assert_replaced (g_array_index (loaded->frames, HpCaptureFrame, 1).file);
  assert_replaced (g_array_index (loaded->modules, HpCaptureModule, 1).path);
  assert_replaced (g_array_index (loaded->modules, HpCaptureModule, 1).name);
  assert_replaced (g_array_index (loaded->modules, HpCaptureModule, 1).build_id);
  assert_replaced (g_array_index (loaded->threads, HpCaptureThread, 0).name);
  assert_replaced (g_array_index (loaded->processes, HpCaptureProcess, 0).command);
  assert_replaced (g_hash_table_lookup (loaded->metadata, "command"));
  {
    GHashTableIter iter;
    gpointer key, value;

    g_hash_table_iter_init (&iter, loaded->metadata);
    while (g_hash_table_iter_next (&iter, &key, &value))
      {
        g_assert_true (g_utf8_validate (key, -1, NULL));
        g_assert_true (g_utf8_validate (value, -1, NULL));
      }
  }

  command = hp_capture_get_metadata (capture, "command");
  assert_replaced (command);

  summaries = hp_capture_list_summaries (capture, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (summaries), ==, 1);
  {
    GHashTableIter iter;
    gpointer key, value;

    g_hash_table_iter_init (&iter, summaries);
    g_assert_true (g_hash_table_iter_next (&iter, &key, &value));
    assert_replaced (key);
    assert_replaced (value);
    summary = hp_capture_get_summary (capture, key, &error);
  }
  /* the key is not the stored one any more; whatever comes back is valid */
  g_assert_no_error (error);
  g_assert_true (summary == NULL || g_utf8_validate (summary, -1, NULL));
}

/* Metadata that makes no sense for its key reads as absent (unknown),
 * through hp_capture_load() and hp_capture_get_metadata() alike; text is
 * cut to HP_CAPTURE_MAX_METADATA_BYTES; an event sampled at an absurd
 * frequency is sampled at an unknown one. */
static void
test_absurd_metadata (Fixture       *fx,
                      gconstpointer  data)
{
  static const struct {
    const char *key;
    const char *value;
    gboolean    kept;
  } cases[] = {
    { "frequency", "-5", FALSE }, { "frequency", "999", TRUE }, { "frequency", "100000000000", FALSE },
    { "duration_ns", "-1000000000", FALSE }, { "duration_ns", "2500000000", TRUE },
    { "lost_samples", "99999999999999999999999", FALSE }, { "lost_samples", "12", TRUE },
    { "truncated_stacks", "-4", FALSE }, { "period", "0", FALSE }, { "period", "100003", TRUE },
    { "exit_status", "-300", FALSE }, { "exit_status", "3", TRUE }, { "cpu_count", "0x10", FALSE },
    { "stack_size", "8192 bytes", FALSE }, { "start_time", "not a time", FALSE },
    { "start_time", "2026-12-02T10:00:00+00:00", TRUE }, { "attached_pid", "", FALSE },
  };

  RUN_BOUNDED ();
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HpCapture) capture = NULL;
      g_autoptr(HpCaptureData) loaded = NULL;
      g_autofree char *value = NULL;
      g_autofree char *sql = g_strdup_printf ("INSERT OR REPLACE INTO metadata VALUES ('%s', '%s');",
                                              cases[i].key, cases[i].value);

      g_remove (fx->path);
      write_capture (fx->path, TRUE);
      hp_test_sql (fx->path, sql);
      capture = hp_capture_open (fx->path, FALSE, &error);
      g_assert_no_error (error);
      loaded = hp_capture_load (capture, &error);
      g_assert_no_error (error);
      value = hp_capture_get_metadata (capture, cases[i].key);
      g_test_message ("%s = %s", cases[i].key, cases[i].value);
      if (cases[i].kept)
        {
          g_assert_cmpstr (g_hash_table_lookup (loaded->metadata, cases[i].key), ==, cases[i].value);
          g_assert_cmpstr (value, ==, cases[i].value);
        }
      else
        {
          g_assert_null (g_hash_table_lookup (loaded->metadata, cases[i].key));
          g_assert_null (value);
        }
    }

  /* text cut on a character, and an event's absurd frequency unknown */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpCapture) capture = NULL;
    g_autoptr(HpCaptureData) loaded = NULL;
    g_autofree char *command = NULL;
    const char *shown;

    g_remove (fx->path);
    write_capture (fx->path, TRUE);
    hp_test_sql (fx->path,
                 "INSERT OR REPLACE INTO metadata VALUES ('command', 'a' || replace (printf ('%.100000c', 'x'), 'x', 'é'));"
                 "INSERT INTO events (id, name, unit, frequency, period) VALUES (1, 'cycles', 'cycles', 9000000000000000000, 0);");
    capture = hp_capture_open (fx->path, FALSE, &error);
    g_assert_no_error (error);
    loaded = hp_capture_load (capture, &error);
    g_assert_no_error (error);
    shown = g_hash_table_lookup (loaded->metadata, "command");
    g_assert_true (g_utf8_validate (shown, -1, NULL));
    g_assert_cmpuint (strlen (shown), <=, HP_CAPTURE_MAX_METADATA_BYTES + strlen ("…"));
    g_assert_cmpuint (strlen (shown), >, HP_CAPTURE_MAX_METADATA_BYTES - 4);
    g_assert_true (g_str_has_prefix (shown, "aéé"));
    g_assert_true (g_str_has_suffix (shown, "é…"));
    command = hp_capture_get_metadata (capture, "command");
    g_assert_cmpstr (command, ==, shown);
    g_assert_cmpuint (loaded->events->len, ==, 2);
    g_assert_cmpuint (g_array_index (loaded->events, HpCaptureEvent, 1).frequency, ==, 0);
  }
}

/* A summary of 300 000 characters is read cut, and says so. */
static void
test_huge_summary (Fixture       *fx,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *text = NULL;

  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path, "INSERT INTO summaries (path_key, path, text, created, updated) "
                         "VALUES ('k', 'p', printf ('%.300000c', 'x'), '', '');");
  capture = hp_capture_open (fx->path, FALSE, &error);
  g_assert_no_error (error);
  rows = hp_capture_list_summary_rows (capture, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 1);
  text = hp_capture_get_summary (capture, "k", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, ((HpCaptureSummary *) rows->pdata[0])->text);
  g_assert_cmpuint (strlen (text), <, 262144 + 100);
  g_assert_nonnull (strstr (text, "cut: Hotpath reads the first 262144 characters"));
}

/* 200 000 summaries (a hostile file holds millions: 10 M fit in 400 MB):
 * the lists read the first 10 000 by path key and say that they left
 * the rest out. Before, every row was read, into a list and a table. */
static void
test_many_summaries (Fixture       *fx,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GHashTable) table = NULL;

  RUN_BOUNDED ();
  write_capture (fx->path, TRUE);
  hp_test_sql (fx->path, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) "
                         "INSERT INTO summaries (path_key, path, text, created, updated) "
                         "SELECT printf ('k%06d', i), 'p', 'A summary.', '', '' FROM n;");
  capture = hp_capture_open (fx->path, FALSE, &error);
  g_assert_no_error (error);
  rows = hp_capture_list_summary_rows (capture, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 10000);
  g_assert_true (hp_capture_summaries_cut (capture));
  g_assert_cmpstr (((HpCaptureSummary *) rows->pdata[0])->path_key, ==, "k000001");
  g_assert_cmpstr (((HpCaptureSummary *) rows->pdata[9999])->path_key, ==, "k010000");
  table = hp_capture_list_summaries (capture, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (table), ==, 10000);
  g_assert_true (g_hash_table_contains (table, "k010000"));
  g_assert_true (hp_capture_summaries_cut (capture));

  /* exactly as many as are read: none left out */
  hp_test_sql (fx->path, "DELETE FROM summaries WHERE path_key > 'k010000'");
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = hp_capture_list_summary_rows (capture, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 10000);
  g_assert_false (hp_capture_summaries_cut (capture));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(name, func) \
  g_test_add ("/capture-hostile/" name, Fixture, NULL, hp_test_scratch_set_up, func, hp_test_scratch_tear_down)
  ADD ("cancel-before-load", test_cancel_before_load);
  ADD ("cancel-during-query", test_cancel_during_query);
  ADD ("work-limit", test_work_limit);
  ADD ("trigger", test_trigger);
  ADD ("recursive-view", test_recursive_view);
  ADD ("expression-index", test_expression_index);
  ADD ("added-after-open", test_added_after_open);
  ADD ("generated-column", test_generated_column);
  ADD ("check-and-default", test_check_and_default);
  ADD ("long-default", test_long_default);
  ADD ("unique-and-on-conflict", test_unique_and_on_conflict);
  ADD ("version-label-older-than-tables", test_version_label_older_than_tables);
  ADD ("complete-without-counts", test_complete_without_counts);
  ADD ("missing-table", test_missing_table);
  ADD ("fifo", test_fifo);
  ADD ("directory", test_directory);
  ADD ("device", test_device);
  ADD ("symlink-loop", test_symlink_loop);
  ADD ("truncated", test_truncated);
  ADD ("hot-journal", test_hot_journal);
  ADD ("garbage-journal", test_garbage_journal);
  ADD ("negative-count", test_negative_count);
  ADD ("huge-counts", test_huge_counts);
  ADD ("text-in-counts", test_text_in_counts);
  ADD ("bad-samples", test_bad_samples);
  ADD ("huge-sample-weights", test_huge_sample_weights);
  ADD ("bad-ids", test_bad_ids);
  ADD ("sparse-ids", test_sparse_ids);
  ADD ("missing-reference", test_missing_reference);
  ADD ("invalid-utf8", test_invalid_utf8);
  ADD ("absurd-metadata", test_absurd_metadata);
  ADD ("huge-summary", test_huge_summary);
  ADD ("many-summaries", test_many_summaries);
#undef ADD

  return g_test_run ();
}
