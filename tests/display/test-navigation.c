/* test-navigation.c - finding one's way in the window: deep trees, keys, search
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * What issue 14 found on real programs, checked on the real window under
 * Xvfb: a 200-deep recursion whose names must stay readable, keys sent
 * through the X server (xdotool, XTest) rather than by calling the
 * actions they are bound to, and the search's marks.
 */

#define G_LOG_DOMAIN "hp-display-test"

#include "config.h"

#include <string.h>
#include <sys/resource.h>
#include <glib/gstdio.h>
#include <gdk/x11/gdkx.h>

#include "analysis/hp-profile.h"
#include "ui/hp-call-row.h"
#include "ui/hp-cell.h"
#include "ui/hp-summary-item.h"
#include "ui/hp-summary-list.h"
#include "document/hp-loaded-capture.h"
#include "display-common.h"

static HpApplication *app;

#define DEEP 200

/* Helpers ------------------------------------------------------------ */

static guint
selected_depth (HpWindow *window)
{
  const HpCallNode *node = hp_call_tree_view_get_selected (hp_window_get_tree_view (window));
  guint depth = 0;

  for (; node != NULL && node->parent != NULL; node = node->parent)
    depth++;
  return depth;
}

static gboolean
is_inscription_of (GtkWidget    *widget,
                   gconstpointer text)
{
  return GTK_IS_INSCRIPTION (widget) &&
         g_strcmp0 (gtk_inscription_get_text (GTK_INSCRIPTION (widget)), text) == 0;
}

static gboolean
has_class (GtkWidget    *widget,
           gconstpointer name)
{
  return gtk_widget_has_css_class (widget, name);
}

/* A capture of main → recurse ×DEEP → leaf, all its samples in the leaf,
 * and a few in a shallow sibling. */
static char *
make_deep_capture (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "deep.hotpath", NULL);
  g_autoptr(HpCaptureWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  gint64 mod, recurse, stack, s_main;
  guint64 t = 0;

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&path);  /* made by an earlier test */
  w = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_process (w, 100, "deep");
  hp_capture_writer_set_thread (w, 100, 100, "deep");
  mod = hp_capture_writer_intern_module (w, "/opt/display-test/deep", NULL, FALSE);
  s_main = stack = hp_capture_writer_intern_stack (w, 0,
                     hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "main", mod, NULL, 0),
                                                     NULL, 0, FALSE, 0x100));
  recurse = hp_capture_writer_intern_function (w, "recurse", mod, NULL, 0);
  for (guint d = 0; d < DEEP; d++)
    stack = hp_capture_writer_intern_stack (w, stack,
              hp_capture_writer_intern_frame (w, recurse, NULL, 0, FALSE, 0x200));
  stack = hp_capture_writer_intern_stack (w, stack,
            hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "work_leaf", mod, NULL, 0),
                                            NULL, 0, FALSE, 0x300));
  for (guint n = 0; n < 100; n++)
    hp_capture_writer_add_sample (w, t += 1000, 100, 0, stack, 1000);
  stack = hp_capture_writer_intern_stack (w, s_main,
            hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "setup", mod, NULL, 0),
                                            NULL, 0, FALSE, 0x400));
  for (guint n = 0; n < 5; n++)
    hp_capture_writer_add_sample (w, t += 1000, 100, 0, stack, 1000);
  g_assert_true (hp_capture_writer_finish (w, &error));
  return g_steal_pointer (&path);
}

/* A hostile capture: main → f0 → … → f99999, the samples in the last,
 * and a few in a shallow sibling. */
#define VERY_DEEP 100000
#define OPEN_DEPTH 1000  /* MAX_OPEN_DEPTH of hp-call-tree-view-private.h */

static char *
make_very_deep_capture_full (gboolean faults)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), faults ? "very-deep-faults.hotpath" : "very-deep.hotpath",
                                            NULL);
  g_autoptr(HpCaptureWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  gint64 mod, stack, s_main, cpu = 0, fault_event = 0;
  guint64 t = 0;

  g_unlink (path);
  w = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  if (faults)
    {
      cpu = hp_capture_writer_add_event (w, "cpu-clock", "ns", 1000, 0);
      fault_event = hp_capture_writer_add_event (w, "page-faults", "page faults", 0, 1);
    }
  else
    hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_process (w, 100, "deep");
  hp_capture_writer_set_thread (w, 100, 100, "deep");
  mod = hp_capture_writer_intern_module (w, "/opt/display-test/very-deep", NULL, FALSE);
  s_main = stack = hp_capture_writer_intern_stack (w, 0,
                     hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "main", mod, NULL, 0),
                                                     NULL, 0, FALSE, 0x100));
  for (guint d = 0; d < VERY_DEEP; d++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", d);

      stack = hp_capture_writer_intern_stack (w, stack,
                hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, name, mod, NULL, 0),
                                                NULL, 0, FALSE, 0x1000 + d));
    }
  for (guint n = 0; n < 100; n++)
    {
      if (faults)
        {
          hp_capture_writer_add_event_sample (w, cpu, t += 1000, 100, 0, stack, 1000);
          /* 5 page faults every other ms on the CPU */
          if (n % 2 == 0)
            hp_capture_writer_add_event_sample (w, fault_event, t + 1, 100, 0, stack, 5);
        }
      else
        hp_capture_writer_add_sample (w, t += 1000, 100, 0, stack, 1000);
    }
  stack = hp_capture_writer_intern_stack (w, s_main,
            hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "setup", mod, NULL, 0),
                                            NULL, 0, FALSE, 0x400));
  for (guint n = 0; n < 5; n++)
    if (faults)
      hp_capture_writer_add_event_sample (w, cpu, t += 1000, 100, 0, stack, 1000);
    else
      hp_capture_writer_add_sample (w, t += 1000, 100, 0, stack, 1000);
  g_assert_true (hp_capture_writer_finish (w, &error));
  return g_steal_pointer (&path);
}

static char *
make_very_deep_capture (void)
{
  return make_very_deep_capture_full (FALSE);
}

/* Runs the test again in a subprocess whose threads have a 1 MiB stack
 * (RLIMIT_STACK, which threads take as their size), and asserts that it
 * passed: TRUE in that subprocess, which runs the test; FALSE in the
 * test itself, which returns. */
