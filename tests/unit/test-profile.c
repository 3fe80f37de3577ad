/* test-profile.c - profile analysis on a capture known by construction
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * On the capture of test_data_new_example() (test-capture-data.h), whose
 * every number is known by construction.
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <string.h>

#include "analysis/hp-block-pool.h"
#include "analysis/hp-profile.h"
#include "analysis/hp-sample-index.h"
#include "test-capture-data.h"

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

/* Renders a tree as "name self/total" lines ("name#id self/total" with
 * @ids), two spaces per level, so a whole tree compares as one string
 * (and a failure shows all of it). */
static void
render_tree (HpProfile        *profile,
             const HpCallNode *node,
             guint             depth,
             gboolean          ids,
             GString          *out)
{
  const char *name = node->function_id || ids ? hp_profile_get_function_name (profile, node->function_id) : "<root>";

  if (ids)
    g_string_append_printf (out, "%*s%s#%" G_GINT64_FORMAT " %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "\n",
                            depth * 2, "", name, node->function_id, node->self, node->total);
  else
    g_string_append_printf (out, "%*s%s %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "\n",
                            depth * 2, "", name, node->self, node->total);
  if (node->children == NULL)
    return;
  g_assert_cmpuint (node->children->len, >, 0);
  for (guint i = 0; i < node->children->len; i++)
    {
      const HpCallNode *child = g_ptr_array_index (node->children, i);

      g_assert_true (child->parent == node);
      render_tree (profile, child, depth + 1, ids, out);
    }
}

static void
assert_tree (HpProfile        *profile,
             const HpCallNode *root,
             const char       *expected)
{
  g_autoptr(GString) out = g_string_new (NULL);

  render_tree (profile, root, 0, FALSE, out);
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
  g_autoptr(TestData) data = test_data_new_example ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  g_autofree char *by_self = NULL;
  g_autofree char *by_total = NULL;

  g_assert_true (hp_profile_get_data (profile) == data);
  g_assert_cmpuint (hp_profile_get_n_samples (profile), ==, 511);
  assert_stats (profile, EX_MAIN, 1, 319);
  assert_stats (profile, EX_FOO, 274, 286);
  assert_stats (profile, EX_BAR, 8, 60);
  assert_stats (profile, EX_HELPER, 4, 4);
  assert_stats (profile, EX_SYSCALL, 96, 96);
  assert_stats (profile, EX_KFOO, 0, 0);
  g_assert_null (hp_profile_get_function_stats (profile, 0));
  g_assert_null (hp_profile_get_function_stats (profile, 7));

  by_self = render_functions (profile, FALSE);
  g_assert_cmpstr (by_self, ==, "foo 274/286, syscall 96/96, bar 8/60, helper 4/4, main 1/319");
  by_total = render_functions (profile, TRUE);
  g_assert_cmpstr (by_total, ==, "main 1/319, foo 274/286, syscall 96/96, bar 8/60, helper 4/4");

  g_assert_cmpstr (hp_profile_get_function_name (profile, EX_HELPER), ==, "helper");
  g_assert_cmpstr (hp_profile_get_module_name (profile, EX_HELPER), ==, "app");
  g_assert_cmpstr (hp_profile_get_module_name (profile, EX_SYSCALL), ==, "[kernel.kallsyms]");

  {
    g_autoptr(GArray) foos = hp_profile_find_functions (profile, "foo");
    g_autoptr(GArray) none = hp_profile_find_functions (profile, "fo");

    g_assert_cmpuint (foos->len, ==, 2);
    g_assert_cmpint (g_array_index (foos, gint64, 0), ==, EX_FOO);
    g_assert_cmpint (g_array_index (foos, gint64, 1), ==, EX_KFOO);
    g_assert_cmpuint (none->len, ==, 0);
  }
}

