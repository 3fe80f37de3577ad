/* test-capture-filter.c - merged recursion, folded frames on captures known by construction
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <string.h>

#include "analysis/hp-capture-filter.h"
#include "analysis/hp-profile.h"
#include "test-capture-data.h"

static void
render (HpProfile        *profile,
        const HpCallNode *node,
        guint             depth,
        GString          *out)
{
  g_string_append_printf (out, "%*s%s %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "\n", depth * 2, "",
                          node->function_id ? hp_profile_get_function_name (profile, node->function_id) : "<root>",
                          node->self, node->total);
  for (guint i = 0; node->children != NULL && i < node->children->len; i++)
    render (profile, g_ptr_array_index (node->children, i), depth + 1, out);
}

static char *
tree_of (HpCaptureData *data)
{
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  GString *out = g_string_new (NULL);

  render (profile, hp_profile_get_top_down (profile), 0, out);
  return g_string_free (out, FALSE);
}

/* functions 1 main, 2 f, 3 g; frames 1..3 one per function, 4 a second
 * frame of f (another line). Stacks:
 *   1 main  2 main>f  3 main>f>f(line 2)  4 main>f>f>f  5 main>f>f>f>g
 *   6 main>f>g  7 main>f>g>f  8 main>f>f>g
 * counts: 2:1  3:2  4:4  5:8  6:16  7:32  8:64 */
static HpCaptureData *
build_recursive (void)
{
  HpCaptureData *data = test_data_new ();
  static const char *names[] = { NULL, "main", "f", "g" };
  static const HpCaptureStack stacks[] = {
    { 0, 0 }, { 0, 1 }, { 1, 2 }, { 2, 4 }, { 3, 2 }, { 4, 3 }, { 2, 3 }, { 6, 2 }, { 3, 3 },
  };
  static const HpCaptureStackCount counts[] = {
    { 2, 1, 1, 1 }, { 3, 1, 2, 2 }, { 4, 1, 4, 4 }, { 5, 1, 8, 8 }, { 6, 1, 16, 16 },
    { 7, 1, 32, 32 }, { 8, 2, 64, 64 },
  };
  HpCaptureModule m = { 0 };

  g_array_append_val (data->modules, m);
  m.path = (char *) "/bin/app";
  m.name = (char *) "app";
  g_array_append_val (data->modules, m);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      HpCaptureFunction f = { (char *) names[i], i ? 1 : 0, NULL, 0 };

      g_array_append_val (data->functions, f);
    }
  for (guint i = 0; i < 5; i++)
    {
      HpCaptureFrame fr = { i == 4 ? 2 : i, NULL, i, FALSE, i * 16 };

      g_array_append_val (data->frames, fr);
    }
  g_array_append_vals (data->stacks, stacks, G_N_ELEMENTS (stacks));
  g_array_append_vals (data->stack_counts, counts, G_N_ELEMENTS (counts));
  return data;
}

static void
test_merge (void)
{
  g_autoptr(TestData) data = build_recursive ();
  g_autofree char *before = tree_of (data);
  HpCaptureData *merged = hp_capture_data_merge_recursion (data);
  g_autofree char *after = tree_of (merged);

  g_assert_cmpstr (before, ==,
                   "<root> 0/127\n"
                   "  main 0/127\n"
                   "    f 1/127\n"
                   "      f 2/78\n"
                   "        g 64/64\n"
                   "        f 4/12\n"
                   "          g 8/8\n"
                   "      g 16/48\n"
                   "        f 32/32\n");
  /* f > f > f is one f; f > g > f keeps its second f */
  g_assert_cmpstr (after, ==,
                   "<root> 0/127\n"
                   "  main 0/127\n"
                   "    f 7/127\n"
                   "      g 88/120\n"
                   "        f 32/32\n");
  /* the tables not rewritten are shared */
  g_assert_true (merged->functions == data->functions);
  g_assert_true (merged->frames == data->frames);
  g_assert_cmpuint (merged->stacks->len, <, data->stacks->len);
  hp_capture_data_free (merged);
}

/* The example capture has recursion through another function only
 * (foo > bar > foo): nothing to merge, the same tree. */
static void
test_indirect (void)
{
  g_autoptr(TestData) data = test_data_new_example ();
  g_autofree char *before = tree_of (data);
  HpCaptureData *merged = hp_capture_data_merge_recursion (data);
  g_autofree char *after = tree_of (merged);

  g_assert_cmpstr (after, ==, before);
  hp_capture_data_free (merged);
}

/* The example: helper is inlined into bar (stack 4, 4 samples). Folded,
 * those samples are bar's own; nothing else changes. */
static void
test_fold_inline (void)
{
  g_autoptr(TestData) data = test_data_new_example ();
  g_autofree char *before = tree_of (data);
  HpCaptureData *folded = hp_capture_data_fold_inline (data);
  g_autofree char *after = tree_of (folded);
  g_autoptr(HpProfile) profile = hp_profile_new (folded, NULL);
  g_autoptr(HpProfile) original = hp_profile_new (data, NULL);

  g_test_message ("before:\n%safter:\n%s", before, after);
  g_assert_nonnull (strstr (before, "helper 4/4"));
  g_assert_null (strstr (after, "helper"));
  g_assert_nonnull (strstr (after, "\n      bar 4/28\n"));
  g_assert_cmpuint (hp_profile_get_n_samples (profile), ==, hp_profile_get_n_samples (original));
  g_assert_true (folded->frames == data->frames);
  hp_capture_data_free (folded);

  /* nothing inlined: the same tree */
  {
    g_autoptr(TestData) plain = build_recursive ();
    g_autofree char *plain_before = tree_of (plain);
    HpCaptureData *plain_folded = hp_capture_data_fold_inline (plain);
    g_autofree char *plain_after = tree_of (plain_folded);

    g_assert_cmpstr (plain_after, ==, plain_before);
    hp_capture_data_free (plain_folded);
  }
}

