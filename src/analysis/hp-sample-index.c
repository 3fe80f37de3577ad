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
 *
 * A capture may count several events (cpu-clock and page faults, say),
 * and a view shows one of them (or cpu-clock with off-cpu): within a
 * thread the samples are kept by event, then by time, so that the
 * samples of the events shown are a few runs, each binary-searched, and
 * a range's sample count is those searches alone.
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include <string.h>

#include "analysis/hp-block-pool.h"
#include "analysis/hp-sample-index.h"

/* The samples of one event in one thread: [begin, end) by time */
typedef struct {
  guint64 event_bit;  /* 1 << (event id - 1) */
  guint   begin;
  guint   end;
} Run;

typedef struct {
  gint32 tid;
  guint  first_run;  /* its runs: [first_run, end_run) */
  guint  end_run;
} Thread;

struct _HpSampleIndex {
  GArray  *samples;  /* HpCaptureSample, by (tid, event, time) */
  GArray  *runs;     /* Run */
  GArray  *threads;  /* Thread, by tid */
  guint64  start;
  guint64  end;
  guint32  max_stack;
};

static inline guint32
event_of (const HpCaptureSample *s)
{
  return s->event_id == 0 ? 1 : s->event_id;
}

static int
by_thread_event_time (gconstpointer a,
                      gconstpointer b)
{
  const HpCaptureSample *sa = a, *sb = b;

  if (sa->tid != sb->tid)
    return sa->tid < sb->tid ? -1 : 1;
  if (event_of (sa) != event_of (sb))
    return event_of (sa) < event_of (sb) ? -1 : 1;
  return sa->time < sb->time ? -1 : sa->time > sb->time;
}