static void
test_top_down (void)
{
  g_autoptr(TestData) data = test_data_new_example ();
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
  g_autoptr(TestData) data = test_data_new_example ();
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
  g_autoptr(TestData) data = test_data_new_example ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);

  /* foo > bar occurs twice in stack 6 and counts once: 28, not 36 */
  assert_edges (profile, FALSE, EX_MAIN, "foo 286, bar 32");
  assert_edges (profile, FALSE, EX_FOO, "bar 28");
  assert_edges (profile, FALSE, EX_BAR, "syscall 32, foo 24, helper 4");
  assert_edges (profile, FALSE, EX_HELPER, "");
  assert_edges (profile, TRUE, EX_MAIN, "");
  assert_edges (profile, TRUE, EX_FOO, "main 286, bar 24");
  assert_edges (profile, TRUE, EX_BAR, "main 32, foo 28");
  assert_edges (profile, TRUE, EX_HELPER, "bar 4");
  /* the root syscall (stack 9) has no caller */
  assert_edges (profile, TRUE, EX_SYSCALL, "bar 32");
  assert_edges (profile, TRUE, EX_KFOO, "");
}

static void
test_tid_filter (void)
{
  g_autoptr(TestData) data = test_data_new_example ();
  g_autoptr(GHashTable) tids = g_hash_table_new (NULL, NULL);
  g_autoptr(HpProfile) profile = NULL;
  g_autofree char *by_self = NULL;
  g_autoptr(GArray) callees = NULL;

  g_hash_table_add (tids, GINT_TO_POINTER (101));
  profile = hp_profile_new (data, tids);

  g_assert_cmpuint (hp_profile_get_n_samples (profile), ==, 48);
  assert_stats (profile, EX_MAIN, 0, 48);
  assert_stats (profile, EX_FOO, 16, 16);
  assert_stats (profile, EX_BAR, 0, 48);
  assert_stats (profile, EX_HELPER, 0, 0);
  assert_stats (profile, EX_SYSCALL, 32, 32);
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
  assert_edges (profile, FALSE, EX_BAR, "syscall 32, foo 16");
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
  g_autoptr(TestData) data = test_data_new_example ();
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
  g_autoptr(TestData) data = test_data_new_example ();
  g_autoptr(HpProfile) profile = NULL;
  g_autoptr(GArray) callers = NULL;

  g_array_set_size (data->stack_counts, 0);
  profile = hp_profile_new (data, NULL);
  g_assert_cmpuint (hp_profile_get_n_samples (profile), ==, 0);
  g_assert_cmpuint (hp_profile_get_functions (profile, TRUE)->len, ==, 0);
  g_assert_null (hp_profile_get_top_down (profile)->children);
  g_assert_null (hp_profile_get_bottom_up (profile)->children);
  callers = hp_profile_get_callers (profile, EX_FOO);
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

/* Reference ---------------------------------------------------------- */

/* The profile computed the plain way, one sample path at a time, to
 * compare the real one with on random captures: the real one derives
 * everything from the stack prefix tree in one walk per tree, the two
 * trees in two threads, and takes shortcuts (merged nodes, per-function
 * occurrence chains for recursion) that this does not. */
typedef struct _RefNode RefNode;
struct _RefNode {
  gint64      function_id;
  guint64     self;
  guint64     total;
  GHashTable *children;  /* function id -> RefNode */
};

static RefNode *
ref_node_new (gint64 function_id)
{
  RefNode *node = g_new0 (RefNode, 1);

  node->function_id = function_id;
  node->children = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, NULL);
  return node;
}

static void
ref_node_free (RefNode *node)
{
  GHashTableIter iter;
  gpointer child;

  g_hash_table_iter_init (&iter, node->children);
  while (g_hash_table_iter_next (&iter, NULL, &child))
    ref_node_free (child);
  g_hash_table_unref (node->children);
  g_free (node);
}

static RefNode *
ref_child (RefNode *node,
           gint64   function_id)
{
  RefNode *child = g_hash_table_lookup (node->children, &function_id);

  if (child == NULL)
    {
      child = ref_node_new (function_id);
      g_hash_table_insert (node->children, &child->function_id, child);
    }
  return child;
}

typedef struct {
  gint64  caller;
  gint64  callee;
  guint64 samples;
} RefEdge;

typedef struct {
  HpProfile *profile;  /* for the names only */
  RefNode   *top_down;
  RefNode   *bottom_up;
  guint64   *self;     /* by function id */
  guint64   *total;
  GHashTable *edges;   /* "caller callee" -> RefEdge */
  guint       n_functions;
  GPtrArray **callers; /* by function id: RefNode (function, total = samples) */
  GPtrArray **callees;
} Ref;

