/* hp-flame-view.c - the flame graph of the current profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The flame graph shares the window's selection with the call tree: it
 * shows the tree's profile in the tree's direction (top-down, or
 * bottom-up with callers above), outlines the selected node, and a click
 * on a box selects that node in the tree, which every pane then follows.
 * A double click zooms; the breadcrumbs above zoom back out.
 *
 * The layout (HpFlameGraph) is built in a worker, since a profile of 700k
 * distinct stacks has as many boxes; the widget keeps the last one built
 * for each direction of the current profile, so switching back and forth
 * costs nothing.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include "store/hp-capture-keys.h"

#include <glib/gi18n.h>

#include "analysis/hp-summary-match.h"
#include "analysis/hp-symbol-name.h"
#include "document/hp-call-path.h"
#include "ui/hp-flame-view.h"
#include "document/hp-format.h"
#include "ui/hp-template.h"

#define MAX_CRUMBS 6

struct _HpFlameView {
  GtkWidget        parent_instance;

  GtkBox          *crumbs;
  GtkToggleButton *module_toggle;
  GtkToggleButton *icicle_toggle;
  GtkInscription  *caption;
  GtkStack        *stack;
  GtkScrolledWindow *scroller;
  HpFlameCanvas   *canvas;

  HpLoadedProfile *profile;
  gboolean         bottom_up;
  HpFlameGraph    *graphs[2];    /* [bottom_up], for profile */
  GCancellable    *cancellable;
  const HpCallNode *selected;
  HpSummaryStore  *store;
  gulong           store_changed_id;
  guint            scroll_tick;
  gboolean         at_root;      /* the view shows the root's end of the graph */
};

G_DEFINE_FINAL_TYPE (HpFlameView, hp_flame_view, GTK_TYPE_WIDGET)

enum {
  NODE_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Summary marks ------------------------------------------------------------ */

static void
update_marks (HpFlameView *self)
{
  g_autoptr(GHashTable) marks = NULL;
  g_autoptr(GPtrArray) keys = NULL;
  g_autofree char *here = NULL;

  /* summaries name top-down paths */
  if (self->store == NULL || self->profile == NULL || self->bottom_up)
    {
      hp_flame_canvas_set_marks (self->canvas, NULL);
      return;
    }
  marks = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  keys = hp_summary_store_list_keys (self->store);
  here = g_path_get_basename (hp_summary_store_get_path (self->store));
  for (guint i = 0; i < keys->len; i++)
    {
      const char *key = g_ptr_array_index (keys, i);
      const HpCallNode *node = hp_call_path_find (self->profile->profile, key);
      const char *text = hp_summary_store_get (self->store, key);
      g_autofree char *origin = NULL;

      if (node == NULL || text == NULL)
        continue;
      /* the hover text: the first line, and how old it is when it was
       * written in another capture, as the summary pane says */
      origin = hp_format_summary_origin (hp_summary_store_get_row (self->store, key), here,
                                         hp_summary_share (self->profile->profile, node));
      if (origin != NULL)
        g_hash_table_insert (marks, (gpointer) node,
                             g_strdup_printf ("%.*s\n%s", (int) strcspn (text, "\n"), text, origin));
      else
        g_hash_table_insert (marks, (gpointer) node, g_strndup (text, strcspn (text, "\n")));
    }
  hp_flame_canvas_set_marks (self->canvas, marks);
}

static void
on_store_changed (HpSummaryStore *store,
                  const char     *key,
                  HpFlameView    *self)
{
  update_marks (self);
}

/* Breadcrumbs ----------------------------------------------------------- */

static void
on_crumb_clicked (GtkButton   *button,
                  HpFlameView *self)
{
  hp_flame_canvas_set_zoom (self->canvas, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "box")));
}

