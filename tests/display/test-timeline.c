/* test-timeline.c - the timeline in the real window: lanes, ranges, threads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A capture written here has two processes, "app" (pid 100: threads 100
 * "app" and 101 "worker") and "helper" (pid 200: thread 200), sampled at
 * known times. The timeline shows one lane per thread, grouped by process
 * and named by thread and start function; selecting a range or a lane
 * rebuilds the profile every view shows, and its sample count is what SQL
 * counts over the samples table for the same bounds and threads.
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <string.h>

#include "document/hp-format.h"
#include "display-common.h"

#define FIRST G_GINT64_CONSTANT (1000000000)

static HpApplication *app;

static void
write_capture (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  const char *starts[] = { "main", "worker_loop", "helper_main" };
  gint64 module, libc, stacks[3];
  gint64 start_thread;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  hp_capture_writer_set_metadata_int (w, "frequency", 1000);
  hp_capture_writer_set_process (w, 100, "app");
  hp_capture_writer_set_process (w, 200, "helper");
  hp_capture_writer_set_thread (w, 100, 100, "app");
  hp_capture_writer_set_thread (w, 101, 100, "worker");
  hp_capture_writer_set_thread (w, 200, 200, "helper");
  module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  libc = hp_capture_writer_intern_module (w, "/usr/lib/libc.so.6", NULL, FALSE);
  start_thread = hp_capture_writer_intern_function (w, "start_thread", libc, NULL, 0);
  for (guint i = 0; i < 3; i++)
    {
      gint64 fn = hp_capture_writer_intern_function (w, starts[i], module, NULL, 0);
      gint64 leaf = hp_capture_writer_intern_function (w, "compute", module, NULL, 0);
      gint64 root = i == 1 ? hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w, start_thread, NULL, 0, FALSE, 0x10)) : 0;
      gint64 s = hp_capture_writer_intern_stack (w, root, hp_capture_writer_intern_frame (w, fn, NULL, 0, FALSE, 0x100 * (i + 1)));

      stacks[i] = hp_capture_writer_intern_stack (w, s, hp_capture_writer_intern_frame (w, leaf, NULL, 0, FALSE, 0x1000 + i));
    }
  /* app all along, worker in the first second, helper in the second */
  for (guint ms = 0; ms < 2000; ms++)
    {
      guint64 t = (guint64) FIRST + ms * G_GUINT64_CONSTANT (1000000);

      hp_capture_writer_add_sample (w, t, 100, 0, stacks[0], 1000000);
      if (ms < 1000 && ms % 2 == 0)
        hp_capture_writer_add_sample (w, t, 101, 0, stacks[1], 1000000);
      if (ms >= 1000 && ms % 4 == 0)
        hp_capture_writer_add_sample (w, t, 200, 0, stacks[2], 1000000);
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
}

static gboolean
samples_loaded (gpointer data)
{
  return hp_timeline_view_get_samples (data) != NULL;
}

static gboolean
settled (gpointer data)
{
  return !hp_window_is_filtering (data) && !hp_window_is_following (data);
}

static guint64
shown_samples (HpWindow *window)
{
  HpLoadedProfile *p = hp_call_tree_view_get_profile (hp_window_get_tree_view (window));

  return hp_profile_get_n_samples (p->profile);
}

