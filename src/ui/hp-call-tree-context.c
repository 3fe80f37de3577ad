/* hp-call-tree-context.c - what the rows of one call tree share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <string.h>

#include "ui/hp-call-row.h"
#include "document/hp-format.h"
#include "ui/hp-call-tree-context.h"

HpCallTreeContext *
hp_call_tree_context_new (HpLoadedProfile *profile,
                          gboolean         bottom_up)
{
  HpCallTreeContext *self = g_rc_box_new0 (HpCallTreeContext);

  self->profile = hp_loaded_profile_ref (profile);
  self->bottom_up = bottom_up;
  self->n_samples = hp_profile_get_n_samples (profile->profile);
  {
    g_autofree char *widest = hp_format_count (self->n_samples);

    self->count_chars = MAX (3, g_utf8_strlen (widest, -1));
  }
  self->marked = g_hash_table_new (NULL, NULL);
  self->hot = g_hash_table_new (NULL, NULL);
  self->rows = g_hash_table_new (NULL, NULL);
  return self;
}

HpCallTreeContext *
hp_call_tree_context_ref (HpCallTreeContext *self)
{
  return g_rc_box_acquire (self);
}

static void
context_clear (gpointer p)
{
  HpCallTreeContext *self = p;

  /* rows hold a reference, so none is alive here */
  g_assert (g_hash_table_size (self->rows) == 0);
  g_hash_table_unref (self->rows);
  g_hash_table_unref (self->marked);
  g_hash_table_unref (self->hot);
  g_free (self->search);
  hp_loaded_profile_unref (self->profile);
}

void
hp_call_tree_context_unref (HpCallTreeContext *self)
{
  g_rc_box_release_full (self, context_clear);
}

const HpCallNode *
hp_call_tree_context_get_root (HpCallTreeContext *self)
{
  return self->bottom_up ? hp_profile_get_bottom_up (self->profile->profile)
                         : hp_profile_get_top_down (self->profile->profile);
}

HpCallRow *
hp_call_tree_context_lookup (HpCallTreeContext *self,
                             const HpCallNode  *node)
{
  return g_hash_table_lookup (self->rows, node);
}

static void
row_changed (HpCallTreeContext *self,
             const HpCallNode  *node)
{
  HpCallRow *row = g_hash_table_lookup (self->rows, node);

  if (row != NULL)
    hp_call_row_marks_changed (row);
}

void
hp_call_tree_context_set_marked (HpCallTreeContext *self,
                                 const HpCallNode  *node,
                                 gboolean           marked)
{
  gboolean was = g_hash_table_contains (self->marked, node);

  if (was == !!marked)
    return;
  if (marked)
    g_hash_table_add (self->marked, (gpointer) node);
  else
    g_hash_table_remove (self->marked, node);
  row_changed (self, node);
}

void
hp_call_tree_context_set_hot (HpCallTreeContext *self,
                              const HpCallNode  *node)
{
  g_hash_table_add (self->hot, (gpointer) node);
  row_changed (self, node);
}

gboolean
hp_call_tree_context_matches (HpCallTreeContext *self,
                              const HpCallNode  *node)
{
  g_autofree char *folded = NULL;

  if (self->search == NULL)
    return FALSE;
  folded = g_utf8_casefold (hp_profile_get_function_name (self->profile->profile, node->function_id), -1);
  return strstr (folded, self->search) != NULL;
}

void
hp_call_tree_context_set_current_match (HpCallTreeContext *self,
                                        const HpCallNode  *node)
{
  const HpCallNode *old = self->current_match;

  if (old == node)
    return;
  self->current_match = node;
  if (old != NULL)
    row_changed (self, old);
  if (node != NULL)
    row_changed (self, node);
}

void
hp_call_tree_context_set_search (HpCallTreeContext *self,
                                 const char        *text)
{
  GHashTableIter iter;
  gpointer row;

  g_clear_pointer (&self->search, g_free);
  if (text != NULL && text[0] != '\0')
    self->search = g_utf8_casefold (text, -1);
  self->current_match = NULL;

  /* only rows that exist are shown or about to be */
  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, NULL, &row))
    hp_call_row_marks_changed (row);
}
