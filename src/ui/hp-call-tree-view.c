/* hp-call-tree-view.c - the call tree: top-down or bottom-up, lazy, sortable
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A GtkColumnView over GtkSingleSelection over an incremental
 * GtkSortListModel (GtkTreeListRowSorter around the column view's sorter)
 * over a GtkTreeListModel whose levels are HpCallNodeLists. Nothing is
 * built for a node until its parent is expanded, so opening a capture of
 * any size creates the rows of the hottest path and its siblings only.
 *
 * The top-down and the bottom-up tree each keep their own models, so
 * switching back and forth keeps what was expanded and selected in each.
 *
 * Selecting a node by program (hottest path, breadcrumbs, callers,
 * summaries, search) expands its ancestors through GtkTreeListRow, which
 * indexes children in the model's own (unsorted) order, then looks for
 * the row in the sorted list once the incremental sort has settled, and
 * scrolls there with the list's "list.scroll-to-item" action (GTK 4.8 has
 * no gtk_column_view_scroll_to()).
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include "store/hp-capture-keys.h"

#include <string.h>
#include <glib/gi18n.h>

#include "ui/hp-call-node-list.h"
#include "document/hp-call-path.h"
#include "ui/hp-call-row.h"
#include "ui/hp-call-tree-view-private.h"
#include "ui/hp-cell.h"
#include "document/hp-format.h"
#include "ui/hp-gtk-compat.h"
#include "ui/hp-template.h"
#include "ui/hp-grow-list-model.h"

G_DEFINE_FINAL_TYPE (HpCallTreeView, hp_call_tree_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_BOTTOM_UP,
  N_PROPS
};

enum {
  NODE_SELECTED,
  SEARCH_DONE,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* Sorting ------------------------------------------------------------ */

/* What a column sorts by; its sorter's user data */
typedef enum {
  SORT_BY_NAME,
  SORT_BY_SELF,
  SORT_BY_TOTAL,
  SORT_BY_MODULE,
} SortKey;

/* A first click on Self or Total sorts the biggest first (GTK sorts
 * ascending first). GTK 4.8 does not say which column a click chose, so
 * the view's sorter is probed: while probing, the column sorters answer
 * "smaller" and the first one asked, the primary, leaves its key here;
 * the view's answer then says the direction. Main thread, between sorts. */
static gboolean probing;
static int probed_key = -1;

/* Ties keep the model's order (total, then name), the sort being stable */
static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  HpCallRow *ra = (HpCallRow *) a;
  HpCallRow *rb = (HpCallRow *) b;
  gint64 cmp = 0;

  if (G_UNLIKELY (probing))
    {
      if (probed_key < 0)
        probed_key = GPOINTER_TO_INT (user_data);
      return GTK_ORDERING_SMALLER;
    }

  switch ((SortKey) GPOINTER_TO_INT (user_data))
    {
    case SORT_BY_NAME:
      cmp = g_utf8_collate (hp_call_row_get_name (ra), hp_call_row_get_name (rb));
      break;
    case SORT_BY_SELF:
      cmp = (hp_call_row_get_node (ra)->self > hp_call_row_get_node (rb)->self) -
            (hp_call_row_get_node (ra)->self < hp_call_row_get_node (rb)->self);
      break;
    case SORT_BY_TOTAL:
      cmp = (hp_call_row_get_node (ra)->total > hp_call_row_get_node (rb)->total) -
            (hp_call_row_get_node (ra)->total < hp_call_row_get_node (rb)->total);
      break;
    case SORT_BY_MODULE:
      cmp = g_strcmp0 (hp_call_row_get_module (ra), hp_call_row_get_module (rb));
      break;
    }
  return cmp < 0 ? GTK_ORDERING_SMALLER : cmp > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static const HpCellSpec function_cell = {
  .tree_row = TRUE,
  .expander = TRUE,
  .markup = "name-markup",
  .text = "name",
  .mark = "has-summary",
  .mark_icon = "document-edit-symbolic",
  .tooltip = "tooltip",
  .text_chars = 40,
};
static const HpCellSpec self_cell = {
  .tree_row = TRUE,
  .percent = "self-percent",
  .count = "self-count",
  .count_chars = 8,
  .count_width = "count-chars",
  .tooltip = "tooltip",
};
static const HpCellSpec total_cell = {
  .tree_row = TRUE,
  .fraction = "total-fraction",
  .percent = "total-percent",
  .count = "total-count",
  .count_chars = 8,
  .count_width = "count-chars",
  .tooltip = "tooltip",
};
static const HpCellSpec ratio_cell = {
  .tree_row = TRUE,
  .percent = "ratio",
  .count_chars = 6,
};
static const HpCellSpec module_cell = {
  .tree_row = TRUE,
  .text = "module",
  .text_chars = 16,
  .dim = TRUE,
  .ellipsize_middle = TRUE,
};

static void
set_column_factory (GtkColumnViewColumn *column,
                    const HpCellSpec    *spec)
{
  g_autoptr(GtkListItemFactory) factory = hp_cell_factory_new (spec);

  gtk_column_view_column_set_factory (column, factory);
}

static void
set_column_sorter (GtkColumnViewColumn *column,
                   SortKey              key)
{
  g_autoptr(GtkSorter) sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows, GINT_TO_POINTER (key), NULL));

  gtk_column_view_column_set_sorter (column, sorter);
}

/* Models ------------------------------------------------------------- */

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  HpCallRow *row = item;

  return (GListModel *) hp_call_node_list_new (hp_call_row_get_context (row),
                                               hp_call_row_get_node (row));
}

static void
tree_models_clear (TreeModels *t)
{
  if (t->view != NULL)
    gtk_column_view_set_model (t->view, NULL);
  g_clear_object (&t->selection);
  g_clear_object (&t->slice);
  g_clear_object (&t->sort_model);
  g_clear_object (&t->tree_model);
  g_clear_pointer (&t->context, hp_call_tree_context_unref);
  t->grow_target = 0;
  t->cut_depth = 0;
}

static void
on_selected_changed (GtkSingleSelection *selection,
                     GParamSpec         *pspec,
                     HpCallTreeView     *self)
{
  if (selection != hp_call_tree_view_current (self)->selection || self->preparing || self->unselecting)
    return;
  g_signal_emit (self, signals[NODE_SELECTED], 0, hp_call_tree_view_get_selected (self));
}

/* GtkSortListModel sorts incrementally a little at a time, a step per
 * main-loop iteration, so even four rows appear unsorted for a moment and
 * a selection has to wait for them. Sorting all shown rows at once takes
 * under a millisecond per few thousand rows, so the sort is incremental
 * only for a list long enough to block a frame. */
#define INCREMENTAL_SORT_ROWS 20000

static void
choose_incremental (GListModel     *model,
                    guint           position,
                    guint           removed,
                    guint           added,
                    HpCallTreeView *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->trees); i++)
    if (self->trees[i].tree_model == (gpointer) model && self->trees[i].sort_model != NULL)
      gtk_sort_list_model_set_incremental (self->trees[i].sort_model,
                                           g_list_model_get_n_items (model) > INCREMENTAL_SORT_ROWS);
}

static void
resolve_marks (HpCallTreeView *self)
{
  HpCallTreeContext *context = self->trees[0].context;
  GHashTableIter iter;
  gpointer key;

  if (context == NULL)
    return;
  g_hash_table_iter_init (&iter, self->marked_keys);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      const HpCallNode *node = hp_call_path_find (self->profile->profile, key);

      if (node != NULL)
        hp_call_tree_context_set_marked (context, node, TRUE);
    }
}

/* The profile's children are already in the default order (total,
 * descending), so until a column header asks for another order the sort
 * model passes changes through untouched. A sorting GtkSortListModel
 * reports an expansion as a change of every row below it, which the
 * list rebinds: 20 expansions on the hottest path cost 130 ms that way
 * on the 1M-sample benchmark. */
