/* hp-record-dialog.c - records a program or a process from the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The dialog behind the window's Record button. It goes through states,
 * each a page of state_stack with its own header-bar buttons:
 *
 *   setup      what to record (a command line and its working folder, or
 *              a running process, chosen in an HpProcessPicker), how (frequency, call stacks, time
 *              limit) and where (the folder for new captures). Every
 *              choice is a GSettings key bound to its widget, so the next
 *              dialog starts from the last choices.
 *   preparing  a worker checks what needs the disk: the program (in PATH
 *              or at the path given, relative to the working folder), the
 *              folders, a free capture name, and creates the log file
 *              (hp_record_plan_prepare, in record/hp-record-plan.c).
 *              A problem goes back to setup as an inline error beside the
 *              field that caused it.
 *   recording  hp_record_job_run() blocks for as long as the recording
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
 *              Both result pages are hp-record-dialog-outcome.c.
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

#include <string.h>
#include <glib/gi18n.h>

#include "record/hp-record-plan.h"
#include "record/hp-recorder.h"
#include "ui/hp-file-chooser.h"
#include "document/hp-format.h"
#include "ui/hp-process-picker.h"
#include "ui/hp-record-dialog-private.h"

/* Four times a second: the elapsed time reads as running, and a main loop
 * that stalled would show as a gap in the dialog's statistics. */
#define PROGRESS_INTERVAL_MS 250
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

/* Showing progress and results ------------------------------------------- */

static void
set_label_count (GtkLabel *label,
                 guint64   count)
{
  g_autofree char *text = hp_format_count (count);

  gtk_label_set_text (label, text);
}

/* Another program holds the capture's write lock (a sqlite3 shell in
 * BEGIN EXCLUSIVE): the samples wait in the recorder, nothing is lost,
 * and the page says who holds it, while recording and after the
 * program's end, while the capture is written and finished. The
 * recorder's thread looked that up; the main loop only reads its
 * progress. */
static void
show_lock_wait (HpRecordDialog         *self,
                const HpRecordProgress *progress)
{
  g_autofree char *name = NULL;
  g_autofree char *count = NULL;
  g_autofree char *text = NULL;
  gulong n = (gulong) MIN (progress->waiting, G_MAXULONG);
  int pid = progress->lock_holder_pid;
  /* after the program's end, with every sample written: only the
   * capture's end (its totals) waits */
  gboolean finishing = !progress->running && progress->waiting == 0;

  gtk_widget_set_visible (GTK_WIDGET (self->lock_label), progress->lock_wait > 0);
  if (progress->lock_wait <= 0)
    return;
  /* a command name is any bytes but NUL and '/' */
  name = g_utf8_make_valid (progress->lock_holder, -1);
  count = hp_format_count (progress->waiting);
  if (finishing && pid > 0 && name[0] != '\0')
    text = g_strdup_printf (_("Waiting for another program (%s, PID %d) to release the capture. "
                              "Every sample is written; the capture is finished then."), name, pid);
  else if (finishing && pid > 0)
    text = g_strdup_printf (_("Waiting for another program (PID %d) to release the capture. "
                              "Every sample is written; the capture is finished then."), pid);
  else if (finishing)
    text = g_strdup (_("Waiting for another program to release the capture. "
                       "Every sample is written; the capture is finished then."));
  else if (pid > 0 && name[0] != '\0')
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Waiting for another program (%s, PID %d) to release the capture. "
                                         "The %s sample taken meanwhile is kept and will be written then.",
                                         "Waiting for another program (%s, PID %d) to release the capture. "
                                         "The %s samples taken meanwhile are kept and will be written then.", n),
                            name, pid, count);
  else if (pid > 0)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Waiting for another program (PID %d) to release the capture. "
                                         "The %s sample taken meanwhile is kept and will be written then.",
                                         "Waiting for another program (PID %d) to release the capture. "
                                         "The %s samples taken meanwhile are kept and will be written then.", n),
                            pid, count);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Waiting for another program to release the capture. "
                                         "The %s sample taken meanwhile is kept and will be written then.",
                                         "Waiting for another program to release the capture. "
                                         "The %s samples taken meanwhile are kept and will be written then.", n),
                            count);
  gtk_label_set_text (self->lock_label, text);
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
  show_lock_wait (self, &progress);

  if (self->stats.n_updates > 0)
    self->stats.max_gap_us = MAX (self->stats.max_gap_us, now - self->last_update_us);
  self->last_update_us = now;
  self->stats.n_updates++;
  self->stats.samples = progress.samples;
  self->stats.lost = progress.lost;
  return G_SOURCE_CONTINUE;
}

