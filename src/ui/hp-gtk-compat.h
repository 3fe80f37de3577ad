/* hp-gtk-compat.h - what GTK 4.8 lacks, done by hand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Remove once GTK >= 4.12 is the minimum: gtk_column_view_scroll_to()
 * replaces all of it.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The GtkListView a GtkColumnView draws its rows with, or NULL: GTK 4.8
 * has no gtk_column_view_scroll_to(), so a column view is scrolled with
 * that list's "list.scroll-to-item" action (hp_column_view_scroll_to). */
GtkWidget *hp_column_view_get_list  (GtkColumnView *view);

/* Scrolls @view the least that shows row @position ("list.scroll-to-item",
 * which scrolls by the list's last allocation: call it once the list
 * was laid out). FALSE when @view has no list. */
gboolean   hp_column_view_scroll_to (GtkColumnView *view,
                                     guint          position);

G_END_DECLS
