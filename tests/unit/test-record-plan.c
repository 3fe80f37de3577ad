/* test-record-plan.c - the record dialog's plan, without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <sched.h>
#include <sys/mount.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "record/hp-record-plan.h"
#include "record/hp-recorder.h"
#include "test-common.h"

typedef HpTestScratch Fixture;

static void
write_file (const char *path,
            const char *contents,
            int         mode)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, mode), ==, 0);
}

static HpRecordPlan *
launch_plan (const char *command,
             const char *working_directory,
             const char *folder)
{
  HpRecordPlan *plan = g_new0 (HpRecordPlan, 1);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_shell_parse_argv (command, NULL, &plan->argv, &error));
  plan->working_directory = g_strdup (working_directory);
  plan->folder = g_strdup (folder);
  plan->frequency = 999;
  plan->call_graph = HP_CALL_GRAPH_FP;
  return plan;
}

static void
test_names (void)
{
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr(GDateTime) time = g_date_time_new (utc, 2026, 12, 1, 18, 15, 0);
  g_autofree char *first = hp_record_capture_stem (time, 1);
  g_autofree char *third = hp_record_capture_stem (time, 3);
  g_autofree char *docs = g_build_filename (g_get_home_dir (), "Documents", NULL);
  g_autofree char *expanded = hp_record_expand_home ("~/x/y");
  g_autofree char *expected = g_build_filename (g_get_home_dir (), "x", "y", NULL);
  g_autofree char *shown = hp_record_display_path (docs);
  g_autofree char *home = hp_record_display_path (g_get_home_dir ());
  g_autofree char *elsewhere = hp_record_display_path ("/usr/bin");

  g_assert_cmpstr (first, ==, "hotpath-20261201-181500");
  g_assert_cmpstr (third, ==, "hotpath-20261201-181500-3");
  g_assert_cmpstr (expanded, ==, expected);
  g_assert_cmpstr (shown, ==, "~/Documents");
  g_assert_cmpstr (home, ==, "~");
  g_assert_cmpstr (elsewhere, ==, "/usr/bin");
}

/* Messages that name paths show those under home as ~/…, and no other
 * text that merely starts or ends like the home folder's path. */
static void
test_paths_in_text (void)
{
  const char *home = g_get_home_dir ();
  const struct {
    const char *text;   /* with H for the home folder */
    const char *shown;
  } cases[] = {
    { "H/x.hotpath: kept as H/.local/share/hotpath/recovered/x.hotpath", "~/x.hotpath: kept as ~/.local/share/hotpath/recovered/x.hotpath" },
    { "There is no folder H", "There is no folder ~" },
    { "“H/a b” (H/c), 'H/d'; H/e: f", "“~/a b” (~/c), '~/d'; ~/e: f" },
    { "H2/x and /srv/H/x and H.old/x and Hx", "H2/x and /srv/H/x and H.old/x and Hx" },
    { "/usr/bin/true", "/usr/bin/true" },
  };

  if (strlen (home) <= 1)
    {
      g_test_skip ("the home folder is /");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(GStrv) parts = g_strsplit (cases[i].text, "H", -1);
      g_autofree char *text = g_strjoinv (home, parts);
      g_auto(GStrv) expect_parts = g_strsplit (cases[i].shown, "H", -1);
      g_autofree char *expected = g_strjoinv (home, expect_parts);
      g_autofree char *shown = hp_record_display_paths_in (text);

      g_assert_cmpstr (shown, ==, expected);
    }
}

