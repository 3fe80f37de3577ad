/* hp-timeline.h - sample density per thread over time, and a time range
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "analysis/hp-sample-index.h"

G_BEGIN_DECLS

#define HP_TYPE_TIMELINE (hp_timeline_get_type ())
G_DECLARE_FINAL_TYPE (HpTimeline, hp_timeline, HP, TIMELINE, GtkWidget)

GtkWidget   *hp_timeline_new               (void);

/* The samples to draw and the capture they belong to (for thread names and
 * processes), with the function each of its threads starts in (per entry
 * of data->threads, hp_thread_start_functions(); NULL: found per lane);
 * all borrowed, kept alive by the caller while set. */
void         hp_timeline_set_samples       (HpTimeline          *self,
                                            HpSampleIndex       *samples,
                                            const HpCaptureData *data,
                                            const char * const  *starts);

/* The selected time range (ns of the perf clock, both ends included). */
void         hp_timeline_set_selection     (HpTimeline          *self,
                                            gboolean             has_range,
                                            guint64              from,
                                            guint64              to);
gboolean     hp_timeline_get_selection     (HpTimeline          *self,
                                            guint64             *from,
                                            guint64             *to);

/* Selected threads: a set of GINT_TO_POINTER (tid), NULL for all. */
void         hp_timeline_set_selected_tids (HpTimeline          *self,
                                            GHashTable          *tids);
GHashTable  *hp_timeline_get_selected_tids (HpTimeline          *self);
/* As a click on a lane's name does: only that thread, or with @add that
 * thread added to (or removed from) the selection. */
void         hp_timeline_toggle_thread     (HpTimeline          *self,
                                            gint32               tid,
                                            gboolean             add);

/* The events whose samples the lanes draw (bit id - 1): the event the
 * views show, as hp_loaded_profile_event_mask() gives it. Every event
 * until set. */
void         hp_timeline_set_event_mask    (HpTimeline          *self,
                                            guint64              event_mask);
guint64      hp_timeline_get_event_mask    (HpTimeline          *self);

/* Shows the selected range across the whole width; or everything. */
void         hp_timeline_zoom_to_selection (HpTimeline          *self);
void         hp_timeline_zoom_out          (HpTimeline          *self);

/* For tests: the lanes' labels, top to bottom. */
GPtrArray   *hp_timeline_get_lane_labels   (HpTimeline          *self);
/* For tests: how many times the lanes were counted and drawn. */
guint        hp_timeline_get_n_layers      (HpTimeline          *self);
/* How many lanes' names are cut to fit the names' column. */
guint        hp_timeline_count_cut_names   (HpTimeline          *self);
/* The time at widget x (in the lanes' area). */
guint64      hp_timeline_time_at           (HpTimeline          *self,
                                            double               x);

G_END_DECLS
