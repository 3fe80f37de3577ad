/* hp-window-private.h - what display tests and benchmarks look at
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ui/hp-call-tree-view.h"
#include "ui/hp-calls-view.h"
#include "ui/hp-capture-overview.h"
#include "ui/hp-flame-view.h"
#include "ui/hp-timeline-view.h"
#include "ui/hp-record-dialog.h"
#include "ui/hp-source-view.h"
#include "ui/hp-suggest-box.h"
#include "ui/hp-summary-list.h"
#include "ui/hp-summary-offer.h"
#include "ui/hp-summary-pane.h"
#include "ui/hp-summary-store.h"
#include "ui/hp-window.h"

G_BEGIN_DECLS

/* "empty", "loading", "error" or "capture" */
const char        *hp_window_get_state        (HpWindow *self);
const char        *hp_window_get_error_text   (HpWindow *self);
HpCallTreeView    *hp_window_get_tree_view    (HpWindow *self);
HpCallsView       *hp_window_get_calls_view   (HpWindow *self);
HpFlameView       *hp_window_get_flame_view   (HpWindow *self);
HpTimelineView    *hp_window_get_timeline_view (HpWindow *self);
HpSourceView      *hp_window_get_source_view  (HpWindow *self);
HpSummaryPane     *hp_window_get_summary_pane (HpWindow *self);
HpSummaryOffer    *hp_window_get_summary_offer (HpWindow *self);
HpSuggestBox      *hp_window_get_suggest_box  (HpWindow *self);
HpSummaryList     *hp_window_get_summary_list (HpWindow *self);
HpCaptureOverview *hp_window_get_overview     (HpWindow *self);
HpSummaryStore    *hp_window_get_summary_store (HpWindow *self);
GtkDropDown       *hp_window_get_thread_dropdown (HpWindow *self);
GtkWidget         *hp_window_get_search_entry (HpWindow *self);
GtkWidget         *hp_window_get_record_button (HpWindow *self);
/* The window's record dialog, once Record was pressed (and until it is closed) */
HpRecordDialog    *hp_window_get_record_dialog (HpWindow *self);
/* TRUE while a profile is being rebuilt for a thread filter */
gboolean           hp_window_is_filtering     (HpWindow *self);
/* the panes have yet to catch up with the selection (a frame or two) */
gboolean           hp_window_is_following     (HpWindow *self);

/* Renders the window into a PNG file. */
gboolean           hp_window_save_screenshot  (HpWindow    *self,
                                               const char  *path,
                                               GError     **error);

G_END_DECLS