/* Each typo is an error of the command, in words that name it */
static void
test_resolve_program (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *script = g_build_filename (f->dir, "run.sh", NULL);
  g_autofree char *plain = g_build_filename (f->dir, "notes.txt", NULL);
  struct { const char *program; const char *words; } bad[] = {
    { "hotpath-no-such-program", "folders of PATH" },
    { "./missing", "does not exist" },
    { "./", "is a folder" },
    { "./notes.txt", "is not executable" },
  };
  g_autofree char *found = NULL;
  g_autofree char *sh = NULL;
  g_autoptr(GError) error = NULL;

  write_file (script, "#!/bin/sh\nexit 0\n", 0755);
  write_file (plain, "text\n", 0644);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) bad_error = NULL;
      g_autofree char *path = hp_record_resolve_program (bad[i].program, f->dir, &bad_error);

      g_assert_null (path);
      g_assert_error (bad_error, HP_RECORD_PLAN_ERROR, HP_RECORD_PLAN_ERROR_COMMAND);
      g_test_message ("%s: %s", bad[i].program, bad_error->message);
      g_assert_nonnull (strstr (bad_error->message, bad[i].words));
    }

  /* a path is taken relative to the working folder, made absolute */
  found = hp_record_resolve_program ("./run.sh", f->dir, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (found, ==, script);
  sh = hp_record_resolve_program ("sh", f->dir, &error);
  g_assert_no_error (error);
  g_assert_true (g_path_is_absolute (sh));
}

/* Every check of the plan names the choice it belongs to */
static void
test_prepare_errors (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *missing = g_build_filename (f->dir, "missing", NULL);
  g_autofree char *file = g_build_filename (f->dir, "file", NULL);
  g_autofree char *under_file = g_build_filename (file, "captures", NULL);
  struct { HpRecordPlan *plan; HpRecordPlanError field; } cases[] = {
    { launch_plan ("sh -c true", missing, f->dir), HP_RECORD_PLAN_ERROR_DIRECTORY },
    { launch_plan ("./nothing-here", f->dir, f->dir), HP_RECORD_PLAN_ERROR_COMMAND },
    { launch_plan ("sh -c true", f->dir, under_file), HP_RECORD_PLAN_ERROR_FOLDER },
    { g_new0 (HpRecordPlan, 1), HP_RECORD_PLAN_ERROR_PROCESS },
  };
  GPid gone;

  write_file (file, "", 0644);

  /* a process that surely exited: our own child, reaped */
  gone = fork ();
  if (gone == 0)
    _exit (0);
  g_assert_cmpint (waitpid (gone, NULL, 0), ==, gone);
  cases[3].plan->pid = gone;
  cases[3].plan->folder = g_strdup (f->dir);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(HpRecordPlan) plan = cases[i].plan;
      g_autoptr(GError) error = NULL;
      g_autoptr(HpRecordPrepared) prep = hp_record_plan_prepare (plan, NULL, &error);

      g_assert_null (prep);
      g_assert_error (error, HP_RECORD_PLAN_ERROR, (int) cases[i].field);
      g_test_message ("%u: %s", i, error->message);
    }
}

/* A free name, -2 when one recording of that second exists already, and a
 * log named after its capture in the cache */
