/* test-capture.c - capture writer and reader: format round trip, errors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Writes captures whose content is known row by row, reads them back and
 * compares; checks that a capture cut short (the writer's process killed)
 * still loads with the samples of its committed batches; and that every
 * file a reader must refuse is refused with the right error.
 *
 * Run with -m perf for the 1M-sample write/load/analysis timings.
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <errno.h>
#include <string.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "analysis/hp-profile.h"
#include "store/hp-capture.h"
#include "faulty-vfs.h"
#include "test-common.h"

typedef HpTestScratch Fixture;

static guint64
total_samples (const HpCaptureData *data)
{
  guint64 n = 0;

  for (guint i = 0; i < data->stack_counts->len; i++)
    n += g_array_index (data->stack_counts, HpCaptureStackCount, i).samples;
  return n;
}

static const HpCaptureStackCount *
find_count (const HpCaptureData *data,
            gint64               stack_id,
            gint32               tid)
{
  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);

      if (c->stack_id == stack_id && c->tid == tid)
        return c;
    }
  return NULL;
}

static void
test_intern (Fixture       *fx,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (fx->path, &error);
  gint64 m1, m2, m3, f1, f2, fr1, fr2, fr3, s1, s2, s3, s4;

  g_assert_no_error (error);

  m1 = hp_capture_writer_intern_module (w, "/usr/bin/app", "abcd", FALSE);
  m2 = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  m3 = hp_capture_writer_intern_module (w, "/usr/bin/app", "", FALSE);
  g_assert_cmpint (m1, ==, 1);
  g_assert_cmpint (m2, ==, 2);   /* NULL build id is not "abcd" */
  g_assert_cmpint (m3, ==, 3);   /* nor is "" NULL */
  g_assert_cmpint (hp_capture_writer_intern_module (w, "/usr/bin/app", "abcd", FALSE), ==, m1);
  g_assert_cmpint (hp_capture_writer_intern_module (w, "/usr/bin/app", "abcd", TRUE), ==, 4);

  f1 = hp_capture_writer_intern_function (w, "main", m1, "app.c", 10);
  f2 = hp_capture_writer_intern_function (w, "main", m2, "app.c", 10);
  g_assert_cmpint (f1, ==, 1);
  g_assert_cmpint (f2, ==, 2);
  g_assert_cmpint (hp_capture_writer_intern_function (w, "main", m1, "app.c", 10), ==, f1);
  /* fields must not run into each other: "a" + "bc" vs "ab" + "c" */
  g_assert_cmpint (hp_capture_writer_intern_function (w, "a", m1, "bc", 0), !=,
                   hp_capture_writer_intern_function (w, "ab", m1, "c", 0));

  fr1 = hp_capture_writer_intern_frame (w, f1, "app.c", 12, FALSE, 0x100);
  fr2 = hp_capture_writer_intern_frame (w, f1, "app.c", 12, TRUE, 0x100);
  /* the offset is not part of a frame's identity */
  g_assert_cmpint (hp_capture_writer_intern_frame (w, f1, "app.c", 12, FALSE, 0x104), ==, fr1);
  g_assert_cmpint (fr2, !=, fr1);
  fr3 = hp_capture_writer_intern_frame (w, f2, "app.c", 13, FALSE, 0x200);

  /* prefix tree: same (parent, frame) -> same node */
  s1 = hp_capture_writer_intern_stack (w, 0, fr1);
  s2 = hp_capture_writer_intern_stack (w, s1, fr2);
  s3 = hp_capture_writer_intern_stack (w, s1, fr3);
  s4 = hp_capture_writer_intern_stack (w, 0, fr3);
  g_assert_cmpint (s1, ==, 1);
  g_assert_cmpint (s2, ==, 2);
  g_assert_cmpint (s3, ==, 3);
  g_assert_cmpint (s4, ==, 4);
  g_assert_cmpint (hp_capture_writer_intern_stack (w, 0, fr1), ==, s1);
  g_assert_cmpint (hp_capture_writer_intern_stack (w, s1, fr2), ==, s2);
  g_assert_cmpint (hp_capture_writer_intern_stack (w, s2, fr1), ==, 5);
  g_assert_cmpint (hp_capture_writer_intern_stack (w, s1, fr3), ==, s3);

  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);

  /* and the rows say the same */
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM stacks"), ==, 5);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT parent_id FROM stacks WHERE id = 5"), ==, s2);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT parent_id FROM stacks WHERE id = 4"), ==, 0);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM modules WHERE build_id IS NULL"), ==, 1);
}

/* Writes the capture test_round_trip reads */
static void
fill_known_capture (HpCaptureWriter *w)
{
  gint64 app, kernel, f_main, f_work, f_inl, f_sys, fr_main, fr_work, fr_inl, fr_sys;
  gint64 s_main, s_work, s_inl, s_sys;

  hp_capture_writer_set_metadata (w, "command", "./app --fast");
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata_int (w, "frequency", 999);
  hp_capture_writer_set_process (w, 42, "ap");
  hp_capture_writer_set_process (w, 42, "app");       /* COMM renames it */
  hp_capture_writer_set_thread (w, 42, 42, "app");
  hp_capture_writer_set_thread (w, 43, 42, "worker");

  app = hp_capture_writer_intern_module (w, "/usr/bin/app", "0123abcd", FALSE);
  kernel = hp_capture_writer_intern_module (w, "[kernel.kallsyms]", NULL, TRUE);
  f_main = hp_capture_writer_intern_function (w, "main", app, "app.c", 5);
  f_work = hp_capture_writer_intern_function (w, "work", app, "app.c", 20);
  f_inl = hp_capture_writer_intern_function (w, "std::max<int>", app, "max.h", 3);
  f_sys = hp_capture_writer_intern_function (w, "do_syscall_64", kernel, NULL, 0);
  fr_main = hp_capture_writer_intern_frame (w, f_main, "app.c", 9, FALSE, 0x1040);
  fr_work = hp_capture_writer_intern_frame (w, f_work, "app.c", 25, FALSE, 0x1100);
  fr_inl = hp_capture_writer_intern_frame (w, f_inl, "max.h", 4, TRUE, 0x1108);
  fr_sys = hp_capture_writer_intern_frame (w, f_sys, NULL, 0, FALSE, G_GUINT64_CONSTANT (0xffffffff81000000));

  s_main = hp_capture_writer_intern_stack (w, 0, fr_main);
  s_work = hp_capture_writer_intern_stack (w, s_main, fr_work);
  s_inl = hp_capture_writer_intern_stack (w, s_work, fr_inl);
  s_sys = hp_capture_writer_intern_stack (w, s_work, fr_sys);
  g_assert_cmpint (s_inl, ==, 3);
  g_assert_cmpint (s_sys, ==, 4);

  /* 10 samples of tid 42 at s_inl (weight 1000), 3 of tid 43 at s_sys
   * (weight 2000), 1 of tid 42 at s_main, 2 without any frame */
  for (guint i = 0; i < 10; i++)
    hp_capture_writer_add_sample (w, 1000 + i, 42, 0, s_inl, 1000);
  for (guint i = 0; i < 3; i++)
    hp_capture_writer_add_sample (w, 2000 + i, 43, 1, s_sys, 2000);
  hp_capture_writer_add_sample (w, 3000, 42, 0, s_main, 1000);
  hp_capture_writer_add_sample (w, 3001, 42, 0, 0, 1000);
  hp_capture_writer_add_sample (w, 3002, 42, 0, 0, 1000);
  g_assert_cmpuint (hp_capture_writer_get_n_samples (w), ==, 16);
}

static void
write_known_capture (const char *path,
                     gboolean    finish)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);

  g_assert_no_error (error);
  fill_known_capture (w);
  if (finish)
    {
      g_assert_true (hp_capture_writer_finish (w, &error));
      g_assert_no_error (error);
    }
}

