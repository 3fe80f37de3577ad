/* test-events.c - several events in the window: the selector, units, the ratio, wall time and processes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The system-wide events capture of tests/common
 * (hp_test_make_events_capture), whose every number is known:
 *
 *   process 100 "app", threads 101 "app" and 102 "helper";
 *   process 200 "other", thread 201.
 *   cpu-clock (1 ms a sample): main > compute 600 (tid 101),
 *     main > fault_in 200 (tid 101), other_main 200 (tid 201)
 *   page-faults (sampled at 1000 Hz, each sample weighs its faults):
 *     main > fault_in 50 samples of 40 faults (2,000), main > compute
 *     100 of 1 (100), both tid 101
 *   off-cpu: main > wait_io 30 intervals of 100 ms (3 s), tid 102
 *
 * The event selector lists the four views (wall too); page-faults counts
 * 2,100 page faults, not 150 samples, and says so in the tree's and the
 * flame graph's captions and the callers' column; the ratio column is
 * page faults per ms on the CPU (fault_in: 2,000 / 200 ms = 10.0); the
 * wall view puts wait_io's 3 s under a [waiting] node; the process filter
 * lists "app" before "other", narrows the threads to the chosen process,
 * and the overview lists both processes.
 *
 * And a real recording of the whole system (-a, as root) with two busy
 * programs: a range of the timeline, a process and its thread, alone and
 * together, each count what SQL counts over the samples table for the
 * same bounds and threads, and the overview's list of processes gives
 * each program its share of the range.
 *
 * With --screenshots DIR it also writes DIR/events-*.png of each view,
 * at SCREENSHOT_SIZE (WIDTHxHEIGHT), dark with SCREENSHOT_DARK=1.
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "record/hp-events.h"
#include "store/hp-capture-writer.h"
#include "ui/hp-record-dialog-private.h"
#include "ui/hp-call-row.h"
#include "ui/hp-call-tree-context.h"
#include "ui/hp-function-row.h"
#include "ui/hp-source-file.h"
#include "document/hp-format.h"
#include "display-common.h"

static HpApplication *app;
static const char *screenshot_dir;

static void
shot (HpWindow   *window,
      const char *name)
{
  g_autofree char *path = NULL;

  if (screenshot_dir == NULL)
    return;
  path = g_build_filename (screenshot_dir, name, NULL);
  g_mkdir_with_parents (screenshot_dir, 0755);
  display_spin (400);
  display_save_png (GTK_WINDOW (window), path);
}

static char *
make_capture (void)
{
  g_autofree char *source = g_build_filename (display_tmpdir (), "app.c", NULL);
  char *path = g_build_filename (display_tmpdir (), "events.hotpath", NULL);

  hp_test_make_events_capture (path, &(HpTestEventsCapture) { .whole_system = TRUE, .source = source });
  return path;
}

/* The text of entry @i of a dropdown of strings */
static const char *
entry (GtkDropDown *dropdown,
       guint        i)
{
  g_autoptr(GtkStringObject) item = g_list_model_get_item (gtk_drop_down_get_model (dropdown), i);

  g_assert_nonnull (item);
  /* the model keeps the string */
  return gtk_string_object_get_string (item);
}

static guint
find_entry (GtkDropDown *dropdown,
            const char  *part)
{
  GListModel *model = gtk_drop_down_get_model (dropdown);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    if (strstr (entry (dropdown, i), part) != NULL)
      return i;
  g_error ("no entry has %s", part);
}

