/* test-cli-report.c - what hotpath-cli report's header says was measured
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A capture sampled by period (perf record -c N, imported) has no
 * frequency: the header must give the period and its unit instead of a
 * number it does not have.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <string.h>

#include "integration-common.h"
#include "store/hp-capture-writer.h"

static void
write_capture (const char *path,
               const char *key,
               gint64      value)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 module, function, frame, stack;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  hp_capture_writer_set_metadata_int (w, key, value);
  module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  function = hp_capture_writer_intern_function (w, "main", module, NULL, 0);
  frame = hp_capture_writer_intern_frame (w, function, NULL, 0, FALSE, 0x10);
  stack = hp_capture_writer_intern_stack (w, 0, frame);
  hp_capture_writer_add_sample (w, 1000, 1, 0, stack, (guint64) value);
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
}

static void
test_header_rate (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *by_period = g_build_filename (dir, "period.hotpath", NULL);
  g_autofree char *by_freq = g_build_filename (dir, "freq.hotpath", NULL);
  g_autoptr(ItResult) period = NULL, freq = NULL;

  write_capture (by_period, "period", 100000);
  write_capture (by_freq, "frequency", 999);
  {
    const char *args[] = { "report", by_period, NULL };
    period = it_run_cli (args);
  }
  {
    const char *args[] = { "report", by_freq, NULL };
    freq = it_run_cli (args);
  }
  g_test_message ("%s%s", period->out, freq->out);
  g_assert_cmpint (period->status, ==, 0);
  g_assert_cmpint (freq->status, ==, 0);
  g_assert_nonnull (strstr (period->out, "sampled every 100000 ns,"));
  g_assert_null (strstr (period->out, "? Hz"));
  g_assert_nonnull (strstr (freq->out, "sampled at 999 Hz,"));
  g_clear_pointer (&dir, it_tmpdir_free);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/cli/report-header-rate", test_header_rate);
  return g_test_run ();
}
