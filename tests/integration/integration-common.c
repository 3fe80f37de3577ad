/* integration-common.c - helpers to record a workload and read it back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The integration tests run the real hotpath-cli (HOTPATH_CLI, set by meson)
 * on the workloads of tests/workloads (WORKLOAD_DIR), then read the capture
 * with the library, the way the window does, and with plain SQL, the way a
 * script would.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <linux/perf_event.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "integration-common.h"
#include "store/hp-capture-writer.h"

gboolean
it_require_perf_events (void)
{
  struct perf_event_attr attr = { 0 };
  g_autofree char *paranoid = NULL;
  int fd;

  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CPU_CLOCK;
  attr.sample_freq = 999;
  attr.freq = 1;
  attr.disabled = 1;
  attr.exclude_kernel = 1;

  fd = syscall (SYS_perf_event_open, &attr, 0, -1, -1, 0);
  if (fd >= 0)
    {
      close (fd);
      return TRUE;
    }

  /* Only a refusal is a reason to skip; anything else is a real failure
   * that the recording itself will report. */
  if (errno != EACCES && errno != EPERM)
    return TRUE;

  {
    int saved = errno;
    g_autofree char *why = NULL;

    g_file_get_contents ("/proc/sys/kernel/perf_event_paranoid", &paranoid,
                         NULL, NULL);
    why = g_strdup_printf ("perf_event_open refused (%s); kernel.perf_event_paranoid "
                           "is %s: run as root or lower it to 1",
                           g_strerror (saved),
                           paranoid ? g_strstrip (paranoid) : "unknown");
    g_test_skip (why);
  }
  return FALSE;
}

ItResult *
it_run_cli (const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  ItResult *result = g_new0 (ItResult, 1);
  int wait_status = 0;

  g_ptr_array_add (argv, (char *) HOTPATH_CLI);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT,
                     NULL, NULL, &result->out, &result->err, &wait_status,
                     &error))
    g_error ("cannot run %s: %s", HOTPATH_CLI, error->message);

  if (WIFEXITED (wait_status))
    result->status = WEXITSTATUS (wait_status);
  else
    result->status = 128 + (WIFSIGNALED (wait_status) ? WTERMSIG (wait_status) : 0);

  g_test_message ("hotpath-cli %s -> exit %d\nstderr: %s", args[0],
                  result->status, result->err);
  return result;
}

void
it_result_free (ItResult *result)
{
  g_free (result->out);
  g_free (result->err);
  g_free (result);
}

guint
it_count_lines (const char *text)
{
  guint n = 0;
  const char *p;

  if (text == NULL || *text == '\0')
    return 0;
  for (p = text; *p; p++)
    if (*p == '\n')
      n++;
  if (p[-1] != '\n')
    n++;
  return n;
}

