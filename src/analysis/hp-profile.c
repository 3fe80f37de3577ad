/* hp-profile.c - what a capture says: functions, call tree, callers/callees
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * This file owns the numbers every view shows: per-function self and total
 * samples, the top-down and bottom-up call trees, and the callers and
 * callees of a function, all computed from an HpCaptureData, optionally for
 * a set of threads only.
 *
 * Everything is derived from the stack prefix tree, never from individual
 * samples: the samples are first summed per stack node (cnt = samples whose
 * leaf is the node, sub = samples whose stack passes through it), and
 * because parent_id < id for every node, one pass backwards sums children
 * into parents. Each tree is then built by one depth-first expansion (see
 * Tree): the top-down one over the stacks, crediting the functions and
 * call pairs on the way; the bottom-up one over the leaf stacks with
 * samples, step by step up to their roots. The bottom-up tree costs as
 * much as the top-down one and is seldom shown: it is built when first
 * asked for (hp_profile_get_bottom_up), from what the build kept, unless
 * hp_profile_new_full() is told to build it at once (then in a second
 * thread: the two share only their read-only input).
 * A tree's nodes, and the lists of their children, are each one block
 * (see CallTree): an allocation per node once cost a third of the time.
 *
 * Each stack node is one step of a call path, inline frames included: an
 * inlined function is its own step below the function it was inlined into.
 *
 * Counting once per sample under recursion: a function f (or a caller ->
 * callee pair) may occur several times on one path. Each sample is then
 * credited at the occurrence nearest the root only: a node whose function
 * (or pair with its parent) also occurs among its ancestors contributes
 * nothing to total (or to the edge), so total = sum of sub over the
 * topmost occurrences.
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include <string.h>

#include "analysis/hp-block-pool.h"
#include "analysis/hp-profile.h"

/* Stack and node indices fit 32 bits; this marks none. */
#define NONE G_MAXUINT32

/* A stack's parent and function, packed: the walks over the stacks touch
 * only this. */
typedef struct {
  guint32 parent;
  guint32 function;
} Up;

/* A finished call tree in three blocks: the nodes, root first; the
 * children lists of the nodes that have children; and the pointers those
 * lists hold, every node but the root once. */
typedef struct {
  HpCallNode     *nodes;
  guint           n_nodes;
  HpCallChildren *children;
  HpCallNode    **pointers;
  gsize           nodes_size;  /* the blocks' sizes, for hp_block_free() */
  gsize           children_size;
  gsize           pointers_size;
} CallTree;

struct _HpProfile {
  const HpCaptureData *data;
  guint64 n_samples;

  /* Samples per leaf stack node for the chosen threads, kept for the
   * per-line counts of annotated source (hp-source.c) */
  guint64 *stack_samples;
  gsize stack_samples_size;
  guint n_stacks;

  /* indexed by function id, [0] unused */
  HpFunctionStats *stats;
  guint n_functions;
  GArray *by_self;   /* HpFunctionStats, lazily */
  GArray *by_total;

  /* Each tree is one array of nodes, its root first (see Tree). The
   * bottom-up one is built on demand under bottom_up_lock, from up and
   * rank, which are freed then; bottom_up_built is set once it is. */
  CallTree top_down;
  CallTree bottom_up;
  GMutex bottom_up_lock;
  gint bottom_up_built;
  gpointer up;
  gsize up_size;
  guint32 *rank;
  gsize rank_size;

  /* indexed by function id: GArray of HpCallEdge, NULL when none */
  GArray **callers;
  GArray **callees;
};

/* What both trees are built from; read-only while they are built. */
typedef struct {
  const Up      *up;
  const guint64 *cnt;
  const guint64 *sub;
  guint          n_stacks;
  guint          n_functions;
  guint64        n_samples;
  const guint32 *rank;
} Input;

static const char *
function_name (HpProfile *self,
               gint64     function_id)
{
  if (function_id <= 0 || (guint) function_id >= self->n_functions)
    return "";
  return g_array_index (self->data->functions, HpCaptureFunction, function_id).name;
}

static int
compare_function_ids (gconstpointer a,
                      gconstpointer b,
                      gpointer      user_data)
{
  guint32 fa = *(const guint32 *) a;
  guint32 fb = *(const guint32 *) b;
  int cmp;

  if ((cmp = g_strcmp0 (function_name (user_data, fa), function_name (user_data, fb))) != 0)
    return cmp;
  return fa < fb ? -1 : fa > fb;
}

/* Siblings and edges with equal samples are ordered by name, then by id.
 * Ranking the functions so once makes that an integer comparison, not a
 * string comparison for each of the million nodes sorted. */
static guint32 *
rank_functions (HpProfile *self,
                gsize     *rank_size)
{
  gsize order_size;
  guint32 *order = hp_block_alloc (self->n_functions * sizeof (guint32), &order_size);
  guint32 *rank = hp_block_alloc (self->n_functions * sizeof (guint32), rank_size);

  for (guint f = 0; f < self->n_functions; f++)
    order[f] = f;
  g_qsort_with_data (order, self->n_functions, sizeof (guint32), compare_function_ids, self);
  for (guint i = 0; i < self->n_functions; i++)
    rank[order[i]] = i;
  hp_block_free (order, order_size);
  return rank;
}

