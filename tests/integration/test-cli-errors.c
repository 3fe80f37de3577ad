/* test-cli-errors.c - bad input gets one clear line, a non-zero exit and no file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The contract of issue 2: a command that does not exist, an output path
 * that cannot be written, an existing output file without --force, a file
 * that is not a capture or is of a newer format each end with a non-zero
 * exit, one line on stderr, and no half-written output file.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#include "integration-common.h"

static void
assert_one_error_line (const ItResult *result)
{
  g_assert_cmpint (result->status, !=, 0);
  /* Not a crash: a signal shows as 128 + n. */
  g_assert_cmpint (result->status, <, 128);
  g_assert_cmpuint (it_count_lines (result->err), ==, 1);
  {
    g_autofree char *line = g_strstrip (g_strdup (result->err));
    g_assert_cmpuint (strlen (line), >, 10);
  }
}

static void
assert_no_output (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_error ("a failed record left %s/%s behind", dir, name);
}

/* --help calls what each command reads by one word, the project's: a
 * capture (ARCHITECTURE.md), not FILE in one and CAPTURE in another */
static void
test_help_words (void)
{
  static const char * const commands[] = { "report", "flamegraph", "export", "summary" };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      const char *args[] = { commands[i], "--help", NULL };
      g_autoptr(ItResult) result = it_run_cli (args);
      /* "[OPTION…]" is "[OPTION?]" in a locale without "…" */
      g_autofree char *usage = g_strdup_printf ("^  hotpath-cli %s \\[OPTION.*\\] CAPTURE( \\[PATH\\])?$", commands[i]);

      g_assert_cmpint (result->status, ==, 0);
      if (!g_regex_match_simple (usage, result->out, G_REGEX_MULTILINE, 0))
        g_error ("no line matching \"%s\" in:\n%s", usage, result->out);
    }
}

static void
test_missing_command (void)
{
  g_autofree char *tmpdir = it_tmpdir_new ();
  g_autofree char *out = g_build_filename (tmpdir, "missing.hotpath", NULL);
  const char *args[] = { "record", "-o", out, "--",
                         "/nonexistent/hotpath-no-such-program", NULL };
  g_autoptr(ItResult) result = NULL;

  if (!it_require_perf_events ())
    {
      g_clear_pointer (&tmpdir, it_tmpdir_free);
      return;
    }
  result = it_run_cli (args);
  assert_one_error_line (result);
  /* The message names what was not found. */
  g_assert_nonnull (strstr (result->err, "hotpath-no-such-program"));
  assert_no_output (tmpdir);
  g_clear_pointer (&tmpdir, it_tmpdir_free);
}

/* A file that is there but not executable is named as such, not "command
 * not found"; so is a folder. */
