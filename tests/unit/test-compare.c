/* test-compare.c - comparisons of captures known by construction
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Captures are built in memory from folded stacks ("main;step;score" with
 * a weight and a sample count per leaf), so that every cost is known.
 * Captures of one comparison number their functions differently (a
 * capture can start with unused functions), so that only names can match
 * them, never ids.
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "analysis/hp-compare.h"
#include "store/hp-capture-writer.h"
#include "test-capture-data.h"

typedef struct {
  const char *stack;    /* "main;step;score", a step may be "name@module", and end
                         * in ":LINE" for a frame at that line of app.c */
  guint64     weight;
  guint64     samples;
} Leaf;

typedef struct {
  HpCaptureData *data;
  GHashTable    *functions;  /* "module\tname" -> id */
  GHashTable    *stacks;     /* "parent:frame" -> id */
  GHashTable    *frames;     /* "function:line" -> id */
} Builder;

static gint64
builder_module (Builder    *b,
                const char *name)
{
  for (guint i = 1; i < b->data->modules->len; i++)
    if (strcmp (g_array_index (b->data->modules, HpCaptureModule, i).name, name) == 0)
      return i;
  {
    HpCaptureModule m = { 0 };

    if (b->data->modules->len == 0)
      g_array_set_size (b->data->modules, 1);
    m.path = (char *) g_intern_string (name);
    m.name = m.path;
    g_array_append_val (b->data->modules, m);
    return b->data->modules->len - 1;
  }
}

static gint64
builder_function (Builder    *b,
                  const char *step)
{
  const char *at = strchr (step, '@');
  g_autofree char *name = at ? g_strndup (step, at - step) : g_strdup (step);
  g_autofree char *key = g_strconcat (at ? at + 1 : "app", "\t", name, NULL);
  gpointer id;

  if (!g_hash_table_lookup_extended (b->functions, key, NULL, &id))
    {
      HpCaptureFunction f = { 0 };

      if (b->data->functions->len == 0)
        g_array_set_size (b->data->functions, 1);
      f.name = (char *) g_intern_string (name);
      f.module_id = builder_module (b, at ? at + 1 : "app");
      g_array_append_val (b->data->functions, f);
      id = GINT_TO_POINTER (b->data->functions->len - 1);
      g_hash_table_insert (b->functions, g_steal_pointer (&key), id);
    }
  return GPOINTER_TO_INT (id);
}

/* The frame of a step: "name[@module][:line]". */
static gint64
builder_frame (Builder    *b,
               const char *step)
{
  const char *colon = strchr (step, ':');
  g_autofree char *function = colon ? g_strndup (step, colon - step) : g_strdup (step);
  guint line = colon ? (guint) g_ascii_strtoull (colon + 1, NULL, 10) : 0;
  gint64 function_id = builder_function (b, function);
  g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT ":%u", function_id, line);
  gpointer id;

  if (!g_hash_table_lookup_extended (b->frames, key, NULL, &id))
    {
      HpCaptureFrame frame = { 0 };

      if (b->data->frames->len == 0)
        g_array_set_size (b->data->frames, 1);
      frame.function_id = function_id;
      frame.file = line > 0 ? (char *) "app.c" : NULL;
      frame.line = line;
      g_array_append_val (b->data->frames, frame);
      id = GINT_TO_POINTER (b->data->frames->len - 1);
      g_hash_table_insert (b->frames, g_steal_pointer (&key), id);
    }
  return GPOINTER_TO_INT (id);
}

static gint64
builder_stack (Builder *b,
               gint64   parent,
               gint64   frame)
{
  g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT, parent, frame);
  gpointer id;

  if (!g_hash_table_lookup_extended (b->stacks, key, NULL, &id))
    {
      HpCaptureStack s = { parent, frame };

      if (b->data->stacks->len == 0)
        g_array_set_size (b->data->stacks, 1);
      g_array_append_val (b->data->stacks, s);
      id = GINT_TO_POINTER (b->data->stacks->len - 1);
      g_hash_table_insert (b->stacks, g_steal_pointer (&key), id);
    }
  return GPOINTER_TO_INT (id);
}

/* A capture of @leaves; @shift unused functions first make its ids differ. */
static HpCaptureData *
make_data (const char *event,
           const char *unit,
           guint       shift,
           const Leaf *leaves,
           guint       n)
{
  Builder b = { test_data_new (),
                g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
                g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
                g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL) };

  g_hash_table_insert (b.data->metadata, (char *) "event", (char *) event);
  g_hash_table_insert (b.data->metadata, (char *) "event_unit", (char *) unit);
  for (guint i = 0; i < shift; i++)
    {
      g_autofree char *name = g_strdup_printf ("unused_%u", i);

      builder_function (&b, name);
    }
  for (guint i = 0; i < n; i++)
    {
      g_auto(GStrv) steps = g_strsplit (leaves[i].stack, ";", -1);
      HpCaptureStackCount count = { 0, 1000, leaves[i].samples, leaves[i].weight };

      for (guint s = 0; steps[s] != NULL; s++)
        count.stack_id = builder_stack (&b, count.stack_id, builder_frame (&b, steps[s]));
      g_array_append_val (b.data->stack_counts, count);
    }
  g_hash_table_unref (b.functions);
  g_hash_table_unref (b.stacks);
  g_hash_table_unref (b.frames);
  return b.data;
}

static void
add (HpComparison  *cmp,
     HpCompareSide  side,
     HpCaptureData *data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (hp_comparison_add_data (cmp, side, side == HP_COMPARE_BASE ? "base" : "new", data, &error));
  g_assert_no_error (error);
  test_data_free (data);
}

static const HpCompareFunction *
find_function (HpComparison *cmp,
               const char   *name,
               const char   *module)
{
  for (guint i = 0; i < hp_comparison_get_n_functions (cmp); i++)
    {
      const HpCompareFunction *fn = hp_comparison_get_function (cmp, i);

      if (strcmp (fn->name, name) == 0 && strcmp (fn->module, module) == 0)
        return fn;
    }
  return NULL;
}

static gint
find_path (HpComparison *cmp,
           const char   *readable)
{
  for (guint i = 0; i < hp_comparison_get_n_paths (cmp); i++)
    {
      g_autofree char *r = hp_comparison_get_path_readable (cmp, i);

      if (strcmp (r, readable) == 0)
        return i;
    }
  return -1;
}

