/* hp-summary-item.h - a summarized call path, as a row of the Summaries list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define HP_TYPE_SUMMARY_ITEM (hp_summary_item_get_type ())
G_DECLARE_FINAL_TYPE (HpSummaryItem, hp_summary_item, HP, SUMMARY_ITEM, GObject)

/* @origin: hp_format_summary_origin() of its row, NULL when written here */
HpSummaryItem *hp_summary_item_new         (const char    *key,
                                            const char    *text,
                                            const char    *origin,
                                            gboolean       in_profile);
const char    *hp_summary_item_get_key     (HpSummaryItem *self);
const char    *hp_summary_item_get_path    (HpSummaryItem *self);
const char    *hp_summary_item_get_excerpt (HpSummaryItem *self);
const char    *hp_summary_item_get_origin  (HpSummaryItem *self);
gboolean       hp_summary_item_get_in_profile (HpSummaryItem *self);

G_END_DECLS
