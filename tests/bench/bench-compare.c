/* bench-compare.c - time to compare two 1M-sample captures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Writes two pairs of captures of one million samples each with the
 * store's writer, in the two shapes of tests/display/bench-ui-open.c (a
 * program of 3000 functions, samples skewed towards a few stacks):
 *
 *   typical  10 000 call paths that each extend an earlier one by 1 to 3
 *            frames, as the stacks of one program do (~20 000 stack nodes)
 *   stress   60 000 random walks down a call graph (~700 000 stack nodes)
 *
 * The two captures of a pair share the program and its stacks, and draw
 * their samples with different seeds; in the second, one function's
 * samples weigh 10 % more. For each pair it prints, median and maximum
 * over BENCH_ROUNDS (default 3) rounds:
 *
 *   - the library's comparison: loading both captures and
 *     hp_comparison_run(), in this process;
 *   - the same as the compare window makes it, with the bottom-up tree
 *     and the costs of source lines;
 *   - `hotpath-cli diff A B --format json` as a user runs it, wall time.
 *
 * It prints numbers and asserts nothing (speed is measured by benchmarks,
 * not by timed assertions). Usage: bench-compare [DIR] (makes its
 * captures in DIR, or reuses them from there; default a temporary folder
 * removed at the end).
 */

#define G_LOG_DOMAIN "hp-bench"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>
#include <sys/resource.h>

#include "analysis/hp-compare.h"
#include "store/hp-capture-writer.h"
#include "test-common.h"

/* The benchmarks' capture shapes (tests/common), with clones among the
 * functions (the comparison folds them) and, on the new side, the hottest
 * leaf's function 10 % slower. */
static void
make_capture (const char *path,
              gboolean    stress,
              guint32     sample_seed,
              gboolean    slower)
{
  HpTestBigCapture how = {
    .stress = stress,
    .sample_seed = sample_seed,
    .period_ns = 1000000,
    .clone_names = TRUE,
    .slower_hottest = slower,
  };

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    hp_test_make_big_capture (path, &how);
}

static double
cpu_seconds (int who)
{
  struct rusage usage;

  getrusage (who, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static double
time_library (const char *a,
              const char *b,
              gboolean    as_window,
              double     *cpu)
{
  g_autoptr(HpComparison) cmp = as_window ? hp_comparison_new_with_bottom_up () : hp_comparison_new ();
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  double cpu_start = cpu_seconds (RUSAGE_SELF);

  if (as_window)
    hp_comparison_keep_lines (cmp);
  if (!hp_comparison_add_path (cmp, HP_COMPARE_BASE, a, NULL, &error) ||
      !hp_comparison_add_path (cmp, HP_COMPARE_NEW, b, NULL, &error) ||
      !hp_comparison_run (cmp, NULL, &error))
    g_error ("%s", error->message);
  *cpu = cpu_seconds (RUSAGE_SELF) - cpu_start;
  return (g_get_monotonic_time () - start) / 1e6;
}

static double
time_cli (const char *a,
          const char *b,
          double     *cpu)
{
  const char *argv[] = { HOTPATH_CLI, "diff", a, b, "--format", "json", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  int status;
  gint64 start = g_get_monotonic_time ();
  double cpu_start = cpu_seconds (RUSAGE_CHILDREN);
  double wall;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                     &out, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    g_error ("hotpath-cli diff: %s", error->message);
  wall = (g_get_monotonic_time () - start) / 1e6;
  *cpu = cpu_seconds (RUSAGE_CHILDREN) - cpu_start;
  return wall;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double da = *(const double *) a, db = *(const double *) b;

  return da < db ? -1 : da > db;
}

int
main (int argc, char **argv)
{
  const char *env_rounds = g_getenv ("BENCH_ROUNDS");
  guint rounds = env_rounds ? MAX (1, atoi (env_rounds)) : 3;
  g_autofree char *dir = argc > 1 ? g_strdup (argv[1]) : g_dir_make_tmp ("hotpath-bench-compare-XXXXXX", NULL);
  static const char *shapes[] = { "typical", "stress" };

  printf ("# diff of two 1M-sample captures (%u rounds; median and max wall time, median CPU time;\n"
          "# wall time is what a user waits, CPU time what it costs on a machine shared with others)\n", rounds);
  printf ("%-8s %7s  %-22s  %-22s  %-22s\n", "shape", "stacks", "library wall / CPU (s)",
          "as the window", "hotpath-cli wall / CPU (s)");
  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      g_autofree char *name_a = g_strdup_printf ("compare-%s-a.hotpath", shapes[s]);
      g_autofree char *name_b = g_strdup_printf ("compare-%s-b.hotpath", shapes[s]);
      g_autofree char *a = g_build_filename (dir, name_a, NULL);
      g_autofree char *b = g_build_filename (dir, name_b, NULL);
      g_autofree double *lib = g_new (double, rounds);
      g_autofree double *cli = g_new (double, rounds);
      g_autofree double *lib_cpu = g_new (double, rounds);
      g_autofree double *win = g_new (double, rounds);
      g_autofree double *win_cpu = g_new (double, rounds);
      g_autofree double *cli_cpu = g_new (double, rounds);

      make_capture (a, s == 1, 1, FALSE);
      make_capture (b, s == 1, 2, TRUE);
      for (guint r = 0; r < rounds; r++)
        {
          lib[r] = time_library (a, b, FALSE, &lib_cpu[r]);
          win[r] = time_library (a, b, TRUE, &win_cpu[r]);
          cli[r] = time_cli (a, b, &cli_cpu[r]);
        }
      qsort (lib, rounds, sizeof (double), compare_doubles);
      qsort (cli, rounds, sizeof (double), compare_doubles);
      qsort (lib_cpu, rounds, sizeof (double), compare_doubles);
      qsort (win, rounds, sizeof (double), compare_doubles);
      qsort (win_cpu, rounds, sizeof (double), compare_doubles);
      qsort (cli_cpu, rounds, sizeof (double), compare_doubles);
      printf ("%-8s %7s  %5.3f %5.3f / %5.3f    %5.3f %5.3f / %5.3f    %5.3f %5.3f / %5.3f\n",
              shapes[s], s == 1 ? "~700k" : "~20k",
              lib[rounds / 2], lib[rounds - 1], lib_cpu[rounds / 2],
              win[rounds / 2], win[rounds - 1], win_cpu[rounds / 2],
              cli[rounds / 2], cli[rounds - 1], cli_cpu[rounds / 2]);
      fflush (stdout);
      if (argc <= 1)
        {
          g_unlink (a);
          g_unlink (b);
        }
    }
  if (argc <= 1)
    g_rmdir (dir);
  return 0;
}
