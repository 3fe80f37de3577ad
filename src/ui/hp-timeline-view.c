/* hp-timeline-view.c - threads over time, and the range every view shows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The timeline pane: HpTimeline with a line that says what is selected
 * (the range's length and its samples) and the buttons to zoom into the
 * range, zoom out and clear it. The capture's samples are read in a
 * worker the first time the pane shows a capture, with their own
 * connection (the loaded capture keeps only aggregates), and kept for the
 * capture's life: filtering by a range is then counting, never reading.
 * They are the samples of every event; the lanes and the count of the
 * range follow the event the profile counts, the one the views show.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "document/hp-format.h"
#include "store/hp-capture-keys.h"
#include "ui/hp-template.h"
#include "ui/hp-timeline-view.h"

struct _HpTimelineView {
  GtkWidget        parent_instance;

  GtkInscription  *status;
  GtkButton       *zoom_button;
  GtkButton       *zoom_out_button;
  GtkButton       *clear_button;
  GtkStack        *stack;
  GtkLabel        *loading_label;
  HpTimeline      *timeline;

  HpLoadedCapture *capture;
  HpLoadedProfile *profile;
  HpSampleIndex   *samples;
  GCancellable    *cancellable;
  gboolean         timeless;   /* the capture has no sample times (an import) */
};

G_DEFINE_FINAL_TYPE (HpTimelineView, hp_timeline_view, GTK_TYPE_WIDGET)

enum {
  SAMPLES_LOADED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Whether @capture was imported from a format without sample times
 * (folded stacks, pprof): it holds counts per stack, no samples in time. */
static gboolean
lacks_times (HpLoadedCapture *capture)
{
  const char *lacks = hp_loaded_capture_get_metadata (capture, HP_META_LACKS);
  g_auto(GStrv) parts = lacks != NULL ? g_strsplit (lacks, ",", -1) : NULL;

  return parts != NULL && g_strv_contains ((const char * const *) parts, "times");
}

/* Says plainly that there is no timeline, and why; no range is offered. */
static void
show_timeless (HpTimelineView *self)
{
  const char *source = hp_loaded_capture_get_metadata (self->capture, HP_META_SOURCE);
  g_autofree char *safe = g_utf8_make_valid (source != NULL ? source : _("another profiler"), -1);
  g_autofree char *text = NULL;

  /* Translators: %s is the format it was imported from, "folded stacks" or "pprof" */
  text = g_strdup_printf (_("This capture has no sample times: it was imported from %s, a format that "
                            "holds a count per call stack but not when each sample was taken. "
                            "There is no timeline to show, and no time range to select."), safe);
  gtk_label_set_text (self->loading_label, text);
  gtk_stack_set_visible_child_name (self->stack, "loading");
}

static void
update_status (HpTimelineView *self)
{
  g_autofree char *text = NULL;
  guint64 from, to;

  gtk_widget_set_visible (GTK_WIDGET (self->zoom_button), !self->timeless);
  gtk_widget_set_visible (GTK_WIDGET (self->zoom_out_button), !self->timeless);
  gtk_widget_set_visible (GTK_WIDGET (self->clear_button), !self->timeless);
  if (self->samples == NULL)
    text = NULL;
  else if (hp_timeline_get_selection (self->timeline, &from, &to))
    {
      guint64 start = hp_sample_index_get_start (self->samples);
      /* binary searches only: this runs at each step of a drag */
      guint64 n = hp_sample_index_count_samples (self->samples, hp_timeline_get_event_mask (self->timeline), from, to,
                                                 hp_timeline_get_selected_tids (self->timeline));
      g_autofree char *count = hp_format_count (n);

      /* Translators: a time range of the recording and what it holds,
       * "0.500 s to 1.250 s (0.750 s): 3,012 samples" */
      text = g_strdup_printf (ngettext ("%.3f s to %.3f s (%.3f s): %s sample",
                                        "%.3f s to %.3f s (%.3f s): %s samples", n),
                              (from - start) / 1e9, (to - start) / 1e9, (to - from) / 1e9, count);
    }
  else
    text = g_strdup (_("Drag across the lanes to show only a time range in every view; "
                       "click a thread's name to show only that thread (Ctrl: several)."));
  gtk_inscription_set_text (self->status, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status), text);
  gtk_widget_set_sensitive (GTK_WIDGET (self->zoom_button), hp_timeline_get_selection (self->timeline, NULL, NULL));
  gtk_widget_set_sensitive (GTK_WIDGET (self->clear_button), hp_timeline_get_selection (self->timeline, NULL, NULL));
}

