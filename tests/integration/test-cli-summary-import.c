/* test-cli-summary-import.c - summaries follow a rebuild; the summary library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The demo built at -O1 and at -O2 (tests/workloads/rebuild-O*), both named
 * "demo", so that every address moves and the function identities stay:
 * summaries written in the -O1 capture are imported into the -O2 one by
 * `hotpath-cli summary NEW --import OLD`, each placed path said with its
 * rule, and one whose path the rebuild lost is reported and kept as "not
 * found in this capture". Every summary written is mirrored into the
 * per-user library ($XDG_DATA_HOME/hotpath/summaries.db); a library that
 * is not one (junk, another program's database, a newer one, locked) is a
 * warning, and the capture gets its summary all the same.
 *
 * The rules beyond "exact", on real builds: tests/workloads/follow.c built
 * at -O0 -g with libfollowlib.so.1.2 and at -O2 without DWARF with
 * libfollowlib.so.1.3, whose paths change by a module version, an inlined
 * frame and a GCC clone; each summary is placed by the rule it needs, and
 * the output names that rule, both ways.
 */

#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "integration-common.h"
#include "test-common.h"
#include "store/hp-capture-writer.h"
#include "store/hp-summary-library.h"

#define COUNT_WORD "main;tokenize;count_word"
#define COUNT_TEXT "Counts each word: hash, then strncmp along the bucket chain."
#define NEXT_RANDOM "main;generate_text;next_random"
#define LOST_KEY "demo\tmain\ndemo\tvanished_in_the_rebuild\n"

/* Records WORKLOAD_DIR/@variant/@program into @dir/@variant.hotpath. */
static char *
record_build (const char *dir,
              const char *variant,
              const char *program,
              const char *argument)
{
  g_autofree char *exe = g_build_filename (WORKLOAD_DIR, variant, program, NULL);
  g_autofree char *name = g_strconcat (variant, ".hotpath", NULL);
  char *capture = g_build_filename (dir, name, NULL);
  const char *args[] = { "record", "-o", capture, "--", exe, argument, NULL };
  g_autoptr(ItResult) result = it_run_cli (args);

  g_test_message ("record %s: %s", variant, result->err);
  g_assert_cmpint (result->status, ==, 0);
  return capture;
}

static char *
record_demo (const char *dir,
             const char *variant)
{
  /* five rounds of the demo: a second or so, a few hundred samples */
  return record_build (dir, variant, "demo", "5");
}

static void
set_summary (const char *capture,
             const char *path,
             const char *text)
{
  const char *args[] = { "summary", capture, path, "--set", text, NULL };
  g_autoptr(ItResult) set = it_run_cli (args);

  g_test_message ("summary --set %s: %s", path, set->err);
  g_assert_cmpint (set->status, ==, 0);
  g_assert_null (strstr (set->err, "warning"));
}

