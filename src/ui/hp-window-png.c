/* hp-window-png.c - a shown window, rendered into a PNG file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * For the screenshots of the README and the tests (HOTPATH_SCREENSHOT,
 * make-screenshots): the window's last render node, drawn again with the
 * renderer the window uses, so a GL window is checked with GL.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include "ui/hp-window-png.h"

gboolean
hp_window_save_png (GtkWindow   *window,
                    const char  *path,
                    GError     **error)
{
  GtkWidget *widget = GTK_WIDGET (window);
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer;
  int width, height;

  g_return_val_if_fail (GTK_IS_WINDOW (window), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  if (renderer == NULL || width <= 0 || height <= 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: the window is not shown", path);
      return FALSE;
    }
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_to_node (snapshot);
  if (node == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: nothing was drawn", path);
      return FALSE;
    }
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (!gdk_texture_save_to_png (texture, path))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: cannot write the PNG", path);
      return FALSE;
    }
  return TRUE;
}