static void
check_known_capture (const char *path,
                     gboolean    finished)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = hp_capture_open (path, FALSE, &error);
  g_autoptr(HpCaptureData) data = NULL;
  g_autofree char *command = NULL;
  g_autofree char *missing = NULL;
  const HpCaptureModule *m;
  const HpCaptureFunction *f;
  const HpCaptureFrame *fr;
  const HpCaptureStack *s;
  const HpCaptureStackCount *c;
  const HpCaptureThread *t;
  const HpCaptureProcess *p;

  g_assert_no_error (error);
  g_assert_nonnull (capture);
  g_assert_cmpstr (hp_capture_get_path (capture), ==, path);

  command = hp_capture_get_metadata (capture, "command");
  g_assert_cmpstr (command, ==, "./app --fast");
  missing = hp_capture_get_metadata (capture, "no such key");
  g_assert_null (missing);

  data = hp_capture_load (capture, &error);
  g_assert_no_error (error);
  g_assert_nonnull (data);

  g_assert_cmpstr (g_hash_table_lookup (data->metadata, "event"), ==, "cpu-clock");
  g_assert_cmpstr (g_hash_table_lookup (data->metadata, "frequency"), ==, "999");
  g_assert_cmpstr (g_hash_table_lookup (data->metadata, "hotpath_version"), ==, PACKAGE_VERSION);
  g_assert_cmpstr (g_hash_table_lookup (data->metadata, "complete"), ==, finished ? "1" : NULL);

  g_assert_cmpuint (data->modules->len, ==, 3);
  m = &g_array_index (data->modules, HpCaptureModule, 0);
  g_assert_null (m->path);
  g_assert_null (m->name);
  m = &g_array_index (data->modules, HpCaptureModule, 1);
  g_assert_cmpstr (m->path, ==, "/usr/bin/app");
  g_assert_cmpstr (m->name, ==, "app");
  g_assert_cmpstr (m->build_id, ==, "0123abcd");
  g_assert_false (m->is_kernel);
  m = &g_array_index (data->modules, HpCaptureModule, 2);
  g_assert_cmpstr (m->name, ==, "[kernel.kallsyms]");
  g_assert_null (m->build_id);
  g_assert_true (m->is_kernel);

  g_assert_cmpuint (data->functions->len, ==, 5);
  f = &g_array_index (data->functions, HpCaptureFunction, 3);
  g_assert_cmpstr (f->name, ==, "std::max<int>");
  g_assert_cmpint (f->module_id, ==, 1);
  g_assert_cmpstr (f->file, ==, "max.h");
  g_assert_cmpuint (f->line, ==, 3);
  f = &g_array_index (data->functions, HpCaptureFunction, 4);
  g_assert_cmpstr (f->name, ==, "do_syscall_64");
  g_assert_cmpint (f->module_id, ==, 2);
  g_assert_null (f->file);

  g_assert_cmpuint (data->frames->len, ==, 5);
  fr = &g_array_index (data->frames, HpCaptureFrame, 3);
  g_assert_cmpint (fr->function_id, ==, 3);
  g_assert_cmpstr (fr->file, ==, "max.h");
  g_assert_cmpuint (fr->line, ==, 4);
  g_assert_true (fr->is_inline);
  g_assert_cmphex (fr->offset, ==, 0x1108);
  fr = &g_array_index (data->frames, HpCaptureFrame, 4);
  g_assert_false (fr->is_inline);
  g_assert_cmphex (fr->offset, ==, G_GUINT64_CONSTANT (0xffffffff81000000));

  g_assert_cmpuint (data->stacks->len, ==, 5);
  s = &g_array_index (data->stacks, HpCaptureStack, 1);
  g_assert_cmpint (s->parent_id, ==, 0);
  g_assert_cmpint (s->frame_id, ==, 1);
  s = &g_array_index (data->stacks, HpCaptureStack, 4);
  g_assert_cmpint (s->parent_id, ==, 2);
  g_assert_cmpint (s->frame_id, ==, 4);

  g_assert_cmpuint (data->stack_counts->len, ==, 4);
  g_assert_cmpuint (total_samples (data), ==, 16);
  c = find_count (data, 3, 42);
  g_assert_nonnull (c);
  g_assert_cmpuint (c->samples, ==, 10);
  g_assert_cmpuint (c->weight, ==, 10000);
  c = find_count (data, 4, 43);
  g_assert_nonnull (c);
  g_assert_cmpuint (c->samples, ==, 3);
  g_assert_cmpuint (c->weight, ==, 6000);
  c = find_count (data, 1, 42);
  g_assert_nonnull (c);
  g_assert_cmpuint (c->samples, ==, 1);
  c = find_count (data, 0, 42);
  g_assert_nonnull (c);
  g_assert_cmpuint (c->samples, ==, 2);

  g_assert_cmpuint (data->processes->len, ==, 1);
  p = &g_array_index (data->processes, HpCaptureProcess, 0);
  g_assert_cmpint (p->pid, ==, 42);
  g_assert_cmpstr (p->command, ==, "app");
  g_assert_cmpuint (data->threads->len, ==, 2);
  t = &g_array_index (data->threads, HpCaptureThread, 1);
  g_assert_cmpint (t->tid, ==, 43);
  g_assert_cmpint (t->pid, ==, 42);
  g_assert_cmpstr (t->name, ==, "worker");
}

static void
test_round_trip (Fixture       *fx,
                 gconstpointer  data)
{
  g_autofree char *wal = g_strconcat (fx->path, "-wal", NULL);

  write_known_capture (fx->path, TRUE);

  /* a finished capture is one file, in rollback-journal mode */
  g_assert_false (g_file_test (wal, G_FILE_TEST_EXISTS));
  g_assert_cmpint (hp_test_sql_int (fx->path, "PRAGMA application_id"), ==, HP_CAPTURE_APPLICATION_ID);
  g_assert_cmpint (hp_test_sql_int (fx->path, "PRAGMA user_version"), ==, HP_CAPTURE_FORMAT_VERSION);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM samples"), ==, 16);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT sum(samples) FROM stack_counts"), ==, 16);

  check_known_capture (fx->path, TRUE);

  /* The reader must use stack_counts when complete: make it disagree with
   * samples and check which one is loaded. */
  hp_test_sql (fx->path, "UPDATE stack_counts SET samples = 7 WHERE stack_id = 1");
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpCapture) capture = hp_capture_open (fx->path, FALSE, &error);
    g_autoptr(HpCaptureData) data = hp_capture_load (capture, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (find_count (data, 1, 42)->samples, ==, 7);
  }
}

/* The schema's statements (tables, indexes) of the capture at @path, in
 * order of name. */
static char *
schema_of (const char *path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  GString *schema = g_string_new (NULL);

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT type, name, sql FROM sqlite_schema ORDER BY name",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    g_string_append_printf (schema, "%s %s: %s\n", sqlite3_column_text (stmt, 0),
                            sqlite3_column_text (stmt, 1), sqlite3_column_text (stmt, 2));
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return g_string_free (schema, FALSE);
}

/* An import's part is written in one transaction, its journal in memory, and
 * gets its indexes at the end: moved into place, it is the same capture
 * as one written row by row, indexes and all, and one file. */
static void
test_part (Fixture       *fx,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *plain = g_build_filename (fx->dir, "plain.hotpath", NULL);
  g_autofree char *plain_schema = NULL;
  g_autofree char *part_schema = NULL;
  HpCaptureWriter *w;

  write_known_capture (plain, TRUE);

  w = hp_capture_writer_new_part (fx->path, &error);
  g_assert_no_error (error);
  fill_known_capture (w);
  /* no WAL, no journal beside the part while it is written */
  {
    g_autofree char *part = hp_capture_writer_part_path (fx->path);
    g_autoptr(GDir) dir = g_dir_open (fx->dir, 0, NULL);
    g_autofree char *part_name = g_path_get_basename (part);
    const char *name;

    while ((name = g_dir_read_name (dir)) != NULL)
      if (strcmp (name, "plain.hotpath") != 0 && strcmp (name, part_name) != 0)
        g_error ("beside the part: %s", name);
  }
  g_assert_true (hp_capture_writer_end_part (w, fx->path, TRUE, &error));
  g_assert_no_error (error);

  {
    g_autoptr(GDir) dir = g_dir_open (fx->dir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (dir)) != NULL)
      if (strcmp (name, "plain.hotpath") != 0 && strcmp (name, "test.hotpath") != 0)
        g_error ("left behind: %s", name);
  }
  check_known_capture (fx->path, TRUE);
  plain_schema = schema_of (plain);
  part_schema = schema_of (fx->path);
  g_assert_nonnull (strstr (plain_schema, "index stacks_by_parent"));
  g_assert_cmpstr (part_schema, ==, plain_schema);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM samples"), ==, 16);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM stacks WHERE parent_id = 2"), ==, 2);
}

/* A writer freed without finish keeps its rows, without the aggregate. */
static void
test_not_finished (Fixture       *fx,
                   gconstpointer  data)
{
  write_known_capture (fx->path, FALSE);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM stack_counts"), ==, 0);
  check_known_capture (fx->path, FALSE);
}

/* The writer's process dies without closing anything: only committed
 * batches survive, and the capture opens. */
