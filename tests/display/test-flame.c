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
 * A double click zooms and the breadcrumbs zoom back out, to the root or
 * to a box between; Icicle draws the root at the top; Colour by Module
 * gives a module's functions one colour, and the colours by name stay
 * the same across windows and captures. And the call tree's Right and
 * Left keys (its actions).
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

static gboolean
is_button_labelled (GtkWidget     *widget,
                    gconstpointer  data)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), data) == 0;
}

/* The button of @view labelled @label (a breadcrumb, a toggle), or NULL */
static GtkButton *
find_button (HpFlameView *view,
             const char  *label)
{
  return (GtkButton *) display_find_widget (GTK_WIDGET (view), is_button_labelled, label);
}

/* Presses the canvas @n times at the middle of box @index, as the
 * pointer does: through its click gesture. */
static void
press_box (HpFlameCanvas *canvas,
           guint          index,
           int            n)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (canvas));
  graphene_rect_t area;

  g_assert_true (hp_flame_canvas_get_box_area (canvas, index, &area));
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (controller))
        {
          g_signal_emit_by_name (controller, "pressed", n,
                                 (double) (area.origin.x + area.size.width / 2),
                                 (double) (area.origin.y + area.size.height / 2));
          return;
        }
    }
  g_error ("the canvas has no click gesture");
}

/* Double-click zooms into a box; the breadcrumbs name the path to it and
 * zoom back out, to an intermediate box or to the root. */
static void
test_zoom_crumbs (void)
{
  g_autofree char *path = display_make_capture ("crumbs.hotpath", FALSE, NULL);
  HpWindow *window = display_open (app, path);
  HpFlameView *view = hp_window_get_flame_view (window);
  HpFlameCanvas *canvas = hp_flame_view_get_canvas (view);
  graphene_rect_t area;
  GtkButton *crumb;
  gint alpha, leaf;

  display_activate (window, "win.show-pane", g_variant_new_string ("flame"));
  g_assert_true (display_wait (graph_shown, view, 5000));
  render (window);
  alpha = box_of (canvas, "run_alpha");
  leaf = box_of (canvas, "alpha_leaf");
  /* at the root, the only crumb is the current one, not a button */
  g_assert_null (find_button (view, "All"));

  /* a double click on alpha_leaf zooms into it: it spans the width */
  press_box (canvas, (guint) leaf, 2);
  render (window);
  g_assert_cmpuint (hp_flame_canvas_get_zoom (canvas), ==, (guint) leaf);
  g_assert_true (hp_flame_canvas_get_box_area (canvas, (guint) leaf, &area));
  g_assert_cmpfloat_with_epsilon (area.size.width, gtk_widget_get_width (GTK_WIDGET (canvas)), 0.5);
  /* All › main › run_alpha › alpha_leaf: the ancestors are buttons */
  g_assert_nonnull (find_button (view, "All"));
  g_assert_nonnull (find_button (view, "main"));
  g_assert_nonnull (find_button (view, "run_alpha"));
  g_assert_null (find_button (view, "alpha_leaf"));

  /* the intermediate crumb zooms out to run_alpha: alpha_leaf is 600 of its 750 */
  crumb = find_button (view, "run_alpha");
  g_signal_emit_by_name (crumb, "clicked");
  render (window);
  g_assert_cmpuint (hp_flame_canvas_get_zoom (canvas), ==, (guint) alpha);
  g_assert_true (hp_flame_canvas_get_box_area (canvas, (guint) leaf, &area));
  g_assert_cmpfloat_with_epsilon (area.size.width, 0.8 * gtk_widget_get_width (GTK_WIDGET (canvas)), 1);
  g_assert_null (find_button (view, "run_alpha"));
  g_assert_nonnull (find_button (view, "main"));

  /* and All to the root: run_beta is back in view */
  g_signal_emit_by_name (find_button (view, "All"), "clicked");
  render (window);
  g_assert_cmpuint (hp_flame_canvas_get_zoom (canvas), ==, 0);
  g_assert_true (hp_flame_canvas_get_box_area (canvas, (guint) box_of (canvas, "run_beta"), &area));
  g_assert_null (find_button (view, "All"));

  /* a single click selects without zooming */
  press_box (canvas, (guint) leaf, 1);
  g_assert_true (display_wait (not_following, window, 5000));
  g_assert_cmpstr (display_selected_name (window), ==, "alpha_leaf");
  g_assert_cmpuint (hp_flame_canvas_get_zoom (canvas), ==, 0);
  display_close (window);
}

