/* hp-loaded-capture.c - a capture loaded for the window, and its profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The window never touches SQLite or the disk on the main thread
 * (docs/ARCHITECTURE.md, Threads): opening, loading, building the profile and reading
 * the summaries happen here, in a GTask worker with its own connection,
 * which it closes before returning. What it returns is immutable, so the
 * main thread and later workers (source annotation, search) read it
 * without locks.
 *
 * A perf.data file is opened by importing it into a cached capture with
 * hp_perf_import_cached(), the cache `hotpath-cli report PERF.DATA` uses
 * too, so a file imported by one is opened at once by the other.
 */

#define G_LOG_DOMAIN "hp-document"

#include "config.h"

#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "analysis/hp-block-pool.h"
#include "analysis/hp-summary-match.h"
#include "analysis/hp-symbol-name.h"
#include "record/hp-perf-import.h"
#include "analysis/hp-capture-filter.h"
#include "document/hp-loaded-capture.h"
#include "document/hp-thread-list.h"
#include "store/hp-capture-keys.h"

HpLoadedCapture *
hp_loaded_capture_ref (HpLoadedCapture *self)
{
  return g_atomic_rc_box_acquire (self);
}

static void
loaded_capture_clear (gpointer p)
{
  HpLoadedCapture *self = p;

  g_free (self->path);
  g_free (self->display_name);
  g_clear_pointer (&self->data, hp_capture_data_free);
  g_clear_pointer (&self->summaries, g_hash_table_unref);
  g_clear_pointer (&self->summary_rows, g_ptr_array_unref);
  g_free (self->program);
  g_free (self->read_only_reason);
  g_free (self->row_names);
  g_free (self->short_names);
  g_free (self->module_names);
  g_free (self->thread_starts);
  g_clear_pointer (&self->shown_strings, g_string_chunk_free);
  g_clear_pointer (&self->jit_tiers, hp_jit_tiers_free);
  g_clear_pointer (&self->tier_modules, g_hash_table_unref);
  /* the last capture closed gives the pool's memory back */
  hp_block_pool_release ();
}

void
hp_loaded_capture_unref (HpLoadedCapture *self)
{
  g_atomic_rc_box_release_full (self, loaded_capture_clear);
}

const char *
hp_loaded_capture_get_metadata (HpLoadedCapture *self,
                                const char      *key)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_hash_table_lookup (self->data->metadata, key);
}

static const HpCaptureFunction *
function_of (HpLoadedCapture *self,
             gint64           function_id)
{
  if (function_id <= 0 || (guint64) function_id >= self->data->functions->len)
    return NULL;
  return &g_array_index (self->data->functions, HpCaptureFunction, function_id);
}

const char *
hp_loaded_capture_get_shown_name (HpLoadedCapture *self,
                                  gint64           function_id,
                                  gboolean         narrow)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (function_of (self, function_id) == NULL)
    return "";
  return narrow ? self->short_names[function_id] : self->row_names[function_id];
}

const char *
hp_loaded_capture_get_shown_module (HpLoadedCapture *self,
                                    gint64           function_id)
{
  const HpCaptureFunction *f;

  g_return_val_if_fail (self != NULL, NULL);

  f = function_of (self, function_id);
  if (f == NULL || f->module_id <= 0 || (guint64) f->module_id >= self->data->modules->len)
    return "";
  if (self->tier_modules != NULL)
    {
      const char *with_tier = g_hash_table_lookup (self->tier_modules, GINT_TO_POINTER ((gint) function_id));

      if (with_tier != NULL)
        return with_tier;
    }
  return self->module_names[f->module_id];
}

static const char *
tier_word (HpJitTier tier)
{
  switch (tier)
    {
    /* Translators: compilation tiers of JavaScript code (V8's Ignition,
     * Sparkplug, Maglev, TurboFan) */
    case HP_JIT_TIER_INTERPRETED: return _("interpreted");
    case HP_JIT_TIER_BASELINE:    return _("baseline");
    case HP_JIT_TIER_MID:         return _("mid-tier");
    case HP_JIT_TIER_OPTIMIZED:   return _("optimized");
    default:                      return "";
    }
}

char *
hp_loaded_capture_dup_tier_text (HpLoadedCapture *self,
                                 gint64           function_id)
{
  guint64 total[HP_N_JIT_TIERS], sum = 0;
  g_autoptr(GString) parts = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  if (!hp_jit_tiers_get (self->jit_tiers, function_id, total, NULL))
    return NULL;
  for (guint t = 0; t < HP_N_JIT_TIERS; t++)
    sum += total[t];
  if (sum == 0)
    return NULL;
  parts = g_string_new (NULL);
  /* the most optimized tier first */
  for (int t = HP_N_JIT_TIERS - 1; t >= 0; t--)
    if (total[t] > 0)
      g_string_append_printf (parts, "%s%s %.1f %%", parts->len ? ", " : "", tier_word (t),
                              100.0 * (double) total[t] / (double) sum);
  /* Translators: %s lists tiers and shares, "optimized 93.5 %, baseline 6.5 %" */
  return g_strdup_printf (_("Compiled at run time: %s of its samples in the whole capture"), parts->str);
}

