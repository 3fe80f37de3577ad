/* hp-log-window.h - shows the output of a recorded command
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define HP_TYPE_LOG_WINDOW (hp_log_window_get_type ())
G_DECLARE_FINAL_TYPE (HpLogWindow, hp_log_window, HP, LOG_WINDOW, GtkWindow)

/* A window that shows the end of the file @path (read in a worker). */
HpLogWindow *hp_log_window_new      (GtkWindow   *parent,
                                     const char  *path);
/* Reads the file again (the command may still be writing it). */
void         hp_log_window_reload   (HpLogWindow *self);
/* The text shown; for tests */
char        *hp_log_window_get_text (HpLogWindow *self);
/* TRUE while the file is read */
gboolean     hp_log_window_is_loading (HpLogWindow *self);

G_END_DECLS