static void
test_import_across_rebuild (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *o1 = NULL;
  g_autofree char *o2 = NULL;
  g_autofree char *library = NULL;
  g_autoptr(GError) error = NULL;

  if (!it_require_perf_events ())
    return;
  dir = it_tmpdir_new ();
  library = g_build_filename (dir, "xdg", "hotpath", "summaries.db", NULL);
  {
    g_autofree char *xdg = g_build_filename (dir, "xdg", NULL);

    g_setenv ("XDG_DATA_HOME", xdg, TRUE);
  }
  o1 = record_demo (dir, "rebuild-O1");
  o2 = record_demo (dir, "rebuild-O2");

  /* the rebuild moved main: no address of it is the same */
  g_assert_cmpint (hp_test_sql_int (o1, "SELECT count(*) FROM frames f JOIN functions u ON f.function_id = u.id "
                                "WHERE u.name = 'count_word'"), >, 0);
  {
    g_autofree char *attach = g_strdup_printf ("SELECT min(offset) FROM frames f JOIN functions u "
                                               "ON f.function_id = u.id WHERE u.name = 'main'");
    g_assert_cmpint (hp_test_sql_int (o1, attach), !=, hp_test_sql_int (o2, attach));
  }

  set_summary (o1, COUNT_WORD, COUNT_TEXT);
  set_summary (o1, NEXT_RANDOM, "The xorshift generator.");
  /* a summary of a path the -O2 build does not have */
  {
    g_autoptr(HpCapture) capture = hp_capture_open (o1, TRUE, &error);

    g_assert_no_error (error);
    g_assert_true (hp_capture_set_summary_full (capture, LOST_KEY, "main → vanished_in_the_rebuild",
                                                "Lost after the rebuild.", 2.5, &error));
    g_assert_no_error (error);
  }
  /* the CLI's writes went into the library too, for the program "demo" */
  g_assert_cmpint (hp_test_sql_int (library, "SELECT count(*) FROM summaries WHERE program = 'demo'"), ==, 2);
  /* a later text of a path in the library, as another capture of demo
   * would have left it: an import of the older one must not replace it */
  hp_test_sql (library, "UPDATE summaries SET text = 'Written later.', updated = '2999-01-01T00:00:00Z' "
                "WHERE text = 'The xorshift generator.'");

  {
    const char *args[] = { "summary", o2, "--import", o1, NULL };
    g_autoptr(ItResult) import = it_run_cli (args);
    g_auto(GStrv) lines = NULL;
    guint n_placed = 0;

    g_test_message ("%s%s", import->out, import->err);
    g_assert_cmpint (import->status, ==, 0);
    lines = g_strsplit (import->out, "\n", -1);
    for (guint i = 0; lines[i] != NULL; i++)
      if (g_str_has_prefix (lines[i], "placed ("))
        {
          /* each says its rule */
          g_assert_true (strstr (lines[i], "(exact)") || strstr (lines[i], "(clones folded)") ||
                         strstr (lines[i], "(module version)") || strstr (lines[i], "(inlined frame)"));
          n_placed++;
        }
    g_assert_cmpuint (n_placed, ==, 2);
    g_assert_nonnull (strstr (import->out, "tokenize → count_word"));
    g_assert_nonnull (strstr (import->out, "not found in this capture (kept)  main → vanished_in_the_rebuild"));
    g_assert_nonnull (strstr (import->err, "2 of 3 summaries"));
    g_assert_nonnull (strstr (import->err, "1 not found in this capture"));
  }

  /* in the -O2 capture: the texts, where they were written, the shares */
  {
    const char *args[] = { "summary", o2, NULL };
    g_autoptr(ItResult) list = it_run_cli (args);

    g_test_message ("%s", list->out);
    g_assert_cmpint (list->status, ==, 0);
    g_assert_nonnull (strstr (list->out, COUNT_TEXT));
    g_assert_nonnull (strstr (list->out, "(written in rebuild-O1.hotpath on "));
    g_assert_nonnull (strstr (list->out, " % then, "));
    g_assert_nonnull (strstr (list->out, " % now)"));
    g_assert_nonnull (strstr (list->out, "Lost after the rebuild."));
    g_assert_nonnull (strstr (list->out, "2.5 % then; not found in this capture"));
  }
  {
    const char *args[] = { "summary", o2, COUNT_WORD, NULL };
    g_autoptr(ItResult) get = it_run_cli (args);

    g_assert_cmpint (get->status, ==, 0);
    g_assert_nonnull (strstr (get->out, COUNT_TEXT));
  }
  g_assert_cmpint (hp_test_sql_int (o2, "SELECT count(*) FROM summaries WHERE found = 0"), ==, 1);
  /* the library has them too, the one not found in -O2 as well: it is per
   * program, and another capture of demo may run that path */
  g_assert_cmpint (hp_test_sql_int (library, "SELECT count(*) FROM summaries WHERE program = 'demo' AND "
                                     "path = 'main → vanished_in_the_rebuild' AND "
                                     "text = 'Lost after the rebuild.' AND capture = 'rebuild-O1.hotpath'"), ==, 1);
  /* and the import's old text did not replace the one written later */
  g_assert_cmpint (hp_test_sql_int (library, "SELECT count(*) FROM summaries WHERE text = 'Written later.' "
                                     "AND updated = '2999-01-01T00:00:00Z'"), ==, 1);
  g_assert_cmpint (hp_test_sql_int (o2, "SELECT count(*) FROM summaries WHERE capture = 'rebuild-O1.hotpath'"), ==, 3);

  /* again: nothing new, nothing doubled */
  {
    const char *args[] = { "summary", o2, "--import", o1, NULL };
    g_autoptr(ItResult) again = it_run_cli (args);

    g_assert_cmpint (again->status, ==, 0);
    g_assert_nonnull (strstr (again->err, "3 already there"));
    g_assert_cmpint (hp_test_sql_int (o2, "SELECT count(*) FROM summaries"), ==, 3);
  }

  /* OLD that is not a capture: named, and NEW left alone */
  {
    g_autofree char *junk = g_build_filename (dir, "junk.hotpath", NULL);
    const char *args[] = { "summary", o2, "--import", junk, NULL };
    g_autoptr(ItResult) bad = NULL;

    g_assert_true (g_file_set_contents (junk, "not a capture", -1, NULL));
    bad = it_run_cli (args);
    g_assert_cmpint (bad->status, ==, 1);
    g_assert_nonnull (strstr (bad->err, junk));
    g_assert_cmpint (hp_test_sql_int (o2, "SELECT count(*) FROM summaries"), ==, 3);
  }

  g_unsetenv ("XDG_DATA_HOME");
  it_tmpdir_free (g_steal_pointer (&dir));
}

