/* hp-measure.c - what a view counts: one event of a capture, its unit, and ratios of two
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A capture may count several events (schema.sql, table events), and
 * their numbers add up only within one event: page faults and ns on the
 * CPU do not sum. Every view therefore counts one measure at a time, and
 * this file decides what that measure is, so that the window and the CLI
 * agree on it:
 *
 *   - A time sampled by a clock (cpu-clock, task-clock) counts samples:
 *     each one stands for the same slice of time, and "samples" is the
 *     vocabulary every view already speaks.
 *   - Every other event counts its weights: a page-faults event sampled
 *     at 999 Hz gives one sample per many faults, with the number in the
 *     sample's period, so only the weights count page faults.
 *   - off-cpu counts ns away from the CPU, and "wall" adds them to
 *     cpu-clock's ns on it (both in ns, so they do add up).
 *
 * Two events of one capture may also make a ratio (instructions per
 * cycle, page faults per ms on the CPU). A ratio is per call path, so
 * the profiles of its two events, built under the shown filter, are
 * matched node by node to the shown tree (HpRatioMap).
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include <math.h>
#include <string.h>

#include "analysis/hp-measure.h"
#include "store/hp-capture-keys.h"

static const HpCaptureEvent *
event_at (const HpCaptureData *data,
          guint                id)
{
  if (data->events == NULL || id == 0 || id >= data->events->len)
    return NULL;
  return &g_array_index (data->events, HpCaptureEvent, id);
}

static gboolean
is_off_cpu (const HpCaptureEvent *e)
{
  return e != NULL && g_strcmp0 (e->name, HP_EVENT_OFF_CPU) == 0;
}

/* a time sampled by a clock: its samples weigh the same. A clock by its
 * name (perf's, or pprof's "cpu"), or a time sampled at a frequency or
 * period; another time (a Go block profile's delay, imported from pprof:
 * each contention weighs its own wait) is counted by its weights, as
 * off-CPU time is */
static gboolean
is_clock (const HpCaptureEvent *e)
{
  static const char *const clocks[] = { "cpu-clock", "task-clock", "cpu", NULL };

  return e != NULL && !is_off_cpu (e) && g_strcmp0 (e->unit, "ns") == 0
    && (e->frequency > 0 || e->period > 0 || (e->name != NULL && g_strv_contains (clocks, e->name)));
}

GPtrArray *
hp_measure_list_events (const HpCaptureData *data)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (data != NULL, names);

  if (data->events == NULL || data->events->len < 2)
    {
      const char *event = g_hash_table_lookup (data->metadata, HP_META_EVENT);

      g_ptr_array_add (names, g_strdup (event != NULL ? event : "samples"));
      return names;
    }
  for (guint i = 1; i < data->events->len; i++)
    g_ptr_array_add (names, g_strdup (g_array_index (data->events, HpCaptureEvent, i).name));
  if (hp_capture_data_event_mask (data, HP_EVENT_WALL) != 0)
    g_ptr_array_add (names, g_strdup (HP_EVENT_WALL));
  return names;
}

gboolean
hp_measure_init (HpMeasure           *measure,
                 const HpCaptureData *data,
                 const char          *event)
{
  const HpCaptureEvent *e;
  guint id;

  g_return_val_if_fail (measure != NULL, FALSE);
  g_return_val_if_fail (data != NULL, FALSE);

  memset (measure, 0, sizeof *measure);
  if (data->events == NULL || data->events->len < 2)
    {
      const char *name = g_hash_table_lookup (data->metadata, HP_META_EVENT);

      /* a capture made without the events table: its one event */
      if (event != NULL && g_strcmp0 (event, name != NULL ? name : "samples") != 0)
        return FALSE;
      measure->event = g_strdup (name != NULL ? name : "samples");
      measure->unit = g_strdup (g_hash_table_lookup (data->metadata, HP_META_EVENT_UNIT));
      return TRUE;
    }
  if (event == NULL)
    event = g_array_index (data->events, HpCaptureEvent, 1).name;
  if (g_strcmp0 (event, HP_EVENT_WALL) == 0)
    {
      measure->mask = hp_capture_data_event_mask (data, HP_EVENT_WALL);
      if (measure->mask == 0)
        return FALSE;
      measure->event = g_strdup (HP_EVENT_WALL);
      measure->unit = g_strdup ("ns");
      measure->by_weight = TRUE;
      measure->is_time = TRUE;
      measure->off_cpu = TRUE;
      return TRUE;
    }
  id = hp_capture_data_find_event (data, event);
  e = event_at (data, id);
  if (e == NULL)
    return FALSE;
  measure->event = g_strdup (e->name);
  measure->unit = g_strdup (e->unit);
  measure->mask = (guint64) 1 << (id - 1);
  /* an event counted in "samples" (a capture that did not say its unit)
   * has no weight worth adding up: its samples are what it counts */
  measure->by_weight = !is_clock (e) && g_strcmp0 (e->unit, "samples") != 0;
  measure->off_cpu = is_off_cpu (e);
  measure->is_time = measure->by_weight && g_strcmp0 (e->unit, "ns") == 0;
  return TRUE;
}

