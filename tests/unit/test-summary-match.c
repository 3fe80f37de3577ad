/* test-summary-match.c - summaries placed in another capture; older captures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A capture built by hand whose tree is known, and path keys of "another
 * capture" that each need one rule of hp_summary_match_find(): the rule
 * reported must be the first that applies. Then the format's migration: a
 * version 1 capture reads with default provenance and is brought to the
 * current version by its first summary, keeping the summaries it had.
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "analysis/hp-summary-match.h"
#include "store/hp-capture.h"
#include "test-common.h"

/* The new capture:
 *   app:main > app:run > app:parse.constprop.0          10 samples
 *   app:main > app:run > libfoo.so.1.3:decode             5
 *   app:main > app:run > app:inl > app:step                3
 *   app:main > app:run                                     2 (self)
 */
static char *
write_new_capture (const char *dir)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, "new.hotpath", NULL);
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 app, foo, main_f, run, parse, decode, inl, step, s_main, s_run, s;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "command", "/opt/build/app --fast 'x y'");
  app = hp_capture_writer_intern_module (w, "/opt/build/app", NULL, FALSE);
  foo = hp_capture_writer_intern_module (w, "/usr/lib/libfoo.so.1.3", NULL, FALSE);
  main_f = hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "main", app, NULL, 0), NULL, 1, FALSE, 0x10);
  run = hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "run", app, NULL, 0), NULL, 2, FALSE, 0x20);
  parse = hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "parse.constprop.0", app, NULL, 0), NULL, 3, FALSE, 0x30);
  decode = hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "decode", foo, NULL, 0), NULL, 4, FALSE, 0x40);
  inl = hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "inl", app, NULL, 0), NULL, 5, TRUE, 0x50);
  step = hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "step", app, NULL, 0), NULL, 6, FALSE, 0x60);
  s_main = hp_capture_writer_intern_stack (w, 0, main_f);
  s_run = hp_capture_writer_intern_stack (w, s_main, run);
  s = hp_capture_writer_intern_stack (w, s_run, parse);
  for (guint i = 0; i < 10; i++)
    hp_capture_writer_add_sample (w, i, 1, 0, s, 1);
  s = hp_capture_writer_intern_stack (w, s_run, decode);
  for (guint i = 0; i < 5; i++)
    hp_capture_writer_add_sample (w, i, 1, 0, s, 1);
  s = hp_capture_writer_intern_stack (w, hp_capture_writer_intern_stack (w, s_run, inl), step);
  for (guint i = 0; i < 3; i++)
    hp_capture_writer_add_sample (w, i, 1, 0, s, 1);
  for (guint i = 0; i < 2; i++)
    hp_capture_writer_add_sample (w, i, 1, 0, s_run, 1);
  hp_capture_writer_set_thread (w, 1, 1, "app");
  hp_capture_writer_set_process (w, 1, "app");
  g_assert_true (hp_capture_writer_finish (w, &error));
  return path;
}

typedef struct {
  char          *dir;
  char          *path;
  HpCapture     *capture;
  HpCaptureData *data;
  HpProfile     *profile;
} Fixture;

static void
fixture_set_up (Fixture       *fx,
                gconstpointer  unused)
{
  g_autoptr(GError) error = NULL;

  fx->dir = g_dir_make_tmp ("hp-test-summ-XXXXXX", &error);
  g_assert_no_error (error);
  fx->path = write_new_capture (fx->dir);
  fx->capture = hp_capture_open (fx->path, TRUE, &error);
  g_assert_no_error (error);
  fx->data = hp_capture_load (fx->capture, &error);
  g_assert_no_error (error);
  fx->profile = hp_profile_new (fx->data, NULL);
}

static void
fixture_tear_down (Fixture       *fx,
                   gconstpointer  unused)
{
  hp_profile_free (fx->profile);
  hp_capture_data_free (fx->data);
  hp_capture_close (fx->capture);
  hp_test_remove_tree (fx->dir);
  g_free (fx->path);
  g_free (fx->dir);
}