static gboolean
samples_loaded (gpointer data)
{
  return hp_timeline_view_get_samples (data) != NULL;
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

/* What the source pane shows at @line of the file of @function: its
 * Self and Total counts, as the cells print them */
static void
source_counts (HpWindow   *window,
               const char *function,
               guint       line,
               char      **self_text,
               char      **total_text)
{
  HpSourceView *view = hp_window_get_source_view (window);
  GtkColumnView *list = NULL;
  g_autoptr(GObject) row = NULL;
  GtkWidget *w = GTK_WIDGET (view);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "source");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.select-function", "s", function);
  g_assert_true (display_wait_source (window));
  g_assert_cmpstr (hp_source_view_get_state (view), ==, "source");
  /* the first column view under the pane is the list of lines */
  while (w != NULL && list == NULL)
    {
      if (GTK_IS_COLUMN_VIEW (w))
        list = GTK_COLUMN_VIEW (w);
      else if (gtk_widget_get_first_child (w) != NULL)
        w = gtk_widget_get_first_child (w);
      else
        {
          while (w != NULL && w != GTK_WIDGET (view) && gtk_widget_get_next_sibling (w) == NULL)
            w = gtk_widget_get_parent (w);
          w = w == GTK_WIDGET (view) || w == NULL ? NULL : gtk_widget_get_next_sibling (w);
        }
    }
  g_assert_nonnull (list);
  row = g_list_model_get_item (G_LIST_MODEL (gtk_column_view_get_model (list)), line - 1);
  g_assert_true (HP_IS_SOURCE_ROW (row));
  g_object_get (row, "self-count", self_text, "total-count", total_text, NULL);
  g_test_message ("source of %s, line %u: self %s, total %s", function, line, *self_text, *total_text);
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
  int width = 1280, height = 800;
  HpWindow *window;
  HpEventSelector *selector;
  GListModel *entries;
  GtkColumnViewColumn *ratio_column;
  HpLoadedProfile *p;
  const HpCallNode *main_node, *fault, *wait, *waiting;
  g_autofree char *ratio = NULL;
  g_autofree char *tip = NULL;

  if (screenshot_dir != NULL && g_getenv ("SCREENSHOT_SIZE") != NULL)
    g_assert_cmpint (sscanf (g_getenv ("SCREENSHOT_SIZE"), "%dx%d", &width, &height), ==, 2);
  if (g_strcmp0 (g_getenv ("SCREENSHOT_DARK"), "1") == 0)
    g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  window = display_open_sized (app, path, width, height);
  selector = hp_window_get_event_selector (window);
  entries = G_LIST_MODEL (gtk_drop_down_get_model (hp_event_selector_get_dropdown (selector)));

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
  g_assert_cmpstr (entry (hp_window_get_thread_dropdown (window), 0), ==, "All threads (1000 samples)");
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
  shot (window, "events-cpu-clock.png");

  /* page faults: counted in page faults, not samples */
  choose_event (window, "page-faults");
  p = shown (window);
  g_assert_true (p->measure.by_weight);
  g_assert_cmpuint (hp_profile_get_n_samples (p->profile), ==, 2100);
  /* and so do the thread and process filters: only tid 101 faulted */
  g_assert_cmpstr (entry (hp_window_get_thread_dropdown (window), 0), ==, "All threads (2100 page faults)");
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (hp_window_get_process_dropdown (window))), ==, 2);
  g_assert_cmpstr (entry (hp_window_get_process_dropdown (window), 0), ==, "All processes (2100 page faults)");
  g_assert_cmpstr (entry (hp_window_get_process_dropdown (window), 1), ==, "app (100, 2100 page faults)");
  fault = child (p, child (p, hp_profile_get_top_down (p->profile), "main"), "fault_in");
  g_assert_cmpuint (fault->total, ==, 2000);
  g_assert_nonnull (strstr (hp_call_tree_view_get_caption (hp_window_get_tree_view (window)), "2100 page faults"));
  g_assert_null (strstr (hp_call_tree_view_get_caption (hp_window_get_tree_view (window)), "samples"));
  g_assert_nonnull (strstr (hp_capture_overview_get_value (hp_window_get_overview (window), "samples"), "2100 page faults"));
  g_assert_cmpstr (hp_capture_overview_get_value (hp_window_get_overview (window), "samples-heading"), ==, "Page faults");
  g_assert_nonnull (strstr (hp_capture_overview_get_value (hp_window_get_overview (window), "event"), "page-faults: page faults"));
  /* the same ratio whatever the view counts */
  ratio = ratio_of (p, fault);
  g_assert_cmpstr (ratio, ==, "10.0");
  g_clear_pointer (&ratio, g_free);
  shot (window, "events-page-faults.png");

  /* and so does the source pane */
  {
    g_autofree char *self_text = NULL;
    g_autofree char *total_text = NULL;

    source_counts (window, "fault_in", 3, &self_text, &total_text);
    g_assert_cmpstr (total_text, ==, "2000");
  }

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
  shot (window, "events-page-faults-callers.png");

  /* off-CPU time alone, then wall: wait_io's 3 s under [waiting] */
  choose_event (window, "off-cpu");
  p = shown (window);
  g_assert_cmpuint (hp_profile_get_n_samples (p->profile), ==, 3000000000);
  g_assert_nonnull (strstr (hp_call_tree_view_get_caption (hp_window_get_tree_view (window)), "3.00 s off CPU"));
  /* the source pane counts time as the call tree does: 3 s, not 3e9 ns,
   * all of it in what wait_io called ([waiting]), none its own */
  {
    g_autofree char *self_text = NULL;
    g_autofree char *total_text = NULL;

    source_counts (window, "wait_io", 4, &self_text, &total_text);
    g_assert_cmpstr (self_text, ==, "");
    g_assert_cmpstr (total_text, ==, "3.00 s");
    shot (window, "events-off-cpu-source.png");
  }

  choose_event (window, "wall");
  p = shown (window);
  /* 1 s on the CPU, 3 s off it */
  g_assert_cmpuint (hp_profile_get_n_samples (p->profile), ==, 4000000000);
  /* the overview's figure is a time, and its heading says so */
  g_assert_cmpstr (hp_capture_overview_get_value (hp_window_get_overview (window), "samples-heading"), ==, "Time");
  main_node = child (p, hp_profile_get_top_down (p->profile), "main");
  wait = child (p, main_node, "wait_io");
  waiting = child (p, wait, "[waiting]");
  g_assert_nonnull (waiting);
  g_assert_cmpuint (waiting->total, ==, 3000000000);
  g_assert_cmpuint (wait->self, ==, 0);
  /* computing stays apart: compute has no waiting below it */
  g_assert_null (child (p, child (p, main_node, "compute"), "[waiting]"));
  g_assert_true (hp_measure_is_waiting (p->capture->data, waiting->function_id));

  /* a time range counts the samples, whose stacks are the recorded ones:
   * off-CPU time still ends in [waiting] */
  {
    HpTimelineView *view = hp_window_get_timeline_view (window);
    HpTimeline *timeline = hp_timeline_view_get_timeline (view);
    HpSampleIndex *index;

    gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "timeline");
    g_assert_true (display_wait (samples_loaded, view, 10000));
    index = hp_timeline_view_get_samples (view);
    hp_timeline_set_selection (timeline, TRUE, hp_sample_index_get_start (index), hp_sample_index_get_end (index));
    g_assert_true (display_wait (not_filtering, window, 10000));
    p = shown (window);
    g_assert_true (p->has_range);
    g_assert_cmpuint (hp_profile_get_n_samples (p->profile), ==, 4000000000);
    wait = child (p, child (p, hp_profile_get_top_down (p->profile), "main"), "wait_io");
    g_assert_cmpuint (wait->self, ==, 0);
    waiting = child (p, wait, "[waiting]");
    g_assert_nonnull (waiting);
    g_assert_cmpuint (waiting->total, ==, 3000000000);
    hp_timeline_set_selection (timeline, FALSE, 0, 0);
    g_assert_true (display_wait (not_filtering, window, 10000));
    g_assert_false (shown (window)->has_range);
    p = shown (window);
  }
  g_assert_nonnull (strstr (hp_call_tree_view_get_caption (hp_window_get_tree_view (window)),
                            "wall-clock time (on and off the CPU)"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "flame");
  g_assert_true (display_wait (graph_shown, hp_window_get_flame_view (window), 5000));
  g_assert_nonnull (strstr (hp_flame_view_get_caption (hp_window_get_flame_view (window)), "4.00 s"));
  shot (window, "events-wall-flame.png");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.select-function", "s", "wait_io");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tree-mode", "s", "bottom-up");
  g_assert_true (display_wait (not_filtering, window, 5000));
  shot (window, "events-wall-bottom-up.png");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tree-mode", "s", "top-down");
  g_assert_true (display_wait (not_filtering, window, 5000));

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
    /* the thread filter lists that process's threads; of one thread,
     * only "All its threads" (no set of threads twice) */
    g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (threads)), ==, 1);
    g_assert_nonnull (strstr (gtk_string_object_get_string (g_list_model_get_item (gtk_drop_down_get_model (threads), 0)),
                              "All its threads"));
    /* the event stays what it was */
    g_assert_cmpstr (p->measure.event, ==, "wall");
    g_assert_cmpuint (hp_profile_get_n_samples (p->profile), ==, 200000000);
    shot (window, "events-process.png");

    gtk_drop_down_set_selected (processes, 0);
    g_assert_true (display_wait (not_filtering, window, 10000));
    g_assert_null (shown (window)->tids);

    /* wall time per thread: 0.8 s on the CPU in 101, 3 s off it in 102 */
    g_assert_cmpstr (entry (threads, 0), ==, "All threads (4.00 s)");
    g_assert_nonnull (strstr (entry (threads, find_entry (threads, "(101, ")), "(101, 800 ms)"));
    g_assert_nonnull (strstr (entry (threads, find_entry (threads, "(102, ")), "(102, 3.00 s)"));
    g_assert_cmpstr (entry (processes, 1), ==, "app (100, 3.80 s)");

    /* a thread chosen stays chosen when the event changes, recounted */
    gtk_drop_down_set_selected (threads, find_entry (threads, "(101, "));
    g_assert_true (display_wait (not_filtering, window, 10000));
    choose_event (window, "cpu-clock");
    p = shown (window);
    g_assert_nonnull (p->tids);
    g_assert_cmpuint (g_hash_table_size (p->tids), ==, 1);
    g_assert_true (g_hash_table_contains (p->tids, GINT_TO_POINTER (101)));
    g_assert_nonnull (strstr (entry (threads, gtk_drop_down_get_selected (threads)), "(101, 800 samples)"));
    g_assert_cmpstr (entry (threads, 0), ==, "All threads (1000 samples)");

    /* a thread with none of the new event (helper only waited) stays
     * chosen, named in the filter rather than a blank one, and the
     * tree says why it is empty */
    choose_event (window, "wall");
    gtk_drop_down_set_selected (threads, find_entry (threads, "(102, "));
    g_assert_true (display_wait (not_filtering, window, 10000));
    choose_event (window, "page-faults");
    display_spin (50);
    p = shown (window);
    g_assert_nonnull (p->tids);
    g_assert_true (g_hash_table_contains (p->tids, GINT_TO_POINTER (102)));
    g_assert_cmpuint (hp_profile_get_n_samples (p->profile), ==, 0);
    g_assert_cmpuint (gtk_drop_down_get_selected (threads), !=, GTK_INVALID_LIST_POSITION);
    g_assert_cmpstr (entry (threads, gtk_drop_down_get_selected (threads)), ==, "Thread helper (102, no page faults)");
    g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (threads)));
    g_assert_nonnull (hp_call_tree_view_get_empty_text (hp_window_get_tree_view (window)));
    g_assert_nonnull (strstr (hp_call_tree_view_get_empty_text (hp_window_get_tree_view (window)),
                              "The chosen threads have no page faults"));
    shot (window, "events-thread-without-event.png");
    /* back where it has some: counted again */
    choose_event (window, "wall");
    g_assert_nonnull (strstr (entry (threads, gtk_drop_down_get_selected (threads)), "(102, 3.00 s)"));
    g_assert_null (hp_call_tree_view_get_empty_text (hp_window_get_tree_view (window)));

    /* the same for a process: other had no page faults, and stays chosen */
    gtk_drop_down_set_selected (processes, find_entry (processes, "other (200"));
    g_assert_true (display_wait (not_filtering, window, 10000));
    choose_event (window, "page-faults");
    display_spin (50);
    g_assert_cmpstr (entry (processes, gtk_drop_down_get_selected (processes)), ==, "other (200, 0 page faults)");
    g_assert_true (g_hash_table_contains (shown (window)->tids, GINT_TO_POINTER (201)));
    g_assert_cmpuint (gtk_drop_down_get_selected (threads), !=, GTK_INVALID_LIST_POSITION);
  }
  display_close (window);
}