static Ref *
ref_new (HpProfile           *profile,
         const HpCaptureData *data,
         GHashTable          *tids)
{
  Ref *ref = g_new0 (Ref, 1);
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (gint64));

  ref->profile = profile;
  ref->top_down = ref_node_new (0);
  ref->bottom_up = ref_node_new (0);
  ref->self = g_new0 (guint64, data->functions->len + 1);
  ref->total = g_new0 (guint64, data->functions->len + 1);
  ref->edges = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);
      g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      RefNode *node;

      if (tids != NULL && !g_hash_table_contains (tids, GINT_TO_POINTER (c->tid)))
        continue;

      /* the functions of the sample's path, root first */
      g_array_set_size (path, 0);
      for (gint64 s = c->stack_id; s != 0; s = g_array_index (data->stacks, HpCaptureStack, s).parent_id)
        {
          gint64 frame = g_array_index (data->stacks, HpCaptureStack, s).frame_id;

          g_array_prepend_val (path, g_array_index (data->frames, HpCaptureFrame, frame).function_id);
        }

      ref->top_down->total += c->samples;
      ref->bottom_up->total += c->samples;
      if (path->len == 0)
        {
          ref->top_down->self += c->samples;
          ref->bottom_up->self += c->samples;
          continue;
        }

      node = ref->top_down;
      for (guint k = 0; k < path->len; k++)
        {
          node = ref_child (node, g_array_index (path, gint64, k));
          node->total += c->samples;
        }
      node->self += c->samples;

      node = ref->bottom_up;
      for (guint k = path->len; k > 0; k--)
        {
          node = ref_child (node, g_array_index (path, gint64, k - 1));
          node->self += c->samples;
          node->total += c->samples;
        }

      /* once per sample for each function and each pair on the path */
      ref->self[g_array_index (path, gint64, path->len - 1)] += c->samples;
      for (guint k = 0; k < path->len; k++)
        {
          gint64 f = g_array_index (path, gint64, k);
          char *key = g_strdup_printf ("%" G_GINT64_FORMAT, f);

          if (g_hash_table_add (seen, key))
            ref->total[f] += c->samples;
          if (k > 0)
            {
              key = g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                                     g_array_index (path, gint64, k - 1), f);
              if (g_hash_table_add (seen, g_strdup (key)))
                {
                  RefEdge *edge = g_hash_table_lookup (ref->edges, key);

                  if (edge == NULL)
                    {
                      edge = g_new0 (RefEdge, 1);
                      edge->caller = g_array_index (path, gint64, k - 1);
                      edge->callee = f;
                      g_hash_table_insert (ref->edges, g_strdup (key), edge);
                    }
                  edge->samples += c->samples;
                }
              g_free (key);
            }
        }
    }

  ref->n_functions = data->functions->len;
  ref->callers = g_new0 (GPtrArray *, ref->n_functions);
  ref->callees = g_new0 (GPtrArray *, ref->n_functions);
  for (guint f = 0; f < ref->n_functions; f++)
    {
      ref->callers[f] = g_ptr_array_new_with_free_func (g_free);
      ref->callees[f] = g_ptr_array_new_with_free_func (g_free);
    }
  {
    GHashTableIter iter;
    RefEdge *edge;

    /* as RefNodes, to sort them as the profile does */
    g_hash_table_iter_init (&iter, ref->edges);
    while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &edge))
      {
        RefNode *node;

        node = g_new0 (RefNode, 1);
        node->function_id = edge->caller;
        node->total = edge->samples;
        g_ptr_array_add (ref->callers[edge->callee], node);
        node = g_new0 (RefNode, 1);
        node->function_id = edge->callee;
        node->total = edge->samples;
        g_ptr_array_add (ref->callees[edge->caller], node);
      }
  }
  return ref;
}

static void
ref_free (Ref *ref)
{
  ref_node_free (ref->top_down);
  ref_node_free (ref->bottom_up);
  g_free (ref->self);
  g_free (ref->total);
  for (guint f = 0; f < ref->n_functions; f++)
    {
      g_ptr_array_unref (ref->callers[f]);
      g_ptr_array_unref (ref->callees[f]);
    }
  g_free (ref->callers);
  g_free (ref->callees);
  g_hash_table_unref (ref->edges);
  g_free (ref);
}

