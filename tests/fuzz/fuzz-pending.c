/* fuzz-pending.c - libFuzzer target for add-pending's reader of NAME.pending.sql
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A pending file travels with its capture and may come from anyone
 * (hp-capture-pending.c): nothing in it may run as SQL, and what it adds
 * is added whole or not at all. The input is written as the pending file
 * of a small capture cut short (ten samples, as a recorder that was
 * killed leaves it) and read as `hotpath-cli add-pending --check` and
 * `hotpath-cli add-pending` do. Whatever the bytes:
 *
 *   - a file the check refuses is refused by the add too, with an error
 *     in UTF-8 that names the file;
 *   - an add that succeeds removes the file and leaves a capture that
 *     loads, with exactly the samples the check counted added;
 *   - an add that fails keeps the file and leaves the capture as it was:
 *     loading, with its ten samples.
 *
 * Built two ways, as fuzz-capture.c is:
 *
 *   - with clang -fsanitize=fuzzer (tests/fuzz/run-pending.sh);
 *   - with -DHP_FUZZ_STANDALONE (meson test "fuzz-pending-replay"): a
 *     main() that runs the target over seeds written with the writer's
 *     own statements (hp-writer-sql.h), prefixes of them and single-byte
 *     corruptions, and over the files given as arguments.
 *     --write-seeds DIR writes the seeds.
 */

#include "config.h"

#include <sqlite3.h>

#include "fuzz-common.h"
#include "store/hp-capture-pending.h"
#include "store/hp-capture-writer.h"

#define N_SAMPLES 10

