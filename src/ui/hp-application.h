/* hp-application.h - the Hotpath application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ui/hp-window.h"

G_BEGIN_DECLS

#define HP_TYPE_APPLICATION (hp_application_get_type ())
G_DECLARE_FINAL_TYPE (HpApplication, hp_application, HP, APPLICATION, GtkApplication)

HpApplication *hp_application_new             (void);
/* Open Recent: items naming win.open-file with the file's URI */
GMenuModel    *hp_application_get_recent_menu (HpApplication *self);
/* Opens @file in @hint when it is empty, else in the active window when
 * that is empty, else in a new window. */
void           hp_application_open_file       (HpApplication *self,
                                               GFile         *file,
                                               HpWindow      *hint);
void           hp_application_add_recent      (HpApplication *self,
                                               GFile         *file,
                                               gboolean       is_perf_data);

G_END_DECLS