void
hp_record_dialog_show_text (GtkLabel   *label,
                            const char *text)
{
  g_autofree char *shown = hp_record_display_paths_in (text);

  gtk_label_set_text (label, shown);
  /* the paths in full, for copying or telling two homes apart */
  gtk_widget_set_tooltip_text (GTK_WIDGET (label), g_strcmp0 (shown, text) != 0 ? text : NULL);
}

char *
hp_record_dialog_format_seconds (double seconds)
{
  return hp_format_duration ((guint64) (seconds * 1e9));
}

static gpointer
run_thread (gpointer data)
{
  g_autoptr(GTask) task = data;

  g_task_return_pointer (task, hp_record_job_run (g_task_get_task_data (task)),
                         (GDestroyNotify) hp_record_outcome_free);
  return NULL;
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

static void
run_done (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(RunData) data = user_data;
  g_autoptr(HpRecordDialog) self = g_weak_ref_get (&data->dialog);
  g_autoptr(HpRecordOutcome) outcome = g_task_propagate_pointer (G_TASK (result), NULL);
  g_autofree char *path = g_strdup (((HpRecordJob *) g_task_get_task_data (G_TASK (result)))->capture_path);

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
  hp_record_dialog_show_outcome (self, outcome);
}

static void
start_recording (HpRecordDialog   *self,
                 HpRecordPlan     *plan,
                 HpRecordPrepared *prep)
{
  HpRecordJob *job = hp_record_job_new (plan, prep);
  g_autofree char *limit = NULL;
  g_autofree char *hint = NULL;

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
  gtk_widget_set_visible (GTK_WIDGET (self->lock_label), FALSE);
  gtk_label_set_text (self->recording_title, _("Recording"));
  if (self->duration > 0)
    limit = hp_record_dialog_format_seconds (self->duration);
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
  g_task_set_task_data (self->run_task, job, (GDestroyNotify) hp_record_job_free);
  hp_record_dialog_set_state (self, HP_RECORD_DIALOG_RECORDING);
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
  hp_process_picker_show_error (self->process_picker, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->setup_error), FALSE);
  g_clear_pointer (&self->message, g_free);
  self->events_error = FALSE;
}

/* beside the choice @field (an HpRecordPlanError) */
static void
show_field_error (HpRecordDialog    *self,
                  HpRecordPlanError  field,
                  const char        *message)
{
  GtkLabel *label = self->setup_error;
  GtkWidget *focus = NULL;

  g_free (self->message);
  self->message = g_strdup (message);
  self->events_error = field == HP_RECORD_PLAN_ERROR_EVENTS;
  switch (field)
    {
    case HP_RECORD_PLAN_ERROR_COMMAND:   label = self->command_error;   focus = GTK_WIDGET (self->command_entry);   break;
    case HP_RECORD_PLAN_ERROR_DIRECTORY: label = self->directory_error; focus = GTK_WIDGET (self->directory_entry); break;
    case HP_RECORD_PLAN_ERROR_PROCESS:
      hp_process_picker_show_error (self->process_picker, message);
      return;
    case HP_RECORD_PLAN_ERROR_EVENTS:
      /* under the choices too, for when their popover is opened */
      hp_event_chooser_show_error (self->event_chooser, message);
      break;
    case HP_RECORD_PLAN_ERROR_FOLDER:
    default:
      break;
    }
  hp_record_dialog_show_text (label, message);
  gtk_widget_set_visible (GTK_WIDGET (label), TRUE);
  if (focus != NULL)
    gtk_widget_grab_focus (focus);
}

/* The button says what will be counted */
static void
on_events_changed (HpRecordDialog *self)
{
  g_autofree char *text = hp_event_chooser_describe (self->event_chooser);

  gtk_menu_button_set_label (self->events_button, text);
  /* a refusal of the events chosen before (a tracepoint that does not
   * exist) is about choices that changed: it goes, as the chooser's own
   * did; pressing Record checks the new ones */
  if (self->events_error)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->setup_error), FALSE);
      g_clear_pointer (&self->message, g_free);
      self->events_error = FALSE;
    }
}