static GtkColumnViewColumn *
primary_sort_column (TreeModels  *t,
                     GtkSortType *order)
{
  /* two items: gtk_sorter_compare() finds an item equal to itself unasked */
  g_autoptr(GObject) a = g_object_new (G_TYPE_OBJECT, NULL);
  g_autoptr(GObject) b = g_object_new (G_TYPE_OBJECT, NULL);
  GtkOrdering answer;

  probing = TRUE;
  probed_key = -1;
  answer = gtk_sorter_compare (gtk_column_view_get_sorter (t->view), a, b);
  probing = FALSE;
  *order = answer == GTK_ORDERING_LARGER ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING;
  switch (probed_key)
    {
    case SORT_BY_NAME: return t->function_column;
    case SORT_BY_SELF: return t->self_column;
    case SORT_BY_TOTAL: return t->total_column;
    case SORT_BY_MODULE: return t->module_column;
    default: return NULL;
    }
}

static void
on_sorter_changed (GtkSorter       *sorter,
                   GtkSorterChange  change,
                   HpCallTreeView  *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->trees); i++)
    {
      TreeModels *t = &self->trees[i];
      g_autoptr(GtkSorter) row_sorter = NULL;
      GtkColumnViewColumn *primary;
      GtkSortType order;

      if (t->sort_model == NULL || t->view == NULL || gtk_column_view_get_sorter (t->view) != sorter)
        continue;
      primary = primary_sort_column (t, &order);
      if ((primary == t->self_column || primary == t->total_column) &&
          primary != t->sorted_by && order == GTK_SORT_ASCENDING)
        {
          /* a first click on a count: the biggest first (this signal
           * comes again, from there) */
          t->sorted_by = primary;
          gtk_column_view_sort_by_column (t->view, primary, GTK_SORT_DESCENDING);
          return;
        }
      t->sorted_by = primary;
      if (gtk_sorter_get_order (sorter) != GTK_SORTER_ORDER_NONE)
        row_sorter = GTK_SORTER (gtk_tree_list_row_sorter_new (g_object_ref (sorter)));
      if ((row_sorter == NULL) != (gtk_sort_list_model_get_sorter (t->sort_model) == NULL))
        gtk_sort_list_model_set_sorter (t->sort_model, row_sorter);
    }
}

/* Growing -----------------------------------------------------------

 * A GtkListView (4.8) makes row widgets for up to 200 rows as soon as
 * its model has them, and lays out, snapshots and (when rows move)
 * rebinds every one of them, shown or not: for the four cells of a
 * call-tree row that is about 1 ms a row to make, and a third of each
 * frame that switches trees or selects on the 1M-sample benchmark. So
 * the view gets its rows through a HpGrowListModel that holds the rows
 * down to two pages or so below what is shown, and grows, a few rows a
 * frame, as the view scrolls down or gets taller; once it holds them all
 * it passes the whole list through. Programmatic selection grows it at
 * once to the selected row. */
#define FIRST_ROWS_MIN  8     /* (a screenful, see first_rows()) */
#define FIRST_ROWS_MAX  40
#define MARGIN_ROWS     32    /* held below the last row shown */
#define ROWS_PER_STEP   2     /* added this many at a time, */
#define GROW_BUDGET_US  2000  /* for so long each frame */
#define FAR_ROWS        8     /* a selection further down than this waits */
#define FAR_BUDGET_US   3000  /* for rows made at this pace */
#define ROWS_UNDER_SELECTED 8 /* held under a selected row, so that scrolling shows it above the bottom */
#define ROWS_SHOWN_UNDER 4    /* scrolled into view under a row selected by program: 3 and the header's height */

/* The rows to show at first: what fits the view (20 px a row), or 16
 * before it was ever shown (a 1280x800 window shows 14); the rest come a
 * few a frame. The first frame of a capture makes their widgets, about
 * 1 ms a row. */
static guint
first_rows (TreeModels *t)
{
  int height = t->scroller != NULL ? gtk_widget_get_height (t->scroller) : 0;

  return height > 0 ? CLAMP (height / 20 + 1, FIRST_ROWS_MIN, FIRST_ROWS_MAX) : 16;
}

static gboolean
tree_complete (TreeModels *t)
{
  return t->slice == NULL || hp_grow_list_model_get_limit (t->slice) == G_MAXUINT;
}

/* The rows the view should hold: down to MARGIN_ROWS below the last one
 * it shows (rows have one height, so the adjustment tells which). */
static guint
wanted_rows (TreeModels *t)
{
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (t->scroller));
  guint held = g_list_model_get_n_items (G_LIST_MODEL (t->slice));
  double upper = gtk_adjustment_get_upper (adj);
  double row = held > 0 && upper > 0 ? upper / held : 20;
  guint last_shown = (guint) ((gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj)) / MAX (row, 1.0));

  return MAX (MAX (first_rows (t), last_shown + MARGIN_ROWS), t->grow_target);
}

static gboolean
tree_grown (TreeModels *t)
{
  return tree_complete (t) || hp_grow_list_model_get_limit (t->slice) >= wanted_rows (t);
}

/* Makes the view hold at least @n_rows rows (G_MAXUINT: all). */
static void
grow (TreeModels *t,
      guint       n_rows)
{
  guint size;

  if (tree_complete (t))
    return;
  size = hp_grow_list_model_get_limit (t->slice);
  if (n_rows >= g_list_model_get_n_items (G_LIST_MODEL (t->sort_model)))
    n_rows = G_MAXUINT;
  if (n_rows > size)
    hp_grow_list_model_set_limit (t->slice, n_rows);
}

static void finish_select (HpCallTreeView *self);

static gboolean
grow_tick_cb (GtkWidget     *widget,
              GdkFrameClock *clock,
              gpointer       user_data)
{
  HpCallTreeView *self = HP_CALL_TREE_VIEW (widget);

  /* the shown tree first, then the hidden one */
  for (guint k = 0; k < G_N_ELEMENTS (self->trees); k++)
    {
      TreeModels *t = k == 0 ? hp_call_tree_view_current (self) : &self->trees[self->bottom_up ? 0 : 1];

      if (t->view != NULL && t->selection != NULL &&
          gtk_column_view_get_model (t->view) == GTK_SELECTION_MODEL (t->selection) &&
          !tree_grown (t))
        {
          /* making a row's widgets costs about as much as laying them
           * out later in the frame: an eighth of a frame for each, or
           * more while a selection waits for its row */
          gint64 deadline = g_get_monotonic_time () +
                            (k == 0 && self->far_select != NULL ? FAR_BUDGET_US : GROW_BUDGET_US);

          do
            grow (t, hp_grow_list_model_get_limit (t->slice) + ROWS_PER_STEP);
          while (!tree_grown (t) && g_get_monotonic_time () < deadline);
          if (k == 0 && self->far_select != NULL &&
              (tree_complete (t) || hp_grow_list_model_get_limit (t->slice) >= t->grow_target))
            {
              self->pending_select = self->far_select;
              finish_select (self);
            }
          return G_SOURCE_CONTINUE;
        }
    }
  self->grow_tick = 0;
  return G_SOURCE_REMOVE;
}

static void
start_growing (HpCallTreeView *self)
{
  if (self->grow_tick == 0)
    self->grow_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), grow_tick_cb, NULL, NULL);
}

/* Scrolling down or a taller view wants more rows. */
static void
on_adjustment_changed (GtkAdjustment  *adj,
                       HpCallTreeView *self)
{
  start_growing (self);
}

/* Shows the models in the view, once the rows to expand at first are
 * expanded: rows that are not shown yet cost nothing to change (20 ms of
 * the first paint on the 1M-sample benchmark). */
static void
attach (HpCallTreeView *self)
{
  TreeModels *t = hp_call_tree_view_current (self);
  guint selected;

  if (t->selection == NULL ||
      gtk_column_view_get_model (t->view) == GTK_SELECTION_MODEL (t->selection))
    return;
  selected = gtk_single_selection_get_selected (t->selection);
  gtk_column_view_set_model (t->view, GTK_SELECTION_MODEL (t->selection));
  /* (GtkColumnView keeps the selection; checked, as it is easy to lose) */
  g_assert (gtk_single_selection_get_selected (t->selection) == selected);
  start_growing (self);
}

