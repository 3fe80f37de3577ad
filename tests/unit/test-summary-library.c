/* test-summary-library.c - the per-user summary library read as hostile input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * $XDG_DATA_HOME/hotpath/summaries.db is Hotpath's own file, but a file
 * all the same: anything may have written it. A library whose rows carry
 * SQL in their keys and programs, values of the wrong type, text that is
 * not UTF-8, shares out of range, a trigger and a view, and more rows
 * than a person writes must list only what a summary can be, run none of
 * its author's SQL when Hotpath writes into it, and keep its table.
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <sqlite3.h>
#include <glib/gstdio.h>

#include "store/hp-summary-library.h"
#include "test-common.h"

#define SQL_KEY "x'); DROP TABLE summaries; --"
#define SQL_PROGRAM "demo'; DELETE FROM summaries; --"

static void
sql (const char *path,
     const char *statement)
{
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, statement, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", statement, message);
  sqlite3_close (db);
}

static gint64
count (const char *path,
       const char *query)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 n = -1;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, query, -1, &stmt, NULL), ==, SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    n = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return n;
}

static const HpCaptureSummary *
find (GPtrArray  *rows,
      const char *key)
{
  for (guint i = 0; i < rows->len; i++)
    if (strcmp (((HpCaptureSummary *) rows->pdata[i])->path_key, key) == 0)
      return rows->pdata[i];
  return NULL;
}

static void
test_hostile_rows (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hotpath-library-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "hotpath", "summaries.db", NULL);
  g_autoptr(GError) error = NULL;

  /* made by Hotpath, then filled by someone else */
  {
    g_autoptr(HpSummaryLibrary) made = hp_summary_library_open (path, &error);

    g_assert_no_error (error);
  }
  sql (path,
       "INSERT INTO summaries VALUES ('demo', '" "x''); DROP TABLE summaries; --" "', 'p', 'SQL in the key.', "
       "  '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'a.hotpath', 1e308);"
       "INSERT INTO summaries VALUES ('demo''; DELETE FROM summaries; --', 'k', 'p', 'SQL in the program.', "
       "  'c', 'u', NULL, NULL);"
       "INSERT INTO summaries VALUES ('demo', X'6b6579', 'p', 'a key that is a blob', 'c', 'u', NULL, NULL);"
       "INSERT INTO summaries VALUES ('demo', 'blob', 'p', X'00ff', 'c', 'u', NULL, NULL);"
       "INSERT INTO summaries VALUES ('demo', 'utf8', X'ff41', CAST (X'41ff42' AS TEXT), 'c', 'u', "
       "  CAST (X'fe' AS TEXT), 'abc');"
       "INSERT INTO summaries VALUES ('demo', 'negative', 'p', 'below zero', 'c', 'u', NULL, -5);"
       "INSERT INTO summaries VALUES ('demo', 'fine', 'p', 'A share of 12.5.', 'c', 'u', 'b.hotpath', 12.5);"
       /* more rows than a person writes */
       "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12000) "
       "  INSERT INTO summaries SELECT 'many', 'key' || i, 'p', 'text', 'c', 'u', NULL, NULL FROM n;"
       /* a trigger that would wipe the library and plant a row, and a view */
       "CREATE TRIGGER wipe AFTER INSERT ON summaries BEGIN "
       "  DELETE FROM summaries; "
       "  INSERT INTO summaries VALUES ('demo', 'planted', 'p', 'pwned', 'c', 'u', NULL, NULL); END;"
       "CREATE TRIGGER keep BEFORE DELETE ON summaries BEGIN SELECT RAISE (ABORT, 'no'); END;"
       "CREATE VIEW everything AS SELECT * FROM summaries;");

  {
    g_autoptr(HpSummaryLibrary) library = hp_summary_library_open (path, &error);
    g_autoptr(GPtrArray) rows = NULL;
    g_autoptr(GPtrArray) many = NULL;
    g_autoptr(GPtrArray) other = NULL;
    const HpCaptureSummary *row;
    HpCaptureSummary edit = { 0 };

    g_assert_no_error (error);
    g_assert_nonnull (library);
    rows = hp_summary_library_list (library, "demo", &error);
    g_assert_no_error (error);

    /* the SQL is a key like any other, its absurd share unknown */
    row = find (rows, SQL_KEY);
    g_assert_nonnull (row);
    g_assert_cmpstr (row->text, ==, "SQL in the key.");
    g_assert_true (isnan (row->share));
    /* values that are not text are no summary */
    g_assert_null (find (rows, "key"));
    g_assert_null (find (rows, "blob"));
    /* text that is not UTF-8 is made valid, a share that is not a number unknown */
    row = find (rows, "utf8");
    g_assert_nonnull (row);
    g_assert_true (g_utf8_validate (row->text, -1, NULL));
    g_assert_true (g_utf8_validate (row->path, -1, NULL));
    g_assert_true (g_utf8_validate (row->capture, -1, NULL));
    g_assert_true (isnan (row->share));
    g_assert_true (isnan (find (rows, "negative")->share));
    g_assert_cmpfloat (find (rows, "fine")->share, ==, 12.5);
    g_assert_cmpuint (rows->len, ==, 4);
    /* the program is a value, never SQL */
    other = hp_summary_library_list (library, SQL_PROGRAM, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (other->len, ==, 1);
    g_assert_cmpstr (((HpCaptureSummary *) other->pdata[0])->text, ==, "SQL in the program.");
    /* at most the rows a person could have written */
    many = hp_summary_library_list (library, "many", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (many->len, <=, 10000);
    g_assert_cmpuint (many->len, >, 0);

    /* writing runs no trigger: the write and the delete both happen, and
     * nothing is planted */
    edit.path_key = (char *) SQL_KEY;
    edit.path = (char *) "main → x";
    edit.text = (char *) "Written by Hotpath.";
    edit.share = NAN;
    g_assert_true (hp_summary_library_put (library, SQL_PROGRAM, &edit, &error));
    g_assert_no_error (error);
    edit.text = (char *) "";
    g_assert_true (hp_summary_library_put (library, "demo", &edit, &error));
    g_assert_no_error (error);
  }
  g_assert_cmpint (count (path, "SELECT count(*) FROM summaries WHERE path_key = 'planted'"), ==, 0);
  g_assert_cmpint (count (path, "SELECT count(*) FROM summaries WHERE text = 'Written by Hotpath.' "
                                "AND program = 'demo''; DELETE FROM summaries; --'"), ==, 1);
  g_assert_cmpint (count (path, "SELECT count(*) FROM summaries WHERE program = 'demo' "
                                "AND path_key = 'x''); DROP TABLE summaries; --'"), ==, 0);
  g_assert_cmpint (count (path, "SELECT count(*) FROM summaries WHERE program = 'many'"), ==, 12000);

  hp_test_remove_tree (dir);
}

/* Values as long as the library's length limit lets SQLite hold, in rows
 * for one program: each is read as a capture's summary is, and the list
 * holds at most 64 MB of them. Before, every text was read whole, 10 000
 * rows of 16 MB each (160 GB) if the file held them. */
static void
test_huge_rows (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hotpath-library-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "hotpath", "summaries.db", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HpSummaryLibrary) library = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) many = NULL;
  const HpCaptureSummary *row;
  gsize bytes = 0;

  library = hp_summary_library_open (path, &error);
  g_assert_no_error (error);
  g_clear_pointer (&library, hp_summary_library_close);
  sql (path,
       "INSERT INTO summaries VALUES ('demo', 'long text', 'p', printf ('%.1000000c', 'x'), "
       "  printf ('%.1000000c', 'c'), printf ('%.1000000c', 'u'), printf ('%.1000000c', 'a'), NULL);"
       "INSERT INTO summaries VALUES ('demo', 'long key' || printf ('%.2000000c', 'k'), 'p', 't', 'c', 'u', NULL, NULL);"
       "INSERT INTO summaries VALUES ('demo', 'long path', printf ('%.2000000c', 'p'), 't', 'c', 'u', NULL, NULL);"
       "INSERT INTO summaries VALUES ('demo', 'short', 'p', 'A summary.', 'c', 'u', NULL, NULL);"
       "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) "
       "  INSERT INTO summaries SELECT 'big', 'key' || i, 'p', printf ('%.300000c', 'x'), 'c', 'u', NULL, NULL FROM n;");

  library = hp_summary_library_open (path, &error);
  g_assert_no_error (error);
  rows = hp_summary_library_list (library, "demo", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 2);
  row = find (rows, "long text");
  g_assert_nonnull (row);
  g_assert_cmpuint (strlen (row->text), <, 262144 + 100);
  g_assert_nonnull (strstr (row->text, "cut: Hotpath reads the first 262144 characters"));
  g_assert_cmpuint (strlen (row->created), <=, 64);
  g_assert_cmpuint (strlen (row->updated), <=, 64);
  g_assert_cmpuint (strlen (row->capture), <=, 4096);
  g_assert_cmpstr (find (rows, "short")->text, ==, "A summary.");

  /* 300 texts read as 256 Ki characters each are 77 MB: those past
   * 64 MB are left out */
  many = hp_summary_library_list (library, "big", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (many->len, >, 200);
  g_assert_cmpuint (many->len, <, 300);
  for (guint i = 0; i < many->len; i++)
    bytes += strlen (((HpCaptureSummary *) many->pdata[i])->text);
  g_assert_cmpuint (bytes, <=, 64 * 1024 * 1024);

  g_clear_pointer (&library, hp_summary_library_close);
  hp_test_remove_tree (dir);
}

