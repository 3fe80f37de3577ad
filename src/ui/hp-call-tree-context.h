/* hp-call-tree-context.h - what the rows of one call tree share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "document/hp-loaded-capture.h"

G_BEGIN_DECLS

typedef struct _HpCallRow HpCallRow;

/* One per shown tree (a profile, top-down or bottom-up). Main thread
 * only. Rows register here while alive, so a change of the marks or of
 * the search reaches the rows that exist, and only those. */
typedef struct {
  HpLoadedProfile *profile;
  gboolean         bottom_up;
  guint64          n_samples;
  guint            count_chars; /* characters of the widest count (n_samples, formatted) */
  GHashTable      *marked;     /* HpCallNode* with a summary */
  GHashTable      *hot;        /* HpCallNode* on the hottest path */
  GHashTable      *rows;       /* HpCallNode* -> HpCallRow* (not owned) */
  char            *search;     /* casefolded, NULL when not searching */
  const HpCallNode *current_match; /* marked apart from the other matches */
} HpCallTreeContext;

HpCallTreeContext *hp_call_tree_context_new      (HpLoadedProfile   *profile,
                                                  gboolean           bottom_up);
HpCallTreeContext *hp_call_tree_context_ref      (HpCallTreeContext *self);
void               hp_call_tree_context_unref    (HpCallTreeContext *self);

const HpCallNode  *hp_call_tree_context_get_root (HpCallTreeContext *self);

/* The row of @node, when one exists now (NULL otherwise). */
HpCallRow         *hp_call_tree_context_lookup   (HpCallTreeContext *self,
                                                  const HpCallNode  *node);
void               hp_call_tree_context_set_marked (HpCallTreeContext *self,
                                                    const HpCallNode  *node,
                                                    gboolean           marked);
void               hp_call_tree_context_set_hot  (HpCallTreeContext *self,
                                                  const HpCallNode  *node);
void               hp_call_tree_context_set_search (HpCallTreeContext *self,
                                                    const char        *text);
void               hp_call_tree_context_set_current_match (HpCallTreeContext *self,
                                                           const HpCallNode  *node);
gboolean           hp_call_tree_context_matches  (HpCallTreeContext *self,
                                                  const HpCallNode  *node);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpCallTreeContext, hp_call_tree_context_unref)

G_END_DECLS
