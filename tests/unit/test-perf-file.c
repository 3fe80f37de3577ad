/* test-perf-file.c - the perf.data reader on files built byte by byte
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every file here is written by perf-data-builder.h with known contents,
 * so what the reader must hand back is known by construction: the events
 * at every attribute size, the features, the records in file order (also
 * through zstd and through a pipe), and for broken files one error that
 * names the offset or section at fault.
 */

#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include <zstd.h>

#include "perf/hp-perf-file.h"
#include "perf-data-builder.h"

#define ST_BASIC (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

static const PdAttr cpu_clock = {
  .type = PERF_TYPE_SOFTWARE,
  .config = PERF_COUNT_SW_CPU_CLOCK,
  .period = 4000,
  .freq = TRUE,
  .sample_type = ST_BASIC,
  .sample_id_all = TRUE,
};

/* A small recording of one process: COMM, MMAP2, three samples, a round. */
static void
add_basic_records (GByteArray *b, guint64 st)
{
  static const guint64 chain[] = { PERF_CONTEXT_USER, 0x401010, 0x401200 };
  PdId id = { 100, 100, 1000, 0, 0 };

  pd_comm (b, st, &id, "app", TRUE);
  id.time = 1001;
  pd_mmap2 (b, st, &id, 0x400000, 0x2000, 0, "/usr/bin/app");
  for (guint i = 0; i < 3; i++)
    {
      id.time = 2000 + i;
      pd_sample (b, st, &id, 0x401010, 250000, chain, G_N_ELEMENTS (chain));
    }
  pd_finished_round (b);
}

/* Reads every record; returns their types as a string like "3 10 9 9 9 68". */
static char *
read_types (HpPerfFile *file, GError **error)
{
  GString *s = g_string_new (NULL);
  HpPerfFileRecord rec;

  while (hp_perf_file_next (file, &rec, error))
    g_string_append_printf (s, "%s%u", s->len ? " " : "", rec.type);
  return g_string_free (s, FALSE);
}

static void
test_attr_sizes (void)
{
  /* PERF_ATTR_SIZE_VER0 .. VER8, and one larger than any we know */
  static const guint32 sizes[] = { 64, 72, 80, 96, 104, 112, 120, 128, 136, 160 };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      PdFile *f = pd_file_new (sizes[i]);
      PdAttr attr = cpu_clock;
      static const guint64 ids[] = { 7, 8 };
      g_autoptr(GByteArray) bytes = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(HpPerfFile) file = NULL;
      g_autofree char *types = NULL;
      const HpPerfFileEvent *event;

      attr.regs_user = 0xff0fff;
      attr.stack_user = 8192;
      pd_file_add_attr (f, &attr, ids, G_N_ELEMENTS (ids));
      add_basic_records (f->data, attr.sample_type);
      bytes = pd_file_build (f);
      pd_file_free (f);

      file = hp_perf_file_new_from_data (bytes->data, bytes->len, "sizes.data", &error);
      g_assert_no_error (error);
      g_assert_false (hp_perf_file_is_pipe (file));
      g_assert_cmpuint (hp_perf_file_get_n_events (file), ==, 1);
      event = hp_perf_file_get_event (file, 0);
      g_assert_cmpuint (event->info.sample_type, ==, ST_BASIC);
      g_assert_true (event->info.sample_id_all);
      g_assert_true (event->freq);
      g_assert_cmpuint (event->sample_freq, ==, 4000);
      g_assert_cmpstr (event->name, ==, "cpu-clock");
      g_assert_cmpuint (event->ids->len, ==, 2);
      g_assert_cmpuint (g_array_index (event->ids, guint64, 1), ==, 8);
      /* sample_regs_user exists from PERF_ATTR_SIZE_VER3 (96) on */
      g_assert_cmpuint (event->info.sample_regs_user, ==, sizes[i] >= 96 ? 0xff0fff : 0);
      g_assert_cmpuint (event->sample_stack_user, ==, sizes[i] >= 96 ? 8192 : 0);

      types = read_types (file, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (types, ==, "3 10 9 9 9 68");
    }
}