static gboolean
is_shown_label (GtkWidget     *widget,
                gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget)
         && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

/* At 1024x700, the smallest screen the window is made for, no choice of
 * event or process widens the window: the event and process filters
 * asked for their whole text ("wall: time on and off the CPU", "other
 * (200, 200 ms)"), and the window grew to 1095 pixels, past the screen.
 * And the event chosen can be read there. */
static void
test_narrow_window (void)
{
  g_autofree char *path = make_capture ();
  static const char *events[] = { "cpu-clock", "page-faults", "off-cpu", "wall" };
  HpWindow *window = display_open_sized (app, path, 1024, 700);
  GtkDropDown *processes = hp_window_get_process_dropdown (window);
  GtkDropDown *threads = hp_window_get_thread_dropdown (window);
  const char *shots = g_getenv ("HOTPATH_TEST_SHOTS");
  /* 1024 and the frame the window draws around itself */
  int width = gtk_widget_get_width (GTK_WIDGET (window));

  for (guint e = 0; e < G_N_ELEMENTS (events); e++)
    {
      GtkLabel *chosen;

      choose_event (window, events[e]);
      /* the button names the event whole; what it counts is in the list
       * and the tooltip ("page-faults: page faults" read "page-fa…") */
      chosen = GTK_LABEL (display_find_widget (GTK_WIDGET (hp_event_selector_get_dropdown (hp_window_get_event_selector (window))),
                                               is_shown_label, events[e]));
      g_assert_nonnull (chosen);
      g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (chosen)));
      for (guint i = 0; i < g_list_model_get_n_items (gtk_drop_down_get_model (processes)); i++)
        {
          int min_width = 0;

          gtk_drop_down_set_selected (processes, i);
          g_assert_true (display_wait (not_filtering, window, 10000));
          display_spin (50);
          gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1,
                              &min_width, NULL, NULL, NULL);
          g_test_message ("%s, %s: window %d wide, at least %d", events[e],
                          entry (processes, i), gtk_widget_get_width (GTK_WIDGET (window)), min_width);
          g_assert_cmpint (min_width, <=, width);
          g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), ==, width);
        }
    }
  /* and what the thread filter keeps can be read there too, whole: "All
   * threads (4.00 s)" read "All threads (4.0…", a process's entry was cut
   * at 28 characters. (A single thread's entry, "Thread app in main
   * (101, 800 ms)", still is cut beside the process filter and "wall".) */
  gtk_drop_down_set_selected (processes, 0);
  g_assert_true (display_wait (not_filtering, window, 10000));
  for (guint i = 0; i < g_list_model_get_n_items (gtk_drop_down_get_model (threads)); i++)
    {
      GtkLabel *chosen;

      gtk_drop_down_set_selected (threads, i);
      g_assert_true (display_wait (not_filtering, window, 10000));
      display_spin (50);
      chosen = GTK_LABEL (display_find_widget (GTK_WIDGET (threads), is_shown_label, entry (threads, i)));
      g_assert_nonnull (chosen);
      g_test_message ("thread entry %u: %s, %d px wide", i, entry (threads, i), gtk_widget_get_width (GTK_WIDGET (chosen)));
      if (shots != NULL && i == 0)
        {
          g_autofree char *png = g_build_filename (shots, "narrow-thread.png", NULL);

          display_save_png (GTK_WINDOW (window), png);
        }
      if (!g_str_has_prefix (entry (threads, i), "Thread "))
        g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (chosen)));
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), ==, width);
    }
  display_close (window);
}

