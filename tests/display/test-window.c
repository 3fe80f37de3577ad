/* test-window.c - the Hotpath window, driven through its actions under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Each test opens a capture in a real HpWindow and checks what the window
 * shows against what the capture holds: the call tree's rows against an
 * HpProfile built here from the same file, the summaries against the
 * file itself (read with HpCapture, not through the window). The
 * synthetic capture of display-common.c has known numbers; the recorded
 * one is whatever the paths-fp workload did on this machine.
 */

#define G_LOG_DOMAIN "hp-display-test"

#include "config.h"

#include <signal.h>
#include <string.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "analysis/hp-profile.h"
#include "store/hp-capture.h"
#include "store/hp-capture-writer.h"
#include "store/hp-summary-library.h"
#include "symbols/hp-symbolizer.h"
#include "document/hp-call-path.h"
#include "ui/hp-call-row.h"
#include "document/hp-format.h"
#include "ui/hp-function-row.h"
#include "document/hp-loaded-capture.h"
#include "ui/hp-summary-item.h"
#include "display-common.h"
#include "../common/test-common.h"

static HpApplication *app;

/* Helpers ------------------------------------------------------------ */

static HpCallRow *
row_at (HpWindow *window,
        guint     position)
{
  GListModel *model = hp_call_tree_view_get_model (hp_window_get_tree_view (window));
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, position);

  g_assert_nonnull (row);
  return HP_CALL_ROW (gtk_tree_list_row_get_item (row));
}

static char *
row_string (HpCallRow  *row,
            const char *property)
{
  char *value = NULL;

  g_object_get (row, property, &value, NULL);
  return value;
}

static const HpCallNode *
selected (HpWindow *window)
{
  return hp_call_tree_view_get_selected (hp_window_get_tree_view (window));
}

static char *
key_of (const char *const *steps)
{
  GString *key = g_string_new (NULL);

  for (guint i = 0; steps[i] != NULL; i++)
    g_string_append_printf (key, "%s\t%s\n", "paths", steps[i]);
  return g_string_free (key, FALSE);
}

/* Tests -------------------------------------------------------------- */

static void
test_empty (void)
{
  HpWindow *window = hp_window_new (GTK_APPLICATION (app));

  gtk_window_present (GTK_WINDOW (window));
  display_spin (50);
  g_assert_cmpstr (hp_window_get_state (window), ==, "empty");
  g_assert_true (hp_window_is_empty (window));
  /* Record is there (test-record.c tests what it does) */
  g_assert_true (gtk_widget_get_visible (hp_window_get_record_button (window)));
  g_assert_true (gtk_widget_is_sensitive (hp_window_get_record_button (window)));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (hp_window_get_record_button (window)), "Ctrl+R"));

  /* the main menu's Keyboard Shortcuts and About */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  g_assert_nonnull (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  display_spin (50);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)))));
  gtk_widget_set_visible (GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window))), FALSE);
  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  display_spin (50);
  {
    g_autoptr(GList) windows = gtk_window_list_toplevels ();
    gboolean about = FALSE;

    for (GList *l = windows; l != NULL; l = l->next)
      if (GTK_IS_ABOUT_DIALOG (l->data))
        {
          about = TRUE;
          gtk_window_destroy (l->data);
          break;
        }
    g_assert_true (about);
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
recent_listed (gpointer data)
{
  GMenuModel *menu = hp_application_get_recent_menu (app);
  g_autofree char *target = NULL;

  if (g_menu_model_get_n_items (menu) == 0)
    return FALSE;
  if (!g_menu_model_get_item_attribute (menu, 0, G_MENU_ATTRIBUTE_TARGET, "s", &target))
    return FALSE;
  return g_str_has_suffix (target, data);
}

/* The recorded workload: the tree's top rows are the profile's top-down
 * nodes in order, with the same counts and percentages. */
static void
test_recorded_tree (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "paths-fp.hotpath", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(HpCaptureData) data = NULL;
  g_autoptr(HpProfile) profile = NULL;
  const char *argv[] = { HOTPATH_CLI, "record", "--force", "-o", path, "--", WORKLOAD_DIR "/paths-fp", "150", NULL };
  int status = 0;
  g_autoptr(GError) error = NULL;
  HpWindow *window;
  const HpCallNode *node;
  guint64 n;
  guint position = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, 0, NULL, NULL, &out, &err, &status, &error) ||
      !g_spawn_check_wait_status (status, NULL))
    {
      g_autofree char *msg = g_strdup_printf ("cannot record paths-fp (perf_event_open?): %s",
                                              error ? error->message : err);
      g_test_skip (msg);
      return;
    }

  profile = hp_test_load_profile (path, &data);
  n = hp_profile_get_n_samples (profile);
  g_assert_cmpuint (n, >, 100);

  window = display_open (app, path);
  g_assert_cmpstr (hp_window_get_state (window), ==, "capture");

  /* walk the first rows: the tree shows the hottest path expanded, so the
   * rows are the roots and, under the expanded ones, their children, all
   * in the profile's order (total, descending) */
  node = hp_profile_get_top_down (profile);
  for (guint depth = 0; depth < 3 && node->children != NULL; depth++)
    {
      const HpCallNode *first = g_ptr_array_index (node->children, 0);
      g_autoptr(HpCallRow) row = row_at (window, position);
      g_autofree char *percent = row_string (row, "total-percent");
      g_autofree char *expected = hp_format_percent (first->total, n);
      g_autofree char *count = row_string (row, "total-count");
      g_autofree char *expected_count = hp_format_count (first->total);

      g_assert_cmpstr (hp_call_row_get_name (row), ==, hp_profile_get_function_name (profile, first->function_id));
      g_assert_cmpuint (hp_call_row_get_node (row)->total, ==, first->total);
      g_assert_cmpuint (hp_call_row_get_node (row)->self, ==, first->self);
      g_assert_cmpstr (percent, ==, expected);
      g_assert_cmpstr (count, ==, expected_count);
      node = first;
      position++;
    }

  /* run_alpha and run_beta split 3:1 by construction */
  {
    const HpFunctionStats *ra, *rb;
    g_autoptr(GArray) ids_a = hp_profile_find_functions (profile, "run_alpha");
    g_autoptr(GArray) ids_b = hp_profile_find_functions (profile, "run_beta");

    g_assert_cmpuint (ids_a->len, ==, 1);
    g_assert_cmpuint (ids_b->len, ==, 1);
    ra = hp_profile_get_function_stats (profile, g_array_index (ids_a, gint64, 0));
    rb = hp_profile_get_function_stats (profile, g_array_index (ids_b, gint64, 0));
    g_assert_cmpfloat ((double) ra->total / (ra->total + rb->total), >, 0.6);
  }

  /* the hottest path is expanded down to alpha_leaf, which is selected
   * (the deepest node of the program's own code on it) */
  g_assert_cmpstr (display_selected_name (window), ==, "alpha_leaf");
  display_close (window);
}

static gboolean
not_searching (gpointer data)
{
  return !hp_call_tree_view_is_searching (data);
}

/* The synthetic capture: exact numbers, hottest path, search, bottom-up,
 * callers and callees. */
static void
test_tree (void)
{
  g_autofree char *path = display_make_capture ("tree.hotpath", TRUE, NULL);
  HpWindow *window = display_open (app, path);
  HpCallTreeView *tree = hp_window_get_tree_view (window);
  GListModel *model = hp_call_tree_view_get_model (tree);
  const char *expected[] = { "main", "run_alpha", "alpha_leaf", "shared_leaf", "run_beta" };
  const char *percents[] = { "100.0 %", "75.0 %", "60.0 %", "15.0 %", "25.0 %" };
  guint index, n_matches;

  g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
  g_assert_cmpstr (hp_capture_overview_get_value (hp_window_get_overview (window), "samples"), ==, "1000");
  g_assert_cmpstr (hp_capture_overview_get_value (hp_window_get_overview (window), "command"), ==,
                   "/opt/display-test/paths 300");

  /* main and run_alpha expanded (the hottest path), run_beta folded */
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr(HpCallRow) row = row_at (window, i);
      g_autofree char *percent = row_string (row, "total-percent");

      g_assert_cmpstr (hp_call_row_get_name (row), ==, expected[i]);
      g_assert_cmpstr (percent, ==, percents[i]);
    }
  g_assert_cmpstr (display_selected_name (window), ==, "alpha_leaf");

  /* Open Recent lists it, first */
  g_assert_true (display_wait (recent_listed, "tree.hotpath", 5000));

  /* the callers and callees of the selected function */
  display_activate (window, "win.show-pane", g_variant_new_string ("calls"));
  display_activate (window, "win.select-function", g_variant_new_string ("shared_leaf"));
  g_assert_cmpstr (display_selected_name (window), ==, "shared_leaf");
  {
    GListModel *callers = hp_calls_view_get_callers (hp_window_get_calls_view (window));
    g_autoptr(HpFunctionRow) first = g_list_model_get_item (callers, 0);
    g_autoptr(HpFunctionRow) second = g_list_model_get_item (callers, 1);

    g_assert_cmpuint (g_list_model_get_n_items (callers), ==, 2);
    g_assert_cmpstr (hp_function_row_get_name (first), ==, "run_alpha");
    g_assert_cmpuint (hp_function_row_get_samples (first), ==, 150);
    g_assert_cmpstr (hp_function_row_get_name (second), ==, "run_beta");
    g_assert_cmpuint (hp_function_row_get_samples (second), ==, 50);
    g_assert_cmpuint (g_list_model_get_n_items (hp_calls_view_get_callees (hp_window_get_calls_view (window))), ==, 0);

    /* activating a caller selects that function */
    g_signal_emit_by_name (hp_window_get_calls_view (window), "function-activated",
                           hp_function_row_get_function_id (second));
    display_spin (30);
    g_assert_cmpstr (display_selected_name (window), ==, "run_beta");
    display_activate (window, "win.show-pane", g_variant_new_string ("source"));
  }

  /* search reveals and selects the matches */
  hp_call_tree_view_search (tree, "LEAF");
  g_assert_true (display_wait (not_searching, tree, 5000));
  display_spin (30);
  hp_call_tree_view_get_search_status (tree, &index, &n_matches);
  g_assert_cmpuint (n_matches, ==, 4);   /* alpha_leaf, shared_leaf twice, beta_leaf */
  g_assert_cmpstr (display_selected_name (window), ==, "alpha_leaf");
  hp_call_tree_view_next_match (tree, FALSE);
  hp_call_tree_view_next_match (tree, FALSE);
  display_spin (30);
  hp_call_tree_view_get_search_status (tree, &index, &n_matches);
  g_assert_cmpuint (index, ==, 2);
  g_assert_cmpuint (n_matches, ==, 4);
  g_assert_cmpstr (display_selected_name (window), ==, "beta_leaf");
  hp_call_tree_view_search (tree, NULL);

  /* bottom-up: the top-level rows are the sampled functions, by self */
  display_activate (window, "win.tree-mode", g_variant_new_string ("bottom-up"));
  g_assert_true (hp_call_tree_view_get_bottom_up (tree));
  model = hp_call_tree_view_get_model (tree);
  {
    g_autoptr(HpCallRow) first = row_at (window, 0);
    g_autofree char *percent = row_string (first, "total-percent");

    g_assert_cmpstr (hp_call_row_get_name (first), ==, "alpha_leaf");
    g_assert_cmpstr (percent, ==, "60.0 %");
  }
  /* summaries belong to top-down paths */
  g_assert_false (hp_summary_pane_get_editable (hp_window_get_summary_pane (window)));
  display_activate (window, "win.tree-mode", g_variant_new_string ("top-down"));
  g_assert_false (hp_call_tree_view_get_bottom_up (tree));

  display_close (window);
}

