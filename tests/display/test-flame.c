/* test-flame.c - the flame graph in the real window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On the display tests' synthetic capture (display-common.c: main 1000
 * samples, run_alpha 750 with alpha_leaf 600 and shared_leaf 150,
 * run_beta 250), the flame graph pane draws the tree's profile, a click
 * on a box selects its node in the call tree, a selection in the tree
 * outlines its box, a zoom puts a box across the whole width, and
 * hovering or selecting redraws only the overlay, never the box layer.
 * And the call tree's Right and Left keys (its actions).
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <string.h>

#include "ui/hp-call-row.h"
#include "display-common.h"

static HpApplication *app;

static gboolean
graph_shown (gpointer data)
{
  HpFlameView *view = data;

  return !hp_flame_view_is_busy (view) && hp_flame_canvas_get_graph (hp_flame_view_get_canvas (view)) != NULL;
}

static gboolean
not_following (gpointer data)
{
  return !hp_window_is_following (data);
}

/* The index of the first box, in preorder, of the function @name. */
static gint
box_of (HpFlameCanvas *canvas,
        const char    *name)
{
  HpFlameGraph *graph = hp_flame_canvas_get_graph (canvas);
  HpProfile *profile = hp_flame_graph_get_profile (graph);
  const HpFlameBox *boxes;
  guint n;

  boxes = hp_flame_graph_get_boxes (graph, &n);
  for (guint i = 0; i < n; i++)
    if (boxes[i].node != NULL && boxes[i].node->function_id != 0
        && strcmp (hp_profile_get_function_name (profile, boxes[i].node->function_id), name) == 0)
      return (gint) i;
  g_error ("no box of %s", name);
}

/* Lets the window draw a frame or more. */
static void
render (HpWindow *window)
{
  gtk_widget_queue_draw (GTK_WIDGET (window));
  display_spin (100);
}

static void
test_flame (void)
{
  g_autofree char *path = display_make_capture ("flame.hotpath", TRUE, NULL);
  HpWindow *window = display_open (app, path);
  HpFlameView *view = hp_window_get_flame_view (window);
  HpFlameCanvas *canvas = hp_flame_view_get_canvas (view);
  graphene_rect_t area, alpha_area, leaf_area;
  gint alpha, beta, leaf, hit;
  guint renders, shaped;
  int width, height;
  g_autofree char *tip = NULL;

  display_activate (window, "win.show-pane", g_variant_new_string ("flame"));
  g_assert_true (display_wait (graph_shown, view, 5000));
  g_assert_false (hp_flame_graph_is_bottom_up (hp_flame_canvas_get_graph (canvas)));
  render (window);
  /* all, main, run_alpha, alpha_leaf, shared_leaf, run_beta and its leaves */
  g_assert_cmpuint (hp_flame_canvas_get_n_drawn (canvas), >=, 6);

  /* geometry: run_alpha is 75 % of the width, at the left */
  alpha = box_of (canvas, "run_alpha");
  beta = box_of (canvas, "run_beta");
  g_assert_true (hp_flame_canvas_get_box_area (canvas, (guint) alpha, &alpha_area));
  g_assert_cmpfloat_with_epsilon (alpha_area.origin.x, 0, 0.01);
  g_assert_cmpfloat_with_epsilon (alpha_area.size.width, 0.75 * gtk_widget_get_width (GTK_WIDGET (canvas)), 1);
  /* the pixel in the middle of a box is that box */
  g_assert_true (hp_flame_canvas_get_box_area (canvas, (guint) beta, &area));
  hit = hp_flame_canvas_box_at (canvas, area.origin.x + area.size.width / 2, area.origin.y + area.size.height / 2);
  g_assert_cmpint (hit, ==, beta);

  tip = hp_flame_canvas_describe_box (canvas, (guint) alpha);
  g_assert_nonnull (strstr (tip, "run_alpha"));
  g_assert_nonnull (strstr (tip, "75.0 %"));

  /* a click on a box selects its node in the tree, and the panes follow */
  g_signal_emit_by_name (canvas, "box-activated", (guint) beta);
  g_assert_true (display_wait (not_following, window, 5000));
  g_assert_cmpstr (display_selected_name (window), ==, "run_beta");
  g_assert_true (hp_flame_canvas_get_selected (canvas) == hp_call_tree_view_get_selected (hp_window_get_tree_view (window)));

  /* a selection in the tree outlines its box, without a new box layer */
  render (window);
  renders = hp_flame_canvas_get_n_renders (canvas);
  width = gtk_widget_get_width (GTK_WIDGET (canvas));
  height = gtk_widget_get_height (GTK_WIDGET (canvas));
  display_activate (window, "win.select-function", g_variant_new_string ("alpha_leaf"));
  g_assert_true (display_wait (not_following, window, 5000));
  g_assert_cmpstr (display_selected_name (window), ==, "alpha_leaf");
  g_assert_true (hp_flame_canvas_get_selected (canvas) == hp_call_tree_view_get_selected (hp_window_get_tree_view (window)));
  render (window);
  /* a new size (the panes beside it may change with the selection) draws
   * the layer anew, and rightly; the selection alone must not */
  if (gtk_widget_get_width (GTK_WIDGET (canvas)) == width && gtk_widget_get_height (GTK_WIDGET (canvas)) == height)
    g_assert_cmpuint (hp_flame_canvas_get_n_renders (canvas), ==, renders);

  /* zoom: run_alpha spans the width, alpha_leaf 600 of its 750 */
  leaf = box_of (canvas, "alpha_leaf");
  renders = hp_flame_canvas_get_n_renders (canvas);
  hp_flame_canvas_set_zoom (canvas, (guint) alpha);
  render (window);
  g_assert_cmpuint (hp_flame_canvas_get_n_renders (canvas), >=, renders + 1);
  g_assert_true (hp_flame_canvas_get_box_area (canvas, (guint) alpha, &alpha_area));
  g_assert_cmpfloat_with_epsilon (alpha_area.size.width, gtk_widget_get_width (GTK_WIDGET (canvas)), 0.5);
  g_assert_true (hp_flame_canvas_get_box_area (canvas, (guint) leaf, &leaf_area));
  g_assert_cmpfloat_with_epsilon (leaf_area.size.width, 0.8 * gtk_widget_get_width (GTK_WIDGET (canvas)), 1);
  g_assert_false (hp_flame_canvas_get_box_area (canvas, (guint) beta, &area));
  /* selecting what lies outside the zoom zooms out */
  display_activate (window, "win.select-function", g_variant_new_string ("run_beta"));
  g_assert_true (display_wait (not_following, window, 5000));
  g_assert_cmpuint (hp_flame_canvas_get_zoom (canvas), ==, 0);
  render (window);

  /* zooming in again draws the layer anew from labels shaped before:
   * shaping them was most of a zoom's stall on a large capture */
  shaped = hp_flame_canvas_get_n_shaped (canvas);
  g_assert_cmpuint (shaped, >=, 4);
  renders = hp_flame_canvas_get_n_renders (canvas);
  hp_flame_canvas_set_zoom (canvas, (guint) alpha);
  render (window);
  g_assert_cmpuint (hp_flame_canvas_get_n_renders (canvas), >=, renders + 1);
  g_assert_cmpuint (hp_flame_canvas_get_n_shaped (canvas), ==, shaped);
  hp_flame_canvas_set_zoom (canvas, 0);
  render (window);

  /* search repaints the boxes, selection does not */
  renders = hp_flame_canvas_get_n_renders (canvas);
  hp_flame_view_set_search (view, "LEAF");
  render (window);
  g_assert_cmpuint (hp_flame_canvas_get_n_renders (canvas), ==, renders + 1);
  hp_flame_view_set_search (view, NULL);

  /* bottom-up follows the tree's direction */
  display_activate (window, "win.tree-mode", g_variant_new_string ("bottom-up"));
  g_assert_true (display_wait (not_following, window, 5000));
  g_assert_true (display_wait (graph_shown, view, 5000));
  g_assert_true (hp_flame_graph_is_bottom_up (hp_flame_canvas_get_graph (canvas)));
  display_activate (window, "win.tree-mode", g_variant_new_string ("top-down"));
  g_assert_true (display_wait (not_following, window, 5000));
  g_assert_true (display_wait (graph_shown, view, 5000));
  g_assert_false (hp_flame_graph_is_bottom_up (hp_flame_canvas_get_graph (canvas)));

  display_close (window);
}

