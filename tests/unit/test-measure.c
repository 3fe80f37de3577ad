/* test-measure.c - one event at a time, ratios and the waiting marker, on captures known by construction
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <math.h>
#include <string.h>

#include "analysis/hp-measure.h"
#include "analysis/hp-profile.h"
#include "store/hp-capture-keys.h"
#include "test-capture-data.h"

/* The example capture (test-capture-data.h) with events: its counts
 * are of event 1, and each event named in @events after the first
 * repeats them with samples and weights scaled:
 *   event i (1-based): samples = count * i, weight = count * weight_of[i]
 * so every total of event i is known from the example's. */
typedef struct {
  const char *name;
  const char *unit;
  guint64     sample_factor;
  guint64     weight_factor;
} EventSpec;

static HpCaptureData *
example_with_events (const EventSpec *specs,
                     guint            n)
{
  HpCaptureData *data = test_data_new_example ();
  HpCaptureEvent none = { 0 };

  data->events = g_array_new (FALSE, TRUE, sizeof (HpCaptureEvent));
  g_array_append_val (data->events, none);
  data->all_counts = g_array_new (FALSE, FALSE, sizeof (HpCaptureStackCount));
  for (guint i = 0; i < n; i++)
    {
      HpCaptureEvent e = { (char *) specs[i].name, (char *) specs[i].unit, 999, 0 };

      g_array_append_val (data->events, e);
      for (guint c = 0; c < data->stack_counts->len; c++)
        {
          HpCaptureStackCount count = g_array_index (data->stack_counts, HpCaptureStackCount, c);

          count.weight = count.samples * specs[i].weight_factor;
          count.samples *= specs[i].sample_factor;
          count.event_id = i + 1;
          g_array_append_val (data->all_counts, count);
        }
    }
  /* as hp_capture_load leaves it: stack_counts counts event 1 */
  g_array_set_size (data->stack_counts, 0);
  for (guint c = 0; c < data->all_counts->len; c++)
    if (g_array_index (data->all_counts, HpCaptureStackCount, c).event_id == 1)
      g_array_append_val (data->stack_counts, g_array_index (data->all_counts, HpCaptureStackCount, c));
  data->event_mask = 1;
  return data;
}

static void
example_free (HpCaptureData *data)
{
  g_array_unref (data->events);
  g_array_unref (data->all_counts);
  test_data_free (data);
}

static const EventSpec cpu_faults_off[] = {
  { "cpu-clock", "ns", 1, 1000000 },   /* 1 ms per sample */
  { "page-faults", "page faults", 1, 7 },
  { "off-cpu", "ns", 1, 3000000 },
};

static void
test_list (void)
{
  HpCaptureData *data = example_with_events (cpu_faults_off, 3);
  g_autoptr(GPtrArray) names = hp_measure_list_events (data);

  g_assert_cmpuint (names->len, ==, 4);
  g_assert_cmpstr (g_ptr_array_index (names, 0), ==, "cpu-clock");
  g_assert_cmpstr (g_ptr_array_index (names, 1), ==, "page-faults");
  g_assert_cmpstr (g_ptr_array_index (names, 2), ==, "off-cpu");
  g_assert_cmpstr (g_ptr_array_index (names, 3), ==, HP_EVENT_WALL);
  example_free (data);

  /* without off-cpu there is no wall */
  data = example_with_events (cpu_faults_off, 2);
  g_clear_pointer (&names, g_ptr_array_unref);
  names = hp_measure_list_events (data);
  g_assert_cmpuint (names->len, ==, 2);
  example_free (data);
}

static guint64
n_of (HpCaptureData   *data,
      const HpMeasure *measure)
{
  g_autoptr(HpCaptureData) selected = hp_measure_select (measure, data);
  g_autoptr(HpProfile) profile = hp_profile_new (selected, NULL);

  return hp_profile_get_n_samples (profile);
}