static gboolean
not_filtering (gpointer data)
{
  return !hp_window_is_filtering (data);
}

static void
test_thread_filter (void)
{
  g_autofree char *path = display_make_capture ("threads.hotpath", TRUE, NULL);
  HpWindow *window = display_open (app, path);
  GtkDropDown *dropdown = hp_window_get_thread_dropdown (window);
  HpLoadedProfile *profile;

  /* all threads (no entry for the one process: it is all threads), then
   * thread beta alone */
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)), ==, 3);
  display_activate (window, "win.thread-filter", g_variant_new_uint32 (2));
  g_assert_true (display_wait (not_filtering, window, 10000));
  display_spin (30);
  profile = hp_call_tree_view_get_profile (hp_window_get_tree_view (window));
  g_assert_cmpuint (hp_profile_get_n_samples (profile->profile), ==, 250);
  g_assert_cmpstr (hp_capture_overview_get_value (hp_window_get_overview (window), "samples"), ==, "250 of 1000");
  g_assert_cmpstr (display_selected_name (window), ==, "beta_leaf");
  display_close (window);
}

static gboolean
store_saved (gpointer data)
{
  return hp_summary_store_get_n_pending (data) == 0;
}

/* Select a path, type, close, reopen: the summary is on the same path,
 * marked in the tree and listed in Summaries. */
static void
test_summary_roundtrip (void)
{
  g_autofree char *path = display_make_capture ("summary.hotpath", TRUE, NULL);
  const char *steps[] = { "main", "run_beta", "shared_leaf", NULL };
  g_autofree char *key = key_of (steps);
  const char *text = "Half of the beta work, the shared part.\nCalled once per iteration.";
  HpWindow *window = display_open (app, path);
  HpSummaryPane *pane = hp_window_get_summary_pane (window);
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stored = NULL;
  g_autofree char *shown = NULL;
  const char * const *crumbs;
  GListModel *items;

  display_activate (window, "win.select-path", g_variant_new_string (key));
  g_assert_cmpstr (display_selected_name (window), ==, "shared_leaf");
  g_assert_cmpstr (hp_summary_pane_get_key (pane), ==, key);
  g_assert_true (hp_summary_pane_get_editable (pane));

  /* breadcrumbs: main › run_beta › shared_leaf, and a click selects */
  crumbs = hp_summary_pane_get_crumbs (pane);
  g_assert_cmpuint (g_strv_length ((char **) crumbs), ==, 3);
  g_assert_cmpstr (crumbs[1], ==, "run_beta");
  hp_summary_pane_activate_crumb (pane, 1);
  display_spin (30);
  g_assert_cmpstr (display_selected_name (window), ==, "run_beta");
  display_activate (window, "win.select-path", g_variant_new_string (key));

  /* typing saves by itself after the debounce */
  hp_summary_pane_set_text (pane, text);
  g_assert_cmpstr (hp_summary_pane_get_status (pane), ==, "Edited");
  display_spin (HP_SUMMARY_SAVE_DELAY_MS + 100);
  g_assert_true (display_wait (store_saved, hp_window_get_summary_store (window), 10000));
  g_assert_cmpstr (hp_summary_pane_get_status (pane), ==, "Saved in the capture");

  /* in the file already, while the window is open */
  capture = hp_capture_open (path, FALSE, &error);
  g_assert_no_error (error);
  stored = hp_capture_get_summary (capture, key, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stored, ==, text);
  g_clear_pointer (&stored, g_free);

  /* an edit right before closing is not lost */
  hp_summary_pane_set_text (pane, "Half of the beta work.");
  display_close (window);
  stored = hp_capture_get_summary (capture, key, &error);
  g_assert_cmpstr (stored, ==, "Half of the beta work.");

  /* reopen */
  window = display_open (app, path);
  pane = hp_window_get_summary_pane (window);
  items = hp_summary_list_get_model (hp_window_get_summary_list (window));
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 1);
  {
    g_autoptr(HpSummaryItem) item = g_list_model_get_item (items, 0);

    g_assert_cmpstr (hp_summary_item_get_key (item), ==, key);
    g_assert_cmpstr (hp_summary_item_get_path (item), ==, "main → run_beta → shared_leaf");
    g_assert_cmpstr (hp_summary_item_get_excerpt (item), ==, "Half of the beta work.");
    /* activating it in the list selects the path */
    g_signal_emit_by_name (hp_window_get_summary_list (window), "path-activated", hp_summary_item_get_key (item));
  }
  display_spin (30);
  g_assert_cmpstr (display_selected_name (window), ==, "shared_leaf");
  {
    g_autofree char *selected_key =
      hp_call_node_path_key (hp_call_tree_view_get_profile (hp_window_get_tree_view (window))->profile,
                             selected (window));

    g_assert_cmpstr (selected_key, ==, key);
  }
  shown = hp_summary_pane_get_text (pane);
  g_assert_cmpstr (shown, ==, "Half of the beta work.");
  /* the row of that path carries the mark, and only it */
  g_assert_true (hp_call_tree_view_is_marked (hp_window_get_tree_view (window), selected (window)));
  {
    g_autoptr(HpCallRow) first = row_at (window, 0);
    HpCallRow *row = hp_call_tree_context_lookup (hp_call_row_get_context (first), selected (window));
    gboolean has = FALSE;

    g_assert_nonnull (row);
    g_object_get (row, "has-summary", &has, NULL);
    g_assert_true (has);
    g_assert_false (hp_call_row_get_has_summary (first));
  }

  /* deleting the text deletes the summary */
  hp_summary_pane_set_text (pane, "");
  display_close (window);
  stored = (g_free (stored), hp_capture_get_summary (capture, key, &error));
  g_assert_null (stored);
}

/* Source pane: the hottest line of the selected function, a missing
 * file, and Choose Folder… adding a source path. */

/* Whether the source list shows its hottest line whole with a line above
 * it, and its top row whole: the rows have one height, so the list is
 * scrolled by a whole number of rows. */
static gboolean
source_line_shown (gpointer data)
{
  HpSourceView *view = data;
  GtkWidget *list = display_find_descendant (GTK_WIDGET (view), GTK_TYPE_LIST_VIEW);
  GtkAdjustment *vadj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (list));
  double value = gtk_adjustment_get_value (vadj);
  double page = gtk_adjustment_get_page_size (vadj);
  double line = hp_source_view_get_shown_line (view);
  int h = 0;

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL && h == 0; row = gtk_widget_get_next_sibling (row))
    if (g_strcmp0 (gtk_widget_get_css_name (row), "row") == 0 && gtk_widget_get_child_visible (row))
      h = gtk_widget_get_height (row);
  g_test_message ("source: line %g, row height %d, scrolled %g of %g, page %g",
                  line, h, value, gtk_adjustment_get_upper (vadj), page);
  return h > 0 && fmod (value, h) == 0 && (line - 2) * h >= value && line * h <= value + page;
}

static void
test_source (void)
{
  g_autofree char *src = NULL;
  g_autofree char *path = display_make_capture ("source.hotpath", TRUE, &src);
  HpWindow *window = display_open (app, path);
  HpSourceView *view = hp_window_get_source_view (window);

  /* alpha_leaf is selected at open; its hottest line is 12 */
  g_assert_cmpstr (display_selected_name (window), ==, "alpha_leaf");
  g_assert_cmpstr (hp_source_view_get_state (view), ==, "source");
  g_assert_cmpuint (hp_source_view_get_shown_line (view), ==, 12);
  g_assert_cmpstr (hp_source_view_get_path (view), ==, src);
  g_assert_true (display_wait (source_line_shown, view, 2000));

  display_activate (window, "win.select-function", g_variant_new_string ("run_beta"));
  g_assert_true (display_wait_source (window));
  g_assert_cmpuint (hp_source_view_get_shown_line (view), ==, 28);
  g_assert_true (display_wait (source_line_shown, view, 2000));

  /* a shorter pane places the line again */
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 700);
  display_spin (100);
  g_assert_true (display_wait (source_line_shown, view, 2000));
  display_close (window);
}

static void
test_source_missing (void)
{
  g_autofree char *path = display_make_capture ("missing.hotpath", FALSE, NULL);
  g_autofree char *dir = g_build_filename (display_tmpdir (), "checkout", "display-test", "src", NULL);
  g_autofree char *copy = g_build_filename (dir, "paths.c", NULL);
  g_autofree char *root = g_build_filename (display_tmpdir (), "checkout", NULL);
  HpWindow *window = display_open (app, path);
  HpSourceView *view = hp_window_get_source_view (window);
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_auto(GStrv) paths = NULL;

  g_assert_cmpstr (hp_source_view_get_state (view), ==, "missing");
  g_assert_nonnull (strstr (hp_source_view_get_message (view), "/nonexistent/display-test/src/paths.c"));

  /* the sources are checked out elsewhere; add the folder above them */
  g_mkdir_with_parents (dir, 0755);
  g_assert_true (g_file_set_contents (copy, "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n", -1, NULL));
  hp_source_view_add_source_path (view, root);
  g_assert_true (display_wait_source (window));
  g_assert_cmpstr (hp_source_view_get_state (view), ==, "source");
  g_assert_cmpstr (hp_source_view_get_path (view), ==, copy);
  g_assert_cmpuint (hp_source_view_get_shown_line (view), ==, 12);
  /* and it is kept in GSettings */
  paths = g_settings_get_strv (settings, "source-paths");
  g_assert_true (g_strv_contains ((const char * const *) paths, root));
  g_settings_set_strv (settings, "source-paths", NULL);
  display_close (window);
}