static void
test_records_decode (void)
{
  PdFile *f = pd_file_new (128);
  g_autoptr(GByteArray) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HpPerfFile) file = NULL;
  HpPerfFileRecord rec;
  HpPerfRecord decoded;
  guint n_samples = 0;

  pd_file_add_attr (f, &cpu_clock, NULL, 0);
  add_basic_records (f->data, cpu_clock.sample_type);
  bytes = pd_file_build (f);
  pd_file_free (f);

  file = hp_perf_file_new_from_data (bytes->data, bytes->len, "decode.data", &error);
  g_assert_no_error (error);
  while (hp_perf_file_next (file, &rec, &error))
    {
      if (rec.type == HP_PERF_RECORD_FINISHED_ROUND)
        continue;
      g_assert_nonnull (rec.event);
      g_assert_true (hp_perf_record_decode (&rec.event->info, rec.data, rec.size, &decoded, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (decoded.pid, ==, 100);
      g_assert_true (decoded.has_time);
      if (rec.type == PERF_RECORD_MMAP2)
        {
          g_assert_cmpstr (decoded.mmap.filename, ==, "/usr/bin/app");
          g_assert_cmpuint (decoded.time, ==, 1001);
        }
      if (rec.type == PERF_RECORD_SAMPLE)
        {
          g_assert_cmpuint (decoded.time, ==, 2000 + n_samples);
          g_assert_cmpuint (decoded.sample.n_ips, ==, 3);
          g_assert_cmpuint (decoded.sample.period, ==, 250000);
          n_samples++;
        }
    }
  g_assert_no_error (error);
  g_assert_cmpuint (n_samples, ==, 3);
  g_assert_cmpuint (hp_perf_file_get_position (file), ==, hp_perf_file_get_data_size (file));
}

/* Two events told apart by PERF_SAMPLE_IDENTIFIER, in samples (first
 * field) and in the sample_id trailer of other records (last field). */
static void
test_several_events (void)
{
  PdFile *f = pd_file_new (128);
  PdAttr a = cpu_clock, b = cpu_clock;
  static const guint64 ids_a[] = { 10, 11 }, ids_b[] = { 20 };
  guint64 st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
  PdId id = { 1, 1, 5, 11, 0 };
  g_autoptr(GByteArray) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HpPerfFile) file = NULL;
  HpPerfFileRecord rec;
  const HpPerfFileEvent *ea, *eb;

  a.sample_type = b.sample_type = st;
  b.config = PERF_COUNT_SW_PAGE_FAULTS;
  pd_file_add_attr (f, &a, ids_a, 2);
  pd_file_add_attr (f, &b, ids_b, 1);
  pd_sample (f->data, st, &id, 0x1000, 1, NULL, 0);   /* a, by id 11 */
  id.id = 20;
  pd_sample (f->data, st, &id, 0x1000, 1, NULL, 0);   /* b */
  pd_comm (f->data, st, &id, "x", FALSE);             /* b, by the trailer */
  id.id = 99;
  pd_sample (f->data, st, &id, 0x1000, 1, NULL, 0);   /* unknown id */
  bytes = pd_file_build (f);
  pd_file_free (f);

  file = hp_perf_file_new_from_data (bytes->data, bytes->len, "events.data", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hp_perf_file_get_n_events (file), ==, 2);
  ea = hp_perf_file_get_event (file, 0);
  eb = hp_perf_file_get_event (file, 1);
  g_assert_cmpstr (eb->name, ==, "page-faults");

  g_assert_true (hp_perf_file_next (file, &rec, &error));
  g_assert_true (rec.event == ea);
  g_assert_true (hp_perf_file_next (file, &rec, &error));
  g_assert_true (rec.event == eb);
  g_assert_true (hp_perf_file_next (file, &rec, &error));
  g_assert_cmpuint (rec.type, ==, PERF_RECORD_COMM);
  g_assert_true (rec.event == eb);
  g_assert_true (hp_perf_file_next (file, &rec, &error));
  g_assert_null (rec.event);
  g_assert_false (hp_perf_file_next (file, &rec, &error));
  g_assert_no_error (error);
}

static void
fill_features (PdFile *f)
{
  static const guint8 id_app[20] = { 0xab, 0xcd, 1, 2, 3 };
  static const guint8 id_kernel[20] = { 0x11, 0x22 };
  GByteArray *b;

  pd_string (pd_file_feature (f, 3), "buildhost", 64, TRUE);      /* HOSTNAME */
  pd_string (pd_file_feature (f, 4), "6.1.0-test", 64, TRUE);     /* OSRELEASE */
  pd_string (pd_file_feature (f, 5), "6.1.99", 64, TRUE);         /* VERSION */
  pd_string (pd_file_feature (f, 6), "x86_64", 64, TRUE);         /* ARCH */
  b = pd_file_feature (f, 7);                                      /* NRCPUS */
  pd_u32 (b, 16);
  pd_u32 (b, 8);
  b = pd_file_feature (f, 11);                                     /* CMDLINE */
  pd_u32 (b, 4);
  pd_string (b, "/usr/bin/perf", 64, TRUE);
  pd_string (b, "record", 64, TRUE);
  pd_string (b, "-g", 64, TRUE);
  pd_string (b, "./app", 64, TRUE);
  b = pd_file_feature (f, 12);                                     /* EVENT_DESC */
  pd_u32 (b, 1);
  pd_u32 (b, 128);
  pd_attr (b, &cpu_clock, 128);
  pd_u32 (b, 1);
  pd_string (b, "cpu-clock:ppp", 64, TRUE);
  pd_u64 (b, 42);
  b = pd_file_feature (f, 2);                                      /* BUILD_ID */
  pd_build_id (b, PERF_RECORD_MISC_USER, 100, id_app, 20, "/usr/bin/app", TRUE);
  pd_build_id (b, PERF_RECORD_MISC_KERNEL, -1, id_kernel, 20, "[kernel.kallsyms]", FALSE);
  b = pd_file_feature (f, 21);                                     /* SAMPLE_TIME */
  pd_u64 (b, 2000);
  pd_u64 (b, 5000);
  b = pd_file_feature (f, 13);                                     /* CPU_TOPOLOGY: not read */
  pd_u32 (b, 0);
}