/* The order the profile promises: total descending, then name, then id. */
static int
compare_ref_nodes (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  const RefNode *na = *(RefNode * const *) a;
  const RefNode *nb = *(RefNode * const *) b;
  int cmp;

  if (na->total != nb->total)
    return na->total > nb->total ? -1 : 1;
  if ((cmp = g_strcmp0 (hp_profile_get_function_name (user_data, na->function_id),
                        hp_profile_get_function_name (user_data, nb->function_id))) != 0)
    return cmp;
  return na->function_id < nb->function_id ? -1 : na->function_id > nb->function_id;
}

/* Both renderings name functions by name and id: names repeat. */
static void
render_ref (HpProfile     *profile,
            const RefNode *node,
            guint          depth,
            GString       *out)
{
  g_autoptr(GPtrArray) children = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer child;

  g_hash_table_iter_init (&iter, node->children);
  while (g_hash_table_iter_next (&iter, NULL, &child))
    g_ptr_array_add (children, child);

  g_string_append_printf (out, "%*s%s#%" G_GINT64_FORMAT " %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "\n",
                          depth * 2, "", hp_profile_get_function_name (profile, node->function_id),
                          node->function_id, node->self, node->total);
  g_ptr_array_sort_with_data (children, compare_ref_nodes, profile);
  for (guint i = 0; i < children->len; i++)
    render_ref (profile, children->pdata[i], depth + 1, out);
}

static void
assert_same_tree (HpProfile        *profile,
                  const HpCallNode *node,
                  const RefNode    *ref)
{
  g_autoptr(GString) got = g_string_new (NULL);
  g_autoptr(GString) expected = g_string_new (NULL);

  g_assert_null (node->parent);
  render_tree (profile, node, 0, TRUE, got);
  render_ref (profile, ref, 0, expected);
  g_assert_cmpstr (got->str, ==, expected->str);
}

/* Callers or callees of @f as "name#id samples" in the promised order. */
static char *
render_ref_edges (Ref     *ref,
                  gint64   f,
                  gboolean callers)
{
  GPtrArray *nodes = callers ? ref->callers[f] : ref->callees[f];
  GString *out = g_string_new (NULL);

  g_ptr_array_sort_with_data (nodes, compare_ref_nodes, ref->profile);
  for (guint i = 0; i < nodes->len; i++)
    {
      const RefNode *node = nodes->pdata[i];

      g_string_append_printf (out, "%s#%" G_GINT64_FORMAT " %" G_GUINT64_FORMAT ", ",
                              hp_profile_get_function_name (ref->profile, node->function_id),
                              node->function_id, node->total);
    }
  return g_string_free (out, FALSE);
}

static char *
render_edges_ids (HpProfile *profile,
                  GArray    *edges)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < edges->len; i++)
    {
      const HpCallEdge *e = &g_array_index (edges, HpCallEdge, i);

      g_string_append_printf (out, "%s#%" G_GINT64_FORMAT " %" G_GUINT64_FORMAT ", ",
                              hp_profile_get_function_name (profile, e->function_id),
                              e->function_id, e->samples);
    }
  g_array_unref (edges);
  return g_string_free (out, FALSE);
}

/* A random capture: @n_functions functions whose names repeat (two
 * modules define each name), two frames each (lines, an inline one),
 * and stacks that mostly extend the last one, as the store writes a
 * call chain, or branch off any earlier stack; few functions make
 * recursion common, small sample counts make ties. */
