/* hp-call-tree-view-search.c - finding functions in the call tree by name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The search entry's text is matched against every function of the
 * capture, case-folded, in a worker (hp_call_path_search); the rows shown
 * are highlighted at once by the tree's context. The first match is
 * selected, the next few revealed (their paths expanded) one a frame,
 * and Enter and Shift+Enter go through all of them.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include "document/hp-call-path.h"
#include "ui/hp-call-tree-view-private.h"

/* Search reveals (expands to) this many matches, one a frame; the others
 * are highlighted where shown and reached with Enter. */
#define REVEAL_MATCHES 8
#define REVEAL_BUDGET_US 2000
#define MAX_MATCHES 10000

typedef struct {
  HpLoadedProfile  *profile;
  const HpCallNode *root;
  char             *folded;
} SearchRequest;

static void
search_request_free (gpointer p)
{
  SearchRequest *r = p;

  hp_loaded_profile_unref (r->profile);
  g_free (r->folded);
  g_free (r);
}

/* In a worker: a tree of 700 000 nodes takes tens of milliseconds. */
static void
search_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SearchRequest *req = task_data;

  g_task_return_pointer (task, hp_call_path_search (req->profile->profile, req->root, req->folded, MAX_MATCHES),
                         (GDestroyNotify) g_ptr_array_unref);
}

/* Expands to one more of the first matches. One a frame: each makes the
 * rows of a path, and eight at once took 60-70 ms on the stress capture
 * of the 1M-sample benchmark. */
static gboolean
reveal_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  HpCallTreeView *self = HP_CALL_TREE_VIEW (widget);

  if (self->matches == NULL || self->reveal_next >= MIN (self->matches->len, REVEAL_MATCHES))
    {
      self->reveal_tick = 0;
      return G_SOURCE_REMOVE;
    }
  {
    /* a level or a few a frame: some paths open hundreds of rows, and
     * laying out the rows made costs about as much again */
    gint64 deadline = g_get_monotonic_time () + REVEAL_BUDGET_US;
    gboolean finished;
    g_autoptr(GtkTreeListRow) row = NULL;

    row = hp_call_tree_view_expand_to_within (self, g_ptr_array_index (self->matches, self->reveal_next),
                                              deadline, &finished);

    if (finished)
      self->reveal_next++;
  }
  return G_SOURCE_CONTINUE;
}

static void
search_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(HpCallTreeView) self = user_data;
  GPtrArray *matches = g_task_propagate_pointer (G_TASK (result), NULL);

  if (matches == NULL)
    return;
  if (g_task_get_cancellable (G_TASK (result)) != self->search_cancellable ||
      g_cancellable_is_cancelled (self->search_cancellable))
    {
      g_ptr_array_unref (matches);
      return;
    }
  g_clear_object (&self->search_cancellable);
  g_clear_pointer (&self->matches, g_ptr_array_unref);
  self->matches = matches;
  self->match_index = 0;

  /* select the first match, and reveal the next ones a frame apart */
  if (self->matches->len > 0)
    {
      hp_call_tree_context_set_current_match (hp_call_tree_view_current (self)->context,
                                              g_ptr_array_index (self->matches, 0));
      hp_call_tree_view_select_node (self, g_ptr_array_index (self->matches, 0));
    }
  self->reveal_next = 1;
  if (self->reveal_tick == 0 && self->matches->len > 1)
    self->reveal_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), reveal_tick_cb, NULL, NULL);
  g_signal_emit_by_name (self, "search-done");
}

void
hp_call_tree_view_search (HpCallTreeView *self,
                          const char     *text)
{
  TreeModels *t;
  g_autoptr(GTask) task = NULL;
  SearchRequest *req;

  g_return_if_fail (HP_IS_CALL_TREE_VIEW (self));

  if (self->search_cancellable != NULL)
    g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  g_clear_pointer (&self->search, g_free);
  g_clear_pointer (&self->matches, g_ptr_array_unref);
  self->match_index = 0;
  if (text != NULL && text[0] != '\0')
    self->search = g_strdup (text);

  t = hp_call_tree_view_current (self);
  if (t->context == NULL)
    return;
  /* the rows shown are highlighted at once; the other tree's too (its
   * rows may have been built after the search began, and kept its marks
   * after Escape) */
  hp_call_tree_context_set_search (t->context, self->search);
  if (self->trees[self->bottom_up ? 0 : 1].context != NULL)
    hp_call_tree_context_set_search (self->trees[self->bottom_up ? 0 : 1].context, self->search);
  if (self->search == NULL)
    {
      g_signal_emit_by_name (self, "search-done");
      return;
    }

  req = g_new0 (SearchRequest, 1);
  req->profile = hp_loaded_profile_ref (self->profile);
  req->root = hp_call_tree_context_get_root (t->context);
  req->folded = g_utf8_casefold (self->search, -1);
  self->search_cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->search_cancellable, search_done, g_object_ref (self));
  g_task_set_source_tag (task, hp_call_tree_view_search);
  g_task_set_task_data (task, req, search_request_free);
  g_task_run_in_thread (task, search_thread);
}

gboolean
hp_call_tree_view_is_searching (HpCallTreeView *self)
{
  g_return_val_if_fail (HP_IS_CALL_TREE_VIEW (self), FALSE);

  return self->search_cancellable != NULL;
}

void
hp_call_tree_view_next_match (HpCallTreeView *self,
                              gboolean        backwards)
{
  guint n;

  g_return_if_fail (HP_IS_CALL_TREE_VIEW (self));

  if (self->matches == NULL || (n = self->matches->len) == 0)
    return;
  self->match_index = backwards ? (self->match_index + n - 1) % n : (self->match_index + 1) % n;
  hp_call_tree_context_set_current_match (hp_call_tree_view_current (self)->context,
                                          g_ptr_array_index (self->matches, self->match_index));
  hp_call_tree_view_select_node (self, g_ptr_array_index (self->matches, self->match_index));
}

void
hp_call_tree_view_get_search_status (HpCallTreeView *self,
                                     guint          *index,
                                     guint          *n_matches)
{
  g_return_if_fail (HP_IS_CALL_TREE_VIEW (self));

  if (index != NULL)
    *index = self->match_index;
  if (n_matches != NULL)
    *n_matches = self->matches ? self->matches->len : 0;
}