/* The line of @out that holds @text, or NULL. */
static char *
output_line (const char *out,
             const char *text)
{
  g_auto(GStrv) lines = g_strsplit (out, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], text) != NULL)
      return g_strdup (lines[i]);
  return NULL;
}

/* A line "placed (@rule)  … → @path", then "  [was … → @was]" when the
 * path changed, then the shares. Paths start at _start, through libc. */
static void
assert_placed (const char *out,
               const char *rule,
               const char *path,
               const char *was)
{
  g_autofree char *prefix = g_strdup_printf ("placed (%s)  ", rule);
  g_autofree char *tail = was ? g_strdup_printf (" → %s  [was ", path) : g_strdup_printf (" → %s  ", path);
  g_autofree char *line = output_line (out, tail);
  g_autofree char *was_tail = was ? g_strdup_printf (" → %s]  ", was) : NULL;

  if (line == NULL)
    g_error ("no line with \"%s\" in:\n%s", tail, out);
  if (!g_str_has_prefix (line, prefix))
    g_error ("\"%s\" was not placed by the rule %s", line, rule);
  if (was_tail != NULL)
    g_assert_nonnull (strstr (line, was_tail));
  else
    g_assert_null (strstr (line, "[was "));
  g_assert_nonnull (strstr (line, " % then, "));
}

/* Summaries of @capture with @text on a path found there whose key ends
 * with @key_tail. */
static gint64
count_summary (const char *capture,
               const char *key_tail,
               const char *text)
{
  char *query = sqlite3_mprintf ("SELECT count(*) FROM summaries WHERE substr(path_key, -length(%Q)) = %Q "
                                 "AND text = %Q AND found = 1", key_tail, key_tail, text);
  gint64 n = hp_test_sql_int (capture, query);

  sqlite3_free (query);
  return n;
}

#define FOLLOW_LIB_OLD  "follow\tmain\nlibfollowlib.so.1.2\tfollowlib_work\n"
#define FOLLOW_LIB_NEW  "follow\tmain\nlibfollowlib.so.1.3\tfollowlib_work\n"
#define FOLLOW_INL_OLD  "follow\tmain\nfollow\touter\nfollow\thelper\nfollow\tinner\n"
#define FOLLOW_INL_NEW  "follow\tmain\nfollow\touter\nfollow\tinner\n"
#define FOLLOW_CLONE_OLD "follow\tmain\nfollow\tscaled\n"
#define FOLLOW_CLONE_NEW "follow\tmain\nfollow\tscaled.constprop.0\n"