static void
test_prepare_names (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr(GDateTime) time = g_date_time_new (utc, 2026, 12, 1, 18, 15, 0);
  g_autoptr(HpRecordPlan) plan = launch_plan ("./run.sh 1 2", f->dir, f->dir);
  g_autofree char *script = g_build_filename (f->dir, "run.sh", NULL);
  g_autofree char *taken = g_build_filename (f->dir, "hotpath-20261201-181500.hotpath", NULL);
  g_autofree char *expected = g_build_filename (f->dir, "hotpath-20261201-181500-2.hotpath", NULL);
  g_autofree char *log = g_build_filename (g_get_user_cache_dir (), "hotpath", "logs",
                                           "hotpath-20261201-181500-2.log", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HpRecordPrepared) prep = NULL;

  write_file (script, "#!/bin/sh\nexit 0\n", 0755);
  write_file (taken, "", 0644);

  prep = hp_record_plan_prepare (plan, time, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (prep->capture_path, ==, expected);
  g_assert_false (g_file_test (expected, G_FILE_TEST_EXISTS));
  g_assert_cmpstr (prep->log_path, ==, log);
  g_assert_cmpint (prep->log_fd, >=, 0);
  g_assert_true (g_file_test (log, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpstr (prep->argv[0], ==, script);
  g_assert_cmpstr (prep->argv[2], ==, "2");
  g_assert_cmpstr (prep->working_directory, ==, f->dir);
}

static void
test_output_tail (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "out.log", NULL);
  g_autoptr(GString) many = g_string_new (NULL);
  g_autofree char *tail = NULL;
  g_autofree char *empty = NULL;

  for (guint i = 1; i <= 20; i++)
    g_string_append_printf (many, "line %u\n", i);
  write_file (path, many->str, 0644);
  tail = hp_record_read_output_tail (path);
  g_assert_cmpstr (tail, ==, "…\nline 13\nline 14\nline 15\nline 16\nline 17\nline 18\nline 19\nline 20");

  write_file (path, "\n\n", 0644);
  empty = hp_record_read_output_tail (path);
  g_assert_null (empty);
}

/* Records @command with the plan's own job and returns how it went;
 * NULL (the test skipped) when this machine does not allow sampling. */
static HpRecordOutcome *
run_command (Fixture    *f,
             const char *command,
             guint       frequency)
{
  g_autoptr(HpRecordPlan) plan = launch_plan (command, f->dir, f->dir);
  g_autoptr(HpRecordPrepared) prep = NULL;
  g_autoptr(HpRecordJob) job = NULL;
  g_autoptr(HpRecordOutcome) outcome = NULL;
  g_autoptr(GError) error = NULL;

  plan->frequency = frequency;
  prep = hp_record_plan_prepare (plan, NULL, &error);
  g_assert_no_error (error);
  job = hp_record_job_new (plan, prep);
  g_assert_cmpint (prep->log_fd, ==, -1);
  outcome = hp_record_job_run (job);
  if (g_error_matches (outcome->error, HP_RECORD_ERROR, HP_RECORD_ERROR_PERMISSION))
    {
      g_test_skip (outcome->error->message);
      return NULL;
    }
  /* no sample: the capture is not left behind */
  if (outcome->error == NULL && !outcome->kept)
    g_assert_false (g_file_test (prep->capture_path, G_FILE_TEST_EXISTS));
  if (outcome->kept)
    g_assert_true (g_file_test (prep->capture_path, G_FILE_TEST_IS_REGULAR));
  return g_steal_pointer (&outcome);
}

/* hp_recorder_run says how the program ended, without the capture */
static void
test_run_exit (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(HpRecordOutcome) exited = run_command (f, "sh -c 'echo said; exit 3'", 999);
  g_autoptr(HpRecordOutcome) killed = NULL;

  if (exited == NULL)
    return;
  g_assert_no_error (exited->error);
  g_assert_true (exited->result.exited);
  g_assert_cmpint (exited->result.exit_status, ==, 3);
  g_assert_cmpint (exited->result.exit_signal, ==, 0);
  g_assert_false (exited->result.stopped);
  g_assert_cmpstr (exited->output_tail, ==, "said");

  killed = run_command (f, "sh -c 'kill -SEGV $$'", 999);
  g_assert_no_error (killed->error);
  g_assert_false (killed->result.exited);
  g_assert_cmpint (killed->result.exit_signal, ==, SIGSEGV);
  g_assert_null (killed->output_tail);
}

/* A frequency over kernel.perf_event_max_sample_rate: the recorder says
 * the limit, so that the dialog can say what to choose */
static void
test_run_rate_limit (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *contents = NULL;
  guint64 limit;
  g_autoptr(HpRecordOutcome) outcome = NULL;

  if (!g_file_get_contents ("/proc/sys/kernel/perf_event_max_sample_rate", &contents, NULL, NULL) ||
      !g_ascii_string_to_unsigned (g_strstrip (contents), 10, 1, G_MAXUINT / 2, &limit, NULL))
    {
      g_test_skip ("no kernel.perf_event_max_sample_rate");
      return;
    }
  outcome = run_command (f, "sh -c true", (guint) limit * 2);
  if (outcome == NULL)
    return;
  g_assert_error (outcome->error, HP_RECORD_ERROR, HP_RECORD_ERROR_FAILED);
  g_assert_cmpuint (outcome->result.max_sample_rate, ==, limit);

  /* under the limit, nothing to say */
  g_clear_pointer (&outcome, hp_record_outcome_free);
  outcome = run_command (f, "sh -c true", 99);
  g_assert_no_error (outcome->error);
  g_assert_cmpuint (outcome->result.max_sample_rate, ==, 0);
}

/* A full disk stops a recording early: the capture is kept, cut short,
 * and the outcome says so in a sentence that names the capture (not its
 * .part), so that the window does not call it a recording that went
 * well. A small tmpfs, in a mount namespace of our own where we can. */
static void
test_run_disk_full (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *small = g_build_filename (f->dir, "small", NULL);
  g_autoptr(HpRecordPlan) plan = NULL;
  g_autoptr(HpRecordPrepared) prep = NULL;
  g_autoptr(HpRecordJob) job = NULL;
  g_autoptr(HpRecordOutcome) outcome = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;

  g_assert_cmpint (g_mkdir (small, 0755), ==, 0);
  if (unshare (CLONE_NEWNS) == 0)
    mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
  if (mount ("hotpath-test", small, "tmpfs", MS_NOSUID | MS_NODEV, "size=256k") != 0)
    {
      g_test_skip ("cannot mount a small tmpfs (needs root)");
      return;
    }

  plan = launch_plan ("sh -c 'while :; do :; done'", f->dir, small);
  plan->call_graph = HP_CALL_GRAPH_DWARF;
  plan->duration = 30;
  prep = hp_record_plan_prepare (plan, NULL, &error);
  g_assert_no_error (error);
  job = hp_record_job_new (plan, prep);
  outcome = hp_record_job_run (job);
  umount2 (small, MNT_DETACH);
  if (g_error_matches (outcome->error, HP_RECORD_ERROR, HP_RECORD_ERROR_PERMISSION))
    {
      g_test_skip (outcome->error->message);
      return;
    }
  /* 256 KiB hold a few dozen 8 KiB stacks: far less than 30 s */
  g_assert_no_error (outcome->error);
  g_assert_cmpfloat (outcome->elapsed, <, 25);
  g_assert_true (outcome->kept);
  g_assert_true (outcome->cut_short);
  g_assert_nonnull (outcome->warning);
  name = g_path_get_basename (prep->capture_path);
  g_assert_nonnull (strstr (outcome->warning, name));
  g_assert_null (strstr (outcome->warning, ".part"));
  g_assert_nonnull (strstr (outcome->warning, "stopped"));
}

/* Records with @recorder into @name in @f's folder; returns the samples
 * the capture holds, or -1 (the test skipped) where sampling is refused. */
static gint64
run_recorder (Fixture        *f,
              HpRecorder     *recorder,
              const char     *name,
              HpRecordResult *result)
{
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autoptr(GError) error = NULL;
  HpRecordProgress progress;

  if (!hp_recorder_run (recorder, path, result, &error)
      && g_error_matches (error, HP_RECORD_ERROR, HP_RECORD_ERROR_PERMISSION))
    {
      g_test_skip (error->message);
      return -1;
    }
  g_assert_no_error (error);
  hp_recorder_get_progress (recorder, &progress);
  g_assert_false (progress.running);
  return (gint64) progress.samples;
}

/* One recorder run again records the whole program again: what ended a
 * recording (the drain thread's stop, a stop request) does not end the
 * next one at once. The drain thread's stop was never taken back, and a
 * second run kept only what its first pass found, before the program ran. */
static void
test_run_twice (Fixture       *f,
                gconstpointer  data)
{
  /* about 0.2-0.5 s of CPU time in the shell: hundreds of samples at 999 Hz */
  const char *argv[] = { "sh", "-c", "i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done", NULL };
  HpRecordOptions options = { 0 };
  HpRecorder *recorder;
  HpRecordResult result;
  gint64 first, second, stopped, after_stop;

  options.argv = (char **) argv;
  options.working_directory = f->dir;
  options.frequency = 999;
  options.output_fd = -1;
  options.call_graph = HP_CALL_GRAPH_FP;
  recorder = hp_recorder_new (&options);

  if ((first = run_recorder (f, recorder, "first.hotpath", &result)) < 0)
    {
      hp_recorder_free (recorder);
      return;
    }
  g_assert_true (result.exited);
  g_assert_false (result.stopped);
  g_assert_cmpint (first, >=, 20);
  second = run_recorder (f, recorder, "second.hotpath", &result);
  g_assert_true (result.exited);
  g_assert_false (result.stopped);
  /* the same program: the same CPU time, within what a busy machine moves */
  g_assert_cmpint (second, >=, first / 4);

  /* a stop ends the run it was asked in, and only that one */
  hp_recorder_stop (recorder);
  stopped = run_recorder (f, recorder, "stopped.hotpath", &result);
  g_assert_true (result.stopped);
  g_assert_cmpint (stopped, <, first);
  after_stop = run_recorder (f, recorder, "after-stop.hotpath", &result);
  g_assert_true (result.exited);
  g_assert_false (result.stopped);
  g_assert_cmpint (after_stop, >=, first / 4);
  hp_recorder_free (recorder);
}

typedef struct {
  HpRecorder *recorder;
  const char *path;
  gboolean    ok;
} RunInThread;

static gpointer
run_in_thread (gpointer data)
{
  RunInThread *run = data;

  run->ok = hp_recorder_run (run->recorder, run->path, NULL, NULL);
  return NULL;
}

/* Samples committed in the capture at @path, as another program reads
 * it; -1 before it has its tables. */
static gint64
committed_samples (const char *path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 n = -1;

  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK
      && sqlite3_prepare_v2 (db, "SELECT count(*) FROM samples", -1, &stmt, NULL) == SQLITE_OK
      && sqlite3_step (stmt) == SQLITE_ROW)
    n = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return n;
}

/* The recorder commits on a timer, not after every drain pass, and skips
 * empty passes: what a program did before it went idle is in the capture
 * for another program to read while the recording goes on, not only at
 * its end (or after 8192 samples). */
static void
test_run_commits_while_idle (Fixture       *f,
                             gconstpointer  data)
{
  /* some hundred samples, then a long sleep, which a stop cuts short */
  const char *argv[] = { "sh", "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; exec sleep 30", NULL };
  g_autofree char *path = g_build_filename (f->dir, "idle.hotpath", NULL);
  HpRecordOptions options = { 0 };
  RunInThread run = { 0 };
  GThread *thread;
  gint64 seen = -1, deadline;
  gboolean caught_up = FALSE;
  HpRecordProgress progress;

  if (geteuid () != 0 && hp_recorder_read_paranoid () > 1)
    {
      g_test_skip ("this machine does not allow sampling");
      return;
    }
  options.argv = (char **) argv;
  options.working_directory = f->dir;
  options.frequency = 999;
  options.output_fd = -1;
  options.call_graph = HP_CALL_GRAPH_FP;
  run.recorder = hp_recorder_new (&options);
  run.path = path;
  thread = g_thread_new ("record", run_in_thread, &run);

  /* the shell's loop takes well under a second of CPU; wait for the sleep */
  deadline = g_get_monotonic_time () + 25 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < deadline)
    {
      g_usleep (100 * 1000);
      hp_recorder_get_progress (run.recorder, &progress);
      /* every sample is processed; has the capture got them all? */
      if (progress.running && progress.samples > 0)
        {
          seen = committed_samples (path);
          if ((caught_up = seen >= 0 && (guint64) seen == progress.samples))
            break;
        }
    }
  hp_recorder_stop (run.recorder);
  g_thread_join (thread);
  g_assert_true (run.ok);
  hp_recorder_get_progress (run.recorder, &progress);
  hp_recorder_free (run.recorder);
  g_assert_true (caught_up);
  g_assert_cmpint (seen, >, 0);
  /* the recording went on after those were read: they were committed
   * while it ran, and the end added none the program made after */
  g_assert_cmpint (seen, <=, (gint64) progress.samples);
  g_assert_cmpint (committed_samples (path), ==, (gint64) progress.samples);
}