static gboolean
in_small_stack (void)
{
  struct rlimit old, small;

  if (g_test_subprocess ())
    return TRUE;
  g_assert_cmpint (getrlimit (RLIMIT_STACK, &old), ==, 0);
  small = old;
  small.rlim_cur = 1024 * 1024;
  g_assert_cmpint (setrlimit (RLIMIT_STACK, &small), ==, 0);
  g_test_trap_subprocess (NULL, 200 * G_USEC_PER_SEC,
                          G_TEST_SUBPROCESS_INHERIT_STDOUT | G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_assert_cmpint (setrlimit (RLIMIT_STACK, &old), ==, 0);
  g_test_trap_assert_passed ();
  return FALSE;
}

/* With HOTPATH_SHOTS=DIR, saves what the window shows as DIR/NAME-RENDERER.png */
static void
shot (HpWindow   *window,
      const char *name)
{
  const char *dir = g_getenv ("HOTPATH_SHOTS");
  g_autofree char *file = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;
  file = g_strdup_printf ("%s-%s.png", name, g_getenv ("HOTPATH_TEST_RENDERER") ? "gl" : "cairo");
  path = g_build_filename (dir, file, NULL);
  display_save_png (GTK_WINDOW (window), path);
}

static gboolean
leaf_selected (gpointer data)
{
  return g_strcmp0 (display_selected_name (data), "work_leaf") == 0;
}

static gboolean
leaf_shown (gpointer tree)
{
  GtkWidget *name = display_find_widget (tree, is_inscription_of, "work_leaf");
  graphene_rect_t bounds;

  return name != NULL && gtk_widget_compute_bounds (name, tree, &bounds) &&
         bounds.origin.y > 0 && bounds.origin.y < gtk_widget_get_height (tree);
}

/* Sends @keys (xdotool key names) to @window through the X server, as a
 * keyboard does: the window is given the X input focus first. FALSE
 * when xdotool is missing. */
static gboolean
send_keys (HpWindow   *window,
           const char *keys)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  g_autofree char *id = NULL;
  g_auto(GStrv) names = g_strsplit (keys, " ", -1);
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));

  if (xdotool == NULL)
    return FALSE;
  g_assert_true (GDK_IS_X11_SURFACE (surface));
  id = g_strdup_printf ("%lu", (gulong) gdk_x11_surface_get_xid (surface));
  for (guint i = 0; names[i] != NULL; i++)
    {
      const char *argv[] = { xdotool, "windowfocus", "--sync", id, "key", "--clearmodifiers", names[i], NULL };
      int status = 0;
      g_autoptr(GError) error = NULL;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                                   NULL, NULL, &status, &error));
      g_assert_no_error (error);
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      /* one key at a time, each handled before the next */
      display_spin (60);
    }
  return TRUE;
}

/* The tree's row of the selected node; (transfer full) */
static HpCallRow *
selected_row (HpWindow *window)
{
  HpCallTreeView *tree = hp_window_get_tree_view (window);
  const HpCallNode *node = hp_call_tree_view_get_selected (tree);
  GListModel *model = hp_call_tree_view_get_model (tree);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) r = g_list_model_get_item (model, i);
      g_autoptr(HpCallRow) row = gtk_tree_list_row_get_item (r);

      if (hp_call_row_get_node (row) == node)
        return g_steal_pointer (&row);
    }
  return NULL;
}

/* Tests -------------------------------------------------------------- */

/* The leaf 201 calls deep shows its name inside the Function
 * column, with its depth beside it, and the path reads "recurse ×200". */
static void
test_deep_tree (void)
{
  g_autofree char *path = make_deep_capture ();
  HpWindow *window = display_open (app, path);
  GtkWidget *tree = GTK_WIDGET (hp_window_get_tree_view (window));
  GtkWidget *name, *badge, *crumbs;
  graphene_rect_t bounds;
  const char *text;

  /* (the rows down to it are made a few a frame) */
  display_wait (leaf_selected, window, 10000);
  shot (window, "deep");
  g_assert_true (leaf_selected (window));
  display_spin (200);
  g_assert_cmpuint (selected_depth (window), ==, DEEP + 2);

  /* scrolled to, once its row is laid out */
  g_assert_true (display_wait (leaf_shown, tree, 10000));
  display_spin (100);
  name = display_find_widget (tree, is_inscription_of, "work_leaf");
  g_assert_true (gtk_widget_compute_bounds (name, tree, &bounds));
  g_test_message ("work_leaf at x = %.0f, %.0f px wide, in a tree %d px wide",
                  bounds.origin.x, bounds.size.width, gtk_widget_get_width (tree));
  /* indented by HP_CELL_MAX_INDENT levels (20 px each) at most, then its
   * depth, and wide enough to read (without the cap: 4,000 px to the right) */
  g_assert_cmpfloat (bounds.origin.x, <, (HP_CELL_MAX_INDENT + 1) * 20 + 80);
  {
    GtkWidget *cell = name;
    graphene_rect_t in_cell;

    while (cell != NULL && g_strcmp0 (gtk_widget_get_css_name (cell), "cell") != 0)
      cell = gtk_widget_get_parent (cell);
    g_assert_nonnull (cell);
    g_assert_true (gtk_widget_compute_bounds (name, cell, &in_cell));
    g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (name, "work_leaf");
    int text_width = 0;

    /* the whole name inside the Function column */
    pango_layout_get_pixel_size (layout, &text_width, NULL);
    g_assert_cmpfloat (in_cell.size.width, >=, text_width);
    g_assert_cmpfloat (in_cell.origin.x + text_width, <=, gtk_widget_get_width (cell));
  }

  /* its depth, beside it */
  badge = display_find_widget (gtk_widget_get_parent (name), has_class, "depth-badge");
  g_assert_nonnull (badge);
  {
    g_autofree char *depth = g_strdup_printf ("%u", DEEP + 2);  /* main, 200 recurse, the leaf */

    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (badge)), ==, depth);
  }

  /* the breadcrumbs fold the recursion */
  crumbs = display_find_widget (GTK_WIDGET (window), has_class, "breadcrumbs");
  g_assert_nonnull (crumbs);
  text = gtk_label_get_text (GTK_LABEL (crumbs));
  g_test_message ("breadcrumbs: %s", text);
  g_assert_nonnull (strstr (text, "recurse ×" G_STRINGIFY (DEEP)));
  g_assert_null (strstr (text, "recurse › recurse"));
  g_assert_nonnull (strstr (text, "main › recurse"));

  /* so do the Summaries list and the row's tooltip */
  {
    HpSummaryPane *pane = hp_window_get_summary_pane (window);
    GListModel *summaries = hp_summary_list_get_model (hp_window_get_summary_list (window));
    g_autoptr(HpSummaryItem) item = NULL;
    g_autoptr(HpCallRow) row = NULL;
    g_autofree char *tooltip = NULL;

    hp_summary_pane_set_text (pane, "the leaf of a deep recursion");
    hp_summary_pane_flush (pane);
    display_spin (100);
    g_assert_cmpuint (g_list_model_get_n_items (summaries), ==, 1);
    item = g_list_model_get_item (summaries, 0);
    g_test_message ("Summaries list: %s", hp_summary_item_get_path (item));
    g_assert_cmpstr (hp_summary_item_get_path (item), ==, "main → recurse ×" G_STRINGIFY (DEEP) " → work_leaf");
    row = selected_row (window);
    g_object_get (row, "tooltip", &tooltip, NULL);
    g_test_message ("tooltip: %s", tooltip);
    g_assert_nonnull (strstr (tooltip, "main → recurse ×" G_STRINGIFY (DEEP) " → work_leaf"));
  }
  display_close (window);
}

/* The keyboard focus is in the row of the selected node */
static gboolean
focus_on_selected (gpointer data)
{
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (data));
  const char *name = display_selected_name (data);

  for (; focus != NULL; focus = gtk_widget_get_parent (focus))
    if (g_strcmp0 (gtk_widget_get_css_name (focus), "row") == 0)
      return name != NULL && display_find_widget (focus, is_inscription_of, name) != NULL;
  return FALSE;
}