/* Hiding kernel frames names what it left out in the event's unit:
 * page-faults, 30 samples of 10 faults in main > fault_in and 5 of 40
 * in the kernel alone (a kernel thread): 200 page faults left out. */
static void
test_hidden_kernel (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "kernel-events.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  HpCaptureWriter *w;
  HpWindow *window;
  gint64 mod, kmod, faults, s_fault, s_kernel;
  guint64 t = 1000000;

  g_unlink (path);
  w = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "command", "/opt/events/app");
  hp_capture_writer_set_process (w, 100, "app");
  hp_capture_writer_set_thread (w, 101, 100, "app");
  hp_capture_writer_set_thread (w, 102, 100, "kworker");
  faults = hp_capture_writer_add_event (w, "page-faults", "page faults", 0, 1);
  mod = hp_capture_writer_intern_module (w, "/opt/events/app", NULL, FALSE);
  kmod = hp_capture_writer_intern_module (w, "[kernel.kallsyms]", NULL, TRUE);
  s_fault = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (
    w, hp_capture_writer_intern_function (w, "main", mod, NULL, 0), NULL, 0, FALSE, 0x100));
  s_fault = hp_capture_writer_intern_stack (w, s_fault, hp_capture_writer_intern_frame (
    w, hp_capture_writer_intern_function (w, "fault_in", mod, NULL, 0), NULL, 0, FALSE, 0x200));
  s_kernel = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (
    w, hp_capture_writer_intern_function (w, "worker_thread", kmod, NULL, 0), NULL, 0, FALSE, 0xffffffff81000000));
  for (guint i = 0; i < 30; i++)
    hp_capture_writer_add_event_sample (w, faults, t += 1000, 101, 0, s_fault, 10);
  for (guint i = 0; i < 5; i++)
    hp_capture_writer_add_event_sample (w, faults, t += 1000, 102, 0, s_kernel, 40);
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
  hp_capture_writer_free (w);

  window = display_open (app, path);
  g_assert_cmpuint (hp_profile_get_n_samples (shown (window)->profile), ==, 500);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.hide-kernel", NULL);
  g_assert_true (display_wait (not_filtering, window, 10000));
  display_spin (50);
  g_assert_cmpuint (hp_profile_get_n_samples (shown (window)->profile), ==, 300);
  g_test_message ("filter bar: %s", hp_window_get_filter_text (window));
  g_assert_nonnull (strstr (hp_window_get_filter_text (window),
                            "Kernel frames hidden (200 page faults only in the kernel left out)"));
  display_close (window);
}

/* A capture whose ratio changes over time: cpu-clock (1 ms a sample)
 * and page faults in "app" (tid 1) and "loader" (tid 2), in main >
 * compute and main > fault_in; the faults per sample and where they
 * fall differ between the first second and the second. */
#define RATIO_FIRST G_GUINT64_CONSTANT (1000000000)

