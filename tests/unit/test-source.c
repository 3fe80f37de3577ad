/* test-source.c - per-line samples of a function on a capture known by construction
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The capture below is built by hand so that every line count is known:
 *
 *   functions  1 main, 2 work, 3 helper (inlined into work, from util.h),
 *              4 rec (recursive), 5 other, all in "app"; 6 syscall in the
 *              kernel (no line)
 *   frames     1 main app.c:10      2 main app.c:12
 *              3 work app.c:20      4 work app.c:22
 *              5 helper util.h:5 (inline, call site is frame 3)
 *              6 rec app.c:30       7 rec app.c:31
 *              8 syscall (no file, line 0)
 *              9 work gen.inc:3 (code of work from an included file)
 *             10 work app.c, line 0 (no line info)
 *             11 other app.c:22 (same file:line as frame 4, other function)
 *   stacks     1 main:10                              tid 100:    1
 *              2 main:10>work:20                      tid 100:    2
 *              3 main:10>work:20>helper:5             tid 100:    4
 *              4 main:10>work:22                      tid 101:    8
 *              5 main:12                                         -
 *              6 main:12>rec:30                       tid 100:   16
 *              7 main:12>rec:30>rec:30                tid 100:   32  (same line)
 *              8 main:12>rec:30>rec:30>rec:31         tid 101:   64
 *              9 main:12>rec:30>rec:30>rec:31>rec:30  tid 100:  128  (same line, deeper)
 *             10 main:10>work:22>syscall              tid 102:  256
 *             11 main:10>work(gen.inc:3)              tid 100:    3
 *             12 main:10>work(:0)                     tid 100: 1024
 *             13 main:10>other:22                     tid 100: 2048
 *
 * All threads, as self/total per line:
 *   main    app.c   10: 1/3346 (everything under stack 1), 12: 0/240
 *   work    app.c   20: 2/6 (helper's call site), 22: 8/264; gen.inc loses
 *                   with 3 samples; line 0 (1024) and other:22 (2048) are
 *                   not work's lines
 *   helper  util.h   5: 4/4
 *   rec     app.c   30: 16+32+128 = 176 self / 240 total (stacks 7 and 9
 *                   repeat line 30 of an ancestor: counted once per sample),
 *                   31: 64/192
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <string.h>

#include "analysis/hp-block-pool.h"
#include "analysis/hp-source.h"
#include "test-capture-data.h"

enum { MAIN = 1, WORK, HELPER, REC, OTHER, SYSCALL, N_FUNCTIONS };

#define APP_C "/src/app.c"
#define UTIL_H "/src/util.h"
#define GEN_INC "/src/gen.inc"

static HpCaptureData *
build_data (void)
{
  HpCaptureData *data = test_data_new ();
  static const struct { const char *path; gboolean kernel; } modules[] = {
    { NULL, 0 }, { "/usr/bin/app", FALSE }, { "[kernel.kallsyms]", TRUE },
  };
  static const struct { const char *name; gint64 module; const char *file; guint line; } functions[] = {
    { NULL, 0, NULL, 0 }, { "main", 1, APP_C, 9 }, { "work", 1, APP_C, 19 },
    { "helper", 1, UTIL_H, 4 }, { "rec", 1, APP_C, 29 }, { "other", 1, APP_C, 21 },
    { "syscall", 2, NULL, 0 },
  };
  static const struct { gint64 function; const char *file; guint line; gboolean is_inline; } frames[] = {
    { 0, NULL, 0, 0 },
    { MAIN, APP_C, 10, 0 }, { MAIN, APP_C, 12, 0 }, { WORK, APP_C, 20, 0 },
    { WORK, APP_C, 22, 0 }, { HELPER, UTIL_H, 5, 1 }, { REC, APP_C, 30, 0 },
    { REC, APP_C, 31, 0 }, { SYSCALL, NULL, 0, 0 }, { WORK, GEN_INC, 3, 0 },
    { WORK, APP_C, 0, 0 }, { OTHER, APP_C, 22, 0 },
  };
  static const HpCaptureStack stacks[] = {
    { 0, 0 }, { 0, 1 }, { 1, 3 }, { 2, 5 }, { 1, 4 }, { 0, 2 }, { 5, 6 },
    { 6, 6 }, { 7, 7 }, { 8, 6 }, { 4, 8 }, { 1, 9 }, { 1, 10 }, { 1, 11 },
  };
  static const HpCaptureStackCount counts[] = {
    { 1, 100, 1, 1 }, { 2, 100, 2, 2 }, { 3, 100, 4, 4 }, { 4, 101, 8, 8 },
    { 6, 100, 16, 16 }, { 7, 100, 32, 32 }, { 8, 101, 64, 64 },
    { 9, 100, 128, 128 }, { 10, 102, 256, 256 }, { 11, 100, 3, 3 },
    { 12, 100, 1024, 1024 }, { 13, 100, 2048, 2048 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (modules); i++)
    {
      HpCaptureModule m = { 0 };

      if (i > 0)
        {
          m.path = (char *) modules[i].path;
          m.name = modules[i].kernel ? m.path : (char *) "app";
          m.is_kernel = modules[i].kernel;
        }
      g_array_append_val (data->modules, m);
    }
  for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
    {
      HpCaptureFunction f = { (char *) functions[i].name, functions[i].module,
                              (char *) functions[i].file, functions[i].line };

      g_array_append_val (data->functions, f);
    }
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      HpCaptureFrame f = { frames[i].function, (char *) frames[i].file, frames[i].line,
                           frames[i].is_inline, i * 16 };

      g_array_append_val (data->frames, f);
    }
  g_array_append_vals (data->stacks, stacks, G_N_ELEMENTS (stacks));
  g_array_append_vals (data->stack_counts, counts, G_N_ELEMENTS (counts));
  return data;
}

static GHashTable *
tid_set (gint32 tid)
{
  GHashTable *tids = g_hash_table_new (NULL, NULL);

  g_hash_table_add (tids, GINT_TO_POINTER (tid));
  return tids;
}

/* "file hottest self/total: line self/total, ..." so that a whole
 * annotation compares as one string and a failure shows all of it. */