static void
test_timeline (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "timeline.hotpath", NULL);
  HpWindow *window;
  HpTimelineView *view;
  HpTimeline *timeline;
  g_autoptr(GPtrArray) labels = NULL;
  gint64 expected;
  guint layers;

  write_capture (path);
  window = display_open (app, path);
  view = hp_window_get_timeline_view (window);
  timeline = hp_timeline_view_get_timeline (view);
  g_assert_cmpuint (shown_samples (window), ==, hp_test_sql_count (path, "1"));

  /* the flame graph and the callers, shown first, hold the whole profile */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "flame"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "calls"));
  g_assert_nonnull (hp_flame_view_get_profile (hp_window_get_flame_view (window)));
  g_assert_nonnull (hp_calls_view_get_profile (hp_window_get_calls_view (window)));

  /* the samples are read when the pane is first shown */
  g_assert_null (hp_timeline_view_get_samples (view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "timeline"));
  g_assert_true (display_wait (samples_loaded, view, 10000));

  labels = hp_timeline_get_lane_labels (timeline);
  g_assert_cmpuint (labels->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (labels, 0), ==, "app (100) — main");
  g_assert_cmpstr (g_ptr_array_index (labels, 1), ==, "worker (101) — worker_loop");
  g_assert_cmpstr (g_ptr_array_index (labels, 2), ==, "helper (200) — helper_main");

  /* a range: every view shows exactly its samples; the lanes, whose
   * threads stay the same, are not counted and drawn again for it */
  display_spin (100);
  layers = hp_timeline_get_n_layers (timeline);
  g_assert_cmpuint (layers, >, 0);
  hp_timeline_set_selection (timeline, TRUE, FIRST + 500000000, FIRST + 1250000000);
  g_assert_true (display_wait (settled, window, 10000));
  display_spin (100);
  g_assert_cmpuint (hp_timeline_get_n_layers (timeline), ==, layers);
  expected = hp_test_sql_count (path, "time >= 1500000000 AND time <= 2250000000");
  g_assert_cmpuint (shown_samples (window), ==, expected);
  g_assert_true (hp_call_tree_view_get_profile (hp_window_get_tree_view (window))->has_range);
  g_assert_nonnull (strstr (hp_timeline_view_get_status (view), "0.500 s to 1.250 s (0.750 s)"));
  {
    g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, expected);
    const char *overview = hp_capture_overview_get_value (hp_window_get_overview (window), "samples");

    g_test_message ("overview: %s", overview);
    g_assert_nonnull (strstr (overview, count));
  }

  /* the panes hidden behind the timeline do not follow the new profile,
   * nor keep the one it replaced (its blocks serve the next build); each
   * catches up when shown */
  g_assert_null (hp_source_view_get_profile (hp_window_get_source_view (window)));
  g_assert_null (hp_flame_view_get_profile (hp_window_get_flame_view (window)));
  g_assert_null (hp_calls_view_get_profile (hp_window_get_calls_view (window)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "source"));
  g_assert_true (hp_source_view_get_profile (hp_window_get_source_view (window)) ==
                 hp_call_tree_view_get_profile (hp_window_get_tree_view (window)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "flame"));
  g_assert_true (hp_flame_view_get_profile (hp_window_get_flame_view (window)) ==
                 hp_call_tree_view_get_profile (hp_window_get_tree_view (window)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "timeline"));

  /* a lane: that thread only, within the range */
  hp_timeline_toggle_thread (timeline, 101, FALSE);
  g_assert_true (display_wait (settled, window, 10000));
  display_spin (100);
  g_assert_cmpuint (hp_timeline_get_n_layers (timeline), >, layers);  /* the lanes show which */
  g_assert_cmpuint (shown_samples (window), ==,
                    hp_test_sql_count (path, "tid = 101 AND time >= 1500000000 AND time <= 2250000000"));
  /* Ctrl: and the helper too */
  hp_timeline_toggle_thread (timeline, 200, TRUE);
  g_assert_true (display_wait (settled, window, 10000));
  g_assert_cmpuint (shown_samples (window), ==,
                    hp_test_sql_count (path, "tid IN (101, 200) AND time >= 1500000000 AND time <= 2250000000"));
  /* the dropdown says so: it kept showing the worker alone */
  {
    GtkDropDown *threads = hp_window_get_thread_dropdown (window);
    guint n_entries = g_list_model_get_n_items (gtk_drop_down_get_model (threads));
    GtkStringObject *item = gtk_drop_down_get_selected_item (threads);

    g_assert_cmpstr (gtk_string_object_get_string (item), ==, "2 threads chosen in the timeline");
    /* the worker alone again: its own entry, and that one gone */
    hp_timeline_toggle_thread (timeline, 200, TRUE);
    g_assert_true (display_wait (settled, window, 10000));
    item = gtk_drop_down_get_selected_item (threads);
    g_assert_nonnull (strstr (gtk_string_object_get_string (item), "worker"));
    g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (threads)), ==, n_entries - 1);
    hp_timeline_toggle_thread (timeline, 200, TRUE);
    g_assert_true (display_wait (settled, window, 10000));
  }

  /* the thread dropdown still chooses, and the lanes follow it */
  gtk_drop_down_set_selected (hp_window_get_thread_dropdown (window), 0);
  g_assert_true (display_wait (settled, window, 10000));
  g_assert_null (hp_timeline_get_selected_tids (timeline));
  g_assert_cmpuint (shown_samples (window), ==, expected);

  /* clearing the range shows everything again */
  hp_timeline_set_selection (timeline, FALSE, 0, 0);
  g_assert_true (display_wait (settled, window, 10000));
  g_assert_cmpuint (shown_samples (window), ==, hp_test_sql_count (path, "1"));
  g_assert_false (hp_call_tree_view_get_profile (hp_window_get_tree_view (window))->has_range);

  /* zooming changes what the lanes show, not the profile */
  hp_timeline_set_selection (timeline, TRUE, FIRST, FIRST + 100000000);
  hp_timeline_zoom_to_selection (timeline);
  g_assert_cmpuint (hp_timeline_time_at (timeline, 1e6), ==, FIRST + 100000000);
  hp_timeline_zoom_out (timeline);
  g_assert_true (display_wait (settled, window, 10000));
  g_assert_cmpuint (shown_samples (window), ==, hp_test_sql_count (path, "time <= 1100000000"));

  display_close (window);
}