static void
test_import_rules (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *xdg = NULL;
  g_autofree char *old = NULL;
  g_autofree char *new = NULL;

  if (!it_require_perf_events ())
    return;
  dir = it_tmpdir_new ();
  xdg = g_build_filename (dir, "xdg", NULL);
  g_setenv ("XDG_DATA_HOME", xdg, TRUE);
  /* meson test puts both builds' library folders on LD_LIBRARY_PATH, which
   * the loader searches before each program's RUNPATH ($ORIGIN): the new
   * build would run with the old library */
  g_unsetenv ("LD_LIBRARY_PATH");
  old = record_build (dir, "follow-old", "follow", "200");
  new = record_build (dir, "follow-new", "follow", "200");

  /* the builds differ as follow.c says, or this test proves nothing */
  g_assert_cmpint (hp_test_sql_int (old, "SELECT count(*) FROM modules WHERE path LIKE '%/libfollowlib.so.1.2'"), ==, 1);
  g_assert_cmpint (hp_test_sql_int (new, "SELECT count(*) FROM modules WHERE path LIKE '%/libfollowlib.so.1.3'"), ==, 1);
  g_assert_cmpint (hp_test_sql_int (old, "SELECT count(*) FROM functions WHERE name = 'helper'"), ==, 1);
  g_assert_cmpint (hp_test_sql_int (new, "SELECT count(*) FROM functions WHERE name = 'helper'"), ==, 0);
  g_assert_cmpint (hp_test_sql_int (old, "SELECT count(*) FROM functions WHERE name = 'scaled'"), ==, 1);
  g_assert_cmpint (hp_test_sql_int (new, "SELECT count(*) FROM functions WHERE name = 'scaled.constprop.0'"), ==, 1);

  /* written in the old build, each path as it ran there */
  set_summary (old, "main;followlib_work", "The library's share.");
  set_summary (old, "main;outer;helper;inner", "Inner, through the helper.");
  set_summary (old, "main;scaled", "Three units a round.");
  set_summary (old, "main", "The whole program.");
  g_assert_cmpint (count_summary (old, FOLLOW_LIB_OLD, "The library's share."), ==, 1);
  g_assert_cmpint (count_summary (old, FOLLOW_INL_OLD, "Inner, through the helper."), ==, 1);
  g_assert_cmpint (count_summary (old, FOLLOW_CLONE_OLD, "Three units a round."), ==, 1);
  {
    const char *args[] = { "summary", new, "--import", old, NULL };
    g_autoptr(ItResult) import = it_run_cli (args);

    g_test_message ("%s%s", import->out, import->err);
    g_assert_cmpint (import->status, ==, 0);
    assert_placed (import->out, "module version", "main → followlib_work", NULL);
    assert_placed (import->out, "inlined frame", "main → outer → inner", "main → outer → helper → inner");
    assert_placed (import->out, "clones folded", "main → scaled.constprop.0", "main → scaled");
    assert_placed (import->out, "exact", "__libc_start_call_main → main", NULL);
    g_assert_nonnull (strstr (import->err, "4 of 4 summaries"));
    g_assert_null (strstr (import->out, "not found"));
  }
  /* each now on the new build's own path */
  g_assert_cmpint (count_summary (new, FOLLOW_LIB_NEW, "The library's share."), ==, 1);
  g_assert_cmpint (count_summary (new, FOLLOW_INL_NEW, "Inner, through the helper."), ==, 1);
  g_assert_cmpint (count_summary (new, FOLLOW_CLONE_NEW, "Three units a round."), ==, 1);
  g_assert_cmpint (hp_test_sql_int (new, "SELECT count(*) FROM summaries WHERE capture = 'follow-old.hotpath'"), ==, 4);

  /* the other way: written in the release build, where helper is gone,
   * taken back to the old one, where it appears again */
  {
    const char *paths[] = { "main;followlib_work", "main;outer;helper;inner", "main;scaled" };

    for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
      {
        const char *args[] = { "summary", old, paths[i], "--clear", NULL };
        g_autoptr(ItResult) clear = it_run_cli (args);

        g_assert_cmpint (clear->status, ==, 0);
      }
  }
  set_summary (new, "main;followlib_work", "The library, in the release.");
  set_summary (new, "main;outer;inner", "Inner, helper inlined.");
  set_summary (new, "main;scaled.constprop.0", "The clone.");
  {
    const char *args[] = { "summary", old, "--import", new, NULL };
    g_autoptr(ItResult) import = it_run_cli (args);

    g_test_message ("%s%s", import->out, import->err);
    g_assert_cmpint (import->status, ==, 0);
    assert_placed (import->out, "module version", "main → followlib_work", NULL);
    assert_placed (import->out, "inlined frame", "main → outer → helper → inner", "main → outer → inner");
    assert_placed (import->out, "clones folded", "main → scaled", "main → scaled.constprop.0");
    {
      /* "main" came from old in the first import: the same text */
      g_autofree char *main_line = output_line (import->out, "already here  ");

      g_assert_nonnull (main_line);
      g_assert_true (g_str_has_suffix (main_line, " → __libc_start_call_main → main"));
    }
  }
  g_assert_cmpint (count_summary (old, FOLLOW_LIB_OLD, "The library, in the release."), ==, 1);
  g_assert_cmpint (count_summary (old, FOLLOW_INL_OLD, "Inner, helper inlined."), ==, 1);
  g_assert_cmpint (count_summary (old, FOLLOW_CLONE_OLD, "The clone."), ==, 1);

  g_unsetenv ("XDG_DATA_HOME");
  it_tmpdir_free (g_steal_pointer (&dir));
}

