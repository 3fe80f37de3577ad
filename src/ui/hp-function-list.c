/* hp-function-list.c - every function of the profile, flat, sortable by self or total
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The flat function list Hotspot and perf report users start from: one
 * row per function of the shown profile (so every filter applies), with
 * its self and total samples, sorted by a click on a column (first by
 * Self, descending). Activating a row selects the function in the call
 * tree, which every pane follows. The rows are made only when the list is
 * on screen: a profile of 30 000 functions costs nothing until asked for.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "ui/hp-cell.h"
#include "document/hp-format.h"
#include "ui/hp-function-list.h"
#include "ui/hp-function-row.h"
#include "ui/hp-template.h"

struct _HpFunctionList {
  GtkWidget            parent_instance;

  GtkInscription      *caption;
  GtkColumnView       *view;
  GtkColumnViewColumn *name_column;
  GtkColumnViewColumn *self_column;
  GtkColumnViewColumn *total_column;
  GtkColumnViewColumn *module_column;

  GListStore          *store;
  GtkSortListModel    *sorted;
  HpLoadedProfile     *profile;
  gboolean             filled;     /* the store holds the rows of profile */
};

G_DEFINE_FINAL_TYPE (HpFunctionList, hp_function_list, GTK_TYPE_WIDGET)

enum {
  FUNCTION_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const HpCellSpec name_cell = { .text = "name", .tooltip = "tooltip", .text_chars = 30 };
static const HpCellSpec self_cell = { .percent = "percent", .count = "count", .count_chars = 6 };
static const HpCellSpec total_cell = { .fraction = "total-fraction", .percent = "total-percent",
                                       .count = "total-count", .count_chars = 6 };
static const HpCellSpec module_cell = { .text = "module", .text_chars = 14, .dim = TRUE, .ellipsize_middle = TRUE };

static void
fill (HpFunctionList *self)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *caption = NULL;
  g_autofree char *n_text = NULL;
  const GArray *functions;
  guint64 whole;

  if (self->filled || self->profile == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  self->filled = TRUE;
  functions = hp_profile_get_functions (self->profile->profile, FALSE);
  whole = hp_profile_get_n_samples (self->profile->profile);
  for (guint i = 0; i < functions->len; i++)
    {
      const HpFunctionStats *s = &g_array_index (functions, HpFunctionStats, i);
      HpLoadedCapture *capture = self->profile->capture;
      g_autofree char *tooltip = hp_loaded_capture_dup_tooltip_name (capture, s->function_id);
      HpFunctionRow *row = hp_function_row_new (s->function_id,
                                                hp_loaded_capture_get_shown_name (capture, s->function_id, FALSE),
                                                hp_loaded_capture_get_shown_module (capture, s->function_id),
                                                s->self, whole, tooltip);

      hp_function_row_set_total (row, s->total);
      g_ptr_array_add (rows, row);
    }
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       rows->pdata, rows->len);
  n_text = hp_format_amount (NULL, whole);
  /* Translators: %u functions, %s an amount ("1,234 samples") */
  caption = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                          "%u function, as shares of all %s. Self: in the function itself; "
                                          "Total: in it and what it calls. Click a column to sort.",
                                          "%u functions, as shares of all %s. Self: in the function itself; "
                                          "Total: in it and what it calls. Click a column to sort.",
                                          functions->len),
                             functions->len, n_text);
  gtk_inscription_set_text (self->caption, caption);
}

void
hp_function_list_set_profile (HpFunctionList  *self,
                              HpLoadedProfile *profile)
{
  g_return_if_fail (HP_IS_FUNCTION_LIST (self));

  if (profile == self->profile)
    return;
  g_clear_pointer (&self->profile, hp_loaded_profile_unref);
  if (profile != NULL)
    self->profile = hp_loaded_profile_ref (profile);
  self->filled = FALSE;
  g_list_store_remove_all (self->store);
  gtk_inscription_set_text (self->caption, NULL);
  fill (self);
}

GListModel *
hp_function_list_get_model (HpFunctionList *self)
{
  g_return_val_if_fail (HP_IS_FUNCTION_LIST (self), NULL);

  fill (self);
  return G_LIST_MODEL (self->sorted);
}

