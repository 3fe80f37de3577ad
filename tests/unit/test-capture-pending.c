/* test-capture-pending.c - adding the samples that waited for another program's lock
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A writer whose capture another connection holds locked (BEGIN
 * EXCLUSIVE) keeps its rows in NAME.pending.sql; freed without finishing
 * (as a recorder that was killed leaves it), the file stays. The rows
 * it holds are known by construction: hp_capture_add_pending() adds
 * exactly those, and refuses a file that holds anything else, adding
 * nothing: the file may come from anyone.
 */

#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "store/hp-capture-pending.h"
#include "store/hp-capture-writer.h"
#include "../common/test-common.h"

static char *
make_capture_with_pending (HpTestScratch *fx)
{
  hp_test_make_pending_capture (fx->path);
  return g_strconcat (fx->path, ".pending.sql", NULL);
}

static void
test_add (HpTestScratch *fx,
          gconstpointer  data)
{
  g_autofree char *pending = make_capture_with_pending (fx);
  g_autoptr(GPtrArray) found = hp_capture_list_pending (fx->path);
  g_autoptr(GError) error = NULL;
  guint64 n = 0;

  g_assert_cmpuint (found->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (found, 0), ==, pending);
  g_assert_true (hp_capture_check_pending (pending, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 5);

  n = 0;
  g_assert_true (hp_capture_add_pending (fx->path, pending, NULL, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 5);
  g_assert_false (g_file_test (pending, G_FILE_TEST_EXISTS));
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM samples"), ==, 15);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM functions WHERE name = 'it''s\nwaited'"), ==, 1);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM samples s JOIN stacks t ON s.stack_id = t.id "
                                              "JOIN frames f ON t.frame_id = f.id WHERE f.line = 21"), ==, 5);
}

/* Each replaces one line of a valid file; none may add anything. */
static const char *const hostile[] = {
  ".shell touch /tmp/hotpath-pwned\n",
  "DROP TABLE samples;\n",
  "DELETE FROM samples;\n",
  "INSERT INTO samples (time, tid, cpu, stack_id, weight, event_id) VALUES (1, 42, 0, 1, 1, 1); DELETE FROM samples;\n",
  "INSERT INTO samples (time, tid, cpu, stack_id, weight, event_id) VALUES ((SELECT 1), 42, 0, 1, 1, 1);\n",
  "INSERT INTO samples (time, tid, cpu, stack_id, weight, event_id) VALUES (1, 42, 0, 1, 1, load_extension('x'));\n",
  "INSERT INTO samples (time, tid, cpu, stack_id, weight, event_id) VALUES (1, 42, 0, 1, 1, 1) RETURNING *;\n",
  "INSERT INTO samples (time, tid, cpu, stack_id, weight, event_id) VALUES (99999999999999999999, 42, 0, 1, 1, 1);\n",
  "INSERT OR REPLACE INTO metadata (key, value) VALUES ('complete', '1');\n",
  "INSERT OR REPLACE INTO metadata (key, value) VALUES ('a', 'unterminated);\n",
  "ATTACH DATABASE '/tmp/x' AS x;\n",
  "COMMIT;\nDELETE FROM samples;\nBEGIN;\n",
};

