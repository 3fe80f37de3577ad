/* hp-record-dialog.c - records a program or a process from the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The dialog behind the window's Record button. It goes through states,
 * each a page of state_stack with its own header-bar buttons:
 *
 *   setup      what to record (a command line and its working folder, or
 *              a running process), how (frequency, call stacks, time
 *              limit) and where (the folder for new captures). Every
 *              choice is a GSettings key bound to its widget, so the next
 *              dialog starts from the last choices.
 *   preparing  a worker checks what needs the disk: the program (in PATH
 *              or at the path given, relative to the working folder), the
 *              folders, a free capture name, and creates the log file.
 *              A problem goes back to setup as an inline error beside the
 *              field that caused it.
 *   recording  hp_recorder_run() blocks for as long as the recording
 *              lasts, so it runs in a thread of its own (not GTask's
 *              shared pool, which loads captures meanwhile). The recorder's
 *              progress is thread-safe and read every PROGRESS_INTERVAL_MS
 *              on the main loop; Stop calls hp_recorder_stop().
 *   done       the capture opens in the window that opened the dialog
 *              when that one is empty, else in a new window.
 *   failed     the reason in words: the recorder's (perf_event_open
 *              refused, with the fix; the program could not run), or
 *              ours: no sample was taken, or the program exited at once
 *              with an error. The end of the program's output is shown.
 *
 * The command's stdout and stderr go to
 * $XDG_CACHE_HOME/hotpath/logs/CAPTURE-NAME.log, which Show Output opens.
 *
 * Closing the dialog while recording stops the recording; the dialog goes
 * away once the capture is written (and it opens). When the dialog is
 * destroyed instead (its window closed, the application quitting), the
 * recording stops and the capture stays on disk unopened; the application
 * is held until it is written.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include "store/hp-capture-keys.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "record/hp-recorder.h"
#include "store/hp-capture.h"
#include "ui/hp-application.h"
#include "ui/hp-cell.h"
#include "ui/hp-format.h"
#include "ui/hp-process-item.h"
#include "ui/hp-record-dialog-private.h"
#include "ui/hp-window.h"

/* Four times a second: the elapsed time reads as running, and a main loop
 * that stalled would show as a gap in the dialog's statistics. */
#define PROGRESS_INTERVAL_MS 250
/* A program that fails within this time was most likely misspelled or
 * given wrong arguments, rather than profiled. */
#define EXITED_AT_ONCE_S 1.0
#define OUTPUT_TAIL_LINES 8
#define OUTPUT_TAIL_BYTES 4096

typedef enum {
  STATE_SETUP,
  STATE_PREPARING,
  STATE_RECORDING,
  STATE_DONE,
  STATE_FAILED,
} State;

/* Which field of the setup page a preparing error belongs to */
#define HP_RECORD_SETUP_ERROR (hp_record_setup_error_quark ())
static G_DEFINE_QUARK (hp-record-setup-error, hp_record_setup_error)

typedef enum {
  FIELD_COMMAND,
  FIELD_DIRECTORY,
  FIELD_PROCESS,
  FIELD_FOLDER,
} Field;

/* What Start read from the dialog: the preparing worker's own copy */
typedef struct {
  char  **argv;               /* NULL when attaching */
  char   *working_directory;  /* as typed; "" for the home folder */
  GPid    pid;
  char   *folder;             /* as set; "" for the default */
} Plan;

/* What the preparing worker made ready */
typedef struct {
  char **argv;                /* argv[0] made absolute when it was a path */
  char  *working_directory;
  char  *capture_path;
  char  *log_path;            /* NULL when attaching: nothing to log */
  int    log_fd;
} Prepared;

/* A recording: the data of the run task, alive until its end is shown */
typedef struct {
  HpRecorder *recorder;
  char       *capture_path;
  char       *log_path;
  int         log_fd;
  guint       frequency;
} Job;

/* How it went, from the recording thread */
typedef struct {
  GError   *error;            /* hp_recorder_run() failed */
  guint64   samples;
  guint64   lost;
  double    elapsed;
  char     *event;
  gboolean  kept;             /* the capture is on disk */
  gboolean  exited;           /* with exit_status */
  int       exit_status;
  char     *exit_signal;
  char     *output_tail;      /* last lines of the log, or NULL */
  guint     max_sample_rate;  /* the kernel's, when over it; else 0 */
} Outcome;

struct _HpRecordDialog {
  GtkWindow             parent_instance;

  GtkWidget            *cancel_button;
  GtkWidget            *again_button;
  GtkWidget            *start_button;
  GtkWidget            *stop_button;
  GtkWidget            *close_button;
  GtkStack             *state_stack;
  GtkStack             *target_stack;
  GtkEntry             *command_entry;
  GtkLabel             *command_error;
  GtkEntry             *directory_entry;
  GtkLabel             *directory_error;
  GtkSearchEntry       *process_search;
  GtkColumnView        *process_view;
  GtkColumnViewColumn  *name_column;
  GtkColumnViewColumn  *pid_column;
  GtkColumnViewColumn  *user_column;
  GtkColumnViewColumn  *command_column;
  GtkLabel             *process_status;
  GtkLabel             *process_error;
  GtkAdjustment        *frequency_adjustment;
  GtkAdjustment        *stack_size_adjustment;
  GtkSpinButton        *stack_size_spin;
  GtkWidget            *stack_size_label;
  GtkCheckButton       *duration_check;
  GtkSpinButton        *duration_spin;
  GtkLabel             *folder_label;
  GtkLabel             *setup_error;
  GtkLabel             *recording_title;
  GtkLabel             *recording_command;
  GtkLabel             *elapsed_label;
  GtkLabel             *samples_label;
  GtkLabel             *lost_label;
  GtkLabel             *recording_hint;
  GtkWidget            *recording_log_button;
  GtkImage             *result_icon;
  GtkLabel             *result_title;
  GtkLabel             *result_message;
  GtkLabel             *result_note;
  GtkWidget            *result_output_frame;
  GtkLabel             *result_output;
  GtkWidget            *result_log_button;
  GtkWidget            *result_open_button;

  GSettings            *settings;
  char                 *target;        /* "launch" or "attach" */
  char                 *call_graph;    /* "dwarf" or "fp" */
  char                 *folder;        /* "" for the default */

  State                 state;
  gboolean              disposed;
  GtkWindow            *parent;        /* weak */
  GApplication         *app;           /* held while recording */

  GCancellable         *prepare_cancellable;
  GTask                *run_task;
  Job                  *job;           /* the run task's data */
  guint                 progress_source;
  HpRecordDialogStats   stats;
  gint64                last_update_us;
  gboolean              stopped;       /* by Stop, or by closing the dialog */
  gboolean              close_when_done;

  /* of the recording shown */
  char                 *command_text;
  char                 *program_name;
  gboolean              spawned;
  double                duration;      /* 0: no time limit */
  gboolean              setting_duration;
  char                 *capture_path;
  char                 *log_path;
  char                 *message;
  gboolean              capture_kept;

  GtkFilterListModel   *process_filter;
  GtkStringFilter      *process_string_filter;
  GtkSingleSelection   *process_selection;
  GCancellable         *list_cancellable;
  gboolean              listed;

  HpLogWindow          *log_window;    /* weak */
};

