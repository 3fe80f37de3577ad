/* hp-window-png.h - a shown window, rendered into a PNG file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Renders @window as it is shown, with its own renderer, into the PNG
 * file @path. Fails when the window is not shown or has not been drawn
 * yet (wait for a frame and try again). */
gboolean hp_window_save_png (GtkWindow   *window,
                             const char  *path,
                             GError     **error);

G_END_DECLS
