/* hp-file-chooser.c - asking for captures or a folder, for any widget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * GTK 4.8 has no GtkFileDialog: files and folders are asked for with a
 * GtkFileChooserNative (the portal's chooser under Flatpak), which lives
 * until its response. The record dialog (working and capture folders) and
 * the source view (source folders) ask for a folder through this; the
 * window (Open), the comparison (each side's runs) and the summary offer
 * (Import Summaries From) ask for captures through this, with one filter
 * that knows which files are captures and which the window imports.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "ui/hp-file-chooser.h"

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

/* Captures ------------------------------------------------------------ */

typedef struct {
  HpFilesChosen  chosen;
  gpointer       user_data;
  GDestroyNotify destroy;
} Asking;

static void
on_files_response (GtkNativeDialog *chooser,
                   int              response,
                   Asking          *asking)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));

      if (files != NULL && g_list_model_get_n_items (files) > 0)
        asking->chosen (files, asking->user_data);
    }
  if (asking->destroy != NULL)
    asking->destroy (asking->user_data);
  g_free (asking);
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
}

GtkFileFilter *
hp_capture_chooser_new_filter (HpChooseFlags flags)
{
  GtkFileFilter *captures = gtk_file_filter_new ();

  gtk_file_filter_add_pattern (captures, "*.hotpath");
  gtk_file_filter_add_mime_type (captures, "application/x-hotpath-capture");
  if (flags & HP_CHOOSE_IMPORTS)
    {
      gtk_file_filter_set_name (captures, _("Captures and perf.data files"));
      gtk_file_filter_add_pattern (captures, "perf.data");
      gtk_file_filter_add_pattern (captures, "perf.data.*");
      gtk_file_filter_add_pattern (captures, "*.perf.data");
      /* imported like perf.data (hp_perf_import_is_perf_data) */
      gtk_file_filter_add_pattern (captures, "*.pb.gz");
      gtk_file_filter_add_pattern (captures, "*.pprof");
      gtk_file_filter_add_pattern (captures, "*.folded");
      gtk_file_filter_add_pattern (captures, "*.collapsed");
      gtk_file_filter_add_mime_type (captures, "application/x-perf-data");
    }
  else
    gtk_file_filter_set_name (captures, _("Hotpath captures"));
  return captures;
}

void
hp_capture_chooser_show (GtkWindow      *parent,
                         const char     *title,
                         const char     *accept_label,
                         HpChooseFlags   flags,
                         const char     *folder,
                         HpFilesChosen   chosen,
                         gpointer        user_data,
                         GDestroyNotify  destroy)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) captures = hp_capture_chooser_new_filter (flags);
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();
  Asking *asking;

  g_return_if_fail (parent == NULL || GTK_IS_WINDOW (parent));
  g_return_if_fail (chosen != NULL);

  chooser = gtk_file_chooser_native_new (title, parent, GTK_FILE_CHOOSER_ACTION_OPEN, accept_label, _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), (flags & HP_CHOOSE_SEVERAL) != 0);

  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), captures);
  /* a capture renamed without its .hotpath is still one */
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), all);
  gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (chooser), captures);

  if (folder != NULL && folder[0] != '\0')
    {
      g_autoptr(GFile) start = g_file_new_for_path (folder);

      /* a folder that is gone is ignored by the chooser */
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), start, NULL);
    }

  asking = g_new0 (Asking, 1);
  asking->chosen = chosen;
  asking->user_data = user_data;
  asking->destroy = destroy;
  g_signal_connect (chooser, "response", G_CALLBACK (on_files_response), asking);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}
