/* hp-window-private.h - the window's struct, shared by its files, and what tests look at
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ui/hp-call-tree-view.h"
#include "ui/hp-calls-view.h"
#include "ui/hp-capture-overview.h"
#include "ui/hp-event-selector.h"
#include "ui/hp-flame-view.h"
#include "ui/hp-function-list.h"
#include "ui/hp-timeline-view.h"
#include "ui/hp-record-dialog.h"
#include "ui/hp-source-view.h"
#include "ui/hp-suggest-box.h"
#include "ui/hp-summary-list.h"
#include "ui/hp-pending-banner.h"
#include "ui/hp-summary-offer.h"
#include "ui/hp-summary-pane.h"
#include "document/hp-summary-store.h"
#include "ui/hp-window.h"

G_BEGIN_DECLS

/* HpWindow spans hp-window.c (the type, loading, filters, selection),
 * hp-window-actions.c, hp-window-filters.c (folds and the filter bar),
 * hp-window-dnd.c and hp-window-testing.c, as GNOME Text Editor splits
 * editor-window*.c. */

#define HP_WINDOW_MAX_COSTS 16

typedef struct {
  const char *view;
  double      cpu_ms;
} HpWindowCost;

struct _HpWindow {
  GtkApplicationWindow  parent_instance;

  GtkButton            *record_button;
  GtkWidget            *empty_open_button;
  GtkWidget            *error_open_button;
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkStack             *main_stack;
  GtkLabel             *loading_title;
  GtkProgressBar       *loading_progress;
  GtkLabel             *error_title;
  GtkLabel             *error_label;
  GtkLabel             *error_hint;
  HpCaptureOverview    *overview;
  GtkPaned             *main_paned;
  GtkPaned             *side_paned;
  GtkDropDown          *thread_dropdown;
  HpEventSelector      *event_selector;
  GtkDropDown          *process_dropdown;
  GtkSearchEntry       *search_entry;
  GtkLabel             *match_label;
  HpCallTreeView       *tree_view;
  GtkStack             *bottom_stack;
  GtkPaned             *summary_paned;
  /* below WIDE_WINDOW the summary paned is the bottom pane's Summary
   * page (hp-window.c, place_summary) */
  gboolean              summary_below;
  int                   summary_side_position;
  char                 *page_before_summary;
  guint                 place_source;
  guint                 fit_source;
  int                   side_position_before_fit;      /* -1: not moved for a page */
  gboolean              fitting;                       /* moving the side paned for a page */
  gboolean              side_moved_by_user;            /* since the bottom page was shown */
  gboolean              allocating;                    /* in size_allocate: panes move, not by the user */
  gboolean              main_paned_placed;             /* the call tree's share set, or the user's */
  HpSourceView         *source_view;
  HpCallsView          *calls_view;
  HpFunctionList       *function_list;
  GtkWidget            *filter_bar;
  GtkLabel             *filter_label;
  HpFlameView          *flame_view;
  HpTimelineView       *timeline_view;
  HpSummaryList        *summary_list;
  HpSummaryPane        *summary_pane;
  HpSummaryOffer       *summary_offer;
  HpPendingBanner      *pending_banner;
  gboolean              offer_library_summaries;
  HpSuggestBox         *suggest_box;
  GtkMenuButton        *menu_button;
  HpRecordDialog       *record_dialog;  /* weak */

  GSettings            *settings;
  GFile                *file;
  GCancellable         *load_cancellable;
  GCancellable         *filter_cancellable;
  /* what the profile keeps, besides the time range the timeline holds */
  GHashTable           *filter_tids;     /* NULL: all threads */
  gboolean              merge_recursion;
  gboolean              hide_kernel;
  gboolean              fold_inline;
  GHashTable           *fold_functions;  /* function ids folded into callers; NULL: none */
  GHashTable           *fold_modules;    /* module ids folded into callers; NULL: none */
  HpLoadedProfile      *profile;
  HpSummaryStore       *store;
  gulong                store_changed_handler;
  GPtrArray            *filters;       /* per dropdown item: GHashTable* of tids, or NULL */
  gboolean              lanes_entry;   /* the last item is the threads chosen in the lanes */
  GArray               *process_pids;  /* per process dropdown item: gint32 pid, 0 for all */
  char                 *event;         /* what the views count (hp-measure.h); NULL: the first event */
  char                 *counted_event; /* what the thread and process filters' entries count */
  gboolean              counted_range; /* and within which range */
  guint64               counted_from;
  guint64               counted_to;
  guint                 screenshot_source;
  guint                 follow_tick;    /* panes catching up with the selection */
  gint64                follow_frame;
  guint                 follow_pending; /* FOLLOW_* */
  /* main-thread CPU of each view's update to the last profile shown,
   * for the display benchmark (tests/display/bench-views.c) */
  HpWindowCost          costs[HP_WINDOW_MAX_COSTS];
  guint                 n_costs;
};