static void
test_fold_clone_names (void)
{
  static const char *cases[][2] = {
    { "foo.part.0", "foo" },
    { "foo.constprop.3", "foo" },
    { "foo.isra.0", "foo" },
    { "foo.cold", "foo" },
    { "foo.cold.12", "foo" },
    { "foo.constprop.0.isra.0", "foo" },
    { "foo.part.1.cold", "foo" },
    { "foo.lto_priv.0", "foo" },
    { "parse(char const*) [clone .isra.0]", "parse(char const*)" },
    { "parse(int) [clone .constprop.0] [clone .cold]", "parse(int)" },
    /* not clones */
    { "foo", "foo" },
    { "foo.bar", "foo.bar" },
    { "foo.part", "foo.part" },
    { "x.5", "x.5" },
    { "std::vector<int>::operator[]", "std::vector<int>::operator[]" },
    { ".cold", ".cold" },
    { "0x1234", "0x1234" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *folded = hp_compare_fold_clone_name (cases[i][0]);

      g_assert_cmpstr (folded, ==, cases[i][1]);
    }
}

/* Matching by identity: other ids, clones folded, modules kept apart,
 * totals once per sample under (folded) recursion. */
static void
test_matching (void)
{
  static const Leaf base[] = {
    { "main;step;score", 400, 4 },
    { "main;step;parse", 500, 5 },
    { "main;step;rec;rec", 100, 1 },
    { "main;step;write@libc.so.6", 50, 1 },
  };
  /* the new build: score became a clone and a cold part, rec's recursion
   * goes through its clone, and another module has a "parse" of its own */
  static const Leaf new_leaves[] = {
    { "main;step;score.part.0", 300, 3 },
    { "main;step;score.part.0;score.cold", 200, 2 },
    { "main;step;parse", 500, 5 },
    { "main;step;rec;rec.constprop.0", 100, 1 },
    { "main;step;parse@libz.so.1", 70, 1 },
  };
  g_autoptr(HpComparison) cmp = hp_comparison_new ();
  g_autoptr(GError) error = NULL;
  const HpCompareFunction *fn;
  gint path;

  add (cmp, HP_COMPARE_BASE, make_data ("cpu-clock", "ns", 0, base, G_N_ELEMENTS (base)));
  add (cmp, HP_COMPARE_NEW, make_data ("cpu-clock", "ns", 7, new_leaves, G_N_ELEMENTS (new_leaves)));
  g_assert_true (hp_comparison_run (cmp, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (hp_comparison_get_method (cmp), ==, HP_COMPARE_METHOD_COUNTS);

  fn = find_function (cmp, "score", "app");
  g_assert_nonnull (fn);
  g_assert_cmpfloat (fn->self.base, ==, 400);
  g_assert_cmpfloat (fn->self.new_cost, ==, 500);   /* the clone and its cold part */
  g_assert_cmpfloat (fn->total.new_cost, ==, 500);  /* not 700: once per sample */
  g_assert_cmpfloat (fabs (fn->self.change - 25), <, 1e-9);
  g_assert_null (find_function (cmp, "score.part.0", "app"));
  g_assert_null (find_function (cmp, "score.cold", "app"));

  fn = find_function (cmp, "rec", "app");
  g_assert_nonnull (fn);
  g_assert_cmpfloat (fn->total.base, ==, 100);
  g_assert_cmpfloat (fn->total.new_cost, ==, 100);
  g_assert_cmpfloat (fn->self.new_cost, ==, 100);

  /* the same name in another module is another function */
  fn = find_function (cmp, "parse", "app");
  g_assert_cmpfloat (fn->self.base, ==, 500);
  g_assert_cmpfloat (fn->self.new_cost, ==, 500);
  fn = find_function (cmp, "parse", "libz.so.1");
  g_assert_cmpfloat (fn->self.base, ==, 0);
  g_assert_cmpfloat (fn->self.new_cost, ==, 70);
  g_assert_true (isnan (fn->self.change));
  fn = find_function (cmp, "write", "libc.so.6");
  g_assert_cmpfloat (fn->self.new_cost, ==, 0);

  /* paths merge the clones too, and keep the key format of summaries */
  path = find_path (cmp, "main → step → score → score");
  g_assert_cmpint (path, >=, 0);
  g_assert_cmpfloat (hp_comparison_get_path_stat (cmp, path)->new_cost, ==, 200);
  path = find_path (cmp, "main → step → score");
  g_assert_cmpint (path, >=, 0);
  g_assert_cmpfloat (hp_comparison_get_path_stat (cmp, path)->base, ==, 400);
  g_assert_cmpfloat (hp_comparison_get_path_stat (cmp, path)->new_cost, ==, 500);
  {
    g_autofree char *key = hp_comparison_get_path_key (cmp, path);

    g_assert_cmpstr (key, ==, "app\tmain\napp\tstep\napp\tscore\n");
  }
  g_assert_cmpint (find_path (cmp, "main → step → rec → rec"), >=, 0);

  g_assert_cmpuint (hp_comparison_get_side (cmp, HP_COMPARE_BASE)->n_samples, ==, 11);
  g_assert_cmpfloat (hp_comparison_get_side (cmp, HP_COMPARE_NEW)->cost, ==, 1170);
  g_assert_null (hp_comparison_get_warnings (cmp)[0]);
}

/* Five runs per side with known per-run costs: Welch's test. "hot" is 10 %
 * slower with little noise; "warm" varies but did not change; "noisy"
 * moved by less than its noise. */
static void
test_welch_verdicts (void)
{
  static const double hot_base[] = { 1000, 1010, 990, 1005, 995 };
  static const double hot_new[] = { 1100, 1112, 1088, 1104, 1096 };
  static const double warm[] = { 3000, 3030, 2970, 3010, 2990 };
  static const double warm_new[] = { 2995, 3020, 3000, 2980, 3005 };
  static const double noisy_base[] = { 500, 700, 400, 650, 550 };
  static const double noisy_new[] = { 740, 580, 800, 620, 560 };
  g_autoptr(HpComparison) cmp = hp_comparison_new ();
  g_autoptr(GError) error = NULL;
  const HpCompareFunction *hot, *warm_fn, *noisy;

  for (guint r = 0; r < 5; r++)
    {
      Leaf b[] = {
        { "main;hot", hot_base[r], hot_base[r] / 10 },
        { "main;warm", warm[r], warm[r] / 10 },
        { "main;noisy", noisy_base[r], noisy_base[r] / 10 },
      };
      Leaf n[] = {
        { "main;noisy", noisy_new[r], noisy_new[r] / 10 },
        { "main;warm", warm_new[r], warm_new[r] / 10 },
        { "main;hot", hot_new[r], hot_new[r] / 10 },
      };

      add (cmp, HP_COMPARE_BASE, make_data ("cycles", "cycles", r, b, G_N_ELEMENTS (b)));
      add (cmp, HP_COMPARE_NEW, make_data ("cycles", "cycles", 5 - r, n, G_N_ELEMENTS (n)));
    }
  g_assert_true (hp_comparison_run (cmp, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (hp_comparison_get_method (cmp), ==, HP_COMPARE_METHOD_WELCH);

  hot = find_function (cmp, "hot", "app");
  warm_fn = find_function (cmp, "warm", "app");
  noisy = find_function (cmp, "noisy", "app");
  g_assert_cmpint (hot->self.verdict, ==, HP_VERDICT_SLOWER);
  g_assert_cmpfloat (fabs (hot->self.change - 10), <, 0.01);
  g_assert_cmpfloat (hot->self.low, >, 7);
  g_assert_cmpfloat (hot->self.high, <, 13);
  g_assert_cmpfloat (hot->self.q, <, 0.01);
  /* the slower function comes first */
  g_assert_true (hp_comparison_get_function (cmp, 0) == hot);
  g_assert_cmpint (warm_fn->self.verdict, ==, HP_VERDICT_UNCHANGED);
  g_assert_cmpint (noisy->self.verdict, ==, HP_VERDICT_UNRESOLVED);
  g_assert_cmpfloat (noisy->self.q, >, 0.05);
  g_assert_cmpint (find_function (cmp, "main", "app")->self.verdict, ==, HP_VERDICT_UNCHANGED);
  g_assert_cmpfloat (hp_comparison_get_mde (cmp), >, 0);

  /* in the tree, main's slower child comes before warm, which costs more */
  {
    g_autoptr(GArray) roots = hp_comparison_get_path_children (cmp, -1);
    g_autoptr(GArray) children = NULL;
    const HpComparePath *first, *second;

    g_assert_cmpuint (roots->len, ==, 1);
    children = hp_comparison_get_path_children (cmp, g_array_index (roots, guint, 0));
    g_assert_cmpuint (children->len, ==, 3);
    first = hp_comparison_get_path (cmp, g_array_index (children, guint, 0));
    second = hp_comparison_get_path (cmp, g_array_index (children, guint, 1));
    g_assert_cmpstr (first->name, ==, "hot");
    g_assert_cmpstr (second->name, ==, "warm");
  }
}

/* A significant change under the materiality floor is not flagged. */
static void
test_floor (void)
{
  g_autoptr(HpComparison) cmp = hp_comparison_new ();
  g_autoptr(GError) error = NULL;
  const HpCompareFunction *tiny;

  for (guint r = 0; r < 5; r++)
    {
      Leaf b[] = { { "main;big", 100000 + r, 1000 }, { "main;tiny", 500 + r, 5 } };
      Leaf n[] = { { "main;big", 100000 + r, 1000 }, { "main;tiny", 700 + r, 7 } };

      add (cmp, HP_COMPARE_BASE, make_data ("cycles", "cycles", 0, b, 2));
      add (cmp, HP_COMPARE_NEW, make_data ("cycles", "cycles", 0, n, 2));
    }
  g_assert_true (hp_comparison_run (cmp, NULL, &error));
  tiny = find_function (cmp, "tiny", "app");
  g_assert_cmpfloat (fabs (tiny->self.change - 40), <, 1);
  g_assert_cmpfloat (tiny->self.p, <, 1e-6);
  /* 200 of 100 600: 0.2 % of the total, under the 1 % floor; it is out of
   * the family, and negligible: "unchanged +40 %" read as a contradiction */
  g_assert_true (isnan (tiny->self.q));
  g_assert_cmpint (tiny->self.verdict, ==, HP_VERDICT_NEGLIGIBLE);
  {
    g_autofree char *explained = hp_comparison_explain (cmp, &tiny->self);

    g_assert_true (g_str_has_prefix (explained, "negligible: whatever it changed by"));
  }
}

/* One run per side: the counts' sampling error. */
static void
test_counts (void)
{
  static const Leaf b[] = { { "main;a", 1000000, 1000 }, { "main;b", 9000000, 9000 } };
  static const Leaf n[] = { { "main;a", 1200000, 1200 }, { "main;b", 9000000, 9000 } };
  g_autoptr(HpComparison) cmp = hp_comparison_new ();
  g_autoptr(GError) error = NULL;
  const HpCompareFunction *a;

  add (cmp, HP_COMPARE_BASE, make_data ("cpu-clock", "ns", 0, b, 2));
  add (cmp, HP_COMPARE_NEW, make_data ("cpu-clock", "ns", 3, n, 2));
  g_assert_true (hp_comparison_run (cmp, NULL, &error));
  g_assert_cmpint (hp_comparison_get_method (cmp), ==, HP_COMPARE_METHOD_COUNTS);
  a = find_function (cmp, "a", "app");
  g_assert_cmpint (a->self.verdict, ==, HP_VERDICT_SLOWER);
  /* z = 200 / sqrt(2200) = 4.26 */
  g_assert_cmpfloat (fabs (a->self.p - 2 * 0.5 * erfc (200 / sqrt (2200) / G_SQRT2)), <, 1e-9);
  g_assert_cmpint (find_function (cmp, "b", "app")->self.verdict, ==, HP_VERDICT_UNCHANGED);
}

static void
test_different_events (void)
{
  static const Leaf leaves[] = { { "main", 10, 1 } };
  g_autoptr(HpComparison) cmp = hp_comparison_new ();
  g_autoptr(GError) error = NULL;

  add (cmp, HP_COMPARE_BASE, make_data ("cpu-clock", "ns", 0, leaves, 1));
  add (cmp, HP_COMPARE_NEW, make_data ("cycles", "cycles", 0, leaves, 1));
  g_assert_false (hp_comparison_run (cmp, NULL, &error));
  g_assert_error (error, HP_COMPARE_ERROR, HP_COMPARE_ERROR_MISMATCH);
  g_assert_nonnull (strstr (error->message, "cpu-clock"));
  g_assert_nonnull (strstr (error->message, "cycles"));
}

/* A folder of captures whose samples each add up to just under 2^62, as
 * the reader allows: the side's sum passes it. Before, five of them wrapped
 * the base's count in the report header (4611686018427386934 samples for
 * 2.3 * 10^19). */
static void
test_too_many_samples (void)
{
  static const Leaf huge[] = { { "main", 1, G_GUINT64_CONSTANT (1) << 61 }, { "main;a", 1, (G_GUINT64_CONSTANT (1) << 61) - 1 } };
  static const Leaf few[] = { { "main", 10, 1 } };
  g_autoptr(HpComparison) cmp = hp_comparison_new ();
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 5; i++)
    add (cmp, HP_COMPARE_BASE, make_data ("cpu-clock", "ns", 0, huge, 2));
  add (cmp, HP_COMPARE_NEW, make_data ("cpu-clock", "ns", 0, few, 1));
  g_assert_false (hp_comparison_run (cmp, NULL, &error));
  g_assert_error (error, HP_COMPARE_ERROR, HP_COMPARE_ERROR_TOO_MANY_SAMPLES);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, "base: the samples of the base side's captures"));
}

static void
test_nothing_in_common (void)
{
  static const Leaf b[] = { { "main@one;alpha@one", 100, 10 } };
  static const Leaf n[] = { { "main@two;beta@two", 100, 10 } };
  g_autoptr(HpComparison) cmp = hp_comparison_new ();
  g_autoptr(GError) error = NULL;
  const char * const *warnings;

  add (cmp, HP_COMPARE_BASE, make_data ("cpu-clock", "ns", 0, b, 1));
  add (cmp, HP_COMPARE_NEW, make_data ("cpu-clock", "ns", 0, n, 1));
  g_assert_true (hp_comparison_run (cmp, NULL, &error));
  warnings = hp_comparison_get_warnings (cmp);
  g_assert_nonnull (warnings[0]);
  g_assert_nonnull (strstr (warnings[0], "little in common"));
  g_assert_cmpuint (hp_comparison_get_n_functions (cmp), ==, 4);
}

/* A program rebuilt under another name (both kept, to interleave their
 * runs): the module of the program each run executed, as its command
 * names it, is one module when most of the cost of each is in functions
 * of names the other has; other modules keep their names. */
static void
test_renamed_program (void)
{
  static const Leaf base[] = {
    { "main@app-old;score@app-old", 400, 4 },
    { "main@app-old;parse.part.0@app-old", 300, 3 },
    { "main@app-old;write@libc.so.6", 100, 1 },
    { "main@app-old;helper@tool", 100, 1 },
  };
  static const Leaf new_leaves[] = {
    { "main@app-new;score@app-new", 500, 5 },
    { "main@app-new;parse@app-new", 300, 3 },
    { "main@app-new;write@libc.so.6", 100, 1 },
    { "main@app-new;helper@tool2", 100, 1 },
  };
  g_autoptr(HpComparison) cmp = hp_comparison_new_with_bottom_up ();
  g_autoptr(GError) error = NULL;
  HpCaptureData *data;
  const HpCompareFunction *fn;
  const char * const *warnings;
  gint path;

  data = make_data ("cpu-clock", "ns", 0, base, G_N_ELEMENTS (base));
  g_hash_table_insert (data->metadata, (char *) "command", (char *) "./app-old --fast 'a b'");
  add (cmp, HP_COMPARE_BASE, data);
  /* two runs of the new: the second is matched as the first was */
  for (guint r = 0; r < 2; r++)
    {
      data = make_data ("cpu-clock", "ns", 3 + r, new_leaves, G_N_ELEMENTS (new_leaves));
      g_hash_table_insert (data->metadata, (char *) "command", (char *) "/opt/build/app-new --fast 'a b'");
      add (cmp, HP_COMPARE_NEW, data);
    }
  g_assert_true (hp_comparison_run (cmp, NULL, &error));
  g_assert_no_error (error);

  fn = find_function (cmp, "score", "app-old");
  g_assert_nonnull (fn);
  g_assert_cmpfloat (fn->self.base, ==, 400);
  g_assert_cmpfloat (fn->self.new_cost, ==, 500);
  g_assert_null (find_function (cmp, "score", "app-new"));
  g_assert_null (find_function (cmp, "main", "app-new"));
  g_assert_cmpfloat (find_function (cmp, "parse", "app-old")->self.new_cost, ==, 300);
  g_assert_cmpfloat (find_function (cmp, "main", "app-old")->total.new_cost, ==, 1000);
  g_assert_cmpfloat (find_function (cmp, "write", "libc.so.6")->self.new_cost, ==, 100);
  /* only the program's module: a library of another name is another */
  g_assert_cmpfloat (find_function (cmp, "helper", "tool")->self.new_cost, ==, 0);
  g_assert_cmpfloat (find_function (cmp, "helper", "tool2")->self.base, ==, 0);

  path = find_path (cmp, "main → score");
  g_assert_cmpint (path, >=, 0);
  g_assert_cmpfloat (hp_comparison_get_path_stat (cmp, path)->new_cost, ==, 500);
  {
    g_autofree char *key = hp_comparison_get_path_key (cmp, path);

    g_assert_cmpstr (key, ==, "app-old\tmain\napp-old\tscore\n");
  }
  g_assert_cmpfloat (find_function (hp_comparison_get_bottom_up (cmp), "score", "app-old")->self.new_cost, ==, 500);
  g_assert_null (find_function (hp_comparison_get_bottom_up (cmp), "score", "app-new"));
  /* a summary of the new side's capture finds its path */
  {
    g_autofree char *key = hp_comparison_match_path_key (cmp, "app-new\tmain\napp-new\tscore\n");
    g_autofree char *lib = hp_comparison_match_path_key (cmp, "app-new\tmain\ntool2\thelper\n");

    g_assert_cmpstr (key, ==, "app-old\tmain\napp-old\tscore\n");
    g_assert_cmpstr (lib, ==, "app-old\tmain\ntool2\thelper\n");
  }

  /* said, and not taken for captures of different programs */
  warnings = hp_comparison_get_warnings (cmp);
  g_assert_nonnull (warnings[0]);
  g_assert_nonnull (strstr (warnings[0], "app-old and app-new"));
  g_assert_null (warnings[1]);
}

/* Two different programs that share main() and little else keep their
 * names, renamed or not: nothing of one is counted as the other's. */
static void
test_different_programs (void)
{
  static const Leaf app[] = {
    { "main@app;parse@app", 100, 1 },
    { "main@app;render@app", 200, 2 },
    { "main@app;write@libc.so.6", 10, 1 },
  };
  static const Leaf other[] = {
    { "main@other;encode@other", 100, 1 },
    { "main@other;decode@other", 200, 2 },
    { "main@other;write@libc.so.6", 10, 1 },
  };
  g_autoptr(HpComparison) cmp = hp_comparison_new ();
  g_autoptr(GError) error = NULL;
  HpCaptureData *data;
  const char * const *warnings;

  data = make_data ("cpu-clock", "ns", 0, app, G_N_ELEMENTS (app));
  g_hash_table_insert (data->metadata, (char *) "command", (char *) "/usr/bin/app");
  add (cmp, HP_COMPARE_BASE, data);
  data = make_data ("cpu-clock", "ns", 0, other, G_N_ELEMENTS (other));
  g_hash_table_insert (data->metadata, (char *) "command", (char *) "/usr/bin/other");
  add (cmp, HP_COMPARE_NEW, data);
  g_assert_true (hp_comparison_run (cmp, NULL, &error));
  g_assert_no_error (error);

  g_assert_cmpfloat (find_function (cmp, "main", "app")->total.new_cost, ==, 0);
  g_assert_cmpfloat (find_function (cmp, "main", "other")->total.base, ==, 0);
  g_assert_cmpfloat (find_function (cmp, "write", "libc.so.6")->self.new_cost, ==, 10);
  g_assert_cmpuint (hp_comparison_get_n_functions (cmp), ==, 7);
  {
    g_autofree char *key = hp_comparison_match_path_key (cmp, "other\tmain\nother\tencode\n");

    g_assert_cmpstr (key, ==, "other\tmain\nother\tencode\n");
  }
  warnings = hp_comparison_get_warnings (cmp);
  g_assert_nonnull (warnings[0]);
  g_assert_nonnull (strstr (warnings[0], "little in common"));
  g_assert_null (warnings[1]);
}

/* Folders: every *.hotpath in it; errors name the folder or the file. */
static void
test_paths (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hotpath-compare-XXXXXX", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty", NULL);
  g_autofree char *runs = g_build_filename (dir, "runs", NULL);
  g_autofree char *bogus = g_build_filename (dir, "bogus.hotpath", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir (empty, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (runs, 0700), ==, 0);
  for (guint r = 0; r < 3; r++)
    {
      g_autofree char *name = g_strdup_printf ("run-%u.hotpath", r);
      g_autofree char *path = g_build_filename (runs, name, NULL);
      g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
      gint64 module, function, frame, stack;

      g_assert_no_error (error);
      hp_capture_writer_set_metadata (w, "event", "cpu-clock");
      hp_capture_writer_set_metadata (w, "event_unit", "ns");
      module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
      function = hp_capture_writer_intern_function (w, "main", module, NULL, 0);
      frame = hp_capture_writer_intern_frame (w, function, NULL, 0, FALSE, 0x10);
      stack = hp_capture_writer_intern_stack (w, 0, frame);
      for (guint s = 0; s < 10 + r; s++)
        hp_capture_writer_add_sample (w, 1000 + s, 1, 0, stack, 1000);
      g_assert_true (hp_capture_writer_finish (w, &error));
    }
  {
    g_autofree char *notes = g_build_filename (runs, "notes.txt", NULL);

    g_assert_true (g_file_set_contents (notes, "not a capture, and not named like one", -1, NULL));
  }
  g_assert_true (g_file_set_contents (bogus, "hello", -1, NULL));

  {
    g_autoptr(HpComparison) cmp = hp_comparison_new ();

    g_assert_true (hp_comparison_add_path (cmp, HP_COMPARE_BASE, runs, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (hp_comparison_add_path (cmp, HP_COMPARE_NEW, runs, NULL, &error));
    g_assert_true (hp_comparison_run (cmp, NULL, &error));
    g_assert_cmpuint (hp_comparison_get_side (cmp, HP_COMPARE_BASE)->n_captures, ==, 3);
    g_assert_cmpuint (hp_comparison_get_side (cmp, HP_COMPARE_BASE)->n_samples, ==, 33);
    g_assert_cmpfloat (hp_comparison_get_side (cmp, HP_COMPARE_NEW)->cost, ==, 11000);
    g_assert_cmpint (find_function (cmp, "main", "app")->self.verdict, ==, HP_VERDICT_UNCHANGED);
  }
  {
    g_autoptr(HpComparison) cmp = hp_comparison_new ();

    g_assert_false (hp_comparison_add_path (cmp, HP_COMPARE_BASE, empty, NULL, &error));
    g_assert_error (error, HP_COMPARE_ERROR, HP_COMPARE_ERROR_NO_CAPTURES);
    g_assert_nonnull (strstr (error->message, empty));
    g_clear_error (&error);
    g_assert_false (hp_comparison_add_path (cmp, HP_COMPARE_BASE, bogus, NULL, &error));
    g_assert_error (error, HP_STORE_ERROR, HP_STORE_ERROR_NOT_CAPTURE);
    g_assert_nonnull (strstr (error->message, bogus));
    g_clear_error (&error);
  }
  {
    /* a folder holding something that is named like a capture but is not */
    g_autofree char *fake = g_build_filename (runs, "fake.hotpath", NULL);
    g_autoptr(HpComparison) cmp = hp_comparison_new ();

    g_assert_true (g_file_set_contents (fake, "not sqlite", -1, NULL));
    g_assert_false (hp_comparison_add_path (cmp, HP_COMPARE_BASE, runs, NULL, &error));
    g_assert_nonnull (strstr (error->message, fake));
    g_unlink (fake);
  }

  {
    GDir *d = g_dir_open (runs, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *path = g_build_filename (runs, name, NULL);

        g_unlink (path);
      }
    g_dir_close (d);
  }
  g_rmdir (runs);
  g_rmdir (empty);
  g_unlink (bogus);
  g_rmdir (dir);
}

/* The bottom-up tree of the same runs: paths from the leaf up. */
static void
test_bottom_up (void)
{
  static const Leaf base[] = { { "main;a;leaf", 100, 1 }, { "main;b;leaf", 300, 3 }, { "main;b", 50, 1 } };
  static const Leaf new_leaves[] = { { "main;b;leaf.part.0", 400, 4 }, { "main;a;leaf", 100, 1 }, { "main;b", 50, 1 } };
  g_autoptr(HpComparison) cmp = hp_comparison_new_with_bottom_up ();
  g_autoptr(GError) error = NULL;
  HpComparison *bu;
  gint path;

  add (cmp, HP_COMPARE_BASE, make_data ("cpu-clock", "ns", 0, base, G_N_ELEMENTS (base)));
  add (cmp, HP_COMPARE_NEW, make_data ("cpu-clock", "ns", 2, new_leaves, G_N_ELEMENTS (new_leaves)));
  g_assert_true (hp_comparison_run (cmp, NULL, &error));
  g_assert_no_error (error);
  bu = hp_comparison_get_bottom_up (cmp);
  g_assert_nonnull (bu);
  g_assert_true (hp_comparison_is_bottom_up (bu));
  g_assert_false (hp_comparison_is_bottom_up (cmp));

  path = find_path (bu, "leaf");
  g_assert_cmpint (path, >=, 0);
  g_assert_cmpint (hp_comparison_get_path (bu, path)->parent, ==, -1);
  g_assert_cmpfloat (hp_comparison_get_path_stat (bu, path)->base, ==, 400);
  g_assert_cmpfloat (hp_comparison_get_path_stat (bu, path)->new_cost, ==, 500);
  path = find_path (bu, "leaf ← b");
  g_assert_cmpfloat (hp_comparison_get_path_stat (bu, path)->base, ==, 300);
  g_assert_cmpfloat (hp_comparison_get_path_stat (bu, path)->new_cost, ==, 400);
  path = find_path (bu, "leaf ← a ← main");
  g_assert_cmpfloat (hp_comparison_get_path_stat (bu, path)->new_cost, ==, 100);
  path = find_path (bu, "b");
  g_assert_cmpfloat (hp_comparison_get_path_stat (bu, path)->base, ==, 50);
  g_assert_cmpint (find_path (bu, "main"), ==, -1);  /* never a leaf */

  /* the functions are the same as top-down */
  g_assert_cmpfloat (find_function (bu, "b", "app")->total.base, ==, 350);
  g_assert_cmpfloat (find_function (bu, "b", "app")->self.base, ==, 50);
  g_assert_cmpfloat (find_function (bu, "main", "app")->total.new_cost, ==, 550);
  g_assert_cmpfloat (find_function (cmp, "main", "app")->total.new_cost, ==, 550);
}

static const HpCompareNeighbour *
find_neighbour (GArray     *neighbours,
                const char *name)
{
  for (guint i = 0; i < neighbours->len; i++)
    if (strcmp (g_array_index (neighbours, HpCompareNeighbour, i).name, name) == 0)
      return &g_array_index (neighbours, HpCompareNeighbour, i);
  return NULL;
}

static const HpCompareLine *
find_line (GArray *lines,
           guint   line)
{
  for (guint i = 0; i < lines->len; i++)
    if (g_array_index (lines, HpCompareLine, i).line == line)
      return &g_array_index (lines, HpCompareLine, i);
  return NULL;
}

/* Callers, callees and lines of a function, each judged: hot gets 10 %
 * slower when a calls it (at line 20), not when b does (line 21). */
static void
test_neighbours_and_lines (void)
{
  static const double jitter[] = { 1.0, 1.01, 0.99, 1.005, 0.995 };
  g_autoptr(HpComparison) cmp = hp_comparison_new_with_bottom_up ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) callers = NULL;
  g_autoptr(GArray) callees = NULL;
  g_autoptr(GArray) lines = NULL;
  g_autoptr(GArray) a_lines = NULL;
  g_autoptr(GArray) none = NULL;
  const HpCompareNeighbour *nb;
  const HpCompareLine *line;
  gint hot, a;

  hp_comparison_keep_lines (cmp);
  for (guint r = 0; r < 5; r++)
    {
      double j = jitter[r], k = jitter[4 - r];
      Leaf b[] = {
        { "main:5;a:10;hot:20", 1000 * j, 100 * j },
        { "main:5;b:12;hot:21", 1000 * k, 100 * k },
        { "main:5;a:11;warm:30", 3000 * k, 300 * k },
      };
      Leaf n[] = {
        { "main:5;a:10;hot:20", 1100 * k, 110 * k },
        { "main:5;b:12;hot:21", 1000 * j, 100 * j },
        { "main:5;a:11;warm:30", 3000 * j, 300 * j },
      };

      add (cmp, HP_COMPARE_BASE, make_data ("cycles", "cycles", r, b, G_N_ELEMENTS (b)));
      add (cmp, HP_COMPARE_NEW, make_data ("cycles", "cycles", 5 - r, n, G_N_ELEMENTS (n)));
    }
  g_assert_true (hp_comparison_run (cmp, NULL, &error));
  g_assert_no_error (error);

  hot = hp_comparison_find_function (cmp, "app", "hot");
  a = hp_comparison_find_function (cmp, "app", "a.constprop.0");  /* clones fold */
  g_assert_cmpint (hot, >=, 0);
  g_assert_cmpint (a, >=, 0);
  g_assert_cmpint (hp_comparison_find_function (cmp, "other", "hot"), ==, -1);

  callers = hp_comparison_get_callers (cmp, hot);
  g_assert_cmpuint (callers->len, ==, 2);
  nb = find_neighbour (callers, "a");
  g_assert_nonnull (nb);
  g_assert_cmpint (nb->stat.verdict, ==, HP_VERDICT_SLOWER);
  g_assert_cmpfloat (fabs (nb->stat.change - 10), <, 1.5);
  g_assert_true (nb == &g_array_index (callers, HpCompareNeighbour, 0));  /* flagged first */
  nb = find_neighbour (callers, "b");
  g_assert_cmpint (nb->stat.verdict, ==, HP_VERDICT_UNCHANGED);
  g_assert_cmpfloat (nb->stat.base, >, 900);
  g_assert_cmpfloat (nb->stat.base, <, 1100);

  callees = hp_comparison_get_callees (cmp, a);
  g_assert_cmpuint (callees->len, ==, 2);
  g_assert_cmpint (find_neighbour (callees, "hot")->stat.verdict, ==, HP_VERDICT_SLOWER);
  g_assert_cmpint (find_neighbour (callees, "warm")->stat.verdict, ==, HP_VERDICT_UNCHANGED);

  lines = hp_comparison_get_lines (cmp, hot);
  g_assert_cmpuint (lines->len, ==, 2);
  line = find_line (lines, 20);
  g_assert_cmpstr (line->file, ==, "app.c");
  g_assert_cmpint (line->self.verdict, ==, HP_VERDICT_SLOWER);
  g_assert_cmpfloat (fabs (line->self.change - 10), <, 1.5);
  g_assert_cmpint (find_line (lines, 21)->self.verdict, ==, HP_VERDICT_UNCHANGED);
  /* a's line 10 calls hot: no self there, the call's total */
  a_lines = hp_comparison_get_lines (cmp, a);
  line = find_line (a_lines, 10);
  g_assert_cmpfloat (line->self.base, ==, 0);
  g_assert_cmpint (line->total.verdict, ==, HP_VERDICT_SLOWER);
  g_assert_cmpint (find_line (a_lines, 11)->total.verdict, ==, HP_VERDICT_UNCHANGED);
  g_assert_null (find_line (a_lines, 20));

  /* the inverted comparison has no neighbours of its own */
  none = hp_comparison_get_callers (hp_comparison_get_bottom_up (cmp), 0);
  g_assert_cmpuint (none->len, ==, 0);
}

/* Declares @name (of app) at @line of app.c, as DWARF's DW_AT_decl_line. */
static HpCaptureData *
declare (HpCaptureData *data,
         const char    *name,
         guint          line)
{
  for (guint i = 1; i < data->functions->len; i++)
    {
      HpCaptureFunction *f = &g_array_index (data->functions, HpCaptureFunction, i);

      if (strcmp (f->name, name) == 0)
        {
          f->file = (char *) g_intern_static_string ("app.c");
          f->line = line;
        }
    }
  return data;
}

/* Lines follow the code, not its numbers. hot moved from line 10 to 20
 * (ten lines added above it) and its line 13 got 10 % slower: by number,
 * each of its lines was compared with nothing (12 and 13 against 22 and
 * 23). By the declaration, 12 is 22 and 13 is 23. With the text of both
 * versions a line added inside the function moves the lines below it too:
 * 13 is 24, where the declaration alone would say 23; a line edited is
 * one of each side. */
static void
test_lines_follow_the_code (void)
{
  static const double jitter[] = { 1.0, 1.01, 0.99, 1.005, 0.995 };
  static const char * const base_text[] = {
    "/* 1 */", "/* 2 */", "/* 3 */", "/* 4 */", "/* 5 */", "/* 6 */", "/* 7 */", "/* 8 */", "/* 9 */",
    "int hot (void)", "{", "  a = x;", "  b = y * z;", "  c = 0;", "}",
  };
  static const char * const new_text[] = {
    "/* 1 */", "/* 2 */", "/* 3 */", "/* 4 */", "/* 5 */", "/* 6 */", "/* 7 */", "/* 8 */", "/* 9 */",
    "/* a */", "/* b */", "/* c */", "/* d */", "/* e */", "/* f */", "/* g */", "/* h */", "/* i */", "/* j */",
    "int hot (void)", "{", "  a = x;", "  /* added */", "  b = y * z;", "  c = 1;", "}",
  };
  g_autoptr(HpComparison) cmp = hp_comparison_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) lines = NULL;
  g_autoptr(GArray) aligned = NULL;
  HpCompareLineMatch match;
  const HpCompareLine *line;
  const char *files[2];
  gint hot;

  hp_comparison_keep_lines (cmp);
  for (guint r = 0; r < 5; r++)
    {
      double j = jitter[r], k = jitter[4 - r];
      Leaf b[] = {
        { "main:5;hot:12", 1000 * j, 100 * j },
        { "main:5;hot:13", 3000 * k, 300 * k },
        { "main:5;hot:14", 1000 * k, 100 * k },
        { "main:6;warm", 3000 * k, 300 * k },
      };
      Leaf n[] = {
        { "main:5;hot:22", 1000 * k, 100 * k },
        { "main:5;hot:24", 3300 * j, 330 * j },
        { "main:5;hot:25", 1000 * j, 100 * j },
        { "main:6;warm", 3000 * j, 300 * j },
      };

      add (cmp, HP_COMPARE_BASE, declare (make_data ("cycles", "cycles", r, b, G_N_ELEMENTS (b)), "hot", 10));
      add (cmp, HP_COMPARE_NEW, declare (make_data ("cycles", "cycles", 5 - r, n, G_N_ELEMENTS (n)), "hot", 20));
    }
  g_assert_true (hp_comparison_run (cmp, NULL, &error));
  g_assert_no_error (error);
  hot = hp_comparison_find_function (cmp, "app", "hot");
  hp_comparison_get_line_files (cmp, hot, &files[0], &files[1]);
  g_assert_cmpstr (files[0], ==, "app.c");
  g_assert_cmpstr (files[1], ==, "app.c");

  /* without the text: by the declaration, ten lines down */
  lines = hp_comparison_get_lines_aligned (cmp, hot, NULL, 0, NULL, 0, &match);
  g_assert_cmpint (match, ==, HP_COMPARE_LINES_BY_DECLARATION);
  g_assert_cmpuint (lines->len, ==, 4);   /* 22, 23 (base 13), 24 (new only), 25 */
  line = find_line (lines, 22);
  g_assert_cmpuint (line->base_line, ==, 12);
  g_assert_cmpint (line->self.verdict, ==, HP_VERDICT_UNCHANGED);
  g_assert_cmpuint (find_line (lines, 23)->base_line, ==, 13);
  g_assert_cmpfloat (find_line (lines, 23)->self.new_cost, ==, 0);

  /* with both texts: 13 is 24, 14 (edited) and 25 are one side each */
  aligned = hp_comparison_get_lines_aligned (cmp, hot, base_text, G_N_ELEMENTS (base_text),
                                             new_text, G_N_ELEMENTS (new_text), &match);
  g_assert_cmpint (match, ==, HP_COMPARE_LINES_BY_TEXT);
  for (guint i = 0; i < aligned->len; i++)
    g_test_message ("line %u (base %u): %s", g_array_index (aligned, HpCompareLine, i).line,
                    g_array_index (aligned, HpCompareLine, i).base_line,
                    hp_verdict_to_string (g_array_index (aligned, HpCompareLine, i).self.verdict));
  g_assert_cmpuint (aligned->len, ==, 4);
  g_assert_cmpuint (g_array_index (aligned, HpCompareLine, 0).line, ==, 22);
  g_assert_cmpuint (g_array_index (aligned, HpCompareLine, 0).base_line, ==, 12);
  line = &g_array_index (aligned, HpCompareLine, 1);
  g_assert_cmpuint (line->line, ==, 24);
  g_assert_cmpuint (line->base_line, ==, 13);
  g_assert_cmpint (line->self.verdict, ==, HP_VERDICT_SLOWER);
  g_assert_cmpfloat (fabs (line->self.change - 10), <, 1.5);
  /* the edited line: the base's 14, after 24 where its neighbour went, then the new's 25 */
  line = &g_array_index (aligned, HpCompareLine, 2);
  g_assert_cmpuint (line->line, ==, 0);
  g_assert_cmpuint (line->base_line, ==, 14);
  g_assert_cmpfloat (line->self.new_cost, ==, 0);
  line = &g_array_index (aligned, HpCompareLine, 3);
  g_assert_cmpuint (line->line, ==, 25);
  g_assert_cmpuint (line->base_line, ==, 0);

  /* warm has no declaration: by number */
  g_clear_pointer (&lines, g_array_unref);
  lines = hp_comparison_get_lines_aligned (cmp, hp_comparison_find_function (cmp, "app", "main"), NULL, 0, NULL, 0,
                                           &match);
  g_assert_cmpint (match, ==, HP_COMPARE_LINES_BY_NUMBER);
  g_assert_cmpuint (find_line (lines, 5)->base_line, ==, 5);
}

/* One figure, one verdict: the calls of main to f are one call path, the
 * tree's row main → f, and the callers pane shows that row's statistics.
 * Judged as a family of one caller they were flagged (q = p < 0.05) where
 * the tree, among twenty paths, said unresolved. */
static void
test_neighbour_is_its_path (void)
{
  static const int base_f[] = { 1000, 1020, 980, 1010, 990 };
  static const int new_f[] = { 1020, 1040, 1050, 1010, 1030 };
  static const int jitter[] = { 1, -1, 2, -2, 0 };
  g_autoptr(HpComparison) cmp = hp_comparison_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) callers = NULL;
  g_autoptr(GArray) callees = NULL;
  const HpCompareNeighbour *nb;
  const HpCompareStat *row;
  gint f, path;

  for (guint r = 0; r < 5; r++)
    for (guint s = 0; s < 2; s++)
      {
        Leaf leaves[20];
        g_autofree char *names[19] = { NULL };

        leaves[0] = (Leaf) { "main;f", (guint64) (s == 0 ? base_f[r] : new_f[r]), 10 };
        for (guint i = 0; i < 19; i++)
          {
            names[i] = g_strdup_printf ("main;g%u", i);
            leaves[i + 1] = (Leaf) { names[i], (guint64) (100 + jitter[(r + i) % 5]), 1 };
          }
        add (cmp, s == 0 ? HP_COMPARE_BASE : HP_COMPARE_NEW, make_data ("cycles", "cycles", r, leaves, 20));
        for (guint i = 0; i < 19; i++)
          g_free (names[i]);
        memset (names, 0, sizeof names);
      }
  g_assert_true (hp_comparison_run (cmp, NULL, &error));
  g_assert_no_error (error);

  f = hp_comparison_find_function (cmp, "app", "f");
  path = find_path (cmp, "main → f");
  g_assert_cmpint (f, >=, 0);
  g_assert_cmpint (path, >=, 0);
  row = hp_comparison_get_path_stat (cmp, path);
  callers = hp_comparison_get_callers (cmp, f);
  g_assert_cmpuint (callers->len, ==, 1);
  nb = find_neighbour (callers, "main");
  g_test_message ("main → f: p %g, q %g, %s; as a caller: p %g, q %g, %s", row->p, row->q,
                  hp_verdict_to_string (row->verdict), nb->stat.p, nb->stat.q, hp_verdict_to_string (nb->stat.verdict));
  /* the case: significant alone, not among the paths */
  g_assert_cmpfloat (row->p, <, 0.05);
  g_assert_cmpfloat (row->q, >, 0.05);
  g_assert_cmpint (nb->path, ==, path);
  g_assert_cmpint (nb->stat.verdict, ==, row->verdict);
  g_assert_cmpfloat (nb->stat.q, ==, row->q);
  g_assert_cmpfloat (nb->stat.base, ==, row->base);
  g_assert_cmpfloat (nb->stat.new_cost, ==, row->new_cost);
  g_assert_cmpint (nb->stat.verdict, !=, HP_VERDICT_SLOWER);

  /* main's callees are each one path too */
  callees = hp_comparison_get_callees (cmp, hp_comparison_find_function (cmp, "app", "main"));
  g_assert_cmpuint (callees->len, ==, 20);
  nb = find_neighbour (callees, "f");
  g_assert_cmpint (nb->path, ==, path);
  g_assert_cmpint (nb->stat.verdict, ==, row->verdict);
}

/* "Unchanged" claims that the interval rules out any change above one
 * margin, the comparison's MDE (or the floor): a noisier figure is never
 * "unchanged" where a closer one is not. The machine's speed varies 8 %
 * between runs: scaled by it, each function is measured within 1 %; the
 * whole program, as measured, is not, and was called unchanged by its own
 * wide MDE while its root row, closer, was unresolved. */
static void
test_unchanged_margin (void)
{
  static const double speed_base[] = { 1.0, 1.08, 0.93, 1.05, 0.96 };
  static const double speed_new[] = { 0.95, 1.0, 1.07, 0.92, 1.06 };
  static const double jitter[] = { 1.0, 1.002, 0.998, 1.001, 0.999 };
  g_autoptr(HpComparison) cmp = hp_comparison_new ();
  g_autoptr(GError) error = NULL;
  const HpCompareStat *program;
  g_autofree char *explained = NULL;
  double margin;

  for (guint r = 0; r < 5; r++)
    for (guint s = 0; s < 2; s++)
      {
        const double *speed = s == 0 ? speed_base : speed_new;
        Leaf leaves[5] = {
          { "main;f1", 0, 100 }, { "main;f2", 0, 100 }, { "main;f3", 0, 100 },
          { "main;f4", 0, 100 }, { "main;f5", 0, 100 },
        };

        for (guint i = 0; i < 5; i++)
          leaves[i].weight = (guint64) (100000 * speed[r] * jitter[(r + i + s) % 5]);
        add (cmp, s == 0 ? HP_COMPARE_BASE : HP_COMPARE_NEW, make_data ("cycles", "cycles", r, leaves, 5));
      }
  g_assert_true (hp_comparison_run (cmp, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hp_comparison_get_n_reference (cmp), >, 0);

  program = hp_comparison_get_program (cmp);
  margin = MAX (hp_comparison_get_mde (cmp), 1.0);
  g_test_message ("program %+.1f %% [%+.1f %%, %+.1f %%], own MDE %.1f %%, comparison's MDE %.1f %%: %s",
                  program->change, program->low, program->high, program->mde, hp_comparison_get_mde (cmp),
                  hp_verdict_to_string (program->verdict));
  /* its interval reaches past the margin, within its own MDE */
  g_assert_true (program->high > margin || program->low < -margin);
  g_assert_cmpfloat (program->mde, >, MAX (fabs (program->low), fabs (program->high)));
  g_assert_cmpint (program->verdict, ==, HP_VERDICT_UNRESOLVED);
  explained = hp_comparison_explain (cmp, program);
  g_assert_true (g_str_has_prefix (explained, "unresolved: the runs cannot tell"));
  /* at the runs' common speed it is the root row's figure, and verdict */
  {
    const HpCompareStat *scaled = hp_comparison_get_program_scaled (cmp);
    const HpCompareStat *root = hp_comparison_get_path_stat (cmp, find_path (cmp, "main"));

    g_assert_nonnull (scaled);
    g_assert_cmpfloat (fabs (scaled->change - root->change), <, 0.01);
    g_assert_cmpfloat (fabs (scaled->high - root->high), <, 0.01);
    g_assert_cmpint (scaled->verdict, ==, root->verdict);
    g_assert_cmpint (root->verdict, ==, HP_VERDICT_UNCHANGED);
  }

  /* every figure: unchanged only within the one margin */
  for (guint i = 0; i < hp_comparison_get_n_functions (cmp); i++)
    {
      const HpCompareFunction *fn = hp_comparison_get_function (cmp, i);
      double m = hp_comparison_get_mde (cmp) / 100 * fn->self.base;

      if (fn->self.verdict == HP_VERDICT_UNCHANGED)
        {
          g_assert_cmpfloat (fn->self.diff_low, >=, -m);
          g_assert_cmpfloat (fn->self.diff_high, <=, m);
        }
      else if (fn->self.verdict == HP_VERDICT_UNRESOLVED || fn->self.verdict == HP_VERDICT_NEGLIGIBLE)
        g_assert_true (fn->self.diff_low < -m || fn->self.diff_high > m ||
                       fn->self.low < -100 * m / fn->self.base || fn->self.high > 100 * m / fn->self.base);
    }
}

/* A function of a sample here and there: its change in percent has no
 * bound (the base is not significantly above 0), so it is never
 * "unchanged", which read "unchanged +100 % (unbounded)": its difference
 * is within the floor, and it is "negligible", which the explanation says
 * with its sample counts. A function of a few samples a run whose
 * interval in percent (Fieller's, widened by the base's own error)
 * reaches past the margin is not "unchanged" either, though its
 * difference alone is within it: "unchanged: -40 % to +179 % rules out a
 * change larger than ±120 %" contradicted itself. */
static void
test_too_few_samples (void)
{
  static const guint64 rare_base[] = { 1, 0, 0, 1, 0 };
  static const guint64 rare_new[] = { 1, 1, 0, 1, 1 };
  static const guint64 few_base[] = { 5, 20, 8, 25, 6 };
  static const guint64 few_new[] = { 13, 12, 16, 14, 15 };
  g_autoptr(HpComparison) cmp = hp_comparison_new ();
  g_autoptr(GError) error = NULL;
  const HpCompareFunction *rare, *few;
  g_autofree char *explained = NULL;

  for (guint r = 0; r < 5; r++)
    for (guint s = 0; s < 2; s++)
      {
        guint64 n_rare = s == 0 ? rare_base[r] : rare_new[r];
        guint64 n_few = s == 0 ? few_base[r] : few_new[r];
        Leaf leaves[] = {
          { "main;big", 100000 + 100 * r, 1000 + r },
          { "main;other", 50000 - 50 * r, 500 - r },
          { "main;rare", 100 * n_rare, n_rare },
          { "main;few", 100 * n_few, n_few },
        };

        add (cmp, s == 0 ? HP_COMPARE_BASE : HP_COMPARE_NEW, make_data ("cycles", "cycles", r, leaves, 4));
      }
  g_assert_true (hp_comparison_run (cmp, NULL, &error));
  g_assert_no_error (error);

  rare = find_function (cmp, "rare", "app");
  g_assert_true (isnan (rare->self.low));
  g_assert_cmpfloat (fabs (rare->self.change - 100), <, 0.01);
  /* its difference is within the floor: this was "unchanged" */
  g_assert_cmpfloat (rare->self.diff_high, <, hp_comparison_get_floor (cmp));
  g_assert_cmpint (rare->self.verdict, ==, HP_VERDICT_NEGLIGIBLE);
  explained = hp_comparison_explain (cmp, &rare->self);
  g_test_message ("rare: %s", explained);
  g_assert_true (g_str_has_prefix (explained, "negligible: too few samples (2 in the base, 4 in the new runs)"));
  g_assert_nonnull (strstr (explained, "under the floor (1 %) either way"));

  few = find_function (cmp, "few", "app");
  g_test_message ("few: %+.1f %% [%+.1f %%, %+.1f %%], difference %g to %g, floor %g: %s", few->self.change,
                  few->self.low, few->self.high, few->self.diff_low, few->self.diff_high,
                  hp_comparison_get_floor (cmp), hp_verdict_to_string (few->self.verdict));
  g_assert_false (isnan (few->self.low));
  g_assert_cmpfloat (few->self.diff_low, >=, -hp_comparison_get_floor (cmp));
  g_assert_cmpfloat (few->self.diff_high, <=, hp_comparison_get_floor (cmp));
  g_assert_cmpfloat (few->self.high, >, 100 * hp_comparison_get_floor (cmp) / few->self.base);
  g_assert_cmpint (few->self.verdict, !=, HP_VERDICT_UNCHANGED);

  /* what "unchanged" claims holds of the interval shown */
  for (guint i = 0; i < hp_comparison_get_n_functions (cmp); i++)
    {
      const HpCompareStat *st = &hp_comparison_get_function (cmp, i)->self;
      double m = hp_comparison_get_mde (cmp);

      if (st->base_samples == 0 && st->new_samples == 0)
        g_assert_cmpint (st->verdict, ==, HP_VERDICT_UNCHANGED);  /* main's self: nothing at all */
      else if (st->verdict == HP_VERDICT_UNCHANGED)
        {
          g_assert_cmpfloat (st->low, >=, -m);
          g_assert_cmpfloat (st->high, <=, m);
        }
    }
}

/* A function renamed between the builds (old_name → new_name: one module,
 * called by main, calling helper, with a timer interrupt's kernel frame
 * under it in some runs only) is paired, and compared as one: 10 %
 * slower. Two functions replaced by two of the same callers and callees
 * (a → x, y) are ambiguous and not paired; neither is one of another
 * module, nor one called from the root only and calling nothing, nor two
 * addresses of a library without symbols. */
static void
test_renamed_functions (void)
{
  static const double jitter[] = { 1.0, 1.01, 0.99, 1.005, 0.995 };
  g_autoptr(HpComparison) cmp = hp_comparison_new ();
  g_autoptr(GError) error = NULL;
  GArray *renames;
  const HpCompareRename *pair;
  guint64 w;

  for (guint r = 0; r < 5; r++)
    {
      double j = jitter[r], k = jitter[4 - r];
      Leaf b[] = {
        { "main;work", 40000 * j, 400 },
        { "main;old_name", 20000 * k, 200 },
        { "main;old_name;helper", 10000 * j, 100 },
        { "main;old_name;timer_irq@[kernel.kallsyms]", r % 2 ? 100 : 0, r % 2 },
        { "main;a;leaf", 8000 * k, 80 },
        { "main;a2;leaf", 8000 * j, 80 },
        { "only_root", 8000 * j, 80 },
        { "main;mod_old@libfoo.so;helper", 8000 * k, 80 },
        { "main;libz.so+0x100@libz.so;helper", 8000 * k, 80 },
      };
      Leaf n[] = {
        { "main;work", 40000 * k, 400 },
        { "main;new_name", 22000 * j, 220 },
        { "main;new_name;helper", 11000 * k, 110 },
        { "main;new_name;timer_irq@[kernel.kallsyms]", r % 3 ? 0 : 100, r % 3 ? 0 : 1 },
        { "main;x;leaf", 8000 * j, 80 },
        { "main;y;leaf", 8000 * k, 80 },
        { "only_root_new", 8000 * k, 80 },
        { "main;mod_new@libbar.so;helper", 8000 * j, 80 },
        /* another address of one library without symbols: other code */
        { "main;libz.so+0x200@libz.so;helper", 8000 * j, 80 },
      };

      add (cmp, HP_COMPARE_BASE, make_data ("cycles", "cycles", r, b, G_N_ELEMENTS (b)));
      add (cmp, HP_COMPARE_NEW, make_data ("cycles", "cycles", 5 - r, n, G_N_ELEMENTS (n)));
    }
  g_assert_true (hp_comparison_run (cmp, NULL, &error));
  g_assert_no_error (error);

  renames = hp_comparison_get_renames (cmp);
  g_assert_cmpuint (renames->len, ==, 1);
  pair = &g_array_index (renames, HpCompareRename, 0);
  g_assert_cmpstr (hp_comparison_get_function (cmp, pair->removed)->name, ==, "old_name");
  g_assert_cmpstr (hp_comparison_get_function (cmp, pair->added)->name, ==, "new_name");
  /* each name alone: gone, and new */
  g_assert_cmpint (hp_comparison_get_function (cmp, pair->removed)->self.verdict, ==, HP_VERDICT_FASTER);
  g_assert_cmpint (hp_comparison_get_function (cmp, pair->added)->self.verdict, ==, HP_VERDICT_SLOWER);
  /* as one: 20 000 → 22 000 self, 30 000 → 33 000 and a bit total */
  g_assert_cmpfloat (fabs (pair->self.change - 10), <, 1.5);
  g_assert_cmpint (pair->self.verdict, ==, HP_VERDICT_SLOWER);
  w = 0;
  for (guint r = 0; r < 5; r++)
    w += r % 2 ? 100 : 0;
  g_assert_cmpfloat (fabs (pair->total.base - (30000 + w / 5.0)), <, 300);
  g_assert_cmpint (pair->total.verdict, ==, HP_VERDICT_SLOWER);
}

/* Random captures against a naive reckoning of every cost.
 *
 * Each run is a few dozen stacks drawn at random from a small program:
 * recursion, directly and through clones; several frames (lines) of one
 * function under one caller, which share a path; functions of one name
 * in two modules; stacks sampled at an inner node as well as below it;
 * stack nodes with no samples; samples with no stack. The naive side
 * walks every sample's stack by name, prefix by prefix: it shares no code
 * with the comparison but the folding of clone names. One base run and
 * three new ones (so no speed scaling: base and new are plain means), the
 * later runs bringing paths the earlier ones did not have. */
typedef struct {
  GHashTable *paths;      /* key -> double[2]: weight, samples */
  GHashTable *bottom_up;
  GHashTable *self;       /* "module\tname" -> double[2] */
  GHashTable *total;
} Naive;

static void
naive_add (GHashTable *table,
           const char *key,
           double      w,
           double      n)
{
  double *v = g_hash_table_lookup (table, key);

  if (v == NULL)
    {
      v = g_new0 (double, 2);
      g_hash_table_insert (table, g_strdup (key), v);
    }
  v[0] += w;
  v[1] += n;
}

/* "name[@module][:line]" -> "module\tfolded-name" */
static char *
naive_ident (const char *step)
{
  g_autofree char *function = g_strndup (step, strcspn (step, ":"));
  char *at = strchr (function, '@');
  g_autofree char *folded = NULL;

  if (at != NULL)
    *at = '\0';
  folded = hp_compare_fold_clone_name (function);
  return g_strconcat (at != NULL ? at + 1 : "app", "\t", folded, NULL);
}

static void
naive_count (Naive      *naive,
             const Leaf *leaf)
{
  g_auto(GStrv) steps = g_strsplit (leaf->stack, ";", -1);
  guint depth = g_strv_length (steps);
  g_autoptr(GPtrArray) idents = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GString) key = g_string_new (NULL);
  double w = leaf->weight, n = leaf->samples;

  if (w == 0 && n == 0)
    return;
  for (guint i = 0; i < depth; i++)
    g_ptr_array_add (idents, naive_ident (steps[i]));
  for (guint i = 0; i < depth; i++)
    {
      g_string_append_printf (key, "%s\n", (char *) idents->pdata[i]);
      naive_add (naive->paths, key->str, w, n);
      if (g_hash_table_add (seen, idents->pdata[i]))
        naive_add (naive->total, idents->pdata[i], w, n);
    }
  g_string_truncate (key, 0);
  for (guint i = depth; i-- > 0;)
    {
      g_string_append_printf (key, "%s\n", (char *) idents->pdata[i]);
      naive_add (naive->bottom_up, key->str, w, n);
    }
  if (depth > 0)
    naive_add (naive->self, idents->pdata[depth - 1], w, n);
}

static Naive *
naive_new (void)
{
  Naive *naive = g_new0 (Naive, 1);

  naive->paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  naive->bottom_up = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  naive->self = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  naive->total = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return naive;
}

static void
naive_free (Naive *naive)
{
  g_hash_table_unref (naive->paths);
  g_hash_table_unref (naive->bottom_up);
  g_hash_table_unref (naive->self);
  g_hash_table_unref (naive->total);
  g_free (naive);
}

#define NAIVE_TABLE(naive, which) G_STRUCT_MEMBER (GHashTable *, (naive), (which))

/* Over @n runs, the mean cost of @key in table @which, or with @samples
 * the sum of its sample counts (as HpCompareStat has them). */
static double
naive_value (Naive     **runs,
             guint       n,
             gsize       which,
             const char *key,
             gboolean    samples)
{
  double sum = 0;

  for (guint r = 0; r < n; r++)
    {
      double *v = g_hash_table_lookup (NAIVE_TABLE (runs[r], which), key);

      if (v != NULL)
        sum += samples ? v[1] : v[0];
    }
  return samples ? sum : sum / n;
}

/* How many keys table @which has in any of @n runs. */
static guint
naive_n_keys (Naive **runs,
              guint   n,
              gsize   which)
{
  g_autoptr(GHashTable) all = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint r = 0; r < n; r++)
    {
      GHashTableIter iter;
      gpointer key;

      g_hash_table_iter_init (&iter, NAIVE_TABLE (runs[r], which));
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_hash_table_add (all, key);
    }
  return g_hash_table_size (all);
}