static void
test_hostile (HpTestScratch *fx,
              gconstpointer  data)
{
  g_autofree char *pending = make_capture_with_pending (fx);
  g_autofree char *good = NULL;
  g_autofree char *marker = g_build_filename (fx->dir, "pwned", NULL);

  g_assert_true (g_file_get_contents (pending, &good, NULL, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (hostile) + 1; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GString) text = g_string_new (good);
      char *last = strstr (text->str, "COMMIT;\n");

      g_assert_nonnull (last);
      if (i < G_N_ELEMENTS (hostile))
        g_string_insert (text, last - text->str, hostile[i]);
      else
        /* cut short: a recorder killed as it wrote the file */
        g_string_truncate (text, last - text->str);
      g_assert_true (g_file_set_contents (pending, text->str, -1, NULL));
      g_assert_false (hp_capture_check_pending (pending, NULL, &error));
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, pending));
      g_clear_error (&error);
      g_assert_false (hp_capture_add_pending (fx->path, pending, NULL, NULL, &error));
      g_assert_nonnull (error);
      g_assert_true (g_file_test (pending, G_FILE_TEST_EXISTS));
      g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM samples"), ==, 10);
      g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM metadata WHERE key = 'complete'"), ==, 0);
    }
  g_assert_false (g_file_test ("/tmp/hotpath-pwned", G_FILE_TEST_EXISTS));

  /* the same file, whole again, is added */
  g_assert_true (g_file_set_contents (pending, good, -1, NULL));
  g_assert_true (hp_capture_add_pending (fx->path, pending, NULL, NULL, NULL));
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM samples"), ==, 15);
  /* twice: refused, by the rows already there, and nothing is added */
  g_assert_true (g_file_set_contents (pending, good, -1, NULL));
  g_assert_false (hp_capture_add_pending (fx->path, pending, NULL, NULL, NULL));
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM samples"), ==, 15);
}

/* Statements of the writer's, each, whose values the capture reader
 * refuses: added, they left the capture's ten samples unreadable and
 * removed the file. Each must be refused, adding nothing. */
static const char *const unreadable[] = {
  /* its own parent */
  "INSERT INTO stacks (id, parent_id, frame_id) VALUES (3, 3, 2);\n",
  /* a parent after it */
  "INSERT INTO stacks (id, parent_id, frame_id) VALUES (3, 4, 2);\n"
  "INSERT INTO stacks (id, parent_id, frame_id) VALUES (4, 3, 2);\n",
  /* a frame of the capture moved to a function that is not there */
  "UPDATE frames SET function_id = 99, file = NULL, line = 1, tier = NULL WHERE id = 1;\n",
  "INSERT INTO samples (time, tid, cpu, stack_id, weight, event_id) VALUES (3000, 42, 1, 2, -1, 1);\n",
  "INSERT INTO samples (time, tid, cpu, stack_id, weight, event_id) VALUES (3000, 42, 1, 77, 1, 1);\n",
};

static void
test_unreadable_rows (HpTestScratch *fx,
                      gconstpointer  data)
{
  g_autofree char *pending = make_capture_with_pending (fx);
  g_autofree char *good = NULL;

  g_assert_true (g_file_get_contents (pending, &good, NULL, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (unreadable); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GString) text = g_string_new (good);
      g_autoptr(HpCapture) capture = NULL;
      g_autoptr(HpCaptureData) loaded = NULL;
      char *last = strstr (text->str, "COMMIT;\n");

      g_string_insert (text, last - text->str, unreadable[i]);
      g_assert_true (g_file_set_contents (pending, text->str, -1, NULL));
      /* each line is one the recorder writes */
      g_assert_true (hp_capture_check_pending (pending, NULL, NULL));
      g_assert_false (hp_capture_add_pending (fx->path, pending, NULL, NULL, &error));
      g_assert_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, pending));
      g_assert_nonnull (strstr (error->message, "nothing in the file was added"));
      g_assert_true (g_file_test (pending, G_FILE_TEST_EXISTS));
      capture = hp_capture_open (fx->path, FALSE, NULL);
      g_assert_nonnull (capture);
      loaded = hp_capture_load (capture, NULL);
      g_assert_nonnull (loaded);
      g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM samples"), ==, 10);
      g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM stacks"), ==, 1);
      g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT function_id FROM frames WHERE id = 1"), ==, 1);
    }

  /* the good rows with them are added once they are gone */
  g_assert_true (g_file_set_contents (pending, good, -1, NULL));
  g_assert_true (hp_capture_add_pending (fx->path, pending, NULL, NULL, NULL));
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM samples"), ==, 15);
}

/* An empty file (a recorder killed before its first spill wrote a
 * byte) holds no sample: checked and added as nothing, and removed. It
 * maps to NULL, from which the reader once took its end as NULL + 0,
 * undefined in C (run-pending.sh's first input, under UBSan). */