/* A relative source file (a jitdump's "JitHot.java") is looked for in the
 * folder the program ran in, which the capture records. */
static void
test_source_relative (void)
{
  g_autofree char *path = display_make_capture ("relative.hotpath", FALSE, NULL);
  g_autofree char *run = g_build_filename (display_tmpdir (), "ran-here", NULL);
  g_autofree char *dir = g_build_filename (run, "src", NULL);
  g_autofree char *copy = g_build_filename (dir, "paths.c", NULL);
  g_autofree char *sql = g_strdup_printf ("UPDATE frames SET file = 'src/paths.c' WHERE file LIKE '%%/paths.c';"
                                          "UPDATE functions SET file = 'src/paths.c' WHERE file LIKE '%%/paths.c';"
                                          "INSERT OR REPLACE INTO metadata (key, value) VALUES ('working_directory', '%s')",
                                          run);
  HpWindow *window;
  sqlite3 *db = NULL;

  g_mkdir_with_parents (dir, 0755);
  g_assert_true (g_file_set_contents (copy, "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n", -1, NULL));
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  window = display_open (app, path);
  g_assert_true (display_wait_source (window));
  g_assert_cmpstr (hp_source_view_get_state (hp_window_get_source_view (window)), ==, "source");
  g_assert_cmpstr (hp_source_view_get_path (hp_window_get_source_view (window)), ==, copy);
  g_assert_cmpuint (hp_source_view_get_shown_line (hp_window_get_source_view (window)), ==, 12);
  display_close (window);
}

/* A hostile capture names any file as its functions' source: the pane
 * shows only what is plausibly the program's source code, and says why it
 * does not show the rest. */
static void
source_refused (const char *name,
                const char *file,
                const char *working_directory,
                const char *why)
{
  g_autofree char *path = display_make_capture (name, FALSE, NULL);
  g_autofree char *sql = g_strdup_printf ("UPDATE frames SET file = '%s';"
                                          "UPDATE functions SET file = '%s';"
                                          "INSERT OR REPLACE INTO metadata (key, value) VALUES ('working_directory', '%s')",
                                          file, file, working_directory);
  HpWindow *window;
  HpSourceView *view;
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  window = display_open (app, path);
  view = hp_window_get_source_view (window);
  g_assert_true (display_wait_source (window));
  g_assert_cmpstr (hp_source_view_get_state (view), ==, "missing");
  g_test_message ("%s: %s", file, hp_source_view_get_message (view));
  g_assert_nonnull (strstr (hp_source_view_get_message (view), "is not shown"));
  g_assert_nonnull (strstr (hp_source_view_get_message (view), why));
  display_close (window);
}

static void
test_source_hostile (void)
{
  g_autofree char *run = g_build_filename (display_tmpdir (), "hostile-run", NULL);
  g_autofree char *secret = g_build_filename (display_tmpdir (), "id_rsa", NULL);
  g_autofree char *secret_c = g_build_filename (display_tmpdir (), "secret.c", NULL);

  g_mkdir_with_parents (run, 0755);
  g_assert_true (g_file_set_contents (secret, "-----BEGIN OPENSSH PRIVATE KEY-----\n", -1, NULL));
  g_assert_true (g_file_set_contents (secret_c, "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n", -1, NULL));
  /* an absolute file that is not source code */
  source_refused ("hostile-absolute.hotpath", secret, run, "is not named as source code");
  /* source code, but out of the folder the program ran in */
  source_refused ("hostile-dotdot.hotpath", "../secret.c", run, "leads out of the source folder");
}

/* What a capture names may be refused and still not be the program's file
 * (here a folder of that name on this machine): a source folder chosen
 * then finds the real one. */
static void
test_source_refused_recover (void)
{
  g_autofree char *path = display_make_capture ("refused-recover.hotpath", FALSE, NULL);
  g_autofree char *recorded = g_build_filename (display_tmpdir (), "refused-build", "src", "paths.c", NULL);
  g_autofree char *root = g_build_filename (display_tmpdir (), "refused-checkout", NULL);
  g_autofree char *copy = g_build_filename (root, "src", "paths.c", NULL);
  g_autofree char *src = g_path_get_dirname (copy);
  g_autofree char *sql = g_strdup_printf ("UPDATE frames SET file = '%s' WHERE file LIKE '%%/paths.c';"
                                          "UPDATE functions SET file = '%s' WHERE file LIKE '%%/paths.c'",
                                          recorded, recorded);
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  HpWindow *window;
  HpSourceView *view;
  sqlite3 *db = NULL;

  g_assert_cmpint (g_mkdir_with_parents (recorded, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (src, 0755), ==, 0);
  g_assert_true (g_file_set_contents (copy, "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n", -1, NULL));
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  window = display_open (app, path);
  view = hp_window_get_source_view (window);
  g_assert_true (display_wait_source (window));
  g_assert_cmpstr (hp_source_view_get_state (view), ==, "missing");
  g_assert_nonnull (strstr (hp_source_view_get_message (view), "is not a regular file"));
  /* the way out is offered */
  g_assert_nonnull (strstr (hp_source_view_get_message (view), "choose the folder that holds the sources"));
  hp_source_view_add_source_path (view, root);
  g_assert_true (display_wait_source (window));
  g_assert_cmpstr (hp_source_view_get_state (view), ==, "source");
  g_assert_cmpstr (hp_source_view_get_path (view), ==, copy);
  g_settings_set_strv (settings, "source-paths", NULL);
  display_close (window);
}

static void
open_error (const char *path,
            const char *expect)
{
  HpWindow *window = display_open (app, path);

  g_assert_cmpstr (hp_window_get_state (window), ==, "error");
  if (strstr (hp_window_get_error_text (window), expect) == NULL)
    g_error ("error “%s” does not say “%s”", hp_window_get_error_text (window), expect);
  g_assert_nonnull (strstr (hp_window_get_error_text (window), path));
  display_close (window);
}

static void
test_errors (void)
{
  g_autofree char *newer = display_make_capture ("newer.hotpath", TRUE, NULL);
  g_autofree char *text = g_build_filename (display_tmpdir (), "notes.hotpath", NULL);
  g_autofree char *missing = g_build_filename (display_tmpdir (), "gone.hotpath", NULL);
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (newer, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "PRAGMA user_version = 99", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  open_error (newer, "newer");

  g_assert_true (g_file_set_contents (text, "just some notes\n", -1, NULL));
  open_error (text, "not a Hotpath capture");

  open_error (missing, "no such file");
}

static void
test_read_only (void)
{
  g_autofree char *path = display_make_capture ("readonly.hotpath", TRUE, NULL);
  HpWindow *window;
  HpSummaryPane *pane;

  g_assert_cmpint (g_chmod (path, 0444), ==, 0);
  window = display_open (app, path);
  pane = hp_window_get_summary_pane (window);
  g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
  g_assert_nonnull (selected (window));
  g_assert_false (hp_summary_pane_get_editable (pane));
  g_assert_nonnull (strstr (hp_summary_pane_get_note (pane), "cannot be saved"));
  g_assert_nonnull (strstr (hp_summary_pane_get_note (pane), "read-only"));
  display_close (window);
  g_chmod (path, 0644);
}

static void
test_second_window (void)
{
  g_autofree char *a = display_make_capture ("first.hotpath", TRUE, NULL);
  g_autofree char *b = display_make_capture ("second.hotpath", TRUE, NULL);
  g_autoptr(GFile) fa = g_file_new_for_path (a);
  g_autoptr(GFile) fb = g_file_new_for_path (b);
  guint before = g_list_length (gtk_application_get_windows (GTK_APPLICATION (app)));
  GList *windows;

  /* as when two files are given on the command line */
  g_application_open (G_APPLICATION (app), (GFile *[]) { fa, fb }, 2, "");
  display_spin (500);
  windows = gtk_application_get_windows (GTK_APPLICATION (app));
  g_assert_cmpuint (g_list_length (windows), ==, before + 2);

  /* resizing one (which saves its size) leaves the other as it is */
  {
    GtkWindow *one = windows->data, *other = windows->next->data;
    int w, h;

    gtk_window_set_default_size (other, 1100, 700);
    gtk_window_set_default_size (one, 900, 600);
    display_spin (100);
    /* it took 1100 × 700 (a page asking for more kept it at 1467 px) */
    display_assert_fits_width (HP_WINDOW (other), 1100);
    gtk_window_get_default_size (other, &w, &h);
    g_assert_cmpint (w, ==, 1100);
    g_assert_cmpint (h, ==, 700);
  }
  for (GList *l = g_list_copy (windows); l != NULL; l = g_list_delete_link (l, l))
    display_close (l->data);
}

/* A long tree ---------------------------------------------------------- */

#define LONG_ROWS 400

/* main calling f0000 ... f0399, f0000 the hottest */
static char *
make_long_capture (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "long.hotpath", NULL);
  g_autoptr(HpCaptureWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  gint64 mod, s_main;
  guint64 t = 0;

  w = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_process (w, 100, "long");
  hp_capture_writer_set_thread (w, 100, 100, "long");
  mod = hp_capture_writer_intern_module (w, "/opt/display-test/long", NULL, FALSE);
  s_main = hp_capture_writer_intern_stack (w, 0,
             hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "main", mod, NULL, 0),
                                             NULL, 0, FALSE, 0x100));
  for (guint f = 0; f < LONG_ROWS; f++)
    {
      g_autofree char *name = g_strdup_printf ("f%04u", f);
      gint64 function = hp_capture_writer_intern_function (w, name, mod, NULL, 0);
      gint64 stack = hp_capture_writer_intern_stack (w, s_main,
                       hp_capture_writer_intern_frame (w, function, NULL, 0, FALSE, 0x1000 + f));

      for (guint n = 0; n < LONG_ROWS + 1 - f; n++)
        hp_capture_writer_add_sample (w, t += 1000, 100, 0, stack, 1000);
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
  return g_steal_pointer (&path);
}

static GtkWidget *
shown_scroller (GtkWidget *widget)
{
  if (GTK_IS_SCROLLED_WINDOW (widget) && gtk_widget_get_child_visible (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = shown_scroller (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The view holds the rows around what it shows and more as it scrolls,
 * not all 400 (hp-call-tree-view.c); a row far down is still selected. */
static void
test_long_tree (void)
{
  g_autofree char *path = make_long_capture ();
  HpWindow *window = display_open (app, path);
  HpCallTreeView *tree = hp_window_get_tree_view (window);
  GtkAdjustment *adj;
  guint held;

  display_spin (500);
  g_assert_cmpuint (g_list_model_get_n_items (hp_call_tree_view_get_model (tree)), >=, LONG_ROWS + 1);
  held = hp_call_tree_view_get_n_held (tree);
  g_assert_cmpuint (held, >, 10);
  g_assert_cmpuint (held, <, 120);

  /* scrolling to the end of what is held brings more */
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (shown_scroller (GTK_WIDGET (tree))));
  gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj));
  display_spin (500);
  g_assert_cmpuint (hp_call_tree_view_get_n_held (tree), >, held);

  /* a row far below the ones held */
  display_activate (window, "win.select-function", g_variant_new_string ("f0398"));
  g_assert_cmpstr (display_selected_name (window), ==, "f0398");
  g_assert_cmpuint (hp_call_tree_view_get_n_held (tree), >=, LONG_ROWS);
  display_close (window);
}

/* Drag and drop ------------------------------------------------------- */

/* The window's own GtkDropTarget: the tests emit its "drop" as GTK does
 * once a drag from a file manager is released and read. */
static GtkDropTarget *
drop_target_of (HpWindow *window)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  GtkDropTarget *target = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        {
          g_assert_null (target);
          /* the window keeps it */
          target = GTK_DROP_TARGET (controller);
        }
    }
  g_assert_nonnull (target);
  return target;
}