static void
ensure_models (HpCallTreeView *self,
               gboolean        bottom_up)
{
  TreeModels *t = &self->trees[bottom_up ? 1 : 0];
  g_autoptr(GListModel) roots = NULL;

  if (t->tree_model != NULL || self->profile == NULL)
    return;

  t->context = hp_call_tree_context_new (self->profile, bottom_up);
  /* Self and Total as wide as this profile's counts need: eight digits
   * for 3,000 samples were a quarter of the columns' width */
  hp_cell_set_column_width_for_count (t->self_column, &self_cell, t->context->count_chars);
  hp_cell_set_column_width_for_count (t->total_column, &total_cell, t->context->count_chars);
  roots = (GListModel *) hp_call_node_list_new (t->context, hp_call_tree_context_get_root (t->context));
  if (roots == NULL)
    roots = G_LIST_MODEL (g_list_store_new (HP_TYPE_CALL_ROW));
  t->tree_model = gtk_tree_list_model_new (g_steal_pointer (&roots), FALSE, FALSE,
                                           create_children, NULL, NULL);
  /* before the sort model connects, so it sees the new mode */
  g_signal_connect_object (t->tree_model, "items-changed", G_CALLBACK (choose_incremental), self, 0);
  t->sort_model = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (t->tree_model)), NULL);
  on_sorter_changed (gtk_column_view_get_sorter (t->view), GTK_SORTER_CHANGE_DIFFERENT, self);
  choose_incremental (G_LIST_MODEL (t->tree_model), 0, 0, 0, self);
  t->slice = hp_grow_list_model_new (g_object_ref (G_LIST_MODEL (t->sort_model)), first_rows (t));
  t->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (t->slice)));
  gtk_single_selection_set_autoselect (t->selection, FALSE);
  gtk_single_selection_set_can_unselect (t->selection, TRUE);
  gtk_single_selection_set_selected (t->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_object (t->selection, "notify::selected", G_CALLBACK (on_selected_changed), self, 0);

  if (!bottom_up)
    resolve_marks (self);
}

/* The ratio column, where the capture's events make one (instructions
 * per cycle, page faults per ms on the CPU), titled by what it divides. */
static void
update_ratio_columns (HpCallTreeView *self)
{
  gboolean shown = self->profile != NULL && self->profile->ratio.kind != HP_RATIO_NONE;
  g_autofree char *title = NULL;
  g_autofree char *tooltip = NULL;

  if (shown)
    title = hp_format_ratio_title (&self->profile->ratio, self->profile->capture->data, &tooltip);
  for (guint i = 0; i < G_N_ELEMENTS (self->trees); i++)
    {
      gtk_column_view_column_set_visible (self->trees[i].ratio_column, shown);
      /* a hidden column with a fixed width still takes its width from
       * the Function column (GTK 4.8): fixed only while shown */
      if (shown)
        {
          g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self->trees[i].view), title);
          int title_width = 0;

          gtk_column_view_column_set_title (self->trees[i].ratio_column, title);
          hp_cell_set_column_width (self->trees[i].ratio_column, &ratio_cell);
          /* as wide as its title ("page-faults / ms"), with the header's padding */
          pango_layout_get_pixel_size (layout, &title_width, NULL);
          if (title_width + 24 > gtk_column_view_column_get_fixed_width (self->trees[i].ratio_column))
            gtk_column_view_column_set_fixed_width (self->trees[i].ratio_column, title_width + 24);
        }
      else
        gtk_column_view_column_set_fixed_width (self->trees[i].ratio_column, -1);
    }
}

static void update_depth_note (HpCallTreeView *self);

static void
update_caption (HpCallTreeView *self)
{
  g_autofree char *text = NULL;
  g_autofree char *count = NULL;
  g_autofree char *whole = NULL;
  const HpMeasure *measure;
  guint64 n;

  if (self->profile == NULL)
    return;
  measure = &self->profile->measure;
  n = hp_profile_get_n_samples (self->profile->profile);
  whole = hp_format_measure_name (measure);
  if (measure->by_weight)
    {
      /* "1,234 page faults", "2.41 s off CPU": the amount names its unit */
      g_autofree char *amount = hp_format_amount (measure, n);

      if (self->bottom_up)
        /* Translators: %s are an amount with its unit ("1,234 page faults", "2.41 s") and what it is ("page faults") */
        text = g_strdup_printf (_("Bottom-up: each top-level function is where the event was counted, its children are the callers. "
                                  "Self and Total are shares of all %s (%s)."),
                                amount, whole);
      else
        text = g_strdup_printf (_("Top-down from the program’s entry. Self: counted in the function itself; "
                                  "Total: in it and in what it calls. Shares of all %s (%s)."),
                                amount, whole);
    }
  else
    {
      const char *event = measure->event;

      count = hp_format_count (n);
      if (event == NULL)
        event = _("unknown event");
      if (self->bottom_up)
        /* Translators: %s are a sample count and an event name such as cpu-clock */
        text = g_strdup_printf (ngettext ("Bottom-up: each top-level function is where samples were taken, its children are the callers. "
                                          "Self and Total count the samples ending in that path, as a share of all %s %s sample.",
                                          "Bottom-up: each top-level function is where samples were taken, its children are the callers. "
                                          "Self and Total count the samples ending in that path, as a share of all %s %s samples.", n),
                                count, event);
      else
        text = g_strdup_printf (ngettext ("Top-down from the program’s entry. Self: samples taken in the function itself; "
                                          "Total: in it and in what it calls. Shares of all %s %s sample.",
                                          "Top-down from the program’s entry. Self: samples taken in the function itself; "
                                          "Total: in it and in what it calls. Shares of all %s %s samples.", n),
                                count, event);
    }
  if (self->profile->ratio.kind != HP_RATIO_NONE)
    {
      g_autofree char *tooltip = NULL;
      g_autofree char *title = hp_format_ratio_title (&self->profile->ratio, self->profile->capture->data, &tooltip);
      /* Translators: a ratio column's title and what it means, after the caption */
      g_autofree char *more = g_strdup_printf (_(" %s: %s."), title, tooltip);
      char *joined = g_strconcat (text, more, NULL);

      g_free (text);
      text = joined;
    }
  gtk_inscription_set_text (self->caption, text);
}

/* Hides a tree that was laid out once so that its rows got built. */
static gboolean
on_hide_tick (GtkWidget     *scroller,
              GdkFrameClock *clock,
              gpointer       user_data)
{
  HpCallTreeView *self = user_data;

  if (gtk_widget_get_height (scroller) <= 0)
    return G_SOURCE_CONTINUE;  /* not laid out yet */
  for (guint i = 0; i < G_N_ELEMENTS (self->trees); i++)
    if (self->trees[i].scroller == scroller)
      {
        /* laid out as its rows grow, a few each frame */
        if (!tree_grown (&self->trees[i]))
          return G_SOURCE_CONTINUE;
        self->trees[i].hide_tick = 0;
        if ((i == 1) != self->bottom_up)
          gtk_widget_set_child_visible (scroller, FALSE);
      }
  return G_SOURCE_REMOVE;
}

/* Why @profile shows nothing, in what it counts: the chosen threads have
 * none of the event shown (another event or all threads have some), the
 * capture has none of it (its other events have some), or the capture
 * holds no samples at all. */
static char *
empty_text (HpLoadedProfile *profile)
{
  g_autofree char *what = hp_format_measure_name (&profile->measure);

  if (profile->tids != NULL)
    /* Translators: %s is what the view counts ("page faults", "cpu-clock samples", "time off the CPU") */
    return g_strdup_printf (_("The chosen threads have no %s. Choose “All threads”, or another event, to see "
                              "more of the capture."), what);
  if (profile->capture->n_samples > 0)
    /* Translators: %s is what the view counts ("page faults", "cpu-clock samples") */
    return g_strdup_printf (_("This capture holds no %s: the event was not counted while it recorded. "
                              "Choose another event above."), what);
  return g_strdup (_("This capture holds no samples: the program ended before the first sample, or every "
                     "sample was lost."));
}