/* A library that cannot be used costs a warning that names it, never the
 * summary: the capture has it. */
static void
test_hostile_library (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *xdg = g_build_filename (dir, "xdg", NULL);
  g_autofree char *folder = g_build_filename (xdg, "hotpath", NULL);
  g_autofree char *library = g_build_filename (folder, "summaries.db", NULL);
  g_autofree char *capture = g_build_filename (dir, "small.hotpath", NULL);
  static const char *kinds[] = { "junk", "truncated", "other", "newer", "columns", "folder", "locked" };

  g_setenv ("XDG_DATA_HOME", xdg, TRUE);
  it_write_small_capture (capture, "/usr/bin/small --arg");
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autofree char *text = g_strdup_printf ("Summary %u.", k);
      const char *args[] = { "summary", capture, "main;work", "--set", text, NULL };
      const char *get_args[] = { "summary", capture, "main;work", NULL };
      g_autoptr(ItResult) set = NULL;
      g_autoptr(ItResult) get = NULL;
      sqlite3 *locker = NULL;

      hp_test_remove_tree (folder);
      g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
      if (strcmp (kinds[k], "junk") == 0)
        g_assert_true (g_file_set_contents (library, "\x01\x02 not SQLite at all", -1, NULL));
      else if (strcmp (kinds[k], "folder") == 0)
        g_assert_cmpint (g_mkdir (library, 0700), ==, 0);
      else if (strcmp (kinds[k], "truncated") == 0)
        {
          g_autofree char *contents = NULL;
          gsize n = 0;

          hp_test_sql (library, "PRAGMA page_size = 512; CREATE TABLE t (x); INSERT INTO t VALUES (randomblob(4000));");
          g_assert_true (g_file_get_contents (library, &contents, &n, NULL));
          g_assert_true (g_file_set_contents (library, contents, n / 2, NULL));
        }
      else if (strcmp (kinds[k], "other") == 0)
        hp_test_sql (library, "CREATE TABLE summaries (x); INSERT INTO summaries VALUES (1);");
      else if (strcmp (kinds[k], "newer") == 0 || strcmp (kinds[k], "columns") == 0 ||
               strcmp (kinds[k], "locked") == 0)
        {
          g_autoptr(HpSummaryLibrary) made = hp_summary_library_open (library, NULL);

          g_assert_nonnull (made);
          g_clear_pointer (&made, hp_summary_library_close);
          if (strcmp (kinds[k], "newer") == 0)
            hp_test_sql (library, "PRAGMA user_version = 99");
          else if (strcmp (kinds[k], "columns") == 0)
            hp_test_sql (library, "ALTER TABLE summaries DROP COLUMN share");
          else
            {
              g_assert_cmpint (sqlite3_open (library, &locker), ==, SQLITE_OK);
              g_assert_cmpint (sqlite3_exec (locker, "BEGIN EXCLUSIVE", NULL, NULL, NULL), ==, SQLITE_OK);
            }
        }

      set = it_run_cli (args);
      g_test_message ("%s: %s", kinds[k], set->err);
      g_assert_cmpint (set->status, ==, 0);
      g_assert_nonnull (strstr (set->err, "warning: "));
      g_assert_nonnull (strstr (set->err, library));
      g_assert_nonnull (strstr (set->err, "saved"));
      if (strcmp (kinds[k], "locked") == 0)
        g_assert_nonnull (strstr (set->err, "locked"));
      if (strcmp (kinds[k], "newer") == 0)
        g_assert_nonnull (strstr (set->err, "newer"));
      get = it_run_cli (get_args);
      g_assert_nonnull (strstr (get->out, text));
      if (locker != NULL)
        {
          sqlite3_exec (locker, "ROLLBACK", NULL, NULL, NULL);
          sqlite3_close (locker);
        }
    }

  /* and a library that works takes it */
  hp_test_remove_tree (folder);
  {
    const char *args[] = { "summary", capture, "main;work", "--set", "Kept.", NULL };
    g_autoptr(ItResult) set = it_run_cli (args);
    g_autoptr(HpSummaryLibrary) lib = NULL;
    g_autoptr(GPtrArray) rows = NULL;
    g_autoptr(GError) error = NULL;

    g_assert_cmpint (set->status, ==, 0);
    g_assert_null (strstr (set->err, "warning"));
    lib = hp_summary_library_open (library, &error);
    g_assert_no_error (error);
    rows = hp_summary_library_list (lib, "small", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (rows->len, ==, 1);
    g_assert_cmpstr (((HpCaptureSummary *) rows->pdata[0])->text, ==, "Kept.");
    g_assert_cmpstr (((HpCaptureSummary *) rows->pdata[0])->capture, ==, "small.hotpath");
  }
  g_unsetenv ("XDG_DATA_HOME");
  it_tmpdir_free (g_steal_pointer (&dir));
}