static void
test_killed (Fixture       *fx,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) loaded = NULL;
  const guint batches = 3;
  int status;
  pid_t pid;

  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      HpCaptureWriter *w = hp_capture_writer_new (fx->path, NULL);
      gint64 module, function, frame, stack;

      if (w == NULL)
        _exit (1);
      module = hp_capture_writer_intern_module (w, "/bin/x", NULL, FALSE);
      function = hp_capture_writer_intern_function (w, "f", module, NULL, 0);
      frame = hp_capture_writer_intern_frame (w, function, NULL, 0, FALSE, 0);
      stack = hp_capture_writer_intern_stack (w, 0, frame);
      /* the writer commits every 8192 samples on its own ... */
      for (guint i = 0; i < batches * 8192; i++)
        hp_capture_writer_add_sample (w, i, 7 + i % 2, 0, stack, 1);
      /* ... and these are still in the open transaction when we die */
      for (guint i = 0; i < 100; i++)
        hp_capture_writer_add_sample (w, i, 7, 0, stack, 1);
      _exit (0);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);

  capture = hp_capture_open (fx->path, FALSE, &error);
  g_assert_no_error (error);
  loaded = hp_capture_load (capture, &error);
  g_assert_no_error (error);
  g_assert_null (g_hash_table_lookup (loaded->metadata, "complete"));
  g_assert_cmpuint (total_samples (loaded), ==, batches * 8192);
  g_assert_cmpuint (find_count (loaded, 1, 7)->samples, ==, batches * 4096);
  g_assert_cmpuint (find_count (loaded, 1, 8)->samples, ==, batches * 4096);
  g_assert_cmpuint (loaded->stacks->len, ==, 2);
}

/* A writer with one stack, for the lock tests: its id in *@stack. */
static HpCaptureWriter *
writer_with_stack (const char *path,
                   gint64     *stack)
{
  g_autoptr(GError) error = NULL;
  HpCaptureWriter *w = hp_capture_writer_new (path, &error);
  gint64 module, function, frame;

  g_assert_no_error (error);
  module = hp_capture_writer_intern_module (w, "/bin/x", NULL, FALSE);
  function = hp_capture_writer_intern_function (w, "f", module, NULL, 0);
  frame = hp_capture_writer_intern_frame (w, function, NULL, 0, FALSE, 0);
  *stack = hp_capture_writer_intern_stack (w, 0, frame);
  return w;
}

/* Another program (this test run again with --lock-taker: a new process,
 * not a fork, whose SQLite knows nothing of the writer's connection and
 * so holds its own locks) that saves into a capture being recorded, as
 * the window saves a summary: once it reads a byte on stdin, BEGIN
 * EXCLUSIVE with a busy timeout of 3 s, three times. It exits 0 when it
 * got the lock every time, 1 when it gave up. */
static int
lock_taker_main (const char *path)
{
  sqlite3 *db = NULL;
  char c;

  if (read (STDIN_FILENO, &c, 1) != 1 || sqlite3_open (path, &db) != SQLITE_OK)
    return 2;
  sqlite3_busy_timeout (db, 3000);
  for (guint i = 0; i < 3; i++)
    {
      gint64 start = g_get_monotonic_time ();

      if (sqlite3_exec (db, "BEGIN EXCLUSIVE", NULL, NULL, NULL) != SQLITE_OK)
        return 1;
      g_printerr ("# the other program got the lock after %.0f ms\n",
                  (g_get_monotonic_time () - start) / 1e3);
      g_usleep (20 * 1000);
      sqlite3_exec (db, "COMMIT", NULL, NULL, NULL);
      g_usleep (100 * 1000);
    }
  sqlite3_close (db);
  return 0;
}

/* Another program that only has the capture open (--open-holder): it
 * reads it once, says so with a byte on stdout, and keeps it open until
 * its stdin ends. */
static int
open_holder_main (const char *path)
{
  sqlite3 *db = NULL;
  char c;

  if (sqlite3_open (path, &db) != SQLITE_OK
      || sqlite3_exec (db, "SELECT count(*) FROM metadata", NULL, NULL, NULL) != SQLITE_OK
      || write (STDOUT_FILENO, "o", 1) != 1)
    return 2;
  while (read (STDIN_FILENO, &c, 1) > 0)
    ;
  sqlite3_close (db);
  return 0;
}

/* Runs this test program as @role on @path, its stdin a pipe whose write
 * end is *@to, its stdout one whose read end is *@from (when not NULL). */
static pid_t
start_self (const char *role,
            const char *path,
            int        *to,
            int        *from)
{
  int in[2], out[2] = { -1, -1 };
  pid_t pid;

  g_assert_cmpint (pipe (in), ==, 0);
  if (from != NULL)
    g_assert_cmpint (pipe (out), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      /* the write end stays only with the test, or stdin never ends */
      close (in[1]);
      dup2 (in[0], STDIN_FILENO);
      if (from != NULL)
        {
          close (out[0]);
          dup2 (out[1], STDOUT_FILENO);
        }
      execl ("/proc/self/exe", "test-capture", role, path, (char *) NULL);
      _exit (127);
    }
  close (in[0]);
  *to = in[1];
  if (from != NULL)
    {
      close (out[1]);
      *from = out[0];
    }
  return pid;
}

static pid_t
start_lock_taker (const char *path,
                  int        *ready)
{
  return start_self ("--lock-taker", path, ready, NULL);
}

/* Another program has @path open once this returns; closing *@hold
 * lets it go. */
static pid_t
start_open_holder (const char *path,
                   int        *hold)
{
  int opened;
  char c;
  pid_t pid = start_self ("--open-holder", path, hold, &opened);

  g_assert_cmpint (read (opened, &c, 1), ==, 1);
  close (opened);
  return pid;
}

/* Whether the write lock of @path is free: BEGIN IMMEDIATE on a
 * connection of this process, without waiting. */
static gboolean
write_lock_free (const char *path)
{
  sqlite3 *db = NULL;
  int rc;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  rc = sqlite3_exec (db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
  if (rc == SQLITE_OK)
    sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  sqlite3_close (db);
  return rc == SQLITE_OK;
}

/* A recorder with a backlog writes without a pause and commits every
 * 250 ms: another program that waits for the write lock with a busy
 * timeout of a few seconds gets it all the same. Before, the writer began
 * its next transaction as soon as it committed, and SQLite's busy handler,
 * which tries the lock every 100 ms at most, never found it free: the
 * other program gave up ("database is locked"). */
static void
test_lock_left_free (Fixture       *fx,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  gint64 stack;
  g_autoptr(HpCaptureWriter) w = writer_with_stack (fx->path, &stack);
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  gint64 committed;
  guint64 n = 0;
  int ready, status = 0;
  pid_t taker;

  hp_capture_writer_add_sample (w, 0, 7, 0, stack, 1);
  g_assert_true (hp_capture_writer_flush (w, &error));
  taker = start_lock_taker (fx->path, &ready);
  g_assert_cmpint (write (ready, "g", 1), ==, 1);
  close (ready);
  committed = g_get_monotonic_time ();
  while (waitpid (taker, &status, WNOHANG) == 0)
    {
      gint64 now = g_get_monotonic_time ();

      g_assert_cmpint (now, <, deadline);
      /* a sample every 20 us, never idle */
      while (g_get_monotonic_time () < now + 20)
        ;
      hp_capture_writer_add_sample (w, ++n, 7, 0, stack, 1);
      if (now - committed >= 250 * 1000)
        {
          g_assert_true (hp_capture_writer_flush (w, &error));
          committed = now;
        }
    }
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  /* nothing the writer kept meanwhile is lost */
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM samples"), ==, (gint64) n + 1);
}

/* Stack nodes that come while the writer leaves the lock free (the
 * 150 ms after each commit) are held with the samples, not written, and
 * written once it takes the lock again; when another program took it
 * meanwhile they wait as SQL with the rest. Either way no sample is left
 * on a stack the capture does not have. */
static void
test_stacks_held (Fixture       *fx,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  gint64 stack, module, function, frame, parent;
  g_autoptr(HpCaptureWriter) w = writer_with_stack (fx->path, &stack);
  const char *orphans = "SELECT count(*) FROM samples WHERE stack_id NOT IN (SELECT id FROM stacks)";
  sqlite3 *holder = NULL;
  guint64 n = 0;
  int hold, status = 0;
  pid_t holder_pid;

  module = hp_capture_writer_intern_module (w, "/bin/y", NULL, FALSE);
  function = hp_capture_writer_intern_function (w, "g", module, NULL, 0);
  frame = hp_capture_writer_intern_frame (w, function, NULL, 0, FALSE, 0);
  hp_capture_writer_add_sample (w, n++, 7, 0, stack, 1);
  /* another program has the capture open: the lock is left free */
  holder_pid = start_open_holder (fx->path, &hold);
  g_assert_true (hp_capture_writer_flush (w, &error));

  /* right after a commit: held, nothing written, the lock free */
  parent = stack;
  for (guint i = 0; i < 20; i++)
    {
      parent = hp_capture_writer_intern_stack (w, parent, frame);
      hp_capture_writer_add_sample (w, n++, 7, 0, parent, 1);
    }
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM stacks"), ==, 1);
  g_assert_true (write_lock_free (fx->path));
  close (hold);
  g_assert_cmpint (waitpid (holder_pid, &status, 0), ==, holder_pid);
  g_assert_cmpint (status, ==, 0);
  g_usleep (200 * 1000);
  g_assert_true (hp_capture_writer_flush (w, &error));
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM stacks"), ==, 21);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM samples"), ==, 21);
  g_assert_cmpint (hp_test_sql_int (fx->path, orphans), ==, 0);

  /* another program takes the lock while they are held */
  g_assert_cmpint (sqlite3_open (fx->path, &holder), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (holder, "BEGIN EXCLUSIVE", NULL, NULL, NULL), ==, SQLITE_OK);
  for (guint i = 0; i < 5; i++)
    {
      parent = hp_capture_writer_intern_stack (w, parent, frame);
      hp_capture_writer_add_sample (w, n++, 7, 0, parent, 1);
    }
  g_usleep (200 * 1000);
  g_assert_true (hp_capture_writer_flush (w, &error));
  g_assert_cmpfloat (hp_capture_writer_get_lock_wait (w, NULL), >, 0);
  g_assert_cmpint (sqlite3_exec (holder, "COMMIT", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (holder);
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM stacks"), ==, 26);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM samples"), ==, 26);
  g_assert_cmpint (hp_test_sql_int (fx->path, orphans), ==, 0);
}

