/* test-record-survives.c - a recording never loses a capture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 10, "Data loss":
 *  - another program holding the capture open (a read transaction) as the
 *    recording ends, and a summary saved into the live capture meanwhile:
 *    the capture is kept, complete, with every sample and the summary;
 *  - another program holding the write lock for longer than 5 s: the
 *    samples wait and are all written once it is free, said meanwhile;
 *    the same with the lock taken the moment the capture appears, and
 *    the moment the recorded program ends (said until it is free); a
 *    recorder killed meanwhile leaves them in NAME.pending.sql beside it;
 *  - record --force over an old capture that then fails to start (no such
 *    program, a dead pid, a program that cannot be executed) keeps the old
 *    capture and its summaries;
 *  - a full disk (a small tmpfs, or a file size limit) stops the recording
 *    at once with one message and keeps what was committed, cut short;
 *  - a recorder killed with SIGKILL takes the command it started with it;
 *  - parts left by killed writers are removed by the next recording there,
 *    but a recording's samples in one are kept as NAME.cut-short.hotpath;
 *  - a command killed by a signal is reported at the end of record;
 *  - Ctrl-C (SIGINT to hotpath-cli alone) is passed on to the command,
 *    which may end on it or exit; SIGTERM only when it does not, said so;
 *  - the capture (or with --force its part) taken away as it is written:
 *    its folder removed or renamed, the file deleted, replaced, or its
 *    name made a folder: an error (never "wrote"), and the capture, with
 *    every sample seen before, where the error says;
 *  - its folder made read-only for the user who records (not root): the
 *    capture complete, and the -wal left beside it said; a finished part
 *    left by a rename that failed so is kept by the next writer there.
 *
 * The samples are never counted against a share or a rate: the machine may
 * be busy.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sched.h>
#include <signal.h>
#include <sqlite3.h>
#include <string.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <grp.h>
#include <unistd.h>

#include "integration-common.h"
#include "test-common.h"
#include "store/hp-capture-writer.h"

/* A running hotpath-cli: its stderr is collected at the end. */
typedef struct {
  GPid pid;
  int  err_fd;
  int  status;     /* exit status, or 128 + signal */
  char *err;
  gint64 started;  /* monotonic, us */
  gint64 ended;
} Cli;

static void
cli_setup_fsize (gpointer data)
{
  struct rlimit limit;

  limit.rlim_cur = limit.rlim_max = GPOINTER_TO_SIZE (data);
  setrlimit (RLIMIT_FSIZE, &limit);
}

static Cli *
cli_start_full (const char * const *args,
                gsize               fsize_limit)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  Cli *cli = g_new0 (Cli, 1);

  g_ptr_array_add (argv, (char *) HOTPATH_CLI);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  cli->started = g_get_monotonic_time ();
  if (!g_spawn_async_with_pipes (NULL, (char **) argv->pdata, NULL,
                                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                 fsize_limit > 0 ? cli_setup_fsize : NULL,
                                 GSIZE_TO_POINTER (fsize_limit),
                                 &cli->pid, NULL, NULL, &cli->err_fd, &error))
    g_error ("cannot run %s: %s", HOTPATH_CLI, error->message);
  return cli;
}

/* hotpath-cli record -o @capture of the spin workload for @seconds,
 * under a file size limit of @fsize_limit bytes (0: none) */
static Cli *
cli_record_spin (const char *capture,
                 const char *seconds,
                 gsize       fsize_limit)
{
  g_autofree char *spin = it_workload_path ("spin");
  const char *args[] = { "record", "-o", capture, "--", spin, seconds, NULL };

  return cli_start_full (args, fsize_limit);
}

/* What most tests here start with: FALSE (skipped) when this process
 * may not sample; else a new scratch folder in *@dir and the path of
 * the capture @name in it in *@capture. */
static gboolean
record_scratch (const char  *name,
                char       **dir,
                char       **capture)
{
  if (!it_require_perf_events ())
    return FALSE;
  *dir = it_tmpdir_new ();
  *capture = g_build_filename (*dir, name, NULL);
  return TRUE;
}

static gboolean
cli_exited (Cli *cli)
{
  int wait_status;

  if (cli->ended != 0)
    return TRUE;
  if (waitpid (cli->pid, &wait_status, WNOHANG) != cli->pid)
    return FALSE;
  cli->ended = g_get_monotonic_time ();
  cli->status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status)
                                        : 128 + (WIFSIGNALED (wait_status) ? WTERMSIG (wait_status) : 0);
  return TRUE;
}

/* Waits (at most 30 s) until @cli's recording wrote the header of
 * @capture, which is then a database another program can open. */
static void
wait_for_capture (Cli        *cli,
                  const char *capture)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  GStatBuf st;

  while (g_stat (capture, &st) != 0 || st.st_size < 100)
    {
      g_assert_false (cli_exited (cli));
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (10 * 1000);
    }
}

/* Waits for the end (at most @timeout_s) and reads stderr. */
static void
cli_wait (Cli   *cli,
          guint  timeout_s)
{
  gint64 deadline = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;
  GString *err = g_string_new (NULL);
  char buf[4096];
  gssize n;

  while (!cli_exited (cli))
    {
      if (g_get_monotonic_time () > deadline)
        {
          kill (cli->pid, SIGKILL);
          waitpid (cli->pid, NULL, 0);
          g_error ("hotpath-cli did not end within %u s", timeout_s);
        }
      g_usleep (20 * 1000);
    }
  /* All of its output is in the pipe by now; a command that outlived it
   * may hold the pipe open, so no waiting for EOF. */
  fcntl (cli->err_fd, F_SETFL, fcntl (cli->err_fd, F_GETFL) | O_NONBLOCK);
  while ((n = read (cli->err_fd, buf, sizeof buf)) > 0)
    g_string_append_len (err, buf, n);
  close (cli->err_fd);
  cli->err_fd = -1;
  cli->err = g_string_free (err, FALSE);
  g_test_message ("hotpath-cli -> exit %d after %.1f s\nstderr: %s", cli->status,
                  (cli->ended - cli->started) / 1e6, cli->err);
}

static void
cli_free (Cli *cli)
{
  if (cli->err_fd >= 0)
    close (cli->err_fd);
  g_free (cli->err);
  g_free (cli);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Cli, cli_free)

/* The N of "wrote PATH: N samples". */
static gint64
written_samples (const char *err)
{
  const char *wrote = strstr (err, "wrote ");
  const char *colon = wrote ? strstr (wrote, ": ") : NULL;

  g_assert_nonnull (colon);
  return g_ascii_strtoll (colon + 2, NULL, 10);
}

/* Lines hotpath-cli itself printed (the command prints its own). */
static guint
cli_lines (const char *err)
{
  g_auto(GStrv) lines = g_strsplit (err, "\n", -1);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], "hotpath-cli") != NULL || strstr (lines[i], "WARNING") != NULL
        || strstr (lines[i], "CRITICAL") != NULL)
      n++;
  return n;
}

static char *
metadata (const char *capture,
          const char *key)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) cap = hp_capture_open (capture, FALSE, &error);

  g_assert_no_error (error);
  return hp_capture_get_metadata (cap, key);
}