static int
compare_nodes (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const HpCallNode *na = *(HpCallNode * const *) a;
  const HpCallNode *nb = *(HpCallNode * const *) b;
  const guint32 *rank = user_data;

  if (na->total != nb->total)
    return na->total > nb->total ? -1 : 1;
  return rank[na->function_id] < rank[nb->function_id] ? -1 : rank[na->function_id] > rank[nb->function_id];
}

static int
compare_edges (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const HpCallEdge *ea = a;
  const HpCallEdge *eb = b;
  const guint32 *rank = user_data;

  if (ea->samples != eb->samples)
    return ea->samples > eb->samples ? -1 : 1;
  return rank[ea->function_id] < rank[eb->function_id] ? -1 : rank[ea->function_id] > rank[eb->function_id];
}

/* Trees ---------------------------------------------------------------- */

/* A call tree under construction. The tree is expanded depth first, and
 * expanding a node creates all its children at once, so they are
 * consecutive: finding a child by function needs no hash table, only a
 * slot per function that remembers the child it last got and under which
 * parent; and a node needs no pointers until the tree is complete
 * (tree_finish), start[] saying where its children begin. Until then a
 * node's children field counts its children, and head[] holds the first
 * of the stacks (or samples) that reach it, chained by the caller. The
 * caller knows how many nodes the tree can have at most, so the nodes
 * never move.
 *
 * Depth first rather than breadth first because the store numbers stacks
 * in the order it met them, so a call chain is mostly consecutive ids
 * (92% of the stacks of the 1M-sample stress capture are their parent's
 * id + 1): going down one path keeps the stack arrays in cache, where
 * breadth first jumps between chains at every step. */
typedef struct {
  guint32 parent;
  guint32 child;
} ChildSlot;

typedef struct {
  HpCallNode *nodes;
  guint32    *head;
  guint32    *start;
  guint       len;
  guint       size;
  ChildSlot  *slots;  /* indexed by function id */
  gsize       nodes_size;  /* the blocks' sizes */
  gsize       head_size;
  gsize       start_size;
  gsize       slots_size;
} Tree;

/* Every array of a build comes from hp_block_alloc(): the blocks of the
 * profile it replaces, already in memory (hp-block-pool.c). */
static void
tree_init (Tree  *tree,
           gsize  size,
           guint  n_functions)
{
  g_assert (size >= 1 && size < NONE);
  tree->size = size;
  tree->nodes = hp_block_alloc (size * sizeof (HpCallNode), &tree->nodes_size);
  tree->head = hp_block_alloc (size * sizeof (guint32), &tree->head_size);
  tree->start = hp_block_alloc (size * sizeof (guint32), &tree->start_size);
  tree->slots = hp_block_alloc (n_functions * sizeof (ChildSlot), &tree->slots_size);
  memset (tree->slots, 0xff, n_functions * sizeof (ChildSlot));  /* parent NONE */
  tree->nodes[0] = (HpCallNode) { 0, 0, 0, NULL, NULL };
  tree->head[0] = NONE;
  tree->len = 1;
}

static inline guint32
tree_child (Tree    *tree,
            guint32  parent,
            guint32  function)
{
  ChildSlot *slot = &tree->slots[function];
  HpCallNode *node;

  if (slot->parent == parent)
    return slot->child;

  g_assert (tree->len < tree->size);
  slot->parent = parent;
  slot->child = tree->len++;
  tree->nodes[slot->child] = (HpCallNode) { function, 0, 0, NULL, NULL };
  tree->head[slot->child] = NONE;
  node = &tree->nodes[parent];
  node->children = GSIZE_TO_POINTER (GPOINTER_TO_SIZE (node->children) + 1);
  return slot->child;
}

/* Links the nodes (children lists, sorted, and parent pointers) into
 * @out; the tree can then only be freed. Every node but the root is the
 * child of one node, and the children of a node are consecutive
 * (start[]), so the pointer to node n goes to pointers[n - 1] before
 * its siblings and it are sorted. */