static void
test_features (void)
{
  PdFile *f = pd_file_new (128);
  static const guint64 ids[] = { 42 };
  g_autoptr(GByteArray) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HpPerfFile) file = NULL;
  const HpPerfFileFeatures *feat;
  const HpPerfFileBuildId *bid;
  g_autofree char *types = NULL;

  pd_file_add_attr (f, &cpu_clock, ids, 1);
  add_basic_records (f->data, cpu_clock.sample_type);
  fill_features (f);
  bytes = pd_file_build (f);
  pd_file_free (f);

  file = hp_perf_file_new_from_data (bytes->data, bytes->len, "features.data", &error);
  g_assert_no_error (error);
  feat = hp_perf_file_get_features (file);
  g_assert_cmpstr (feat->hostname, ==, "buildhost");
  g_assert_cmpstr (feat->os_release, ==, "6.1.0-test");
  g_assert_cmpstr (feat->perf_version, ==, "6.1.99");
  g_assert_cmpstr (feat->arch, ==, "x86_64");
  g_assert_cmpuint (feat->nr_cpus_available, ==, 16);
  g_assert_cmpuint (feat->nr_cpus_online, ==, 8);
  g_assert_cmpstr (feat->cmdline, ==, "/usr/bin/perf record -g ./app");
  g_assert_cmpuint (feat->first_sample_time, ==, 2000);
  g_assert_cmpuint (feat->last_sample_time, ==, 5000);
  g_assert_cmpstr (hp_perf_file_get_event (file, 0)->name, ==, "cpu-clock:ppp");

  g_assert_cmpuint (feat->build_ids->len, ==, 2);
  bid = g_ptr_array_index (feat->build_ids, 0);
  g_assert_cmpstr (bid->filename, ==, "/usr/bin/app");
  g_assert_cmpuint (bid->pid, ==, 100);
  g_assert_cmpuint (bid->size, ==, 20);
  g_assert_cmpuint (bid->build_id[0], ==, 0xab);
  bid = g_ptr_array_index (feat->build_ids, 1);
  g_assert_cmpstr (bid->filename, ==, "[kernel.kallsyms]");
  g_assert_cmpuint (bid->cpumode, ==, PERF_RECORD_MISC_KERNEL);

  /* The features live after the data; the records are unaffected. */
  types = read_types (file, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (types, ==, "3 10 9 9 9 68");
}

static GByteArray *
build_pipe_stream (void)
{
  GByteArray *b = pd_pipe_header ();
  static const guint64 ids[] = { 5 };
  g_autoptr(GByteArray) host = g_byte_array_new ();
  PdAttr attr = cpu_clock;

  attr.sample_type |= PERF_SAMPLE_ID;
  pd_header_attr (b, &attr, 120, ids, 1);
  pd_string (host, "pipehost", 64, TRUE);
  pd_header_feature (b, 3, host);
  pd_event_update_name (b, 5, "cpu-clock:u");
  add_basic_records (b, attr.sample_type);
  return b;
}

static void
check_pipe_file (HpPerfFile *file)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *types = NULL;

  g_assert_true (hp_perf_file_is_pipe (file));
  types = read_types (file, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (types, ==, "3 10 9 9 9 68");
  g_assert_cmpuint (hp_perf_file_get_n_events (file), ==, 1);
  g_assert_cmpstr (hp_perf_file_get_event (file, 0)->name, ==, "cpu-clock:u");
  g_assert_cmpuint (hp_perf_file_get_event (file, 0)->info.sample_type, ==, ST_BASIC | PERF_SAMPLE_ID);
  g_assert_cmpstr (hp_perf_file_get_features (file)->hostname, ==, "pipehost");
}

static void
test_pipe_mode (void)
{
  g_autoptr(GByteArray) stream = build_pipe_stream ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HpPerfFile) file = NULL;

  file = hp_perf_file_new_from_data (stream->data, stream->len, "pipe.data", &error);
  g_assert_no_error (error);
  check_pipe_file (file);
}