static void
add_crumb (HpFlameView *self,
           const char  *text,
           const char  *tooltip,
           guint        box,
           gboolean     current)
{
  GtkWidget *child;

  if (gtk_widget_get_first_child (GTK_WIDGET (self->crumbs)) != NULL)
    {
      GtkWidget *sep = gtk_label_new ("›");

      gtk_widget_add_css_class (sep, "dim-text");
      gtk_box_append (self->crumbs, sep);
    }
  if (current)
    {
      child = gtk_label_new (text);
      gtk_widget_add_css_class (child, "heading");
      gtk_widget_set_margin_start (child, 6);
      gtk_widget_set_margin_end (child, 6);
    }
  else
    {
      child = gtk_button_new_with_label (text);
      gtk_widget_add_css_class (child, "flat");
      g_object_set_data (G_OBJECT (child), "box", GUINT_TO_POINTER (box));
      g_signal_connect (child, "clicked", G_CALLBACK (on_crumb_clicked), self);
    }
  /* names of any length stay inside the window */
  if (GTK_IS_LABEL (child))
    {
      gtk_label_set_ellipsize (GTK_LABEL (child), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (child), 28);
    }
  else
    {
      GtkLabel *label = GTK_LABEL (gtk_button_get_child (GTK_BUTTON (child)));

      gtk_label_set_ellipsize (label, PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (label, 28);
    }
  gtk_widget_set_tooltip_text (child, tooltip);
  gtk_box_append (self->crumbs, child);
}

/* "All › main › parse ×12 › lex": the path to the zoomed box, repeats of a
 * recursion folded, the middle left out when it is long. */
static void
update_crumbs (HpFlameView *self)
{
  HpFlameGraph *graph = hp_flame_canvas_get_graph (self->canvas);
  guint zoom = hp_flame_canvas_get_zoom (self->canvas);
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (guint));
  const HpFlameBox *boxes;
  GtkWidget *child;
  gboolean same_capture;
  guint n;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->crumbs))) != NULL)
    gtk_box_remove (self->crumbs, child);
  if (graph == NULL)
    return;

  /* (a graph of the capture shown before, until the new one is built;
   * a profile's data is a copy that shares the capture's functions) */
  same_capture = self->profile != NULL &&
                 hp_profile_get_data (hp_flame_graph_get_profile (graph))->functions == self->profile->capture->data->functions;
  boxes = hp_flame_graph_get_boxes (graph, &n);
  for (guint d = 0; d <= boxes[zoom].depth; d++)
    {
      gint b = hp_flame_graph_hit (graph, 0, boxes[zoom].x, d);

      if (b >= 0)
        g_array_append_val (path, b);
    }

  /* one entry per run of the same function: its last box and the count */
  for (guint i = 0; i < path->len; i++)
    {
      guint b = g_array_index (path, guint, i);
      guint last = runs->len > 0 ? g_array_index (runs, guint, runs->len - 1) : G_MAXUINT;

      if (last != G_MAXUINT && i > 0
          && boxes[b].node->function_id == boxes[last].node->function_id && boxes[b].node->function_id != 0)
        g_array_index (runs, guint, runs->len - 1) = b;
      else
        g_array_append_val (runs, b);
    }

  for (guint i = 0; i < runs->len; i++)
    {
      guint b = g_array_index (runs, guint, i);
      guint first = i > 0 ? g_array_index (runs, guint, i - 1) : G_MAXUINT;
      guint repeats = i > 0 ? boxes[b].depth - boxes[first].depth : 1;
      g_autofree char *text = NULL;
      g_autofree char *tooltip = NULL;
      g_autofree char *shorter = NULL;
      const char *name;

      if (runs->len > MAX_CRUMBS && i == 1)
        {
          GtkWidget *more = gtk_label_new ("› …");

          gtk_widget_add_css_class (more, "dim-text");
          gtk_box_append (self->crumbs, more);
        }
      if (runs->len > MAX_CRUMBS && i >= 1 && i < runs->len - (MAX_CRUMBS - 1))
        continue;
      /* the short name, safe to show; the tooltip has the whole one, capped */
      if (boxes[b].node->function_id == 0)
        {
          name = shorter = g_strdup (_("All"));
          tooltip = g_strdup (name);
        }
      else if (same_capture)
        {
          name = hp_loaded_capture_get_shown_name (self->profile->capture, boxes[b].node->function_id, TRUE);
          tooltip = hp_loaded_capture_dup_tooltip_name (self->profile->capture, boxes[b].node->function_id);
        }
      else
        {
          const char *full = hp_profile_get_function_name (hp_flame_graph_get_profile (graph), boxes[b].node->function_id);

          name = shorter = hp_symbol_name_shorten (full, HP_SYMBOL_NAME_SHORT, HP_SHOWN_SHORT_CHARS);
          tooltip = hp_symbol_name_sanitize (full, -1, HP_SYMBOL_NAME_TOOLTIP_CHARS);
        }
      /* Translators: a function repeated by recursion in the flame graph's path, "parse ×12" */
      text = repeats > 1 ? g_strdup_printf (_("%s ×%u"), name, repeats) : g_strdup (name);
      add_crumb (self, text, tooltip, b, b == zoom);
    }
}

static void
on_zoom_changed (HpFlameCanvas *canvas,
                 GParamSpec    *pspec,
                 HpFlameView   *self)
{
  update_crumbs (self);
}