static void
samples_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(HpTimelineView) self = user_data;
  g_autoptr(GError) error = NULL;
  HpSampleIndex *samples = hp_loaded_capture_load_samples_finish (result, &error);

  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    {
      g_clear_pointer (&samples, hp_sample_index_unref);
      return;
    }
  g_clear_object (&self->cancellable);
  if (samples == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The samples cannot be read: %s"), error->message);

      gtk_label_set_text (self->loading_label, text);
      return;
    }
  self->samples = samples;
  hp_timeline_set_samples (self->timeline, samples, self->capture->data, self->capture->thread_starts);
  if (self->profile != NULL)
    hp_timeline_set_selected_tids (self->timeline, self->profile->tids);
  gtk_stack_set_visible_child_name (self->stack, "lanes");
  update_status (self);
  g_signal_emit (self, signals[SAMPLES_LOADED], 0);
}

/* Reads the capture's samples, once, when the pane is first shown: a
 * window whose timeline is never looked at never pays for it. */
static void
load_samples (HpTimelineView *self)
{
  if (self->capture == NULL || self->samples != NULL || self->cancellable != NULL || self->timeless ||
      !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  self->cancellable = g_cancellable_new ();
  hp_loaded_capture_load_samples_async (self->capture, self->cancellable, samples_done, g_object_ref (self));
}

void
hp_timeline_view_set_profile (HpTimelineView  *self,
                              HpLoadedProfile *profile)
{
  g_return_if_fail (HP_IS_TIMELINE_VIEW (self));

  if (profile != NULL)
    hp_loaded_profile_ref (profile);
  g_clear_pointer (&self->profile, hp_loaded_profile_unref);
  self->profile = profile;
  /* the event the views show (update_status below counts it) */
  if (profile != NULL)
    hp_timeline_set_event_mask (self->timeline, hp_loaded_profile_event_mask (profile->data));

  if (profile == NULL || profile->capture != self->capture)
    {
      if (self->cancellable != NULL)
        g_cancellable_cancel (self->cancellable);
      g_clear_object (&self->cancellable);
      hp_timeline_set_samples (self->timeline, NULL, NULL, NULL);
      g_clear_pointer (&self->samples, hp_sample_index_unref);
      g_clear_pointer (&self->capture, hp_loaded_capture_unref);
      gtk_label_set_text (self->loading_label, _("Reading the samples…"));
      gtk_stack_set_visible_child_name (self->stack, "loading");
      if (profile != NULL)
        self->capture = hp_loaded_capture_ref (profile->capture);
      self->timeless = self->capture != NULL && lacks_times (self->capture);
      if (self->timeless)
        show_timeless (self);
      load_samples (self);
    }
  else if (self->samples != NULL)
    hp_timeline_set_selected_tids (self->timeline, profile->tids);
  update_status (self);
}

void
hp_timeline_view_set_event_mask (HpTimelineView *self,
                                 guint64         event_mask)
{
  g_return_if_fail (HP_IS_TIMELINE_VIEW (self));

  hp_timeline_set_event_mask (self->timeline, event_mask);
  update_status (self);
}

HpSampleIndex *
hp_timeline_view_get_samples (HpTimelineView *self)
{
  g_return_val_if_fail (HP_IS_TIMELINE_VIEW (self), NULL);

  return self->samples;
}

HpTimeline *
hp_timeline_view_get_timeline (HpTimelineView *self)
{
  g_return_val_if_fail (HP_IS_TIMELINE_VIEW (self), NULL);

  return self->timeline;
}

const char *
hp_timeline_view_get_notice (HpTimelineView *self)
{
  g_return_val_if_fail (HP_IS_TIMELINE_VIEW (self), NULL);

  return g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "loading") == 0
         ? gtk_label_get_text (self->loading_label) : NULL;
}