char *
hp_loaded_capture_dup_tooltip_name (HpLoadedCapture *self,
                                    gint64           function_id)
{
  const HpCaptureFunction *f;

  g_return_val_if_fail (self != NULL, NULL);

  f = function_of (self, function_id);
  return hp_symbol_name_sanitize (f ? f->name : NULL, -1, HP_SYMBOL_NAME_TOOLTIP_CHARS);
}

char *
hp_loaded_capture_dup_full_name (HpLoadedCapture *self,
                                 gint64           function_id)
{
  const HpCaptureFunction *f;

  g_return_val_if_fail (self != NULL, NULL);

  f = function_of (self, function_id);
  return g_utf8_make_valid (f && f->name ? f->name : "", -1);
}

/* A name of 20,000 characters takes a GtkInscription milliseconds to lay
 * out, and a wrapping label grows as tall as the screen to hold it: the
 * window only ever shows these forms, computed here once per function. */
static void
make_shown_names (HpLoadedCapture *self)
{
  GArray *functions = self->data->functions;
  GArray *modules = self->data->modules;

  self->shown_strings = g_string_chunk_new (4096);
  self->row_names = g_new0 (const char *, MAX (functions->len, 1));
  self->short_names = g_new0 (const char *, MAX (functions->len, 1));
  self->module_names = g_new0 (const char *, MAX (modules->len, 1));
  for (guint i = 1; i < functions->len; i++)
    {
      const char *name = g_array_index (functions, HpCaptureFunction, i).name;
      /* the long name is read once: both forms come from the folded one */
      g_autofree char *folded = hp_symbol_name_shorten (name, HP_SYMBOL_NAME_ROW, 0);
      g_autofree char *row = hp_symbol_name_shorten (folded, 0, HP_SHOWN_ROW_CHARS);
      g_autofree char *narrow = hp_symbol_name_shorten (folded, HP_SYMBOL_NAME_DROP_PARAMETERS, HP_SHOWN_SHORT_CHARS);

      self->row_names[i] = g_string_chunk_insert_const (self->shown_strings, row);
      self->short_names[i] = g_string_chunk_insert_const (self->shown_strings, narrow);
    }
  for (guint i = 1; i < modules->len; i++)
    {
      g_autofree char *name = hp_symbol_name_sanitize (g_array_index (modules, HpCaptureModule, i).name, -1,
                                                       HP_SHOWN_SHORT_CHARS);

      self->module_names[i] = g_string_chunk_insert_const (self->shown_strings, name);
    }

  /* One row per function whatever tier it ran in: the module column says
   * the main one (the tooltip how they split), short enough for the
   * column. */
  self->jit_tiers = hp_jit_tiers_new (self->data, NULL);
  for (guint i = 1; i < functions->len && self->jit_tiers != NULL; i++)
    {
      const HpCaptureFunction *f = &g_array_index (functions, HpCaptureFunction, i);
      guint64 total[HP_N_JIT_TIERS];
      g_autofree char *shown = NULL;
      int main_tier;

      if (!hp_jit_tiers_get (self->jit_tiers, i, total, NULL) ||
          (main_tier = hp_jit_tiers_dominant (total)) < 0 ||
          f->module_id <= 0 || (guint64) f->module_id >= modules->len)
        continue;
      shown = g_strdup_printf ("%s · %s", self->module_names[f->module_id], tier_word (main_tier));
      if (self->tier_modules == NULL)
        self->tier_modules = g_hash_table_new (NULL, NULL);
      g_hash_table_insert (self->tier_modules, GINT_TO_POINTER ((gint) i),
                           (gpointer) g_string_chunk_insert_const (self->shown_strings, shown));
    }
}

guint
hp_loaded_capture_get_n_profiles (HpLoadedCapture *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return (guint) g_atomic_int_get (&self->n_profiles);
}

HpLoadedProfile *
hp_loaded_profile_ref (HpLoadedProfile *self)
{
  return g_atomic_rc_box_acquire (self);
}

static void
free_profile (gpointer profile,
              gpointer user_data)
{
  hp_profile_free (profile);
}

/* Freeing the profile of a large capture takes 50-70 ms (its trees are
 * a million small allocations), and the last reference often goes on the
 * main thread: a window closes, a thread filter changes. A worker frees
 * it; the profile points into nothing else that is freed meanwhile. */
static void
free_profile_later (HpProfile *profile)
{
  static GThreadPool *pool;

  if (g_once_init_enter (&pool))
    g_once_init_leave (&pool, g_thread_pool_new (free_profile, NULL, 1, FALSE, NULL));
  if (!g_thread_pool_push (pool, profile, NULL))
    hp_profile_free (profile);
}