static gboolean
drop_value (HpWindow     *window,
            const GValue *value)
{
  gboolean handled = FALSE;

  g_signal_emit_by_name (drop_target_of (window), "drop", value, 20.0, 20.0, &handled);
  return handled;
}

/* Drops @paths as one GdkFileList, as a file manager's text/uri-list
 * arrives. */
static gboolean
drop_paths (HpWindow           *window,
            const char * const *paths)
{
  g_auto(GValue) value = G_VALUE_INIT;
  GSList *files = NULL;

  for (guint i = g_strv_length ((char **) paths); i > 0; i--)
    files = g_slist_prepend (files, g_file_new_for_path (paths[i - 1]));
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (files));
  g_slist_free_full (files, g_object_unref);
  return drop_value (window, &value);
}

static gboolean
loaded (gpointer data)
{
  const char *state = hp_window_get_state (data);

  return g_strcmp0 (state, "capture") == 0 || g_strcmp0 (state, "error") == 0;
}

/* Waits until @window has loaded and checks it shows @path (a capture,
 * or an error naming the file) under the file's name. */
static void
assert_shows (HpWindow   *window,
              const char *path,
              const char *state)
{
  g_autofree char *name = g_path_get_basename (path);

  g_assert_true (display_wait (loaded, window, 30000));
  g_assert_cmpstr (hp_window_get_state (window), ==, state);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, name);
  if (g_strcmp0 (state, "error") == 0)
    g_assert_nonnull (strstr (hp_window_get_error_text (window), path));
  else
    display_wait_source (window);
}

/* The windows the application has now and did not have in @before */
static GList *
windows_since (GList *before)
{
  GList *added = NULL;

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (g_list_find (before, l->data) == NULL)
      added = g_list_prepend (added, l->data);
  return added;
}

static HpWindow *
empty_window (void)
{
  HpWindow *window = hp_window_new (GTK_APPLICATION (app));

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  display_spin (50);
  g_assert_true (hp_window_is_empty (window));
  return window;
}

/* What a file manager offers (text/uri-list) reaches the window as a
 * GdkFileList. */
static void
test_drop_types (void)
{
  HpWindow *window = empty_window ();
  GtkDropTarget *target = drop_target_of (window);
  const GType *types;
  gsize n_types = 0;
  g_autoptr(GdkContentFormats) offered = NULL;
  g_auto(GValue) empty = G_VALUE_INIT;
  g_auto(GValue) text = G_VALUE_INIT;

  types = gtk_drop_target_get_gtypes (target, &n_types);
  g_assert_cmpuint (n_types, ==, 2);
  g_assert_true (types[0] == GDK_TYPE_FILE_LIST);
  g_assert_true (types[1] == G_TYPE_FILE);
  g_assert_true (gtk_drop_target_get_actions (target) & GDK_ACTION_COPY);

  /* as GdkDrop expands the mime types of a drag into GTypes */
  offered = gdk_content_formats_union_deserialize_gtypes (gdk_content_formats_new ((const char *[]) { "text/uri-list" }, 1));
  g_assert_true (gdk_content_formats_match_gtype (gtk_drop_target_get_formats (target), offered) == GDK_TYPE_FILE_LIST);

  /* nothing to open: refused, and the window stays empty */
  g_value_init (&empty, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&empty, gdk_file_list_new_from_list (NULL));
  g_assert_false (drop_value (window, &empty));
  display_spin (50);
  g_assert_true (hp_window_is_empty (window));
  g_assert_cmpstr (hp_window_get_state (window), ==, "empty");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A capture dropped on an empty window opens there; a second one, on the
 * window that shows the first, opens in a second window. */
static void
test_drop (void)
{
  g_autofree char *a = display_make_capture ("dropped-a.hotpath", TRUE, NULL);
  g_autofree char *b = display_make_capture ("dropped-b.hotpath", TRUE, NULL);
  HpWindow *window = empty_window ();
  /* made later, so the application's active window: the file opens in
   * the window it was dropped on, not in the active one */
  HpWindow *active = empty_window ();
  g_autoptr(GList) before = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));
  g_autoptr(GList) added = NULL;

  g_assert_true (gtk_application_get_active_window (GTK_APPLICATION (app)) == GTK_WINDOW (active));
  g_assert_true (drop_paths (window, (const char *[]) { a, NULL }));
  assert_shows (window, a, "capture");
  g_assert_cmpstr (hp_capture_overview_get_value (hp_window_get_overview (window), "samples"), ==, "1000");
  g_assert_true (hp_window_is_empty (active));
  added = windows_since (before);
  g_assert_cmpuint (g_list_length (added), ==, 0);
  /* a window made later may reuse the destroyed one's address: forget it */
  before = g_list_remove (before, active);
  gtk_window_destroy (GTK_WINDOW (active));

  /* the second as a single GFile, the other type the target takes */
  {
    g_auto(GValue) value = G_VALUE_INIT;

    g_value_init (&value, G_TYPE_FILE);
    g_value_take_object (&value, g_file_new_for_path (b));
    g_assert_true (drop_value (window, &value));
  }
  added = windows_since (before);
  g_assert_cmpuint (g_list_length (added), ==, 1);
  g_assert_true (HP_IS_WINDOW (added->data));
  assert_shows (added->data, b, "capture");
  /* the first window still shows the first capture */
  g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "dropped-a.hotpath");

  display_close (added->data);
  display_close (window);
}

/* Several files at once: the first goes into the window when it is empty,
 * every other one into a window of its own (as files on the command line). */
static void
test_drop_several (void)
{
  g_autofree char *a = display_make_capture ("several-a.hotpath", TRUE, NULL);
  g_autofree char *b = display_make_capture ("several-b.hotpath", TRUE, NULL);
  g_autofree char *c = display_make_capture ("several-c.hotpath", TRUE, NULL);
  HpWindow *window = empty_window ();
  g_autoptr(GList) before = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));
  g_autoptr(GList) added = NULL;
  gboolean seen_b = FALSE, seen_c = FALSE;

  g_assert_true (drop_paths (window, (const char *[]) { a, b, c, NULL }));
  assert_shows (window, a, "capture");
  added = windows_since (before);
  g_assert_cmpuint (g_list_length (added), ==, 2);
  for (GList *l = added; l != NULL; l = l->next)
    {
      const char *title = gtk_window_get_title (l->data);

      seen_b |= g_strcmp0 (title, "several-b.hotpath") == 0;
      seen_c |= g_strcmp0 (title, "several-c.hotpath") == 0;
      assert_shows (l->data, g_strcmp0 (title, "several-b.hotpath") == 0 ? b : c, "capture");
    }
  g_assert_true (seen_b && seen_c);

  /* two more on a window that shows a capture: two new windows */
  for (GList *l = added; l != NULL; l = l->next)
    display_close (l->data);
  g_clear_pointer (&added, g_list_free);
  g_clear_pointer (&before, g_list_free);
  before = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));
  g_assert_true (drop_paths (window, (const char *[]) { b, c, NULL }));
  added = windows_since (before);
  g_assert_cmpuint (g_list_length (added), ==, 2);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "several-a.hotpath");
  for (GList *l = added; l != NULL; l = l->next)
    {
      g_assert_true (display_wait (loaded, l->data, 30000));
      g_assert_cmpstr (hp_window_get_state (l->data), ==, "capture");
      display_close (l->data);
    }
  display_close (window);
}

/* A file that is not a capture: the window says so and names the file;
 * a perf.data is imported and shown. */
static void
test_drop_other_files (void)
{
  g_autofree char *notes = g_build_filename (display_tmpdir (), "notes.txt", NULL);
  g_autofree char *perf_data = display_make_perf_data ();
  g_autoptr(GList) before = NULL;
  g_autoptr(GList) added = NULL;
  HpWindow *window;

  g_assert_true (g_file_set_contents (notes, "just some notes\n", -1, NULL));
  window = empty_window ();
  before = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));
  g_assert_true (drop_paths (window, (const char *[]) { notes, NULL }));
  assert_shows (window, notes, "error");
  g_assert_nonnull (strstr (hp_window_get_error_text (window), "not a Hotpath capture"));
  added = windows_since (before);
  g_assert_cmpuint (g_list_length (added), ==, 0);

  /* a window that only says a file could not be opened takes the next one */
  g_assert_true (drop_paths (window, (const char *[]) { perf_data, NULL }));
  assert_shows (window, perf_data, "capture");
  g_assert_cmpstr (hp_capture_overview_get_value (hp_window_get_overview (window), "samples"), ==, "20");
  /* it cannot keep summaries, and the note says how to get one that does */
  g_assert_false (hp_summary_pane_get_editable (hp_window_get_summary_pane (window)));
  g_assert_nonnull (strstr (hp_summary_pane_get_note (hp_window_get_summary_pane (window)),
                            "import it into a capture (hotpath-cli import perf.data)"));
  g_clear_pointer (&added, g_list_free);
  added = windows_since (before);
  g_assert_cmpuint (g_list_length (added), ==, 0);
  display_close (window);
}