/* The position of the entry of @dropdown that holds @part */
static guint
find_entry (GtkDropDown *dropdown,
            const char  *part)
{
  GListModel *model = gtk_drop_down_get_model (dropdown);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (model, i);

      if (strstr (gtk_string_object_get_string (item), part) != NULL)
        return i;
    }
  g_error ("no entry has %s", part);
}

/* The entry of @dropdown that holds @part */
static const char *
entry_with (GtkDropDown *dropdown,
            const char  *part)
{
  g_autoptr(GtkStringObject) item = g_list_model_get_item (gtk_drop_down_get_model (dropdown),
                                                           find_entry (dropdown, part));

  /* the model keeps the string */
  return gtk_string_object_get_string (item);
}

/* The entry of @dropdown that holds @part says, after @part, what SQL
 * counts over the samples table where @where, within [@from, @to]. */
static void
assert_entry_counts (HpWindow    *window,
                     GtkDropDown *dropdown,
                     const char  *part,
                     const char  *path,
                     const char  *where,
                     gboolean     has_range,
                     guint64      from,
                     guint64      to)
{
  g_autofree char *range = has_range ? g_strdup_printf (" AND time >= %" G_GUINT64_FORMAT " AND time <= %" G_GUINT64_FORMAT,
                                                        from, to)
                                     : g_strdup ("");
  g_autofree char *query = g_strdup_printf ("%s%s", where, range);
  g_autofree char *amount = hp_format_amount (&hp_call_tree_view_get_profile (hp_window_get_tree_view (window))->measure,
                                              hp_test_sql_count (path, query));
  g_autofree char *expected = g_strdup_printf ("%s%s)", part, amount);
  const char *shown = entry_with (dropdown, part);

  g_test_message ("%s: expected %s", shown, expected);
  g_assert_nonnull (strstr (shown, expected));
}

/* Both filters' entries say what SQL counts of them in the range */
static void
assert_filter_counts (HpWindow   *window,
                      const char *path,
                      gboolean    has_range,
                      guint64     from,
                      guint64     to)
{
  GtkDropDown *threads = hp_window_get_thread_dropdown (window);
  GtkDropDown *processes = hp_window_get_process_dropdown (window);

  assert_entry_counts (window, threads, "All threads (", path, "1", has_range, from, to);
  assert_entry_counts (window, threads, "Process app (100, ", path, "tid IN (100, 101)", has_range, from, to);
  assert_entry_counts (window, threads, "Thread app in main (100, ", path, "tid = 100", has_range, from, to);
  assert_entry_counts (window, threads, "Thread worker in worker_loop (101, ", path, "tid = 101", has_range, from, to);
  assert_entry_counts (window, threads, "Thread helper in helper_main (200, ", path, "tid = 200", has_range, from, to);
  assert_entry_counts (window, processes, "All processes (", path, "1", has_range, from, to);
  assert_entry_counts (window, processes, "app (100, ", path, "tid IN (100, 101)", has_range, from, to);
  assert_entry_counts (window, processes, "helper (200, ", path, "tid = 200", has_range, from, to);
}

/* The thread and process filters, the keyboard's way to the lanes, say
 * what each entry holds in the range ("All threads (3234 samples)" while
 * the range held 1158), with the same entries in the same order: the
 * helper, idle in the first second, stays listed. What is chosen stays
 * chosen as the range moves, threads chosen in the lanes too. */