/* In flame orientation the root is at the bottom, as an icicle at the
 * top: a new graph or orientation is shown from the root's end, and the
 * view keeps to that end while the graph or the pane changes height, until
 * the user scrolls away. Scrolled once, before the taller graph was laid
 * out, a graph grown from 3 rows to 41 showed its top, the root and the
 * hot boxes below the fold. */
static gboolean
root_end (HpFlameView *self,
          double      *value)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->scroller);
  double end = gtk_toggle_button_get_active (self->icicle_toggle)
               ? 0 : gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);

  if (value != NULL)
    *value = MAX (0, end);
  return gtk_adjustment_get_value (adjustment) >= MAX (0, end) - 0.5 &&
         gtk_adjustment_get_value (adjustment) <= MAX (0, end) + 0.5;
}

static void
keep_root_end (HpFlameView *self)
{
  double end;

  if (!root_end (self, &end))
    gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->scroller), end);
}

static void
on_scroll_bounds_changed (GtkAdjustment *adjustment,
                          HpFlameView   *self)
{
  if (self->at_root)
    keep_root_end (self);
}

static void
on_scrolled (GtkAdjustment *adjustment,
             HpFlameView   *self)
{
  self->at_root = root_end (self, NULL);
}

static gboolean
scroll_to_root_cb (GtkWidget     *widget,
                   GdkFrameClock *clock,
                   gpointer       user_data)
{
  HpFlameView *self = HP_FLAME_VIEW (widget);
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->scroller);

  /* not laid out yet (the pane is being shown) */
  if (gtk_widget_get_height (GTK_WIDGET (self->canvas)) == 0 || gtk_adjustment_get_page_size (adjustment) == 0)
    return G_SOURCE_CONTINUE;
  self->scroll_tick = 0;
  self->at_root = TRUE;
  keep_root_end (self);
  return G_SOURCE_REMOVE;
}

static void
scroll_to_root (HpFlameView *self)
{
  self->at_root = TRUE;
  if (self->scroll_tick == 0)
    self->scroll_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), scroll_to_root_cb, NULL, NULL);
}

/* Building the layout --------------------------------------------------- */

/* Where a box's callees (top-down) or callers (bottom-up) are drawn:
 * above it, or, as an icicle, below it (the caption said "above" in an
 * icicle) */
static const char *
caption_order (HpFlameView *self)
{
  gboolean icicle = gtk_toggle_button_get_active (self->icicle_toggle);

  if (self->bottom_up)
    return icicle ? _("Bottom-up: each function with its callers below it.")
                  : _("Bottom-up: each function with its callers above it.");
  return icicle ? _("Top-down: each function with its callees below it.")
                : _("Top-down: each function with its callees above it.");
}

static void
update_caption (HpFlameView *self)
{
  g_autofree char *text = NULL;
  g_autofree char *width = NULL;
  g_autofree char *count = NULL;
  const char *event = NULL;
  guint64 n;

  if (self->profile == NULL)
    {
      gtk_inscription_set_text (self->caption, NULL);
      return;
    }
  n = hp_profile_get_n_samples (self->profile->profile);
  if (self->profile->measure.by_weight)
    {
      /* "1,234 page faults", "2.41 s off CPU": the amount names its unit */
      g_autofree char *amount = hp_format_amount (&self->profile->measure, n);
      g_autofree char *whole = hp_format_measure_name (&self->profile->measure);

      /* Translators: an amount with its unit ("1,234 page faults"), and what it is ("page faults", "time off the CPU") */
      width = g_strdup_printf (_("Width is a share of all %s (%s)."), amount, whole);
    }
  else
    {
      count = hp_format_count (n);
      event = self->profile->measure.event;
      /* Translators: the first %s is a sample count, the second the event, e.g. "cpu-clock" */
      width = g_strdup_printf (ngettext ("Width is samples, of all %s %s sample.",
                                         "Width is samples, of all %s %s samples.", n),
                               count, event ? event : "");
    }
  text = g_strjoin (" ", caption_order (self), width, _("Click a box to select it, double-click to zoom."), NULL);
  gtk_inscription_set_text (self->caption, text);
}

static void
show_graph (HpFlameView *self)
{
  HpFlameGraph *graph = self->graphs[self->bottom_up];

  hp_flame_canvas_set_names (self->canvas, self->profile != NULL ? self->profile->capture : NULL);
  hp_flame_canvas_set_measure (self->canvas, self->profile != NULL ? &self->profile->measure : NULL);
  hp_flame_canvas_set_graph (self->canvas, graph);
  hp_flame_canvas_set_selected (self->canvas, self->selected);
  gtk_stack_set_visible_child_name (self->stack,
                                    graph != NULL && hp_profile_get_n_samples (self->profile->profile) > 0
                                    ? "graph" : "none");
  update_caption (self);
  update_crumbs (self);
  update_marks (self);
  scroll_to_root (self);
}

