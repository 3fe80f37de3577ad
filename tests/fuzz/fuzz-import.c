/* fuzz-import.c - libFuzzer target for the readers of other tools' files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The readers that take a file another program wrote, mailed around or
 * left in /tmp: pprof profiles and folded stacks (imported into a
 * capture), jitdumps and perf-PID.map files (read while symbolizing). The
 * first byte of an input chooses the reader (modulo 4: pprof, folded,
 * jitdump, perf map); the rest is written to a file on /dev/shm and read
 * as hotpath-cli import, report and the symbolizer do. An import that
 * succeeds must give a capture the reader loads, with every reference in
 * range; an import that fails must say why, in UTF-8. Built two ways, as
 * fuzz-capture.c is:
 *
 *   - with clang -fsanitize=fuzzer (tests/fuzz/run-import.sh);
 *   - with -DHP_FUZZ_STANDALONE (meson test "fuzz-import-replay"): a main()
 *     that runs the target over built-in seeds (one or two per reader),
 *     prefixes of them and single-byte corruptions, and over the files
 *     given as arguments. --write-seeds DIR writes the seeds.
 */

#include "config.h"

#include <gio/gio.h>

#include "fuzz-common.h"
#include "record/hp-folded-import.h"
#include "record/hp-pprof-import.h"
#include "symbols/hp-jitdump.h"
#include "symbols/hp-perf-map.h"
#include "jitdump-builder.h"

enum { READ_PPROF, READ_FOLDED, READ_JITDUMP, READ_PERF_MAP, N_READERS };

/* An import's answer: a capture that loads and holds what the analysis
 * takes on trust, or an error that says why, in UTF-8. */
static void
check_import (gboolean    ok,
              GError     *error,
              const char *capture)
{
  g_autoptr(HpCapture) opened = NULL;
  g_autoptr(HpCaptureData) data = NULL;
  g_autoptr(GError) local_error = NULL;

  if (!ok)
    {
      g_assert (error != NULL);
      hp_fuzz_touch (error->message);
      return;
    }
  g_assert_no_error (error);
  opened = hp_capture_open (capture, FALSE, &local_error);
  g_assert_no_error (local_error);
  data = hp_capture_load (opened, &local_error);
  g_assert_no_error (local_error);
  hp_fuzz_check_capture (data);
}

static void
check_entry (const HpPerfMapEntry *e,
             guint64               address)
{
  const char *file = NULL;
  guint line = 0;

  if (e == NULL)
    return;
  g_assert (e->start <= address && address < e->end);
  hp_fuzz_touch (e->name);
  for (guint i = 0; i < e->n_lines; i++)
    hp_fuzz_touch (e->lines[i].file);
  if (hp_perf_map_entry_get_line (e, address, &file, &line))
    hp_fuzz_touch (file);
}

/* Looks up every address a map or dump names in its first bytes, and a
 * few others, as the symbolizer would for sampled addresses. */
static void
probe_addresses (const uint8_t *data,
                 size_t         size,
                 gpointer       reader,
                 gboolean       is_dump)
{
  static const guint64 fixed[] = { 0, 1, 0x1000, 0x7f0000001000, 0x7f0000005010, G_MAXUINT64 };

  for (guint i = 0; i < G_N_ELEMENTS (fixed) + 8; i++)
    {
      guint64 address = fixed[i % G_N_ELEMENTS (fixed)];

      if (i >= G_N_ELEMENTS (fixed))
        {
          gsize at = (i - G_N_ELEMENTS (fixed)) * 8;

          if (at + 8 > size)
            break;
          memcpy (&address, data + at, 8);
        }
      check_entry (is_dump ? hp_jitdump_lookup (reader, address) : hp_perf_map_lookup (reader, address),
                   address);
    }
}

/* Reads the jitdump (@is_dump) or perf map at @path as the symbolizer
 * does: twice, the second time for what was appended (nothing here),
 * then looks addresses up in it and asks what to warn of. */
