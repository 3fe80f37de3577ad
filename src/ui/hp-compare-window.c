/* hp-compare-window.c - the comparison of two sets of captures in a window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The window shows what hotpath-cli diff prints, from the same
 * HpComparison: an overview (both sides, their runs and samples, the
 * method, the minimum detectable effect, the whole program) and the
 * differential call tree, top-down, with base, new, change, interval and
 * verdict per path. Red and green appear only where the verdict is slower
 * or faster; the interval is drawn as a bar around zero, so a wide one
 * reads as "not known" at a glance.
 *
 * Loading and comparing run in a worker thread (GTask); the rows of the
 * tree are made when expanded (hp-compare-row.c).
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "analysis/hp-text.h"
#include "ui/hp-window-png.h"
#include "ui/hp-compare-details.h"
#include "ui/hp-compare-format.h"
#include "ui/hp-compare-row.h"
#include "ui/hp-compare-window.h"
#include "document/hp-format.h"
#include "ui/hp-file-chooser.h"

/* The bar spans ±this many percent; a longer interval is cut at the edge. */
#define BAR_RANGE 25.0
/* Paths with this share of the cost are expanded when the tree is shown. */
#define EXPAND_SHARE 0.05
/* ...looked for among this many rows at most: opening rows adds rows, and
 * a tree of a thousand hot paths is not read by opening them all */
#define EXPAND_MAX_ROWS 2000

struct _HpCompareWindow {
  GtkApplicationWindow parent_instance;

  GtkStack      *stack;
  GtkLabel      *overview;
  GtkLabel      *error_label;
  GtkColumnView *column_view;
  GtkPaned      *paned;
  HpCompareDetails *details;

  char         **base;
  char         **new_side;
  GCancellable  *cancellable;
  HpCompareRef  *ref;
  HpCompareRef  *bottom_up_ref;
  GtkToggleButton *bottom_up_button;
  GHashTable    *summaries;   /* path key -> text, from either side's first capture */
  gboolean       loaded;
  char          *error;
  char          *overview_text;
};

G_DEFINE_FINAL_TYPE (HpCompareWindow, hp_compare_window, GTK_TYPE_APPLICATION_WINDOW)

static HpCompareRow *
row_of (GtkListItem *item)
{
  GtkTreeListRow *tree_row = gtk_list_item_get_item (item);

  return tree_row ? gtk_tree_list_row_get_item (tree_row) : NULL;
}

static const char *
unit_of (HpCompareWindow *self)
{
  return hp_comparison_get_side (hp_compare_ref_get (self->ref), HP_COMPARE_BASE)->unit;
}

/* Cells ------------------------------------------------------------------ */

static void
setup_name (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
  gtk_list_item_set_child (item, expander);
}

static void
bind_name (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  GtkWidget *expander = gtk_list_item_get_child (item);
  GtkWidget *label = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));
  g_autoptr(HpCompareRow) row = row_of (item);
  const HpComparePath *path = hp_compare_row_get_path (row);
  g_autofree char *text = hp_compare_format_name (path->name, path->module);

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), gtk_list_item_get_item (item));
  gtk_label_set_text (GTK_LABEL (label), text);
}

typedef enum { CELL_BASE, CELL_NEW, CELL_CHANGE, CELL_VERDICT, CELL_Q, CELL_SUMMARY } CellKind;

static void
setup_text (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), GPOINTER_TO_INT (user_data) >= CELL_VERDICT &&
                                           GPOINTER_TO_INT (user_data) != CELL_Q ? 0 : 1);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (label, "hp-compare-number");
  gtk_list_item_set_child (item, label);
}

