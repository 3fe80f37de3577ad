/* test-profile.c - profile analysis on a capture known by construction
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The capture below is built by hand so that every number is known:
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

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include "analysis/hp-profile.h"
#include "test-capture-data.h"

enum { MAIN = 1, FOO, BAR, HELPER, SYSCALL, KFOO };

static HpCaptureData *
build_data (void)
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
    { 0, 0, 0 }, { MAIN, 10, 0 }, { FOO, 20, 0 }, { BAR, 30, 0 }, { HELPER, 40, 1 },
    { FOO, 21, 0 }, { SYSCALL, 0, 0 },
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

static void
assert_stats (HpProfile *profile,
              gint64     function_id,
              guint64    self,
              guint64    total)
{
  const HpFunctionStats *stats = hp_profile_get_function_stats (profile, function_id);

  g_assert_nonnull (stats);
  g_assert_cmpint (stats->function_id, ==, function_id);
  g_assert_cmpuint (stats->self, ==, self);
  g_assert_cmpuint (stats->total, ==, total);
}

/* Renders a tree as "name self/total" lines, two spaces per level, so a
 * whole tree compares as one string (and a failure shows all of it). */
static void
render (HpProfile        *profile,
        const HpCallNode *node,
        guint             depth,
        GString          *out)
{
  g_string_append_printf (out, "%*s%s %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "\n",
                          depth * 2, "",
                          node->function_id ? hp_profile_get_function_name (profile, node->function_id) : "<root>",
                          node->self, node->total);
  if (node->children == NULL)
    return;
  g_assert_cmpuint (node->children->len, >, 0);
  for (guint i = 0; i < node->children->len; i++)
    {
      const HpCallNode *child = g_ptr_array_index (node->children, i);

      g_assert_true (child->parent == node);
      render (profile, child, depth + 1, out);
    }
}

static void
assert_tree (HpProfile        *profile,
             const HpCallNode *root,
             const char       *expected)
{
  g_autoptr(GString) out = g_string_new (NULL);

  render (profile, root, 0, out);
  g_assert_cmpstr (out->str, ==, expected);
}

static char *
render_edges (HpProfile *profile,
              GArray    *edges)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < edges->len; i++)
    {
      const HpCallEdge *e = &g_array_index (edges, HpCallEdge, i);

      g_string_append_printf (out, "%s%s %" G_GUINT64_FORMAT, i ? ", " : "",
                              hp_profile_get_function_name (profile, e->function_id), e->samples);
    }
  g_array_unref (edges);
  return g_string_free (out, FALSE);
}

static void
assert_edges (HpProfile  *profile,
              gboolean    callers,
              gint64      function_id,
              const char *expected)
{
  g_autofree char *got = render_edges (profile, callers ? hp_profile_get_callers (profile, function_id)
                                                        : hp_profile_get_callees (profile, function_id));

  g_assert_cmpstr (got, ==, expected);
}

static char *
render_functions (HpProfile *profile,
                  gboolean   by_total)
{
  const GArray *functions = hp_profile_get_functions (profile, by_total);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < functions->len; i++)
    {
      const HpFunctionStats *s = &g_array_index (functions, HpFunctionStats, i);

      g_string_append_printf (out, "%s%s %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT, i ? ", " : "",
                              hp_profile_get_function_name (profile, s->function_id), s->self, s->total);
    }
  return g_string_free (out, FALSE);
}