static GtkTreeListRow *
selected_row (HpWindow *window)
{
  GListModel *model = hp_call_tree_view_get_model (hp_window_get_tree_view (window));
  HpCallTreeView *tree = hp_window_get_tree_view (window);
  const HpCallNode *node = hp_call_tree_view_get_selected (tree);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);
      g_autoptr(HpCallRow) item = gtk_tree_list_row_get_item (row);

      if (hp_call_row_get_node (item) == node)
        return g_steal_pointer (&row);
    }
  return NULL;
}

/* Right and Left in the call tree (issue 14): Left moves to the parent,
 * then closes it; Right opens it, then moves to its first child. */
static void
test_tree_keys (void)
{
  g_autofree char *path = display_make_capture ("keys.hotpath", TRUE, NULL);
  HpWindow *window = display_open (app, path);
  GtkWidget *tree = GTK_WIDGET (hp_window_get_tree_view (window));
  g_autoptr(GtkTreeListRow) row = NULL;

  /* it opens on the hottest path's leaf */
  g_assert_cmpstr (display_selected_name (window), ==, "alpha_leaf");
  g_assert_true (gtk_widget_activate_action (tree, "tree.collapse-or-parent", NULL));
  display_spin (50);
  g_assert_cmpstr (display_selected_name (window), ==, "run_alpha");
  row = selected_row (window);
  g_assert_true (gtk_tree_list_row_get_expanded (row));
  g_clear_object (&row);

  g_assert_true (gtk_widget_activate_action (tree, "tree.collapse-or-parent", NULL));
  display_spin (50);
  g_assert_cmpstr (display_selected_name (window), ==, "run_alpha");
  row = selected_row (window);
  g_assert_false (gtk_tree_list_row_get_expanded (row));
  g_clear_object (&row);

  g_assert_true (gtk_widget_activate_action (tree, "tree.expand-or-child", NULL));
  display_spin (50);
  row = selected_row (window);
  g_assert_true (gtk_tree_list_row_get_expanded (row));
  g_clear_object (&row);
  g_assert_cmpstr (display_selected_name (window), ==, "run_alpha");

  g_assert_true (gtk_widget_activate_action (tree, "tree.expand-or-child", NULL));
  display_spin (50);
  g_assert_cmpstr (display_selected_name (window), ==, "alpha_leaf");

  /* a leaf has nothing to open */
  g_assert_true (gtk_widget_activate_action (tree, "tree.expand-or-child", NULL));
  display_spin (50);
  g_assert_cmpstr (display_selected_name (window), ==, "alpha_leaf");
  display_close (window);
}

static int
run (HpApplication *application)
{
  app = application;
  g_test_add_func ("/flame/window", test_flame);
  g_test_add_func ("/flame/tree-keys", test_tree_keys);
  return g_test_run ();
}

int
main (int   argc,
      char *argv[])
{
  return display_run (argc, argv, run);
}
