/* hp-flame-graph.c - the boxes of a flame graph, laid out once per profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * This file owns the geometry of the flame graph that the window draws and
 * `hotpath-cli flamegraph` writes as SVG: where each call-tree node's box
 * lies, in samples along x and in levels along y, and which boxes are worth
 * drawing at a given scale.
 *
 * The layout is made once per profile, in one iterative preorder walk of
 * the tree (no recursion: a 10,000-deep recursion is a 10,000-deep tree),
 * into one flat array. Children start at their parent's left edge, widest
 * first (the tree keeps them sorted by total), so the parent's self time
 * is the gap at its right end and the hottest path runs along the left.
 * Preorder with each box knowing where its subtree ends makes the two
 * things done per frame cheap: culling skips a too-narrow box's whole
 * subtree in one step, and hit-testing descends one level per step.
 * Zooming and hovering read this array; they never lay out again
 * (docs/ARCHITECTURE.md, How to add a view).
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include "analysis/hp-block-pool.h"
#include "analysis/hp-flame-graph.h"

struct _HpFlameGraph {
  HpProfile *profile;
  gboolean   bottom_up;
  HpFlameBox *boxes;  /* preorder */
  guint       n_boxes;
  gsize       boxes_size;
  guint       depth;
};

typedef struct {
  guint   index;       /* of the node's box */
  guint   next_child;
  guint64 child_x;
} Pending;

HpFlameGraph *
hp_flame_graph_new (HpProfile *profile,
                    gboolean   bottom_up)
{
  HpFlameGraph *self;
  const HpCallNode *root;
  g_autoptr(GArray) pending = NULL;
  HpFlameBox box = { 0 };

  g_return_val_if_fail (profile != NULL, NULL);

  self = g_new0 (HpFlameGraph, 1);
  self->profile = profile;
  self->bottom_up = bottom_up;
  /* a box per node at most, reserved at once rather than copied at
   * every doubling; from the blocks of the graph it replaces, so that
   * its pages are not faulted in again (hp-block-pool.c) */
  self->boxes = hp_block_alloc (MAX (hp_profile_get_n_nodes (profile, bottom_up), 1) * sizeof (HpFlameBox),
                                &self->boxes_size);
  root = bottom_up ? hp_profile_get_bottom_up (profile) : hp_profile_get_top_down (profile);

  pending = g_array_new (FALSE, FALSE, sizeof (Pending));
  box.node = root;
  box.width = root->total;
  box.hot = TRUE;
  self->boxes[self->n_boxes++] = box;
  g_array_append_val (pending, ((Pending) { 0, 0, 0 }));

  while (pending->len > 0)
    {
      Pending *top = &g_array_index (pending, Pending, pending->len - 1);
      HpFlameBox *parent = &self->boxes[top->index];
      const HpCallNode *child;
      HpFlameBox child_box = { 0 };
      Pending next;

      if (parent->node->children == NULL || top->next_child >= parent->node->children->len)
        {
          parent->end = self->n_boxes;
          g_array_set_size (pending, pending->len - 1);
          continue;
        }
      child = g_ptr_array_index (parent->node->children, top->next_child);
      top->next_child++;
      if (child->total == 0)
        continue;

      child_box.node = child;
      child_box.x = top->child_x;
      child_box.width = child->total;
      child_box.depth = parent->depth + 1;
      /* children are sorted by total, widest first */
      child_box.hot = parent->hot && top->next_child == 1;
      top->child_x += child->total;
      self->depth = MAX (self->depth, child_box.depth);

      next.index = self->n_boxes;
      next.next_child = 0;
      next.child_x = child_box.x;
      g_assert ((self->n_boxes + 1) * sizeof (HpFlameBox) <= self->boxes_size);
      self->boxes[self->n_boxes++] = child_box;
      g_array_append_val (pending, next);  /* @top is stale from here */
    }

  return self;
}

void
hp_flame_graph_free (HpFlameGraph *self)
{
  if (self == NULL)
    return;
  hp_block_free (self->boxes, self->boxes_size);
  g_free (self);
}

HpProfile *
hp_flame_graph_get_profile (HpFlameGraph *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->profile;
}

gboolean
hp_flame_graph_is_bottom_up (HpFlameGraph *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->bottom_up;
}

const HpFlameBox *
hp_flame_graph_get_boxes (HpFlameGraph *self,
                          guint        *n_boxes)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_boxes != NULL, NULL);

  *n_boxes = self->n_boxes;
  return self->boxes;
}

guint
hp_flame_graph_get_depth (HpFlameGraph *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->depth;
}