static void
show_current (HpCallTreeView *self)
{
  ensure_models (self, self->bottom_up);
  update_caption (self);
  update_depth_note (self);

  if (self->profile != NULL && hp_profile_get_n_samples (self->profile->profile) == 0)
    {
      g_autofree char *text = empty_text (self->profile);

      gtk_label_set_text (self->empty_label, text);
      gtk_stack_set_visible_child_name (self->stack, "empty");
    }
  else
    gtk_stack_set_visible_child_name (self->stack, "tree");

  /* The shown tree on top; the other neither laid out nor drawn (but
   * keeping its rows' widgets), except for the one layout that builds
   * them after opening (prepare_other_cb). */
  for (guint i = 0; i < G_N_ELEMENTS (self->trees); i++)
    {
      GtkWidget *scroller = self->trees[i].scroller;
      gboolean shown = (i == 1) == self->bottom_up;

      if (self->trees[i].hide_tick != 0)
        gtk_widget_remove_tick_callback (scroller, self->trees[i].hide_tick);
      self->trees[i].hide_tick = 0;
      gtk_widget_set_child_visible (scroller, shown);
      gtk_widget_set_opacity (scroller, shown ? 1.0 : 0.0);
      gtk_widget_set_can_target (scroller, shown);
      gtk_widget_set_can_focus (scroller, shown);
      gtk_accessible_update_state (GTK_ACCESSIBLE (scroller), GTK_ACCESSIBLE_STATE_HIDDEN, !shown, -1);
    }
}

/* Selecting ---------------------------------------------------------- */

/* TRUE once done: the focus is on the selected row, or is not the
 * tree's to move; FALSE while that row is not on screen yet. */
static gboolean
move_focus_to_selected (HpCallTreeView *self)
{
  TreeModels *t = hp_call_tree_view_current (self);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  GtkTreeListRow *selected;
  g_autoptr(GObject) item = NULL;
  GtkWidget *row;

  if (t->selection == NULL || t->view == NULL || focus == NULL ||
      !gtk_widget_is_ancestor (focus, GTK_WIDGET (t->view)) ||
      (selected = gtk_single_selection_get_selected_item (t->selection)) == NULL)
    return TRUE;
  item = gtk_tree_list_row_get_item (selected);
  row = hp_cell_find_row (GTK_WIDGET (t->view), item);
  if (row == NULL)
    return FALSE;
  if (focus != row && !gtk_widget_is_ancestor (focus, row))
    gtk_widget_grab_focus (row);
  return TRUE;
}

static gboolean
focus_tick_cb (GtkWidget     *widget,
               GdkFrameClock *clock,
               gpointer       user_data)
{
  HpCallTreeView *self = HP_CALL_TREE_VIEW (widget);

  if (!move_focus_to_selected (self) && ++self->focus_frames < 30)
    return G_SOURCE_CONTINUE;  /* not laid out yet */
  self->focus_tick = 0;
  return G_SOURCE_REMOVE;
}

/* The keyboard focus of a list is a row of its own, apart from the
 * selection: after the window selected the hot row, the first Down went
 * on from the row that had the focus (the top one), and the hot row was
 * lost. So the focus follows a selection made by program, at once when
 * its row is on screen, else a frame or two after scrolling there; but
 * only when the tree has the focus already: a search match is selected
 * while the user types in the search entry. */
static void
follow_with_focus (HpCallTreeView *self)
{
  self->focus_frames = 0;
  if (move_focus_to_selected (self))
    return;
  if (self->focus_tick == 0)
    self->focus_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), focus_tick_cb, NULL, NULL);
}

static gboolean
scroll_cb (gpointer user_data)
{
  HpCallTreeView *self = user_data;
  TreeModels *t = hp_call_tree_view_current (self);
  GtkWidget *list = hp_column_view_get_list (t->view);

  /* GTK 4.8 scrolls by the list's allocation: wait for a first layout */
  if (list != NULL && (!gtk_widget_get_mapped (list) || gtk_widget_get_height (list) <= 0))
    return G_SOURCE_CONTINUE;
  self->scroll_source = 0;
  if (list != NULL && t->selection != NULL &&
      self->scroll_position < g_list_model_get_n_items (G_LIST_MODEL (t->selection)))
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (t->selection));
      guint pos = self->scroll_position;
      GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (t->scroller));
      double row = gtk_adjustment_get_upper (adj) / n;   /* rows are of one height */
      double page = gtk_adjustment_get_page_size (adj);

      /* GTK 4.8 scrolls a row only just into view: to the foot, coming
       * from above, without counting the header's height (which cut the
       * row in half). So a row at or below the foot is shown by the row
       * scroll_below under it, as many of them as leave it in view. */
      if (row > 0 && (pos + 1) * row > gtk_adjustment_get_value (adj) + page - row)
        {
          guint fit = page / row > 2 ? (guint) (page / row) - 2 : 0;

          pos = MIN (pos + MIN (self->scroll_below, fit), n - 1);
        }
      hp_column_view_scroll_to (t->view, pos);
      follow_with_focus (self);
    }
  return G_SOURCE_REMOVE;
}

static guint
find_position (HpCallTreeView   *self,
               const HpCallNode *node)
{
  TreeModels *t = hp_call_tree_view_current (self);
  HpCallRow *row = hp_call_tree_context_lookup (t->context, node);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (t->sort_model));

  if (row == NULL)
    return GTK_INVALID_LIST_POSITION;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) r = g_list_model_get_item (G_LIST_MODEL (t->sort_model), i);
      g_autoptr(GObject) item = gtk_tree_list_row_get_item (r);

      if (item == (GObject *) row)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

/* GtkSingleSelection reports a move from one row to another as a change
 * of every row between them, and the view updates each of their cells:
 * 28 ms for a search match 235 rows below the selection. Unselecting
 * first (quietly) makes it two changes of one row each. */
static void
select_position (HpCallTreeView *self,
                 TreeModels     *t,
                 guint           pos)
{
  guint old = gtk_single_selection_get_selected (t->selection);

  if (old != GTK_INVALID_LIST_POSITION && (old > pos + 1 || pos > old + 1))
    {
      self->unselecting = TRUE;
      gtk_single_selection_set_selected (t->selection, GTK_INVALID_LIST_POSITION);
      self->unselecting = FALSE;
    }
  gtk_single_selection_set_selected (t->selection, pos);
}

static void
finish_select (HpCallTreeView *self)
{
  const HpCallNode *node = self->pending_select;
  TreeModels *t = hp_call_tree_view_current (self);
  guint pos;

  self->pending_select = NULL;
  self->far_select = NULL;
  t->grow_target = 0;
  if (node == NULL || t->selection == NULL)
    return;
  pos = find_position (self, node);
  if (pos == GTK_INVALID_LIST_POSITION)
    return;
  if (!self->preparing && !tree_complete (t) &&
      pos + ROWS_UNDER_SELECTED > hp_grow_list_model_get_limit (t->slice) + FAR_ROWS)
    {
      /* far below the rows held: they are made a few a frame first
       * (all at once took up to 100 ms), then it is selected */
      t->grow_target = pos + ROWS_UNDER_SELECTED;
      self->far_select = node;
      start_growing (self);
      return;
    }
  /* and a few rows under it; scrolling shows it at the bottom at most */
  grow (t, pos + ROWS_UNDER_SELECTED);
  if (gtk_single_selection_get_selected (t->selection) != pos)
    select_position (self, t, pos);
  else if (!self->preparing)
    g_signal_emit (self, signals[NODE_SELECTED], 0, node);
  if (self->preparing)
    return;  /* a hidden tree starts at its top */
  follow_with_focus (self);

  /* after the new rows are laid out; with a few rows under it, of
   * context (a search match was shown at the very foot) */
  self->scroll_position = pos;
  self->scroll_below = ROWS_SHOWN_UNDER;
  if (self->scroll_source == 0)
    self->scroll_source = g_timeout_add_full (GDK_PRIORITY_REDRAW + 10, 16, scroll_cb, self, NULL);
}

static void
on_pending_changed (GtkSortListModel *model,
                    GParamSpec       *pspec,
                    HpCallTreeView   *self)
{
  if (gtk_sort_list_model_get_pending (model) > 0)
    return;
  g_clear_signal_handler (&self->pending_handler, self->pending_model);
  self->pending_model = NULL;
  finish_select (self);
}