void
hp_measure_clear (HpMeasure *measure)
{
  if (measure == NULL)
    return;
  g_clear_pointer (&measure->event, g_free);
  g_clear_pointer (&measure->unit, g_free);
}

void
hp_measure_copy (HpMeasure       *dest,
                 const HpMeasure *src)
{
  g_return_if_fail (dest != NULL && src != NULL);

  *dest = *src;
  dest->event = g_strdup (src->event);
  dest->unit = g_strdup (src->unit);
}

HpCaptureData *
hp_measure_select (const HpMeasure     *measure,
                   const HpCaptureData *data)
{
  g_autoptr(HpCaptureData) selected = NULL;

  g_return_val_if_fail (measure != NULL, NULL);
  g_return_val_if_fail (data != NULL, NULL);

  if (measure->mask != 0 && data->events != NULL && data->all_counts != NULL)
    selected = hp_capture_data_select_events (data, measure->mask);
  else
    {
      GArray *counts = g_array_sized_new (FALSE, FALSE, sizeof (HpCaptureStackCount), data->stack_counts->len);

      g_array_append_vals (counts, data->stack_counts->data, data->stack_counts->len);
      selected = hp_capture_data_new_with_counts (data, counts);
    }
  if (measure->by_weight)
    return hp_capture_data_new_weighted (selected);
  return g_steal_pointer (&selected);
}

/* The waiting marker --------------------------------------------------- */

gboolean
hp_measure_is_waiting (const HpCaptureData *data,
                       gint64               function_id)
{
  const HpCaptureFunction *f;

  g_return_val_if_fail (data != NULL, FALSE);

  if (function_id <= 0 || (guint64) function_id >= data->functions->len)
    return FALSE;
  f = &g_array_index (data->functions, HpCaptureFunction, function_id);
  return f->module_id == 0 && g_strcmp0 (f->name, HP_WAITING_FUNCTION) == 0;
}

HpCaptureData *
hp_measure_mark_waiting (const HpCaptureData *data)
{
  HpCaptureData *copy;
  guint off;
  guint64 bit;
  gint64 function_id, frame_id;
  g_autoptr(GHashTable) leaves = NULL;  /* stack id -> its waiting leaf */
  GArray *all;

  g_return_val_if_fail (data != NULL, NULL);

  copy = hp_capture_data_new_with_counts (data, g_array_ref (data->stack_counts));
  off = hp_capture_data_find_event (data, HP_EVENT_OFF_CPU);
  if (off == 0 || data->all_counts == NULL)
    return copy;
  bit = (guint64) 1 << (off - 1);

  /* new tables, so that the copy owns what it adds; ids stay */
  g_clear_pointer (&copy->functions, g_array_unref);
  g_clear_pointer (&copy->frames, g_array_unref);
  g_clear_pointer (&copy->stacks, g_array_unref);
  copy->functions = hp_capture_functions_copy (data->functions, 1);
  copy->frames = hp_capture_frames_copy (data->frames, 1);
  copy->stacks = g_array_sized_new (FALSE, TRUE, sizeof (HpCaptureStack), data->stacks->len + 64);
  g_array_append_vals (copy->stacks, data->stacks->data, data->stacks->len);
  {
    HpCaptureFunction f = { g_strdup (HP_WAITING_FUNCTION), 0, NULL, 0 };
    HpCaptureFrame fr = { 0, NULL, 0, FALSE, 0 };

    function_id = copy->functions->len;
    g_array_append_val (copy->functions, f);
    fr.function_id = function_id;
    frame_id = copy->frames->len;
    g_array_append_val (copy->frames, fr);
  }

  leaves = g_hash_table_new (NULL, NULL);
  all = g_array_sized_new (FALSE, FALSE, sizeof (HpCaptureStackCount), data->all_counts->len);
  g_array_append_vals (all, data->all_counts->data, data->all_counts->len);
  for (guint i = 0; i < all->len; i++)
    {
      HpCaptureStackCount *c = &g_array_index (all, HpCaptureStackCount, i);
      gpointer leaf;

      if (c->event_id != off)
        continue;
      /* one waiting node per stack, a child of the stack, so parent_id < id holds */
      if (!g_hash_table_lookup_extended (leaves, GSIZE_TO_POINTER ((gsize) c->stack_id), NULL, &leaf))
        {
          HpCaptureStack s = { c->stack_id, frame_id };

          leaf = GSIZE_TO_POINTER ((gsize) copy->stacks->len);
          g_array_append_val (copy->stacks, s);
          g_hash_table_insert (leaves, GSIZE_TO_POINTER ((gsize) c->stack_id), leaf);
        }
      c->stack_id = (gint64) GPOINTER_TO_SIZE (leaf);
    }
  g_clear_pointer (&copy->all_counts, g_array_unref);
  copy->all_counts = all;
  /* stack_counts: the copy's selection, out of the new counts */
  g_clear_pointer (&copy->stack_counts, g_array_unref);
  if ((copy->event_mask & bit) == 0)
    copy->stack_counts = g_array_ref (data->stack_counts);
  else
    {
      copy->stack_counts = g_array_new (FALSE, FALSE, sizeof (HpCaptureStackCount));
      for (guint i = 0; i < all->len; i++)
        {
          const HpCaptureStackCount *c = &g_array_index (all, HpCaptureStackCount, i);

          if (c->event_id > 0 && c->event_id <= 64 && (copy->event_mask & ((guint64) 1 << (c->event_id - 1))))
            g_array_append_val (copy->stack_counts, *c);
        }
    }
  return copy;
}

