/* test-record-paths.c - record the paths workload and check its known split
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tests/workloads/paths.c burns, per iteration, by construction:
 *   main → run_alpha → alpha_leaf   60 %     main → run_beta → beta_leaf   20 %
 *   main → run_alpha → shared_leaf  15 %     main → run_beta → shared_leaf  5 %
 * perf record -F 999 -g measures 59.8 / 19.8 / 20.4 % self and 75.0 / 24.9 %
 * for run_alpha / run_beta.  About 1900 samples: a share's binomial standard
 * error is at most 1.2 pp, so ±5 pp fails only on a real error.
 *
 * The workload is recorded once and every test case reads that capture.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include "integration-common.h"

#define TOLERANCE 5.0

static char *tmpdir;
static char *capture_path;
static gboolean recorded;

static ItCapture *
paths_capture (void)
{
  if (!it_require_perf_events ())
    return NULL;
  if (!recorded)
    {
      tmpdir = it_tmpdir_new ();
      capture_path = g_build_filename (tmpdir, "paths.hotpath", NULL);
      it_record_workload ("paths-fp", capture_path);
      recorded = TRUE;
    }
  return it_capture_open (capture_path);
}

static void
test_self_shares (void)
{
  g_autoptr(ItCapture) cap = paths_capture ();
  HpProfile *profile;
  const GArray *functions;

  if (cap == NULL)
    return;
  profile = cap->profile;

  /* Enough samples for the tolerance to mean something: ~1.9 s at 999 Hz. */
  g_assert_cmpuint (hp_profile_get_n_samples (profile), >=, 1000);

  it_assert_percent ("alpha_leaf self", it_self_percent (profile, "alpha_leaf"), 60, TOLERANCE);
  it_assert_percent ("beta_leaf self", it_self_percent (profile, "beta_leaf"), 20, TOLERANCE);
  it_assert_percent ("shared_leaf self", it_self_percent (profile, "shared_leaf"), 20, TOLERANCE);
  it_assert_percent ("run_alpha self", it_self_percent (profile, "run_alpha"), 0, 1);
  it_assert_percent ("run_beta self", it_self_percent (profile, "run_beta"), 0, 1);

  /* The report's order: alpha_leaf first by self samples. */
  functions = hp_profile_get_functions (profile, FALSE);
  g_assert_cmpuint (functions->len, >=, 3);
  g_assert_cmpstr (hp_profile_get_function_name (profile,
                     g_array_index (functions, HpFunctionStats, 0).function_id),
                   ==, "alpha_leaf");
}

static void
test_total_shares (void)
{
  g_autoptr(ItCapture) cap = paths_capture ();
  HpProfile *profile;

  if (cap == NULL)
    return;
  profile = cap->profile;

  it_assert_percent ("run_alpha total", it_total_percent (profile, "run_alpha"), 75, TOLERANCE);
  it_assert_percent ("run_beta total", it_total_percent (profile, "run_beta"), 25, TOLERANCE);
  /* Everything the program does is under main; a few kernel-only samples
   * (exit, page faults before main) are not. */
  it_assert_percent ("main total", it_total_percent (profile, "main"), 100, TOLERANCE);
}

/* Checks every node of the top-down tree named @leaf: its parent must be
 * one of @callers, and main must be an ancestor.  Returns the samples seen
 * under each caller in @per_caller (same order as @callers). */
static guint64
check_under (HpProfile         *profile,
             const HpCallNode  *node,
             const char        *leaf,
             const char * const *callers,
             guint64           *per_caller)
{
  guint64 seen = 0;

  if (node->function_id != 0 &&
      g_strcmp0 (hp_profile_get_function_name (profile, node->function_id), leaf) == 0)
    {
      const HpCallNode *parent = node->parent;
      const char *parent_name = parent && parent->function_id
        ? hp_profile_get_function_name (profile, parent->function_id) : "(root)";
      gboolean under_main = FALSE;
      gboolean known = FALSE;
      g_autofree char *path = hp_call_node_readable_path (profile, node);

      for (guint i = 0; callers[i]; i++)
        if (g_strcmp0 (parent_name, callers[i]) == 0)
          {
            per_caller[i] += node->total;
            known = TRUE;
          }
      for (const HpCallNode *a = parent; a; a = a->parent)
        if (a->function_id &&
            g_strcmp0 (hp_profile_get_function_name (profile, a->function_id), "main") == 0)
          under_main = TRUE;

      if (!known || !under_main)
        g_error ("%s found under a false caller (%" G_GUINT64_FORMAT
                 " samples): %s", leaf, node->total, path);
      seen += node->total;
    }

  for (guint i = 0; node->children && i < node->children->len; i++)
    seen += check_under (profile, g_ptr_array_index (node->children, i), leaf,
                         callers, per_caller);
  return seen;
}