HpSampleIndex *
hp_sample_index_new (GArray *samples)
{
  HpSampleIndex *self;
  gboolean several_events = FALSE;

  g_return_val_if_fail (samples != NULL, NULL);
  g_return_val_if_fail (g_array_get_element_size (samples) == sizeof (HpCaptureSample), NULL);

  self = g_atomic_rc_box_new0 (HpSampleIndex);
  self->samples = samples;
  self->runs = g_array_new (FALSE, FALSE, sizeof (Run));
  self->threads = g_array_new (FALSE, FALSE, sizeof (Thread));
  for (guint i = 1; i < samples->len && !several_events; i++)
    several_events = event_of (&g_array_index (samples, HpCaptureSample, i)) !=
                     event_of (&g_array_index (samples, HpCaptureSample, 0));
  /* by thread and time, as read: one event is already in order */
  if (several_events)
    g_array_sort (samples, by_thread_event_time);

  for (guint i = 0; i < samples->len; i++)
    {
      const HpCaptureSample *s = &g_array_index (samples, HpCaptureSample, i);
      const HpCaptureSample *prev = i > 0 ? s - 1 : NULL;
      Thread *last = self->threads->len > 0 ? &g_array_index (self->threads, Thread, self->threads->len - 1) : NULL;

      g_return_val_if_fail (event_of (s) <= HP_CAPTURE_MAX_EVENTS, self);
      g_return_val_if_fail (prev == NULL || by_thread_event_time (prev, s) <= 0, self);
      if (prev == NULL || prev->tid != s->tid || event_of (prev) != event_of (s))
        {
          Run run = { (guint64) 1 << (event_of (s) - 1), i, i + 1 };

          g_array_append_val (self->runs, run);
        }
      else
        g_array_index (self->runs, Run, self->runs->len - 1).end = i + 1;
      if (last == NULL || last->tid != s->tid)
        {
          Thread t = { s->tid, self->runs->len - 1, self->runs->len };

          g_array_append_val (self->threads, t);
        }
      else
        last->end_run = self->runs->len;
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
  g_array_unref (self->runs);
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
  *first = G_MAXUINT64;
  *last = 0;
  for (guint r = t->first_run; r < t->end_run; r++)
    {
      const Run *run = &g_array_index (self->runs, Run, r);

      *first = MIN (*first, g_array_index (self->samples, HpCaptureSample, run->begin).time);
      *last = MAX (*last, g_array_index (self->samples, HpCaptureSample, run->end - 1).time);
    }
}

guint64
hp_sample_index_get_events (HpSampleIndex *self)
{
  guint64 mask = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (guint r = 0; r < self->runs->len; r++)
    mask |= g_array_index (self->runs, Run, r).event_bit;
  return mask;
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

/* The runs a question covers, one at a time: the threads in [thread,
 * end_thread) that @tids keeps (NULL: all), their runs of the events in
 * @event_mask, each cut to [from, to] by two binary searches. Counting,
 * per-stack counts and density differ only in what they do with a run's
 * samples. */
typedef struct {
  HpSampleIndex *index;
  guint64        event_mask;
  guint64        from;
  guint64        to;
  GHashTable    *tids;
  guint          thread;      /* the thread at hand */
  guint          end_thread;
  guint          run;         /* its next run */
} RunIter;

static void
run_iter_init (RunIter       *iter,
               HpSampleIndex *self,
               guint64        event_mask,
               guint64        from,
               guint64        to,
               GHashTable    *tids,
               guint          first_thread,
               guint          end_thread)
{
  *iter = (RunIter) { self, event_mask, from, to, tids, first_thread, end_thread, 0 };
  /* an empty range covers nothing */
  if (to < from)
    iter->thread = iter->end_thread;
  else if (iter->thread < iter->end_thread)
    iter->run = g_array_index (self->threads, Thread, iter->thread).first_run;
}

/* The next run's samples in the range, [*begin, *end), and the index of
 * its thread in *thread; FALSE when none is left. */
static gboolean
run_iter_next (RunIter *iter,
               guint   *thread,
               guint   *begin,
               guint   *end)
{
  HpSampleIndex *self = iter->index;

  while (iter->thread < iter->end_thread)
    {
      const Thread *t = &g_array_index (self->threads, Thread, iter->thread);

      if (iter->run >= t->end_run ||
          (iter->tids != NULL && !g_hash_table_contains (iter->tids, GINT_TO_POINTER (t->tid))))
        {
          if (++iter->thread < iter->end_thread)
            iter->run = g_array_index (self->threads, Thread, iter->thread).first_run;
          continue;
        }
      while (iter->run < t->end_run)
        {
          const Run *run = &g_array_index (self->runs, Run, iter->run++);

          if (!(run->event_bit & iter->event_mask))
            continue;
          *thread = iter->thread;
          *begin = search (self, run->begin, run->end, iter->from, FALSE);
          *end = search (self, *begin, run->end, iter->to, TRUE);
          return TRUE;
        }
    }
  return FALSE;
}

guint64
hp_sample_index_count_samples (HpSampleIndex *self,
                               guint64        event_mask,
                               guint64        from,
                               guint64        to,
                               GHashTable    *tids)
{
  RunIter iter;
  guint thread, begin, end;
  guint64 n = 0;

  g_return_val_if_fail (self != NULL, 0);

  run_iter_init (&iter, self, event_mask, from, to, tids, 0, self->threads->len);
  while (run_iter_next (&iter, &thread, &begin, &end))
    n += end - begin;
  return n;
}

void
hp_sample_index_count_threads (HpSampleIndex *self,
                               guint64        event_mask,
                               guint64        from,
                               guint64        to,
                               gboolean       by_weight,
                               guint64       *amounts)
{
  RunIter iter;
  guint thread, begin, end;

  g_return_if_fail (self != NULL);
  g_return_if_fail (amounts != NULL || self->threads->len == 0);

  memset (amounts, 0, self->threads->len * sizeof *amounts);
  run_iter_init (&iter, self, event_mask, from, to, NULL, 0, self->threads->len);
  while (run_iter_next (&iter, &thread, &begin, &end))
    if (!by_weight)
      amounts[thread] += end - begin;
    else
      for (guint j = begin; j < end; j++)
        amounts[thread] += g_array_index (self->samples, HpCaptureSample, j).weight;
}

GArray *
hp_sample_index_count (HpSampleIndex *self,
                       guint64        event_mask,
                       guint64        from,
                       guint64        to,
                       GHashTable    *tids,
                       guint64       *n_samples)
{
  guint *slot, *stamp;
  gsize slot_size, stamp_size;
  GArray *counts;
  RunIter iter;
  guint thread, begin, end, room;
  guint64 n = 0;

  g_return_val_if_fail (self != NULL, NULL);

  /* Room for a count per sample: never more are needed, and pages of it
   * never written are never touched (growing it instead copied it again
   * and again). Slots and stamps come from the block pool, in memory
   * already when a range follows a range (hp-block-pool.c). */
  room = (guint) MIN (hp_sample_index_count_samples (self, event_mask, from, to, tids),
                      G_MAXUINT / sizeof (HpCaptureStackCount));
  counts = g_array_sized_new (FALSE, FALSE, sizeof (HpCaptureStackCount), room);
  /* malloc() maps it fresh in 4 KiB pages: 800 page faults for a third
   * of the stress capture, 25 to 50 ms in a virtual machine */
  hp_block_advise_huge (counts->data, (gsize) room * sizeof (HpCaptureStackCount));
  /* per stack id: its entry in @counts for the thread at hand, valid
   * when its stamp is that thread's (no clearing between threads) */
  slot = hp_block_alloc (((gsize) self->max_stack + 1) * sizeof (guint), &slot_size);
  stamp = hp_block_alloc0 (((gsize) self->max_stack + 1) * sizeof (guint), &stamp_size);
  run_iter_init (&iter, self, event_mask, from, to, tids, 0, self->threads->len);
  while (run_iter_next (&iter, &thread, &begin, &end))
    {
      gint32 tid = g_array_index (self->threads, Thread, thread).tid;

      for (guint j = begin; j < end; j++)
        {
          const HpCaptureSample *s = &g_array_index (self->samples, HpCaptureSample, j);
          HpCaptureStackCount *c;

          if (stamp[s->stack_id] != thread + 1)
            {
              HpCaptureStackCount fresh = { s->stack_id, tid, 0, 0, 0 };

              g_array_append_val (counts, fresh);
              stamp[s->stack_id] = thread + 1;
              slot[s->stack_id] = counts->len - 1;
            }
          c = &g_array_index (counts, HpCaptureStackCount, slot[s->stack_id]);
          c->samples++;
          c->weight += s->weight;
        }
      n += end - begin;
    }
  hp_block_free (slot, slot_size);
  hp_block_free (stamp, stamp_size);
  if (n_samples != NULL)
    *n_samples = n;
  return counts;
}

void
hp_sample_index_density (HpSampleIndex *self,
                         guint          thread,
                         guint64        event_mask,
                         guint64        from,
                         guint64        to,
                         guint          n_bins,
                         guint32       *bins)
{
  RunIter iter;
  guint t, begin, end;
  double span;

  g_return_if_fail (self != NULL);
  g_return_if_fail (thread < self->threads->len);
  g_return_if_fail (bins != NULL || n_bins == 0);

  memset (bins, 0, n_bins * sizeof *bins);
  if (n_bins == 0)
    return;
  span = (double) (to - from) + 1;
  run_iter_init (&iter, self, event_mask, from, to, NULL, thread, thread + 1);
  while (run_iter_next (&iter, &t, &begin, &end))
    for (guint j = begin; j < end; j++)
      {
        guint64 time = g_array_index (self->samples, HpCaptureSample, j).time;
        guint bin = (guint) ((time - from) / span * n_bins);

        bins[MIN (bin, n_bins - 1)]++;
      }
}