G_DEFINE_FINAL_TYPE (HpRecordDialog, hp_record_dialog, GTK_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_TARGET,
  PROP_CALL_GRAPH,
  PROP_DURATION,
  PROP_FOLDER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void set_state (HpRecordDialog *self,
                       State           state);

/* Plans and results ----------------------------------------------------- */

static void
plan_free (Plan *plan)
{
  g_strfreev (plan->argv);
  g_free (plan->working_directory);
  g_free (plan->folder);
  g_free (plan);
}

static void
prepared_free (Prepared *prep)
{
  g_strfreev (prep->argv);
  g_free (prep->working_directory);
  g_free (prep->capture_path);
  g_free (prep->log_path);
  if (prep->log_fd >= 0)
    close (prep->log_fd);
  g_free (prep);
}

static void
job_free (Job *job)
{
  g_clear_pointer (&job->recorder, hp_recorder_free);
  g_free (job->capture_path);
  g_free (job->log_path);
  if (job->log_fd >= 0)
    close (job->log_fd);
  g_free (job);
}

static void
outcome_free (Outcome *outcome)
{
  g_clear_error (&outcome->error);
  g_free (outcome->event);
  g_free (outcome->exit_signal);
  g_free (outcome->output_tail);
  g_free (outcome);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Outcome, outcome_free)

/* "~/x" as a shell would read it */
static char *
expand_home (const char *path)
{
  if (g_str_equal (path, "~"))
    return g_strdup (g_get_home_dir ());
  if (g_str_has_prefix (path, "~/"))
    return g_build_filename (g_get_home_dir (), path + 2, NULL);
  return g_strdup (path);
}

static char *
default_folder (void)
{
  const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);

  return g_strdup (documents != NULL ? documents : g_get_home_dir ());
}

/* "~/Documents" for a path under the home folder */
static char *
display_path (const char *path)
{
  const char *home = g_get_home_dir ();
  gsize n = strlen (home);

  if (g_str_equal (path, home))
    return g_strdup ("~");
  if (n > 1 && g_str_has_prefix (path, home) && path[n] == '/')
    return g_strconcat ("~", path + n, NULL);
  return g_filename_display_name (path);
}

/* Preparing (worker) ------------------------------------------------------ */

/* The program the recorder will run, checked as execvp would find it, so
 * that a typo is an inline error rather than a failed recording. A name
 * without a slash is looked up in PATH (the recorder does the same); a
 * path is taken relative to the working folder, where the program runs. */
