/* test-details.c - what a new user meets first: overview, thread list, tooltips, columns, [truncated]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Issue 14 tried the window on real programs; these are its smaller
 * points, each checked on the real window under Xvfb: the overview's
 * items stay put when a filter changes the sample count, the thread
 * filter lists each set of threads once, a row's tooltip reads as a
 * sentence, the first click on Self or Total sorts the biggest first, the
 * source pane explains a [truncated] node and says why its total can
 * differ from a row's.
 */

#define G_LOG_DOMAIN "hp-display-test"

#include "config.h"

#include <string.h>
#include <gdk/x11/gdkx.h>

#include "analysis/hp-profile.h"
#include "document/hp-loaded-capture.h"
#include "store/hp-capture-keys.h"
#include "ui/hp-call-row.h"
#include "ui/hp-file-chooser.h"
#include "display-common.h"

static HpApplication *app;

/* Helpers ------------------------------------------------------------ */

static gboolean
not_filtering (gpointer data)
{
  return !hp_window_is_filtering (data);
}

static gboolean
is_label_of (GtkWidget    *widget,
             gconstpointer text)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

static gboolean
is_label_starting (GtkWidget    *widget,
                   gconstpointer prefix)
{
  return GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), prefix);
}

static gboolean
is_inscription_starting (GtkWidget    *widget,
                         gconstpointer prefix)
{
  return GTK_IS_INSCRIPTION (widget) && gtk_inscription_get_text (GTK_INSCRIPTION (widget)) != NULL &&
         g_str_has_prefix (gtk_inscription_get_text (GTK_INSCRIPTION (widget)), prefix);
}

/* The row of the shown tree whose function is @name and whose parent's is
 * @parent (NULL: any); (transfer full) */
static HpCallRow *
find_row (HpWindow   *window,
          const char *name,
          const char *parent)
{
  HpCallTreeView *tree = hp_window_get_tree_view (window);
  HpLoadedProfile *p = hp_call_tree_view_get_profile (tree);
  GListModel *model = hp_call_tree_view_get_model (tree);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) r = g_list_model_get_item (model, i);
      g_autoptr(HpCallRow) row = gtk_tree_list_row_get_item (r);
      const HpCallNode *node = hp_call_row_get_node (row);

      if (g_strcmp0 (hp_profile_get_function_name (p->profile, node->function_id), name) == 0 &&
          (parent == NULL ||
           (node->parent != NULL && node->parent->function_id > 0 &&
            g_strcmp0 (hp_profile_get_function_name (p->profile, node->parent->function_id), parent) == 0)))
        return g_steal_pointer (&row);
    }
  return NULL;
}

static void
expand_all (HpWindow *window)
{
  GListModel *model = hp_call_tree_view_get_model (hp_window_get_tree_view (window));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) r = g_list_model_get_item (model, i);

      gtk_tree_list_row_set_expanded (r, TRUE);
    }
  display_spin (50);
}


/* Runs xdotool with @args (a NULL-terminated list, where "%x" and "%y"
 * are replaced by @x and @y in @window's surface) on @window, as a mouse
 * does, through the X server. FALSE when xdotool is missing. */
static gboolean
xdotool (HpWindow          *window,
         double             x,
         double             y,
         const char *const *args)
{
  g_autofree char *program = g_find_program_in_path ("xdotool");
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  double sx, sy;
  int status = 0;

  if (program == NULL)
    return FALSE;
  g_assert_true (GDK_IS_X11_SURFACE (surface));
  gtk_native_get_surface_transform (GTK_NATIVE (window), &sx, &sy);
  g_ptr_array_add (argv, g_strdup (program));
  for (guint i = 0; args[i] != NULL; i++)
    if (g_strcmp0 (args[i], "%id") == 0)
      g_ptr_array_add (argv, g_strdup_printf ("%lu", (gulong) gdk_x11_surface_get_xid (surface)));
    else if (g_strcmp0 (args[i], "%x") == 0)
      g_ptr_array_add (argv, g_strdup_printf ("%d", (int) (x + sx)));
    else if (g_strcmp0 (args[i], "%y") == 0)
      g_ptr_array_add (argv, g_strdup_printf ("%d", (int) (y + sy)));
    else
      g_ptr_array_add (argv, g_strdup (args[i]));
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                               NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  display_spin (150);
  return TRUE;
}