static void
bind_text (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  g_autoptr(HpCompareRow) row = row_of (item);
  const HpCompareStat *stat = hp_compare_row_get_stat (row);
  HpCompareWindow *self = g_object_get_data (G_OBJECT (factory), "window");
  g_autofree char *text = NULL;
  CellKind kind = GPOINTER_TO_INT (user_data);

  hp_compare_label_set_verdict_class (label, NULL);
  switch (kind)
    {
    case CELL_BASE:
      text = hp_compare_format_cost (stat->base, unit_of (self));
      break;
    case CELL_NEW:
      text = hp_compare_format_cost (stat->new_cost, unit_of (self));
      break;
    case CELL_CHANGE:
      text = hp_compare_format_change (stat->change);
      break;
    case CELL_VERDICT:
      {
        g_autofree char *explained = hp_comparison_explain (hp_compare_row_get_comparison (row), stat);

        text = g_strdup (hp_compare_verdict_label (stat->verdict));
        gtk_widget_set_tooltip_text (label, explained);
      }
      break;
    case CELL_SUMMARY:
      {
        HpComparison *cmp = hp_compare_row_get_comparison (row);
        g_autofree char *key = hp_comparison_get_path_key (cmp, hp_compare_row_get_index (row));
        /* keys name paths from the root: only the top-down tree has them */
        const char *summary = self->summaries && !hp_comparison_is_bottom_up (cmp) ?
                              g_hash_table_lookup (self->summaries, key) : NULL;

        text = summary ? hp_text_escape (summary) : g_strdup ("");
        gtk_widget_set_tooltip_text (label, summary);
      }
      break;
    case CELL_Q:
    default:
      text = isnan (stat->q) ? g_strdup ("—") : g_strdup_printf ("%.3g", stat->q);
      break;
    }
  /* colour only what is judged changed */
  if (kind == CELL_CHANGE || kind == CELL_VERDICT)
    hp_compare_label_set_verdict_class (label, stat);
  gtk_label_set_text (GTK_LABEL (label), text);
}

/* The interval of the change as a bar on ±BAR_RANGE %, zero in the middle. */
static void
draw_interval (GtkDrawingArea *area,
               cairo_t        *cr,
               int             width,
               int             height,
               gpointer        user_data)
{
  HpCompareRow *row = g_object_get_data (G_OBJECT (area), "row");
  const HpCompareStat *stat;
  double mid = width / 2.0, scale = (width / 2.0 - 2) / BAR_RANGE;
  double y = height / 2.0;

  if (row == NULL)
    return;
  stat = hp_compare_row_get_stat (row);

  /* the zero line */
  cairo_set_source_rgba (cr, 0.5, 0.5, 0.5, 0.6);
  cairo_rectangle (cr, floor (mid), 2, 1, height - 4);
  cairo_fill (cr);

  if (stat->verdict == HP_VERDICT_SLOWER)
    cairo_set_source_rgb (cr, 0.75, 0.11, 0.16);
  else if (stat->verdict == HP_VERDICT_FASTER)
    cairo_set_source_rgb (cr, 0.15, 0.64, 0.41);
  else
    cairo_set_source_rgba (cr, 0.45, 0.45, 0.45, 0.7);

  if (isnan (stat->low) || isnan (stat->high))
    {
      /* unbounded: a thin line over the whole range */
      cairo_rectangle (cr, 2, y - 0.5, width - 4, 1);
      cairo_fill (cr);
      return;
    }
  {
    double low = CLAMP (stat->low, -BAR_RANGE, BAR_RANGE);
    double high = CLAMP (stat->high, -BAR_RANGE, BAR_RANGE);
    double change = CLAMP (stat->change, -BAR_RANGE, BAR_RANGE);

    cairo_rectangle (cr, mid + low * scale, y - 3, MAX ((high - low) * scale, 1), 6);
    cairo_fill (cr);
    cairo_rectangle (cr, mid + change * scale - 1, y - 6, 2, 12);
    cairo_fill (cr);
  }
}

static void
setup_interval (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                gpointer                  user_data)
{
  GtkWidget *area = gtk_drawing_area_new ();

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (area), 140);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (area), 16);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), draw_interval, NULL, NULL);
  gtk_list_item_set_child (item, area);
}