static char *
make_ratio_capture (gint64 *s_compute,
                    gint64 *s_fault)
{
  char *path = g_build_filename (display_tmpdir (), "ratio-range.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = NULL;
  gint64 module, s_main, cpu, faults;

  g_unlink (path);
  w = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  cpu = hp_capture_writer_add_event (w, "cpu-clock", "ns", 1000, 0);
  faults = hp_capture_writer_add_event (w, "page-faults", "page faults", 0, 1);
  hp_capture_writer_set_process (w, 1, "app");
  hp_capture_writer_set_thread (w, 1, 1, "app");
  hp_capture_writer_set_thread (w, 2, 1, "loader");
  module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  s_main = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (
             w, hp_capture_writer_intern_function (w, "main", module, NULL, 0), NULL, 0, FALSE, 0x10));
  *s_compute = hp_capture_writer_intern_stack (w, s_main, hp_capture_writer_intern_frame (
                 w, hp_capture_writer_intern_function (w, "compute", module, NULL, 0), NULL, 0, FALSE, 0x20));
  *s_fault = hp_capture_writer_intern_stack (w, s_main, hp_capture_writer_intern_frame (
               w, hp_capture_writer_intern_function (w, "fault_in", module, NULL, 0), NULL, 0, FALSE, 0x30));
  for (guint ms = 0; ms < 2000; ms++)
    {
      guint64 t = RATIO_FIRST + ms * G_GUINT64_CONSTANT (1000000);
      gboolean second = ms >= 1000;

      hp_capture_writer_add_event_sample (w, cpu, t, 1, 0, ms % 4 == 0 ? *s_fault : *s_compute, 1000000);
      if (second && ms % 2 == 0)
        hp_capture_writer_add_event_sample (w, cpu, t, 2, 0, *s_fault, 1000000);
      if (ms % 10 == 0)
        hp_capture_writer_add_event_sample (w, faults, t + 1, 1, 0, *s_fault, second ? 2 : 40);
      if (second && ms % 20 == 0)
        hp_capture_writer_add_event_sample (w, faults, t + 2, 1, 0, *s_compute, 1);
      if (second && ms % 5 == 0)
        hp_capture_writer_add_event_sample (w, faults, t + 3, 2, 0, *s_fault, 7);
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
  return path;
}

/* SUM(weight) of event @event in the samples of @stacks (an SQL list),
 * of @tids (an SQL list, or NULL for all) within [@from, @to] */
static guint64
sql_weight (const char *path,
            guint       event,
            const char *stacks,
            const char *tids,
            guint64     from,
            guint64     to)
{
  g_autofree char *query = g_strdup_printf ("SELECT COALESCE(SUM(weight), 0) FROM samples WHERE event_id = %u "
                                            "AND stack_id IN (%s) AND tid IN (%s) AND time >= %" G_GUINT64_FORMAT
                                            " AND time <= %" G_GUINT64_FORMAT,
                                            event, stacks, tids ? tids : "SELECT tid FROM threads", from, to);

  return (guint64) hp_test_sql_int (path, query);
}

/* The ratio of @node in the tree the window shows (top-down or
 * bottom-up): its numbers are SQL's sums of the two events' weights in
 * the range, and its cell says their ratio */
static void
assert_ratio (HpWindow         *window,
              const char       *path,
              const HpCallNode *node,
              gboolean          bottom_up,
              const char       *stacks,
              const char       *tids,
              guint64           from,
              guint64           to)
{
  HpLoadedProfile *p = shown (window);
  HpRatioMap *map = hp_loaded_profile_get_ratio_map (p, bottom_up);
  guint64 num = 0, den = 0;
  guint64 sql_num = sql_weight (path, p->ratio.numerator, stacks, tids, from, to);
  guint64 sql_den = sql_weight (path, p->ratio.denominator, stacks, tids, from, to);
  g_autoptr(HpCallTreeContext) context = hp_call_tree_context_new (p, bottom_up);
  g_autoptr(HpCallRow) row = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected = hp_format_ratio_value (&p->ratio, sql_num, sql_den);

  g_test_message ("%s, stacks %s, threads %s, %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT,
                  bottom_up ? "bottom-up" : "top-down", stacks, tids ? tids : "all", from, to);
  g_assert_nonnull (node);
  g_assert_nonnull (map);
  row = hp_call_row_new (context, node);
  g_assert_true (hp_ratio_map_lookup (map, node, &num, &den));
  g_object_get (row, "ratio", &text, NULL);
  g_test_message ("%s: %" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT " (SQL %" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT
                  "): %s", hp_profile_get_function_name (p->profile, node->function_id), num, den, sql_num, sql_den, text);
  g_assert_cmpuint (num, ==, sql_num);
  g_assert_cmpuint (den, ==, sql_den);
  g_assert_cmpstr (text, ==, expected);
}

/* The ratio column within a time range (issue 13: every view follows
 * the range): page faults per ms on the CPU of each call path, top-down
 * and bottom-up, of all threads and of one, what SQL sums over the
 * samples table in the range; whichever event the view counts. */
static void
test_ratio_range (void)
{
  gint64 s_compute, s_fault;
  g_autofree char *path = make_ratio_capture (&s_compute, &s_fault);
  g_autofree char *both = g_strdup_printf ("%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT, s_compute, s_fault);
  g_autofree char *fault = g_strdup_printf ("%" G_GINT64_FORMAT, s_fault);
  g_autofree char *compute = g_strdup_printf ("%" G_GINT64_FORMAT, s_compute);
  static const struct { guint64 from, to; } ranges[] = {
    { RATIO_FIRST + 500000000, RATIO_FIRST + 1500000000 },
    { RATIO_FIRST + 1200000000, RATIO_FIRST + 1999000000 },
    { RATIO_FIRST, RATIO_FIRST + 300000000 },
  };
  HpWindow *window = display_open (app, path);
  HpTimelineView *view = hp_window_get_timeline_view (window);
  HpTimeline *timeline = hp_timeline_view_get_timeline (view);

  g_assert_cmpint (shown (window)->ratio.kind, ==, HP_RATIO_PER_MS);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "timeline");
  g_assert_true (display_wait (samples_loaded, view, 10000));
  for (guint e = 0; e < 2; e++)
    {
      if (e == 1)
        choose_event (window, "page-faults");
      for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
        {
          guint64 from = ranges[r].from, to = ranges[r].to;
          HpLoadedProfile *p;
          const HpCallNode *main_node, *bottom;

          hp_timeline_set_selection (timeline, TRUE, from, to);
          g_assert_true (display_wait (not_filtering, window, 10000));
          p = shown (window);
          g_assert_true (p->has_range);
          main_node = child (p, hp_profile_get_top_down (p->profile), "main");
          assert_ratio (window, path, hp_profile_get_top_down (p->profile), FALSE, both, NULL, from, to);
          assert_ratio (window, path, main_node, FALSE, both, NULL, from, to);
          assert_ratio (window, path, child (p, main_node, "fault_in"), FALSE, fault, NULL, from, to);
          if (child (p, main_node, "compute") != NULL)
            assert_ratio (window, path, child (p, main_node, "compute"), FALSE, compute, NULL, from, to);
          bottom = hp_profile_get_bottom_up (p->profile);
          assert_ratio (window, path, child (p, bottom, "fault_in"), TRUE, fault, NULL, from, to);
          assert_ratio (window, path, child (p, child (p, bottom, "fault_in"), "main"), TRUE, fault, NULL, from, to);
        }
    }

  /* the loader alone, in the second second */
  hp_timeline_set_selection (timeline, TRUE, ranges[1].from, ranges[1].to);
  g_assert_true (display_wait (not_filtering, window, 10000));
  hp_timeline_toggle_thread (timeline, 2, FALSE);
  g_assert_true (display_wait (not_filtering, window, 10000));
  {
    HpLoadedProfile *p = shown (window);
    const HpCallNode *main_node = child (p, hp_profile_get_top_down (p->profile), "main");

    g_assert_nonnull (p->tids);
    assert_ratio (window, path, main_node, FALSE, both, "2", ranges[1].from, ranges[1].to);
    assert_ratio (window, path, child (p, main_node, "fault_in"), FALSE, fault, "2", ranges[1].from, ranges[1].to);
  }
  display_close (window);
}

/* SQL over the samples table of @path: what the window must count */
static gint64
sql_count (const char *path,
           guint64     from,
           guint64     to,
           GPid        pid)
{
  g_autofree char *where = NULL;

  if (pid != 0)
    where = g_strdup_printf ("time >= %" G_GUINT64_FORMAT " AND time <= %" G_GUINT64_FORMAT
                             " AND tid IN (SELECT tid FROM threads WHERE pid = %d)", from, to, pid);
  else
    where = g_strdup_printf ("time >= %" G_GUINT64_FORMAT " AND time <= %" G_GUINT64_FORMAT, from, to);
  return hp_test_sql_count (path, where);
}

static gboolean
is_label_starting (GtkWidget     *widget,
                   gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), text);
}