/* A child's command line, as the process list and a capture's metadata
 * show it: arguments joined by spaces, its first argument apart; nothing
 * for a process that is gone. */
static void
test_command_line (void)
{
  const char *argv[] = { "/bin/sh", "-c", "read x", "arg two", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *argv0 = NULL;
  g_autofree char *line = NULL;
  g_autofree char *gone = NULL;
  int stdin_fd;
  GPid pid;

  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                           &pid, &stdin_fd, NULL, NULL, &error));
  g_assert_no_error (error);
  line = hp_recorder_read_command_line (pid, &argv0);
  g_assert_cmpstr (line, ==, "/bin/sh -c read x arg two");
  g_assert_cmpstr (argv0, ==, "/bin/sh");
  close (stdin_fd);
  waitpid (pid, NULL, 0);
  g_spawn_close_pid (pid);
  /* reaped: its /proc entry is gone */
  gone = hp_recorder_read_command_line (pid, NULL);
  g_assert_null (gone);
}

/* The plan's check of what the machine allows, as root and as nobody
 * (in a child that drops its rights: the refusal must name what is
 * needed, before anything is recorded). */
static char *
check_as (uid_t               uid,
          const HpRecordPlan *plan)
{
  int fds[2];
  pid_t pid;
  char buf[1024] = { 0 };
  ssize_t n;
  int status;

  g_assert_cmpint (pipe (fds), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      g_autoptr(GError) error = NULL;

      close (fds[0]);
      if (uid != 0 && (setresgid (uid, uid, uid) != 0 || setresuid (uid, uid, uid) != 0))
        _exit (2);
      if (!hp_record_plan_check_events (plan, &error))
        {
          g_assert_true (g_error_matches (error, HP_RECORD_PLAN_ERROR, HP_RECORD_PLAN_ERROR_EVENTS));
          (void) !write (fds[1], error->message, strlen (error->message));
        }
      _exit (0);
    }
  close (fds[1]);
  n = read (fds[0], buf, sizeof buf - 1);
  close (fds[0]);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  return n > 0 ? g_strndup (buf, n) : NULL;
}