static void
bind_interval (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  GtkWidget *area = gtk_list_item_get_child (item);
  HpCompareRow *row = row_of (item);
  const HpCompareStat *stat = hp_compare_row_get_stat (row);
  g_autofree char *low = hp_compare_format_change (stat->low);
  g_autofree char *high = hp_compare_format_change (stat->high);
  g_autofree char *tip = g_strdup_printf (_("95 %% interval of the change: %s to %s (bar: ±%.0f %%)"),
                                          low, high, BAR_RANGE);

  g_object_set_data_full (G_OBJECT (area), "row", row, g_object_unref);
  gtk_widget_set_tooltip_text (area, tip);
  gtk_widget_queue_draw (area);
}

static void
unbind_interval (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  user_data)
{
  g_object_set_data (G_OBJECT (gtk_list_item_get_child (item)), "row", NULL);
}

static void
add_column (HpCompareWindow *self,
            const char      *title,
            GCallback        setup,
            GCallback        bind,
            GCallback        unbind,
            CellKind         kind,
            gboolean         expand)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;

  g_object_set_data (G_OBJECT (factory), "window", self);
  g_signal_connect (factory, "setup", setup, GINT_TO_POINTER (kind));
  g_signal_connect (factory, "bind", bind, GINT_TO_POINTER (kind));
  if (unbind != NULL)
    g_signal_connect (factory, "unbind", unbind, GINT_TO_POINTER (kind));
  column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (column, expand);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_append_column (self->column_view, column);
  g_object_unref (column);
}

/* Loading ------------------------------------------------------------------ */

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  return hp_compare_row_get_children (HP_COMPARE_ROW (item));
}