/* A perf.data (here folded stacks, which open the same way) holds no
 * summaries: as OLD it is said to have none; as NEW the summaries go into
 * the capture `hotpath-cli import NEW` writes, imported first, and one
 * there already is named rather than guessed at. */
static void
test_import_perf_data (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *xdg = g_build_filename (dir, "xdg", NULL);
  g_autofree char *old_folded = g_build_filename (dir, "old.folded", NULL);
  g_autofree char *old = g_build_filename (dir, "old.hotpath", NULL);
  g_autofree char *new_folded = g_build_filename (dir, "new.folded", NULL);
  g_autofree char *made = g_build_filename (dir, "new.hotpath", NULL);
  g_autofree char *cwd = g_get_current_dir ();

  g_setenv ("XDG_DATA_HOME", xdg, TRUE);
  g_assert_true (g_file_set_contents (old_folded, "main;parse;lex 30\nmain;run 10\n", -1, NULL));
  g_assert_true (g_file_set_contents (new_folded, "main;parse;lex 5\nmain;run 50\n", -1, NULL));
  {
    const char *args[] = { "import", old_folded, "-o", old, NULL };
    g_autoptr(ItResult) import = it_run_cli (args);

    g_assert_cmpint (import->status, ==, 0);
  }
  set_summary (old, "main;parse;lex", "The lexer.");
  set_summary (old, "main;run", "The run loop.");
  g_assert_cmpint (g_chdir (dir), ==, 0);

  /* OLD a perf.data: it has none, said so, and nothing is written */
  {
    const char *args[] = { "summary", old, "--import", new_folded, NULL };
    g_autoptr(ItResult) bad = it_run_cli (args);

    g_test_message ("%s", bad->err);
    g_assert_cmpint (bad->status, ==, 1);
    g_assert_nonnull (strstr (bad->err, new_folded));
    g_assert_nonnull (strstr (bad->err, "is a file of folded stacks, which holds no summaries"));
    g_assert_false (g_file_test (made, G_FILE_TEST_EXISTS));
  }
  /* NEW a perf.data: imported into new.hotpath, which takes them */
  {
    const char *args[] = { "summary", new_folded, "--import", old, NULL };
    g_autoptr(ItResult) import = it_run_cli (args);

    g_test_message ("%s%s", import->out, import->err);
    g_assert_cmpint (import->status, ==, 0);
    g_assert_nonnull (strstr (import->err, "is a file of folded stacks, which cannot hold summaries: "
                                           "importing it into new.hotpath"));
    g_assert_nonnull (strstr (import->err, "2 of 2 summaries"));
    g_assert_nonnull (strstr (import->out, "placed (exact)  main → parse → lex"));
    g_assert_cmpint (hp_test_sql_int (made, "SELECT count(*) FROM summaries WHERE capture = 'old.hotpath'"), ==, 2);
  }
  /* again: new.hotpath is there, and may be of another recording */
  {
    const char *args[] = { "summary", new_folded, "--import", old, NULL };
    g_autoptr(ItResult) again = it_run_cli (args);

    g_test_message ("%s", again->err);
    g_assert_cmpint (again->status, ==, 1);
    g_assert_nonnull (strstr (again->err, "exists already"));
    g_assert_null (strstr (again->err, "perf.data"));
    g_assert_nonnull (strstr (again->err, "hotpath-cli summary new.hotpath --import "));
    g_assert_cmpint (hp_test_sql_int (made, "SELECT count(*) FROM summaries"), ==, 2);
  }

  /* the same file given to summary itself: a summary would go into the
   * import's cache and be lost, so it is refused, saying what to do; a
   * suggestion writes nothing, and is made */
  {
    const char *set_args[] = { "summary", new_folded, "main;run", "--set", "Lost.", NULL };
    const char *list_args[] = { "summary", new_folded, NULL };
    const char *suggest_args[] = { "summary", new_folded, "main;run", "--suggest", NULL };
    g_autoptr(ItResult) set = it_run_cli (set_args);
    g_autoptr(ItResult) list = it_run_cli (list_args);
    g_autoptr(ItResult) suggest = it_run_cli (suggest_args);

    g_test_message ("%s%s%s", set->err, list->err, suggest->err);
    g_assert_cmpint (set->status, ==, 1);
    g_assert_nonnull (strstr (set->err, "is a file of folded stacks, which cannot hold summaries"));
    g_assert_nonnull (strstr (set->err, "'hotpath-cli import "));
    g_assert_cmpint (list->status, ==, 1);
    g_assert_nonnull (strstr (list->err, "which holds no summaries"));
    g_assert_cmpint (suggest->status, ==, 0);
    g_assert_nonnull (strstr (suggest->out, "main → run"));
  }

  g_assert_cmpint (g_chdir (cwd), ==, 0);
  g_unsetenv ("XDG_DATA_HOME");
  it_tmpdir_free (g_steal_pointer (&dir));
}