void
hp_measure_remap_waiting (const HpCaptureData *marked,
                          GArray              *counts)
{
  g_autoptr(GHashTable) waiting = g_hash_table_new (NULL, NULL);

  g_return_if_fail (marked != NULL);
  g_return_if_fail (counts != NULL);

  /* the waiting nodes were appended last: read the stacks from the end */
  for (guint id = marked->stacks->len; id-- > 1;)
    {
      const HpCaptureStack *s = &g_array_index (marked->stacks, HpCaptureStack, id);
      const HpCaptureFrame *f;

      if (s->frame_id <= 0 || (guint64) s->frame_id >= marked->frames->len)
        continue;
      f = &g_array_index (marked->frames, HpCaptureFrame, s->frame_id);
      if (!hp_measure_is_waiting (marked, f->function_id))
        break;
      g_hash_table_insert (waiting, GSIZE_TO_POINTER ((gsize) s->parent_id), GUINT_TO_POINTER (id));
    }
  for (guint i = 0; i < counts->len; i++)
    {
      HpCaptureStackCount *c = &g_array_index (counts, HpCaptureStackCount, i);
      guint leaf = GPOINTER_TO_UINT (g_hash_table_lookup (waiting, GSIZE_TO_POINTER ((gsize) c->stack_id)));

      if (leaf != 0)
        c->stack_id = leaf;
    }
}

/* Ratios --------------------------------------------------------------- */

static guint
find_id (const HpCaptureData *data,
         const char          *name)
{
  return data->events != NULL ? hp_capture_data_find_event (data, name) : 0;
}

gboolean
hp_ratio_find (const HpCaptureData *data,
               HpRatio             *ratio)
{
  guint cycles, instructions, clock = 0;

  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (ratio != NULL, FALSE);

  memset (ratio, 0, sizeof *ratio);
  if (data->events == NULL || data->events->len < 3)
    return FALSE;
  cycles = find_id (data, "cycles");
  instructions = find_id (data, "instructions");
  if (cycles != 0 && instructions != 0)
    {
      *ratio = (HpRatio) { HP_RATIO_PER_CYCLE, instructions, cycles, 1.0 };
      return TRUE;
    }
  if (instructions != 0)
    for (guint i = 1; i < data->events->len; i++)
      {
        const HpCaptureEvent *e = event_at (data, i);

        if (i != instructions && i != cycles && !is_off_cpu (e) && !is_clock (e))
          {
            *ratio = (HpRatio) { HP_RATIO_PER_KILO, i, instructions, 1000.0 };
            return TRUE;
          }
      }
  for (guint i = 1; i < data->events->len && clock == 0; i++)
    if (is_clock (event_at (data, i)))
      clock = i;
  for (guint i = 1; i < data->events->len; i++)
    {
      const HpCaptureEvent *e = event_at (data, i);

      if (is_off_cpu (e) || is_clock (e))
        continue;
      if (clock != 0)
        {
          /* ns to ms */
          *ratio = (HpRatio) { HP_RATIO_PER_MS, i, clock, 1e6 };
          return TRUE;
        }
      for (guint j = i + 1; j < data->events->len; j++)
        if (!is_off_cpu (event_at (data, j)) && !is_clock (event_at (data, j)))
          {
            *ratio = (HpRatio) { HP_RATIO_PER_EVENT, i, j, 1.0 };
            return TRUE;
          }
    }
  return FALSE;
}

double
hp_ratio_value (const HpRatio *ratio,
                guint64        numerator,
                guint64        denominator)
{
  g_return_val_if_fail (ratio != NULL, NAN);

  if (denominator == 0)
    return NAN;
  return (double) numerator * ratio->scale / (double) denominator;
}