/* The overview's share of process @pid, as the tooltip of its list of
 * processes says it (the list itself names the busiest 8 only) */
static void
assert_overview_share (HpWindow   *window,
                       const char *path,
                       guint64     from,
                       guint64     to,
                       GPid        pid)
{
  GtkWidget *list = display_find_widget (GTK_WIDGET (hp_window_get_overview (window)), is_label_starting,
                                         "Processes by share");
  const char *tip;
  g_autofree char *share = hp_format_share_of (&shown (window)->measure, sql_count (path, from, to, pid),
                                               sql_count (path, from, to, 0));
  g_autofree char *item = g_strdup_printf ("(%d): %s", pid, share);

  g_assert_nonnull (list);
  tip = gtk_widget_get_tooltip_text (list);
  g_test_message ("overview: %s; expected %s", tip, item);
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, item));
}

/* A recording of the whole system (-a) with two busy programs: a range
 * of the timeline, then a process, then its thread, each counts what
 * SQL counts over the samples table for the same bounds and threads,
 * and the overview lists each program's share within the range. */
static void
test_system_wide_range (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "all.hotpath", NULL);
  g_autofree char *workload = g_build_filename (WORKLOAD_DIR, "events-fp", NULL);
  g_autofree char *err = NULL;
  const char *argv[] = { HOTPATH_CLI, "record", "-a", "--duration", "2", "--call-graph", "fp", "-o", path, NULL };
  int status = 0;
  GPid busy[2];
  HpWindow *window;
  HpTimelineView *view;
  HpTimeline *timeline;
  HpSampleIndex *index;
  GtkDropDown *processes, *threads;
  guint64 from, to, start, end;

  if (geteuid () != 0)
    {
      g_test_skip ("recording the whole system needs root");
      return;
    }
  g_unlink (path);
  busy[0] = hp_test_start_busy (workload, "5");
  busy[1] = hp_test_start_busy (workload, "5");
  g_usleep (200 * 1000);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                               NULL, &err, &status, NULL));
  for (guint i = 0; i < 2; i++)
    {
      kill (busy[i], SIGKILL);
      waitpid (busy[i], NULL, 0);
    }
  if (!g_spawn_check_wait_status (status, NULL))
    {
      if (strstr (err, "perf_event_paranoid") != NULL || strstr (err, "not supported") != NULL)
        {
          g_test_skip (err);
          return;
        }
      g_error ("record -a failed: %s", err);
    }

  window = display_open (app, path);
  view = hp_window_get_timeline_view (window);
  timeline = hp_timeline_view_get_timeline (view);
  processes = hp_window_get_process_dropdown (window);
  threads = hp_window_get_thread_dropdown (window);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (processes)));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "timeline");
  g_assert_true (display_wait (samples_loaded, view, 10000));
  index = hp_timeline_view_get_samples (view);
  start = hp_sample_index_get_start (index);
  end = hp_sample_index_get_end (index);
  g_assert_cmpuint (hp_profile_get_n_samples (shown (window)->profile), ==, sql_count (path, start, end, 0));

  /* the middle half of the recording */
  from = start + (end - start) / 4;
  to = start + (end - start) * 3 / 4;
  hp_timeline_set_selection (timeline, TRUE, from, to);
  g_assert_true (display_wait (not_filtering, window, 20000));
  g_assert_true (shown (window)->has_range);
  g_assert_cmpuint (hp_profile_get_n_samples (shown (window)->profile), ==, sql_count (path, from, to, 0));
  /* both busy programs, each with its share of the range */
  for (guint i = 0; i < 2; i++)
    {
      g_test_message ("busy %d: %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " samples in the range",
                      busy[i], sql_count (path, from, to, busy[i]), sql_count (path, from, to, 0));
      g_assert_cmpint (sql_count (path, from, to, busy[i]), >, 0);
      assert_overview_share (window, path, from, to, busy[i]);
    }

  /* a process within the range: its threads only */
  {
    g_autofree char *part = g_strdup_printf ("(%d, ", busy[0]);

    gtk_drop_down_set_selected (processes, find_entry (processes, part));
  }
  g_assert_true (display_wait (not_filtering, window, 20000));
  display_spin (50);
  g_assert_true (shown (window)->has_range);
  g_assert_nonnull (shown (window)->tids);
  g_assert_cmpuint (hp_profile_get_n_samples (shown (window)->profile), ==, sql_count (path, from, to, busy[0]));
  /* the overview still lists every process of the range */
  assert_overview_share (window, path, from, to, busy[1]);

  /* its thread (the program has one) within the range */
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (threads)), >=, 1);
  {
    g_autofree char *part = g_strdup_printf ("(%d, ", busy[0]);
    guint n = g_list_model_get_n_items (gtk_drop_down_get_model (threads));

    for (guint i = 0; i < n; i++)
      if (strstr (entry (threads, i), part) != NULL)
        {
          gtk_drop_down_set_selected (threads, i);
          g_assert_true (display_wait (not_filtering, window, 20000));
          display_spin (50);
          break;
        }
  }
  g_assert_cmpuint (hp_profile_get_n_samples (shown (window)->profile), ==, sql_count (path, from, to, busy[0]));

  /* another range keeps the process: its samples in the new range */
  from = start + (end - start) / 10;
  to = start + (end - start) / 2;
  hp_timeline_set_selection (timeline, TRUE, from, to);
  g_assert_true (display_wait (not_filtering, window, 20000));
  display_spin (50);
  g_assert_nonnull (shown (window)->tids);
  g_assert_cmpuint (hp_profile_get_n_samples (shown (window)->profile), ==, sql_count (path, from, to, busy[0]));
  assert_overview_share (window, path, from, to, busy[0]);

  /* no range: the process's samples in the whole recording */
  hp_timeline_set_selection (timeline, FALSE, 0, 0);
  g_assert_true (display_wait (not_filtering, window, 20000));
  display_spin (50);
  g_assert_false (shown (window)->has_range);
  g_assert_cmpuint (hp_profile_get_n_samples (shown (window)->profile), ==, sql_count (path, start, end, busy[0]));
  display_close (window);
}