static HpCaptureData *
build_random_data (GRand     *rand,
                   guint      n_functions,
                   guint      n_stacks,
                   GPtrArray *strings)
{
  HpCaptureData *data = test_data_new ();
  HpCaptureModule none = { 0 };

  g_array_append_val (data->modules, none);
  for (guint m = 1; m <= 2; m++)
    {
      char *path = g_strdup_printf ("/usr/lib/lib%u.so", m);
      HpCaptureModule module = { path, path + strlen ("/usr/lib/"), NULL, FALSE };

      g_ptr_array_add (strings, path);
      g_array_append_val (data->modules, module);
    }

  g_array_set_size (data->functions, n_functions + 1);
  g_array_set_size (data->frames, 2 * n_functions + 1);
  for (guint f = 1; f <= n_functions; f++)
    {
      HpCaptureFunction *function = &g_array_index (data->functions, HpCaptureFunction, f);
      char *name = g_strdup_printf ("f%u", (f - 1) / 2);

      g_ptr_array_add (strings, name);
      function->name = name;
      function->module_id = 1 + f % 2;
      for (guint k = 0; k < 2; k++)
        {
          HpCaptureFrame *frame = &g_array_index (data->frames, HpCaptureFrame, 2 * f - 1 + k);

          frame->function_id = f;
          frame->line = 10 * f + k;
          frame->is_inline = k == 1;
        }
    }

  g_array_set_size (data->stacks, n_stacks);
  for (guint s = 1; s < n_stacks; s++)
    {
      HpCaptureStack *stack = &g_array_index (data->stacks, HpCaptureStack, s);
      guint32 choice = g_rand_int_range (rand, 0, 10);

      stack->parent_id = choice < 7 ? (gint64) s - 1 : choice < 8 ? 0 : g_rand_int_range (rand, 0, s);
      stack->frame_id = g_rand_int_range (rand, 1, 2 * n_functions + 1);
    }

  for (guint s = 0; s < n_stacks; s++)
    for (gint32 tid = 1; tid <= 3; tid++)
      if (g_rand_int_range (rand, 0, 4) == 0)
        {
          HpCaptureStackCount c = { s, tid, g_rand_int_range (rand, 1, 4), 0 };

          c.weight = c.samples;
          g_array_append_val (data->stack_counts, c);
        }
  return data;
}

static void
assert_same_as_reference (HpCaptureData *data,
                          GHashTable    *tids)
{
  g_autoptr(HpProfile) profile = hp_profile_new (data, tids);
  Ref *ref = ref_new (profile, data, tids);
  guint64 n_with_samples = 0;
  const GArray *functions;

  g_assert_cmpuint (hp_profile_get_n_samples (profile), ==, ref->top_down->total);
  assert_same_tree (profile, hp_profile_get_top_down (profile), ref->top_down);
  assert_same_tree (profile, hp_profile_get_bottom_up (profile), ref->bottom_up);

  for (guint f = 1; f < data->functions->len; f++)
    {
      g_autofree char *callers = render_edges_ids (profile, hp_profile_get_callers (profile, f));
      g_autofree char *callees = render_edges_ids (profile, hp_profile_get_callees (profile, f));
      g_autofree char *ref_callers = render_ref_edges (ref, f, TRUE);
      g_autofree char *ref_callees = render_ref_edges (ref, f, FALSE);

      assert_stats (profile, f, ref->self[f], ref->total[f]);
      n_with_samples += ref->total[f] > 0;
      g_assert_cmpstr (callers, ==, ref_callers);
      g_assert_cmpstr (callees, ==, ref_callees);
    }
  functions = hp_profile_get_functions (profile, TRUE);
  g_assert_cmpuint (functions->len, ==, n_with_samples);
  ref_free (ref);
}

/* Few functions (deep recursion, many merged nodes) and more functions
 * (wide trees), for all threads and for some. */
static void
test_reference (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240607);
  static const struct { guint n_functions, n_stacks; } shapes[] = {
    { 6, 300 }, { 40, 3000 }, { 400, 20000 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(TestData) data = build_random_data (rand, shapes[i].n_functions, shapes[i].n_stacks, strings);
      g_autoptr(GHashTable) tids = g_hash_table_new (NULL, NULL);

      g_test_message ("%u functions, %u stacks", shapes[i].n_functions, shapes[i].n_stacks);
      assert_same_as_reference (data, NULL);
      g_hash_table_add (tids, GINT_TO_POINTER (2));
      assert_same_as_reference (data, tids);
    }
}

/* A profile built from the blocks of a freed one (hp-block-pool.c) holds
 * nothing of it: the blocks are handed back dirty, so every array the
 * build reads must be written first. 60 000 stacks make its arrays big
 * enough to be kept; the second build counts other threads, so a value
 * left over would show. */