typedef struct {
  guint64 numerator;
  guint64 denominator;
} RatioEntry;

struct _HpRatioMap {
  GHashTable *index;    /* HpCallNode* -> entry index + 1 */
  GArray     *entries;  /* RatioEntry */
};

/* The child of @node with @function_id; siblings have distinct functions. */
static const HpCallNode *
child_of (const HpCallNode *node,
          gint64            function_id,
          GHashTable      **by_function)
{
  if (node == NULL || node->children == NULL)
    return NULL;
  /* a node with many children (main of a big program) is hashed once */
  if (node->children->len > 16)
    {
      if (*by_function == NULL)
        {
          *by_function = g_hash_table_new (g_int64_hash, g_int64_equal);
          for (guint i = 0; i < node->children->len; i++)
            {
              HpCallNode *child = g_ptr_array_index (node->children, i);

              g_hash_table_insert (*by_function, &child->function_id, child);
            }
        }
      return g_hash_table_lookup (*by_function, &function_id);
    }
  for (guint i = 0; i < node->children->len; i++)
    {
      const HpCallNode *child = g_ptr_array_index (node->children, i);

      if (child->function_id == function_id)
        return child;
    }
  return NULL;
}

/* A node of the shown tree being matched, with its matches in the two
 * others and the next of its children to match */
typedef struct {
  const HpCallNode *shown;
  const HpCallNode *numerator;
  const HpCallNode *denominator;
  guint             next;
  GHashTable       *num_children;  /* the matches' children by function, */
  GHashTable       *den_children;  /* when they have many (child_of) */
} MatchFrame;

static void
add_entry (HpRatioMap       *self,
           const HpCallNode *shown,
           const HpCallNode *numerator,
           const HpCallNode *denominator)
{
  RatioEntry entry = { numerator ? numerator->total : 0, denominator ? denominator->total : 0 };

  g_array_append_val (self->entries, entry);
  g_hash_table_insert (self->index, (gpointer) shown, GUINT_TO_POINTER (self->entries->len));
}

/* Depth first, as a recursion would go, but in a loop with a stack of
 * its own: a tree is as deep as the capture's deepest stack, 100 000
 * frames in a hostile one, more than a worker's C stack holds (see
 * HpCallNodeWalk, which cannot carry the matches down). */
static void
match (HpRatioMap       *self,
       const HpCallNode *shown,
       const HpCallNode *numerator,
       const HpCallNode *denominator)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (MatchFrame));
  MatchFrame root = { shown, numerator, denominator, 0, NULL, NULL };

  add_entry (self, shown, numerator, denominator);
  g_array_append_val (stack, root);
  while (stack->len > 0)
    {
      MatchFrame *top = &g_array_index (stack, MatchFrame, stack->len - 1);
      const HpCallNode *child;
      MatchFrame next = { 0 };

      if (top->shown->children == NULL || top->next >= top->shown->children->len)
        {
          g_clear_pointer (&top->num_children, g_hash_table_unref);
          g_clear_pointer (&top->den_children, g_hash_table_unref);
          g_array_set_size (stack, stack->len - 1);
          continue;
        }
      child = g_ptr_array_index (top->shown->children, top->next++);
      next.shown = child;
      next.numerator = child_of (top->numerator, child->function_id, &top->num_children);
      next.denominator = child_of (top->denominator, child->function_id, &top->den_children);
      add_entry (self, child, next.numerator, next.denominator);
      /* (top moves when the stack grows) */
      g_array_append_val (stack, next);
    }
}

HpRatioMap *
hp_ratio_map_new (const HpCallNode *shown,
                  const HpCallNode *numerator,
                  const HpCallNode *denominator)
{
  HpRatioMap *self;

  g_return_val_if_fail (shown != NULL, NULL);

  self = g_new0 (HpRatioMap, 1);
  self->index = g_hash_table_new (NULL, NULL);
  self->entries = g_array_new (FALSE, FALSE, sizeof (RatioEntry));
  match (self, shown, numerator, denominator);
  return self;
}

void
hp_ratio_map_free (HpRatioMap *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->index);
  g_array_unref (self->entries);
  g_free (self);
}

gboolean
hp_ratio_map_lookup (const HpRatioMap *self,
                     const HpCallNode *node,
                     guint64          *numerator,
                     guint64          *denominator)
{
  guint i;
  const RatioEntry *e;

  g_return_val_if_fail (self != NULL, FALSE);

  i = GPOINTER_TO_UINT (g_hash_table_lookup (self->index, node));
  if (i == 0)
    return FALSE;
  e = &g_array_index (self->entries, RatioEntry, i - 1);
  if (numerator != NULL)
    *numerator = e->numerator;
  if (denominator != NULL)
    *denominator = e->denominator;
  return TRUE;
}