static void
tree_finish (Tree          *tree,
             const guint32 *rank,
             CallTree      *out)
{
  HpCallNode *nodes = tree->nodes;
  guint n_parents = 0, p = 0;

  for (guint i = 0; i < tree->len; i++)
    if (nodes[i].children != NULL)
      n_parents++;
  out->nodes = nodes;
  out->nodes_size = tree->nodes_size;
  out->n_nodes = tree->len;
  out->children = hp_block_alloc (MAX (n_parents, 1) * sizeof (HpCallChildren), &out->children_size);
  out->pointers = hp_block_alloc (MAX (tree->len - 1, 1) * sizeof (HpCallNode *), &out->pointers_size);

  for (guint i = 0; i < tree->len; i++)
    {
      gsize n = GPOINTER_TO_SIZE (nodes[i].children);
      HpCallChildren *children;

      if (n == 0)
        continue;
      g_assert (tree->start[i] >= 1 && tree->start[i] + n <= tree->len);
      children = &out->children[p++];
      children->pdata = &out->pointers[tree->start[i] - 1];
      children->len = n;
      for (guint k = 0; k < n; k++)
        {
          HpCallNode *child = &nodes[tree->start[i] + k];

          child->parent = &nodes[i];
          children->pdata[k] = child;
        }
      if (n > 1)
        g_qsort_with_data (children->pdata, n, sizeof (HpCallNode *), compare_nodes, (gpointer) rank);
      nodes[i].children = children;
    }

  hp_block_free (g_steal_pointer (&tree->head), tree->head_size);
  hp_block_free (g_steal_pointer (&tree->start), tree->start_size);
  hp_block_free (g_steal_pointer (&tree->slots), tree->slots_size);
  tree->nodes = NULL;
}

static void
call_tree_clear (CallTree *tree)
{
  hp_block_free (g_steal_pointer (&tree->nodes), tree->nodes_size);
  hp_block_free (g_steal_pointer (&tree->children), tree->children_size);
  hp_block_free (g_steal_pointer (&tree->pointers), tree->pointers_size);
  tree->n_nodes = 0;
}

/* One level of a depth-first walk: the children of @node left to expand. */
typedef struct {
  guint32 next;
  guint32 end;
  guint32 node;
  guint32 prev_same;  /* top-down: depth of the nearest ancestor of the same function, or NONE */
} Step;

typedef struct {
  Step  *steps;
  guint  len;
  guint  size;
} Path;

static inline void
path_push (Path *path,
           Step  step)
{
  if (G_UNLIKELY (path->len == path->size))
    {
      path->size = MAX (64, path->size * 2);
      path->steps = g_renew (Step, path->steps, path->size);
    }
  path->steps[path->len++] = step;
}

/* Top-down ------------------------------------------------------------- */

/* Samples per (caller, callee) function pair: open addressing on the
 * pair packed in one key (function ids fit 32 bits, and a caller is
 * never 0, so 0 marks a free slot). */
typedef struct {
  guint64 key;
  guint64 samples;
} EdgeSlot;

typedef struct {
  EdgeSlot *slots;
  gsize     mask;
  gsize     used;
} EdgeTable;

static inline gsize
edge_slot (guint64 key,
           gsize   mask)
{
  guint64 h = key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  return (gsize) (h ^ (h >> 32)) & mask;
}

static void
edge_table_add (EdgeTable *table,
                guint32    caller,
                guint32    callee,
                guint64    samples)
{
  guint64 key = (guint64) caller << 32 | callee;
  gsize i;

  for (i = edge_slot (key, table->mask); table->slots[i].key != 0; i = (i + 1) & table->mask)
    if (table->slots[i].key == key)
      {
        table->slots[i].samples += samples;
        return;
      }
  table->slots[i].key = key;
  table->slots[i].samples = samples;

  if (++table->used * 2 > table->mask)
    {
      EdgeSlot *old = table->slots;
      gsize old_size = table->mask + 1;

      table->mask = old_size * 2 - 1;
      table->slots = g_new0 (EdgeSlot, old_size * 2);
      for (gsize o = 0; o < old_size; o++)
        if (old[o].key != 0)
          {
            for (i = edge_slot (old[o].key, table->mask); table->slots[i].key != 0; i = (i + 1) & table->mask)
              ;
            table->slots[i] = old[o];
          }
      g_free (old);
    }
}

static void
add_edge (GArray **table,
          gint64   function_id,
          gint64   other,
          guint64  samples)
{
  HpCallEdge e = { other, samples };

  if (table[function_id] == NULL)
    table[function_id] = g_array_new (FALSE, FALSE, sizeof (HpCallEdge));
  g_array_append_val (table[function_id], e);
}

static void
edges_to_callers_callees (HpProfile     *self,
                          EdgeTable     *edges,
                          const guint32 *rank)
{
  for (gsize i = 0; i <= edges->mask; i++)
    if (edges->slots[i].key != 0)
      {
        guint32 caller = edges->slots[i].key >> 32;
        guint32 callee = edges->slots[i].key & G_MAXUINT32;

        add_edge (self->callees, caller, callee, edges->slots[i].samples);
        add_edge (self->callers, callee, caller, edges->slots[i].samples);
      }
  for (guint f = 0; f < self->n_functions; f++)
    {
      if (self->callers[f] != NULL)
        g_array_sort_with_data (self->callers[f], compare_edges, (gpointer) rank);
      if (self->callees[f] != NULL)
        g_array_sort_with_data (self->callees[f], compare_edges, (gpointer) rank);
    }
}

