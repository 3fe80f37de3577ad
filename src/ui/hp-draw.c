/* hp-draw.c - drawing that the custom-drawn views share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The flame graph's boxes and the timeline's lanes are drawn in
 * snapshot() into a cached render node, not with widgets; both label
 * a row with one line of text cut to fit. That is done here once.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include "ui/hp-draw.h"

PangoLayout *
hp_draw_line_layout_new (GtkWidget *widget)
{
  PangoLayout *layout;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  layout = gtk_widget_create_pango_layout (widget, NULL);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  return layout;
}

void
hp_draw_text (GtkSnapshot   *snapshot,
              PangoLayout   *layout,
              const char    *text,
              double         x,
              double         y,
              double         width,
              double         height,
              const GdkRGBA *color)
{
  int text_height;

  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
  pango_layout_get_pixel_size (layout, NULL, &text_height);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y + (height - text_height) / 2.0));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}