static void
test_functions (void)
{
  g_autoptr(TestData) data = build_data ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  g_autofree char *by_self = NULL;
  g_autofree char *by_total = NULL;

  g_assert_true (hp_profile_get_data (profile) == data);
  g_assert_cmpuint (hp_profile_get_n_samples (profile), ==, 511);
  assert_stats (profile, MAIN, 1, 319);
  assert_stats (profile, FOO, 274, 286);
  assert_stats (profile, BAR, 8, 60);
  assert_stats (profile, HELPER, 4, 4);
  assert_stats (profile, SYSCALL, 96, 96);
  assert_stats (profile, KFOO, 0, 0);
  g_assert_null (hp_profile_get_function_stats (profile, 0));
  g_assert_null (hp_profile_get_function_stats (profile, 7));

  by_self = render_functions (profile, FALSE);
  g_assert_cmpstr (by_self, ==, "foo 274/286, syscall 96/96, bar 8/60, helper 4/4, main 1/319");
  by_total = render_functions (profile, TRUE);
  g_assert_cmpstr (by_total, ==, "main 1/319, foo 274/286, syscall 96/96, bar 8/60, helper 4/4");

  g_assert_cmpstr (hp_profile_get_function_name (profile, HELPER), ==, "helper");
  g_assert_cmpstr (hp_profile_get_module_name (profile, HELPER), ==, "app");
  g_assert_cmpstr (hp_profile_get_module_name (profile, SYSCALL), ==, "[kernel.kallsyms]");

  {
    g_autoptr(GArray) foos = hp_profile_find_functions (profile, "foo");
    g_autoptr(GArray) none = hp_profile_find_functions (profile, "fo");

    g_assert_cmpuint (foos->len, ==, 2);
    g_assert_cmpint (g_array_index (foos, gint64, 0), ==, FOO);
    g_assert_cmpint (g_array_index (foos, gint64, 1), ==, KFOO);
    g_assert_cmpuint (none->len, ==, 0);
  }
}

static void
test_top_down (void)
{
  g_autoptr(TestData) data = build_data ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);

  /* stacks 2 and 10 (foo at two lines) merge into one main > foo node */
  assert_tree (profile, hp_profile_get_top_down (profile),
               "<root> 128/511\n"
               "  main 1/319\n"
               "    foo 258/286\n"
               "      bar 0/28\n"
               "        foo 16/24\n"
               "          bar 8/8\n"
               "        helper 4/4\n"
               "    bar 0/32\n"
               "      syscall 32/32\n"
               "  syscall 64/64\n");
}

static void
test_bottom_up (void)
{
  g_autoptr(TestData) data = build_data ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);

  assert_tree (profile, hp_profile_get_bottom_up (profile),
               "<root> 128/511\n"
               "  foo 274/274\n"
               "    main 258/258\n"
               "    bar 16/16\n"
               "      foo 16/16\n"
               "        main 16/16\n"
               "  syscall 96/96\n"
               "    bar 32/32\n"
               "      main 32/32\n"
               "  bar 8/8\n"
               "    foo 8/8\n"
               "      bar 8/8\n"
               "        foo 8/8\n"
               "          main 8/8\n"
               "  helper 4/4\n"
               "    bar 4/4\n"
               "      foo 4/4\n"
               "        main 4/4\n"
               "  main 1/1\n");
}

static void
test_callers_callees (void)
{
  g_autoptr(TestData) data = build_data ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);

  /* foo > bar occurs twice in stack 6 and counts once: 28, not 36 */
  assert_edges (profile, FALSE, MAIN, "foo 286, bar 32");
  assert_edges (profile, FALSE, FOO, "bar 28");
  assert_edges (profile, FALSE, BAR, "syscall 32, foo 24, helper 4");
  assert_edges (profile, FALSE, HELPER, "");
  assert_edges (profile, TRUE, MAIN, "");
  assert_edges (profile, TRUE, FOO, "main 286, bar 24");
  assert_edges (profile, TRUE, BAR, "main 32, foo 28");
  assert_edges (profile, TRUE, HELPER, "bar 4");
  /* the root syscall (stack 9) has no caller */
  assert_edges (profile, TRUE, SYSCALL, "bar 32");
  assert_edges (profile, TRUE, KFOO, "");
}

static void
test_tid_filter (void)
{
  g_autoptr(TestData) data = build_data ();
  g_autoptr(GHashTable) tids = g_hash_table_new (NULL, NULL);
  g_autoptr(HpProfile) profile = NULL;
  g_autofree char *by_self = NULL;
  g_autoptr(GArray) callees = NULL;

  g_hash_table_add (tids, GINT_TO_POINTER (101));
  profile = hp_profile_new (data, tids);

  g_assert_cmpuint (hp_profile_get_n_samples (profile), ==, 48);
  assert_stats (profile, MAIN, 0, 48);
  assert_stats (profile, FOO, 16, 16);
  assert_stats (profile, BAR, 0, 48);
  assert_stats (profile, HELPER, 0, 0);
  assert_stats (profile, SYSCALL, 32, 32);
  by_self = render_functions (profile, FALSE);
  g_assert_cmpstr (by_self, ==, "syscall 32/32, foo 16/16, bar 0/48, main 0/48");

  /* no node without samples of the chosen threads */
  assert_tree (profile, hp_profile_get_top_down (profile),
               "<root> 0/48\n"
               "  main 0/48\n"
               "    bar 0/32\n"
               "      syscall 32/32\n"
               "    foo 0/16\n"
               "      bar 0/16\n"
               "        foo 16/16\n");
  assert_edges (profile, FALSE, BAR, "syscall 32, foo 16");
}

