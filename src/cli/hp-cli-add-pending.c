/* hp-cli-add-pending.c - hotpath-cli add-pending: the samples that waited for a write lock
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Adds to a capture the rows its recorder kept in NAME.pending.sql (and
 * NAME.pending-N.sql) beside it while another program held the write lock
 * (store/hp-capture-pending.c), and removes each file once added. The
 * file is checked to hold only the writer's statements, and its values
 * are bound to them: unlike `sqlite3 NAME < NAME.pending.sql`, which runs
 * whatever a file mailed with a capture says (dot-commands that run
 * programs and write files included), nothing in it is run.
 */

#define G_LOG_DOMAIN "hp-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "analysis/hp-text.h"
#include "cli/hp-cli.h"
#include "store/hp-capture-pending.h"

int
hp_cli_add_pending (int    argc,
                    char **argv)
{
  g_auto(GStrv) files = NULL;
  gboolean check = FALSE;
  GOptionEntry entries[] = {
    { "check", 0, 0, G_OPTION_ARG_NONE, &check, N_("Only check the files and say how many samples they hold"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = hp_cli_option_context_new (N_("CAPTURE"));
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(GPtrArray) pending = NULL;
  g_autofree char *safe_capture = NULL;
  int status = 0;

  g_option_context_set_summary (context,
                                N_("Add to a capture the samples that waited for another program's write lock "
                                   "and were left in CAPTURE.pending.sql beside it (a recorder killed, or that "
                                   "gave up waiting), then remove that file. Only the statements Hotpath's "
                                   "recorder writes there are accepted; nothing in the file is run as SQL.\n\n"
                                   "Example:\n"
                                   "  hotpath-cli add-pending app.hotpath"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!hp_cli_parse_one_file (context, "add-pending", &argc, &argv, &files, "give one capture file"))
    return 2;

  safe_capture = hp_text_escape (files[0]);
  pending = hp_capture_list_pending (files[0]);
  if (pending->len == 0)
    {
      hp_cli_error (_("%s: no samples wait beside it (no %s.pending.sql)"), safe_capture, safe_capture);
      return 1;
    }
  cancellable = hp_cli_cancel_on_signals ();
  for (guint i = 0; i < pending->len; i++)
    {
      const char *file = g_ptr_array_index (pending, i);
      g_autofree char *safe_file = hp_text_escape (file);
      g_autoptr(GError) error = NULL;
      g_autofree char *count = NULL;
      guint64 n = 0;
      gboolean ok = check ? hp_capture_check_pending (file, &n, &error)
                          : hp_capture_add_pending (files[0], file, cancellable, &n, &error);

      if (!ok)
        {
          g_autofree char *message = hp_text_escape (error->message);

          hp_cli_error ("%s", message);
          status = 1;
          continue;
        }
      count = hp_cli_samples (n);
      if (check)
        /* Translators: file, "12 samples", capture */
        printf (_("%s: %s to add to %s\n"), safe_file, count, safe_capture);
      else
        /* Translators: "12 samples", file, capture */
        printf (_("added %s from %s to %s\n"), count, safe_file, safe_capture);
    }
  return status;
}