static char *
render (const HpSourceAnnotation *a)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "%s %u %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT ":",
                          a->file ? a->file : "(none)", a->hottest_line, a->self, a->total);
  for (guint i = 0; i < a->lines->len; i++)
    {
      const HpSourceLine *l = &g_array_index (a->lines, HpSourceLine, i);

      g_string_append_printf (out, " %u %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
                              l->line, l->self, l->total);
    }
  return g_string_free (out, FALSE);
}

static void
assert_annotation (HpProfile  *profile,
                   gint64      function_id,
                   const char *expected)
{
  g_autoptr(HpSourceAnnotation) a = hp_source_annotation_new (profile, function_id);
  g_autofree char *got = NULL;

  g_assert_nonnull (a);
  g_assert_nonnull (a->lines);
  got = render (a);
  g_assert_cmpstr (got, ==, expected);
}

static void
test_all_threads (void)
{
  g_autoptr(TestData) data = build_data ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);

  assert_annotation (profile, MAIN, APP_C " 10 1/3586: 10 1/3346 12 0/240");
  /* line 20 holds helper's call site: in work's total, not its self */
  assert_annotation (profile, WORK, APP_C " 22 10/270: 20 2/6 22 8/264");
  assert_annotation (profile, HELPER, UTIL_H " 5 4/4: 5 4/4");
  assert_annotation (profile, REC, APP_C " 30 240/432: 30 176/240 31 64/192");
  assert_annotation (profile, OTHER, APP_C " 22 2048/2048: 22 2048/2048");
}

