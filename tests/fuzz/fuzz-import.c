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

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

#include "record/hp-folded-import.h"
#include "record/hp-pprof-import.h"
#include "store/hp-capture.h"
#include "symbols/hp-jitdump.h"
#include "symbols/hp-perf-map.h"

enum { READ_PPROF, READ_FOLDED, READ_JITDUMP, READ_PERF_MAP, N_READERS };

static volatile guint64 sink;

static void
touch (const char *s)
{
  guint64 sum = 0;

  if (s == NULL)
    return;
  g_assert (g_utf8_validate (s, -1, NULL));
  for (; *s; s++)
    sum += (guint8) *s;
  sink += sum;
}

static const char *
fuzz_dir (void)
{
  static char *dir;

  if (dir == NULL)
    {
      g_autofree char *tmpl = g_build_filename (g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) ?
                                                "/dev/shm" : g_get_tmp_dir (),
                                                "hp-fuzz-import-XXXXXX", NULL);

      dir = g_mkdtemp (g_steal_pointer (&tmpl));
      g_assert (dir != NULL);
    }
  return dir;
}

static void
remove_capture (const char *path)
{
  static const char *suffixes[] = { "", "-journal", "-wal", "-shm" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *p = g_strconcat (path, suffixes[i], NULL);

      g_unlink (p);
    }
}

