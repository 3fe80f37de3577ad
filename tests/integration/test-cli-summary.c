/* test-cli-summary.c - hotpath-cli summary writes, finds and deletes summaries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A summary written by the CLI for a call path named by function names is
 * stored under that path's key, shown under its node by report --tree (and
 * only there), listed, and found again from a suffix of the path.
 */

#include "config.h"

#include <string.h>

#include "integration-common.h"

static void
test_summary_round_trip (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autoptr(ItResult) set = NULL, get = NULL, list = NULL, tree = NULL, json = NULL;
  g_autoptr(ItResult) missing = NULL, clear = NULL, after = NULL;
  g_autoptr(ItCapture) cap = NULL;
  g_autoptr(GHashTable) summaries = NULL;
  const char *text = "Alpha's leaf: three quarters of the work by construction.";
  const char *under;

  if (!it_require_perf_events ())
    return;

  dir = it_tmpdir_new ();
  capture = g_build_filename (dir, "paths.hotpath", NULL);
  it_record_workload ("paths-fp", capture);

  {
    const char *args[] = { "summary", capture, "main;run_alpha;alpha_leaf", "--set", text, NULL };
    set = it_run_cli (args);
  }
  g_assert_cmpint (set->status, ==, 0);

  /* Stored under the key of the path main → run_alpha → alpha_leaf. */
  cap = it_capture_open (capture);
  summaries = hp_capture_list_summaries (cap->capture, NULL);
  g_assert_nonnull (summaries);
  g_assert_cmpuint (g_hash_table_size (summaries), ==, 1);
  {
    const char *names[] = { "main", "run_alpha", "alpha_leaf", NULL };
    const HpCallNode *node = hp_profile_find_path (cap->profile, names);
    g_autofree char *key = NULL;

    g_assert_nonnull (node);
    key = hp_call_node_path_key (cap->profile, node);
    g_assert_true (g_str_has_suffix (key, "\tmain\npaths-fp\trun_alpha\npaths-fp\talpha_leaf\n"));
    g_assert_cmpstr (g_hash_table_lookup (summaries, key), ==, text);
  }

  /* A suffix of the path finds the same node. */
  {
    const char *args[] = { "summary", capture, "run_alpha;alpha_leaf", NULL };
    get = it_run_cli (args);
  }
  g_assert_cmpint (get->status, ==, 0);
  g_assert_nonnull (strstr (get->out, text));
  g_assert_nonnull (strstr (get->out, "run_alpha → alpha_leaf"));

  {
    const char *args[] = { "summary", capture, NULL };
    list = it_run_cli (args);
  }
  g_assert_cmpint (list->status, ==, 0);
  g_assert_nonnull (strstr (list->out, "main;run_alpha;alpha_leaf\n"));

  /* report --tree prints it under alpha_leaf below run_alpha, not below run_beta. */
  {
    const char *args[] = { "report", capture, "--tree", "--threshold", "0", NULL };
    tree = it_run_cli (args);
  }
  g_assert_cmpint (tree->status, ==, 0);
  under = strstr (tree->out, text);
  g_assert_nonnull (under);
  g_assert_null (strstr (under + 1, text));
  {
    const char *alpha = g_strrstr_len (tree->out, under - tree->out, "alpha_leaf");
    const char *run_alpha = g_strrstr_len (tree->out, under - tree->out, "run_alpha");
    const char *run_beta = g_strrstr_len (tree->out, under - tree->out, "run_beta");

    g_assert_nonnull (alpha);
    g_assert_nonnull (run_alpha);
    g_assert_true (run_beta == NULL || run_beta < run_alpha);
  }

  {
    const char *args[] = { "report", capture, "--tree", "--format", "json", NULL };
    json = it_run_cli (args);
  }
  g_assert_cmpint (json->status, ==, 0);
  /* Whatever the spacing json-glib writes between key and value. */
  g_assert_true (g_regex_match_simple ("\"summary\"\\s*:\\s*\"Alpha's leaf", json->out, 0, 0));

  /* A path that is not in the capture: one line, non-zero. */
  {
    const char *args[] = { "summary", capture, "main;no_such_function", "--set", "x", NULL };
    missing = it_run_cli (args);
  }
  g_assert_cmpint (missing->status, !=, 0);
  g_assert_cmpuint (it_count_lines (missing->err), ==, 1);
  g_assert_nonnull (strstr (missing->err, "no call path"));

  {
    const char *args[] = { "summary", capture, "main;run_alpha;alpha_leaf", "--clear", NULL };
    clear = it_run_cli (args);
  }
  g_assert_cmpint (clear->status, ==, 0);
  {
    const char *args[] = { "summary", capture, NULL };
    after = it_run_cli (args);
  }
  g_assert_null (strstr (after->out, text));

  it_tmpdir_free (g_steal_pointer (&dir));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/summary/round-trip", test_summary_round_trip);
  return g_test_run ();
}
