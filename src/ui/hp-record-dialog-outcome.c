/* hp-record-dialog-outcome.c - the record dialog's result page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * How a recording went, in words: saved (where, how many samples, how the
 * program ended), or why not. The recorder's errors (perf_event_open
 * refused, with the fix; the program could not run), and ours: no sample
 * was taken, or the program exited at once with an error. The end of the
 * program's output is shown when it may tell why. Whole sentences, one
 * per case, so that translations can order them.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "record/hp-recorder.h"
#include "ui/hp-application.h"
#include "document/hp-format.h"
#include "ui/hp-record-dialog-private.h"
#include "ui/hp-window.h"

/* A program that fails within this time was most likely misspelled or
 * given wrong arguments, rather than profiled. */
#define EXITED_AT_ONCE_S 1.0

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
  gtk_widget_remove_css_class (GTK_WIDGET (self->result_icon), "warning-icon");
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
  hp_record_dialog_show_text (self->result_message, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->result_message), message != NULL && message[0] != '\0');
  hp_record_dialog_show_text (self->result_note, note ? note : "");
  gtk_widget_set_visible (GTK_WIDGET (self->result_note), note != NULL && note[0] != '\0');
  g_free (self->message);
  self->message = g_strdup (message);
  hp_record_dialog_set_state (self, ok ? HP_RECORD_DIALOG_DONE : HP_RECORD_DIALOG_FAILED);
}

/* A capture kept, but not as asked: not a failure, nor a recording that went well */
static void
show_warning_icon (HpRecordDialog *self)
{
  gtk_image_set_from_icon_name (self->result_icon, "dialog-warning-symbolic");
  gtk_widget_remove_css_class (GTK_WIDGET (self->result_icon), "success-icon");
  gtk_widget_remove_css_class (GTK_WIDGET (self->result_icon), "error-icon");
  gtk_widget_add_css_class (GTK_WIDGET (self->result_icon), "warning-icon");
}

/* Whole sentences, one per case, so that translations can order them */
static char *
describe_exit (HpRecordDialog        *self,
               const HpRecordOutcome *outcome,
               const char            *duration,
               gboolean               no_sample)
{
  const char *name = self->program_name;

  if (outcome->result.exit_signal != 0)
    /* Translators: program, signal description (“Segmentation fault”), duration */
    return no_sample ? g_strdup_printf (_("“%s” was ended by the signal “%s” after %s, before a sample was taken."),
                                        name, g_strsignal (outcome->result.exit_signal), duration)
                     : g_strdup_printf (_("“%s” was ended by the signal “%s” after %s."),
                                        name, g_strsignal (outcome->result.exit_signal), duration);
  if (outcome->result.exited)
    /* Translators: program, exit status, duration */
    return no_sample ? g_strdup_printf (_("“%s” exited with status %d after %s, before a sample was taken."),
                                        name, outcome->result.exit_status, duration)
                     : g_strdup_printf (_("“%s” exited with status %d after %s."),
                                        name, outcome->result.exit_status, duration);
  return NULL;
}

void
hp_record_dialog_open_capture (HpRecordDialog *self)
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

void
hp_record_dialog_show_outcome (HpRecordDialog  *self,
                               HpRecordOutcome *outcome)
{
  g_autofree char *duration = NULL;
  gboolean by_limit, program_failed;

  show_output_tail (self, outcome->output_tail);
  /* nothing to show when the program wrote nothing, or never ran */
  gtk_widget_set_visible (self->result_log_button, outcome->output_tail != NULL);
  gtk_widget_set_visible (self->result_open_button, FALSE);
  self->capture_kept = FALSE;

  if (outcome->error != NULL)
    {
      /* Taken from its name while it was written (its folder removed),
       * or not put in place of the file it was to replace (--force), the
       * capture was saved elsewhere: the error says why and where, and
       * Open the Capture opens it there. */
      g_free (self->capture_path);
      self->capture_path = g_strdup (outcome->saved_as);
      self->capture_kept = outcome->saved_as != NULL && g_file_test (outcome->saved_as, G_FILE_TEST_IS_REGULAR);
      gtk_widget_set_visible (self->result_open_button, self->capture_kept);
      if (self->capture_kept)
        {
          show_result (self, FALSE, _("Capture Kept Elsewhere"), outcome->error->message,
                       _("The recording finished, but it could not be kept under the name asked for: the message "
                         "above says why and where it is. Open the Capture opens it there."));
          show_warning_icon (self);
          /* it did finish: only the name was lost */
          gtk_window_set_title (GTK_WINDOW (self), _("Recording Finished"));
        }
      else
        show_failure (self, outcome->error, outcome->result.max_sample_rate);
      self->close_when_done = FALSE;
      return;
    }

  duration = hp_record_dialog_format_seconds (outcome->elapsed);
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
  program_failed = self->spawned && !self->stopped && !by_limit &&
                   (outcome->result.exit_signal != 0 || (outcome->result.exited && outcome->result.exit_status != 0));
  if (program_failed && outcome->elapsed < EXITED_AT_ONCE_S)
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
    g_autofree char *shown_dir = hp_record_display_path (dir);
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
    else if (self->spawned && outcome->result.exit_signal != 0)
      {
        g_string_append_c (note, ' ');
        g_string_append_printf (note, _("The program was ended by the signal “%s”."), g_strsignal (outcome->result.exit_signal));
      }
    else if (self->spawned && outcome->result.exited)
      {
        g_string_append_c (note, ' ');
        g_string_append_printf (note, _("The program exited with status %d."), outcome->result.exit_status);
      }
    if (outcome->lost > 0)
      {
        g_string_append_c (note, ' ');
        g_string_append (note, _("Samples were lost because the kernel’s buffers filled faster than they were read: "
                                 "a lower frequency or a smaller stack copy loses fewer."));
      }
    /* a full disk, or a capture kept beside its -wal file: said first */
    if (outcome->warning != NULL)
      {
        g_string_prepend_c (note, ' ');
        g_string_prepend (note, outcome->warning);
      }
    if (!self->spawned || !outcome->result.exited || outcome->result.exit_status == 0 || self->stopped || by_limit)
      show_output_tail (self, NULL);
    show_result (self, TRUE, outcome->cut_short ? _("Recording Cut Short") : _("Recording Saved"),
                 message, note->str);
    if (outcome->cut_short)
      /* kept, so not a failure; but not a recording that went well */
      show_warning_icon (self);
  }

  hp_record_dialog_open_capture (self);
  /* The capture says the rest (the overview: samples, lost ones): the
   * dialog goes, rather than pile up beside the windows it opened.
   * A program that failed keeps it open, for its output. */
  if (outcome->warning == NULL &&
      (self->close_when_done ||
       (!program_failed && (self->settings == NULL || g_settings_get_boolean (self->settings, "record-close-when-done")))))
    gtk_window_destroy (GTK_WINDOW (self));
}