static const HpCallNode *
child_named (HpProfile        *profile,
             const HpCallNode *node,
             const char       *name)
{
  g_assert_nonnull (node->children);
  for (guint i = 0; i < node->children->len; i++)
    {
      const HpCallNode *child = g_ptr_array_index (node->children, i);

      if (g_strcmp0 (hp_profile_get_function_name (profile, child->function_id), name) == 0)
        return child;
    }
  g_assert_not_reached ();
}

static void
test_paths (void)
{
  g_autoptr(TestData) data = build_data ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  const HpCallNode *root = hp_profile_get_top_down (profile);
  const HpCallNode *helper;
  const HpCallNode *syscall;
  g_autofree char *key = NULL;
  g_autofree char *readable = NULL;
  g_autofree char *root_key = NULL;
  g_autofree char *syscall_key = NULL;

  helper = child_named (profile, child_named (profile, child_named (profile, child_named (profile, root, "main"), "foo"), "bar"), "helper");
  key = hp_call_node_path_key (profile, helper);
  g_assert_cmpstr (key, ==, "app\tmain\napp\tfoo\napp\tbar\napp\thelper\n");
  readable = hp_call_node_readable_path (profile, helper);
  g_assert_cmpstr (readable, ==, "main → foo → bar → helper");

  syscall = child_named (profile, child_named (profile, child_named (profile, root, "main"), "bar"), "syscall");
  syscall_key = hp_call_node_path_key (profile, syscall);
  g_assert_cmpstr (syscall_key, ==, "app\tmain\napp\tbar\n[kernel.kallsyms]\tsyscall\n");

  root_key = hp_call_node_path_key (profile, root);
  g_assert_cmpstr (root_key, ==, "");
}

static void
test_empty (void)
{
  g_autoptr(TestData) data = build_data ();
  g_autoptr(HpProfile) profile = NULL;
  g_autoptr(GArray) callers = NULL;

  g_array_set_size (data->stack_counts, 0);
  profile = hp_profile_new (data, NULL);
  g_assert_cmpuint (hp_profile_get_n_samples (profile), ==, 0);
  g_assert_cmpuint (hp_profile_get_functions (profile, TRUE)->len, ==, 0);
  g_assert_null (hp_profile_get_top_down (profile)->children);
  g_assert_null (hp_profile_get_bottom_up (profile)->children);
  callers = hp_profile_get_callers (profile, FOO);
  g_assert_cmpuint (callers->len, ==, 0);
}


/* Thousands of nodes (the small capture above never grows the profile's
 * child tables): main calls N functions, each calls one shared leaf;
 * f_i gets (i % 7) + 1 samples. Also checks hp_profile_find_path. */