static void
show_overview (HpCompareWindow *self)
{
  HpComparison *cmp = hp_compare_ref_get (self->ref);
  const HpCompareSideInfo *sides[2] = { hp_comparison_get_side (cmp, HP_COMPARE_BASE),
                                        hp_comparison_get_side (cmp, HP_COMPARE_NEW) };
  const char *titles[2] = { _("Base"), _("New") };
  char **paths[2] = { self->base, self->new_side };
  const HpCompareStat *program = hp_comparison_get_program (cmp);
  const char * const *warnings = hp_comparison_get_warnings (cmp);
  GString *text = g_string_new (NULL);
  g_autofree char *floor_text = hp_compare_format_cost (hp_comparison_get_floor (cmp), sides[0]->unit);
  g_autofree char *change = hp_compare_format_change (program->change);
  double mde = hp_comparison_get_mde (cmp);

  for (guint s = 0; s < 2; s++)
    {
      g_autofree char *joined = g_strjoinv (", ", paths[s]);
      g_autofree char *where = hp_text_escape (joined);
      g_autofree char *cost = hp_compare_format_cost (sides[s]->cost, sides[s]->unit);
      g_autofree char *samples = hp_format_amount (NULL, sides[s]->n_samples);

      /* Translators: side, folders, number of runs, "1,234 samples", cost per run */
      g_string_append_printf (text, ngettext ("%s: %s — %u run, %s, %s per run\n",
                                              "%s: %s — %u runs, %s, %s per run\n", sides[s]->n_captures),
                              titles[s], where, sides[s]->n_captures, samples, cost);
    }
  /* lines short enough for a 1024 px window: one wrapped word reads as
   * a line of its own */
  g_string_append_printf (text, _("Event: %s, costs in %s per run; red and green only where the change is significant.\n"),
                          sides[0]->event ? sides[0]->event : "?", sides[0]->unit ? sides[0]->unit : "?");
  switch (hp_comparison_get_method (cmp))
    {
    case HP_COMPARE_METHOD_WELCH:
      g_string_append (text, _("Welch's t test on the per-run costs."));
      break;
    case HP_COMPARE_METHOD_ONE_RUN:
      g_string_append (text, _("One run on one side: its run-to-run noise is taken from the other side."));
      break;
    case HP_COMPARE_METHOD_COUNTS:
      g_string_append (text, _("One run per side: only the sampling error is counted, not the run-to-run noise."));
      break;
    }
  {
    g_autofree char *explained = hp_comparison_explain (cmp, program);

    /* the verdict with what it means: "unresolved" and "unchanged" are
     * two different claims, and the rows' tooltips say the same */
    /* Translators: a change, then "unresolved: the runs cannot tell; …" */
    g_string_append_printf (text, _(" Whole program, as measured: %s, %s."), change, explained);
    if (hp_comparison_get_program_scaled (cmp) != NULL)
      {
        const HpCompareStat *scaled = hp_comparison_get_program_scaled (cmp);
        g_autofree char *scaled_change = hp_compare_format_change (scaled->change);
        g_autofree char *scaled_explained = hp_comparison_explain (cmp, scaled);

        /* the figure of the root rows, with their verdict: two figures,
         * each named, rather than one word for each */
        /* Translators: a change, then "unchanged: the 95 % interval, …" */
        g_string_append_printf (text, _(" At the runs' common speed, as the rows: %s, %s."),
                                scaled_change, scaled_explained);
      }
    g_string_append_c (text, '\n');
  }
  {
    double floor_percent = 100 * hp_comparison_get_floor (cmp) / ((sides[0]->cost + sides[1]->cost) / 2);

    if (isnan (mde))
      /* Translators: the materiality floor: a cost ("2.1 ms"), then a percent */
      g_string_append_printf (text, _("No minimum detectable effect can be given; changes under %s per run "
                                      "(%g %% of the total) are never flagged."), floor_text, floor_percent);
    else
      /* Translators: a percent, then the materiality floor: a cost ("2.1 ms") and a percent */
      g_string_append_printf (text, _("Minimum detectable effect %.1f %% of a hot function; changes under %s per run "
                                      "(%g %% of the total) are never flagged."), mde, floor_text, floor_percent);
  }
  for (guint i = 0; i < hp_comparison_get_renames (cmp)->len; i++)
    {
      const HpCompareRename *pair = &g_array_index (hp_comparison_get_renames (cmp), HpCompareRename, i);
      const HpCompareFunction *removed = hp_comparison_get_function (cmp, pair->removed);
      g_autofree char *names = g_strdup_printf ("%s → %s [%s]", removed->name,
                                                hp_comparison_get_function (cmp, pair->added)->name, removed->module);
      g_autofree char *safe = hp_text_escape (names);
      g_autofree char *pair_change = hp_compare_format_change (pair->self.change);
      g_autofree char *explained = hp_comparison_explain (cmp, &pair->self);

      g_string_append_c (text, '\n');
      /* Translators: "old → new [module]", a change, then "unresolved: the runs cannot tell; …" */
      g_string_append_printf (text, _("Renamed? %s: only in the base, and only in the new runs, with the same callers and "
                                      "callees; as one function (self): %s, %s."), safe, pair_change, explained);
    }
  for (guint i = 0; warnings[i] != NULL; i++)
    {
      g_string_append_c (text, '\n');
      /* Translators: a warning of the comparison, as in "Warning: the two
       * sides have little in common: …" */
      g_string_append_printf (text, _("Warning: %s"), warnings[i]);
    }

  g_free (self->overview_text);
  self->overview_text = g_string_free (text, FALSE);
  gtk_label_set_text (self->overview, self->overview_text);
}

/* The details pane follows the selected path's function, which it finds
 * in the top-down comparison (the bottom-up one has no callers of its own). */
static void
selection_changed (HpCompareWindow *self)
{
  GtkSelectionModel *model = gtk_column_view_get_model (self->column_view);
  GtkTreeListRow *tree_row = model ? gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (model)) : NULL;
  g_autoptr(HpCompareRow) row = tree_row ? gtk_tree_list_row_get_item (tree_row) : NULL;
  HpComparison *cmp = hp_compare_ref_get (self->ref);
  gint function = -1;

  if (row != NULL)
    {
      const HpComparePath *path = hp_compare_row_get_path (row);

      function = hp_comparison_find_function (cmp, path->module, path->name);
    }
  hp_compare_details_set_function (self->details, cmp, function);
}

