/* hp-window-dnd.c - files dropped on the Hotpath window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Files dropped from a file manager open as --open would open them: the
 * first in this window when it is empty, the others in windows of their own
 * (hp_application_open_file decides).
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include "ui/hp-application.h"
#include "ui/hp-window-private.h"

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         HpWindow      *self)
{
  HpApplication *app = HP_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  GSList *files = NULL;

  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    files = gdk_file_list_get_files (g_value_get_boxed (value));
  else if (G_VALUE_HOLDS (value, G_TYPE_FILE))
    files = g_slist_prepend (NULL, g_value_get_object (value));
  if (files == NULL)
    return FALSE;
  for (GSList *l = files; l != NULL; l = l->next)
    hp_application_open_file (app, l->data, self);
  g_slist_free (files);
  return TRUE;
}

void
hp_window_dnd_init (HpWindow *self)
{
  GtkDropTarget *drop;
  GType types[] = { GDK_TYPE_FILE_LIST, G_TYPE_FILE };

  drop = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);
  gtk_drop_target_set_gtypes (drop, types, G_N_ELEMENTS (types));
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}