static void
test_large (void)
{
  enum { N = 3000 };
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(TestData) data = test_data_new ();
  g_autoptr(HpProfile) profile = NULL;
  const HpCallNode *root, *main_node, *bu_root;
  HpCaptureModule module = { (char *) "/usr/bin/app", (char *) "app", NULL, FALSE };
  HpCaptureModule none = { 0 };
  guint64 sum = 0;

  g_array_append_val (data->modules, none);
  g_array_append_val (data->modules, module);

  /* function and frame ids: 1 main, 2 leaf, 3 + i for f_i */
  g_array_set_size (data->functions, 3 + N);
  g_array_set_size (data->frames, 3 + N);
  for (guint i = 1; i < 3 + N; i++)
    {
      HpCaptureFunction *f = &g_array_index (data->functions, HpCaptureFunction, i);
      HpCaptureFrame *fr = &g_array_index (data->frames, HpCaptureFrame, i);
      char *name = i == 1 ? g_strdup ("main") : i == 2 ? g_strdup ("leaf") : g_strdup_printf ("f_%u", i - 3);

      g_ptr_array_add (names, name);
      f->name = name;
      f->module_id = 1;
      fr->function_id = i;
      fr->line = i;
    }

  /* stack 1 main; 2 + 2i main>f_i; 3 + 2i main>f_i>leaf */
  g_array_set_size (data->stacks, 2 + 2 * N);
  g_array_index (data->stacks, HpCaptureStack, 1) = (HpCaptureStack) { 0, 1 };
  for (guint i = 0; i < N; i++)
    {
      HpCaptureStackCount c = { 3 + 2 * i, 100, (i % 7) + 1, (i % 7) + 1 };

      g_array_index (data->stacks, HpCaptureStack, 2 + 2 * i) = (HpCaptureStack) { 1, 3 + i };
      g_array_index (data->stacks, HpCaptureStack, 3 + 2 * i) = (HpCaptureStack) { 2 + 2 * i, 2 };
      g_array_append_val (data->stack_counts, c);
      sum += c.samples;
    }

  profile = hp_profile_new (data, NULL);
  g_assert_cmpuint (hp_profile_get_n_samples (profile), ==, sum);

  root = hp_profile_get_top_down (profile);
  g_assert_cmpuint (root->children->len, ==, 1);
  main_node = g_ptr_array_index (root->children, 0);
  g_assert_cmpint (main_node->function_id, ==, 1);
  g_assert_cmpuint (main_node->total, ==, sum);
  g_assert_cmpuint (main_node->children->len, ==, N);
  for (guint i = 0; i < N; i++)
    {
      const HpCallNode *child = g_ptr_array_index (main_node->children, i);
      guint index = (guint) child->function_id - 3;
      const HpCallNode *leaf;

      g_assert_cmpuint (child->total, ==, (index % 7) + 1);
      g_assert_cmpuint (child->self, ==, 0);
      g_assert_cmpuint (child->children->len, ==, 1);
      leaf = g_ptr_array_index (child->children, 0);
      g_assert_cmpint (leaf->function_id, ==, 2);
      g_assert_cmpuint (leaf->self, ==, child->total);
      if (i > 0)
        g_assert_cmpuint (((const HpCallNode *) g_ptr_array_index (main_node->children, i - 1))->total, >=, child->total);
    }
  g_assert_cmpuint (hp_profile_get_function_stats (profile, 2)->self, ==, sum);

  bu_root = hp_profile_get_bottom_up (profile);
  g_assert_cmpuint (bu_root->children->len, ==, 1);
  g_assert_cmpuint (((const HpCallNode *) g_ptr_array_index (bu_root->children, 0))->total, ==, sum);
  g_assert_cmpuint (((const HpCallNode *) g_ptr_array_index (bu_root->children, 0))->children->len, ==, N);

  {
    const char *whole[] = { "main", "f_1234", "leaf", NULL };
    const char *suffix[] = { "f_6", "leaf", NULL };
    const char *shared[] = { "leaf", NULL };
    const char *wrong[] = { "f_6", "main", NULL };
    const HpCallNode *node;

    node = hp_profile_find_path (profile, whole);
    g_assert_nonnull (node);
    g_assert_cmpstr (hp_profile_get_function_name (profile, node->parent->function_id), ==, "f_1234");
    g_assert_cmpuint (node->total, ==, (1234 % 7) + 1);
    node = hp_profile_find_path (profile, suffix);
    g_assert_nonnull (node);
    g_assert_cmpuint (node->total, ==, 7);
    /* Several nodes end with "leaf": the one with the most samples (7). */
    node = hp_profile_find_path (profile, shared);
    g_assert_nonnull (node);
    g_assert_cmpuint (node->total, ==, 7);
    g_assert_null (hp_profile_find_path (profile, wrong));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/profile/functions", test_functions);
  g_test_add_func ("/profile/top-down", test_top_down);
  g_test_add_func ("/profile/bottom-up", test_bottom_up);
  g_test_add_func ("/profile/callers-callees", test_callers_callees);
  g_test_add_func ("/profile/tid-filter", test_tid_filter);
  g_test_add_func ("/profile/paths", test_paths);
  g_test_add_func ("/profile/empty", test_empty);
  g_test_add_func ("/profile/large", test_large);

  return g_test_run ();
}
