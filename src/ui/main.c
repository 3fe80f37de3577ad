/* main.c - hotpath, the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "ui/hp-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HpApplication) app = NULL;
  const char *localedir = g_getenv ("HOTPATH_LOCALEDIR");

  setlocale (LC_ALL, "");
  /* HOTPATH_LOCALEDIR: the catalogues of a build tree (build/po), as
   * hotpath-cli takes them */
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && localedir[0] != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("Hotpath"));
  app = hp_application_new ();
  /* hotpath --compare BASE NEW: each side a capture or a folder of
   * captures. Through app.compare-sides, so that a Hotpath already
   * running (then the primary instance, which this one only asks) opens
   * the window: with the window connected to this one's activate it
   * opened nothing there. The paths are made absolute, since that one
   * runs in another folder. */
  if (argc == 4 && g_strcmp0 (argv[1], "--compare") == 0)
    {
      char *rest[] = { argv[0], NULL };
      g_autofree char *base = g_canonicalize_filename (argv[2], NULL);
      g_autofree char *new_side = g_canonicalize_filename (argv[3], NULL);
      g_autoptr(GError) error = NULL;

      if (!g_application_register (G_APPLICATION (app), NULL, &error))
        {
          g_printerr ("hotpath: %s\n", error->message);
          return 1;
        }
      g_action_group_activate_action (G_ACTION_GROUP (app), "compare-sides",
                                      g_variant_new ("(ss)", base, new_side));
      if (g_application_get_is_remote (G_APPLICATION (app)))
        {
          GDBusConnection *bus = g_application_get_dbus_connection (G_APPLICATION (app));

          if (bus != NULL)
            g_dbus_connection_flush_sync (bus, NULL, NULL);
          return 0;
        }
      /* the application's own activate then finds the compare window
       * and opens no empty one */
      return g_application_run (G_APPLICATION (app), 1, rest);
    }
  return g_application_run (G_APPLICATION (app), argc, argv);
}