/* The example with its kernel hidden: main > bar > syscall counts in bar
 * (32 samples), and the 64 samples of the kernel-only stack (syscall at
 * a root) are left out and counted. */
static void
test_hide_kernel (void)
{
  g_autoptr(TestData) data = test_data_new_example ();
  HpFoldSpec spec = { .hide_kernel = TRUE };
  guint64 dropped = 0;
  HpCaptureData *folded = hp_capture_data_fold (data, &spec, &dropped);
  g_autofree char *after = tree_of (folded);
  g_autoptr(HpProfile) profile = hp_profile_new (folded, NULL);

  g_test_message ("after:\n%s", after);
  g_assert_null (strstr (after, "syscall"));
  g_assert_nonnull (strstr (after, "\n    bar 32/32\n"));
  g_assert_cmpuint (dropped, ==, 64);
  g_assert_cmpuint (hp_profile_get_n_samples (profile), ==, 511 - 64);
  g_assert_cmpuint (hp_profile_get_function_stats (profile, EX_BAR)->self, ==, 8 + 32);
  {
    const HpFunctionStats *syscall = hp_profile_get_function_stats (profile, EX_SYSCALL);

    g_assert_true (syscall == NULL || syscall->total == 0);
  }
  hp_capture_data_free (folded);
}

/* foo folded into its callers: its self (2 + 16 + 256) becomes main's
 * and bar's, and the two bar nodes (under foo and directly under main)
 * become one. Nothing is dropped. */
static void
test_fold_function (void)
{
  g_autoptr(TestData) data = test_data_new_example ();
  g_autoptr(GHashTable) functions = g_hash_table_new (NULL, NULL);
  HpFoldSpec spec = { .functions = functions };
  guint64 dropped = 1;
  HpCaptureData *folded;
  g_autofree char *after = NULL;

  g_hash_table_add (functions, GSIZE_TO_POINTER (EX_FOO));
  g_assert_false (hp_fold_spec_is_empty (&spec));
  folded = hp_capture_data_fold (data, &spec, &dropped);
  after = tree_of (folded);
  g_test_message ("after:\n%s", after);
  g_assert_cmpuint (dropped, ==, 0);
  g_assert_cmpstr (after, ==,
                   "<root> 128/511\n"
                   "  main 259/319\n"
                   "    bar 16/60\n"
                   "      syscall 32/32\n"
                   "      bar 8/8\n"
                   "      helper 4/4\n"
                   "  syscall 64/64\n");
  hp_capture_data_free (folded);
}

/* A module folded: every frame of app but the root's (main, which has no
 * caller) counts in its caller, which is main. */
static void
test_fold_module (void)
{
  g_autoptr(TestData) data = test_data_new_example ();
  g_autoptr(GHashTable) modules = hp_capture_data_find_modules (data, "app");
  HpFoldSpec spec = { .modules = modules };
  HpCaptureData *folded;
  g_autofree char *after = NULL;

  g_assert_cmpuint (g_hash_table_size (modules), ==, 1);
  g_assert_true (g_hash_table_contains (modules, GSIZE_TO_POINTER (1)));
  folded = hp_capture_data_fold (data, &spec, NULL);
  after = tree_of (folded);
  g_test_message ("after:\n%s", after);
  g_assert_cmpstr (after, ==,
                   "<root> 128/511\n"
                   "  main 287/319\n"
                   "    syscall 32/32\n"
                   "  syscall 64/64\n");
  hp_capture_data_free (folded);
}

/* "libc" names libc.so.6 and libc-2.31.so, not libcrypto.so.3 or "lib" */
static void
test_find_modules (void)
{
  g_autoptr(TestData) data = test_data_new_example ();
  static const char *names[] = { "libc.so.6", "libcrypto.so.3", "libc-2.31.so" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      HpCaptureModule m = { (char *) names[i], (char *) names[i], NULL, FALSE };

      g_array_append_val (data->modules, m);  /* ids 3, 4, 5 */
    }
  {
    g_autoptr(GHashTable) libc = hp_capture_data_find_modules (data, "libc");
    g_autoptr(GHashTable) exact = hp_capture_data_find_modules (data, "libcrypto.so.3");
    g_autoptr(GHashTable) none = hp_capture_data_find_modules (data, "lib");

    g_assert_cmpuint (g_hash_table_size (libc), ==, 2);
    g_assert_true (g_hash_table_contains (libc, GSIZE_TO_POINTER (3)));
    g_assert_true (g_hash_table_contains (libc, GSIZE_TO_POINTER (5)));
    g_assert_cmpuint (g_hash_table_size (exact), ==, 1);
    g_assert_cmpuint (g_hash_table_size (none), ==, 0);
  }
  {
    HpFoldSpec empty = { 0 };

    g_assert_true (hp_fold_spec_is_empty (&empty));
    g_assert_true (hp_fold_spec_is_empty (NULL));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/capture-filter/merge-recursion", test_merge);
  g_test_add_func ("/capture-filter/indirect", test_indirect);
  g_test_add_func ("/capture-filter/fold-inline", test_fold_inline);
  g_test_add_func ("/capture-filter/hide-kernel", test_hide_kernel);
  g_test_add_func ("/capture-filter/fold-function", test_fold_function);
  g_test_add_func ("/capture-filter/fold-module", test_fold_module);
  g_test_add_func ("/capture-filter/find-modules", test_find_modules);
  return g_test_run ();
}
