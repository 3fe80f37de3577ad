/* test-record-threads.c - every thread and the exec'd child, with their names
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tests/workloads/threads.c renames its main thread "hp-main", starts
 * "hp-worker-1" and "hp-worker-2", and forks and execs threads-child-fp.
 * Each burns in its own function, by construction:
 *
 *   hp-main       main_work         20 %
 *   hp-worker-1   worker_one_work   40 %
 *   hp-worker-2   worker_two_work   20 %
 *   child         child_work        20 %
 *
 * (perf record -F 999 -g: 20.0 / 39.8 / 19.9 / 20.0 %).  A recorder that
 * follows only the first thread, misses clone/fork/exec, or keeps the names
 * from before a COMM change fails here.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "integration-common.h"

#define TOLERANCE 5.0

static const HpCaptureThread *
find_thread (const HpCaptureData *data,
             const char          *name)
{
  for (guint i = 0; i < data->threads->len; i++)
    {
      const HpCaptureThread *t = &g_array_index (data->threads, HpCaptureThread, i);
      if (g_strcmp0 (t->name, name) == 0)
        return t;
    }
  return NULL;
}

static guint64
samples_of_tid (const HpCaptureData *data,
                gint32               tid)
{
  guint64 n = 0;

  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);
      if (c->tid == tid)
        n += c->samples;
    }
  return n;
}

/* The share of @function's self samples among the samples of thread @tid. */
static double
self_percent_in_thread (const HpCaptureData *data,
                        gint32               tid,
                        const char          *function)
{
  g_autoptr(GHashTable) tids = g_hash_table_new (NULL, NULL);
  g_autoptr(HpProfile) profile = NULL;

  g_hash_table_add (tids, GINT_TO_POINTER (tid));
  profile = hp_profile_new (data, tids);
  return it_self_percent (profile, function);
}

static void
dump_threads (const HpCaptureData *data)
{
  for (guint i = 0; i < data->threads->len; i++)
    {
      const HpCaptureThread *t = &g_array_index (data->threads, HpCaptureThread, i);
      g_test_message ("thread tid %d pid %d name %s: %" G_GUINT64_FORMAT " samples",
                      t->tid, t->pid, t->name, samples_of_tid (data, t->tid));
    }
  for (guint i = 0; i < data->processes->len; i++)
    {
      const HpCaptureProcess *p = &g_array_index (data->processes, HpCaptureProcess, i);
      g_test_message ("process pid %d command %s", p->pid, p->command);
    }
}