static void
prepare_worker (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GError *error = NULL;
  HpRecordPrepared *prep = hp_record_plan_prepare (task_data, NULL, &error);

  if (prep == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, prep, (GDestroyNotify) hp_record_prepared_free);
}

static void
prepare_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(HpRecordPrepared) prep = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->disposed)
    return;
  g_clear_object (&self->prepare_cancellable);

  if (prep == NULL)
    {
      hp_record_dialog_set_state (self, HP_RECORD_DIALOG_SETUP);
      show_field_error (self, error->domain == HP_RECORD_PLAN_ERROR ? error->code : HP_RECORD_PLAN_ERROR_FOLDER,
                        error->message);
      return;
    }
  start_recording (self, g_task_get_task_data (G_TASK (result)), prep);
}

static void
start_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (widget);
  g_autoptr(GTask) task = NULL;
  g_autoptr(HpRecordPlan) plan = NULL;

  if (self->state != HP_RECORD_DIALOG_SETUP)
    return;
  hide_errors (self);

  plan = g_new0 (HpRecordPlan, 1);
  plan->folder = g_strdup (self->folder ? self->folder : "");
  plan->frequency = (guint) gtk_adjustment_get_value (self->frequency_adjustment);
  plan->duration = self->duration;
  plan->call_graph = g_strcmp0 (self->call_graph, "fp") == 0 ? HP_CALL_GRAPH_FP : HP_CALL_GRAPH_DWARF;
  plan->stack_size = (guint) gtk_adjustment_get_value (self->stack_size_adjustment);
  hp_event_chooser_apply (self->event_chooser, plan);
  g_clear_pointer (&self->command_text, g_free);
  g_clear_pointer (&self->program_name, g_free);

  if (g_strcmp0 (self->target, "attach") != 0)
    {
      g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->command_entry))));
      g_autoptr(GError) error = NULL;

      if (text[0] == '\0' && plan->system_wide)
        {
          /* the whole system, until Stop or the time limit */
          plan->working_directory = g_strdup ("");
          self->command_text = g_strdup (_("the whole system"));
          self->program_name = g_strdup ("system");
        }
      else if (text[0] == '\0')
        {
          show_field_error (self, HP_RECORD_PLAN_ERROR_COMMAND, _("Enter the program to record and its arguments."));
          return;
        }
      else if (!g_shell_parse_argv (text, NULL, &plan->argv, &error))
        {
          g_autofree char *message = g_strdup_printf (_("The command line cannot be split into arguments: %s"),
                                                      error->message);

          show_field_error (self, HP_RECORD_PLAN_ERROR_COMMAND, message);
          return;
        }
      else
        {
          plan->working_directory = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->directory_entry))));
          self->command_text = g_steal_pointer (&text);
          self->program_name = g_path_get_basename (plan->argv[0]);
        }
    }
  else
    {
      HpProcessItem *item = hp_process_picker_get_selected (self->process_picker);

      if (plan->system_wide)
        {
          /* every process: the one chosen is among them */
          plan->working_directory = g_strdup ("");
          self->command_text = g_strdup (_("the whole system"));
          self->program_name = g_strdup ("system");
        }
      else if (item == NULL)
        {
          show_field_error (self, HP_RECORD_PLAN_ERROR_PROCESS, _("Choose the process to record in the list."));
          return;
        }
      else
        {
          plan->pid = hp_process_item_get_pid (item);
          plan->working_directory = g_strdup ("");
          /* Translators: process name and pid */
          self->command_text = g_strdup_printf (_("%s (process %d)"), hp_process_item_get_name (item), (int) plan->pid);
          self->program_name = g_strdup (hp_process_item_get_name (item));
        }
    }
  self->spawned = plan->argv != NULL;

  hp_record_dialog_set_state (self, HP_RECORD_DIALOG_PREPARING);
  self->prepare_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->prepare_cancellable, prepare_done, NULL);
  g_task_set_source_tag (task, start_action);
  g_task_set_task_data (task, g_steal_pointer (&plan), (GDestroyNotify) hp_record_plan_free);
  g_task_run_in_thread (task, prepare_worker);
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (widget);

  if (self->state != HP_RECORD_DIALOG_RECORDING || self->job == NULL)
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

  if (self->state != HP_RECORD_DIALOG_DONE && self->state != HP_RECORD_DIALOG_FAILED)
    return;
  g_clear_pointer (&self->capture_path, g_free);
  self->capture_kept = FALSE;
  hide_errors (self);
  hp_record_dialog_set_state (self, HP_RECORD_DIALOG_SETUP);
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
    hp_record_dialog_open_capture (self);
}

