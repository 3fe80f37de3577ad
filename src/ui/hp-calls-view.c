/* hp-calls-view.c - callers and callees of the selected function
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The callers and callees of one function, merged over all its call sites
 * (hp_profile_get_callers/callees). Shares are of the function's total
 * samples: for callers they say through which caller the function's time
 * comes, for callees where it goes. Activating a row emits
 * "function-activated" and the window selects that function.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "ui/hp-calls-view.h"
#include "ui/hp-cell.h"
#include "document/hp-format.h"
#include "ui/hp-function-row.h"
#include "ui/hp-template.h"

struct _HpCallsView {
  GtkWidget      parent_instance;

  GtkStack      *stack;
  GtkLabel      *callers_caption;
  GtkLabel      *callees_caption;
  GtkColumnView *callers_view;
  GtkColumnView *callees_view;
  GtkColumnViewColumn *columns[6];

  GListStore    *callers;
  GListStore    *callees;
  HpLoadedProfile *profile;   /* of the rows, for Copy Name */
};

G_DEFINE_FINAL_TYPE (HpCallsView, hp_calls_view, GTK_TYPE_WIDGET)

enum {
  FUNCTION_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
fill (GListStore      *store,
      HpLoadedProfile *profile,
      GArray          *edges,
      guint64          whole,
      const char      *fmt_tooltip,
      const char      *function_name)
{
  HpLoadedCapture *capture = profile->capture;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < edges->len; i++)
    {
      const HpCallEdge *e = &g_array_index (edges, HpCallEdge, i);
      const char *name = hp_loaded_capture_get_shown_name (capture, e->function_id, TRUE);
      g_autofree char *full = hp_loaded_capture_dup_tooltip_name (capture, e->function_id);
      g_autofree char *share = hp_format_share_of (&profile->measure, e->samples, whole);
      g_autofree char *sentence = g_strdup_printf (fmt_tooltip, name, function_name, share);
      /* the whole name first (capped), then what the row means */
      g_autofree char *tooltip = g_strdup_printf ("%s\n\n%s", full, sentence);
      HpFunctionRow *row = hp_function_row_new (e->function_id, name,
                                                hp_loaded_capture_get_shown_module (capture, e->function_id),
                                                e->samples, whole, tooltip);

      hp_function_row_set_time (row, profile->measure.is_time);
      g_ptr_array_add (rows, row);
    }
  g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)),
                       rows->pdata, rows->len);
}

