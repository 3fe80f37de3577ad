/* bench-ui-open.c - time to show the call tree of a 1M-sample capture, and main-loop stalls
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Builds two captures of one million samples with the store's writer (a
 * program of 3000 functions, stacks sampled with a skewed distribution
 * as real profiles are; see display_make_big_capture() in display-common.c for their shapes), then
 * opens each in the real window and prints:
 *
 *   - the time from asking to open until the first frame that shows the
 *     call tree has been painted;
 *   - how long the main loop is blocked right after that, while the
 *     hidden bottom-up tree is built (an idle of the call tree view);
 *   - for expanding the node with the most children, selecting rows,
 *     switching to bottom-up and back, and searching: how long the main
 *     loop was blocked at most (the largest gap between two runs of a
 *     1 ms heartbeat, which includes the layout and painting the change
 *     caused), against one frame at 60 Hz (16.7 ms).
 *
 * Each capture is opened BENCH_ROUNDS times (default 5) in a new window,
 * and every operation is timed in each round: the table gives the median
 * and the maximum, and in how many of the rounds it took over a frame.
 * The machines this runs on share two cores with Xvfb, so a single time
 * can be twice the median.
 *
 * It prints numbers, it asserts nothing (docs/ARCHITECTURE.md: speed is measured by
 * benchmarks, never by timed assertions). Usage: bench-ui-open [DIR]
 * (makes its captures in DIR, or reuses them from there), or
 * bench-ui-open CAPTURE to time one existing capture, such as the import
 * of tests/bench/import-speed.py's 1.2M-sample perf.data.
 */

#define G_LOG_DOMAIN "hp-bench"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <glib/gstdio.h>

#include "ui/hp-call-row.h"
#include "display-common.h"

#define FRAME_MS    (1000.0 / 60.0)

static const char *capture_arg;

/* Heartbeat ---------------------------------------------------------- */

static gint64 last_beat;
static gint64 max_gap;

static gboolean
beat (gpointer data)
{
  gint64 now = g_get_monotonic_time ();

  if (last_beat != 0)
    max_gap = MAX (max_gap, now - last_beat);
  /* BENCH_GAPS: each stall longer than a frame, in CLOCK_MONOTONIC
   * microseconds, to match with a profiler's samples (perf -k mono) */
  if (last_beat != 0 && now - last_beat > 1000 * FRAME_MS && g_getenv ("BENCH_GAPS"))
    printf ("# gap %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %.1f ms\n",
            last_beat, now, (now - last_beat) / 1000.0);
  last_beat = now;
  return G_SOURCE_CONTINUE;
}

/* where a stall goes: the frame clock's layout and paint phases, timed
 * from the end of the phase before each (handlers connected after GTK's) */
static gint64 phase_start, max_layout, max_paint;

static void
on_layout (GdkFrameClock *clock)
{
  phase_start = g_get_monotonic_time ();
}

static void
on_paint (GdkFrameClock *clock)
{
  gint64 now = g_get_monotonic_time ();

  max_layout = MAX (max_layout, now - phase_start);
  phase_start = now;
}

static void
on_after_paint_phase (GdkFrameClock *clock)
{
  max_paint = MAX (max_paint, g_get_monotonic_time () - phase_start);
}

static void
reset_gap (void)
{
  last_beat = g_get_monotonic_time ();
  max_gap = 0;
  max_layout = max_paint = 0;
}

static double
measure_stall (void (*op) (HpWindow *window, gpointer data),
               HpWindow *window,
               gpointer  data,
               double   *call_ms)
{
  gint64 t0;

  display_spin (100);
  reset_gap ();
  t0 = g_get_monotonic_time ();
  op (window, data);
  *call_ms = (g_get_monotonic_time () - t0) / 1000.0;
  /* let the change be laid out and painted, and the workers report */
  display_spin (400);
  display_wait_source (window);
  if (g_getenv ("BENCH_PHASES"))
    printf ("#   layout %.1f ms, paint %.1f ms\n", max_layout / 1000.0, max_paint / 1000.0);
  return max_gap / 1000.0;
}