/* The same stream through a real pipe, as `perf record -o - | hotpath-cli
 * import -` gives it. */
static void
test_pipe_fd (void)
{
  g_autoptr(GByteArray) stream = build_pipe_stream ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HpPerfFile) file = NULL;
  int fds[2];

  g_assert_cmpint (pipe (fds), ==, 0);
  g_assert_cmpuint (stream->len, <, 65536);  /* fits the pipe buffer */
  g_assert_cmpint (write (fds[1], stream->data, stream->len), ==, (gssize) stream->len);
  close (fds[1]);

  file = hp_perf_file_open_fd (fds[0], "pipe", &error);
  g_assert_no_error (error);
  check_pipe_file (file);
  close (fds[0]);
}

/* A file-mode perf.data arriving on a pipe (cat perf.data | ...). */
static void
test_file_through_pipe (void)
{
  PdFile *f = pd_file_new (128);
  g_autoptr(GByteArray) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HpPerfFile) file = NULL;
  g_autofree char *types = NULL;
  int fds[2];

  pd_file_add_attr (f, &cpu_clock, NULL, 0);
  add_basic_records (f->data, cpu_clock.sample_type);
  fill_features (f);
  bytes = pd_file_build (f);
  pd_file_free (f);

  g_assert_cmpint (pipe (fds), ==, 0);
  g_assert_cmpint (write (fds[1], bytes->data, bytes->len), ==, (gssize) bytes->len);
  close (fds[1]);
  file = hp_perf_file_open_fd (fds[0], "pipe", &error);
  g_assert_no_error (error);
  g_assert_false (hp_perf_file_is_pipe (file));
  g_assert_cmpstr (hp_perf_file_get_features (file)->hostname, ==, "buildhost");
  types = read_types (file, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (types, ==, "3 10 9 9 9 68");
  close (fds[0]);
}

/* zstd-compresses @records into COMPRESSED (or COMPRESSED2) records cut
 * every @chunk bytes of compressed output, so records straddle them. */
static void
append_compressed (GByteArray *out, const GByteArray *records, gsize chunk, gboolean v2)
{
  gsize bound = ZSTD_compressBound (records->len);
  g_autofree guint8 *z = g_malloc (bound);
  gsize zlen = ZSTD_compress (z, bound, records->data, records->len, 3);

  g_assert_false (ZSTD_isError (zlen));
  for (gsize at = 0; at < zlen; at += chunk)
    {
      gsize n = MIN (chunk, zlen - at);
      gsize r = pd_begin (out, v2 ? 83 : 81, 0);

      if (v2)
        pd_u64 (out, n);
      pd_put (out, z + at, n);
      if (v2)
        pd_zeros (out, (8 - n % 8) % 8);
      pd_end (out, r);
    }
}

static void
test_compressed (void)
{
  for (guint v2 = 0; v2 <= 1; v2++)
    {
      PdFile *f = pd_file_new (128);
      g_autoptr(GByteArray) records = g_byte_array_new ();
      g_autoptr(GByteArray) bytes = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(HpPerfFile) file = NULL;
      g_autofree char *types = NULL;
      GString *expected = g_string_new ("3 10 9 9 9 68");
      g_autofree char *expected_str = NULL;

      pd_file_add_attr (f, &cpu_clock, NULL, 0);
      /* 400 samples of varied chain length: about 20 kB uncompressed */
      add_basic_records (records, cpu_clock.sample_type);
      for (guint i = 0; i < 400; i++)
        {
          guint64 chain[16];
          PdId id = { 100, 100, 3000 + i, 0, 0 };

          for (guint j = 0; j < G_N_ELEMENTS (chain); j++)
            chain[j] = 0x401000 + i * 16 + j;
          pd_sample (records, cpu_clock.sample_type, &id, chain[0], 1, chain, 1 + i % 16);
          g_string_append (expected, " 9");
        }
      append_compressed (f->data, records, 64, v2);
      /* an uncompressed round marker after the compressed data */
      pd_finished_round (f->data);
      g_string_append (expected, " 68");
      pd_u32 (pd_file_feature (f, 27), 0);   /* COMPRESSED: version, zstd, ... */
      pd_u32 (pd_file_feature (f, 27), 1);
      bytes = pd_file_build (f);
      pd_file_free (f);

      file = hp_perf_file_new_from_data (bytes->data, bytes->len, "z.data", &error);
      g_assert_no_error (error);
      types = read_types (file, &error);
      g_assert_no_error (error);
      expected_str = g_string_free (expected, FALSE);
      g_assert_cmpstr (types, ==, expected_str);
    }
}