static void
test_init_and_select (void)
{
  HpCaptureData *data = example_with_events (cpu_faults_off, 3);
  HpMeasure m;

  /* a clock counts samples: 511 of them */
  g_assert_true (hp_measure_init (&m, data, NULL));
  g_assert_cmpstr (m.event, ==, "cpu-clock");
  g_assert_false (m.by_weight);
  g_assert_false (m.off_cpu);
  g_assert_cmpuint (n_of (data, &m), ==, 511);
  hp_measure_clear (&m);

  /* page faults count weights: 7 per sample */
  g_assert_true (hp_measure_init (&m, data, "page-faults"));
  g_assert_cmpstr (m.unit, ==, "page faults");
  g_assert_true (m.by_weight);
  g_assert_false (m.is_time);
  g_assert_cmpuint (n_of (data, &m), ==, 511 * 7);
  hp_measure_clear (&m);

  g_assert_true (hp_measure_init (&m, data, "off-cpu"));
  g_assert_true (m.by_weight && m.is_time && m.off_cpu);
  g_assert_cmpuint (n_of (data, &m), ==, 511 * 3000000ull);
  hp_measure_clear (&m);

  /* wall: ns on and off the CPU */
  g_assert_true (hp_measure_init (&m, data, HP_EVENT_WALL));
  g_assert_true (m.by_weight && m.is_time && m.off_cpu);
  g_assert_cmpuint (n_of (data, &m), ==, 511 * 4000000ull);
  hp_measure_clear (&m);

  g_assert_false (hp_measure_init (&m, data, "cycles"));
  example_free (data);

  /* a capture without the events table: its metadata's one event */
  data = test_data_new_example ();
  g_hash_table_insert (data->metadata, (char *) HP_META_EVENT, (char *) "cpu-clock");
  g_assert_true (hp_measure_init (&m, data, NULL));
  g_assert_cmpstr (m.event, ==, "cpu-clock");
  g_assert_cmpuint (n_of (data, &m), ==, 511);
  hp_measure_clear (&m);
  test_data_free (data);
}

static const HpCallNode *
child_named (HpProfile        *profile,
             const HpCallNode *node,
             const char       *name)
{
  for (guint i = 0; node->children != NULL && i < node->children->len; i++)
    {
      const HpCallNode *child = g_ptr_array_index (node->children, i);

      if (g_strcmp0 (hp_profile_get_function_name (profile, child->function_id), name) == 0)
        return child;
    }
  return NULL;
}

static void
test_waiting (void)
{
  HpCaptureData *data = example_with_events (cpu_faults_off, 3);
  g_autoptr(HpCaptureData) marked = hp_measure_mark_waiting (data);
  g_autoptr(HpCaptureData) wall = NULL;
  g_autoptr(HpProfile) profile = NULL;
  HpMeasure m;
  const HpCallNode *main_node, *foo, *waiting;
  const GArray *functions;
  gint64 waiting_id = 0;

  /* ids of the original keep their meaning */
  g_assert_cmpuint (marked->functions->len, ==, data->functions->len + 1);
  g_assert_cmpstr (g_array_index (marked->functions, HpCaptureFunction, EX_FOO).name, ==, "foo");
  g_assert_true (hp_measure_is_waiting (marked, data->functions->len));
  g_assert_false (hp_measure_is_waiting (marked, EX_FOO));
  /* event 1's counts did not move */
  g_assert_cmpuint (marked->stack_counts->len, ==, data->stack_counts->len);

  /* the original may go: the copy owns its tables */
  g_assert_true (hp_measure_init (&m, data, HP_EVENT_WALL));
  example_free (data);
  wall = hp_measure_select (&m, marked);
  hp_measure_clear (&m);
  profile = hp_profile_new (wall, NULL);

  /* main > foo(2 ms on, 6 ms off: samples 2 of stack 2, 256 of stack 10)
   * foo's own time on the CPU stays its self; its waiting is a child */
  main_node = child_named (profile, hp_profile_get_top_down (profile), "main");
  foo = child_named (profile, main_node, "foo");
  waiting = child_named (profile, foo, HP_WAITING_FUNCTION);
  g_assert_nonnull (waiting);
  g_assert_cmpuint (foo->self, ==, (2 + 256) * 1000000ull);
  g_assert_cmpuint (waiting->total, ==, (2 + 256) * 3000000ull);
  g_assert_cmpuint (foo->total, ==, 286 * 4000000ull);

  /* bottom-up: the waiting function holds every off-CPU ns, 3/4 of all */
  functions = hp_profile_get_functions (profile, FALSE);
  for (guint i = 0; i < functions->len; i++)
    if (hp_measure_is_waiting (wall, g_array_index (functions, HpFunctionStats, i).function_id))
      {
        waiting_id = g_array_index (functions, HpFunctionStats, i).function_id;
        g_assert_cmpuint (g_array_index (functions, HpFunctionStats, i).self, ==, 511 * 3000000ull);
      }
  g_assert_cmpint (waiting_id, !=, 0);
  /* the samples without a stack waited at the root */
  g_assert_nonnull (child_named (profile, hp_profile_get_top_down (profile), HP_WAITING_FUNCTION));

  /* counts of off-CPU samples read for a time range move as the
   * capture's did: stack 2 (main > foo) to its waiting node */
  {
    g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (HpCaptureStackCount));
    HpCaptureStackCount c = { 2, 100, 1, 5, 0 };
    const HpCaptureStack *s;

    g_array_append_val (counts, c);
    c.stack_id = 0;
    g_array_append_val (counts, c);
    hp_measure_remap_waiting (marked, counts);
    s = &g_array_index (marked->stacks, HpCaptureStack, g_array_index (counts, HpCaptureStackCount, 0).stack_id);
    g_assert_cmpint (s->parent_id, ==, 2);
    g_assert_true (hp_measure_is_waiting (marked, g_array_index (marked->frames, HpCaptureFrame, s->frame_id).function_id));
    s = &g_array_index (marked->stacks, HpCaptureStack, g_array_index (counts, HpCaptureStackCount, 1).stack_id);
    g_assert_cmpint (s->parent_id, ==, 0);
  }
}