static void
loaded_profile_clear (gpointer p)
{
  HpLoadedProfile *self = p;

  g_free (self->hottest_node);
  g_free (self->thread_amounts);
  g_free (self->range_amounts);
  g_clear_pointer (&self->ratio_top_down, hp_ratio_map_free);
  g_clear_pointer (&self->ratio_bottom_up, hp_ratio_map_free);
  g_mutex_clear (&self->ratio_lock);
  for (guint i = 0; i < 2; i++)
    {
      if (self->ratio_profiles[i] != NULL && self->ratio_profiles[i] != self->profile)
        free_profile_later (self->ratio_profiles[i]);
      self->ratio_profiles[i] = NULL;
      g_clear_pointer (&self->ratio_data[i], hp_capture_data_free);
    }
  hp_measure_clear (&self->measure);
  if (self->profile != NULL)
    free_profile_later (g_steal_pointer (&self->profile));
  /* after the profile, which points into it; the worker that frees the
   * profile runs later, so a filtered copy goes with it */
  if (self->capture != NULL && self->data != self->capture->data)
    g_clear_pointer (&self->data, hp_capture_data_free);
  g_clear_pointer (&self->tids, g_hash_table_unref);
  g_clear_pointer (&self->fold_functions, g_hash_table_unref);
  g_clear_pointer (&self->fold_modules, g_hash_table_unref);
  if (self->capture != NULL)
    g_atomic_int_dec_and_test (&self->capture->n_profiles);
  g_clear_pointer (&self->capture, hp_loaded_capture_unref);
}

void
hp_loaded_profile_unref (HpLoadedProfile *self)
{
  g_atomic_rc_box_release_full (self, loaded_profile_clear);
}

char *
hp_loaded_capture_why_read_only (const char *path)
{
  switch (hp_capture_check_writable (path))
    {
    case HP_CAPTURE_FILE_READ_ONLY:
      return g_strdup (_("The capture file is read-only."));
    case HP_CAPTURE_FOLDER_READ_ONLY:
      {
        g_autofree char *dir = g_path_get_dirname (path);

        /* SQLite creates its rollback journal beside the file */
        return g_strdup_printf (_("The folder %s is read-only, and saving needs to create a journal file there."), dir);
      }
    case HP_CAPTURE_WRITABLE:
    default:
      return NULL;
    }
}

/* Profile ------------------------------------------------------------ */

/* Depth first, in the tree's order (the first of equal totals is kept),
 * in a loop: a stack is as deep as the capture makes it, and recursion
 * once per level crashed the loader's thread at 100 000 levels with a
 * 1 MiB stack (400 000 with 8 MiB). */
static void
find_hottest (const HpCallNode  *root,
              const HpCallNode **hottest,
              guint              n_functions)
{
  HpCallNodeWalk walk;

  hp_call_node_walk_init (&walk, root);
  for (const HpCallNode *node; (node = hp_call_node_walk_next (&walk)) != NULL;)
    if (node->function_id > 0 && (guint64) node->function_id < n_functions)
      {
        const HpCallNode *best = hottest[node->function_id];

        if (best == NULL || node->total > best->total)
          hottest[node->function_id] = node;
      }
  hp_call_node_walk_clear (&walk);
}

GHashTable *
hp_id_set_copy (GHashTable *set)
{
  GHashTable *copy;
  GHashTableIter iter;
  gpointer key;

  if (set == NULL || g_hash_table_size (set) == 0)
    return NULL;
  copy = g_hash_table_new (NULL, NULL);
  g_hash_table_iter_init (&iter, set);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_add (copy, key);
  return copy;
}

gboolean
hp_id_set_equal (GHashTable *a,
                 GHashTable *b)
{
  GHashTableIter iter;
  gpointer key;

  if (a == NULL || g_hash_table_size (a) == 0 || b == NULL || g_hash_table_size (b) == 0)
    return (a == NULL || g_hash_table_size (a) == 0) == (b == NULL || g_hash_table_size (b) == 0);
  if (g_hash_table_size (a) != g_hash_table_size (b))
    return FALSE;
  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (b, key))
      return FALSE;
  return TRUE;
}

gboolean
hp_loaded_profile_has_folds (HpLoadedProfile       *self,
                             const HpProfileFilter *filter)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (filter != NULL, FALSE);

  return self->merge_recursion == filter->merge_recursion && self->fold_inline == filter->fold_inline &&
         self->hide_kernel == filter->hide_kernel &&
         hp_id_set_equal (self->fold_functions, filter->fold_functions) &&
         hp_id_set_equal (self->fold_modules, filter->fold_modules);
}

guint64
hp_loaded_profile_event_mask (const HpCaptureData *data)
{
  g_return_val_if_fail (data != NULL, 0);

  /* data made by hand (tests) has no events table: its one event */
  return data->events != NULL ? data->event_mask : HP_SAMPLE_INDEX_ALL_EVENTS;
}

/* The events (bit id - 1) of the sample index that a range counts for
 * @measure: those hp_measure_select() would keep of the capture's own
 * counts. @selects: whether that is a choice of the measure's (the
 * capture has several events), not the capture's one event. */
static guint64
range_event_mask (const HpCaptureData *whole,
                  const HpMeasure     *measure,
                  gboolean            *selects)
{
  gboolean chosen = measure->mask != 0 && whole->events != NULL && whole->all_counts != NULL;
  guint64 every = chosen && whole->events->len - 1 < 64 ? ((guint64) 1 << (whole->events->len - 1)) - 1 : G_MAXUINT64;

  if (selects != NULL)
    *selects = chosen;
  return chosen ? measure->mask & every : hp_loaded_profile_event_mask (whole);
}

/* The counts of @capture that @filter keeps, of what @measure counts:
 * @capture's own data never, always a copy. @hidden_samples (may be NULL)
 * receives the samples left out by hide_kernel. */
