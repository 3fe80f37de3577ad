/* test-flame-graph.c - flame graph layout on a profile known by construction
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * On the capture of test_data_new_example() (test-capture-data.h), whose
 * top-down tree is
 *
 *   <root> 128/511
 *     main 1/319
 *       foo 258/286
 *         bar 0/28
 *           foo 16/24
 *             bar 8/8
 *           helper 4/4
 *       bar 0/32
 *         syscall 32/32
 *     syscall 64/64
 *
 * so every box's place is known: children start at their parent's left
 * edge, widest first, and a parent's self samples are the gap at its right.
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include "analysis/hp-block-pool.h"
#include "analysis/hp-flame-graph.h"
#include "test-capture-data.h"

static const char *
name_of (HpProfile        *profile,
         const HpFlameBox *box)
{
  if (box->node == NULL)
    return "<merged>";
  if (box->node->function_id == 0)
    return "<root>";
  return hp_profile_get_function_name (profile, box->node->function_id);
}

static void
append_box (GString          *out,
            HpProfile        *profile,
            const HpFlameBox *box)
{
  g_string_append_printf (out, "%s%s %" G_GUINT64_FORMAT "+%" G_GUINT64_FORMAT "@%u%s",
                          out->len ? ", " : "", name_of (profile, box),
                          box->x, box->width, box->depth, box->hot ? "!" : "");
}

static char *
render_layout (HpFlameGraph *graph)
{
  GString *out = g_string_new (NULL);
  const HpFlameBox *boxes;
  guint n;

  boxes = hp_flame_graph_get_boxes (graph, &n);
  for (guint i = 0; i < n; i++)
    {
      append_box (out, hp_flame_graph_get_profile (graph), &boxes[i]);
      g_string_append_printf (out, " ..%u", boxes[i].end);
    }
  return g_string_free (out, FALSE);
}

typedef struct {
  HpProfile *profile;
  GString   *out;
} Visit;

static void
visit_box (const HpFlameBox *box,
           gpointer          user_data)
{
  Visit *v = user_data;

  append_box (v->out, v->profile, box);
}

static char *
render_visit (HpFlameGraph *graph,
              guint         zoom,
              gdouble       min_width)
{
  Visit v = { hp_flame_graph_get_profile (graph), g_string_new (NULL) };

  hp_flame_graph_visit (graph, zoom, min_width, visit_box, &v);
  return g_string_free (v.out, FALSE);
}

static void
test_layout (void)
{
  g_autoptr(TestData) data = test_data_new_example ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  g_autoptr(HpFlameGraph) graph = hp_flame_graph_new (profile, FALSE);
  g_autofree char *layout = render_layout (graph);

  g_assert_cmpstr (layout, ==,
                   "<root> 0+511@0! ..10, main 0+319@1! ..9, foo 0+286@2! ..7, bar 0+28@3! ..7, "
                   "foo 0+24@4! ..6, bar 0+8@5! ..6, helper 24+4@4 ..7, bar 286+32@2 ..9, "
                   "syscall 286+32@3 ..9, syscall 319+64@1 ..10");
  g_assert_cmpuint (hp_flame_graph_get_depth (graph), ==, 5);
  g_assert_false (hp_flame_graph_is_bottom_up (graph));
}

static void
test_visit (void)
{
  g_autoptr(TestData) data = test_data_new_example ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  g_autoptr(HpFlameGraph) graph = hp_flame_graph_new (profile, FALSE);
  g_autofree char *all = render_visit (graph, 0, 0);
  g_autofree char *wide = render_visit (graph, 0, 10);
  g_autofree char *merged = render_visit (graph, 0, 25);
  g_autofree char *zoomed = render_visit (graph, 7, 0);

  g_assert_cmpstr (all, ==,
                   "<root> 0+511@0!, main 0+319@1!, foo 0+286@2!, bar 0+28@3!, foo 0+24@4!, bar 0+8@5!, "
                   "helper 24+4@4, bar 286+32@2, syscall 286+32@3, syscall 319+64@1");
  /* bar 8 and helper 4 are too narrow, and so is their run */
  g_assert_cmpstr (wide, ==,
                   "<root> 0+511@0!, main 0+319@1!, foo 0+286@2!, bar 0+28@3!, foo 0+24@4!, "
                   "bar 286+32@2, syscall 286+32@3, syscall 319+64@1");
  /* foo 24 and helper 4 are each under 25, together 28: one merged box */
  g_assert_cmpstr (merged, ==,
                   "<root> 0+511@0!, main 0+319@1!, foo 0+286@2!, bar 0+28@3!, <merged> 0+28@4, "
                   "bar 286+32@2, syscall 286+32@3, syscall 319+64@1");
  g_assert_cmpstr (zoomed, ==, "bar 286+32@2, syscall 286+32@3");
}

