/* test-cli-import-interrupt.c - an interrupted import leaves nothing for good
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 10, item 5: Ctrl-C (SIGINT) stops `hotpath-cli import -` while it
 * waits for a pipe that sends nothing more, at once, and removes its part;
 * an import killed with SIGKILL leaves NAME.PID.part (one file: its journal is in memory),
 * which the next import into that folder removes, while the part of an
 * import that still runs stays.
 *
 * An import whose folder is removed while it writes its part fails with
 * an error that says where the capture was saved (the user's data
 * folder); before, it said "cannot write NAME: No such file or
 * directory" and the capture, complete in the part's open file, was
 * lost with it.
 *
 * The perf.data streams are built here byte by byte (pipe mode); no
 * sampling is needed.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "integration-common.h"
#include "perf-data-builder.h"
#include "test-common.h"

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

static const PdAttr cpu_clock = {
  .type = PERF_TYPE_SOFTWARE,
  .config = PERF_COUNT_SW_CPU_CLOCK,
  .period = 999,
  .freq = TRUE,
  .sample_type = ST,
  .sample_id_all = TRUE,
};

/* A pipe-mode stream: one event, a COMM and @n_samples samples. */
static GByteArray *
pipe_stream (guint n_samples)
{
  GByteArray *b = pd_pipe_header ();
  PdId id = { 4242, 4242, 10, 0, 0 };

  pd_header_attr (b, &cpu_clock, 128, NULL, 0);
  pd_comm (b, ST, &id, "app", TRUE);
  for (guint i = 0; i < n_samples; i++)
    {
      guint64 chain[] = { PERF_CONTEXT_USER, 0x401000 + i % 4, 0x402000 };
      PdId sid = { 4242, 4242, 20 + i, 0, 0 };

      pd_sample (b, ST, &sid, chain[1], 1000000, chain, G_N_ELEMENTS (chain));
    }
  pd_finished_round (b);
  return b;
}

typedef struct {
  GPid pid;
  int  in_fd;   /* its stdin, ours to write */
  int  err_fd;
} Import;

static Import *
import_start (const char *output)
{
  const char *argv[] = { HOTPATH_CLI, "import", "-", "-o", output, NULL };
  g_autoptr(GError) error = NULL;
  Import *imp = g_new0 (Import, 1);

  if (!g_spawn_async_with_pipes (NULL, (char **) argv, NULL,
                                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                 NULL, NULL, &imp->pid, &imp->in_fd, NULL, &imp->err_fd, &error))
    g_error ("cannot run %s: %s", HOTPATH_CLI, error->message);
  return imp;
}

static void
import_write (Import           *imp,
              const GByteArray *bytes)
{
  gsize done = 0;

  while (done < bytes->len)
    {
      gssize n = write (imp->in_fd, bytes->data + done, bytes->len - done);

      g_assert_cmpint (n, >, 0);
      done += n;
    }
}

/* Waits at most @timeout_s for the end; returns the exit status (128 + a
 * signal), or -1 when it still runs then. Its stderr goes into @err. */
static int
import_wait (Import  *imp,
             guint    timeout_s,
             char   **err)
{
  gint64 deadline = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;
  int wait_status;

  while (waitpid (imp->pid, &wait_status, WNOHANG) != imp->pid)
    {
      if (g_get_monotonic_time () > deadline)
        return -1;
      g_usleep (20 * 1000);
    }
  if (err != NULL)
    {
      GString *s = g_string_new (NULL);
      char buf[1024];
      gssize n;

      fcntl (imp->err_fd, F_SETFL, O_NONBLOCK);
      while ((n = read (imp->err_fd, buf, sizeof buf)) > 0)
        g_string_append_len (s, buf, n);
      *err = g_string_free (s, FALSE);
      g_test_message ("import -> %d: %s", wait_status, *err);
    }
  return WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : 128 + WTERMSIG (wait_status);
}

/* Ends a test's import whatever state it is in. */
static void
import_free (Import *imp)
{
  if (imp->in_fd >= 0)
    close (imp->in_fd);
  if (import_wait (imp, 5, NULL) < 0)
    {
      kill (imp->pid, SIGKILL);
      waitpid (imp->pid, NULL, 0);
    }
  close (imp->err_fd);
  g_free (imp);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Import, import_free)

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

static guint
count_files (const char *dir,
             const char *part)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (part == NULL || strstr (name, part) != NULL)
      n++;
  return n;
}

static void
wait_for_files (const char *dir,
                const char *part,
                guint       n)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (count_files (dir, part) < n)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (20 * 1000);
    }
}

/* Waits until the one part in @dir is a SQLite database: its writer has
 * created the schema. */
static void
wait_for_part_header (const char *dir)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  for (;;)
    {
      g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
      const char *name;

      while ((name = g_dir_read_name (d)) != NULL)
        if (g_str_has_suffix (name, ".part"))
          {
            g_autofree char *path = g_build_filename (dir, name, NULL);
            g_autofree char *contents = NULL;
            gsize len = 0;

            if (g_file_get_contents (path, &contents, &len, NULL) && len >= 16
                && memcmp (contents, "SQLite format 3", 16) == 0)
              return;
          }
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (20 * 1000);
    }
}