static gboolean
not_preparing (gpointer data)
{
  return g_strcmp0 (hp_record_dialog_get_state (data), "preparing") != 0;
}

static gboolean
ended (gpointer data)
{
  const char *state = hp_record_dialog_get_state (data);

  return g_strcmp0 (state, "done") == 0 || g_strcmp0 (state, "failed") == 0;
}

static gboolean
window_loaded (gpointer data)
{
  return g_strcmp0 (hp_window_get_state (data), "capture") == 0 && !hp_window_is_filtering (data);
}

/* How many labels and tooltips under @widget have @part */
static guint
count_text (GtkWidget  *widget,
            const char *part)
{
  const char *tip = gtk_widget_get_tooltip_text (widget);
  guint n = 0;

  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), part) != NULL)
    n++;
  if (tip != NULL && strstr (tip, part) != NULL)
    n++;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    n += count_text (c, part);
  return n;
}

/* The Record dialog offers what record --list-events lists, each with its
 * sentence, plus off-CPU time and the whole system; a refusal is shown
 * under the choices; what it records opens with the events chosen. */
static void
test_record_dialog (void)
{
  HpWindow *window = hp_window_new (GTK_APPLICATION (app));
  g_autoptr(GArray) known = hp_event_list_known ();
  g_autofree char *listed = NULL;
  g_autofree char *workload = g_build_filename (WORKLOAD_DIR, "events-fp", NULL);
  g_autofree char *command = NULL;
  g_autofree char *why = NULL;
  HpRecordDialog *dialog;
  HpEventChooser *chooser;
  GPtrArray *names;
  guint n = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  display_spin (50);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.record", NULL));
  display_spin (100);
  dialog = hp_window_get_record_dialog (window);
  g_assert_nonnull (dialog);
  chooser = hp_record_dialog_get_event_chooser (dialog);

  /* the same events as the CLI lists, in its order, off-CPU time apart */
  g_assert_true (g_spawn_command_line_sync (HOTPATH_CLI " record --list-events", &listed, NULL, NULL, NULL));
  names = hp_event_chooser_list_events (chooser);
  for (guint i = 0; i < known->len; i++)
    {
      const HpEvent *e = &g_array_index (known, HpEvent, i);

      if (e->kind == HP_EVENT_KIND_OFF_CPU)
        continue;
      g_assert_cmpstr (g_ptr_array_index (names, n), ==, e->name);
      /* the CLI names a hardware event only where the machine has counters;
       * the dialog lists it all the same, unavailable, with the reason */
      if (e->kind != HP_EVENT_KIND_HARDWARE || hp_event_hardware_available (NULL))
        g_assert_nonnull (strstr (listed, e->name));
      else
        g_assert_nonnull (strstr (listed, "no hardware performance counters"));
      n++;
    }
  g_assert_cmpuint (names->len, ==, n);
  /* a machine without counters lists cycles, unavailable, and records
   * cpu-clock by default; one with counters, cycles */
  if (!hp_event_hardware_available (&why))
    {
      g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (hp_event_chooser_get_check (chooser, "cycles"))));
      g_assert_true (gtk_check_button_get_active (hp_event_chooser_get_check (chooser, "cpu-clock")));
      /* why is said once, above the group, not on each hardware row;
       * each row keeps its own short explanation */
      g_assert_nonnull (hp_event_chooser_get_hardware_note (chooser));
      g_assert_nonnull (strstr (hp_event_chooser_get_hardware_note (chooser), why));
      g_assert_cmpuint (count_text (GTK_WIDGET (chooser), why), ==, 1);
      for (guint i = 0; i < known->len; i++)
        {
          const HpEvent *e = &g_array_index (known, HpEvent, i);

          if (e->kind == HP_EVENT_KIND_HARDWARE)
            g_assert_cmpuint (count_text (GTK_WIDGET (chooser), e->description), >=, 1);
        }
    }
  else
    {
      g_assert_true (gtk_check_button_get_active (hp_event_chooser_get_check (chooser, "cycles")));
      g_assert_null (hp_event_chooser_get_hardware_note (chooser));
    }


  /* the list opens with room for its rows: below the dialog's last row
   * it had what was left of the screen, 1.5 rows at 1024x700 (2 here) */
  gtk_menu_button_popup (dialog->events_button);
  display_spin (300);
  {
    GtkWidget *check = GTK_WIDGET (hp_event_chooser_get_check (chooser, "cpu-clock"));
    GtkWidget *scrolled = gtk_widget_get_ancestor (check, GTK_TYPE_SCROLLED_WINDOW);
    GtkWidget *row = gtk_widget_get_ancestor (check, GTK_TYPE_LIST_BOX_ROW);

    g_test_message ("events list: %d px high, rows %d px", gtk_widget_get_height (scrolled), gtk_widget_get_height (row));
    g_assert_true (gtk_widget_get_mapped (scrolled));
    g_assert_cmpint (gtk_widget_get_height (scrolled), >=, 6 * gtk_widget_get_height (row));
  }
  gtk_menu_button_popdown (dialog->events_button);
  display_spin (100);

  /* a refusal before anything runs, under the choices and the dialog's */
  command = g_strdup_printf ("%s faults 3000", workload);
  gtk_editable_set_text (GTK_EDITABLE (hp_record_dialog_get_command_entry (dialog)), command);
  gtk_check_button_set_active (hp_event_chooser_get_check (chooser, "page-faults"), TRUE);
  gtk_editable_set_text (GTK_EDITABLE (hp_event_chooser_get_tracepoints_entry (chooser)), "nosuch:nothing");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "record.start", NULL));
  g_assert_true (display_wait (not_preparing, dialog, 10000));
  g_assert_cmpstr (hp_record_dialog_get_state (dialog), ==, "setup");
  g_assert_nonnull (strstr (hp_record_dialog_get_message (dialog), "nosuch:nothing"));
  g_assert_nonnull (hp_event_chooser_get_error (chooser));
  g_assert_nonnull (strstr (hp_event_chooser_get_error (chooser), "nosuch:nothing"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog->setup_error)));
  /* the field cleared, its error goes, under the choices and the dialog's */
  gtk_editable_set_text (GTK_EDITABLE (hp_event_chooser_get_tracepoints_entry (chooser)), "");
  display_spin (50);
  g_assert_null (hp_event_chooser_get_error (chooser));
  g_assert_null (hp_record_dialog_get_message (dialog));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog->setup_error)));

  /* off-CPU time, checked when ticked: here (root, tracefs) allowed */
  gtk_check_button_set_active (hp_event_chooser_get_off_cpu_check (chooser), TRUE);
  if (hp_event_chooser_get_error (chooser) != NULL)
    {
      /* a machine without tracefs says what is needed */
      g_assert_nonnull (strstr (hp_event_chooser_get_error (chooser), "Off-CPU time cannot be recorded here"));
      gtk_check_button_set_active (hp_event_chooser_get_off_cpu_check (chooser), FALSE);
    }
  if (screenshot_dir != NULL)
    {
      g_autofree char *path = g_build_filename (screenshot_dir, "events-record-dialog.png", NULL);

      g_mkdir_with_parents (screenshot_dir, 0755);
      gtk_menu_button_popup (dialog->events_button);
      display_spin (400);
      display_save_png_with_popover (GTK_WINDOW (dialog), gtk_menu_button_get_popover (dialog->events_button), path);
      gtk_menu_button_popdown (dialog->events_button);
    }
  g_assert_nonnull (strstr (gtk_menu_button_get_label (dialog->events_button), "cpu-clock, page-faults"));

  /* recorded with the events chosen, and opened with them */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "record.start", NULL));
  g_assert_true (display_wait (not_preparing, dialog, 10000));
  if (g_strcmp0 (hp_record_dialog_get_state (dialog), "failed") == 0 &&
      strstr (hp_record_dialog_get_message (dialog), "perf_event_paranoid") != NULL)
    {
      g_test_skip (hp_record_dialog_get_message (dialog));
      return;
    }
  g_assert_true (display_wait (ended, dialog, 90000));
  if (g_strcmp0 (hp_record_dialog_get_state (dialog), "done") != 0)
    g_error ("recording failed: %s", hp_record_dialog_get_message (dialog));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "record.open-capture", NULL));
  g_assert_true (display_wait (window_loaded, window, 30000));
  {
    HpLoadedProfile *p = shown (window);

    g_assert_cmpuint (hp_capture_data_find_event (p->capture->data, "cpu-clock"), ==, 1);
    g_assert_cmpuint (hp_capture_data_find_event (p->capture->data, "page-faults"), ==, 2);
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (hp_window_get_event_selector (window))));
  }
  display_close (window);
}