/* Folders ------------------------------------------------------------------ */

/* the chooser starts where the field points, or at home */
static void
choose_folder (HpRecordDialog *self,
               const char     *title,
               const char     *current,
               HpFolderChosen  chosen)
{
  g_autofree char *start = current && current[0] != '\0' ? hp_record_expand_home (current) : g_strdup (g_get_home_dir ());

  hp_folder_chooser_show (GTK_WIDGET (self), title, _("_Select"), start, chosen);
}

static void
directory_chosen (GtkWidget  *widget,
                  const char *path)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (widget);

  if (!self->disposed)
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
  path = self->folder[0] != '\0' ? hp_record_expand_home (self->folder) : hp_record_default_folder ();
  shown = hp_record_display_path (path);
  gtk_label_set_text (self->folder_label, shown);
  gtk_widget_set_tooltip_text (gtk_widget_get_parent (gtk_widget_get_parent (GTK_WIDGET (self->folder_label))), path);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLDER]);
}

static void
folder_chosen (GtkWidget  *widget,
               const char *path)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (widget);

  if (!self->disposed)
    set_folder (self, path);
}

static void
choose_folder_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  HpRecordDialog *self = HP_RECORD_DIALOG (widget);
  g_autofree char *current = self->folder && self->folder[0] ? g_strdup (self->folder) : hp_record_default_folder ();

  choose_folder (self, _("Folder for New Captures"), current, folder_chosen);
}

/* Processes ---------------------------------------------------------------- */

static void
on_process_activated (HpRecordDialog *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "record.start", NULL);
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

void
hp_record_dialog_set_state (HpRecordDialog      *self,
                            HpRecordDialogState  state)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean setup = state == HP_RECORD_DIALOG_SETUP || state == HP_RECORD_DIALOG_PREPARING;
  gboolean ended = state == HP_RECORD_DIALOG_DONE || state == HP_RECORD_DIALOG_FAILED;
  const char *title = NULL;

  self->state = state;
  gtk_widget_set_visible (self->cancel_button, setup);
  gtk_widget_set_visible (self->start_button, setup);
  gtk_widget_set_visible (self->stop_button, state == HP_RECORD_DIALOG_RECORDING);
  gtk_widget_set_visible (self->again_button, ended);
  gtk_widget_set_visible (self->close_button, ended);

  gtk_widget_action_set_enabled (widget, "record.start", state == HP_RECORD_DIALOG_SETUP);
  gtk_widget_action_set_enabled (widget, "record.stop", state == HP_RECORD_DIALOG_RECORDING);
  gtk_widget_action_set_enabled (widget, "record.again", ended);
  gtk_widget_action_set_enabled (widget, "record.open-log", !setup && self->log_path != NULL);
  gtk_widget_action_set_enabled (widget, "record.open-capture", ended && self->capture_kept);
  /* the setup page stays sensitive while preparing (a few ms): Start is
   * disabled, and an insensitive page would take the focus from the entry
   * without the focus-out that stops its cursor blinking */

  switch (state)
    {
    case HP_RECORD_DIALOG_SETUP:
    case HP_RECORD_DIALOG_PREPARING:
      title = _("New Recording");
      gtk_stack_set_visible_child_name (self->state_stack, "setup");
      gtk_window_set_default_widget (GTK_WINDOW (self), self->start_button);
      break;
    case HP_RECORD_DIALOG_RECORDING:
      title = _("Recording");
      gtk_stack_set_visible_child_name (self->state_stack, "recording");
      gtk_window_set_default_widget (GTK_WINDOW (self), NULL);
      gtk_widget_grab_focus (self->stop_button);
      break;
    case HP_RECORD_DIALOG_DONE:
    case HP_RECORD_DIALOG_FAILED:
      title = state == HP_RECORD_DIALOG_DONE ? _("Recording Finished") : _("Recording Failed");
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

  if (self->state == HP_RECORD_DIALOG_RECORDING)
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
      hp_process_picker_ensure_listed (self->process_picker);
      hp_process_picker_focus_search (self->process_picker);
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
  return self->state == HP_RECORD_DIALOG_PREPARING || self->state == HP_RECORD_DIALOG_RECORDING;
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
  return hp_process_picker_get_search (self->process_picker);
}