static void
test_recursion_once_per_sample (void)
{
  g_autoptr(TestData) data = build_data ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  g_autoptr(HpSourceAnnotation) a = hp_source_annotation_new (profile, REC);
  const HpFunctionStats *stats = hp_profile_get_function_stats (profile, REC);

  /* No line can count more samples than the function has in total, and
   * self of the lines adds up to the function's self (every rec frame has
   * a line). */
  g_assert_cmpuint (stats->total, ==, 240);
  for (guint i = 0; i < a->lines->len; i++)
    g_assert_cmpuint (g_array_index (a->lines, HpSourceLine, i).total, <=, stats->total);
  g_assert_cmpuint (a->self, ==, stats->self);
}

static void
test_thread_filter (void)
{
  g_autoptr(TestData) data = build_data ();
  g_autoptr(GHashTable) t100 = tid_set (100);
  g_autoptr(GHashTable) t101 = tid_set (101);
  g_autoptr(GHashTable) t102 = tid_set (102);
  g_autoptr(HpProfile) p100 = hp_profile_new (data, t100);
  g_autoptr(HpProfile) p101 = hp_profile_new (data, t101);
  g_autoptr(HpProfile) p102 = hp_profile_new (data, t102);

  /* line 22 has no samples of thread 100 and is left out */
  assert_annotation (p100, WORK, APP_C " 20 2/6: 20 2/6");
  assert_annotation (p100, REC, APP_C " 30 176/304: 30 176/176 31 0/128");
  /* a tie on total goes to the line with more self */
  assert_annotation (p101, REC, APP_C " 31 64/128: 30 0/64 31 64/64");
  assert_annotation (p101, WORK, APP_C " 22 8/8: 22 8/8");
  assert_annotation (p101, HELPER, "(none) 0 0/0:");
  assert_annotation (p102, WORK, APP_C " 22 0/256: 22 0/256");
  assert_annotation (p102, MAIN, APP_C " 10 0/256: 10 0/256");
}

static void
test_file_choice (void)
{
  g_autoptr(TestData) data = build_data ();
  g_autoptr(HpProfile) profile = NULL;

  /* Make work's gen.inc frame the hottest: the annotation switches file and
   * shows none of app.c's lines. */
  g_array_index (data->stack_counts, HpCaptureStackCount, 9).samples = 500;
  profile = hp_profile_new (data, NULL);
  assert_annotation (profile, WORK, GEN_INC " 3 500/500: 3 500/500");
}

static void
test_no_lines (void)
{
  g_autoptr(TestData) data = build_data ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);

  /* The kernel function has samples but no line: nothing to annotate */
  assert_annotation (profile, SYSCALL, "(none) 0 0/0:");
  assert_annotation (profile, 0, "(none) 0 0/0:");
  assert_annotation (profile, N_FUNCTIONS, "(none) 0 0/0:");
  assert_annotation (profile, -1, "(none) 0 0/0:");
}

static void
test_empty_capture (void)
{
  g_autoptr(TestData) data = build_data ();
  g_autoptr(HpProfile) profile = NULL;

  g_array_set_size (data->stacks, 0);
  g_array_set_size (data->stack_counts, 0);
  profile = hp_profile_new (data, NULL);
  assert_annotation (profile, MAIN, "(none) 0 0/0:");
}

/* Per-line counts computed the slow way: every sample's path walked on its
 * own, each (file, line) of the function counted once per sample. The fast
 * version must agree with it for every function and thread selection. */