static char *
resolve_program (const char  *program,
                 const char  *working_directory,
                 GError     **error)
{
  g_autofree char *path = NULL;
  g_autofree char *shown = NULL;

  if (strchr (program, '/') == NULL)
    {
      char *found = g_find_program_in_path (program);

      if (found == NULL)
        g_set_error (error, HP_RECORD_SETUP_ERROR, FIELD_COMMAND,
                     _("There is no program “%s” in the folders of PATH. Check its spelling, or give its path, as in ./%s."),
                     program, program);
      return found;
    }

  {
    g_autofree char *expanded = expand_home (program);

    path = g_canonicalize_filename (expanded, working_directory);
  }
  shown = display_path (path);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    g_set_error (error, HP_RECORD_SETUP_ERROR, FIELD_COMMAND, _("%s does not exist."), shown);
  else if (g_file_test (path, G_FILE_TEST_IS_DIR))
    g_set_error (error, HP_RECORD_SETUP_ERROR, FIELD_COMMAND, _("%s is a folder, not a program."), shown);
  else if (!g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
    g_set_error (error, HP_RECORD_SETUP_ERROR, FIELD_COMMAND,
                 _("%s is not executable: its permissions do not allow running it."), shown);
  else
    return g_steal_pointer (&path);
  return NULL;
}

static gboolean
prepare_folder (const char  *folder,
                GError     **error)
{
  g_autofree char *shown = display_path (folder);

  if (g_mkdir_with_parents (folder, 0755) != 0)
    {
      int errsv = errno;

      g_set_error (error, HP_RECORD_SETUP_ERROR, FIELD_FOLDER,
                   _("Cannot create the folder %s for the capture: %s"), shown, g_strerror (errsv));
      return FALSE;
    }
  if (access (folder, W_OK) != 0)
    {
      int errsv = errno;

      g_set_error (error, HP_RECORD_SETUP_ERROR, FIELD_FOLDER,
                   _("Cannot save the capture in %s: %s"), shown, g_strerror (errsv));
      return FALSE;
    }
  return TRUE;
}

static void
prepare_worker (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  const Plan *plan = task_data;
  Prepared *prep = g_new0 (Prepared, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *folder = NULL;
  g_autofree char *logs = NULL;

  prep->log_fd = -1;

  if (plan->argv != NULL)
    {
      g_autofree char *program = NULL;

      prep->working_directory = plan->working_directory[0] != '\0' ?
                                expand_home (plan->working_directory) : g_strdup (g_get_home_dir ());
      if (!g_file_test (prep->working_directory, G_FILE_TEST_IS_DIR))
        {
          g_autofree char *shown = display_path (prep->working_directory);

          g_set_error (&error, HP_RECORD_SETUP_ERROR, FIELD_DIRECTORY, _("There is no folder %s."), shown);
          goto fail;
        }
      program = resolve_program (plan->argv[0], prep->working_directory, &error);
      if (program == NULL)
        goto fail;
      prep->argv = g_strdupv (plan->argv);
      if (strchr (plan->argv[0], '/') != NULL)
        {
          g_free (prep->argv[0]);
          prep->argv[0] = g_steal_pointer (&program);
        }
    }
  else
    {
      g_autofree char *proc = g_strdup_printf ("/proc/%d", (int) plan->pid);

      if (!g_file_test (proc, G_FILE_TEST_IS_DIR))
        {
          g_set_error (&error, HP_RECORD_SETUP_ERROR, FIELD_PROCESS,
                       _("Process %d has exited. Read the list again and choose another."), (int) plan->pid);
          goto fail;
        }
    }

  folder = plan->folder[0] != '\0' ? expand_home (plan->folder) : default_folder ();
  if (!prepare_folder (folder, &error))
    goto fail;
  logs = g_build_filename (g_get_user_cache_dir (), "hotpath", "logs", NULL);
  if (plan->argv != NULL && g_mkdir_with_parents (logs, 0700) != 0)
    {
      int errsv = errno;

      g_set_error (&error, HP_RECORD_SETUP_ERROR, FIELD_FOLDER,
                   _("Cannot create the folder %s for the program’s output: %s"), logs, g_strerror (errsv));
      goto fail;
    }

  /* hotpath-DATE-TIME.hotpath, or -2, -3… when recordings start within
   * the same second; the log is named after its capture */
  for (guint n = 1; prep->capture_path == NULL; n++)
    {
      g_autofree char *base = n == 1 ? g_strdup_printf ("hotpath-%s", stamp) :
                                       g_strdup_printf ("hotpath-%s-%u", stamp, n);
      g_autofree char *name = g_strconcat (base, ".hotpath", NULL);
      g_autofree char *path = g_build_filename (folder, name, NULL);

      if (n > 1000)
        {
          g_set_error (&error, HP_RECORD_SETUP_ERROR, FIELD_FOLDER,
                       _("Cannot find a free name for the capture in %s."), folder);
          goto fail;
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

          g_set_error (&error, HP_RECORD_SETUP_ERROR, FIELD_FOLDER,
                       _("Cannot create the log %s for the program’s output: %s"),
                       prep->log_path, g_strerror (errsv));
          goto fail;
        }
    }

  g_task_return_pointer (task, prep, (GDestroyNotify) prepared_free);
  return;

fail:
  prepared_free (prep);
  g_task_return_error (task, g_steal_pointer (&error));
}

/* Recording (its own thread) ---------------------------------------------- */

static char *
read_output_tail (const char *path)
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

static void
remove_capture (const char *path)
{
  static const char * const suffixes[] = { "", "-wal", "-shm", "-journal" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *p = g_strconcat (path, suffixes[i], NULL);

      g_unlink (p);
    }
}

static gpointer
run_thread (gpointer data)
{
  g_autoptr(GTask) task = data;
  Job *job = g_task_get_task_data (task);
  Outcome *outcome = g_new0 (Outcome, 1);
  HpRecordProgress progress;
  gboolean ok;

  ok = hp_recorder_run (job->recorder, job->capture_path, &outcome->error);
  if (job->log_fd >= 0)
    {
      close (job->log_fd);
      job->log_fd = -1;
    }
  outcome->output_tail = read_output_tail (job->log_path);

  /* the kernel lowers its limit by itself when sampling interrupts take
   * long, and then refuses a higher frequency with a bare EINVAL */
  if (!ok && g_error_matches (outcome->error, HP_RECORD_ERROR, HP_RECORD_ERROR_FAILED))
    {
      g_autofree char *contents = NULL;
      guint64 rate;

      if (g_file_get_contents ("/proc/sys/kernel/perf_event_max_sample_rate", &contents, NULL, NULL) &&
          g_ascii_string_to_unsigned (g_strstrip (contents), 10, 1, G_MAXUINT, &rate, NULL) &&
          job->frequency > rate)
        outcome->max_sample_rate = (guint) rate;
    }

  if (ok)
    {
      g_autoptr(HpCapture) capture = NULL;

      hp_recorder_get_progress (job->recorder, &progress);
      outcome->samples = progress.samples;
      outcome->lost = progress.lost;
      outcome->elapsed = progress.elapsed;
      outcome->event = g_strdup (hp_recorder_get_event (job->recorder));

      capture = hp_capture_open (job->capture_path, FALSE, NULL);
      if (capture != NULL)
        {
          g_autofree char *status = hp_capture_get_metadata (capture, HP_META_EXIT_STATUS);

          outcome->exit_signal = hp_capture_get_metadata (capture, HP_META_EXIT_SIGNAL);
          outcome->exited = status != NULL;
          outcome->exit_status = status != NULL ? atoi (status) : 0;
        }
      g_clear_pointer (&capture, hp_capture_close);

      /* a capture without a sample would only open to an empty window */
      outcome->kept = outcome->samples > 0;
      if (!outcome->kept)
        remove_capture (job->capture_path);
    }

  g_task_return_pointer (task, outcome, (GDestroyNotify) outcome_free);
  return NULL;
}

/* Showing progress and results ------------------------------------------- */

static void
set_label_count (GtkLabel *label,
                 guint64   count)
{
  g_autofree char *text = hp_format_count (count);

  gtk_label_set_text (label, text);
}

static gboolean
progress_tick (gpointer data)
{
  HpRecordDialog *self = data;
  HpRecordProgress progress;
  g_autofree char *elapsed = NULL;
  gint64 now = g_get_monotonic_time ();
  guint seconds;

  hp_recorder_get_progress (self->job->recorder, &progress);
  seconds = (guint) progress.elapsed;
  elapsed = g_strdup_printf ("%u:%02u", seconds / 60, seconds % 60);
  gtk_label_set_text (self->elapsed_label, elapsed);
  set_label_count (self->samples_label, progress.samples);
  set_label_count (self->lost_label, progress.lost);
  if (progress.lost > 0)
    gtk_widget_add_css_class (GTK_WIDGET (self->lost_label), "warning");

  if (self->stats.n_updates > 0)
    self->stats.max_gap_us = MAX (self->stats.max_gap_us, now - self->last_update_us);
  self->last_update_us = now;
  self->stats.n_updates++;
  self->stats.samples = progress.samples;
  self->stats.lost = progress.lost;
  return G_SOURCE_CONTINUE;
}

static char *
format_seconds (double seconds)
{
  return hp_format_duration ((guint64) (seconds * 1e9));
}

static void
show_output_tail (HpRecordDialog *self,
                  const char     *tail)
{
  gtk_label_set_text (self->result_output, tail ? tail : "");
  gtk_widget_set_visible (self->result_output_frame, tail != NULL);
}

static void
show_result (HpRecordDialog *self,
             gboolean        ok,
             const char     *title,
             const char     *message,
             const char     *note)
{
  gtk_image_set_from_icon_name (self->result_icon, ok ? "object-select-symbolic" : "dialog-error-symbolic");
  if (ok)
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->result_icon), "error-icon");
      gtk_widget_add_css_class (GTK_WIDGET (self->result_icon), "success-icon");
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->result_icon), "success-icon");
      gtk_widget_add_css_class (GTK_WIDGET (self->result_icon), "error-icon");
    }
  gtk_label_set_text (self->result_title, title);
  gtk_label_set_text (self->result_message, message);
  gtk_widget_set_visible (GTK_WIDGET (self->result_message), message != NULL && message[0] != '\0');
  gtk_label_set_text (self->result_note, note ? note : "");
  gtk_widget_set_visible (GTK_WIDGET (self->result_note), note != NULL && note[0] != '\0');
  g_free (self->message);
  self->message = g_strdup (message);
  set_state (self, ok ? STATE_DONE : STATE_FAILED);
}

/* Whole sentences, one per case, so that translations can order them */
static char *
describe_exit (HpRecordDialog *self,
               const Outcome  *outcome,
               const char     *duration,
               gboolean        no_sample)
{
  const char *name = self->program_name;

  if (outcome->exit_signal != NULL)
    /* Translators: program, signal description (“Segmentation fault”), duration */
    return no_sample ? g_strdup_printf (_("“%s” was ended by the signal “%s” after %s, before a sample was taken."),
                                        name, outcome->exit_signal, duration)
                     : g_strdup_printf (_("“%s” was ended by the signal “%s” after %s."),
                                        name, outcome->exit_signal, duration);
  if (outcome->exited)
    /* Translators: program, exit status, duration */
    return no_sample ? g_strdup_printf (_("“%s” exited with status %d after %s, before a sample was taken."),
                                        name, outcome->exit_status, duration)
                     : g_strdup_printf (_("“%s” exited with status %d after %s."),
                                        name, outcome->exit_status, duration);
  return NULL;
}

static void
open_capture (HpRecordDialog *self)
{
  g_autoptr(GFile) file = NULL;
  HpWindow *hint = NULL;

  if (self->capture_path == NULL || self->app == NULL || !HP_IS_APPLICATION (self->app))
    return;
  file = g_file_new_for_path (self->capture_path);
  if (self->parent != NULL && HP_IS_WINDOW (self->parent))
    hint = HP_WINDOW (self->parent);
  hp_application_open_file (HP_APPLICATION (self->app), file, hint);
}