/* The top-down tree: the node of a stack is the child of its parent's
 * node for its function, so the children of a node are made from the
 * child stacks of the stacks merged into it; only stacks with samples
 * below them count.
 *
 * A node's counts are complete once its parent is expanded, so the walk
 * credits the functions and caller/callee pairs as it reaches a node.
 * It keeps, per function, the depth of its deepest occurrence on the
 * current path, and each level the depth of the occurrence above it:
 * whether a function or a pair recurs above a node then costs a look at
 * the occurrences of that function, not a walk to the root from every
 * node (13 steps on average over the 700 000 stacks of the stress
 * capture). */
static void
build_top_down (HpProfile   *self,
                const Input *in)
{
  const Up *up = in->up;
  gsize first_size, sibling_size, next_size, last_size;
  guint32 *first = hp_block_alloc (in->n_stacks * sizeof (guint32), &first_size);      /* first child stack */
  guint32 *sibling = hp_block_alloc (in->n_stacks * sizeof (guint32), &sibling_size);  /* next child stack of the same parent */
  guint32 *next_in_node = hp_block_alloc (in->n_stacks * sizeof (guint32), &next_size);
  guint32 *last = hp_block_alloc (in->n_functions * sizeof (guint32), &last_size);
  Path path = { NULL, 0, 0 };
  EdgeTable edges = { g_new0 (EdgeSlot, 256), 255, 0 };
  guint size = 1;
  guint32 c = 0;
  Tree tree;

  memset (first, 0xff, in->n_stacks * sizeof (guint32));
  for (guint s = in->n_stacks - 1; s >= 1; s--)
    if (in->sub[s] > 0)
      {
        sibling[s] = first[up[s].parent];
        first[up[s].parent] = s;
        size++;
      }
  memset (last, 0xff, in->n_functions * sizeof (guint32));

  tree_init (&tree, size, in->n_functions);
  tree.nodes[0].self = in->cnt[0];
  tree.nodes[0].total = in->n_samples;
  tree.head[0] = 0;
  next_in_node[0] = NONE;

  for (;;)
    {
      Step step;

      /* expand c */
      tree.start[c] = tree.len;
      for (guint32 s = tree.head[c]; s != NONE; s = next_in_node[s])
        for (guint32 k = first[s]; k != NONE; k = sibling[k])
          {
            guint32 n = tree_child (&tree, c, up[k].function);

            tree.nodes[n].self += in->cnt[k];
            tree.nodes[n].total += in->sub[k];
            next_in_node[k] = tree.head[n];
            tree.head[n] = k;
          }
      step = (Step) { tree.start[c], tree.len, c, NONE };
      if (c != 0)
        {
          guint32 f = tree.nodes[c].function_id;

          step.prev_same = last[f];
          last[f] = path.len;
        }
      path_push (&path, step);

      /* the next node to reach, leaving the levels that are done */
      for (;;)
        {
          Step *top = &path.steps[path.len - 1];
          guint32 depth = path.len;
          guint32 f, pf;
          gboolean seen_f, seen_pair;

          if (top->next < top->end)
            {
              c = top->next++;
              f = tree.nodes[c].function_id;
              pf = tree.nodes[top->node].function_id;

              /* Is this the occurrence nearest the root of f, and of
               * (f's caller, f)? A root has no caller. */
              seen_f = last[f] != NONE;
              seen_pair = depth == 1;
              for (guint32 a = last[f]; a != NONE && !seen_pair; a = path.steps[a].prev_same)
                if (a >= 2 && tree.nodes[path.steps[a - 1].node].function_id == pf)
                  seen_pair = TRUE;

              self->stats[f].self += tree.nodes[c].self;
              if (!seen_f)
                self->stats[f].total += tree.nodes[c].total;
              if (!seen_pair)
                edge_table_add (&edges, pf, f, tree.nodes[c].total);
              break;
            }
          if (depth > 1)
            last[tree.nodes[top->node].function_id] = top->prev_same;
          if (--path.len == 0)
            goto done;
        }
    }

done:
  g_free (path.steps);
  hp_block_free (first, first_size);
  hp_block_free (sibling, sibling_size);
  hp_block_free (next_in_node, next_size);
  hp_block_free (last, last_size);
  edges_to_callers_callees (self, &edges, in->rank);
  g_free (edges.slots);
  tree_finish (&tree, in->rank, &self->top_down);
}

/* Bottom-up ------------------------------------------------------------ */

/* The samples of one leaf stack on their way up the bottom-up tree. */
typedef struct {
  guint32 stack;  /* the stack whose function the next step is, 0 at the end */
  guint32 next;   /* next item in the same node */
  guint64 samples;
} Item;

typedef struct {
  const Input *in;
  CallTree     tree;
} BottomUp;

/* The bottom-up tree: each leaf's path, leaf first. Every node counts the
 * samples whose stack ends with its inverted path, as self and total.
 * Expanding a node passes the samples that reached it on to its children
 * for their callers. Runs in its own thread, reading only the input. */