void
hp_calls_view_set_function (HpCallsView     *self,
                            HpLoadedProfile *profile,
                            gint64           function_id)
{
  const HpFunctionStats *stats;
  const char *name;
  g_autoptr(GArray) callers = NULL;
  g_autoptr(GArray) callees = NULL;
  g_autofree char *total = NULL;
  g_autofree char *self_share = NULL;
  g_autofree char *markup = NULL;
  g_autofree char *escaped = NULL;
  guint64 whole;

  g_return_if_fail (HP_IS_CALLS_VIEW (self));

  if (profile == NULL || function_id <= 0 ||
      (stats = hp_profile_get_function_stats (profile->profile, function_id)) == NULL)
    {
      g_list_store_remove_all (self->callers);
      g_list_store_remove_all (self->callees);
      g_clear_pointer (&self->profile, hp_loaded_profile_unref);
      gtk_stack_set_visible_child_name (self->stack, "none");
      return;
    }
  if (profile != self->profile)
    {
      g_clear_pointer (&self->profile, hp_loaded_profile_unref);
      self->profile = hp_loaded_profile_ref (profile);
    }

  /* the captions wrap: a short name keeps them a line or two */
  name = hp_loaded_capture_get_shown_name (profile->capture, function_id, TRUE);
  escaped = g_markup_escape_text (name, -1);
  whole = stats->total;
  total = hp_format_count (whole);
  self_share = hp_format_share (stats->self, whole);

  callers = hp_profile_get_callers (profile->profile, function_id);
  callees = hp_profile_get_callees (profile->profile, function_id);
  if (profile->measure.by_weight)
    {
      /* page faults, time off the CPU: the amounts name their unit */
      g_autofree char *amount = hp_format_amount (&profile->measure, whole);
      g_autofree char *self_amount = hp_format_share_of (&profile->measure, stats->self, whole);
      g_autofree char *title = hp_format_measure_column (&profile->measure);

      /* Translators: tooltip of a caller row: caller, callee, "12.5 % (40 page faults)" */
      fill (self->callers, profile, callers, whole, _("%s calls %s in %s of its total"), name);
      /* Translators: tooltip of a callee row: callee, caller, share */
      fill (self->callees, profile, callees, whole, _("%s, called from %s, has %s of the caller’s total"), name);
      gtk_column_view_column_set_title (self->columns[1], title);
      gtk_column_view_column_set_title (self->columns[4], title);
      if (callers->len == 0)
        markup = g_strdup_printf (_("<b>Callers of %s</b>: none; the recorded stacks start here."), escaped);
      else
        /* Translators: %s are a function name and an amount with its unit ("1,234 page faults") */
        markup = g_strdup_printf (_("<b>Callers of %s</b>, merged over all call sites: "
                                    "how much of its %s each caller accounts for."),
                                  escaped, amount);
      gtk_label_set_markup (self->callers_caption, markup);
      g_clear_pointer (&markup, g_free);
      if (callees->len == 0)
        markup = g_strdup_printf (_("<b>Callees of %s</b>: none; all its %s are in the function itself."),
                                  escaped, amount);
      else
        markup = g_strdup_printf (_("<b>Callees of %s</b>: how much of its %s is in each callee; "
                                    "the rest, %s, is in the function itself."),
                                  escaped, amount, self_amount);
      gtk_label_set_markup (self->callees_caption, markup);
      gtk_stack_set_visible_child_name (self->stack, "calls");
      return;
    }
  gtk_column_view_column_set_title (self->columns[1], _("Samples"));
  gtk_column_view_column_set_title (self->columns[4], _("Samples"));
  /* Translators: tooltip of a caller row: caller, callee, "12.5 % (40 samples)" */
  fill (self->callers, profile, callers, whole, _("%s calls %s in %s of its samples"), name);
  /* Translators: tooltip of a callee row: callee, caller, share */
  fill (self->callees, profile, callees, whole, _("%s, called from %s, runs in %s of the caller’s samples"), name);

  if (callers->len == 0)
    markup = g_strdup_printf (_("<b>Callers of %s</b>: none; the sampled stacks start here."), escaped);
  else
    /* Translators: %s are a function name and a sample count */
    markup = g_strdup_printf (ngettext ("<b>Callers of %s</b>, merged over all call sites. "
                                        "Samples: in how many of its %s sample each caller is the one calling it.",
                                        "<b>Callers of %s</b>, merged over all call sites. "
                                        "Samples: in how many of its %s samples each caller is the one calling it.",
                                        whole),
                              escaped, total);
  gtk_label_set_markup (self->callers_caption, markup);
  g_clear_pointer (&markup, g_free);

  if (callees->len == 0)
    markup = g_strdup_printf (ngettext ("<b>Callees of %s</b>: none; its %s sample is in the function itself.",
                                        "<b>Callees of %s</b>: none; all its %s samples are in the function itself.",
                                        whole),
                              escaped, total);
  else
    markup = g_strdup_printf (ngettext ("<b>Callees of %s</b>. Samples: how many of its %s sample are spent in each callee; "
                                        "the rest, %s, is in the function itself.",
                                        "<b>Callees of %s</b>. Samples: how many of its %s samples are spent in each callee; "
                                        "the rest, %s, is in the function itself.",
                                        whole),
                              escaped, total, self_share);
  gtk_label_set_markup (self->callees_caption, markup);
  gtk_stack_set_visible_child_name (self->stack, "calls");
}

HpLoadedProfile *
hp_calls_view_get_profile (HpCallsView *self)
{
  g_return_val_if_fail (HP_IS_CALLS_VIEW (self), NULL);

  return self->profile;
}

GListModel *
hp_calls_view_get_callers (HpCallsView *self)
{
  g_return_val_if_fail (HP_IS_CALLS_VIEW (self), NULL);

  return G_LIST_MODEL (self->callers);
}

GListModel *
hp_calls_view_get_callees (HpCallsView *self)
{
  g_return_val_if_fail (HP_IS_CALLS_VIEW (self), NULL);

  return G_LIST_MODEL (self->callees);
}

static void
on_activate (GtkColumnView *view,
             guint          position,
             HpCallsView   *self)
{
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));
  g_autoptr(HpFunctionRow) row = g_list_model_get_item (model, position);

  if (row != NULL)
    g_signal_emit (self, signals[FUNCTION_ACTIVATED], 0, hp_function_row_get_function_id (row));
}

static const HpCellSpec name_cell = { .text = "name", .tooltip = "tooltip", .text_chars = 30 };
static const HpCellSpec samples_cell = { .fraction = "fraction", .percent = "percent", .count = "count" };
static const HpCellSpec module_cell = { .text = "module", .text_chars = 14, .dim = TRUE, .ellipsize_middle = TRUE };

static void
on_context_click (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  HpCallsView     *self)
{
  GtkWidget *view = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  g_autoptr(GObject) row = hp_cell_pick_row (view, x, y);
  g_autoptr(GMenu) menu = NULL;
  g_autoptr(GMenuItem) item = NULL;

  if (row == NULL || !HP_IS_FUNCTION_ROW (row))
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  menu = g_menu_new ();
  item = g_menu_item_new (_("Copy Name"), NULL);
  g_menu_item_set_action_and_target_value (item, "calls.copy-name",
                                           g_variant_new_int64 (hp_function_row_get_function_id (HP_FUNCTION_ROW (row))));
  g_menu_append_item (menu, item);
  hp_cell_popup_menu (GTK_WIDGET (self), view, G_MENU_MODEL (menu), x, y);
}