static void
test_not_executable_command (void)
{
  g_autofree char *tmpdir = it_tmpdir_new ();
  g_autofree char *outdir = g_build_filename (tmpdir, "out", NULL);
  g_autofree char *out = g_build_filename (outdir, "x.hotpath", NULL);
  g_autofree char *script = g_build_filename (tmpdir, "not-executable.sh", NULL);
  g_autoptr(ItResult) result = NULL;
  g_autoptr(ItResult) folder = NULL;

  g_assert_cmpint (g_mkdir (outdir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (script, "#!/bin/sh\nexit 0\n", -1, NULL));
  g_assert_cmpint (g_chmod (script, 0644), ==, 0);
  {
    const char *args[] = { "record", "-o", out, "--", script, NULL };
    result = it_run_cli (args);
  }
  assert_one_error_line (result);
  g_assert_nonnull (strstr (result->err, "not-executable.sh"));
  g_assert_null (strstr (result->err, "not found"));
  g_assert_nonnull (strstr (result->err, "not executable"));
  {
    const char *args[] = { "record", "-o", out, "--", tmpdir, NULL };
    folder = it_run_cli (args);
  }
  assert_one_error_line (folder);
  g_assert_nonnull (strstr (folder->err, "folder"));
  assert_no_output (outdir);
  g_clear_pointer (&tmpdir, it_tmpdir_free);
}

/* An -o that names a folder is said to be one by every command that
 * writes a file: not "exists; use --force" (which --force then refuses
 * too), nor GLib's words about a temporary file renamed over it. The
 * folder and what it holds are left alone. */
static void
test_output_folder (void)
{
  g_autofree char *tmpdir = it_tmpdir_new ();
  g_autofree char *folder = g_build_filename (tmpdir, "out", NULL);
  g_autofree char *inside = g_build_filename (folder, "keep", NULL);
  g_autofree char *capture = g_build_filename (tmpdir, "small.hotpath", NULL);
  g_autofree char *folded = g_build_filename (tmpdir, "stacks.folded", NULL);
  const char *record[] = { "record", "-o", folder, "--", "true", NULL };
  const char *record_force[] = { "record", "--force", "-o", folder, "--", "true", NULL };
  const char *import[] = { "import", folded, "-o", folder, NULL };
  const char *import_force[] = { "import", "--force", folded, "-o", folder, NULL };
  const char *flamegraph[] = { "flamegraph", capture, "-o", folder, NULL };
  const char *export[] = { "export", capture, "--format", "folded", "-o", folder, NULL };
  const char *const *commands[] = { record, record_force, import, import_force, flamegraph, export };

  g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
  g_assert_true (g_file_set_contents (inside, "keep me\n", -1, NULL));
  g_assert_true (g_file_set_contents (folded, "main;work 10\n", -1, NULL));
  it_write_small_capture (capture, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autoptr(ItResult) result = it_run_cli (commands[i]);
      g_autofree char *said = g_strdup_printf ("%s is a folder", folder);
      g_autofree char *contents = NULL;
      g_autoptr(GDir) dir = NULL;
      guint n = 0;

      g_test_message ("%s: %s", commands[i][0], result->err);
      assert_one_error_line (result);
      g_assert_nonnull (strstr (result->err, said));
      g_assert_null (strstr (result->err, "--force"));
      g_assert_true (g_file_get_contents (inside, &contents, NULL, NULL));
      g_assert_cmpstr (contents, ==, "keep me\n");
      dir = g_dir_open (tmpdir, 0, NULL);
      while (g_dir_read_name (dir) != NULL)
        n++;
      /* out, small.hotpath, stacks.folded: no temporary file left */
      g_assert_cmpuint (n, ==, 3);
    }
  g_clear_pointer (&tmpdir, it_tmpdir_free);
}

/* --duration nan is no duration. */
static void
test_duration_nan (void)
{
  g_autofree char *tmpdir = it_tmpdir_new ();
  g_autofree char *out = g_build_filename (tmpdir, "nan.hotpath", NULL);
  g_autoptr(ItResult) result = NULL;
  const char *args[] = { "record", "--duration", "nan", "-o", out, "--", "true", NULL };

  result = it_run_cli (args);
  assert_one_error_line (result);
  g_assert_nonnull (strstr (result->err, "--duration"));
  assert_no_output (tmpdir);
  g_clear_pointer (&tmpdir, it_tmpdir_free);
}

static void
test_unwritable_output (void)
{
  g_autofree char *tmpdir = it_tmpdir_new ();
  g_autofree char *out = g_build_filename (tmpdir, "no-such-dir", "x.hotpath", NULL);
  g_autofree char *program = it_workload_path ("paths-fp");
  const char *args[] = { "record", "-o", out, "--", program, "1", NULL };
  g_autoptr(ItResult) result = it_run_cli (args);

  assert_one_error_line (result);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  assert_no_output (tmpdir);
  g_clear_pointer (&tmpdir, it_tmpdir_free);
}

static void
test_existing_output (void)
{
  g_autofree char *tmpdir = it_tmpdir_new ();
  g_autofree char *out = g_build_filename (tmpdir, "existing.hotpath", NULL);
  g_autofree char *program = it_workload_path ("paths-fp");
  const char *args[] = { "record", "-o", out, "--", program, "10", NULL };
  const char *force_args[] = { "record", "--force", "-o", out, "--", program, "10", NULL };
  g_autoptr(ItResult) result = NULL;
  g_autoptr(ItResult) forced = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  HpCapture *capture;

  g_assert_true (g_file_set_contents (out, "keep me\n", -1, NULL));
  result = it_run_cli (args);
  assert_one_error_line (result);
  g_assert_nonnull (strstr (result->err, "--force"));
  g_assert_true (g_file_get_contents (out, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "keep me\n");

  if (!it_require_perf_events ())
    {
      g_clear_pointer (&tmpdir, it_tmpdir_free);
      return;
    }
  forced = it_run_cli (force_args);
  g_assert_cmpint (forced->status, ==, 0);
  capture = hp_capture_open (out, FALSE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (capture);
  hp_capture_close (capture);
  g_clear_pointer (&tmpdir, it_tmpdir_free);
}

static void
test_report_not_a_capture (void)
{
  g_autofree char *tmpdir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (tmpdir, "notes.hotpath", NULL);
  g_autofree char *missing = g_build_filename (tmpdir, "missing.hotpath", NULL);
  const char *args[] = { "report", path, NULL };
  const char *missing_args[] = { "report", missing, NULL };
  g_autoptr(ItResult) result = NULL;
  g_autoptr(ItResult) missing_result = NULL;
  g_autofree char *contents = NULL;

  g_assert_true (g_file_set_contents (path, "this is not a capture\n", -1, NULL));
  result = it_run_cli (args);
  assert_one_error_line (result);
  /* The message names the file; the file is left alone. */
  g_assert_nonnull (strstr (result->err, "notes.hotpath"));
  g_assert_cmpstr (result->out, ==, "");
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "this is not a capture\n");

  missing_result = it_run_cli (missing_args);
  assert_one_error_line (missing_result);
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));

  g_clear_pointer (&tmpdir, it_tmpdir_free);
}