static void
read_map (const char    *path,
          const uint8_t *data,
          size_t         size,
          gboolean       is_dump)
{
  gpointer map = is_dump ? (gpointer) hp_jitdump_new (path) : (gpointer) hp_perf_map_new (path);
  g_autofree char *warning = NULL;

  for (guint i = 0; i < 2; i++)
    {
      if (is_dump)
        hp_jitdump_update (map);
      else
        hp_perf_map_update (map);
    }
  probe_addresses (data, size, map, is_dump);
  warning = is_dump ? hp_jitdump_get_warning (map) : hp_perf_map_get_warning (map);
  hp_fuzz_touch (warning);
  if (is_dump)
    hp_jitdump_free (map);
  else
    hp_perf_map_free (map);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char *names[] = { "input.pprof", "input.folded", "jit-4244.dump", "perf-4244.map" };
  g_autofree char *path = NULL;
  g_autofree char *capture = g_build_filename (hp_fuzz_dir (), "out.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  guint reader;

  if (size == 0)
    return 0;
  reader = data[0] % N_READERS;
  path = g_build_filename (hp_fuzz_dir (), names[reader], NULL);
  hp_fuzz_write_file (path, data + 1, size - 1);
  hp_fuzz_remove_capture (capture);

  switch (reader)
    {
    case READ_PPROF:
      {
        HpPprofImportResult result = { 0 };
        gboolean ok = hp_pprof_import (path, capture, &result, NULL, &error);

        hp_fuzz_touch (result.event);
        hp_pprof_import_result_clear (&result);
        check_import (ok, error, capture);
      }
      break;

    case READ_FOLDED:
      {
        gboolean ok = hp_folded_import (path, capture, NULL, NULL, &error);

        check_import (ok, error, capture);
      }
      break;

    case READ_JITDUMP:
    case READ_PERF_MAP:
      read_map (path, data + 1, size - 1, reader == READ_JITDUMP);
      break;

    default:
      g_assert_not_reached ();
    }
  hp_fuzz_remove_capture (capture);
  g_unlink (path);
  return 0;
}

#ifdef HP_FUZZ_STANDALONE

/* protobuf wire format, enough to write a pprof Profile by hand */
static void
pb_varint (GByteArray *b,
           guint64     v)
{
  do
    {
      guint8 byte = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);

      g_byte_array_append (b, &byte, 1);
      v >>= 7;
    }
  while (v != 0);
}

static void
pb_int (GByteArray *b,
        guint       field,
        guint64     v)
{
  pb_varint (b, (guint64) field << 3);
  pb_varint (b, v);
}

static void
pb_bytes (GByteArray *b,
          guint       field,
          const void *data,
          gsize       len)
{
  pb_varint (b, (guint64) field << 3 | 2);
  pb_varint (b, len);
  g_byte_array_append (b, data, len);
}

static void
pb_message (GByteArray *b,
            guint       field,
            GByteArray *inner)
{
  pb_bytes (b, field, inner->data, inner->len);
  g_byte_array_set_size (inner, 0);
}

/* main -> parse -> lex (lex inlined into parse), in two threads */
static GByteArray *
pprof_seed (guint64 period_unit)
{
  static const char *strings[] = { "", "samples", "count", "cpu", "nanoseconds", "/usr/bin/app",
                                   "main", "parse", "lex", "app.c", "tid", "thread", "worker" };
  GByteArray *p = g_byte_array_new ();
  g_autoptr(GByteArray) m = g_byte_array_new ();
  g_autoptr(GByteArray) inner = g_byte_array_new ();

  /* sample_type: samples/count, cpu/nanoseconds */
  pb_int (m, 1, 1); pb_int (m, 2, 2); pb_message (p, 1, m);
  pb_int (m, 1, 3); pb_int (m, 2, 4); pb_message (p, 1, m);
  /* samples: location ids leaf first, values, a tid label */
  for (guint i = 0; i < 3; i++)
    {
      pb_int (m, 1, 2);
      pb_int (m, 1, 1);
      pb_int (m, 2, 3 + i);
      pb_int (m, 2, 30000000 + i);
      pb_int (inner, 1, i == 2 ? 11 : 10);
      if (i == 2)
        pb_int (inner, 2, 12);
      else
        pb_int (inner, 3, 100 + i);
      pb_message (m, 3, inner);
      pb_message (p, 2, m);
    }
  /* mapping 1 */
  pb_int (m, 1, 1); pb_int (m, 2, 0x400000); pb_int (m, 3, 0x500000); pb_int (m, 5, 5);
  pb_message (p, 3, m);
  /* location 1: main; location 2: lex inlined into parse */
  pb_int (m, 1, 1); pb_int (m, 2, 1); pb_int (m, 3, 0x401000);
  pb_int (inner, 1, 1); pb_int (inner, 2, 10); pb_message (m, 4, inner);
  pb_message (p, 4, m);
  pb_int (m, 1, 2); pb_int (m, 2, 1); pb_int (m, 3, 0x402000);
  pb_int (inner, 1, 3); pb_int (inner, 2, 31); pb_message (m, 4, inner);
  pb_int (inner, 1, 2); pb_int (inner, 2, 21); pb_message (m, 4, inner);
  pb_message (p, 4, m);
  /* functions */
  for (guint i = 0; i < 3; i++)
    {
      pb_int (m, 1, i + 1); pb_int (m, 2, 6 + i); pb_int (m, 4, 9); pb_int (m, 5, 10 * (i + 1));
      pb_message (p, 5, m);
    }
  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    pb_bytes (p, 6, strings[i], strlen (strings[i]));
  pb_int (p, 9, G_GUINT64_CONSTANT (1700000000000000000));
  pb_int (p, 10, 2000000000);
  pb_int (m, 1, 3); pb_int (m, 2, period_unit); pb_message (p, 11, m);
  pb_int (p, 12, 10000000);
  return p;
}