/* User records perf writes that a profile does not need are skipped,
 * including the payload HEADER_TRACING_DATA carries after its size. */
static void
test_skipped_records (void)
{
  g_autoptr(GByteArray) b = pd_pipe_header ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HpPerfFile) file = NULL;
  g_autofree char *types = NULL;
  gsize r;

  pd_header_attr (b, &cpu_clock, 128, NULL, 0);
  /* HEADER_TRACING_DATA: header, u32 size, then size bytes not counted */
  r = pd_begin (b, 66, 0);
  pd_u32 (b, 24);
  pd_end (b, r);
  pd_zeros (b, 24);
  r = pd_begin (b, 79, 0);   /* TIME_CONV */
  pd_zeros (b, 24);
  pd_end (b, r);
  r = pd_begin (b, 200, 0);  /* a type from the future */
  pd_zeros (b, 8);
  pd_end (b, r);
  add_basic_records (b, cpu_clock.sample_type);

  file = hp_perf_file_new_from_data (b->data, b->len, "skip.data", &error);
  g_assert_no_error (error);
  types = read_types (file, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (types, ==, "3 10 9 9 9 68");
}

/* AUX and tracing data after a record, of a size that is a lie: an error
 * that names the record, not an "unknown" one, and no read past the end. */
static void
test_huge_payload (void)
{
  static const struct { guint32 type; guint64 size; const char *name; } cases[] = {
    { 71, G_GUINT64_CONSTANT (1) << 62, "AUXTRACE" },
    { 71, G_MAXUINT64 - 8, "AUXTRACE" },
    { 66, G_MAXUINT32, "HEADER_TRACING_DATA" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GByteArray) b = pd_pipe_header ();
      g_autoptr(GError) error = NULL;
      g_autoptr(HpPerfFile) file = NULL;
      g_autofree char *types = NULL;
      gsize r;

      pd_header_attr (b, &cpu_clock, 128, NULL, 0);
      add_basic_records (b, cpu_clock.sample_type);
      r = pd_begin (b, cases[i].type, 0);
      if (cases[i].type == 71)
        {
          pd_u64 (b, cases[i].size);
          pd_zeros (b, 32);   /* offset, reference, idx, tid, cpu, reserved */
        }
      else
        {
          pd_u32 (b, (guint32) cases[i].size);
          pd_u32 (b, 0);
        }
      pd_end (b, r);
      pd_zeros (b, 64);
      add_basic_records (b, cpu_clock.sample_type);

      file = hp_perf_file_new_from_data (b->data, b->len, "payload.data", &error);
      g_assert_no_error (error);
      types = read_types (file, &error);
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message, "payload.data: "));
      g_assert_nonnull (strstr (error->message, cases[i].name));
      g_assert_null (strstr (error->message, "unknown"));
    }
}

/* Two events that claim the same id, in file mode and in pipe mode: the
 * samples of that id were all counted as the second event's, and the
 * first, imported, had none, with no error. */
static void
test_duplicate_id (void)
{
  static const guint64 ids[] = { 5, 6 }, clash[] = { 6 };
  PdAttr second = cpu_clock;

  second.config = 2;
  {
    PdFile *f = pd_file_new (128);
    g_autoptr(GByteArray) bytes = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(HpPerfFile) file = NULL;

    pd_file_add_attr (f, &cpu_clock, ids, 2);
    pd_file_add_attr (f, &second, clash, 1);
    add_basic_records (f->data, cpu_clock.sample_type);
    bytes = pd_file_build (f);
    pd_file_free (f);
    file = hp_perf_file_new_from_data (bytes->data, bytes->len, "dup.data", &error);
    g_assert_null (file);
    g_assert_error (error, HP_PERF_ERROR, HP_PERF_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "id 6 is already another event's"));
  }
  {
    g_autoptr(GByteArray) b = pd_pipe_header ();
    g_autoptr(GError) error = NULL;
    g_autoptr(HpPerfFile) file = NULL;
    g_autofree char *types = NULL;

    pd_header_attr (b, &cpu_clock, 128, ids, 2);
    pd_header_attr (b, &second, 128, clash, 1);
    add_basic_records (b, cpu_clock.sample_type);
    file = hp_perf_file_new_from_data (b->data, b->len, "dup.data", &error);
    g_assert_no_error (error);
    types = read_types (file, &error);
    g_assert_error (error, HP_PERF_ERROR, HP_PERF_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "dup.data: corrupted HEADER_ATTR"));
    g_assert_nonnull (strstr (error->message, "id 6 is already another event's"));
  }
}

/* perf record killed before it rewrote the header: data size 0, records
 * up to the end of the file, no feature sections. */