static void
test_match_rules (Fixture       *fx,
                  gconstpointer  unused)
{
  static const struct {
    const char     *key;
    HpSummaryMatch  how;
    const char     *found;   /* readable path found */
  } cases[] = {
    { "app\tmain\napp\trun\n", HP_SUMMARY_MATCH_EXACT, "main → run" },
    { "app\tmain\napp\trun\napp\tparse.constprop.0\n", HP_SUMMARY_MATCH_EXACT, "main → run → parse.constprop.0" },
    /* the old build had no clone, or another one */
    { "app\tmain\napp\trun\napp\tparse\n", HP_SUMMARY_MATCH_CLONES, "main → run → parse.constprop.0" },
    { "app\tmain\napp\trun\napp\tparse.part.1\n", HP_SUMMARY_MATCH_CLONES, "main → run → parse.constprop.0" },
    /* libfoo.so.1.2 then, libfoo.so.1.3 now; and clones with it */
    { "app\tmain\napp\trun\nlibfoo.so.1.2\tdecode\n", HP_SUMMARY_MATCH_MODULE_VERSION, "main → run → decode" },
    { "app\tmain\napp\trun.isra.0\nlibfoo.so.1\tdecode\n", HP_SUMMARY_MATCH_MODULE_VERSION, "main → run → decode" },
    /* inl is new here: the old path went run → step */
    { "app\tmain\napp\trun\napp\tstep\n", HP_SUMMARY_MATCH_INLINE, "main → run → inl → step" },
    /* the old path had a frame (gone) that this one has not */
    { "app\tmain\napp\tgone\napp\trun\napp\tparse\n", HP_SUMMARY_MATCH_INLINE, "main → run → parse.constprop.0" },
    /* two changes of path are not one */
    { "app\tmain\napp\tgone\napp\trun\napp\tinl\napp\tstep\napp\tmore\n", HP_SUMMARY_MATCH_NONE, NULL },
    { "app\tmain\napp\tnowhere\napp\tnothing\n", HP_SUMMARY_MATCH_NONE, NULL },
    /* another program's main is not this one's */
    { "other\tmain\n", HP_SUMMARY_MATCH_NONE, NULL },
    { "", HP_SUMMARY_MATCH_NONE, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      HpSummaryMatch how = 99;
      const HpCallNode *node = hp_summary_match_find (fx->profile, cases[i].key, &how);

      g_test_message ("%s -> %s", cases[i].key, hp_summary_match_to_string (how));
      g_assert_cmpstr (hp_summary_match_to_string (how), ==, hp_summary_match_to_string (cases[i].how));
      if (cases[i].found == NULL)
        g_assert_null (node);
      else
        {
          g_autofree char *readable = NULL;

          g_assert_nonnull (node);
          readable = hp_call_node_readable_path (fx->profile, node);
          g_assert_cmpstr (readable, ==, cases[i].found);
        }
    }
}

static void
test_fold_module (void)
{
  static const char *cases[][2] = {
    { "libfoo.so.1.2", "libfoo.so" },
    { "libfoo.so.1", "libfoo.so" },
    { "libstdc++.so.6.0.30", "libstdc++.so" },
    { "libLLVM-15.so", "libLLVM.so" },
    { "libfoo-1.2.so.3", "libfoo.so" },
    { "libfoo.so", "libfoo.so" },
    { "demo", "demo" },
    { "python3.11", "python3.11" },
    { "libfoo.so.x", "libfoo.so.x" },
    { "[kernel.kallsyms]", "[kernel.kallsyms]" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *folded = hp_summary_fold_module (cases[i][0]);

      g_assert_cmpstr (folded, ==, cases[i][1]);
    }
}

static void
test_program_name (Fixture       *fx,
                   gconstpointer  unused)
{
  g_autofree char *program = hp_summary_program_name (fx->data);

  g_assert_cmpstr (program, ==, "app");
  g_hash_table_remove (fx->data->metadata, "command");
  g_clear_pointer (&program, g_free);
  /* attached with -p: no command, the process's */
  program = hp_summary_program_name (fx->data);
  g_assert_cmpstr (program, ==, "app");
}

static HpCaptureSummary *
summary_new (const char *key,
             const char *text)
{
  HpCaptureSummary *summary = g_new0 (HpCaptureSummary, 1);

  summary->path_key = g_strdup (key);
  summary->path = g_strdup ("old path");
  summary->text = g_strdup (text);
  summary->created = g_strdup ("2026-01-02T03:04:05Z");
  summary->updated = g_strdup ("2026-01-02T03:04:05Z");
  summary->share = 12.5;
  summary->found = TRUE;
  return summary;
}

/* Every summary is placed or kept under its old key, never dropped; one
 * already there (the same text) or in the way (another text) is said. */
static void
test_place (Fixture       *fx,
            gconstpointer  unused)
{
  g_autoptr(GPtrArray) old = g_ptr_array_new_with_free_func ((GDestroyNotify) hp_capture_summary_free);
  g_autoptr(GPtrArray) existing = g_ptr_array_new_with_free_func ((GDestroyNotify) hp_capture_summary_free);
  g_autoptr(GPtrArray) placed = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) to_write = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  HpSummaryPlacement *p;

  g_ptr_array_add (old, summary_new ("app\tmain\napp\trun\napp\tparse\n", "parses"));
  g_ptr_array_add (old, summary_new ("app\tmain\napp\tnowhere\n", "lost"));
  g_ptr_array_add (old, summary_new ("app\tmain\napp\trun\n", "runs"));
  g_ptr_array_add (old, summary_new ("app\tmain\n", "mine"));
  g_ptr_array_add (existing, summary_new ("app\tmain\napp\trun\n", "runs"));
  g_ptr_array_add (existing, summary_new ("app\tmain\n", "theirs"));

  placed = hp_summary_place (fx->profile, old, "old.hotpath", existing);
  g_assert_cmpuint (placed->len, ==, 4);

  p = placed->pdata[0];
  g_assert_cmpint (p->how, ==, HP_SUMMARY_MATCH_CLONES);
  g_assert_cmpstr (p->summary->path_key, ==, "app\tmain\napp\trun\napp\tparse.constprop.0\n");
  g_assert_cmpstr (p->summary->capture, ==, "old.hotpath");
  g_assert_cmpstr (p->summary->created, ==, "2026-01-02T03:04:05Z");
  g_assert_cmpfloat (p->summary->share, ==, 12.5);
  g_assert_cmpfloat_with_epsilon (p->share_now, 50.0, 1e-9);
  g_assert_true (p->summary->found);
  g_assert_false (p->conflict || p->present);

  p = placed->pdata[1];
  g_assert_cmpint (p->how, ==, HP_SUMMARY_MATCH_NONE);
  g_assert_false (p->summary->found);
  g_assert_cmpstr (p->summary->path_key, ==, "app\tmain\napp\tnowhere\n");
  g_assert_true (isnan (p->share_now));

  p = placed->pdata[2];
  g_assert_true (p->present);
  p = placed->pdata[3];
  g_assert_true (p->conflict);

  /* written as placed: the lost one stays, as not found */
  for (guint i = 0; i < placed->len; i++)
    {
      p = placed->pdata[i];
      if (!p->present && !p->conflict)
        g_ptr_array_add (to_write, p->summary);
    }
  g_assert_true (hp_capture_put_summaries (fx->capture, to_write, &error));
  g_assert_no_error (error);
  rows = hp_capture_list_summary_rows (fx->capture, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 2);
  for (guint i = 0; i < rows->len; i++)
    {
      HpCaptureSummary *row = rows->pdata[i];

      g_assert_cmpstr (row->capture, ==, "old.hotpath");
      g_assert_cmpfloat (row->share, ==, 12.5);
      g_assert_cmpstr (row->created, ==, "2026-01-02T03:04:05Z");
      g_assert_cmpint (row->found, ==, strstr (row->path_key, "nowhere") == NULL);
    }
}

/* A capture of format version 1 (as every capture before this change)
 * opens and lists its summaries; the first write migrates it, keeping
 * them, and a written summary records its capture and share. */
static void
test_migrate_v1 (Fixture       *fx,
                 gconstpointer  unused)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  HpCaptureSummary *row;

  g_clear_pointer (&fx->capture, hp_capture_close);
  hp_test_sql (fx->path,
       /* version 2's events (issue of events), version 3's provenance,
        * version 4's JIT tiers */
       "ALTER TABLE frames DROP COLUMN tier;"
       "DROP TABLE events;"
       "ALTER TABLE samples DROP COLUMN event_id;"
       "CREATE TABLE sc1 (stack_id INTEGER NOT NULL, tid INTEGER NOT NULL, samples INTEGER NOT NULL, "
       "  weight INTEGER NOT NULL, PRIMARY KEY (stack_id, tid)) WITHOUT ROWID;"
       "INSERT INTO sc1 SELECT stack_id, tid, samples, weight FROM stack_counts;"
       "DROP TABLE stack_counts;"
       "ALTER TABLE sc1 RENAME TO stack_counts;"
       "ALTER TABLE summaries DROP COLUMN capture;"
       "ALTER TABLE summaries DROP COLUMN share;"
       "ALTER TABLE summaries DROP COLUMN found;"
       "INSERT INTO summaries VALUES ('app\tmain\n', 'main', 'old text', "
       "  '2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z');"
       "PRAGMA user_version = 1;");

  capture = hp_capture_open (fx->path, FALSE, &error);
  g_assert_no_error (error);
  rows = hp_capture_list_summary_rows (capture, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 1);
  row = rows->pdata[0];
  g_assert_cmpstr (row->text, ==, "old text");
  g_assert_null (row->capture);
  g_assert_true (isnan (row->share));
  g_assert_true (row->found);
  g_clear_pointer (&capture, hp_capture_close);
  g_clear_pointer (&rows, g_ptr_array_unref);

  capture = hp_capture_open (fx->path, TRUE, &error);
  g_assert_no_error (error);
  g_assert_true (hp_capture_set_summary_full (capture, "app\tmain\napp\trun\n", "main → run", "new", 100.0, &error));
  g_assert_no_error (error);
  g_clear_pointer (&capture, hp_capture_close);
  {
    sqlite3 *db = NULL;
    sqlite3_stmt *stmt = NULL;

    g_assert_cmpint (sqlite3_open (fx->path, &db), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &stmt, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
    g_assert_cmpint (sqlite3_column_int (stmt, 0), ==, HP_CAPTURE_FORMAT_VERSION);
    sqlite3_finalize (stmt);
    sqlite3_close (db);
  }

  capture = hp_capture_open (fx->path, FALSE, &error);
  g_assert_no_error (error);
  rows = hp_capture_list_summary_rows (capture, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 2);
  row = rows->pdata[0];
  g_assert_cmpstr (row->text, ==, "old text");
  g_assert_null (row->capture);
  g_assert_true (row->found);
  {
    g_autoptr(HpCaptureData) data = hp_capture_load (capture, &error);

    g_assert_no_error (error);
    g_assert_nonnull (data);
  }
  row = rows->pdata[1];
  g_assert_cmpstr (row->text, ==, "new");
  g_assert_cmpstr (row->capture, ==, "new.hotpath");
  g_assert_cmpfloat (row->share, ==, 100.0);

  /* a capture of this version without the columns is refused, named */
  g_clear_pointer (&capture, hp_capture_close);
  hp_test_sql (fx->path, "ALTER TABLE summaries DROP COLUMN share;");
  capture = hp_capture_open (fx->path, FALSE, &error);
  g_assert_null (capture);
  g_assert_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "no column share"));
}