/* Expands the ancestors of @node, root first, and returns its row of the
 * tree list model. */
GtkTreeListRow *
hp_call_tree_view_expand_to_within (HpCallTreeView   *self,
                                    const HpCallNode *node,
                                    gint64            deadline,
                                    gboolean         *finished)
{
  TreeModels *t = hp_call_tree_view_current (self);
  g_autoptr(GPtrArray) steps = hp_call_path_steps (node);
  GtkTreeListRow *row = NULL;

  if (finished != NULL)
    *finished = FALSE;
  if (steps->len > MAX_OPEN_DEPTH)
    g_ptr_array_set_size (steps, MAX_OPEN_DEPTH);
  for (guint i = 0; i < steps->len; i++)
    {
      const HpCallNode *step = g_ptr_array_index (steps, i);
      const HpCallNode *parent = step->parent;
      GtkTreeListRow *next;
      guint index;

      if (!hp_call_node_find_child (parent, step, &index))
        {
          g_clear_object (&row);
          if (finished != NULL)
            *finished = TRUE;  /* not in this tree: nothing to expand */
          return NULL;
        }
      if (row == NULL)
        next = gtk_tree_list_model_get_child_row (t->tree_model, index);
      else
        {
          if (!gtk_tree_list_row_get_expanded (row))
            {
              if (g_get_monotonic_time () > deadline)
                {
                  g_clear_object (&row);
                  return NULL;   /* the rest next time */
                }
              gtk_tree_list_row_set_expanded (row, TRUE);
            }
          next = gtk_tree_list_row_get_child_row (row, index);
        }
      g_clear_object (&row);
      row = next;
      if (row == NULL)
        {
          if (finished != NULL)
            *finished = TRUE;
          return NULL;
        }
    }
  if (finished != NULL)
    *finished = TRUE;
  return row;
}

static GtkTreeListRow *
expand_to (HpCallTreeView   *self,
           const HpCallNode *node)
{
  return hp_call_tree_view_expand_to_within (self, node, G_MAXINT64, NULL);
}

static void
update_depth_note (HpCallTreeView *self)
{
  guint depth = hp_call_tree_view_current (self)->cut_depth;
  g_autofree char *text = NULL;

  if (depth > 0)
    text = g_strdup_printf (ngettext ("This path goes %u call deep; the tree opens its first %u levels. "
                                      "Open the rows below the selected one by hand to go deeper.",
                                      "This path goes %u calls deep; the tree opens its first %u levels. "
                                      "Open the rows below the selected one by hand to go deeper.", depth),
                            depth, MAX_OPEN_DEPTH);
  gtk_label_set_text (self->depth_note, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->depth_note), text != NULL);
}

/* @node, or its ancestor MAX_OPEN_DEPTH levels down when it is deeper:
 * what the tree can select without opening rows too deep. The shown
 * tree's note says when it is the ancestor. */
static const HpCallNode *
within_open_depth (HpCallTreeView   *self,
                   const HpCallNode *node)
{
  TreeModels *t = hp_call_tree_view_current (self);
  const HpCallNode *n;
  guint depth = 0;

  for (n = node; n != NULL && n->parent != NULL; n = n->parent)
    depth++;
  t->cut_depth = depth > MAX_OPEN_DEPTH ? depth : 0;
  for (; depth > MAX_OPEN_DEPTH; depth--)
    node = node->parent;
  if (!self->preparing)
    update_depth_note (self);
  return node;
}

void
hp_call_tree_view_select_node (HpCallTreeView   *self,
                               const HpCallNode *node)
{
  TreeModels *t;
  g_autoptr(GtkTreeListRow) row = NULL;

  g_return_if_fail (HP_IS_CALL_TREE_VIEW (self));

  t = hp_call_tree_view_current (self);
  if (node == NULL || t->tree_model == NULL)
    return;
  node = within_open_depth (self, node);
  row = expand_to (self, node);
  if (row == NULL)
    return;
  /* make its row object (kept by its list) if no view asked for it yet */
  g_object_unref (gtk_tree_list_row_get_item (row));

  self->pending_select = node;
  if (gtk_sort_list_model_get_pending (t->sort_model) > 0)
    {
      if (self->pending_model != t->sort_model)
        {
          if (self->pending_model != NULL)
            g_clear_signal_handler (&self->pending_handler, self->pending_model);
          self->pending_model = t->sort_model;
          self->pending_handler = g_signal_connect (t->sort_model, "notify::pending",
                                                    G_CALLBACK (on_pending_changed), self);
        }
      return;
    }
  finish_select (self);
}

const HpCallNode *
hp_call_tree_view_get_selected (HpCallTreeView *self)
{
  TreeModels *t;
  GtkTreeListRow *row;
  g_autoptr(HpCallRow) item = NULL;

  g_return_val_if_fail (HP_IS_CALL_TREE_VIEW (self), NULL);

  t = hp_call_tree_view_current (self);
  if (t->selection == NULL)
    return NULL;
  row = gtk_single_selection_get_selected_item (t->selection);
  if (row == NULL)
    return NULL;
  item = gtk_tree_list_row_get_item (row);
  return item ? hp_call_row_get_node (item) : NULL;
}

/* Scrolls the selected row back into view after the tree's height
 * changed (a page below took some of it), once that is laid out. */
void
hp_call_tree_view_show_selected (HpCallTreeView *self)
{
  TreeModels *t;
  guint pos;

  g_return_if_fail (HP_IS_CALL_TREE_VIEW (self));

  t = hp_call_tree_view_current (self);
  if (t->selection == NULL || self->preparing)
    return;
  pos = gtk_single_selection_get_selected (t->selection);
  if (pos == GTK_INVALID_LIST_POSITION)
    return;
  /* and the row under it: the header's height (see scroll_cb) */
  self->scroll_position = pos;
  self->scroll_below = 1;
  if (self->scroll_source == 0)
    self->scroll_source = g_timeout_add_full (GDK_PRIORITY_REDRAW + 10, 16, scroll_cb, self, NULL);
}

/* A module of the system (libraries, the kernel) rather than of the
 * program that was profiled: its code is rarely what the user can change. */
static gboolean
is_system_module (const HpCaptureData *data,
                  gint64               function_id)
{
  gint64 module_id = g_array_index (data->functions, HpCaptureFunction, function_id).module_id;
  const HpCaptureModule *m;

  if (module_id <= 0 || (guint) module_id >= data->modules->len)
    return TRUE;
  m = &g_array_index (data->modules, HpCaptureModule, module_id);
  return m->is_kernel || m->path == NULL || m->path[0] == '[' ||
         g_str_has_prefix (m->path, "/usr/") || g_str_has_prefix (m->path, "/lib");
}

/* The hottest path: from the root, the child with the most total samples,
 * for as long as the time is below the node rather than in it (a node
 * whose own samples outweigh its hottest child ends the path, so the path
 * does not wander into the interrupt that hit it 3 times). The path is
 * expanded and drawn in bold. The node selected on it is the deepest one
 * in the profiled program's own code that has a source file, so that the
 * panes start on code the user can change; failing that, the deepest one
 * with a source file, failing that the end of the path. */
static void
expand_hottest (HpCallTreeView *self)
{
  TreeModels *t = hp_call_tree_view_current (self);
  const HpCallNode *node = hp_call_tree_context_get_root (t->context);
  const HpCallNode *own = NULL;
  const HpCallNode *with_file = NULL;
  const HpCallNode *leaf = NULL;
  const HpCaptureData *data = hp_profile_get_data (self->profile->profile);

  while (node->children != NULL && node->children->len > 0)
    {
      const HpCallNode *child = g_ptr_array_index (node->children, 0);
      const HpCaptureFunction *f = &g_array_index (data->functions, HpCaptureFunction, child->function_id);

      if (child->total == 0 || (node->parent != NULL && node->self >= child->total))
        break;
      hp_call_tree_context_set_hot (t->context, child);
      if (f->file != NULL)
        {
          with_file = child;
          if (!is_system_module (data, child->function_id))
            own = child;
        }
      leaf = node = child;
    }
  if (leaf != NULL)
    {
      /* the end of the path in view, its own callees folded */
      g_autoptr(GtkTreeListRow) row = expand_to (self, leaf);
    }
  if (self->bottom_up)
    {
      /* bottom-up: the hottest function itself, its callers shown below */
      const HpCallNode *chosen = leaf;

      while (chosen != NULL && chosen->parent != NULL && chosen->parent->parent != NULL)
        chosen = chosen->parent;
      hp_call_tree_view_select_node (self, chosen);
      return;
    }
  hp_call_tree_view_select_node (self, own ? own : with_file ? with_file : leaf);
}

