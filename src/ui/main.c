/* main.c - hotpath, the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "ui/hp-application.h"
#include "ui/hp-compare-window.h"

/* hotpath --compare BASE NEW: each side a capture or a folder of captures */
static void
open_compare (GApplication *app,
              char        **sides)
{
  const char *base[] = { sides[0], NULL };
  const char *new_side[] = { sides[1], NULL };

  gtk_window_present (GTK_WINDOW (hp_compare_window_new (GTK_APPLICATION (app), base, new_side)));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HpApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("Hotpath"));
  app = hp_application_new ();
  if (argc == 4 && g_strcmp0 (argv[1], "--compare") == 0)
    {
      char *rest[] = { argv[0], NULL };

      /* before the application's own activate, which then finds this
       * window and opens no empty one */
      g_signal_connect (app, "activate", G_CALLBACK (open_compare), argv + 2);
      return g_application_run (G_APPLICATION (app), 1, rest);
    }
  return g_application_run (G_APPLICATION (app), argc, argv);
}
