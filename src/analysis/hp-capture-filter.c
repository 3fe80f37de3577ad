/* hp-capture-filter.c - a capture seen differently: recursion merged, inline frames folded
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Views over a loaded capture that the analysis then treats as a capture
 * of its own. Merging recursion rewrites the stack prefix tree: because a
 * node's parent always has a smaller id, one pass in id order maps every
 * node to its merged node, and a node whose function is its (merged)
 * parent's function maps to that parent. The merged tree is interned
 * afresh (parent, frame) so that two paths that become equal share a node;
 * counts follow their node. As in Hotspot and the Firefox Profiler, only
 * direct recursion is merged: f → g → f keeps both f.
 *
 * Folding inline frames uses the same pass: a node whose frame is an
 * inlined call maps to its parent (the function it was inlined into, or
 * the inline frame above, itself folded), so a sample in inlined code
 * counts as the function whose machine code it runs in, which is what
 * `perf report --sort sym` attributes it to.
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include "analysis/hp-capture-filter.h"

static gint64
function_of (const HpCaptureData *data,
             gint64               stack_id)
{
  const HpCaptureStack *s = &g_array_index (data->stacks, HpCaptureStack, stack_id);

  return g_array_index (data->frames, HpCaptureFrame, s->frame_id).function_id;
}

/* Whether stack node @id folds into its (rewritten) parent @parent. */
typedef gboolean (*FoldFunc) (const HpCaptureData *data,
                              const GArray        *stacks,
                              guint                id,
                              gint64               parent);

static HpCaptureData *
rewrite_stacks (const HpCaptureData *data,
                FoldFunc             folds)
{
  g_autofree gint64 *map = NULL;
  g_autoptr(GHashTable) interned = NULL;
  GArray *stacks, *counts;
  HpCaptureData *merged;

  g_return_val_if_fail (data != NULL, NULL);

  map = g_new0 (gint64, MAX (data->stacks->len, 1));
  stacks = g_array_new (FALSE, TRUE, sizeof (HpCaptureStack));
  g_array_set_size (stacks, 1);  /* [0] unused, as in a loaded capture */
  /* (parent << 32 | frame) would not fit every id: key on both */
  interned = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);

  for (guint id = 1; id < data->stacks->len; id++)
    {
      const HpCaptureStack *s = &g_array_index (data->stacks, HpCaptureStack, id);
      gint64 parent = s->parent_id > 0 ? map[s->parent_id] : 0;
      HpCaptureStack node = { parent, s->frame_id };
      g_autoptr(GBytes) key = NULL;
      gpointer found;

      if (parent > 0 && folds (data, stacks, id, parent))
        {
          map[id] = parent;
          continue;
        }
      key = g_bytes_new (&node, sizeof node);
      found = g_hash_table_lookup (interned, key);
      if (found != NULL)
        map[id] = GPOINTER_TO_SIZE (found);
      else
        {
          g_array_append_val (stacks, node);
          map[id] = stacks->len - 1;
          g_hash_table_insert (interned, g_steal_pointer (&key), GSIZE_TO_POINTER (map[id]));
        }
    }

  counts = g_array_sized_new (FALSE, FALSE, sizeof (HpCaptureStackCount), data->stack_counts->len);
  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      HpCaptureStackCount c = g_array_index (data->stack_counts, HpCaptureStackCount, i);

      c.stack_id = c.stack_id > 0 ? map[c.stack_id] : 0;
      g_array_append_val (counts, c);
    }

  merged = hp_capture_data_new_with_counts (data, counts);
  g_array_unref (merged->stacks);
  merged->stacks = stacks;
  return merged;
}

static gboolean
is_direct_recursion (const HpCaptureData *data,
                     const GArray        *stacks,
                     guint                id,
                     gint64               parent)
{
  return function_of (data, id) ==
         g_array_index (data->frames, HpCaptureFrame,
                        g_array_index (stacks, HpCaptureStack, parent).frame_id).function_id;
}

HpCaptureData *
hp_capture_data_merge_recursion (const HpCaptureData *data)
{
  g_return_val_if_fail (data != NULL, NULL);

  return rewrite_stacks (data, is_direct_recursion);
}

static gboolean
is_inline (const HpCaptureData *data,
           const GArray        *stacks,
           guint                id,
           gint64               parent)
{
  const HpCaptureStack *s = &g_array_index (data->stacks, HpCaptureStack, id);

  return g_array_index (data->frames, HpCaptureFrame, s->frame_id).is_inline;
}

HpCaptureData *
hp_capture_data_fold_inline (const HpCaptureData *data)
{
  g_return_val_if_fail (data != NULL, NULL);

  return rewrite_stacks (data, is_inline);
}