/* The header of the shown tree's column titled @title, in @window's
 * coordinates */
static graphene_rect_t
header_bounds (HpWindow   *window,
               const char *title)
{
  GtkWidget *tree = GTK_WIDGET (hp_window_get_tree_view (window));
  GtkWidget *header = display_find_widget (tree, is_label_of, "Function");
  GtkWidget *label, *button;
  graphene_rect_t bounds;

  /* the header of the shown view (the other tree's view is kept
   * built, out of sight), the first one found */
  while (header != NULL && g_strcmp0 (gtk_widget_get_css_name (header), "header") != 0)
    header = gtk_widget_get_parent (header);
  g_assert_nonnull (header);
  label = display_find_widget (header, is_label_of, title);
  g_assert_nonnull (label);
  /* the title's button (GtkColumnViewTitle) spans the column */
  for (button = label; button != NULL && g_strcmp0 (gtk_widget_get_css_name (button), "button") != 0;
       button = gtk_widget_get_parent (button))
    ;
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_compute_bounds (button, GTK_WIDGET (window), &bounds));
  g_test_message ("header %s: x %.0f, width %.0f", title, bounds.origin.x, bounds.size.width);
  return bounds;
}

static gboolean
click_header (HpWindow   *window,
              const char *title)
{
  graphene_rect_t b = header_bounds (window, title);
  const char *args[] = { "mousemove", "--window", "%id", "--sync", "%x", "%y", "click", "1", NULL };

  return xdotool (window, b.origin.x + b.size.width / 2, b.origin.y + b.size.height / 2, args);
}

static gboolean
sorted (gpointer window)
{
  return gtk_sort_list_model_get_pending (GTK_SORT_LIST_MODEL (hp_call_tree_view_get_model (
           hp_window_get_tree_view (window)))) == 0;
}

/* The position of the row @name under @parent in the shown tree */
static guint
position_of (HpWindow   *window,
             const char *name,
             const char *parent)
{
  g_autoptr(HpCallRow) row = find_row (window, name, parent);
  GListModel *model = hp_call_tree_view_get_model (hp_window_get_tree_view (window));

  g_assert_nonnull (row);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) r = g_list_model_get_item (model, i);
      g_autoptr(HpCallRow) item = gtk_tree_list_row_get_item (r);

      if (item == row)
        return i;
    }
  g_assert_not_reached ();
}

/* Tests -------------------------------------------------------------- */

/* The Samples value reads "1000" and then "250 of 1000": the items
 * before it (the command takes the slack) moved sideways with it. */
static void
test_overview_steady (void)
{
  g_autofree char *path = display_make_capture ("steady.hotpath", TRUE, NULL);
  HpWindow *window = display_open (app, path);
  HpCaptureOverview *overview = hp_window_get_overview (window);
  GtkWidget *event = display_find_widget (GTK_WIDGET (overview), is_label_of, hp_capture_overview_get_value (overview, "event"));
  GtkWidget *samples = display_find_widget (GTK_WIDGET (overview), is_label_of, "1000");
  graphene_rect_t event_before, event_after, samples_before, samples_after;
  double overview_width_then;
  int width_before;

  g_assert_nonnull (event);
  g_assert_nonnull (samples);
  display_spin (300);
  g_assert_true (gtk_widget_compute_bounds (event, GTK_WIDGET (overview), &event_before));
  g_assert_true (gtk_widget_compute_bounds (samples, GTK_WIDGET (overview), &samples_before));
  overview_width_then = gtk_widget_get_width (GTK_WIDGET (overview));

  display_activate (window, "win.thread-filter", g_variant_new_uint32 (2));
  g_assert_true (display_wait (not_filtering, window, 10000));
  display_spin (50);
  g_assert_cmpstr (hp_capture_overview_get_value (overview, "samples"), ==, "250 of 1000");
  g_assert_true (gtk_widget_compute_bounds (event, GTK_WIDGET (overview), &event_after));
  g_assert_true (gtk_widget_compute_bounds (samples, GTK_WIDGET (overview), &samples_after));
  /* from the right edge: the command, on the left, takes what the window
   * gives, so a window still settling its width moves every item alike */
  width_before = gtk_widget_get_width (GTK_WIDGET (overview));
  g_test_message ("Event at x = %.0f of %d, then %.0f of %d; Samples at %.0f, then %.0f", event_before.origin.x,
                  width_before, event_after.origin.x, gtk_widget_get_width (GTK_WIDGET (overview)),
                  samples_before.origin.x, samples_after.origin.x);
  g_assert_cmpfloat (overview_width_then - event_before.origin.x, ==,
                     gtk_widget_get_width (GTK_WIDGET (overview)) - event_after.origin.x);
  g_assert_cmpfloat (overview_width_then - samples_before.origin.x, ==,
                     gtk_widget_get_width (GTK_WIDGET (overview)) - samples_after.origin.x);
  display_close (window);
}

