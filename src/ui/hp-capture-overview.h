/* hp-capture-overview.h - what was measured, how, and its limits, at a glance
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/hp-loaded-capture.h"

G_BEGIN_DECLS

#define HP_TYPE_CAPTURE_OVERVIEW (hp_capture_overview_get_type ())
G_DECLARE_FINAL_TYPE (HpCaptureOverview, hp_capture_overview, HP, CAPTURE_OVERVIEW, GtkWidget)

void        hp_capture_overview_set_profile (HpCaptureOverview *self,
                                             HpLoadedProfile   *profile);
/* For tests: the value shown for "command", "samples", "lost", ... */
const char *hp_capture_overview_get_value   (HpCaptureOverview *self,
                                             const char        *item);

G_END_DECLS
