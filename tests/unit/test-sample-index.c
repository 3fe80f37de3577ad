/* test-sample-index.c - samples by thread and time, known by construction
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Thread 7 samples at t = 100, 110, ... 190 (stacks 1 and 2 alternating,
 * weight 3), thread 3 at t = 150, 150, 160 (stack 2, weight 5), handed
 * over in no particular order of threads, as hp_capture_load_samples()
 * sorts them. Ranges include both ends.
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include "analysis/hp-sample-index.h"

static int
by_thread_and_time (gconstpointer a,
                    gconstpointer b)
{
  const HpCaptureSample *sa = a, *sb = b;

  if (sa->tid != sb->tid)
    return sa->tid < sb->tid ? -1 : 1;
  return sa->time < sb->time ? -1 : sa->time > sb->time;
}

static HpSampleIndex *
build (void)
{
  GArray *samples = g_array_new (FALSE, FALSE, sizeof (HpCaptureSample));

  for (guint i = 0; i < 10; i++)
    {
      HpCaptureSample s = { 100 + 10 * i, 3, 1 + i % 2, 7 };

      g_array_append_val (samples, s);
    }
  g_array_append_val (samples, ((HpCaptureSample) { 150, 5, 2, 3 }));
  g_array_append_val (samples, ((HpCaptureSample) { 160, 5, 2, 3 }));
  g_array_append_val (samples, ((HpCaptureSample) { 150, 5, 2, 3 }));
  g_array_sort (samples, by_thread_and_time);
  return hp_sample_index_new (samples);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

/* "stack/tid:samples/weight" per entry, sorted, as one string */
static char *
render (GArray *counts)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (counts, HpCaptureStackCount, i);

      g_ptr_array_add (parts, g_strdup_printf ("%" G_GINT64_FORMAT "/%d:%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
                                               c->stack_id, c->tid, c->samples, c->weight));
    }
  g_ptr_array_sort (parts, compare_strings);
  for (guint i = 0; i < parts->len; i++)
    g_string_append_printf (out, "%s%s", i ? " " : "", (char *) g_ptr_array_index (parts, i));
  g_array_unref (counts);
  return g_string_free (out, FALSE);
}

static void
test_threads (void)
{
  g_autoptr(HpSampleIndex) index = build ();
  guint64 first, last;

  g_assert_cmpuint (hp_sample_index_get_n_samples (index), ==, 13);
  g_assert_cmpuint (hp_sample_index_get_start (index), ==, 100);
  g_assert_cmpuint (hp_sample_index_get_end (index), ==, 190);
  g_assert_cmpuint (hp_sample_index_get_n_threads (index), ==, 2);
  g_assert_cmpint (hp_sample_index_get_tid (index, 0), ==, 3);
  g_assert_cmpint (hp_sample_index_get_tid (index, 1), ==, 7);
  hp_sample_index_get_thread_span (index, 0, &first, &last);
  g_assert_cmpuint (first, ==, 150);
  g_assert_cmpuint (last, ==, 160);
}

static void
test_count (void)
{
  g_autoptr(HpSampleIndex) index = build ();
  g_autoptr(GHashTable) only7 = g_hash_table_new (NULL, NULL);
  g_autofree char *all = NULL, *mid = NULL, *edges = NULL, *none = NULL, *seven = NULL;
  guint64 n;

  all = render (hp_sample_index_count (index, HP_SAMPLE_INDEX_ALL_EVENTS, 0, G_MAXUINT64, NULL, &n));
  g_assert_cmpuint (n, ==, 13);
  g_assert_cmpstr (all, ==, "1/7:5/15 2/3:3/15 2/7:5/15");

  /* both ends included: 150, 160 of thread 7 (stacks 2 and 1), and
   * thread 3's three samples */
  mid = render (hp_sample_index_count (index, HP_SAMPLE_INDEX_ALL_EVENTS, 150, 160, NULL, &n));
  g_assert_cmpuint (n, ==, 5);
  g_assert_cmpstr (mid, ==, "1/7:1/3 2/3:3/15 2/7:1/3");

  edges = render (hp_sample_index_count (index, HP_SAMPLE_INDEX_ALL_EVENTS, 190, 190, NULL, &n));
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (edges, ==, "2/7:1/3");

  none = render (hp_sample_index_count (index, HP_SAMPLE_INDEX_ALL_EVENTS, 191, 500, NULL, &n));
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpstr (none, ==, "");
  g_clear_pointer (&none, g_free);
  none = render (hp_sample_index_count (index, HP_SAMPLE_INDEX_ALL_EVENTS, 160, 150, NULL, &n));
  g_assert_cmpuint (n, ==, 0);

  g_hash_table_add (only7, GINT_TO_POINTER (7));
  seven = render (hp_sample_index_count (index, HP_SAMPLE_INDEX_ALL_EVENTS, 0, 155, only7, &n));
  g_assert_cmpuint (n, ==, 6);
  g_assert_cmpstr (seven, ==, "1/7:3/9 2/7:3/9");
}