static gpointer
build_bottom_up (gpointer user_data)
{
  BottomUp *job = user_data;
  const Input *in = job->in;
  const Up *up = in->up;
  Item *items;
  gsize items_size, depth_size;
  guint32 *depth = hp_block_alloc (in->n_stacks * sizeof (guint32), &depth_size);
  Path path = { NULL, 0, 0 };
  gsize size = 1;
  guint n_items = 0;
  guint32 c = 0;
  Tree tree;

  /* at most a node per step of each sampled stack */
  depth[0] = 0;
  for (guint s = 1; s < in->n_stacks; s++)
    {
      depth[s] = depth[up[s].parent] + 1;
      if (in->cnt[s] > 0)
        {
          n_items++;
          size += depth[s];
        }
    }
  hp_block_free (depth, depth_size);
  items = hp_block_alloc (MAX (n_items, 1) * sizeof (Item), &items_size);

  tree_init (&tree, size, in->n_functions);
  tree.nodes[0].self = in->cnt[0];
  tree.nodes[0].total = in->n_samples;
  for (guint s = in->n_stacks - 1, k = 0; s >= 1; s--)
    if (in->cnt[s] > 0)
      {
        items[k] = (Item) { s, tree.head[0], in->cnt[s] };
        tree.head[0] = k++;
      }

  for (;;)
    {
      guint32 next;

      /* expand c */
      tree.start[c] = tree.len;
      for (guint32 k = tree.head[c]; k != NONE; k = next)
        {
          Item *item = &items[k];
          guint32 n;

          next = item->next;
          if (item->stack == 0)
            continue;
          n = tree_child (&tree, c, up[item->stack].function);
          tree.nodes[n].self += item->samples;
          tree.nodes[n].total += item->samples;
          item->stack = up[item->stack].parent;
          item->next = tree.head[n];
          tree.head[n] = k;
        }
      path_push (&path, (Step) { tree.start[c], tree.len, c, NONE });

      /* the next node to expand */
      while (path.len > 0 && path.steps[path.len - 1].next == path.steps[path.len - 1].end)
        path.len--;
      if (path.len == 0)
        break;
      c = path.steps[path.len - 1].next++;
    }
  g_free (path.steps);
  hp_block_free (items, items_size);

  tree_finish (&tree, in->rank, &job->tree);
  return NULL;
}

/* The data comes from hp_capture_load(), which checks references, or from
 * a test; check once here rather than in every loop. */
static gboolean
data_is_consistent (const HpCaptureData *data)
{
  if (data->stacks->len > G_MAXUINT32 / 2 || data->functions->len > G_MAXUINT32 / 2)
    return FALSE;
  for (guint s = 1; s < data->stacks->len; s++)
    {
      const HpCaptureStack *st = &g_array_index (data->stacks, HpCaptureStack, s);

      if (st->parent_id < 0 || st->parent_id >= s ||
          st->frame_id <= 0 || st->frame_id >= data->frames->len)
        return FALSE;
    }
  for (guint f = 1; f < data->frames->len; f++)
    {
      gint64 fid = g_array_index (data->frames, HpCaptureFrame, f).function_id;

      if (fid <= 0 || fid >= data->functions->len)
        return FALSE;
    }
  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      gint64 sid = g_array_index (data->stack_counts, HpCaptureStackCount, i).stack_id;

      if (sid < 0 || sid >= (gint64) MAX (data->stacks->len, 1))
        return FALSE;
    }
  return TRUE;
}

HpProfile *
hp_profile_new (const HpCaptureData *data,
                GHashTable          *tids)
{
  return hp_profile_new_full (data, tids, FALSE);
}