/* The row with the keyboard focus is ringed (style.css) */
static gboolean
focus_ringed (gpointer window)
{
  GtkWidget *row = gtk_window_get_focus (GTK_WINDOW (window));

  while (row != NULL && g_strcmp0 (gtk_widget_get_css_name (row), "row") != 0)
    row = gtk_widget_get_parent (row);
  g_autofree guchar *pixels = NULL;
  int width, height;
  double ratio;

  if (row == NULL ||
      !(gtk_widget_get_state_flags (row) & GTK_STATE_FLAG_FOCUS_VISIBLE) ||
      !(gtk_widget_get_state_flags (row) & GTK_STATE_FLAG_FOCUS_WITHIN))
    return FALSE;
  /* and the ring is drawn: the row's edge (the outline, 2 px inside it)
   * stands out from the row's own background beside it (the indentation
   * of the Function cell) */
  pixels = display_render_pixels (row, &width, &height);
  if (pixels == NULL)
    return FALSE;
  ratio = display_contrast_ratio (pixels + ((gsize) (height / 2) * width + 1) * 4,
                                  pixels + ((gsize) (height / 2) * width + 8) * 4);
  g_test_message ("focus ring: contrast %.2f with the row beside it", ratio);
  return ratio >= 1.5;
}

/* Keys pressed on the keyboard: the first Down after opening goes from
 * the hot row the window selected, not from the top; Right and Left
 * follow GtkTreeExpander's conventions. */
static void
test_keys (void)
{
  g_autofree char *path = display_make_capture ("keys.hotpath", TRUE, NULL);
  HpWindow *window = display_open (app, path);

  g_assert_cmpstr (display_selected_name (window), ==, "alpha_leaf");
  /* the keyboard focus is on that row, a frame or two after it is shown */
  g_assert_true (display_wait (focus_on_selected, window, 5000));
  if (!send_keys (window, "Down"))
    {
      g_test_skip ("xdotool is not installed");
      display_close (window);
      return;
    }
  g_assert_cmpstr (display_selected_name (window), ==, "shared_leaf");
  g_assert_cmpuint (selected_depth (window), ==, 3);
  send_keys (window, "Up");
  g_assert_cmpstr (display_selected_name (window), ==, "alpha_leaf");

  /* Left on a leaf: its parent; Left again: folded; Right: open; Right: first child */
  send_keys (window, "Left");
  g_assert_cmpstr (display_selected_name (window), ==, "run_alpha");
  g_assert_true (focus_on_selected (window));
  send_keys (window, "Left");
  g_assert_cmpstr (display_selected_name (window), ==, "run_alpha");
  g_assert_true (focus_on_selected (window));
  send_keys (window, "Down");
  g_assert_cmpstr (display_selected_name (window), ==, "run_beta");
  send_keys (window, "Up Right");
  g_assert_cmpstr (display_selected_name (window), ==, "run_alpha");
  send_keys (window, "Right");
  g_assert_cmpstr (display_selected_name (window), ==, "alpha_leaf");
  g_assert_true (focus_on_selected (window));

  /* the row with the focus is ringed (style.css) while keys are in use */
  {
    GtkWidget *row = gtk_window_get_focus (GTK_WINDOW (window));

    while (g_strcmp0 (gtk_widget_get_css_name (row), "row") != 0)
      row = gtk_widget_get_parent (row);
    g_assert_true (gtk_widget_get_state_flags (row) & GTK_STATE_FLAG_FOCUS_VISIBLE);
    g_assert_true (gtk_widget_get_state_flags (row) & GTK_STATE_FLAG_FOCUS_WITHIN);
    display_spin (400);  /* (the theme fades the ring in) */
    g_assert_true (display_wait (focus_ringed, window, 2000));
    shot (window, "focus-ring");
  }

  /* Tab goes through what can be seen, and back to the tree: the
   * summary's text takes no Tab, lists are one stop, and the stop in
   * a list is a row on screen */
  {
    gboolean search = FALSE, back = FALSE;

    for (guint i = 0; i < 30 && !back; i++)
      {
        GtkWidget *focus;
        graphene_rect_t bounds;

        send_keys (window, "Tab");
        focus = gtk_window_get_focus (GTK_WINDOW (window));
        g_assert_nonnull (focus);
        g_test_message ("Tab %u: %s (%s)", i, G_OBJECT_TYPE_NAME (focus), gtk_widget_get_css_name (focus));
        g_assert_true (gtk_widget_is_drawable (focus));
        g_assert_true (gtk_widget_compute_bounds (focus, GTK_WIDGET (window), &bounds));
        g_assert_cmpfloat (bounds.size.width, >, 0);
        g_assert_cmpfloat (bounds.size.height, >, 0);
        search |= gtk_widget_is_ancestor (focus, hp_window_get_search_entry (window));
        back = focus_on_selected (window);
      }
    g_assert_true (search);
    g_assert_true (back);
  }
  display_close (window);
}

/* Left and Right in a deep tree: closing the recursion under the
 * selected row (200 rows go) kept the selection but dropped the keyboard
 * focus out of the rows, so the ring went away until the next Up or
 * Down. */
static gboolean
summaries_listed (gpointer data)
{
  return g_list_model_get_n_items (hp_summary_list_get_model (hp_window_get_summary_list (data))) > 0;
}

/* A hostile capture of 30 000 summaries: the window reads and lists the
 * first 10 000 and says the others were left out (it read them all). */
static void
test_many_summaries (void)
{
  g_autofree char *path = display_make_capture ("many-summaries.hotpath", TRUE, NULL);
  HpWindow *window;
  HpSummaryList *list;
  const char *note;

  hp_test_sql (path, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000) "
                     "INSERT INTO summaries (path_key, path, text, created, updated) "
                     "SELECT printf ('k%06d', i), 'p', 'A summary.', '', '' FROM n;");
  window = display_open (app, path);
  list = hp_window_get_summary_list (window);
  g_assert_true (display_wait (summaries_listed, window, 20000));
  g_assert_cmpuint (g_list_model_get_n_items (hp_summary_list_get_model (list)), ==, 10000);
  note = hp_summary_list_get_cut_note (list);
  g_assert_nonnull (note);
  g_assert_nonnull (strstr (note, "the first 10000"));
  display_close (window);
}

static gboolean search_settled (gpointer data);

static gboolean
depth_is (gpointer data)
{
  gpointer *args = data;

  return selected_depth (args[0]) == GPOINTER_TO_UINT (args[1]);
}

/* A capture 100 000 frames deep, with a 1 MiB C stack (ulimit -s 1024):
 * opening it crashed inside GTK while the hottest path was expanded (GTK
 * recounts rows through every expanded level, once a level on the
 * stack), and the search's worker recursed once a level too. The tree
 * now opens the first 1 000 levels, says so, and the user goes deeper by
 * hand; search, bottom-up and back stay usable. Run in a subprocess that
 * starts with the small stack, as a main thread's is fixed at exec. */