/* The recorder counts truncated stacks and lost samples over every event,
 * so the overview gives their share of all of them: 65 truncated stacks
 * of the 1,180 samples of the three events are 5.5 %, not 6.5 % of
 * cpu-clock's 1,000, whichever event is shown. */
static void
test_truncated_share (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "events-truncated.hotpath", NULL);
  HpWindow *window;
  sqlite3 *db = NULL;

  hp_test_make_events_capture (path, &(HpTestEventsCapture) { .whole_system = TRUE });
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "INSERT OR REPLACE INTO metadata (key, value) VALUES ('truncated_stacks', '65')",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  window = display_open (app, path);
  g_assert_cmpstr (hp_capture_overview_get_value (hp_window_get_overview (window), "truncated"), ==, "5.5 % (65 samples)");
  choose_event (window, "off-cpu");
  g_assert_cmpstr (hp_capture_overview_get_value (hp_window_get_overview (window), "truncated"), ==, "5.5 % (65 samples)");
  display_close (window);
}

static int
run (HpApplication *application)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);

  app = application;
  /* the dialog test looks at the result page before opening the capture */
  g_settings_set_boolean (settings, "record-close-when-done", FALSE);
  g_test_add_func ("/events/selector-units-ratio-wall-processes", test_events);
  g_test_add_func ("/events/record-dialog", test_record_dialog);
  g_test_add_func ("/events/hidden-kernel", test_hidden_kernel);
  g_test_add_func ("/events/ratio-range", test_ratio_range);
  g_test_add_func ("/events/narrow-window", test_narrow_window);
  g_test_add_func ("/events/system-wide-range-process", test_system_wide_range);
  g_test_add_func ("/events/truncated-share", test_truncated_share);
  return g_test_run ();
}

int
main (int   argc,
      char *argv[])
{
  screenshot_dir = display_take_screenshots_option (&argc, argv);
  return display_run (argc, argv, run);
}