/* A pid that no process has: a child that exited and was reaped. */
static pid_t
dead_pid (void)
{
  pid_t pid = fork ();

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    _exit (0);
  waitpid (pid, NULL, 0);
  return pid;
}

/* Files in @dir whose name contains @part. */
static guint
count_files (const char *dir,
             const char *part)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (strstr (name, part) != NULL)
      n++;
  return n;
}

static guint
n_summaries (const char *capture)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) cap = hp_capture_open (capture, FALSE, &error);
  g_autoptr(GHashTable) summaries = NULL;

  g_assert_no_error (error);
  summaries = hp_capture_list_summaries (cap, &error);
  g_assert_no_error (error);
  return g_hash_table_size (summaries);
}

/* 1. Another program has the capture open as the recording ends ---------- */

/* Opens @path as a second connection and starts a read transaction on it,
 * as a sqlite3 shell or a script would; NULL until the schema is there. */
static sqlite3 *
try_hold_read_transaction (const char *path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  GStatBuf st;

  /* Not before the recorder wrote the database header (in WAL mode): a
   * reader of the empty file must not be in the way of that switch. */
  if (g_stat (path, &st) != 0 || st.st_size < 100)
    return NULL;
  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
    {
      sqlite3_close (db);
      return NULL;
    }
  sqlite3_busy_timeout (db, 1000);
  if (sqlite3_exec (db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK
      && sqlite3_prepare_v2 (db, "SELECT count(*) FROM samples", -1, &stmt, NULL) == SQLITE_OK
      && sqlite3_step (stmt) == SQLITE_ROW)
    {
      g_test_message ("holding a read transaction on %s (%lld samples in it)", path,
                      (long long) sqlite3_column_int64 (stmt, 0));
      sqlite3_finalize (stmt);
      return db;
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return NULL;
}

static void
test_reader_open_at_end (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autofree char *complete = NULL;
  g_autoptr(Cli) cli = NULL;
  g_autoptr(ItCapture) cap = NULL;
  g_autoptr(GHashTable) summaries = NULL;
  const char *text = "Written while the recording ran.";
  gboolean summary_saved = FALSE;
  sqlite3 *reader = NULL;
  gint64 deadline;
  gint64 samples;

  if (!record_scratch ("live.hotpath", &dir, &capture))
    return;
  cli = cli_record_spin (capture, "6", 0);

  /* A second connection, with a read transaction open from the start of
   * the recording to after its end. */
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while ((reader = try_hold_read_transaction (capture)) == NULL)
    {
      g_assert_false (cli_exited (cli));
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (10 * 1000);
    }

  /* A summary saved into the live capture, as the window would. */
  while (!summary_saved && !cli_exited (cli))
    {
      const char *args[] = { "summary", capture, "spin_outer;spin_leaf", "--set", text, NULL };
      g_autoptr(ItResult) set = it_run_cli (args);

      if (set->status == 0 && !cli_exited (cli))
        summary_saved = TRUE;
      else
        g_usleep (100 * 1000);
    }
  g_assert_true (summary_saved);

  cli_wait (cli, 120);
  /* The reader is still there as the recorder ends. */
  g_assert_cmpint (cli->status, ==, 0);
  g_assert_nonnull (strstr (cli->err, "wrote "));
  g_assert_nonnull (strstr (cli->err, "-wal"));
  g_assert_null (strstr (cli->err, "locked"));
  samples = written_samples (cli->err);
  g_assert_cmpint (samples, >, 0);
  g_assert_true (g_file_test (capture, G_FILE_TEST_IS_REGULAR));

  /* It opens as it is, reader still holding on, with every sample... */
  g_assert_cmpint (it_count_sample_rows (capture), ==, samples);
  complete = metadata (capture, "complete");
  g_assert_cmpstr (complete, ==, "1");

  /* ...and after the reader let go. */
  g_assert_cmpint (sqlite3_exec (reader, "COMMIT", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (reader);
  cap = it_capture_open (capture);
  g_assert_cmpuint (hp_profile_get_n_samples (cap->profile), ==, samples);
  g_assert_cmpint (it_count_sample_rows (capture), ==, samples);
  summaries = hp_capture_list_summaries (cap->capture, NULL);
  g_assert_nonnull (summaries);
  g_assert_cmpuint (g_hash_table_size (summaries), ==, 1);
  {
    GHashTableIter iter;
    gpointer value;

    g_hash_table_iter_init (&iter, summaries);
    g_assert_true (g_hash_table_iter_next (&iter, NULL, &value));
    g_assert_cmpstr (value, ==, text);
  }
  g_clear_pointer (&cap, it_capture_free);
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* The sample rows of @path now, or -1 while its tables are not there
 * or it cannot be read */
static gint64
samples_so_far (const char *path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 n = -1;

  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
      sqlite3_prepare_v2 (db, "SELECT count(*) FROM samples", -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    n = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return n;
}

/* Waits until @cli's recording committed samples into @capture; returns
 * the deadline (30 s from the capture's setup) for what follows. */
static gint64
wait_for_samples (Cli        *cli,
                  const char *capture)
{
  gint64 deadline;

  wait_for_capture (cli, capture);
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (samples_so_far (capture) <= 0)
    {
      g_assert_false (cli_exited (cli));
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (10 * 1000);
    }
  return deadline;
}

/* Takes the write lock of @capture as a sqlite3 shell in BEGIN EXCLUSIVE
 * does (5 s of busy timeout, and again until @deadline) and returns the
 * connection that holds it. With @stop, the recorder stands still (SIGSTOP)
 * for a first try at once, so that it cannot go on meanwhile. */
static sqlite3 *
take_write_lock (const char *capture,
                 GPid        stop,
                 gint64      deadline)
{
  sqlite3 *holder = NULL;
  int rc = SQLITE_BUSY;

  if (stop != 0)
    kill (stop, SIGSTOP);
  g_assert_cmpint (sqlite3_open_v2 (capture, &holder, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  if (stop != 0)
    {
      rc = sqlite3_exec (holder, "BEGIN EXCLUSIVE", NULL, NULL, NULL);
      kill (stop, SIGCONT);
    }
  sqlite3_busy_timeout (holder, 5000);
  while (rc != SQLITE_OK && (rc = sqlite3_exec (holder, "BEGIN EXCLUSIVE", NULL, NULL, NULL)) != SQLITE_OK)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (10 * 1000);
    }
  g_test_message ("holding the write lock of %s", capture);
  return holder;
}

/* Holds @holder's lock for @seconds, lets go and waits for the recording's
 * end: it kept every sample of the 4 s program, said who held the lock,
 * and the capture is complete. */
static void
let_go_and_check_kept (sqlite3    *holder,
                       guint       seconds,
                       Cli        *cli,
                       const char *capture)
{
  g_autofree char *complete = NULL;
  g_autofree char *me = g_strdup_printf ("PID %d)", (int) getpid ());
  gint64 held_at = g_get_monotonic_time ();
  gint64 samples;

  g_usleep (seconds * G_USEC_PER_SEC);
  /* (fails when the recorder gave up and deleted the capture: its end says why) */
  if (sqlite3_exec (holder, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
    g_test_message ("COMMIT: %s", sqlite3_errmsg (holder));
  sqlite3_close (holder);
  g_test_message ("let go after %.1f s", (g_get_monotonic_time () - held_at) / 1e6);

  cli_wait (cli, 120);
  g_assert_cmpint (cli->status, ==, 0);
  g_assert_null (strstr (cli->err, "cut short"));
  g_assert_null (strstr (cli->err, "locked"));
  /* the status named who held the lock, and that nothing is lost */
  g_assert_nonnull (strstr (cli->err, "waits for the write lock that another program ("));
  g_assert_nonnull (strstr (cli->err, me));
  g_assert_nonnull (strstr (cli->err, "are kept until it is free"));
  samples = written_samples (cli->err);
  g_assert_cmpint (samples, >, 0);
  g_assert_cmpint (it_count_sample_rows (capture), ==, samples);
  complete = metadata (capture, "complete");
  g_assert_cmpstr (complete, ==, "1");
  /* the samples run to the program's end, not to the lock */
  {
    g_autoptr(ItCapture) cap = it_capture_open (capture);

    g_assert_cmpuint (hp_profile_get_n_samples (cap->profile), ==, samples);
  }
  g_assert_cmpint (hp_test_sql_int (capture, "SELECT (max (time) - min (time)) / 1000000 FROM samples"), >, 3000);
}

/* Another program holds the write lock for longer than the writer's old
 * 5 s limit, from early in the recording until after its end (a sqlite3
 * shell in BEGIN EXCLUSIVE): the samples wait in the recorder, the status
 * names the program, and once the lock is free every one is written and
 * the capture is complete. Before, the recording stopped at 5 s, cut
 * short, and the rest was lost. (A lock taken before the first sample,
 * while the writer sets the capture up: write-lock-at-creation.) */
static void
test_write_lock_held (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autoptr(Cli) cli = NULL;
  gint64 deadline;

  if (!record_scratch ("held.hotpath", &dir, &capture))
    return;
  cli = cli_record_spin (capture, "4", 0);
  /* once samples are being written */
  deadline = wait_for_samples (cli, capture);
  /* past the old 5 s limit, and past the end of the 4 s program */
  let_go_and_check_kept (take_write_lock (capture, 0, deadline), 7, cli, capture);
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* The write lock taken the moment the capture's name appears, as a
 * program watching the folder would: before, the file appeared empty and
 * the writer then created its tables in it, which did not wait for a
 * lock; the recording ended with "database is locked" before its first
 * sample. Now the capture appears with its tables, and every sample
 * waits for the lock. The folder is watched with inotify, and a file
 * created empty under the capture's name stays so for a second
 * (slow-create-preload.c), so that the lock would get in every time. */
static void
test_write_lock_at_creation (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autoptr(Cli) cli = NULL;
  sqlite3 *holder = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 samples_at_lock = -1;
  gint64 deadline;
  char buf[4096] __attribute__ ((aligned (__alignof__ (struct inotify_event))));
  gboolean appeared = FALSE;
  int watch;

  if (!record_scratch ("setup.hotpath", &dir, &capture))
    return;
  watch = inotify_init1 (IN_CLOEXEC);
  g_assert_cmpint (watch, >=, 0);
  g_assert_cmpint (inotify_add_watch (watch, dir, IN_CREATE | IN_MOVED_TO), >=, 0);
  /* a capture created in place stays empty for a second (the window that
   * was missed), and the lock is taken in it */
  g_setenv ("LD_PRELOAD", SLOW_CREATE_PRELOAD, TRUE);
  cli = cli_record_spin (capture, "4", 0);
  g_unsetenv ("LD_PRELOAD");

  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (!appeared)
    {
      struct pollfd pfd = { .fd = watch, .events = POLLIN };
      gssize n;

      g_assert_false (cli_exited (cli));
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      if (poll (&pfd, 1, 100) <= 0)
        continue;
      n = read (watch, buf, sizeof buf);
      g_assert_cmpint (n, >, 0);
      for (char *at = buf; at < buf + n;)
        {
          const struct inotify_event *event = (const struct inotify_event *) at;

          if (event->len > 0 && strcmp (event->name, "setup.hotpath") == 0)
            appeared = TRUE;
          at += sizeof *event + event->len;
        }
    }
  close (watch);
  /* the recorder stands still meanwhile: without that, it could have gone
   * on, past what is tested, before the lock is taken */
  holder = take_write_lock (capture, cli->pid, deadline);
  /* what the capture holds as the lock is taken (-1: no tables yet) */
  if (sqlite3_prepare_v2 (holder, "SELECT count(*) FROM samples", -1, &stmt, NULL) == SQLITE_OK
      && sqlite3_step (stmt) == SQLITE_ROW)
    samples_at_lock = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  let_go_and_check_kept (holder, 5, cli, capture);
  /* the lock was taken before the recorder wrote a sample */
  g_assert_cmpint (samples_at_lock, ==, 0);
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* Whether @pid stands still (SIGSTOP): its state in /proc is T. */
static gboolean
stopped (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *stat = NULL;
  const char *end;

  if (!g_file_get_contents (path, &stat, NULL, NULL) || (end = strrchr (stat, ')')) == NULL)
    return FALSE;
  return end[1] == ' ' && end[2] == 'T';
}

/* The lines of @err that start with @start and hold every one of @words */
static guint
count_lines (const char         *err,
             const char         *start,
             const char * const *words)
{
  g_auto(GStrv) lines = g_strsplit (err, "\n", -1);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = g_str_has_prefix (lines[i], "hotpath-cli: ") ? lines[i] + strlen ("hotpath-cli: ") : lines[i];
      gboolean all = g_str_has_prefix (line, start);

      for (guint j = 0; all && words[j] != NULL; j++)
        all = strstr (line, words[j]) != NULL;
      n += all;
    }
  return n;
}

/* Another program takes the write lock the moment the recorded program
 * ended (the recorder stands still there: stop-at-end-preload.c) and
 * keeps it 7 s: the recorder's end, which writes the rest and finishes
 * the capture, waits for it, and says so as it does while recording:
 * at once and every 5 s, naming the program and saying what is kept,
 * and then that the lock is free again; every sample is kept and the
 * capture is complete. Before, that wait said one line at most, without
 * what is kept, and nothing more until the end. */
static void
test_write_lock_at_end (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autofree char *me = g_strdup_printf ("another program (");
  g_autofree char *pid = g_strdup_printf ("PID %d)", (int) getpid ());
  g_autofree char *complete = NULL;
  const char *waits[] = { me, pid, "kept until it is free", "a minute at most", NULL };
  const char *none[] = { NULL };
  g_autoptr(Cli) cli = NULL;
  sqlite3 *holder;
  gint64 deadline;
  gint64 samples;

  if (!record_scratch ("end.hotpath", &dir, &capture))
    return;
  g_setenv ("LD_PRELOAD", STOP_AT_END_PRELOAD, TRUE);
  g_setenv ("HOTPATH_TEST_STOP_AT_END", "1", TRUE);
  cli = cli_record_spin (capture, "1", 0);
  g_unsetenv ("LD_PRELOAD");
  g_unsetenv ("HOTPATH_TEST_STOP_AT_END");

  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (!stopped (cli->pid))
    {
      g_assert_false (cli_exited (cli));
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (5 * 1000);
    }
  holder = take_write_lock (capture, cli->pid, deadline);
  g_usleep (7 * G_USEC_PER_SEC);
  g_assert_cmpint (sqlite3_exec (holder, "COMMIT", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (holder);

  cli_wait (cli, 120);
  g_assert_cmpint (cli->status, ==, 0);
  g_assert_null (strstr (cli->err, "cut short"));
  g_assert_null (strstr (cli->err, "locked"));
  /* said at once, and again 5 s later, then that it is over */
  g_assert_cmpuint (count_lines (cli->err, "the recording ended", waits), >=, 2);
  g_assert_cmpuint (count_lines (cli->err, "the write lock of", none), ==, 1);
  g_assert_nonnull (strstr (cli->err, "is free again"));
  samples = written_samples (cli->err);
  g_assert_cmpint (samples, >, 0);
  g_assert_cmpint (it_count_sample_rows (capture), ==, samples);
  complete = metadata (capture, "complete");
  g_assert_cmpstr (complete, ==, "1");
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* The recorder is killed (SIGKILL) while another program holds the write
 * lock: the samples that waited for it are in NAME.pending.sql beside the
 * capture, hotpath-cli says so when it opens the capture, and
 * hotpath-cli add-pending adds them. Before, they were in memory (lost) or, past 4 MiB, in a
 * /tmp/hotpath-pending-* file nobody was told of. */
static void
test_killed_while_lock_held (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autofree char *pending = NULL;
  g_autoptr(Cli) cli = NULL;
  g_autoptr(Cli) report = NULL;
  sqlite3 *holder;
  gint64 deadline;
  gint64 before, after;

  if (!record_scratch ("killed-held.hotpath", &dir, &capture))
    return;
  pending = g_strconcat (capture, ".pending.sql", NULL);
  cli = cli_record_spin (capture, "30", 0);
  deadline = wait_for_samples (cli, capture);
  holder = take_write_lock (capture, 0, deadline);
  /* the samples since wait, and go beside the capture as they do (the
   * first rows there may be stack nodes alone, on a loaded machine) */
  for (;;)
    {
      g_autofree char *text = NULL;

      if (g_file_get_contents (pending, &text, NULL, NULL) && strstr (text, "INSERT INTO samples") != NULL)
        break;
      g_assert_false (cli_exited (cli));
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (50 * 1000);
    }
  kill (cli->pid, SIGKILL);
  cli_wait (cli, 30);
  g_assert_cmpint (cli->status, ==, 128 + SIGKILL);
  g_assert_cmpint (sqlite3_exec (holder, "COMMIT", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (holder);

  /* hotpath-cli says where they are and how to add them */
  {
    const char *args[] = { "report", capture, NULL };

    report = cli_start_full (args, 0);
    cli_wait (report, 60);
    g_assert_cmpint (report->status, ==, 0);
    g_assert_nonnull (strstr (report->err, pending));
    g_assert_nonnull (strstr (report->err, "hotpath-cli add-pending "));
  }

  /* and hotpath-cli add-pending adds them (never sqlite3 NAME < FILE: a
   * file mailed with a capture could run anything there) */
  before = it_count_sample_rows (capture);
  {
    const char *args[] = { "add-pending", capture, NULL };
    g_autoptr(Cli) add = cli_start_full (args, 0);

    cli_wait (add, 60);
    g_test_message ("add-pending: %s", add->err);
    g_assert_cmpint (add->status, ==, 0);
  }
  g_assert_false (g_file_test (pending, G_FILE_TEST_EXISTS));
  after = it_count_sample_rows (capture);
  g_test_message ("%" G_GINT64_FORMAT " samples in the capture, %" G_GINT64_FORMAT " once %s is added",
                  before, after, pending);
  g_assert_cmpint (after, >, before);
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* 2. record --force keeps the old capture until the new one started ------ */

static void
assert_old_capture_kept (const char *old)
{
  g_autofree char *command = metadata (old, "command");

  g_assert_cmpstr (command, ==, "old");
  g_assert_cmpuint (n_summaries (old), ==, 1);
}

static void
test_force_keeps_old (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *old = g_build_filename (dir, "old.hotpath", NULL);
  g_autofree char *junk = g_build_filename (dir, "junk-program", NULL);
  g_autofree char *pid = g_strdup_printf ("%d", (int) dead_pid ());
  gboolean can_sample;

  it_write_small_capture (old, "old");
  {
    const char *args[] = { "summary", old, "main;work", "--set", "Keep me.", NULL };
    g_autoptr(ItResult) set = it_run_cli (args);

    g_assert_cmpint (set->status, ==, 0);
  }
  assert_old_capture_kept (old);

  /* Checked before anything is written. */
  {
    const char *args[] = { "record", "--force", "-o", old, "--", "/nonexistent/hotpath-no-such-program", NULL };
    g_autoptr(ItResult) result = it_run_cli (args);

    g_assert_cmpint (result->status, ==, 1);
    g_assert_nonnull (strstr (result->err, "hotpath-no-such-program"));
    assert_old_capture_kept (old);
  }
  {
    const char *args[] = { "record", "--force", "-o", old, "-p", pid, NULL };
    g_autoptr(ItResult) result = it_run_cli (args);

    g_assert_cmpint (result->status, ==, 1);
    g_assert_nonnull (strstr (result->err, pid));
    assert_old_capture_kept (old);
  }

  can_sample = it_require_perf_events ();
  if (can_sample)
    {
      /* Executable, but not a program: fails only at exec, once the new
       * capture is being written (beside the old one). */
      g_assert_true (g_file_set_contents (junk, "\x01\x02 not a program\n", -1, NULL));
      g_assert_cmpint (g_chmod (junk, 0755), ==, 0);
      {
        const char *args[] = { "record", "--force", "-o", old, "--", junk, NULL };
        g_autoptr(ItResult) result = it_run_cli (args);

        g_assert_cmpint (result->status, ==, 1);
        g_assert_nonnull (strstr (result->err, "junk-program"));
        assert_old_capture_kept (old);
      }

      /* A recording that works replaces it. */
      {
        g_autofree char *program = it_workload_path ("paths-fp");
        const char *args[] = { "record", "--force", "-o", old, "--", program, "5", NULL };
        g_autoptr(ItResult) result = it_run_cli (args);
        g_autofree char *command = NULL;

        g_assert_cmpint (result->status, ==, 0);
        command = metadata (old, "command");
        g_assert_nonnull (strstr (command, "paths-fp"));
        g_assert_cmpuint (n_summaries (old), ==, 0);
      }
    }
  g_assert_cmpuint (count_files (dir, ".part"), ==, 0);
  g_assert_cmpuint (count_files (dir, "-wal"), ==, 0);
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* 4. A full disk -------------------------------------------------------- */

/* The recording stopped at the first write error, long before the
 * command's end, said so once, and kept the committed samples. */
static void
assert_cut_short (Cli        *cli,
                  const char *capture)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) cap = NULL;
  g_autoptr(HpCaptureData) data = NULL;
  g_autofree char *complete = NULL;
  gint64 rows;

  /* spin runs for 60 s: the recording stopped well before */
  g_assert_cmpint (cli->ended - cli->started, <, 40 * G_USEC_PER_SEC);
  g_assert_cmpint (cli->status, ==, 1);
  g_assert_cmpuint (cli_lines (cli->err), ==, 1);
  g_assert_nonnull (strstr (cli->err, "cut short"));
  g_assert_nonnull (strstr (cli->err, "stopped"));
  {
    /* the capture asked for, never the part it was written as */
    g_autofree char *named = g_strdup_printf ("hotpath-cli: %s: ", capture);

    g_test_message ("%s", cli->err);
    g_assert_true (g_str_has_prefix (cli->err, named));
    g_assert_null (strstr (cli->err, ".part"));
  }

  cap = hp_capture_open (capture, FALSE, &error);
  g_assert_no_error (error);
  data = hp_capture_load (cap, &error);
  g_assert_no_error (error);
  g_assert_nonnull (data);
  complete = hp_capture_get_metadata (cap, "complete");
  g_assert_null (complete);
  rows = it_count_sample_rows (capture);
  g_assert_cmpint (rows, >, 0);
  {
    /* the count on the line is what the capture holds */
    const char *keeps = strstr (cli->err, "keeps the ");

    g_assert_nonnull (keeps);
    g_assert_cmpint (g_ascii_strtoll (keeps + strlen ("keeps the "), NULL, 10), ==, rows);
  }
}

static void
test_disk_full_tmpfs (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *mnt = NULL;
  g_autofree char *capture = NULL;
  g_autoptr(Cli) cli = NULL;

  if (!it_require_perf_events ())
    return;

  dir = it_tmpdir_new ();
  mnt = g_build_filename (dir, "small", NULL);
  g_assert_cmpint (g_mkdir (mnt, 0755), ==, 0);
  /* In a mount namespace of our own where we can: a failed assertion then
   * leaves no mount behind (it goes with the process). */
  if (unshare (CLONE_NEWNS) == 0)
    mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
  if (mount ("hotpath-test", mnt, "tmpfs", MS_NOSUID | MS_NODEV, "size=256k") != 0)
    {
      g_autofree char *why = g_strdup_printf ("cannot mount a small tmpfs: %s (needs root)",
                                              g_strerror (errno));

      g_rmdir (mnt);
      g_clear_pointer (&dir, it_tmpdir_free);
      g_test_skip (why);
      return;
    }

  capture = g_build_filename (mnt, "full.hotpath", NULL);
  cli = cli_record_spin (capture, "60", 0);
  cli_wait (cli, 120);
  assert_cut_short (cli, capture);

  /* record --force over a capture: written as NAME.PID.part beside it,
   * renamed over it once the recording ends, full disk or not */
  hp_capture_writer_remove_files (capture);
  it_write_small_capture (capture, "old");
  {
    g_autofree char *spin = it_workload_path ("spin");
    const char *args[] = { "record", "--force", "-o", capture, "--", spin, "60", NULL };
    g_autoptr(Cli) replacing = cli_start_full (args, 0);

    cli_wait (replacing, 120);
    assert_cut_short (replacing, capture);
  }

  umount2 (mnt, MNT_DETACH);
  g_rmdir (mnt);
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* The same with a file size limit (ulimit -f), which needs no privilege:
 * the write fails with EFBIG rather than the process dying of SIGXFSZ. */
static void
test_file_size_limit (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autoptr(Cli) cli = NULL;

  if (!record_scratch ("limited.hotpath", &dir, &capture))
    return;
  cli = cli_record_spin (capture, "60", 256 * 1024);
  cli_wait (cli, 120);
  assert_cut_short (cli, capture);
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* 5. A killed recorder takes its command along ---------------------------- */

static pid_t
child_of (GPid pid)
{
  g_autofree char *tasks = g_strdup_printf ("/proc/%d/task", (int) pid);
  g_autoptr(GDir) d = g_dir_open (tasks, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_strdup_printf ("%s/%s/children", tasks, name);
      g_autofree char *children = NULL;

      if (g_file_get_contents (path, &children, NULL, NULL) && atoi (children) > 0)
        return atoi (children);
    }
  return 0;
}

static gboolean
runs_program (pid_t       pid,
              const char *comm)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/comm", (int) pid);
  g_autofree char *contents = NULL;

  return g_file_get_contents (path, &contents, NULL, NULL) && strcmp (g_strstrip (contents), comm) == 0;
}

static void
test_killed_recorder_kills_command (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autoptr(Cli) cli = NULL;
  gint64 deadline;
  pid_t command = 0;
  int wait_status = 0;
  gboolean ended = FALSE;

  if (!record_scratch ("killed.hotpath", &dir, &capture))
    return;
  /* The command, orphaned, comes to us instead of init: we can wait for it. */
  g_assert_cmpint (prctl (PR_SET_CHILD_SUBREAPER, 1), ==, 0);
  cli = cli_record_spin (capture, "60", 0);

  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (command == 0 || !runs_program (command, "spin"))
    {
      g_assert_false (cli_exited (cli));
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (20 * 1000);
      command = child_of (cli->pid);
    }
  g_usleep (300 * 1000);

  kill (cli->pid, SIGKILL);
  cli_wait (cli, 10);
  g_assert_cmpint (cli->status, ==, 128 + SIGKILL);

  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < deadline)
    {
      pid_t r = waitpid (command, &wait_status, WNOHANG);

      if (r == command)
        {
          ended = TRUE;
          break;
        }
      g_assert_cmpint (r, ==, 0);
      g_usleep (20 * 1000);
    }
  if (!ended)
    {
      kill (command, SIGKILL);
      waitpid (command, NULL, 0);
      g_error ("the command %d ran on after its recorder was killed", (int) command);
    }
  g_assert_true (WIFSIGNALED (wait_status));
  g_assert_cmpint (WTERMSIG (wait_status), ==, SIGKILL);

  /* What the killed recorder committed still opens. */
  g_assert_cmpint (it_count_sample_rows (capture), >=, 0);
  prctl (PR_SET_CHILD_SUBREAPER, 0);
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* Parts of killed writers go; those of running ones stay. ---------------- */

static void
write_fake_part (const char *path,
                 gboolean    with_companions)
{
  char header[100] = "SQLite format 3";

  g_assert_true (g_file_set_contents (path, header, sizeof header, NULL));
  if (with_companions)
    {
      g_autofree char *wal = g_strconcat (path, "-wal", NULL);
      g_autofree char *shm = g_strconcat (path, "-shm", NULL);

      g_assert_true (g_file_set_contents (wal, "wal", -1, NULL));
      g_assert_true (g_file_set_contents (shm, "shm", -1, NULL));
    }
}

static void
test_record_removes_stale_parts (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autofree char *stale = NULL;
  g_autofree char *live = NULL;
  g_autofree char *program = NULL;

  if (!record_scratch ("new.hotpath", &dir, &capture))
    return;
  stale = g_strdup_printf ("%s/other.hotpath.%d.part", dir, (int) dead_pid ());
  live = g_strdup_printf ("%s/other.hotpath.%d.part", dir, (int) getpid ());
  write_fake_part (stale, TRUE);
  write_fake_part (live, TRUE);
  g_assert_cmpuint (count_files (dir, ".part"), ==, 6);

  program = it_workload_path ("paths-fp");
  {
    const char *args[] = { "record", "-o", capture, "--", program, "5", NULL };
    g_autoptr(ItResult) result = it_run_cli (args);

    g_assert_cmpint (result->status, ==, 0);
  }
  g_assert_false (g_file_test (stale, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_files (dir, ".part"), ==, 3);
  g_assert_true (g_file_test (live, G_FILE_TEST_EXISTS));
  g_clear_pointer (&dir, it_tmpdir_free);
}

static void
assert_old_command (const char *old)
{
  g_autofree char *command = metadata (old, "command");

  g_assert_cmpstr (command, ==, "old");
}

/* record --force over a capture, killed (SIGKILL, a crash) as it records:
 * the old capture stays, and the new recording, in its part, is not lost
 * to the next recording's cleanup but kept as NAME.cut-short.hotpath, and
 * that recording says so. Before, the part went without a word. */
static void
test_killed_replacing_recording_kept (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *old = NULL;
  g_autofree char *part = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *other = NULL;
  g_autofree char *spin = it_workload_path ("spin");
  g_autoptr(Cli) cli = NULL;
  gint64 deadline, seen = 0;

  if (!record_scratch ("app.hotpath", &dir, &old))
    return;
  kept = g_build_filename (dir, "app.cut-short.hotpath", NULL);
  other = g_build_filename (dir, "other.hotpath", NULL);
  it_write_small_capture (old, "old");
  {
    const char *args[] = { "record", "--force", "-o", old, "--", spin, "60", NULL };

    cli = cli_start_full (args, 0);
  }
  part = g_strdup_printf ("%s.%d.part", old, (int) cli->pid);
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while ((seen = g_file_test (part, G_FILE_TEST_EXISTS) ? samples_so_far (part) : -1) <= 0)
    {
      g_assert_false (cli_exited (cli));
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (50 * 1000);
    }
  kill (cli->pid, SIGKILL);
  cli_wait (cli, 10);
  g_assert_cmpint (cli->status, ==, 128 + SIGKILL);
  assert_old_command (old);

  /* the next recording there finds the part of a recorder that is gone */
  {
    g_autofree char *program = it_workload_path ("paths-fp");
    const char *args[] = { "record", "-o", other, "--", program, "5", NULL };
    g_autoptr(ItResult) result = it_run_cli (args);

    g_assert_cmpint (result->status, ==, 0);
    g_test_message ("%s", result->err);
    g_assert_nonnull (strstr (result->err, kept));
    g_assert_nonnull (strstr (result->err, "killed"));
  }
  g_assert_false (g_file_test (part, G_FILE_TEST_EXISTS));
  g_assert_cmpint (it_count_sample_rows (kept), >=, seen);
  assert_old_command (old);
  g_assert_cmpuint (count_files (dir, ".part"), ==, 0);
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* A finished recording's part that could not be renamed over its capture
 * nor aside (a folder read-only for the user, chmod'ed back since) is
 * kept by the next writer there as NAME.recovered.hotpath. Before, out of
 * WAL mode it was taken for an import's and removed. */
static void
test_finished_part_kept (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *other = NULL;
  g_autofree char *part = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *program = it_workload_path ("paths-fp");

  if (!record_scratch ("other.hotpath", &dir, &other))
    return;
  part = g_strdup_printf ("%s/app.hotpath.%d.part", dir, (int) dead_pid ());
  kept = g_build_filename (dir, "app.recovered.hotpath", NULL);
  it_write_small_capture (part, "old");
  {
    const char *args[] = { "record", "-o", other, "--", program, "5", NULL };
    g_autoptr(ItResult) result = it_run_cli (args);

    g_assert_cmpint (result->status, ==, 0);
    g_test_message ("%s", result->err);
    g_assert_nonnull (strstr (result->err, kept));
  }
  g_assert_false (g_file_test (part, G_FILE_TEST_EXISTS));
  assert_old_command (kept);
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* The capture taken away while it is written ----------------------------- */

/* What a hostile user does to @file (the capture, or with --force its
 * part) in @dir as it is written, and where the capture must then be:
 * "DIR/", "MOVED/" (@dir renamed) or "DATA/" (the user's data folder)
 * and a name. Before, each of them ended with "wrote NAME" and the
 * capture gone, or said to be where it was not. */
typedef struct {
  gboolean    force;
  void      (*act) (const char *dir, const char *capture, const char *file);
  const char *kept;
} Hostile;

static char *
moved_dir (const char *dir)
{
  return g_strconcat (dir, ".moved", NULL);
}

static void
remove_folder (const char *dir, const char *capture, const char *file)
{
  hp_test_remove_tree (dir);
}

static void
rename_folder (const char *dir, const char *capture, const char *file)
{
  g_autofree char *moved = moved_dir (dir);

  g_assert_cmpint (g_rename (dir, moved), ==, 0);
}

static void
delete_file (const char *dir, const char *capture, const char *file)
{
  g_assert_cmpint (g_unlink (file), ==, 0);
}

static void
replace_file (const char *dir, const char *capture, const char *file)
{
  g_assert_cmpint (g_unlink (file), ==, 0);
  g_assert_true (g_file_set_contents (file, "not the capture\n", -1, NULL));
}

static void
capture_becomes_folder (const char *dir, const char *capture, const char *file)
{
  g_assert_cmpint (g_unlink (capture), ==, 0);
  g_assert_cmpint (g_mkdir (capture, 0755), ==, 0);
}

static void
test_capture_taken_away (gconstpointer data)
{
  const Hostile *hostile = data;
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autofree char *file = NULL;
  g_autofree char *moved = NULL;
  g_autofree char *data_home = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *spin = it_workload_path ("spin");
  g_autofree char *complete = NULL;
  g_autoptr(Cli) cli = NULL;
  gint64 deadline, seen;

  if (!record_scratch ("app.hotpath", &dir, &capture))
    return;
  moved = moved_dir (dir);
  data_home = it_tmpdir_new ();
  if (g_str_has_prefix (hostile->kept, "DIR/"))
    kept = g_build_filename (dir, hostile->kept + 4, NULL);
  else if (g_str_has_prefix (hostile->kept, "MOVED/"))
    kept = g_build_filename (moved, hostile->kept + 6, NULL);
  else
    kept = g_build_filename (data_home, "hotpath", "recovered", hostile->kept + 5, NULL);
  if (hostile->force)
    it_write_small_capture (capture, "old");
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  {
    const char *args[] = { "record", "-o", capture, "--", spin, "2", NULL };
    const char *args_force[] = { "record", "--force", "-o", capture, "--", spin, "2", NULL };

    cli = cli_start_full (hostile->force ? args_force : args, 0);
  }
  g_unsetenv ("XDG_DATA_HOME");
  file = hostile->force ? g_strdup_printf ("%s.%d.part", capture, (int) cli->pid) : g_strdup (capture);
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while ((seen = g_file_test (file, G_FILE_TEST_EXISTS) ? samples_so_far (file) : -1) <= 0)
    {
      g_assert_false (cli_exited (cli));
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (20 * 1000);
    }
  hostile->act (dir, capture, file);
  cli_wait (cli, 30);

  /* never "wrote": an error that names the file and where the capture is */
  g_assert_cmpint (cli->status, ==, 1);
  g_assert_null (strstr (cli->err, "wrote "));
  g_assert_nonnull (strstr (cli->err, hostile->act == capture_becomes_folder ? capture : file));
  g_assert_nonnull (strstr (cli->err, kept));
  g_assert_cmpint (it_count_sample_rows (kept), >=, seen);
  complete = metadata (kept, "complete");
  g_assert_cmpstr (complete, ==, "1");
  if (hostile->force && hostile->act == rename_folder)
    {
      g_autofree char *old = g_build_filename (moved, "app.hotpath", NULL);

      assert_old_command (old);
    }
  else if (hostile->force && hostile->act != remove_folder && hostile->act != capture_becomes_folder)
    assert_old_command (capture);

  hp_test_remove_tree (dir);
  hp_test_remove_tree (moved);
  hp_test_remove_tree (data_home);
}

static const Hostile folder_removed = { FALSE, remove_folder, "DATA/app.hotpath" };
static const Hostile folder_renamed = { FALSE, rename_folder, "MOVED/app.hotpath" };
static const Hostile file_deleted = { FALSE, delete_file, "DIR/app.hotpath" };
static const Hostile file_becomes_folder = { FALSE, capture_becomes_folder, "DIR/app.recovered.hotpath" };
static const Hostile force_folder_removed = { TRUE, remove_folder, "DATA/app.hotpath" };
static const Hostile force_folder_renamed = { TRUE, rename_folder, "MOVED/app.recovered.hotpath" };
static const Hostile part_deleted = { TRUE, delete_file, "DIR/app.recovered.hotpath" };
static const Hostile part_replaced = { TRUE, replace_file, "DIR/app.recovered.hotpath" };
static const Hostile target_becomes_folder = { TRUE, capture_becomes_folder, "DIR/app.recovered.hotpath" };

/* A folder made read-only meanwhile: root writes all the same, a user
 * cannot remove the -wal at the end. SQLite says the capture left WAL
 * mode all the same, and hotpath-cli said nothing of the -wal and -shm
 * left beside it; now the note says they are kept, and why. */
#define NOBODY 65534

static void
become_nobody (gpointer data)
{
  if (setgroups (0, NULL) != 0 || setgid (NOBODY) != 0 || setuid (NOBODY) != 0)
    _exit (99);
}

static void
test_read_only_folder (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autofree char *wal = NULL;
  g_autofree char *spin = it_workload_path ("spin");
  g_autofree char *complete = NULL;
  const char *argv[] = { HOTPATH_CLI, "record", "-o", NULL, "--", spin, "2", NULL };
  g_autoptr(GError) error = NULL;
  Cli *cli = g_new0 (Cli, 1);
  gint64 deadline, seen;

  if (!record_scratch ("app.hotpath", &dir, &capture))
    {
      g_free (cli);
      return;
    }
  wal = g_strconcat (capture, "-wal", NULL);
  g_assert_cmpint (chown (dir, NOBODY, NOBODY), ==, 0);
  argv[3] = capture;
  cli->started = g_get_monotonic_time ();
  if (!g_spawn_async_with_pipes (NULL, (char **) argv, NULL,
                                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                 become_nobody, NULL, &cli->pid, NULL, NULL, &cli->err_fd, &error))
    g_error ("cannot run %s: %s", HOTPATH_CLI, error->message);
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while ((seen = g_file_test (capture, G_FILE_TEST_EXISTS) ? samples_so_far (capture) : -1) <= 0)
    {
      if (cli_exited (cli))
        {
          /* a user may not sample here (kernel.perf_event_paranoid > 2) */
          cli_wait (cli, 1);
          g_test_skip ("a user cannot record here");
          cli_free (cli);
          hp_test_remove_tree (dir);
          return;
        }
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (20 * 1000);
    }
  g_assert_cmpint (g_chmod (dir, 0555), ==, 0);
  cli_wait (cli, 30);
  g_assert_cmpint (cli->status, ==, 0);
  g_assert_cmpint (it_count_sample_rows (capture), >=, seen);
  complete = metadata (capture, "complete");
  g_assert_cmpstr (complete, ==, "1");
  /* the -wal is there, and the user was told */
  g_assert_true (g_file_test (wal, G_FILE_TEST_EXISTS));
  g_assert_nonnull (strstr (cli->err, "-wal"));
  g_assert_nonnull (strstr (cli->err, g_strerror (EACCES)));
  cli_free (cli);
  hp_test_remove_tree (dir);
}

/* A crashed command is named at the end of record ------------------------ */

static void
test_command_killed_by_signal (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autofree char *signal_name = NULL;

  if (!record_scratch ("crash.hotpath", &dir, &capture))
    return;
  {
    const char *args[] = { "record", "-o", capture, "--", "sh", "-c", "kill -SEGV $$", NULL };
    g_autoptr(ItResult) result = it_run_cli (args);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->err, "sh was killed by signal 11 ("));
    g_assert_nonnull (strstr (result->err, g_strsignal (SIGSEGV)));
    signal_name = metadata (capture, "exit_signal");
    g_assert_nonnull (signal_name);
  }
  g_unlink (capture);
  {
    const char *args[] = { "record", "-o", capture, "--", "sh", "-c", "exit 3", NULL };
    g_autoptr(ItResult) result = it_run_cli (args);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->err, "sh exited with status 3"));
  }
  g_unlink (capture);
  {
    const char *args[] = { "record", "-o", capture, "--", "true", NULL };
    g_autoptr(ItResult) result = it_run_cli (args);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_null (strstr (result->err, "signal"));
    g_assert_null (strstr (result->err, "status"));
  }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* Ctrl-C: the program gets the user's SIGINT, not the recorder's SIGTERM -- */

/* Records @argv (after "--"), sends hotpath-cli alone SIGINT once the
 * recording runs (as kill or an IDE's stop button does: the command does
 * not get it from a terminal) and waits for the end. */
static Cli *
record_then_sigint (const char         *capture,
                    const char * const *command)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  Cli *cli;

  g_ptr_array_add (args, (char *) "record");
  g_ptr_array_add (args, (char *) "-o");
  g_ptr_array_add (args, (char *) capture);
  g_ptr_array_add (args, (char *) "--");
  for (guint i = 0; command[i] != NULL; i++)
    g_ptr_array_add (args, (char *) command[i]);
  g_ptr_array_add (args, NULL);
  cli = cli_start_full ((const char * const *) args->pdata, 0);
  wait_for_capture (cli, capture);
  g_usleep (500 * 1000);
  kill (cli->pid, SIGINT);
  cli_wait (cli, 60);
  return cli;
}

static void
test_sigint_reaches_command (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autofree char *spin = NULL;

  if (!record_scratch ("int.hotpath", &dir, &capture))
    return;
  spin = it_workload_path ("spin");
  {
    /* a program that dies of SIGINT */
    const char *command[] = { spin, "30", NULL };
    g_autoptr(Cli) cli = record_then_sigint (capture, command);
    g_autofree char *exit_signal = metadata (capture, "exit_signal");
    g_autofree char *stop_signal = metadata (capture, "stop_signal");
    g_autofree char *ended = metadata (capture, "ended_by_recorder");
    const char *args[] = { "report", capture, NULL };
    g_autoptr(ItResult) report = it_run_cli (args);

    g_assert_cmpint (cli->status, ==, 0);
    g_assert_nonnull (strstr (cli->err, "stopped by SIGINT, passed on to spin, which ended on it"));
    g_assert_null (strstr (cli->err, "SIGTERM"));
    g_assert_cmpstr (exit_signal, ==, g_strsignal (SIGINT));
    g_assert_cmpstr (stop_signal, ==, "2");
    g_assert_null (ended);
    g_assert_cmpint (report->status, ==, 0);
    g_assert_nonnull (strstr (report->out, "# Note: The recording was stopped by SIGINT (Ctrl-C), and the program "
                                           "ended on that signal"));
    g_assert_null (strstr (report->out, "SIGTERM"));
  }
  g_unlink (capture);
  {
    /* a program that handles SIGINT and exits on it, as one that saves
     * its work first does: it is given the time to */
    const char *command[] = { "sh", "-c", "trap 'exit 130' INT; while :; do :; done", NULL };
    g_autoptr(Cli) cli = record_then_sigint (capture, command);
    g_autofree char *exit_signal = metadata (capture, "exit_signal");
    g_autofree char *exit_status = metadata (capture, "exit_status");
    const char *args[] = { "report", capture, NULL };
    g_autoptr(ItResult) report = it_run_cli (args);

    g_assert_cmpint (cli->status, ==, 0);
    g_assert_nonnull (strstr (cli->err, "stopped by SIGINT, passed on to sh, which exited with status 130"));
    g_assert_null (exit_signal);
    g_assert_cmpstr (exit_status, ==, "130");
    g_assert_nonnull (strstr (report->out, "# Note: The recording was stopped by SIGINT (Ctrl-C); the program "
                                           "ended on it with exit status 130."));
  }
  g_unlink (capture);
  {
    /* one that ignores it is ended after the grace time, and said so */
    const char *command[] = { "sh", "-c", "trap '' INT; while :; do :; done", NULL };
    g_autoptr(Cli) cli = record_then_sigint (capture, command);
    g_autofree char *ended = metadata (capture, "ended_by_recorder");
    const char *args[] = { "report", capture, NULL };
    g_autoptr(ItResult) report = it_run_cli (args);

    g_assert_cmpint (cli->status, ==, 0);
    g_assert_nonnull (strstr (cli->err, "stopped by SIGINT; sh did not end on it within 2 s and was ended with"));
    g_assert_cmpstr (ended, ==, "1");
    g_assert_nonnull (strstr (report->out, "the program did not end on it within 2 s, so Hotpath ended it with SIGTERM"));
  }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* The recorder sleeps while the program runs ----------------------------- */

static guint64
voluntary_switches (const char *path)
{
  g_autofree char *text = NULL;
  const char *at;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  at = strstr (text, "voluntary_ctxt_switches:");
  g_assert_nonnull (at);
  return g_ascii_strtoull (at + strlen ("voluntary_ctxt_switches:"), NULL, 10);
}

/* Waiting for the command's end must not wake the recorder's thread
 * every few milliseconds (issue 15: it cost about 3 % of a busy
 * program's CPU on a virtual machine). The command, whose parent is the
 * recorder, counts how often the recorder's main thread went to sleep
 * while it slept 2 s: a poll every 20 ms made that about 100. */
static void
test_waits_without_waking (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *script = NULL;

  if (!record_scratch ("wait.hotpath", &dir, &capture))
    return;
  before = g_build_filename (dir, "before", NULL);
  after = g_build_filename (dir, "after", NULL);
  script = g_strdup_printf ("cat /proc/$PPID/task/$PPID/status > '%s'; sleep 2; "
                            "cat /proc/$PPID/task/$PPID/status > '%s'", before, after);
  {
    const char *args[] = { "record", "-o", capture, "--", "sh", "-c", script, NULL };
    g_autoptr(ItResult) result = it_run_cli (args);

    g_assert_cmpint (result->status, ==, 0);
  }
  g_assert_cmpuint (voluntary_switches (after) - voluntary_switches (before), <, 10);
  g_clear_pointer (&dir, it_tmpdir_free);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/record/reader-open-at-end", test_reader_open_at_end);
  g_test_add_func ("/integration/record/write-lock-held", test_write_lock_held);
  g_test_add_func ("/integration/record/write-lock-at-creation", test_write_lock_at_creation);
  g_test_add_func ("/integration/record/write-lock-at-end", test_write_lock_at_end);
  g_test_add_func ("/integration/record/killed-while-lock-held", test_killed_while_lock_held);
  g_test_add_func ("/integration/record/force-keeps-old", test_force_keeps_old);
  g_test_add_func ("/integration/record/disk-full", test_disk_full_tmpfs);
  g_test_add_func ("/integration/record/file-size-limit", test_file_size_limit);
  g_test_add_func ("/integration/record/killed-recorder-kills-command", test_killed_recorder_kills_command);
  g_test_add_func ("/integration/record/removes-stale-parts", test_record_removes_stale_parts);
  g_test_add_func ("/integration/record/killed-replacing-kept", test_killed_replacing_recording_kept);
  g_test_add_func ("/integration/record/command-killed-by-signal", test_command_killed_by_signal);
  g_test_add_func ("/integration/record/waits-without-waking", test_waits_without_waking);
  g_test_add_func ("/integration/record/sigint-reaches-command", test_sigint_reaches_command);
  g_test_add_func ("/integration/record/read-only-folder", test_read_only_folder);
  g_test_add_func ("/integration/record/finished-part-kept", test_finished_part_kept);
  g_test_add_data_func ("/integration/record/taken-away/folder-removed", &folder_removed, test_capture_taken_away);
  g_test_add_data_func ("/integration/record/taken-away/folder-renamed", &folder_renamed, test_capture_taken_away);
  g_test_add_data_func ("/integration/record/taken-away/file-deleted", &file_deleted, test_capture_taken_away);
  g_test_add_data_func ("/integration/record/taken-away/file-becomes-folder", &file_becomes_folder,
                        test_capture_taken_away);
  g_test_add_data_func ("/integration/record/taken-away/force-folder-removed", &force_folder_removed,
                        test_capture_taken_away);
  g_test_add_data_func ("/integration/record/taken-away/force-folder-renamed", &force_folder_renamed,
                        test_capture_taken_away);
  g_test_add_data_func ("/integration/record/taken-away/part-deleted", &part_deleted, test_capture_taken_away);
  g_test_add_data_func ("/integration/record/taken-away/part-replaced", &part_replaced, test_capture_taken_away);
  g_test_add_data_func ("/integration/record/taken-away/target-becomes-folder", &target_becomes_folder,
                        test_capture_taken_away);
  return g_test_run ();
}