static void
show_tree (HpCompareWindow *self)
{
  HpCompareRef *ref = gtk_toggle_button_get_active (self->bottom_up_button) ? self->bottom_up_ref : self->ref;
  HpComparison *cmp = hp_compare_ref_get (ref);
  GListModel *roots = hp_compare_row_list_children (ref, -1);
  GtkTreeListModel *tree = gtk_tree_list_model_new (roots, FALSE, FALSE, create_children, NULL, NULL);
  g_autoptr(GtkSingleSelection) selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (tree)));
  double total = hp_comparison_get_side (cmp, HP_COMPARE_BASE)->cost;

  /* open the hot paths, as far as they stay hot */
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (tree)) && i < EXPAND_MAX_ROWS; i++)
    {
      g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (tree, i);
      g_autoptr(HpCompareRow) item = gtk_tree_list_row_get_item (row);
      const HpCompareStat *stat = hp_compare_row_get_stat (item);

      if (MAX (stat->base, stat->new_cost) >= EXPAND_SHARE * total || hp_compare_stat_is_flagged (stat))
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
  g_signal_connect_object (selection, "notify::selected-item", G_CALLBACK (selection_changed), self,
                           G_CONNECT_SWAPPED);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));
  selection_changed (self);
  g_object_unref (tree);
}