static void
show_failure (HpRecordDialog *self,
              const GError   *error,
              guint           max_sample_rate)
{
  const char *title = _("Recording Failed");
  const char *note = NULL;
  g_autofree char *rate_note = NULL;

  if (error->domain == HP_RECORD_ERROR)
    switch (error->code)
      {
      case HP_RECORD_ERROR_PERMISSION:
        title = _("Not Allowed to Sample");
        note = _("The kernel decides who may use perf_event_open. After changing the setting, press Record Again.");
        break;
      case HP_RECORD_ERROR_NO_COMMAND:
        title = _("The Program Did Not Start");
        note = _("Check the command line and the working folder.");
        break;
      case HP_RECORD_ERROR_NO_PROCESS:
        title = _("The Process Is Gone");
        note = _("Press Record Again and choose a process that is running.");
        break;
      case HP_RECORD_ERROR_FAILED:
        if (max_sample_rate > 0)
          note = rate_note = g_strdup_printf (_("The kernel allows at most %u samples per second now "
                                                "(kernel.perf_event_max_sample_rate): choose a lower frequency."),
                                              max_sample_rate);
        break;
      default:
        break;
      }
  show_result (self, FALSE, title, error->message, note);
}

/* The run task's callback data. The task does not hold the dialog: a
 * dialog destroyed with its window must be disposed, which stops the
 * recording. The application is held until the capture is written. */
typedef struct {
  GWeakRef      dialog;
  GApplication *app;
} RunData;

static RunData *
run_data_new (HpRecordDialog *self)
{
  RunData *data = g_new0 (RunData, 1);

  g_weak_ref_init (&data->dialog, self);
  if (self->app != NULL)
    {
      data->app = g_object_ref (self->app);
      g_application_hold (data->app);
    }
  return data;
}

static void
run_data_free (RunData *data)
{
  g_weak_ref_clear (&data->dialog);
  if (data->app != NULL)
    {
      g_application_release (data->app);
      g_object_unref (data->app);
    }
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RunData, run_data_free)

static void show_outcome (HpRecordDialog *self,
                          Outcome        *outcome);

static void
run_done (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(RunData) data = user_data;
  g_autoptr(HpRecordDialog) self = g_weak_ref_get (&data->dialog);
  g_autoptr(Outcome) outcome = g_task_propagate_pointer (G_TASK (result), NULL);
  g_autofree char *path = g_strdup (((Job *) g_task_get_task_data (G_TASK (result)))->capture_path);

  if (self == NULL || self->disposed)
    {
      if (outcome->error != NULL)
        g_warning ("%s: recording failed after its dialog was closed: %s", path, outcome->error->message);
      else
        g_message ("%s: recorded after its dialog was closed, not opened", path);
      return;
    }
  g_clear_handle_id (&self->progress_source, g_source_remove);
  self->job = NULL;
  g_clear_object (&self->run_task);
  show_outcome (self, outcome);
}

static void
show_outcome (HpRecordDialog *self,
              Outcome        *outcome)
{
  g_autofree char *duration = NULL;
  gboolean by_limit;

  show_output_tail (self, outcome->output_tail);
  /* nothing to show when the program wrote nothing, or never ran */
  gtk_widget_set_visible (self->result_log_button, outcome->output_tail != NULL);
  gtk_widget_set_visible (self->result_open_button, FALSE);
  self->capture_kept = FALSE;

  if (outcome->error != NULL)
    {
      g_clear_pointer (&self->capture_path, g_free);
      show_failure (self, outcome->error, outcome->max_sample_rate);
      self->close_when_done = FALSE;
      return;
    }

  duration = format_seconds (outcome->elapsed);
  by_limit = self->duration > 0 && outcome->elapsed >= self->duration * 0.9;

  if (!outcome->kept)
    {
      g_autofree char *message = NULL;

      g_clear_pointer (&self->capture_path, g_free);
      if (self->spawned)
        message = describe_exit (self, outcome, duration, TRUE);
      if (message == NULL)
        message = g_strdup (_("The program did not run on a CPU while it was recorded, so no sample was taken."));
      show_result (self, FALSE, _("No Samples"), message,
                   self->spawned ? _("Its output below may tell why. Check the command line and the working folder.") : NULL);
      self->close_when_done = FALSE;
      return;
    }

  self->capture_kept = TRUE;
  if (self->spawned && !self->stopped && !by_limit && outcome->elapsed < EXITED_AT_ONCE_S &&
      (outcome->exit_signal != NULL || (outcome->exited && outcome->exit_status != 0)))
    {
      g_autofree char *message = describe_exit (self, outcome, duration, FALSE);
      g_autofree char *count = hp_format_count (outcome->samples);
      g_autofree char *note = g_strdup_printf (ngettext ("The capture holds %s sample only. The output below may tell what went wrong.",
                                                         "The capture holds %s samples only. The output below may tell what went wrong.",
                                                         outcome->samples), count);

      gtk_widget_set_visible (self->result_open_button, TRUE);
      show_result (self, FALSE, _("The Program Exited at Once"), message, note);
      self->close_when_done = FALSE;
      return;
    }

  {
    g_autofree char *name = g_path_get_basename (self->capture_path);
    g_autofree char *dir = g_path_get_dirname (self->capture_path);
    g_autofree char *shown_dir = display_path (dir);
    g_autofree char *message = NULL;
    g_autofree char *samples = hp_format_count (outcome->samples);
    g_autofree char *lost = hp_format_count (outcome->lost);
    g_autoptr(GString) note = g_string_new (NULL);

    /* Translators: file name, folder */
    message = g_strdup_printf (_("%s in %s"), name, shown_dir);
    /* Translators: samples, event name (cpu-clock), duration, lost samples */
    g_string_append_printf (note, ngettext ("%s sample of %s in %s, %s lost.", "%s samples of %s in %s, %s lost.",
                                            outcome->samples),
                            samples, outcome->event ? outcome->event : "?", duration, lost);
    if (self->spawned && (self->stopped || by_limit))
      g_string_append_printf (note, " %s", _("The program was ended when recording stopped."));
    else if (self->spawned && outcome->exit_signal != NULL)
      {
        g_string_append_c (note, ' ');
        g_string_append_printf (note, _("The program was ended by the signal “%s”."), outcome->exit_signal);
      }
    else if (self->spawned && outcome->exited)
      {
        g_string_append_c (note, ' ');
        g_string_append_printf (note, _("The program exited with status %d."), outcome->exit_status);
      }
    if (outcome->lost > 0)
      {
        g_string_append_c (note, ' ');
        g_string_append (note, _("Samples were lost because the kernel’s buffers filled faster than they were read: "
                                 "a lower frequency or a smaller stack copy loses fewer."));
      }
    if (!self->spawned || !outcome->exited || outcome->exit_status == 0 || self->stopped || by_limit)
      show_output_tail (self, NULL);
    show_result (self, TRUE, _("Recording Saved"), message, note->str);
  }

  open_capture (self);
  if (self->close_when_done)
    gtk_window_destroy (GTK_WINDOW (self));
}

