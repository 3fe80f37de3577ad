/* hp-jit-tiers.c - in which compilation tier run-time compiled code ran
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A JavaScript function runs interpreted first and is compiled again,
 * better, as it gets hot; V8 names each compiled copy with a mark for its
 * tier ("JS:~fib", "JS:*fib"). perf shows one row per copy. Hotpath keeps
 * one row per function (its identity is the name without the mark) and
 * keeps the tier on the frame, so a view can say how the function's
 * samples split over the tiers: a hot function that stays interpreted is
 * a finding of its own.
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include <string.h>

#include "analysis/hp-jit-tiers.h"

typedef struct {
  guint64 total[HP_N_JIT_TIERS];
  guint64 self[HP_N_JIT_TIERS];
} Counts;

struct _HpJitTiers {
  guint32 *slot;        /* function id -> 1 + index into counts, 0: none */
  guint    n_functions;
  GArray  *counts;      /* Counts per function with tiers */
};

static const struct {
  char        mark;
  const char *name;
} tiers[HP_N_JIT_TIERS] = {
  [HP_JIT_TIER_INTERPRETED] = { '~', "interpreted" },
  [HP_JIT_TIER_BASELINE]    = { '^', "baseline" },
  [HP_JIT_TIER_MID]         = { '+', "mid-tier" },
  [HP_JIT_TIER_OPTIMIZED]   = { '*', "optimized" },
};

int
hp_jit_tier_from_mark (char mark)
{
  for (guint t = 0; t < HP_N_JIT_TIERS; t++)
    if (mark != 0 && tiers[t].mark == mark)
      return (int) t;
  return -1;
}

const char *
hp_jit_tier_get_name (HpJitTier tier)
{
  g_return_val_if_fail (tier < HP_N_JIT_TIERS, NULL);

  return tiers[tier].name;
}

int
hp_jit_tiers_dominant (const guint64 samples[HP_N_JIT_TIERS])
{
  int best = -1;

  for (guint t = 0; t < HP_N_JIT_TIERS; t++)
    if (samples[t] > 0 && (best < 0 || samples[t] >= samples[best]))
      best = (int) t;
  return best;
}

HpJitTiers *
hp_jit_tiers_new (const HpCaptureData *data,
                  GHashTable          *tids)
{
  g_autoptr(HpJitTiers) self = NULL;
  g_autofree int *frame_tier = NULL;
  g_autofree guint64 *stamp = NULL;
  gboolean any = FALSE;
  guint n_frames, n_stacks;

  g_return_val_if_fail (data != NULL, NULL);

  n_frames = data->frames->len;
  frame_tier = g_new (int, MAX (n_frames, 1));
  frame_tier[0] = -1;
  for (guint f = 1; f < n_frames; f++)
    {
      frame_tier[f] = hp_jit_tier_from_mark (g_array_index (data->frames, HpCaptureFrame, f).tier);
      any |= frame_tier[f] >= 0;
    }
  if (!any)
    return NULL;

  self = g_new0 (HpJitTiers, 1);
  self->n_functions = MAX (data->functions->len, 1);
  self->slot = g_new0 (guint32, self->n_functions);
  self->counts = g_array_new (FALSE, TRUE, sizeof (Counts));
  for (guint f = 1; f < n_frames; f++)
    {
      gint64 function_id = g_array_index (data->frames, HpCaptureFrame, f).function_id;

      if (frame_tier[f] >= 0 && function_id > 0 && (guint64) function_id < self->n_functions &&
          self->slot[function_id] == 0)
        {
          g_array_set_size (self->counts, self->counts->len + 1);
          self->slot[function_id] = self->counts->len;
        }
    }

  /* Walk each counted stack to its root. stamp[] remembers the last count
   * that added to a (function, tier), so that recursion adds once. */
  n_stacks = data->stacks->len;
  stamp = g_new0 (guint64, (gsize) self->counts->len * HP_N_JIT_TIERS);
  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);
      guint depth = 0;

      if (tids != NULL && !g_hash_table_contains (tids, GINT_TO_POINTER (c->tid)))
        continue;
      for (gint64 s = c->stack_id; s > 0 && (guint64) s < n_stacks && depth < n_stacks; depth++)
        {
          const HpCaptureStack *st = &g_array_index (data->stacks, HpCaptureStack, s);
          int tier = st->frame_id > 0 && (guint64) st->frame_id < n_frames ? frame_tier[st->frame_id] : -1;

          if (tier >= 0)
            {
              gint64 function_id = g_array_index (data->frames, HpCaptureFrame, st->frame_id).function_id;
              guint32 slot = (guint64) function_id < self->n_functions ? self->slot[function_id] : 0;

              Counts *counts = slot != 0 ? &g_array_index (self->counts, Counts, slot - 1) : NULL;

              /* the leaf node is the sampled code */
              if (counts != NULL && depth == 0)
                counts->self[tier] += c->samples;
              if (counts != NULL && stamp[(slot - 1) * HP_N_JIT_TIERS + tier] != i + 1)
                {
                  stamp[(slot - 1) * HP_N_JIT_TIERS + tier] = i + 1;
                  counts->total[tier] += c->samples;
                }
            }
          /* parent_id < id (schema.sql), checked by the reader */
          s = st->parent_id < s ? st->parent_id : 0;
        }
    }
  return g_steal_pointer (&self);
}

gboolean
hp_jit_tiers_get (const HpJitTiers *self,
                  gint64            function_id,
                  guint64           total[HP_N_JIT_TIERS],
                  guint64           self_samples[HP_N_JIT_TIERS])
{
  const Counts *counts = NULL;

  if (self != NULL && function_id > 0 && (guint64) function_id < self->n_functions &&
      self->slot[function_id] != 0)
    counts = &g_array_index (self->counts, Counts, self->slot[function_id] - 1);
  if (total != NULL)
    memset (total, 0, sizeof (guint64) * HP_N_JIT_TIERS);
  if (self_samples != NULL)
    memset (self_samples, 0, sizeof (guint64) * HP_N_JIT_TIERS);
  if (counts == NULL)
    return FALSE;
  if (total != NULL)
    memcpy (total, counts->total, sizeof counts->total);
  if (self_samples != NULL)
    memcpy (self_samples, counts->self, sizeof counts->self);
  return TRUE;
}

void
hp_jit_tiers_free (HpJitTiers *self)
{
  if (self == NULL)
    return;
  g_free (self->slot);
  g_array_unref (self->counts);
  g_free (self);
}