/* Nobody else has the capture open: after a commit the writer does not
 * leave the lock free (nobody could take it; rows held cost more than
 * rows written), and the next row takes it at once. With another
 * program that has it open, the lock is left free for it. */
static void
test_lock_kept_when_alone (Fixture       *fx,
                           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  gint64 stack, frame, module, function;
  g_autoptr(HpCaptureWriter) w = writer_with_stack (fx->path, &stack);
  int hold, status = 0;
  pid_t holder_pid;

  module = hp_capture_writer_intern_module (w, "/bin/y", NULL, FALSE);
  function = hp_capture_writer_intern_function (w, "g", module, NULL, 0);
  frame = hp_capture_writer_intern_frame (w, function, NULL, 0, FALSE, 0);
  g_assert_true (hp_capture_writer_flush (w, &error));
  hp_capture_writer_intern_stack (w, stack, frame);
  g_assert_false (write_lock_free (fx->path));

  holder_pid = start_open_holder (fx->path, &hold);
  g_assert_true (hp_capture_writer_flush (w, &error));
  hp_capture_writer_intern_stack (w, hp_capture_writer_intern_stack (w, stack, frame), frame);
  g_assert_true (write_lock_free (fx->path));
  close (hold);
  g_assert_cmpint (waitpid (holder_pid, &status, 0), ==, holder_pid);
  g_assert_cmpint (status, ==, 0);

  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM stacks"), ==, 3);
}

typedef struct {
  HpCaptureWriter *writer;
  guint            calls;     /* of the wait function */
  gdouble          max_wait;  /* the longest wait it saw */
  guint64          waiting;   /* the samples that waited then */
  gboolean         ok;
  GError          *error;
} FinishRun;

static void
finish_waits (gpointer data)
{
  FinishRun *run = data;
  guint64 waiting = 0;
  gdouble wait = hp_capture_writer_get_lock_wait (run->writer, &waiting);

  run->calls++;
  if (wait > run->max_wait)
    {
      run->max_wait = wait;
      run->waiting = waiting;
    }
}

static gpointer
finish_thread (gpointer data)
{
  FinishRun *run = data;

  run->ok = hp_capture_writer_finish (run->writer, &run->error);
  return NULL;
}

/* Another program takes the write lock after the last samples were
 * committed, as the recorded program ends, and keeps it a while: finish
 * waits for it, says so all along (the wait function, and the lock wait
 * it reads), and then completes the capture. Before, finish took the lock
 * once (200 ms), then wrote the totals outside a transaction, which
 * failed: "database is locked", the capture cut short. */
static void
test_finish_waits_for_lock (Fixture       *fx,
                            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  gint64 stack;
  FinishRun run = { 0 };
  sqlite3 *holder = NULL;
  GThread *thread;
  g_autoptr(HpCapture) reader = NULL;

  run.writer = writer_with_stack (fx->path, &stack);
  for (guint i = 0; i < 1000; i++)
    hp_capture_writer_add_sample (run.writer, i, 7, 0, stack, 1);
  /* the window has the capture open (in this process), so the writer
   * leaves the lock free after its commits */
  reader = hp_capture_open (fx->path, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (hp_capture_writer_flush (run.writer, &error));
  hp_capture_writer_set_metadata (run.writer, "duration_ns", "1000");
  hp_capture_writer_set_wait_func (run.writer, finish_waits, &run);

  g_assert_cmpint (sqlite3_open (fx->path, &holder), ==, SQLITE_OK);
  sqlite3_busy_timeout (holder, 5000);
  g_assert_cmpint (sqlite3_exec (holder, "BEGIN EXCLUSIVE", NULL, NULL, NULL), ==, SQLITE_OK);
  thread = g_thread_new ("finish", finish_thread, &run);
  g_usleep (1500 * 1000);
  g_assert_cmpint (sqlite3_exec (holder, "COMMIT", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (holder);
  g_thread_join (thread);

  g_assert_no_error (run.error);
  g_assert_true (run.ok);
  g_test_message ("finish waited %.1f s, told %u times", run.max_wait, run.calls);
  g_assert_cmpuint (run.calls, >=, 2);
  g_assert_cmpfloat (run.max_wait, >=, 0.5);
  hp_capture_writer_free (run.writer);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT value = '1' FROM metadata WHERE key = 'complete'"), ==, 1);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT sum (samples) FROM stack_counts"), ==, 1000);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM samples"), ==, 1000);
}

static void
assert_open_fails (const char *path,
                   int         code,
                   const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = hp_capture_open (path, FALSE, &error);

  g_assert_null (capture);
  g_assert_error (error, HP_STORE_ERROR, code);
  g_test_message ("%s", error->message);
  if (message != NULL)
    g_assert_cmpstr (error->message, ==, message);
}

static void
test_errors (Fixture       *fx,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = g_build_filename (fx->dir, "text.hotpath", NULL);
  g_autofree char *other = g_build_filename (fx->dir, "other.hotpath", NULL);
  g_autofree char *missing = g_build_filename (fx->dir, "missing.hotpath", NULL);
  g_autofree char *expected = NULL;
  HpCaptureWriter *w;

  /* not SQLite */
  g_assert_true (g_file_set_contents (text, "main;work 12\nmain 3\n", -1, NULL));
  expected = g_strdup_printf ("%s: not a Hotpath capture (not a SQLite database)", text);
  assert_open_fails (text, HP_STORE_ERROR_NOT_CAPTURE, expected);
  g_clear_pointer (&expected, g_free);

  /* SQLite, but someone else's */
  hp_test_sql (other, "PRAGMA application_id = 1234; CREATE TABLE t (x);");
  expected = g_strdup_printf ("%s: not a Hotpath capture", other);
  assert_open_fails (other, HP_STORE_ERROR_NOT_CAPTURE, expected);
  g_clear_pointer (&expected, g_free);

  /* missing */
  assert_open_fails (missing, HP_STORE_ERROR_IO, NULL);

  /* a newer format */
  write_known_capture (fx->path, TRUE);
  {
    g_autofree char *newer = g_strdup_printf ("PRAGMA user_version = %d", HP_CAPTURE_FORMAT_VERSION + 1);

    hp_test_sql (fx->path, newer);
  }
  expected = g_strdup_printf ("%s: capture format version %d is newer than this Hotpath "
                              "supports (%d); update Hotpath", fx->path,
                              HP_CAPTURE_FORMAT_VERSION + 1, HP_CAPTURE_FORMAT_VERSION);
  assert_open_fails (fx->path, HP_STORE_ERROR_VERSION, expected);
  g_clear_pointer (&expected, g_free);

  /* the writer never overwrites */
  w = hp_capture_writer_new (fx->path, &error);
  g_assert_null (w);
  g_assert_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO);
  g_assert_nonnull (strstr (error->message, fx->path));
  g_assert_nonnull (strstr (error->message, "exists"));
  g_clear_error (&error);
  /* and left the file alone */
  g_assert_cmpint (hp_test_sql_int (fx->path, "PRAGMA user_version"), ==, HP_CAPTURE_FORMAT_VERSION + 1);

  /* nor writes where it cannot */
  {
    g_autofree char *nodir = g_build_filename (fx->dir, "no", "such", "dir.hotpath", NULL);

    w = hp_capture_writer_new (nodir, &error);
    g_assert_null (w);
    g_assert_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO);
    g_assert_nonnull (strstr (error->message, nodir));
    g_test_message ("%s", error->message);
    g_clear_error (&error);
  }

  /* and says why: a folder the user may not write to (sysfs refuses even
   * root) is "Permission denied", not SQLite's read-only retry's ENOENT */
  if (g_file_test ("/sys/kernel", G_FILE_TEST_IS_DIR))
    {
      w = hp_capture_writer_new ("/sys/kernel/hotpath-test.hotpath", &error);
      g_assert_null (w);
      g_assert_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO);
      g_test_message ("%s", error->message);
      g_assert_null (strstr (error->message, g_strerror (ENOENT)));
      g_clear_error (&error);
    }
}

