/* hp-window-testing.c - what tests, benchmarks and screenshots see of the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The accessors hp-window-private.h declares for the display tests and
 * the benchmarks, and the HOTPATH_SCREENSHOT hook: with that variable
 * set, the window writes itself into that PNG file once it has settled
 * (loaded, the panes following the selection, the source read) and quits.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include "ui/hp-window-png.h"
#include "ui/hp-window-private.h"

/* How often a window waiting for a screenshot checks whether it settled:
 * loading and following take a few frames at least */
#define SCREENSHOT_POLL_MS 1500

gboolean
hp_window_save_screenshot (HpWindow    *self,
                           const char  *path,
                           GError     **error)
{
  return hp_window_save_png (GTK_WINDOW (self), path, error);
}

static gboolean
screenshot_cb (gpointer user_data)
{
  HpWindow *self = user_data;
  const char *path = g_getenv ("HOTPATH_SCREENSHOT");
  g_autoptr(GError) error = NULL;

  if (g_strcmp0 (hp_window_get_state (self), "loading") == 0 ||
      self->follow_tick != 0 ||
      hp_source_view_is_loading (self->source_view))
    return G_SOURCE_CONTINUE;
  self->screenshot_source = 0;
  if (!hp_window_save_screenshot (self, path, &error))
    g_printerr ("hotpath: %s\n", error->message);
  else
    g_print ("hotpath: wrote %s\n", path);
  g_application_quit (G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))));
  return G_SOURCE_REMOVE;
}

void
hp_window_screenshot_init (HpWindow *self)
{
  if (g_getenv ("HOTPATH_SCREENSHOT") != NULL)
    self->screenshot_source = g_timeout_add (SCREENSHOT_POLL_MS, screenshot_cb, self);
}

/* Accessors for tests ------------------------------------------------ */

gboolean
hp_window_is_following (HpWindow *self)
{
  return self->follow_tick != 0 || hp_call_tree_view_is_selecting (self->tree_view);
}

const HpWindowCost *
hp_window_get_costs (HpWindow *self,
                     guint    *n_costs)
{
  *n_costs = self->n_costs;
  return self->costs;
}

const char *
hp_window_get_state (HpWindow *self)
{
  return gtk_stack_get_visible_child_name (self->main_stack);
}

const char *
hp_window_get_error_text (HpWindow *self)
{
  return gtk_label_get_text (self->error_label);
}

HpCallTreeView *
hp_window_get_tree_view (HpWindow *self)
{
  return self->tree_view;
}

HpCallsView *
hp_window_get_calls_view (HpWindow *self)
{
  return self->calls_view;
}

HpFlameView *
hp_window_get_flame_view (HpWindow *self)
{
  return self->flame_view;
}

HpTimelineView *
hp_window_get_timeline_view (HpWindow *self)
{
  return self->timeline_view;
}

HpSourceView *
hp_window_get_source_view (HpWindow *self)
{
  return self->source_view;
}

HpPendingBanner *
hp_window_get_pending_banner (HpWindow *self)
{
  g_return_val_if_fail (HP_IS_WINDOW (self), NULL);

  return self->pending_banner;
}

HpSummaryOffer *
hp_window_get_summary_offer (HpWindow *self)
{
  g_return_val_if_fail (HP_IS_WINDOW (self), NULL);

  return self->summary_offer;
}

HpSummaryPane *
hp_window_get_summary_pane (HpWindow *self)
{
  return self->summary_pane;
}

HpSuggestBox *
hp_window_get_suggest_box (HpWindow *self)
{
  return self->suggest_box;
}

HpSummaryList *
hp_window_get_summary_list (HpWindow *self)
{
  return self->summary_list;
}

HpCaptureOverview *
hp_window_get_overview (HpWindow *self)
{
  return self->overview;
}

HpSummaryStore *
hp_window_get_summary_store (HpWindow *self)
{
  return self->store;
}

GtkWidget *
hp_window_get_search_entry (HpWindow *self)
{
  return GTK_WIDGET (self->search_entry);
}

GtkDropDown *
hp_window_get_thread_dropdown (HpWindow *self)
{
  return self->thread_dropdown;
}

GtkWidget *
hp_window_get_record_button (HpWindow *self)
{
  return GTK_WIDGET (self->record_button);
}

HpRecordDialog *
hp_window_get_record_dialog (HpWindow *self)
{
  return self->record_dialog;
}

gboolean
hp_window_is_filtering (HpWindow *self)
{
  return self->filter_cancellable != NULL;
}

const char *
hp_window_get_filter_text (HpWindow *self)
{
  return gtk_widget_get_visible (self->filter_bar) ? gtk_label_get_text (self->filter_label) : NULL;
}

HpFunctionList *
hp_window_get_function_list (HpWindow *self)
{
  return self->function_list;
}

HpEventSelector *
hp_window_get_event_selector (HpWindow *self)
{
  return self->event_selector;
}

GtkDropDown *
hp_window_get_process_dropdown (HpWindow *self)
{
  return self->process_dropdown;
}

GtkProgressBar *
hp_window_get_loading_progress (HpWindow *self)
{
  return self->loading_progress;
}
