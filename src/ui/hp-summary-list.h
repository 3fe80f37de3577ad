/* hp-summary-list.h - every summarized call path of the capture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/hp-loaded-capture.h"
#include "document/hp-summary-store.h"

G_BEGIN_DECLS

#define HP_TYPE_SUMMARY_LIST (hp_summary_list_get_type ())
G_DECLARE_FINAL_TYPE (HpSummaryList, hp_summary_list, HP, SUMMARY_LIST, GtkWidget)

void        hp_summary_list_set_store   (HpSummaryList   *self,
                                         HpSummaryStore  *store,
                                         HpLoadedProfile *profile);
/* For tests: HpSummaryItem rows */
GListModel *hp_summary_list_get_model   (HpSummaryList   *self);
/* For tests: the note shown when the capture holds more summaries than
 * were read, or NULL. */
const char *hp_summary_list_get_cut_note (HpSummaryList  *self);
/* For tests: how many times the items were made from the store */
guint       hp_summary_list_get_n_rebuilds (HpSummaryList *self);

G_END_DECLS