/* One process of two threads: "All threads" and the two threads, named
 * by the function they start in; no entry for the process (it is "All
 * threads" again). */
static void
test_thread_list (void)
{
  g_autofree char *path = display_make_capture ("thread-list.hotpath", TRUE, NULL);
  HpWindow *window = display_open (app, path);
  GListModel *list = G_LIST_MODEL (gtk_drop_down_get_model (hp_window_get_thread_dropdown (window)));

  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 3);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (list), 0), ==, "All threads (1000 samples)");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (list), 1), ==, "Thread alpha in main (101, 750 samples)");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (list), 2), ==, "Thread beta in main (102, 250 samples)");
  display_close (window);
}

/* "Self: no samples of the samples are in this function itself here" */
static void
test_row_tooltip (void)
{
  g_autofree char *path = display_make_capture ("tooltip.hotpath", TRUE, NULL);
  HpWindow *window = display_open (app, path);
  g_autofree char *main_tip = NULL;
  g_autofree char *leaf_tip = NULL;
  g_autoptr(HpCallRow) main_row = NULL;
  g_autoptr(HpCallRow) leaf_row = NULL;

  expand_all (window);
  main_row = find_row (window, "main", NULL);
  leaf_row = find_row (window, "alpha_leaf", "run_alpha");
  g_object_get (main_row, "tooltip", &main_tip, NULL);
  g_object_get (leaf_row, "tooltip", &leaf_tip, NULL);
  g_test_message ("%s\n---\n%s", main_tip, leaf_tip);
  g_assert_nonnull (strstr (main_tip, "\nSelf: no samples in this function itself, on this path\n"
                                      "Total: 100.0 % (1000 samples) in it or in what it calls"));
  g_assert_nonnull (strstr (leaf_tip, "\nSelf: 60.0 % (600 samples) in this function itself, on this path\n"));
  g_assert_null (strstr (main_tip, "of the samples are"));
  display_close (window);
}

/* main → work → leaf 758 samples, and 1 sample whose stack was cut:
 * [truncated] → work → leaf; recorded with DWARF and 8 KiB copies. */
static char *
make_truncated_capture (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "truncated.hotpath", NULL);
  g_autoptr(HpCaptureWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *src = g_build_filename (display_tmpdir (), "cut.c", NULL);
  gint64 mod, f_main, f_work, f_leaf, f_cut, s_main, s_cut, leaf, cut_leaf;
  guint64 t = 0;

  g_assert_true (g_file_set_contents (src, "static void leaf (void) {\n  for (;;) ;\n}\n"
                                           "static void work (void) {\n  leaf ();\n}\n"
                                           "int main (void) {\n  work ();\n}\n", -1, NULL));

  w = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, HP_META_EVENT, "cpu-clock");
  hp_capture_writer_set_metadata (w, HP_META_CALL_GRAPH, "dwarf");
  hp_capture_writer_set_metadata_int (w, HP_META_STACK_SIZE, 8192);
  hp_capture_writer_set_metadata_int (w, HP_META_TRUNCATED_STACKS, 1);
  hp_capture_writer_set_metadata_int (w, HP_META_TRUNCATED_STACK_COPY, 1);
  hp_capture_writer_set_process (w, 100, "cut");
  hp_capture_writer_set_thread (w, 100, 100, "cut");
  mod = hp_capture_writer_intern_module (w, "/opt/display-test/cut", NULL, FALSE);
  f_main = hp_capture_writer_intern_function (w, "main", mod, src, 7);
  f_work = hp_capture_writer_intern_function (w, "work", mod, src, 4);
  f_leaf = hp_capture_writer_intern_function (w, "leaf", mod, src, 1);
  f_cut = hp_capture_writer_intern_function (w, HP_FUNCTION_TRUNCATED, 0, NULL, 0);
  s_main = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w, f_main, src, 8, FALSE, 0x100));
  s_cut = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w, f_cut, NULL, 0, FALSE, 0));
  leaf = hp_capture_writer_intern_stack (w,
           hp_capture_writer_intern_stack (w, s_main, hp_capture_writer_intern_frame (w, f_work, src, 5, FALSE, 0x200)),
           hp_capture_writer_intern_frame (w, f_leaf, src, 2, FALSE, 0x300));
  cut_leaf = hp_capture_writer_intern_stack (w,
               hp_capture_writer_intern_stack (w, s_cut, hp_capture_writer_intern_frame (w, f_work, src, 5, FALSE, 0x200)),
               hp_capture_writer_intern_frame (w, f_leaf, src, 2, FALSE, 0x300));
  for (guint n = 0; n < 758; n++)
    hp_capture_writer_add_sample (w, t += 1000, 100, 0, leaf, 1000);
  hp_capture_writer_add_sample (w, t += 1000, 100, 0, cut_leaf, 1000);
  g_assert_true (hp_capture_writer_finish (w, &error));
  return g_steal_pointer (&path);
}