static void
test_threads_and_child (void)
{
  g_autofree char *tmpdir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(ItCapture) cap = NULL;
  const HpCaptureData *data;
  const HpCaptureThread *main_thread, *one, *two, *child = NULL;
  const HpCaptureProcess *child_process = NULL;
  struct { const HpCaptureThread **thread; const char *function; double share; } expected[4];

  if (!it_require_perf_events ())
    return;

  tmpdir = it_tmpdir_new ();
  path = g_build_filename (tmpdir, "threads.hotpath", NULL);
  it_record_workload ("threads-fp", path);
  cap = it_capture_open (path);
  data = cap->data;
  dump_threads (data);

  /* The names the program set, not the ones it started with. */
  main_thread = find_thread (data, "hp-main");
  one = find_thread (data, "hp-worker-1");
  two = find_thread (data, "hp-worker-2");
  g_assert_nonnull (main_thread);
  g_assert_nonnull (one);
  g_assert_nonnull (two);

  /* The main thread is its process's first thread; the workers share it. */
  g_assert_cmpint (main_thread->tid, ==, main_thread->pid);
  g_assert_cmpint (one->pid, ==, main_thread->pid);
  g_assert_cmpint (two->pid, ==, main_thread->pid);
  g_assert_cmpint (one->tid, !=, two->tid);

  /* The child: another process, named after the program it exec'd (comm
   * is 15 bytes: "threads-child-f"). */
  for (guint i = 0; i < data->threads->len; i++)
    {
      const HpCaptureThread *t = &g_array_index (data->threads, HpCaptureThread, i);
      if (t->name && g_str_has_prefix (t->name, "threads-child") &&
          t->pid != main_thread->pid)
        child = t;
    }
  g_assert_nonnull (child);
  for (guint i = 0; i < data->processes->len; i++)
    {
      const HpCaptureProcess *p = &g_array_index (data->processes, HpCaptureProcess, i);
      if (p->pid == child->pid)
        child_process = p;
    }
  g_assert_nonnull (child_process);
  g_assert_nonnull (child_process->command);
  g_assert_nonnull (strstr (child_process->command, "threads-child"));

  /* Each thread's samples are in its own function. */
  expected[0].thread = &main_thread; expected[0].function = "main_work";       expected[0].share = 20;
  expected[1].thread = &one;         expected[1].function = "worker_one_work"; expected[1].share = 40;
  expected[2].thread = &two;         expected[2].function = "worker_two_work"; expected[2].share = 20;
  expected[3].thread = &child;       expected[3].function = "child_work";      expected[3].share = 20;

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const HpCaptureThread *t = *expected[i].thread;
      g_autofree char *what = g_strdup_printf ("%s in thread %s", expected[i].function, t->name);
      g_autofree char *share = g_strdup_printf ("%s overall", expected[i].function);

      g_assert_cmpuint (samples_of_tid (data, t->tid), >, 100);
      /* Nearly all of a thread's samples are in its own function (kernel
       * samples, start-up and the join loop are the rest). */
      it_assert_percent (what, self_percent_in_thread (data, t->tid, expected[i].function), 97.5, 2.5);
      it_assert_percent (share, it_self_percent (cap->profile, expected[i].function),
                         expected[i].share, TOLERANCE);
    }

  /* And never in another's. */
  g_assert_cmpfloat (self_percent_in_thread (data, one->tid, "worker_two_work"), ==, 0);
  g_assert_cmpfloat (self_percent_in_thread (data, two->tid, "worker_one_work"), ==, 0);
  g_assert_cmpfloat (self_percent_in_thread (data, main_thread->tid, "child_work"), ==, 0);

  g_assert_cmpint (it_count_sample_rows (path), ==, (gint64) hp_profile_get_n_samples (cap->profile));

  /* The report says which processes the samples are in, busiest first:
   * the program (its three threads, 80 %), then the child (20 %). */
  {
    const char *args[] = { "report", path, NULL };
    g_autoptr(ItResult) report = it_run_cli (args);
    guint64 in_program = 0, in_child = 0, all = hp_profile_get_n_samples (cap->profile);
    const HpCaptureProcess *program = NULL;
    g_autofree char *expected_line = NULL;

    for (guint i = 0; i < data->processes->len; i++)
      if (g_array_index (data->processes, HpCaptureProcess, i).pid == main_thread->pid)
        program = &g_array_index (data->processes, HpCaptureProcess, i);
    g_assert_nonnull (program);
    for (guint i = 0; i < data->threads->len; i++)
      {
        const HpCaptureThread *t = &g_array_index (data->threads, HpCaptureThread, i);

        if (t->pid == main_thread->pid)
          in_program += samples_of_tid (data, t->tid);
        else if (t->pid == child->pid)
          in_child += samples_of_tid (data, t->tid);
      }
    g_assert_cmpuint (in_program + in_child, ==, all);
    it_assert_percent ("the program's share", 100.0 * in_program / all, 80, TOLERANCE);
    expected_line = g_strdup_printf ("# Processes: 2, by share: %s (%d) %.1f%%, %s (%d) %.1f%%\n",
                                     program->command, program->pid, 100.0 * in_program / all,
                                     child_process->command, child_process->pid, 100.0 * in_child / all);
    g_test_message ("%s", report->out);
    g_assert_cmpint (report->status, ==, 0);
    g_assert_nonnull (strstr (report->out, expected_line));
  }

  g_clear_pointer (&cap, it_capture_free);
  g_clear_pointer (&tmpdir, it_tmpdir_free);
}

/* -p on a process that exits during the recording: the recording ends
 * there, even while the process waits as a zombie for a parent that does
 * not reap it (here: this test, until the recording is over). */
static void
test_attach_until_exit (void)
{
  g_autofree char *tmpdir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *pid_text = NULL;
  g_autoptr(ItResult) result = NULL;
  gint64 start, elapsed;
  pid_t pid;

  if (!it_require_perf_events ())
    return;

  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      gint64 end = g_get_monotonic_time () + G_USEC_PER_SEC;
      volatile guint64 sink = 0;

      while (g_get_monotonic_time () < end)
        sink++;
      _exit (0);
    }

  tmpdir = it_tmpdir_new ();
  path = g_build_filename (tmpdir, "attach.hotpath", NULL);
  pid_text = g_strdup_printf ("%d", (int) pid);
  {
    /* --duration only bounds a recorder that would never stop. */
    const char *args[] = { "record", "-g", "fp", "--duration", "20", "-o", path, "-p", pid_text, NULL };

    start = g_get_monotonic_time ();
    result = it_run_cli (args);
    elapsed = g_get_monotonic_time () - start;
  }
  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);

  g_test_message ("%s", result->err);
  g_assert_cmpint (result->status, ==, 0);
  g_assert_cmpint (elapsed, <, 10 * G_USEC_PER_SEC);
  g_assert_cmpint (it_count_sample_rows (path), >, 0);
  g_clear_pointer (&tmpdir, it_tmpdir_free);
}