static void
test_cut_short (void)
{
  PdFile *f = pd_file_new (128);
  g_autoptr(GByteArray) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HpPerfFile) file = NULL;
  g_autofree char *types = NULL;
  guint64 zero = 0;
  guint64 data_offset;

  pd_file_add_attr (f, &cpu_clock, NULL, 0);
  add_basic_records (f->data, cpu_clock.sample_type);
  bytes = pd_file_build (f);
  pd_file_free (f);
  memcpy (&data_offset, bytes->data + 40, 8);
  memcpy (bytes->data + 48, &zero, 8);
  /* The header still announces features, as perf's first write does. */
  bytes->data[72] = 1 << 3;

  g_test_expect_message ("hp-perf", G_LOG_LEVEL_MESSAGE, "*data size in the header is 0*");
  file = hp_perf_file_new_from_data (bytes->data, bytes->len, "killed.data", &error);
  g_test_assert_expected_messages ();
  g_assert_no_error (error);
  types = read_types (file, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (types, ==, "3 10 9 9 9 68");
}

/* An empty recording: data size 0 and valid feature sections. */
static void
test_empty_data (void)
{
  PdFile *f = pd_file_new (128);
  g_autoptr(GByteArray) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HpPerfFile) file = NULL;
  g_autofree char *types = NULL;

  pd_file_add_attr (f, &cpu_clock, NULL, 0);
  fill_features (f);
  bytes = pd_file_build (f);
  pd_file_free (f);

  file = hp_perf_file_new_from_data (bytes->data, bytes->len, "empty.data", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (hp_perf_file_get_features (file)->hostname, ==, "buildhost");
  types = read_types (file, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (types, ==, "");
}

/* Broken files ------------------------------------------------------------- */

static GByteArray *
valid_file (void)
{
  PdFile *f = pd_file_new (128);
  GByteArray *bytes;

  pd_file_add_attr (f, &cpu_clock, NULL, 0);
  add_basic_records (f->data, cpu_clock.sample_type);
  fill_features (f);
  bytes = pd_file_build (f);
  pd_file_free (f);
  return bytes;
}

/* Opens and reads @data to the end; returns the one error message. */
static char *
read_error (const guint8 *data, gsize size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpPerfFile) file = NULL;
  g_autofree char *types = NULL;

  file = hp_perf_file_new_from_data (data, size, "bad.data", &error);
  if (file != NULL)
    types = read_types (file, &error);
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, "bad.data: "));
  return g_strdup (error->message);
}

static guint64
data_offset_of (const GByteArray *bytes)
{
  guint64 v;

  memcpy (&v, bytes->data + 40, 8);
  return v;
}

static void
test_errors_header (void)
{
  g_autoptr(GByteArray) good = valid_file ();
  g_autofree char *m1 = NULL, *m2 = NULL, *m3 = NULL, *m4 = NULL, *m5 = NULL, *m6 = NULL;
  guint8 be[16] = "2ELIFREP";
  g_autoptr(GByteArray) bad = g_byte_array_new ();

  m1 = read_error ((const guint8 *) "", 0);
  g_assert_nonnull (strstr (m1, "empty file"));

  m2 = read_error (good->data, 5);
  g_assert_nonnull (strstr (m2, "truncated header at offset 0"));

  m3 = read_error ((const guint8 *) "SQLite format 3\0...................", 32);
  g_assert_nonnull (strstr (m3, "not a perf.data file"));
  g_assert_nonnull (strstr (m3, "'SQLite f'"));

  m4 = read_error (be, sizeof be);
  g_assert_nonnull (strstr (m4, "big-endian"));

  /* Cut inside the header */
  m5 = read_error (good->data, 60);
  g_assert_nonnull (strstr (m5, "truncated header"));

  /* attr_size that no perf_event_attr has */
  pd_put (bad, good->data, good->len);
  bad->data[16] = 3;
  m6 = read_error (bad->data, bad->len);
  g_assert_nonnull (strstr (m6, "attribute size 3 at offset 16"));
}

static void
test_errors_truncated (void)
{
  g_autoptr(GByteArray) good = valid_file ();
  guint64 data_offset = data_offset_of (good);
  g_autofree char *m1 = NULL, *m2 = NULL;

  /* Cut in the data section: the header says where it should end. */
  m1 = read_error (good->data, data_offset + 40);
  g_assert_nonnull (strstr (m1, "data section"));
  g_assert_nonnull (strstr (m1, "ends past the end of the file"));

  /* Cut in the feature sections */
  m2 = read_error (good->data, good->len - 10);
  g_assert_nonnull (strstr (m2, "feature section"));

  /* Every cut gives an error, never a crash or a silent success. */
  for (gsize n = 0; n < good->len; n += 7)
    g_free (read_error (good->data, n));
}