/* Icicle: the root at the top and callees below it; flame: the root at
 * the bottom. The boxes' areas, the hit test and the scroll follow. */
static void
test_icicle (void)
{
  g_autofree char *path = display_make_capture ("icicle.hotpath", FALSE, NULL);
  HpWindow *window = display_open (app, path);
  HpFlameView *view = hp_window_get_flame_view (window);
  HpFlameCanvas *canvas = hp_flame_view_get_canvas (view);
  GtkToggleButton *icicle;
  graphene_rect_t root, main_area, leaf_area;
  gint leaf;
  int height;

  display_activate (window, "win.show-pane", g_variant_new_string ("flame"));
  g_assert_true (display_wait (graph_shown, view, 5000));
  render (window);
  leaf = box_of (canvas, "alpha_leaf");
  height = gtk_widget_get_height (GTK_WIDGET (canvas));

  /* flame: the root is the bottom row, each level one row higher */
  g_assert_true (hp_flame_canvas_get_box_area (canvas, 0, &root));
  g_assert_true (hp_flame_canvas_get_box_area (canvas, (guint) box_of (canvas, "main"), &main_area));
  g_assert_true (hp_flame_canvas_get_box_area (canvas, (guint) leaf, &leaf_area));
  g_assert_cmpfloat_with_epsilon (root.origin.y + root.size.height + 1, height, 0.5);
  g_assert_cmpfloat (main_area.origin.y, <, root.origin.y);
  g_assert_cmpfloat (leaf_area.origin.y, <, main_area.origin.y);
  g_assert_true (g_str_has_prefix (hp_flame_view_get_caption (view), "Top-down: each function with its callees above it. "));

  icicle = GTK_TOGGLE_BUTTON (find_button (view, "_Icicle"));
  g_assert_nonnull (icicle);
  gtk_toggle_button_set_active (icicle, TRUE);
  render (window);
  /* icicle: drawn top-down, the root first */
  g_assert_true (hp_flame_canvas_get_box_area (canvas, 0, &root));
  g_assert_true (hp_flame_canvas_get_box_area (canvas, (guint) box_of (canvas, "main"), &main_area));
  g_assert_true (hp_flame_canvas_get_box_area (canvas, (guint) leaf, &leaf_area));
  g_assert_cmpfloat_with_epsilon (root.origin.y, 0, 0.01);
  g_assert_cmpfloat_with_epsilon (main_area.origin.y, root.size.height + 1, 0.5);
  g_assert_cmpfloat (leaf_area.origin.y, >, main_area.origin.y);
  /* what is under the pointer is what is drawn there */
  g_assert_cmpint (hp_flame_canvas_box_at (canvas, leaf_area.origin.x + 2, leaf_area.origin.y + 2), ==, leaf);
  g_assert_cmpint (hp_flame_canvas_box_at (canvas, 2, 2), ==, 0);
  /* and the caption says so (it read "callees above it") */
  g_assert_true (g_str_has_prefix (hp_flame_view_get_caption (view), "Top-down: each function with its callees below it. "));
  display_activate (window, "win.tree-mode", g_variant_new_string ("bottom-up"));
  g_assert_true (display_wait (graph_shown, view, 5000));
  g_assert_true (g_str_has_prefix (hp_flame_view_get_caption (view), "Bottom-up: each function with its callers below it. "));
  display_activate (window, "win.tree-mode", g_variant_new_string ("top-down"));
  g_assert_true (display_wait (graph_shown, view, 5000));
  render (window);
  /* the root row is in view: the scroller is at its top */
  g_assert_cmpfloat (gtk_adjustment_get_value (gtk_scrolled_window_get_vadjustment (
                       GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (GTK_WIDGET (canvas), GTK_TYPE_SCROLLED_WINDOW)))), ==, 0);

  gtk_toggle_button_set_active (icicle, FALSE);
  render (window);
  g_assert_true (hp_flame_canvas_get_box_area (canvas, 0, &root));
  g_assert_cmpfloat_with_epsilon (root.origin.y + root.size.height + 1, gtk_widget_get_height (GTK_WIDGET (canvas)), 0.5);
  display_close (window);
}

/* A capture over two modules: app (main, parse, lex) and libc (memcpy,
 * strlen). @reverse interns the functions in the other order, so that
 * each has another id than in the first. */