HpProfile *
hp_profile_new_full (const HpCaptureData *data,
                     GHashTable          *tids,
                     gboolean             bottom_up_now)
{
  HpProfile *self;
  const HpCaptureStack *stacks;
  guint n_stacks;
  guint64 *cnt, *sub;
  Up *up;
  guint32 *rank;
  gsize cnt_size, sub_size, up_size, rank_size;
  Input in;
  BottomUp bottom_up;
  GThread *thread;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (data_is_consistent (data), NULL);

  self = g_new0 (HpProfile, 1);
  self->data = data;
  self->n_functions = MAX (data->functions->len, 1);
  self->stats = g_new0 (HpFunctionStats, self->n_functions);
  self->callers = g_new0 (GArray *, self->n_functions);
  self->callees = g_new0 (GArray *, self->n_functions);
  for (guint f = 0; f < self->n_functions; f++)
    self->stats[f].function_id = f;

  n_stacks = MAX (data->stacks->len, 1);
  stacks = (const HpCaptureStack *) (gpointer) data->stacks->data;

  /* Samples per leaf node, for the chosen threads. */
  cnt = hp_block_alloc0 (n_stacks * sizeof (guint64), &cnt_size);
  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);

      if (tids != NULL && !g_hash_table_contains (tids, GINT_TO_POINTER (c->tid)))
        continue;
      cnt[c->stack_id] += c->samples;
      self->n_samples += c->samples;
    }

  /* Samples through each node: children into parents, backwards. */
  sub = hp_block_alloc (n_stacks * sizeof (guint64), &sub_size);
  memcpy (sub, cnt, n_stacks * sizeof (guint64));
  for (guint s = n_stacks - 1; s >= 1; s--)
    sub[stacks[s].parent_id] += sub[s];
  g_assert (sub[0] == self->n_samples);

  up = hp_block_alloc (n_stacks * sizeof (Up), &up_size);
  up[0] = (Up) { 0, 0 };
  for (guint s = 1; s < n_stacks; s++)
    {
      up[s].parent = stacks[s].parent_id;
      up[s].function = g_array_index (data->frames, HpCaptureFrame, stacks[s].frame_id).function_id;
    }

  rank = rank_functions (self, &rank_size);
  in = (Input) { up, cnt, sub, n_stacks, self->n_functions, self->n_samples, rank };

  g_mutex_init (&self->bottom_up_lock);
  if (bottom_up_now)
    {
      /* The two trees share nothing but their read-only input, and take
       * about as long each: build the bottom-up one in a second thread. */
      bottom_up = (BottomUp) { &in, { NULL, 0, NULL, NULL } };
      thread = g_thread_try_new ("hp-bottom-up", build_bottom_up, &bottom_up, NULL);
      if (thread == NULL)
        build_bottom_up (&bottom_up);
      build_top_down (self, &in);
      if (thread != NULL)
        g_thread_join (thread);
      self->bottom_up = bottom_up.tree;
      hp_block_free (up, up_size);
      hp_block_free (rank, rank_size);
      g_atomic_int_set (&self->bottom_up_built, TRUE);
    }
  else
    {
      build_top_down (self, &in);
      /* what the bottom-up tree will be built from, with cnt */
      self->up = up;
      self->up_size = up_size;
      self->rank = rank;
      self->rank_size = rank_size;
    }

  self->stack_samples = cnt;
  self->stack_samples_size = cnt_size;
  self->n_stacks = n_stacks;
  hp_block_free (sub, sub_size);

  return self;
}

/* The bottom-up tree, built now if it was not yet. */
static const CallTree *
ensure_bottom_up (HpProfile *self)
{
  if (g_atomic_int_get (&self->bottom_up_built))
    return &self->bottom_up;

  g_mutex_lock (&self->bottom_up_lock);
  if (!g_atomic_int_get (&self->bottom_up_built))
    {
      Input in = { self->up, self->stack_samples, NULL, self->n_stacks, self->n_functions,
                   self->n_samples, self->rank };
      BottomUp job = { &in, { NULL, 0, NULL, NULL } };

      build_bottom_up (&job);
      self->bottom_up = job.tree;
      hp_block_free (g_steal_pointer (&self->up), self->up_size);
      hp_block_free (g_steal_pointer (&self->rank), self->rank_size);
      g_atomic_int_set (&self->bottom_up_built, TRUE);
    }
  g_mutex_unlock (&self->bottom_up_lock);
  return &self->bottom_up;
}

gboolean
hp_profile_has_bottom_up (HpProfile *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return g_atomic_int_get (&self->bottom_up_built);
}

void
hp_profile_free (HpProfile *self)
{
  if (self == NULL)
    return;

  call_tree_clear (&self->top_down);
  call_tree_clear (&self->bottom_up);
  hp_block_free (self->up, self->up_size);
  hp_block_free (self->rank, self->rank_size);
  g_mutex_clear (&self->bottom_up_lock);
  for (guint f = 0; f < self->n_functions; f++)
    {
      g_clear_pointer (&self->callers[f], g_array_unref);
      g_clear_pointer (&self->callees[f], g_array_unref);
    }
  g_free (self->callers);
  g_free (self->callees);
  g_clear_pointer (&self->by_self, g_array_unref);
  g_clear_pointer (&self->by_total, g_array_unref);
  g_free (self->stats);
  hp_block_free (self->stack_samples, self->stack_samples_size);
  g_free (self);
}

guint
hp_profile_get_block_sizes (HpProfile *self,
                            gsize     *sizes)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (sizes != NULL, 0);

  sizes[0] = self->top_down.nodes_size;
  sizes[1] = self->top_down.pointers_size;
  sizes[2] = self->stack_samples_size;
  sizes[3] = self->top_down.children_size;
  return HP_PROFILE_N_BLOCKS;
}

const HpCaptureData *
hp_profile_get_data (HpProfile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->data;
}

guint64
hp_profile_get_n_samples (HpProfile *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_samples;
}

const guint64 *
hp_profile_get_stack_samples (HpProfile *self,
                              guint     *n_stacks)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_stacks != NULL, NULL);

  *n_stacks = self->n_stacks;
  return self->stack_samples;
}

static int
compare_by_self (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  const HpFunctionStats *sa = a;
  const HpFunctionStats *sb = b;
  int cmp;

  if (sa->self != sb->self)
    return sa->self > sb->self ? -1 : 1;
  if ((cmp = g_strcmp0 (function_name (user_data, sa->function_id),
                        function_name (user_data, sb->function_id))) != 0)
    return cmp;
  return sa->function_id < sb->function_id ? -1 : sa->function_id > sb->function_id;
}