/* What another program adds to the library's table, and what the
 * refusal says of it. */
static const char *const replaced[] = {
  ", pad BLOB DEFAULT (zeroblob (60000000))", "column \"pad\" of table summaries has the DEFAULT",
  ", CONSTRAINT nosy CHECK (text NOT LIKE '%password%')", "table summaries has the CHECK constraint \"nosy\"",
};

/* The library's table made again with @extra (a column or a constraint) */
static void
replace_table (const char *path,
               const char *extra)
{
  g_autofree char *statements = g_strdup_printf ("DROP TABLE summaries;"
                                                 "CREATE TABLE summaries (program TEXT NOT NULL, "
                                                 "  path_key TEXT NOT NULL, path TEXT NOT NULL, text TEXT NOT NULL, "
                                                 "  created TEXT NOT NULL, updated TEXT NOT NULL, capture TEXT, "
                                                 "  share REAL%s, PRIMARY KEY (program, path_key));", extra);

  sql (path, statements);
}

/* A library whose summaries table has a DEFAULT expression on a column
 * Hotpath does not write, or a CHECK: each summary mirrored into it would
 * run them (a DEFAULT of zeroblob (60000000) wrote 60 MB a summary). The
 * library is refused, naming the file, the table and the column. */
static void
test_check_and_default (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hotpath-library-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "hotpath", "summaries.db", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (replaced); i += 2)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HpSummaryLibrary) library = NULL;

      library = hp_summary_library_open (path, &error);
      g_assert_no_error (error);
      g_clear_pointer (&library, hp_summary_library_close);
      replace_table (path, replaced[i]);
      library = hp_summary_library_open (path, &error);
      g_assert_null (library);
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message, path));
      g_assert_nonnull (strstr (error->message, replaced[i + 1]));
      g_unlink (path);
    }
  hp_test_remove_tree (dir);
}