/* A SQLite file that is not Hotpath's, and a capture of a newer format. */
static void
test_report_foreign_and_newer (void)
{
  g_autofree char *tmpdir = it_tmpdir_new ();
  g_autofree char *foreign = g_build_filename (tmpdir, "foreign.db", NULL);
  g_autofree char *newer = g_build_filename (tmpdir, "newer.hotpath", NULL);
  const char *foreign_args[] = { "report", foreign, NULL };
  const char *newer_args[] = { "report", newer, NULL };
  g_autoptr(ItResult) result = NULL;
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (foreign, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "CREATE TABLE t (x); INSERT INTO t VALUES (1);",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  result = it_run_cli (foreign_args);
  assert_one_error_line (result);
  g_assert_nonnull (strstr (result->err, "foreign.db"));
  g_clear_pointer (&result, it_result_free);

  if (!it_require_perf_events ())
    {
      g_clear_pointer (&tmpdir, it_tmpdir_free);
      return;
    }
  {
    g_autofree char *program = it_workload_path ("paths-fp");
    const char *record_args[] = { "record", "-o", newer, "--", program, "10", NULL };
    g_autoptr(ItResult) recorded = it_run_cli (record_args);
    int version = 0;
    sqlite3_stmt *stmt = NULL;

    g_assert_cmpint (recorded->status, ==, 0);
    g_assert_cmpint (sqlite3_open (newer, &db), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &stmt, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
    version = sqlite3_column_int (stmt, 0);
    sqlite3_finalize (stmt);
    /* A recorded capture carries its format version. */
    g_assert_cmpint (version, >, 0);
    {
      g_autofree char *sql = g_strdup_printf ("PRAGMA user_version = %d", version + 1);
      g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
    }
    sqlite3_close (db);

    result = it_run_cli (newer_args);
    assert_one_error_line (result);
    g_assert_nonnull (strstr (result->err, "newer.hotpath"));
    g_assert_nonnull (strstr (result->err, "version"));
  }
  g_clear_pointer (&tmpdir, it_tmpdir_free);
}

/* A capture given to import is named as one, with what to do instead: not
 * read as a perf.data with a wrong magic number, nor taken as its own
 * output ("app.hotpath exists"), nor overwritten with --force. Another
 * SQLite file is named as a database. */
static void
test_import_a_capture (void)
{
  g_autofree char *tmpdir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (tmpdir, "app.hotpath", NULL);
  g_autofree char *foreign = g_build_filename (tmpdir, "places.sqlite", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  gsize before_len = 0, after_len = 0;
  sqlite3 *db = NULL;

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (capture, &error);
    gint64 module, stack;

    g_assert_no_error (error);
    module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
    stack = hp_capture_writer_intern_stack (w, 0,
              hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "main", module, NULL, 0),
                                              NULL, 0, FALSE, 0x10));
    hp_capture_writer_add_sample (w, 1000, 1, 0, stack, 1);
    g_assert_true (hp_capture_writer_finish (w, &error));
  }
  g_assert_true (g_file_get_contents (capture, &before, &before_len, NULL));

  for (guint force = 0; force < 2; force++)
    {
      const char *args[] = { "import", capture, force ? "--force" : NULL, NULL };
      g_autoptr(ItResult) result = it_run_cli (args);

      assert_one_error_line (result);
      g_assert_nonnull (strstr (result->err, "app.hotpath is already a Hotpath capture"));
      g_assert_nonnull (strstr (result->err, "hotpath-cli report"));
      g_assert_null (strstr (result->err, "magic"));
      g_assert_null (strstr (result->err, "exists"));
    }
  /* with -o elsewhere too, and nothing written there */
  {
    g_autofree char *out = g_build_filename (tmpdir, "copy.hotpath", NULL);
    const char *args[] = { "import", capture, "-o", out, NULL };
    g_autoptr(ItResult) result = it_run_cli (args);

    assert_one_error_line (result);
    g_assert_nonnull (strstr (result->err, "already a Hotpath capture"));
    g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  }
  g_assert_true (g_file_get_contents (capture, &after, &after_len, NULL));
  g_assert_cmpmem (before, before_len, after, after_len);

  g_assert_cmpint (sqlite3_open (foreign, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "CREATE TABLE t (x); INSERT INTO t VALUES (1);",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  {
    const char *args[] = { "import", foreign, NULL };
    g_autoptr(ItResult) result = it_run_cli (args);

    assert_one_error_line (result);
    g_assert_nonnull (strstr (result->err, "places.sqlite is a SQLite database"));
    g_assert_null (strstr (result->err, "magic"));
  }
  g_clear_pointer (&tmpdir, it_tmpdir_free);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/cli/help-words", test_help_words);
  g_test_add_func ("/integration/cli/missing-command", test_missing_command);
  g_test_add_func ("/integration/cli/not-executable-command", test_not_executable_command);
  g_test_add_func ("/integration/cli/duration-nan", test_duration_nan);
  g_test_add_func ("/integration/cli/unwritable-output", test_unwritable_output);
  g_test_add_func ("/integration/cli/existing-output", test_existing_output);
  g_test_add_func ("/integration/cli/output-folder", test_output_folder);
  g_test_add_func ("/integration/cli/report-not-a-capture", test_report_not_a_capture);
  g_test_add_func ("/integration/cli/report-foreign-and-newer", test_report_foreign_and_newer);
  g_test_add_func ("/integration/cli/import-a-capture", test_import_a_capture);
  return g_test_run ();
}
