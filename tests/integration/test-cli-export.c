/* test-cli-export.c - hotpath-cli export and import of other tools' formats
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The capture written here is known by construction: process 10 ("app")
 * with threads 10 and 11; main → other (40 samples, first), main → work
 * (60, plus 2 at another line of work: one folded line of 62), main →
 * work → an inlined function (7), main → work → a kernel function (3) and
 * main → a function whose name holds ';', a newline and a byte that is not
 * UTF-8 (5). The folded export must be exactly those lines; importing it
 * and exporting again must give the same bytes, every count the same.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <string.h>

#include "integration-common.h"
#include "store/hp-capture-writer.h"

#define MS 1000000ull
#define FFFD "\xef\xbf\xbd"

static void
write_capture (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 app, kernel, main_stack, work_stack;
  guint64 time = 1000;

#define FRAME(name, module, line, is_inline) \
  hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, name, module, "app.c", 1), \
                                  "app.c", line, is_inline, 0x100 + line)
#define SAMPLES(n, tid, stack, step) \
  for (guint i_ = 0; i_ < (n); i_++, time += (step)) \
    hp_capture_writer_add_sample (w, time, tid, 0, stack, 1000000)

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  hp_capture_writer_set_process (w, 10, "/usr/bin/app --flag");
  hp_capture_writer_set_thread (w, 10, 10, "app");
  hp_capture_writer_set_thread (w, 11, 10, "worker");
  app = hp_capture_writer_intern_module (w, "/usr/bin/app", "abcdef", FALSE);
  kernel = hp_capture_writer_intern_module (w, "[kernel.kallsyms]", NULL, TRUE);
  main_stack = hp_capture_writer_intern_stack (w, 0, FRAME ("main", app, 5, FALSE));
  work_stack = hp_capture_writer_intern_stack (w, main_stack, FRAME ("work", app, 10, FALSE));

  /* thread 10: the first 40 ms are main → other */
  SAMPLES (40, 10, hp_capture_writer_intern_stack (w, main_stack, FRAME ("other", app, 30, FALSE)), MS);
  time = 1000 + 100 * MS;
  SAMPLES (60, 10, work_stack, MS);
  SAMPLES (2, 10, hp_capture_writer_intern_stack (w, main_stack, FRAME ("work", app, 20, FALSE)), MS);
  SAMPLES (3, 10, hp_capture_writer_intern_stack (w, work_stack, FRAME ("do_syscall", kernel, 0, FALSE)), MS);
  /* thread 11, from 200 ms */
  time = 1000 + 200 * MS;
  SAMPLES (7, 11, hp_capture_writer_intern_stack (w, work_stack, FRAME ("inl", app, 12, TRUE)), MS);
  SAMPLES (5, 11, hp_capture_writer_intern_stack (w, main_stack, FRAME ("evil;x\nname\xff", app, 40, FALSE)), MS);
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
#undef FRAME
#undef SAMPLES
}

static const char expected_all[] =
  "main;evil" FFFD "x" FFFD "name" FFFD " 5\n"
  "main;other 40\n"
  "main;work 62\n"
  "main;work;do_syscall_[k] 3\n"
  "main;work;inl_[i] 7\n";

static char *
export_folded (const char *capture,
               const char *extra1,
               const char *extra2,
               const char *extra3)
{
  const char *args[] = { "export", capture, "--format", "folded", "-o", "-", extra1, extra2, extra3, NULL };
  g_autoptr(ItResult) result = it_run_cli (args);

  if (result->status != 0)
    g_error ("export %s failed: %s", capture, result->err);
  return g_strdup (result->out);
}

