/* hp-draw.h - drawing that the custom-drawn views share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A layout for one line of text, cut with "…" at its end */
PangoLayout *hp_draw_line_layout_new (GtkWidget     *widget);

/* Draws @text with @layout (its attributes kept) at @x, cut to @width and
 * centred in the @height of a row whose top is @y. */
void         hp_draw_text            (GtkSnapshot   *snapshot,
                                      PangoLayout   *layout,
                                      const char    *text,
                                      double         x,
                                      double         y,
                                      double         width,
                                      double         height,
                                      const GdkRGBA *color);

G_END_DECLS