static gint64
count_samples (const char *path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 n = -1;

  g_assert (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
  if (sqlite3_prepare_v2 (db, "SELECT count(*) FROM samples", -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    n = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return n;
}

/* The capture's bytes, written once: a capture cut short, in one file. */
static GBytes *
capture_template (void)
{
  static GBytes *template;

  if (template == NULL)
    {
      g_autofree char *path = g_build_filename (hp_fuzz_dir (), "template.hotpath", NULL);
      g_autoptr(GError) error = NULL;
      HpCaptureWriter *w = hp_capture_writer_new (path, &error);
      gint64 m, f, fr, s;
      g_autofree char *contents = NULL;
      sqlite3 *db = NULL;
      gsize n;

      g_assert_no_error (error);
      hp_capture_writer_set_metadata (w, "command", "./app");
      hp_capture_writer_set_metadata (w, "event", "cpu-clock");
      m = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
      f = hp_capture_writer_intern_function (w, "main", m, "app.c", 10);
      fr = hp_capture_writer_intern_frame (w, f, "app.c", 12, FALSE, 0x100);
      s = hp_capture_writer_intern_stack (w, 0, fr);
      hp_capture_writer_set_process (w, 42, "app");
      hp_capture_writer_set_thread (w, 42, 42, "app");
      for (guint i = 0; i < N_SAMPLES; i++)
        hp_capture_writer_add_sample (w, 1000 + i, 42, 0, s, 1);
      g_assert_true (hp_capture_writer_flush (w, &error));
      /* freed unfinished: a recorder that was killed */
      hp_capture_writer_free (w);
      g_assert (sqlite3_open (path, &db) == SQLITE_OK);
      g_assert (sqlite3_exec (db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL) == SQLITE_OK);
      sqlite3_close (db);
      g_assert_true (g_file_get_contents (path, &contents, &n, NULL));
      hp_fuzz_remove_capture (path);
      template = g_bytes_new_take (g_steal_pointer (&contents), n);
    }
  return template;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *capture = g_build_filename (hp_fuzz_dir (), "fuzz.hotpath", NULL);
  g_autofree char *pending = g_strconcat (capture, ".pending.sql", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) opened = NULL;
  g_autoptr(HpCaptureData) loaded = NULL;
  GBytes *template = capture_template ();
  guint64 n_checked = 0, n_added = 0;
  gboolean checked, added;

  hp_fuzz_remove_capture (capture);
  hp_fuzz_write_file (capture, g_bytes_get_data (template, NULL), g_bytes_get_size (template));
  hp_fuzz_write_file (pending, data, size);

  checked = hp_capture_check_pending (pending, &n_checked, &error);
  if (!checked)
    {
      g_assert (error != NULL);
      hp_fuzz_touch (error->message);
      g_assert (strstr (error->message, pending) != NULL);
      g_clear_error (&error);
    }
  added = hp_capture_add_pending (capture, pending, NULL, &n_added, &error);
  g_assert (added == (error == NULL));
  if (added)
    {
      g_assert (checked);
      g_assert (n_added == n_checked);
      g_assert (!g_file_test (pending, G_FILE_TEST_EXISTS));
      g_assert (count_samples (capture) == N_SAMPLES + (gint64) n_added);
    }
  else
    {
      hp_fuzz_touch (error->message);
      g_assert (strstr (error->message, pending) != NULL);
      g_clear_error (&error);
      g_assert (g_file_test (pending, G_FILE_TEST_EXISTS));
      g_assert (count_samples (capture) == N_SAMPLES);
    }

  /* either way, the capture is one the reader loads */
  opened = hp_capture_open (capture, FALSE, &error);
  g_assert_no_error (error);
  loaded = hp_capture_load (opened, &error);
  g_assert_no_error (error);
  hp_fuzz_check_capture (loaded);

  g_unlink (pending);
  hp_fuzz_remove_capture (capture);
  return 0;
}

#ifdef HP_FUZZ_STANDALONE

#include "store/hp-writer-sql.h"

/* @sql, with the values of @values at its '?'s, one line, as the writer
 * spills it */
static void
statement (GString            *out,
           const char         *sql,
           const char *const  *values)
{
  for (const char *s = sql; *s != '\0'; s++)
    if (*s == '?')
      g_string_append (out, *values++);
    else
      g_string_append_c (out, *s);
  g_string_append (out, ";\n");
}

#define STMT(out, sql, ...) statement (out, sql, (const char *const[]) { __VA_ARGS__ })

/* Pending files as the writer spills them (hp-capture-writer.c): a
 * new function, frame and stack under the capture's, samples one a
 * statement and several in one, and the other statements it defers. */
static GPtrArray *
make_seeds (void)
{
  GPtrArray *seeds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  GString *a = g_string_new ("BEGIN;\n");
  GString *b = g_string_new ("BEGIN;\n");

  STMT (a, HP_WRITER_SQL_FUNCTION, "2", "'it''s\nwaited'", "1", "'app.c'", "20");
  STMT (a, HP_WRITER_SQL_FRAME, "2", "2", "'app.c'", "21", "0", "512", "NULL");
  STMT (a, HP_WRITER_SQL_STACK, "2", "1", "2");
  for (guint i = 0; i < 3; i++)
    STMT (a, HP_WRITER_SQL_SAMPLE, i == 0 ? "2000" : i == 1 ? "2001" : "2002", "42", "1", "2", "1", "1");
  g_string_append (a, "COMMIT;\n");
  g_ptr_array_add (seeds, g_string_free_to_bytes (a));

  STMT (b, HP_WRITER_SQL_METADATA, "'frequency'", "'999'");
  STMT (b, HP_WRITER_SQL_PROCESS, "43", "'worker'");
  STMT (b, HP_WRITER_SQL_THREAD, "44", "43", "'worker'");
  STMT (b, HP_WRITER_SQL_MODULE, "2", "'/usr/lib/libc.so.6'", "'0123abcd'", "0");
  STMT (b, HP_WRITER_SQL_FUNCTION, "2", "'memcpy'", "2", "NULL", "NULL");
  STMT (b, HP_WRITER_SQL_FRAME, "2", "2", "NULL", "NULL", "1", "4096", "'~'");
  STMT (b, HP_WRITER_SQL_FRAME_UPDATE, "1", "'app.c'", "13", "NULL", "1");
  STMT (b, HP_WRITER_SQL_STACK, "2", "1", "2");
  STMT (b, HP_WRITER_SQL_EVENT, "2", "'wall'", "'ns'", "NULL", "1000000");
  g_string_append (b, "COMMIT;\nBEGIN;\n" HP_WRITER_SQL_SAMPLES_HEAD
                      "(3000,44,0,2,1,1),(3001,44,1,2,1,1),(3002,44,0,1,7,2);\n"
                      "COMMIT;\n");
  g_ptr_array_add (seeds, g_string_free_to_bytes (b));
  return seeds;
}

int
main (int argc, char **argv)
{
  g_autoptr(GPtrArray) seeds = make_seeds ();
  /* each add opens the capture three times: every prefix and byte of the
   * first 64, then every 7th */
  const HpFuzzReplay how = { ".pending.sql", 64, 7, 64, 7 };

  return hp_fuzz_replay_main (argc, argv, seeds, &how);
}

#endif
