/* bench-views.c - the flame graph and the timeline on 1M-sample captures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * On the benchmarks' two 1M-sample captures (display_make_big_capture:
 * 20 000 and 700 000 stack nodes), in the real window, prints:
 *
 *   - the flame graph's layout, built alone (hp_flame_graph_new);
 *   - from showing the Flame Graph pane until its first frame is painted
 *     (the layout is built in a worker, then drawn), and the longest
 *     main-loop stall meanwhile;
 *   - the longest stall while the pointer moves over 60 boxes (hover
 *     redraws an overlay only), and while zooming into a deep box and out;
 *   - reading the samples for the timeline (a worker);
 *   - from selecting a third of the recording in the timeline until every
 *     view shows the filtered profile, and the longest stall meanwhile;
 *   - another range without the heartbeat, by CPU time: the worker's
 *     steps, each view's update on the main thread, the rest (the
 *     bottom-up tree's thread, freeing, drawing); then the panes hidden
 *     behind the timeline, which catch up when shown (flame graph,
 *     callers, functions, source), and the sum: what "every view
 *     follows the range" costs.
 *
 * Stalls are the largest gap between two runs of a 1 ms heartbeat, in
 * wall time and in CPU time of the main thread: on a busy machine the
 * wall gap grows with the others' load, while the CPU gap is what the
 * main loop itself spent without returning. Each step also prints the CPU
 * time of the whole process (workers and renderer included). It prints
 * numbers and asserts nothing (docs/ARCHITECTURE.md, Measuring honestly).
 * The worker's steps print their page faults too: fresh memory is what
 * made the first ranges slow (hp-block-pool.c).
 * Usage: bench-views [DIR] (makes or reuses its captures there);
 * BENCH_CAPTURES=typical or stress runs one of the two;
 * BENCH_RANGE_REPEAT=N selects N ranges in turn (a third, then the
 * second quarter to two thirds) after the timeline is read, printing
 * each, and skips the rest: for perf, and to tell the first range from
 * the following ones.
 */

#define G_LOG_DOMAIN "hp-bench"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "display-common.h"

static const char *capture_arg;
static gint64 last_beat, max_gap;
static guint beat_source;
static double last_beat_cpu, max_cpu_gap;