/* Operations --------------------------------------------------------- */

static const HpCallNode *
widest_node (const HpCallNode *node)
{
  const HpCallNode *best = node;

  if (node->children == NULL)
    return node;
  for (guint i = 0; i < node->children->len; i++)
    {
      const HpCallNode *w = widest_node (g_ptr_array_index (node->children, i));

      if (w->children != NULL && (best->children == NULL || w->children->len > best->children->len))
        best = w;
    }
  return best;
}

static void
op_expand (HpWindow *window,
           gpointer  data)
{
  HpCallTreeView *tree = hp_window_get_tree_view (window);
  GListModel *model = hp_call_tree_view_get_model (tree);
  const HpCallNode *node = data;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);
      g_autoptr(HpCallRow) item = gtk_tree_list_row_get_item (row);

      if (hp_call_row_get_node (item) == node)
        {
          gtk_tree_list_row_set_expanded (row, TRUE);
          return;
        }
    }
  g_error ("the widest node is not shown");
}

static void
op_select_path (HpWindow *window,
                gpointer  data)
{
  hp_call_tree_view_select_node (hp_window_get_tree_view (window), data);
}

static void
op_select_row (HpWindow *window,
               gpointer  data)
{
  GtkWidget *w = GTK_WIDGET (window);
  HpCallTreeView *tree = hp_window_get_tree_view (window);
  GListModel *model = hp_call_tree_view_get_model (tree);
  guint n = g_list_model_get_n_items (model);
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, GPOINTER_TO_UINT (data) % n);
  g_autoptr(HpCallRow) item = gtk_tree_list_row_get_item (row);

  (void) w;
  hp_call_tree_view_select_node (tree, hp_call_row_get_node (item));
}

static void
op_redraw (HpWindow *window,
           gpointer  data)
{
  gtk_widget_queue_draw (GTK_WIDGET (window));
}

static void
op_action (HpWindow *window,
           gpointer  data)
{
  const char *mode = data;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.tree-mode", "s", mode);
}

static gboolean
searched (gpointer data)
{
  return !hp_call_tree_view_is_searching (data);
}

static void
op_search (HpWindow *window,
           gpointer  data)
{
  hp_call_tree_view_search (hp_window_get_tree_view (window), data);
  display_wait (searched, hp_window_get_tree_view (window), 10000);
}

/* Open --------------------------------------------------------------- */

typedef struct {
  HpWindow *window;
  gboolean  painted;
} Painted;

static void
on_after_paint (GdkFrameClock *clock,
                Painted       *p)
{
  if (g_strcmp0 (hp_window_get_state (p->window), "capture") == 0 &&
      gtk_widget_get_mapped (GTK_WIDGET (hp_window_get_tree_view (p->window))))
    p->painted = TRUE;
}

static gboolean
is_painted (gpointer data)
{
  return ((Painted *) data)->painted;
}

/* One kind of operation, timed in every round. */
typedef struct {
  char   what[96];
  GArray *stalls;   /* double, ms */
  GArray *calls;    /* double, ms */
} Op;

static Op *
op_get (GPtrArray  *ops,
        const char *what)
{
  Op *op;

  for (guint i = 0; i < ops->len; i++)
    if (strcmp (((Op *) g_ptr_array_index (ops, i))->what, what) == 0)
      return g_ptr_array_index (ops, i);
  op = g_new0 (Op, 1);
  g_strlcpy (op->what, what, sizeof op->what);
  op->stalls = g_array_new (FALSE, FALSE, sizeof (double));
  op->calls = g_array_new (FALSE, FALSE, sizeof (double));
  g_ptr_array_add (ops, op);
  return op;
}

static void
op_free (gpointer p)
{
  Op *op = p;

  g_array_unref (op->stalls);
  g_array_unref (op->calls);
  g_free (op);
}

