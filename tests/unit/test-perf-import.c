/* test-perf-import.c - perf.data files built byte by byte, imported into captures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The recordings sample symtest-target (a -g -O2 program built by the
 * unit tests) at the file offset of outer(), called from main(), so every
 * sample of a correct import has outer as its leaf function and main as
 * its caller. The offsets and the build id are read with libelf, apart
 * from the code under test.
 */

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include <glib/gstdio.h>

#include "analysis/hp-profile.h"
#include "perf/hp-perf-file.h"
#include "perf/hp-regular-file.h"
#include "record/hp-folded-import.h"
#include "record/hp-perf-import.h"
#include "record/hp-pprof-import.h"
#include "store/hp-capture.h"
#include "symbols/hp-file-locator.h"
#include "symbols/hp-symbolizer.h"
#include "perf-data-builder.h"
#include "test-common.h"

#define BASE 0x555555554000ull
#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

static guint64 outer_offset, main_offset, target_size;
static guint8 target_id[20];
static gsize target_id_len;

static void
read_target (void)
{
  g_autoptr(GMappedFile) file = g_mapped_file_new (SYMTEST_TARGET, FALSE, NULL);
  guint64 size;

  g_assert_nonnull (file);
  target_size = g_mapped_file_get_length (file);
  target_id_len = hp_test_elf_build_id (SYMTEST_TARGET, target_id);
  g_assert_true (hp_test_elf_function (SYMTEST_TARGET, "outer", &outer_offset, &size));
  g_assert_true (hp_test_elf_function (SYMTEST_TARGET, "main", &main_offset, &size));
  g_assert_cmpuint (outer_offset, >, 0);
  g_assert_cmpuint (main_offset, >, 0);
}

static const PdAttr cpu_clock = {
  .type = PERF_TYPE_SOFTWARE,
  .config = PERF_COUNT_SW_CPU_CLOCK,
  .period = 4000,
  .freq = TRUE,
  .sample_type = ST,
  .sample_id_all = TRUE,
};

static void
add_sample (GByteArray *b, guint64 st, guint64 time, guint64 id)
{
  guint64 chain[] = { PERF_CONTEXT_USER, BASE + outer_offset + 4, BASE + main_offset + 8 };
  PdId pid = { 4242, 4242, time, id, 0 };

  pd_sample (b, st, &pid, chain[1], 250000, chain, G_N_ELEMENTS (chain));
}

/* Two rounds; in the first, a sample comes before the MMAP2 (older) that
 * maps its address, as records of two CPUs interleave. Only ordering by
 * time at FINISHED_ROUND resolves it. */
static void
add_recording (GByteArray *b, guint64 st, guint n_samples)
{
  PdId id = { 4242, 4242, 10, 0, 0 };

  pd_comm (b, st, &id, "symtest", TRUE);
  add_sample (b, st, 30, 0);
  id.time = 20;
  pd_mmap2 (b, st, &id, BASE, (target_size + 4095) & ~4095ull, 0, SYMTEST_TARGET);
  pd_finished_round (b);
  for (guint i = 1; i < n_samples; i++)
    add_sample (b, st, 40 + i, 0);
  pd_finished_round (b);
}

static void
add_features (PdFile *f, const guint8 *build_id)
{
  GByteArray *b;

  pd_string (pd_file_feature (f, 3), "buildhost", 64, TRUE);
  pd_string (pd_file_feature (f, 4), "6.1.0-test", 64, TRUE);
  pd_string (pd_file_feature (f, 6), "x86_64", 64, TRUE);
  b = pd_file_feature (f, 7);
  pd_u32 (b, 4);
  pd_u32 (b, 4);
  b = pd_file_feature (f, 11);
  pd_u32 (b, 3);
  pd_string (b, "perf", 64, TRUE);
  pd_string (b, "record", 64, TRUE);
  pd_string (b, "symtest", 64, TRUE);
  b = pd_file_feature (f, 21);
  pd_u64 (b, 30);
  pd_u64 (b, 2030);
  if (build_id != NULL)
    pd_build_id (pd_file_feature (f, 2), PERF_RECORD_MISC_USER, 4242, build_id, target_id_len,
                 SYMTEST_TARGET, TRUE);
}

static char *
write_perf_data (const char *dir, const char *name, GByteArray *bytes)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, (const char *) bytes->data, bytes->len, &error);
  g_assert_no_error (error);
  return path;
}

static char *
build_file (const char *dir, const guint8 *build_id, guint n_samples)
{
  PdFile *f = pd_file_new (128);
  g_autoptr(GByteArray) bytes = NULL;
  char *path;

  pd_file_add_attr (f, &cpu_clock, NULL, 0);
  add_recording (f->data, ST, n_samples);
  add_features (f, build_id);
  bytes = pd_file_build (f);
  pd_file_free (f);
  path = write_perf_data (dir, "perf.data", bytes);
  return path;
}

