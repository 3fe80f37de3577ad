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
 * because parent_id < id for every node, one pass in id order visits a
 * parent before its children and one pass backwards sums children into
 * parents. A million samples over ten thousand stacks cost ten thousand
 * steps, plus one walk up the ancestors of each node that has samples.
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

#include "analysis/hp-profile.h"

#define NODE_CHUNK 1024

/* A stack's parent and function, packed: the walks up the stacks touch
 * only this. */
typedef struct {
  guint32 parent;
  guint32 function;
} Up;

typedef struct {
  gint64 caller;
  gint64 callee;
  guint64 samples;
} Edge;

struct _HpProfile {
  const HpCaptureData *data;
  guint64 n_samples;

  /* Samples per leaf stack node for the chosen threads, kept for the
   * per-line counts of annotated source (hp-source.c) */
  guint64 *stack_samples;
  guint n_stacks;

  /* indexed by function id, [0] unused */
  HpFunctionStats *stats;
  guint n_functions;
  GArray *by_self;   /* HpFunctionStats, lazily */
  GArray *by_total;

  HpCallNode *top_down;
  HpCallNode *bottom_up;

  /* Nodes are allocated in chunks and freed together */
  GPtrArray *node_chunks;
  guint chunk_used;

  /* indexed by function id: GArray of HpCallEdge, NULL when none */
  GArray **callers;
  GArray **callees;
};

static HpCallNode *
node_new (HpProfile  *self,
          HpCallNode *parent,
          gint64      function_id)
{
  HpCallNode *chunk;
  HpCallNode *node;

  if (self->node_chunks->len == 0 || self->chunk_used == NODE_CHUNK)
    {
      g_ptr_array_add (self->node_chunks, g_new0 (HpCallNode, NODE_CHUNK));
      self->chunk_used = 0;
    }
  chunk = g_ptr_array_index (self->node_chunks, self->node_chunks->len - 1);
  node = &chunk[self->chunk_used++];
  node->function_id = function_id;
  node->parent = parent;
  return node;
}

#define FOREACH_NODE(self, node, body)                                          \
  G_STMT_START {                                                                \
    for (guint _c = 0; _c < (self)->node_chunks->len; _c++)                     \
      {                                                                         \
        HpCallNode *_chunk = g_ptr_array_index ((self)->node_chunks, _c);       \
        guint _n = _c + 1 == (self)->node_chunks->len ? (self)->chunk_used      \
                                                       : NODE_CHUNK;            \
        for (guint _i = 0; _i < _n; _i++)                                       \
          {                                                                     \
            HpCallNode *node = &_chunk[_i];                                     \
            body;                                                               \
          }                                                                     \
      }                                                                         \
  } G_STMT_END

/* Children are found through one table keyed by (parent, function), the
 * node itself being the key, so building a tree allocates nothing else. */
/* The children of the nodes being built, by (parent, function): open
 * addressing with the key in the slot, so a lookup touches one cache line
 * rather than GHashTable's hash, key and node. Hundreds of thousands of
 * lookups build a tree. */
typedef struct {
  const HpCallNode *parent;
  gint64            function_id;
  HpCallNode       *node;
} ChildSlot;

typedef struct {
  ChildSlot *slots;
  gsize      mask;
  gsize      used;
} ChildTable;

static void
child_table_init (ChildTable *table,
                  gsize       expected)
{
  gsize size = 1024;

  while (size < expected * 2)
    size *= 2;
  table->slots = g_new0 (ChildSlot, size);
  table->mask = size - 1;
  table->used = 0;
}

static void
child_table_clear (ChildTable *table)
{
  g_clear_pointer (&table->slots, g_free);
  table->mask = 0;
  table->used = 0;
}

static inline gsize
child_hash (const HpCallNode *parent,
            gint64            function_id)
{
  guint64 h = (guint64) GPOINTER_TO_SIZE (parent) * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  h ^= (guint64) function_id * G_GUINT64_CONSTANT (0xC2B2AE3D27D4EB4F);
  return (gsize) (h ^ (h >> 29) ^ (h >> 47));
}

static void
child_table_grow (ChildTable *table)
{
  ChildSlot *old = table->slots;
  gsize old_size = table->mask + 1;

  table->slots = g_new0 (ChildSlot, old_size * 2);
  table->mask = old_size * 2 - 1;
  for (gsize i = 0; i < old_size; i++)
    if (old[i].node != NULL)
      {
        gsize j = child_hash (old[i].parent, old[i].function_id) & table->mask;

        while (table->slots[j].node != NULL)
          j = (j + 1) & table->mask;
        table->slots[j] = old[i];
      }
  g_free (old);
}

/* Until the tree is complete, a node's children field holds the number
 * of its children (see link_children), not an array. */