static void
op_add (GPtrArray  *ops,
        const char *what,
        double      stall,
        double      call)
{
  Op *op = op_get (ops, what);

  /* (BENCH_GAPS: the gaps printed since the last op line were this one's) */
  if (g_getenv ("BENCH_GAPS"))
    printf ("# op %s: %.1f ms\n", what, stall);
  g_array_append_val (op->stalls, stall);
  g_array_append_val (op->calls, call);
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (GArray *values)
{
  g_autoptr(GArray) sorted = g_array_copy (values);

  g_array_sort (sorted, compare_double);
  return sorted->len == 0 ? 0 :
         sorted->len % 2 ? g_array_index (sorted, double, sorted->len / 2) :
         (g_array_index (sorted, double, sorted->len / 2 - 1) + g_array_index (sorted, double, sorted->len / 2)) / 2;
}

static double
maximum (GArray *values)
{
  double m = 0;

  for (guint i = 0; i < values->len; i++)
    m = MAX (m, g_array_index (values, double, i));
  return m;
}

/* CPU time of this process (every thread), ms: on a machine shared by
 * other work, the wall time of an open is its CPU time and the wait for
 * a CPU, and only the first is the window's */
static double
process_cpu_ms (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3
         + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

/* One round: opens @path in a new window, times the operations, closes it. */
static void
bench_round (HpApplication *app,
             const char    *path,
             guint          round,
             GPtrArray     *ops)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  HpWindow *window;
  Painted painted = { 0 };
  GdkFrameClock *clock;
  gulong handler;
  gint64 t0;
  double call_ms, stall, cpu0;
  const HpCallNode *wide;
  HpLoadedProfile *profile;

  window = hp_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  display_spin (300);

  painted.window = window;
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_signal_connect_after (clock, "update", G_CALLBACK (on_layout), NULL);
  g_signal_connect_after (clock, "layout", G_CALLBACK (on_paint), NULL);
  g_signal_connect_after (clock, "paint", G_CALLBACK (on_after_paint_phase), NULL);
  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &painted);
  reset_gap ();
  cpu0 = process_cpu_ms ();
  t0 = g_get_monotonic_time ();
  hp_window_open (window, file);
  g_assert_true (display_wait (is_painted, &painted, 60000));
  op_add (ops, "open until the call tree is painted", (g_get_monotonic_time () - t0) / 1000.0, 0);
  op_add (ops, "  longest stall while it opens", max_gap / 1000.0, 0);
  op_add (ops, "  CPU time of the open, all threads", process_cpu_ms () - cpu0, 0);
  g_signal_handler_disconnect (clock, handler);
  /* the hidden bottom-up tree is built in an idle after the first paint */
  reset_gap ();
  display_spin (600);
  op_add (ops, "after the first paint: build the hidden bottom-up tree", max_gap / 1000.0, 0);
  display_wait_source (window);

  profile = hp_call_tree_view_get_profile (hp_window_get_tree_view (window));
  if (round == 0)
    printf ("# capture: %" G_GUINT64_FORMAT " samples, %u stacks, %u functions\n",
            hp_profile_get_n_samples (profile->profile),
            profile->capture->data->stacks->len - 1, profile->capture->data->functions->len - 1);

  stall = measure_stall (op_redraw, window, NULL, &call_ms);
  op_add (ops, "baseline: repaint the whole window", stall, call_ms);

  wide = widest_node (hp_profile_get_top_down (profile->profile));
  stall = measure_stall (op_select_path, window, (gpointer) wide, &call_ms);
  op_add (ops, "select a node 20 levels deep (expands its path)", stall, call_ms);
  stall = measure_stall (op_expand, window, (gpointer) wide, &call_ms);
  op_add (ops, "expand the node with most children", stall, call_ms);
  for (guint i = 1; i <= 3; i++)
    {
      stall = measure_stall (op_select_row, window, GUINT_TO_POINTER ((round * 3 + i) * 7), &call_ms);
      op_add (ops, "select a row (callers, source, summary follow)", stall, call_ms);
    }
  stall = measure_stall (op_action, window, "bottom-up", &call_ms);
  op_add (ops, "switch to bottom-up", stall, call_ms);
  stall = measure_stall (op_action, window, "top-down", &call_ms);
  op_add (ops, "switch back to top-down", stall, call_ms);
  stall = measure_stall (op_action, window, "bottom-up", &call_ms);
  op_add (ops, "switch to bottom-up", stall, call_ms);
  stall = measure_stall (op_action, window, "top-down", &call_ms);
  op_add (ops, "switch back to top-down", stall, call_ms);
  stall = measure_stall (op_search, window, round % 2 ? "0042" : "1205", &call_ms);
  op_add (ops, "search a function name (until its matches show)", stall, call_ms);

  gtk_window_destroy (GTK_WINDOW (window));
  display_spin (200);
}