gboolean
hp_record_dialog_is_listing (HpRecordDialog *self)
{
  return hp_process_picker_is_listing (self->process_picker);
}

guint
hp_record_dialog_get_n_processes (HpRecordDialog *self)
{
  return hp_process_picker_get_n_processes (self->process_picker);
}

gboolean
hp_record_dialog_select_process (HpRecordDialog *self,
                                 GPid            pid)
{
  return hp_process_picker_select_process (self->process_picker, pid);
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
hp_record_dialog_get_lock_text (HpRecordDialog *self)
{
  return gtk_widget_get_visible (GTK_WIDGET (self->lock_label)) ? gtk_label_get_text (self->lock_label) : NULL;
}

const char *
hp_record_dialog_get_output (HpRecordDialog *self)
{
  return gtk_widget_get_visible (self->result_output_frame) ? gtk_label_get_text (self->result_output) : NULL;
}

const char *
hp_record_dialog_get_capture_path (HpRecordDialog *self)
{
  return (self->state == HP_RECORD_DIALOG_DONE || self->capture_kept) ? self->capture_path : NULL;
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

  g_type_ensure (HP_TYPE_PROCESS_PICKER);
  g_type_ensure (HP_TYPE_EVENT_CHOOSER);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-record-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, again_button);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, start_button);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, stop_button);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, close_button);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, target_stack);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, process_picker);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, command_entry);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, command_error);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, directory_entry);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, directory_error);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, frequency_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, stack_size_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, stack_size_spin);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, stack_size_label);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, duration_check);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, duration_spin);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, folder_label);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, setup_error);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, events_button);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, event_chooser);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, recording_title);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, recording_command);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, elapsed_label);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, samples_label);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, lost_label);
  gtk_widget_class_bind_template_child (widget_class, HpRecordDialog, lock_label);
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
  gtk_widget_class_bind_template_callback (widget_class, on_process_activated);

  gtk_widget_class_install_action (widget_class, "record.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "record.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "record.again", NULL, again_action);
  gtk_widget_class_install_action (widget_class, "record.open-log", NULL, open_log_action);
  gtk_widget_class_install_action (widget_class, "record.open-capture", NULL, open_capture_action);
  gtk_widget_class_install_action (widget_class, "record.choose-directory", NULL, choose_directory_action);
  gtk_widget_class_install_action (widget_class, "record.choose-folder", NULL, choose_folder_action);
  gtk_widget_class_install_property_action (widget_class, "record.target", "target");
  gtk_widget_class_install_property_action (widget_class, "record.call-graph", "call-graph");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
hp_record_dialog_init (HpRecordDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* not a bound template child: gtk_widget_dispose_template() would
   * unparent it, and GtkWindow's dispose unparent it again */
  self->state_stack = GTK_STACK (gtk_window_get_child (GTK_WINDOW (self)));

  g_object_bind_property (self->duration_check, "active", self->duration_spin, "sensitive", G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (self->duration_check, "notify::active", G_CALLBACK (on_duration_changed), self);
  g_signal_connect_swapped (self->duration_spin, "value-changed", G_CALLBACK (on_duration_changed), self);

  g_signal_connect_swapped (self->event_chooser, "changed", G_CALLBACK (on_events_changed), self);
  on_events_changed (self);

  set_target (self, "launch");
  set_call_graph (self, "dwarf");
  set_folder (self, "");
  bind_settings (self);
  hp_record_dialog_set_state (self, HP_RECORD_DIALOG_SETUP);
}

HpEventChooser *
hp_record_dialog_get_event_chooser (HpRecordDialog *self)
{
  g_return_val_if_fail (HP_IS_RECORD_DIALOG (self), NULL);

  return self->event_chooser;
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