static void
test_check_events (void)
{
  HpRecordPlan plan = { 0 };
  char *events[] = { (char *) "cpu-clock", (char *) "page-faults", NULL };
  char *unknown[] = { (char *) "no-such-event", NULL };
  g_autofree char *message = NULL;

  /* software events: always */
  plan.events = events;
  g_assert_null (check_as (0, &plan));
  plan.events = unknown;
  message = check_as (0, &plan);
  g_assert_nonnull (strstr (message, "no-such-event: no such event"));
  g_clear_pointer (&message, g_free);
  plan.events = NULL;

  if (geteuid () != 0)
    {
      g_test_skip ("needs root, to drop its rights in a child");
      return;
    }
  /* the whole system: refused to nobody, naming root and the setting,
   * unless the machine allows everyone (paranoid <= 0) */
  plan.system_wide = TRUE;
  g_assert_null (check_as (0, &plan));
  message = check_as (65534, &plan);
  {
    g_autofree char *paranoid = NULL;

    g_assert_true (g_file_get_contents ("/proc/sys/kernel/perf_event_paranoid", &paranoid, NULL, NULL));
    if (atoi (paranoid) > 0)
      {
        g_assert_nonnull (message);
        g_assert_nonnull (strstr (message, "whole system needs root"));
        g_assert_nonnull (strstr (message, "kernel.perf_event_paranoid"));
      }
    else
      g_assert_null (message);
  }
  g_clear_pointer (&message, g_free);
  plan.system_wide = FALSE;

  /* off-CPU time: tracefs is root's */
  plan.off_cpu = TRUE;
  message = check_as (65534, &plan);
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "Off-CPU time cannot be recorded here"));
  g_assert_nonnull (strstr (message, "root"));
}