/* Two events in one capture: each sample keeps its event, the load counts
 * the first, a selection counts any set of them. */
static void
write_two_event_capture (const char *path,
                         gboolean    finish)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 module, f_a, f_b, s_a, s_b, clock, faults;

  g_assert_no_error (error);
  clock = hp_capture_writer_add_event (w, "cpu-clock", "ns", 999, 0);
  faults = hp_capture_writer_add_event (w, "page-faults", "page faults", 0, 1);
  g_assert_cmpint (clock, ==, 1);
  g_assert_cmpint (faults, ==, 2);
  module = hp_capture_writer_intern_module (w, "/bin/app", NULL, FALSE);
  f_a = hp_capture_writer_intern_function (w, "a", module, NULL, 0);
  f_b = hp_capture_writer_intern_function (w, "b", module, NULL, 0);
  s_a = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w, f_a, NULL, 0, FALSE, 0));
  s_b = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w, f_b, NULL, 0, FALSE, 0));
  /* cpu-clock: 6 in a, 2 in b; page faults: 1 in a, 5 in b, same thread */
  for (guint i = 0; i < 8; i++)
    hp_capture_writer_add_event_sample (w, clock, 100 + i, 7, 0, i < 6 ? s_a : s_b, 1000000);
  for (guint i = 0; i < 6; i++)
    hp_capture_writer_add_event_sample (w, faults, 200 + i, 7, 0, i < 1 ? s_a : s_b, 1);
  if (finish)
    g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
}

static guint64
total_weight (const HpCaptureData *data)
{
  guint64 n = 0;

  for (guint i = 0; i < data->stack_counts->len; i++)
    n += g_array_index (data->stack_counts, HpCaptureStackCount, i).weight;
  return n;
}

static void
check_two_events (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = hp_capture_open (path, FALSE, &error);
  g_autoptr(HpCaptureData) data = NULL;
  g_autoptr(HpCaptureData) faults = NULL;
  g_autoptr(HpCaptureData) both = NULL;
  g_autoptr(GArray) samples = NULL;
  const HpCaptureEvent *e;

  g_assert_no_error (error);
  data = hp_capture_load (capture, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (data->events->len, ==, 3);
  e = &g_array_index (data->events, HpCaptureEvent, 1);
  g_assert_cmpstr (e->name, ==, "cpu-clock");
  g_assert_cmpstr (e->unit, ==, "ns");
  g_assert_cmpuint (e->frequency, ==, 999);
  g_assert_cmpuint (e->period, ==, 0);
  e = &g_array_index (data->events, HpCaptureEvent, 2);
  g_assert_cmpstr (e->name, ==, "page-faults");
  g_assert_cmpstr (e->unit, ==, "page faults");
  g_assert_cmpuint (e->period, ==, 1);
  /* the first event is the metadata's, for scripts that know one */
  g_assert_cmpstr (g_hash_table_lookup (data->metadata, "event"), ==, "cpu-clock");
  g_assert_cmpstr (g_hash_table_lookup (data->metadata, "event_unit"), ==, "ns");
  /* and every event, for a look at the metadata alone */
  g_assert_cmpstr (g_hash_table_lookup (data->metadata, "events"), ==, "cpu-clock,page-faults");
  g_assert_cmpuint (hp_capture_data_find_event (data, "page-faults"), ==, 2);
  g_assert_cmpuint (hp_capture_data_find_event (data, "cycles"), ==, 0);

  /* loaded: the first event only, never a sum across units */
  g_assert_cmpuint (data->event_mask, ==, 1);
  g_assert_cmpuint (total_samples (data), ==, 8);
  g_assert_cmpuint (find_count (data, 1, 7)->samples, ==, 6);
  g_assert_cmpuint (data->all_counts->len, ==, 4);

  faults = hp_capture_data_select_events (data, 1 << 1);
  g_assert_cmpuint (total_samples (faults), ==, 6);
  g_assert_cmpuint (total_weight (faults), ==, 6);
  g_assert_cmpuint (find_count (faults, 2, 7)->samples, ==, 5);
  g_assert_cmpuint (find_count (faults, 1, 7)->samples, ==, 1);
  g_assert_true (faults->events == data->events);

  /* bits of events the capture lacks are ignored */
  both = hp_capture_data_select_events (faults, G_MAXUINT64);
  g_assert_cmpuint (both->event_mask, ==, 3);
  g_assert_cmpuint (total_samples (both), ==, 14);

  /* the samples of the selected events only */
  samples = hp_capture_load_samples (capture, faults, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (samples->len, ==, 6);
  g_assert_cmpuint (g_array_index (samples, HpCaptureSample, 0).time, ==, 200);
  g_clear_pointer (&samples, g_array_unref);
  samples = hp_capture_load_samples (capture, data, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (samples->len, ==, 8);
}

static void
test_events (Fixture       *fx,
             gconstpointer  data)
{
  g_autofree char *cut = g_build_filename (fx->dir, "cut.hotpath", NULL);

  write_two_event_capture (fx->path, TRUE);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM events"), ==, 2);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM samples WHERE event_id = 2"), ==, 6);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT sum(samples) FROM stack_counts WHERE event_id = 2"), ==, 6);
  check_two_events (fx->path);

  /* cut short: aggregated from the samples, per event all the same */
  write_two_event_capture (cut, FALSE);
  check_two_events (cut);
  g_unlink (cut);

  /* a sample of an event the capture does not have */
  hp_test_sql (fx->path, "UPDATE stack_counts SET event_id = 3 WHERE event_id = 2 AND stack_id = 1");
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpCapture) capture = hp_capture_open (fx->path, FALSE, &error);
    g_autoptr(HpCaptureData) loaded = hp_capture_load (capture, &error);

    g_assert_null (loaded);
    g_assert_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT);
    g_test_message ("%s", error->message);
    g_assert_nonnull (strstr (error->message, "refers to event 3, which is not in the events table"));
  }
  /* a capture of this version without its events table */
  hp_test_sql (fx->path, "DROP TABLE events");
  assert_open_fails (fx->path, HP_STORE_ERROR_CORRUPT, NULL);
}