static void
start_recording (HpRecordDialog *self,
                 Plan           *plan,
                 Prepared       *prep)
{
  HpRecordOptions options = { 0 };
  Job *job = g_new0 (Job, 1);
  g_autofree char *limit = NULL;
  g_autofree char *hint = NULL;

  options.argv = prep->argv;
  options.pid = plan->pid;
  options.working_directory = prep->working_directory;
  options.frequency = (guint) gtk_adjustment_get_value (self->frequency_adjustment);
  options.duration = self->duration;
  options.output_fd = prep->log_fd;
  options.call_graph = g_strcmp0 (self->call_graph, "fp") == 0 ? HP_CALL_GRAPH_FP : HP_CALL_GRAPH_DWARF;
  /* the kernel copies whole words of stack */
  options.stack_size = MIN (((guint) gtk_adjustment_get_value (self->stack_size_adjustment) + 7) / 8 * 8,
                            HP_RECORD_MAX_STACK_SIZE);

  job->recorder = hp_recorder_new (&options);
  job->capture_path = g_strdup (prep->capture_path);
  job->log_path = g_strdup (prep->log_path);
  job->log_fd = prep->log_fd;
  job->frequency = options.frequency;
  prep->log_fd = -1;

  g_free (self->capture_path);
  self->capture_path = g_strdup (prep->capture_path);
  g_free (self->log_path);
  self->log_path = g_strdup (prep->log_path);
  self->stopped = FALSE;
  memset (&self->stats, 0, sizeof self->stats);

  gtk_label_set_text (self->recording_command, self->command_text);
  /* an attached process writes where it always did */
  gtk_widget_set_visible (self->recording_log_button, self->log_path != NULL);
  gtk_label_set_text (self->elapsed_label, "0:00");
  gtk_label_set_text (self->samples_label, "0");
  gtk_label_set_text (self->lost_label, "0");
  gtk_widget_remove_css_class (GTK_WIDGET (self->lost_label), "warning");
  gtk_label_set_text (self->recording_title, _("Recording"));
  if (self->duration > 0)
    limit = format_seconds (self->duration);
  if (self->spawned && limit != NULL)
    hint = g_strdup_printf (_("Recording ends when the program exits, or after %s. Stop ends it sooner, and ends the program."),
                            limit);
  else if (self->spawned)
    hint = g_strdup (_("Recording ends when the program exits. Stop ends it sooner, and ends the program."));
  else if (limit != NULL)
    hint = g_strdup_printf (_("Recording ends after %s, or sooner when you press Stop or the process exits. "
                              "The process keeps running."), limit);
  else
    hint = g_strdup (_("Recording ends when you press Stop or when the process exits. The process keeps running."));
  gtk_label_set_text (self->recording_hint, hint);

  self->job = job;
  self->run_task = g_task_new (NULL, NULL, run_done, run_data_new (self));
  g_task_set_source_tag (self->run_task, start_recording);
  g_task_set_task_data (self->run_task, job, (GDestroyNotify) job_free);
  set_state (self, STATE_RECORDING);
  self->last_update_us = g_get_monotonic_time ();
  self->progress_source = g_timeout_add (PROGRESS_INTERVAL_MS, progress_tick, self);
  /* for as long as the recording lasts: a thread of its own */
  g_thread_unref (g_thread_new ("hp-record", run_thread, g_object_ref (self->run_task)));
}

/* Setup ------------------------------------------------------------------- */

static void
hide_errors (HpRecordDialog *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->command_error), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->directory_error), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->process_error), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->setup_error), FALSE);
  g_clear_pointer (&self->message, g_free);
}

static void
show_field_error (HpRecordDialog *self,
                  Field           field,
                  const char     *message)
{
  GtkLabel *label = self->setup_error;
  GtkWidget *focus = NULL;

  switch (field)
    {
    case FIELD_COMMAND:   label = self->command_error;   focus = GTK_WIDGET (self->command_entry);   break;
    case FIELD_DIRECTORY: label = self->directory_error; focus = GTK_WIDGET (self->directory_entry); break;
    case FIELD_PROCESS:   label = self->process_error;   focus = GTK_WIDGET (self->process_view);    break;
    case FIELD_FOLDER:
    default:
      break;
    }
  gtk_label_set_text (label, message);
  gtk_widget_set_visible (GTK_WIDGET (label), TRUE);
  g_free (self->message);
  self->message = g_strdup (message);
  if (focus != NULL)
    gtk_widget_grab_focus (focus);
}

static void
prepare_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (object);
  g_autoptr(GError) error = NULL;
  Prepared *prep = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->disposed)
    {
      g_clear_pointer (&prep, prepared_free);
      return;
    }
  g_clear_object (&self->prepare_cancellable);

  if (prep == NULL)
    {
      set_state (self, STATE_SETUP);
      show_field_error (self, error->domain == HP_RECORD_SETUP_ERROR ? error->code : FIELD_FOLDER, error->message);
      return;
    }
  start_recording (self, g_task_get_task_data (G_TASK (result)), prep);
  prepared_free (prep);
}

static void
start_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (widget);
  g_autoptr(GTask) task = NULL;
  Plan *plan;

  if (self->state != STATE_SETUP)
    return;
  hide_errors (self);

  plan = g_new0 (Plan, 1);
  plan->folder = g_strdup (self->folder ? self->folder : "");
  g_clear_pointer (&self->command_text, g_free);
  g_clear_pointer (&self->program_name, g_free);

  if (g_strcmp0 (self->target, "attach") != 0)
    {
      g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->command_entry))));
      g_autoptr(GError) error = NULL;

      if (text[0] == '\0')
        {
          show_field_error (self, FIELD_COMMAND, _("Enter the program to record and its arguments."));
          plan_free (plan);
          return;
        }
      if (!g_shell_parse_argv (text, NULL, &plan->argv, &error))
        {
          g_autofree char *message = g_strdup_printf (_("The command line cannot be split into arguments: %s"),
                                                      error->message);

          show_field_error (self, FIELD_COMMAND, message);
          plan_free (plan);
          return;
        }
      plan->working_directory = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->directory_entry))));
      self->command_text = g_steal_pointer (&text);
      self->program_name = g_path_get_basename (plan->argv[0]);
    }
  else
    {
      HpProcessItem *item = gtk_single_selection_get_selected_item (self->process_selection);

      if (item == NULL)
        {
          show_field_error (self, FIELD_PROCESS, _("Choose the process to record in the list."));
          plan_free (plan);
          return;
        }
      plan->pid = hp_process_item_get_pid (item);
      plan->working_directory = g_strdup ("");
      /* Translators: process name and pid */
      self->command_text = g_strdup_printf (_("%s (process %d)"), hp_process_item_get_name (item), (int) plan->pid);
      self->program_name = g_strdup (hp_process_item_get_name (item));
    }
  self->spawned = plan->argv != NULL;

  set_state (self, STATE_PREPARING);
  self->prepare_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->prepare_cancellable, prepare_done, NULL);
  g_task_set_source_tag (task, start_action);
  g_task_set_task_data (task, plan, (GDestroyNotify) plan_free);
  g_task_run_in_thread (task, prepare_worker);
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (widget);

  if (self->state != STATE_RECORDING || self->job == NULL)
    return;
  self->stopped = TRUE;
  hp_recorder_stop (self->job->recorder);
  gtk_label_set_text (self->recording_title, _("Stopping…"));
  gtk_label_set_text (self->recording_hint, _("Writing the capture."));
  gtk_widget_action_set_enabled (widget, "record.stop", FALSE);
}