static HpCallNode *
get_child (HpProfile  *self,
           ChildTable *table,
           HpCallNode *parent,
           gint64      function_id)
{
  gsize i = child_hash (parent, function_id) & table->mask;
  ChildSlot *slot;
  HpCallNode *child;

  for (;; i = (i + 1) & table->mask)
    {
      slot = &table->slots[i];
      if (slot->node == NULL)
        break;
      if (slot->parent == parent && slot->function_id == function_id)
        return slot->node;
    }

  child = node_new (self, parent, function_id);
  slot->parent = parent;
  slot->function_id = function_id;
  slot->node = child;
  parent->children = GSIZE_TO_POINTER (GPOINTER_TO_SIZE (parent->children) + 1);
  if (++table->used * 2 > table->mask)
    child_table_grow (table);  /* moves the slots */
  return child;
}

/* Turns the counts of children into arrays of exactly that size, then
 * fills them in node order. */
static void
link_children (HpProfile *self)
{
  FOREACH_NODE (self, node, {
    gsize n = GPOINTER_TO_SIZE (node->children);

    node->children = n > 0 ? g_ptr_array_sized_new (n) : NULL;
  });
  FOREACH_NODE (self, node, {
    if (node->parent != NULL)
      g_ptr_array_add (node->parent->children, node);
  });
}

static const char *
function_name (HpProfile *self,
               gint64     function_id)
{
  if (function_id <= 0 || (guint) function_id >= self->n_functions)
    return "";
  return g_array_index (self->data->functions, HpCaptureFunction, function_id).name;
}

static int
compare_nodes (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const HpCallNode *na = *(HpCallNode * const *) a;
  const HpCallNode *nb = *(HpCallNode * const *) b;
  int cmp;

  if (na->total != nb->total)
    return na->total > nb->total ? -1 : 1;
  if ((cmp = g_strcmp0 (function_name (user_data, na->function_id),
                        function_name (user_data, nb->function_id))) != 0)
    return cmp;
  return na->function_id < nb->function_id ? -1 : na->function_id > nb->function_id;
}

static int
compare_edges (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const HpCallEdge *ea = a;
  const HpCallEdge *eb = b;
  int cmp;

  if (ea->samples != eb->samples)
    return ea->samples > eb->samples ? -1 : 1;
  if ((cmp = g_strcmp0 (function_name (user_data, ea->function_id),
                        function_name (user_data, eb->function_id))) != 0)
    return cmp;
  return ea->function_id < eb->function_id ? -1 : ea->function_id > eb->function_id;
}

static guint
edge_hash (gconstpointer p)
{
  const Edge *e = p;
  guint64 h = (guint64) e->caller * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15) ^ (guint64) e->callee;

  return (guint) (h ^ (h >> 32));
}