static HpCaptureData *
filtered_data (HpLoadedCapture       *capture,
               const HpMeasure       *measure,
               const HpProfileFilter *filter,
               HpSampleIndex         *samples,
               guint64               *hidden_samples)
{
  HpCaptureData *data;

  if (filter != NULL && filter->has_range && samples != NULL)
    {
      /* the samples index every event: count those the measure counts
       * (the capture's own counts are not copied first: on the stress
       * capture that was 22 MB copied, faulted in and thrown away) */
      gboolean selects;
      guint64 mask = range_event_mask (capture->data, measure, &selects);
      guint off_cpu = hp_capture_data_find_event (capture->data, HP_EVENT_OFF_CPU);
      guint64 off_bit = off_cpu != 0 ? (guint64) 1 << (off_cpu - 1) : 0;
      GArray *counts = hp_sample_index_count (samples, mask & ~off_bit, filter->from, filter->to, NULL, NULL);
      HpCaptureData *ranged;

      /* the samples keep the recorded stacks: off-CPU counts move to the
       * [waiting] node the capture's own counts were moved to on loading */
      if ((mask & off_bit) != 0)
        {
          g_autoptr(GArray) off = hp_sample_index_count (samples, off_bit, filter->from, filter->to, NULL, NULL);

          hp_measure_remap_waiting (capture->data, off);
          g_array_append_vals (counts, off->data, off->len);
        }
      data = hp_capture_data_new_with_counts (capture->data, counts);
      if (selects)
        data->event_mask = mask;
      if (measure->by_weight)
        {
          ranged = hp_capture_data_new_weighted (data);
          hp_capture_data_free (data);
          data = ranged;
        }
    }
  else
    data = hp_measure_select (measure, capture->data);
  if (filter != NULL && filter->merge_recursion)
    {
      HpCaptureData *merged = hp_capture_data_merge_recursion (data);

      hp_capture_data_free (data);
      data = merged;
    }
  if (filter != NULL && filter->fold_inline)
    {
      HpCaptureData *folded = hp_capture_data_fold_inline (data);

      hp_capture_data_free (data);
      data = folded;
    }
  if (filter != NULL)
    {
      HpFoldSpec spec = { filter->hide_kernel, filter->fold_functions, filter->fold_modules };

      if (!hp_fold_spec_is_empty (&spec))
        {
          HpCaptureData *folded = hp_capture_data_fold (data, &spec, hidden_samples);

          hp_capture_data_free (data);
          data = folded;
        }
    }
  return data;
}

/* The ratio's two events counted by weight under the same filter, their
 * top-down trees matched to the shown one; the bottom-up ones are matched
 * when that tree is shown (hp_loaded_profile_get_ratio_map()), so a range
 * chosen in the top-down view builds three trees, not six. An event the
 * profile itself counts by weight is not counted twice: its profile is
 * the shown one (the cycles of an IPC view of cycles). */
static void
build_ratio (HpLoadedProfile       *self,
             const HpProfileFilter *filter,
             HpSampleIndex         *samples)
{
  const HpCaptureData *data = self->capture->data;
  HpMeasure sides[2] = { { 0 }, { 0 } };

  if (!hp_ratio_find (data, &self->ratio))
    return;
  if (!hp_measure_init (&sides[0], data, g_array_index (data->events, HpCaptureEvent, self->ratio.numerator).name) ||
      !hp_measure_init (&sides[1], data, g_array_index (data->events, HpCaptureEvent, self->ratio.denominator).name))
    {
      hp_measure_clear (&sides[0]);
      self->ratio.kind = HP_RATIO_NONE;
      return;
    }
  for (guint i = 0; i < 2; i++)
    {
      /* a ratio is of the events' own quantities, whatever the view counts */
      sides[i].by_weight = TRUE;
      if (self->measure.by_weight && !self->measure.off_cpu && self->measure.mask == sides[i].mask)
        self->ratio_profiles[i] = self->profile;
      else
        {
          self->ratio_data[i] = filtered_data (self->capture, &sides[i], filter, samples, NULL);
          self->ratio_profiles[i] = hp_profile_new (self->ratio_data[i], self->tids);
        }
      hp_measure_clear (&sides[i]);
    }
  self->ratio_top_down = hp_ratio_map_new (hp_profile_get_top_down (self->profile),
                                           hp_profile_get_top_down (self->ratio_profiles[0]),
                                           hp_profile_get_top_down (self->ratio_profiles[1]));
  /* the shown tree is bottom-up: matched now, in the worker */
  if (hp_profile_has_bottom_up (self->profile))
    hp_loaded_profile_get_ratio_map (self, TRUE);
}

HpRatioMap *
hp_loaded_profile_get_ratio_map (HpLoadedProfile *self,
                                 gboolean         bottom_up)
{
  HpRatioMap *map;

  g_return_val_if_fail (self != NULL, NULL);

  if (!bottom_up || self->ratio_top_down == NULL)
    return self->ratio_top_down;
  if ((map = g_atomic_pointer_get (&self->ratio_bottom_up)) != NULL)
    return map;
  g_mutex_lock (&self->ratio_lock);
  if ((map = g_atomic_pointer_get (&self->ratio_bottom_up)) == NULL)
    {
      map = hp_ratio_map_new (hp_profile_get_bottom_up (self->profile),
                              hp_profile_get_bottom_up (self->ratio_profiles[0]),
                              hp_profile_get_bottom_up (self->ratio_profiles[1]));
      g_atomic_pointer_set (&self->ratio_bottom_up, map);
    }
  g_mutex_unlock (&self->ratio_lock);
  return map;
}