static void
again_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (widget);

  if (self->state != STATE_DONE && self->state != STATE_FAILED)
    return;
  g_clear_pointer (&self->capture_path, g_free);
  self->capture_kept = FALSE;
  hide_errors (self);
  set_state (self, STATE_SETUP);
}

static void
open_log_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (widget);

  if (self->log_path == NULL)
    return;
  if (self->log_window == NULL)
    {
      HpLogWindow *window = hp_log_window_new (GTK_WINDOW (self), self->log_path);

      g_set_weak_pointer (&self->log_window, window);
    }
  else
    hp_log_window_reload (self->log_window);
  gtk_window_present (GTK_WINDOW (self->log_window));
}

static void
open_capture_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (widget);

  if (self->capture_kept)
    open_capture (self);
}

/* Folders ------------------------------------------------------------------ */

typedef void (*FolderChosen) (HpRecordDialog *self,
                              const char     *path);

static void
on_folder_response (GtkNativeDialog *chooser,
                    int              response,
                    HpRecordDialog  *self)
{
  FolderChosen chosen = g_object_get_data (G_OBJECT (chooser), "hp-chosen");

  if (response == GTK_RESPONSE_ACCEPT && !self->disposed)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL && g_file_peek_path (file) != NULL)
        chosen (self, g_file_peek_path (file));
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
  g_object_unref (self);
}

static void
choose_folder (HpRecordDialog *self,
               const char     *title,
               const char     *current,
               FolderChosen    chosen)
{
  GtkFileChooserNative *chooser;
  g_autofree char *start = current && current[0] != '\0' ? expand_home (current) : g_strdup (g_get_home_dir ());
  g_autoptr(GFile) folder = g_file_new_for_path (start);

  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                         _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
  g_object_set_data (G_OBJECT (chooser), "hp-chosen", chosen);
  g_signal_connect (chooser, "response", G_CALLBACK (on_folder_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
directory_chosen (HpRecordDialog *self,
                  const char     *path)
{
  gtk_editable_set_text (GTK_EDITABLE (self->directory_entry), path);
}

static void
choose_directory_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (widget);

  choose_folder (self, _("Working Folder of the Program"),
                 gtk_editable_get_text (GTK_EDITABLE (self->directory_entry)), directory_chosen);
}

static void
set_folder (HpRecordDialog *self,
            const char     *folder)
{
  g_autofree char *path = NULL;
  g_autofree char *shown = NULL;

  if (g_strcmp0 (self->folder, folder) == 0 && self->folder != NULL)
    return;
  g_free (self->folder);
  self->folder = g_strdup (folder ? folder : "");
  path = self->folder[0] != '\0' ? expand_home (self->folder) : default_folder ();
  shown = display_path (path);
  gtk_label_set_text (self->folder_label, shown);
  gtk_widget_set_tooltip_text (gtk_widget_get_parent (gtk_widget_get_parent (GTK_WIDGET (self->folder_label))), path);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLDER]);
}

static void
folder_chosen (HpRecordDialog *self,
               const char     *path)
{
  set_folder (self, path);
}

static void
choose_folder_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (widget);
  g_autofree char *current = self->folder && self->folder[0] ? g_strdup (self->folder) : default_folder ();

  choose_folder (self, _("Folder for New Captures"), current, folder_chosen);
}

/* Processes ---------------------------------------------------------------- */

static void
list_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(HpRecordDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) list = hp_process_item_list_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->disposed)
    return;
  g_clear_object (&self->list_cancellable);
  if (list == NULL)
    {
      gtk_label_set_text (self->process_status, error->message);
      return;
    }
  gtk_filter_list_model_set_model (self->process_filter, list);
  {
    guint n = g_list_model_get_n_items (list);
    g_autofree char *text = g_strdup_printf (ngettext ("%u process; double-click one to record it.",
                                                       "%u processes; double-click one to record it.", n), n);

    gtk_label_set_text (self->process_status, text);
  }
}

static void
reload_processes (HpRecordDialog *self)
{
  if (self->list_cancellable != NULL)
    g_cancellable_cancel (self->list_cancellable);
  g_clear_object (&self->list_cancellable);
  self->list_cancellable = g_cancellable_new ();
  self->listed = TRUE;
  gtk_label_set_text (self->process_status, _("Reading the list of processes…"));
  gtk_widget_set_visible (GTK_WIDGET (self->process_error), FALSE);
  hp_process_item_list_async (self->list_cancellable, list_done, g_object_ref (self));
}

static void
reload_processes_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  reload_processes (HP_RECORD_DIALOG (widget));
}

static void
on_process_search_changed (GtkSearchEntry *entry,
                           HpRecordDialog *self)
{
  gtk_string_filter_set_search (self->process_string_filter, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
on_process_activate (GtkColumnView  *view,
                     guint           position,
                     HpRecordDialog *self)
{
  gtk_single_selection_set_selected (self->process_selection, position);
  gtk_widget_activate_action (GTK_WIDGET (self), "record.start", NULL);
}

static void
on_process_selected (GtkSingleSelection *selection,
                     GParamSpec         *pspec,
                     HpRecordDialog     *self)
{
  if (gtk_single_selection_get_selected_item (selection) != NULL)
    gtk_widget_set_visible (GTK_WIDGET (self->process_error), FALSE);
}

static void
on_command_changed (GtkEditable    *entry,
                    HpRecordDialog *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->command_error), FALSE);
}

static void
on_directory_changed (GtkEditable    *entry,
                      HpRecordDialog *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->directory_error), FALSE);
}

/* States --------------------------------------------------------------------- */

static void
set_state (HpRecordDialog *self,
           State           state)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean setup = state == STATE_SETUP || state == STATE_PREPARING;
  gboolean ended = state == STATE_DONE || state == STATE_FAILED;
  const char *title = NULL;

  self->state = state;
  gtk_widget_set_visible (self->cancel_button, setup);
  gtk_widget_set_visible (self->start_button, setup);
  gtk_widget_set_visible (self->stop_button, state == STATE_RECORDING);
  gtk_widget_set_visible (self->again_button, ended);
  gtk_widget_set_visible (self->close_button, ended);

  gtk_widget_action_set_enabled (widget, "record.start", state == STATE_SETUP);
  gtk_widget_action_set_enabled (widget, "record.stop", state == STATE_RECORDING);
  gtk_widget_action_set_enabled (widget, "record.again", ended);
  gtk_widget_action_set_enabled (widget, "record.open-log", !setup && self->log_path != NULL);
  gtk_widget_action_set_enabled (widget, "record.open-capture", ended && self->capture_kept);
  /* the setup page stays sensitive while preparing (a few ms): Start is
   * disabled, and an insensitive page would take the focus from the entry
   * without the focus-out that stops its cursor blinking */

  switch (state)
    {
    case STATE_SETUP:
    case STATE_PREPARING:
      title = _("New Recording");
      gtk_stack_set_visible_child_name (self->state_stack, "setup");
      gtk_window_set_default_widget (GTK_WINDOW (self), self->start_button);
      break;
    case STATE_RECORDING:
      title = _("Recording");
      gtk_stack_set_visible_child_name (self->state_stack, "recording");
      gtk_window_set_default_widget (GTK_WINDOW (self), NULL);
      gtk_widget_grab_focus (self->stop_button);
      break;
    case STATE_DONE:
    case STATE_FAILED:
      title = state == STATE_DONE ? _("Recording Finished") : _("Recording Failed");
      gtk_stack_set_visible_child_name (self->state_stack, "result");
      gtk_window_set_default_widget (GTK_WINDOW (self), self->close_button);
      gtk_widget_grab_focus (self->close_button);
      break;
    default:
      g_assert_not_reached ();
    }
  gtk_window_set_title (GTK_WINDOW (self), title);
}