static void
assert_close (double      got,
              double      want,
              const char *what,
              const char *key)
{
  if (!(fabs (got - want) <= 1e-9 * MAX (1, fabs (want))))
    g_error ("%s of \"%s\": %.17g, but the naive reckoning says %.17g", what, key, got, want);
}

static void
check_paths (HpComparison *cmp,
             Naive       **runs,
             gsize         which)
{
  guint n = hp_comparison_get_n_paths (cmp);

  g_assert_cmpuint (n, ==, naive_n_keys (runs, 4, which));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *key = hp_comparison_get_path_key (cmp, i);
      const HpCompareStat *stat = hp_comparison_get_path_stat (cmp, i);

      assert_close (stat->base, naive_value (runs, 1, which, key, FALSE), "base cost", key);
      assert_close (stat->new_cost, naive_value (runs + 1, 3, which, key, FALSE), "new cost", key);
      assert_close (stat->base_samples, naive_value (runs, 1, which, key, TRUE), "base samples", key);
      assert_close (stat->new_samples, naive_value (runs + 1, 3, which, key, TRUE), "new samples", key);
    }
}

static void
check_functions (HpComparison *cmp,
                 Naive       **runs)
{
  gsize self = G_STRUCT_OFFSET (Naive, self), total = G_STRUCT_OFFSET (Naive, total);
  guint n = hp_comparison_get_n_functions (cmp);

  g_assert_cmpuint (n, ==, naive_n_keys (runs, 4, total));
  for (guint i = 0; i < n; i++)
    {
      const HpCompareFunction *fn = hp_comparison_get_function (cmp, i);
      g_autofree char *key = g_strconcat (fn->module, "\t", fn->name, NULL);

      assert_close (fn->self.base, naive_value (runs, 1, self, key, FALSE), "base self", key);
      assert_close (fn->self.new_cost, naive_value (runs + 1, 3, self, key, FALSE), "new self", key);
      assert_close (fn->self.base_samples, naive_value (runs, 1, self, key, TRUE), "base self samples", key);
      assert_close (fn->self.new_samples, naive_value (runs + 1, 3, self, key, TRUE), "new self samples", key);
      assert_close (fn->total.base, naive_value (runs, 1, total, key, FALSE), "base total", key);
      assert_close (fn->total.new_cost, naive_value (runs + 1, 3, total, key, FALSE), "new total", key);
      assert_close (fn->total.base_samples, naive_value (runs, 1, total, key, TRUE), "base total samples", key);
      assert_close (fn->total.new_samples, naive_value (runs + 1, 3, total, key, TRUE), "new total samples", key);
    }
}

