/* hp-sample-index.c - samples by thread and time, for ranges and timelines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * This file owns the one question the call tree cannot answer from the
 * capture's aggregates: what happened between two moments. The samples
 * are kept sorted by thread and then by time, so a thread's samples in a
 * range are found with two binary searches, and a filtered profile is
 * built from per-stack counts of those samples, never by replaying them
 * through the tree (docs/ARCHITECTURE.md, How to add a view): the
 * analysis then runs exactly as on a whole capture.
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include <string.h>

#include "analysis/hp-sample-index.h"

typedef struct {
  gint32 tid;
  guint  begin;  /* index of its first sample */
  guint  end;    /* index after its last */
} Thread;

struct _HpSampleIndex {
  GArray  *samples;  /* HpCaptureSample, by (tid, time) */
  GArray  *threads;  /* Thread, by tid */
  guint64  start;
  guint64  end;
  guint32  max_stack;
};

HpSampleIndex *
hp_sample_index_new (GArray *samples)
{
  HpSampleIndex *self;

  g_return_val_if_fail (samples != NULL, NULL);
  g_return_val_if_fail (g_array_get_element_size (samples) == sizeof (HpCaptureSample), NULL);

  self = g_atomic_rc_box_new0 (HpSampleIndex);
  self->samples = samples;
  self->threads = g_array_new (FALSE, FALSE, sizeof (Thread));
  for (guint i = 0; i < samples->len; i++)
    {
      const HpCaptureSample *s = &g_array_index (samples, HpCaptureSample, i);
      Thread *last = self->threads->len > 0 ? &g_array_index (self->threads, Thread, self->threads->len - 1) : NULL;

      g_return_val_if_fail (last == NULL || s->tid > last->tid ||
                            (s->tid == last->tid && s->time >= g_array_index (samples, HpCaptureSample, i - 1).time),
                            self);
      if (last == NULL || last->tid != s->tid)
        {
          Thread t = { s->tid, i, i + 1 };

          g_array_append_val (self->threads, t);
        }
      else
        last->end = i + 1;
      if (i == 0 || s->time < self->start)
        self->start = s->time;
      if (s->time > self->end)
        self->end = s->time;
      self->max_stack = MAX (self->max_stack, s->stack_id);
    }
  return self;
}

static void
sample_index_clear (gpointer p)
{
  HpSampleIndex *self = p;

  g_array_unref (self->samples);
  g_array_unref (self->threads);
}

HpSampleIndex *
hp_sample_index_ref (HpSampleIndex *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_atomic_rc_box_acquire (self);
}

void
hp_sample_index_unref (HpSampleIndex *self)
{
  if (self != NULL)
    g_atomic_rc_box_release_full (self, sample_index_clear);
}

guint64
hp_sample_index_get_n_samples (HpSampleIndex *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->samples->len;
}

guint64
hp_sample_index_get_start (HpSampleIndex *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->start;
}

guint64
hp_sample_index_get_end (HpSampleIndex *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->end;
}

guint
hp_sample_index_get_n_threads (HpSampleIndex *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->threads->len;
}

gint32
hp_sample_index_get_tid (HpSampleIndex *self,
                         guint          thread)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (thread < self->threads->len, 0);

  return g_array_index (self->threads, Thread, thread).tid;
}

void
hp_sample_index_get_thread_span (HpSampleIndex *self,
                                 guint          thread,
                                 guint64       *first,
                                 guint64       *last)
{
  const Thread *t;

  g_return_if_fail (self != NULL);
  g_return_if_fail (thread < self->threads->len);

  t = &g_array_index (self->threads, Thread, thread);
  *first = g_array_index (self->samples, HpCaptureSample, t->begin).time;
  *last = g_array_index (self->samples, HpCaptureSample, t->end - 1).time;
}

/* The first index in [begin, end) whose time is >= @time (or > @time with
 * @after). */
static guint
search (HpSampleIndex *self,
        guint          begin,
        guint          end,
        guint64        time,
        gboolean       after)
{
  while (begin < end)
    {
      guint mid = begin + (end - begin) / 2;
      guint64 t = g_array_index (self->samples, HpCaptureSample, mid).time;

      if (t < time || (after && t == time))
        begin = mid + 1;
      else
        end = mid;
    }
  return begin;
}

GArray *
hp_sample_index_count (HpSampleIndex *self,
                       guint64        from,
                       guint64        to,
                       GHashTable    *tids,
                       guint64       *n_samples)
{
  g_autofree guint *slot = NULL;
  g_autofree guint *stamp = NULL;
  GArray *counts;
  guint64 n = 0;

  g_return_val_if_fail (self != NULL, NULL);

  counts = g_array_new (FALSE, FALSE, sizeof (HpCaptureStackCount));
  /* per stack id: its entry in @counts for the thread at hand, valid
   * when its stamp is that thread's (no clearing between threads) */
  slot = g_new (guint, (gsize) self->max_stack + 1);
  stamp = g_new0 (guint, (gsize) self->max_stack + 1);
  for (guint i = 0; i < self->threads->len && from <= to; i++)
    {
      const Thread *t = &g_array_index (self->threads, Thread, i);
      guint begin, end;

      if (tids != NULL && !g_hash_table_contains (tids, GINT_TO_POINTER (t->tid)))
        continue;
      begin = search (self, t->begin, t->end, from, FALSE);
      end = search (self, begin, t->end, to, TRUE);
      for (guint j = begin; j < end; j++)
        {
          const HpCaptureSample *s = &g_array_index (self->samples, HpCaptureSample, j);
          HpCaptureStackCount *c;

          if (stamp[s->stack_id] != i + 1)
            {
              HpCaptureStackCount fresh = { s->stack_id, t->tid, 0, 0 };

              g_array_append_val (counts, fresh);
              stamp[s->stack_id] = i + 1;
              slot[s->stack_id] = counts->len - 1;
            }
          c = &g_array_index (counts, HpCaptureStackCount, slot[s->stack_id]);
          c->samples++;
          c->weight += s->weight;
        }
      n += end - begin;
    }
  if (n_samples != NULL)
    *n_samples = n;
  return counts;
}

void
hp_sample_index_density (HpSampleIndex *self,
                         guint          thread,
                         guint64        from,
                         guint64        to,
                         guint          n_bins,
                         guint32       *bins)
{
  const Thread *t;
  guint begin, end;
  double span;

  g_return_if_fail (self != NULL);
  g_return_if_fail (thread < self->threads->len);
  g_return_if_fail (bins != NULL || n_bins == 0);

  memset (bins, 0, n_bins * sizeof *bins);
  if (n_bins == 0 || to < from)
    return;
  t = &g_array_index (self->threads, Thread, thread);
  begin = search (self, t->begin, t->end, from, FALSE);
  end = search (self, begin, t->end, to, TRUE);
  span = (double) (to - from) + 1;
  for (guint j = begin; j < end; j++)
    {
      guint64 time = g_array_index (self->samples, HpCaptureSample, j).time;
      guint bin = (guint) ((time - from) / span * n_bins);

      bins[MIN (bin, n_bins - 1)]++;
    }
}
