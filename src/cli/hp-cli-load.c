/* hp-cli-load.c - opening what a sub-command reads: a capture or a perf.data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Every sub-command that reads a profile starts the same way: a perf.data
 * is imported once into a cached capture (reused while the file is
 * unchanged, the cache the window uses too), the capture is opened
 * read-only and its tables are loaded. A failure is printed as the one
 * line a failure gets.
 */

#define G_LOG_DOMAIN "hp-cli"

#include "config.h"

#include "cli/hp-cli.h"
#include "perf/hp-perf-file.h"
#include "record/hp-perf-import.h"

gboolean
hp_cli_load_capture (const char     *file,
                     HpCapture     **out_capture,
                     HpCaptureData **out_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) data = NULL;
  g_autofree char *cached = NULL;

  g_return_val_if_fail (file != NULL, FALSE);
  g_return_val_if_fail (out_capture != NULL, FALSE);
  g_return_val_if_fail (out_data != NULL, FALSE);

  if (hp_perf_file_sniff (file))
    {
      g_autoptr(GCancellable) cancellable = hp_cli_cancel_on_signals ();

      cached = hp_perf_import_cached (file, cancellable, &error);
      if (cached == NULL)
        {
          hp_cli_error ("%s", error->message);
          return FALSE;
        }
      file = cached;
    }

  capture = hp_capture_open (file, FALSE, &error);
  if (capture == NULL)
    {
      hp_cli_error ("%s", error->message);
      return FALSE;
    }
  data = hp_capture_load (capture, &error);
  if (data == NULL)
    {
      hp_cli_error ("%s", error->message);
      return FALSE;
    }
  *out_capture = g_steal_pointer (&capture);
  *out_data = g_steal_pointer (&data);
  return TRUE;
}
