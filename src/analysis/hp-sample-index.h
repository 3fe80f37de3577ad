/* hp-sample-index.h - samples by thread and time, for ranges and timelines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "store/hp-capture.h"

G_BEGIN_DECLS

typedef struct _HpSampleIndex HpSampleIndex;

/* @samples: HpCaptureSample sorted by thread, then time (as
 * hp_capture_load_samples() returns them), of one event or several;
 * taken (and sorted again by thread, event and time when several). */
HpSampleIndex *hp_sample_index_new        (GArray        *samples);
/* Immutable once made, so shared across threads by reference. */
HpSampleIndex *hp_sample_index_ref        (HpSampleIndex *self);
void           hp_sample_index_unref      (HpSampleIndex *self);

guint64        hp_sample_index_get_n_samples (HpSampleIndex *self);
/* Time of the first and the last sample (0 and 0 without samples). */
guint64        hp_sample_index_get_start  (HpSampleIndex *self);
guint64        hp_sample_index_get_end    (HpSampleIndex *self);

/* A mask of events (bit id - 1) that counts every event of the index */
#define HP_SAMPLE_INDEX_ALL_EVENTS G_MAXUINT64

/* The events the index holds samples of (bit id - 1). */
guint64        hp_sample_index_get_events (HpSampleIndex *self);

/* Threads with samples (of any event), ascending. */
guint          hp_sample_index_get_n_threads (HpSampleIndex *self);
gint32         hp_sample_index_get_tid    (HpSampleIndex *self,
                                           guint          thread);
/* Times of the thread's first and last sample (of any event). */
void           hp_sample_index_get_thread_span (HpSampleIndex *self,
                                           guint          thread,
                                           guint64       *first,
                                           guint64       *last);

/* Samples of the events in @event_mask (bit id - 1; the events a view
 * shows) and of the threads in @tids (a set of GINT_TO_POINTER (tid);
 * NULL for all) whose time lies in [@from, @to], both included, summed
 * per (stack, thread) as HpCaptureStackCount (event_id 0): what the
 * capture's stack_counts of those events would hold had it recorded only
 * that. @n_samples receives their number. */
GArray        *hp_sample_index_count      (HpSampleIndex *self,
                                           guint64        event_mask,
                                           guint64        from,
                                           guint64        to,
                                           GHashTable    *tids,
                                           guint64       *n_samples);

/* The number hp_sample_index_count() gives in @n_samples, found by
 * binary searches alone: cheap enough for the main loop. */
guint64        hp_sample_index_count_samples (HpSampleIndex *self,
                                           guint64        event_mask,
                                           guint64        from,
                                           guint64        to,
                                           GHashTable    *tids);

/* What each thread of the index holds in [@from, @to] of the events in
 * @event_mask: its number of samples, or (@by_weight) the sum of their
 * weights, into @amounts[thread] (hp_sample_index_get_n_threads()
 * entries). The numbers by binary searches alone; the weights are
 * summed over the range's samples. */
void           hp_sample_index_count_threads (HpSampleIndex *self,
                                           guint64        event_mask,
                                           guint64        from,
                                           guint64        to,
                                           gboolean       by_weight,
                                           guint64       *amounts);

/* Samples of one thread, of the events in @event_mask, per bin of
 * [@from, @to] cut into @n_bins equal bins: the density a timeline lane
 * draws. */
void           hp_sample_index_density    (HpSampleIndex *self,
                                           guint          thread,
                                           guint64        event_mask,
                                           guint64        from,
                                           guint64        to,
                                           guint          n_bins,
                                           guint32       *bins);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpSampleIndex, hp_sample_index_unref)

G_END_DECLS