/* What @measure counts of each thread of @data, filters aside: the
 * samples of a clock, the weights of any other event; @total receives
 * what it counts in the whole capture, threads known or not. */
static guint64 *
count_threads (const HpCaptureData *data,
               const HpMeasure     *measure,
               guint64             *total)
{
  const GArray *counts = data->all_counts != NULL && measure->mask != 0 ? data->all_counts : data->stack_counts;
  guint64 *amounts = g_new0 (guint64, data->threads->len + 1);
  g_autoptr(GHashTable) index = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < data->threads->len; i++)
    g_hash_table_insert (index, GINT_TO_POINTER (g_array_index (data->threads, HpCaptureThread, i).tid),
                         GUINT_TO_POINTER (i + 1));
  for (guint i = 0; i < counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (counts, HpCaptureStackCount, i);
      guint64 amount;
      guint at;

      if (counts == data->all_counts &&
          (c->event_id == 0 || c->event_id > HP_CAPTURE_MAX_EVENTS || !(measure->mask & ((guint64) 1 << (c->event_id - 1)))))
        continue;
      amount = measure->by_weight ? c->weight : c->samples;
      *total += amount;
      at = GPOINTER_TO_UINT (g_hash_table_lookup (index, GINT_TO_POINTER (c->tid)));
      if (at > 0)
        amounts[at - 1] += amount;
    }
  return amounts;
}

/* What @measure counts of each thread of @data between @from and @to,
 * by the sample index: binary searches, or a sum of the range's weights
 * (count_threads over the range's counts would cost a hash lookup per
 * count, a third of a million on the stress capture). */
static guint64 *
count_threads_in_range (const HpCaptureData *data,
                        const HpMeasure     *measure,
                        HpSampleIndex       *samples,
                        guint64              from,
                        guint64              to)
{
  guint n = hp_sample_index_get_n_threads (samples);
  guint64 *amounts = g_new0 (guint64, data->threads->len + 1);
  g_autofree guint64 *by_index = g_new0 (guint64, n + 1);
  g_autoptr(GHashTable) index = g_hash_table_new (NULL, NULL);

  hp_sample_index_count_threads (samples, range_event_mask (data, measure, NULL), from, to, measure->by_weight,
                                 by_index);
  for (guint i = 0; i < n; i++)
    g_hash_table_insert (index, GINT_TO_POINTER (hp_sample_index_get_tid (samples, i)), GUINT_TO_POINTER (i + 1));
  /* a tid the threads list twice counts in its last entry, as count_threads does */
  for (guint i = data->threads->len; i > 0; i--)
    {
      gint32 tid = g_array_index (data->threads, HpCaptureThread, i - 1).tid;
      guint at = GPOINTER_TO_UINT (g_hash_table_lookup (index, GINT_TO_POINTER (tid)));

      if (at > 0)
        {
          amounts[i - 1] = by_index[at - 1];
          g_hash_table_remove (index, GINT_TO_POINTER (tid));
        }
    }
  return amounts;
}

static double
thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Page faults of the calling thread so far */
static guint64
thread_faults (void)
{
#ifdef RUSAGE_THREAD
  struct rusage usage;

  if (getrusage (RUSAGE_THREAD, &usage) == 0)
    return usage.ru_minflt + usage.ru_majflt;
#endif
  return 0;
}

static double
note_step (HpLoadedProfile *self,
           HpBuildStep      step,
           double           since,
           guint64         *faults)
{
  double now = thread_cpu_ms ();
  guint64 f = thread_faults ();

  self->build_cpu_ms[step] = now - since;
  self->build_faults[step] = f - *faults;
  *faults = f;
  return now;
}

static HpLoadedProfile *
build_profile (HpLoadedCapture       *capture,
               const HpProfileFilter *filter,
               HpSampleIndex         *samples)
{
  HpLoadedProfile *self = g_atomic_rc_box_new0 (HpLoadedProfile);
  guint n_functions = MAX (capture->data->functions->len, 1);
  GHashTable *tids = filter != NULL ? filter->tids : NULL;
  double t;
  guint64 faults;

  self->capture = hp_loaded_capture_ref (capture);
  g_mutex_init (&self->ratio_lock);
  g_atomic_int_inc (&capture->n_profiles);
  self->tids = tids ? g_hash_table_ref (tids) : NULL;
  /* an event the capture lacks (a stale choice) counts the first */
  if (!hp_measure_init (&self->measure, capture->data, filter != NULL ? filter->event : NULL))
    hp_measure_init (&self->measure, capture->data, NULL);
  t = thread_cpu_ms ();
  faults = thread_faults ();
  self->data = filtered_data (capture, &self->measure, filter, samples, &self->hidden_samples);
  self->thread_amounts = count_threads (capture->data, &self->measure, &self->capture_amount);
  if (filter != NULL && filter->has_range && samples != NULL)
    {
      self->has_range = TRUE;
      self->from = filter->from;
      self->to = filter->to;
      self->range_amounts = count_threads_in_range (capture->data, &self->measure, samples, filter->from, filter->to);
    }
  t = note_step (self, HP_BUILD_COUNTS, t, &faults);
  self->merge_recursion = filter != NULL && filter->merge_recursion;
  self->fold_inline = filter != NULL && filter->fold_inline;
  if (filter != NULL)
    {
      HpFoldSpec spec = { filter->hide_kernel, filter->fold_functions, filter->fold_modules };

      if (!hp_fold_spec_is_empty (&spec))
        {
          self->hide_kernel = filter->hide_kernel;
          self->fold_functions = hp_id_set_copy (filter->fold_functions);
          self->fold_modules = hp_id_set_copy (filter->fold_modules);
        }
    }
  /* the first profile of a capture has both trees, so that the window
   * can prepare the hidden one; a filter's, only the one shown */
  self->profile = hp_profile_new_full (self->data, tids, filter == NULL || filter->bottom_up);
  /* fill the lazy caches now: afterwards the profile is only read */
  hp_profile_get_functions (self->profile, FALSE);
  hp_profile_get_functions (self->profile, TRUE);
  t = note_step (self, HP_BUILD_PROFILE, t, &faults);
  self->hottest_node = g_new0 (const HpCallNode *, n_functions);
  find_hottest (hp_profile_get_top_down (self->profile), self->hottest_node, n_functions);
  t = note_step (self, HP_BUILD_HOTTEST, t, &faults);
  build_ratio (self, filter, samples);
  note_step (self, HP_BUILD_RATIO, t, &faults);
  return self;
}