static void
test_sigint_while_waiting (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *out = g_build_filename (dir, "out.hotpath", NULL);

  /* Waiting for the very first bytes. */
  {
    g_autoptr(Import) imp = import_start (out);
    g_autofree char *err = NULL;

    g_usleep (300 * 1000);
    kill (imp->pid, SIGINT);
    g_assert_cmpint (import_wait (imp, 10, &err), ==, 1);
    g_assert_nonnull (strstr (err, "interrupted"));
    g_assert_cmpuint (count_files (dir, NULL), ==, 0);
  }

  /* Waiting for more records, with the part being written. */
  {
    g_autoptr(Import) imp = import_start (out);
    g_autoptr(GByteArray) stream = pipe_stream (50);
    g_autofree char *err = NULL;

    import_write (imp, stream);
    wait_for_files (dir, ".part", 1);
    g_usleep (200 * 1000);
    kill (imp->pid, SIGINT);
    g_assert_cmpint (import_wait (imp, 10, &err), ==, 1);
    g_assert_nonnull (strstr (err, "interrupted"));
    g_assert_cmpuint (it_count_lines (err), ==, 1);
    /* no part, no -wal, no -shm, no capture */
    g_assert_cmpuint (count_files (dir, NULL), ==, 0);
  }
  g_clear_pointer (&dir, it_tmpdir_free);
}

static void
test_killed_import_parts_removed (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *src = it_tmpdir_new ();
  g_autofree char *out = g_build_filename (dir, "out.hotpath", NULL);
  g_autofree char *out2 = g_build_filename (dir, "second.hotpath", NULL);
  g_autofree char *perf_data = g_build_filename (src, "pipe.data", NULL);
  g_autofree char *running = g_strdup_printf ("%s/third.hotpath.%d.part", dir, (int) getpid ());
  g_autofree char *download = g_strdup_printf ("%s/movie.%d.part", dir, (int) dead_pid ());
  g_autoptr(GByteArray) stream = pipe_stream (50);

  {
    g_autoptr(Import) imp = import_start (out);

    import_write (imp, stream);
    wait_for_part_header (dir);
    kill (imp->pid, SIGKILL);
    g_assert_cmpint (import_wait (imp, 10, NULL), ==, 128 + SIGKILL);
  }
  /* What SIGKILL leaves: the part, alone (its journal is in memory). */
  g_assert_cmpuint (count_files (dir, ".part"), ==, 1);
  g_assert_cmpuint (count_files (dir, NULL), ==, 1);

  /* The part of an import that still runs (this process) is left alone,
   * and so is a file of that name that is not a capture (a download). */
  g_assert_true (g_file_set_contents (running, "", 0, NULL));
  g_assert_true (g_file_set_contents (download, "half a movie", -1, NULL));

  g_assert_true (g_file_set_contents (perf_data, (const char *) stream->data, stream->len, NULL));
  {
    const char *args[] = { "import", perf_data, "-o", out2, NULL };
    g_autoptr(ItResult) result = it_run_cli (args);

    g_assert_cmpint (result->status, ==, 0);
  }
  g_assert_true (g_file_test (out2, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (running, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (download, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_files (dir, ".part"), ==, 2);
  g_assert_cmpuint (count_files (dir, NULL), ==, 3);

  g_clear_pointer (&src, it_tmpdir_free);
  g_clear_pointer (&dir, it_tmpdir_free);
}

static void
test_folder_removed (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *data_home = it_tmpdir_new ();
  g_autofree char *out = g_build_filename (dir, "out.hotpath", NULL);
  g_autofree char *kept = g_build_filename (data_home, "hotpath", "recovered", "out.hotpath", NULL);
  g_autoptr(GByteArray) stream = pipe_stream (50);
  g_autoptr(Import) imp = NULL;
  g_autofree char *err = NULL;

  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  imp = import_start (out);
  g_unsetenv ("XDG_DATA_HOME");
  import_write (imp, stream);
  wait_for_part_header (dir);
  hp_test_remove_tree (dir);
  /* the end of the stream: the import finishes */
  close (imp->in_fd);
  imp->in_fd = -1;
  g_assert_cmpint (import_wait (imp, 30, &err), ==, 1);
  g_assert_null (strstr (err, "wrote "));
  g_assert_nonnull (strstr (err, "out.hotpath"));
  g_assert_nonnull (strstr (err, kept));
  g_assert_cmpint (it_count_sample_rows (kept), ==, 50);
  hp_test_remove_tree (data_home);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* a reader that stopped reading must not kill us with SIGPIPE */
  signal (SIGPIPE, SIG_IGN);
  g_test_add_func ("/integration/import/sigint-while-waiting", test_sigint_while_waiting);
  g_test_add_func ("/integration/import/killed-import-parts-removed", test_killed_import_parts_removed);
  g_test_add_func ("/integration/import/folder-removed", test_folder_removed);
  return g_test_run ();
}