static void
test_tree_paths (void)
{
  g_autoptr(ItCapture) cap = paths_capture ();
  const char *alpha_callers[] = { "run_alpha", NULL };
  const char *beta_callers[] = { "run_beta", NULL };
  const char *shared_callers[] = { "run_alpha", "run_beta", NULL };
  guint64 per_alpha[1] = { 0 }, per_beta[1] = { 0 }, per_shared[2] = { 0 };
  const HpCallNode *root;
  guint64 n;

  if (cap == NULL)
    return;
  root = hp_profile_get_top_down (cap->profile);
  g_assert_nonnull (root);
  n = hp_profile_get_n_samples (cap->profile);

  /* Every alpha_leaf sample is under main → run_alpha, and so on: a leaf
   * under a false caller fails inside check_under. */
  g_assert_cmpuint (check_under (cap->profile, root, "alpha_leaf", alpha_callers, per_alpha),
                    >, n / 2);
  g_assert_cmpuint (check_under (cap->profile, root, "beta_leaf", beta_callers, per_beta),
                    >, n / 10);
  g_assert_cmpuint (check_under (cap->profile, root, "shared_leaf", shared_callers, per_shared),
                    >, n / 10);

  /* shared_leaf is called with 3 units from run_alpha and 1 from run_beta. */
  it_assert_percent ("shared_leaf under run_alpha (of shared_leaf)",
                     100.0 * per_shared[0] / (per_shared[0] + per_shared[1]), 75, 10);
}

static void
test_callers (void)
{
  g_autoptr(ItCapture) cap = paths_capture ();
  g_autoptr(GArray) shared_callers = NULL;
  g_autoptr(GArray) alpha_callers = NULL;
  g_autoptr(GArray) alpha_callees = NULL;
  gint64 shared, alpha_leaf, run_alpha;
  guint64 from_alpha = 0, from_beta = 0, from_other = 0;

  if (cap == NULL)
    return;

  shared = it_find_function (cap->profile, "shared_leaf");
  alpha_leaf = it_find_function (cap->profile, "alpha_leaf");
  run_alpha = it_find_function (cap->profile, "run_alpha");
  g_assert_cmpint (shared, !=, 0);
  g_assert_cmpint (alpha_leaf, !=, 0);
  g_assert_cmpint (run_alpha, !=, 0);

  shared_callers = hp_profile_get_callers (cap->profile, shared);
  g_assert_nonnull (shared_callers);
  for (guint i = 0; i < shared_callers->len; i++)
    {
      const HpCallEdge *e = &g_array_index (shared_callers, HpCallEdge, i);
      const char *name = hp_profile_get_function_name (cap->profile, e->function_id);

      if (g_strcmp0 (name, "run_alpha") == 0)
        from_alpha += e->samples;
      else if (g_strcmp0 (name, "run_beta") == 0)
        from_beta += e->samples;
      else
        from_other += e->samples;
    }
  g_assert_cmpuint (from_other, ==, 0);
  g_assert_cmpuint (from_alpha + from_beta, >, 0);
  it_assert_percent ("run_alpha among shared_leaf's callers",
                     100.0 * from_alpha / (from_alpha + from_beta), 75, 10);
  /* Sorted by samples, descending. */
  g_assert_cmpstr (hp_profile_get_function_name (cap->profile,
                     g_array_index (shared_callers, HpCallEdge, 0).function_id),
                   ==, "run_alpha");

  alpha_callers = hp_profile_get_callers (cap->profile, alpha_leaf);
  g_assert_cmpuint (alpha_callers->len, ==, 1);
  g_assert_cmpstr (hp_profile_get_function_name (cap->profile,
                     g_array_index (alpha_callers, HpCallEdge, 0).function_id),
                   ==, "run_alpha");

  /* run_alpha calls alpha_leaf and shared_leaf, never beta_leaf. */
  alpha_callees = hp_profile_get_callees (cap->profile, run_alpha);
  for (guint i = 0; i < alpha_callees->len; i++)
    g_assert_cmpstr (hp_profile_get_function_name (cap->profile,
                       g_array_index (alpha_callees, HpCallEdge, i).function_id),
                     !=, "beta_leaf");
}

static void
test_sample_count (void)
{
  g_autoptr(ItCapture) cap = paths_capture ();
  gint64 rows, reported;

  if (cap == NULL)
    return;

  rows = it_count_sample_rows (cap->path);
  reported = it_json_samples (cap->path);
  g_assert_cmpint (rows, >, 0);
  g_assert_cmpint (rows, ==, (gint64) hp_profile_get_n_samples (cap->profile));
  g_assert_cmpint (rows, ==, reported);
}

int
main (int argc, char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/paths/self-shares", test_self_shares);
  g_test_add_func ("/integration/paths/total-shares", test_total_shares);
  g_test_add_func ("/integration/paths/tree", test_tree_paths);
  g_test_add_func ("/integration/paths/callers", test_callers);
  g_test_add_func ("/integration/paths/sample-count", test_sample_count);
  ret = g_test_run ();

  g_clear_pointer (&capture_path, g_free);
  g_clear_pointer (&tmpdir, it_tmpdir_free);
  return ret;
}