static void
compare_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  HpCompareWindow *self = source;
  g_autoptr(HpComparison) cmp = hp_comparison_new_with_bottom_up ();
  GError *error = NULL;
  char **sides[2] = { self->base, self->new_side };

  /* for the source lines of the details pane */
  hp_comparison_keep_lines (cmp);

  for (guint s = 0; s < 2; s++)
    for (guint i = 0; sides[s][i] != NULL; i++)
      if (!hp_comparison_add_path (cmp, s, sides[s][i], cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
  if (!hp_comparison_run (cmp, NULL, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  /* Summaries written in either side's first capture appear on the paths
   * they name (the new side's where both have one). Path keys name
   * functions, so they match across captures of one program, also when
   * it was renamed (app-old, app-new: the comparison says how). */
  {
    GHashTable *summaries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

    for (guint s = 0; s < 2; s++)
      {
        const char *first = hp_comparison_get_side (cmp, s)->first_file;
        g_autoptr(HpCapture) capture = first ? hp_capture_open (first, FALSE, NULL) : NULL;
        g_autoptr(GHashTable) found = capture ? hp_capture_list_summaries (capture, NULL) : NULL;
        GHashTableIter iter;
        gpointer key, value;

        if (found == NULL)
          continue;
        g_hash_table_iter_init (&iter, found);
        while (g_hash_table_iter_next (&iter, &key, &value))
          g_hash_table_replace (summaries, hp_comparison_match_path_key (cmp, key), g_strdup (value));
      }
    g_task_set_task_data (task, summaries, (GDestroyNotify) g_hash_table_unref);
  }
  g_task_return_pointer (task, g_steal_pointer (&cmp), (GDestroyNotify) hp_comparison_free);
}

/* Puts the divider at three fifths of the paned's height (the tree above,
 * the details below), again whenever the window is resized: GtkPaned keeps
 * a position in pixels, which left a maximized window with the tree in a
 * third of it, or the details in a strip. Three fifths of the height, not
 * of max-position, which is the height less the details' minimum: that
 * gave the tree 42 % of a 1024×700 window, six rows over an empty pane.
 * A divider the user dragged stays until then. */
static void
place_divider (HpCompareWindow *self)
{
  int max = 0;
  int height = gtk_widget_get_height (GTK_WIDGET (self->paned));

  g_object_get (self->paned, "max-position", &max, NULL);
  if (max > 0 && height > 0)
    gtk_paned_set_position (self->paned, MIN (height * 3 / 5, max));
}

static void
compare_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  HpCompareWindow *self = HP_COMPARE_WINDOW (source);
  g_autoptr(GError) error = NULL;
  HpComparison *cmp = g_task_propagate_pointer (G_TASK (result), &error);

  if (cmp == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      self->error = hp_text_escape (error->message);
      gtk_label_set_text (self->error_label, self->error);
      gtk_stack_set_visible_child_name (self->stack, "error");
      self->loaded = TRUE;
      return;
    }
  self->ref = hp_compare_ref_new (cmp);
  self->bottom_up_ref = hp_compare_ref_new_view (self->ref, hp_comparison_get_bottom_up (cmp));
  self->summaries = g_hash_table_ref (g_task_get_task_data (G_TASK (result)));
  gtk_widget_set_sensitive (GTK_WIDGET (self->bottom_up_button), TRUE);
  show_overview (self);
  show_tree (self);
  place_divider (self);
  gtk_stack_set_visible_child_name (self->stack, "results");
  self->loaded = TRUE;
}

static void
tree_mode_toggled (HpCompareWindow *self)
{
  if (self->ref != NULL)
    show_tree (self);
}

/* Life cycle ---------------------------------------------------------------- */

static void
hp_compare_window_dispose (GObject *object)
{
  HpCompareWindow *self = HP_COMPARE_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  G_OBJECT_CLASS (hp_compare_window_parent_class)->dispose (object);
}

static void
hp_compare_window_finalize (GObject *object)
{
  HpCompareWindow *self = HP_COMPARE_WINDOW (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->bottom_up_ref, hp_compare_ref_release);
  g_clear_pointer (&self->ref, hp_compare_ref_release);
  g_clear_pointer (&self->summaries, g_hash_table_unref);
  g_strfreev (self->base);
  g_strfreev (self->new_side);
  g_free (self->error);
  g_free (self->overview_text);
  G_OBJECT_CLASS (hp_compare_window_parent_class)->finalize (object);
}

static void
hp_compare_window_class_init (HpCompareWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hp_compare_window_dispose;
  object_class->finalize = hp_compare_window_finalize;

  g_type_ensure (HP_TYPE_COMPARE_DETAILS);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-compare-window.ui");
  gtk_widget_class_bind_template_child (widget_class, HpCompareWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, HpCompareWindow, overview);
  gtk_widget_class_bind_template_child (widget_class, HpCompareWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, HpCompareWindow, column_view);
  gtk_widget_class_bind_template_child (widget_class, HpCompareWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, HpCompareWindow, details);
  gtk_widget_class_bind_template_child (widget_class, HpCompareWindow, bottom_up_button);
  gtk_widget_class_bind_template_callback (widget_class, tree_mode_toggled);
}

static void
hp_compare_window_init (HpCompareWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
  g_signal_connect_swapped (self->paned, "notify::max-position", G_CALLBACK (place_divider), self);
  hp_compare_load_css ();

  add_column (self, _("Call path"), G_CALLBACK (setup_name), G_CALLBACK (bind_name), NULL, 0, TRUE);
  add_column (self, _("Base"), G_CALLBACK (setup_text), G_CALLBACK (bind_text), NULL, CELL_BASE, FALSE);
  add_column (self, _("New"), G_CALLBACK (setup_text), G_CALLBACK (bind_text), NULL, CELL_NEW, FALSE);
  add_column (self, _("Change"), G_CALLBACK (setup_text), G_CALLBACK (bind_text), NULL, CELL_CHANGE, FALSE);
  /* xgettext:no-c-format */
  add_column (self, _("95 % interval"), G_CALLBACK (setup_interval), G_CALLBACK (bind_interval),
              G_CALLBACK (unbind_interval), 0, FALSE);
  add_column (self, _("q"), G_CALLBACK (setup_text), G_CALLBACK (bind_text), NULL, CELL_Q, FALSE);
  add_column (self, _("Verdict"), G_CALLBACK (setup_text), G_CALLBACK (bind_text), NULL, CELL_VERDICT, FALSE);
  /* the summaries share a wide window's room with the paths */
  add_column (self, _("Summary"), G_CALLBACK (setup_text), G_CALLBACK (bind_text), NULL, CELL_SUMMARY, TRUE);
}

HpCompareWindow *
hp_compare_window_new (GtkApplication     *app,
                       const char * const *base,
                       const char * const *new_side)
{
  HpCompareWindow *self;
  g_autoptr(GTask) task = NULL;
  g_autofree char *base_name = NULL;
  g_autofree char *new_name = NULL;
  g_autofree char *title = NULL;

  g_return_val_if_fail (GTK_IS_APPLICATION (app), NULL);
  g_return_val_if_fail (base != NULL && base[0] != NULL, NULL);
  g_return_val_if_fail (new_side != NULL && new_side[0] != NULL, NULL);

  self = g_object_new (HP_TYPE_COMPARE_WINDOW, "application", app, NULL);
  self->base = g_strdupv ((char **) base);
  self->new_side = g_strdupv ((char **) new_side);
  base_name = g_path_get_basename (base[0]);
  new_name = g_path_get_basename (new_side[0]);
  /* Translators: the window title, "base → new" */
  title = g_strdup_printf (_("Compare %s → %s"), base_name, new_name);
  {
    g_autofree char *safe = hp_text_escape (title);

    gtk_window_set_title (GTK_WINDOW (self), safe);
  }

  task = g_task_new (self, self->cancellable, compare_done, NULL);
  g_task_run_in_thread (task, compare_thread);
  return self;
}

/* app.compare ---------------------------------------------------------------- */

typedef struct {
  GtkApplication *app;
  char          **base;
} Choosing;

static void
choosing_free (gpointer data)
{
  Choosing *choosing = data;

  g_strfreev (choosing->base);
  g_object_unref (choosing->app);
  g_free (choosing);
}

static char **
chosen_paths (GListModel *files)
{
  GPtrArray *paths = g_ptr_array_new ();

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (files, i);
      char *path = g_file_get_path (file);

      if (path != NULL)
        g_ptr_array_add (paths, path);
    }
  g_ptr_array_add (paths, NULL);
  return (char **) g_ptr_array_free (paths, FALSE);
}

static void choose_side (GtkApplication *app, char **base);

static void
chosen (GListModel *files,
        gpointer    user_data)
{
  Choosing *choosing = user_data;
  g_auto(GStrv) paths = chosen_paths (files);

  if (paths[0] != NULL && choosing->base == NULL)
    choose_side (choosing->app, g_steal_pointer (&paths));
  else if (paths[0] != NULL)
    gtk_window_present (GTK_WINDOW (hp_compare_window_new (choosing->app,
                                                           (const char * const *) choosing->base,
                                                           (const char * const *) paths)));
}

/* One side at a time: the captures of its runs (several can be chosen). */
static void
choose_side (GtkApplication *app,
             char          **base)
{
  Choosing *choosing = g_new0 (Choosing, 1);

  choosing->app = g_object_ref (app);
  choosing->base = base;
  /* several each: the repeated runs of one side */
  hp_capture_chooser_show (gtk_application_get_active_window (app),
                           base == NULL ? _("Compare: Choose the Base Captures")
                                        : _("Compare: Choose the New Captures"),
                           _("_Choose"), HP_CHOOSE_SEVERAL, NULL, chosen, choosing, choosing_free);
}

static void
compare_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  choose_side (GTK_APPLICATION (user_data), NULL);
}

