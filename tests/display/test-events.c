/* test-events.c - several events in the window: the selector, units, the ratio, wall time and processes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A capture written through the store API, whose every number is known:
 *
 *   process 100 "app", threads 101 "app" and 102 "helper";
 *   process 200 "other", thread 201.
 *   cpu-clock (1 ms a sample): main > compute 600 (tid 101),
 *     main > fault_in 200 (tid 101), other_main 200 (tid 201)
 *   page-faults (sampled at 1000 Hz, each sample weighs its faults):
 *     main > fault_in 50 samples of 40 faults (2,000), main > compute
 *     10 of 10 (100), both tid 101
 *   off-cpu: main > wait_io 30 intervals of 100 ms (3 s), tid 102
 *
 * The event selector lists the four views (wall too); page-faults counts
 * 2,100 page faults, not 60 samples, and says so in the tree's and the
 * flame graph's captions and the callers' column; the ratio column is
 * page faults per ms on the CPU (fault_in: 2,000 / 200 ms = 10.0); the
 * wall view puts wait_io's 3 s under a [waiting] node; the process filter
 * lists "app" before "other", narrows the threads to the chosen process,
 * and the overview lists both processes.
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "store/hp-capture-writer.h"
#include "ui/hp-call-row.h"
#include "ui/hp-call-tree-context.h"
#include "ui/hp-function-row.h"
#include "display-common.h"

static HpApplication *app;

static char *
make_capture (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "events.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  HpCaptureWriter *w;
  gint64 mod, f_main, f_compute, f_fault, f_wait, f_other, s_main, s_compute, s_fault, s_wait, s_other;
  gint64 cpu, faults, off;
  guint64 t = 1000000;

  g_unlink (path);
  w = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "command", "/opt/events/app");
  hp_capture_writer_set_metadata (w, "call_graph", "fp");
  hp_capture_writer_set_metadata_int (w, "duration_ns", 5000000000);
  hp_capture_writer_set_metadata (w, "system_wide", "1");
  hp_capture_writer_set_process (w, 100, "app");
  hp_capture_writer_set_thread (w, 101, 100, "app");
  hp_capture_writer_set_thread (w, 102, 100, "helper");
  hp_capture_writer_set_process (w, 200, "other");
  hp_capture_writer_set_thread (w, 201, 200, "other");
  cpu = hp_capture_writer_add_event (w, "cpu-clock", "ns", 1000, 0);
  faults = hp_capture_writer_add_event (w, "page-faults", "page faults", 1000, 0);
  off = hp_capture_writer_add_event (w, "off-cpu", "ns", 0, 0);

  mod = hp_capture_writer_intern_module (w, "/opt/events/app", NULL, FALSE);
  f_main = hp_capture_writer_intern_function (w, "main", mod, NULL, 0);
  f_compute = hp_capture_writer_intern_function (w, "compute", mod, NULL, 0);
  f_fault = hp_capture_writer_intern_function (w, "fault_in", mod, NULL, 0);
  f_wait = hp_capture_writer_intern_function (w, "wait_io", mod, NULL, 0);
  f_other = hp_capture_writer_intern_function (w, "other_main", mod, NULL, 0);
  s_main = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w, f_main, NULL, 0, FALSE, 0x100));
  s_compute = hp_capture_writer_intern_stack (w, s_main, hp_capture_writer_intern_frame (w, f_compute, NULL, 0, FALSE, 0x200));
  s_fault = hp_capture_writer_intern_stack (w, s_main, hp_capture_writer_intern_frame (w, f_fault, NULL, 0, FALSE, 0x300));
  s_wait = hp_capture_writer_intern_stack (w, s_main, hp_capture_writer_intern_frame (w, f_wait, NULL, 0, FALSE, 0x400));
  s_other = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w, f_other, NULL, 0, FALSE, 0x500));

  for (guint i = 0; i < 600; i++)
    hp_capture_writer_add_event_sample (w, cpu, t += 1000000, 101, 0, s_compute, 1000000);
  for (guint i = 0; i < 200; i++)
    hp_capture_writer_add_event_sample (w, cpu, t += 1000000, 101, 0, s_fault, 1000000);
  for (guint i = 0; i < 200; i++)
    hp_capture_writer_add_event_sample (w, cpu, t += 1000000, 201, 1, s_other, 1000000);
  for (guint i = 0; i < 50; i++)
    hp_capture_writer_add_event_sample (w, faults, t += 1000, 101, 0, s_fault, 40);
  for (guint i = 0; i < 10; i++)
    hp_capture_writer_add_event_sample (w, faults, t += 1000, 101, 0, s_compute, 10);
  for (guint i = 0; i < 30; i++)
    hp_capture_writer_add_event_sample (w, off, t += 1000, 102, 0, s_wait, 100000000);
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
  hp_capture_writer_free (w);
  return g_steal_pointer (&path);
}

static gboolean
not_filtering (gpointer data)
{
  return !hp_window_is_filtering (data) && !hp_window_is_following (data);
}

static HpLoadedProfile *
shown (HpWindow *window)
{
  return hp_call_tree_view_get_profile (hp_window_get_tree_view (window));
}

static void
choose_event (HpWindow   *window,
              const char *event)
{
  g_assert_true (hp_event_selector_set_event (hp_window_get_event_selector (window), event));
  g_assert_true (display_wait (not_filtering, window, 10000));
  display_spin (50);
  g_assert_cmpstr (shown (window)->measure.event, ==, event);
}

static const HpCallNode *
child (HpLoadedProfile  *p,
       const HpCallNode *node,
       const char       *name)
{
  for (guint i = 0; node != NULL && node->children != NULL && i < node->children->len; i++)
    {
      const HpCallNode *c = g_ptr_array_index (node->children, i);

      if (g_strcmp0 (hp_profile_get_function_name (p->profile, c->function_id), name) == 0)
        return c;
    }
  return NULL;
}

static char *
ratio_of (HpLoadedProfile  *p,
          const HpCallNode *node)
{
  g_autoptr(HpCallTreeContext) context = hp_call_tree_context_new (p, FALSE);
  g_autoptr(HpCallRow) row = hp_call_row_new (context, node);
  char *text = NULL;

  g_object_get (row, "ratio", &text, NULL);
  return text;
}

static gboolean
graph_shown (gpointer data)
{
  HpFlameView *view = data;

  return !hp_flame_view_is_busy (view) && hp_flame_canvas_get_graph (hp_flame_view_get_canvas (view)) != NULL;
}

static void
test_events (void)
{
  g_autofree char *path = make_capture ();
  HpWindow *window = display_open (app, path);
  HpEventSelector *selector = hp_window_get_event_selector (window);
  GListModel *entries = G_LIST_MODEL (gtk_drop_down_get_model (hp_event_selector_get_dropdown (selector)));
  GtkColumnViewColumn *ratio_column;
  HpLoadedProfile *p;
  const HpCallNode *main_node, *fault, *wait, *waiting;
  g_autofree char *ratio = NULL;
  g_autofree char *tip = NULL;

  /* the selector: each event by what it counts, and wall */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (selector)));
  g_assert_cmpuint (g_list_model_get_n_items (entries), ==, 4);
  g_assert_cmpstr (gtk_string_object_get_string (g_list_model_get_item (entries, 0)), ==, "cpu-clock: samples");
  g_assert_cmpstr (gtk_string_object_get_string (g_list_model_get_item (entries, 1)), ==, "page-faults: page faults");
  g_assert_cmpstr (gtk_string_object_get_string (g_list_model_get_item (entries, 2)), ==, "off-cpu: time off the CPU");
  g_assert_cmpstr (gtk_string_object_get_string (g_list_model_get_item (entries, 3)), ==, "wall: time on and off the CPU");

  /* the first event, in samples, as before */
  p = shown (window);
  g_assert_cmpstr (p->measure.event, ==, "cpu-clock");
  g_assert_cmpuint (hp_profile_get_n_samples (p->profile), ==, 1000);
  g_assert_nonnull (strstr (hp_call_tree_view_get_caption (hp_window_get_tree_view (window)), "1000 cpu-clock samples"));

  /* the ratio: page faults per ms on the CPU, in both views of the tree */
  ratio_column = hp_call_tree_view_get_ratio_column (hp_window_get_tree_view (window));
  g_assert_true (gtk_column_view_column_get_visible (ratio_column));
  g_assert_cmpstr (gtk_column_view_column_get_title (ratio_column), ==, "page-faults / ms");
  main_node = child (p, hp_profile_get_top_down (p->profile), "main");
  fault = child (p, main_node, "fault_in");
  ratio = ratio_of (p, fault);
  g_assert_cmpstr (ratio, ==, "10.0");
  g_clear_pointer (&ratio, g_free);
  ratio = ratio_of (p, child (p, main_node, "compute"));
  g_assert_cmpstr (ratio, ==, "0.17");
  g_clear_pointer (&ratio, g_free);

  /* page faults: counted in page faults, not samples */
  choose_event (window, "page-faults");
  p = shown (window);
  g_assert_true (p->measure.by_weight);
  g_assert_cmpuint (hp_profile_get_n_samples (p->profile), ==, 2100);
  fault = child (p, child (p, hp_profile_get_top_down (p->profile), "main"), "fault_in");
  g_assert_cmpuint (fault->total, ==, 2000);
  g_assert_nonnull (strstr (hp_call_tree_view_get_caption (hp_window_get_tree_view (window)), "2100 page faults"));
  g_assert_null (strstr (hp_call_tree_view_get_caption (hp_window_get_tree_view (window)), "samples"));
  g_assert_nonnull (strstr (hp_capture_overview_get_value (hp_window_get_overview (window), "samples"), "2100 page faults"));
  g_assert_nonnull (strstr (hp_capture_overview_get_value (hp_window_get_overview (window), "event"), "page-faults: page faults"));
  /* the same ratio whatever the view counts */
  ratio = ratio_of (p, fault);
  g_assert_cmpstr (ratio, ==, "10.0");
  g_clear_pointer (&ratio, g_free);

  /* the flame graph and the callers say page faults too */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "flame");
  g_assert_true (display_wait (graph_shown, hp_window_get_flame_view (window), 5000));
  g_assert_nonnull (strstr (hp_flame_view_get_caption (hp_window_get_flame_view (window)), "2100 page faults"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.select-function", "s", "fault_in");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "calls");
  g_assert_true (display_wait (not_filtering, window, 5000));
  display_spin (50);
  {
    HpFunctionRow *caller = g_list_model_get_item (hp_calls_view_get_callers (hp_window_get_calls_view (window)), 0);

    g_assert_nonnull (caller);
    g_assert_cmpuint (hp_function_row_get_samples (caller), ==, 2000);
    g_object_unref (caller);
  }

  /* off-CPU time alone, then wall: wait_io's 3 s under [waiting] */
  choose_event (window, "off-cpu");
  p = shown (window);
  g_assert_cmpuint (hp_profile_get_n_samples (p->profile), ==, 3000000000);
  g_assert_nonnull (strstr (hp_call_tree_view_get_caption (hp_window_get_tree_view (window)), "3.00 s off CPU"));

  choose_event (window, "wall");
  p = shown (window);
  /* 1 s on the CPU, 3 s off it */
  g_assert_cmpuint (hp_profile_get_n_samples (p->profile), ==, 4000000000);
  main_node = child (p, hp_profile_get_top_down (p->profile), "main");
  wait = child (p, main_node, "wait_io");
  waiting = child (p, wait, "[waiting]");
  g_assert_nonnull (waiting);
  g_assert_cmpuint (waiting->total, ==, 3000000000);
  g_assert_cmpuint (wait->self, ==, 0);
  /* computing stays apart: compute has no waiting below it */
  g_assert_null (child (p, child (p, main_node, "compute"), "[waiting]"));
  g_assert_true (hp_measure_is_waiting (p->capture->data, waiting->function_id));
  g_assert_nonnull (strstr (hp_call_tree_view_get_caption (hp_window_get_tree_view (window)),
                            "wall-clock time (on and off the CPU)"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "flame");
  g_assert_true (display_wait (graph_shown, hp_window_get_flame_view (window), 5000));
  g_assert_nonnull (strstr (hp_flame_view_get_caption (hp_window_get_flame_view (window)), "4.00 s"));

  /* processes: the busiest first; choosing one narrows the threads */
  {
    GtkDropDown *processes = hp_window_get_process_dropdown (window);
    GListModel *list = gtk_drop_down_get_model (processes);
    GtkDropDown *threads = hp_window_get_thread_dropdown (window);

    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (processes)));
    g_assert_cmpuint (g_list_model_get_n_items (list), ==, 3);
    g_assert_nonnull (strstr (gtk_string_object_get_string (g_list_model_get_item (list, 1)), "app (100"));
    g_assert_nonnull (strstr (gtk_string_object_get_string (g_list_model_get_item (list, 2)), "other (200"));
    tip = g_strdup (hp_capture_overview_get_value (hp_window_get_overview (window), "processes"));
    g_assert_nonnull (strstr (tip, "app (100)"));
    g_assert_nonnull (strstr (tip, "other (200)"));
    /* in the wall view, app has 4 s of 4.2: 80 % */
    g_assert_true (strstr (tip, "app (100)") < strstr (tip, "other (200)"));

    gtk_drop_down_set_selected (processes, 2);
    g_assert_true (display_wait (not_filtering, window, 10000));
    display_spin (50);
    p = shown (window);
    g_assert_nonnull (p->tids);
    g_assert_cmpuint (g_hash_table_size (p->tids), ==, 1);
    g_assert_true (g_hash_table_contains (p->tids, GINT_TO_POINTER (201)));
    /* the thread filter lists that process's threads */
    g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (threads)), ==, 2);
    /* the event stays what it was */
    g_assert_cmpstr (p->measure.event, ==, "wall");
    g_assert_cmpuint (hp_profile_get_n_samples (p->profile), ==, 200000000);

    gtk_drop_down_set_selected (processes, 0);
    g_assert_true (display_wait (not_filtering, window, 10000));
    g_assert_null (shown (window)->tids);
  }
  display_close (window);
}

static int
run (HpApplication *application)
{
  app = application;
  g_test_add_func ("/events/selector-units-ratio-wall-processes", test_events);
  return g_test_run ();
}

int
main (int   argc,
      char *argv[])
{
  return display_run (argc, argv, run);
}