static gint64
function_id (HpWindow   *window,
             const char *name)
{
  const HpCaptureData *data = hp_call_tree_view_get_profile (hp_window_get_tree_view (window))->capture->data;

  for (guint i = 1; i < data->functions->len; i++)
    if (g_strcmp0 (g_array_index (data->functions, HpCaptureFunction, i).name, name) == 0)
      return i;
  g_assert_not_reached ();
}

static gboolean
source_settled (gpointer data)
{
  return !hp_window_is_following (data) && !hp_source_view_is_loading (hp_window_get_source_view (data));
}

/* The source pane explains [truncated] and what helps, and says that its
 * total counts every path of a function. */
static void
test_truncated (void)
{
  g_autofree char *path = make_truncated_capture ();
  HpWindow *window = display_open (app, path);
  HpSourceView *source = hp_window_get_source_view (window);
  GtkWidget *caption;
  g_autoptr(HpCallRow) work_row = NULL;

  display_activate (window, "win.show-pane", g_variant_new_string ("source"));
  g_assert_true (hp_call_tree_view_select_function (hp_window_get_tree_view (window),
                                                    function_id (window, HP_FUNCTION_TRUNCATED)));
  g_assert_true (display_wait (source_settled, window, 10000));
  g_test_message ("%s", hp_source_view_get_message (source));
  g_assert_cmpstr (hp_source_view_get_state (source), ==, "no-lines");
  g_assert_nonnull (strstr (hp_source_view_get_message (source), "--call-graph dwarf,32768"));
  g_assert_nonnull (strstr (hp_source_view_get_message (source), "0.1 % (1 sample)"));
  g_assert_null (strstr (hp_source_view_get_message (source), "dbgsym"));

  /* work: 758 on its main path, 759 on both: the pane says which it counts */
  g_assert_true (hp_call_tree_view_select_function (hp_window_get_tree_view (window), function_id (window, "work")));
  g_assert_true (display_wait (source_settled, window, 10000));
  expand_all (window);
  work_row = find_row (window, "work", "main");
  g_assert_cmpuint (hp_call_row_get_node (work_row)->total, ==, 758);
  g_assert_cmpstr (hp_source_view_get_state (source), ==, "source");
  caption = display_find_widget (GTK_WIDGET (source), is_inscription_starting, "Samples of work");
  g_assert_nonnull (caption);
  g_test_message ("%s", gtk_inscription_get_text (GTK_INSCRIPTION (caption)));
  g_assert_nonnull (strstr (gtk_inscription_get_text (GTK_INSCRIPTION (caption)),
                            "on all its call paths: 759 samples in all (a row of the call tree counts one path)"));
  display_close (window);
}

typedef struct {
  HpWindow *window;
  gboolean  alpha_first;
} SortOrder;

static gboolean
in_sort_order (gpointer data)
{
  SortOrder *order = data;

  return sorted (order->window)
         && (position_of (order->window, "alpha_leaf", "run_alpha")
             < position_of (order->window, "shared_leaf", "run_alpha")) == order->alpha_first;
}

/* Waits until the rows under run_alpha are sorted with alpha_leaf first
 * (@alpha_first) or last, and fails when they are not within 5 s. */
