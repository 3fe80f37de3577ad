/* fuzz-perf-file.c - libFuzzer target for the perf.data reader and decoder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Feeds arbitrary bytes to hp_perf_file_new_from_data(), reads every
 * record and decodes the kernel records with the event the reader names,
 * touching every byte the decoded pointers cover, so that AddressSanitizer
 * sees any read outside the input. Built two ways:
 *
 *   - with clang -fsanitize=fuzzer (tests/fuzz/run.sh): the libFuzzer
 *     entry point only;
 *   - with -DHP_FUZZ_STANDALONE (meson test "fuzz-replay"): a main() that
 *     runs the target over built-in seeds, each of their prefixes and
 *     single-byte corruptions, and over the files given as arguments
 *     (a corpus, or a crash to reproduce). --write-seeds DIR writes the
 *     built-in seeds for run.sh's corpus.
 */

#include "config.h"

#include "fuzz-common.h"
#include "perf/hp-perf-file.h"

static void
quiet (const char     *domain,
       GLogLevelFlags  level,
       const char     *message,
       gpointer        data)
{
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  HpPerfFile *file;
  HpPerfFileRecord rec;
  guint n = 0;
  static gboolean quieted;

  /* The reader's note on files cut short would flood the fuzzer's log. */
  if (!quieted)
    {
      g_log_set_handler ("hp-perf", G_LOG_LEVEL_MESSAGE, quiet, NULL);
      quieted = TRUE;
    }

  file = hp_perf_file_new_from_data (data, size, "fuzz.data", &error);
  if (file == NULL)
    return 0;

  /* What the importer reads of the features. */
  {
    const HpPerfFileFeatures *f = hp_perf_file_get_features (file);

    for (guint i = 0; i < f->build_ids->len; i++)
      {
        const HpPerfFileBuildId *bid = g_ptr_array_index (f->build_ids, i);

        hp_fuzz_touch_bytes ((const guint8 *) bid->filename, strlen (bid->filename));
        g_assert (bid->size <= 20);
      }
    if (f->cmdline != NULL)
      hp_fuzz_touch_bytes ((const guint8 *) f->cmdline, strlen (f->cmdline));
  }

  while (hp_perf_file_next (file, &rec, &error) && n++ < 100000)
    {
      HpPerfRecord d;

      hp_fuzz_touch_bytes (rec.data, rec.size);
      if (rec.event == NULL || rec.type >= HP_PERF_RECORD_USER_TYPE_START)
        continue;
      if (!hp_perf_record_decode (&rec.event->info, rec.data, rec.size, &d, NULL))
        continue;
      switch (d.type)
        {
        case PERF_RECORD_SAMPLE:
          hp_fuzz_touch_bytes ((const guint8 *) d.sample.ips, d.sample.n_ips * 8);
          hp_fuzz_touch_bytes ((const guint8 *) d.sample.regs, d.sample.n_regs * 8);
          hp_fuzz_touch_bytes (d.sample.stack, d.sample.stack_size);
          break;
        case PERF_RECORD_MMAP:
        case PERF_RECORD_MMAP2:
          hp_fuzz_touch_bytes ((const guint8 *) d.mmap.filename, strlen (d.mmap.filename));
          break;
        case PERF_RECORD_COMM:
          hp_fuzz_touch_bytes ((const guint8 *) d.comm.comm, strlen (d.comm.comm));
          break;
        default:
          break;
        }
    }
  hp_perf_file_free (file);
  return 0;
}

#ifdef HP_FUZZ_STANDALONE

#include <zstd.h>

#include "perf-data-builder.h"

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