static void
test_reused_blocks (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261202);
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(TestData) data = build_random_data (rand, 400, 60000, strings);
  g_autoptr(GHashTable) tids = g_hash_table_new (NULL, NULL);
  guint reuses;

  hp_block_pool_trim ();
  assert_same_as_reference (data, NULL);
  reuses = hp_block_pool_get_reuses ();
  g_hash_table_add (tids, GINT_TO_POINTER (2));
  g_hash_table_add (tids, GINT_TO_POINTER (3));
  assert_same_as_reference (data, tids);
  /* the counts, sums, parents, both trees' nodes and their links at least */
  g_assert_cmpuint (hp_block_pool_get_reuses () - reuses, >=, 8);
  hp_block_pool_trim ();
}

/* The pool hands a kept block out again only for a request it fits and
 * that needs at least half of it; small blocks are never kept. */
static void
test_block_pool (void)
{
  gsize size, small_size, other_size;
  gpointer block, small, other;
  guint reuses;

  hp_block_pool_trim ();
  reuses = hp_block_pool_get_reuses ();
  block = hp_block_alloc (4 * HP_BLOCK_POOL_MIN_SIZE, &size);
  g_assert_cmpuint (size, ==, 4 * HP_BLOCK_POOL_MIN_SIZE);
  small = hp_block_alloc0 (100, &small_size);
  g_assert_cmpuint (((guchar *) small)[99], ==, 0);
  hp_block_free (block, size);
  hp_block_free (small, small_size);

  /* too big for it, then too small */
  other = hp_block_alloc (5 * HP_BLOCK_POOL_MIN_SIZE, &other_size);
  g_assert_true (other != block);
  hp_block_free (other, other_size);
  other = hp_block_alloc (HP_BLOCK_POOL_MIN_SIZE, &other_size);
  g_assert_true (other != block);
  g_assert_cmpuint (other_size, ==, HP_BLOCK_POOL_MIN_SIZE);
  hp_block_free (other, other_size);
  g_assert_cmpuint (hp_block_pool_get_reuses (), ==, reuses);

  /* a fit, zeroed on request */
  memset (block, 0xab, 4);
  other = hp_block_alloc0 (3 * HP_BLOCK_POOL_MIN_SIZE, &other_size);
  g_assert_true (other == block);
  g_assert_cmpuint (other_size, ==, 4 * HP_BLOCK_POOL_MIN_SIZE);
  g_assert_cmpuint (((guchar *) other)[0], ==, 0);
  g_assert_cmpuint (hp_block_pool_get_reuses (), ==, reuses + 1);
  hp_block_free (other, other_size);
  hp_block_pool_trim ();
}

/* A reserve keeps a block for each size that a kept block does not
 * serve already, and the requests of those sizes take them. */
static void
test_block_pool_reserve (void)
{
  gsize sizes[] = { 4 * HP_BLOCK_POOL_MIN_SIZE, 3 * HP_BLOCK_POOL_MIN_SIZE, 100 };
  gsize size, other_size;
  gpointer block, other;
  guint reuses;

  hp_block_pool_trim ();
  hp_block_pool_reserve (sizes, G_N_ELEMENTS (sizes));
  /* the two big ones, not the small one */
  g_assert_cmpuint (hp_block_pool_get_kept_size (), ==, 7 * HP_BLOCK_POOL_MIN_SIZE);
  /* already there: nothing more */
  hp_block_pool_reserve (sizes, 2);
  g_assert_cmpuint (hp_block_pool_get_kept_size (), ==, 7 * HP_BLOCK_POOL_MIN_SIZE);

  reuses = hp_block_pool_get_reuses ();
  block = hp_block_alloc (4 * HP_BLOCK_POOL_MIN_SIZE, &size);
  other = hp_block_alloc (3 * HP_BLOCK_POOL_MIN_SIZE, &other_size);
  g_assert_cmpuint (hp_block_pool_get_reuses (), ==, reuses + 2);
  g_assert_cmpuint (hp_block_pool_get_kept_size (), ==, 0);
  hp_block_free (block, size);
  hp_block_free (other, other_size);
  hp_block_pool_trim ();
}