static void
wait_for_order (HpWindow *window,
                gboolean  alpha_first)
{
  SortOrder order = { window, alpha_first };

  if (!display_wait (in_sort_order, &order, 5000))
    g_error ("alpha_leaf (row %u) is not %s shared_leaf (row %u) under run_alpha",
             position_of (window, "alpha_leaf", "run_alpha"), alpha_first ? "before" : "after",
             position_of (window, "shared_leaf", "run_alpha"));
}

/* The first click on Self sorts the biggest first, the second the
 * smallest; then Total, first click, the biggest first again. Under
 * run_alpha: alpha_leaf (self 600, total 600), shared_leaf (150, 150). */
static void
test_sort_first_click (void)
{
  g_autofree char *path = display_make_capture ("sort.hotpath", TRUE, NULL);
  HpWindow *window = display_open (app, path);

  expand_all (window);
  g_assert_cmpuint (position_of (window, "alpha_leaf", "run_alpha"), <, position_of (window, "shared_leaf", "run_alpha"));
  if (!click_header (window, "Self"))
    {
      display_close (window);
      g_test_skip ("xdotool is not installed");
      return;
    }
  /* a click reaches the window through the X server, some time after
   * xdotool returns: each order is waited for, not read at once */
  wait_for_order (window, TRUE);
  click_header (window, "Self");
  wait_for_order (window, FALSE);
  click_header (window, "Total");
  wait_for_order (window, TRUE);
  display_close (window);
}

/* Dragging the Function column's edge to the right, at 1024×700, leaves
 * Total and Module in view. */
static void
test_columns_in_view (void)
{
  g_autofree char *path = display_make_capture ("columns.hotpath", TRUE, NULL);
  HpWindow *window = display_open_sized (app, path, 1024, 700);
  GtkWidget *tree = GTK_WIDGET (hp_window_get_tree_view (window));
  graphene_rect_t function = header_bounds (window, "Function");
  graphene_rect_t tree_bounds, total, module;
  double edge = function.origin.x + function.size.width - 2;
  double y = function.origin.y + function.size.height / 2;
  const char *press[] = { "mousemove", "--window", "%id", "--sync", "%x", "%y", "mousedown", "1", NULL };
  const char *drag[] = { "mousemove", "--window", "%id", "--sync", "%x", "%y", "mouseup", "1", NULL };

  if (!xdotool (window, edge, y, press))
    {
      display_close (window);
      g_test_skip ("xdotool is not installed");
      return;
    }
  xdotool (window, edge + 400, y, drag);
  g_assert_true (gtk_widget_compute_bounds (tree, GTK_WIDGET (window), &tree_bounds));
  total = header_bounds (window, "Total");
  g_assert_cmpfloat (total.origin.x + total.size.width, <=, tree_bounds.origin.x + tree_bounds.size.width);
  module = header_bounds (window, "Module");
  g_test_message ("Function was %.0f px wide, is %.0f; Module ends at %.0f, the tree at %.0f",
                  function.size.width, header_bounds (window, "Function").size.width,
                  module.origin.x + module.size.width, tree_bounds.origin.x + tree_bounds.size.width);
  g_assert_cmpfloat (module.origin.x + module.size.width, <=, tree_bounds.origin.x + tree_bounds.size.width);
  display_close (window);
}

static gboolean
shows_file (gpointer data)
{
  HpWindow *window = ((gpointer *) data)[0];
  HpSummaryStore *store = hp_window_get_summary_store (window);

  return g_strcmp0 (hp_window_get_state (window), "capture") == 0 && store != NULL &&
         g_strcmp0 (hp_summary_store_get_path (store), ((gpointer *) data)[1]) == 0;
}

static gboolean
saved (gpointer store)
{
  return hp_summary_store_get_n_pending (store) == 0;
}

/* A perf.data is shown from its import in the cache, where summaries
 * cannot be kept; Save as Capture copies it to a capture of the user's
 * and shows that, where they can. */