static void
test_errors_corrupt_records (void)
{
  g_autoptr(GByteArray) good = valid_file ();
  guint64 data_offset = data_offset_of (good);
  g_autoptr(GByteArray) bad = g_byte_array_new ();
  g_autofree char *m1 = NULL, *m2 = NULL, *m3 = NULL, *expect1 = NULL, *expect2 = NULL;
  guint16 size;
  guint16 comm_size;

  /* The second record (MMAP2) gets size 4. */
  memcpy (&comm_size, good->data + data_offset + 6, 2);
  pd_put (bad, good->data, good->len);
  size = 4;
  memcpy (bad->data + data_offset + comm_size + 6, &size, 2);
  m1 = read_error (bad->data, bad->len);
  expect1 = g_strdup_printf ("corrupted record at offset %" G_GUINT64_FORMAT, data_offset + comm_size);
  g_assert_nonnull (strstr (m1, expect1));

  /* The first record claims more than the data section holds. */
  g_byte_array_set_size (bad, 0);
  pd_put (bad, good->data, good->len);
  size = 60000;
  memcpy (bad->data + data_offset + 6, &size, 2);
  m2 = read_error (bad->data, bad->len);
  expect2 = g_strdup_printf ("COMM record at offset %" G_GUINT64_FORMAT ": it claims 60000 bytes", data_offset);
  g_assert_nonnull (strstr (m2, expect2));

  /* A feature section whose string runs past its end */
  {
    PdFile *f = pd_file_new (128);
    g_autoptr(GByteArray) bytes = NULL;

    pd_file_add_attr (f, &cpu_clock, NULL, 0);
    add_basic_records (f->data, cpu_clock.sample_type);
    pd_u32 (pd_file_feature (f, 3), 1000);  /* HOSTNAME of 1000 bytes, none there */
    bytes = pd_file_build (f);
    pd_file_free (f);
    m3 = read_error (bytes->data, bytes->len);
    g_assert_nonnull (strstr (m3, "corrupted HOSTNAME feature section at offset"));
  }
}

static void
test_errors_compressed (void)
{
  PdFile *f = pd_file_new (128);
  g_autoptr(GByteArray) bytes = NULL;
  g_autofree char *m = NULL;
  gsize r;

  pd_file_add_attr (f, &cpu_clock, NULL, 0);
  r = pd_begin (f->data, 81, 0);
  pd_put (f->data, "not zstd at all!", 16);
  pd_end (f->data, r);
  bytes = pd_file_build (f);
  pd_file_free (f);
  m = read_error (bytes->data, bytes->len);
  g_assert_nonnull (strstr (m, "corrupted compressed record at offset 248"));
}

/* A zstd frame written by hand: header with a window of 2^@window_log
 * bytes and no content size, so that the decoder must take the window the
 * header asks for. */
static void
zstd_frame_header (GByteArray *z, guint window_log)
{
  static const guint8 magic[] = { 0x28, 0xb5, 0x2f, 0xfd, 0x00 };
  guint8 window = (guint8) ((window_log - 10) << 3);

  pd_put (z, magic, sizeof magic);
  pd_put (z, &window, 1);
}

/* @n RLE blocks of 128 KiB of @byte each: 4 bytes of zstd for 128 KiB. */
static void
zstd_rle_blocks (GByteArray *z, guint n, guint8 byte, gboolean last)
{
  for (guint i = 0; i < n; i++)
    {
      guint32 header = (128u << 10) << 3 | 1u << 1 | (last && i == n - 1);
      guint8 block[4] = { header & 0xff, (header >> 8) & 0xff, header >> 16, byte };

      pd_put (z, block, sizeof block);
    }
}

static GByteArray *
compressed_file (const GByteArray *const *payloads, guint n)
{
  PdFile *f = pd_file_new (128);
  GByteArray *bytes;

  pd_file_add_attr (f, &cpu_clock, NULL, 0);
  add_basic_records (f->data, cpu_clock.sample_type);
  for (guint i = 0; i < n; i++)
    {
      gsize r = pd_begin (f->data, 81, 0);

      pd_put (f->data, payloads[i]->data, payloads[i]->len);
      pd_end (f->data, r);
    }
  pd_u32 (pd_file_feature (f, 27), 0);
  pd_u32 (pd_file_feature (f, 27), 1);
  bytes = pd_file_build (f);
  pd_file_free (f);
  return bytes;
}

/* Compressed data that decompresses to far more than perf writes is
 * refused as it inflates, naming the limit. Before, each COMPRESSED record
 * could inflate to 64 MiB (2 kB of zstd each, in a frame with a 128 MiB
 * window): a 113 kB perf.data of 20 such records took 6.6 s and 80 MB to
 * import, and a megabyte of them a minute and more; 8-byte records
 * compressed 12 000 to 1 cost the time of 160 million records per 100 kB. */
