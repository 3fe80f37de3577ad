/* hp-calls-view.h - callers and callees of the selected function
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/hp-loaded-capture.h"

G_BEGIN_DECLS

#define HP_TYPE_CALLS_VIEW (hp_calls_view_get_type ())
G_DECLARE_FINAL_TYPE (HpCallsView, hp_calls_view, HP, CALLS_VIEW, GtkWidget)

/* @function_id 0 (or @profile NULL): nothing selected */
void        hp_calls_view_set_function (HpCallsView     *self,
                                        HpLoadedProfile *profile,
                                        gint64           function_id);
/* For tests: the profile shown, NULL when none */
HpLoadedProfile *hp_calls_view_get_profile (HpCallsView *self);
/* For tests: lists of HpFunctionRow */
GListModel *hp_calls_view_get_callers  (HpCallsView     *self);
GListModel *hp_calls_view_get_callees  (HpCallsView     *self);

G_END_DECLS