static void
reserve_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  const gsize *sizes = task_data;

  hp_block_pool_reserve (sizes + 1, (guint) sizes[0]);
  g_task_return_boolean (task, TRUE);
}

void
hp_loaded_profile_prepare_filters (HpLoadedProfile *profile)
{
  g_autoptr(GTask) task = NULL;
  gsize *sizes;

  g_return_if_fail (profile != NULL);

  /* [0]: how many; the sizes are read here, the profile may go meanwhile */
  sizes = g_new0 (gsize, HP_PROFILE_N_BLOCKS + 1);
  sizes[0] = hp_profile_get_block_sizes (profile->profile, sizes + 1);
  task = g_task_new (NULL, NULL, NULL, NULL);
  g_task_set_source_tag (task, hp_loaded_profile_prepare_filters);
  g_task_set_task_data (task, sizes, g_free);
  g_task_run_in_thread (task, reserve_thread);
}

HpLoadedProfile *
hp_loaded_profile_build (HpLoadedCapture       *capture,
                         const HpProfileFilter *filter,
                         HpSampleIndex         *samples)
{
  g_return_val_if_fail (capture != NULL, NULL);
  g_return_val_if_fail (filter != NULL, NULL);

  return build_profile (capture, filter, samples);
}

typedef struct {
  HpLoadedCapture *capture;
  HpProfileFilter  filter;
  HpSampleIndex   *samples;
} BuildData;

static void
build_data_free (gpointer p)
{
  BuildData *bd = p;

  g_clear_pointer (&bd->capture, hp_loaded_capture_unref);
  g_clear_pointer (&bd->filter.tids, g_hash_table_unref);
  g_clear_pointer (&bd->filter.fold_functions, g_hash_table_unref);
  g_clear_pointer (&bd->filter.fold_modules, g_hash_table_unref);
  g_free ((char *) bd->filter.event);
  g_clear_pointer (&bd->samples, hp_sample_index_unref);
  g_free (bd);
}

static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  BuildData *bd = task_data;

  g_task_return_pointer (task, build_profile (bd->capture, &bd->filter, bd->samples),
                         (GDestroyNotify) hp_loaded_profile_unref);
}

void
hp_loaded_profile_build_filtered_async (HpLoadedCapture       *capture,
                                        const HpProfileFilter *filter,
                                        HpSampleIndex         *samples,
                                        GCancellable          *cancellable,
                                        GAsyncReadyCallback    callback,
                                        gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;
  BuildData *bd;

  g_return_if_fail (capture != NULL);
  g_return_if_fail (filter != NULL);

  bd = g_new0 (BuildData, 1);
  bd->capture = hp_loaded_capture_ref (capture);
  bd->filter = *filter;
  bd->filter.tids = NULL;
  bd->filter.fold_functions = hp_id_set_copy (filter->fold_functions);
  bd->filter.fold_modules = hp_id_set_copy (filter->fold_modules);
  bd->filter.event = g_strdup (filter->event);
  if (filter->tids != NULL)
    {
      GHashTableIter iter;
      gpointer key;

      /* the worker owns a copy of its inputs */
      bd->filter.tids = g_hash_table_new (NULL, NULL);
      g_hash_table_iter_init (&iter, filter->tids);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_hash_table_add (bd->filter.tids, key);
    }
  bd->samples = samples != NULL ? hp_sample_index_ref (samples) : NULL;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, hp_loaded_profile_build_async);
  g_task_set_task_data (task, bd, build_data_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, build_thread);
}

void
hp_loaded_profile_build_async (HpLoadedCapture     *capture,
                               GHashTable          *tids,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  HpProfileFilter filter = { .tids = tids };

  hp_loaded_profile_build_filtered_async (capture, &filter, NULL, cancellable, callback, user_data);
}

HpLoadedProfile *
hp_loaded_profile_build_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Loading ------------------------------------------------------------ */