/* Rows PRAGMA integrity_check finds fault with (0: "ok"). */
static gint64
integrity_faults (const char *path)
{
  return hp_test_sql_int (path, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check != 'ok'");
}

/* Whether stack_counts declares its key columns first, in the key's
 * order: what keeps SQLite 3.40's integrity_check from reporting NULLs
 * in it on any SQLite, fixed or not. */
static gboolean
key_columns_first (const char *path)
{
  return hp_test_sql_int (path, "SELECT count(*) FROM pragma_table_info ('stack_counts') "
                                "WHERE (cid = 0 AND name = 'stack_id' AND pk = 1) "
                                "   OR (cid = 1 AND name = 'tid' AND pk = 2) "
                                "   OR (cid = 2 AND name = 'event_id' AND pk = 3)") == 3;
}

/* The tables of format version 1 as that version's schema.sql made them:
 * one event, described by the metadata, and no event_id anywhere. */
static const char v1_schema[] =
  "PRAGMA application_id = 1213224008; PRAGMA user_version = 1;"
  "CREATE TABLE metadata (key TEXT PRIMARY KEY, value);"
  "CREATE TABLE processes (pid INTEGER PRIMARY KEY, command TEXT);"
  "CREATE TABLE threads (tid INTEGER PRIMARY KEY, pid INTEGER NOT NULL, name TEXT);"
  "CREATE TABLE modules (id INTEGER PRIMARY KEY, path TEXT, build_id TEXT,"
  "                      is_kernel INTEGER NOT NULL DEFAULT 0);"
  "CREATE TABLE functions (id INTEGER PRIMARY KEY, name TEXT NOT NULL, module_id INTEGER NOT NULL,"
  "                        file TEXT, line INTEGER NOT NULL DEFAULT 0);"
  "CREATE TABLE frames (id INTEGER PRIMARY KEY, function_id INTEGER NOT NULL, file TEXT,"
  "                     line INTEGER NOT NULL DEFAULT 0, is_inline INTEGER NOT NULL DEFAULT 0,"
  "                     offset INTEGER NOT NULL DEFAULT 0);"
  "CREATE TABLE stacks (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL, frame_id INTEGER NOT NULL);"
  "CREATE TABLE samples (time INTEGER NOT NULL, tid INTEGER NOT NULL, cpu INTEGER NOT NULL,"
  "                      stack_id INTEGER NOT NULL, weight INTEGER NOT NULL);"
  "CREATE TABLE stack_counts (stack_id INTEGER NOT NULL, tid INTEGER NOT NULL,"
  "                           samples INTEGER NOT NULL, weight INTEGER NOT NULL,"
  "                           PRIMARY KEY (stack_id, tid)) WITHOUT ROWID;"
  "CREATE TABLE summaries (path_key TEXT PRIMARY KEY, path TEXT NOT NULL, text TEXT NOT NULL,"
  "                        created TEXT NOT NULL, updated TEXT NOT NULL);"
  "INSERT INTO metadata VALUES ('event', 'page-faults'), ('event_unit', 'page faults'),"
  "                            ('period', 1), ('command', './old');"
  "INSERT INTO processes VALUES (7, 'old');"
  "INSERT INTO threads VALUES (7, 7, 'old');"
  "INSERT INTO modules VALUES (1, '/bin/old', NULL, 0);"
  "INSERT INTO functions VALUES (1, 'main', 1, NULL, 0), (2, 'touch', 1, NULL, 0);"
  "INSERT INTO frames VALUES (1, 1, NULL, 0, 0, 0), (2, 2, NULL, 0, 0, 0);"
  "INSERT INTO stacks VALUES (1, 0, 1), (2, 1, 2);"
  "INSERT INTO samples VALUES (10, 7, 0, 2, 1), (11, 7, 0, 2, 1), (12, 7, 0, 1, 1);";

static void
test_version_1 (Fixture       *fx,
                gconstpointer  data)
{
  for (guint complete = 0; complete < 2; complete++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HpCapture) capture = NULL;
      g_autoptr(HpCaptureData) loaded = NULL;
      g_autoptr(GArray) samples = NULL;
      g_autofree char *summary = NULL;
      const HpCaptureEvent *e;

      g_unlink (fx->path);
      hp_test_sql (fx->path, v1_schema);
      if (complete)
        hp_test_sql (fx->path, "INSERT INTO stack_counts VALUES (2, 7, 2, 2), (1, 7, 1, 1);"
                       "INSERT INTO metadata VALUES ('complete', '1');");

      capture = hp_capture_open (fx->path, TRUE, &error);
      g_assert_no_error (error);
      loaded = hp_capture_load (capture, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (loaded->events->len, ==, 2);
      e = &g_array_index (loaded->events, HpCaptureEvent, 1);
      g_assert_cmpstr (e->name, ==, "page-faults");
      g_assert_cmpstr (e->unit, ==, "page faults");
      g_assert_cmpuint (e->period, ==, 1);
      g_assert_cmpuint (e->frequency, ==, 0);
      g_assert_cmpuint (total_samples (loaded), ==, 3);
      g_assert_cmpuint (find_count (loaded, 2, 7)->samples, ==, 2);
      g_assert_cmpuint (find_count (loaded, 2, 7)->event_id, ==, 1);

      samples = hp_capture_load_samples (capture, loaded, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (samples->len, ==, 3);

      /* and takes a summary, which brings it up to this version (the
       * migrations of schema.sql): it reads the same after */
      g_assert_true (hp_capture_set_summary (capture, "old\tmain\n", "main", "the entry", &error));
      g_assert_no_error (error);
      summary = hp_capture_get_summary (capture, "old\tmain\n", &error);
      g_assert_cmpstr (summary, ==, "the entry");
      g_assert_cmpint (hp_test_sql_int (fx->path, "PRAGMA user_version"), ==, HP_CAPTURE_FORMAT_VERSION);
      g_assert_true (key_columns_first (fx->path));
      g_assert_cmpint (integrity_faults (fx->path), ==, 0);
      g_clear_pointer (&loaded, hp_capture_data_free);
      g_clear_pointer (&capture, hp_capture_close);
      capture = hp_capture_open (fx->path, FALSE, &error);
      g_assert_no_error (error);
      loaded = hp_capture_load (capture, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (loaded->events->len, ==, 2);
      g_assert_cmpstr (g_array_index (loaded->events, HpCaptureEvent, 1).name, ==, "page-faults");
      g_assert_cmpuint (total_samples (loaded), ==, 3);
    }
}

/* The disk fails while a version 1 capture is brought up to this
 * version (the first summary saved into it): the error is an I/O error,
 * as it is, not "tables another program changed", and the capture is
 * left as it was. Every write to the capture and its journal fails
 * from the save on (the faulty VFS); before, only reads. */
static void
test_version_1_io_error (Fixture       *fx,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;

  hp_test_sql (fx->path, v1_schema);
  faulty_vfs_install (fx->path);
  capture = hp_capture_open (fx->path, TRUE, &error);
  g_assert_no_error (error);
  faulty_vfs.fail_writes = TRUE;
  g_assert_false (hp_capture_set_summary (capture, "old\tmain\n", "main", "the entry", &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_cmpuint (faulty_vfs.n_failed, >, 0);
  g_assert_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO);
  g_assert_true (g_str_has_prefix (error->message, fx->path));
  g_assert_nonnull (strstr (error->message, "I/O error"));
  g_assert_null (strstr (error->message, "another program"));
  g_clear_pointer (&capture, hp_capture_close);
  faulty_vfs_remove ();
  g_assert_cmpint (hp_test_sql_int (fx->path, "PRAGMA user_version"), ==, 1);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM summaries"), ==, 0);
  g_assert_cmpint (integrity_faults (fx->path), ==, 0);
}

/* A capture marked complete with an empty stack_counts is read from its
 * samples; whether it is so is asked of the file, and when a read there
 * fails (the disk, once, at the root page of stack_counts or of samples,
 * the first read of each in those loads) the load fails, naming the
 * capture, rather than read it as complete: 0 samples, silently, the
 * case the question is for. The same capture loads with its 3 samples
 * once the disk reads again. */
static void
test_counts_check_io_error (Fixture       *fx,
                            gconstpointer  data)
{
  static const struct {
    const char *table;
    gboolean    per_stack;  /* hp_capture_load() reads stack_counts once before, to size an array */
  } cases[] = {
    { "stack_counts", TRUE },
    { "samples", FALSE },
  };

  hp_test_sql (fx->path, v1_schema);
  hp_test_sql (fx->path, "INSERT INTO metadata VALUES ('complete', '1');");
  for (guint t = 0; t < G_N_ELEMENTS (cases); t++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HpCapture) capture = NULL;
      g_autoptr(HpCaptureData) loaded = NULL;
      g_autofree char *root = g_strdup_printf ("SELECT rootpage FROM sqlite_master WHERE name = '%s'", cases[t].table);
      gint64 page = hp_test_sql_int (fx->path, root);
      gint64 page_size = hp_test_sql_int (fx->path, "PRAGMA page_size");

      faulty_vfs_install (fx->path);
      capture = hp_capture_open (fx->path, FALSE, &error);
      g_assert_no_error (error);
      faulty_vfs.fail_read_at = (page - 1) * page_size;
      loaded = cases[t].per_stack ? hp_capture_load_stack_totals (capture, &error) : hp_capture_load (capture, &error);
      g_assert_cmpuint (faulty_vfs.n_failed, ==, 1);
      g_assert_null (loaded);
      g_assert_nonnull (error);
      g_test_message ("%s: %s", cases[t].table, error->message);
      g_assert_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO);
      g_assert_true (g_str_has_prefix (error->message, fx->path));
      g_clear_error (&error);
      /* the disk reads again: its samples, summed */
      loaded = cases[t].per_stack ? hp_capture_load_stack_totals (capture, &error) : hp_capture_load (capture, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (total_samples (loaded), ==, 3);
      g_assert_true (loaded->counts_summed);
      g_clear_pointer (&capture, hp_capture_close);
      faulty_vfs_remove ();
    }
}

/* A capture passes PRAGMA integrity_check, and one written by format
 * version 2 to 4, whose stack_counts declared event_id last, is rebuilt
 * by the first summary written into it with its counts unchanged. */
static void
test_integrity_check (Fixture       *fx,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) loaded = NULL;

  write_known_capture (fx->path, TRUE);
  g_assert_true (key_columns_first (fx->path));
  g_assert_cmpint (integrity_faults (fx->path), ==, 0);

  /* the table as versions 2 to 4 made it */
  hp_test_sql (fx->path,
               "CREATE TABLE old (stack_id INTEGER NOT NULL, tid INTEGER NOT NULL,"
               "  samples INTEGER NOT NULL, weight INTEGER NOT NULL, event_id INTEGER NOT NULL DEFAULT 1,"
               "  PRIMARY KEY (stack_id, tid, event_id)) WITHOUT ROWID;"
               "INSERT INTO old (stack_id, tid, samples, weight, event_id)"
               "  SELECT stack_id, tid, samples, weight, event_id FROM stack_counts;"
               "DROP TABLE stack_counts; ALTER TABLE old RENAME TO stack_counts;"
               "PRAGMA user_version = 4;");
  g_assert_false (key_columns_first (fx->path));
  check_known_capture (fx->path, TRUE);

  capture = hp_capture_open (fx->path, TRUE, &error);
  g_assert_no_error (error);
  g_assert_true (hp_capture_set_summary (capture, "app\tmain\n", "main", "the entry", &error));
  g_assert_no_error (error);
  g_clear_pointer (&capture, hp_capture_close);
  g_assert_cmpint (hp_test_sql_int (fx->path, "PRAGMA user_version"), ==, HP_CAPTURE_FORMAT_VERSION);
  g_assert_true (key_columns_first (fx->path));
  g_assert_cmpint (integrity_faults (fx->path), ==, 0);
  check_known_capture (fx->path, TRUE);
}

static void
test_abort (Fixture       *fx,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (fx->path, &error);

  g_assert_no_error (error);
  hp_capture_writer_add_sample (w, 1, 1, 0, 0, 1);
  hp_capture_writer_abort (w);
  g_assert_false (g_file_test (fx->path, G_FILE_TEST_EXISTS));
}

static void
test_summaries (Fixture       *fx,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  const char *key = "app\tmain\napp\twork\n";
  const char *key2 = "app\tmain\n";
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(GHashTable) all = NULL;
  g_autofree char *text = NULL;

  write_known_capture (fx->path, TRUE);
  capture = hp_capture_open (fx->path, TRUE, &error);
  g_assert_no_error (error);

  text = hp_capture_get_summary (capture, key, &error);
  g_assert_no_error (error);
  g_assert_null (text);

  g_assert_true (hp_capture_set_summary (capture, key, "main → work", "parses the input", &error));
  g_assert_no_error (error);
  g_assert_true (hp_capture_set_summary (capture, key2, "main", "entry", &error));
  g_assert_true (hp_capture_set_summary (capture, key, "main → work", "parses the input, twice", &error));
  g_assert_no_error (error);

  text = hp_capture_get_summary (capture, key, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "parses the input, twice");
  g_clear_pointer (&text, g_free);

  all = hp_capture_list_summaries (capture, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (all), ==, 2);
  g_assert_cmpstr (g_hash_table_lookup (all, key2), ==, "entry");
  g_clear_pointer (&all, g_hash_table_unref);
  g_clear_pointer (&capture, hp_capture_close);

  /* stored, with its readable path and times */
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM summaries WHERE path = 'main → work' "
                                      "AND created LIKE '____-__-__T__:__:__Z' AND updated >= created"), ==, 1);

  /* survives reopening; an empty text deletes */
  capture = hp_capture_open (fx->path, TRUE, &error);
  g_assert_no_error (error);
  text = hp_capture_get_summary (capture, key, &error);
  g_assert_cmpstr (text, ==, "parses the input, twice");
  g_clear_pointer (&text, g_free);
  g_assert_true (hp_capture_set_summary (capture, key2, "main", "", &error));
  g_assert_no_error (error);
  all = hp_capture_list_summaries (capture, &error);
  g_assert_cmpuint (g_hash_table_size (all), ==, 1);
  g_assert_true (g_hash_table_contains (all, key));
}