/* Names and files from the capture ----------------------------------- */

/* Real names of a program keeping std::function objects in std::maps
 * (g++ 12), mangled: demangled by the recorder's own hp_demangle() they
 * have 28,570 and 23,765 characters. */
#define AUTO_NODE_CTOR \
  "_ZNSt8_Rb_treeINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESt4pairIKS5_St3mapIS5_St8functionIFS8_" \
  "IS5_St6vectorIS9_IFiRS7_RS8_IiS5_St4lessIiESaIS6_IKiS5_EEEEESaISK_EESC_IS5_ESaIS6_IS7_SM_EEERKS8_IS5_S9_IFviEE" \
  "SN_SaIS6_IS7_SS_EEEEESN_SaIS6_IS7_SZ_EEEESt10_Select1stIS13_ESN_SaIS13_EE10_Auto_nodeC1IJRKSt21piecewise_cons" \
  "truct_tSt5tupleIJOS5_EES1D_IJEEEEERS17_DpOT_"
#define EMPLACE_HINT \
  "_ZNSt8_Rb_treeINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESt4pairIKS5_St3mapIS5_St8functionIFS8_" \
  "IS5_St6vectorIS9_IFiRS7_RS8_IiS5_St4lessIiESaIS6_IKiS5_EEEEESaISK_EESC_IS5_ESaIS6_IS7_SM_EEERKS8_IS5_S9_IFviEE" \
  "SN_SaIS6_IS7_SS_EEEEESN_SaIS6_IS7_SZ_EEEESt10_Select1stIS13_ESN_SaIS13_EE22_M_emplace_hint_uniqueIJRKSt21piece" \
  "wise_construct_tSt5tupleIJOS5_EES1C_IJEEEEESt17_Rb_tree_iteratorIS13_ESt23_Rb_tree_const_iteratorIS13_EDpOT_"

/* A capture whose call chain is main → names[0] → names[1] → …, each
 * function with 100 self samples more than the one below it, in thread
 * @thread of process @command. */
static char *
make_named_capture (const char         *file,
                    const char * const *names,
                    const char         *thread,
                    const char         *command,
                    const char         *exit_signal)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), file, NULL);
  g_autoptr(HpCaptureWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  gint64 mod, stack = 0;
  guint n = g_strv_length ((char **) names);
  guint64 t = 0;

  g_unlink (path);
  w = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "command", command);
  hp_capture_writer_set_metadata (w, "start_time", "2024-05-01T12:00:00Z");
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  hp_capture_writer_set_metadata (w, "frequency", "1000");
  hp_capture_writer_set_metadata (w, "call_graph", "dwarf");
  hp_capture_writer_set_metadata_int (w, "duration_ns", 1000000000);
  if (exit_signal != NULL)
    hp_capture_writer_set_metadata (w, "exit_signal", exit_signal);
  hp_capture_writer_set_process (w, 200, command);
  hp_capture_writer_set_thread (w, 201, 200, thread);
  hp_capture_writer_set_thread (w, 202, 200, "worker");
  mod = hp_capture_writer_intern_module (w, "/opt/display-test/names", NULL, FALSE);
  for (guint i = 0; i <= n; i++)
    {
      const char *name = i == 0 ? "main" : names[i - 1];
      gint64 f = hp_capture_writer_intern_function (w, name, mod, NULL, 0);

      stack = hp_capture_writer_intern_stack (w, stack, hp_capture_writer_intern_frame (w, f, NULL, 0, FALSE, 0x100 * (i + 1)));
      for (guint s = 0; s < 100 * (i + 1); s++)
        hp_capture_writer_add_sample (w, t += 1000000, s % 4 == 0 ? 202 : 201, 0, stack, 1000000);
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

/* Renders the whole window with its own renderer, as a frame would. The
 * window has nothing to draw while a relayout is pending: try again a
 * few frames later then. */
static void
render_window (HpWindow *window)
{
  GtkWidget *widget = GTK_WIDGET (window);
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (window));

  for (guint attempt = 0; attempt < 40; attempt++)
    {
      g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
      g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
      g_autoptr(GskRenderNode) node = NULL;
      int width = gtk_widget_get_width (widget);
      int height = gtk_widget_get_height (widget);

      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_to_node (snapshot);
      if (node != NULL)
        {
          g_autoptr(GdkTexture) texture = gsk_renderer_render_texture (renderer, node,
                                                                       &GRAPHENE_RECT_INIT (0, 0, width, height));

          g_assert_nonnull (texture);
          g_assert_cmpint (gdk_texture_get_width (texture), ==, width);
          return;
        }
      display_spin (50);
    }
  g_assert_not_reached ();
}

/* The window, and what it would need, fit on the screen. */
static void
assert_fits_screen (HpWindow *window)
{
  GdkDisplay *display = gtk_widget_get_display (GTK_WIDGET (window));
  g_autoptr(GdkMonitor) monitor = g_list_model_get_item (gdk_display_get_monitors (display), 0);
  GdkRectangle screen;
  int min_width, min_height;

  gdk_monitor_get_geometry (monitor, &screen);
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_VERTICAL, min_width, &min_height, NULL, NULL, NULL);
  g_test_message ("screen %dx%d, window %dx%d, minimum %dx%d", screen.width, screen.height,
                  gtk_widget_get_width (GTK_WIDGET (window)), gtk_widget_get_height (GTK_WIDGET (window)),
                  min_width, min_height);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, screen.width);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), <=, screen.height);
  g_assert_cmpint (min_width, <=, screen.width);
  g_assert_cmpint (min_height, <=, screen.height);
  /* and it draws: the renderer of the window renders all of it */
  render_window (window);
}

static char *
clipboard_text (GtkWidget *widget)
{
  GdkContentProvider *content = gdk_clipboard_get_content (gtk_widget_get_clipboard (widget));
  GValue value = G_VALUE_INIT;
  g_autoptr(GError) error = NULL;
  char *text;

  g_assert_nonnull (content);
  g_value_init (&value, G_TYPE_STRING);
  g_assert_true (gdk_content_provider_get_value (content, &value, &error));
  g_assert_no_error (error);
  text = g_value_dup_string (&value);
  g_value_unset (&value);
  return text;
}

static HpCallRow *
find_row (HpWindow   *window,
          const char *prefix)
{
  GListModel *model = hp_call_tree_view_get_model (hp_window_get_tree_view (window));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      HpCallRow *row = row_at (window, i);

      if (g_str_has_prefix (hp_call_row_get_name (row), prefix))
        return row;
      g_object_unref (row);
    }
  return NULL;
}

/* Issue 10, item 6: names of 20,000+ characters aborted the window under
 * GTK's GL renderer and grew it past the screen under cairo. */
static void
test_long_names (void)
{
  g_autofree char *ctor = hp_demangle (AUTO_NODE_CTOR);
  g_autofree char *emplace = hp_demangle (EMPLACE_HINT);
  const char *names[] = { ctor, emplace, "strncmp", NULL };
  g_autofree char *path = NULL;
  GskRenderer *renderer;
  HpWindow *window;
  HpCallsView *calls;

  g_assert_cmpuint (strlen (ctor), >, 17000);
  path = make_named_capture ("long-names.hotpath", names, "main", "/opt/display-test/names", NULL);
  window = display_open (app, path);
  g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
  renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  g_test_message ("renderer: %s", G_OBJECT_TYPE_NAME (renderer));
  /* the -gl variant of the test is about the default renderer */
  if (g_strcmp0 (g_getenv ("HOTPATH_TEST_RENDERER"), "gl") == 0)
    g_assert_cmpstr (G_OBJECT_TYPE_NAME (renderer), !=, "GskCairoRenderer");
  assert_fits_screen (window);

  /* selected: its name in the source pane, the breadcrumbs, the callers */
  display_activate (window, "win.select-function", g_variant_new_string (ctor));
  display_wait_source (window);
  g_assert_cmpstr (display_selected_name (window), ==, ctor);
  /* the source pane says the name in a wrapping label (no line
   * information): that label was taller than any screen */
  assert_fits_screen (window);
  /* rows: templates folded, no return type */
  {
    g_autoptr(HpCallRow) row = find_row (window, "std::_Rb_tree<…>::_Auto_node::_Auto_node<…>(");
    g_autoptr(HpCallRow) emplace_row = find_row (window, "std::_Rb_tree<…>::_M_emplace_hint_unique<…>(");
    g_autofree char *tooltip = NULL;

    g_assert_nonnull (row);
    g_assert_nonnull (emplace_row);
    g_assert_cmpstr (hp_call_row_get_name (row), ==,
                     "std::_Rb_tree<…>::_Auto_node::_Auto_node<…>(std::_Rb_tree<…>&, std::piecewise_construct_t const&, "
                     "std::tuple<…>&&, std::tuple<>&&)");
    /* the tooltip: the whole name, capped, then the path in short names */
    tooltip = row_string (row, "tooltip");
    g_assert_cmpint (g_utf8_strlen (tooltip, -1), <, 1500);
    g_assert_true (strncmp (tooltip, ctor, 500) == 0);
    g_assert_nonnull (strstr (tooltip, "…\n"));
    g_assert_nonnull (strstr (tooltip, "main → std::_Rb_tree<…>::_Auto_node::_Auto_node<…>\n"));
  }

  {
    const char * const *crumbs = hp_summary_pane_get_crumbs (hp_window_get_summary_pane (window));

    g_assert_cmpuint (g_strv_length ((char **) crumbs), ==, 2);
    g_assert_cmpstr (crumbs[1], ==, "std::_Rb_tree<…>::_Auto_node::_Auto_node<…>");
  }
  display_activate (window, "win.show-pane", g_variant_new_string ("calls"));
  display_spin (100);
  calls = hp_window_get_calls_view (window);
  {
    g_autoptr(HpFunctionRow) callee = g_list_model_get_item (hp_calls_view_get_callees (calls), 0);
    const char *tooltip = NULL;

    g_assert_nonnull (callee);
    g_assert_cmpstr (hp_function_row_get_name (callee), ==, "std::_Rb_tree<…>::_M_emplace_hint_unique<…>");
    g_object_get (callee, "tooltip", &tooltip, NULL);
    g_assert_cmpint (g_utf8_strlen (tooltip, -1), <, 1500);
    g_free ((char *) tooltip);

    /* Copy Name: the whole name, of a callee and of the selection */
    gtk_widget_activate_action (GTK_WIDGET (calls), "calls.copy-name", "x",
                                (gint64) hp_function_row_get_function_id (callee));
    {
      g_autofree char *copied = clipboard_text (GTK_WIDGET (window));

      g_assert_cmpstr (copied, ==, emplace);
    }
  }
  assert_fits_screen (window);
  display_activate (window, "win.copy-name", NULL);
  {
    g_autofree char *copied = clipboard_text (GTK_WIDGET (window));

    g_assert_cmpstr (copied, ==, ctor);
  }

  /* the deepest function, in the source pane's messages */
  display_activate (window, "win.show-pane", g_variant_new_string ("source"));
  display_activate (window, "win.select-function", g_variant_new_string (emplace));
  display_wait_source (window);
  assert_fits_screen (window);
  display_activate (window, "win.tree-mode", g_variant_new_string ("bottom-up"));
  display_spin (100);
  assert_fits_screen (window);
  display_activate (window, "win.tree-mode", g_variant_new_string ("top-down"));
  display_close (window);
}