/* Builds the tree that is not shown, and lays it out under the shown
 * one, so that switching to it later is instant: its rows are built by
 * this first layout, which on a large capture takes several frames'
 * time, better spent right after opening than when the user switches. */
static gboolean
prepare_other_cb (gpointer user_data)
{
  HpCallTreeView *self = user_data;
  gboolean other = !self->bottom_up;
  /* the shown tree may still be making the rows down to its hottest
   * node (a recursion 200 deep): selecting in the hidden tree must not
   * forget that node */
  const HpCallNode *far_select = self->far_select;

  self->prepare_source = 0;
  if (self->profile == NULL || self->trees[other ? 1 : 0].tree_model != NULL)
    return G_SOURCE_REMOVE;
  /* a filter's profile has the bottom-up tree only when it is shown:
   * building it here would cost as much as the profile did */
  if (other && !hp_profile_has_bottom_up (self->profile->profile))
    return G_SOURCE_REMOVE;

  self->preparing = TRUE;
  self->bottom_up = other;
  ensure_models (self, other);
  /* its rows a few at a time from the start, the shown tree is on screen */
  hp_grow_list_model_set_limit (hp_call_tree_view_current (self)->slice, ROWS_PER_STEP);
  hp_call_tree_context_set_search (hp_call_tree_view_current (self)->context, self->search);
  expand_hottest (self);
  attach (self);
  self->pending_select = NULL;  /* a selection still waiting for a sort was for the hidden tree */
  self->far_select = far_select;
  self->bottom_up = !other;
  self->preparing = FALSE;

  /* one layout, transparent, builds its rows; then out of layout again */
  {
    TreeModels *t = &self->trees[other ? 1 : 0];

    gtk_widget_set_child_visible (t->scroller, TRUE);
    if (t->hide_tick == 0)
      t->hide_tick = gtk_widget_add_tick_callback (t->scroller, on_hide_tick, self, NULL);
  }
  return G_SOURCE_REMOVE;
}

/* The bottom-up tree of a big profile is built in a worker when first
 * shown (a filter's profile has only the tree shown, see
 * HpProfileFilter.bottom_up); the view switches when it is there. A
 * small one is built at once: a few milliseconds. */
static guint bottom_up_at_once_nodes = 50000;

void
hp_call_tree_view_set_bottom_up_at_once (guint max_nodes)
{
  bottom_up_at_once_nodes = max_nodes;
}

static void
bottom_up_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  HpLoadedProfile *profile = task_data;

  hp_profile_get_bottom_up (profile->profile);
  /* and its ratio column's totals, with both events' bottom-up trees */
  hp_loaded_profile_get_ratio_map (profile, TRUE);
  g_task_return_boolean (task, TRUE);
}

static void
bottom_up_built (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  HpCallTreeView *self = HP_CALL_TREE_VIEW (object);

  if (!g_task_propagate_boolean (G_TASK (result), NULL) ||
      !self->waiting_bottom_up || self->profile != g_task_get_task_data (G_TASK (result)))
    return;
  self->waiting_bottom_up = FALSE;
  hp_call_tree_view_set_bottom_up (self, TRUE);
}

/* Whether switching to bottom-up must wait for a worker; starts it. */
static gboolean
wait_for_bottom_up (HpCallTreeView *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->profile == NULL || hp_profile_has_bottom_up (self->profile->profile) ||
      hp_profile_get_n_nodes (self->profile->profile, FALSE) <= bottom_up_at_once_nodes)
    return FALSE;
  if (self->bottom_up_cancellable != NULL)
    g_cancellable_cancel (self->bottom_up_cancellable);
  g_clear_object (&self->bottom_up_cancellable);
  self->bottom_up_cancellable = g_cancellable_new ();
  self->waiting_bottom_up = TRUE;
  task = g_task_new (self, self->bottom_up_cancellable, bottom_up_built, NULL);
  g_task_set_task_data (task, hp_loaded_profile_ref (self->profile), (GDestroyNotify) hp_loaded_profile_unref);
  g_task_set_check_cancellable (task, TRUE);
  g_task_run_in_thread (task, bottom_up_thread);
  return TRUE;
}

static void
stop_waiting_for_bottom_up (HpCallTreeView *self)
{
  self->waiting_bottom_up = FALSE;
  if (self->bottom_up_cancellable != NULL)
    g_cancellable_cancel (self->bottom_up_cancellable);
  g_clear_object (&self->bottom_up_cancellable);
}

/* API ---------------------------------------------------------------- */

void
hp_call_tree_view_set_profile (HpCallTreeView  *self,
                               HpLoadedProfile *profile,
                               const char      *select_key)
{
  const HpCallNode *keep = NULL;

  g_return_if_fail (HP_IS_CALL_TREE_VIEW (self));

  self->pending_select = NULL;
  self->far_select = NULL;
  if (self->pending_model != NULL)
    g_clear_signal_handler (&self->pending_handler, self->pending_model);
  self->pending_model = NULL;
  g_clear_pointer (&self->matches, g_ptr_array_unref);
  tree_models_clear (&self->trees[0]);
  tree_models_clear (&self->trees[1]);
  g_clear_pointer (&self->profile, hp_loaded_profile_unref);

  if (profile == NULL)
    return;

  self->profile = hp_loaded_profile_ref (profile);
  if (self->waiting_bottom_up)
    {
      /* still asked for: for this profile now */
      stop_waiting_for_bottom_up (self);
      if (!wait_for_bottom_up (self))
        {
          self->bottom_up = TRUE;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BOTTOM_UP]);
        }
    }
  update_ratio_columns (self);
  show_current (self);
  if (self->search != NULL)
    hp_call_tree_context_set_search (hp_call_tree_view_current (self)->context, self->search);
  expand_hottest (self);
  if (select_key != NULL && !self->bottom_up &&
      (keep = hp_call_path_find (profile->profile, select_key)) != NULL)
    hp_call_tree_view_select_node (self, keep);
  attach (self);

  /* the other tree, once this one is on screen */
  g_clear_handle_id (&self->prepare_source, g_source_remove);
  self->prepare_source = g_idle_add_full (G_PRIORITY_LOW, prepare_other_cb, self, NULL);
}

HpLoadedProfile *
hp_call_tree_view_get_profile (HpCallTreeView *self)
{
  g_return_val_if_fail (HP_IS_CALL_TREE_VIEW (self), NULL);

  return self->profile;
}

gboolean
hp_call_tree_view_get_bottom_up (HpCallTreeView *self)
{
  g_return_val_if_fail (HP_IS_CALL_TREE_VIEW (self), FALSE);

  return self->bottom_up;
}

void
hp_call_tree_view_set_bottom_up (HpCallTreeView *self,
                                 gboolean        bottom_up)
{
  gboolean fresh;

  g_return_if_fail (HP_IS_CALL_TREE_VIEW (self));

  bottom_up = !!bottom_up;
  if (!bottom_up)
    stop_waiting_for_bottom_up (self);
  if (self->bottom_up == bottom_up || (bottom_up && self->waiting_bottom_up))
    return;
  if (bottom_up && wait_for_bottom_up (self))
    return;
  self->bottom_up = bottom_up;
  self->pending_select = NULL;
  self->far_select = NULL;
  g_clear_pointer (&self->matches, g_ptr_array_unref);

  if (self->profile != NULL)
    {
      g_clear_handle_id (&self->prepare_source, g_source_remove);
      fresh = hp_call_tree_view_current (self)->tree_model == NULL;
      show_current (self);
      hp_call_tree_context_set_search (hp_call_tree_view_current (self)->context, self->search);
      if (fresh)
        expand_hottest (self);
      else
        g_signal_emit (self, signals[NODE_SELECTED], 0, hp_call_tree_view_get_selected (self));
      attach (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BOTTOM_UP]);
}

