/* hp-gtk-compat.c - what GTK 4.8 lacks, done by hand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Scrolling a GtkColumnView to a row, which the call tree (to show the
 * selected node) and the source view (to show the hottest line) both do.
 * GTK 4.12 has gtk_column_view_scroll_to(); until it is the minimum, the
 * inner GtkListView's action does it. Remove this file then.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include "ui/hp-gtk-compat.h"

GtkWidget *
hp_column_view_get_list (GtkColumnView *view)
{
  g_return_val_if_fail (GTK_IS_COLUMN_VIEW (view), NULL);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;
  return NULL;
}

gboolean
hp_column_view_scroll_to (GtkColumnView *view,
                          guint          position)
{
  GtkWidget *list = hp_column_view_get_list (view);

  if (list == NULL)
    return FALSE;
  gtk_widget_activate_action (list, "list.scroll-to-item", "u", position);
  return TRUE;
}