/* Nanoseconds from the first sample to the last. */
static gint64
sample_time_span (const char *path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 span = -1;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT max(time) - min(time) FROM samples", -1, &stmt, NULL), ==, SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    span = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return span;
}

static gpointer
burn_two_seconds (gpointer data)
{
  gint64 end = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;
  volatile guint64 sink = 0;

  while (g_get_monotonic_time () < end)
    sink++;
  /* The last thread of a forked test: no exit handlers of the test. */
  _exit (0);
}

/* -p on a process whose main thread exits first (pthread_exit) while
 * another thread runs on: the recording follows that thread to its end,
 * and the recorder does not busy-wait on the exited thread's events,
 * which report POLLHUP from then on. */
static void
test_attach_leader_exits (void)
{
  g_autofree char *tmpdir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *pid_text = NULL;
  g_autoptr(ItResult) result = NULL;
  struct rusage before, after;
  gint64 start, elapsed, sys_us;
  pid_t pid;

  if (!it_require_perf_events ())
    return;

  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      pthread_t thread;

      if (pthread_create (&thread, NULL, burn_two_seconds, NULL) != 0)
        _exit (1);
      g_usleep (G_USEC_PER_SEC / 2);
      pthread_exit (NULL);
    }

  tmpdir = it_tmpdir_new ();
  path = g_build_filename (tmpdir, "leader.hotpath", NULL);
  pid_text = g_strdup_printf ("%d", (int) pid);
  g_usleep (G_USEC_PER_SEC / 10);
  getrusage (RUSAGE_CHILDREN, &before);
  {
    const char *args[] = { "record", "-g", "fp", "--duration", "20", "-o", path, "-p", pid_text, NULL };

    start = g_get_monotonic_time ();
    result = it_run_cli (args);
    elapsed = g_get_monotonic_time () - start;
  }
  getrusage (RUSAGE_CHILDREN, &after);
  waitpid (pid, NULL, 0);

  sys_us = (after.ru_stime.tv_sec - before.ru_stime.tv_sec) * G_USEC_PER_SEC
           + (after.ru_stime.tv_usec - before.ru_stime.tv_usec);
  g_test_message ("%s", result->err);
  g_test_message ("recorded for %.2f s, %.2f s of system time", elapsed / 1e6, sys_us / 1e6);
  g_assert_cmpint (result->status, ==, 0);
  /* The thread ran for about 1.9 s of the recording, 1.4 s of it after
   * the leader left. */
  g_assert_cmpint (it_count_sample_rows (path), >, 0);
  g_assert_cmpint (sample_time_span (path), >, G_GINT64_CONSTANT (1200000000));
  /* Spinning on POLLHUP took about half the recording's wall time. */
  g_assert_cmpint (sys_us, <, elapsed / 4);
  g_clear_pointer (&tmpdir, it_tmpdir_free);
}

/* A --duration too long for a microsecond count (or inf) is no limit,
 * not one that has passed already: the command runs to its end. */
static void
test_duration_beyond_range (void)
{
  g_autofree char *tmpdir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(ItResult) result = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *exit_status = NULL;

  if (!it_require_perf_events ())
    return;

  tmpdir = it_tmpdir_new ();
  path = g_build_filename (tmpdir, "long.hotpath", NULL);
  {
    const char *args[] = { "record", "-g", "fp", "--duration", "1e13", "-o", path, "--", "sleep", "0.3", NULL };

    result = it_run_cli (args);
  }
  g_assert_cmpint (result->status, ==, 0);
  capture = hp_capture_open (path, FALSE, &error);
  g_assert_no_error (error);
  exit_status = hp_capture_get_metadata (capture, "exit_status");
  g_assert_cmpstr (exit_status, ==, "0");
  g_clear_pointer (&capture, hp_capture_close);
  g_clear_pointer (&tmpdir, it_tmpdir_free);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/threads/threads-and-child", test_threads_and_child);
  g_test_add_func ("/integration/threads/attach-until-exit", test_attach_until_exit);
  g_test_add_func ("/integration/threads/attach-leader-exits", test_attach_leader_exits);
  g_test_add_func ("/integration/threads/duration-beyond-range", test_duration_beyond_range);
  return g_test_run ();
}
