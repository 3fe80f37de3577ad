/* hp-source.c - samples per source line of a function (annotated source)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * This file owns the per-line numbers of the annotated source pane: for one
 * function, the samples spent at each line of its source file, as self (the
 * line was executing) and total (the line was on the stack).
 *
 * Like hp-profile.c it works on the stack prefix tree, never on single
 * samples: the profile gives the samples per leaf node for its threads, one
 * backward pass sums them into sub (samples through a node), and each node
 * whose frame belongs to the function credits its frame's file:line with
 * cnt as self and sub as total.
 *
 * Counting once per sample: under recursion the same function and line may
 * occur several times on one path. A sample is credited at the occurrence
 * nearest the root only, so a node whose frame has the same file:line as a
 * frame of the same function among its ancestors adds nothing to total.
 * Ancestors are reached through near[], the nearest ancestor of the same
 * function, so the check walks only this function's own frames.
 *
 * Frames without a line (0: no DWARF line info) cannot be shown next to the
 * source and are left out; the sums then fall short of the function's
 * totals in the profile, and the difference is what had no line.
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include <string.h>

#include "analysis/hp-block-pool.h"
#include "analysis/hp-source.h"

/* The lines of one file, while counting */
typedef struct {
  const char *file;   /* borrowed from the frames; NULL when unknown */
  GHashTable *lines;  /* GUINT_TO_POINTER (line) -> HpSourceLine* */
  guint64     self;
  guint64     total;
} FileCount;

static void
file_count_clear (gpointer p)
{
  FileCount *fc = p;

  g_clear_pointer (&fc->lines, g_hash_table_unref);
}

static FileCount *
get_file_count (GArray     *files,
                const char *file)
{
  FileCount fc = { 0 };

  for (guint i = 0; i < files->len; i++)
    {
      FileCount *other = &g_array_index (files, FileCount, i);

      if (g_strcmp0 (other->file, file) == 0)
        return other;
    }
  fc.file = file;
  fc.lines = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_array_append_val (files, fc);
  return &g_array_index (files, FileCount, files->len - 1);
}

static void
count_line (FileCount *fc,
            guint      line,
            guint64    self,
            guint64    total)
{
  HpSourceLine *sl = g_hash_table_lookup (fc->lines, GUINT_TO_POINTER (line));

  if (sl == NULL)
    {
      sl = g_new0 (HpSourceLine, 1);
      sl->line = line;
      g_hash_table_insert (fc->lines, GUINT_TO_POINTER (line), sl);
    }
  sl->self += self;
  sl->total += total;
  fc->self += self;
  fc->total += total;
}

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  const HpSourceLine *la = a;
  const HpSourceLine *lb = b;

  return la->line < lb->line ? -1 : la->line > lb->line;
}

/* The file with the most samples; ties by self, then by name so the choice
 * does not depend on the order of the frames. */
static gboolean
file_is_better (const FileCount *a,
                const FileCount *b)
{
  if (a->total != b->total)
    return a->total > b->total;
  if (a->self != b->self)
    return a->self > b->self;
  return g_strcmp0 (a->file, b->file) < 0;
}

static void
take_file (HpSourceAnnotation *self,
           const FileCount    *fc)
{
  GHashTableIter iter;
  HpSourceLine *sl;
  const HpSourceLine *hottest = NULL;

  g_hash_table_iter_init (&iter, fc->lines);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &sl))
    g_array_append_val (self->lines, *sl);
  g_array_sort (self->lines, compare_lines);

  /* Ascending order makes the lowest line win a full tie. */
  for (guint i = 0; i < self->lines->len; i++)
    {
      sl = &g_array_index (self->lines, HpSourceLine, i);
      if (hottest == NULL || sl->total > hottest->total ||
          (sl->total == hottest->total && sl->self > hottest->self))
        hottest = sl;
    }

  self->file = g_strdup (fc->file);
  self->hottest_line = hottest != NULL ? hottest->line : 0;
  self->self = fc->self;
  self->total = fc->total;
}

HpSourceAnnotation *
hp_source_annotation_new (HpProfile *profile,
                          gint64     function_id)
{
  g_autoptr(GArray) files = NULL;
  guint64 *sub;
  guint32 *near;
  guint8 *is_f;
  gsize sub_size, near_size, is_f_size;
  HpSourceAnnotation *self;
  const HpCaptureData *data;
  const HpCaptureStack *stacks;
  const HpCaptureFrame *frames;
  const guint64 *cnt;
  const FileCount *best = NULL;
  guint n_stacks;

  g_return_val_if_fail (profile != NULL, NULL);

  self = g_new0 (HpSourceAnnotation, 1);
  self->lines = g_array_new (FALSE, FALSE, sizeof (HpSourceLine));

  data = hp_profile_get_data (profile);
  if (function_id <= 0 || function_id >= (gint64) data->functions->len)
    return self;

  cnt = hp_profile_get_stack_samples (profile, &n_stacks);
  g_assert (n_stacks == MAX (data->stacks->len, 1));
  stacks = (const HpCaptureStack *) (gpointer) data->stacks->data;
  frames = (const HpCaptureFrame *) (gpointer) data->frames->data;

  /* per stack, from the blocks of the annotation before (a pane that
   * follows the selection makes one per click; hp-block-pool.c) */
  sub = hp_block_alloc (sizeof (guint64) * n_stacks, &sub_size);
  memcpy (sub, cnt, sizeof (guint64) * n_stacks);
  for (guint s = n_stacks - 1; s >= 1; s--)
    sub[stacks[s].parent_id] += sub[s];

  /* parent_id < id: a parent is visited before its children. */
  is_f = hp_block_alloc (n_stacks, &is_f_size);
  near = hp_block_alloc (sizeof (guint32) * n_stacks, &near_size);
  is_f[0] = FALSE;
  near[0] = 0;
  for (guint s = 1; s < n_stacks; s++)
    {
      guint32 p = stacks[s].parent_id;

      is_f[s] = frames[stacks[s].frame_id].function_id == function_id;
      near[s] = is_f[p] ? p : near[p];
    }

  files = g_array_new (FALSE, TRUE, sizeof (FileCount));
  g_array_set_clear_func (files, file_count_clear);

  for (guint s = 1; s < n_stacks; s++)
    {
      const HpCaptureFrame *frame = &frames[stacks[s].frame_id];
      gboolean seen = FALSE;

      if (!is_f[s] || sub[s] == 0 || frame->line == 0)
        continue;

      for (guint32 a = near[s]; a != 0 && !seen; a = near[a])
        {
          const HpCaptureFrame *other = &frames[stacks[a].frame_id];

          seen = other->line == frame->line && g_strcmp0 (other->file, frame->file) == 0;
        }

      count_line (get_file_count (files, frame->file), frame->line,
                  cnt[s], seen ? 0 : sub[s]);
    }

  hp_block_free (sub, sub_size);
  hp_block_free (near, near_size);
  hp_block_free (is_f, is_f_size);

  for (guint i = 0; i < files->len; i++)
    {
      const FileCount *fc = &g_array_index (files, FileCount, i);

      if (best == NULL || file_is_better (fc, best))
        best = fc;
    }
  if (best == NULL)
    return self;

  take_file (self, best);
  return self;
}

void
hp_source_annotation_free (HpSourceAnnotation *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->lines, g_array_unref);
  g_free (self->file);
  g_free (self);
}