/* A hostile share (text, out of range) reads as unknown. */
static void
test_hostile_share (Fixture       *fx,
                    gconstpointer  unused)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = NULL;

  g_clear_pointer (&fx->capture, hp_capture_close);
  hp_test_sql (fx->path,
       "INSERT INTO summaries VALUES ('a\n', 'a', 't', '', '', x'ff00', 'lots', 'yes');"
       "INSERT INTO summaries VALUES ('b\n', 'b', 't', '', '', NULL, 1e308, 0);"
       "INSERT INTO summaries VALUES ('c\n', 'c', 't', '', '', NULL, -3, 0);");
  fx->capture = hp_capture_open (fx->path, FALSE, &error);
  g_assert_no_error (error);
  rows = hp_capture_list_summary_rows (fx->capture, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 3);
  for (guint i = 0; i < rows->len; i++)
    {
      HpCaptureSummary *row = rows->pdata[i];

      g_assert_true (isnan (row->share));
      g_assert_true (row->capture == NULL || g_utf8_validate (row->capture, -1, NULL));
    }
}

/* A key as long as a deep recursion's path (100 000 steps of f under
 * main), with one step this capture has not near its end, so that only
 * the rule that skips a step places it. The search once recursed per step
 * (past the C stack's end) and, for each place a skip could be made,
 * walked the rest of the path again: 10^10 steps for this key. */