static void
test_density (void)
{
  g_autoptr(HpSampleIndex) index = build ();
  guint32 bins[5];

  /* thread 7 over [100, 199]: two samples per 20 ns */
  hp_sample_index_density (index, 1, HP_SAMPLE_INDEX_ALL_EVENTS, 100, 199, 5, bins);
  for (guint i = 0; i < 5; i++)
    g_assert_cmpuint (bins[i], ==, 2);
  /* thread 3 over [100, 199]: 150, 150 in bin 2 and 160 in bin 3 */
  hp_sample_index_density (index, 0, HP_SAMPLE_INDEX_ALL_EVENTS, 100, 199, 5, bins);
  g_assert_cmpuint (bins[0], ==, 0);
  g_assert_cmpuint (bins[2], ==, 2);
  g_assert_cmpuint (bins[3], ==, 1);
  g_assert_cmpuint (bins[4], ==, 0);
}

/* The same samples as build(), plus page faults (event 2) in thread 7 at
 * t = 105, 115, 125 (stack 3, weight 1) and in a thread 9 that has no
 * other samples, at t = 140; handed over by thread and time, as
 * hp_capture_load_samples() reads a capture of two events. */
static HpSampleIndex *
build_two_events (void)
{
  GArray *samples = g_array_new (FALSE, FALSE, sizeof (HpCaptureSample));

  for (guint i = 0; i < 10; i++)
    {
      HpCaptureSample s = { 100 + 10 * i, 3, 1 + i % 2, 7, 1 };

      g_array_append_val (samples, s);
    }
  for (guint i = 0; i < 3; i++)
    g_array_append_val (samples, ((HpCaptureSample) { 105 + 10 * i, 1, 3, 7, 2 }));
  g_array_append_val (samples, ((HpCaptureSample) { 150, 5, 2, 3, 1 }));
  g_array_append_val (samples, ((HpCaptureSample) { 160, 5, 2, 3, 1 }));
  g_array_append_val (samples, ((HpCaptureSample) { 150, 5, 2, 3, 1 }));
  g_array_append_val (samples, ((HpCaptureSample) { 140, 1, 3, 9, 2 }));
  g_array_sort (samples, by_thread_and_time);
  return hp_sample_index_new (samples);
}

/* A view of one event counts, draws and spans that event's samples only
 * (issue 13: the timeline and the range follow the event shown). */
static void
test_events (void)
{
  g_autoptr(HpSampleIndex) index = build_two_events ();
  g_autoptr(GHashTable) only7 = g_hash_table_new (NULL, NULL);
  g_autofree char *first = NULL, *faults = NULL, *both = NULL, *faults7 = NULL;
  guint32 bins[5];
  guint64 n, first_time, last_time;

  g_assert_cmpuint (hp_sample_index_get_events (index), ==, 3);
  g_assert_cmpuint (hp_sample_index_get_n_samples (index), ==, 17);
  g_assert_cmpuint (hp_sample_index_get_n_threads (index), ==, 3);
  g_assert_cmpint (hp_sample_index_get_tid (index, 2), ==, 9);
  hp_sample_index_get_thread_span (index, 1, &first_time, &last_time);
  g_assert_cmpuint (first_time, ==, 100);
  g_assert_cmpuint (last_time, ==, 190);

  first = render (hp_sample_index_count (index, 1 << 0, 0, G_MAXUINT64, NULL, &n));
  g_assert_cmpuint (n, ==, 13);
  g_assert_cmpstr (first, ==, "1/7:5/15 2/3:3/15 2/7:5/15");
  faults = render (hp_sample_index_count (index, 1 << 1, 110, 150, NULL, &n));
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpstr (faults, ==, "3/7:2/2 3/9:1/1");
  g_assert_cmpuint (hp_sample_index_count_samples (index, 1 << 1, 110, 150, NULL), ==, 3);
  both = render (hp_sample_index_count (index, HP_SAMPLE_INDEX_ALL_EVENTS, 100, 110, NULL, &n));
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpstr (both, ==, "1/7:1/3 2/7:1/3 3/7:1/1");
  g_hash_table_add (only7, GINT_TO_POINTER (7));
  faults7 = render (hp_sample_index_count (index, 1 << 1, 0, G_MAXUINT64, only7, &n));
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpstr (faults7, ==, "3/7:3/3");
  g_assert_cmpuint (hp_sample_index_count_samples (index, 1 << 1, 0, G_MAXUINT64, only7), ==, 3);
  g_assert_cmpuint (hp_sample_index_count_samples (index, 1 << 0, 0, G_MAXUINT64, only7), ==, 10);
  /* an event the index lacks */
  g_assert_cmpuint (hp_sample_index_count_samples (index, 1 << 5, 0, G_MAXUINT64, NULL), ==, 0);

  /* thread 7's faults over [100, 149]: 105 in bin 0, 115 in 1, 125 in 2 */
  hp_sample_index_density (index, 1, 1 << 1, 100, 149, 5, bins);
  g_assert_cmpuint (bins[0], ==, 1);
  g_assert_cmpuint (bins[1], ==, 1);
  g_assert_cmpuint (bins[2], ==, 1);
  g_assert_cmpuint (bins[3], ==, 0);
  /* its cpu samples there: 100 ... 140 */
  hp_sample_index_density (index, 1, 1 << 0, 100, 149, 5, bins);
  for (guint i = 0; i < 5; i++)
    g_assert_cmpuint (bins[i], ==, 1);
  /* thread 9 has no cpu samples */
  hp_sample_index_density (index, 2, 1 << 0, 100, 149, 5, bins);
  for (guint i = 0; i < 5; i++)
    g_assert_cmpuint (bins[i], ==, 0);
}

