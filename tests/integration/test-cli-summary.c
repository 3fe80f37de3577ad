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
#include <sys/wait.h>
#include <sqlite3.h>

#include "integration-common.h"
#include "store/hp-capture-writer.h"
#include "test-common.h"

/* hotpath-cli @args under LC_ALL=C; returns the exit status. */
static int
run_cli_in_c_locale (const char * const *args,
                     char              **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  int wait_status = 0;

  envp = g_environ_setenv (envp, "LC_ALL", "C", TRUE);
  g_ptr_array_add (argv, (char *) HOTPATH_CLI);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  if (!g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_STDOUT_TO_DEV_NULL,
                     NULL, NULL, NULL, err, &wait_status, &error))
    g_error ("cannot run %s: %s", HOTPATH_CLI, error->message);
  g_test_message ("LC_ALL=C hotpath-cli %s -> %d: %s", args[0], wait_status, *err);
  return WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : 128;
}

static char *
summary_of (const char *capture,
            const char *path)
{
  const char *args[] = { "summary", capture, path, NULL };
  g_autoptr(ItResult) get = it_run_cli (args);

  g_assert_cmpint (get->status, ==, 0);
  return g_strdup (get->out);
}

/* `--set ""` would delete the summary while saying "saved": it is refused,
 * and --clear named. */