/* app.compare-sides ("(ss)": the base and the new side, each a capture
 * or a folder of captures), which hotpath --compare activates, in the
 * Hotpath already running when there is one. */
static void
compare_sides_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  const char *base[2] = { NULL, NULL };
  const char *new_side[2] = { NULL, NULL };

  g_variant_get (parameter, "(&s&s)", &base[0], &new_side[0]);
  gtk_window_present (GTK_WINDOW (hp_compare_window_new (GTK_APPLICATION (user_data), base, new_side)));
}

void
hp_compare_window_add_action (GtkApplication *app)
{
  static const GActionEntry entries[] = {
    { "compare", compare_action },
    { "compare-sides", compare_sides_action, "(ss)" },
  };

  g_return_if_fail (GTK_IS_APPLICATION (app));

  g_action_map_add_action_entries (G_ACTION_MAP (app), entries, G_N_ELEMENTS (entries), app);
}

/* For tests ---------------------------------------------------------------- */

void
hp_compare_window_set_bottom_up (HpCompareWindow *self,
                                 gboolean         bottom_up)
{
  g_return_if_fail (HP_IS_COMPARE_WINDOW (self));

  gtk_toggle_button_set_active (self->bottom_up_button, bottom_up);
}

gboolean
hp_compare_window_is_loaded (HpCompareWindow *self)
{
  g_return_val_if_fail (HP_IS_COMPARE_WINDOW (self), FALSE);

  return self->loaded;
}