static void
test_ratio_find (void)
{
  static const EventSpec ipc[] = {
    { "cpu-clock", "ns", 1, 1000000 }, { "cycles", "cycles", 1, 1000 }, { "instructions", "instructions", 1, 2500 },
  };
  static const EventSpec mpki[] = {
    { "instructions", "instructions", 1, 1000000 }, { "cache-misses", "cache misses", 1, 30 },
  };
  static const EventSpec two[] = {
    { "page-faults", "page faults", 1, 4 }, { "context-switches", "context switches", 1, 2 },
  };
  static const EventSpec wall_only[] = {
    { "cpu-clock", "ns", 1, 1000000 }, { "off-cpu", "ns", 1, 1000 },
  };
  HpCaptureData *data;
  HpRatio r;

  data = example_with_events (ipc, 3);
  g_assert_true (hp_ratio_find (data, &r));
  g_assert_cmpint (r.kind, ==, HP_RATIO_PER_CYCLE);
  g_assert_cmpuint (r.numerator, ==, 3);
  g_assert_cmpuint (r.denominator, ==, 2);
  g_assert_cmpfloat_with_epsilon (hp_ratio_value (&r, 2500, 1000), 2.5, 1e-9);
  example_free (data);

  data = example_with_events (mpki, 2);
  g_assert_true (hp_ratio_find (data, &r));
  g_assert_cmpint (r.kind, ==, HP_RATIO_PER_KILO);
  g_assert_cmpuint (r.numerator, ==, 2);
  g_assert_cmpfloat_with_epsilon (hp_ratio_value (&r, 30, 1000000), 0.03, 1e-12);
  example_free (data);

  data = example_with_events (cpu_faults_off, 3);
  g_assert_true (hp_ratio_find (data, &r));
  g_assert_cmpint (r.kind, ==, HP_RATIO_PER_MS);
  g_assert_cmpuint (r.numerator, ==, 2);
  g_assert_cmpuint (r.denominator, ==, 1);
  /* 7 faults per 1 ms sample */
  g_assert_cmpfloat_with_epsilon (hp_ratio_value (&r, 7, 1000000), 7.0, 1e-9);
  example_free (data);

  data = example_with_events (two, 2);
  g_assert_true (hp_ratio_find (data, &r));
  g_assert_cmpint (r.kind, ==, HP_RATIO_PER_EVENT);
  example_free (data);

  data = example_with_events (wall_only, 2);
  g_assert_false (hp_ratio_find (data, &r));
  g_assert_cmpint (r.kind, ==, HP_RATIO_NONE);
  g_assert_true (isnan (hp_ratio_value (&r, 1, 0)));
  example_free (data);
}

