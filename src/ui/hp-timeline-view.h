/* hp-timeline-view.h - threads over time, and the range every view shows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/hp-loaded-capture.h"
#include "ui/hp-timeline.h"

G_BEGIN_DECLS

#define HP_TYPE_TIMELINE_VIEW (hp_timeline_view_get_type ())
G_DECLARE_FINAL_TYPE (HpTimelineView, hp_timeline_view, HP, TIMELINE_VIEW, GtkWidget)

/* Shows the capture of @profile (its samples are read in a worker the
 * first time) and says how much of it @profile keeps; the lanes and the
 * range's count follow the event @profile counts. */
void           hp_timeline_view_set_profile (HpTimelineView  *self,
                                             HpLoadedProfile *profile);
/* The events (bit id - 1) the lanes draw and the range's count counts,
 * until the next profile: the event the views show. */
void           hp_timeline_view_set_event_mask (HpTimelineView *self,
                                             guint64          event_mask);
/* The samples once read, NULL before. */
HpSampleIndex *hp_timeline_view_get_samples (HpTimelineView  *self);
HpTimeline    *hp_timeline_view_get_timeline (HpTimelineView *self);
const char    *hp_timeline_view_get_status  (HpTimelineView  *self);
/* For tests: the text shown instead of the lanes (reading them, an
 * error, a capture without sample times), NULL when the lanes show; and
 * whether a range can be selected (the lanes and their buttons show). */
const char    *hp_timeline_view_get_notice  (HpTimelineView  *self);
gboolean       hp_timeline_view_offers_range (HpTimelineView *self);

G_END_DECLS
