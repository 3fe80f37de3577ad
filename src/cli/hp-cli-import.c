/* hp-cli-import.c - hotpath-cli import: perf.data or folded stacks to a capture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hp-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include <stdio.h>
#include <string.h>

#include "cli/hp-cli.h"
#include "perf/hp-perf-file.h"
#include "record/hp-folded-import.h"
#include "record/hp-pprof-import.h"
#include "record/hp-perf-import.h"
#include "store/hp-capture.h"

static int
import_folded (const char *input,
               const char *output)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = hp_cli_cancel_on_signals ();
  HpFoldedImportResult result = { 0 };

  if (!hp_folded_import (input, output, &result, cancellable, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        hp_cli_error (_("import of %s interrupted; %s was not written"), input, output);
      else
        hp_cli_error ("%s", error->message);
      return 1;
    }
  {
    g_autofree char *samples = hp_cli_samples (result.samples);

    fprintf (stderr, g_dngettext (GETTEXT_PACKAGE,
                                  "hotpath-cli: wrote %s: %s in %" PRIu64
                                  " stack from folded stacks (no addresses, modules, times or threads)\n",
                                  "hotpath-cli: wrote %s: %s in %" PRIu64
                                  " stacks from folded stacks (no addresses, modules, times or threads)\n",
                                  result.stacks),
             output, samples, result.stacks);
  }
  return 0;
}

static int
import_pprof (const char *input,
              const char *output)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = hp_cli_cancel_on_signals ();
  HpPprofImportResult result = { 0 };

  if (!hp_pprof_import (input, output, &result, cancellable, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        hp_cli_error (_("import of %s interrupted; %s was not written"), input, output);
      else
        hp_cli_error ("%s", error->message);
      return 1;
    }
  {
    g_autofree char *samples = hp_cli_samples (result.samples);

    fprintf (stderr, _("hotpath-cli: wrote %s: %s of %s from a pprof profile (no sample times)\n"),
             output, samples, result.event);
  }
  hp_pprof_import_result_clear (&result);
  return 0;
}

int
hp_cli_import (int    argc,
               char **argv)
{
  g_auto(GStrv) files = NULL;
  g_auto(GStrv) debug_dirs = NULL;
  g_autofree char *output = NULL;
  g_autofree char *sysroot = NULL;
  g_autofree char *event = NULL;
  gboolean force = FALSE;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the capture to FILE (default: PERF.DATA with .hotpath for .data)"), N_("FILE") },
    { "force", 'f', 0, G_OPTION_ARG_NONE, &force, N_("Overwrite an existing output file"), NULL },
    { "sysroot", 0, 0, G_OPTION_ARG_FILENAME, &sysroot, N_("Look up the recorded files under DIR (recorded on another machine)"), N_("DIR") },
    { "debug-dir", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &debug_dirs, N_("Find files by build id in DIR/.build-id too (repeatable)"), N_("DIR") },
    { "event", 'e', 0, G_OPTION_ARG_STRING, &event, N_("Import the samples of EVENT (default: the first sampling event)"), N_("EVENT") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = hp_cli_option_context_new (N_("PERF.DATA"));
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  HpPerfImportOptions options = { 0 };
  HpPerfImportResult result = { 0 };

  g_option_context_set_summary (context,
                                N_("Import a perf.data file written by 'perf record', a pprof profile, or folded stacks\n"
                                "(flamegraph.pl, async-profiler collapsed, py-spy --format raw), into a capture.\n"
                                "Give '-' to read a pipe-mode stream: perf record -o - … | hotpath-cli import - -o FILE\n\n"
                                "Examples:\n"
                                "  hotpath-cli import perf.data -o app.hotpath\n"
                                "  hotpath-cli import profile.pb.gz -o service.hotpath"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!hp_cli_parse_one_file (context, "import", &argc, &argv, &files,
                              "give one perf.data file (or '-' for stdin)"))
    return 2;

  /* what a new user tries first with a capture in hand; without this, it
   * would be named as the output too, or read as a perf.data with a wrong
   * magic number */
  if (strcmp (files[0], "-") != 0)
    switch (hp_capture_sniff (files[0]))
      {
      case HP_CAPTURE_SNIFF_CAPTURE:
        hp_cli_error (_("%s is already a Hotpath capture: nothing to import. Read it as it is "
                      "(hotpath-cli report %s, or open it in the window: hotpath %s)"),
                      files[0], files[0], files[0]);
        return 1;
      case HP_CAPTURE_SNIFF_SQLITE:
        hp_cli_error (_("%s is a SQLite database, not a perf.data file, pprof profile or folded stacks; "
                      "if it is a Hotpath capture, read it as it is (hotpath-cli report %s)"),
                      files[0], files[0]);
        return 1;
      case HP_CAPTURE_SNIFF_OTHER:
      default:
        break;
      }

  if (output == NULL)
    output = hp_perf_import_capture_name (files[0]);
  if (!hp_cli_output_is_file ("import", output))
    return 1;
  if (g_file_test (output, G_FILE_TEST_EXISTS) && !force)
    {
      hp_cli_error (_("%s exists; use --force to overwrite it"), output);
      return 1;
    }

  if (strcmp (files[0], "-") != 0 && !hp_perf_file_sniff (files[0]) && hp_pprof_sniff (files[0]))
    return import_pprof (files[0], output);
  if (strcmp (files[0], "-") != 0 && !hp_perf_file_sniff (files[0]) && hp_folded_sniff (files[0]))
    return import_folded (files[0], output);

  options.sysroot = sysroot;
  options.debug_dirs = (const char * const *) debug_dirs;
  options.event = event;
  options.fetch_func = hp_cli_fetch_progress;
  cancellable = hp_cli_cancel_on_signals ();
  if (!hp_perf_import (files[0], output, &options, &result, cancellable, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        hp_cli_error (_("import of %s interrupted; %s was not written"), files[0], output);
      else
        hp_cli_error ("%s", error->message);
      return 1;
    }

  {
    g_autofree char *samples = hp_cli_samples (result.samples);

    fprintf (stderr, _("hotpath-cli: wrote %s: %s of %s, %" PRIu64 " lost, in %.2f s\n"),
             output, samples, result.event, result.lost, result.seconds);
  }
  if (result.other_samples > 0)
    {
      g_autofree char *others = hp_cli_samples (result.other_samples);

      fprintf (stderr, g_dngettext (GETTEXT_PACKAGE,
                                    "hotpath-cli: %s of other events was not imported (choose with --event)\n",
                                    "hotpath-cli: %s of other events were not imported (choose with --event)\n",
                                    result.other_samples),
               others);
    }
  hp_perf_import_result_clear (&result);
  return 0;
}
