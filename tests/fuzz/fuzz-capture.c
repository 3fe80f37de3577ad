/* fuzz-capture.c - libFuzzer target for the capture reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writes arbitrary bytes to a file and reads it as a capture the way the
 * CLI and the window do: hp_capture_open() (for writing, as `summary`
 * does), hp_capture_load(), the metadata, the summaries, and saving one,
 * touching every string and checking every reference the reader promises
 * to have checked, so that AddressSanitizer and UndefinedBehaviorSanitizer
 * see any slip. The inputs are mutated SQLite databases: the seeds are
 * small valid captures that the writer makes. Built two ways:
 *
 *   - with clang -fsanitize=fuzzer (tests/fuzz/run-capture.sh): the
 *     libFuzzer entry point only;
 *   - with -DHP_FUZZ_STANDALONE (meson test "fuzz-capture-replay"): a
 *     main() that runs the target over the seeds, prefixes of them and
 *     single-byte corruptions, and over the files given as arguments (a
 *     corpus, or a crash to reproduce). --write-seeds DIR writes the seeds
 *     for run-capture.sh's corpus.
 */

#include "config.h"

#include "fuzz-common.h"


int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *path = g_build_filename (hp_fuzz_dir (), "input.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;

  hp_fuzz_remove_capture (path);
  hp_fuzz_write_file (path, data, size);

  capture = hp_capture_open (path, TRUE, &error);
  if (capture != NULL)
    {
      g_autoptr(HpCaptureData) loaded = hp_capture_load (capture, &error);
      g_autoptr(GHashTable) summaries = NULL;
      g_autofree char *command = NULL;
      g_autofree char *text = NULL;

      g_assert ((loaded == NULL) == (error != NULL));
      if (loaded != NULL)
        hp_fuzz_check_capture (loaded);
      else
        hp_fuzz_touch (error->message);
      g_clear_error (&error);

      command = hp_capture_get_metadata (capture, "command");
      hp_fuzz_touch (command);

      summaries = hp_capture_list_summaries (capture, &error);
      if (summaries != NULL)
        {
          GHashTableIter iter;
          gpointer key, value;

          g_hash_table_iter_init (&iter, summaries);
          while (g_hash_table_iter_next (&iter, &key, &value))
            {
              hp_fuzz_touch (key);
              hp_fuzz_touch (value);
            }
        }
      g_clear_error (&error);

      if (hp_capture_set_summary (capture, "app\tmain\n", "main", "fuzzed", &error))
        {
          text = hp_capture_get_summary (capture, "app\tmain\n", &error);
          hp_fuzz_touch (text);
        }
      g_clear_error (&error);
    }
  else
    {
      g_assert (error != NULL);
      hp_fuzz_touch (error->message);
    }
  g_clear_pointer (&capture, hp_capture_close);
  hp_fuzz_remove_capture (path);
  return 0;
}

#ifdef HP_FUZZ_STANDALONE

#include <sqlite3.h>

static void
sql (const char *path,
     const char *statement)
{
  sqlite3 *db = NULL;

  if (sqlite3_open (path, &db) != SQLITE_OK ||
      sqlite3_exec (db, statement, NULL, NULL, NULL) != SQLITE_OK)
    g_error ("%s: %s", statement, sqlite3_errmsg (db));
  sqlite3_close (db);
}

/* Small valid captures: finished, cut short (its samples aggregated on
 * loading), and with summaries; in 512-byte pages, so that they stay a few
 * kB and the fuzzer mutates the structure rather than empty pages. */
static GPtrArray *
make_seeds (void)
{
  GPtrArray *seeds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autofree char *dir = g_dir_make_tmp ("hp-fuzz-seeds-XXXXXX", NULL);

  g_assert (dir != NULL);
  for (guint kind = 0; kind < 3; kind++)
    {
      g_autofree char *path = g_build_filename (dir, "seed.hotpath", NULL);
      g_autoptr(GError) error = NULL;
      HpCaptureWriter *w = hp_capture_writer_new (path, &error);
      const char *names[] = { "main", "parse", "std::vector<int>::push_back", "memcpy" };
      gint64 module, kernel, frames[4], stack = 0;
      g_autofree char *contents = NULL;
      gsize n;

      g_assert_no_error (error);
      hp_capture_writer_set_metadata (w, "command", "./app --fast");
      hp_capture_writer_set_metadata (w, "event", "cpu-clock");
      hp_capture_writer_set_metadata_int (w, "frequency", 999);
      hp_capture_writer_set_process (w, 42, "app");
      hp_capture_writer_set_thread (w, 42, 42, "app");
      hp_capture_writer_set_thread (w, 43, 42, "worker");
      module = hp_capture_writer_intern_module (w, "/usr/bin/app", "0123abcd", FALSE);
      kernel = hp_capture_writer_intern_module (w, "[kernel.kallsyms]", NULL, TRUE);
      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        {
          gint64 f = hp_capture_writer_intern_function (w, names[i], i == 3 ? kernel : module,
                                                        "app.c", 10 * i);

          frames[i] = hp_capture_writer_intern_frame (w, f, "app.c", 10 * i + 1, i == 2, 0x100 * i);
        }
      for (guint i = 0; i < 4; i++)
        {
          stack = hp_capture_writer_intern_stack (w, stack, frames[i]);
          for (guint s = 0; s < 3 + i; s++)
            hp_capture_writer_add_sample (w, 1000 * s + i, 42 + s % 2, s % 2, stack, 1000 + s);
        }
      hp_capture_writer_add_sample (w, 9999, 42, 0, 0, 1000);
      if (kind != 1)
        g_assert_true (hp_capture_writer_finish (w, &error));
      else
        hp_capture_writer_flush (w, &error);
      g_assert_no_error (error);
      hp_capture_writer_free (w);
      if (kind == 2)
        sql (path, "INSERT INTO summaries (path_key, path, text, created, updated) VALUES ('app\tmain\napp\tparse\n', 'main → parse', "
                   "'reads the input', '2024-05-01T12:00:00Z', '2024-05-01T12:00:00Z')");
      sql (path, "PRAGMA journal_mode = DELETE; PRAGMA page_size = 512; VACUUM;");
      g_assert_true (g_file_get_contents (path, &contents, &n, NULL));
      g_ptr_array_add (seeds, g_bytes_new (contents, n));
      hp_fuzz_remove_capture (path);
    }
  g_rmdir (dir);
  return seeds;
}

int
main (int argc, char **argv)
{
  g_autoptr(GPtrArray) seeds = make_seeds ();
  /* inside the header byte by byte, then at strides that fall inside and
   * at the ends of pages; every byte of the header and of the schema's
   * page, then every 31st */
  const HpFuzzReplay how = { ".hotpath", 128, 509, 512, 31 };

  return hp_fuzz_replay_main (argc, argv, seeds, &how);
}

#endif