static void
test_empty (HpTestScratch *fx,
            gconstpointer  data)
{
  g_autofree char *pending = make_capture_with_pending (fx);
  g_autoptr(GError) error = NULL;
  guint64 n = 99;

  g_assert_true (g_file_set_contents (pending, "", 0, NULL));
  g_assert_true (hp_capture_check_pending (pending, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 0);
  n = 99;
  g_assert_true (hp_capture_add_pending (fx->path, pending, NULL, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 0);
  g_assert_false (g_file_test (pending, G_FILE_TEST_EXISTS));
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM samples"), ==, 10);
}

/* NAME.pending-2.sql, the writer's name when NAME.pending.sql was taken,
 * is found too; other names are not. */
static void
test_list (HpTestScratch *fx,
           gconstpointer  data)
{
  const char *names[] = { "test.hotpath.pending.sql", "test.hotpath.pending-2.sql", "test.hotpath.pending-x.sql",
                          "test.hotpath.pending-.sql", "other.hotpath.pending.sql", "test.hotpath.pending.sql.bak" };
  g_autoptr(GPtrArray) found = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *p = g_build_filename (fx->dir, names[i], NULL);

      g_assert_true (g_file_set_contents (p, "", 0, NULL));
    }
  found = hp_capture_list_pending (fx->path);
  g_assert_cmpuint (found->len, ==, 2);
  g_assert_true (g_str_has_suffix (g_ptr_array_index (found, 0), "/test.hotpath.pending-2.sql"));
  g_assert_true (g_str_has_suffix (g_ptr_array_index (found, 1), "/test.hotpath.pending.sql"));
}

static HpCaptureWriter *
writer_with_samples (HpTestScratch *fx)
{
  g_autoptr(GError) error = NULL;
  HpCaptureWriter *w = hp_capture_writer_new (fx->path, &error);
  gint64 m, f, fr, s;

  g_assert_no_error (error);
  m = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  f = hp_capture_writer_intern_function (w, "main", m, "app.c", 10);
  fr = hp_capture_writer_intern_frame (w, f, "app.c", 12, FALSE, 0x100);
  s = hp_capture_writer_intern_stack (w, 0, fr);
  hp_capture_writer_set_thread (w, 42, 42, "app");
  for (guint i = 0; i < 10; i++)
    hp_capture_writer_add_sample (w, 1000 + i, 42, 0, s, 1);
  g_assert_true (hp_capture_writer_flush (w, &error));
  return w;
}

/* finish() gives up on a lock held past its wait: the error says how
 * many samples wait where, in words that fit the number ("the 0
 * samples" was said when only the capture's end waited). @n samples
 * wait. */
static void
give_up (HpTestScratch *fx,
         guint          n)
{
  HpCaptureWriter *w = writer_with_samples (fx);
  g_autofree char *pending = g_strconcat (fx->path, ".pending.sql", NULL);
  g_autoptr(GError) error = NULL;
  sqlite3 *holder = NULL;

  g_assert_cmpint (sqlite3_open (fx->path, &holder), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (holder, "BEGIN EXCLUSIVE", NULL, NULL, NULL), ==, SQLITE_OK);
  for (guint i = 0; i < n; i++)
    hp_capture_writer_add_sample (w, 5000 + i, 42, 0, 1, 1);
  hp_capture_writer_set_finish_wait (w, 300);
  g_assert_false (hp_capture_writer_finish (w, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_null (strstr (error->message, "the 0 sample"));
  if (n == 0)
    {
      g_assert_nonnull (strstr (error->message, "every sample is written"));
      g_assert_false (g_file_test (pending, G_FILE_TEST_EXISTS));
    }
  else
    {
      g_autofree char *said = g_strdup_printf (n == 1 ? "the %u sample that waited for it is kept in %s"
                                                      : "the %u samples that waited for it are kept in %s", n, pending);

      g_assert_nonnull (strstr (error->message, said));
      g_assert_nonnull (strstr (error->message, "hotpath-cli add-pending"));
    }
  hp_capture_writer_free (w);
  g_assert_cmpint (sqlite3_exec (holder, "COMMIT", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (holder);
  if (n > 0)
    {
      guint64 added = 0;

      g_clear_error (&error);
      g_assert_true (hp_capture_add_pending (fx->path, pending, NULL, &added, &error));
      g_assert_cmpuint (added, ==, n);
      g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM samples"), ==, 10 + n);
    }
}

static void
test_give_up_none (HpTestScratch *fx,
                   gconstpointer  data)
{
  give_up (fx, 0);
}

static void
test_give_up_one (HpTestScratch *fx,
                  gconstpointer  data)
{
  give_up (fx, 1);
}

static void
test_give_up_some (HpTestScratch *fx,
                   gconstpointer  data)
{
  give_up (fx, 3);
}

static char *
in_dir (HpTestScratch *fx,
        const char    *name)
{
  return g_build_filename (fx->dir, name, NULL);
}

/* A part that replaces a capture takes its pending files along, under
 * the capture's name, NAME.pending-N.sql too; the old capture's go. */
static void
test_replace_moves (HpTestScratch *fx,
                    gconstpointer  data)
{
  g_autofree char *part = in_dir (fx, "test.hotpath.4242.part");
  const char *suffixes[] = { ".pending.sql", ".pending-2.sql" };
  g_autofree char *old_pending = g_strconcat (fx->path, ".pending.sql", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (fx->path, "old", -1, NULL));
  g_assert_true (g_file_set_contents (old_pending, "old's", -1, NULL));
  g_assert_true (g_file_set_contents (part, "new", -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *p = g_strconcat (part, suffixes[i], NULL);

      g_assert_true (g_file_set_contents (p, suffixes[i], -1, NULL));
    }
  g_assert_true (hp_capture_writer_replace (part, fx->path, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *from = g_strconcat (part, suffixes[i], NULL);
      g_autofree char *to = g_strconcat (fx->path, suffixes[i], NULL);
      g_autofree char *text = NULL;

      g_assert_false (g_file_test (from, G_FILE_TEST_EXISTS));
      g_assert_true (g_file_get_contents (to, &text, NULL, NULL));
      g_assert_cmpstr (text, ==, suffixes[i]);
    }
}

/* record --force killed while another program held the lock from the
 * part's creation: no sample is in the part, all of them are in
 * NAME.PID.part.pending.sql. The next writer in the folder keeps the
 * part as NAME.cut-short.hotpath with its pending file beside it, and
 * says so, rather than remove the part and leave the file orphaned. */
static void
test_stale_part_pending (HpTestScratch *fx,
                         gconstpointer  data)
{
  /* a PID no process has (above the kernel's pid_max) */
  g_autofree char *part = in_dir (fx, "test.hotpath.2147483000.part");
  g_autofree char *part_pending = g_strconcat (part, ".pending.sql", NULL);
  g_autofree char *kept = in_dir (fx, "test.cut-short.hotpath");
  g_autofree char *kept_pending = g_strconcat (kept, ".pending.sql", NULL);
  g_autoptr(GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  HpCaptureWriter *w = hp_capture_writer_new (part, &error);

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "command", "./app");
  g_assert_true (hp_capture_writer_flush (w, &error));
  hp_capture_writer_free (w);
  g_assert_true (g_file_set_contents (part_pending, "BEGIN;\nCOMMIT;\n", -1, NULL));

  hp_capture_writer_remove_stale_parts (fx->path, said);
  g_assert_cmpuint (said->len, ==, 1);
  g_test_message ("%s", (const char *) g_ptr_array_index (said, 0));
  g_assert_false (g_file_test (part, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (part_pending, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (kept, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (kept_pending, G_FILE_TEST_IS_REGULAR));
  g_assert_nonnull (strstr (g_ptr_array_index (said, 0), kept_pending));
  g_assert_nonnull (strstr (g_ptr_array_index (said, 0), "hotpath-cli add-pending"));
}

/* Another program changes the capture between its opening (where it is
 * checked) and the write: each change must be seen in the write's own
 * transaction, and nothing added. */
typedef enum {
  CHANGE_TRIGGER,   /* a trigger added: refused by the schema check */
  CHANGE_FINISHED,  /* its recorder finished it: totals written */
  CHANGE_SWAPPED,   /* a copy renamed over it */
} Change;

static Change change;

static void
change_capture (const char *path)
{
  g_autofree char *copy = g_strconcat (path, ".copy", NULL);
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  switch (change)
    {
    case CHANGE_TRIGGER:
      g_assert_cmpint (sqlite3_exec (db, "CREATE TRIGGER t AFTER INSERT ON samples BEGIN "
                                         "DELETE FROM samples; END", NULL, NULL, NULL), ==, SQLITE_OK);
      break;
    case CHANGE_FINISHED:
      g_assert_cmpint (sqlite3_exec (db, "INSERT OR REPLACE INTO metadata (key, value) VALUES ('complete', '1')",
                                     NULL, NULL, NULL), ==, SQLITE_OK);
      break;
    case CHANGE_SWAPPED:
    default:
      {
        char *sql = sqlite3_mprintf ("VACUUM INTO %Q", copy);

        g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
        sqlite3_free (sql);
        g_assert_cmpint (g_rename (copy, path), ==, 0);
      }
      break;
    }
  sqlite3_close (db);
}

static void
test_changed_before_write (HpTestScratch *fx,
                           gconstpointer  data)
{
  static const char *const said[] = {
    [CHANGE_TRIGGER] = "trigger",
    [CHANGE_FINISHED] = "finished",
    [CHANGE_SWAPPED] = "replaced",
  };
  g_autofree char *pending = make_capture_with_pending (fx);
  g_autoptr(GError) error = NULL;

  change = GPOINTER_TO_UINT (data);
  hp_capture_pending_set_before_write_for_testing (change_capture);
  g_assert_false (hp_capture_add_pending (fx->path, pending, NULL, NULL, &error));
  hp_capture_pending_set_before_write_for_testing (NULL);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, fx->path));
  g_assert_nonnull (strstr (error->message, said[change]));
  g_assert_true (g_file_test (pending, G_FILE_TEST_IS_REGULAR));
  /* the file at the name now: nothing added to it */
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM samples"), ==, 10);
  g_assert_cmpint (hp_test_sql_int (fx->path, "SELECT count(*) FROM functions"), ==, 1);
}

/* Only NAME.PID.part.pending.sql (and -2) are left of a dead writer's
 * part: the cleanup finds them by the part's name and says, for each,
 * what it is and how to add it, and removes neither; those of a running
 * writer (this process) and other names are left alone, unsaid. */
static void
test_stale_pending_only (HpTestScratch *fx,
                         gconstpointer  data)
{
  /* a PID no process has (above the kernel's pid_max) */
  g_autofree char *part = in_dir (fx, "test.hotpath.2147483000.part");
  g_autofree char *running = hp_capture_writer_part_path (fx->path);
  const char *const files[] = { ".pending.sql", ".pending-2.sql" };
  const char *const others[] = { ".pending.txt", ".pending-1.sql", ".pending-x.sql" };
  g_autoptr(GPtrArray) said = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *file = g_strconcat (part, files[i], NULL);
      g_autofree char *mine = g_strconcat (running, files[i], NULL);

      g_assert_true (g_file_set_contents (file, "BEGIN;\nCOMMIT;\n", -1, NULL));
      g_assert_true (g_file_set_contents (mine, "BEGIN;\nCOMMIT;\n", -1, NULL));
    }
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    {
      g_autofree char *file = g_strconcat (part, others[i], NULL);

      g_assert_true (g_file_set_contents (file, "BEGIN;\nCOMMIT;\n", -1, NULL));
    }

  g_assert_cmpuint (hp_capture_writer_remove_stale_parts (fx->path, said), ==, 0);
  g_assert_cmpuint (said->len, ==, G_N_ELEMENTS (files));
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *file = g_strconcat (part, files[i], NULL);
      g_autofree char *mine = g_strconcat (running, files[i], NULL);
      g_autofree char *beside = g_strconcat (fx->path, files[i], NULL);
      g_autofree char *add = g_strdup_printf ("'hotpath-cli add-pending %s'", fx->path);
      const char *sentence = NULL;

      /* one sentence each, in the order of their names */
      for (guint j = 0; j < said->len; j++)
        if (g_str_has_prefix (g_ptr_array_index (said, j), file))
          sentence = g_ptr_array_index (said, j);
      g_assert_nonnull (sentence);
      g_test_message ("%s", sentence);
      g_assert_nonnull (strstr (sentence, beside));
      g_assert_nonnull (strstr (sentence, add));
      g_assert_true (g_file_test (file, G_FILE_TEST_IS_REGULAR));
      g_assert_true (g_file_test (mine, G_FILE_TEST_IS_REGULAR));
      g_assert_null (strstr (sentence, running));
    }
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    {
      g_autofree char *file = g_strconcat (part, others[i], NULL);

      g_assert_true (g_file_test (file, G_FILE_TEST_IS_REGULAR));
      for (guint j = 0; j < said->len; j++)
        g_assert_null (strstr (g_ptr_array_index (said, j), file));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/capture-pending/add", HpTestScratch, NULL, hp_test_scratch_set_up, test_add, hp_test_scratch_tear_down);
  g_test_add ("/capture-pending/hostile", HpTestScratch, NULL, hp_test_scratch_set_up, test_hostile,
              hp_test_scratch_tear_down);
  g_test_add ("/capture-pending/unreadable-rows", HpTestScratch, NULL, hp_test_scratch_set_up, test_unreadable_rows,
              hp_test_scratch_tear_down);
  g_test_add ("/capture-pending/empty", HpTestScratch, NULL, hp_test_scratch_set_up, test_empty,
              hp_test_scratch_tear_down);
  g_test_add ("/capture-pending/list", HpTestScratch, NULL, hp_test_scratch_set_up, test_list, hp_test_scratch_tear_down);
  g_test_add ("/capture-pending/give-up-none", HpTestScratch, NULL, hp_test_scratch_set_up, test_give_up_none,
              hp_test_scratch_tear_down);
  g_test_add ("/capture-pending/give-up-one", HpTestScratch, NULL, hp_test_scratch_set_up, test_give_up_one,
              hp_test_scratch_tear_down);
  g_test_add ("/capture-pending/give-up-some", HpTestScratch, NULL, hp_test_scratch_set_up, test_give_up_some,
              hp_test_scratch_tear_down);
  g_test_add ("/capture-pending/replace-moves", HpTestScratch, NULL, hp_test_scratch_set_up, test_replace_moves,
              hp_test_scratch_tear_down);
  g_test_add ("/capture-pending/changed/trigger", HpTestScratch, GUINT_TO_POINTER (CHANGE_TRIGGER),
              hp_test_scratch_set_up, test_changed_before_write, hp_test_scratch_tear_down);
  g_test_add ("/capture-pending/changed/finished", HpTestScratch, GUINT_TO_POINTER (CHANGE_FINISHED),
              hp_test_scratch_set_up, test_changed_before_write, hp_test_scratch_tear_down);
  g_test_add ("/capture-pending/changed/swapped", HpTestScratch, GUINT_TO_POINTER (CHANGE_SWAPPED),
              hp_test_scratch_set_up, test_changed_before_write, hp_test_scratch_tear_down);
  g_test_add ("/capture-pending/stale-pending-only", HpTestScratch, NULL, hp_test_scratch_set_up,
              test_stale_pending_only, hp_test_scratch_tear_down);
  g_test_add ("/capture-pending/stale-part", HpTestScratch, NULL, hp_test_scratch_set_up, test_stale_part_pending,
              hp_test_scratch_tear_down);
  return g_test_run ();
}
