/* hp-sample-index.h - samples by thread and time, for ranges and timelines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "store/hp-capture.h"

G_BEGIN_DECLS

typedef struct _HpSampleIndex HpSampleIndex;

/* @samples: HpCaptureSample sorted by thread, then time (as
 * hp_capture_load_samples() returns them); taken. */
HpSampleIndex *hp_sample_index_new        (GArray        *samples);
/* Immutable once made, so shared across threads by reference. */
HpSampleIndex *hp_sample_index_ref        (HpSampleIndex *self);
void           hp_sample_index_unref      (HpSampleIndex *self);

guint64        hp_sample_index_get_n_samples (HpSampleIndex *self);
/* Time of the first and the last sample (0 and 0 without samples). */
guint64        hp_sample_index_get_start  (HpSampleIndex *self);
guint64        hp_sample_index_get_end    (HpSampleIndex *self);

/* Threads with samples, ascending. */
guint          hp_sample_index_get_n_threads (HpSampleIndex *self);
gint32         hp_sample_index_get_tid    (HpSampleIndex *self,
                                           guint          thread);
/* Times of the thread's first and last sample. */
void           hp_sample_index_get_thread_span (HpSampleIndex *self,
                                           guint          thread,
                                           guint64       *first,
                                           guint64       *last);

/* Samples of the threads in @tids (a set of GINT_TO_POINTER (tid); NULL
 * for all) whose time lies in [@from, @to], both included, summed per
 * (stack, thread) as HpCaptureStackCount: what the capture's stack_counts
 * would hold had it recorded only that. @n_samples receives their number. */
GArray        *hp_sample_index_count      (HpSampleIndex *self,
                                           guint64        from,
                                           guint64        to,
                                           GHashTable    *tids,
                                           guint64       *n_samples);

/* Samples of one thread per bin of [@from, @to] cut into @n_bins equal
 * bins: the density a timeline lane draws. */
void           hp_sample_index_density    (HpSampleIndex *self,
                                           guint          thread,
                                           guint64        from,
                                           guint64        to,
                                           guint          n_bins,
                                           guint32       *bins);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpSampleIndex, hp_sample_index_unref)

G_END_DECLS