static void
test_filter_counts (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "timeline-counts.hotpath", NULL);
  HpWindow *window;
  HpTimelineView *view;
  HpTimeline *timeline;
  GtkDropDown *threads, *processes;
  guint n_threads, n_processes, worker;
  g_autofree char *helper_entry = NULL;

  write_capture (path);
  window = display_open (app, path);
  view = hp_window_get_timeline_view (window);
  timeline = hp_timeline_view_get_timeline (view);
  threads = hp_window_get_thread_dropdown (window);
  processes = hp_window_get_process_dropdown (window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "timeline"));
  g_assert_true (display_wait (samples_loaded, view, 10000));
  assert_filter_counts (window, path, FALSE, 0, 0);
  n_threads = g_list_model_get_n_items (gtk_drop_down_get_model (threads));
  n_processes = g_list_model_get_n_items (gtk_drop_down_get_model (processes));
  g_assert_cmpuint (n_threads, ==, 5);
  g_assert_cmpuint (n_processes, ==, 3);

  /* 0.5 s to 1.25 s */
  hp_timeline_set_selection (timeline, TRUE, FIRST + 500000000, FIRST + 1250000000);
  g_assert_true (display_wait (settled, window, 10000));
  assert_filter_counts (window, path, TRUE, FIRST + 500000000, FIRST + 1250000000);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (threads)), ==, n_threads);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (processes)), ==, n_processes);

  /* the first half second, where the helper has nothing: listed all the same */
  hp_timeline_set_selection (timeline, TRUE, FIRST, FIRST + 500000000);
  g_assert_true (display_wait (settled, window, 10000));
  assert_filter_counts (window, path, TRUE, FIRST, FIRST + 500000000);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (threads)), ==, n_threads);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (processes)), ==, n_processes);
  helper_entry = g_strdup (entry_with (threads, "(200, "));
  g_assert_nonnull (strstr (helper_entry, "(200, 0 samples)"));

  /* the worker chosen from the dropdown stays chosen, recounted */
  worker = find_entry (threads, "(101, ");
  gtk_drop_down_set_selected (threads, worker);
  g_assert_true (display_wait (settled, window, 10000));
  g_assert_cmpuint (shown_samples (window), ==,
                    hp_test_sql_count (path, "tid = 101 AND time >= 1000000000 AND time <= 1500000000"));
  hp_timeline_set_selection (timeline, TRUE, FIRST + 250000000, FIRST + 750000000);
  g_assert_true (display_wait (settled, window, 10000));
  g_assert_cmpuint (gtk_drop_down_get_selected (threads), ==, worker);
  g_assert_cmpuint (shown_samples (window), ==,
                    hp_test_sql_count (path, "tid = 101 AND time >= 1250000000 AND time <= 1750000000"));
  assert_filter_counts (window, path, TRUE, FIRST + 250000000, FIRST + 750000000);

  /* two threads chosen in the lanes keep their entry as the range moves */
  hp_timeline_toggle_thread (timeline, 200, TRUE);
  g_assert_true (display_wait (settled, window, 10000));
  hp_timeline_set_selection (timeline, TRUE, FIRST + 750000000, FIRST + 1500000000);
  g_assert_true (display_wait (settled, window, 10000));
  g_assert_cmpstr (gtk_string_object_get_string (gtk_drop_down_get_selected_item (threads)), ==,
                   "2 threads chosen in the timeline");
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (threads)), ==, n_threads + 1);
  g_assert_cmpuint (shown_samples (window), ==,
                    hp_test_sql_count (path, "tid IN (101, 200) AND time >= 1750000000 AND time <= 2500000000"));
  assert_filter_counts (window, path, TRUE, FIRST + 750000000, FIRST + 1500000000);

  /* no range: the whole capture's counts again */
  gtk_drop_down_set_selected (threads, 0);
  hp_timeline_set_selection (timeline, FALSE, 0, 0);
  g_assert_true (display_wait (settled, window, 10000));
  assert_filter_counts (window, path, FALSE, 0, 0);
  display_close (window);
}

/* A capture of @n_threads threads in two processes (pids @pid and
 * @pid + 100), each thread named @prefix and its number, with samples of
 * @function all along: more lanes than the bottom pane's share of
 * 1024×700 shows. */
static void
write_threads (const char *path,
               guint       n_threads,
               const char *prefix,
               const char *function,
               gint64      first_pid)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 module, stack;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  hp_capture_writer_set_metadata_int (w, "frequency", 1000);
  hp_capture_writer_set_process (w, first_pid, "app");
  hp_capture_writer_set_process (w, first_pid + 100, "child");
  module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  stack = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (
                                            w, hp_capture_writer_intern_function (w, function, module, NULL, 0),
                                            NULL, 0, FALSE, 0x1000));
  for (guint t = 0; t < n_threads; t++)
    {
      g_autofree char *name = g_strdup_printf ("%s%u", prefix, t);
      gint64 pid = t < n_threads / 2 ? first_pid : first_pid + 100;

      hp_capture_writer_set_thread (w, pid + t, pid, name);
      for (guint ms = 0; ms < 500; ms++)
        hp_capture_writer_add_sample (w, (guint64) FIRST + ms * G_GUINT64_CONSTANT (1000000), pid + t, 0, stack, 1000000);
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
}

static gboolean
lanes_fit (gpointer data)
{
  GtkWidget *lanes = GTK_WIDGET (hp_timeline_view_get_timeline (data));
  GtkWidget *scrolled = gtk_widget_get_ancestor (lanes, GTK_TYPE_SCROLLED_WINDOW);
  int natural = 0;

  gtk_widget_measure (lanes, GTK_ORIENTATION_VERTICAL, -1, NULL, &natural, NULL, NULL);
  return gtk_widget_get_mapped (scrolled) && gtk_widget_get_height (scrolled) >= natural;
}