static void
test_read_only (Fixture       *fx,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autofree char *text = NULL;

  write_known_capture (fx->path, TRUE);

  /* opened read-only */
  capture = hp_capture_open (fx->path, FALSE, &error);
  g_assert_no_error (error);
  g_assert_false (hp_capture_set_summary (capture, "k\tf\n", "f", "x", &error));
  g_assert_error (error, HP_STORE_ERROR, HP_STORE_ERROR_READ_ONLY);
  g_clear_error (&error);
  g_clear_pointer (&capture, hp_capture_close);

  /* a read-only file asked for writing opens, and says why it cannot save */
  g_assert_cmpint (g_chmod (fx->path, 0444), ==, 0);
  capture = hp_capture_open (fx->path, TRUE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (capture);
  text = hp_capture_get_summary (capture, "k\tf\n", &error);
  g_assert_no_error (error);
  g_assert_null (text);
  g_assert_false (hp_capture_set_summary (capture, "k\tf\n", "f", "x", &error));
  g_assert_error (error, HP_STORE_ERROR, HP_STORE_ERROR_READ_ONLY);
  g_assert_nonnull (strstr (error->message, fx->path));
  g_assert_nonnull (strstr (error->message, "read-only"));
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  g_clear_pointer (&capture, hp_capture_close);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM summaries"), ==, 0);
  g_chmod (fx->path, 0644);
}

/* 1M samples over 10k call paths (about 20k stack nodes), interned frame
 * by frame as the recorder does. */
static void
test_perf (Fixture       *fx,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) loaded = NULL;
  g_autoptr(HpProfile) profile = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  const guint n_paths = 10000, n_samples = 1000000, n_frames = 2000;
  g_autofree gint64 *frames = g_new (gint64, n_frames);
  g_autofree guint *paths = g_new (guint, n_paths * 40);
  g_autofree gint64 *leaf = g_new0 (gint64, n_paths);
  g_autofree guint *depths = g_new0 (guint, n_paths);
  guint64 n_interned = 0;
  gint64 module;
  gint64 t0, t_intern, t_write, t_finish, t_open, t_load, t_profile;

  if (!g_test_perf ())
    {
      g_test_skip ("run with -m perf");
      return;
    }

  w = hp_capture_writer_new (fx->path, &error);
  g_assert_no_error (error);
  module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  for (guint i = 0; i < n_frames; i++)
    {
      g_autofree char *name = g_strdup_printf ("function_%u", i);
      gint64 f = hp_capture_writer_intern_function (w, name, module, "app.c", i);

      frames[i] = hp_capture_writer_intern_frame (w, f, "app.c", i + 1, FALSE, i * 16);
    }
  /* Each path extends a prefix of an earlier one by 1-3 frames, as call
   * stacks of one program do: about 2 new stack nodes per path. */
  depths[0] = 8;
  for (guint d = 0; d < depths[0]; d++)
    paths[d] = g_rand_int_range (rand, 0, n_frames);
  for (guint p = 1; p < n_paths; p++)
    {
      guint q = g_rand_int_range (rand, 0, p);
      guint keep = MAX (depths[q] - g_rand_int_range (rand, 0, 3), 1);
      guint extra = g_rand_int_range (rand, 1, 4);

      memcpy (&paths[p * 40], &paths[q * 40], keep * sizeof (guint));
      depths[p] = MIN (keep + extra, 40);
      for (guint d = keep; d < depths[p]; d++)
        paths[p * 40 + d] = g_rand_int_range (rand, 0, n_frames);
    }

  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < n_samples; i++)
    {
      guint p = g_rand_int_range (rand, 0, n_paths);
      gint64 stack = 0;

      for (guint d = 0; d < depths[p]; d++)
        stack = hp_capture_writer_intern_stack (w, stack, frames[paths[p * 40 + d]]);
      n_interned += depths[p];
      leaf[p] = stack;
    }
  t_intern = g_get_monotonic_time () - t0;

  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < n_samples; i++)
    {
      guint p = g_rand_int_range (rand, 0, n_paths);

      hp_capture_writer_add_sample (w, i * 1000, 100 + p % 4, p % 8, leaf[p], 1000000);
    }
  t_write = g_get_monotonic_time () - t0;
  t0 = g_get_monotonic_time ();
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
  g_clear_pointer (&w, hp_capture_writer_free);
  t_finish = g_get_monotonic_time () - t0;

  t0 = g_get_monotonic_time ();
  capture = hp_capture_open (fx->path, FALSE, &error);
  g_assert_no_error (error);
  t_open = g_get_monotonic_time () - t0;
  t0 = g_get_monotonic_time ();
  loaded = hp_capture_load (capture, &error);
  g_assert_no_error (error);
  t_load = g_get_monotonic_time () - t0;
  t0 = g_get_monotonic_time ();
  profile = hp_profile_new (loaded, NULL);
  t_profile = g_get_monotonic_time () - t0;
  g_assert_cmpuint (hp_profile_get_n_samples (profile), ==, n_samples);

  g_printerr ("# %u stacks, %u stack_counts rows\n"
              "# intern 1M stacks (%.1f frames each on average): %.3f s\n"
              "# add_sample x 1M: %.3f s\n"
              "# finish (stack_counts, checkpoint): %.3f s\n"
              "# open: %.4f s, load: %.3f s, profile: %.3f s\n",
              loaded->stacks->len - 1, loaded->stack_counts->len, n_interned / (double) n_samples,
              t_intern / 1e6, t_write / 1e6, t_finish / 1e6,
              t_open / 1e6, t_load / 1e6, t_profile / 1e6);
}

/* stack_counts is counted as samples come, not aggregated from samples:
 * over several batches, threads, events and weights it must still say
 * what GROUP BY over the samples says. */
