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
 * Then the stress pair's samples again as perf.data files, imported, and
 * `hotpath-cli diff` of those captures against `perf diff` of the files:
 * CPU time (user + sys) of each and their ratio. CPU time, because the
 * machine is shared: wall time under load says more about the others.
 *
 * It prints numbers and asserts nothing (speed is measured by benchmarks,
 * not by timed assertions). Usage: bench-compare [DIR] (makes its
 * captures in DIR, or reuses them from there; default a temporary folder
 * removed at the end).
 */

#define G_LOG_DOMAIN "hp-bench"

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>
#include <sys/resource.h>

#include "analysis/hp-compare.h"
#include "store/hp-capture-writer.h"
#include "perf-data-builder.h"
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


/* perf diff on the same samples ----------------------------------------------
 *
 * The stress pair again, as perf.data files: the program's 3000 functions
 * compiled into an ELF file (each a few dozen bytes; its 4 "lines" are 4
 * addresses in it), each sample's call chain their addresses and its
 * period its weight, drawn as the captures' samples are. hotpath-cli
 * imports both, and the diff of the two captures is set against
 * `perf diff` of the two files: perf diff compares the functions' self
 * shares only, with no statistics and no call paths, so it is the floor
 * of what a diff costs, not an equal. */

#define BENCH_BASE 0x555555554000ull

/* Compiles the big program's functions into @dir/big; FALSE when there is
 * no C compiler. */
static gboolean
make_elf (const char *dir,
          const char *elf)
{
  g_autofree char *source = g_build_filename (dir, "big.c", NULL);
  g_autoptr(GString) text = g_string_new ("/* the functions of the benchmark's big program */\n");
  const char *argv[] = { "cc", "-O0", "-g0", "-o", elf, source, NULL };
  g_autoptr(GError) error = NULL;
  int status;

  for (guint f = 0; f < 3000; f++)
    {
      g_autofree char *name = hp_test_big_function_name (f, TRUE);

      g_string_append_printf (text, "void f%u (void) __asm__ (\"%s\");\n"
                              "__attribute__ ((noinline, used)) void f%u (void) "
                              "{ __asm__ volatile (\".fill 60, 1, 0x90\"); }\n", f, name, f);
    }
  g_string_append (text, "int main (void) { return 0; }\n");
  g_assert_true (g_file_set_contents (source, text->str, text->len, NULL));
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    {
      printf ("# no perf diff: cannot compile the program's functions (%s)\n", error->message);
      return FALSE;
    }
  return TRUE;
}

/* The stress shape's samples as a perf.data file at @path. */
static void
make_perf_data (const char *path,
                const char *elf,
                guint32     sample_seed,
                gboolean    slower)
{
  const guint64 st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
  const PdAttr attr = {
    .type = PERF_TYPE_SOFTWARE,
    .config = PERF_COUNT_SW_CPU_CLOCK,
    .period = 1000000,
    .sample_type = st,
    .sample_id_all = TRUE,
  };
  const guint64 period = 1000000;
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240501);
  g_autoptr(GRand) draw = g_rand_new_with_seed (sample_seed);
  HpTestBigShape *shape = hp_test_big_shape_new (TRUE, rand);
  g_autofree guint64 *address = g_new (guint64, shape->n_functions * 4);
  guint64 chain[HP_TEST_BIG_MAX_DEPTH + 1];
  PdFile *f = pd_file_new (128);
  PdId id = { 1000, 1000, 10, 0, 0 };
  g_autoptr(GByteArray) bytes = NULL;
  GByteArray *b;
  guint64 elf_size;

  {
    g_autoptr(GMappedFile) mapped = g_mapped_file_new (elf, FALSE, NULL);

    g_assert_nonnull (mapped);
    elf_size = g_mapped_file_get_length (mapped);
  }
  for (guint fn = 0; fn < shape->n_functions; fn++)
    {
      g_autofree char *name = hp_test_big_function_name (fn, TRUE);
      guint64 offset, size;

      if (!hp_test_elf_function (elf, name, &offset, &size))
        g_error ("%s: no function %s", elf, name);
      for (guint l = 0; l < 4; l++)
        address[fn * 4 + l] = BENCH_BASE + offset + 4 + 12 * l;
    }

  pd_file_add_attr (f, &attr, NULL, 0);
  for (guint t = 0; t < 8; t++)
    {
      g_autofree char *name = g_strdup_printf ("worker-%u", t);

      id.tid = 1000 + t;
      pd_comm (f->data, st, &id, t == 0 ? "big" : name, t == 0);
    }
  id.tid = 1000;
  pd_mmap2 (f->data, st, &id, BENCH_BASE, (elf_size + 4095) & ~4095ull, 0, elf);
  pd_finished_round (f->data);
  chain[0] = PERF_CONTEXT_USER;
  for (guint s = 0; s < shape->n_samples; s++)
    {
      guint leaf = hp_test_big_shape_draw (shape, draw);
      guint depth = shape->depth[leaf];

      for (guint d = 0; d < depth; d++)
        chain[1 + d] = address[shape->frames[leaf * HP_TEST_BIG_MAX_DEPTH + depth - 1 - d]];
      id.tid = 1000 + s % 8;
      id.time = 100 + (guint64) s * period;
      pd_sample (f->data, st, &id, chain[1],
                 slower && shape->leaf_function[leaf] == shape->leaf_function[0] ? period + period / 10 : period,
                 chain, depth + 1);
      if (s % 10000 == 9999)
        pd_finished_round (f->data);
    }
  pd_finished_round (f->data);
  pd_string (pd_file_feature (f, 3), "benchhost", 64, TRUE);
  pd_string (pd_file_feature (f, 4), "6.1.0-bench", 64, TRUE);
  pd_string (pd_file_feature (f, 6), "x86_64", 64, TRUE);
  b = pd_file_feature (f, 7);
  pd_u32 (b, 8);
  pd_u32 (b, 8);
  b = pd_file_feature (f, 11);
  pd_u32 (b, 3);
  pd_string (b, "perf", 64, TRUE);
  pd_string (b, "record", 64, TRUE);
  pd_string (b, elf, 64, TRUE);
  bytes = pd_file_build (f);
  pd_file_free (f);
  hp_test_big_shape_free (shape);
  g_assert_true (g_file_set_contents (path, (const char *) bytes->data, bytes->len, NULL));
  printf ("# wrote %s (%.0f MB)\n", path, bytes->len / 1e6);
}