static void
test_very_deep (void)
{
  g_autofree char *path = NULL;
  HpWindow *window;
  HpCallTreeView *tree;
  const char *note;
  gpointer at_cap[2] = { NULL, GUINT_TO_POINTER (OPEN_DEPTH) };
  gpointer below[2] = { NULL, GUINT_TO_POINTER (OPEN_DEPTH + 1) };

  if (!in_small_stack ())
    return;

  path = make_very_deep_capture ();
  window = display_open (app, path);
  tree = hp_window_get_tree_view (window);
  at_cap[0] = below[0] = window;

  /* the hottest path, opened OPEN_DEPTH levels down: f998 */
  g_assert_true (display_wait (depth_is, at_cap, 60000));
  g_assert_cmpstr (display_selected_name (window), ==, "f998");
  note = hp_call_tree_view_get_depth_note (tree);
  g_assert_nonnull (note);
  g_test_message ("%s", note);
  g_assert_nonnull (strstr (note, "100001 calls deep"));
  g_assert_nonnull (strstr (note, "1000 levels"));
  if (g_getenv ("HOTPATH_SHOTS") != NULL)
    display_spin (3000);  /* the first frame lays out 1 000 rows */
  shot (window, "very-deep");

  /* deeper by hand: Right opens the row, Right again goes to its child */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (tree), "tree.expand-or-child", NULL));
  display_spin (100);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (tree), "tree.expand-or-child", NULL));
  g_assert_true (display_wait (depth_is, below, 10000));
  g_assert_cmpstr (display_selected_name (window), ==, "f999");

  /* a search for the deepest function: found, its path opened as far as
   * the tree opens paths */
  hp_call_tree_view_search (tree, "f99999");
  display_spin (300);
  g_assert_true (display_wait (search_settled, window, 60000));
  g_assert_true (display_wait (depth_is, at_cap, 10000));
  g_assert_nonnull (hp_call_tree_view_get_depth_note (tree));
  hp_call_tree_view_search (tree, "setup");
  display_spin (300);
  g_assert_true (display_wait (search_settled, window, 60000));
  g_assert_cmpstr (display_selected_name (window), ==, "setup");
  g_assert_null (hp_call_tree_view_get_depth_note (tree));
  hp_call_tree_view_search (tree, NULL);

  /* bottom-up (the callers of f99999 go 100 000 deep too), and back */
  display_activate (window, "win.tree-mode", g_variant_new_string ("bottom-up"));
  display_spin (500);
  g_assert_true (display_wait (search_settled, window, 60000));
  g_assert_cmpstr (display_selected_name (window), ==, "f99999");
  display_activate (window, "win.tree-mode", g_variant_new_string ("top-down"));
  display_spin (500);
  g_assert_nonnull (display_selected_name (window));

  /* the other views of the same stacks */
  display_activate (window, "win.show-pane", g_variant_new_string ("flame"));
  display_spin (2000);
  shot (window, "very-deep-flame");
  display_activate (window, "win.show-pane", g_variant_new_string ("calls"));
  display_spin (500);
  display_activate (window, "win.show-pane", g_variant_new_string ("timeline"));
  display_spin (500);
  /* a new profile, the selection (setup, from the search) kept */
  display_activate (window, "win.merge-recursion", NULL);
  display_spin (2000);
  g_assert_true (display_wait (search_settled, window, 60000));
  g_assert_cmpstr (display_selected_name (window), ==, "setup");
  display_close (window);
}

static gboolean
samples_read (gpointer data)
{
  return hp_timeline_view_get_samples (data) != NULL;
}

static gboolean
not_filtering (gpointer data)
{
  return !hp_window_is_filtering (data) && !hp_window_is_following (data);
}

/* The node at the end of the chain main → f0 → … → f99999 of @profile,
 * by a loop */
static const HpCallNode *
deepest (HpLoadedProfile *p)
{
  const HpCallNode *node = hp_profile_get_top_down (p->profile);
  const HpCallNode *main_node = NULL;

  for (guint i = 0; node->children != NULL && i < node->children->len && main_node == NULL; i++)
    if (g_strcmp0 (hp_profile_get_function_name (p->profile,
                                                 ((HpCallNode *) g_ptr_array_index (node->children, i))->function_id),
                   "main") == 0)
      main_node = g_ptr_array_index (node->children, i);
  g_assert_nonnull (main_node);
  node = main_node;
  /* main's hottest child is f0, and each f's only child the next */
  while (node->children != NULL && node->children->len > 0)
    node = g_ptr_array_index (node->children, 0);
  return node;
}

/* The ratio column of a capture of two events matches the call tree node
 * by node, 100 001 levels deep, with the 1 MiB stack of the test above:
 * the match went once around a recursion per level. f99999 had 250 page
 * faults in 100 000 ns on the CPU; half of each in the range. */
static void
test_very_deep_ratio (void)
{
  g_autofree char *path = NULL;
  HpWindow *window;
  HpLoadedProfile *p;
  const HpCallNode *leaf;
  guint64 num = 0, den = 0;

  if (!in_small_stack ())
    return;

  path = make_very_deep_capture_full (TRUE);
  window = display_open (app, path);
  p = hp_call_tree_view_get_profile (hp_window_get_tree_view (window));
  g_assert_cmpint (p->ratio.kind, ==, HP_RATIO_PER_MS);
  leaf = deepest (p);
  g_assert_cmpstr (hp_profile_get_function_name (p->profile, leaf->function_id), ==, "f99999");
  g_assert_true (hp_ratio_map_lookup (p->ratio_top_down, leaf, &num, &den));
  g_assert_cmpuint (num, ==, 250);
  g_assert_cmpuint (den, ==, 100000);
  g_assert_true (hp_ratio_map_lookup (hp_loaded_profile_get_ratio_map (p, TRUE), hp_profile_get_bottom_up (p->profile), &num, &den));
  g_assert_cmpuint (num, ==, 250);
  g_assert_cmpuint (den, ==, 105000);

  /* the first half of the samples: 25 faults of f99999's, 50 ms of it */
  {
    HpTimelineView *view = hp_window_get_timeline_view (window);

    display_activate (window, "win.show-pane", g_variant_new_string ("timeline"));
    g_assert_true (display_wait (samples_read, view, 60000));
    hp_timeline_set_selection (hp_timeline_view_get_timeline (view), TRUE, 1000, 50000);
    g_assert_true (display_wait (not_filtering, window, 60000));
    p = hp_call_tree_view_get_profile (hp_window_get_tree_view (window));
    g_assert_true (p->has_range);
    leaf = deepest (p);
    g_assert_true (hp_ratio_map_lookup (p->ratio_top_down, leaf, &num, &den));
    g_assert_cmpuint (num, ==, 125);
    g_assert_cmpuint (den, ==, 50000);
  }
  display_close (window);
}

