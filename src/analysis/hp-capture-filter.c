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
 *
 * Folding functions or modules ("fold libc") and hiding kernel frames are
 * the same pass again: a frame of a folded function maps to its caller, so
 * the caller's self holds what the folded code spent. A frame at a root
 * has no caller; a folded function there stays (as an inline frame does),
 * but a stack of kernel frames only (a kernel thread, an interrupt without
 * user stack) has no user code to be counted in: hiding the kernel leaves
 * its samples out, and says how many.
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include <string.h>

#include "analysis/hp-capture-filter.h"

static gint64
function_of (const HpCaptureData *data,
             gint64               stack_id)
{
  const HpCaptureStack *s = &g_array_index (data->stacks, HpCaptureStack, stack_id);

  return g_array_index (data->frames, HpCaptureFrame, s->frame_id).function_id;
}

typedef enum {
  KEEP,
  FOLD,  /* into the (rewritten) parent; kept at a root */
  DROP,  /* like FOLD, and dropped with its samples at a root */
} Fold;

/* What becomes of stack node @id under its (rewritten) parent @parent */
typedef Fold (*FoldFunc) (const HpCaptureData *data,
                          const GArray        *stacks,
                          guint                id,
                          gint64               parent,
                          gconstpointer        user_data);

/* a node left out, with every sample under it */
#define DROPPED (-1)

static HpCaptureData *
rewrite_stacks (const HpCaptureData *data,
                FoldFunc             folds,
                gconstpointer        user_data,
                guint64             *n_dropped)
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
      HpCaptureStack node;
      g_autoptr(GBytes) key = NULL;
      gpointer found;
      Fold fold;

      /* a node under a dropped one starts a root of its own if kept */
      if (parent == DROPPED)
        parent = 0;
      fold = folds (data, stacks, id, parent, user_data);
      if (fold != KEEP && parent > 0)
        {
          map[id] = parent;
          continue;
        }
      if (fold == DROP)
        {
          map[id] = DROPPED;
          continue;
        }
      node.parent_id = parent;
      node.frame_id = s->frame_id;
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
      if (c.stack_id == DROPPED)
        {
          if (n_dropped != NULL)
            *n_dropped += c.samples;
          continue;
        }
      g_array_append_val (counts, c);
    }

  merged = hp_capture_data_new_with_counts (data, counts);
  g_array_unref (merged->stacks);
  merged->stacks = stacks;
  return merged;
}

static Fold
is_direct_recursion (const HpCaptureData *data,
                     const GArray        *stacks,
                     guint                id,
                     gint64               parent,
                     gconstpointer        user_data)
{
  if (parent <= 0)
    return KEEP;
  return function_of (data, id) ==
         g_array_index (data->frames, HpCaptureFrame,
                        g_array_index (stacks, HpCaptureStack, parent).frame_id).function_id ? FOLD : KEEP;
}

HpCaptureData *
hp_capture_data_merge_recursion (const HpCaptureData *data)
{
  g_return_val_if_fail (data != NULL, NULL);

  return rewrite_stacks (data, is_direct_recursion, NULL, NULL);
}

static Fold
is_inline (const HpCaptureData *data,
           const GArray        *stacks,
           guint                id,
           gint64               parent,
           gconstpointer        user_data)
{
  const HpCaptureStack *s = &g_array_index (data->stacks, HpCaptureStack, id);

  return g_array_index (data->frames, HpCaptureFrame, s->frame_id).is_inline ? FOLD : KEEP;
}

HpCaptureData *
hp_capture_data_fold_inline (const HpCaptureData *data)
{
  g_return_val_if_fail (data != NULL, NULL);

  return rewrite_stacks (data, is_inline, NULL, NULL);
}

gboolean
hp_fold_spec_is_empty (const HpFoldSpec *spec)
{
  return spec == NULL ||
         (!spec->hide_kernel &&
          (spec->functions == NULL || g_hash_table_size (spec->functions) == 0) &&
          (spec->modules == NULL || g_hash_table_size (spec->modules) == 0));
}

static Fold
is_folded (const HpCaptureData *data,
           const GArray        *stacks,
           guint                id,
           gint64               parent,
           gconstpointer        user_data)
{
  const HpFoldSpec *spec = user_data;
  gint64 function_id = function_of (data, id);
  gint64 module_id = 0;

  if (function_id > 0 && (guint) function_id < data->functions->len)
    module_id = g_array_index (data->functions, HpCaptureFunction, function_id).module_id;
  if (spec->hide_kernel && module_id > 0 && (guint) module_id < data->modules->len &&
      g_array_index (data->modules, HpCaptureModule, module_id).is_kernel)
    return DROP;
  if (spec->functions != NULL && g_hash_table_contains (spec->functions, GSIZE_TO_POINTER (function_id)))
    return FOLD;
  if (spec->modules != NULL && module_id > 0 &&
      g_hash_table_contains (spec->modules, GSIZE_TO_POINTER (module_id)))
    return FOLD;
  return KEEP;
}

HpCaptureData *
hp_capture_data_fold (const HpCaptureData *data,
                      const HpFoldSpec    *spec,
                      guint64             *n_dropped)
{
  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (spec != NULL, NULL);

  if (n_dropped != NULL)
    *n_dropped = 0;
  return rewrite_stacks (data, is_folded, spec, n_dropped);
}

GHashTable *
hp_capture_data_find_modules (const HpCaptureData *data,
                              const char          *name)
{
  GHashTable *found = g_hash_table_new (NULL, NULL);
  gsize len;

  g_return_val_if_fail (data != NULL, found);
  g_return_val_if_fail (name != NULL, found);

  /* "libc" names libc.so.6 and libc-2.31.so, never libcrypto.so.3 */
  len = strlen (name);
  for (guint i = 1; i < data->modules->len; i++)
    {
      const char *base = g_array_index (data->modules, HpCaptureModule, i).name;

      if (base != NULL && strncmp (base, name, len) == 0 &&
          (base[len] == '\0' || base[len] == '.' || base[len] == '-'))
        g_hash_table_add (found, GSIZE_TO_POINTER ((gsize) i));
    }
  return found;
}