void
hp_function_list_sort_by (HpFunctionList *self,
                          gboolean        by_total,
                          gboolean        descending)
{
  g_return_if_fail (HP_IS_FUNCTION_LIST (self));

  /* the count sorters order the most first (count_sorter), so that is
   * the column's ascending order */
  gtk_column_view_sort_by_column (self->view, by_total ? self->total_column : self->self_column,
                                  descending ? GTK_SORT_ASCENDING : GTK_SORT_DESCENDING);
}

static void
on_activate (GtkColumnView  *view,
             guint           position,
             HpFunctionList *self)
{
  g_autoptr(HpFunctionRow) row = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);

  if (row != NULL)
    g_signal_emit (self, signals[FUNCTION_ACTIVATED], 0, hp_function_row_get_function_id (row));
}

static void
hp_function_list_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (hp_function_list_parent_class)->map (widget);
  fill (HP_FUNCTION_LIST (widget));
}

static void
hp_function_list_dispose (GObject *object)
{
  HpFunctionList *self = HP_FUNCTION_LIST (object);

  if (self->view != NULL)
    gtk_column_view_set_model (self->view, NULL);
  hp_template_dispose (GTK_WIDGET (object), HP_TYPE_FUNCTION_LIST);
  g_clear_object (&self->sorted);
  g_clear_object (&self->store);
  g_clear_pointer (&self->profile, hp_loaded_profile_unref);

  G_OBJECT_CLASS (hp_function_list_parent_class)->dispose (object);
}

static void
hp_function_list_class_init (HpFunctionListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hp_function_list_dispose;
  widget_class->map = hp_function_list_map;

  signals[FUNCTION_ACTIVATED] =
    g_signal_new ("function-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);

  g_type_ensure (HP_TYPE_FUNCTION_ROW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-function-list.ui");
  gtk_widget_class_bind_template_child (widget_class, HpFunctionList, caption);
  gtk_widget_class_bind_template_child (widget_class, HpFunctionList, view);
  gtk_widget_class_bind_template_child (widget_class, HpFunctionList, name_column);
  gtk_widget_class_bind_template_child (widget_class, HpFunctionList, self_column);
  gtk_widget_class_bind_template_child (widget_class, HpFunctionList, total_column);
  gtk_widget_class_bind_template_child (widget_class, HpFunctionList, module_column);
  gtk_widget_class_bind_template_callback (widget_class, on_activate);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
set_column (GtkColumnViewColumn *column,
            const HpCellSpec    *spec,
            GtkSorter           *sorter)
{
  g_autoptr(GtkListItemFactory) factory = hp_cell_factory_new (spec);

  gtk_column_view_column_set_factory (column, factory);
  gtk_column_view_column_set_sorter (column, sorter);
  g_object_unref (sorter);
}

/* A numeric sorter whose first click sorts the most first: a column's
 * first click sorts it "ascending", in its sorter's own order */
static GtkSorter *
count_sorter (const char *property)
{
  GtkNumericSorter *sorter = gtk_numeric_sorter_new (gtk_property_expression_new (HP_TYPE_FUNCTION_ROW, NULL, property));

  gtk_numeric_sorter_set_sort_order (sorter, GTK_SORT_DESCENDING);
  return GTK_SORTER (sorter);
}

static void
hp_function_list_init (HpFunctionList *self)
{
  GtkNoSelection *selection;

  gtk_widget_init_template (GTK_WIDGET (self));
  hp_cell_keep_focus_in_view (self->view);
  set_column (self->name_column, &name_cell,
              GTK_SORTER (gtk_string_sorter_new (gtk_property_expression_new (HP_TYPE_FUNCTION_ROW, NULL, "name"))));
  set_column (self->self_column, &self_cell, count_sorter ("samples"));
  set_column (self->total_column, &total_cell, count_sorter ("total"));
  set_column (self->module_column, &module_cell,
              GTK_SORTER (gtk_string_sorter_new (gtk_property_expression_new (HP_TYPE_FUNCTION_ROW, NULL, "module"))));

  self->store = g_list_store_new (HP_TYPE_FUNCTION_ROW);
  self->sorted = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->store)),
                                          g_object_ref (gtk_column_view_get_sorter (self->view)));
  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->sorted)));
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  hp_function_list_sort_by (self, FALSE, TRUE);
}