static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  HpLoadedProfile *profile = task_data;
  gboolean bottom_up = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (task), "bottom-up"));

  g_task_return_pointer (task, hp_flame_graph_new (profile->profile, bottom_up),
                         (GDestroyNotify) hp_flame_graph_free);
}

static void
build_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  HpFlameView *self = HP_FLAME_VIEW (object);
  GTask *task = G_TASK (result);
  HpFlameGraph *graph = g_task_propagate_pointer (task, NULL);
  gboolean bottom_up = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (task), "bottom-up"));

  /* a newer profile was set meanwhile */
  if (graph == NULL || g_task_get_task_data (task) != self->profile)
    {
      g_clear_pointer (&graph, hp_flame_graph_free);
      return;
    }
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->graphs[bottom_up], hp_flame_graph_free);
  self->graphs[bottom_up] = graph;
  if (bottom_up == self->bottom_up)
    show_graph (self);
}

void
hp_flame_view_set_profile (HpFlameView     *self,
                           HpLoadedProfile *profile,
                           gboolean         bottom_up)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (HP_IS_FLAME_VIEW (self));

  bottom_up = !!bottom_up;
  if (profile == self->profile && bottom_up == self->bottom_up)
    return;
  if (profile != self->profile)
    {
      /* the canvas borrows the graph: it lets go first */
      hp_flame_canvas_set_graph (self->canvas, NULL);
      hp_flame_canvas_set_names (self->canvas, NULL);
      hp_flame_canvas_set_measure (self->canvas, NULL);
      g_clear_pointer (&self->graphs[0], hp_flame_graph_free);
      g_clear_pointer (&self->graphs[1], hp_flame_graph_free);
      g_clear_pointer (&self->profile, hp_loaded_profile_unref);
      self->profile = profile != NULL ? hp_loaded_profile_ref (profile) : NULL;
      self->selected = NULL;
    }
  self->bottom_up = bottom_up;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  if (self->profile == NULL || self->graphs[bottom_up] != NULL)
    {
      show_graph (self);
      return;
    }

  hp_flame_canvas_set_graph (self->canvas, NULL);
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, build_done, NULL);
  g_task_set_source_tag (task, hp_flame_view_set_profile);
  g_task_set_task_data (task, hp_loaded_profile_ref (self->profile), (GDestroyNotify) hp_loaded_profile_unref);
  g_object_set_data (G_OBJECT (task), "bottom-up", GINT_TO_POINTER (bottom_up));
  g_task_run_in_thread (task, build_thread);
}

void
hp_flame_view_set_selected (HpFlameView      *self,
                            const HpCallNode *node)
{
  HpFlameGraph *graph;
  gint index;

  g_return_if_fail (HP_IS_FLAME_VIEW (self));

  self->selected = node;
  hp_flame_canvas_set_selected (self->canvas, node);
  /* keep the selection in view: zoom out when it is outside the zoom */
  graph = hp_flame_canvas_get_graph (self->canvas);
  if (graph != NULL && node != NULL && (index = hp_flame_graph_find_node (graph, node)) >= 0)
    {
      guint n;
      const HpFlameBox *boxes = hp_flame_graph_get_boxes (graph, &n);
      guint zoom = hp_flame_canvas_get_zoom (self->canvas);

      if ((guint) index < zoom || (guint) index >= boxes[zoom].end)
        hp_flame_canvas_set_zoom (self->canvas, 0);
    }
}

void
hp_flame_view_set_search (HpFlameView *self,
                          const char  *text)
{
  g_return_if_fail (HP_IS_FLAME_VIEW (self));

  hp_flame_canvas_set_search (self->canvas, text);
}

void
hp_flame_view_set_summary_store (HpFlameView    *self,
                                 HpSummaryStore *store)
{
  g_return_if_fail (HP_IS_FLAME_VIEW (self));

  if (self->store != NULL)
    g_clear_signal_handler (&self->store_changed_id, self->store);
  g_set_object (&self->store, store);
  if (store != NULL)
    self->store_changed_id = g_signal_connect (store, "changed", G_CALLBACK (on_store_changed), self);
  update_marks (self);
}

HpFlameCanvas *
hp_flame_view_get_canvas (HpFlameView *self)
{
  g_return_val_if_fail (HP_IS_FLAME_VIEW (self), NULL);

  return self->canvas;
}