typedef struct {
  char           *path;
  GMainContext   *context;
  HpLoadProgress  progress;
  GObject        *progress_data;
  /* downloads of debug info while importing (see on_fetch) */
  GTask          *task;         /* not a reference: set while the worker runs */
  char           *fetching;     /* the module being fetched */
  guint           n_fetched;    /* downloads finished */
  gboolean        fetch_done;   /* the current one has arrived */
  gint64          fetch_shown;  /* monotonic time of the last report */
} LoadData;

typedef struct {
  HpLoadProgress progress;
  GObject       *progress_data;
  HpLoadStage    stage;
  double         fraction;
  char          *detail;
} ProgressReport;

static void
progress_report_free (gpointer p)
{
  ProgressReport *r = p;

  g_object_unref (r->progress_data);
  g_free (r->detail);
  g_free (r);
}

static void
load_data_free (gpointer p)
{
  LoadData *ld = p;

  g_clear_object (&ld->progress_data);
  g_free (ld->fetching);
  g_free (ld->path);
  g_main_context_unref (ld->context);
  g_free (ld);
}

static gboolean
deliver_progress (gpointer p)
{
  ProgressReport *r = p;

  r->progress (r->stage, r->fraction, r->detail, r->progress_data);
  return G_SOURCE_REMOVE;
}

static void
report_detail (GTask       *task,
               HpLoadStage  stage,
               double       fraction,
               char        *detail)
{
  LoadData *ld = g_task_get_task_data (task);
  ProgressReport *r;

  if (ld->progress == NULL || g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    return;
  r = g_new0 (ProgressReport, 1);
  r->progress = ld->progress;
  r->progress_data = g_object_ref (ld->progress_data);
  r->stage = stage;
  r->fraction = fraction;
  r->detail = detail;
  /* the receiver ignores progress that arrives after the result */
  g_main_context_invoke_full (ld->context, G_PRIORITY_DEFAULT, deliver_progress, r, progress_report_free);
}

static void
report (GTask       *task,
        HpLoadStage  stage,
        double       fraction)
{
  report_detail (task, stage, fraction, NULL);
}

/* A download of debug info (debuginfod) while importing, on the worker:
 * the window says which module, how much of it has come and how many
 * came before, at most every tenth of a second (libdebuginfod reports
 * every few KiB). */
#define FETCH_REPORT_INTERVAL_US (G_USEC_PER_SEC / 10)

static void
on_fetch (const char *path,
          guint64     done,
          guint64     total,
          gpointer    user_data)
{
  LoadData *ld = user_data;
  gint64 now = g_get_monotonic_time ();
  gboolean arrived = total > 0 && done >= total;
  g_autofree char *name = NULL;
  g_autofree char *amount = NULL;
  g_autofree char *before = NULL;

  if (ld->task == NULL)
    return;
  if (g_strcmp0 (ld->fetching, path) != 0)
    {
      if (ld->fetching != NULL && ld->fetch_done)
        ld->n_fetched++;
      g_free (ld->fetching);
      ld->fetching = g_strdup (path);
      ld->fetch_done = FALSE;
      ld->fetch_shown = 0;
    }
  if (ld->fetch_done)
    return;
  if (!arrived && ld->fetch_shown != 0 && now - ld->fetch_shown < FETCH_REPORT_INTERVAL_US)
    return;
  ld->fetch_shown = now;
  ld->fetch_done = arrived;

  name = g_path_get_basename (path);
  {
    g_autofree char *kib = g_strdup_printf ("%" G_GUINT64_FORMAT, (total > 0 ? MIN (done, total) : done) / 1024);
    g_autofree char *of = g_strdup_printf ("%" G_GUINT64_FORMAT, (total + 1023) / 1024);

    if (total > 0)
      /* Translators: an amount of a download, "120 of 640 KiB" */
      amount = g_strdup_printf (_("%s of %s KiB"), kib, of);
    else
      /* Translators: an amount of a download of unknown size, "120 KiB" */
      amount = g_strdup_printf (_("%s KiB"), kib);
  }
  if (ld->n_fetched > 0)
    before = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, " (%u file fetched before)", " (%u files fetched before)",
                                           ld->n_fetched), ld->n_fetched);
  report_detail (ld->task, HP_LOAD_STAGE_FETCHING, 0.1,
                 /* Translators: "Fetching debug info for liblzma.so.5 from debuginfod: 120 of 640 KiB" */
                 g_strdup_printf (_("Fetching debug info for %s from debuginfod: %s%s"),
                                  name, amount, before ? before : ""));
}

/* Loader threads running, for the tests: Cancel must stop the worker,
 * not only the window's wait for it. */
static gint n_loading;

guint
hp_loaded_capture_get_n_loading (void)
{
  return g_atomic_int_get (&n_loading);
}

static void load_thread_run (GTask        *task,
                             LoadData     *ld,
                             GCancellable *cancellable);

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  g_atomic_int_inc (&n_loading);
  load_thread_run (task, task_data, cancellable);
  g_atomic_int_dec_and_test (&n_loading);
}