/* The recorder's explanations and the plan's check read the one
 * kernel.perf_event_paranoid, and name its value */
static void
test_paranoid (void)
{
  g_autofree char *contents = NULL;
  g_autofree char *explained = hp_recorder_explain_permission ();
  g_autofree char *value = NULL;
  int expected = 2;

  if (g_file_get_contents ("/proc/sys/kernel/perf_event_paranoid", &contents, NULL, NULL))
    expected = atoi (contents);
  g_assert_cmpint (hp_recorder_read_paranoid (), ==, expected);
  value = g_strdup_printf ("kernel.perf_event_paranoid is %d.", expected);
  g_assert_nonnull (strstr (explained, value));
}

/* The stack size limits of the record dialog's adjustment and of its
 * setting, read from their files ------------------------------------------ */

typedef struct {
  const char *element;  /* "object" or "key" that holds what we want */
  const char *id;       /* its id (.ui) or name (gschema) */
  gboolean    inside;
  char       *property; /* the <property> or <default> being read */
  GHashTable *values;   /* property name, "min", "max", "default" -> text */
} LimitsReader;

static void
limits_start (GMarkupParseContext  *context,
              const char           *element,
              const char          **names,
              const char          **values,
              gpointer              user_data,
              GError              **error)
{
  LimitsReader *r = user_data;

  if (g_str_equal (element, r->element))
    {
      for (guint i = 0; names[i] != NULL; i++)
        if ((g_str_equal (names[i], "id") || g_str_equal (names[i], "name"))
            && g_str_equal (values[i], r->id))
          r->inside = TRUE;
      return;
    }
  if (!r->inside)
    return;
  if (g_str_equal (element, "default"))
    r->property = g_strdup ("default");
  for (guint i = 0; names[i] != NULL; i++)
    {
      if (g_str_equal (element, "property") && g_str_equal (names[i], "name"))
        r->property = g_strdup (values[i]);
      else if (g_str_equal (element, "range"))
        g_hash_table_insert (r->values, g_strdup (names[i]), g_strdup (values[i]));
    }
}

