/* hp-summary-pane.h - the selected call path and its summary
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/hp-loaded-capture.h"
#include "document/hp-summary-store.h"

G_BEGIN_DECLS

#define HP_TYPE_SUMMARY_PANE (hp_summary_pane_get_type ())
G_DECLARE_FINAL_TYPE (HpSummaryPane, hp_summary_pane, HP, SUMMARY_PANE, GtkWidget)

/* Edits are debounced by this long before they are saved */
#define HP_SUMMARY_SAVE_DELAY_MS 500

void        hp_summary_pane_set_store (HpSummaryPane    *self,
                                       HpSummaryStore   *store);
/* @node of the top-down tree, or of the bottom-up one when @bottom_up
 * (then the pane shows the path but does not edit: summaries belong to
 * top-down paths). NULL: nothing selected. Saves a pending edit first. */
void        hp_summary_pane_set_node  (HpSummaryPane    *self,
                                       HpLoadedProfile  *profile,
                                       const HpCallNode *node,
                                       gboolean          bottom_up);
/* Saves a pending edit now (the window calls it when it closes). */
void        hp_summary_pane_flush     (HpSummaryPane    *self);

/* For tests */
const char *hp_summary_pane_get_key    (HpSummaryPane   *self);
char       *hp_summary_pane_get_text   (HpSummaryPane   *self);
void        hp_summary_pane_set_text   (HpSummaryPane   *self,
                                        const char      *text);
const char *hp_summary_pane_get_status (HpSummaryPane   *self);
const char *hp_summary_pane_get_note   (HpSummaryPane   *self);
gboolean    hp_summary_pane_get_editable (HpSummaryPane *self);
/* The names of the steps shown as breadcrumbs, root first; NULL for none */
const char * const *hp_summary_pane_get_crumbs (HpSummaryPane *self);
/* As if the step's link was clicked */
void        hp_summary_pane_activate_crumb (HpSummaryPane *self,
                                            guint          index);

G_END_DECLS