static int
compare_by_total (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  const HpFunctionStats *sa = a;
  const HpFunctionStats *sb = b;

  if (sa->total != sb->total)
    return sa->total > sb->total ? -1 : 1;
  return compare_by_self (a, b, user_data);
}

const GArray *
hp_profile_get_functions (HpProfile *self,
                          gboolean   by_total)
{
  GArray **cache;

  g_return_val_if_fail (self != NULL, NULL);

  cache = by_total ? &self->by_total : &self->by_self;
  if (*cache == NULL)
    {
      *cache = g_array_new (FALSE, FALSE, sizeof (HpFunctionStats));
      for (guint f = 1; f < self->n_functions; f++)
        if (self->stats[f].total > 0)
          g_array_append_val (*cache, self->stats[f]);
      g_array_sort_with_data (*cache, by_total ? compare_by_total : compare_by_self, self);
    }
  return *cache;
}

const HpFunctionStats *
hp_profile_get_function_stats (HpProfile *self,
                               gint64     function_id)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (function_id <= 0 || function_id >= self->n_functions)
    return NULL;
  return &self->stats[function_id];
}

gboolean
hp_call_node_find_child (const HpCallNode *parent,
                         const HpCallNode *child,
                         guint            *index)
{
  g_return_val_if_fail (parent != NULL, FALSE);

  if (parent->children != NULL)
    for (guint i = 0; i < parent->children->len; i++)
      if (parent->children->pdata[i] == child)
        {
          if (index != NULL)
            *index = i;
          return TRUE;
        }
  return FALSE;
}

void
hp_call_node_walk_init (HpCallNodeWalk   *walk,
                        const HpCallNode *root)
{
  g_return_if_fail (walk != NULL);

  walk->pending = g_ptr_array_new ();
  if (root != NULL)
    g_ptr_array_add (walk->pending, (gpointer) root);
}

const HpCallNode *
hp_call_node_walk_next (HpCallNodeWalk *walk)
{
  const HpCallNode *node;

  g_return_val_if_fail (walk != NULL && walk->pending != NULL, NULL);

  if (walk->pending->len == 0)
    return NULL;
  node = g_ptr_array_steal_index_fast (walk->pending, walk->pending->len - 1);
  /* the first child on top, so that it comes out next */
  if (node->children != NULL)
    for (guint i = node->children->len; i > 0; i--)
      g_ptr_array_add (walk->pending, g_ptr_array_index (node->children, i - 1));
  return node;
}

void
hp_call_node_walk_clear (HpCallNodeWalk *walk)
{
  g_return_if_fail (walk != NULL);

  g_clear_pointer (&walk->pending, g_ptr_array_unref);
}

const HpCallNode *
hp_profile_get_top_down (HpProfile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->top_down.nodes;
}

const HpCallNode *
hp_profile_get_bottom_up (HpProfile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return ensure_bottom_up (self)->nodes;
}

guint
hp_profile_get_n_nodes (HpProfile *self,
                        gboolean   bottom_up)
{
  g_return_val_if_fail (self != NULL, 0);

  return bottom_up ? ensure_bottom_up (self)->n_nodes : self->top_down.n_nodes;
}

static GArray *
copy_edges (GArray *edges)
{
  GArray *copy = g_array_new (FALSE, FALSE, sizeof (HpCallEdge));

  if (edges != NULL)
    g_array_append_vals (copy, edges->data, edges->len);
  return copy;
}

GArray *
hp_profile_get_callers (HpProfile *self,
                        gint64     function_id)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (function_id <= 0 || function_id >= self->n_functions)
    return copy_edges (NULL);
  return copy_edges (self->callers[function_id]);
}

GArray *
hp_profile_get_callees (HpProfile *self,
                        gint64     function_id)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (function_id <= 0 || function_id >= self->n_functions)
    return copy_edges (NULL);
  return copy_edges (self->callees[function_id]);
}

GArray *
hp_profile_find_functions (HpProfile  *self,
                           const char *name)
{
  GArray *ids;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint f = 1; f < self->n_functions; f++)
    {
      gint64 id = f;

      if (g_strcmp0 (function_name (self, id), name) == 0)
        g_array_append_val (ids, id);
    }
  return ids;
}

const char *
hp_profile_get_function_name (HpProfile *self,
                              gint64     function_id)
{
  g_return_val_if_fail (self != NULL, NULL);

  return function_name (self, function_id);
}

const char *
hp_profile_get_module_name (HpProfile *self,
                            gint64     function_id)
{
  gint64 module_id;

  g_return_val_if_fail (self != NULL, NULL);

  if (function_id <= 0 || function_id >= self->n_functions)
    return "";
  module_id = g_array_index (self->data->functions, HpCaptureFunction, function_id).module_id;
  if (module_id <= 0 || module_id >= self->data->modules->len)
    return "";
  return g_array_index (self->data->modules, HpCaptureModule, module_id).name ?: "";
}

