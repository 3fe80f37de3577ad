/* hp-folder-chooser.c - asking for a folder, for any widget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * GTK 4.8 has no GtkFileDialog: a folder is asked for with a
 * GtkFileChooserNative (the portal's chooser under Flatpak), which lives
 * until its response. The record dialog (working and capture folders) and
 * the source view (source folders) ask the same way, through this.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "ui/hp-folder-chooser.h"

static void
on_response (GtkNativeDialog *chooser,
             int              response,
             GtkWidget       *owner)
{
  HpFolderChosen chosen = g_object_get_data (G_OBJECT (chooser), "hp-chosen");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (folder != NULL && g_file_peek_path (folder) != NULL)
        chosen (owner, g_file_peek_path (folder));
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
  g_object_unref (owner);
}

void
hp_folder_chooser_show (GtkWidget      *owner,
                        const char     *title,
                        const char     *accept_label,
                        const char     *current,
                        HpFolderChosen  chosen)
{
  GtkFileChooserNative *chooser;
  GtkRoot *root;

  g_return_if_fail (GTK_IS_WIDGET (owner));
  g_return_if_fail (chosen != NULL);

  root = gtk_widget_get_root (owner);
  chooser = gtk_file_chooser_native_new (title, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, accept_label, _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  if (current != NULL)
    {
      g_autoptr(GFile) folder = g_file_new_for_path (current);

      /* a folder that is gone is ignored by the chooser */
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
    }
  g_object_set_data (G_OBJECT (chooser), "hp-chosen", chosen);
  g_signal_connect (chooser, "response", G_CALLBACK (on_response), g_object_ref (owner));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}