static void
test_hit (void)
{
  g_autoptr(TestData) data = test_data_new_example ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  g_autoptr(HpFlameGraph) graph = hp_flame_graph_new (profile, FALSE);
  const HpFlameBox *boxes;
  guint n;

  boxes = hp_flame_graph_get_boxes (graph, &n);
  g_assert_cmpint (hp_flame_graph_hit (graph, 0, 0, 0), ==, 0);
  g_assert_cmpint (hp_flame_graph_hit (graph, 0, 25, 4), ==, 6);   /* helper */
  g_assert_cmpint (hp_flame_graph_hit (graph, 0, 23, 4), ==, 4);   /* foo */
  g_assert_cmpint (hp_flame_graph_hit (graph, 0, 300, 3), ==, 8);  /* syscall under bar */
  g_assert_cmpint (hp_flame_graph_hit (graph, 0, 382, 1), ==, 9);  /* syscall at the root */
  g_assert_cmpint (hp_flame_graph_hit (graph, 0, 383, 1), ==, -1); /* the root's own samples */
  g_assert_cmpint (hp_flame_graph_hit (graph, 0, 511, 0), ==, -1);
  g_assert_cmpint (hp_flame_graph_hit (graph, 0, 30, 4), ==, -1);  /* foo's own samples */
  g_assert_cmpint (hp_flame_graph_hit (graph, 0, 0, 6), ==, -1);   /* above the deepest */
  /* in a zoomed subtree only */
  g_assert_cmpint (hp_flame_graph_hit (graph, 7, 300, 3), ==, 8);
  g_assert_cmpint (hp_flame_graph_hit (graph, 7, 10, 3), ==, -1);

  for (guint i = 0; i < n; i++)
    g_assert_cmpint (hp_flame_graph_find_node (graph, boxes[i].node), ==, i);
  g_assert_cmpint (hp_flame_graph_find_node (graph, NULL), ==, -1);
}

/* Bottom-up: every box lies inside its parent, and the roots' children
 * (the leaf functions) add up to the samples with a stack. */
static void
test_bottom_up (void)
{
  g_autoptr(TestData) data = test_data_new_example ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  g_autoptr(HpFlameGraph) graph = hp_flame_graph_new (profile, TRUE);
  const HpFlameBox *boxes;
  guint64 leaves = 0;
  guint n;

  g_assert_true (hp_flame_graph_is_bottom_up (graph));
  boxes = hp_flame_graph_get_boxes (graph, &n);
  g_assert_cmpuint (boxes[0].width, ==, 511);
  for (guint i = 1; i < n; i = boxes[i].end)
    leaves += boxes[i].width;
  g_assert_cmpuint (leaves, ==, 511 - 128);
  /* foo, main under it (its caller), then syscall, bar, main ... */
  g_assert_cmpstr (name_of (profile, &boxes[1]), ==, "foo");
  g_assert_cmpuint (boxes[1].width, ==, 274);
  for (guint i = 1; i < n; i++)
    for (guint j = i + 1; j < boxes[i].end; j++)
      {
        g_assert_cmpuint (boxes[j].depth, >, boxes[i].depth);
        g_assert_cmpuint (boxes[j].x, >=, boxes[i].x);
        g_assert_cmpuint (boxes[j].x + boxes[j].width, <=, boxes[i].x + boxes[i].width);
      }
}

