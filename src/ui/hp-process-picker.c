/* hp-process-picker.c - the list of running processes to record
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The record dialog's "Running process" page: a search entry, the
 * processes of /proc (read in a worker by hp_process_item_list_async, the
 * first time the page is shown and on Reload), a line saying how many
 * there are and a line for the dialog's error ("choose one"). A double
 * click emits ::process-activated, which the dialog takes as Start.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "ui/hp-cell.h"
#include "ui/hp-process-picker.h"
#include "ui/hp-template.h"

struct _HpProcessPicker {
  GtkWidget             parent_instance;

  GtkSearchEntry       *process_search;
  GtkColumnView        *process_view;
  GtkColumnViewColumn  *name_column;
  GtkColumnViewColumn  *pid_column;
  GtkColumnViewColumn  *user_column;
  GtkColumnViewColumn  *command_column;
  GtkLabel             *process_status;
  GtkLabel             *process_error;

  GtkFilterListModel   *process_filter;
  GtkStringFilter      *process_string_filter;
  GtkSingleSelection   *process_selection;
  GCancellable         *list_cancellable;
  gboolean              listed;
  gboolean              disposed;
};

G_DEFINE_FINAL_TYPE (HpProcessPicker, hp_process_picker, GTK_TYPE_WIDGET)

enum {
  PROCESS_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
list_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(HpProcessPicker) self = user_data;
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

void
hp_process_picker_reload (HpProcessPicker *self)
{
  g_return_if_fail (HP_IS_PROCESS_PICKER (self));

  if (self->list_cancellable != NULL)
    g_cancellable_cancel (self->list_cancellable);
  g_clear_object (&self->list_cancellable);
  self->list_cancellable = g_cancellable_new ();
  self->listed = TRUE;
  gtk_label_set_text (self->process_status, _("Reading the list of processes…"));
  gtk_widget_set_visible (GTK_WIDGET (self->process_error), FALSE);
  hp_process_item_list_async (self->list_cancellable, list_done, g_object_ref (self));
}

void
hp_process_picker_ensure_listed (HpProcessPicker *self)
{
  g_return_if_fail (HP_IS_PROCESS_PICKER (self));

  if (!self->listed)
    hp_process_picker_reload (self);
}

HpProcessItem *
hp_process_picker_get_selected (HpProcessPicker *self)
{
  g_return_val_if_fail (HP_IS_PROCESS_PICKER (self), NULL);

  return gtk_single_selection_get_selected_item (self->process_selection);
}

void
hp_process_picker_show_error (HpProcessPicker *self,
                              const char      *message)
{
  g_return_if_fail (HP_IS_PROCESS_PICKER (self));

  gtk_label_set_text (self->process_error, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->process_error), message != NULL);
  if (message != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self->process_view));
}

void
hp_process_picker_focus_search (HpProcessPicker *self)
{
  g_return_if_fail (HP_IS_PROCESS_PICKER (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->process_search));
}

GtkEditable *
hp_process_picker_get_search (HpProcessPicker *self)
{
  return GTK_EDITABLE (self->process_search);
}

gboolean
hp_process_picker_is_listing (HpProcessPicker *self)
{
  return self->list_cancellable != NULL;
}

guint
hp_process_picker_get_n_processes (HpProcessPicker *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->process_filter));
}

gboolean
hp_process_picker_select_process (HpProcessPicker *self,
                                  GPid             pid)
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

static void
reload_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  hp_process_picker_reload (HP_PROCESS_PICKER (widget));
}

static void
on_process_search_changed (GtkSearchEntry  *entry,
                           HpProcessPicker *self)
{
  gtk_string_filter_set_search (self->process_string_filter, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
on_process_activate (GtkColumnView   *view,
                     guint            position,
                     HpProcessPicker *self)
{
  gtk_single_selection_set_selected (self->process_selection, position);
  g_signal_emit (self, signals[PROCESS_ACTIVATED], 0);
}

static void
on_process_selected (GtkSingleSelection *selection,
                     GParamSpec         *pspec,
                     HpProcessPicker    *self)
{
  if (gtk_single_selection_get_selected_item (selection) != NULL)
    gtk_widget_set_visible (GTK_WIDGET (self->process_error), FALSE);
}

static void
hp_process_picker_dispose (GObject *object)
{
  HpProcessPicker *self = HP_PROCESS_PICKER (object);

  self->disposed = TRUE;
  if (self->list_cancellable != NULL)
    g_cancellable_cancel (self->list_cancellable);
  g_clear_object (&self->list_cancellable);
  /* and the rows of the layout that are not bound template children */
  hp_template_dispose (GTK_WIDGET (self), HP_TYPE_PROCESS_PICKER);

  G_OBJECT_CLASS (hp_process_picker_parent_class)->dispose (object);
}

static void
hp_process_picker_finalize (GObject *object)
{
  HpProcessPicker *self = HP_PROCESS_PICKER (object);

  g_clear_object (&self->process_selection);

  G_OBJECT_CLASS (hp_process_picker_parent_class)->finalize (object);
}

static void
hp_process_picker_class_init (HpProcessPickerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hp_process_picker_dispose;
  object_class->finalize = hp_process_picker_finalize;

  /* a process was double-clicked (and is now the one selected) */
  signals[PROCESS_ACTIVATED] =
    g_signal_new ("process-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-process-picker.ui");
  gtk_widget_class_bind_template_child (widget_class, HpProcessPicker, process_search);
  gtk_widget_class_bind_template_child (widget_class, HpProcessPicker, process_view);
  gtk_widget_class_bind_template_child (widget_class, HpProcessPicker, name_column);
  gtk_widget_class_bind_template_child (widget_class, HpProcessPicker, pid_column);
  gtk_widget_class_bind_template_child (widget_class, HpProcessPicker, user_column);
  gtk_widget_class_bind_template_child (widget_class, HpProcessPicker, command_column);
  gtk_widget_class_bind_template_child (widget_class, HpProcessPicker, process_status);
  gtk_widget_class_bind_template_child (widget_class, HpProcessPicker, process_error);
  gtk_widget_class_bind_template_callback (widget_class, on_process_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_process_activate);

  gtk_widget_class_install_action (widget_class, "picker.reload", NULL, reload_action);
}

static void
hp_process_picker_init (HpProcessPicker *self)
{
  static const HpCellSpec name_spec = { .text = "name", .tooltip = "command-line", .text_chars = 16 };
  static const HpCellSpec pid_spec = { .text = "pid-text", .css_class = "numeric", .text_chars = 7 };
  static const HpCellSpec user_spec = { .text = "user", .text_chars = 8, .dim = TRUE };
  static const HpCellSpec command_spec = { .text = "command-line", .tooltip = "command-line",
                                           .text_chars = 24, .dim = TRUE };
  static const struct { gsize offset; const HpCellSpec *spec; } columns[] = {
    { G_STRUCT_OFFSET (HpProcessPicker, name_column), &name_spec },
    { G_STRUCT_OFFSET (HpProcessPicker, pid_column), &pid_spec },
    { G_STRUCT_OFFSET (HpProcessPicker, user_column), &user_spec },
    { G_STRUCT_OFFSET (HpProcessPicker, command_column), &command_spec },
  };
  GtkExpression *search;

  gtk_widget_init_template (GTK_WIDGET (self));

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
}
