/* hp-flame-graph.h - the boxes of a flame graph, laid out once per profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "analysis/hp-profile.h"

G_BEGIN_DECLS

/* One box: a call-tree node at a depth, placed along the x axis in
 * samples. Boxes are stored in preorder, the root (all samples) first, so
 * a box's subtree is the range [index, end). */
typedef struct {
  const HpCallNode *node;   /* NULL for a run of merged narrow boxes */
  guint64           x;      /* samples left of it, from the root's left edge */
  guint64           width;  /* samples: the node's total */
  guint             depth;  /* 0 for the root */
  guint             end;    /* index of the first box after its subtree */
  gboolean          hot;    /* on the hottest path: the widest child at every level */
} HpFlameBox;

typedef enum {
  HP_FLAME_COLORS_HOT,     /* warm hues, stable per function name (as flamegraph.pl) */
  HP_FLAME_COLORS_MODULE,  /* one hue per module */
} HpFlameColors;

typedef struct _HpFlameGraph HpFlameGraph;

/* Lays out the top-down tree of @profile, or its bottom-up tree (callers
 * above each function) with @bottom_up. The profile must outlive the
 * graph. */
HpFlameGraph     *hp_flame_graph_new          (HpProfile        *profile,
                                               gboolean          bottom_up);
void              hp_flame_graph_free         (HpFlameGraph     *self);

HpProfile        *hp_flame_graph_get_profile  (HpFlameGraph     *self);
gboolean          hp_flame_graph_is_bottom_up (HpFlameGraph     *self);
const HpFlameBox *hp_flame_graph_get_boxes    (HpFlameGraph     *self,
                                               guint            *n_boxes);
/* Depth of the deepest box (the root is 0). */
guint             hp_flame_graph_get_depth    (HpFlameGraph     *self);
/* The box of @node, or -1 when it has none. */
gint              hp_flame_graph_find_node    (HpFlameGraph     *self,
                                               const HpCallNode *node);

typedef void (*HpFlameVisitFunc) (const HpFlameBox *box,
                                  gpointer          user_data);

/* Visits what is worth drawing of the subtree of box @zoom: every box at
 * least @min_width samples wide, in preorder. A box narrower than that is
 * not drawn and neither is its subtree; a run of such siblings whose
 * widths add up to @min_width or more is visited as one merged box (node
 * NULL), so that the samples in them stay visible. */
void              hp_flame_graph_visit        (HpFlameGraph     *self,
                                               guint             zoom,
                                               gdouble           min_width,
                                               HpFlameVisitFunc  func,
                                               gpointer          user_data);

/* The box of the subtree of @zoom at @depth that covers sample offset @x,
 * or -1. */
gint              hp_flame_graph_hit          (HpFlameGraph     *self,
                                               guint             zoom,
                                               guint64           x,
                                               guint             depth);

/* The fill colour of a box for @scheme, stable for a name across runs and
 * captures: red, green and blue in 0..1. Merged boxes are grey. */
void              hp_flame_graph_box_color    (HpFlameGraph     *self,
                                               const HpFlameBox *box,
                                               HpFlameColors     scheme,
                                               gdouble           rgb[3]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpFlameGraph, hp_flame_graph_free)

G_END_DECLS