/* The count alone is the number the full count gives, for every range
 * with ends on and between the samples. */
static void
test_count_samples (void)
{
  g_autoptr(HpSampleIndex) index = build ();
  g_autoptr(GHashTable) only3 = g_hash_table_new (NULL, NULL);

  g_hash_table_add (only3, GINT_TO_POINTER (3));
  for (guint64 from = 95; from <= 195; from += 5)
    for (guint64 to = 90; to <= 200; to += 5)
      for (guint t = 0; t < 2; t++)
        {
          GHashTable *tids = t ? only3 : NULL;
          guint64 n;
          g_autoptr(GArray) counts = hp_sample_index_count (index, HP_SAMPLE_INDEX_ALL_EVENTS, from, to, tids, &n);

          g_assert_cmpuint (hp_sample_index_count_samples (index, HP_SAMPLE_INDEX_ALL_EVENTS, from, to, tids), ==, n);
        }
}

/* Each thread's samples and weights in a range, of the events asked for,
 * are what its per-stack counts sum to, for every range with ends on
 * and between the samples. */
static void
test_count_threads (void)
{
  g_autoptr(HpSampleIndex) index = build_two_events ();
  guint n = hp_sample_index_get_n_threads (index);
  guint64 masks[] = { 1 << 0, 1 << 1, HP_SAMPLE_INDEX_ALL_EVENTS };

  for (guint m = 0; m < G_N_ELEMENTS (masks); m++)
    for (guint64 from = 95; from <= 195; from += 5)
      for (guint64 to = 90; to <= 200; to += 5)
        {
          g_autoptr(GArray) counts = hp_sample_index_count (index, masks[m], from, to, NULL, NULL);
          g_autofree guint64 *samples = g_new0 (guint64, n);
          g_autofree guint64 *weights = g_new0 (guint64, n);
          g_autofree guint64 *expected_samples = g_new0 (guint64, n);
          g_autofree guint64 *expected_weights = g_new0 (guint64, n);

          for (guint i = 0; i < counts->len; i++)
            {
              const HpCaptureStackCount *c = &g_array_index (counts, HpCaptureStackCount, i);

              for (guint t = 0; t < n; t++)
                if (hp_sample_index_get_tid (index, t) == c->tid)
                  {
                    expected_samples[t] += c->samples;
                    expected_weights[t] += c->weight;
                  }
            }
          hp_sample_index_count_threads (index, masks[m], from, to, FALSE, samples);
          hp_sample_index_count_threads (index, masks[m], from, to, TRUE, weights);
          for (guint t = 0; t < n; t++)
            {
              g_assert_cmpuint (samples[t], ==, expected_samples[t]);
              g_assert_cmpuint (weights[t], ==, expected_weights[t]);
            }
        }
  /* by construction: thread 7's cpu samples in [100, 120], weight 3 each */
  {
    guint64 amounts[3];

    hp_sample_index_count_threads (index, 1 << 0, 100, 120, TRUE, amounts);
    g_assert_cmpint (hp_sample_index_get_tid (index, 1), ==, 7);
    g_assert_cmpuint (amounts[1], ==, 9);
    g_assert_cmpuint (amounts[0], ==, 0);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sample-index/threads", test_threads);
  g_test_add_func ("/sample-index/count", test_count);
  g_test_add_func ("/sample-index/density", test_density);
  g_test_add_func ("/sample-index/events", test_events);
  g_test_add_func ("/sample-index/count-samples", test_count_samples);
  g_test_add_func ("/sample-index/count-threads", test_count_threads);
  return g_test_run ();
}