gboolean
hp_call_tree_view_select_path_key (HpCallTreeView *self,
                                   const char     *key)
{
  const HpCallNode *node;

  g_return_val_if_fail (HP_IS_CALL_TREE_VIEW (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  if (self->profile == NULL ||
      (node = hp_call_path_find (self->profile->profile, key)) == NULL)
    return FALSE;
  hp_call_tree_view_set_bottom_up (self, FALSE);
  hp_call_tree_view_select_node (self, node);
  return TRUE;
}

gboolean
hp_call_tree_view_select_function (HpCallTreeView *self,
                                   gint64          function_id)
{
  const HpCallNode *node;

  g_return_val_if_fail (HP_IS_CALL_TREE_VIEW (self), FALSE);

  if (self->profile == NULL || function_id <= 0 ||
      (guint) function_id >= MAX (self->profile->capture->data->functions->len, 1) ||
      (node = self->profile->hottest_node[function_id]) == NULL)
    return FALSE;
  hp_call_tree_view_set_bottom_up (self, FALSE);
  hp_call_tree_view_select_node (self, node);
  return TRUE;
}

void
hp_call_tree_view_set_marked (HpCallTreeView *self,
                              const char     *key,
                              gboolean        marked)
{
  const HpCallNode *node;

  g_return_if_fail (HP_IS_CALL_TREE_VIEW (self));
  g_return_if_fail (key != NULL);

  if (marked)
    g_hash_table_add (self->marked_keys, g_strdup (key));
  else
    g_hash_table_remove (self->marked_keys, key);

  if (self->trees[0].context != NULL &&
      (node = hp_call_path_find (self->profile->profile, key)) != NULL)
    hp_call_tree_context_set_marked (self->trees[0].context, node, marked);
}

gboolean
hp_call_tree_view_is_marked (HpCallTreeView   *self,
                             const HpCallNode *node)
{
  g_return_val_if_fail (HP_IS_CALL_TREE_VIEW (self), FALSE);

  return self->trees[0].context != NULL &&
         g_hash_table_contains (self->trees[0].context->marked, node);
}

gboolean
hp_call_tree_view_is_selecting (HpCallTreeView *self)
{
  g_return_val_if_fail (HP_IS_CALL_TREE_VIEW (self), FALSE);

  return self->far_select != NULL || self->pending_select != NULL;
}

GListModel *
hp_call_tree_view_get_model (HpCallTreeView *self)
{
  g_return_val_if_fail (HP_IS_CALL_TREE_VIEW (self), NULL);

  return hp_call_tree_view_current (self)->sort_model ? G_LIST_MODEL (hp_call_tree_view_current (self)->sort_model) : NULL;
}

guint
hp_call_tree_view_get_n_held (HpCallTreeView *self)
{
  g_return_val_if_fail (HP_IS_CALL_TREE_VIEW (self), 0);

  return hp_call_tree_view_current (self)->slice ? g_list_model_get_n_items (G_LIST_MODEL (hp_call_tree_view_current (self)->slice)) : 0;
}

/* GObject ------------------------------------------------------------ */

static void
hp_call_tree_view_dispose (GObject *object)
{
  HpCallTreeView *self = HP_CALL_TREE_VIEW (object);

  g_object_set_data (object, "hp-cell-menu", NULL);  /* the context menu */
  g_clear_handle_id (&self->scroll_source, g_source_remove);
  g_clear_handle_id (&self->prepare_source, g_source_remove);
  if (self->grow_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->grow_tick);
  self->grow_tick = 0;
  if (self->reveal_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->reveal_tick);
  self->reveal_tick = 0;
  if (self->focus_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->focus_tick);
  self->focus_tick = 0;
  if (self->search_cancellable != NULL)
    g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  stop_waiting_for_bottom_up (self);
  if (self->pending_model != NULL)
    g_clear_signal_handler (&self->pending_handler, self->pending_model);
  self->pending_model = NULL;
  g_clear_pointer (&self->matches, g_ptr_array_unref);
  tree_models_clear (&self->trees[0]);
  tree_models_clear (&self->trees[1]);
  g_clear_pointer (&self->profile, hp_loaded_profile_unref);
  hp_template_dispose (GTK_WIDGET (self), HP_TYPE_CALL_TREE_VIEW);

  G_OBJECT_CLASS (hp_call_tree_view_parent_class)->dispose (object);
}

static void
hp_call_tree_view_finalize (GObject *object)
{
  HpCallTreeView *self = HP_CALL_TREE_VIEW (object);

  g_hash_table_unref (self->marked_keys);
  g_free (self->search);

  G_OBJECT_CLASS (hp_call_tree_view_parent_class)->finalize (object);
}

static void
hp_call_tree_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  HpCallTreeView *self = HP_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_BOTTOM_UP:
      g_value_set_boolean (value, self->bottom_up);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hp_call_tree_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  HpCallTreeView *self = HP_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_BOTTOM_UP:
      hp_call_tree_view_set_bottom_up (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* A right click selects the row under the pointer and offers Copy Name
 * (win.copy-name: the whole name, which the row shows shortened), and to
 * fold the row's function or its module into the callers (the window's
 * filters, hp-window-filters.c). */
static void
on_context_click (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  HpCallTreeView  *self)
{
  GtkWidget *view = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  g_autoptr(GObject) row = hp_cell_pick_row (view, x, y);
  g_autoptr(GMenu) menu = NULL;

  if (row == NULL || !HP_IS_CALL_ROW (row))
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  hp_call_tree_view_select_node (self, hp_call_row_get_node (HP_CALL_ROW (row)));
  menu = g_menu_new ();
  g_menu_append (menu, _("Copy Name"), "win.copy-name");
  {
    /* a row of a frame without function (the root) has nothing to fold */
    gint64 function_id = hp_call_row_get_node (HP_CALL_ROW (row))->function_id;

    if (function_id > 0)
      {
        g_autoptr(GMenu) folds = g_menu_new ();
        g_autoptr(GMenuItem) function = g_menu_item_new (_("Fold Function Into Callers"), NULL);
        g_autoptr(GMenuItem) module = g_menu_item_new (_("Fold Module Into Callers"), NULL);

        g_menu_item_set_action_and_target_value (function, "win.fold-function", g_variant_new_int64 (function_id));
        g_menu_item_set_action_and_target_value (module, "win.fold-module", g_variant_new_int64 (function_id));
        g_menu_append_item (folds, function);
        g_menu_append_item (folds, module);
        g_menu_append_section (menu, NULL, G_MENU_MODEL (folds));
      }
  }
  hp_cell_popup_menu (GTK_WIDGET (self), view, G_MENU_MODEL (menu), x, y);
}

/* Right and Left, as tree views do: Right expands the selected row, or
 * moves to its first child when it is open; Left closes it, or moves to
 * its parent when it is closed. GtkTreeExpander 4.8 only knows + and -. */
static void
expand_or_child_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  HpCallTreeView *self = HP_CALL_TREE_VIEW (widget);
  TreeModels *t = hp_call_tree_view_current (self);
  GtkTreeListRow *row;
  guint pos;

  if (t->selection == NULL || (row = gtk_single_selection_get_selected_item (t->selection)) == NULL)
    return;
  if (!gtk_tree_list_row_is_expandable (row))
    return;
  if (!gtk_tree_list_row_get_expanded (row))
    {
      gtk_tree_list_row_set_expanded (row, TRUE);
      return;
    }
  /* open: its first child is the next row */
  pos = gtk_single_selection_get_selected (t->selection);
  grow (t, pos + 9);
  if (pos + 1 < g_list_model_get_n_items (G_LIST_MODEL (t->selection)))
    {
      g_autoptr(GtkTreeListRow) next = g_list_model_get_item (G_LIST_MODEL (t->selection), pos + 1);
      g_autoptr(GtkTreeListRow) parent = next ? gtk_tree_list_row_get_parent (next) : NULL;

      if (parent == row)
        {
          select_position (self, t, pos + 1);
          follow_with_focus (self);
        }
    }
}

static void
collapse_or_parent_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  HpCallTreeView *self = HP_CALL_TREE_VIEW (widget);
  TreeModels *t = hp_call_tree_view_current (self);
  GtkTreeListRow *row;
  g_autoptr(GtkTreeListRow) parent = NULL;
  g_autoptr(HpCallRow) item = NULL;

  if (t->selection == NULL || (row = gtk_single_selection_get_selected_item (t->selection)) == NULL)
    return;
  if (gtk_tree_list_row_get_expanded (row))
    {
      gtk_tree_list_row_set_expanded (row, FALSE);
      return;
    }
  parent = gtk_tree_list_row_get_parent (row);
  if (parent == NULL)
    return;
  item = gtk_tree_list_row_get_item (parent);
  if (item != NULL)
    hp_call_tree_view_select_node (self, hp_call_row_get_node (item));
}

