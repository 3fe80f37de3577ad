/* hp-window.h - the Hotpath window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define HP_TYPE_WINDOW (hp_window_get_type ())
G_DECLARE_FINAL_TYPE (HpWindow, hp_window, HP, WINDOW, GtkApplicationWindow)

HpWindow *hp_window_new      (GtkApplication *application);
/* Opens @file in this window, in a worker; progress and errors show in it. */
void      hp_window_open     (HpWindow       *self,
                              GFile          *file);
/* TRUE when the window shows no capture and loads none: it is empty, or
 * says why a file could not be opened (a file dropped or opened from
 * elsewhere goes there instead of to a new window) */
gboolean  hp_window_is_empty (HpWindow       *self);

G_END_DECLS