static void
test_random_against_naive (void)
{
  static const char *names[] = {
    "parse", "parse.part.0", "lex", "lex.cold", "eval", "eval.isra.0",
    "emit", "gc", "eval.constprop.1", "alloc@libc.so.6", "memcpy@libc.so.6", "eval@libm.so.6",
  };

  for (guint seed = 1; seed <= 30; seed++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
      g_autoptr(HpComparison) cmp = hp_comparison_new_with_bottom_up ();
      g_autoptr(GError) error = NULL;
      double base_cost = 0;
      Naive *runs[4];

      for (guint r = 0; r < 4; r++)
        {
          guint n_leaves = g_rand_int_range (rand, 5, 60 + 20 * r);
          g_autoptr(GPtrArray) stacks = g_ptr_array_new_with_free_func (g_free);
          g_autofree Leaf *leaves = g_new0 (Leaf, n_leaves);

          runs[r] = naive_new ();
          for (guint l = 0; l < n_leaves; l++)
            {
              GString *stack = g_string_new (NULL);
              guint depth = g_rand_int_range (rand, 0, 9);  /* 0: no stack */

              if (depth > 0)
                g_string_append (stack, "main");
              for (guint d = 1; d < depth; d++)
                {
                  /* the later runs reach further into the program */
                  guint k = g_rand_int_range (rand, 0, MIN (G_N_ELEMENTS (names), 7 + 2 * r));

                  g_string_append_printf (stack, ";%s", names[k]);
                  if (g_rand_boolean (rand))
                    g_string_append_printf (stack, ":%d", g_rand_int_range (rand, 1, 4));
                }
              g_ptr_array_add (stacks, g_string_free (stack, FALSE));
              leaves[l].stack = g_ptr_array_index (stacks, l);
              /* one stack in eight has a node with no samples */
              if (g_rand_int_range (rand, 0, 8) > 0)
                {
                  leaves[l].samples = g_rand_int_range (rand, 1, 6);
                  leaves[l].weight = leaves[l].samples * g_rand_int_range (rand, 900, 1100);
                }
              naive_count (runs[r], &leaves[l]);
              if (r == 0)
                base_cost += leaves[l].weight;
            }
          add (cmp, r == 0 ? HP_COMPARE_BASE : HP_COMPARE_NEW,
               make_data ("cpu-clock", "ns", r, leaves, n_leaves));
        }
      g_assert_true (hp_comparison_run (cmp, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpint (hp_comparison_get_method (cmp), ==, HP_COMPARE_METHOD_ONE_RUN);
      assert_close (hp_comparison_get_side (cmp, HP_COMPARE_BASE)->cost, base_cost, "cost", "base");

      check_paths (cmp, runs, G_STRUCT_OFFSET (Naive, paths));
      check_functions (cmp, runs);
      check_paths (hp_comparison_get_bottom_up (cmp), runs, G_STRUCT_OFFSET (Naive, bottom_up));
      check_functions (hp_comparison_get_bottom_up (cmp), runs);
      for (guint r = 0; r < 4; r++)
        naive_free (runs[r]);
    }
}

/* A capture of one program on 4 threads: random stacks of 8 functions
 * (with lines), the samples of function f3 weighing @slower more. */
static void
write_threaded_capture (const char *path,
                        guint32     seed,
                        double      slower)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GRand) shape = g_rand_new_with_seed (7);  /* the same program in every run */
  g_autoptr(GArray) stacks = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) leaf_function = g_array_new (FALSE, FALSE, sizeof (guint));
  gint64 module, frames[16];

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "command", "./app");
  hp_capture_writer_add_event (w, "cpu-clock", "ns", 0, 1000000);
  module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  for (guint f = 0; f < 16; f++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", f / 2);

      frames[f] = hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, name, module, "app.c", 0),
                                                  "app.c", 10 * (f / 2) + f % 2 + 1, FALSE, f);
    }
  for (guint i = 0; i < 80; i++)
    {
      gint64 parent = stacks->len > 0 && g_rand_int_range (shape, 0, 4) > 0
                      ? g_array_index (stacks, gint64, g_rand_int_range (shape, 0, stacks->len)) : 0;
      guint f = g_rand_int_range (shape, 0, 16);
      gint64 stack = hp_capture_writer_intern_stack (w, parent, frames[f]);

      g_array_append_val (stacks, stack);
      f /= 2;
      g_array_append_val (leaf_function, f);
    }
  for (guint i = 0; i < 4000; i++)
    {
      guint k = g_rand_int_range (rand, 0, stacks->len);
      guint64 weight = 1000000 * (g_array_index (leaf_function, guint, k) == 3 ? 1 + slower : 1);

      hp_capture_writer_add_sample (w, i, 100 + g_rand_int_range (rand, 0, 4), 0,
                                    g_array_index (stacks, gint64, k), weight);
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
}

