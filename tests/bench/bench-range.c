/* bench-range.c - the analysis behind a time range, step by step
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * What the window's worker does when the timeline's range changes
 * (document/hp-loaded-capture.c, build_profile), on the benchmarks'
 * 1M-sample stress capture (700 000 stack nodes, tests/common), without
 * the window: so that a change to the analysis can be measured alone,
 * and perf can profile it (`perf record -g build/tests/bench/bench-range`).
 * For the middle third of the recording, and for the whole of it, it
 * prints the CPU time (user + system, every thread), the wall time and the
 * page faults (minor: fresh memory touched) of each step, median over
 * BENCH_ROUNDS (default 5) rounds:
 *
 *   - counting the range's samples per stack (hp_sample_index_count);
 *   - the profile: both trees, callers and callees (hp_profile_new);
 *   - the function lists by self and by total;
 *   - the flame graph's layout, top-down;
 *   - freeing the profile.
 *
 * It prints numbers and asserts nothing (docs/ARCHITECTURE.md, Measuring
 * honestly). Usage: bench-range [DIR] (makes its capture in DIR, or
 * reuses it from there; default a temporary folder removed at the end).
 */

#define G_LOG_DOMAIN "hp-bench"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "analysis/hp-flame-graph.h"
#include "analysis/hp-profile.h"
#include "analysis/hp-sample-index.h"
#include "store/hp-capture.h"
#include "test-common.h"

enum { COUNT, PROFILE, FUNCTIONS, FLAME, FREE, N_STEPS };

static const char *step_names[N_STEPS] = {
  "count the range per stack",
  "profile (both trees, callers/callees)",
  "function lists (self, total)",
  "flame graph layout",
  "free the profile",
};

typedef struct {
  double cpu;
  double wall;
  double faults;
} Clock;

static Clock
now (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return (Clock) {
    (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
      (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3,
    g_get_monotonic_time () / 1e3,
    usage.ru_minflt,
  };
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *values,
        guint   n)
{
  qsort (values, n, sizeof (double), compare_doubles);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/* One round: the steps of a range's profile, their times into cpu/wall */
static guint64
one_round (const HpCaptureData *data,
           HpSampleIndex       *index,
           gboolean             range,
           guint64              from,
           guint64              to,
           double              *cpu,
           double              *wall,
           double              *faults)
{
  Clock t[N_STEPS + 1];
  g_autoptr(HpCaptureData) filtered = NULL;
  HpProfile *profile;
  HpFlameGraph *graph;
  guint64 n_samples;

  t[COUNT] = now ();
  if (range)
    filtered = hp_capture_data_new_with_counts (data, hp_sample_index_count (index, data->event_mask,
                                                                             from, to, NULL, NULL));
  t[PROFILE] = now ();
  profile = hp_profile_new (filtered != NULL ? filtered : data, NULL);
  t[FUNCTIONS] = now ();
  hp_profile_get_functions (profile, FALSE);
  hp_profile_get_functions (profile, TRUE);
  t[FLAME] = now ();
  graph = hp_flame_graph_new (profile, FALSE);
  hp_flame_graph_free (graph);
  n_samples = hp_profile_get_n_samples (profile);
  t[FREE] = now ();
  hp_profile_free (profile);
  t[N_STEPS] = now ();

  for (guint s = 0; s < N_STEPS; s++)
    {
      cpu[s] = t[s + 1].cpu - t[s].cpu;
      wall[s] = t[s + 1].wall - t[s].wall;
      faults[s] = t[s + 1].faults - t[s].faults;
    }
  return n_samples;
}

static void
bench (const HpCaptureData *data,
       HpSampleIndex       *index,
       gboolean             range,
       guint                rounds)
{
  guint64 start = hp_sample_index_get_start (index), end = hp_sample_index_get_end (index);
  guint64 from = start + (end - start) / 3, to = start + 2 * (end - start) / 3;
  g_autofree double *cpu = g_new0 (double, (gsize) rounds * N_STEPS);
  g_autofree double *wall = g_new0 (double, (gsize) rounds * N_STEPS);
  g_autofree double *faults = g_new0 (double, (gsize) rounds * N_STEPS);
  double total_cpu = 0, total_wall = 0, total_faults = 0;
  guint64 n = 0;

  for (guint r = 0; r < rounds; r++)
    n = one_round (data, index, range, from, to, &cpu[r * N_STEPS], &wall[r * N_STEPS], &faults[r * N_STEPS]);

  printf ("\n## %s: %" G_GUINT64_FORMAT " samples, median of %u rounds\n",
          range ? "the middle third of the recording" : "the whole recording", n, rounds);
  printf ("%-40s %10s %10s %12s\n", "step", "CPU ms", "wall ms", "page faults");
  for (guint s = 0; s < N_STEPS; s++)
    {
      g_autofree double *c = g_new (double, rounds);
      g_autofree double *w = g_new (double, rounds);
      g_autofree double *f = g_new (double, rounds);

      for (guint r = 0; r < rounds; r++)
        {
          c[r] = cpu[r * N_STEPS + s];
          w[r] = wall[r * N_STEPS + s];
          f[r] = faults[r * N_STEPS + s];
        }
      if (s == COUNT && !range)
        continue;
      printf ("%-40s %10.1f %10.1f %12.0f\n", step_names[s], median (c, rounds), median (w, rounds), median (f, rounds));
      total_cpu += median (c, rounds);
      total_wall += median (w, rounds);
      total_faults += median (f, rounds);
    }
  printf ("%-40s %10.1f %10.1f %12.0f\n", "sum of the medians", total_cpu, total_wall, total_faults);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) data = NULL;
  HpSampleIndex *index;
  GArray *samples;
  const char *env = g_getenv ("BENCH_ROUNDS");
  guint rounds = env != NULL ? MAX (atoi (env), 1) : 5;
  gboolean temporary = argc < 2;
  double load[3] = { 0 };

  dir = temporary ? g_dir_make_tmp ("hp-bench-range-XXXXXX", &error) : g_strdup (argv[1]);
  if (dir == NULL)
    g_error ("%s", error->message);
  g_mkdir_with_parents (dir, 0755);
  path = g_build_filename (dir, "bench-1m-stress.hotpath", NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    hp_test_make_big_capture (path, &(HpTestBigCapture) { .stress = TRUE });

  capture = hp_capture_open (path, FALSE, &error);
  if (capture == NULL || (data = hp_capture_load (capture, &error)) == NULL ||
      (samples = hp_capture_load_samples (capture, data, &error)) == NULL)
    g_error ("%s", error->message);
  index = hp_sample_index_new (samples);

  if (getloadavg (load, 3) < 0)
    load[0] = -1;
  printf ("# %s: %u stack nodes, %" G_GUINT64_FORMAT " samples; load average %.1f\n",
          path, data->stacks->len, hp_sample_index_get_n_samples (index), load[0]);
  bench (data, index, TRUE, rounds);
  bench (data, index, FALSE, rounds);

  hp_sample_index_unref (index);
  if (temporary)
    hp_test_remove_tree (dir);
  return 0;
}
