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

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "store/hp-capture.h"

static volatile guint64 sink;

static void
touch (const char *s)
{
  guint64 sum = 0;

  if (s == NULL)
    return;
  /* the reader promises valid UTF-8 */
  g_assert (g_utf8_validate (s, -1, NULL));
  for (; *s; s++)
    sum += (guint8) *s;
  sink += sum;
}

/* What the analysis relies on without checking it again. */
static void
check_data (const HpCaptureData *data)
{
  g_assert (data->modules->len >= 1 && data->functions->len >= 1 &&
            data->frames->len >= 1 && data->stacks->len >= 1);
  for (guint i = 1; i < data->modules->len; i++)
    {
      const HpCaptureModule *m = &g_array_index (data->modules, HpCaptureModule, i);

      g_assert (m->name != NULL);
      touch (m->name);
      touch (m->path);
      touch (m->build_id);
    }
  for (guint i = 1; i < data->functions->len; i++)
    {
      const HpCaptureFunction *f = &g_array_index (data->functions, HpCaptureFunction, i);

      g_assert (f->name != NULL);
      g_assert (f->module_id >= 0 && f->module_id < (gint64) data->modules->len);
      touch (f->name);
      touch (f->file);
    }
  for (guint i = 1; i < data->frames->len; i++)
    {
      const HpCaptureFrame *f = &g_array_index (data->frames, HpCaptureFrame, i);

      g_assert (f->function_id > 0 && f->function_id < (gint64) data->functions->len);
      touch (f->file);
    }
  for (guint i = 1; i < data->stacks->len; i++)
    {
      const HpCaptureStack *s = &g_array_index (data->stacks, HpCaptureStack, i);

      g_assert (s->parent_id >= 0 && s->parent_id < (gint64) i);
      g_assert (s->frame_id > 0 && s->frame_id < (gint64) data->frames->len);
    }
  {
    guint64 samples = 0, weight = 0;

    for (guint i = 0; i < data->stack_counts->len; i++)
      {
        const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);

        g_assert (c->stack_id >= 0 && c->stack_id < (gint64) data->stacks->len);
        samples += c->samples;
        weight += c->weight;
        g_assert (samples <= G_MAXINT64 && weight <= G_MAXINT64);
      }
  }
  for (guint i = 0; i < data->threads->len; i++)
    touch (g_array_index (data->threads, HpCaptureThread, i).name);
  for (guint i = 0; i < data->processes->len; i++)
    touch (g_array_index (data->processes, HpCaptureProcess, i).command);
  {
    GHashTableIter iter;
    gpointer key, value;

    g_hash_table_iter_init (&iter, data->metadata);
    while (g_hash_table_iter_next (&iter, &key, &value))
      {
        touch (key);
        touch (value);
      }
  }
}

static const char *
fuzz_dir (void)
{
  static char *dir;

  if (dir == NULL)
    {
      /* tmpfs when there is one: the fuzzer writes a file per input */
      g_autofree char *tmpl = g_build_filename (g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) ?
                                                "/dev/shm" : g_get_tmp_dir (),
                                                "hp-fuzz-capture-XXXXXX", NULL);

      dir = g_mkdtemp (g_steal_pointer (&tmpl));
      g_assert (dir != NULL);
    }
  return dir;
}

static void
remove_files (const char *path)
{
  static const char *suffixes[] = { "", "-journal", "-wal", "-shm" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *p = g_strconcat (path, suffixes[i], NULL);

      g_unlink (p);
    }
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *path = g_build_filename (fuzz_dir (), "input.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  int fd;

  remove_files (path);
  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  g_assert (fd >= 0);
  for (size_t done = 0; done < size;)
    {
      ssize_t n = write (fd, data + done, size - done);

      g_assert (n > 0);
      done += n;
    }
  close (fd);

  capture = hp_capture_open (path, TRUE, &error);
  if (capture != NULL)
    {
      g_autoptr(HpCaptureData) loaded = hp_capture_load (capture, &error);
      g_autoptr(GHashTable) summaries = NULL;
      g_autofree char *command = NULL;
      g_autofree char *text = NULL;

      g_assert ((loaded == NULL) == (error != NULL));
      if (loaded != NULL)
        check_data (loaded);
      else
        touch (error->message);
      g_clear_error (&error);

      command = hp_capture_get_metadata (capture, "command");
      touch (command);

      summaries = hp_capture_list_summaries (capture, &error);
      if (summaries != NULL)
        {
          GHashTableIter iter;
          gpointer key, value;

          g_hash_table_iter_init (&iter, summaries);
          while (g_hash_table_iter_next (&iter, &key, &value))
            {
              touch (key);
              touch (value);
            }
        }
      g_clear_error (&error);

      if (hp_capture_set_summary (capture, "app\tmain\n", "main", "fuzzed", &error))
        {
          text = hp_capture_get_summary (capture, "app\tmain\n", &error);
          touch (text);
        }
      g_clear_error (&error);
    }
  else
    {
      g_assert (error != NULL);
      touch (error->message);
    }
  g_clear_pointer (&capture, hp_capture_close);
  remove_files (path);
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
      remove_files (path);
    }
  g_rmdir (dir);
  return seeds;
}

int
main (int argc, char **argv)
{
  g_autoptr(GPtrArray) seeds = make_seeds ();
  guint64 runs = 0;

  if (argc == 3 && strcmp (argv[1], "--write-seeds") == 0)
    {
      for (guint i = 0; i < seeds->len; i++)
        {
          g_autofree char *path = g_strdup_printf ("%s/seed-%u.hotpath", argv[2], i);
          gsize n;
          const char *data = g_bytes_get_data (g_ptr_array_index (seeds, i), &n);

          if (!g_file_set_contents (path, data, n, NULL))
            return 1;
        }
      return 0;
    }

  if (argc > 1)
    {
      for (int i = 1; i < argc; i++)
        {
          g_autofree char *contents = NULL;
          gsize n;

          if (!g_file_get_contents (argv[i], &contents, &n, NULL))
            return 1;
          LLVMFuzzerTestOneInput ((const uint8_t *) contents, n);
          runs++;
        }
      g_print ("%" G_GUINT64_FORMAT " inputs ran clean\n", runs);
      return 0;
    }

  for (guint i = 0; i < seeds->len; i++)
    {
      gsize n;
      const guint8 *seed = g_bytes_get_data (g_ptr_array_index (seeds, i), &n);
      g_autofree guint8 *copy = g_malloc (n);

      /* Each seed cut short: inside the header byte by byte, then at
       * strides that fall inside and at the ends of pages. */
      for (gsize len = 0; len <= n; len += len < 128 ? 1 : 509)
        {
          LLVMFuzzerTestOneInput (seed, len);
          runs++;
        }
      /* Bytes set to 0x00, 0xff and 0x80: every byte of the header and of
       * the schema's page, then every 31st byte. */
      for (gsize at = 0; at < n; at += at < 512 ? 1 : 31)
        {
          static const guint8 values[] = { 0x00, 0xff, 0x80 };

          for (guint v = 0; v < G_N_ELEMENTS (values); v++)
            {
              memcpy (copy, seed, n);
              copy[at] = values[v];
              LLVMFuzzerTestOneInput (copy, n);
              runs++;
            }
        }
    }
  g_print ("1..1\nok 1 - %" G_GUINT64_FORMAT " inputs ran clean\n", runs);
  return 0;
}

#endif