static void
write_modules (const char *path,
               gboolean    reverse)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  const char *names[] = { "main", "parse", "lex", "memcpy", "strlen" };
  gint64 app_module, libc, fn[5], frames[5], s_main, s_parse;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  if (reverse)
    {
      libc = hp_capture_writer_intern_module (w, "/usr/lib/libc.so.6", NULL, FALSE);
      app_module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
    }
  else
    {
      app_module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
      libc = hp_capture_writer_intern_module (w, "/usr/lib/libc.so.6", NULL, FALSE);
    }
  for (guint k = 0; k < 5; k++)
    {
      guint i = reverse ? 4 - k : k;

      fn[i] = hp_capture_writer_intern_function (w, names[i], i < 3 ? app_module : libc, NULL, 0);
      frames[i] = hp_capture_writer_intern_frame (w, fn[i], NULL, 0, FALSE, 0x100 * (i + 1));
    }
  s_main = hp_capture_writer_intern_stack (w, 0, frames[0]);
  s_parse = hp_capture_writer_intern_stack (w, s_main, frames[1]);
  for (guint i = 0; i < 100; i++)
    {
      gint64 leaf = i < 40 ? hp_capture_writer_intern_stack (w, s_parse, frames[2])
                  : i < 70 ? hp_capture_writer_intern_stack (w, s_parse, frames[3])
                  : hp_capture_writer_intern_stack (w, s_main, frames[4]);

      hp_capture_writer_add_sample (w, 1000 + i, 1, 0, leaf, 1);
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
}

static gboolean
same_color (const GdkRGBA *a,
            const GdkRGBA *b)
{
  return G_APPROX_VALUE (a->red, b->red, 1e-6) && G_APPROX_VALUE (a->green, b->green, 1e-6) &&
         G_APPROX_VALUE (a->blue, b->blue, 1e-6);
}

static void
fill_of (HpFlameCanvas *canvas,
         const char    *name,
         GdkRGBA       *fill)
{
  hp_flame_canvas_get_box_fill (canvas, (guint) box_of (canvas, name), fill);
}

/* Opens @path's flame graph and gives the by-name fills of lex and strlen */
static HpWindow *
open_flame (const char *path,
            GdkRGBA    *lex,
            GdkRGBA    *strlen_fill)
{
  HpWindow *window = display_open (app, path);
  HpFlameView *view = hp_window_get_flame_view (window);

  display_activate (window, "win.show-pane", g_variant_new_string ("flame"));
  g_assert_true (display_wait (graph_shown, view, 5000));
  render (window);
  fill_of (hp_flame_view_get_canvas (view), "lex", lex);
  fill_of (hp_flame_view_get_canvas (view), "strlen", strlen_fill);
  return window;
}

/* Colour by Module: the functions of one module share a colour, those of
 * different modules differ; by name (the default), colours differ per
 * function and stay the same when the capture is opened again, and in a
 * capture where the same names have other ids. */
static void
test_colors (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "modules.hotpath", NULL);
  g_autofree char *other = g_build_filename (display_tmpdir (), "modules-reversed.hotpath", NULL);
  HpWindow *window;
  HpFlameView *view;
  HpFlameCanvas *canvas;
  GtkToggleButton *by_module;
  GdkRGBA lex, parse, memcpy_fill, strlen_fill, main_fill, again_lex, again_strlen;

  write_modules (path, FALSE);
  write_modules (other, TRUE);
  window = open_flame (path, &lex, &strlen_fill);
  view = hp_window_get_flame_view (window);
  canvas = hp_flame_view_get_canvas (view);

  /* by name: each function its own colour */
  fill_of (canvas, "parse", &parse);
  fill_of (canvas, "memcpy", &memcpy_fill);
  g_assert_false (same_color (&lex, &parse));
  g_assert_false (same_color (&lex, &strlen_fill));
  g_assert_false (same_color (&memcpy_fill, &strlen_fill));

  by_module = GTK_TOGGLE_BUTTON (find_button (view, "Colour by _Module"));
  g_assert_nonnull (by_module);
  gtk_toggle_button_set_active (by_module, TRUE);
  render (window);
  fill_of (canvas, "main", &main_fill);
  fill_of (canvas, "parse", &parse);
  fill_of (canvas, "lex", &lex);
  fill_of (canvas, "memcpy", &memcpy_fill);
  fill_of (canvas, "strlen", &strlen_fill);
  g_assert_true (same_color (&main_fill, &parse));
  g_assert_true (same_color (&parse, &lex));
  g_assert_true (same_color (&memcpy_fill, &strlen_fill));
  g_assert_false (same_color (&lex, &strlen_fill));
  /* a search match stands out of the module colours too */
  hp_flame_view_set_search (view, "memcpy");
  fill_of (canvas, "memcpy", &memcpy_fill);
  g_assert_false (same_color (&memcpy_fill, &strlen_fill));
  hp_flame_view_set_search (view, NULL);
  gtk_toggle_button_set_active (by_module, FALSE);
  render (window);
  fill_of (canvas, "lex", &lex);
  fill_of (canvas, "strlen", &strlen_fill);
  display_close (window);

  /* opened again, and the same names under other ids: the same colours */
  window = open_flame (path, &again_lex, &again_strlen);
  g_assert_true (same_color (&lex, &again_lex));
  g_assert_true (same_color (&strlen_fill, &again_strlen));
  display_close (window);
  window = open_flame (other, &again_lex, &again_strlen);
  g_assert_true (same_color (&lex, &again_lex));
  g_assert_true (same_color (&strlen_fill, &again_strlen));
  display_close (window);
}