static double
clock_ms (clockid_t clock)
{
  struct timespec ts;

  clock_gettime (clock, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* CPU time of the whole process (the renderer's threads too), ms: on a
 * busy machine the stalls above grow with the others' load, this less. */
static double
cpu_ms (void)
{
  return clock_ms (CLOCK_PROCESS_CPUTIME_ID);
}

static gboolean
beat (gpointer data)
{
  gint64 now = g_get_monotonic_time ();
  double cpu = clock_ms (CLOCK_THREAD_CPUTIME_ID);

  if (last_beat != 0)
    {
      max_gap = MAX (max_gap, now - last_beat);
      max_cpu_gap = MAX (max_cpu_gap, cpu - last_beat_cpu);
    }
  last_beat = now;
  last_beat_cpu = cpu;
  return G_SOURCE_CONTINUE;
}

static double step_cpu, step_main_cpu;

/* Starts a step: its stalls and its CPU time count from now. */
static void
reset_gap (void)
{
  last_beat = g_get_monotonic_time ();
  last_beat_cpu = clock_ms (CLOCK_THREAD_CPUTIME_ID);
  max_gap = 0;
  max_cpu_gap = 0;
  step_cpu = cpu_ms ();
  step_main_cpu = last_beat_cpu;
}

/* The longest stall since reset_gap(), and the step's CPU time */
static char *
stall (void)
{
  return g_strdup_printf ("longest stall %.1f ms, %.1f ms of it main-thread CPU; "
                          "CPU %.1f ms, %.1f ms of it in the main thread",
                          max_gap / 1000.0, max_cpu_gap, cpu_ms () - step_cpu,
                          clock_ms (CLOCK_THREAD_CPUTIME_ID) - step_main_cpu);
}

typedef struct {
  HpFlameCanvas *canvas;
  guint          renders;
} Painted;

static gboolean
flame_painted (gpointer data)
{
  Painted *p = data;

  return hp_flame_canvas_get_graph (p->canvas) != NULL && hp_flame_canvas_get_n_renders (p->canvas) > p->renders;
}

static gboolean
samples_loaded (gpointer data)
{
  return hp_timeline_view_get_samples (data) != NULL;
}

static gboolean
filtered (gpointer data)
{
  return !hp_window_is_filtering (data) && !hp_window_is_following (data);
}

static gboolean
source_read (gpointer data)
{
  return !hp_source_view_is_loading (hp_window_get_source_view (data));
}

static double
load_average (void)
{
  double load[1] = { 0 };

  return getloadavg (load, 1) == 1 ? load[0] : -1;
}

/* The range's CPU by where it went: the steps of the worker that built
 * the profile, the main thread's update of each view, and the rest
 * (the bottom-up tree's thread, freeing the old profile, drawing).
 * Returns @cpu (the step's CPU, every thread) less the heartbeat's. */
static double
print_costs (HpWindow        *window,
             HpLoadedProfile *profile,
             double           cpu)
{
  static const char *steps[HP_BUILD_N_STEPS] = { "counts", "trees and lists", "hottest nodes", "ratio" };
  guint n_costs;
  const HpWindowCost *costs = hp_window_get_costs (window, &n_costs);
  double worker = 0, main_thread = 0;

  printf ("  worker:");
  for (guint i = 0; i < HP_BUILD_N_STEPS; i++)
    {
      printf (" %s %.1f ms (%" G_GUINT64_FORMAT " faults)%s", steps[i], profile->build_cpu_ms[i],
              profile->build_faults[i], i + 1 < HP_BUILD_N_STEPS ? "," : "\n");
      worker += profile->build_cpu_ms[i];
    }
  printf ("  main thread:");
  for (guint i = 0; i < n_costs; i++)
    {
      printf (" %s %.1f ms%s", costs[i].view, costs[i].cpu_ms, i + 1 < n_costs ? "," : "\n");
      main_thread += costs[i].cpu_ms;
    }
  printf ("  worker %.1f ms + views on the main thread %.1f ms + the rest %.1f ms = %.1f ms of CPU\n",
          worker, main_thread, cpu - worker - main_thread, cpu);
  return cpu;
}

static void
bench_one (HpApplication *app,
           const char    *title,
           const char    *path)
{
  HpWindow *window = display_open (app, path);
  HpFlameView *flame = hp_window_get_flame_view (window);
  HpFlameCanvas *canvas = hp_flame_view_get_canvas (flame);
  HpTimelineView *timeline_view = hp_window_get_timeline_view (window);
  HpLoadedProfile *profile = hp_call_tree_view_get_profile (hp_window_get_tree_view (window));
  Painted painted = { canvas, hp_flame_canvas_get_n_renders (canvas) };
  gint64 t0;
  guint n_boxes;
  const HpFlameBox *boxes;
  double ms, total = 0, total_panes = 0;

  printf ("\n## %s\n", title);

  t0 = g_get_monotonic_time ();
  {
    g_autoptr(HpFlameGraph) graph = hp_flame_graph_new (profile->profile, FALSE);

    ms = (g_get_monotonic_time () - t0) / 1000.0;
    hp_flame_graph_get_boxes (graph, &n_boxes);
  }
  printf ("flame graph layout alone (%u boxes): %.1f ms\n", n_boxes, ms);

  display_spin (200);
  reset_gap ();
  t0 = g_get_monotonic_time ();
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "flame");
  g_assert_true (display_wait (flame_painted, &painted, 30000));
  {
    g_autofree char *s = stall ();

    printf ("show the flame graph until its first frame is painted: %.1f ms (%s)\n",
            (g_get_monotonic_time () - t0) / 1000.0, s);
  }
  printf ("  boxes drawn: %u\n", hp_flame_canvas_get_n_drawn (canvas));

  /* hover: the pointer over 60 places of the graph */
  display_spin (200);
  reset_gap ();
  {
    int w = gtk_widget_get_width (GTK_WIDGET (canvas)), h = gtk_widget_get_height (GTK_WIDGET (canvas));
    guint renders = hp_flame_canvas_get_n_renders (canvas);
    GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (canvas));
    gint64 frames = gdk_frame_clock_get_frame_counter (clock);
    double cpu = cpu_ms ();

    for (int i = 0; i < 60; i++)
      {
        double x = (i * 37) % MAX (w, 1), y = h - 1 - (i * 11) % MAX (MIN (h, 200), 1);
        gint box = hp_flame_canvas_box_at (canvas, x, y);
        g_autofree char *tip = box >= 0 ? hp_flame_canvas_describe_box (canvas, (guint) box) : NULL;

        gtk_widget_queue_draw (GTK_WIDGET (canvas));
        display_spin (8);
      }
    frames = gdk_frame_clock_get_frame_counter (clock) - frames;
    g_autofree char *s = stall ();

    printf ("hover over 60 places: %s; box layer rendered again %u times, "
            "%.1f ms of CPU per frame (%" G_GINT64_FORMAT " frames)\n",
            s, hp_flame_canvas_get_n_renders (canvas) - renders,
            (cpu_ms () - cpu) / MAX (frames, 1), frames);
  }

  /* zoom into the deepest box of the hottest path, then out */
  boxes = hp_flame_graph_get_boxes (hp_flame_canvas_get_graph (canvas), &n_boxes);
  {
    guint deep = 0;

    for (guint i = 0; i < n_boxes; i++)
      if (boxes[i].hot && boxes[i].depth > boxes[deep].depth && boxes[i].depth <= 6)
        deep = i;
    display_spin (200);
    reset_gap ();
    hp_flame_canvas_set_zoom (canvas, deep);
    display_spin (300);
    hp_flame_canvas_set_zoom (canvas, 0);
    display_spin (300);
    {
      g_autofree char *s = stall ();

      printf ("zoom in to depth %u and out: %s\n", boxes[deep].depth, s);
    }
  }

  /* the timeline: read the samples, select the middle third */
  reset_gap ();
  t0 = g_get_monotonic_time ();
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "timeline");
  g_assert_true (display_wait (samples_loaded, timeline_view, 60000));
  {
    g_autofree char *s = stall ();

    printf ("timeline: read the samples: %.1f ms (%s)\n", (g_get_monotonic_time () - t0) / 1000.0, s);
  }
  display_spin (300);
  if (g_getenv ("BENCH_RANGE_REPEAT") != NULL)
    {
      HpSampleIndex *samples = hp_timeline_view_get_samples (timeline_view);
      guint64 start = hp_sample_index_get_start (samples), end = hp_sample_index_get_end (samples);
      int n = atoi (g_getenv ("BENCH_RANGE_REPEAT"));

      for (int i = 0; i < n; i++)
        {
          g_autofree char *s = NULL;

          reset_gap ();
          t0 = g_get_monotonic_time ();
          hp_timeline_set_selection (hp_timeline_view_get_timeline (timeline_view), TRUE,
                                     start + (end - start) / (i % 2 ? 4 : 3), start + 2 * (end - start) / 3);
          g_assert_true (display_wait (filtered, window, 60000));
          ms = (g_get_monotonic_time () - t0) / 1000.0;
          profile = hp_call_tree_view_get_profile (hp_window_get_tree_view (window));
          s = stall ();
          printf ("repeat %d: %.1f ms (%s)\n", i, ms, s);
          print_costs (window, profile, cpu_ms () - step_cpu);
          display_spin (100);
        }
      display_close (window);
      return;
    }
  {
    HpSampleIndex *samples = hp_timeline_view_get_samples (timeline_view);
    g_autofree char *s = NULL;
    guint64 start = hp_sample_index_get_start (samples), end = hp_sample_index_get_end (samples);

    reset_gap ();
    t0 = g_get_monotonic_time ();
    hp_timeline_set_selection (hp_timeline_view_get_timeline (timeline_view), TRUE,
                               start + (end - start) / 3, start + 2 * (end - start) / 3);
    g_assert_true (display_wait (filtered, window, 60000));
    ms = (g_get_monotonic_time () - t0) / 1000.0;
    profile = hp_call_tree_view_get_profile (hp_window_get_tree_view (window));
    s = stall ();
    printf ("select a third of the recording until every view shows it: %.1f ms (%s), "
            "%" G_GUINT64_FORMAT " samples\n",
            ms, s, hp_profile_get_n_samples (profile->profile));
    print_costs (window, profile, cpu_ms () - step_cpu);
  }

  /* without the heartbeat: the CPU of the range alone, then of the
   * panes hidden behind the timeline as each is shown (they catch up
   * then, not at every range) */
  g_source_remove (beat_source);
  display_spin (300);
  {
    HpSampleIndex *samples = hp_timeline_view_get_samples (timeline_view);
    guint64 start = hp_sample_index_get_start (samples), end = hp_sample_index_get_end (samples);
    double cpu = cpu_ms ();
    const char *panes[] = { "flame", "calls", "functions", "source", "timeline" };

    hp_timeline_set_selection (hp_timeline_view_get_timeline (timeline_view), TRUE,
                               start + (end - start) / 4, start + 2 * (end - start) / 3);
    g_assert_true (display_wait (filtered, window, 60000));
    profile = hp_call_tree_view_get_profile (hp_window_get_tree_view (window));
    printf ("\nanother range (%" G_GUINT64_FORMAT " samples), no heartbeat: CPU %.1f ms\n",
            hp_profile_get_n_samples (profile->profile), cpu_ms () - cpu);
    total = print_costs (window, profile, cpu_ms () - cpu);

    for (guint i = 0; i < G_N_ELEMENTS (panes); i++)
      {
        painted.renders = hp_flame_canvas_get_n_renders (canvas);
        cpu = cpu_ms ();
        gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", panes[i]);
        if (g_strcmp0 (panes[i], "flame") == 0)
          g_assert_true (display_wait (flame_painted, &painted, 30000));
        else if (g_strcmp0 (panes[i], "source") == 0)
          g_assert_true (display_wait (source_read, window, 30000));
        display_spin (100);
        printf ("  then showing the %s pane: CPU %.1f ms\n", panes[i], cpu_ms () - cpu);
        if (g_strcmp0 (panes[i], "timeline") != 0)
          total_panes += cpu_ms () - cpu;
      }
    printf ("every view: the range %.1f ms + the hidden panes shown %.1f ms = %.1f ms of CPU (load average %.1f)\n",
            total, total_panes, total + total_panes, load_average ());
  }
  beat_source = g_timeout_add_full (G_PRIORITY_DEFAULT, 1, beat, NULL, NULL);
  display_close (window);
}