gboolean
hp_timeline_view_offers_range (HpTimelineView *self)
{
  g_return_val_if_fail (HP_IS_TIMELINE_VIEW (self), FALSE);

  return gtk_widget_get_visible (GTK_WIDGET (self->clear_button)) &&
         g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "lanes") == 0;
}

const char *
hp_timeline_view_get_status (HpTimelineView *self)
{
  g_return_val_if_fail (HP_IS_TIMELINE_VIEW (self), NULL);

  return gtk_inscription_get_text (self->status);
}

static void
on_selection_changed (HpTimeline     *timeline,
                      HpTimelineView *self)
{
  update_status (self);
}

static void
on_zoom (GtkButton      *button,
         HpTimelineView *self)
{
  hp_timeline_zoom_to_selection (self->timeline);
}

static void
on_zoom_out (GtkButton      *button,
             HpTimelineView *self)
{
  hp_timeline_zoom_out (self->timeline);
}

static void
on_clear (GtkButton      *button,
          HpTimelineView *self)
{
  hp_timeline_set_selection (self->timeline, FALSE, 0, 0);
}

static void
hp_timeline_view_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (hp_timeline_view_parent_class)->map (widget);
  load_samples (HP_TIMELINE_VIEW (widget));
}

static void
hp_timeline_view_dispose (GObject *object)
{
  HpTimelineView *self = HP_TIMELINE_VIEW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->timeline != NULL)
    hp_timeline_set_samples (self->timeline, NULL, NULL, NULL);
  hp_template_dispose (GTK_WIDGET (self), HP_TYPE_TIMELINE_VIEW);
  self->timeline = NULL;
  g_clear_pointer (&self->samples, hp_sample_index_unref);
  g_clear_pointer (&self->profile, hp_loaded_profile_unref);
  g_clear_pointer (&self->capture, hp_loaded_capture_unref);
  G_OBJECT_CLASS (hp_timeline_view_parent_class)->dispose (object);
}

static void
hp_timeline_view_class_init (HpTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hp_timeline_view_dispose;
  widget_class->map = hp_timeline_view_map;

  /* the samples were read: ranges can be counted from now on */
  signals[SAMPLES_LOADED] =
    g_signal_new ("samples-loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (HP_TYPE_TIMELINE);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-timeline-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HpTimelineView, status);
  gtk_widget_class_bind_template_child (widget_class, HpTimelineView, zoom_button);
  gtk_widget_class_bind_template_child (widget_class, HpTimelineView, zoom_out_button);
  gtk_widget_class_bind_template_child (widget_class, HpTimelineView, clear_button);
  gtk_widget_class_bind_template_child (widget_class, HpTimelineView, stack);
  gtk_widget_class_bind_template_child (widget_class, HpTimelineView, loading_label);
  gtk_widget_class_bind_template_child (widget_class, HpTimelineView, timeline);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
hp_timeline_view_init (HpTimelineView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self->timeline, "selection-changed", G_CALLBACK (on_selection_changed), self);
  g_signal_connect (self->timeline, "threads-changed", G_CALLBACK (on_selection_changed), self);
  g_signal_connect (self->zoom_button, "clicked", G_CALLBACK (on_zoom), self);
  g_signal_connect (self->zoom_out_button, "clicked", G_CALLBACK (on_zoom_out), self);
  g_signal_connect (self->clear_button, "clicked", G_CALLBACK (on_clear), self);
}