/* Issue 10, item 11: names are shown as text, whatever their bytes. A
 * markup warning would be fatal here (g_test_init). */
/* A small screen ------------------------------------------------------ */

static gboolean
offer_shown (gpointer data)
{
  HpSummaryOffer *offer = hp_window_get_summary_offer (data);

  return !hp_summary_offer_is_busy (offer) && gtk_widget_get_visible (GTK_WIDGET (offer));
}

/* The search field shows its whole placeholder ("Find function"), even
 * with the call tree's pane made as narrow as it goes. */
static void
assert_search_usable (HpWindow *window)
{
  GtkWidget *entry = GTK_WIDGET (hp_window_get_search_entry (window));
  GtkPaned *paned = GTK_PANED (gtk_widget_get_ancestor (entry, GTK_TYPE_PANED));
  g_autofree char *placeholder = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  int text_width;
  int position = gtk_paned_get_position (paned);

  g_object_get (entry, "placeholder-text", &placeholder, NULL);
  layout = gtk_widget_create_pango_layout (entry, placeholder);
  pango_layout_get_pixel_size (layout, &text_width, NULL);
  gtk_paned_set_position (paned, 0);
  display_spin (200);
  g_test_message ("search field %d px, its placeholder %d px, the tree's pane %d px",
                  gtk_widget_get_width (entry), text_width, gtk_paned_get_position (paned));
  /* the text, and the magnifier and the clear icon beside it */
  g_assert_cmpint (gtk_widget_get_width (entry), >=, text_width + 32);
  display_assert_fits_width (window, 1024);
  gtk_paned_set_position (paned, position);
}

/* Sets @paned at @step-th of @n_steps of its range */
static void
set_paned_step (GtkPaned *paned,
                guint     step,
                guint     n_steps)
{
  int max;

  g_object_get (paned, "max-position", &max, NULL);
  gtk_paned_set_position (paned, max * step / n_steps);
}

/* The panes at positions across their range, each page of the bottom
 * pane: a wrapped label squeezed to fewer lines than it needs asks for
 * the width of one line (the summary list's did, at positions earlier
 * windows had saved: 1331 px). */
static void
assert_fits_squeezed (HpWindow *window)
{
  GtkWidget *entry = GTK_WIDGET (hp_window_get_search_entry (window));
  GtkWidget *main_paned = gtk_widget_get_ancestor (entry, GTK_TYPE_PANED);
  GtkPaned *side = GTK_PANED (gtk_widget_get_ancestor (gtk_widget_get_parent (main_paned), GTK_TYPE_PANED));
  GtkPaned *summary = GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (hp_window_get_summary_pane (window)),
                                                          GTK_TYPE_PANED));
  const char *pages[] = { "source", "calls", "functions", "flame", "timeline" };
  int side_position = gtk_paned_get_position (side);
  int summary_position = gtk_paned_get_position (summary);
  const guint n_steps = 6;

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      display_activate (window, "win.show-pane", g_variant_new_string (pages[i]));
      for (guint step = 0; step <= n_steps; step++)
        {
          set_paned_step (side, step, n_steps);
          set_paned_step (summary, i % 2 == 0 ? step : n_steps - step, n_steps);
          g_test_message ("%s pane, side paned at %d, summary paned at %d", pages[i],
                          gtk_paned_get_position (side), gtk_paned_get_position (summary));
          display_assert_fits_width (window, 1024);
        }
    }
  /* the summary paned across its range, with room above the bottom pane */
  set_paned_step (side, n_steps / 2, n_steps);
  for (guint step = 0; step <= 2 * n_steps; step++)
    {
      set_paned_step (summary, step, 2 * n_steps);
      display_assert_fits_width (window, 1024);
    }
  display_activate (window, "win.show-pane", g_variant_new_string ("source"));
  gtk_paned_set_position (side, side_position);
  gtk_paned_set_position (summary, summary_position);
}

/* At 1024 × 700 (issue 14), with the summary pane shown: the window takes
 * that width, and no page asks for more at the height it has there. */
static void
test_small_screen (void)
{
  g_autofree char *demo = g_build_filename (display_tmpdir (), "demo.hotpath", NULL);
  g_autofree char *ctor = hp_demangle (AUTO_NODE_CTOR);
  g_autofree char *emplace = hp_demangle (EMPLACE_HINT);
  const char *names[] = { ctor, emplace, NULL };
  /* (a thread's name is 15 bytes in Linux, a process's or an import's is not) */
  g_autofree char *named = make_named_capture ("small-names.hotpath", names,
                                               "a thread whose name goes on and on, as an imported one can",
                                               "/opt/display-test/names", NULL);
  const char *argv[] = { HOTPATH_CLI, "record", "--force", "-o", demo, "--", WORKLOAD_DIR "/demo", "5", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = 0;
  HpWindow *window;

  /* the demo the README records (quickstart.sh), with a summary; its
   * output kept off the test's (TAP) */
  if (g_spawn_sync (NULL, (char **) argv, NULL, 0, NULL, NULL, &out, &err, &status, NULL) &&
      g_spawn_check_wait_status (status, NULL))
    {
      window = display_open_sized (app, demo, 1024, 700);
      g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
      display_activate (window, "win.select-function", g_variant_new_string ("count_word"));
      display_wait_source (window);
      g_object_set (window, "show-summary", TRUE, NULL);
      hp_summary_pane_set_text (hp_window_get_summary_pane (window),
                                "The tokenizer: most of its time is the strncmp of count_word "
                                "looking a word up in its bucket; a longer hash table should help.");
      display_assert_fits_width (window, 1024);
      assert_search_usable (window);
      assert_fits_squeezed (window);
      display_close (window);
    }
  else
    g_test_message ("demo not recorded (perf_event_open?): %s", err);

  /* C++ templates 17 000 characters long, selected, and the banner that
   * offers a summary from an earlier capture of the program */
  {
    g_autoptr(HpSummaryLibrary) library = hp_summary_library_open (NULL, NULL);
    g_autofree char *key = g_strdup_printf ("names\tmain\nnames\t%s\n", ctor);
    HpCaptureSummary summary = {
      .path_key = key,
      .path = (char *) "main → the constructor",
      .text = (char *) "Written in an earlier capture.",
      .created = (char *) "2026-01-02T03:04:05Z",
      .updated = (char *) "2026-01-02T03:04:05Z",
      .capture = (char *) "earlier.hotpath",
      .share = 20.0,
      .found = TRUE,
    };
    g_autoptr(GError) error = NULL;

    g_assert_nonnull (library);
    g_assert_true (hp_summary_library_put (library, "names", &summary, &error));
    g_assert_no_error (error);
  }
  window = display_open_sized (app, named, 1024, 700);
  g_assert_true (display_wait (offer_shown, window, 20000));
  display_activate (window, "win.select-function", g_variant_new_string (emplace));
  display_wait_source (window);
  g_object_set (window, "show-summary", TRUE, NULL);
  display_assert_fits_width (window, 1024);
  assert_search_usable (window);
  assert_fits_squeezed (window);
  /* each thread, named by its process, its name and where it starts:
   * the dropdown's own label asked for the whole entry */
  {
    GtkDropDown *threads = hp_window_get_thread_dropdown (window);
    GListModel *entries = gtk_drop_down_get_model (threads);

    g_assert_cmpuint (g_list_model_get_n_items (entries), >=, 2);
    for (guint i = 0; i < g_list_model_get_n_items (entries); i++)
      {
        g_autoptr(GtkStringObject) entry = g_list_model_get_item (entries, i);

        g_test_message ("thread entry %u: %.80s", i, gtk_string_object_get_string (entry));
        gtk_drop_down_set_selected (threads, i);
        for (guint j = 0; j < 100 && hp_window_is_filtering (window); j++)
          display_spin (50);
        display_assert_fits_width (window, 1024);
      }
  }
  display_close (window);
}

/* Every character of @text has a glyph in the fonts the window draws
 * with: a control character's picture that no font has shows as a box. */
static void
assert_renders (HpWindow   *window,
                const char *text)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (window), text);
  int unknown = pango_layout_get_unknown_glyphs_count (layout);

  if (unknown != 0)
    g_test_message ("%d characters of \"%s\" have no glyph", unknown, text);
  g_assert_cmpint (unknown, ==, 0);
  g_object_unref (layout);
}