static void
assert_same_stat (const HpCompareStat *a,
                  const HpCompareStat *b)
{
  g_assert_cmpfloat (a->base, ==, b->base);
  g_assert_cmpfloat (a->new_cost, ==, b->new_cost);
  g_assert_true (a->change == b->change || (isnan (a->change) && isnan (b->change)));
  g_assert_true (a->q == b->q || (isnan (a->q) && isnan (b->q)));
  g_assert_true (a->low == b->low || (isnan (a->low) && isnan (b->low)));
  g_assert_cmpuint (a->base_samples, ==, b->base_samples);
  g_assert_cmpuint (a->new_samples, ==, b->new_samples);
  g_assert_cmpint (a->verdict, ==, b->verdict);
}

/* Captures compared from their files (hp_comparison_add_path(), which
 * loads the counts summed per stack) and from everything
 * hp_capture_load() gives (hp_comparison_add_data()): the same result,
 * top-down and bottom-up, lines included. */
static void
test_files_as_loaded (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hotpath-compare-XXXXXX", NULL);
  g_autoptr(HpComparison) from_files = hp_comparison_new_with_bottom_up ();
  g_autoptr(HpComparison) from_data = hp_comparison_new_with_bottom_up ();
  g_autoptr(GError) error = NULL;

  hp_comparison_keep_lines (from_files);
  hp_comparison_keep_lines (from_data);
  for (guint r = 0; r < 6; r++)
    {
      g_autofree char *name = g_strdup_printf ("run-%u.hotpath", r);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      HpCompareSide side = r < 3 ? HP_COMPARE_BASE : HP_COMPARE_NEW;
      g_autoptr(HpCapture) capture = NULL;
      g_autoptr(HpCaptureData) data = NULL;

      write_threaded_capture (path, r + 1, side == HP_COMPARE_NEW ? 0.3 : 0);
      g_assert_true (hp_comparison_add_path (from_files, side, path, NULL, &error));
      capture = hp_capture_open (path, FALSE, &error);
      g_assert_no_error (error);
      data = hp_capture_load (capture, &error);
      g_assert_no_error (error);
      /* per thread: several rows a stack */
      g_assert_cmpuint (data->stack_counts->len, >, data->stacks->len);
      g_assert_true (hp_comparison_add_data (from_data, side, path, data, &error));
      g_unlink (path);
    }
  g_assert_true (hp_comparison_run (from_files, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (hp_comparison_run (from_data, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hp_comparison_get_n_functions (from_files), ==, 8);

  for (guint bu = 0; bu < 2; bu++)
    {
      HpComparison *a = bu ? hp_comparison_get_bottom_up (from_files) : from_files;
      HpComparison *b = bu ? hp_comparison_get_bottom_up (from_data) : from_data;

      g_assert_cmpuint (hp_comparison_get_n_functions (a), ==, hp_comparison_get_n_functions (b));
      for (guint i = 0; i < hp_comparison_get_n_functions (a); i++)
        {
          const HpCompareFunction *fa = hp_comparison_get_function (a, i);
          const HpCompareFunction *fb = hp_comparison_get_function (b, i);

          g_assert_cmpstr (fa->name, ==, fb->name);
          assert_same_stat (&fa->self, &fb->self);
          assert_same_stat (&fa->total, &fb->total);
          if (!bu)
            {
              g_autoptr(GArray) la = hp_comparison_get_lines (a, i);
              g_autoptr(GArray) lb = hp_comparison_get_lines (b, i);

              g_assert_cmpuint (la->len, ==, lb->len);
              for (guint l = 0; l < la->len; l++)
                {
                  g_assert_cmpuint (g_array_index (la, HpCompareLine, l).line, ==,
                                    g_array_index (lb, HpCompareLine, l).line);
                  assert_same_stat (&g_array_index (la, HpCompareLine, l).self,
                                    &g_array_index (lb, HpCompareLine, l).self);
                  assert_same_stat (&g_array_index (la, HpCompareLine, l).total,
                                    &g_array_index (lb, HpCompareLine, l).total);
                }
            }
        }
      g_assert_cmpuint (hp_comparison_get_n_paths (a), ==, hp_comparison_get_n_paths (b));
      for (guint i = 0; i < hp_comparison_get_n_paths (a); i++)
        {
          g_autofree char *ka = hp_comparison_get_path_key (a, i);
          g_autofree char *kb = hp_comparison_get_path_key (b, i);

          g_assert_cmpstr (ka, ==, kb);
          assert_same_stat (hp_comparison_get_path_stat (a, i), hp_comparison_get_path_stat (b, i));
        }
    }
  g_rmdir (dir);
}

/* Runs of a program of @n_hot hot functions h0, h1, … (h1 a fifth to a
 * third of the time) on a machine whose speed varies from run to run by a
 * few percent, which moves them all together; in the new runs h1 does
 * 10 % more work. */
static void
add_hot_runs (HpComparison *cmp,
              guint         n_hot)
{
  static const double speed[2][5] = {
    { 1.00, 1.03, 0.98, 1.02, 0.97 },
    { 0.99, 1.02, 1.01, 0.97, 1.035 },
  };

  for (guint s = 0; s < 2; s++)
    for (guint r = 0; r < 5; r++)
      {
        g_autofree Leaf *leaves = g_new0 (Leaf, n_hot);
        g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

        for (guint f = 0; f < n_hot; f++)
          {
            /* each function's own noise, ±0.4 %, the same in no two runs */
            double own = 1 + 0.004 * ((double) ((r * 7 + f * 3 + s * 5) % 5) - 2) / 2.0;
            double work = (f == 0 ? 4000 : 3000) * (s == 1 && f == 1 ? 1.1 : 1.0);
            guint64 weight = (guint64) (work * speed[s][r] * own * 1000);

            g_ptr_array_add (names, g_strdup_printf ("main;h%u", f));
            leaves[f].stack = names->pdata[f];
            leaves[f].weight = weight;
            leaves[f].samples = weight / 1000;
          }
        add (cmp, s == 0 ? HP_COMPARE_BASE : HP_COMPARE_NEW,
             make_data ("cpu-clock", "ns", r, leaves, n_hot));
      }
}

/* The function that does 10 % more work is slower, by about 10 %; the
 * other hot functions are not flagged: not with three (too few to tell
 * the machine's speed from one of them: each would be measured against
 * the mean of the other two, the slower one among them), and not with
 * six, whose speed scaling must not lean on the slower one. */
static void
test_one_of_few_slower (void)
{
  static const guint n_hot[] = { 3, 4, 6 };

  for (guint i = 0; i < G_N_ELEMENTS (n_hot); i++)
    {
      g_autoptr(HpComparison) cmp = hp_comparison_new ();
      g_autoptr(GError) error = NULL;

      add_hot_runs (cmp, n_hot[i]);
      g_assert_true (hp_comparison_run (cmp, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpint (hp_comparison_get_method (cmp), ==, HP_COMPARE_METHOD_WELCH);
      for (guint f = 0; f < n_hot[i]; f++)
        {
          g_autofree char *name = g_strdup_printf ("h%u", f);
          const HpCompareFunction *fn = find_function (cmp, name, "app");

          g_test_message ("%u hot: %s %+.1f%% [%+.1f, %+.1f] q %.4f %s", n_hot[i], name, fn->self.change,
                          fn->self.low, fn->self.high, fn->self.q, hp_verdict_to_string (fn->self.verdict));
          if (f == 1)
            {
              g_assert_cmpint (fn->self.verdict, ==, HP_VERDICT_SLOWER);
              g_assert_cmpfloat (fabs (fn->self.change - 10), <, 6);
            }
          else
            g_assert_true (fn->self.verdict != HP_VERDICT_SLOWER && fn->self.verdict != HP_VERDICT_FASTER);
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare/fold-clone-names", test_fold_clone_names);
  g_test_add_func ("/compare/matching", test_matching);
  g_test_add_func ("/compare/welch-verdicts", test_welch_verdicts);
  g_test_add_func ("/compare/floor", test_floor);
  g_test_add_func ("/compare/counts", test_counts);
  g_test_add_func ("/compare/different-events", test_different_events);
  g_test_add_func ("/compare/too-many-samples", test_too_many_samples);
  g_test_add_func ("/compare/nothing-in-common", test_nothing_in_common);
  g_test_add_func ("/compare/renamed-program", test_renamed_program);
  g_test_add_func ("/compare/different-programs", test_different_programs);
  g_test_add_func ("/compare/folders", test_paths);
  g_test_add_func ("/compare/bottom-up", test_bottom_up);
  g_test_add_func ("/compare/neighbours-and-lines", test_neighbours_and_lines);
  g_test_add_func ("/compare/neighbour-is-its-path", test_neighbour_is_its_path);
  g_test_add_func ("/compare/lines-follow-the-code", test_lines_follow_the_code);
  g_test_add_func ("/compare/unchanged-margin", test_unchanged_margin);
  g_test_add_func ("/compare/too-few-samples", test_too_few_samples);
  g_test_add_func ("/compare/renamed-functions", test_renamed_functions);
  g_test_add_func ("/compare/random-against-naive", test_random_against_naive);
  g_test_add_func ("/compare/files-as-loaded", test_files_as_loaded);
  g_test_add_func ("/compare/one-of-few-slower", test_one_of_few_slower);
  return g_test_run ();
}