static void
test_deep_keys (void)
{
  g_autofree char *path = make_deep_capture ();
  HpWindow *window = display_open (app, path);
  GtkWidget *tree = GTK_WIDGET (hp_window_get_tree_view (window));

  g_assert_true (display_wait (leaf_selected, window, 10000));
  g_assert_true (display_wait (leaf_shown, tree, 10000));
  g_assert_true (display_wait (focus_on_selected, window, 5000));
  if (!send_keys (window, "Left"))
    {
      g_test_skip ("xdotool is not installed");
      display_close (window);
      return;
    }
  g_assert_cmpstr (display_selected_name (window), ==, "recurse");
  g_assert_cmpuint (selected_depth (window), ==, DEEP + 1);
  g_assert_true (display_wait (focus_on_selected, window, 2000));
  g_assert_true (display_wait (focus_ringed, window, 2000));

  /* fold it: it stays selected, focused and ringed */
  send_keys (window, "Left");
  g_assert_cmpuint (selected_depth (window), ==, DEEP + 1);
  g_assert_true (display_wait (focus_on_selected, window, 2000));
  g_assert_true (display_wait (focus_ringed, window, 2000));
  /* its parent, folded: the recursion below goes */
  for (guint i = 0; i < 4; i++)
    send_keys (window, "Left");
  g_assert_cmpuint (selected_depth (window), ==, DEEP - 1);
  g_assert_true (display_wait (focus_on_selected, window, 2000));
  g_assert_true (display_wait (focus_ringed, window, 2000));
  shot (window, "deep-keys");

  /* and open it again: Right, Right goes to the child */
  send_keys (window, "Right");
  g_assert_cmpuint (selected_depth (window), ==, DEEP - 1);
  g_assert_true (display_wait (focus_on_selected, window, 2000));
  g_assert_true (display_wait (focus_ringed, window, 2000));
  send_keys (window, "Right");
  g_assert_cmpuint (selected_depth (window), ==, DEEP);
  g_assert_true (display_wait (focus_on_selected, window, 2000));
  g_assert_true (display_wait (focus_ringed, window, 2000));
  display_close (window);
}

static char *
markup_of (HpWindow   *window,
           const char *name,
           guint       nth)
{
  GListModel *model = hp_call_tree_view_get_model (hp_window_get_tree_view (window));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);
      g_autoptr(HpCallRow) item = gtk_tree_list_row_get_item (row);
      char *markup = NULL;

      if (g_strcmp0 (hp_call_row_get_name (item), name) != 0 || nth-- > 0)
        continue;
      g_object_get (item, "name-markup", &markup, NULL);
      return markup;
    }
  g_assert_not_reached ();
}

static gboolean
search_settled (gpointer data)
{
  HpWindow *window = data;

  return !hp_call_tree_view_is_searching (hp_window_get_tree_view (window)) &&
         !hp_call_tree_view_is_selecting (hp_window_get_tree_view (window));
}

/* Inscriptions under @widget whose text has a background colour (of
 * both trees: the hidden one keeps its rows' widgets) */
static guint
count_highlighted (GtkWidget *widget)
{
  guint n = 0;

  if (GTK_IS_INSCRIPTION (widget) && gtk_inscription_get_attributes (GTK_INSCRIPTION (widget)) != NULL)
    {
      GSList *attrs = pango_attr_list_get_attributes (gtk_inscription_get_attributes (GTK_INSCRIPTION (widget)));

      for (GSList *l = attrs; l != NULL; l = l->next)
        if (((PangoAttribute *) l->data)->klass->type == PANGO_ATTR_BACKGROUND)
          n++;
      g_slist_free_full (attrs, (GDestroyNotify) pango_attribute_destroy);
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    n += count_highlighted (c);
  return n;
}

/* Typing in the search marks every match and the current one apart;
 * Enter moves on; Escape clears every mark and goes back to the tree. */
static void
test_search (void)
{
  g_autofree char *path = display_make_capture ("search.hotpath", TRUE, NULL);
  HpWindow *window = display_open (app, path);
  GtkWidget *tree = GTK_WIDGET (hp_window_get_tree_view (window));
  g_autofree char *first = NULL, *second = NULL;

  g_assert_true (display_wait (focus_on_selected, window, 5000));
  if (!send_keys (window, "ctrl+f l e a f"))
    {
      g_test_skip ("xdotool is not installed");
      display_close (window);
      return;
    }
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (hp_window_get_search_entry (window))), ==, "leaf");
  display_spin (300);  /* (the entry waits for typing to pause) */
  g_assert_true (display_wait (search_settled, window, 5000));
  /* matches: alpha_leaf, shared_leaf, beta_leaf, shared_leaf; the first is current */
  g_assert_cmpstr (display_selected_name (window), ==, "alpha_leaf");
  first = markup_of (window, "alpha_leaf", 0);
  second = markup_of (window, "shared_leaf", 0);
  g_test_message ("current: %s; other: %s", first, second);
  g_assert_nonnull (strstr (first, "#ffa348"));
  g_assert_nonnull (strstr (second, "#f9f06b"));
  g_assert_null (strstr (second, "#ffa348"));
  shot (window, "search");

  /* Enter: the next match is current, and only it */
  send_keys (window, "Return");
  g_assert_true (display_wait (search_settled, window, 5000));
  g_assert_cmpstr (display_selected_name (window), ==, "shared_leaf");
  g_clear_pointer (&first, g_free);
  g_clear_pointer (&second, g_free);
  first = markup_of (window, "alpha_leaf", 0);
  second = markup_of (window, "shared_leaf", 0);
  g_assert_nonnull (strstr (first, "#f9f06b"));
  g_assert_nonnull (strstr (second, "#ffa348"));
  g_assert_cmpuint (count_highlighted (tree), >=, 3);

  /* Escape: no highlight left on any cell, the focus on the match reached */
  send_keys (window, "Escape");
  display_spin (200);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (hp_window_get_search_entry (window))), ==, "");
  g_assert_cmpuint (count_highlighted (tree), ==, 0);
  g_assert_cmpstr (display_selected_name (window), ==, "shared_leaf");
  g_assert_true (display_wait (focus_on_selected, window, 2000));
  display_close (window);
}

#define WIDE 150

/* main → f000 … f149, f000 the hottest: the rows of f140 … f149 are
 * far below the first screen */
static char *
make_wide_capture (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "wide.hotpath", NULL);
  g_autoptr(HpCaptureWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  gint64 mod, s_main;
  guint64 t = 0;

  w = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_process (w, 100, "wide");
  hp_capture_writer_set_thread (w, 100, 100, "wide");
  mod = hp_capture_writer_intern_module (w, "/opt/display-test/wide", NULL, FALSE);
  s_main = hp_capture_writer_intern_stack (w, 0,
             hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "main", mod, NULL, 0),
                                             NULL, 0, FALSE, 0x100));
  for (guint f = 0; f < WIDE; f++)
    {
      g_autofree char *name = g_strdup_printf ("f%03u", f);
      gint64 stack = hp_capture_writer_intern_stack (w, s_main,
                       hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, name, mod, NULL, 0),
                                                       NULL, 0, FALSE, 0x200 + f));

      for (guint n = 0; n < 2 * WIDE - f; n++)
        hp_capture_writer_add_sample (w, t += 1000, 100, 0, stack, 1000);
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
  return g_steal_pointer (&path);
}

/* For a failing check: where the row of @name is */
static void
describe_row (GtkWidget  *tree,
              const char *name)
{
  GtkWidget *inscription = display_find_widget (tree, is_inscription_of, name);
  GtkWidget *scrolled = inscription ? gtk_widget_get_ancestor (inscription, GTK_TYPE_SCROLLED_WINDOW) : NULL;
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, 0, 0);

  if (scrolled != NULL && !gtk_widget_compute_bounds (inscription, scrolled, &bounds))
    bounds = GRAPHENE_RECT_INIT (0, 0, 0, 0);
  g_test_message ("%s: %s, mapped %d, y %.1f to %.1f in a scrolled window %d px high", name,
                  inscription ? "has a row" : "no row", inscription ? gtk_widget_get_mapped (inscription) : 0,
                  bounds.origin.y, bounds.origin.y + bounds.size.height, scrolled ? gtk_widget_get_height (scrolled) : -1);
}

