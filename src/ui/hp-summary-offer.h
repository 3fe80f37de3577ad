/* hp-summary-offer.h - summaries from elsewhere: the library's offer, and imports
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/hp-loaded-capture.h"
#include "document/hp-summary-store.h"

G_BEGIN_DECLS

#define HP_TYPE_SUMMARY_OFFER (hp_summary_offer_get_type ())
G_DECLARE_FINAL_TYPE (HpSummaryOffer, hp_summary_offer, HP, SUMMARY_OFFER, GtkWidget)

/* The capture the window shows now: when @offer, looks up the per-user
 * library in a worker for summaries of its program whose paths this
 * capture has and that it has no summary for, and shows the banner
 * ("3 summaries from earlier captures of demo — Show / Apply"). NULL
 * @profile hides it. */
void        hp_summary_offer_set_capture (HpSummaryOffer  *self,
                                          HpLoadedProfile *profile,
                                          HpSummaryStore  *store,
                                          gboolean         offer);
/* Asks for a capture and imports its summaries into the current one
 * ("Import Summaries From…"). */
void        hp_summary_offer_import      (HpSummaryOffer  *self);
/* The same without asking, from @path (the tests). */
void        hp_summary_offer_import_path (HpSummaryOffer  *self,
                                          const char      *path);

/* For tests */
gboolean    hp_summary_offer_is_busy     (HpSummaryOffer  *self);
/* The banner's text; "" when it is hidden */
const char *hp_summary_offer_get_text    (HpSummaryOffer  *self);
guint       hp_summary_offer_get_n_offered (HpSummaryOffer *self);
/* As if Apply (or Show) was clicked */
void        hp_summary_offer_apply       (HpSummaryOffer  *self);
GtkWindow  *hp_summary_offer_show        (HpSummaryOffer  *self);
/* What the last import said, one line per summary; NULL before one */
const char *hp_summary_offer_get_report  (HpSummaryOffer  *self);

G_END_DECLS