static void
limits_end (GMarkupParseContext  *context,
            const char           *element,
            gpointer              user_data,
            GError              **error)
{
  LimitsReader *r = user_data;

  if (g_str_equal (element, r->element))
    r->inside = FALSE;
  g_clear_pointer (&r->property, g_free);
}

static void
limits_text (GMarkupParseContext  *context,
             const char           *text,
             gsize                 length,
             gpointer              user_data,
             GError              **error)
{
  LimitsReader *r = user_data;
  g_autofree char *value = NULL;

  if (!r->inside || r->property == NULL)
    return;
  value = g_strstrip (g_strndup (text, length));
  g_hash_table_insert (r->values, g_strdup (r->property), g_steal_pointer (&value));
}

/* The values the element @element whose id or name is @id holds in @path:
 * its <property>s, its <range>'s bounds and its <default> */
static GHashTable *
read_limits (const char *path,
             const char *element,
             const char *id)
{
  static const GMarkupParser parser = { limits_start, limits_end, limits_text, NULL, NULL };
  LimitsReader r = { element, id, FALSE, NULL, NULL };
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_no_error (error);
  r.values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  context = g_markup_parse_context_new (&parser, 0, &r, NULL);
  g_assert_true (g_markup_parse_context_parse (context, contents, length, &error));
  g_assert_true (g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
  return r.values;
}

static guint64
limit (GHashTable *values,
       const char *name)
{
  const char *text = g_hash_table_lookup (values, name);
  g_autoptr(GError) error = NULL;
  guint64 n = 0;

  g_assert_nonnull (text);
  g_assert_true (g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT64, &n, &error));
  g_assert_no_error (error);
  return n;
}