/* At 1024×700 the bottom pane showed four lanes and cut the fifth, its
 * overlay scrollbar hidden: the call tree gives the Timeline the height
 * its lanes need (up to half), and takes it back for the other pages. */
static void
test_lanes_fit (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "many-threads.hotpath", NULL);
  HpWindow *window;
  HpTimelineView *view;
  GtkPaned *side;
  int side_position;

  write_threads (path, 6, "worker-", "compute", 100);
  window = display_open_sized (app, path, 1024, 700);
  view = hp_window_get_timeline_view (window);
  side = GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_PANED));
  side_position = gtk_paned_get_position (side);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "timeline"));
  g_assert_true (display_wait (samples_loaded, view, 10000));
  g_assert_true (display_wait (lanes_fit, view, 5000));
  g_test_message ("call tree %d px, then %d px with the timeline",
                  side_position, gtk_paned_get_position (side));
  g_assert_cmpint (gtk_paned_get_position (side), <, side_position);
  /* the pane's page takes at most half, so the tree keeps well over a
   * third with the pane's tabs */
  g_assert_cmpint (gtk_paned_get_position (side), >=, gtk_widget_get_height (GTK_WIDGET (side)) / 3);

  /* closed with the Timeline shown, the next window opens with the
   * call tree's own height, not the Timeline's share (CI failed on the
   * next test's window opening at 301 px) */
  display_close (window);
  window = display_open_sized (app, path, 1024, 700);
  side = GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (hp_window_get_timeline_view (window)), GTK_TYPE_PANED));
  g_assert_cmpint (gtk_paned_get_position (side), ==, side_position);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "source"));
  display_spin (100);
  g_assert_cmpint (gtk_paned_get_position (side), ==, side_position);

  display_close (window);
}

/* At 1024×700 every lane's name was cut after its thread id, "hp-worker-1
 * (15082) — w…": the names' column was a fifth of the width, whatever
 * the names. It takes the widest name's width now (up to 40 %). */
static void
test_names_fit (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "named-threads.hotpath", NULL);
  HpWindow *window;
  HpTimelineView *view;
  HpTimeline *timeline;
  g_autoptr(GPtrArray) labels = NULL;

  write_threads (path, 4, "hp-worker-", "worker_one_work", 15078);
  window = display_open_sized (app, path, 1024, 700);
  view = hp_window_get_timeline_view (window);
  timeline = hp_timeline_view_get_timeline (view);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "timeline"));
  g_assert_true (display_wait (samples_loaded, view, 10000));
  display_spin (200);
  labels = hp_timeline_get_lane_labels (timeline);
  g_assert_cmpuint (labels->len, ==, 4);
  g_assert_cmpstr (g_ptr_array_index (labels, 0), ==, "hp-worker-0 (15078) — worker_one_work");
  g_test_message ("timeline %d px wide: %u of %u names cut", gtk_widget_get_width (GTK_WIDGET (timeline)),
                  hp_timeline_count_cut_names (timeline), labels->len);
  g_assert_cmpuint (hp_timeline_count_cut_names (timeline), ==, 0);
  /* the lanes keep most of the width */
  g_assert_cmpuint (hp_timeline_time_at (timeline, gtk_widget_get_width (GTK_WIDGET (timeline)) * 0.45), >,
                    hp_timeline_time_at (timeline, 0));
  display_close (window);
}

static const char *
status_count (HpTimelineView *view)
{
  const char *status = hp_timeline_view_get_status (view);

  return strstr (status, "): ") != NULL ? strstr (status, "): ") + 3 : status;
}

/* A capture of two events (issue 19): cpu-clock in thread 1 every ms for
 * 2 s, page faults in thread 2 during the second second only. A range
 * and the lanes count the event the views show, never the other's
 * samples; set to page faults, the lanes and the count follow. */