static void
test_hostile_names (void)
{
  const char *names[] = {
    "bad\xff\xfe name",
    "esc\x1b[31m red\nline two",
    "<b>bold</b> & amp; <i",
    "",
    "   ",
    NULL,
  };
  g_autofree char *path = make_named_capture ("hostile-names.hotpath", names, "thr\x1b\nead",
                                              "python3 -c 'import os\nprint(1)' \x1b[2J", NULL);
  HpWindow *window = display_open (app, path);
  const char *command = hp_capture_overview_get_value (hp_window_get_overview (window), "command");
  GListModel *threads = G_LIST_MODEL (gtk_drop_down_get_model (hp_window_get_thread_dropdown (window)));
  gboolean thread_listed = FALSE;

  g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
  g_assert_cmpstr (command, ==, "python3 -c 'import os⏎print(1)' ^[[2J");
  assert_renders (window, command);
  for (guint i = 0; i < g_list_model_get_n_items (threads); i++)
    {
      const char *label = gtk_string_list_get_string (GTK_STRING_LIST (threads), i);

      g_assert_true (g_utf8_validate (label, -1, NULL));
      g_assert_null (strchr (label, '\x1b'));
      g_assert_null (strchr (label, '\n'));
      if (strstr (label, "thr^[⏎ead") != NULL)
        {
          thread_listed = TRUE;
          assert_renders (window, label);
        }
    }
  g_assert_true (thread_listed);

  /* expand everything, by selecting the deepest function */
  display_activate (window, "win.select-function", g_variant_new_string ("   "));
  display_wait_source (window);
  {
    g_autoptr(HpCallRow) bad = find_row (window, "bad");
    g_autoptr(HpCallRow) esc = find_row (window, "esc");
    g_autoptr(HpCallRow) markup = find_row (window, "<b>");
    g_autoptr(HpCallRow) empty = find_row (window, "[no name]");
    const char *name;

    g_assert_nonnull (bad);
    name = hp_call_row_get_name (bad);
    g_assert_true (g_utf8_validate (name, -1, NULL));
    g_assert_true (g_str_has_suffix (name, " name"));
    g_assert_nonnull (strstr (name, "\xef\xbf\xbd"));  /* U+FFFD */
    g_assert_nonnull (esc);
    g_assert_cmpstr (hp_call_row_get_name (esc), ==, "esc^[[31m red⏎line two");
    assert_renders (window, hp_call_row_get_name (esc));
    g_assert_nonnull (markup);
    g_assert_cmpstr (hp_call_row_get_name (markup), ==, "<b>bold</b> & amp; <i");
    g_assert_nonnull (empty);
  }
  {
    const char * const *crumbs = hp_summary_pane_get_crumbs (hp_window_get_summary_pane (window));

    g_assert_cmpuint (g_strv_length ((char **) crumbs), ==, 6);
    g_assert_cmpstr (crumbs[3], ==, "<b>bold</b> & amp; <i");
    g_assert_cmpstr (crumbs[4], ==, "[no name]");
    g_assert_cmpstr (crumbs[5], ==, "[no name]");
    for (guint i = 0; crumbs[i] != NULL; i++)
      g_assert_cmpstr (crumbs[i], !=, "");
  }
  /* captions in markup, and the search's highlight */
  display_activate (window, "win.show-pane", g_variant_new_string ("calls"));
  display_activate (window, "win.select-function", g_variant_new_string ("<b>bold</b> & amp; <i"));
  display_spin (100);
  g_assert_cmpstr (display_selected_name (window), ==, "<b>bold</b> & amp; <i");
  gtk_editable_set_text (GTK_EDITABLE (hp_window_get_search_entry (window)), "& amp; <");
  g_assert_true (display_wait (not_searching, hp_window_get_tree_view (window), 5000));
  display_spin (100);
  assert_fits_screen (window);
  gtk_editable_set_text (GTK_EDITABLE (hp_window_get_search_entry (window)), "");
  display_spin (50);
  display_close (window);
}

/* The longest the main loop went without running a 10 ms tick while a
 * window opened its file: an open that blocks the loop shows here. */
typedef struct {
  gint64 last;
  gint64 longest;
} Ticks;

static gboolean
tick (gpointer data)
{
  Ticks *t = data;
  gint64 now = g_get_monotonic_time ();

  t->longest = MAX (t->longest, now - t->last);
  t->last = now;
  return G_SOURCE_CONTINUE;
}

static HpWindow *
open_ticking (const char *path,
              gint64     *longest_ms)
{
  Ticks t = { g_get_monotonic_time (), 0 };
  guint id = g_timeout_add (10, tick, &t);
  HpWindow *window = display_open (app, path);

  display_spin (100);
  g_source_remove (id);
  *longest_ms = t.longest / 1000;
  return window;
}

/* Captures are mailed around: each of these opens in the window to an
 * error that names the file and the problem (or, where what is there is
 * sound, to the capture), and the main loop keeps running meanwhile. */
static void
test_hostile_open (void)
{
  static const struct {
    const char *name;
    const char *sql;      /* run on a good capture; NULL: cut it short */
    const char *expect;   /* in the error; NULL: the capture opens */
  } cases[] = {
    { "view.hotpath", "DROP TABLE stacks; CREATE VIEW stacks AS WITH RECURSIVE r (id, parent_id, frame_id) AS "
                      "(SELECT 1, 0, 1 UNION SELECT id + 1, id, 1 FROM r) SELECT * FROM r;", "view \"stacks\"" },
    { "trigger.hotpath", "CREATE TRIGGER evil AFTER INSERT ON summaries BEGIN DELETE FROM stacks; END;",
      "trigger \"evil\"" },
    { "sql-names.hotpath", "UPDATE functions SET name = name || ''');DROP TABLE samples;--';", NULL },
    { "no-summaries.hotpath", "DROP TABLE summaries;", "no table summaries" },
    /* its expression would write 60 MB into the capture per summary saved */
    { "expression-index.hotpath", "CREATE INDEX big ON summaries (zeroblob (60000000));", "index \"big\"" },
    { "huge-summary.hotpath", "INSERT INTO summaries (path_key, path, text, created, updated) "
                              "VALUES ('k', 'p', printf ('%.5000000c', 'x'), '', '');", NULL },
    { "truncated.hotpath", NULL, "truncated" },
    { "header-only.hotpath", NULL, "truncated" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = display_make_capture (cases[i].name, FALSE, NULL);
      HpWindow *window;
      gint64 longest;

      if (cases[i].sql != NULL)
        hp_test_sql (path, cases[i].sql);
      else
        g_assert_cmpint (truncate (path, g_str_has_prefix (cases[i].name, "header")
                                         ? 60 : 3 * hp_test_sql_int (path, "PRAGMA page_size")), ==, 0);

      window = open_ticking (path, &longest);
      g_test_message ("%s: %s, the main loop waited at most %" G_GINT64_FORMAT " ms",
                      cases[i].name, hp_window_get_state (window), longest);
      if (cases[i].expect == NULL)
        g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
      else
        {
          g_assert_cmpstr (hp_window_get_state (window), ==, "error");
          if (strstr (hp_window_get_error_text (window), cases[i].expect) == NULL)
            g_error ("%s: error “%s” does not say “%s”", cases[i].name, hp_window_get_error_text (window),
                     cases[i].expect);
          g_assert_nonnull (strstr (hp_window_get_error_text (window), path));
        }
      if (cases[i].expect == NULL)
        {
          display_activate (window, "win.show-pane", g_variant_new_string ("summaries"));
          display_spin (200);
        }
      display_close (window);
    }

  /* A capture still being recorded: what is committed opens. */
  {
    g_autofree char *path = g_build_filename (display_tmpdir (), "live.hotpath", NULL);
    g_autoptr(HpCaptureWriter) w = NULL;
    g_autoptr(GError) error = NULL;
    HpWindow *window;
    gint64 longest, mod, f, stack;

    w = hp_capture_writer_new (path, &error);
    g_assert_no_error (error);
    hp_capture_writer_set_metadata (w, "command", "live");
    hp_capture_writer_set_metadata (w, "event", "cpu-clock");
    hp_capture_writer_set_metadata (w, "event_unit", "ns");
    hp_capture_writer_set_process (w, 300, "live");
    hp_capture_writer_set_thread (w, 300, 300, "live");
    mod = hp_capture_writer_intern_module (w, "/opt/display-test/live", NULL, FALSE);
    f = hp_capture_writer_intern_function (w, "live_main", mod, NULL, 0);
    stack = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w, f, NULL, 0, FALSE, 0x100));
    for (guint s = 0; s < 100; s++)
      hp_capture_writer_add_sample (w, 1000000 * (s + 1), 300, 0, stack, 1000000);
    g_assert_true (hp_capture_writer_flush (w, &error));

    window = open_ticking (path, &longest);
    g_test_message ("live.hotpath: %s, the main loop waited at most %" G_GINT64_FORMAT " ms",
                    hp_window_get_state (window), longest);
    g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
    for (guint s = 0; s < 100; s++)
      hp_capture_writer_add_sample (w, 1000000 * (s + 101), 300, 0, stack, 1000000);
    g_assert_true (hp_capture_writer_flush (w, &error));
    display_spin (200);
    display_close (window);
    g_assert_true (hp_capture_writer_finish (w, &error));
    g_assert_no_error (error);
  }
}

/* Issue 10: a program killed by a signal is said so in the overview,
 * which reads exit_signal as `hotpath-cli report` does (a SIG name too). */
static void
test_exit_signal (void)
{
  const char *names[] = { "crash_here", NULL };
  const char *values[] = { g_strsignal (SIGSEGV), "11", "SIGSEGV", NULL };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *file = g_strdup_printf ("signal-%u.hotpath", i);
      g_autofree char *path = make_named_capture (file, names, "main", "/opt/display-test/crash", values[i]);
      HpWindow *window = display_open (app, path);
      const char *warning = hp_capture_overview_get_value (hp_window_get_overview (window), "warning");

      g_test_message ("exit_signal %s: %s", values[i], warning);
      if (values[i] != NULL)
        {
          g_assert_nonnull (strstr (warning, "The program was killed by signal 11 (Segmentation fault); "
                                             "the profile ends there."));
          g_assert_true (gtk_widget_get_visible (GTK_WIDGET (hp_window_get_overview (window))));
        }
      else
        g_assert_null (strstr (warning, "killed"));
      display_close (window);
    }
}

/* Issue 18: the overview says how many stacks were cut at run-time
 * compiled code, and asks for node's flag only when node ran without it. */
static void
test_jit_cut (void)
{
  const char *names[] = { "hotTwice", NULL };
  const char *commands[] = { "node --perf-basic-prof x.js", "node --perf-basic-prof --interpreted-frames-native-stack x.js" };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *file = g_strdup_printf ("jit-cut-%u.hotpath", i);
      g_autofree char *path = make_named_capture (file, names, "node", commands[i], NULL);
      HpWindow *window;
      const char *warning;
      sqlite3 *db = NULL;

      g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
      g_assert_cmpint (sqlite3_exec (db, "INSERT OR REPLACE INTO metadata (key, value) VALUES ('truncated_at_jit', '7')",
                                     NULL, NULL, NULL), ==, SQLITE_OK);
      sqlite3_close (db);
      window = display_open (app, path);
      warning = hp_capture_overview_get_value (hp_window_get_overview (window), "warning");
      g_test_message ("jit_cut %s: %s", commands[i], warning);
      g_assert_nonnull (strstr (warning, "7 stacks were cut at code compiled at run time."));
      if (i == 0)
        g_assert_nonnull (strstr (warning, "Run node with --interpreted-frames-native-stack,"));
      else
        {
          g_assert_null (strstr (warning, "Run node with"));
          g_assert_nonnull (strstr (warning, "already (node with --interpreted-frames-native-stack)"));
        }
      display_close (window);
    }
}

