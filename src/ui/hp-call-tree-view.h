/* hp-call-tree-view.h - the call tree: top-down or bottom-up, lazy, sortable
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/hp-loaded-capture.h"

G_BEGIN_DECLS

#define HP_TYPE_CALL_TREE_VIEW (hp_call_tree_view_get_type ())
G_DECLARE_FINAL_TYPE (HpCallTreeView, hp_call_tree_view, HP, CALL_TREE_VIEW, GtkWidget)

/* Shows @profile (NULL: nothing), expanding its hottest path. When
 * @select_key is a path of the new profile, that path is selected
 * instead of the hottest one (a change of thread filter keeps the
 * selection). */
void              hp_call_tree_view_set_profile      (HpCallTreeView  *self,
                                                      HpLoadedProfile *profile,
                                                      const char      *select_key);
HpLoadedProfile  *hp_call_tree_view_get_profile      (HpCallTreeView  *self);

gboolean          hp_call_tree_view_get_bottom_up    (HpCallTreeView  *self);
void              hp_call_tree_view_set_bottom_up    (HpCallTreeView  *self,
                                                      gboolean         bottom_up);
/* The largest profile (in top-down nodes) whose bottom-up tree is built
 * on the main thread when first shown; a bigger one is built in a worker
 * and the view switches when it is there. 50 000 by default; the display
 * tests lower it. */
void              hp_call_tree_view_set_bottom_up_at_once (guint      max_nodes);

/* The selected node of the shown tree (top-down or bottom-up), or NULL. */
const HpCallNode *hp_call_tree_view_get_selected     (HpCallTreeView  *self);
void              hp_call_tree_view_show_selected    (HpCallTreeView  *self);
/* Expands the ancestors of @node (of the shown tree), selects and shows it. */
void              hp_call_tree_view_select_node      (HpCallTreeView  *self,
                                                      const HpCallNode *node);
/* Selects the top-down path with this summary key, switching to
 * top-down; FALSE when the profile has no such path. */
gboolean          hp_call_tree_view_select_path_key  (HpCallTreeView  *self,
                                                      const char      *key);
/* Selects the hottest top-down node of @function_id. */
gboolean          hp_call_tree_view_select_function  (HpCallTreeView  *self,
                                                      gint64           function_id);

/* Marks rows whose top-down path has a summary. */
void              hp_call_tree_view_set_marked       (HpCallTreeView  *self,
                                                      const char      *key,
                                                      gboolean         marked);
gboolean          hp_call_tree_view_is_marked        (HpCallTreeView  *self,
                                                      const HpCallNode *node);

/* Highlights functions whose name contains @text at once, then finds
 * the matching nodes in a worker, reveals the first ones, selects the
 * first and emits "search-done". */
void              hp_call_tree_view_search           (HpCallTreeView  *self,
                                                      const char      *text);
/* the rows the view holds (and makes widgets for) of the shown tree */
guint             hp_call_tree_view_get_n_held       (HpCallTreeView  *self);
/* a selection waits for the sort to settle or for its row to be made */
gboolean          hp_call_tree_view_is_selecting     (HpCallTreeView  *self);
gboolean          hp_call_tree_view_is_searching     (HpCallTreeView  *self);
/* Selects the next (or previous) match. */
void              hp_call_tree_view_next_match       (HpCallTreeView  *self,
                                                      gboolean         backwards);
void              hp_call_tree_view_get_search_status (HpCallTreeView *self,
                                                       guint          *index,
                                                       guint          *n_matches);

/* For tests and benchmarks: the sorted list the column view shows
 * (GtkTreeListRow items) */
GListModel       *hp_call_tree_view_get_model        (HpCallTreeView  *self);
/* For tests: the caption over the tree, and the shown tree's ratio column */
const char       *hp_call_tree_view_get_caption      (HpCallTreeView  *self);
/* The note shown when the selection was too deep to open (its ancestor
 * is selected instead), or NULL. */
const char       *hp_call_tree_view_get_depth_note   (HpCallTreeView  *self);
GtkColumnViewColumn *hp_call_tree_view_get_ratio_column (HpCallTreeView *self);
/* For tests: what the view says in place of an empty tree; NULL when it
 * shows a tree */
const char       *hp_call_tree_view_get_empty_text   (HpCallTreeView  *self);

G_END_DECLS