/* The steps of @node's path from the tree root (excluded), root first. For
 * a bottom-up node that is the inverted path, leaf function first. */
static GPtrArray *
node_steps (const HpCallNode *node)
{
  GPtrArray *steps = g_ptr_array_new ();

  for (; node != NULL && node->parent != NULL; node = node->parent)
    g_ptr_array_add (steps, (gpointer) node);
  for (guint i = 0; i < steps->len / 2; i++)
    {
      gpointer tmp = steps->pdata[i];

      steps->pdata[i] = steps->pdata[steps->len - 1 - i];
      steps->pdata[steps->len - 1 - i] = tmp;
    }
  return steps;
}

char *
hp_call_node_path_key (HpProfile        *self,
                       const HpCallNode *node)
{
  g_autoptr(GPtrArray) steps = NULL;
  GString *key;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (node != NULL, NULL);

  steps = node_steps (node);
  key = g_string_new (NULL);
  for (guint i = 0; i < steps->len; i++)
    {
      const HpCallNode *step = steps->pdata[i];

      g_string_append (key, hp_profile_get_module_name (self, step->function_id));
      g_string_append_c (key, '\t');
      g_string_append (key, function_name (self, step->function_id));
      g_string_append_c (key, '\n');
    }
  return g_string_free (key, FALSE);
}

char *
hp_call_node_readable_path (HpProfile        *self,
                            const HpCallNode *node)
{
  g_autoptr(GPtrArray) steps = NULL;
  GString *path;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (node != NULL, NULL);

  steps = node_steps (node);
  path = g_string_new (NULL);
  for (guint i = 0; i < steps->len; i++)
    {
      const HpCallNode *step = steps->pdata[i];

      if (i > 0)
        g_string_append (path, " → ");
      g_string_append (path, function_name (self, step->function_id));
    }
  return g_string_free (path, FALSE);
}

/* Whether the path of @node ends with names[0..n-1]. */
static gboolean
path_ends_with (HpProfile          *self,
                const HpCallNode   *node,
                const char * const *names,
                guint               n)
{
  for (guint i = n; i > 0; i--, node = node->parent)
    {
      if (node == NULL || node->function_id == 0)
        return FALSE;
      if (g_strcmp0 (function_name (self, node->function_id), names[i - 1]) != 0)
        return FALSE;
    }
  return TRUE;
}

/* The node whose path ends with names[0..n-1] with the most samples, the
 * first in depth-first order of those with as many. */
static const HpCallNode *
find_path_in (HpProfile          *self,
              const HpCallNode   *root,
              const char * const *names,
              guint               n)
{
  HpCallNodeWalk walk;
  const HpCallNode *best = NULL;

  hp_call_node_walk_init (&walk, root);
  for (const HpCallNode *node; (node = hp_call_node_walk_next (&walk)) != NULL;)
    if (node->function_id != 0 &&
        (best == NULL || node->total > best->total) &&
        g_strcmp0 (function_name (self, node->function_id), names[n - 1]) == 0 &&
        path_ends_with (self, node, names, n))
      best = node;
  hp_call_node_walk_clear (&walk);
  return best;
}

static void
find_paths_in (HpProfile          *self,
               const HpCallNode   *root,
               const char * const *names,
               guint               n,
               GPtrArray          *found)
{
  g_autoptr(GPtrArray) pending = g_ptr_array_new ();

  /* iterative: a deep recursion is a deep tree */
  g_ptr_array_add (pending, (gpointer) root);
  while (pending->len > 0)
    {
      const HpCallNode *node = g_ptr_array_steal_index_fast (pending, pending->len - 1);

      if (node->function_id != 0 &&
          g_strcmp0 (function_name (self, node->function_id), names[n - 1]) == 0 &&
          path_ends_with (self, node, names, n))
        g_ptr_array_add (found, (gpointer) node);
      if (node->children != NULL)
        for (guint i = 0; i < node->children->len; i++)
          g_ptr_array_add (pending, g_ptr_array_index (node->children, i));
    }
}

static int
by_total_descending (gconstpointer a,
                     gconstpointer b)
{
  const HpCallNode *na = *(const HpCallNode * const *) a, *nb = *(const HpCallNode * const *) b;

  return na->total > nb->total ? -1 : na->total < nb->total;
}

GPtrArray *
hp_profile_find_paths (HpProfile          *self,
                       const char * const *names)
{
  GPtrArray *found = g_ptr_array_new ();

  g_return_val_if_fail (self != NULL, found);
  g_return_val_if_fail (names != NULL, found);

  if (names[0] == NULL)
    return found;
  find_paths_in (self, hp_profile_get_top_down (self), names, g_strv_length ((char **) names), found);
  g_ptr_array_sort (found, by_total_descending);
  return found;
}

const HpCallNode *
hp_profile_find_path (HpProfile          *self,
                      const char * const *names)
{
  guint n;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (names != NULL, NULL);

  n = g_strv_length ((char **) names);
  if (n == 0)
    return NULL;
  return find_path_in (self, hp_profile_get_top_down (self), names, n);
}