/* A capture of one call chain @depth deep (f0 calls f1 ... calls
 * f<depth-1>), with samples at every depth: a flame graph @depth + 1
 * rows high, the root's included. */
static void
write_chain (const char *path,
             guint       depth)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 module, stack = 0;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  for (guint d = 0; d < depth; d++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", d);

      stack = hp_capture_writer_intern_stack (w, stack, hp_capture_writer_intern_frame (
                                                w, hp_capture_writer_intern_function (w, name, module, NULL, 0),
                                                NULL, 0, FALSE, 0x100 * (d + 1)));
      for (guint i = 0; i < 10; i++)
        hp_capture_writer_add_sample (w, 1000 + d * 10 + i, 1, 0, stack, 1);
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
}

static gboolean
flame_fitted (gpointer data)
{
  HpFlameCanvas *canvas = hp_flame_view_get_canvas (hp_window_get_flame_view (data));
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (canvas), GTK_TYPE_SCROLLED_WINDOW);

  return gtk_widget_get_mapped (scroller) && gtk_widget_get_height (scroller) >= 10 * 18;
}

/* At 1024×700 the Flame Graph page showed four rows of the graph without
 * scrolling: it had the bottom pane's share like the source. The call
 * tree gives it the rows it needs, up to three fifths of their height
 * (a third or more left to the tree), and takes them back for the
 * Source page. A shallow graph takes only what it needs. */
static void
test_fits_small (void)
{
  g_autofree char *deep = g_build_filename (display_tmpdir (), "chain-deep.hotpath", NULL);
  g_autofree char *shallow = g_build_filename (display_tmpdir (), "chain-shallow.hotpath", NULL);
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  HpWindow *window;
  HpFlameView *view;
  GtkWidget *scroller;
  GtkPaned *side;
  int position, side_height;

  write_chain (deep, 40);
  write_chain (shallow, 5);
  /* whatever an earlier test of this process left (memory backend) */
  g_settings_reset (settings, "side-paned-position");
  window = display_open_sized (app, deep, 1024, 700);
  view = hp_window_get_flame_view (window);
  side = GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_PANED));
  position = gtk_paned_get_position (side);

  display_activate (window, "win.show-pane", g_variant_new_string ("flame"));
  g_assert_true (display_wait (graph_shown, view, 5000));
  scroller = gtk_widget_get_ancestor (GTK_WIDGET (hp_flame_view_get_canvas (view)), GTK_TYPE_SCROLLED_WINDOW);
  display_wait (flame_fitted, window, 3000);
  side_height = gtk_widget_get_height (GTK_WIDGET (side));
  g_test_message ("call tree %d px of %d, then %d px; the flame graph %d px, %d rows",
                  position, side_height, gtk_paned_get_position (side),
                  gtk_widget_get_height (scroller), gtk_widget_get_height (scroller) / 18);
  g_assert_cmpint (gtk_widget_get_height (scroller), >=, 10 * 18);
  g_assert_cmpint (gtk_paned_get_position (side), >=, side_height / 3);
  /* the selected row (the end of the hot path, f38, at the foot of the
   * tree before) is scrolled back into the smaller tree: it was cut */
  g_assert_cmpstr (display_selected_name (window), ==, "f38");
  g_assert_true (display_wait (display_selected_on_screen, window, 3000));

  /* the Source page has the call tree's height again */
  display_activate (window, "win.show-pane", g_variant_new_string ("source"));
  display_spin (200);
  g_assert_cmpint (gtk_paned_get_position (side), ==, position);
  display_close (window);

  /* six rows need no more than they have */
  window = display_open_sized (app, shallow, 1024, 700);
  view = hp_window_get_flame_view (window);
  side = GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_PANED));
  display_activate (window, "win.show-pane", g_variant_new_string ("flame"));
  g_assert_true (display_wait (graph_shown, view, 5000));
  display_spin (300);
  scroller = gtk_widget_get_ancestor (GTK_WIDGET (hp_flame_view_get_canvas (view)), GTK_TYPE_SCROLLED_WINDOW);
  g_assert_cmpint (gtk_widget_get_height (scroller), >=, 6 * 18);
  g_assert_cmpint (gtk_widget_get_height (scroller), <, 7 * 18 + 18);
  display_close (window);
  g_settings_reset (settings, "side-paned-position");
}