/* The contrast of the highlighted text of @inscription, from its pixels:
 * the colour most of its opaque pixels have (the highlight behind the
 * text), against the pixel that stands out from it most (the text) */
static double
highlight_contrast (GtkWidget *inscription,
                    char      *background)
{
  g_autofree guchar *pixels = NULL;
  g_autoptr(GHashTable) counts = g_hash_table_new (NULL, NULL);
  guint32 most = 0;
  guint best = 0;
  double ratio = 1;
  int width, height;

  g_assert_true (display_wait ((gboolean (*) (gpointer)) gtk_widget_get_mapped, inscription, 1000));
  display_spin (100);
  pixels = display_render_pixels (inscription, &width, &height);
  g_assert_nonnull (pixels);
  for (int i = 0; i < width * height; i++)
    if (pixels[i * 4 + 3] == 255)
      {
        guint32 key = pixels[i * 4] | pixels[i * 4 + 1] << 8 | pixels[i * 4 + 2] << 16;
        guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (key))) + 1;

        g_hash_table_insert (counts, GUINT_TO_POINTER (key), GUINT_TO_POINTER (n));
        if (n > best)
          best = n, most = key;
      }
  g_assert_cmpuint (best, >, 0);
  for (int i = 0; i < width * height; i++)
    if (pixels[i * 4 + 3] == 255)
      {
        guchar bg[3] = { most & 0xff, (most >> 8) & 0xff, (most >> 16) & 0xff };

        ratio = MAX (ratio, display_contrast_ratio (bg, pixels + i * 4));
      }
  g_snprintf (background, 8, "#%02x%02x%02x", most >> 16, (most >> 8) & 0xff, most & 0xff);
  return ratio;
}

/* Dark style, a match far below the first screen: the current match is
 * scrolled into view and marked apart; the highlights' text has a
 * contrast of 4.5:1 at least, measured in pixels; after Escape no row
 * keeps a highlight, wherever the tree is scrolled and its rows'
 * widgets reused. */
static void
test_search_far_dark (void)
{
  g_autofree char *path = make_wide_capture ();
  HpWindow *window;
  GtkWidget *tree, *current, *other, *scrolled;
  g_autofree char *current_markup = NULL, *other_markup = NULL;
  const char *current_name;
  char background[8];
  double ratio;

  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  window = display_open (app, path);
  tree = GTK_WIDGET (hp_window_get_tree_view (window));
  g_assert_cmpstr (display_selected_name (window), ==, "f000");
  g_assert_true (display_wait (focus_on_selected, window, 5000));
  g_assert_null (display_row_on_screen (tree, "f141"));
  if (!send_keys (window, "ctrl+f f 1 4"))
    {
      g_test_skip ("xdotool is not installed");
      g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
      display_close (window);
      return;
    }
  display_spin (300);
  g_assert_true (display_wait (search_settled, window, 5000));
  /* matches f140 … f149, the hottest first */
  current_name = display_selected_name (window);
  g_assert_cmpstr (current_name, ==, "f140");
  if (!display_wait (display_selected_on_screen, window, 10000))
    describe_row (tree, "f140");
  g_assert_true (display_selected_on_screen (window));
  /* with rows under it, not at the very foot: what follows it is seen */
  display_spin (100);
  for (guint i = 141; i <= 143; i++)
    {
      g_autofree char *name = g_strdup_printf ("f%03u", i);

      if (display_row_on_screen (tree, name) == NULL)
        describe_row (tree, name);
      g_assert_nonnull (display_row_on_screen (tree, name));
    }
  /* Enter: the next one is current, on screen, with f140 above it */
  send_keys (window, "Return");
  g_assert_true (display_wait (search_settled, window, 5000));
  g_assert_cmpstr (display_selected_name (window), ==, "f141");
  if (!display_wait (display_selected_on_screen, window, 10000))
    describe_row (tree, "f141");
  g_assert_true (display_selected_on_screen (window));
  current = display_row_on_screen (tree, "f141");
  other = display_row_on_screen (tree, "f140");
  g_assert_nonnull (current);
  g_assert_nonnull (other);
  current_markup = markup_of (window, "f141", 0);
  other_markup = markup_of (window, "f140", 0);
  g_test_message ("current: %s; other: %s", current_markup, other_markup);
  g_assert_cmpstr (current_markup, !=, other_markup);
  shot (window, "search-far-dark");

  /* the current match's colour and another's, and each against its text */
  ratio = highlight_contrast (current, background);
  g_test_message ("current match: %s behind the text, contrast %.2f", background, ratio);
  g_assert_cmpfloat (ratio, >=, 4.5);
  {
    char other_background[8];

    ratio = highlight_contrast (other, other_background);
    g_test_message ("other match: %s behind the text, contrast %.2f", other_background, ratio);
    g_assert_cmpfloat (ratio, >=, 4.5);
    g_assert_cmpstr (background, !=, other_background);
  }

  /* Escape: nothing highlighted, here, at the top and back again */
  send_keys (window, "Escape");
  display_spin (200);
  g_assert_cmpuint (count_highlighted (tree), ==, 0);
  scrolled = gtk_widget_get_ancestor (current, GTK_TYPE_SCROLLED_WINDOW);
  {
    GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
    double bottom = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);

    for (guint i = 0; i <= 4; i++)
      {
        gtk_adjustment_set_value (adjustment, bottom * (i % 2 == 0 ? 0 : 1) * (i == 4 ? 0.5 : 1));
        display_spin (150);
        g_assert_cmpuint (count_highlighted (tree), ==, 0);
      }
  }
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
  display_close (window);
}

static gboolean
is_text (GtkWidget    *widget,
         gconstpointer data)
{
  return GTK_IS_TEXT (widget);
}

static gboolean
summary_shown (HpWindow *window)
{
  gboolean shown = FALSE;

  g_object_get (window, "show-summary", &shown, NULL);
  return shown && display_find_widget (GTK_WIDGET (window), has_class, "breadcrumbs") != NULL;
}

/* At 1024×700 the Function column keeps most of the width: the summary
 * pane is folded away while the capture has no summary, F9 brings it
 * back; the search field's placeholder is whole. */
