/* hp-record-plan.c - a recording as the window plans it, without GTK
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * What the record dialog does between Start and the result page, apart
 * from showing it: check the plan against the disk (the program as execvp
 * would find it, the folders, the process), name the capture and its log,
 * run the recorder and gather how it went. The dialog (ui/) calls
 * hp_record_plan_prepare() from a GTask worker and hp_record_job_run()
 * from a thread of its own; the unit tests call them without a display.
 *
 * The messages are the user's: whole translatable sentences that say what
 * to do, each error coded with the choice it belongs to.
 */

#define G_LOG_DOMAIN "hp-record"

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "record/hp-events.h"
#include "record/hp-record-plan.h"
#include "record/hp-recorder.h"
#include "store/hp-capture-writer.h"

/* A name taken this many times in one second means something else is
 * wrong with the folder. */
#define MAX_NAME_TRIES 1000
#define OUTPUT_TAIL_LINES 8
#define OUTPUT_TAIL_BYTES 4096

G_DEFINE_QUARK (hp-record-plan-error, hp_record_plan_error)

void
hp_record_plan_free (HpRecordPlan *plan)
{
  if (plan == NULL)
    return;
  g_strfreev (plan->argv);
  g_free (plan->working_directory);
  g_free (plan->folder);
  g_strfreev (plan->events);
  g_free (plan);
}

void
hp_record_prepared_free (HpRecordPrepared *prep)
{
  if (prep == NULL)
    return;
  g_strfreev (prep->argv);
  g_free (prep->working_directory);
  g_free (prep->capture_path);
  g_free (prep->log_path);
  if (prep->log_fd >= 0)
    close (prep->log_fd);
  g_free (prep);
}

void
hp_record_job_free (HpRecordJob *job)
{
  if (job == NULL)
    return;
  g_clear_pointer (&job->recorder, hp_recorder_free);
  g_free (job->capture_path);
  g_free (job->log_path);
  if (job->log_fd >= 0)
    close (job->log_fd);
  g_free (job);
}

void
hp_record_outcome_free (HpRecordOutcome *outcome)
{
  if (outcome == NULL)
    return;
  g_clear_error (&outcome->error);
  g_free (outcome->event);
  g_free (outcome->output_tail);
  g_free (outcome->warning);
  g_free (outcome->saved_as);
  g_free (outcome);
}

/* Paths ------------------------------------------------------------------- */

char *
hp_record_expand_home (const char *path)
{
  g_return_val_if_fail (path != NULL, NULL);

  if (g_str_equal (path, "~"))
    return g_strdup (g_get_home_dir ());
  if (g_str_has_prefix (path, "~/"))
    return g_build_filename (g_get_home_dir (), path + 2, NULL);
  return g_strdup (path);
}

char *
hp_record_default_folder (void)
{
  const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);

  return g_strdup (documents != NULL ? documents : g_get_home_dir ());
}

char *
hp_record_display_path (const char *path)
{
  const char *home = g_get_home_dir ();
  gsize n = strlen (home);

  g_return_val_if_fail (path != NULL, NULL);

  if (g_str_equal (path, home))
    return g_strdup ("~");
  if (n > 1 && g_str_has_prefix (path, home) && path[n] == '/')
    return g_strconcat ("~", path + n, NULL);
  return g_filename_display_name (path);
}

char *
hp_record_display_paths_in (const char *text)
{
  const char *home = g_get_home_dir ();
  gsize n = strlen (home);
  GString *shown;
  const char *at;

  g_return_val_if_fail (text != NULL, NULL);

  /* "/" is everything's home: nothing to shorten */
  if (n <= 1 || home[0] != '/')
    return g_strdup (text);
  shown = g_string_sized_new (strlen (text));
  for (at = text; *at != '\0';)
    {
      const char *found = strstr (at, home);
      char before, after;

      if (found == NULL)
        break;
      before = found > text ? found[-1] : ' ';
      after = found[n];
      g_string_append_len (shown, at, found - at);
      if (!g_ascii_isalnum (before) && strchr ("/._-~", before) == NULL &&
          (after == '/' || after == '\0' || g_ascii_isspace (after) || strchr ("\"'”’),:;", after) != NULL))
        g_string_append_c (shown, '~');
      else
        g_string_append_len (shown, found, n);
      at = found + n;
    }
  g_string_append (shown, at);
  return g_string_free (shown, FALSE);
}

