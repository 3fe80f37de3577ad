/* hp-compare-window.h - the comparison of two sets of captures in a window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ui/hp-compare-details.h"

G_BEGIN_DECLS

#define HP_TYPE_COMPARE_WINDOW (hp_compare_window_get_type ())
G_DECLARE_FINAL_TYPE (HpCompareWindow, hp_compare_window, HP, COMPARE_WINDOW, GtkApplicationWindow)

/* Compares @base with @new_side (each a list of captures or folders of
 * captures, NULL-terminated), loading in a worker thread. */
HpCompareWindow *hp_compare_window_new        (GtkApplication      *app,
                                               const char * const  *base,
                                               const char * const  *new_side);
/* Adds app.compare (choose the two sides, then compare) and
 * app.compare-sides ("(ss)": compare these two) to @app. */
void             hp_compare_window_add_action (GtkApplication      *app);

/* For tests and screenshots */
gboolean         hp_compare_window_is_loaded  (HpCompareWindow     *self);
/* The bottom-up (callers) tree instead of the top-down one. */
void             hp_compare_window_set_bottom_up (HpCompareWindow  *self,
                                               gboolean             bottom_up);
const char      *hp_compare_window_get_error  (HpCompareWindow     *self);
const char      *hp_compare_window_get_overview (HpCompareWindow   *self);
/* The verdict shown for the path whose readable form is @path, or NULL
 * when it is not a shown row. */
const char      *hp_compare_window_get_row_verdict (HpCompareWindow *self,
                                               const char          *path);
gboolean         hp_compare_window_select_row (HpCompareWindow   *self,
                                               const char          *path);
HpCompareDetails *hp_compare_window_get_details (HpCompareWindow  *self);
/* The summary shown on the path of key @path_key, or NULL. */
const char      *hp_compare_window_get_summary (HpCompareWindow *self,
                                               const char          *path_key);
gboolean         hp_compare_window_save_screenshot (HpCompareWindow *self,
                                               const char          *path,
                                               GError             **error);

G_END_DECLS