static void
test_errors_compressed_bomb (void)
{
  /* 8 records of 64 MiB each (skipped user records of type 0x50505050,
   * 20560 bytes), one frame with a 128 MiB window across them */
  {
    g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
    g_autoptr(GByteArray) bytes = NULL;
    g_autofree char *m = NULL;

    for (guint i = 0; i < 8; i++)
      {
        GByteArray *z = g_byte_array_new ();

        if (i == 0)
          zstd_frame_header (z, 27);
        zstd_rle_blocks (z, 512, 0x50, FALSE);
        g_ptr_array_add (records, z);
      }
    bytes = compressed_file ((const GByteArray *const *) records->pdata, records->len);
    m = read_error (bytes->data, bytes->len);
    g_assert_nonnull (strstr (m, "decompresses to more than 8192 times its size"));
  }

  /* 8-byte records (FINISHED_ROUND) at a ratio perf can reach, but 16 000
   * of them per compressed byte */
  {
    g_autoptr(GByteArray) rounds = g_byte_array_new ();
    g_autoptr(GByteArray) z = g_byte_array_new ();
    g_autoptr(GByteArray) bytes = NULL;
    g_autofree char *m = NULL;
    const GByteArray *payload[1] = { z };

    while (rounds->len < (1u << 20))
      pd_finished_round (rounds);
    g_byte_array_set_size (z, ZSTD_compressBound (rounds->len));
    g_byte_array_set_size (z, ZSTD_compress (z->data, z->len, rounds->data, rounds->len, 19));
    g_assert_cmpuint (z->len, <, 1000);
    bytes = compressed_file (payload, 1);
    m = read_error (bytes->data, bytes->len);
    g_assert_nonnull (strstr (m, "holds more than 32 records per compressed byte"));
  }
}

/* A named file that is not a regular one is refused at once, saying what
 * it is: opening a FIFO for reading used to wait for a writer for ever
 * (hotpath-cli import FIFO hung, deaf to Ctrl+C); a stream comes as '-'. */
static void
test_errors_not_regular (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hp-perf-file-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "perf.data", NULL);
  g_autofree char *folder = g_build_filename (dir, "folder.data", NULL);
  g_autoptr(GError) error = NULL;
  HpPerfFile *file;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  /* a hang fails the test rather than its time limit */
  alarm (20);
  file = hp_perf_file_open (fifo, &error);
  alarm (0);
  g_assert_null (file);
  g_assert_error (error, HP_PERF_ERROR, HP_PERF_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, fifo));
  g_assert_nonnull (strstr (error->message, "not a regular file (a FIFO); to read a stream, give '-'"));
  g_clear_error (&error);

  file = hp_perf_file_open (folder, &error);
  g_assert_null (file);
  g_assert_nonnull (strstr (error->message, "not a perf.data file: it is a directory"));
  g_clear_error (&error);

  file = hp_perf_file_open ("/dev/zero", &error);
  g_assert_null (file);
  g_assert_nonnull (strstr (error->message, "(a character device)"));

  g_unlink (fifo);
  g_rmdir (folder);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/perf-file/attr-sizes", test_attr_sizes);
  g_test_add_func ("/perf-file/records-decode", test_records_decode);
  g_test_add_func ("/perf-file/several-events", test_several_events);
  g_test_add_func ("/perf-file/features", test_features);
  g_test_add_func ("/perf-file/pipe-mode", test_pipe_mode);
  g_test_add_func ("/perf-file/pipe-fd", test_pipe_fd);
  g_test_add_func ("/perf-file/file-through-pipe", test_file_through_pipe);
  g_test_add_func ("/perf-file/compressed", test_compressed);
  g_test_add_func ("/perf-file/skipped-records", test_skipped_records);
  g_test_add_func ("/perf-file/cut-short", test_cut_short);
  g_test_add_func ("/perf-file/empty-data", test_empty_data);
  g_test_add_func ("/perf-file/errors/header", test_errors_header);
  g_test_add_func ("/perf-file/errors/truncated", test_errors_truncated);
  g_test_add_func ("/perf-file/errors/corrupt-records", test_errors_corrupt_records);
  g_test_add_func ("/perf-file/errors/compressed", test_errors_compressed);
  g_test_add_func ("/perf-file/errors/compressed-bomb", test_errors_compressed_bomb);
  g_test_add_func ("/perf-file/errors/huge-payload", test_huge_payload);
  g_test_add_func ("/perf-file/errors/duplicate-id", test_duplicate_id);
  g_test_add_func ("/perf-file/errors/not-regular", test_errors_not_regular);

  return g_test_run ();
}