static char *
annotate_naively (const HpCaptureData *data,
                  GHashTable          *tids,
                  gint64               function_id,
                  const char          *file)
{
  g_autoptr(GHashTable) self = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) total = g_hash_table_new (NULL, NULL);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);
      g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

      if (tids != NULL && !g_hash_table_contains (tids, GINT_TO_POINTER (c->tid)))
        continue;
      for (gint64 s = c->stack_id; s != 0; s = g_array_index (data->stacks, HpCaptureStack, s).parent_id)
        {
          gint64 frame_id = g_array_index (data->stacks, HpCaptureStack, s).frame_id;
          const HpCaptureFrame *f = &g_array_index (data->frames, HpCaptureFrame, frame_id);
          gpointer key = GUINT_TO_POINTER (f->line);

          if (f->function_id != function_id || f->line == 0 || g_strcmp0 (f->file, file) != 0)
            continue;
          if (s == c->stack_id)
            g_hash_table_insert (self, key, GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (self, key)) + c->samples));
          if (!g_hash_table_contains (seen, key))
            {
              g_hash_table_add (seen, key);
              g_hash_table_insert (total, key, GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (total, key)) + c->samples));
            }
        }
    }

  /* the capture's lines are all below 100 */
  for (guint line = 1; line < 100; line++)
    if (g_hash_table_contains (total, GUINT_TO_POINTER (line)))
      g_string_append_printf (out, " %u %" G_GSIZE_FORMAT "/%" G_GSIZE_FORMAT, line,
                              GPOINTER_TO_SIZE (g_hash_table_lookup (self, GUINT_TO_POINTER (line))),
                              GPOINTER_TO_SIZE (g_hash_table_lookup (total, GUINT_TO_POINTER (line))));
  return g_string_free (out, FALSE);
}

static void
test_against_naive (void)
{
  g_autoptr(TestData) data = build_data ();
  const gint32 selections[] = { 0, 100, 101, 102 };

  for (guint t = 0; t < G_N_ELEMENTS (selections); t++)
    {
      g_autoptr(GHashTable) tids = selections[t] ? tid_set (selections[t]) : NULL;
      g_autoptr(HpProfile) profile = hp_profile_new (data, tids);

      for (gint64 f = 1; f < N_FUNCTIONS; f++)
        {
          g_autoptr(HpSourceAnnotation) a = hp_source_annotation_new (profile, f);
          g_autofree char *expected = annotate_naively (data, tids, f, a->file);
          g_autofree char *got = render (a);

          g_assert_cmpstr (strchr (got, ':') + 1, ==, expected);
        }
    }
}

/* Annotations take the per-stack blocks of the one before (hp-block-pool.c)
 * dirty: each function's must still be the naive one. 300 000 stacks
 * without samples (a chain of `other` below main) make every block big
 * enough to be kept. */
static void
test_reused_blocks (void)
{
  g_autoptr(TestData) data = build_data ();
  g_autoptr(HpProfile) profile = NULL;
  guint reuses;

  for (guint i = 0; i < 300000; i++)
    {
      HpCaptureStack s = { i == 0 ? 1 : data->stacks->len - 1, 11 };

      g_array_append_val (data->stacks, s);
    }
  profile = hp_profile_new (data, NULL);
  hp_block_pool_trim ();
  reuses = hp_block_pool_get_reuses ();
  for (gint64 f = 1; f < N_FUNCTIONS; f++)
    {
      g_autoptr(HpSourceAnnotation) a = hp_source_annotation_new (profile, f);
      g_autofree char *expected = annotate_naively (data, NULL, f, a->file);
      g_autofree char *got = render (a);

      g_assert_cmpstr (strchr (got, ':') + 1, ==, expected);
    }
  /* three blocks for every annotation but the first */
  g_assert_cmpuint (hp_block_pool_get_reuses () - reuses, >=, 3 * (N_FUNCTIONS - 2));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/source/all-threads", test_all_threads);
  g_test_add_func ("/source/recursion-once-per-sample", test_recursion_once_per_sample);
  g_test_add_func ("/source/thread-filter", test_thread_filter);
  g_test_add_func ("/source/file-choice", test_file_choice);
  g_test_add_func ("/source/no-lines", test_no_lines);
  g_test_add_func ("/source/empty-capture", test_empty_capture);
  g_test_add_func ("/source/against-naive", test_against_naive);
  g_test_add_func ("/source/reused-blocks", test_reused_blocks);

  return g_test_run ();
}