static void
test_folded_round_trip (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (dir, "app.hotpath", NULL);
  g_autofree char *folded = g_build_filename (dir, "app.folded", NULL);
  g_autofree char *imported = g_build_filename (dir, "app2.hotpath", NULL);
  g_autofree char *all = NULL, *again = NULL, *tid = NULL, *prefixed = NULL, *early = NULL;
  g_autoptr(ItResult) import = NULL, report = NULL;
  g_autoptr(ItCapture) cap = NULL;
  gboolean seen_inline = FALSE, seen_kernel = FALSE;

  write_capture (capture);
  all = export_folded (capture, NULL, NULL, NULL);
  g_assert_cmpstr (all, ==, expected_all);

  /* the filters of report */
  tid = export_folded (capture, "--tid", "11", NULL);
  g_assert_cmpstr (tid, ==, "main;evil" FFFD "x" FFFD "name" FFFD " 5\nmain;work;inl_[i] 7\n");
  prefixed = export_folded (capture, "--folded-prefix", "--tid", "11");
  g_assert_cmpstr (prefixed, ==,
                   "app (10);worker (11);main;evil" FFFD "x" FFFD "name" FFFD " 5\n"
                   "app (10);worker (11);main;work;inl_[i] 7\n");
  early = export_folded (capture, "--to", "0.05", NULL);
  g_assert_cmpstr (early, ==, "main;other 40\n");

  /* import, and export again: the same bytes */
  g_assert_true (g_file_set_contents (folded, all, -1, NULL));
  {
    const char *args[] = { "import", folded, "-o", imported, NULL };
    import = it_run_cli (args);
  }
  g_assert_cmpint (import->status, ==, 0);
  g_assert_nonnull (strstr (import->err, "117 samples"));
  again = export_folded (imported, NULL, NULL, NULL);
  g_assert_cmpstr (again, ==, all);

  cap = it_capture_open (imported);
  g_assert_cmpuint (hp_profile_get_n_samples (cap->profile), ==, 117);
  for (guint i = 1; i < cap->data->frames->len; i++)
    {
      const HpCaptureFrame *f = &g_array_index (cap->data->frames, HpCaptureFrame, i);
      const HpCaptureFunction *fn = &g_array_index (cap->data->functions, HpCaptureFunction, f->function_id);

      if (strcmp (fn->name, "inl") == 0)
        seen_inline = f->is_inline;
      if (strcmp (fn->name, "do_syscall") == 0)
        seen_kernel = fn->module_id != 0
          && g_array_index (cap->data->modules, HpCaptureModule, fn->module_id).is_kernel;
    }
  g_assert_true (seen_inline);
  g_assert_true (seen_kernel);
  {
    g_autofree char *lacks = hp_capture_get_metadata (cap->capture, "lacks");

    g_assert_nonnull (lacks);
    g_assert_nonnull (strstr (lacks, "times"));
  }
  /* the report says what the import could not hold */
  {
    const char *args[] = { "report", imported, NULL };
    report = it_run_cli (args);
  }
  g_assert_cmpint (report->status, ==, 0);
  g_assert_nonnull (strstr (report->out, "imported from folded stacks, which has no addresses"));
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* py-spy raw and async-profiler collapsed, found by content under any name,
 * and read by report (through the cache) as well as import */
static void
test_folded_dialects (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *text = g_build_filename (dir, "stacks.txt", NULL);
  g_autofree char *capture = g_build_filename (dir, "stacks.hotpath", NULL);
  g_autoptr(ItResult) import = NULL, report = NULL;
  g_autoptr(ItCapture) cap = NULL;
  gboolean seen_py = FALSE, seen_java_inline = FALSE;

  g_assert_true (g_file_set_contents (text,
                                      "Thread 0x7f (active);<module> (x.py:3);foo (x.py:10) 5\r\n"
                                      "\n"
                                      "java/lang/Thread.run_[j];Foo.bar_[i]\t3\n", -1, NULL));
  {
    const char *args[] = { "import", text, "-o", capture, NULL };
    import = it_run_cli (args);
  }
  g_assert_cmpint (import->status, ==, 0);
  cap = it_capture_open (capture);
  g_assert_cmpuint (hp_profile_get_n_samples (cap->profile), ==, 8);
  for (guint i = 1; i < cap->data->frames->len; i++)
    {
      const HpCaptureFrame *f = &g_array_index (cap->data->frames, HpCaptureFrame, i);
      const HpCaptureFunction *fn = &g_array_index (cap->data->functions, HpCaptureFunction, f->function_id);

      if (strcmp (fn->name, "foo") == 0)
        seen_py = g_strcmp0 (f->file, "x.py") == 0 && f->line == 10;
      if (strcmp (fn->name, "Foo.bar") == 0)
        seen_java_inline = f->is_inline;
    }
  g_assert_true (seen_py);
  g_assert_true (seen_java_inline);

  g_setenv ("XDG_CACHE_HOME", dir, TRUE);
  {
    const char *args[] = { "report", text, NULL };
    report = it_run_cli (args);
  }
  g_assert_cmpint (report->status, ==, 0);
  g_assert_nonnull (strstr (report->out, "Foo.bar"));
  g_clear_pointer (&dir, it_tmpdir_free);
}

static void
test_folded_errors (void)
{
  static const struct {
    const char *content;
    const char *message;
  } cases[] = {
    { "a;b 3\nno_count_here\n", ":2: no sample count" },
    { "a;b -4\n", ":1: the count -4 is negative" },
    { "a;b 3\nc;d x12\n", ":2: no sample count: 'x12'" },
    { "a 1\nb;c 2.5\n", ":2: no sample count: '2.5'" },
    { "a 1\n\nb\xff 2\n", ":3: not valid UTF-8" },
    { "a 99999999999999999999999\n", ":1: the count 99999999999999999999999 takes the file past" },
    { "  7\n", ":1: a count without a stack" },
    { "", "empty" },
    { "\n  \n", "empty" },
  };
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *out = g_build_filename (dir, "out.hotpath", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("bad%u.folded", i);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(ItResult) result = NULL;

      g_assert_true (g_file_set_contents (path, cases[i].content, -1, NULL));
      {
        const char *args[] = { "import", path, "-o", out, NULL };
        result = it_run_cli (args);
      }
      g_assert_cmpint (result->status, ==, 1);
      if (strstr (result->err, cases[i].message) == NULL || strstr (result->err, path) == NULL)
        g_error ("case %u: expected '%s' naming %s, got: %s", i, cases[i].message, path, result->err);
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
  g_clear_pointer (&dir, it_tmpdir_free);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/cli/export-folded-round-trip", test_folded_round_trip);
  g_test_add_func ("/integration/cli/import-folded-dialects", test_folded_dialects);
  g_test_add_func ("/integration/cli/import-folded-errors", test_folded_errors);
  return g_test_run ();
}