static void
test_colors (void)
{
  g_autoptr(TestData) data = test_data_new_example ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  g_autoptr(HpFlameGraph) graph = hp_flame_graph_new (profile, FALSE);
  const HpFlameBox *boxes;
  HpFlameBox merged = { 0 };
  gdouble foo1[3], foo2[3], bar[3], app[3], kernel[3], grey[3];
  guint n;

  boxes = hp_flame_graph_get_boxes (graph, &n);
  hp_flame_graph_box_color (graph, &boxes[2], HP_FLAME_COLORS_HOT, foo1);
  hp_flame_graph_box_color (graph, &boxes[4], HP_FLAME_COLORS_HOT, foo2);
  hp_flame_graph_box_color (graph, &boxes[3], HP_FLAME_COLORS_HOT, bar);
  /* one colour per name, warm */
  g_assert_cmpfloat (foo1[0], ==, foo2[0]);
  g_assert_cmpfloat (foo1[1], ==, foo2[1]);
  g_assert_cmpfloat (foo1[2], ==, foo2[2]);
  g_assert_true (foo1[0] != bar[0] || foo1[1] != bar[1] || foo1[2] != bar[2]);
  for (guint c = 0; c < 3; c++)
    {
      g_assert_cmpfloat (foo1[c], >=, 0.0);
      g_assert_cmpfloat (foo1[c], <=, 1.0);
    }
  g_assert_cmpfloat (foo1[0], >=, 205 / 255.0);
  g_assert_cmpfloat (foo1[2], <=, 55 / 255.0);

  /* by module: main and bar share app's colour, syscall has the kernel's */
  hp_flame_graph_box_color (graph, &boxes[1], HP_FLAME_COLORS_MODULE, app);
  hp_flame_graph_box_color (graph, &boxes[3], HP_FLAME_COLORS_MODULE, bar);
  hp_flame_graph_box_color (graph, &boxes[9], HP_FLAME_COLORS_MODULE, kernel);
  g_assert_cmpfloat (app[0], ==, bar[0]);
  g_assert_cmpfloat (app[1], ==, bar[1]);
  g_assert_cmpfloat (app[2], ==, bar[2]);
  g_assert_true (app[0] != kernel[0] || app[1] != kernel[1] || app[2] != kernel[2]);

  hp_flame_graph_box_color (graph, &merged, HP_FLAME_COLORS_HOT, grey);
  g_assert_cmpfloat (grey[0], ==, grey[1]);
  g_assert_cmpfloat (grey[1], ==, grey[2]);
}

/* A 20,000-deep recursion lays out without recursing. */
static void
test_deep (void)
{
  g_autoptr(TestData) data = test_data_new ();
  HpCaptureModule m = { 0 };
  HpCaptureFunction f = { 0 };
  HpCaptureFrame fr = { 0 };
  HpCaptureStack s = { 0 };
  HpCaptureStackCount c = { 20000, 1, 3, 3 };
  g_autoptr(HpProfile) profile = NULL;
  g_autoptr(HpFlameGraph) graph = NULL;
  const HpFlameBox *boxes;
  guint n, reuses;

  g_array_append_val (data->modules, m);
  m.path = (char *) "/bin/deep";
  m.name = (char *) "deep";
  g_array_append_val (data->modules, m);
  g_array_append_val (data->functions, f);
  f.name = (char *) "recurse";
  f.module_id = 1;
  g_array_append_val (data->functions, f);
  g_array_append_val (data->frames, fr);
  fr.function_id = 1;
  g_array_append_val (data->frames, fr);
  g_array_append_val (data->stacks, s);
  for (gint64 i = 1; i <= 20000; i++)
    {
      s.parent_id = i - 1;
      s.frame_id = 1;
      g_array_append_val (data->stacks, s);
    }
  g_array_append_val (data->stack_counts, c);

  profile = hp_profile_new (data, NULL);
  graph = hp_flame_graph_new (profile, FALSE);
  boxes = hp_flame_graph_get_boxes (graph, &n);
  g_assert_cmpuint (n, ==, 20001);
  g_assert_cmpuint (hp_flame_graph_get_depth (graph), ==, 20000);
  g_assert_cmpuint (boxes[n - 1].width, ==, 3);
  g_assert_true (boxes[n - 1].hot);
  g_assert_cmpint (hp_flame_graph_hit (graph, 0, 2, 20000), ==, 20000);

  /* the callers' graph takes the boxes of the one it replaces, and
   * writes every one (hp-block-pool.c) */
  reuses = hp_block_pool_get_reuses ();
  g_clear_pointer (&graph, hp_flame_graph_free);
  graph = hp_flame_graph_new (profile, TRUE);
  g_assert_cmpuint (hp_block_pool_get_reuses (), ==, reuses + 1);
  boxes = hp_flame_graph_get_boxes (graph, &n);
  g_assert_cmpuint (n, ==, 20001);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (boxes[i].depth, ==, i);
      g_assert_cmpuint (boxes[i].end, ==, n);
      g_assert_cmpuint (boxes[i].width, ==, 3);
      g_assert_true (boxes[i].hot);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/flame-graph/layout", test_layout);
  g_test_add_func ("/flame-graph/visit", test_visit);
  g_test_add_func ("/flame-graph/hit", test_hit);
  g_test_add_func ("/flame-graph/bottom-up", test_bottom_up);
  g_test_add_func ("/flame-graph/colors", test_colors);
  g_test_add_func ("/flame-graph/deep", test_deep);
  return g_test_run ();
}