static void
test_counts_match_samples (Fixture       *fx,
                           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (fx->path, &error);
  gint64 m, f, fr, stacks[5];

  g_assert_no_error (error);
  m = hp_capture_writer_intern_module (w, "/bin/app", NULL, FALSE);
  f = hp_capture_writer_intern_function (w, "main", m, NULL, 0);
  fr = hp_capture_writer_intern_frame (w, f, NULL, 0, FALSE, 0);
  g_assert_cmpint (hp_capture_writer_add_event (w, "cycles", "cycles", 1000, 0), ==, 1);
  g_assert_cmpint (hp_capture_writer_add_event (w, "instructions", "instructions", 1000, 0), ==, 2);
  stacks[0] = 0;
  for (guint i = 1; i < G_N_ELEMENTS (stacks); i++)
    stacks[i] = hp_capture_writer_intern_stack (w, stacks[i - 1], fr);
  /* 3 batches and a bit; the pattern repeats neither per batch, nor per
   * thread, nor per event */
  for (guint i = 0; i < 3 * 8192 + 77; i++)
    hp_capture_writer_add_event_sample (w, 1 + (i / 5) % 2, i, 100 + (gint32) (i % 3), 0,
                                        stacks[(i * 7) % G_N_ELEMENTS (stacks)], 1 + i % 11);
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);

  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM stack_counts"), ==, 5 * 3 * 2);
  g_assert_cmpint (hp_test_sql_int (fx->path,
                            "SELECT count(*) FROM stack_counts c FULL JOIN"
                            " (SELECT stack_id, tid, event_id, count(*) AS n, sum(weight) AS w FROM samples"
                            "  GROUP BY stack_id, tid, event_id) g USING (stack_id, tid, event_id)"
                            " WHERE c.samples IS NOT g.n OR c.weight IS NOT g.w"), ==, 0);
}

/* Weights that add up past what SQLite holds fail the capture with a
 * reason, as SQLite's sum() did, rather than wrapping around. */
static void
test_counts_overflow (Fixture       *fx,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (fx->path, &error);
  gint64 m, f, fr, s;

  g_assert_no_error (error);
  m = hp_capture_writer_intern_module (w, "/bin/app", NULL, FALSE);
  f = hp_capture_writer_intern_function (w, "main", m, NULL, 0);
  fr = hp_capture_writer_intern_frame (w, f, NULL, 0, FALSE, 0);
  s = hp_capture_writer_intern_stack (w, 0, fr);
  hp_capture_writer_add_sample (w, 1, 42, 0, s, G_MAXINT64 / 2 + 1);
  hp_capture_writer_add_sample (w, 2, 42, 0, s, G_MAXINT64 / 2 + 1);
  g_assert_false (hp_capture_writer_finish (w, &error));
  g_assert_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO);
  g_assert_nonnull (strstr (error->message, fx->path));
  g_assert_nonnull (strstr (error->message, "add up to more than"));
}

/* A capture of random stacks sampled on 5 threads, for 3 events. */
static void
write_random_capture (const char *path,
                      guint32     seed,
                      gboolean    finish)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GArray) stacks = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 module, frames[6];

  g_assert_no_error (error);
  hp_capture_writer_add_event (w, "cpu-clock", "ns", 999, 0);
  hp_capture_writer_add_event (w, "page-faults", "page faults", 0, 1);
  hp_capture_writer_add_event (w, "off-cpu", "ns", 0, 0);
  module = hp_capture_writer_intern_module (w, "/bin/app", NULL, FALSE);
  for (guint f = 0; f < G_N_ELEMENTS (frames); f++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", f);

      frames[f] = hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, name, module, NULL, 0),
                                                  NULL, 0, FALSE, f);
    }
  for (guint i = 0; i < 60; i++)
    {
      gint64 parent = stacks->len > 0 && g_rand_boolean (rand)
                      ? g_array_index (stacks, gint64, g_rand_int_range (rand, 0, stacks->len)) : 0;
      gint64 stack = hp_capture_writer_intern_stack (w, parent, frames[g_rand_int_range (rand, 0, 6)]);

      g_array_append_val (stacks, stack);
    }
  for (guint i = 0; i < 3000; i++)
    hp_capture_writer_add_event_sample (w, g_rand_int_range (rand, 1, 4), i, 100 + g_rand_int_range (rand, 0, 5),
                                        0, g_rand_int_range (rand, 0, 8) == 0
                                           ? 0 : g_array_index (stacks, gint64, g_rand_int_range (rand, 0, stacks->len)),
                                        g_rand_int_range (rand, 1, 5000));
  if (finish)
    g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
}

/* The sums of @counts by stack and event: [stack * 4 + event]. */
static guint64 *
sum_counts (GArray *counts,
            guint   n_stacks,
            gboolean weight)
{
  guint64 *sum = g_new0 (guint64, n_stacks * 4);

  for (guint i = 0; i < counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (counts, HpCaptureStackCount, i);

      g_assert_cmpint (c->stack_id, <, n_stacks);
      g_assert_cmpuint (c->event_id, <, 4);
      sum[c->stack_id * 4 + c->event_id] += weight ? c->weight : c->samples;
    }
  return sum;
}

/* hp_capture_load_stack_totals() counts what hp_capture_load() does, in
 * one row a stack and event, finished or cut short. */
static void
test_stack_totals (Fixture       *fx,
                   gconstpointer  data)
{
  for (guint finish = 0; finish < 2; finish++)
    for (guint32 seed = 1; seed <= 5; seed++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(HpCapture) capture = NULL;
        g_autoptr(HpCaptureData) full = NULL;
        g_autoptr(HpCaptureData) totals = NULL;
        g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
        guint n_stacks;

        g_unlink (fx->path);
        write_random_capture (fx->path, seed, finish);
        capture = hp_capture_open (fx->path, FALSE, &error);
        g_assert_no_error (error);
        full = hp_capture_load (capture, &error);
        g_assert_no_error (error);
        totals = hp_capture_load_stack_totals (capture, &error);
        g_assert_no_error (error);

        n_stacks = full->stacks->len;
        g_assert_cmpuint (totals->stacks->len, ==, n_stacks);
        g_assert_cmpuint (totals->frames->len, ==, full->frames->len);
        g_assert_cmpuint (totals->events->len, ==, 4);
        g_assert_cmpuint (totals->event_mask, ==, full->event_mask);
        /* fewer rows: one a stack and event */
        g_assert_cmpuint (totals->all_counts->len, <, full->all_counts->len);
        for (guint i = 0; i < totals->all_counts->len; i++)
          {
            const HpCaptureStackCount *c = &g_array_index (totals->all_counts, HpCaptureStackCount, i);
            gpointer key = GSIZE_TO_POINTER (c->stack_id * 4 + c->event_id + 1);

            g_assert_cmpint (c->tid, ==, 0);
            g_assert_false (g_hash_table_contains (seen, key));
            g_hash_table_add (seen, key);
          }
        for (guint w = 0; w < 2; w++)
          {
            g_autofree guint64 *a = sum_counts (full->all_counts, n_stacks, w);
            g_autofree guint64 *b = sum_counts (totals->all_counts, n_stacks, w);

            g_assert_cmpmem (a, n_stacks * 4 * sizeof (guint64), b, n_stacks * 4 * sizeof (guint64));
          }
        /* and the events are selected from them as from the others */
        for (guint64 mask = 1; mask < 8; mask++)
          {
            g_autoptr(HpCaptureData) x = hp_capture_data_select_events (full, mask);
            g_autoptr(HpCaptureData) y = hp_capture_data_select_events (totals, mask);
            g_autofree guint64 *a = sum_counts (x->stack_counts, n_stacks, TRUE);
            g_autofree guint64 *b = sum_counts (y->stack_counts, n_stacks, TRUE);

            g_assert_cmpmem (a, n_stacks * 4 * sizeof (guint64), b, n_stacks * 4 * sizeof (guint64));
          }
      }
}

int
main (int    argc,
      char **argv)
{
  /* the other programs of the lock tests (start_self) */
  if (argc == 3 && strcmp (argv[1], "--lock-taker") == 0)
    return lock_taker_main (argv[2]);
  if (argc == 3 && strcmp (argv[1], "--open-holder") == 0)
    return open_holder_main (argv[2]);

  g_test_init (&argc, &argv, NULL);

#define ADD(name, func) \
  g_test_add ("/capture/" name, Fixture, NULL, hp_test_scratch_set_up, func, hp_test_scratch_tear_down)
  ADD ("intern", test_intern);
  ADD ("round-trip", test_round_trip);
  ADD ("part", test_part);
  ADD ("not-finished", test_not_finished);
  ADD ("killed", test_killed);
  ADD ("lock-left-free", test_lock_left_free);
  ADD ("finish-waits-for-lock", test_finish_waits_for_lock);
  ADD ("stacks-held", test_stacks_held);
  ADD ("lock-kept-when-alone", test_lock_kept_when_alone);
  ADD ("errors", test_errors);
  ADD ("events", test_events);
  ADD ("version-1", test_version_1);
  ADD ("version-1-io-error", test_version_1_io_error);
  ADD ("counts-check-io-error", test_counts_check_io_error);
  ADD ("integrity-check", test_integrity_check);
  ADD ("abort", test_abort);
  ADD ("summaries", test_summaries);
  ADD ("read-only", test_read_only);
  ADD ("perf", test_perf);
  ADD ("counts-match-samples", test_counts_match_samples);
  ADD ("counts-overflow", test_counts_overflow);
  ADD ("stack-totals", test_stack_totals);
#undef ADD

  return g_test_run ();
}