/* The focus goes to the shown tree's rows (a GtkWidget takes none) */
static gboolean
hp_call_tree_view_grab_focus (GtkWidget *widget)
{
  HpCallTreeView *self = HP_CALL_TREE_VIEW (widget);

  if (!gtk_widget_grab_focus (GTK_WIDGET (hp_call_tree_view_current (self)->view)))
    return FALSE;
  /* on the selected row, not on the one the list last had */
  follow_with_focus (self);
  return TRUE;
}

static void
hp_call_tree_view_class_init (HpCallTreeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hp_call_tree_view_dispose;
  object_class->finalize = hp_call_tree_view_finalize;
  object_class->get_property = hp_call_tree_view_get_property;
  object_class->set_property = hp_call_tree_view_set_property;
  widget_class->grab_focus = hp_call_tree_view_grab_focus;

  properties[PROP_BOTTOM_UP] =
    g_param_spec_boolean ("bottom-up", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* the node (const HpCallNode *, of the shown tree) or NULL */
  signals[NODE_SELECTED] =
    g_signal_new ("node-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  /* the matches of a search are known (hp_call_tree_view_get_search_status) */
  signals[SEARCH_DONE] =
    g_signal_new ("search-done", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-call-tree-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HpCallTreeView, caption);
  gtk_widget_class_bind_template_child (widget_class, HpCallTreeView, depth_note);
  gtk_widget_class_bind_template_child (widget_class, HpCallTreeView, stack);
#define BIND_TREE(name, i, field) \
  gtk_widget_class_bind_template_child_full (widget_class, name, FALSE, \
                                             G_STRUCT_OFFSET (HpCallTreeView, trees[i].field))
  BIND_TREE ("top_down_scroller", 0, scroller);
  BIND_TREE ("bottom_up_scroller", 1, scroller);
  BIND_TREE ("top_down_view", 0, view);
  BIND_TREE ("top_down_function", 0, function_column);
  BIND_TREE ("top_down_self", 0, self_column);
  BIND_TREE ("top_down_total", 0, total_column);
  BIND_TREE ("top_down_ratio", 0, ratio_column);
  BIND_TREE ("top_down_module", 0, module_column);
  BIND_TREE ("bottom_up_view", 1, view);
  BIND_TREE ("bottom_up_function", 1, function_column);
  BIND_TREE ("bottom_up_self", 1, self_column);
  BIND_TREE ("bottom_up_total", 1, total_column);
  BIND_TREE ("bottom_up_ratio", 1, ratio_column);
  BIND_TREE ("bottom_up_module", 1, module_column);
#undef BIND_TREE
  gtk_widget_class_bind_template_child (widget_class, HpCallTreeView, empty_label);

  gtk_widget_class_install_action (widget_class, "tree.expand-or-child", NULL, expand_or_child_action);
  gtk_widget_class_install_action (widget_class, "tree.collapse-or-parent", NULL, collapse_or_parent_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "calltreeview");
}

static void
hp_call_tree_view_init (HpCallTreeView *self)
{
  self->marked_keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  gtk_widget_init_template (GTK_WIDGET (self));

  /* Right and Left, before the list sees them: a GtkListView takes the
   * arrow keys for itself (and does nothing with these two), so a
   * binding on this widget, where the key arrives last, never ran */
  {
    GtkEventController *keys = gtk_shortcut_controller_new ();
    static const struct { guint keyval; const char *action; } bindings[] = {
      { GDK_KEY_Right, "tree.expand-or-child" },
      { GDK_KEY_KP_Right, "tree.expand-or-child" },
      { GDK_KEY_Left, "tree.collapse-or-parent" },
      { GDK_KEY_KP_Left, "tree.collapse-or-parent" },
    };

    gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
    for (guint i = 0; i < G_N_ELEMENTS (bindings); i++)
      gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                            gtk_shortcut_new (gtk_keyval_trigger_new (bindings[i].keyval, 0),
                                                              gtk_named_action_new (bindings[i].action)));
    gtk_widget_add_controller (GTK_WIDGET (self), keys);
  }

  for (guint i = 0; i < G_N_ELEMENTS (self->trees); i++)
    {
      TreeModels *t = &self->trees[i];

      hp_cell_keep_focus_in_view (t->view);
      set_column_factory (t->function_column, &function_cell);
      set_column_factory (t->self_column, &self_cell);
      set_column_factory (t->total_column, &total_cell);
      set_column_factory (t->ratio_column, &ratio_cell);
      set_column_factory (t->module_column, &module_cell);
      hp_cell_set_column_width (t->function_column, &function_cell);
      hp_cell_set_column_width (t->self_column, &self_cell);
      hp_cell_set_column_width (t->total_column, &total_cell);
      hp_cell_set_column_width (t->module_column, &module_cell);
      set_column_sorter (t->function_column, SORT_BY_NAME);
      set_column_sorter (t->self_column, SORT_BY_SELF);
      set_column_sorter (t->total_column, SORT_BY_TOTAL);
      set_column_sorter (t->module_column, SORT_BY_MODULE);
      {
        GtkGesture *click = gtk_gesture_click_new ();

        gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
        g_signal_connect (click, "pressed", G_CALLBACK (on_context_click), self);
        gtk_widget_add_controller (GTK_WIDGET (t->view), GTK_EVENT_CONTROLLER (click));
      }
      {
        /* Ctrl+C in the tree: the selected function's whole name */
        GtkEventController *keys = gtk_shortcut_controller_new ();

        gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                              gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Control>c"),
                                                                gtk_named_action_new ("win.copy-name")));
        gtk_widget_add_controller (GTK_WIDGET (t->view), keys);
      }
      g_signal_connect (gtk_column_view_get_sorter (t->view), "changed", G_CALLBACK (on_sorter_changed), self);
      {
        GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (t->scroller));

        g_signal_connect_object (adj, "value-changed", G_CALLBACK (on_adjustment_changed), self, 0);
        g_signal_connect_object (adj, "changed", G_CALLBACK (on_adjustment_changed), self, 0);
      }
    }
}

const char *
hp_call_tree_view_get_depth_note (HpCallTreeView *self)
{
  g_return_val_if_fail (HP_IS_CALL_TREE_VIEW (self), NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self->depth_note)) ? gtk_label_get_text (self->depth_note) : NULL;
}

const char *
hp_call_tree_view_get_caption (HpCallTreeView *self)
{
  g_return_val_if_fail (HP_IS_CALL_TREE_VIEW (self), NULL);

  return gtk_inscription_get_text (self->caption);
}

const char *
hp_call_tree_view_get_empty_text (HpCallTreeView *self)
{
  g_return_val_if_fail (HP_IS_CALL_TREE_VIEW (self), NULL);

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "empty") != 0)
    return NULL;
  return gtk_label_get_text (self->empty_label);
}

GtkColumnViewColumn *
hp_call_tree_view_get_ratio_column (HpCallTreeView *self)
{
  g_return_val_if_fail (HP_IS_CALL_TREE_VIEW (self), NULL);

  return self->trees[self->bottom_up].ratio_column;
}