/* OLD and NEW both hold more summaries than a list reads (10 000): all
 * of OLD is placed, and none over a different summary of NEW, though
 * NEW's first 10 000 (by path key) are elsewhere. Before, only OLD's
 * first 10 000 were read, and "already here" was judged from NEW's first
 * 10 000: its own summaries past them were overwritten. */
static void
test_import_many (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *old = g_build_filename (dir, "old.hotpath", NULL);
  g_autofree char *new = g_build_filename (dir, "new.hotpath", NULL);
  g_autofree char *xdg = g_build_filename (dir, "xdg", NULL);

  g_setenv ("XDG_DATA_HOME", xdg, TRUE);
  it_write_small_capture (old, NULL);
  it_write_small_capture (new, NULL);
  hp_test_sql (old, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 25000) "
                    "INSERT INTO summaries (path_key, path, text, created, updated) "
                    "SELECT printf ('k%06d', i), 'p', 'Old summary.', '', '' FROM n;");
  /* 10 000 keys before OLD's, then 3 000 of OLD's with another text and
   * 3 000 with the same */
  hp_test_sql (new, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000) "
                    "INSERT INTO summaries (path_key, path, text, created, updated) "
                    "SELECT printf ('a%06d', i), 'p', 'Own.', '', '' FROM n;"
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 6000) "
                    "INSERT INTO summaries (path_key, path, text, created, updated) "
                    "SELECT printf ('k%06d', i), 'p', CASE WHEN i <= 3000 THEN 'Other text.' ELSE 'Old summary.' END, "
                    "'', '' FROM n;");
  {
    const char *args[] = { "summary", new, "--import", old, NULL };
    g_autoptr(ItResult) r = it_run_cli (args);

    g_test_message ("%s", r->err);
    g_assert_cmpint (r->status, ==, 0);
    g_assert_nonnull (strstr (r->err, "0 of 25000 summaries"));
    g_assert_nonnull (strstr (r->err, "19000 not found in this capture"));
    g_assert_nonnull (strstr (r->err, "3000 already there"));
    g_assert_nonnull (strstr (r->err, "3000 not copied over a different summary"));
  }
  g_assert_cmpint (hp_test_sql_int (new, "SELECT count(*) FROM summaries WHERE text = 'Other text.'"), ==, 3000);
  g_assert_cmpint (hp_test_sql_int (new, "SELECT count(*) FROM summaries WHERE path_key LIKE 'k%'"), ==, 25000);
  g_assert_cmpint (hp_test_sql_int (new, "SELECT count(*) FROM summaries"), ==, 35000);
  g_unsetenv ("XDG_DATA_HOME");
  g_clear_pointer (&dir, it_tmpdir_free);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli-summary-import/across-rebuild", test_import_across_rebuild);
  g_test_add_func ("/cli-summary-import/rules", test_import_rules);
  g_test_add_func ("/cli-summary-import/hostile-library", test_hostile_library);
  g_test_add_func ("/cli-summary-import/perf-data", test_import_perf_data);
  g_test_add_func ("/cli-summary-import/many", test_import_many);
  return g_test_run ();
}