static void
test_small_screen (void)
{
  g_autofree char *path = display_make_capture ("small.hotpath", TRUE, NULL);
  HpWindow *window = display_open_sized (app, path, 1024, 700);
  GtkWidget *name, *cell, *text;
  int width;

  display_spin (200);
  g_assert_false (summary_shown (window));
  name = display_find_widget (GTK_WIDGET (hp_window_get_tree_view (window)), is_inscription_of, "main");
  g_assert_nonnull (name);
  for (cell = name; g_strcmp0 (gtk_widget_get_css_name (cell), "cell") != 0; cell = gtk_widget_get_parent (cell))
    ;
  width = gtk_widget_get_width (cell);
  g_test_message ("Function column: %d px of %d", width, gtk_widget_get_width (GTK_WIDGET (window)));
  /* (with the pane: about 300 px) */
  g_assert_cmpint (width, >=, 450);

  text = display_find_widget (hp_window_get_search_entry (window), is_text, NULL);
  g_assert_nonnull (text);
  {
    g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (text, gtk_text_get_placeholder_text (GTK_TEXT (text)));
    int placeholder = 0;

    pango_layout_get_pixel_size (layout, &placeholder, NULL);
    g_test_message ("placeholder %d px in a field of %d", placeholder, gtk_widget_get_width (text));
    g_assert_cmpint (placeholder, <=, gtk_widget_get_width (text));
  }
  shot (window, "small");

  if (send_keys (window, "F9"))
    {
      g_assert_true (summary_shown (window));
      shot (window, "small-summary");
      send_keys (window, "F9");
      g_assert_false (summary_shown (window));
    }
  /* Alt+3 (the Summaries) shows the pane too */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "summaries"));
  display_spin (100);
  g_assert_true (summary_shown (window));
  display_close (window);
}

static gboolean
is_suggest_button (GtkWidget    *widget,
                   gconstpointer data)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), "_Suggest") == 0;
}

static int
function_column_width (HpWindow *window)
{
  /* (the selected row is in view, however deep) */
  GtkWidget *cell = display_find_widget (GTK_WIDGET (hp_window_get_tree_view (window)), is_inscription_of,
                                         display_selected_name (window));

  g_assert_nonnull (cell);
  while (g_strcmp0 (gtk_widget_get_css_name (cell), "cell") != 0)
    cell = gtk_widget_get_parent (cell);
  return gtk_widget_get_width (cell);
}

static gboolean
suggest_in_view (gpointer data)
{
  HpWindow *window = data;
  GtkWidget *suggest = display_find_widget (GTK_WIDGET (hp_window_get_suggest_box (window)), is_suggest_button, NULL);
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (hp_window_get_summary_pane (window)),
                                                 GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t bounds;

  return suggest != NULL && gtk_widget_compute_bounds (suggest, scrolled, &bounds) &&
         bounds.origin.y + bounds.size.height <= gtk_widget_get_height (scrolled);
}

/* Suggest in view, and the pane as wide as asked below: moved below the
 * call tree, the pane still has its height beside it (the summary keeps
 * its height there) until the next layout */
static gboolean
summary_laid_out (gpointer data)
{
  return suggest_in_view (data) && gtk_widget_get_width (GTK_WIDGET (hp_window_get_summary_pane (data))) >= 400;
}

/* The summary pane shown at @width: wide enough to write in, Suggest in
 * view without scrolling, and the call tree's names still readable. */
static void
assert_summary_usable (HpWindow *window,
                       int       width)
{
  GtkWidget *pane = GTK_WIDGET (hp_window_get_summary_pane (window));
  GtkWidget *suggest = display_find_widget (GTK_WIDGET (hp_window_get_suggest_box (window)), is_suggest_button, NULL);
  GtkWidget *scrolled = gtk_widget_get_ancestor (pane, GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t bounds;

  /* (the call tree gives up height for it in a layout to come) */
  display_wait (summary_laid_out, window, 5000);
  g_assert_true (summary_shown (window));
  g_assert_nonnull (suggest);
  g_assert_true (gtk_widget_compute_bounds (suggest, scrolled, &bounds));
  g_test_message ("at %d px: summary pane %d×%d, Suggest at y %.0f–%.0f of %d, Function column %d px",
                  width, gtk_widget_get_width (pane), gtk_widget_get_height (pane),
                  bounds.origin.y, bounds.origin.y + bounds.size.height, gtk_widget_get_height (scrolled),
                  function_column_width (window));
  /* (beside the call tree at 1024 px: 200 px, Suggest below the fold) */
  g_assert_cmpint (gtk_widget_get_width (pane), >=, 400);
  /* and the list beside it too */
  if (gtk_widget_get_width (GTK_WIDGET (window)) < 1200)
    g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (hp_window_get_summary_list (window))), >=, 300);
  g_assert_cmpfloat (bounds.origin.y, >=, 0);
  g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (scrolled));
  g_assert_cmpint (function_column_width (window), >=, 450);
  display_assert_fits_width (window, width);
}

static gboolean
window_is_wide (gpointer data)
{
  return gtk_widget_get_width (data) >= 1200;
}

static gboolean
window_is_narrow (gpointer data)
{
  return gtk_widget_get_width (data) <= 1024;
}

static gboolean
summary_beside_tree (gpointer data)
{
  HpWindow *window = data;

  return gtk_widget_is_ancestor (GTK_WIDGET (hp_window_get_summary_pane (window)),
                                 gtk_widget_get_ancestor (hp_window_get_search_entry (window), GTK_TYPE_PANED)) &&
         summary_shown (window);
}

static gboolean
summary_below (gpointer data)
{
  HpWindow *window = data;

  return gtk_widget_is_ancestor (GTK_WIDGET (hp_window_get_summary_pane (window)),
                                 gtk_widget_get_ancestor (GTK_WIDGET (hp_window_get_source_view (window)),
                                                          GTK_TYPE_STACK));
}

/* At 1024×700 the summary pane is a page of the bottom pane, where the
 * summary, Suggest and the list have room, and the call tree keeps the
 * width; a wider window puts it back beside the tree. */
static void
test_small_screen_summary (void)
{
  g_autofree char *path = display_make_capture ("small-summary.hotpath", TRUE, NULL);
  HpWindow *window = display_open_sized (app, path, 1024, 700);
  GtkPaned *side = GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (hp_window_get_source_view (window)),
                                                       GTK_TYPE_PANED));
  int side_position = gtk_paned_get_position (side);
  GtkStack *bottom;

  g_object_set (window, "show-summary", TRUE, NULL);
  hp_summary_pane_set_text (hp_window_get_summary_pane (window),
                            "The tokenizer: most of its time is the strncmp of count_word "
                            "looking a word up in its bucket; a longer hash table should help.");
  assert_summary_usable (window, 1024);
  shot (window, "small-summary-page");
  bottom = GTK_STACK (gtk_widget_get_ancestor (GTK_WIDGET (hp_window_get_source_view (window)), GTK_TYPE_STACK));

  /* Hide: back to the source */
  g_object_set (window, "show-summary", FALSE, NULL);
  display_spin (100);
  g_assert_false (summary_shown (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (bottom), ==, "source");
  /* the call tree has its height back */
  g_assert_cmpint (gtk_paned_get_position (side), ==, side_position);

  /* wider: beside the call tree, shown */
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  g_assert_true (display_wait (window_is_wide, window, 5000));
  g_assert_true (display_wait (summary_beside_tree, window, 5000));
  g_assert_true (summary_shown (window));
  g_assert_null (gtk_stack_get_child_by_name (bottom, "summary"));
  g_assert_true (gtk_widget_is_ancestor (GTK_WIDGET (hp_window_get_summary_pane (window)),
                                         gtk_widget_get_ancestor (hp_window_get_search_entry (window),
                                                                  GTK_TYPE_PANED)));

  /* and narrow again */
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 700);
  g_assert_true (display_wait (window_is_narrow, window, 5000));
  g_assert_true (display_wait (summary_below, window, 5000));
  g_assert_nonnull (gtk_stack_get_child_by_name (bottom, "summary"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "summaries"));
  assert_summary_usable (window, 1024);
  display_close (window);
}