const char *
hp_compare_window_get_error (HpCompareWindow *self)
{
  g_return_val_if_fail (HP_IS_COMPARE_WINDOW (self), NULL);

  return self->error;
}

const char *
hp_compare_window_get_overview (HpCompareWindow *self)
{
  g_return_val_if_fail (HP_IS_COMPARE_WINDOW (self), NULL);

  return self->overview_text;
}

const char *
hp_compare_window_get_row_verdict (HpCompareWindow *self,
                                   const char      *path)
{
  GListModel *model;

  g_return_val_if_fail (HP_IS_COMPARE_WINDOW (self), NULL);

  model = G_LIST_MODEL (gtk_column_view_get_model (self->column_view));
  if (model == NULL)
    return NULL;
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);
      g_autoptr(HpCompareRow) item = gtk_tree_list_row_get_item (row);
      g_autofree char *readable = hp_comparison_get_path_readable (hp_compare_row_get_comparison (item),
                                                                   hp_compare_row_get_index (item));

      if (g_strcmp0 (readable, path) == 0)
        return hp_verdict_to_string (hp_compare_row_get_stat (item)->verdict);
    }
  return NULL;
}

/* Selects the shown row whose readable path is @path; FALSE when none is. */
gboolean
hp_compare_window_select_row (HpCompareWindow *self,
                              const char      *path)
{
  GtkSelectionModel *model;

  g_return_val_if_fail (HP_IS_COMPARE_WINDOW (self), FALSE);

  model = gtk_column_view_get_model (self->column_view);
  for (guint i = 0; model != NULL && i < g_list_model_get_n_items (G_LIST_MODEL (model)); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (model), i);
      g_autoptr(HpCompareRow) item = gtk_tree_list_row_get_item (row);
      g_autofree char *readable = hp_comparison_get_path_readable (hp_compare_row_get_comparison (item),
                                                                   hp_compare_row_get_index (item));

      if (g_strcmp0 (readable, path) == 0)
        return gtk_selection_model_select_item (model, i, TRUE);
    }
  return FALSE;
}

HpCompareDetails *
hp_compare_window_get_details (HpCompareWindow *self)
{
  g_return_val_if_fail (HP_IS_COMPARE_WINDOW (self), NULL);

  return self->details;
}

const char *
hp_compare_window_get_summary (HpCompareWindow *self,
                               const char      *path_key)
{
  g_return_val_if_fail (HP_IS_COMPARE_WINDOW (self), NULL);

  return self->summaries ? g_hash_table_lookup (self->summaries, path_key) : NULL;
}

gboolean
hp_compare_window_save_screenshot (HpCompareWindow  *self,
                                   const char       *path,
                                   GError          **error)
{
  g_return_val_if_fail (HP_IS_COMPARE_WINDOW (self), FALSE);

  return hp_window_save_png (GTK_WINDOW (self), path, error);
}