static void
test_summary_set_empty (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (dir, "small.hotpath", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  it_write_small_capture (capture, NULL);
  {
    const char *args[] = { "summary", capture, "main;work", "--set", "Kept.", NULL };
    g_autoptr(ItResult) set = it_run_cli (args);

    g_assert_cmpint (set->status, ==, 0);
  }
  before = summary_of (capture, "main;work");
  g_assert_nonnull (strstr (before, "Kept."));

  for (guint i = 0; i < 2; i++)
    {
      const char *args[] = { "summary", capture, "main;work", "--set", i == 0 ? "" : "  \n", NULL };
      g_autoptr(ItResult) empty = it_run_cli (args);

      g_assert_cmpint (empty->status, !=, 0);
      g_assert_cmpuint (it_count_lines (empty->err), ==, 1);
      g_assert_null (strstr (empty->err, "saved"));
      g_assert_nonnull (strstr (empty->err, "--clear"));
    }
  after = summary_of (capture, "main;work");
  g_assert_cmpstr (after, ==, before);

  g_clear_pointer (&dir, it_tmpdir_free);
}

/* A hostile capture of 30 000 summaries: the listing, the review and the
 * tree read the first 10 000 and say, once, that the others were left out. */
static void
test_summary_many (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (dir, "many.hotpath", NULL);

  it_write_small_capture (capture, NULL);
  hp_test_sql (capture, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000) "
                        "INSERT INTO summaries (path_key, path, text, created, updated) "
                        "SELECT printf ('k%06d', i), 'p', 'A summary.', '', '' FROM n;");
  {
    const char *args[] = { "summary", capture, NULL };
    g_autoptr(ItResult) list = it_run_cli (args);

    g_assert_cmpint (list->status, ==, 0);
    g_assert_nonnull (strstr (list->out, "k010000"));
    g_assert_null (strstr (list->out, "k010001"));
    g_assert_cmpuint (it_count_lines (list->err), ==, 1);
    g_assert_nonnull (strstr (list->err, "more summaries than Hotpath reads: only the first 10000"));
  }
  {
    const char *args[] = { "summary", capture, "--format", "json", NULL };
    g_autoptr(ItResult) review = it_run_cli (args);

    g_assert_cmpint (review->status, ==, 0);
    g_assert_nonnull (strstr (review->err, "only the first 10000"));
  }
  {
    const char *args[] = { "report", capture, "--tree", NULL };
    g_autoptr(ItResult) tree = it_run_cli (args);

    g_assert_cmpint (tree->status, ==, 0);
    g_assert_nonnull (strstr (tree->err, "only the first 10000"));
  }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* A summary is the capture's text, and a capture is mailed: an escape
 * sequence in it (or in a function name, or in the name of the capture it
 * was written in) reaches the terminal as visible text, never as ESC,
 * and a summary of several lines lists as several indented lines. */
static void
test_summary_hostile_text (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (dir, "small.hotpath", NULL);
  g_autoptr(GError) error = NULL;

  it_write_small_capture (capture, NULL);
  {
    g_autoptr(HpCapture) cap = hp_capture_open (capture, TRUE, &error);
    g_autoptr(GPtrArray) rows = g_ptr_array_new ();
    HpCaptureSummary row = { (char *) "app\tmain\napp\twork\n", (char *) "main → work",
                             (char *) "red \033[31malert\nsecond line", (char *) "2026-01-01T00:00:00Z",
                             (char *) "2026-01-01T00:00:00Z", (char *) "old\033]0;title\a.hotpath", 12.5, TRUE };
    HpCaptureSummary lost = { (char *) "app\tmain\napp\t\033[2Jgone\n", (char *) "main → gone",
                              (char *) "Lost.", NULL, NULL, (char *) "old.hotpath", 1.0, FALSE };

    g_assert_no_error (error);
    g_ptr_array_add (rows, &row);
    g_ptr_array_add (rows, &lost);
    g_assert_true (hp_capture_put_summaries (cap, rows, &error));
    g_assert_no_error (error);
  }
  {
    const char *args[] = { "summary", capture, NULL };
    g_autoptr(ItResult) list = it_run_cli (args);

    g_test_message ("%s", list->out);
    g_assert_cmpint (list->status, ==, 0);
    g_assert_null (strchr (list->out, '\033'));
    g_assert_null (strchr (list->out, '\a'));
    g_assert_nonnull (strstr (list->out, "\n  second line\n"));
    g_assert_nonnull (strstr (list->out, "Lost."));
  }
  {
    const char *args[] = { "summary", capture, "main;work", NULL };
    g_autoptr(ItResult) get = it_run_cli (args);

    g_assert_cmpint (get->status, ==, 0);
    g_assert_null (strchr (get->out, '\033'));
    g_assert_nonnull (strstr (get->out, "\n  second line\n"));
  }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* Listing the summaries of a capture whose other tables are corrupt (a
 * frame of a function that does not exist, a damaged page) read only the
 * summaries and exited 0: it fails, naming the file and the problem. */
static void
test_summary_list_corrupt (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (dir, "small.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  const char *args[] = { "summary", capture, NULL };

  it_write_small_capture (capture, NULL);
  {
    g_autoptr(HpCapture) cap = hp_capture_open (capture, TRUE, &error);

    g_assert_no_error (error);
    g_assert_true (hp_capture_set_summary (cap, "app\tmain\n", "main", "Entry.", &error));
    g_assert_no_error (error);
  }
  {
    g_autoptr(ItResult) sound = it_run_cli (args);

    g_assert_cmpint (sound->status, ==, 0);
    g_assert_nonnull (strstr (sound->out, "Entry."));
  }
  {
    sqlite3 *db = NULL;
    g_autoptr(ItResult) list = NULL;

    g_assert_cmpint (sqlite3_open (capture, &db), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_exec (db, "UPDATE frames SET function_id = 999 WHERE id = 1", NULL, NULL, NULL), ==, SQLITE_OK);
    sqlite3_close (db);
    list = it_run_cli (args);
    g_test_message ("%s", list->err);
    g_assert_cmpint (list->status, !=, 0);
    g_assert_nonnull (strstr (list->err, capture));
    g_assert_nonnull (strstr (list->err, "frames"));
  }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* Under LC_ALL=C the text "café" (UTF-8 bytes) is saved as it is, not
 * refused with "Invalid byte sequence". */
static void
test_summary_c_locale (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (dir, "small.hotpath", NULL);
  g_autofree char *err = NULL;
  g_autofree char *text = NULL;
  g_autoptr(HpCapture) cap = NULL;
  g_autoptr(GHashTable) summaries = NULL;
  GHashTableIter iter;
  gpointer value;
  const char *args[] = { "summary", capture, "main;work", "--set", "café crème", NULL };

  it_write_small_capture (capture, NULL);
  g_assert_cmpint (run_cli_in_c_locale (args, &err), ==, 0);
  g_assert_null (strstr (err, "Invalid byte sequence"));

  cap = hp_capture_open (capture, FALSE, NULL);
  g_assert_nonnull (cap);
  summaries = hp_capture_list_summaries (cap, NULL);
  g_assert_nonnull (summaries);
  g_assert_cmpuint (g_hash_table_size (summaries), ==, 1);
  g_hash_table_iter_init (&iter, summaries);
  g_assert_true (g_hash_table_iter_next (&iter, NULL, &value));
  g_assert_cmpstr (value, ==, "café crème");

  text = summary_of (capture, "main;work");
  g_assert_nonnull (strstr (text, "café crème"));
  g_clear_pointer (&dir, it_tmpdir_free);
}

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

/* main → parse → {lex ×6, yylex ×3}, main → run ×1 */
static void
write_parser_capture (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  const char *names[] = { "main", "parse", "lex", "yylex", "run" };
  const guint parents[] = { 0, 0, 1, 1, 0 }, samples[] = { 0, 0, 6, 3, 1 };
  gint64 module, stacks[G_N_ELEMENTS (names)];

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  hp_capture_writer_set_process (w, 1, "app");
  hp_capture_writer_set_thread (w, 1, 1, "app");
  module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      gint64 function = hp_capture_writer_intern_function (w, names[i], module, NULL, 0);
      gint64 frame = hp_capture_writer_intern_frame (w, function, NULL, 0, FALSE, 0x10 * (i + 1));

      stacks[i] = hp_capture_writer_intern_stack (w, i == 0 ? 0 : stacks[parents[i]], frame);
      for (guint k = 0; k < samples[i]; k++)
        hp_capture_writer_add_sample (w, 1000 + k, 1, 0, stacks[i], 1);
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
}

/* A path that is not there: the one-line error says what would be, so a
 * typo costs one retry. */
static void
test_summary_path_hint (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (dir, "parser.hotpath", NULL);
  const struct {
    const char *path;
    const char *hint;
  } cases[] = {
    { "main;parse;lexx", "; did you mean 'main;parse;lex'?" },
    { "main;zzzzzzzzzz", "; no function is named 'zzzzzzzzzz'" },
    { "main;pars;qqqqqqqqqq", "; no function is named 'pars' (did you mean 'parse'?), nor 'qqqqqqqqqq'" },
    { "lex;parse;main", "; did you mean 'main;parse;lex' (root side first)?" },
    { "main;parse;run", "; 'main;parse' is one, and calls 'lex', 'yylex'" },
    { "main;run;lex", "; 'main;run' is one, and calls nothing" },
  };

  write_parser_capture (capture);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[] = { "summary", capture, cases[i].path, "--set", "x", NULL };
      g_autoptr(ItResult) r = it_run_cli (args);
      g_autofree char *expected = g_strdup_printf ("no call path %s in %s%s", cases[i].path, capture, cases[i].hint);

      g_test_message ("%s: %s", cases[i].path, r->err);
      g_assert_cmpint (r->status, ==, 1);
      g_assert_cmpuint (it_count_lines (r->err), ==, 1);
      g_assert_nonnull (strstr (r->err, expected));
    }
  g_clear_pointer (&dir, it_tmpdir_free);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/summary/round-trip", test_summary_round_trip);
  g_test_add_func ("/cli/summary/set-empty", test_summary_set_empty);
  g_test_add_func ("/cli/summary/c-locale", test_summary_c_locale);
  g_test_add_func ("/cli/summary/hostile-text", test_summary_hostile_text);
  g_test_add_func ("/cli/summary/list-corrupt", test_summary_list_corrupt);
  g_test_add_func ("/cli/summary/path-hint", test_summary_path_hint);
  g_test_add_func ("/cli/summary/many", test_summary_many);
  return g_test_run ();
}