#define LONG_DEPTH 100000

static void
test_long_key (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("hp-test-summ-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "deep.hotpath", NULL);
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) data = NULL;
  g_autoptr(HpProfile) profile = NULL;
  g_autoptr(GString) key = g_string_new ("app\tmain\n");
  HpSummaryMatch how = HP_SUMMARY_MATCH_NONE;
  const HpCallNode *node;
  guint depth = 0;

  g_assert_no_error (error);
  {
    g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
    gint64 app, main_f, f, stack;

    g_assert_no_error (error);
    app = hp_capture_writer_intern_module (w, "/opt/build/app", NULL, FALSE);
    main_f = hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "main", app, NULL, 0), NULL, 1, FALSE, 0x10);
    f = hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "f", app, NULL, 0), NULL, 2, FALSE, 0x20);
    stack = hp_capture_writer_intern_stack (w, 0, main_f);
    for (guint i = 0; i < LONG_DEPTH; i++)
      stack = hp_capture_writer_intern_stack (w, stack, f);
    hp_capture_writer_add_sample (w, 1, 1, 0, stack, 1);
    hp_capture_writer_set_thread (w, 1, 1, "app");
    hp_capture_writer_set_process (w, 1, "app");
    g_assert_true (hp_capture_writer_finish (w, &error));
    g_assert_no_error (error);
  }
  capture = hp_capture_open (path, FALSE, &error);
  g_assert_no_error (error);
  data = hp_capture_load (capture, &error);
  g_assert_no_error (error);
  profile = hp_profile_new (data, NULL);

  for (guint i = 0; i < LONG_DEPTH; i++)
    {
      g_string_append (key, "app\tf\n");
      if (i == LONG_DEPTH - 10)
        g_string_append (key, "app\tgone\n");
    }
  node = hp_summary_match_find (profile, key->str, &how);
  g_assert_cmpstr (hp_summary_match_to_string (how), ==, "inlined frame");
  g_assert_nonnull (node);
  for (const HpCallNode *n = node; n->parent != NULL; n = n->parent)
    depth++;
  g_assert_cmpuint (depth, ==, LONG_DEPTH + 1);
  /* and the path itself, exactly */
  {
    g_autofree char *exact = hp_call_node_path_key (profile, node);

    node = hp_summary_match_find (profile, exact, &how);
    g_assert_cmpstr (hp_summary_match_to_string (how), ==, "exact");
  }
  g_clear_pointer (&profile, hp_profile_free);
  g_clear_pointer (&data, hp_capture_data_free);
  g_clear_pointer (&capture, hp_capture_close);
  hp_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/summary-match/rules", Fixture, NULL, fixture_set_up, test_match_rules, fixture_tear_down);
  g_test_add_func ("/summary-match/fold-module", test_fold_module);
  g_test_add_func ("/summary-match/long-key", test_long_key);
  g_test_add ("/summary-match/program-name", Fixture, NULL, fixture_set_up, test_program_name, fixture_tear_down);
  g_test_add ("/summary-match/place", Fixture, NULL, fixture_set_up, test_place, fixture_tear_down);
  g_test_add ("/summary-match/migrate-v1", Fixture, NULL, fixture_set_up, test_migrate_v1, fixture_tear_down);
  g_test_add ("/summary-match/hostile-share", Fixture, NULL, fixture_set_up, test_hostile_share, fixture_tear_down);
  return g_test_run ();
}