static gboolean
not_filtering (gpointer data)
{
  return !hp_window_is_filtering (data);
}

/* Whether the root's row is within the flame graph's scrolled view */
static gboolean
root_in_view (HpFlameView *view)
{
  HpFlameCanvas *canvas = hp_flame_view_get_canvas (view);
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (
    GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (GTK_WIDGET (canvas), GTK_TYPE_SCROLLED_WINDOW)));
  graphene_rect_t root;

  g_assert_true (hp_flame_canvas_get_box_area (canvas, 0, &root));
  g_test_message ("root row at y %.0f of %.0f; in view %.0f–%.0f", root.origin.y, gtk_adjustment_get_upper (adjustment),
                  gtk_adjustment_get_value (adjustment),
                  gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment));
  return root.origin.y >= gtk_adjustment_get_value (adjustment) &&
         root.origin.y + root.size.height <= gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment) + 0.5;
}

/* A flame graph whose root row is at its bottom keeps that row in view
 * when the graph grows taller: from one shallow thread's graph to every
 * thread's, 40 deep, the view stayed at the top of the new graph, the
 * root and the hot boxes below the fold. */
static void
test_root_in_view (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "two-depths.hotpath", NULL);
  HpWindow *window;
  HpFlameView *view;
  GtkDropDown *threads;
  GListModel *entries;
  guint shallow = G_MAXUINT;

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
    gint64 module, stack = 0;

    g_assert_no_error (error);
    hp_capture_writer_set_metadata (w, "event", "cpu-clock");
    hp_capture_writer_set_process (w, 1, "app");
    hp_capture_writer_set_thread (w, 1, 1, "deep");
    hp_capture_writer_set_thread (w, 2, 1, "shallow");
    module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
    for (guint d = 0; d < 40; d++)
      {
        g_autofree char *name = g_strdup_printf ("f%u", d);

        stack = hp_capture_writer_intern_stack (w, stack, hp_capture_writer_intern_frame (
                                                  w, hp_capture_writer_intern_function (w, name, module, NULL, 0),
                                                  NULL, 0, FALSE, 0x100 * (d + 1)));
        hp_capture_writer_add_sample (w, 1000 + d, 1, 0, stack, 1);
        /* the shallow thread: f0 → f1 → f2 */
        if (d < 3)
          for (guint i = 0; i < 100; i++)
            hp_capture_writer_add_sample (w, 2000 + d * 100 + i, 2, 0, stack, 1);
      }
    g_assert_true (hp_capture_writer_finish (w, &error));
    g_assert_no_error (error);
  }

  window = display_open_sized (app, path, 1024, 700);
  view = hp_window_get_flame_view (window);
  threads = hp_window_get_thread_dropdown (window);
  entries = gtk_drop_down_get_model (threads);
  for (guint i = 0; i < g_list_model_get_n_items (entries); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (entries, i);

      if (strstr (gtk_string_object_get_string (item), "shallow") != NULL)
        shallow = i;
    }
  g_assert_cmpuint (shallow, !=, G_MAXUINT);
  gtk_drop_down_set_selected (threads, shallow);
  g_assert_true (display_wait (not_filtering, window, 10000));
  display_activate (window, "win.show-pane", g_variant_new_string ("flame"));
  g_assert_true (display_wait (graph_shown, view, 5000));
  display_spin (300);
  g_assert_true (root_in_view (view));

  gtk_drop_down_set_selected (threads, 0);
  g_assert_true (display_wait (not_filtering, window, 10000));
  g_assert_true (display_wait (graph_shown, view, 5000));
  display_spin (500);
  g_assert_cmpuint (hp_flame_graph_get_depth (hp_flame_canvas_get_graph (hp_flame_view_get_canvas (view))), ==, 40);
  g_assert_true (root_in_view (view));
  display_close (window);
}