static void
test_events (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "two-events.hotpath", NULL);
  HpWindow *window;
  HpTimelineView *view;
  HpTimeline *timeline;
  HpLoadedProfile *profile;
  g_autofree char *expected = NULL;

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
    gint64 module, stack, cpu, faults;

    g_assert_no_error (error);
    cpu = hp_capture_writer_add_event (w, "cpu-clock", "ns", 1000, 0);
    faults = hp_capture_writer_add_event (w, "page-faults", "page faults", 0, 1);
    hp_capture_writer_set_process (w, 1, "app");
    hp_capture_writer_set_thread (w, 1, 1, "app");
    hp_capture_writer_set_thread (w, 2, 1, "loader");
    module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
    stack = hp_capture_writer_intern_stack (w, 0,
              hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "main", module, NULL, 0),
                                              NULL, 0, FALSE, 0x10));
    for (guint ms = 0; ms < 2000; ms++)
      {
        guint64 t = (guint64) FIRST + ms * G_GUINT64_CONSTANT (1000000);

        hp_capture_writer_add_event_sample (w, cpu, t, 1, 0, stack, 1000000);
        if (ms >= 1000 && ms % 2 == 0)
          hp_capture_writer_add_event_sample (w, faults, t, 2, 0, stack, 3);
      }
    g_assert_true (hp_capture_writer_finish (w, &error));
  }

  window = display_open (app, path);
  view = hp_window_get_timeline_view (window);
  timeline = hp_timeline_view_get_timeline (view);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "timeline"));
  g_assert_true (display_wait (samples_loaded, view, 10000));
  g_assert_cmpuint (shown_samples (window), ==, hp_test_sql_count (path, "event_id = 1"));
  /* the views show the first event, and so do the lanes */
  profile = hp_call_tree_view_get_profile (hp_window_get_tree_view (window));
  g_assert_cmpuint (hp_timeline_get_event_mask (timeline), ==, hp_loaded_profile_event_mask (profile->data));
  g_assert_cmpuint (hp_timeline_get_event_mask (timeline), ==, 1 << 0);

  /* the last 1.5 s: the range counts cpu-clock alone */
  hp_timeline_set_selection (timeline, TRUE, FIRST + 500000000, FIRST + 2000000000);
  g_assert_true (display_wait (settled, window, 10000));
  g_assert_cmpuint (shown_samples (window), ==,
                    hp_test_sql_count (path, "event_id = 1 AND time >= 1500000000 AND time <= 3000000000"));
  expected = g_strdup_printf ("%" G_GINT64_FORMAT " samples",
                              hp_test_sql_count (path, "event_id = 1 AND time >= 1500000000 AND time <= 3000000000"));
  g_assert_cmpstr (status_count (view), ==, expected);

  /* page faults shown: the status counts them (the event selector of
   * the window sets this through the profile it builds) */
  hp_timeline_view_set_event_mask (view, 1 << 1);
  g_assert_cmpuint (hp_timeline_get_event_mask (timeline), ==, 1 << 1);
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("%" G_GINT64_FORMAT " samples",
                              hp_test_sql_count (path, "event_id = 2 AND time >= 1500000000 AND time <= 3000000000"));
  g_assert_cmpstr (status_count (view), ==, expected);
  display_close (window);
}

static gboolean
flame_shown (gpointer data)
{
  HpFlameGraph *graph = hp_flame_canvas_get_graph (hp_flame_view_get_canvas (data));

  return !hp_flame_view_is_busy (data) && graph != NULL;
}

/* Merge Recursion in the main menu rebuilds every view with f → f → f as f */
static void
test_merge_recursion (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "recursion.hotpath", NULL);
  HpWindow *window;
  HpLoadedProfile *profile;
  const HpCallNode *node;

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
    gint64 module, stack = 0;
    const char *names[] = { "main", "f", "f", "f", "g" };

    g_assert_no_error (error);
    hp_capture_writer_set_metadata (w, "event", "cpu-clock");
    module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      stack = hp_capture_writer_intern_stack (w, stack,
                                              hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, names[i], module, NULL, 0),
                                                                              NULL, i, FALSE, 0x10 * i));
    for (guint i = 0; i < 10; i++)
      hp_capture_writer_add_sample (w, 1000 + i, 1, 0, stack, 1);
    g_assert_true (hp_capture_writer_finish (w, &error));
  }
  window = display_open (app, path);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.merge-recursion", NULL));
  g_assert_true (display_wait (settled, window, 10000));
  profile = hp_call_tree_view_get_profile (hp_window_get_tree_view (window));
  g_assert_true (profile->merge_recursion);
  /* main > f > g: three levels under the root */
  node = hp_profile_get_top_down (profile->profile);
  for (guint depth = 0; depth < 3; depth++)
    {
      g_assert_nonnull (node->children);
      g_assert_cmpuint (node->children->len, ==, 1);
      node = g_ptr_array_index (node->children, 0);
    }
  g_assert_cmpstr (hp_profile_get_function_name (profile->profile, node->function_id), ==, "g");
  g_assert_null (node->children);
  /* and the flame graph draws that profile: All, main, f, g */
  {
    HpFlameView *flame = hp_window_get_flame_view (window);

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "flame"));
    g_assert_true (display_wait (flame_shown, flame, 10000));
    g_assert_true (hp_flame_graph_get_profile (hp_flame_canvas_get_graph (hp_flame_view_get_canvas (flame))) == profile->profile);
    g_assert_cmpuint (hp_flame_graph_get_depth (hp_flame_canvas_get_graph (hp_flame_view_get_canvas (flame))), ==, 3);
  }
  display_close (window);
}