/* Samples of function @name: self, or total when @total. */
static guint64
samples_of (HpProfile *profile, const char *name, gboolean total)
{
  g_autoptr(GArray) ids = hp_profile_find_functions (profile, name);
  guint64 self = 0;

  for (guint i = 0; i < ids->len; i++)
    {
      const HpFunctionStats *s = hp_profile_get_function_stats (profile, g_array_index (ids, gint64, i));

      if (s != NULL)
        self += total ? s->total : s->self;
    }
  return self;
}

typedef HpTestScratch Fixture;

/* Only @expected left in the folder (sub-folders aside): no temporary,
 * journal or WAL files. */
static void
assert_dir_holds (const char *dir, const char * const *expected)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (!g_file_test (path, G_FILE_TEST_IS_DIR) && !g_strv_contains (expected, name))
        g_error ("unexpected file left behind: %s", name);
    }
}

static void
test_basic (Fixture *fx, gconstpointer data)
{
  g_autofree char *perf_data = build_file (fx->dir, target_id, 100);
  g_autofree char *out = g_build_filename (fx->dir, "out.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) cdata = NULL;
  HpProfile *profile;
  HpPerfImportResult result = { 0 };
  static const char * const keys[][2] = {
    { "hostname", "buildhost" }, { "kernel_release", "6.1.0-test" }, { "cpu_count", "4" },
    { "event", "cpu-clock" }, { "event_unit", "ns" }, { "frequency", "4000" },
    { "call_graph", "fp" }, { "command", "perf record symtest" }, { "arch", "x86_64" },
    { "duration_ns", "2000" }, { "complete", "1" }, { "lost_samples", "0" },
  };
  static const char * const left[] = { "perf.data", "out.hotpath", NULL };

  g_assert_true (hp_perf_import (perf_data, out, NULL, &result, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (result.samples, ==, 100);
  g_assert_cmpstr (result.event, ==, "cpu-clock");
  hp_perf_import_result_clear (&result);
  assert_dir_holds (fx->dir, left);

  capture = hp_capture_open (out, FALSE, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autofree char *value = hp_capture_get_metadata (capture, keys[i][0]);

      g_assert_cmpstr (value, ==, keys[i][1]);
    }

  cdata = hp_capture_load (capture, &error);
  g_assert_no_error (error);
  profile = hp_profile_new (cdata, NULL);
  g_assert_cmpuint (hp_profile_get_n_samples (profile), ==, 100);
  /* The sample before its MMAP2 in file order resolves too; its leaf is
   * helper(), inlined into outer(). */
  g_assert_cmpuint (samples_of (profile, "helper", FALSE), ==, 100);
  g_assert_cmpuint (samples_of (profile, "outer", TRUE), ==, 100);
  g_assert_cmpuint (samples_of (profile, "main", TRUE), ==, 100);
  {
    g_autoptr(GArray) ids = hp_profile_find_functions (profile, "outer");
    g_autoptr(GArray) callers = hp_profile_get_callers (profile, g_array_index (ids, gint64, 0));

    g_assert_cmpuint (callers->len, ==, 1);
    g_assert_cmpstr (hp_profile_get_function_name (profile, g_array_index (callers, HpCallEdge, 0).function_id),
                     ==, "main");
  }
  hp_profile_free (profile);
}

/* The recording saw a different build of the file: it must not be used
 * for names, and the frames stay module+0xOFFSET. */
static void
test_build_id_mismatch (Fixture *fx, gconstpointer data)
{
  guint8 other[20];
  g_autofree char *perf_data = NULL;
  g_autofree char *out = g_build_filename (fx->dir, "out.hotpath", NULL);
  g_autofree char *unresolved = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) cdata = NULL;
  HpProfile *profile;
  g_autofree char *leaf = NULL;

  memcpy (other, target_id, sizeof other);
  other[0] ^= 0xff;
  perf_data = build_file (fx->dir, other, 10);
  g_assert_true (hp_perf_import (perf_data, out, NULL, NULL, NULL, &error));
  g_assert_no_error (error);

  capture = hp_capture_open (out, FALSE, &error);
  g_assert_no_error (error);
  unresolved = hp_capture_get_metadata (capture, "unresolved_frames");
  g_assert_cmpint (atoi (unresolved), >, 0);
  cdata = hp_capture_load (capture, &error);
  profile = hp_profile_new (cdata, NULL);
  g_assert_cmpuint (hp_profile_get_n_samples (profile), ==, 10);
  g_assert_cmpuint (samples_of (profile, "outer", TRUE), ==, 0);
  leaf = g_strdup_printf ("symtest-target+0x%" G_GINT64_MODIFIER "x", outer_offset + 4);
  g_assert_cmpuint (samples_of (profile, leaf, FALSE), ==, 10);
  hp_profile_free (profile);
}

/* Recorded elsewhere: the path does not exist under the sysroot, the file
 * is found by build id in --debug-dir; a copy with another id is not used. */
static void
test_debug_dir (Fixture *fx, gconstpointer data)
{
  g_autofree char *perf_data = build_file (fx->dir, target_id, 10);
  g_autofree char *out = g_build_filename (fx->dir, "out.hotpath", NULL);
  g_autofree char *sysroot = g_build_filename (fx->dir, "sysroot", NULL);
  g_autofree char *debug = g_build_filename (fx->dir, "debug", NULL);
  g_autofree char *hex = NULL;
  g_autofree char *id_dir = NULL;
  g_autofree char *copy = NULL;
  g_autoptr(GError) error = NULL;
  const char *dirs[] = { debug, NULL };
  HpPerfImportOptions options = { .sysroot = sysroot, .debug_dirs = dirs };

  for (int pass = 0; pass < 2; pass++)
    {
      g_autoptr(HpCapture) capture = NULL;
      g_autoptr(HpCaptureData) cdata = NULL;
      HpProfile *profile;

      g_assert_cmpint (g_mkdir_with_parents (sysroot, 0700), ==, 0);
      hex = g_strdup ("");
      for (gsize i = 0; i < target_id_len; i++)
        {
          char *next = g_strdup_printf ("%s%02x", hex, target_id[i]);

          g_free (hex);
          hex = next;
        }
      g_free (id_dir);
      id_dir = g_strdup_printf ("%s/.build-id/%.2s", debug, hex);
      g_assert_cmpint (g_mkdir_with_parents (id_dir, 0700), ==, 0);
      g_free (copy);
      copy = g_strdup_printf ("%s/%s", id_dir, hex + 2);
      g_unlink (copy);
      /* pass 0: the right file; pass 1: another ELF file under that id */
      g_assert_cmpint (symlink (pass == 0 ? SYMTEST_TARGET : "/bin/sh", copy), ==, 0);
      g_clear_pointer (&hex, g_free);

      g_assert_true (hp_perf_import (perf_data, out, &options, NULL, NULL, &error));
      g_assert_no_error (error);
      capture = hp_capture_open (out, FALSE, &error);
      cdata = hp_capture_load (capture, &error);
      g_assert_no_error (error);
      profile = hp_profile_new (cdata, NULL);
      g_assert_cmpuint (samples_of (profile, "outer", TRUE), ==, pass == 0 ? 10 : 0);
      hp_profile_free (profile);

      /* The same search through the symbolizer's own API. */
      {
        HpSymbolizer *symbolizer = hp_symbolizer_new ();
        HpModule *module;

        hp_symbolizer_set_sysroot (symbolizer, sysroot);
        hp_symbolizer_add_debug_dir (symbolizer, debug);
        hp_symbolizer_add_build_id (symbolizer, SYMTEST_TARGET, target_id, target_id_len);
        module = hp_symbolizer_get_module (symbolizer, SYMTEST_TARGET, NULL, 0);
        if (pass == 0)
          {
            const HpResolvedAddress *r = hp_symbolizer_lookup (symbolizer, module, outer_offset + 4);

            g_assert_cmpstr (hp_module_get_file (module), ==, copy);
            g_assert_cmpstr (r->frames[r->n_frames - 1].function, ==, "outer");
          }
        else
          g_assert_null (hp_module_get_file (module));
        hp_symbolizer_free (symbolizer);
      }
    }
}

/* A corrupted sample is an error naming its offset; nothing is left. */
static void
test_corrupt_sample (Fixture *fx, gconstpointer data)
{
  PdFile *f = pd_file_new (128);
  g_autoptr(GByteArray) bytes = NULL;
  g_autofree char *perf_data = NULL;
  g_autofree char *out = g_build_filename (fx->dir, "out.hotpath", NULL);
  g_autofree char *expect = NULL;
  g_autoptr(GError) error = NULL;
  guint64 data_offset, at, huge = 1000000;
  static const char * const left[] = { "perf.data", NULL };

  pd_file_add_attr (f, &cpu_clock, NULL, 0);
  add_recording (f->data, ST, 20);
  /* The 5th record is a sample (COMM, SAMPLE, MMAP2, ROUND, SAMPLE...):
   * make its call chain claim a million entries. */
  at = 0;
  for (int i = 0; i < 4; i++)
    {
      guint16 size;

      memcpy (&size, f->data->data + at + 6, 2);
      at += size;
    }
  /* header, ip, pid/tid, time, period, nr */
  memcpy (f->data->data + at + 8 + 8 + 8 + 8 + 8, &huge, 8);
  bytes = pd_file_build (f);
  pd_file_free (f);
  memcpy (&data_offset, bytes->data + 40, 8);
  perf_data = write_perf_data (fx->dir, "perf.data", bytes);

  g_assert_false (hp_perf_import (perf_data, out, NULL, NULL, NULL, &error));
  g_assert_nonnull (error);
  expect = g_strdup_printf ("%s: corrupted record at offset %" G_GUINT64_FORMAT ": malformed sample (72 bytes): its fields are not those its event's "
                            "sample_type 0x%x lays out",
                            perf_data, data_offset + at, ST);
  g_assert_cmpstr (error->message, ==, expect);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  assert_dir_holds (fx->dir, left);

  /* A truncated file: the error names it, nothing is left either. */
  g_clear_error (&error);
  g_assert_cmpint (truncate (perf_data, data_offset + 100), ==, 0);
  g_assert_false (hp_perf_import (perf_data, out, NULL, NULL, NULL, &error));
  g_assert_true (g_str_has_prefix (error->message, perf_data));
  g_assert_nonnull (strstr (error->message, "data section"));
  assert_dir_holds (fx->dir, left);
}

/* perf record -e cpu-clock,page-faults: the first event is imported by
 * default, another by name; the rest are counted. */
static void
test_event_choice (Fixture *fx, gconstpointer data)
{
  PdFile *f = pd_file_new (128);
  PdAttr a = cpu_clock, b = cpu_clock, dummy = cpu_clock;
  guint64 st = ST | PERF_SAMPLE_IDENTIFIER;
  static const guint64 ids_dummy[] = { 1 }, ids_a[] = { 2 }, ids_b[] = { 3 };
  g_autoptr(GByteArray) bytes = NULL;
  g_autofree char *perf_data = NULL;
  g_autofree char *out = g_build_filename (fx->dir, "out.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  HpPerfImportResult result = { 0 };
  HpPerfImportOptions options = { .event = "page-faults" };
  PdId id = { 4242, 4242, 10, 2, 0 };

  dummy.config = PERF_COUNT_SW_DUMMY;
  b.config = PERF_COUNT_SW_PAGE_FAULTS;
  b.freq = FALSE;
  b.period = 1;
  a.sample_type = b.sample_type = dummy.sample_type = st;
  pd_file_add_attr (f, &dummy, ids_dummy, 1);
  pd_file_add_attr (f, &a, ids_a, 1);
  pd_file_add_attr (f, &b, ids_b, 1);
  pd_comm (f->data, st, &id, "symtest", TRUE);
  id.time = 20;
  pd_mmap2 (f->data, st, &id, BASE, (target_size + 4095) & ~4095ull, 0, SYMTEST_TARGET);
  for (guint i = 0; i < 30; i++)
    add_sample (f->data, st, 100 + i, i < 10 ? 3 : 2);   /* 10 page-faults, 20 cpu-clock */
  bytes = pd_file_build (f);
  pd_file_free (f);
  perf_data = write_perf_data (fx->dir, "perf.data", bytes);

  g_assert_true (hp_perf_import (perf_data, out, NULL, &result, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (result.samples, ==, 20);
  g_assert_cmpuint (result.other_samples, ==, 10);
  g_assert_cmpstr (result.event, ==, "cpu-clock");
  hp_perf_import_result_clear (&result);

  g_assert_true (hp_perf_import (perf_data, out, &options, &result, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (result.samples, ==, 10);
  g_assert_cmpstr (result.event, ==, "page-faults");
  hp_perf_import_result_clear (&result);
  {
    g_autoptr(HpCapture) capture = hp_capture_open (out, FALSE, &error);
    g_autofree char *period = hp_capture_get_metadata (capture, "period");
    g_autofree char *unit = hp_capture_get_metadata (capture, "event_unit");

    g_assert_cmpstr (period, ==, "1");
    g_assert_cmpstr (unit, ==, "events");
  }

  options.event = "cycles";
  g_assert_false (hp_perf_import (perf_data, out, &options, &result, NULL, &error));
  g_assert_nonnull (strstr (error->message, "no event 'cycles'"));
}

/* Branch stacks (perf record -b, --call-graph lbr) are refused by name,
 * not reported as corruption. */
static void
test_branch_stack (Fixture *fx, gconstpointer data)
{
  PdFile *f = pd_file_new (128);
  PdAttr attr = cpu_clock;
  g_autoptr(GByteArray) bytes = NULL;
  g_autofree char *perf_data = NULL;
  g_autofree char *out = g_build_filename (fx->dir, "out.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  static const char * const left[] = { "perf.data", NULL };

  attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
  pd_file_add_attr (f, &attr, NULL, 0);
  add_recording (f->data, ST, 3);
  bytes = pd_file_build (f);
  pd_file_free (f);
  perf_data = write_perf_data (fx->dir, "perf.data", bytes);

  g_assert_false (hp_perf_import (perf_data, out, NULL, NULL, NULL, &error));
  g_assert_error (error, HP_PERF_ERROR, HP_PERF_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "branch stacks"));
  assert_dir_holds (fx->dir, left);
}

/* Pipe mode from a file: attributes and features arrive as records. */
static void
test_pipe_file (Fixture *fx, gconstpointer data)
{
  g_autoptr(GByteArray) b = pd_pipe_header ();
  g_autoptr(GByteArray) host = g_byte_array_new ();
  g_autofree char *perf_data = NULL;
  g_autofree char *out = g_build_filename (fx->dir, "out.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  HpPerfImportResult result = { 0 };

  pd_header_attr (b, &cpu_clock, 128, NULL, 0);
  pd_string (host, "pipehost", 64, TRUE);
  pd_header_feature (b, 3, host);
  add_recording (b, ST, 50);
  perf_data = write_perf_data (fx->dir, "pipe.data", b);

  g_assert_true (hp_perf_import (perf_data, out, NULL, &result, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (result.samples, ==, 50);
  hp_perf_import_result_clear (&result);
  {
    g_autoptr(HpCapture) capture = hp_capture_open (out, FALSE, &error);
    g_autofree char *hostname = hp_capture_get_metadata (capture, "hostname");
    g_autofree char *duration = hp_capture_get_metadata (capture, "duration_ns");

    g_assert_cmpstr (hostname, ==, "pipehost");
    /* no SAMPLE_TIME feature in pipe mode: from the samples, 30 .. 89 */
    g_assert_cmpstr (duration, ==, "59");
  }
}

static void
test_cache (Fixture *fx, gconstpointer data)
{
  g_autofree char *perf_data = build_file (fx->dir, target_id, 10);
  g_autofree char *first = NULL, *again = NULL, *changed = NULL;
  g_autofree char *first_shm = NULL, *first_wal = NULL;
  g_autoptr(GError) error = NULL;
  GStatBuf st1, st2;
  struct utimbuf times = { 1000000000, 1000000000 };

  /* XDG_CACHE_HOME was pointed at a temporary folder in main(). */
  first = hp_perf_import_cached (perf_data, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (first, g_get_user_cache_dir ()));
  g_assert_cmpint (g_stat (first, &st1), ==, 0);

  again = hp_perf_import_cached (perf_data, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again, ==, first);
  g_assert_cmpint (g_stat (again, &st2), ==, 0);
  g_assert_cmpint (st1.st_ino, ==, st2.st_ino);  /* reused, not imported again */

  /* A changed perf.data gets a new capture; the stale one goes, with the
   * files SQLite keeps beside it (a window that had it open leaves a -shm) */
  first_shm = g_strconcat (first, "-shm", NULL);
  first_wal = g_strconcat (first, "-wal", NULL);
  g_assert_true (g_file_set_contents (first_shm, "shm", -1, NULL));
  g_assert_true (g_file_set_contents (first_wal, "wal", -1, NULL));
  g_assert_cmpint (g_utime (perf_data, &times), ==, 0);
  changed = hp_perf_import_cached (perf_data, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (changed, !=, first);
  g_assert_true (g_file_test (changed, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (first, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (first_shm, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (first_wal, G_FILE_TEST_EXISTS));

  /* A broken perf.data leaves nothing in the cache. */
  g_assert_cmpint (truncate (perf_data, 200), ==, 0);
  g_assert_null (hp_perf_import_cached (perf_data, NULL, NULL, NULL, &error));
  g_assert_nonnull (error);
  g_assert_true (g_file_test (changed, G_FILE_TEST_IS_REGULAR));
}

/* A perf.data bigger than what the reader keeps mapped (it gives back the
 * pages it has passed), in rounds whose records come newest first: the
 * records of a round are read again, sorted, after the pages under the
 * first of them were given back, and every sample must still resolve. */
static void
test_big_file (Fixture *fx, gconstpointer data)
{
  PdFile *f = pd_file_new (128);
  g_autoptr(GByteArray) bytes = NULL;
  g_autofree char *perf_data = NULL;
  g_autofree char *out = g_build_filename (fx->dir, "out.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) cdata = NULL;
  HpPerfImportResult result = { 0 };
  HpProfile *profile;
  PdId id = { 4242, 4242, 10, 0, 0 };
  guint64 chain[130];
  const guint n_rounds = 4, per_round = 24000;  /* about 100 MB */
  guint64 time = 100;

  chain[0] = PERF_CONTEXT_USER;
  chain[1] = BASE + outer_offset + 4;
  for (guint i = 2; i < G_N_ELEMENTS (chain); i++)
    chain[i] = BASE + main_offset + 8;

  pd_file_add_attr (f, &cpu_clock, NULL, 0);
  pd_comm (f->data, ST, &id, "symtest", TRUE);
  id.time = 20;
  pd_mmap2 (f->data, ST, &id, BASE, (target_size + 4095) & ~4095ull, 0, SYMTEST_TARGET);
  pd_finished_round (f->data);
  for (guint r = 0; r < n_rounds; r++)
    {
      for (guint i = 0; i < per_round; i++)
        {
          id.time = time + per_round - i;
          pd_sample (f->data, ST, &id, chain[1], 250000, chain, G_N_ELEMENTS (chain));
        }
      time += per_round;
      pd_finished_round (f->data);
    }
  add_features (f, target_id);
  bytes = pd_file_build (f);
  pd_file_free (f);
  g_assert_cmpuint (bytes->len, >, 96u << 20);
  perf_data = write_perf_data (fx->dir, "perf.data", bytes);
  g_clear_pointer (&bytes, g_byte_array_unref);

  g_assert_true (hp_perf_import (perf_data, out, NULL, &result, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (result.samples, ==, n_rounds * per_round);
  hp_perf_import_result_clear (&result);

  capture = hp_capture_open (out, FALSE, &error);
  g_assert_no_error (error);
  cdata = hp_capture_load (capture, &error);
  g_assert_no_error (error);
  profile = hp_profile_new (cdata, NULL);
  g_assert_cmpuint (hp_profile_get_n_samples (profile), ==, n_rounds * per_round);
  g_assert_cmpuint (samples_of (profile, "helper", FALSE), ==, n_rounds * per_round);
  g_assert_cmpuint (samples_of (profile, "main", TRUE), ==, n_rounds * per_round);
  hp_profile_free (profile);
}

/* A [vdso] mapping (no file): named from the image perf saved in its
 * build-id cache (DIR/[vdso]/ID/vdso; here the test target stands in for
 * it), and when the recording's vDSO is nowhere, a note in the capture
 * says so. */
#define VDSO_BASE 0x7ffff7fc1000ull

static char *
build_vdso_file (const char *dir, const guint8 *vdso_id, guint n_samples)
{
  PdFile *f = pd_file_new (128);
  g_autoptr(GByteArray) bytes = NULL;
  PdId id = { 4242, 4242, 10, 0, 0 };
  guint64 chain[] = { PERF_CONTEXT_USER, VDSO_BASE + outer_offset + 4 };

  pd_file_add_attr (f, &cpu_clock, NULL, 0);
  pd_comm (f->data, ST, &id, "symtest", TRUE);
  id.time = 20;
  pd_mmap2 (f->data, ST, &id, VDSO_BASE, (target_size + 4095) & ~4095ull, 0, "[vdso]");
  for (guint i = 0; i < n_samples; i++)
    {
      id.time = 40 + i;
      pd_sample (f->data, ST, &id, chain[1], 250000, chain, G_N_ELEMENTS (chain));
    }
  pd_finished_round (f->data);
  add_features (f, NULL);
  pd_build_id (pd_file_feature (f, 2), PERF_RECORD_MISC_USER, 4242, vdso_id, 20, "[vdso]", TRUE);
  bytes = pd_file_build (f);
  pd_file_free (f);
  return write_perf_data (dir, "perf.data", bytes);
}

static void
test_vdso (Fixture *fx, gconstpointer data)
{
  g_autofree char *out = g_build_filename (fx->dir, "out.hotpath", NULL);
  g_autofree char *debug = g_build_filename (fx->dir, "debug", NULL);
  g_autofree char *hex = hp_build_id_to_hex (target_id, target_id_len);
  g_autofree char *cached_dir = g_build_filename (debug, "[vdso]", hex, NULL);
  g_autofree char *cached = g_build_filename (cached_dir, "vdso", NULL);
  const char *dirs[] = { debug, NULL };
  HpPerfImportOptions options = { .debug_dirs = dirs };
  guint8 fake[20];

  g_assert_cmpint (g_mkdir_with_parents (cached_dir, 0700), ==, 0);
  g_assert_cmpint (symlink (SYMTEST_TARGET, cached), ==, 0);
  memset (fake, 0x5a, sizeof fake);
  for (int pass = 0; pass < 2; pass++)
    {
      g_autofree char *perf_data = build_vdso_file (fx->dir, pass == 0 ? target_id : fake, 10);
      g_autoptr(GError) error = NULL;
      g_autoptr(HpCapture) capture = NULL;
      g_autoptr(HpCaptureData) cdata = NULL;
      g_autofree char *notes = NULL;
      HpProfile *profile;

      g_assert_true (hp_perf_import (perf_data, out, &options, NULL, NULL, &error));
      g_assert_no_error (error);
      capture = hp_capture_open (out, FALSE, &error);
      g_assert_no_error (error);
      notes = hp_capture_get_metadata (capture, "symbol_notes");
      cdata = hp_capture_load (capture, &error);
      g_assert_no_error (error);
      profile = hp_profile_new (cdata, NULL);
      if (pass == 0)
        {
          /* helper() is inlined into outer() at that address */
          g_assert_cmpuint (samples_of (profile, "outer", TRUE), ==, 10);
          g_assert_null (notes);
        }
      else
        {
          g_assert_cmpuint (samples_of (profile, "outer", TRUE), ==, 0);
          g_assert_nonnull (notes);
          g_assert_nonnull (strstr (notes, "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a"));
        }
      hp_profile_free (profile);
    }
}

/* A perf.data of @n_samples samples of the symtest target mapped at
 * BASE, sample i with the call chain @chains[i % @n_chains] (its
 * @lengths entries, PERF_CONTEXT_USER first, the sampled address next). */
static char *
build_chain_file (const char            *dir,
                  const guint64 * const *chains,
                  const gsize           *lengths,
                  guint                  n_chains,
                  guint                  n_samples)
{
  PdFile *f = pd_file_new (128);
  g_autoptr(GByteArray) bytes = NULL;
  PdId id = { 4242, 4242, 10, 0, 0 };

  pd_file_add_attr (f, &cpu_clock, NULL, 0);
  pd_comm (f->data, ST, &id, "symtest", TRUE);
  id.time = 20;
  pd_mmap2 (f->data, ST, &id, BASE, (target_size + 4095) & ~4095ull, 0, SYMTEST_TARGET);
  for (guint i = 0; i < n_samples; i++)
    {
      const guint64 *chain = chains[i % n_chains];

      id.time = 30 + i;
      pd_sample (f->data, ST, &id, chain[1], 250000, chain, lengths[i % n_chains]);
    }
  pd_finished_round (f->data);
  add_features (f, target_id);
  bytes = pd_file_build (f);
  pd_file_free (f);
  return write_perf_data (dir, "perf.data", bytes);
}

/* A frame-pointer chain as the kernel walks it past a program's start
 * (a static glibc's __libc_start_main keeps no frame pointer): after
 * main, the data read as frames, here the address where outer() starts
 * (mapped, but no return address) and a value mapped nowhere. The chain
 * ends at main's caller-less start; and at an address in no mapping,
 * where the stack, cut short, hangs under [truncated]. No [unknown]
 * frame is left, nor outer as a caller of main. */
static void
test_fp_chain_end (Fixture *fx, gconstpointer data)
{
  g_autofree char *perf_data = NULL;
  g_autofree char *out = g_build_filename (fx->dir, "out.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) cdata = NULL;
  g_autoptr(GArray) main_callers = NULL;
  g_autoptr(GArray) outer_callers = NULL;
  const GArray *functions;
  HpProfile *profile;
  const guint64 past_start[] = { PERF_CONTEXT_USER, BASE + outer_offset + 4, BASE + main_offset + 8,
                                 BASE + outer_offset, 0xbe552274c0854800ull };
  const guint64 unmapped[] = { PERF_CONTEXT_USER, BASE + outer_offset + 4, 0x7ffc00001000ull,
                               BASE + main_offset + 8 };
  const guint64 * const chains[] = { past_start, unmapped };
  const gsize lengths[] = { G_N_ELEMENTS (past_start), G_N_ELEMENTS (unmapped) };

  perf_data = build_chain_file (fx->dir, chains, lengths, G_N_ELEMENTS (chains), 20);

  g_assert_true (hp_perf_import (perf_data, out, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  capture = hp_capture_open (out, FALSE, &error);
  g_assert_no_error (error);
  cdata = hp_capture_load (capture, &error);
  g_assert_no_error (error);
  profile = hp_profile_new (cdata, NULL);
  g_assert_cmpuint (hp_profile_get_n_samples (profile), ==, 20);
  g_assert_cmpuint (samples_of (profile, "main", TRUE), ==, 10);
  g_assert_cmpuint (samples_of (profile, "[truncated]", TRUE), ==, 10);
  functions = hp_profile_get_functions (profile, TRUE);
  for (guint i = 0; i < functions->len; i++)
    {
      const char *name = hp_profile_get_function_name (profile, g_array_index (functions, HpFunctionStats, i).function_id);

      g_test_message ("%s", name);
      g_assert_false (g_str_has_prefix (name, "[unknown]"));
    }
  {
    g_autoptr(GArray) ids = hp_profile_find_functions (profile, "main");

    main_callers = hp_profile_get_callers (profile, g_array_index (ids, gint64, 0));
  }
  g_assert_cmpuint (main_callers->len, ==, 0);
  {
    g_autoptr(GArray) ids = hp_profile_find_functions (profile, "outer");

    outer_callers = hp_profile_get_callers (profile, g_array_index (ids, gint64, 0));
  }
  g_assert_cmpuint (outer_callers->len, ==, 2);
  hp_profile_free (profile);
}

/* A start function sampled itself, not reached as a caller (the clone3
 * of the thread that calls pthread_create or posix_spawn), keeps the
 * callers above it: here main sampled, called by outer. */
static void
test_fp_chain_start_leaf (Fixture *fx, gconstpointer data)
{
  g_autofree char *perf_data = NULL;
  g_autofree char *out = g_build_filename (fx->dir, "out.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) cdata = NULL;
  HpProfile *profile;
  const guint64 chain[] = { PERF_CONTEXT_USER, BASE + main_offset + 4, BASE + outer_offset + 8 };
  const guint64 * const chains[] = { chain };
  const gsize lengths[] = { G_N_ELEMENTS (chain) };

  perf_data = build_chain_file (fx->dir, chains, lengths, 1, 10);

  g_assert_true (hp_perf_import (perf_data, out, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  capture = hp_capture_open (out, FALSE, &error);
  g_assert_no_error (error);
  cdata = hp_capture_load (capture, &error);
  g_assert_no_error (error);
  profile = hp_profile_new (cdata, NULL);
  g_assert_cmpuint (hp_profile_get_n_samples (profile), ==, 10);
  g_assert_cmpuint (samples_of (profile, "main", FALSE), ==, 10);
  g_assert_cmpuint (samples_of (profile, "outer", TRUE), ==, 10);
  hp_profile_free (profile);
}

/* Each sniffer, and the JIT maps, open a named file through
 * hp_regular_file_open(): a FIFO, however it is named, is refused at
 * once (opening one for reading would wait for a writer: the test would
 * time out), a folder is refused, and a regular file is read. */
static void
test_sniff_regular_only (Fixture *fx, gconstpointer data)
{
  static const char *const names[] = { "perf.data", "app.pprof", "app.pb.gz", "app.folded" };
  g_autofree char *folder = g_build_filename (fx->dir, "folder.data", NULL);
  g_autofree char *perf_data = g_build_filename (fx->dir, "real.data", NULL);
  g_autofree char *folded = g_build_filename (fx->dir, "real.folded", NULL);
  struct stat st;
  int fd;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *fifo = g_build_filename (fx->dir, names[i], NULL);

      g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
      g_assert_cmpint (hp_regular_file_open (fifo, &st), ==, -1);
      g_assert_cmpint (errno, ==, EINVAL);
      g_assert_false (hp_perf_file_sniff (fifo));
      g_assert_false (hp_pprof_sniff (fifo));
      g_assert_false (hp_folded_sniff (fifo));
      g_assert_false (hp_perf_import_is_perf_data (fifo));
    }

  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  g_assert_cmpint (hp_regular_file_open (folder, NULL), ==, -1);
  g_assert_false (hp_perf_import_is_perf_data (folder));
  g_assert_cmpint (hp_regular_file_open ("/nonexistent/perf.data", NULL), ==, -1);
  g_assert_cmpint (errno, ==, ENOENT);

  g_assert_true (g_file_set_contents (perf_data, "PERFILE2 and the rest", -1, NULL));
  fd = hp_regular_file_open (perf_data, &st);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (st.st_size, ==, 21);
  close (fd);
  g_assert_true (hp_perf_file_sniff (perf_data));
  g_assert_true (g_file_set_contents (folded, "main;work 12\n", -1, NULL));
  g_assert_true (hp_folded_sniff (folded));
  g_assert_false (hp_perf_file_sniff (folded));
}

/* One name for the capture of an imported file, for `hotpath-cli import`
 * and the window's Save as Capture (which once cut at the first dot:
 * run.perf.data was run.hotpath in the window, run.perf.hotpath in the
 * CLI). */
static void
test_capture_name (void)
{
  static const struct { const char *input, *name; } cases[] = {
    { "perf.data", "perf.hotpath" },
    { "/srv/traces/run.perf.data", "run.perf.hotpath" },
    { "perf.data.old", "perf.data.old.hotpath" },
    { "cpu.pb.gz", "cpu.hotpath" },
    { "cpu.pprof", "cpu.hotpath" },
    { "cpu.pb", "cpu.hotpath" },
    { "out.folded", "out.hotpath" },
    { "out.collapsed", "out.hotpath" },
    { "trace", "trace.hotpath" },
    { "-", "perf.hotpath" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = hp_perf_import_capture_name (cases[i].input);

      g_assert_cmpstr (name, ==, cases[i].name);
    }
}

int
main (int argc, char **argv)
{
  g_autofree char *cache = g_dir_make_tmp ("hotpath-cache-XXXXXX", NULL);
  int ret;

  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_test_init (&argc, &argv, NULL);
  read_target ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, hp_test_scratch_set_up, func, hp_test_scratch_tear_down)
  ADD ("/perf-import/basic", test_basic);
  ADD ("/perf-import/build-id-mismatch", test_build_id_mismatch);
  ADD ("/perf-import/debug-dir", test_debug_dir);
  ADD ("/perf-import/vdso", test_vdso);
  ADD ("/perf-import/fp-chain-end", test_fp_chain_end);
  ADD ("/perf-import/fp-chain-start-leaf", test_fp_chain_start_leaf);
  ADD ("/perf-import/corrupt-sample", test_corrupt_sample);
  ADD ("/perf-import/event-choice", test_event_choice);
  ADD ("/perf-import/branch-stack", test_branch_stack);
  ADD ("/perf-import/pipe-file", test_pipe_file);
  ADD ("/perf-import/cache", test_cache);
  ADD ("/perf-import/big-file", test_big_file);
  ADD ("/perf-import/sniff-regular-only", test_sniff_regular_only);
  g_test_add_func ("/perf-import/capture-name", test_capture_name);
#undef ADD

  ret = g_test_run ();
  hp_test_remove_tree (cache);
  return ret;
}