/* Whether the pixel at @x, @y of @pixels (display_render_pixels) is
 * the mark's dark blue */
static gboolean
is_mark_blue (const guchar *pixels,
              int           width,
              double        x,
              double        y)
{
  const guchar *p = pixels + ((int) y * width + (int) x) * 4;

  /* B, G, R of { 0.1, 0.3, 0.75 } */
  return ABS (p[0] - 191) <= 2 && ABS (p[1] - 77) <= 2 && ABS (p[2] - 26) <= 2;
}

/* A summarized path's box carries a mark that shows: a strip at its
 * start was all there was, 4 px of the selection's blue. It has a folded
 * corner at its end now, and the tooltip gives the summary's first line
 * only. */
static void
test_summary_mark (void)
{
  g_autofree char *path = display_make_capture ("mark.hotpath", TRUE, NULL);
  HpWindow *window = display_open (app, path);
  HpFlameView *view = hp_window_get_flame_view (window);
  HpFlameCanvas *canvas = hp_flame_view_get_canvas (view);
  graphene_rect_t leaf, beta;
  g_autofree guchar *pixels = NULL;
  g_autofree char *tip = NULL;
  int width, height;

  /* it opens on the hottest path's leaf */
  g_assert_cmpstr (display_selected_name (window), ==, "alpha_leaf");
  g_assert_true (hp_summary_pane_get_editable (hp_window_get_summary_pane (window)));
  hp_summary_pane_set_text (hp_window_get_summary_pane (window), "The alpha loop's leaf.\nA second line.");
  display_activate (window, "win.show-pane", g_variant_new_string ("flame"));
  g_assert_true (display_wait (graph_shown, view, 5000));
  /* selected elsewhere: the outline is not on the marked box */
  display_activate (window, "win.select-function", g_variant_new_string ("run_beta"));
  display_spin (300);
  render (window);

  g_assert_true (hp_flame_canvas_get_box_area (canvas, (guint) box_of (canvas, "alpha_leaf"), &leaf));
  g_assert_true (hp_flame_canvas_get_box_area (canvas, (guint) box_of (canvas, "run_beta"), &beta));
  pixels = display_render_pixels (GTK_WIDGET (canvas), &width, &height);
  g_assert_nonnull (pixels);
  /* the corner: at the box's top right, under the gap */
  g_assert_true (is_mark_blue (pixels, width, leaf.origin.x + leaf.size.width - 3, leaf.origin.y + 1));
  g_assert_false (is_mark_blue (pixels, width, leaf.origin.x + leaf.size.width - 3, leaf.origin.y + 12));
  g_assert_false (is_mark_blue (pixels, width, beta.origin.x + beta.size.width - 3, beta.origin.y + 1));
  /* the strip at its start */
  g_assert_true (is_mark_blue (pixels, width, leaf.origin.x + 1, leaf.origin.y + 8));

  tip = hp_flame_canvas_describe_box (canvas, (guint) box_of (canvas, "alpha_leaf"));
  g_assert_nonnull (strstr (tip, "Summary: The alpha loop's leaf."));
  g_assert_null (strstr (tip, "A second line"));
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
  g_test_add_func ("/flame/zoom-crumbs", test_zoom_crumbs);
  g_test_add_func ("/flame/icicle", test_icicle);
  g_test_add_func ("/flame/colors", test_colors);
  g_test_add_func ("/flame/fits-small", test_fits_small);
  g_test_add_func ("/flame/root-in-view", test_root_in_view);
  g_test_add_func ("/flame/summary-mark", test_summary_mark);
  return g_test_run ();
}

int
main (int   argc,
      char *argv[])
{
  return display_run (argc, argv, run);
}