/* The whole name of a caller or callee (the rows show it shortened) */
static void
copy_name_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  HpCallsView *self = HP_CALLS_VIEW (widget);
  g_autofree char *name = NULL;

  if (self->profile == NULL)
    return;
  name = hp_loaded_capture_dup_full_name (self->profile->capture, g_variant_get_int64 (parameter));
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), name);
}

static void
hp_calls_view_dispose (GObject *object)
{
  g_object_set_data (object, "hp-cell-menu", NULL);  /* the context menu */
  hp_template_dispose (GTK_WIDGET (object), HP_TYPE_CALLS_VIEW);

  G_OBJECT_CLASS (hp_calls_view_parent_class)->dispose (object);
}

static void
hp_calls_view_finalize (GObject *object)
{
  HpCallsView *self = HP_CALLS_VIEW (object);

  g_clear_object (&self->callers);
  g_clear_object (&self->callees);
  g_clear_pointer (&self->profile, hp_loaded_profile_unref);

  G_OBJECT_CLASS (hp_calls_view_parent_class)->finalize (object);
}

static void
hp_calls_view_class_init (HpCallsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hp_calls_view_dispose;
  object_class->finalize = hp_calls_view_finalize;

  signals[FUNCTION_ACTIVATED] =
    g_signal_new ("function-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);

  g_type_ensure (HP_TYPE_FUNCTION_ROW);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-calls-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HpCallsView, stack);
  gtk_widget_class_bind_template_child (widget_class, HpCallsView, callers_caption);
  gtk_widget_class_bind_template_child (widget_class, HpCallsView, callees_caption);
  gtk_widget_class_bind_template_child (widget_class, HpCallsView, callers_view);
  gtk_widget_class_bind_template_child (widget_class, HpCallsView, callees_view);
  gtk_widget_class_bind_template_callback (widget_class, on_activate);
  gtk_widget_class_bind_template_child_full (widget_class, "caller_name", FALSE, G_STRUCT_OFFSET (HpCallsView, columns[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "caller_samples", FALSE, G_STRUCT_OFFSET (HpCallsView, columns[1]));
  gtk_widget_class_bind_template_child_full (widget_class, "caller_module", FALSE, G_STRUCT_OFFSET (HpCallsView, columns[2]));
  gtk_widget_class_bind_template_child_full (widget_class, "callee_name", FALSE, G_STRUCT_OFFSET (HpCallsView, columns[3]));
  gtk_widget_class_bind_template_child_full (widget_class, "callee_samples", FALSE, G_STRUCT_OFFSET (HpCallsView, columns[4]));
  gtk_widget_class_bind_template_child_full (widget_class, "callee_module", FALSE, G_STRUCT_OFFSET (HpCallsView, columns[5]));

  gtk_widget_class_install_action (widget_class, "calls.copy-name", "x", copy_name_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
set_list (GtkColumnView *view,
          GListStore    *store)
{
  g_autoptr(GtkSingleSelection) selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (store)));

  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_column_view_set_model (view, GTK_SELECTION_MODEL (selection));
}

static void
hp_calls_view_init (HpCallsView *self)
{
  const HpCellSpec *specs[3] = { &name_cell, &samples_cell, &module_cell };

  gtk_widget_init_template (GTK_WIDGET (self));
  hp_cell_keep_focus_in_view (self->callers_view);
  hp_cell_keep_focus_in_view (self->callees_view);
  for (guint i = 0; i < G_N_ELEMENTS (self->columns); i++)
    {
      g_autoptr(GtkListItemFactory) factory = hp_cell_factory_new (specs[i % 3]);

      /* (no fixed widths: these lists are short, and do not scroll
       * sideways, so fixed widths would be the pane's minimum width) */
      gtk_column_view_column_set_factory (self->columns[i], factory);
    }

  self->callers = g_list_store_new (HP_TYPE_FUNCTION_ROW);
  self->callees = g_list_store_new (HP_TYPE_FUNCTION_ROW);
  set_list (self->callers_view, self->callers);
  set_list (self->callees_view, self->callees);
  for (guint i = 0; i < 2; i++)
    {
      GtkGesture *click = gtk_gesture_click_new ();

      gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
      g_signal_connect (click, "pressed", G_CALLBACK (on_context_click), self);
      gtk_widget_add_controller (GTK_WIDGET (i == 0 ? self->callers_view : self->callees_view),
                                 GTK_EVENT_CONTROLLER (click));
    }
}