char *
it_tmpdir_new (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("hotpath-it-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

void
it_tmpdir_free (char *dir)
{
  GDir *d;
  const char *name;

  if (dir == NULL)
    return;
  d = g_dir_open (dir, 0, NULL);
  while (d && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  if (d)
    g_dir_close (d);
  g_rmdir (dir);
  g_free (dir);
}

char *
it_workload_path (const char *name)
{
  char *path = g_build_filename (WORKLOAD_DIR, name, NULL);

  if (!g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
    g_error ("workload %s not built (looked in %s)", name, WORKLOAD_DIR);
  return path;
}

void
it_record_workload (const char *workload,
                    const char *capture_path)
{
  g_autofree char *program = it_workload_path (workload);
  const char *args[] = { "record", "-o", capture_path, "--", program, NULL };
  g_autoptr(ItResult) result = it_run_cli (args);

  if (result->status != 0)
    g_error ("hotpath-cli record -- %s failed with exit %d: %s", workload,
             result->status, result->err);
  g_assert_true (g_file_test (capture_path, G_FILE_TEST_IS_REGULAR));
}

ItCapture *
it_capture_open (const char *path)
{
  g_autoptr(GError) error = NULL;
  ItCapture *cap = g_new0 (ItCapture, 1);

  cap->path = g_strdup (path);
  cap->capture = hp_capture_open (path, FALSE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (cap->capture);
  cap->data = hp_capture_load (cap->capture, &error);
  g_assert_no_error (error);
  g_assert_nonnull (cap->data);
  cap->profile = hp_profile_new (cap->data, NULL);
  g_assert_nonnull (cap->profile);
  return cap;
}

void
it_capture_free (ItCapture *cap)
{
  g_clear_pointer (&cap->profile, hp_profile_free);
  g_clear_pointer (&cap->data, hp_capture_data_free);
  g_clear_pointer (&cap->capture, hp_capture_close);
  g_free (cap->path);
  g_free (cap);
}

gint64
it_find_function (HpProfile  *profile,
                  const char *name)
{
  g_autoptr(GArray) ids = hp_profile_find_functions (profile, name);
  gint64 best = 0;
  guint64 best_samples = 0;

  for (guint i = 0; ids != NULL && i < ids->len; i++)
    {
      gint64 id = g_array_index (ids, gint64, i);
      const HpFunctionStats *stats = hp_profile_get_function_stats (profile, id);
      guint64 n = stats ? stats->self + stats->total : 0;

      if (best == 0 || n > best_samples)
        {
          best = id;
          best_samples = n;
        }
    }
  return best;
}

static double
percent_of (HpProfile  *profile,
            const char *name,
            gboolean    total)
{
  gint64 id = it_find_function (profile, name);
  const HpFunctionStats *stats;
  guint64 n = hp_profile_get_n_samples (profile);

  if (id == 0 || n == 0)
    return 0;
  stats = hp_profile_get_function_stats (profile, id);
  if (stats == NULL)
    return 0;
  return 100.0 * (total ? stats->total : stats->self) / n;
}

double
it_self_percent (HpProfile  *profile,
                 const char *name)
{
  return percent_of (profile, name, FALSE);
}

double
it_total_percent (HpProfile  *profile,
                  const char *name)
{
  return percent_of (profile, name, TRUE);
}

gint64
it_count_sample_rows (const char *path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 n = -1;

  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
    g_error ("%s: %s", path, sqlite3_errmsg (db));
  if (sqlite3_prepare_v2 (db, "SELECT count(*) FROM samples", -1, &stmt,
                          NULL) != SQLITE_OK)
    g_error ("%s: %s", path, sqlite3_errmsg (db));
  if (sqlite3_step (stmt) == SQLITE_ROW)
    n = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  g_assert_cmpint (n, >=, 0);
  return n;
}

gint64
it_json_samples (const char *capture_path)
{
  const char *args[] = { "report", capture_path, "--format", "json", NULL };
  g_autoptr(ItResult) result = it_run_cli (args);
  g_autoptr(GRegex) regex = NULL;
  g_autoptr(GMatchInfo) match = NULL;
  g_autofree char *number = NULL;

  if (result->status != 0)
    g_error ("hotpath-cli report --format json failed with exit %d: %s",
             result->status, result->err);

  /* The contract puts "samples" at the top level; no nested object has a
   * key of that name, so the first match is the one. */
  regex = g_regex_new ("\"samples\"\\s*:\\s*([0-9]+)", 0, 0, NULL);
  if (!g_regex_match (regex, result->out, 0, &match))
    g_error ("report --format json has no \"samples\": %.200s", result->out);
  number = g_match_info_fetch (match, 1);
  return g_ascii_strtoll (number, NULL, 10);
}

void
it_write_small_capture (const char *path,
                        const char *command)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 module, main_fn, work_fn, main_frame, work_frame, root, leaf;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  if (command != NULL)
    hp_capture_writer_set_metadata (w, "command", command);
  hp_capture_writer_set_process (w, 1, "app");
  hp_capture_writer_set_thread (w, 1, 1, "app");
  module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  main_fn = hp_capture_writer_intern_function (w, "main", module, NULL, 0);
  work_fn = hp_capture_writer_intern_function (w, "work", module, NULL, 0);
  main_frame = hp_capture_writer_intern_frame (w, main_fn, NULL, 0, FALSE, 0x10);
  work_frame = hp_capture_writer_intern_frame (w, work_fn, NULL, 0, FALSE, 0x20);
  root = hp_capture_writer_intern_stack (w, 0, main_frame);
  leaf = hp_capture_writer_intern_stack (w, root, work_frame);
  for (guint i = 0; i < 10; i++)
    hp_capture_writer_add_sample (w, 1000 + i, 1, 0, leaf, 1);
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
}
