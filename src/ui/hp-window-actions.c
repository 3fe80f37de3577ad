/* hp-window-actions.c - the win.* actions of the Hotpath window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * What the header bar, the menus, the shortcuts and the display tests
 * ask of the window, each an action of its class (win.open, win.find…).
 * The window's state is its struct in hp-window-private.h.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "document/hp-loaded-capture.h"
#include "record/hp-perf-import.h"
#include "ui/hp-application.h"
#include "ui/hp-file-chooser.h"
#include "ui/hp-record-dialog.h"
#include "ui/hp-window-private.h"

static void
on_open_chosen (GListModel *files,
                gpointer    user_data)
{
  HpWindow *self = HP_WINDOW (user_data);
  HpApplication *app = HP_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (files, i);
      g_autoptr(GFile) parent = g_file_get_parent (file);

      if (i == 0 && self->settings != NULL && parent != NULL && g_file_peek_path (parent) != NULL)
        g_settings_set_string (self->settings, "last-folder", g_file_peek_path (parent));
      hp_application_open_file (app, file, self);
    }
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  HpWindow *self = HP_WINDOW (widget);
  g_autofree char *last = NULL;

  if (self->settings != NULL)
    last = g_settings_get_string (self->settings, "last-folder");
  hp_capture_chooser_show (GTK_WINDOW (self), _("Open a Capture"), _("_Open"),
                           HP_CHOOSE_SEVERAL | HP_CHOOSE_IMPORTS, last,
                           on_open_chosen, g_object_ref (self), g_object_unref);
}

static void
open_file_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  HpWindow *self = HP_WINDOW (widget);
  const char *arg = g_variant_get_string (parameter, NULL);
  g_autoptr(GFile) file = g_uri_is_valid (arg, G_URI_FLAGS_NONE, NULL) ?
                          g_file_new_for_uri (arg) : g_file_new_for_path (arg);

  hp_application_open_file (HP_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))), file, self);
}

static void
record_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  HpWindow *self = HP_WINDOW (widget);

  /* one per window: Record again shows the one that may be recording */
  if (self->record_dialog == NULL)
    {
      HpRecordDialog *dialog = hp_record_dialog_new (GTK_WINDOW (self));

      g_set_weak_pointer (&self->record_dialog, dialog);
    }
  gtk_window_present (GTK_WINDOW (self->record_dialog));
}

static void
cancel_load_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  HpWindow *self = HP_WINDOW (widget);

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  g_clear_object (&self->file);
  gtk_stack_set_visible_child_name (self->main_stack, "empty");
  gtk_widget_grab_focus (self->empty_open_button);
  hp_window_update_title (self);
}

/* The whole name of the selected function, which the window shows
 * shortened (templates folded, parameters dropped, cut) */
static void
copy_name_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  HpWindow *self = HP_WINDOW (widget);
  HpLoadedProfile *profile = hp_call_tree_view_get_profile (self->tree_view);
  const HpCallNode *node = hp_call_tree_view_get_selected (self->tree_view);
  g_autofree char *name = NULL;

  if (profile == NULL || node == NULL || node->function_id <= 0)
    return;
  name = hp_loaded_capture_dup_full_name (profile->capture, node->function_id);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), name);
}

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  HpWindow *self = HP_WINDOW (widget);

  if (self->profile != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
select_path_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  HpWindow *self = HP_WINDOW (widget);

  hp_call_tree_view_select_path_key (self->tree_view, g_variant_get_string (parameter, NULL));
}

static void
select_function_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  HpWindow *self = HP_WINDOW (widget);
  g_autoptr(GArray) ids = NULL;
  const HpCallNode *best = NULL;
  gint64 best_id = 0;

  if (self->profile == NULL)
    return;
  /* by name: of the functions with it, the one with the most samples */
  ids = hp_profile_find_functions (self->profile->profile, g_variant_get_string (parameter, NULL));
  for (guint i = 0; i < ids->len; i++)
    {
      gint64 id = g_array_index (ids, gint64, i);
      const HpCallNode *node = self->profile->hottest_node[id];

      if (node != NULL && (best == NULL || node->total > best->total))
        {
          best = node;
          best_id = id;
        }
    }
  if (best != NULL)
    hp_call_tree_view_select_function (self->tree_view, best_id);
}

static void
show_pane_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  HpWindow *self = HP_WINDOW (widget);
  const char *pane = g_variant_get_string (parameter, NULL);

  /* the summaries are in the side pane, folded away on a small screen;
   * the source and the callers share a place */
  if (g_strcmp0 (pane, "summaries") == 0)
    {
      g_object_set (self, "show-summary", TRUE, NULL);
      gtk_widget_grab_focus (GTK_WIDGET (self->summary_list));
    }
  else if (gtk_stack_get_child_by_name (self->bottom_stack, pane) != NULL)
    gtk_stack_set_visible_child_name (self->bottom_stack, pane);
}

