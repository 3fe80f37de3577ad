/* fuzz-common.h - what the libFuzzer targets of tests/fuzz share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Header-only, as each target is one .c file that its run-*.sh builds with
 * clang and meson builds as a replay test: touching what a reader returned
 * (so that AddressSanitizer sees a bad pointer, and invalid UTF-8 fails),
 * a folder on tmpfs for the files a target writes, the checks of a loaded
 * capture that the analysis takes on trust, and, with
 * -DHP_FUZZ_STANDALONE, the main() of a replay test: the seeds cut at
 * every length and with single bytes corrupted, or the files given as
 * arguments (a corpus, or a crash to reproduce), or --write-seeds DIR.
 */
#pragma once

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "store/hp-capture.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static volatile guint64 hp_fuzz_sink;

static inline void
hp_fuzz_touch_bytes (const guint8 *p,
                     gsize         n)
{
  guint64 sum = 0;

  for (gsize i = 0; i < n; i++)
    sum += p[i];
  hp_fuzz_sink += sum;
}

/* a string a reader returned: readable to its end, and valid UTF-8 as
 * every reader promises */
static inline void
hp_fuzz_touch (const char *s)
{
  if (s == NULL)
    return;
  g_assert (g_utf8_validate (s, -1, NULL));
  hp_fuzz_touch_bytes ((const guint8 *) s, strlen (s));
}

static char *hp_fuzz_dir_made;

/* tmpfs when there is one: a target writes a file per input */
static inline const char *
hp_fuzz_dir (void)
{
  char *dir = hp_fuzz_dir_made;

  if (dir == NULL)
    {
      g_autofree char *tmpl = g_build_filename (g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) ?
                                                "/dev/shm" : g_get_tmp_dir (),
                                                "hp-fuzz-XXXXXX", NULL);

      dir = hp_fuzz_dir_made = g_mkdtemp (g_steal_pointer (&tmpl));
      g_assert (dir != NULL);
    }
  return dir;
}

static inline void
hp_fuzz_write_file (const char    *path,
                    const uint8_t *data,
                    size_t         size)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

  g_assert (fd >= 0);
  for (size_t done = 0; done < size;)
    {
      ssize_t n = write (fd, data + done, size - done);

      g_assert (n > 0);
      done += n;
    }
  close (fd);
}

/* a capture and SQLite's files beside it */
static inline void
hp_fuzz_remove_capture (const char *path)
{
  static const char *suffixes[] = { "", "-journal", "-wal", "-shm" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *p = g_strconcat (path, suffixes[i], NULL);

      g_unlink (p);
    }
}

/* What the analysis relies on in a loaded capture without checking it
 * again: references in range, sums without overflow, valid UTF-8. */
static inline void
hp_fuzz_check_capture (const HpCaptureData *data)
{
  g_assert (data->modules->len >= 1 && data->functions->len >= 1 &&
            data->frames->len >= 1 && data->stacks->len >= 1);
  for (guint i = 1; i < data->modules->len; i++)
    {
      const HpCaptureModule *m = &g_array_index (data->modules, HpCaptureModule, i);

      g_assert (m->name != NULL);
      hp_fuzz_touch (m->name);
      hp_fuzz_touch (m->path);
      hp_fuzz_touch (m->build_id);
    }
  for (guint i = 1; i < data->functions->len; i++)
    {
      const HpCaptureFunction *f = &g_array_index (data->functions, HpCaptureFunction, i);

      g_assert (f->name != NULL);
      g_assert (f->module_id >= 0 && f->module_id < (gint64) data->modules->len);
      hp_fuzz_touch (f->name);
      hp_fuzz_touch (f->file);
    }
  for (guint i = 1; i < data->frames->len; i++)
    {
      const HpCaptureFrame *f = &g_array_index (data->frames, HpCaptureFrame, i);

      g_assert (f->function_id > 0 && f->function_id < (gint64) data->functions->len);
      hp_fuzz_touch (f->file);
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
    hp_fuzz_touch (g_array_index (data->threads, HpCaptureThread, i).name);
  for (guint i = 0; i < data->processes->len; i++)
    hp_fuzz_touch (g_array_index (data->processes, HpCaptureProcess, i).command);
  {
    GHashTableIter iter;
    gpointer key, value;

    g_hash_table_iter_init (&iter, data->metadata);
    while (g_hash_table_iter_next (&iter, &key, &value))
      {
        hp_fuzz_touch (key);
        hp_fuzz_touch (value);
      }
  }
}

#ifdef HP_FUZZ_STANDALONE

/* How a replay test walks its seeds: every prefix and every byte up to
 * @dense, then every @stride-th (big seeds, such as SQLite pages, would
 * take minutes byte by byte). */
typedef struct {
  const char *suffix;   /* of the seed files --write-seeds writes */
  gsize       dense_prefixes;
  gsize       prefix_stride;
  gsize       dense_bytes;
  gsize       byte_stride;
} HpFuzzReplay;

#define HP_FUZZ_REPLAY_EVERY_BYTE(suffix) { suffix, G_MAXSIZE, 1, G_MAXSIZE, 1 }

/* The main() of a replay test, over @seeds (GBytes). */
static inline int
hp_fuzz_replay_main (int                 argc,
                     char              **argv,
                     GPtrArray          *seeds,
                     const HpFuzzReplay *how)
{
  guint64 runs = 0;

  if (argc == 3 && strcmp (argv[1], "--write-seeds") == 0)
    {
      for (guint i = 0; i < seeds->len; i++)
        {
          g_autofree char *path = g_strdup_printf ("%s/seed-%u%s", argv[2], i, how->suffix);
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
      g_autofree guint8 *copy = g_malloc (MAX (n, 1));

      /* cut short, in a buffer of exactly that length */
      for (gsize len = 0; len <= n; len += len < how->dense_prefixes ? 1 : how->prefix_stride)
        {
          g_autofree guint8 *cut = g_memdup2 (seed, len);

          LLVMFuzzerTestOneInput (cut, len);
          runs++;
        }
      /* single bytes set to 0x00, 0xff and 0x80 */
      for (gsize at = 0; at < n; at += at < how->dense_bytes ? 1 : how->byte_stride)
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
  if (hp_fuzz_dir_made != NULL)
    g_rmdir (hp_fuzz_dir_made);
  g_print ("1..1\nok 1 - %" G_GUINT64_FORMAT " inputs ran clean\n", runs);
  return 0;
}

#endif