char *
hp_record_capture_stem (GDateTime *time,
                        guint      n)
{
  g_autofree char *stamp = NULL;

  g_return_val_if_fail (time != NULL, NULL);

  stamp = g_date_time_format (time, "%Y%m%d-%H%M%S");
  return n <= 1 ? g_strdup_printf ("hotpath-%s", stamp) : g_strdup_printf ("hotpath-%s-%u", stamp, n);
}

/* Preparing ----------------------------------------------------------------- */

/* Checked as execvp would find it, so that a typo is an inline error
 * rather than a failed recording. A name without a slash is looked up in
 * PATH (the recorder does the same); a path is taken relative to the
 * working folder, where the program runs. */
char *
hp_record_resolve_program (const char  *program,
                           const char  *working_directory,
                           GError     **error)
{
  g_autofree char *path = NULL;
  g_autofree char *shown = NULL;

  g_return_val_if_fail (program != NULL, NULL);

  if (strchr (program, '/') == NULL)
    {
      char *found = g_find_program_in_path (program);

      if (found == NULL)
        g_set_error (error, HP_RECORD_PLAN_ERROR, HP_RECORD_PLAN_ERROR_COMMAND,
                     _("There is no program “%s” in the folders of PATH. Check its spelling, or give its path, as in ./%s."),
                     program, program);
      return found;
    }

  {
    g_autofree char *expanded = hp_record_expand_home (program);

    path = g_canonicalize_filename (expanded, working_directory);
  }
  shown = hp_record_display_path (path);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    g_set_error (error, HP_RECORD_PLAN_ERROR, HP_RECORD_PLAN_ERROR_COMMAND, _("%s does not exist."), shown);
  else if (g_file_test (path, G_FILE_TEST_IS_DIR))
    g_set_error (error, HP_RECORD_PLAN_ERROR, HP_RECORD_PLAN_ERROR_COMMAND, _("%s is a folder, not a program."), shown);
  else if (!g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
    g_set_error (error, HP_RECORD_PLAN_ERROR, HP_RECORD_PLAN_ERROR_COMMAND,
                 _("%s is not executable: its permissions do not allow running it."), shown);
  else
    return g_steal_pointer (&path);
  return NULL;
}

static gboolean
prepare_folder (const char  *folder,
                GError     **error)
{
  g_autofree char *shown = hp_record_display_path (folder);

  if (g_mkdir_with_parents (folder, 0755) != 0)
    {
      int errsv = errno;

      g_set_error (error, HP_RECORD_PLAN_ERROR, HP_RECORD_PLAN_ERROR_FOLDER,
                   _("Cannot create the folder %s for the capture: %s"), shown, g_strerror (errsv));
      return FALSE;
    }
  if (access (folder, W_OK) != 0)
    {
      int errsv = errno;

      g_set_error (error, HP_RECORD_PLAN_ERROR, HP_RECORD_PLAN_ERROR_FOLDER,
                   _("Cannot save the capture in %s: %s"), shown, g_strerror (errsv));
      return FALSE;
    }
  return TRUE;
}

gboolean
hp_record_plan_check_events (const HpRecordPlan  *plan,
                             GError             **error)
{
  int paranoid;

  g_return_val_if_fail (plan != NULL, FALSE);

  for (guint i = 0; plan->events != NULL && plan->events[i] != NULL; i++)
    {
      HpEvent event = { 0 };
      g_autoptr(GError) local = NULL;

      if (!hp_event_lookup (plan->events[i], &event, &local))
        {
          g_set_error_literal (error, HP_RECORD_PLAN_ERROR, HP_RECORD_PLAN_ERROR_EVENTS, local->message);
          return FALSE;
        }
      hp_event_clear (&event);
    }
  if (plan->off_cpu)
    {
      HpEvent event = { 0 };
      g_autoptr(GError) local = NULL;

      if (!hp_event_lookup (HP_EVENT_OFF_CPU, &event, &local))
        {
          /* Translators: the reason follows, naming what is needed (root, tracefs) */
          g_set_error (error, HP_RECORD_PLAN_ERROR, HP_RECORD_PLAN_ERROR_EVENTS,
                       _("Off-CPU time cannot be recorded here: %s"), local->message);
          return FALSE;
        }
      hp_event_clear (&event);
    }
  if (plan->system_wide && geteuid () != 0 && (paranoid = hp_recorder_read_paranoid ()) > 0)
    {
      g_set_error (error, HP_RECORD_PLAN_ERROR, HP_RECORD_PLAN_ERROR_EVENTS,
                   _("Recording the whole system needs root, or kernel.perf_event_paranoid at 0 or below, "
                     "and it is %d here. Run Hotpath as root, or allow it with "
                     "“sudo sysctl kernel.perf_event_paranoid=0”."), paranoid);
      return FALSE;
    }
  return TRUE;
}

HpRecordPrepared *
hp_record_plan_prepare (const HpRecordPlan  *plan,
                        GDateTime           *time,
                        GError             **error)
{
  g_autoptr(HpRecordPrepared) prep = g_new0 (HpRecordPrepared, 1);
  g_autoptr(GDateTime) now = time != NULL ? g_date_time_ref (time) : g_date_time_new_now_local ();
  g_autofree char *folder = NULL;
  g_autofree char *logs = NULL;

  g_return_val_if_fail (plan != NULL, NULL);

  prep->log_fd = -1;

  if (!hp_record_plan_check_events (plan, error))
    return NULL;
  if (plan->argv != NULL)
    {
      g_autofree char *program = NULL;

      prep->working_directory = plan->working_directory != NULL && plan->working_directory[0] != '\0' ?
                                hp_record_expand_home (plan->working_directory) : g_strdup (g_get_home_dir ());
      if (!g_file_test (prep->working_directory, G_FILE_TEST_IS_DIR))
        {
          g_autofree char *shown = hp_record_display_path (prep->working_directory);

          g_set_error (error, HP_RECORD_PLAN_ERROR, HP_RECORD_PLAN_ERROR_DIRECTORY, _("There is no folder %s."), shown);
          return NULL;
        }
      program = hp_record_resolve_program (plan->argv[0], prep->working_directory, error);
      if (program == NULL)
        return NULL;
      prep->argv = g_strdupv (plan->argv);
      if (strchr (plan->argv[0], '/') != NULL)
        {
          g_free (prep->argv[0]);
          prep->argv[0] = g_steal_pointer (&program);
        }
    }
  else if (!plan->system_wide || plan->pid > 0)
    {
      g_autofree char *proc = g_strdup_printf ("/proc/%d", (int) plan->pid);

      if (!g_file_test (proc, G_FILE_TEST_IS_DIR))
        {
          g_set_error (error, HP_RECORD_PLAN_ERROR, HP_RECORD_PLAN_ERROR_PROCESS,
                       _("Process %d has exited. Read the list again and choose another."), (int) plan->pid);
          return NULL;
        }
    }

  folder = plan->folder != NULL && plan->folder[0] != '\0' ? hp_record_expand_home (plan->folder)
                                                           : hp_record_default_folder ();
  if (!prepare_folder (folder, error))
    return NULL;
  logs = g_build_filename (g_get_user_cache_dir (), "hotpath", "logs", NULL);
  if (plan->argv != NULL && g_mkdir_with_parents (logs, 0700) != 0)
    {
      int errsv = errno;

      g_set_error (error, HP_RECORD_PLAN_ERROR, HP_RECORD_PLAN_ERROR_FOLDER,
                   _("Cannot create the folder %s for the program’s output: %s"), logs, g_strerror (errsv));
      return NULL;
    }

  /* hotpath-DATE-TIME.hotpath, or -2, -3… when recordings start within
   * the same second; the log is named after its capture */
  for (guint n = 1; prep->capture_path == NULL; n++)
    {
      g_autofree char *base = hp_record_capture_stem (now, n);
      g_autofree char *name = g_strconcat (base, ".hotpath", NULL);
      g_autofree char *path = g_build_filename (folder, name, NULL);

      if (n > MAX_NAME_TRIES)
        {
          g_set_error (error, HP_RECORD_PLAN_ERROR, HP_RECORD_PLAN_ERROR_FOLDER,
                       _("Cannot find a free name for the capture in %s."), folder);
          return NULL;
        }
      if (g_file_test (path, G_FILE_TEST_EXISTS))
        continue;
      prep->capture_path = g_steal_pointer (&path);
      if (plan->argv != NULL)
        {
          g_autofree char *log_name = g_strconcat (base, ".log", NULL);

          prep->log_path = g_build_filename (logs, log_name, NULL);
        }
    }

  if (prep->log_path != NULL)
    {
      prep->log_fd = g_open (prep->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
      if (prep->log_fd < 0)
        {
          int errsv = errno;

          g_set_error (error, HP_RECORD_PLAN_ERROR, HP_RECORD_PLAN_ERROR_FOLDER,
                       _("Cannot create the log %s for the program’s output: %s"),
                       prep->log_path, g_strerror (errsv));
          return NULL;
        }
    }

  return g_steal_pointer (&prep);
}

/* Recording ----------------------------------------------------------------- */

HpRecordJob *
hp_record_job_new (const HpRecordPlan *plan,
                   HpRecordPrepared   *prep)
{
  HpRecordOptions options = { 0 };
  HpRecordJob *job;

  g_return_val_if_fail (plan != NULL, NULL);
  g_return_val_if_fail (prep != NULL, NULL);

  options.argv = prep->argv;
  options.pid = plan->pid;
  options.working_directory = prep->working_directory;
  options.frequency = plan->frequency;
  options.duration = plan->duration;
  options.output_fd = prep->log_fd;
  options.call_graph = plan->call_graph;
  /* the kernel copies whole words of stack */
  options.stack_size = MIN ((plan->stack_size + 7) / 8 * 8, HP_RECORD_MAX_STACK_SIZE);
  /* the recorder copies them */
  options.events = (const char *const *) plan->events;
  options.off_cpu = plan->off_cpu;
  options.system_wide = plan->system_wide;

  job = g_new0 (HpRecordJob, 1);
  job->recorder = hp_recorder_new (&options);
  job->capture_path = g_strdup (prep->capture_path);
  job->log_path = g_strdup (prep->log_path);
  job->log_fd = prep->log_fd;
  prep->log_fd = -1;
  return job;
}

char *
hp_record_read_output_tail (const char *path)
{
  g_autofree char *buf = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) tail = g_string_new (NULL);
  g_autofree char *valid = NULL;
  goffset size;
  int fd;
  ssize_t n;
  guint count, first;

  if (path == NULL || (fd = g_open (path, O_RDONLY | O_CLOEXEC, 0)) < 0)
    return NULL;
  size = lseek (fd, 0, SEEK_END);
  lseek (fd, size > OUTPUT_TAIL_BYTES ? size - OUTPUT_TAIL_BYTES : 0, SEEK_SET);
  buf = g_malloc (OUTPUT_TAIL_BYTES + 1);
  n = read (fd, buf, OUTPUT_TAIL_BYTES);
  close (fd);
  if (n <= 0)
    return NULL;
  buf[n] = '\0';
  valid = g_utf8_make_valid (buf, n);
  g_strchomp (valid);
  if (valid[0] == '\0')
    return NULL;

  lines = g_strsplit (valid, "\n", -1);
  count = g_strv_length (lines);
  /* the first line may be cut when the output was longer than we read */
  first = count > OUTPUT_TAIL_LINES ? count - OUTPUT_TAIL_LINES : (size > OUTPUT_TAIL_BYTES ? 1 : 0);
  if (first > 0 || size > OUTPUT_TAIL_BYTES)
    g_string_append (tail, "…\n");
  for (guint i = MIN (first, count - 1); i < count; i++)
    {
      g_string_append (tail, lines[i]);
      if (i + 1 < count)
        g_string_append_c (tail, '\n');
    }
  return g_string_free (g_steal_pointer (&tail), FALSE);
}

HpRecordOutcome *
hp_record_job_run (HpRecordJob *job)
{
  HpRecordOutcome *outcome;
  HpRecordProgress progress;
  gboolean ok;

  g_return_val_if_fail (job != NULL, NULL);

  outcome = g_new0 (HpRecordOutcome, 1);
  ok = hp_recorder_run (job->recorder, job->capture_path, &outcome->result, &outcome->error);
  if (job->log_fd >= 0)
    {
      close (job->log_fd);
      job->log_fd = -1;
    }
  outcome->output_tail = hp_record_read_output_tail (job->log_path);
  if (!ok)
    outcome->saved_as = g_strdup (hp_recorder_get_saved_as (job->recorder));

  if (ok)
    {
      hp_recorder_get_progress (job->recorder, &progress);
      outcome->samples = progress.samples;
      outcome->lost = progress.lost;
      outcome->elapsed = progress.elapsed;
      outcome->event = g_strdup (hp_recorder_get_event (job->recorder));
      /* The window must say what the CLI says: a capture cut short by a
       * full disk is not a recording that went well. */
      if (hp_recorder_get_write_error (job->recorder) != NULL)
        {
          outcome->cut_short = TRUE;
          outcome->warning = g_strdup_printf (_("%s. The recording stopped there: the capture holds what was written until then."),
                                              hp_recorder_get_write_error (job->recorder)->message);
        }
      else if (hp_recorder_get_note (job->recorder) != NULL)
        outcome->warning = g_strdup (hp_recorder_get_note (job->recorder));

      /* a capture without a sample would only open to an empty window */
      outcome->kept = outcome->samples > 0;
      if (!outcome->kept)
        hp_capture_writer_remove_files (job->capture_path);
    }
  return outcome;
}