/* A finished capture whose totals were deleted is read from its samples,
 * and the overview says so as the report does; with its totals it does
 * not. */
static void
test_counts_summed (void)
{
  const char *names[] = { "summed_here", NULL };

  for (guint deleted = 0; deleted < 2; deleted++)
    {
      g_autofree char *file = g_strdup_printf ("summed-%u.hotpath", deleted);
      g_autofree char *path = make_named_capture (file, names, "main", "/opt/display-test/summed", NULL);
      HpWindow *window;
      const char *warning;

      if (deleted)
        hp_test_sql (path, "DELETE FROM stack_counts;");
      window = display_open (app, path);
      warning = hp_capture_overview_get_value (hp_window_get_overview (window), "warning");
      g_test_message ("stack_counts %s: %s", deleted ? "deleted" : "kept", warning);
      if (deleted)
        {
          g_assert_nonnull (strstr (warning, "The capture is marked finished, but its totals (table stack_counts) "
                                             "are empty: the counts shown are its samples, summed."));
          g_assert_true (gtk_widget_get_visible (GTK_WIDGET (hp_window_get_overview (window))));
        }
      else
        g_assert_null (strstr (warning, "stack_counts"));
      /* the same samples either way, not none */
      g_assert_cmpstr (hp_capture_overview_get_value (hp_window_get_overview (window), "samples"), !=, "0");
      display_close (window);
    }
}

/* Code compiled at run time that no perf map named is code without
 * symbols, and what names it is the runtime's flag, not a -dbgsym
 * package: node without --perf-basic-prof had 67 % of its samples in
 * "[anon] START-END" rows while the overview said nothing. */
static void
test_jit_unnamed (void)
{
  const char *names[] = { "[anon] 0x7f2159fc5000-0x7f2159fd5000", NULL };
  g_autofree char *path = make_named_capture ("jit-unnamed.hotpath", names, "node", "node x.js", NULL);
  HpWindow *window = display_open (app, path);
  const char *warning = hp_capture_overview_get_value (hp_window_get_overview (window), "warning");

  g_test_message ("jit_unnamed: %s", warning);
  g_assert_nonnull (strstr (warning, "66.7 % of the samples are in code without symbols"));
  g_assert_nonnull (strstr (warning, "run node with --perf-basic-prof,"));
  g_assert_null (strstr (warning, "dbgsym"));
  display_close (window);
}

static gboolean
not_loading (gpointer data)
{
  return g_strcmp0 (hp_window_get_state (data), "loading") != 0;
}

static gboolean
loading_started (gpointer data)
{
  return hp_loaded_capture_get_n_loading () > 0;
}

static gboolean
loading_ended (gpointer data)
{
  return hp_loaded_capture_get_n_loading () == 0;
}

/* Issue 10, item 8: Cancel went back to the welcome page while the loader
 * thread went on to the end of a capture that takes seconds to load. */
static void
test_cancel_load (void)
{
  g_autofree char *path = display_make_capture ("slow.hotpath", FALSE, NULL);
  HpWindow *window;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  sqlite3 *db = NULL;
  char *message = NULL;
  gint64 start;

  /* cut short (no stack_counts): the reader aggregates 5M samples itself */
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db,
                                 "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
                                 "DELETE FROM metadata WHERE key = 'complete'; DELETE FROM stack_counts;"
                                 "WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000000)"
                                 " INSERT INTO samples (time, tid, cpu, stack_id, weight)"
                                 " SELECT i, 101 + i % 2, 0, 1 + i % (SELECT max (id) FROM stacks), 1000 FROM n;",
                                 NULL, NULL, &message), ==, SQLITE_OK);
  g_assert_null (message);
  sqlite3_close (db);

  g_assert_cmpuint (hp_loaded_capture_get_n_loading (), ==, 0);
  window = hp_window_new (GTK_APPLICATION (app));
  gtk_window_present (GTK_WINDOW (window));
  hp_window_open (window, file);
  g_assert_true (display_wait (loading_started, NULL, 5000));
  display_spin (300);
  /* still loading: otherwise the capture is too small to show anything */
  g_assert_cmpstr (hp_window_get_state (window), ==, "loading");
  g_assert_cmpuint (hp_loaded_capture_get_n_loading (), ==, 1);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-load", NULL));
  start = g_get_monotonic_time ();
  g_assert_cmpstr (hp_window_get_state (window), ==, "empty");
  g_assert_true (display_wait (loading_ended, NULL, 10000));
  g_test_message ("the loader ended %" G_GINT64_FORMAT " ms after Cancel",
                  (g_get_monotonic_time () - start) / 1000);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 1000 * 1000);
  g_assert_cmpstr (hp_window_get_state (window), ==, "empty");

  /* and the same file opens when asked to, all of it */
  hp_window_open (window, file);
  g_assert_true (display_wait (not_loading, window, 60000));
  display_spin (100);
  g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
  g_assert_cmpstr (hp_capture_overview_get_value (hp_window_get_overview (window), "samples"), ==, "5001000");
  display_close (window);
}

static char *
make_pending_capture (const char *name)
{
  char *path = g_build_filename (display_tmpdir (), name, NULL);

  hp_test_make_pending_capture (path);
  return path;
}

static gboolean
pending_settled (gpointer data)
{
  return !hp_pending_banner_is_busy (hp_window_get_pending_banner (data))
         && g_strcmp0 (hp_window_get_state (data), "capture") == 0;
}

static gboolean
shows_15_samples (gpointer data)
{
  return pending_settled (data)
         && g_strcmp0 (hp_capture_overview_get_value (hp_window_get_overview (data), "samples"), "15") == 0;
}

/* NAME.pending.sql beside a capture: the banner says how many samples
 * wait there, and Add Them adds them and opens the capture again, with
 * them; a file that holds anything else is said, and not offered.
 * PENDING_SCREENSHOT=FILE.png saves the window with the banner
 * (build-aux/make-screenshots.sh). */
static void
test_pending (void)
{
  g_autofree char *path = make_pending_capture ("pending.hotpath");
  g_autofree char *pending = g_strconcat (path, ".pending.sql", NULL);
  g_autofree char *good = NULL;
  const char *screenshot = g_getenv ("PENDING_SCREENSHOT");
  HpPendingBanner *banner;
  HpWindow *window;
  const char *text;

  g_assert_true (g_file_get_contents (pending, &good, NULL, NULL));
  if (screenshot != NULL)
    window = display_open_for_screenshot (app, path);
  else
    window = display_open (app, path);
  banner = hp_window_get_pending_banner (window);
  g_assert_true (display_wait (pending_settled, window, 20000));
  if (screenshot != NULL)
    {
      display_spin (300);
      display_save_png (GTK_WINDOW (window), screenshot);
    }
  text = hp_pending_banner_get_text (banner);
  g_assert_nonnull (text);
  g_test_message ("%s", text);
  g_assert_cmpstr (text, ==, "5 samples of this recording waited for another program's write lock and are not in "
                             "the capture yet: they are in pending.hotpath.pending.sql beside it.");
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (banner)));
  g_assert_cmpstr (hp_capture_overview_get_value (hp_window_get_overview (window), "samples"), ==, "10");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (banner), "pending.add", NULL));
  g_assert_true (display_wait (shows_15_samples, window, 20000));
  g_assert_null (hp_pending_banner_get_text (banner));
  g_assert_false (g_file_test (pending, G_FILE_TEST_EXISTS));
  g_assert_cmpint (hp_test_sql_int (path, "SELECT count(*) FROM samples"), ==, 15);
  display_close (window);

  /* the same file with a line of anything else: said, nothing added */
  {
    g_autoptr(GString) hostile = g_string_new (good);
    const char *commit = strstr (hostile->str, "COMMIT;\n");

    g_assert_nonnull (commit);
    g_string_insert (hostile, commit - hostile->str, ".shell touch /tmp/hotpath-pending-pwned\n");
    g_assert_true (g_file_set_contents (pending, hostile->str, -1, NULL));
  }
  window = display_open (app, path);
  banner = hp_window_get_pending_banner (window);
  g_assert_true (display_wait (pending_settled, window, 20000));
  text = hp_pending_banner_get_text (banner);
  g_assert_nonnull (text);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "is not one of the statements Hotpath's recorder writes there"));
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (banner), "pending.add", NULL)
                  && hp_pending_banner_is_busy (banner));
  display_spin (200);
  g_assert_true (g_file_test (pending, G_FILE_TEST_EXISTS));
  g_assert_cmpint (hp_test_sql_int (path, "SELECT count(*) FROM samples"), ==, 15);
  display_close (window);
}

static int
run (HpApplication *application)
{
  app = application;
  g_test_add_func ("/window/empty", test_empty);
  g_test_add_func ("/window/tree", test_tree);
  g_test_add_func ("/window/thread-filter", test_thread_filter);
  g_test_add_func ("/window/summary-roundtrip", test_summary_roundtrip);
  g_test_add_func ("/window/source", test_source);
  g_test_add_func ("/window/source-missing", test_source_missing);
  g_test_add_func ("/window/source-relative", test_source_relative);
  g_test_add_func ("/window/source-hostile", test_source_hostile);
  g_test_add_func ("/window/source-refused-recover", test_source_refused_recover);
  g_test_add_func ("/window/errors", test_errors);
  g_test_add_func ("/window/read-only", test_read_only);
  g_test_add_func ("/window/second-window", test_second_window);
  g_test_add_func ("/window/long-tree", test_long_tree);
  g_test_add_func ("/window/drop-types", test_drop_types);
  g_test_add_func ("/window/drop", test_drop);
  g_test_add_func ("/window/drop-several", test_drop_several);
  g_test_add_func ("/window/drop-other-files", test_drop_other_files);
  g_test_add_func ("/window/recorded-tree", test_recorded_tree);
  g_test_add_func ("/window/long-names", test_long_names);
  g_test_add_func ("/window/small-screen", test_small_screen);
  g_test_add_func ("/window/hostile-names", test_hostile_names);
  g_test_add_func ("/window/hostile-open", test_hostile_open);
  g_test_add_func ("/window/exit-signal", test_exit_signal);
  g_test_add_func ("/window/jit-cut", test_jit_cut);
  g_test_add_func ("/window/counts-summed", test_counts_summed);
  g_test_add_func ("/window/jit-unnamed", test_jit_unnamed);
  g_test_add_func ("/window/cancel-load", test_cancel_load);
  g_test_add_func ("/window/pending", test_pending);
  return g_test_run ();
}

int
main (int   argc,
      char *argv[])
{
  return display_run (argc, argv, run);
}