static void
bench_one (HpApplication *app,
           const char    *title,
           const char    *path,
           guint          rounds)
{
  g_autoptr(GPtrArray) ops = g_ptr_array_new_with_free_func (op_free);
  double worst = 0;

  printf ("\n## %s, %u rounds\n", title, rounds);
  for (guint r = 0; r < rounds; r++)
    bench_round (app, path, r, ops);

  printf ("%-56s %8s %8s %8s %s\n", "operation (ms)", "median", "max", "call", "over 1 frame");
  for (guint i = 0; i < ops->len; i++)
    {
      Op *op = g_ptr_array_index (ops, i);
      guint over = 0;
      gboolean is_open = i == 0;
      gboolean is_cpu = strstr (op->what, "CPU time") != NULL;

      for (guint k = 0; k < op->stalls->len; k++)
        over += g_array_index (op->stalls, double, k) > FRAME_MS;
      if (!is_open && !is_cpu && i != 4)  /* not the open time or CPU, not the repaint baseline */
        worst = MAX (worst, maximum (op->stalls));
      printf ("%-56s %8.1f %8.1f %8.1f", op->what, median (op->stalls), maximum (op->stalls), median (op->calls));
      if (is_open)
        printf ("  %s\n", maximum (op->stalls) > 1000 ? "over 1 s" : "");
      else if (is_cpu)
        printf ("\n");
      else
        printf ("  %u of %u\n", over, op->stalls->len);
    }
  printf ("longest stall: %.1f ms; one frame at 60 Hz is %.1f ms\n", worst, FRAME_MS);
}

static int
run (HpApplication *app)
{
  const char *dir = capture_arg ? capture_arg : display_tmpdir ();
  g_autofree char *typical = g_build_filename (dir, "bench-1m-typical.hotpath", NULL);
  g_autofree char *stress = g_build_filename (dir, "bench-1m-stress.hotpath", NULL);
  guint rounds = g_getenv ("BENCH_ROUNDS") ? MAX (1, atoi (g_getenv ("BENCH_ROUNDS"))) : 5;

  if (capture_arg != NULL && g_file_test (capture_arg, G_FILE_TEST_IS_REGULAR))
    {
      g_timeout_add_full (G_PRIORITY_DEFAULT, 1, beat, NULL, NULL);
      bench_one (app, capture_arg, capture_arg, rounds);
      return 0;
    }
  if (!g_file_test (typical, G_FILE_TEST_EXISTS))
    display_make_big_capture (typical, FALSE);
  if (!g_file_test (stress, G_FILE_TEST_EXISTS))
    display_make_big_capture (stress, TRUE);
  g_timeout_add_full (G_PRIORITY_DEFAULT, 1, beat, NULL, NULL);

  bench_one (app, "1M samples over 10 000 call paths (typical)", typical, rounds);
  bench_one (app, "1M samples over 60 000 random walks, 700 000 stack nodes (stress)", stress, rounds);
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