/* An import of folded stacks has counts, no sample times: the timeline
 * says so and why, reads no samples and offers no range, and a range set
 * anyway filters nothing. */

static gboolean
shows_bottom_up (gpointer data)
{
  return hp_call_tree_view_get_bottom_up (hp_window_get_tree_view (data));
}

/* A range's profile has the callers' tree only when the call tree shows
 * it: switching to bottom-up then builds it, in a worker for a profile
 * over the limit (lowered here to 0 nodes), and the view switches when
 * it is there. While the tree is bottom-up, a range's worker builds it. */
static void
test_bottom_up_later (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "timeline-bottom-up.hotpath", NULL);
  HpWindow *window;
  HpTimelineView *view;
  HpTimeline *timeline;
  HpCallTreeView *tree;
  HpLoadedProfile *profile;
  gint64 expected;

  write_capture (path);
  window = display_open (app, path);
  view = hp_window_get_timeline_view (window);
  timeline = hp_timeline_view_get_timeline (view);
  tree = hp_window_get_tree_view (window);
  /* the first profile has both trees */
  g_assert_true (hp_profile_has_bottom_up (hp_call_tree_view_get_profile (tree)->profile));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "timeline"));
  g_assert_true (display_wait (samples_loaded, view, 10000));

  hp_timeline_set_selection (timeline, TRUE, FIRST + 500000000, FIRST + 1250000000);
  g_assert_true (display_wait (settled, window, 10000));
  display_spin (100);  /* the idle that prepares the hidden tree */
  profile = hp_call_tree_view_get_profile (tree);
  g_assert_false (hp_profile_has_bottom_up (profile->profile));

  hp_call_tree_view_set_bottom_up_at_once (0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.tree-mode", "s", "bottom-up"));
  g_assert_false (hp_call_tree_view_get_bottom_up (tree));
  g_assert_true (display_wait (shows_bottom_up, window, 10000));
  g_assert_true (hp_call_tree_view_get_profile (tree) == profile);
  g_assert_true (hp_profile_has_bottom_up (profile->profile));
  expected = hp_test_sql_count (path, "time >= 1500000000 AND time <= 2250000000");
  g_assert_cmpuint (hp_profile_get_bottom_up (profile->profile)->total, ==, expected);
  g_assert_cmpuint (g_list_model_get_n_items (hp_call_tree_view_get_model (tree)), >, 0);

  /* shown: the next range's worker builds it */
  hp_timeline_set_selection (timeline, TRUE, FIRST, FIRST + 1000000000);
  g_assert_true (display_wait (settled, window, 10000));
  profile = hp_call_tree_view_get_profile (tree);
  g_assert_true (hp_call_tree_view_get_bottom_up (tree));
  g_assert_true (hp_profile_has_bottom_up (profile->profile));
  g_assert_cmpuint (hp_profile_get_bottom_up (profile->profile)->total, ==,
                    hp_test_sql_count (path, "time >= 1000000000 AND time <= 2000000000"));

  /* asked for and taken back before the worker is done: top-down */
  display_activate (window, "win.tree-mode", g_variant_new_string ("top-down"));
  hp_timeline_set_selection (timeline, TRUE, FIRST + 500000000, FIRST + 1250000000);
  g_assert_true (display_wait (settled, window, 10000));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.tree-mode", "s", "bottom-up"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.tree-mode", "s", "top-down"));
  display_spin (300);
  g_assert_false (hp_call_tree_view_get_bottom_up (tree));

  hp_call_tree_view_set_bottom_up_at_once (50000);
  display_close (window);
}