static void
thread_filter_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  HpWindow *self = HP_WINDOW (widget);
  guint index = g_variant_get_uint32 (parameter);

  if (index < self->filters->len)
    gtk_drop_down_set_selected (self->thread_dropdown, index);
}

static void
import_summaries_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  HpWindow *self = HP_WINDOW (widget);

  hp_summary_offer_import (self->summary_offer);
}

/* Save as Capture: a perf.data file (or pprof, folded stacks) is shown
 * from its import in the cache, where summaries would not last. Saving
 * copies that capture to a file of the user's and opens it there, so
 * that summaries can be written. */
typedef struct {
  HpWindow *window;   /* a reference */
  GFile    *target;
} SaveAs;

static void
save_as_free (SaveAs *save)
{
  g_object_unref (save->window);
  g_object_unref (save->target);
  g_free (save);
}

static void
on_capture_copied (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  SaveAs *save = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_file_copy_finish (G_FILE (source), result, &error))
    {
      g_autofree char *name = g_file_get_parse_name (save->target);
      GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (save->window), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                  GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                                  _("The capture could not be saved as %s"), name);

      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", error->message);
      g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
      gtk_window_present (GTK_WINDOW (dialog));
    }
  else
    {
      hp_application_add_recent (HP_APPLICATION (gtk_window_get_application (GTK_WINDOW (save->window))),
                                 save->target, FALSE);
      hp_window_open (save->window, save->target);
    }
  save_as_free (save);
}

static void
save_capture_to (HpWindow *self,
                 GFile    *target,
                 gboolean  overwrite)
{
  SaveAs *save;
  g_autoptr(GFile) source = NULL;

  if (self->profile == NULL || !self->profile->capture->imported)
    return;
  source = g_file_new_for_path (self->profile->capture->path);
  save = g_new0 (SaveAs, 1);
  save->window = g_object_ref (self);
  save->target = g_object_ref (target);
  g_file_copy_async (source, target, overwrite ? G_FILE_COPY_OVERWRITE : G_FILE_COPY_NONE,
                     G_PRIORITY_DEFAULT, NULL, NULL, NULL, on_capture_copied, save);
}

static void
on_save_as_response (GtkNativeDialog *dialog,
                     int              response,
                     HpWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      /* the chooser asked before replacing a file */
      if (file != NULL)
        save_capture_to (self, file, TRUE);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
save_as_capture_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  HpWindow *self = HP_WINDOW (widget);
  GtkFileChooserNative *dialog;
  g_autoptr(GFile) folder = NULL;
  g_autofree char *input = NULL;
  g_autofree char *name = NULL;

  if (self->file == NULL)
    return;
  dialog = gtk_file_chooser_native_new (_("Save as Capture"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  /* beside the perf.data, named as `hotpath-cli import` names it:
   * perf.data → perf.hotpath */
  folder = g_file_get_parent (self->file);
  input = g_file_get_basename (self->file);
  name = hp_perf_import_capture_name (input);
  if (folder != NULL)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  g_signal_connect (dialog, "response", G_CALLBACK (on_save_as_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* The same without the chooser, to a path that must not exist yet */
static void
save_capture_to_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  g_autoptr(GFile) target = g_file_new_for_path (g_variant_get_string (parameter, NULL));

  save_capture_to (HP_WINDOW (widget), target, FALSE);
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  gtk_window_close (GTK_WINDOW (widget));
}

void
hp_window_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-file", "s", open_file_action);
  gtk_widget_class_install_action (widget_class, "win.record", NULL, record_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-load", NULL, cancel_load_action);
  gtk_widget_class_install_action (widget_class, "win.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "win.copy-name", NULL, copy_name_action);
  gtk_widget_class_install_action (widget_class, "win.select-path", "s", select_path_action);
  gtk_widget_class_install_action (widget_class, "win.select-function", "s", select_function_action);
  gtk_widget_class_install_action (widget_class, "win.show-pane", "s", show_pane_action);
  gtk_widget_class_install_action (widget_class, "win.thread-filter", "u", thread_filter_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "win.import-summaries", NULL, import_summaries_action);
  gtk_widget_class_install_action (widget_class, "win.save-as-capture", NULL, save_as_capture_action);
  gtk_widget_class_install_action (widget_class, "win.save-capture-to", "s", save_capture_to_action);
}