static gboolean
hp_record_dialog_close_request (GtkWindow *window)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (window);

  if (self->state == STATE_RECORDING)
    {
      /* the capture is worth keeping: stop, write it, open it, then go */
      self->close_when_done = TRUE;
      gtk_widget_activate_action (GTK_WIDGET (self), "record.stop", NULL);
      return TRUE;
    }
  if (self->prepare_cancellable != NULL)
    g_cancellable_cancel (self->prepare_cancellable);

  return GTK_WINDOW_CLASS (hp_record_dialog_parent_class)->close_request (window);
}

/* Properties --------------------------------------------------------------- */

static void
set_target (HpRecordDialog *self,
            const char     *target)
{
  if (g_strcmp0 (target, "attach") != 0)
    target = "launch";
  if (g_strcmp0 (self->target, target) == 0)
    return;
  g_free (self->target);
  self->target = g_strdup (target);
  gtk_stack_set_visible_child_name (self->target_stack, target);
  hide_errors (self);
  if (g_str_equal (target, "attach"))
    {
      if (!self->listed)
        reload_processes (self);
      gtk_widget_grab_focus (GTK_WIDGET (self->process_search));
    }
  else
    gtk_widget_grab_focus (GTK_WIDGET (self->command_entry));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TARGET]);
}

static void
set_call_graph (HpRecordDialog *self,
                const char     *call_graph)
{
  gboolean dwarf;

  if (g_strcmp0 (call_graph, "fp") != 0)
    call_graph = "dwarf";
  if (g_strcmp0 (self->call_graph, call_graph) == 0)
    return;
  g_free (self->call_graph);
  self->call_graph = g_strdup (call_graph);
  dwarf = g_str_equal (call_graph, "dwarf");
  gtk_widget_set_sensitive (GTK_WIDGET (self->stack_size_spin), dwarf);
  gtk_widget_set_sensitive (self->stack_size_label, dwarf);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CALL_GRAPH]);
}

/* the limit in seconds, 0 for none: the check button says whether there
 * is one, the spin button how long */
static void
set_duration (HpRecordDialog *self,
              double          duration)
{
  duration = MAX (duration, 0);
  if (duration == self->duration)
    return;
  self->duration = duration;
  /* the widgets follow without writing back a half-set value */
  self->setting_duration = TRUE;
  if (duration > 0)
    gtk_spin_button_set_value (self->duration_spin, duration);
  gtk_check_button_set_active (self->duration_check, duration > 0);
  self->setting_duration = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DURATION]);
}

static void
on_duration_changed (HpRecordDialog *self)
{
  double duration = gtk_check_button_get_active (self->duration_check) ?
                    gtk_spin_button_get_value (self->duration_spin) : 0;

  if (!self->setting_duration && duration != self->duration)
    {
      self->duration = duration;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DURATION]);
    }
}

static void
hp_record_dialog_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (object);

  switch (prop_id)
    {
    case PROP_TARGET:     g_value_set_string (value, self->target ? self->target : "launch"); break;
    case PROP_CALL_GRAPH: g_value_set_string (value, self->call_graph ? self->call_graph : "dwarf"); break;
    case PROP_DURATION:   g_value_set_double (value, self->duration); break;
    case PROP_FOLDER:     g_value_set_string (value, self->folder ? self->folder : ""); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hp_record_dialog_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (object);

  switch (prop_id)
    {
    case PROP_TARGET:     set_target (self, g_value_get_string (value)); break;
    case PROP_CALL_GRAPH: set_call_graph (self, g_value_get_string (value)); break;
    case PROP_DURATION:   set_duration (self, g_value_get_double (value)); break;
    case PROP_FOLDER:     set_folder (self, g_value_get_string (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Accessors for tests ------------------------------------------------------ */

gboolean
hp_record_dialog_is_recording (HpRecordDialog *self)
{
  g_return_val_if_fail (HP_IS_RECORD_DIALOG (self), FALSE);
  return self->state == STATE_PREPARING || self->state == STATE_RECORDING;
}

const char *
hp_record_dialog_get_state (HpRecordDialog *self)
{
  static const char * const names[] = { "setup", "preparing", "recording", "done", "failed" };

  return names[self->state];
}

GtkEditable *
hp_record_dialog_get_command_entry (HpRecordDialog *self)
{
  return GTK_EDITABLE (self->command_entry);
}

GtkEditable *
hp_record_dialog_get_directory_entry (HpRecordDialog *self)
{
  return GTK_EDITABLE (self->directory_entry);
}

GtkEditable *
hp_record_dialog_get_process_search (HpRecordDialog *self)
{
  return GTK_EDITABLE (self->process_search);
}

gboolean
hp_record_dialog_is_listing (HpRecordDialog *self)
{
  return self->list_cancellable != NULL;
}

guint
hp_record_dialog_get_n_processes (HpRecordDialog *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->process_filter));
}

gboolean
hp_record_dialog_select_process (HpRecordDialog *self,
                                 GPid            pid)
{
  GListModel *model = G_LIST_MODEL (self->process_filter);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(HpProcessItem) item = g_list_model_get_item (model, i);

      if (hp_process_item_get_pid (item) == pid)
        {
          gtk_single_selection_set_selected (self->process_selection, i);
          return TRUE;
        }
    }
  return FALSE;
}

const char *
hp_record_dialog_get_message (HpRecordDialog *self)
{
  return self->message;
}

const char *
hp_record_dialog_get_title_text (HpRecordDialog *self)
{
  return gtk_label_get_text (self->result_title);
}

const char *
hp_record_dialog_get_output (HpRecordDialog *self)
{
  return gtk_widget_get_visible (self->result_output_frame) ? gtk_label_get_text (self->result_output) : NULL;
}

const char *
hp_record_dialog_get_capture_path (HpRecordDialog *self)
{
  return (self->state == STATE_DONE || self->capture_kept) ? self->capture_path : NULL;
}

const char *
hp_record_dialog_get_log_path (HpRecordDialog *self)
{
  return self->log_path;
}

HpLogWindow *
hp_record_dialog_get_log_window (HpRecordDialog *self)
{
  return self->log_window;
}

void
hp_record_dialog_get_stats (HpRecordDialog      *self,
                            HpRecordDialogStats *stats)
{
  *stats = self->stats;
}

/* GObject ------------------------------------------------------------------ */

static void
bind_settings (HpRecordDialog *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source == NULL || (schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE)) == NULL)
    {
      g_warning ("GSettings schema %s is not installed; the record dialog forgets its choices", APPLICATION_ID);
      return;
    }
  self->settings = g_settings_new_full (schema, NULL, NULL);
  g_settings_bind (self->settings, "record-command", self->command_entry, "text", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "record-working-directory", self->directory_entry, "text", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "record-frequency", self->frequency_adjustment, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "record-stack-size", self->stack_size_adjustment, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "record-call-graph", self, "call-graph", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "record-duration", self, "duration", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "record-folder", self, "folder", G_SETTINGS_BIND_DEFAULT);
}