static char *
render_profile (HpProfile *profile,
                guint      n_functions)
{
  GString *out = g_string_new (NULL);

  render_tree (profile, hp_profile_get_top_down (profile), 0, TRUE, out);
  render_tree (profile, hp_profile_get_bottom_up (profile), 0, TRUE, out);
  for (guint f = 1; f < n_functions; f++)
    {
      const HpFunctionStats *stats = hp_profile_get_function_stats (profile, f);
      g_autofree char *callers = render_edges_ids (profile, hp_profile_get_callers (profile, f));
      g_autofree char *callees = render_edges_ids (profile, hp_profile_get_callees (profile, f));

      g_string_append_printf (out, "#%u %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " callers %s callees %s\n",
                              f, stats->self, stats->total, callers, callees);
    }
  return g_string_free (out, FALSE);
}


static gpointer
ask_bottom_up (gpointer profile)
{
  return (gpointer) hp_profile_get_bottom_up (profile);
}

/* A profile builds its bottom-up tree when first asked for, once, even
 * when several threads ask at the same time, and it is the tree that
 * hp_profile_new_full() builds at once, node for node. */
static void
test_bottom_up_later (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261202);
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(TestData) data = build_random_data (rand, 300, 20000, strings);

  for (guint with_tids = 0; with_tids < 2; with_tids++)
    {
      g_autoptr(GHashTable) tids = NULL;
      g_autoptr(HpProfile) now = NULL;
      g_autoptr(HpProfile) later = NULL;
      g_autofree char *want = NULL;
      g_autofree char *got = NULL;
      GThread *threads[4];
      gpointer trees[4];

      if (with_tids)
        {
          tids = g_hash_table_new (NULL, NULL);
          g_hash_table_add (tids, GINT_TO_POINTER (2));
        }
      now = hp_profile_new_full (data, tids, TRUE);
      later = hp_profile_new (data, tids);
      g_assert_true (hp_profile_has_bottom_up (now));
      g_assert_false (hp_profile_has_bottom_up (later));
      for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
        threads[i] = g_thread_new ("ask", ask_bottom_up, later);
      for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
        trees[i] = g_thread_join (threads[i]);
      for (guint i = 1; i < G_N_ELEMENTS (threads); i++)
        g_assert_true (trees[i] == trees[0]);
      g_assert_true (hp_profile_has_bottom_up (later));
      g_assert_true (hp_profile_get_bottom_up (later) == trees[0]);
      g_assert_cmpuint (hp_profile_get_n_nodes (later, TRUE), ==, hp_profile_get_n_nodes (now, TRUE));
      want = render_profile (now, data->functions->len);
      got = render_profile (later, data->functions->len);
      g_assert_cmpstr (got, ==, want);
    }
}

static int
by_thread_and_time (gconstpointer a,
                    gconstpointer b)
{
  const HpCaptureSample *sa = a, *sb = b;

  if (sa->tid != sb->tid)
    return sa->tid < sb->tid ? -1 : 1;
  return sa->time < sb->time ? -1 : sa->time > sb->time;
}

/* A time range filters as if the capture held only the samples in it:
 * the profile of the range's counts (hp_sample_index_count) equals,
 * node for node and edge for edge, the profile of a capture whose counts
 * were summed here from those samples alone. The samples of each random
 * capture get random times, several per time; the ranges include empty
 * ones, one instant, and ends that fall between samples. */