static void
load_thread_run (GTask        *task,
                 LoadData     *ld,
                 GCancellable *cancellable)
{
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpLoadedCapture) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *capture_path = NULL;
  HpLoadedProfile *profile;

  report (task, HP_LOAD_STAGE_OPENING, 0.05);
  if (hp_perf_import_is_perf_data (ld->path))
    {
      report (task, HP_LOAD_STAGE_IMPORTING, 0.1);
      ld->task = task;
      capture_path = hp_perf_import_cached (ld->path, on_fetch, ld, cancellable, &error);
      ld->task = NULL;
      if (capture_path == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }
  else
    capture_path = g_strdup (ld->path);

  capture = hp_capture_open (capture_path, FALSE, &error);
  if (capture == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;
  /* Cancel stops SQLite itself: a large capture, or a hostile one,
   * keeps a worker busy for as long as the query runs */
  hp_capture_set_cancellable (capture, cancellable);

  report (task, HP_LOAD_STAGE_READING, 0.2);
  loaded = g_atomic_rc_box_new0 (HpLoadedCapture);
  /* its profiles' blocks are kept for the next filter until it closes */
  hp_block_pool_hold ();
  loaded->path = g_strdup (capture_path);
  loaded->display_name = g_path_get_basename (ld->path);
  loaded->data = hp_capture_load (capture, &error);
  if (loaded->data == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  loaded->summaries = hp_capture_list_summaries (capture, &error);
  if (loaded->summaries == NULL ||
      (loaded->summary_rows = hp_capture_list_summary_rows (capture, &error)) == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  loaded->summaries_cut = hp_capture_summaries_cut (capture);
  /* off-CPU stacks end in the waiting marker, for every view of them:
   * done once here, so that its function has a name like any other */
  if (hp_capture_data_find_event (loaded->data, HP_EVENT_OFF_CPU) != 0)
    {
      HpCaptureData *marked = hp_measure_mark_waiting (loaded->data);

      hp_capture_data_free (loaded->data);
      loaded->data = marked;
    }
  loaded->program = hp_summary_program_name (loaded->data);
  for (guint i = 0; i < loaded->data->stack_counts->len; i++)
    loaded->n_samples += g_array_index (loaded->data->stack_counts, HpCaptureStackCount, i).samples;
  loaded->n_all_samples = hp_capture_data_count_all_samples (loaded->data);
  g_clear_pointer (&capture, hp_capture_close);
  loaded->imported = capture_path != NULL && g_strcmp0 (capture_path, ld->path) != 0;
  if (loaded->imported)
    {
      g_autofree char *name = g_path_get_basename (ld->path);

      /* and how to get a capture that keeps them: in the window, or as
       * summary --import does for a perf.data on the command line */
      loaded->read_only_reason =
        g_strdup_printf (_("This capture was imported from a perf.data file into a cache; summaries written here "
                           "would be lost when the cache is refreshed. To write summaries, use Save as Capture (main "
                           "menu), or import it into a capture (hotpath-cli import %s) and open that."), name);
    }
  else
    loaded->read_only_reason = hp_loaded_capture_why_read_only (capture_path);
  if (g_task_return_error_if_cancelled (task))
    return;

  make_shown_names (loaded);
  /* one pass over the stack counts here, rather than one per thread
   * filter filled and per lane on the main thread */
  loaded->thread_starts = hp_thread_start_functions (loaded->data);
  if (g_task_return_error_if_cancelled (task))
    return;

  report (task, HP_LOAD_STAGE_ANALYZING, 0.7);
  profile = build_profile (loaded, NULL, NULL);
  report (task, HP_LOAD_STAGE_DONE, 1.0);
  g_task_return_pointer (task, profile, (GDestroyNotify) hp_loaded_profile_unref);
}

void
hp_loaded_capture_load_async (const char          *path,
                              GCancellable        *cancellable,
                              HpLoadProgress       progress,
                              GObject             *progress_data,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *ld;

  g_return_if_fail (path != NULL);

  ld = g_new0 (LoadData, 1);
  ld->path = g_strdup (path);
  ld->context = g_main_context_ref_thread_default ();
  ld->progress = progress;
  ld->progress_data = progress_data ? g_object_ref (progress_data) : NULL;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, hp_loaded_capture_load_async);
  g_task_set_task_data (task, ld, load_data_free);
  g_task_run_in_thread (task, load_thread);
}

HpLoadedProfile *
hp_loaded_capture_load_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Samples ------------------------------------------------------------ */

static void
samples_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  HpLoadedCapture *loaded = task_data;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureData) all_events = NULL;
  GArray *samples;

  capture = hp_capture_open (loaded->path, FALSE, &error);
  if (capture == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  hp_capture_set_cancellable (capture, cancellable);
  /* every event's: the timeline and a range follow the event shown, and
   * a ratio counts two (hp_sample_index_count) */
  all_events = hp_capture_data_select_events (loaded->data, G_MAXUINT64);
  samples = hp_capture_load_samples (capture, all_events, &error);
  if (samples == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_pointer (task, hp_sample_index_new (samples), (GDestroyNotify) hp_sample_index_unref);
}

void
hp_loaded_capture_load_samples_async (HpLoadedCapture     *capture,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (capture != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, hp_loaded_capture_load_samples_async);
  g_task_set_task_data (task, hp_loaded_capture_ref (capture), (GDestroyNotify) hp_loaded_capture_unref);
  g_task_run_in_thread (task, samples_thread);
}

HpSampleIndex *
hp_loaded_capture_load_samples_finish (GAsyncResult  *result,
                                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
