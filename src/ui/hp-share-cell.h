/* hp-share-cell.h - a share of the samples: heat bar, percentage and count in one widget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define HP_TYPE_SHARE_CELL (hp_share_cell_get_type ())
G_DECLARE_FINAL_TYPE (HpShareCell, hp_share_cell, HP, SHARE_CELL, GtkWidget)

/* @count_chars: width of the count column in digits, 0 for none */
GtkWidget  *hp_share_cell_new      (gboolean     show_bar,
                                    gboolean     show_percent,
                                    guint        count_chars);
/* @fraction in 0..1 draws the bar; @percent and @count are shown as
 * given, right-aligned in columns of fixed width. */
void        hp_share_cell_set      (HpShareCell *self,
                                    double       fraction,
                                    const char  *percent,
                                    const char  *count);
/* Narrows (or widens) the count column to @count_chars digits */
void        hp_share_cell_set_count_chars (HpShareCell *self,
                                           guint        count_chars);
double      hp_share_cell_get_fraction (HpShareCell *self);
const char *hp_share_cell_get_percent  (HpShareCell *self);
const char *hp_share_cell_get_count    (HpShareCell *self);

G_END_DECLS