gboolean
hp_flame_view_is_busy (HpFlameView *self)
{
  g_return_val_if_fail (HP_IS_FLAME_VIEW (self), FALSE);

  return self->cancellable != NULL;
}

/* GObject ---------------------------------------------------------------- */

static void
on_box_activated (HpFlameCanvas *canvas,
                  guint          index,
                  HpFlameView   *self)
{
  guint n;
  const HpFlameBox *boxes = hp_flame_graph_get_boxes (hp_flame_canvas_get_graph (canvas), &n);

  if (boxes[index].node != NULL && boxes[index].node->function_id != 0)
    g_signal_emit (self, signals[NODE_ACTIVATED], 0, boxes[index].node);
}

static void
on_icicle_toggled (GtkToggleButton *button,
                   HpFlameView     *self)
{
  hp_flame_canvas_set_icicle (self->canvas, gtk_toggle_button_get_active (button));
  gtk_widget_set_valign (GTK_WIDGET (self->canvas),
                         gtk_toggle_button_get_active (button) ? GTK_ALIGN_START : GTK_ALIGN_END);
  update_caption (self);
  scroll_to_root (self);
}

static void
on_module_toggled (GtkToggleButton *button,
                   HpFlameView     *self)
{
  hp_flame_canvas_set_colors (self->canvas, gtk_toggle_button_get_active (button)
                                            ? HP_FLAME_COLORS_MODULE : HP_FLAME_COLORS_HOT);
}

static void
hp_flame_view_dispose (GObject *object)
{
  HpFlameView *self = HP_FLAME_VIEW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->scroll_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->scroll_tick);
  self->scroll_tick = 0;
  if (self->store != NULL)
    g_clear_signal_handler (&self->store_changed_id, self->store);
  g_clear_object (&self->store);
  if (self->canvas != NULL)
    {
      hp_flame_canvas_set_graph (self->canvas, NULL);
      hp_flame_canvas_set_names (self->canvas, NULL);
      hp_flame_canvas_set_measure (self->canvas, NULL);
    }
  hp_template_dispose (GTK_WIDGET (self), HP_TYPE_FLAME_VIEW);
  self->canvas = NULL;
  g_clear_pointer (&self->graphs[0], hp_flame_graph_free);
  g_clear_pointer (&self->graphs[1], hp_flame_graph_free);
  g_clear_pointer (&self->profile, hp_loaded_profile_unref);
  G_OBJECT_CLASS (hp_flame_view_parent_class)->dispose (object);
}

static void
hp_flame_view_class_init (HpFlameViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hp_flame_view_dispose;

  /* (node) a box was clicked: select its node */
  signals[NODE_ACTIVATED] =
    g_signal_new ("node-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);

  g_type_ensure (HP_TYPE_FLAME_CANVAS);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-flame-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HpFlameView, crumbs);
  gtk_widget_class_bind_template_child (widget_class, HpFlameView, module_toggle);
  gtk_widget_class_bind_template_child (widget_class, HpFlameView, icicle_toggle);
  gtk_widget_class_bind_template_child (widget_class, HpFlameView, caption);
  gtk_widget_class_bind_template_child (widget_class, HpFlameView, stack);
  gtk_widget_class_bind_template_child (widget_class, HpFlameView, scroller);
  gtk_widget_class_bind_template_child (widget_class, HpFlameView, canvas);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
hp_flame_view_init (HpFlameView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self->canvas, "box-activated", G_CALLBACK (on_box_activated), self);
  g_signal_connect (self->canvas, "notify::zoom", G_CALLBACK (on_zoom_changed), self);
  g_signal_connect (self->icicle_toggle, "toggled", G_CALLBACK (on_icicle_toggled), self);
  g_signal_connect (self->module_toggle, "toggled", G_CALLBACK (on_module_toggled), self);
  self->at_root = TRUE;
  g_signal_connect (gtk_scrolled_window_get_vadjustment (self->scroller), "changed",
                    G_CALLBACK (on_scroll_bounds_changed), self);
  g_signal_connect (gtk_scrolled_window_get_vadjustment (self->scroller), "value-changed",
                    G_CALLBACK (on_scrolled), self);
}

const char *
hp_flame_view_get_caption (HpFlameView *self)
{
  g_return_val_if_fail (HP_IS_FLAME_VIEW (self), NULL);

  return gtk_inscription_get_text (self->caption);
}

HpLoadedProfile *
hp_flame_view_get_profile (HpFlameView *self)
{
  g_return_val_if_fail (HP_IS_FLAME_VIEW (self), NULL);

  return self->profile;
}