static void
test_save_as_capture (void)
{
  g_autofree char *perf_data = display_make_perf_data ();
  g_autofree char *target = g_build_filename (display_tmpdir (), "saved.hotpath", NULL);
  g_autofree char *again = g_build_filename (display_tmpdir (), "saved-again.hotpath", NULL);
  HpWindow *window = display_open (app, perf_data);
  gpointer shows[2] = { window, target };
  HpSummaryStore *store;

  g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
  g_assert_nonnull (hp_summary_store_get_read_only_reason (hp_window_get_summary_store (window)));
  g_assert_nonnull (strstr (hp_summary_store_get_read_only_reason (hp_window_get_summary_store (window)),
                            "Save as Capture"));

  display_activate (window, "win.save-capture-to", g_variant_new_string (target));
  g_assert_true (display_wait (shows_file, shows, 10000));
  store = hp_window_get_summary_store (window);
  g_assert_null (hp_summary_store_get_read_only_reason (store));
  g_assert_cmpstr (hp_capture_overview_get_value (hp_window_get_overview (window), "samples"), ==, "20");

  /* a summary is kept in it */
  hp_summary_store_set (store, "[unknown]\tmain\n", "main", "written after Save as Capture");
  g_assert_true (display_wait (saved, store, 10000));
  display_close (window);

  /* opened again from its file: the summary is there, nothing to save */
  window = display_open (app, target);
  g_assert_cmpstr (hp_summary_store_get (hp_window_get_summary_store (window), "[unknown]\tmain\n"), ==,
                   "written after Save as Capture");
  g_assert_null (hp_summary_store_get_read_only_reason (hp_window_get_summary_store (window)));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save-capture-to", "s", again);
  display_spin (200);
  g_assert_false (g_file_test (again, G_FILE_TEST_EXISTS));
  display_close (window);
}

/* At 1024×700 with the summary pane shown, the window fits the screen
 * (it was 1041 px at least, cut at both sides). */
static void
test_fits_1024 (void)
{
  g_autofree char *path = display_make_capture ("fits.hotpath", TRUE, NULL);
  HpWindow *window = display_open_sized (app, path, 1024, 700);
  GtkWidget *entry = hp_window_get_search_entry (window);
  g_autofree char *placeholder = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  int minimum = 0, text_width = 0;

  g_object_set (window, "show-summary", TRUE, NULL);
  display_spin (300);
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  g_object_get (entry, "placeholder-text", &placeholder, NULL);
  layout = gtk_widget_create_pango_layout (entry, placeholder);
  pango_layout_get_pixel_size (layout, &text_width, NULL);
  g_test_message ("window at least %d px wide, %d px; search field %d px, its placeholder %d",
                  minimum, gtk_widget_get_width (GTK_WIDGET (window)), gtk_widget_get_width (entry), text_width);
  g_assert_cmpint (minimum, <=, 1024);
  /* the placeholder whole, with the magnifier and the clear icon (57 px
   * at 1024 with the summary pane, before the thread menu ellipsized) */
  g_assert_cmpint (gtk_widget_get_width (entry), >=, text_width + 32);
  display_assert_fits_width (window, 1024);
  display_close (window);
}

/* main → leaf, one sample: a capture whose every count is 1 */
static char *
make_one_sample_capture (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "one-sample.hotpath", NULL);
  g_autofree char *src = g_build_filename (display_tmpdir (), "one.c", NULL);
  g_autoptr(HpCaptureWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  gint64 mod, f_main, f_leaf, s_main, s_leaf;

  g_assert_true (g_file_set_contents (src, "static void leaf (void) {\n  for (;;) ;\n}\n"
                                           "int main (void) {\n  leaf ();\n}\n", -1, NULL));
  w = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, HP_META_EVENT, "cpu-clock");
  hp_capture_writer_set_process (w, 100, "one");
  hp_capture_writer_set_thread (w, 100, 100, "one");
  mod = hp_capture_writer_intern_module (w, "/opt/display-test/one", NULL, FALSE);
  f_main = hp_capture_writer_intern_function (w, "main", mod, src, 4);
  f_leaf = hp_capture_writer_intern_function (w, "leaf", mod, src, 1);
  s_main = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w, f_main, src, 5, FALSE, 0x100));
  s_leaf = hp_capture_writer_intern_stack (w, s_main, hp_capture_writer_intern_frame (w, f_leaf, src, 2, FALSE, 0x200));
  hp_capture_writer_add_sample (w, 1000, 100, 0, s_leaf, 1000);
  g_assert_true (hp_capture_writer_finish (w, &error));
  return g_steal_pointer (&path);
}

/* Every label and inscription under @widget, shown or not, that counts
 * one thing in the plural ("its 1 samples"), one a line */