/* Runs @argv with its output thrown away; its CPU time (user + sys) in
 * *@cpu, and its wall time returned. */
static double
time_command (const char * const *argv,
              double             *cpu)
{
  g_autoptr(GError) error = NULL;
  int status;
  gint64 start = g_get_monotonic_time ();
  double cpu_start = cpu_seconds (RUSAGE_CHILDREN);
  double wall;

  if (!g_spawn_sync (NULL, (char **) argv, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    g_error ("%s: %s", argv[0], error->message);
  wall = (g_get_monotonic_time () - start) / 1e6;
  *cpu = cpu_seconds (RUSAGE_CHILDREN) - cpu_start;
  return wall;
}

static void
against_perf_diff (const char *dir,
                   guint       rounds)
{
  g_autofree char *perf = g_find_program_in_path ("perf");
  g_autofree char *elf = g_build_filename (dir, "big", NULL);
  g_autofree char *data_a = g_build_filename (dir, "compare-stress-a.data", NULL);
  g_autofree char *data_b = g_build_filename (dir, "compare-stress-b.data", NULL);
  g_autofree char *capture_a = g_build_filename (dir, "compare-stress-a-import.hotpath", NULL);
  g_autofree char *capture_b = g_build_filename (dir, "compare-stress-b-import.hotpath", NULL);
  const char *data[2] = { data_a, data_b };
  const char *capture[2] = { capture_a, capture_b };
  g_autofree double *perf_cpu = g_new (double, rounds);
  g_autofree double *perf_wall = g_new (double, rounds);
  g_autofree double *diff_cpu = g_new (double, rounds);
  g_autofree double *diff_wall = g_new (double, rounds);

  if (perf == NULL)
    {
      printf ("# no perf diff: perf is not installed\n");
      return;
    }
  if (!g_file_test (elf, G_FILE_TEST_EXISTS) && !make_elf (dir, elf))
    return;
  for (guint s = 0; s < 2; s++)
    {
      if (!g_file_test (data[s], G_FILE_TEST_EXISTS))
        make_perf_data (data[s], elf, s + 1, s == 1);
      if (!g_file_test (capture[s], G_FILE_TEST_EXISTS))
        {
          const char *argv[] = { HOTPATH_CLI, "import", data[s], "-o", capture[s], NULL };
          double cpu, wall = time_command (argv, &cpu);

          printf ("# hotpath-cli import %s: %.1f s wall, %.1f s CPU\n", data[s], wall, cpu);
        }
    }
  for (guint r = 0; r < rounds; r++)
    {
      const char *perf_argv[] = { perf, "diff", "--force", data[0], data[1], NULL };
      const char *diff_argv[] = { HOTPATH_CLI, "diff", capture[0], capture[1], "--format", "json", NULL };

      perf_wall[r] = time_command (perf_argv, &perf_cpu[r]);
      diff_wall[r] = time_command (diff_argv, &diff_cpu[r]);
    }
  qsort (perf_cpu, rounds, sizeof (double), compare_doubles);
  qsort (perf_wall, rounds, sizeof (double), compare_doubles);
  qsort (diff_cpu, rounds, sizeof (double), compare_doubles);
  qsort (diff_wall, rounds, sizeof (double), compare_doubles);
  printf ("# the stress pair as perf.data files, the same samples (median of %u rounds):\n", rounds);
  printf ("%-34s %6.3f s CPU  %6.3f s wall\n", "perf diff A.data B.data", perf_cpu[rounds / 2], perf_wall[rounds / 2]);
  printf ("%-34s %6.3f s CPU  %6.3f s wall\n", "hotpath-cli diff A B (imported)", diff_cpu[rounds / 2],
          diff_wall[rounds / 2]);
  printf ("hotpath-cli diff / perf diff, CPU time: %.2f\n",
          perf_cpu[rounds / 2] > 0 ? diff_cpu[rounds / 2] / perf_cpu[rounds / 2] : NAN);
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
  against_perf_diff (dir, rounds);
  if (argc <= 1)
    hp_test_remove_tree (dir);
  return 0;
}