static GByteArray *
gzip (const GByteArray *in)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 9);
  GByteArray *out = g_byte_array_new ();
  guint8 buffer[1 << 16];
  gsize read = 0, written = 0;

  g_assert (g_converter_convert (G_CONVERTER (compressor), in->data, in->len, buffer, sizeof buffer,
                                 G_CONVERTER_INPUT_AT_END, &read, &written, NULL) == G_CONVERTER_FINISHED);
  g_byte_array_append (out, buffer, written);
  return out;
}

/* One input: the reader's byte, then the file. */
static GBytes *
input (guint8        reader,
       const guint8 *file,
       gsize         size)
{
  GByteArray *b = g_byte_array_new ();

  g_byte_array_append (b, &reader, 1);
  g_byte_array_append (b, file, size);
  return g_byte_array_free_to_bytes (b);
}

static GPtrArray *
make_seeds (void)
{
  static const char folded[] =
    "main;parse;lex 12\n"
    "main;parse 3\r\n"
    "\n"
    "java/lang/Thread.run_[j];Hot.spin_[i];do_syscall_64_[k] 7\n"
    "<module> (app.py:3);work (app.py:12) 2\n";
  static const char perf_map[] =
    "7f0000001000 40 fib\n"
    "0x7f0000002000 0x20 LazyCompile:~add /srv/app.js:3:10\n"
    "7f0000003000 10 JS:*hot file:///srv/app.mjs:7:1\n";
  GPtrArray *seeds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GByteArray) pprof = pprof_seed (4);
  g_autoptr(GByteArray) zipped = gzip (pprof);
  g_autoptr(GByteArray) dump = jd_example ();  /* a debug info, two loads, a move */

  g_ptr_array_add (seeds, input (READ_PPROF, pprof->data, pprof->len));
  g_ptr_array_add (seeds, input (READ_PPROF, zipped->data, zipped->len));
  g_ptr_array_add (seeds, input (READ_FOLDED, (const guint8 *) folded, strlen (folded)));
  g_ptr_array_add (seeds, input (READ_PERF_MAP, (const guint8 *) perf_map, strlen (perf_map)));
  g_ptr_array_add (seeds, input (READ_JITDUMP, dump->data, dump->len));
  return seeds;
}

/* Writes @file and imports it with the reader of @reader. */
static gboolean
import_file (guint8        reader,
             const guint8 *file,
             gsize         size,
             guint64      *samples,
             GError      **error)
{
  g_autofree char *path = g_build_filename (hp_fuzz_dir (), "seed", NULL);
  g_autofree char *capture = g_build_filename (hp_fuzz_dir (), "seed.hotpath", NULL);
  gboolean ok;

  hp_fuzz_write_file (path, file, size);
  if (reader == READ_PPROF)
    {
      HpPprofImportResult result = { 0 };

      ok = hp_pprof_import (path, capture, &result, NULL, error);
      *samples = result.samples;
      hp_pprof_import_result_clear (&result);
    }
  else
    {
      HpFoldedImportResult result = { 0 };

      ok = hp_folded_import (path, capture, &result, NULL, error);
      *samples = result.samples;
    }
  /* a failed import leaves nothing behind */
  g_assert_true (ok || !g_file_test (capture, G_FILE_TEST_EXISTS));
  hp_fuzz_remove_capture (capture);
  g_unlink (path);
  return ok;
}

int
main (int argc, char **argv)
{
  g_autoptr(GPtrArray) seeds = NULL;
  const HpFuzzReplay how = HP_FUZZ_REPLAY_EVERY_BYTE ("");

  /* a critical or a warning is a bug in a reader, as a crash is */
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  seeds = make_seeds ();

  /* The seeds import: a seed that fails tests nothing past it. */
  for (guint i = 0; i < seeds->len && argc == 1; i++)
    {
      gsize n;
      const guint8 *b = g_bytes_get_data (g_ptr_array_index (seeds, i), &n);
      g_autoptr(GError) error = NULL;
      guint64 samples = 0;

      if (b[0] != READ_PPROF && b[0] != READ_FOLDED)
        continue;
      g_assert_true (import_file (b[0], b + 1, n - 1, &samples, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (samples, ==, b[0] == READ_PPROF ? 3 + 4 + 5 : 12 + 3 + 7 + 2);
    }

  /* Hostile in one known way each */
  if (argc == 1)
    {
      g_autoptr(GByteArray) bad_period = pprof_seed (99);
      g_autoptr(GError) error = NULL;
      guint64 samples = 0;

      /* a period type whose unit is no string: an error, as any such index */
      g_assert_false (import_file (READ_PPROF, bad_period->data, bad_period->len, &samples, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_nonnull (strstr (error->message, "string 99 does not exist"));
    }

  return hp_fuzz_replay_main (argc, argv, seeds, &how);
}

#endif