/* The window offers and stores the stack sizes hotpath-cli record
 * accepts, starting from the same default: the numbers in the dialog's
 * template and in the settings schema are those of hp-recorder.h */
static void
test_stack_size_limits (void)
{
  g_autoptr(GHashTable) dialog = read_limits (RECORD_DIALOG_UI, "object", "stack_size_adjustment");
  g_autoptr(GHashTable) setting = read_limits (GSETTINGS_SCHEMA, "key", "record-stack-size");

  g_assert_cmpuint (limit (dialog, "lower"), ==, HP_RECORD_MIN_STACK_SIZE);
  g_assert_cmpuint (limit (dialog, "upper"), ==, HP_RECORD_MAX_STACK_SIZE);
  g_assert_cmpuint (limit (dialog, "value"), ==, HP_RECORD_DEFAULT_STACK_SIZE);
  g_assert_cmpuint (limit (dialog, "step-increment") % 8, ==, 0);
  g_assert_cmpuint (limit (setting, "min"), ==, HP_RECORD_MIN_STACK_SIZE);
  g_assert_cmpuint (limit (setting, "max"), ==, HP_RECORD_MAX_STACK_SIZE);
  g_assert_cmpuint (limit (setting, "default"), ==, HP_RECORD_DEFAULT_STACK_SIZE);
  /* the suggestion of a bigger copy stays within what both accept */
  g_assert_cmpuint (hp_record_bigger_stack_size (HP_RECORD_MAX_STACK_SIZE - 8), ==, HP_RECORD_MAX_STACK_SIZE);
  /* and suggests none when the copy was as big as it gets */
  g_assert_cmpuint (hp_record_bigger_stack_size (HP_RECORD_MAX_STACK_SIZE), ==, 0);
  g_assert_cmpuint (hp_record_bigger_stack_size (0) % 8, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/record-plan/names", test_names);
  g_test_add_func ("/record-plan/paths-in-text", test_paths_in_text);
  g_test_add_func ("/record-plan/command-line", test_command_line);
  g_test_add_func ("/record-plan/check-events", test_check_events);
  g_test_add_func ("/record-plan/paranoid", test_paranoid);
  g_test_add_func ("/record-plan/stack-size-limits", test_stack_size_limits);
  g_test_add ("/record-plan/resolve-program", Fixture, NULL, hp_test_scratch_set_up, test_resolve_program, hp_test_scratch_tear_down);
  g_test_add ("/record-plan/prepare-errors", Fixture, NULL, hp_test_scratch_set_up, test_prepare_errors, hp_test_scratch_tear_down);
  g_test_add ("/record-plan/prepare-names", Fixture, NULL, hp_test_scratch_set_up, test_prepare_names, hp_test_scratch_tear_down);
  g_test_add ("/record-plan/output-tail", Fixture, NULL, hp_test_scratch_set_up, test_output_tail, hp_test_scratch_tear_down);
  g_test_add ("/record-plan/run-exit", Fixture, NULL, hp_test_scratch_set_up, test_run_exit, hp_test_scratch_tear_down);
  g_test_add ("/record-plan/run-disk-full", Fixture, NULL, hp_test_scratch_set_up, test_run_disk_full, hp_test_scratch_tear_down);
  g_test_add ("/record-plan/run-twice", Fixture, NULL, hp_test_scratch_set_up, test_run_twice, hp_test_scratch_tear_down);
  g_test_add ("/record-plan/run-commits-while-idle", Fixture, NULL, hp_test_scratch_set_up, test_run_commits_while_idle, hp_test_scratch_tear_down);
  g_test_add ("/record-plan/run-rate-limit", Fixture, NULL, hp_test_scratch_set_up, test_run_rate_limit, hp_test_scratch_tear_down);
  return g_test_run ();
}