static void
test_time_range (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261201);
  static const struct { guint64 from, to; } ranges[] = {
    { 0, 999 }, { 250, 600 }, { 501, 501 }, { 333, 334 }, { 1000, 2000 }, { 999, 999 }, { 10, 11 },
  };

  for (guint shape = 0; shape < 2; shape++)
    {
      g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(TestData) data = build_random_data (rand, shape == 0 ? 6 : 60, shape == 0 ? 400 : 5000, strings);
      GArray *samples = g_array_new (FALSE, FALSE, sizeof (HpCaptureSample));
      g_autoptr(HpSampleIndex) index = NULL;
      g_autoptr(GArray) copy = NULL;

      for (guint i = 0; i < data->stack_counts->len; i++)
        {
          const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);

          for (guint64 k = 0; k < c->samples; k++)
            {
              HpCaptureSample s = { 0 };

              /* times repeat: a range end then splits equal times */
              s.time = g_rand_int_range (rand, 0, 1000) / 3 * 3;
              s.weight = 1 + k;
              s.stack_id = c->stack_id;
              s.tid = c->tid;
              g_array_append_val (samples, s);
            }
        }
      g_array_sort (samples, by_thread_and_time);
      copy = g_array_copy (samples);
      index = hp_sample_index_new (samples);

      for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
        for (guint with_tids = 0; with_tids < 2; with_tids++)
          {
            g_autoptr(GHashTable) tids = NULL;
            GArray *counts;
            GArray *expected_counts = g_array_new (FALSE, FALSE, sizeof (HpCaptureStackCount));
            g_autoptr(GHashTable) slots = g_hash_table_new (g_int64_hash, g_int64_equal);
            g_autofree gint64 *keys = g_new (gint64, copy->len);
            HpCaptureData *ranged, *expected;
            HpProfile *profile, *expected_profile;
            g_autofree char *got = NULL;
            g_autofree char *want = NULL;
            guint64 n = 0, expected_n = 0;

            if (with_tids)
              {
                tids = g_hash_table_new (NULL, NULL);
                g_hash_table_add (tids, GINT_TO_POINTER (1));
                g_hash_table_add (tids, GINT_TO_POINTER (3));
              }

            counts = hp_sample_index_count (index, HP_SAMPLE_INDEX_ALL_EVENTS, ranges[r].from, ranges[r].to, tids, &n);
            ranged = hp_capture_data_new_with_counts (data, counts);
            profile = hp_profile_new (ranged, tids);

            /* the capture of only the samples in the range, summed here */
            for (guint i = 0; i < copy->len; i++)
              {
                const HpCaptureSample *s = &g_array_index (copy, HpCaptureSample, i);
                HpCaptureStackCount *c;
                gpointer slot;

                if (s->time < ranges[r].from || s->time > ranges[r].to ||
                    (tids != NULL && !g_hash_table_contains (tids, GINT_TO_POINTER (s->tid))))
                  continue;
                expected_n++;
                keys[i] = (gint64) s->stack_id << 32 | (guint32) s->tid;
                if (!g_hash_table_lookup_extended (slots, &keys[i], NULL, &slot))
                  {
                    HpCaptureStackCount fresh = { s->stack_id, s->tid, 0, 0, 0 };

                    g_array_append_val (expected_counts, fresh);
                    slot = GUINT_TO_POINTER (expected_counts->len - 1);
                    g_hash_table_insert (slots, &keys[i], slot);
                  }
                c = &g_array_index (expected_counts, HpCaptureStackCount, GPOINTER_TO_UINT (slot));
                c->samples++;
                c->weight += s->weight;
              }
            expected = hp_capture_data_new_with_counts (data, expected_counts);
            expected_profile = hp_profile_new (expected, NULL);

            g_test_message ("range %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT "%s: %" G_GUINT64_FORMAT " samples",
                            ranges[r].from, ranges[r].to, with_tids ? ", threads 1 and 3" : "", expected_n);
            g_assert_cmpuint (n, ==, expected_n);
            g_assert_cmpuint (hp_profile_get_n_samples (profile), ==, expected_n);
            got = render_profile (profile, data->functions->len);
            want = render_profile (expected_profile, data->functions->len);
            g_assert_cmpstr (got, ==, want);
            /* and the weights, which a weighted view counts */
            {
              guint64 w = 0, expected_w = 0;

              for (guint i = 0; i < counts->len; i++)
                if (tids == NULL || g_hash_table_contains (tids, GINT_TO_POINTER (g_array_index (counts, HpCaptureStackCount, i).tid)))
                  w += g_array_index (counts, HpCaptureStackCount, i).weight;
              for (guint i = 0; i < expected_counts->len; i++)
                expected_w += g_array_index (expected_counts, HpCaptureStackCount, i).weight;
              g_assert_cmpuint (w, ==, expected_w);
            }

            hp_profile_free (expected_profile);
            hp_capture_data_free (expected);
            hp_profile_free (profile);
            hp_capture_data_free (ranged);
          }
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
  g_test_add_func ("/profile/reference", test_reference);
  g_test_add_func ("/profile/time-range", test_time_range);
  g_test_add_func ("/profile/reused-blocks", test_reused_blocks);
  g_test_add_func ("/profile/block-pool", test_block_pool);
  g_test_add_func ("/profile/block-pool-reserve", test_block_pool_reserve);
  g_test_add_func ("/profile/bottom-up-later", test_bottom_up_later);

  return g_test_run ();
}