static void
find_one_plural (GtkWidget *widget,
                 GString   *found)
{
  static GRegex *plural = NULL;
  const char *text = NULL;

  if (plural == NULL)
    plural = g_regex_new ("(^|[^0-9.,])1 [a-z-]* ?samples", 0, 0, NULL);
  if (GTK_IS_LABEL (widget))
    text = gtk_label_get_text (GTK_LABEL (widget));
  else if (GTK_IS_INSCRIPTION (widget))
    text = gtk_inscription_get_text (GTK_INSCRIPTION (widget));
  if (text != NULL && g_regex_match (plural, text, 0, NULL))
    g_string_append_printf (found, "%s: %s\n", G_OBJECT_TYPE_NAME (gtk_widget_get_parent (widget)), text);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    find_one_plural (child, found);
}

/* A capture of one sample: every caption and header says "1 sample"
 * ("(total 1 samples" was in the callers' header), in each pane. */
static void
test_one_sample (void)
{
  static const char *panes[] = { "calls", "source", "flame", "functions", "timeline" };
  g_autofree char *path = make_one_sample_capture ();
  HpWindow *window = display_open (app, path);
  g_autoptr(GString) found = g_string_new (NULL);
  GtkWidget *callers;

  g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
  display_activate (window, "win.select-function", g_variant_new_string ("leaf"));
  for (guint mode = 0; mode < 2; mode++)
    {
      display_activate (window, "win.tree-mode", g_variant_new_string (mode ? "bottom-up" : "top-down"));
      for (guint i = 0; i < G_N_ELEMENTS (panes); i++)
        {
          display_activate (window, "win.show-pane", g_variant_new_string (panes[i]));
          g_assert_true (display_wait (source_settled, window, 10000));
          display_spin (100);
          find_one_plural (GTK_WIDGET (window), found);
        }
    }
  g_assert_cmpstr (found->str, ==, "");
  display_activate (window, "win.show-pane", g_variant_new_string ("calls"));
  display_spin (100);
  callers = display_find_widget (GTK_WIDGET (hp_window_get_calls_view (window)), is_label_starting, "Callers of");
  g_assert_nonnull (callers);
  g_test_message ("%s", gtk_label_get_text (GTK_LABEL (callers)));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (callers)), "its 1 sample "));
  display_close (window);
}

/* The one filter of every chooser of captures (Open, Compare, Import
 * Summaries From): captures, and for Open the files the window imports. */
static void
test_capture_chooser_filter (void)
{
  static const struct { const char *name; gboolean capture, open; } cases[] = {
    { "app.hotpath", TRUE, TRUE },
    { "perf.data", FALSE, TRUE },
    { "perf.data.old", FALSE, TRUE },
    { "run.perf.data", FALSE, TRUE },
    { "cpu.pb.gz", FALSE, TRUE },
    { "cpu.pprof", FALSE, TRUE },
    { "out.folded", FALSE, TRUE },
    { "out.collapsed", FALSE, TRUE },
    { "notes.txt", FALSE, FALSE },
    { "hotpath", FALSE, FALSE },
  };
  g_autoptr(GtkFileFilter) captures = hp_capture_chooser_new_filter (0);
  g_autoptr(GtkFileFilter) open = hp_capture_chooser_new_filter (HP_CHOOSE_IMPORTS);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GFileInfo) info = g_file_info_new ();

      g_file_info_set_display_name (info, cases[i].name);
      g_assert_cmpint (gtk_filter_match (GTK_FILTER (captures), info), ==, cases[i].capture);
      g_assert_cmpint (gtk_filter_match (GTK_FILTER (open), info), ==, cases[i].open);
    }
}

static int
run (HpApplication *application)
{
  app = application;
  g_test_add_func ("/details/overview-steady", test_overview_steady);
  g_test_add_func ("/details/thread-list", test_thread_list);
  g_test_add_func ("/details/row-tooltip", test_row_tooltip);
  g_test_add_func ("/details/truncated", test_truncated);
  g_test_add_func ("/details/sort-first-click", test_sort_first_click);
  g_test_add_func ("/details/columns-in-view", test_columns_in_view);
  g_test_add_func ("/details/save-as-capture", test_save_as_capture);
  g_test_add_func ("/details/capture-chooser-filter", test_capture_chooser_filter);
  g_test_add_func ("/details/fits-1024", test_fits_1024);
  g_test_add_func ("/details/one-sample", test_one_sample);
  return g_test_run ();
}

int
main (int    argc,
      char **argv)
{
  return display_run (argc, argv, run);
}