static void
write_file (const char    *path,
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

/* An import that said yes: the capture it wrote must load, and hold what
 * the analysis takes on trust. */
static void
check_capture (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = hp_capture_open (path, FALSE, &error);
  g_autoptr(HpCaptureData) data = NULL;

  g_assert_no_error (error);
  data = hp_capture_load (capture, &error);
  g_assert_no_error (error);
  for (guint i = 1; i < data->functions->len; i++)
    {
      const HpCaptureFunction *f = &g_array_index (data->functions, HpCaptureFunction, i);

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
  for (guint i = 0; i < data->threads->len; i++)
    touch (g_array_index (data->threads, HpCaptureThread, i).name);
  for (guint i = 0; i < data->processes->len; i++)
    touch (g_array_index (data->processes, HpCaptureProcess, i).command);
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
  touch (e->name);
  for (guint i = 0; i < e->n_lines; i++)
    touch (e->lines[i].file);
  if (hp_perf_map_entry_get_line (e, address, &file, &line))
    touch (file);
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

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char *names[] = { "input.pprof", "input.folded", "jit-4244.dump", "perf-4244.map" };
  g_autofree char *path = NULL;
  g_autofree char *capture = g_build_filename (fuzz_dir (), "out.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  guint reader;

  if (size == 0)
    return 0;
  reader = data[0] % N_READERS;
  path = g_build_filename (fuzz_dir (), names[reader], NULL);
  write_file (path, data + 1, size - 1);
  remove_capture (capture);

  switch (reader)
    {
    case READ_PPROF:
      {
        HpPprofImportResult result = { 0 };

        if (hp_pprof_import (path, capture, &result, NULL, &error))
          {
            g_assert_no_error (error);
            touch (result.event);
            hp_pprof_import_result_clear (&result);
            check_capture (capture);
          }
        else
          {
            g_assert (error != NULL);
            touch (error->message);
          }
      }
      break;

    case READ_FOLDED:
      {
        HpFoldedImportResult result = { 0 };

        if (hp_folded_import (path, capture, &result, NULL, &error))
          {
            g_assert_no_error (error);
            check_capture (capture);
          }
        else
          {
            g_assert (error != NULL);
            touch (error->message);
          }
      }
      break;

    case READ_JITDUMP:
      {
        HpJitDump *dump = hp_jitdump_new (path);
        g_autofree char *warning = NULL;

        hp_jitdump_update (dump);
        hp_jitdump_update (dump);
        probe_addresses (data + 1, size - 1, dump, TRUE);
        warning = hp_jitdump_get_warning (dump);
        touch (warning);
        hp_jitdump_free (dump);
      }
      break;

    case READ_PERF_MAP:
      {
        HpPerfMap *map = hp_perf_map_new (path);
        g_autofree char *warning = NULL;

        hp_perf_map_update (map);
        hp_perf_map_update (map);
        probe_addresses (data + 1, size - 1, map, FALSE);
        warning = hp_perf_map_get_warning (map);
        touch (warning);
        hp_perf_map_free (map);
      }
      break;

    default:
      g_assert_not_reached ();
    }
  remove_capture (capture);
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

static void
jd_u32 (GByteArray *b, guint32 v)
{
  g_byte_array_append (b, (const guint8 *) &v, 4);
}

static void
jd_u64 (GByteArray *b, guint64 v)
{
  g_byte_array_append (b, (const guint8 *) &v, 8);
}

static void
jd_str (GByteArray *b, const char *s)
{
  g_byte_array_append (b, (const guint8 *) s, strlen (s) + 1);
}

static guint
jd_begin (GByteArray *b, guint32 id)
{
  guint at = b->len;

  jd_u32 (b, id);
  jd_u32 (b, 0);
  jd_u64 (b, 2);
  return at;
}

static void
jd_end (GByteArray *b, guint at)
{
  guint32 size = b->len - at;

  memcpy (b->data + at + 4, &size, 4);
}

/* a debug info, two loads, a move */
static GByteArray *
jitdump_seed (void)
{
  GByteArray *b = g_byte_array_new ();
  guint at;

  jd_u32 (b, 0x4A695444); jd_u32 (b, 1); jd_u32 (b, 40); jd_u32 (b, 62);
  jd_u32 (b, 0); jd_u32 (b, 4244); jd_u64 (b, 1); jd_u64 (b, 0);
  at = jd_begin (b, 2);
  jd_u64 (b, 0x7f0000005000); jd_u64 (b, 2);
  jd_u64 (b, 0x7f0000005000); jd_u32 (b, 10); jd_u32 (b, 0); jd_str (b, "/src/Hot.java");
  jd_u64 (b, 0x7f0000005040); jd_u32 (b, 12); jd_u32 (b, 0); jd_str (b, "/src/Hot.java");
  jd_end (b, at);
  for (guint i = 0; i < 2; i++)
    {
      at = jd_begin (b, 0);
      jd_u32 (b, 4244); jd_u32 (b, 4244);
      jd_u64 (b, 0x7f0000005000 + 0x1000 * i); jd_u64 (b, 0x7f0000005000 + 0x1000 * i);
      jd_u64 (b, 0x40); jd_u64 (b, i + 1);
      jd_str (b, i == 0 ? "Hot::spin" : "Hot::other");
      g_byte_array_append (b, (const guint8 *) "\x90\x90\x90\x90", 4);
      jd_end (b, at);
    }
  at = jd_begin (b, 1);
  jd_u32 (b, 4244); jd_u32 (b, 4244);
  jd_u64 (b, 0x7f0000007000); jd_u64 (b, 0x7f0000006000); jd_u64 (b, 0x7f0000007000);
  jd_u64 (b, 0x40); jd_u64 (b, 2);
  jd_end (b, at);
  return b;
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
  GPtrArray *seeds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
  g_autoptr(GByteArray) pprof = pprof_seed (4);
  GByteArray *texts[] = { NULL, NULL };
  const char *text_data[] = { folded, perf_map };
  guint text_readers[] = { READ_FOLDED, READ_PERF_MAP };
  GByteArray *b;

  b = g_byte_array_new ();
  g_byte_array_append (b, (const guint8 *) "\0", 1);
  g_byte_array_append (b, pprof->data, pprof->len);
  g_ptr_array_add (seeds, b);
  {
    g_autoptr(GByteArray) zipped = gzip (pprof);

    b = g_byte_array_new ();
    g_byte_array_append (b, (const guint8 *) "\0", 1);
    g_byte_array_append (b, zipped->data, zipped->len);
    g_ptr_array_add (seeds, b);
  }
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      guint8 which = text_readers[i];

      b = g_byte_array_new ();
      g_byte_array_append (b, &which, 1);
      g_byte_array_append (b, (const guint8 *) text_data[i], strlen (text_data[i]));
      g_ptr_array_add (seeds, b);
    }
  {
    g_autoptr(GByteArray) dump = jitdump_seed ();
    guint8 which = READ_JITDUMP;

    b = g_byte_array_new ();
    g_byte_array_append (b, &which, 1);
    g_byte_array_append (b, dump->data, dump->len);
    g_ptr_array_add (seeds, b);
  }
  return seeds;
}

int
main (int argc, char **argv)
{
  g_autoptr(GPtrArray) seeds = NULL;
  guint64 runs = 0;

  /* a critical or a warning is a bug in a reader, as a crash is */
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  seeds = make_seeds ();

  if (argc == 3 && strcmp (argv[1], "--write-seeds") == 0)
    {
      for (guint i = 0; i < seeds->len; i++)
        {
          g_autofree char *path = g_strdup_printf ("%s/seed-%u", argv[2], i);
          GByteArray *b = g_ptr_array_index (seeds, i);

          if (!g_file_set_contents (path, (const char *) b->data, b->len, NULL))
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

  /* The seeds must import: a seed that fails tests nothing past it. */
  for (guint i = 0; i < seeds->len; i++)
    {
      GByteArray *b = g_ptr_array_index (seeds, i);
      g_autofree char *path = g_build_filename (fuzz_dir (), "seed", NULL);
      g_autofree char *capture = g_build_filename (fuzz_dir (), "seed.hotpath", NULL);
      g_autoptr(GError) error = NULL;

      write_file (path, b->data + 1, b->len - 1);
      if (b->data[0] == READ_PPROF)
        {
          HpPprofImportResult result = { 0 };

          g_assert_true (hp_pprof_import (path, capture, &result, NULL, &error));
          g_assert_no_error (error);
          g_assert_cmpuint (result.samples, ==, 3 + 4 + 5);
          hp_pprof_import_result_clear (&result);
        }
      else if (b->data[0] == READ_FOLDED)
        {
          HpFoldedImportResult result = { 0 };

          g_assert_true (hp_folded_import (path, capture, &result, NULL, &error));
          g_assert_no_error (error);
          g_assert_cmpuint (result.samples, ==, 12 + 3 + 7 + 2);
        }
      remove_capture (capture);
      g_unlink (path);
    }

  /* Hostile in one known way, each */
  {
    g_autoptr(GByteArray) bad_period = pprof_seed (99);
    g_autofree char *path = g_build_filename (fuzz_dir (), "bad-period.pprof", NULL);
    g_autofree char *capture = g_build_filename (fuzz_dir (), "bad-period.hotpath", NULL);
    g_autoptr(GError) error = NULL;

    /* a period type whose unit is no string: an error, as any such index */
    write_file (path, bad_period->data, bad_period->len);
    g_assert_false (hp_pprof_import (path, capture, NULL, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_nonnull (strstr (error->message, "string 99 does not exist"));
    g_assert_false (g_file_test (capture, G_FILE_TEST_EXISTS));
    g_unlink (path);
  }

  for (guint i = 0; i < seeds->len; i++)
    {
      GByteArray *b = g_ptr_array_index (seeds, i);
      g_autofree guint8 *copy = g_malloc (b->len);

      /* cut short at every byte; every byte set to 0x00, 0xff, 0x80 and
       * flipped in its lowest bit */
      for (gsize len = 1; len <= b->len; len++)
        {
          LLVMFuzzerTestOneInput (b->data, len);
          runs++;
        }
      for (gsize at = 1; at < b->len; at++)
        {
          static const guint8 values[] = { 0x00, 0xff, 0x80, 0x01 };

          for (guint v = 0; v < G_N_ELEMENTS (values); v++)
            {
              memcpy (copy, b->data, b->len);
              copy[at] = v == 3 ? copy[at] ^ 1 : values[v];
              LLVMFuzzerTestOneInput (copy, b->len);
              runs++;
            }
        }
    }
  g_rmdir (fuzz_dir ());
  g_print ("1..1\nok 1 - %" G_GUINT64_FORMAT " inputs ran clean\n", runs);
  return 0;
}

#endif