static gboolean
edge_equal (gconstpointer a,
            gconstpointer b)
{
  const Edge *ea = a;
  const Edge *eb = b;

  return ea->caller == eb->caller && ea->callee == eb->callee;
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

/* The data comes from hp_capture_load(), which checks references, or from
 * a test; check once here rather than in every loop. */
static gboolean
data_is_consistent (const HpCaptureData *data)
{
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
  HpProfile *self;
  const HpCaptureStack *stacks;
  guint n_stacks;
  g_autofree guint64 *cnt = NULL;
  g_autofree guint64 *sub = NULL;
  g_autofree Up *up = NULL;
  g_autofree HpCallNode **node_of = NULL;
  ChildTable children;
  g_autoptr(GHashTable) edges = NULL;
  GHashTableIter iter;
  Edge *edge;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (data_is_consistent (data), NULL);

  self = g_new0 (HpProfile, 1);
  self->data = data;
  self->n_functions = MAX (data->functions->len, 1);
  self->stats = g_new0 (HpFunctionStats, self->n_functions);
  self->callers = g_new0 (GArray *, self->n_functions);
  self->callees = g_new0 (GArray *, self->n_functions);
  self->node_chunks = g_ptr_array_new_with_free_func (g_free);
  for (guint f = 0; f < self->n_functions; f++)
    self->stats[f].function_id = f;

  n_stacks = MAX (data->stacks->len, 1);
  stacks = (const HpCaptureStack *) (gpointer) data->stacks->data;

  /* Samples per leaf node, for the chosen threads. */
  cnt = g_new0 (guint64, n_stacks);
  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);

      if (tids != NULL && !g_hash_table_contains (tids, GINT_TO_POINTER (c->tid)))
        continue;
      cnt[c->stack_id] += c->samples;
      self->n_samples += c->samples;
    }

  /* Samples through each node: children into parents, backwards. */
  sub = g_memdup2 (cnt, sizeof (guint64) * n_stacks);
  for (guint s = n_stacks - 1; s >= 1; s--)
    sub[stacks[s].parent_id] += sub[s];
  g_assert (sub[0] == self->n_samples);

  up = g_new0 (Up, n_stacks);
  for (guint s = 1; s < n_stacks; s++)
    {
      up[s].parent = stacks[s].parent_id;
      up[s].function = g_array_index (data->frames, HpCaptureFrame, stacks[s].frame_id).function_id;
    }

  /* Top-down tree: node of a stack = child of its parent's node. */
  child_table_init (&children, n_stacks);
  node_of = g_new0 (HpCallNode *, n_stacks);
  self->top_down = node_new (self, NULL, 0);
  self->top_down->self = cnt[0];
  self->top_down->total = self->n_samples;
  node_of[0] = self->top_down;

  edges = g_hash_table_new_full (edge_hash, edge_equal, g_free, NULL);

  for (guint s = 1; s < n_stacks; s++)
    {
      guint32 p = up[s].parent;
      guint32 f = up[s].function;
      gboolean seen_f = FALSE;
      gboolean seen_pair = FALSE;
      HpCallNode *node;

      if (sub[s] == 0)
        continue;  /* and so are all its descendants */

      node = get_child (self, &children, node_of[p], f);
      node->self += cnt[s];
      node->total += sub[s];
      node_of[s] = node;

      /* Is this the occurrence nearest the root of f, and of (f's
       * caller, f)? A root has no caller. */
      seen_pair = p == 0;
      for (guint32 a = p; a != 0 && !(seen_f && seen_pair); a = up[a].parent)
        if (up[a].function == f)
          {
            guint32 pa = up[a].parent;

            seen_f = TRUE;
            if (pa != 0 && up[pa].function == up[p].function)
              seen_pair = TRUE;
          }

      self->stats[f].self += cnt[s];
      if (!seen_f)
        self->stats[f].total += sub[s];
      if (!seen_pair)
        {
          Edge key = { up[p].function, f, 0 };

          edge = g_hash_table_lookup (edges, &key);
          if (edge == NULL)
            {
              edge = g_memdup2 (&key, sizeof key);
              g_hash_table_add (edges, edge);
            }
          edge->samples += sub[s];
        }
    }

  g_hash_table_iter_init (&iter, edges);
  while (g_hash_table_iter_next (&iter, (gpointer *) &edge, NULL))
    {
      add_edge (self->callees, edge->caller, edge->callee, edge->samples);
      add_edge (self->callers, edge->callee, edge->caller, edge->samples);
    }
  for (guint f = 0; f < self->n_functions; f++)
    {
      if (self->callers[f] != NULL)
        g_array_sort_with_data (self->callers[f], compare_edges, self);
      if (self->callees[f] != NULL)
        g_array_sort_with_data (self->callees[f], compare_edges, self);
    }

  /* Bottom-up tree: each leaf's path, leaf first. Every node counts the
   * samples whose stack ends with its inverted path, as self and total. */
  child_table_clear (&children);
  child_table_init (&children, n_stacks);
  self->bottom_up = node_new (self, NULL, 0);
  self->bottom_up->self = cnt[0];
  self->bottom_up->total = self->n_samples;
  for (guint s = 1; s < n_stacks; s++)
    {
      HpCallNode *node = self->bottom_up;

      if (cnt[s] == 0)
        continue;
      for (guint32 a = s; a != 0; a = up[a].parent)
        {
          node = get_child (self, &children, node, up[a].function);
          node->self += cnt[s];
          node->total += cnt[s];
        }
    }

  child_table_clear (&children);
  link_children (self);
  FOREACH_NODE (self, node, {
    if (node->children != NULL)
      g_ptr_array_sort_with_data (node->children, compare_nodes, self);
  });

  self->stack_samples = g_steal_pointer (&cnt);
  self->n_stacks = n_stacks;

  return self;
}

void
hp_profile_free (HpProfile *self)
{
  if (self == NULL)
    return;

  FOREACH_NODE (self, node, {
    g_clear_pointer (&node->children, g_ptr_array_unref);
  });
  g_ptr_array_unref (self->node_chunks);
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
  g_free (self->stack_samples);
  g_free (self);
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

const HpCallNode *
hp_profile_get_top_down (HpProfile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->top_down;
}

const HpCallNode *
hp_profile_get_bottom_up (HpProfile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->bottom_up;
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

static void
find_path_in (HpProfile          *self,
              const HpCallNode   *node,
              const char * const *names,
              guint               n,
              const HpCallNode  **best)
{
  if (node->function_id != 0 &&
      (*best == NULL || node->total > (*best)->total) &&
      g_strcmp0 (function_name (self, node->function_id), names[n - 1]) == 0 &&
      path_ends_with (self, node, names, n))
    *best = node;

  if (node->children != NULL)
    for (guint i = 0; i < node->children->len; i++)
      find_path_in (self, g_ptr_array_index (node->children, i), names, n, best);
}

const HpCallNode *
hp_profile_find_path (HpProfile          *self,
                      const char * const *names)
{
  const HpCallNode *best = NULL;
  guint n;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (names != NULL, NULL);

  n = g_strv_length ((char **) names);
  if (n == 0)
    return NULL;
  find_path_in (self, hp_profile_get_top_down (self), names, n, &best);
  return best;
}