/* A capture of two processes, as `hotpath-cli record` of a program that
 * starts another writes it: the process filter is shown. */
static char *
make_two_process_capture (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "two-processes.hotpath", NULL);
  g_autoptr(HpCaptureWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  gint64 mod, stack;
  guint64 t = 0;

  g_unlink (path);
  w = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "command", "./threads-fp");
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_process (w, 28903, "hp-main");
  hp_capture_writer_set_thread (w, 28903, 28903, "hp-main");
  hp_capture_writer_set_thread (w, 28904, 28903, "hp-worker-1");
  hp_capture_writer_set_process (w, 28909, "threads-child-fp");
  hp_capture_writer_set_thread (w, 28909, 28909, "threads-child-f");
  mod = hp_capture_writer_intern_module (w, "/opt/display-test/threads-fp", NULL, FALSE);
  stack = hp_capture_writer_intern_stack (w, 0,
            hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "main", mod, NULL, 0),
                                            NULL, 0, FALSE, 0x100));
  stack = hp_capture_writer_intern_stack (w, stack,
            hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "worker_one_work", mod, NULL, 0),
                                            NULL, 0, FALSE, 0x200));
  for (guint n = 0; n < 2958; n++)
    hp_capture_writer_add_sample (w, t += 1000, n % 3 == 0 ? 28909 : n % 3 == 1 ? 28904 : 28903, 0, stack, 1000);
  g_assert_true (hp_capture_writer_finish (w, &error));
  return g_steal_pointer (&path);
}

static gboolean
is_label (GtkWidget    *widget,
          gconstpointer data)
{
  return GTK_IS_LABEL (widget);
}

/* The label a dropdown's button shows */
static GtkLabel *
dropdown_label (GtkDropDown *dropdown)
{
  GtkWidget *label = display_find_widget (GTK_WIDGET (dropdown), is_label, NULL);

  g_assert_nonnull (label);
  return GTK_LABEL (label);
}

static void
assert_label_whole (GtkLabel *label)
{
  g_test_message ("\"%s\": %d px, %s", gtk_label_get_text (label), gtk_widget_get_width (GTK_WIDGET (label)),
                  pango_layout_is_ellipsized (gtk_label_get_layout (label)) ? "ellipsized" : "whole");
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (label)));
}

static gboolean
window_resized (gpointer data)
{
  return gtk_widget_get_width (data) <= 1600;
}

/* At 1920×1080 (issue 14) the call tree keeps most of the width: the
 * summary pane beside it a third or less, the process and thread filters
 * and the search field whole (850 px for the call tree left the summary
 * more than half, and the thread filter read "All thre…"). That share is
 * the window's, not the user's: neither it nor GtkPaned keeping it as the
 * window is resized is saved as the pane's position; a move is. */
static void
test_wide_screen (void)
{
  g_autofree char *path = make_two_process_capture ();
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  HpWindow *window;
  GtkWidget *entry;
  GtkPaned *main_paned;
  GtkWidget *pane;
  g_autofree char *placeholder = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  int text_width;

  /* whatever an earlier test of this process left (memory backend) */
  g_settings_reset (settings, "main-paned-position");
  window = display_open_sized (app, path, 1920, 1080);
  entry = GTK_WIDGET (hp_window_get_search_entry (window));
  main_paned = GTK_PANED (gtk_widget_get_ancestor (entry, GTK_TYPE_PANED));
  pane = gtk_paned_get_end_child (main_paned);
  g_assert_true (display_wait (summary_beside_tree, window, 5000));
  display_spin (200);
  g_test_message ("window %d px: call tree %d px, summary %d px, Function column %d px",
                  gtk_widget_get_width (GTK_WIDGET (window)), gtk_paned_get_position (main_paned),
                  gtk_widget_get_width (pane), function_column_width (window));
  /* (the screen is as wide: X gives no window more) */
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), >=, 1900);
  g_assert_cmpint (gtk_widget_get_width (pane), <=, gtk_widget_get_width (GTK_WIDGET (window)) / 3);
  g_assert_cmpint (gtk_widget_get_width (pane), >=, 400);
  g_assert_cmpint (function_column_width (window), >=, 700);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (hp_window_get_process_dropdown (window))));
  assert_label_whole (dropdown_label (hp_window_get_process_dropdown (window)));
  assert_label_whole (dropdown_label (hp_window_get_thread_dropdown (window)));
  g_object_get (entry, "placeholder-text", &placeholder, NULL);
  layout = gtk_widget_create_pango_layout (entry, placeholder);
  pango_layout_get_pixel_size (layout, &text_width, NULL);
  g_assert_cmpint (gtk_widget_get_width (entry), >=, text_width + 32);
  shot (window, "wide-screen");

  /* the window's choice, kept as it is resized: not saved */
  g_assert_cmpint (g_settings_get_int (settings, "main-paned-position"), ==, -1);
  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  g_assert_true (display_wait (window_resized, window, 5000));
  display_spin (200);
  g_test_message ("resized to 1600 px: call tree %d px", gtk_paned_get_position (main_paned));
  g_assert_cmpint (gtk_widget_get_width (pane), <=, 1600 / 3);
  g_assert_cmpint (g_settings_get_int (settings, "main-paned-position"), ==, -1);

  /* the user's move is kept, and the next window opens with it */
  gtk_paned_set_position (main_paned, 1000);
  display_spin (100);
  g_assert_cmpint (g_settings_get_int (settings, "main-paned-position"), ==, 1000);
  display_close (window);
  window = display_open_sized (app, path, 1920, 1080);
  main_paned = GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (hp_window_get_search_entry (window)), GTK_TYPE_PANED));
  g_assert_true (display_wait (summary_beside_tree, window, 5000));
  g_assert_cmpint (gtk_paned_get_position (main_paned), ==, 1000);
  display_close (window);
  g_settings_reset (settings, "main-paned-position");
}

static int
run (HpApplication *application)
{
  app = application;
  g_test_add_func ("/navigation/deep-tree", test_deep_tree);
  g_test_add_func ("/navigation/keys", test_keys);
  g_test_add_func ("/navigation/deep-keys", test_deep_keys);
  g_test_add_func ("/navigation/very-deep", test_very_deep);
  g_test_add_func ("/navigation/very-deep-ratio", test_very_deep_ratio);
  g_test_add_func ("/navigation/many-summaries", test_many_summaries);
  g_test_add_func ("/navigation/search", test_search);
  g_test_add_func ("/navigation/search-far-dark", test_search_far_dark);
  g_test_add_func ("/navigation/small-screen", test_small_screen);
  g_test_add_func ("/navigation/small-screen-summary", test_small_screen_summary);
  g_test_add_func ("/navigation/wide-screen", test_wide_screen);
  return g_test_run ();
}

int
main (int   argc,
      char *argv[])
{
  return display_run (argc, argv, run);
}
