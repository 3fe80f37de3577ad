/* test-capture-data.h - hand-built HpCaptureData for the analysis tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tests fill the arrays with static strings, so freeing frees the
 * containers only.
 */
#pragma once

#include "store/hp-capture.h"

typedef HpCaptureData TestData;

/* Empty tables, each zero-filled when it grows (so [0] reads as unused). */
static inline TestData *
test_data_new (void)
{
  TestData *data = g_new0 (TestData, 1);

  data->modules = g_array_new (FALSE, TRUE, sizeof (HpCaptureModule));
  data->functions = g_array_new (FALSE, TRUE, sizeof (HpCaptureFunction));
  data->frames = g_array_new (FALSE, TRUE, sizeof (HpCaptureFrame));
  data->stacks = g_array_new (FALSE, TRUE, sizeof (HpCaptureStack));
  data->stack_counts = g_array_new (FALSE, TRUE, sizeof (HpCaptureStackCount));
  data->threads = g_array_new (FALSE, TRUE, sizeof (HpCaptureThread));
  data->processes = g_array_new (FALSE, TRUE, sizeof (HpCaptureProcess));
  data->metadata = g_hash_table_new (g_str_hash, g_str_equal);
  return data;
}

static inline void
test_data_free (TestData *data)
{
  g_array_unref (data->modules);
  g_array_unref (data->functions);
  g_array_unref (data->frames);
  g_array_unref (data->stacks);
  g_array_unref (data->stack_counts);
  g_array_unref (data->threads);
  g_array_unref (data->processes);
  g_hash_table_unref (data->metadata);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TestData, test_data_free)

/*
 * test_data_new_example(): a capture built by hand so that every number of
 * its profile is known:
 *
 *   functions  1 main, 2 foo, 3 bar, 4 helper (inlined into bar) in "app";
 *              5 syscall in "[kernel.kallsyms]"; 6 foo in the kernel, never
 *              sampled (same name, other module)
 *   frames     1 main:10, 2 foo:20, 3 bar:30, 4 helper:40 (inline),
 *              5 foo:21, 6 syscall
 *   stacks     1 main                         tid 100:   1 sample
 *              2 main>foo                     tid 100:   2
 *              3 main>foo>bar                            -
 *              4 main>foo>bar>helper          tid 100:   4
 *              5 main>foo>bar>foo(:21)        tid 101:  16   (recursion)
 *              6 main>foo>bar>foo>bar         tid 100:   8   (recursion)
 *              7 main>bar                                -
 *              8 main>bar>syscall             tid 101:  32
 *              9 syscall                      tid 102:  64
 *             10 main>foo(:21)                tid 100: 256   (merges with 2)
 *              no stack                       tid 102: 128
 *
 * 511 samples. Self: main 1, foo 2+16+256 = 274, bar 8, helper 4,
 * syscall 96. Total (once per sample): main 319, foo 30+256 = 286 (stack 5
 * is below stack 2), bar 28+32 = 60 (stack 6 is below 3), helper 4,
 * syscall 96.
 */
/* Function ids of the example. */
enum { EX_MAIN = 1, EX_FOO, EX_BAR, EX_HELPER, EX_SYSCALL, EX_KFOO };

static inline HpCaptureData *
test_data_new_example (void)
{
  HpCaptureData *data = test_data_new ();
  static const struct { const char *path; gboolean kernel; } modules[] = {
    { NULL, 0 }, { "/usr/bin/app", FALSE }, { "[kernel.kallsyms]", TRUE },
  };
  static const struct { const char *name; gint64 module; } functions[] = {
    { NULL, 0 }, { "main", 1 }, { "foo", 1 }, { "bar", 1 }, { "helper", 1 },
    { "syscall", 2 }, { "foo", 2 },
  };
  static const struct { gint64 function; guint line; gboolean is_inline; } frames[] = {
    { 0, 0, 0 }, { EX_MAIN, 10, 0 }, { EX_FOO, 20, 0 }, { EX_BAR, 30, 0 }, { EX_HELPER, 40, 1 },
    { EX_FOO, 21, 0 }, { EX_SYSCALL, 0, 0 },
  };
  static const HpCaptureStack stacks[] = {
    { 0, 0 }, { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 4 }, { 3, 5 }, { 5, 3 },
    { 1, 3 }, { 7, 6 }, { 0, 6 }, { 1, 5 },
  };
  static const HpCaptureStackCount counts[] = {
    { 1, 100, 1, 1 }, { 2, 100, 2, 2 }, { 4, 100, 4, 4 }, { 5, 101, 16, 16 },
    { 6, 100, 8, 8 }, { 8, 101, 32, 32 }, { 9, 102, 64, 64 }, { 10, 100, 256, 256 },
    { 0, 102, 128, 128 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (modules); i++)
    {
      HpCaptureModule m = { 0 };

      if (i > 0)
        {
          m.path = (char *) modules[i].path;
          m.name = modules[i].path[0] == '[' ? m.path : (char *) "app";
          m.is_kernel = modules[i].kernel;
        }
      g_array_append_val (data->modules, m);
    }
  for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
    {
      HpCaptureFunction f = { (char *) functions[i].name, functions[i].module, NULL, 0 };

      g_array_append_val (data->functions, f);
    }
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      HpCaptureFrame f = { frames[i].function, NULL, frames[i].line, frames[i].is_inline, i * 16 };

      g_array_append_val (data->frames, f);
    }
  g_array_append_vals (data->stacks, stacks, G_N_ELEMENTS (stacks));
  g_array_append_vals (data->stack_counts, counts, G_N_ELEMENTS (counts));
  return data;
}