static void
test_timeless (void)
{
  g_autofree char *folded = g_build_filename (display_tmpdir (), "app.folded", NULL);
  g_autofree char *path = g_build_filename (display_tmpdir (), "app-folded.hotpath", NULL);
  const char *argv[] = { HOTPATH_CLI, "import", "--force", "-o", path, folded, NULL };
  g_autoptr(GError) error = NULL;
  HpWindow *window;
  HpTimelineView *view;
  const char *notice;
  int status;

  g_assert_true (g_file_set_contents (folded, "main;parse;lex 30\nmain;eval 70\n", -1, NULL));
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  window = display_open (app, path);
  view = hp_window_get_timeline_view (window);
  g_assert_cmpuint (shown_samples (window), ==, 100);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "timeline"));
  display_spin (300);
  notice = hp_timeline_view_get_notice (view);
  g_test_message ("%s", notice);
  g_assert_nonnull (notice);
  g_assert_nonnull (strstr (notice, "no sample times"));
  g_assert_nonnull (strstr (notice, "imported from folded stacks"));
  g_assert_false (hp_timeline_view_offers_range (view));
  g_assert_null (hp_timeline_view_get_samples (view));

  /* a range chosen all the same (an action, a test) keeps every count */
  hp_timeline_set_selection (hp_timeline_view_get_timeline (view), TRUE, 0, 1);
  g_assert_true (display_wait (settled, window, 10000));
  g_assert_false (hp_call_tree_view_get_profile (hp_window_get_tree_view (window))->has_range);
  g_assert_cmpuint (shown_samples (window), ==, 100);
  display_close (window);

  /* a capture with times offers the range again in a new window */
  {
    g_autofree char *timed = g_build_filename (display_tmpdir (), "timed.hotpath", NULL);

    write_capture (timed);
    window = display_open (app, timed);
    view = hp_window_get_timeline_view (window);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "timeline"));
    g_assert_true (display_wait (samples_loaded, view, 10000));
    g_assert_null (hp_timeline_view_get_notice (view));
    g_assert_true (hp_timeline_view_offers_range (view));
    display_close (window);
  }
}

static gboolean
overview_names_package (gpointer window)
{
  const char *warning = hp_capture_overview_get_value (hp_window_get_overview (window), "warning");

  return warning != NULL && strstr (warning, "-dbgsym would name") != NULL;
}

/* The overview says how much of the profile is in code without symbols,
 * in samples, and where (issue 15). */
static void
test_unsymbolized (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "stripped.hotpath", NULL);
  HpWindow *window;
  const char *warning;

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
    gint64 app_module, lib, main_stack;
    const char *leaves[] = { "liblzma.so.5+0x15a20", "compress" };
    const guint counts[] = { 80, 20 };

    g_assert_no_error (error);
    hp_capture_writer_set_metadata (w, "event", "cpu-clock");
    app_module = hp_capture_writer_intern_module (w, "/usr/bin/xz", NULL, FALSE);
    lib = hp_capture_writer_intern_module (w, "/usr/lib/x86_64-linux-gnu/liblzma.so.5", NULL, FALSE);
    main_stack = hp_capture_writer_intern_stack (w, 0,
                   hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "main", app_module, NULL, 0),
                                                   NULL, 0, FALSE, 0x10));
    for (guint i = 0; i < G_N_ELEMENTS (leaves); i++)
      {
        gint64 leaf = hp_capture_writer_intern_stack (w, main_stack,
                        hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, leaves[i], i == 0 ? lib : app_module, NULL, 0),
                                                        NULL, 0, FALSE, 0x100 * (i + 1)));

        for (guint n = 0; n < counts[i]; n++)
          hp_capture_writer_add_sample (w, 1000 + n, 1, 0, leaf, 1);
      }
    g_assert_true (hp_capture_writer_finish (w, &error));
  }
  window = display_open (app, path);
  warning = hp_capture_overview_get_value (hp_window_get_overview (window), "warning");
  g_test_message ("%s", warning);
  g_assert_nonnull (strstr (warning, "80.0 % of the samples are in code without symbols, mostly in liblzma.so.5"));
  /* and which Debian package's -dbgsym would name it, once dpkg, asked
   * off the main loop, answers (xz's liblzma5 is on every Debian) */
  if (g_find_program_in_path ("dpkg-query") != NULL)
    {
      g_assert_true (display_wait (overview_names_package, window, 30000));
      warning = hp_capture_overview_get_value (hp_window_get_overview (window), "warning");
      g_test_message ("%s", warning);
      g_assert_nonnull (strstr (warning, "mostly in liblzma.so.5: Debian's liblzma5-dbgsym would name that code."));
    }
  display_close (window);
}

static int
run (HpApplication *application)
{
  app = application;
  g_test_add_func ("/timeline/window", test_timeline);
  g_test_add_func ("/timeline/filter-counts", test_filter_counts);
  g_test_add_func ("/timeline/merge-recursion", test_merge_recursion);
  g_test_add_func ("/timeline/timeless", test_timeless);
  g_test_add_func ("/timeline/bottom-up-later", test_bottom_up_later);
  g_test_add_func ("/timeline/lanes-fit", test_lanes_fit);
  g_test_add_func ("/timeline/names-fit", test_names_fit);
  g_test_add_func ("/timeline/events", test_events);
  g_test_add_func ("/overview/unsymbolized", test_unsymbolized);
  return g_test_run ();
}

int
main (int   argc,
      char *argv[])
{
  return display_run (argc, argv, run);
}