gint
hp_flame_graph_find_node (HpFlameGraph     *self,
                          const HpCallNode *node)
{
  g_return_val_if_fail (self != NULL, -1);

  for (guint i = 0; i < self->n_boxes; i++)
    if (self->boxes[i].node == node)
      return (gint) i;
  return -1;
}

void
hp_flame_graph_visit (HpFlameGraph     *self,
                      guint             zoom,
                      gdouble           min_width,
                      HpFlameVisitFunc  func,
                      gpointer          user_data)
{
  const HpFlameBox *boxes;
  guint i, end;

  g_return_if_fail (self != NULL);
  g_return_if_fail (zoom < self->n_boxes);
  g_return_if_fail (func != NULL);

  boxes = self->boxes;
  end = boxes[zoom].end;
  i = zoom;
  while (i < end)
    {
      const HpFlameBox *b = &boxes[i];
      HpFlameBox merged = { 0 };
      guint j;

      if ((gdouble) b->width >= min_width)
        {
          func (b, user_data);
          i++;
          continue;
        }

      /* A run of narrow siblings (the next sibling of a box starts where
       * its subtree ends, at the same depth). */
      merged.x = b->x;
      merged.depth = b->depth;
      for (j = i; j < end && boxes[j].depth == b->depth && (gdouble) boxes[j].width < min_width; j = boxes[j].end)
        merged.width += boxes[j].width;
      merged.end = j;
      if (i != zoom && (gdouble) merged.width >= min_width)
        func (&merged, user_data);
      i = j;
    }
}

gint
hp_flame_graph_hit (HpFlameGraph *self,
                    guint         zoom,
                    guint64       x,
                    guint         depth)
{
  const HpFlameBox *boxes;
  guint i;

  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (zoom < self->n_boxes, -1);

  boxes = self->boxes;
  i = zoom;
  if (depth < boxes[i].depth || x < boxes[i].x || x - boxes[i].x >= boxes[i].width)
    return -1;
  while (boxes[i].depth < depth)
    {
      guint c = i + 1;
      gint found = -1;

      for (; c < boxes[i].end; c = boxes[c].end)
        if (x >= boxes[c].x && x - boxes[c].x < boxes[c].width)
          {
            found = (gint) c;
            break;
          }
      if (found < 0)
        return -1;
      i = (guint) found;
    }
  return (gint) i;
}

static void
hsv_to_rgb (gdouble h,
            gdouble s,
            gdouble v,
            gdouble rgb[3])
{
  gdouble f = h * 6.0 - (gint) (h * 6.0);
  gdouble p = v * (1 - s), q = v * (1 - f * s), t = v * (1 - (1 - f) * s);

  switch ((gint) (h * 6.0) % 6)
    {
    case 0: rgb[0] = v; rgb[1] = t; rgb[2] = p; break;
    case 1: rgb[0] = q; rgb[1] = v; rgb[2] = p; break;
    case 2: rgb[0] = p; rgb[1] = v; rgb[2] = t; break;
    case 3: rgb[0] = p; rgb[1] = q; rgb[2] = v; break;
    case 4: rgb[0] = t; rgb[1] = p; rgb[2] = v; break;
    default: rgb[0] = v; rgb[1] = p; rgb[2] = q; break;
    }
}

/* FNV-1a: stable across runs and machines, unlike a seeded hash. */
static guint32
stable_hash (const char *s)
{
  guint32 h = 2166136261u;

  for (; s != NULL && *s; s++)
    h = (h ^ (guchar) *s) * 16777619u;
  return h;
}

void
hp_flame_graph_box_color (HpFlameGraph     *self,
                          const HpFlameBox *box,
                          HpFlameColors     scheme,
                          gdouble           rgb[3])
{
  gint64 function_id;
  guint32 h;

  g_return_if_fail (self != NULL);
  g_return_if_fail (box != NULL);

  function_id = box->node != NULL ? box->node->function_id : 0;
  if (function_id == 0)
    {
      rgb[0] = rgb[1] = rgb[2] = box->node != NULL ? 0.80 : 0.72;
      return;
    }

  if (scheme == HP_FLAME_COLORS_MODULE)
    {
      h = stable_hash (hp_profile_get_module_name (self->profile, function_id));
      hsv_to_rgb ((h % 360) / 360.0, 0.38, 0.93, rgb);
      return;
    }

  /* Reds to yellows, as flamegraph.pl's "hot" palette: the name picks the
   * shade, so a function has one colour wherever it appears. */
  h = stable_hash (hp_profile_get_function_name (self->profile, function_id));
  rgb[0] = (205 + (h & 0xff) * 50 / 255) / 255.0;
  rgb[1] = (((h >> 8) & 0xff) * 230 / 255) / 255.0;
  rgb[2] = (((h >> 16) & 0xff) * 55 / 255) / 255.0;
}