void               hp_window_update_title     (HpWindow       *self);
/* hp-window-events.c: the event selector and the process filter */
void               hp_window_fill_event_filters (HpWindow     *self);
void               hp_window_events_init      (HpWindow       *self);
/* The thread filter's entries: every thread (@pid 0), or those of @pid */
void               hp_window_fill_thread_filter (HpWindow     *self,
                                                 gint32        pid);
/* Appends the entry that names the threads chosen in the timeline's
 * lanes (filter_tids) to the thread filter; returns its position */
guint              hp_window_add_lanes_entry  (HpWindow       *self);
/* Chooses an entry of the thread filter without rebuilding the profile */
void               hp_window_select_thread_entry (HpWindow    *self,
                                                  guint        position);
/* The thread and process filters count the event shown, within the
 * profile's time range, once either changed */
void               hp_window_update_filter_counts (HpWindow   *self);
void               hp_window_class_actions_init (GtkWidgetClass *widget_class);
void               hp_window_dnd_init         (HpWindow       *self);
/* Rebuilds the profile in a worker when the filters changed */
void               hp_window_rebuild_profile  (HpWindow       *self);
void               hp_window_class_filters_init (GtkWidgetClass *widget_class);
/* Says which filters the shown profile has, with Clear */
void               hp_window_update_filter_bar (HpWindow      *self);
/* Forgets the folded functions and modules (ids of one capture) */
void               hp_window_clear_folds      (HpWindow       *self);
/* Takes a screenshot and quits when HOTPATH_SCREENSHOT names a file */
void               hp_window_screenshot_init  (HpWindow       *self);

/* For tests */

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
HpPendingBanner   *hp_window_get_pending_banner (HpWindow *self);
HpSuggestBox      *hp_window_get_suggest_box  (HpWindow *self);
HpSummaryList     *hp_window_get_summary_list (HpWindow *self);
HpCaptureOverview *hp_window_get_overview     (HpWindow *self);
HpSummaryStore    *hp_window_get_summary_store (HpWindow *self);
GtkDropDown       *hp_window_get_thread_dropdown (HpWindow *self);
/* The event every view counts, and the process filter (shown for a
 * capture of several processes) */
HpEventSelector   *hp_window_get_event_selector (HpWindow *self);
GtkDropDown       *hp_window_get_process_dropdown (HpWindow *self);
GtkProgressBar    *hp_window_get_loading_progress (HpWindow *self);

GtkWidget         *hp_window_get_search_entry (HpWindow *self);
GtkWidget         *hp_window_get_record_button (HpWindow *self);
/* The window's record dialog, once Record was pressed (and until it is closed) */
HpRecordDialog    *hp_window_get_record_dialog (HpWindow *self);
/* The filter bar's text, NULL when it is hidden (no filter) */
const char        *hp_window_get_filter_text  (HpWindow *self);
HpFunctionList    *hp_window_get_function_list (HpWindow *self);
/* TRUE while a profile is being rebuilt for a thread filter */
gboolean           hp_window_is_filtering     (HpWindow *self);
/* the panes have yet to catch up with the selection (a frame or two) */
gboolean           hp_window_is_following     (HpWindow *self);
/* What each view's update to the last profile shown cost the main
 * thread (CPU ms), in order: the profile's views, then the panes that
 * followed the selection */
const HpWindowCost *hp_window_get_costs       (HpWindow *self,
                                               guint    *n_costs);

/* Renders the window into a PNG file. */
gboolean           hp_window_save_screenshot  (HpWindow    *self,
                                               const char  *path,
                                               GError     **error);

G_END_DECLS