static void
test_ratio_map (void)
{
  /* instructions: 3 per cycle in stacks of tid 100, 1 per cycle in tid 101/102 */
  static const EventSpec ipc[] = {
    { "cycles", "cycles", 1, 1000 }, { "instructions", "instructions", 1, 1000 },
  };
  HpCaptureData *data = example_with_events (ipc, 2);
  HpMeasure shown_m, num_m, den_m;
  g_autoptr(HpCaptureData) shown = NULL;
  g_autoptr(HpCaptureData) num = NULL;
  g_autoptr(HpCaptureData) den = NULL;
  g_autoptr(HpProfile) shown_p = NULL;
  g_autoptr(HpProfile) num_p = NULL;
  g_autoptr(HpProfile) den_p = NULL;
  g_autoptr(HpRatioMap) map = NULL;
  g_autoptr(HpRatioMap) bottom = NULL;
  const HpCallNode *main_node, *foo, *bar;
  HpRatio r;
  guint64 n, d;

  for (guint c = 0; c < data->all_counts->len; c++)
    {
      HpCaptureStackCount *count = &g_array_index (data->all_counts, HpCaptureStackCount, c);

      if (count->event_id == 2 && count->tid == 100)
        count->weight *= 3;
    }
  g_assert_true (hp_ratio_find (data, &r));
  g_assert_true (hp_measure_init (&shown_m, data, "cycles"));
  g_assert_true (hp_measure_init (&num_m, data, "instructions"));
  g_assert_true (hp_measure_init (&den_m, data, "cycles"));
  shown = hp_measure_select (&shown_m, data);
  num = hp_measure_select (&num_m, data);
  den = hp_measure_select (&den_m, data);
  shown_p = hp_profile_new (shown, NULL);
  num_p = hp_profile_new (num, NULL);
  den_p = hp_profile_new (den, NULL);
  map = hp_ratio_map_new (hp_profile_get_top_down (shown_p), hp_profile_get_top_down (num_p),
                          hp_profile_get_top_down (den_p));

  main_node = child_named (shown_p, hp_profile_get_top_down (shown_p), "main");
  foo = child_named (shown_p, main_node, "foo");
  bar = child_named (shown_p, main_node, "bar");
  /* main > bar is stack 7/8, of tid 101 only: IPC 1 */
  g_assert_true (hp_ratio_map_lookup (map, bar, &n, &d));
  g_assert_cmpuint (n, ==, 32000);
  g_assert_cmpuint (d, ==, 32000);
  /* main > foo: 30 + 256 samples, of which 16 (stack 5) in tid 101 */
  g_assert_true (hp_ratio_map_lookup (map, foo, &n, &d));
  g_assert_cmpuint (d, ==, 286000);
  g_assert_cmpuint (n, ==, (270 * 3 + 16) * 1000);
  g_assert_cmpfloat_with_epsilon (hp_ratio_value (&r, n, d), (270.0 * 3 + 16) / 286, 1e-9);
  /* the root: all of it */
  g_assert_true (hp_ratio_map_lookup (map, hp_profile_get_top_down (shown_p), &n, &d));
  g_assert_cmpuint (d, ==, 511000);
  /* a node of another tree is not in the map */
  g_assert_false (hp_ratio_map_lookup (map, hp_profile_get_top_down (num_p), &n, &d));

  /* bottom-up trees match the same way: syscall is of tid 101 and 102 */
  bottom = hp_ratio_map_new (hp_profile_get_bottom_up (shown_p), hp_profile_get_bottom_up (num_p),
                             hp_profile_get_bottom_up (den_p));
  g_assert_true (hp_ratio_map_lookup (bottom, child_named (shown_p, hp_profile_get_bottom_up (shown_p), "syscall"),
                                      &n, &d));
  g_assert_cmpuint (n, ==, d);
  g_assert_cmpuint (d, ==, 96000);

  hp_measure_clear (&shown_m);
  hp_measure_clear (&num_m);
  hp_measure_clear (&den_m);
  g_clear_pointer (&map, hp_ratio_map_free);
  g_clear_pointer (&bottom, hp_ratio_map_free);
  g_clear_pointer (&shown_p, hp_profile_free);
  g_clear_pointer (&num_p, hp_profile_free);
  g_clear_pointer (&den_p, hp_profile_free);
  g_clear_pointer (&shown, hp_capture_data_free);
  g_clear_pointer (&num, hp_capture_data_free);
  g_clear_pointer (&den, hp_capture_data_free);
  example_free (data);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/measure/list", test_list);
  g_test_add_func ("/measure/init-and-select", test_init_and_select);
  g_test_add_func ("/measure/waiting", test_waiting);
  g_test_add_func ("/measure/ratio-find", test_ratio_find);
  g_test_add_func ("/measure/ratio-map", test_ratio_map);
  return g_test_run ();
}