static int
run (HpApplication *app)
{
  const char *dir = capture_arg ? capture_arg : display_tmpdir ();
  g_autofree char *typical = g_build_filename (dir, "bench-1m-typical.hotpath", NULL);
  g_autofree char *stress = g_build_filename (dir, "bench-1m-stress.hotpath", NULL);
  const char *only = g_getenv ("BENCH_CAPTURES");

  if (!g_file_test (typical, G_FILE_TEST_EXISTS))
    display_make_big_capture (typical, FALSE);
  if (!g_file_test (stress, G_FILE_TEST_EXISTS))
    display_make_big_capture (stress, TRUE);
  beat_source = g_timeout_add_full (G_PRIORITY_DEFAULT, 1, beat, NULL, NULL);

  if (only == NULL || g_strcmp0 (only, "typical") == 0)
    bench_one (app, "1M samples over 10 000 call paths (typical)", typical);
  if (only == NULL || g_strcmp0 (only, "stress") == 0)
    bench_one (app, "1M samples over 60 000 random walks, 700 000 stack nodes (stress)", stress);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  if (argc > 1 && argv[1][0] != '-')
    {
      capture_arg = argv[1];
      argv[1] = argv[0];
      argv++;
      argc--;
    }
  return display_run (argc, argv, run);
}
