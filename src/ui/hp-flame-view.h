/* hp-flame-view.h - the flame graph of the current profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ui/hp-flame-canvas.h"
#include "document/hp-loaded-capture.h"
#include "document/hp-summary-store.h"

G_BEGIN_DECLS

#define HP_TYPE_FLAME_VIEW (hp_flame_view_get_type ())
G_DECLARE_FINAL_TYPE (HpFlameView, hp_flame_view, HP, FLAME_VIEW, GtkWidget)

/* Shows the top-down (or bottom-up) flame graph of @profile; the layout is
 * built in a worker the first time a profile and direction are shown. */
void           hp_flame_view_set_profile       (HpFlameView      *self,
                                                HpLoadedProfile  *profile,
                                                gboolean          bottom_up);
/* Outlines @node (a node of the tree the view shows), or nothing. */
void           hp_flame_view_set_selected      (HpFlameView      *self,
                                                const HpCallNode *node);
void           hp_flame_view_set_search        (HpFlameView      *self,
                                                const char       *text);
/* Marks the boxes of summarized paths, following the store's changes. */
void           hp_flame_view_set_summary_store (HpFlameView      *self,
                                                HpSummaryStore   *store);
/* For tests: the canvas, and whether a layout is being built. */
HpFlameCanvas *hp_flame_view_get_canvas        (HpFlameView      *self);
gboolean       hp_flame_view_is_busy           (HpFlameView      *self);

/* For tests: the profile shown, NULL when none */
HpLoadedProfile  *hp_flame_view_get_profile        (HpFlameView      *self);

/* For tests: the caption over the graph */
const char       *hp_flame_view_get_caption        (HpFlameView      *self);

G_END_DECLS