/* The same, done by another program after the library was opened: the
 * next write checks the file again in its own transaction and is
 * refused, naming what it found, with nothing written. */
static void
test_changed_after_open (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hotpath-library-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "hotpath", "summaries.db", NULL);
  HpCaptureSummary summary = { .path_key = (char *) "main", .path = (char *) "main",
                               .text = (char *) "the loop", .share = NAN };

  for (guint i = 0; i < G_N_ELEMENTS (replaced); i += 2)
    for (guint all = 0; all < 2; all++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(HpSummaryLibrary) library = NULL;
        g_autoptr(GPtrArray) summaries = g_ptr_array_new ();
          gboolean ok;

        library = hp_summary_library_open (path, &error);
        g_assert_no_error (error);
        g_assert_true (hp_summary_library_put (library, "demo", &summary, &error));
        g_assert_no_error (error);
        replace_table (path, replaced[i]);
        g_ptr_array_add (summaries, &summary);
        if (all)
          ok = hp_summary_library_put_all (library, "demo", summaries, FALSE, &error);
        else
          ok = hp_summary_library_put (library, "demo", &summary, &error);
        g_assert_false (ok);
        g_assert_nonnull (error);
        g_test_message ("%s", error->message);
        g_assert_true (g_str_has_prefix (error->message, path));
        g_assert_nonnull (strstr (error->message, replaced[i + 1]));
        g_assert_cmpint (count (path, "SELECT count(*) FROM summaries"), ==, 0);
        g_clear_pointer (&library, hp_summary_library_close);
        g_unlink (path);
      }
  hp_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/summary-library/hostile-rows", test_hostile_rows);
  g_test_add_func ("/summary-library/huge-rows", test_huge_rows);
  g_test_add_func ("/summary-library/check-and-default", test_check_and_default);
  g_test_add_func ("/summary-library/changed-after-open", test_changed_after_open);
  return g_test_run ();
}