static void
add_records (GByteArray *b, guint64 st, guint n)
{
  PdId id = { 7, 7, 1, 3, 0 };
  guint64 chain[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000000ull, PERF_CONTEXT_USER, 0x401000, 0x401100 };

  pd_comm (b, st, &id, "seed", TRUE);
  pd_mmap2 (b, st, &id, 0x400000, 0x1000, 0, "/usr/bin/seed");
  for (guint i = 0; i < n; i++)
    {
      id.time = 10 + i;
      pd_sample (b, st, &id, 0x401000, 1, chain, 1 + i % G_N_ELEMENTS (chain));
    }
  pd_finished_round (b);
}

/* Seeds that reach every part of the reader: file mode with features and
 * several events, pipe mode, compressed records. */
static GPtrArray *
make_seeds (void)
{
  GPtrArray *seeds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  PdAttr attr = { PERF_TYPE_SOFTWARE, 0, 4000, TRUE, ST | PERF_SAMPLE_IDENTIFIER, 0, TRUE, FALSE, 0, 0 };
  static const guint64 ids1[] = { 3 }, ids2[] = { 4 };

  {
    PdFile *f = pd_file_new (112);
    static const guint8 bid[20] = { 1, 2, 3 };
    GByteArray *b;

    pd_file_add_attr (f, &attr, ids1, 1);
    attr.config = 2;
    pd_file_add_attr (f, &attr, ids2, 1);
    add_records (f->data, attr.sample_type, 6);
    pd_string (pd_file_feature (f, 3), "host", 64, TRUE);
    b = pd_file_feature (f, 11);
    pd_u32 (b, 2);
    pd_string (b, "perf", 64, TRUE);
    pd_string (b, "record", 64, TRUE);
    b = pd_file_feature (f, 7);
    pd_u32 (b, 2);
    pd_u32 (b, 2);
    b = pd_file_feature (f, 12);
    pd_u32 (b, 1);
    pd_u32 (b, 112);
    pd_attr (b, &attr, 112);
    pd_u32 (b, 1);
    pd_string (b, "cycles", 64, TRUE);
    pd_u64 (b, 4);
    pd_build_id (pd_file_feature (f, 2), PERF_RECORD_MISC_USER, 7, bid, 20, "/usr/bin/seed", TRUE);
    b = pd_file_build (f);
    g_ptr_array_add (seeds, g_byte_array_free_to_bytes (b));
    pd_file_free (f);
  }

  {
    GByteArray *b = pd_pipe_header ();
    g_autoptr(GByteArray) host = g_byte_array_new ();

    attr.sample_type = ST | PERF_SAMPLE_ID;
    pd_header_attr (b, &attr, 128, ids1, 1);
    pd_string (host, "pipe", 64, TRUE);
    pd_header_feature (b, 3, host);
    pd_event_update_name (b, 3, "cpu-clock");
    add_records (b, attr.sample_type, 4);
    g_ptr_array_add (seeds, g_byte_array_free_to_bytes (b));
  }

  {
    PdFile *f = pd_file_new (128);
    g_autoptr(GByteArray) records = g_byte_array_new ();
    gsize bound, zlen;
    guint8 *z;
    GByteArray *b;

    attr.sample_type = ST;
    pd_file_add_attr (f, &attr, NULL, 0);
    add_records (records, attr.sample_type, 8);
    bound = ZSTD_compressBound (records->len);
    z = g_malloc (bound);
    zlen = ZSTD_compress (z, bound, records->data, records->len, 1);
    for (gsize at = 0; at < zlen; at += 40)
      {
        gsize r = pd_begin (f->data, 81, 0);

        pd_put (f->data, z + at, MIN (40, zlen - at));
        pd_end (f->data, r);
      }
    g_free (z);
    b = pd_file_build (f);
    g_ptr_array_add (seeds, g_byte_array_free_to_bytes (b));
    pd_file_free (f);
  }
  return seeds;
}

int
main (int argc, char **argv)
{
  g_autoptr(GPtrArray) seeds = make_seeds ();
  const HpFuzzReplay how = HP_FUZZ_REPLAY_EVERY_BYTE (".data");

  return hp_fuzz_replay_main (argc, argv, seeds, &how);
}

#endif
