/* hp-call-tree-view-private.h - the call tree's struct, shared by its files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "document/hp-loaded-capture.h"
#include "ui/hp-call-tree-context.h"
#include "ui/hp-call-tree-view.h"
#include "ui/hp-grow-list-model.h"

G_BEGIN_DECLS

/* HpCallTreeView spans hp-call-tree-view.c (the type, models, growing,
 * selecting) and hp-call-tree-view-search.c (search). */

typedef struct {
  /* each tree has its own view, so switching keeps its rows' widgets
   * (building those is what costs, see hp-cell.c) */
  GtkWidget           *scroller;
  guint                hide_tick;   /* while laid out once to build its rows */
  GtkColumnView       *view;
  GtkColumnViewColumn *function_column;
  GtkColumnViewColumn *self_column;
  GtkColumnViewColumn *total_column;
  GtkColumnViewColumn *ratio_column;
  GtkColumnViewColumn *module_column;
  GtkColumnViewColumn *sorted_by;   /* the primary sort column (probed), not a reference */
  HpCallTreeContext  *context;
  GtkTreeListModel   *tree_model;
  GtkSortListModel   *sort_model;
  HpGrowListModel    *slice;        /* the rows the view has, growing */
  guint               grow_target;  /* rows wanted for a selection far down */
  GtkSingleSelection *selection;
  guint               cut_depth;    /* depth of the last node selected below MAX_OPEN_DEPTH, or 0 */
} TreeModels;

struct _HpCallTreeView {
  GtkWidget             parent_instance;

  GtkInscription       *caption;
  GtkLabel             *depth_note;   /* when a selection was too deep to open */
  GtkStack             *stack;
  GtkLabel             *empty_label;

  HpLoadedProfile      *profile;
  TreeModels            trees[2];       /* [0] top-down, [1] bottom-up */
  gboolean              bottom_up;
  GHashTable           *marked_keys;    /* path key set */

  const HpCallNode     *pending_select; /* waits for the sort to settle */
  const HpCallNode     *far_select;     /* waits for its rows to be made */
  gulong                pending_handler;
  GtkSortListModel     *pending_model;
  guint                 scroll_source;
  guint                 scroll_position;
  guint                 scroll_below;  /* rows under it to show too */
  guint                 focus_tick;     /* moves the keyboard focus to the selected row */
  guint                 focus_frames;

  char                 *search;
  GPtrArray            *matches;        /* const HpCallNode*, of the shown tree */
  guint                 reveal_tick;    /* expands to the next match each frame */
  guint                 reveal_next;
  guint                 match_index;
  GCancellable         *search_cancellable;

  /* asked for bottom-up while a worker builds that tree of a big profile */
  gboolean              waiting_bottom_up;
  GCancellable         *bottom_up_cancellable;

  gboolean              preparing;      /* building the hidden tree: no signals */
  gboolean              unselecting;    /* on the way to another row: no signal */
  guint                 prepare_source;
  guint                 grow_tick;
};

static inline TreeModels *
hp_call_tree_view_current (HpCallTreeView *self)
{
  return &self->trees[self->bottom_up ? 1 : 0];
}

/* The tree opens rows by itself (the hottest path, a selection made in
 * another view, a search's matches) this many levels deep at most. GTK's
 * tree list model recounts its rows through every expanded level, once a
 * level on the C stack, and expanding level after level costs the square
 * of the depth: a hostile capture 100 000 frames deep crashed the window
 * with a 1 MiB stack (8 MiB held, at 30 s). Deeper rows are opened by
 * hand; the tree says so (depth_note). Real stacks stop far above this
 * (perf keeps 127 frames unless told otherwise). */
#define MAX_OPEN_DEPTH 1000

/* Expands the ancestors of @node, root first, until @deadline (monotonic
 * time; *@finished says whether it got there), and returns its row of the
 * tree list model. A node deeper than MAX_OPEN_DEPTH gives the row of its
 * ancestor at that depth. */
GtkTreeListRow *hp_call_tree_view_expand_to_within (HpCallTreeView   *self,
                                                    const HpCallNode *node,
                                                    gint64            deadline,
                                                    gboolean         *finished);

G_END_DECLS