static void
hp_record_dialog_dispose (GObject *object)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (object);

  self->disposed = TRUE;
  /* the capture is still written; the run task holds the application */
  if (self->job != NULL)
    hp_recorder_stop (self->job->recorder);
  self->job = NULL;
  g_clear_object (&self->run_task);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  if (self->prepare_cancellable != NULL)
    g_cancellable_cancel (self->prepare_cancellable);
  g_clear_object (&self->prepare_cancellable);
  if (self->list_cancellable != NULL)
    g_cancellable_cancel (self->list_cancellable);
  g_clear_object (&self->list_cancellable);
  g_clear_weak_pointer (&self->parent);
  g_clear_weak_pointer (&self->log_window);
  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), HP_TYPE_RECORD_DIALOG);

  G_OBJECT_CLASS (hp_record_dialog_parent_class)->dispose (object);
}

static void
hp_record_dialog_finalize (GObject *object)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (object);

  g_clear_object (&self->app);
  g_clear_object (&self->process_selection);
  g_free (self->target);
  g_free (self->call_graph);
  g_free (self->folder);
  g_free (self->command_text);
  g_free (self->program_name);
  g_free (self->capture_path);
  g_free (self->log_path);
  g_free (self->message);

  G_OBJECT_CLASS (hp_record_dialog_parent_class)->finalize (object);
}

static void
hp_record_dialog_class_init (HpRecordDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = hp_record_dialog_dispose;
  object_class->finalize = hp_record_dialog_finalize;
  object_class->get_property = hp_record_dialog_get_property;
  object_class->set_property = hp_record_dialog_set_property;
  window_class->close_request = hp_record_dialog_close_request;

  properties[PROP_TARGET] =
    g_param_spec_string ("target", NULL, NULL, "launch",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CALL_GRAPH] =
    g_param_spec_string ("call-graph", NULL, NULL, "dwarf",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DURATION] =
    g_param_spec_double ("duration", NULL, NULL, 0, 86400, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FOLDER] =
    g_param_spec_string ("folder", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-record-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, again_button);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, start_button);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, stop_button);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, close_button);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, target_stack);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, command_entry);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, command_error);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, directory_entry);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, directory_error);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, process_search);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, process_view);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, name_column);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, pid_column);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, user_column);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, command_column);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, process_status);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, process_error);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, frequency_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, stack_size_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, stack_size_spin);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, stack_size_label);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, duration_check);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, duration_spin);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, folder_label);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, setup_error);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, recording_title);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, recording_command);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, elapsed_label);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, samples_label);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, lost_label);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, recording_hint);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, recording_log_button);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, result_icon);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, result_title);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, result_message);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, result_note);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, result_output_frame);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, result_output);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, result_log_button);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, result_open_button);
  gtk_widget_class_bind_template_callback (widget_class, on_command_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_directory_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_process_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_process_activate);

  gtk_widget_class_install_action (widget_class, "record.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "record.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "record.again", NULL, again_action);
  gtk_widget_class_install_action (widget_class, "record.open-log", NULL, open_log_action);
  gtk_widget_class_install_action (widget_class, "record.open-capture", NULL, open_capture_action);
  gtk_widget_class_install_action (widget_class, "record.choose-directory", NULL, choose_directory_action);
  gtk_widget_class_install_action (widget_class, "record.choose-folder", NULL, choose_folder_action);
  gtk_widget_class_install_action (widget_class, "record.reload-processes", NULL, reload_processes_action);
  gtk_widget_class_install_property_action (widget_class, "record.target", "target");
  gtk_widget_class_install_property_action (widget_class, "record.call-graph", "call-graph");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
hp_record_dialog_init (HpRecordDialog *self)
{
  static const HpCellSpec name_spec = { .text = "name", .tooltip = "command-line", .text_chars = 16 };
  static const HpCellSpec pid_spec = { .text = "pid-text", .css_class = "numeric", .text_chars = 7 };
  static const HpCellSpec user_spec = { .text = "user", .text_chars = 8, .dim = TRUE };
  static const HpCellSpec command_spec = { .text = "command-line", .tooltip = "command-line",
                                           .text_chars = 24, .dim = TRUE };
  static const struct { gsize offset; const HpCellSpec *spec; } columns[] = {
    { G_STRUCT_OFFSET (HpRecordDialog, name_column), &name_spec },
    { G_STRUCT_OFFSET (HpRecordDialog, pid_column), &pid_spec },
    { G_STRUCT_OFFSET (HpRecordDialog, user_column), &user_spec },
    { G_STRUCT_OFFSET (HpRecordDialog, command_column), &command_spec },
  };
  GtkExpression *search;

  gtk_widget_init_template (GTK_WIDGET (self));
  /* not a bound template child: gtk_widget_dispose_template() would
   * unparent it, and GtkWindow's dispose unparent it again */
  self->state_stack = GTK_STACK (gtk_window_get_child (GTK_WINDOW (self)));

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      GtkColumnViewColumn *column = G_STRUCT_MEMBER (GtkColumnViewColumn *, self, columns[i].offset);
      g_autoptr(GtkListItemFactory) factory = hp_cell_factory_new (columns[i].spec);

      gtk_column_view_column_set_factory (column, factory);
    }
  search = gtk_property_expression_new (HP_TYPE_PROCESS_ITEM, NULL, "search-text");
  self->process_string_filter = gtk_string_filter_new (search);
  gtk_string_filter_set_match_mode (self->process_string_filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
  gtk_string_filter_set_ignore_case (self->process_string_filter, TRUE);
  self->process_filter = gtk_filter_list_model_new (NULL, GTK_FILTER (self->process_string_filter));
  self->process_selection = gtk_single_selection_new (G_LIST_MODEL (self->process_filter));
  gtk_single_selection_set_autoselect (self->process_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->process_selection, TRUE);
  gtk_column_view_set_model (self->process_view, GTK_SELECTION_MODEL (self->process_selection));
  g_signal_connect (self->process_selection, "notify::selected", G_CALLBACK (on_process_selected), self);

  g_object_bind_property (self->duration_check, "active", self->duration_spin, "sensitive", G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (self->duration_check, "notify::active", G_CALLBACK (on_duration_changed), self);
  g_signal_connect_swapped (self->duration_spin, "value-changed", G_CALLBACK (on_duration_changed), self);

  set_target (self, "launch");
  set_call_graph (self, "dwarf");
  set_folder (self, "");
  bind_settings (self);
  set_state (self, STATE_SETUP);
}

HpRecordDialog *
hp_record_dialog_new (GtkWindow *parent)
{
  HpRecordDialog *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  self = g_object_new (HP_TYPE_RECORD_DIALOG, "transient-for", parent, NULL);
  g_set_weak_pointer (&self->parent, parent);
  if (parent != NULL && gtk_window_get_application (parent) != NULL)
    self->app = G_APPLICATION (g_object_ref (gtk_window_get_application (parent)));
  gtk_widget_grab_focus (GTK_WIDGET (self->command_entry));
  return self;
}
