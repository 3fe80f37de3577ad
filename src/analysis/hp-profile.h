/* hp-profile.h - what a capture says: functions, call tree, callers/callees
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "store/hp-capture.h"

G_BEGIN_DECLS

/* Per function identity (a row of the functions table), counted in samples.
 * total counts a sample once even when the function recurses. */
typedef struct {
  gint64  function_id;
  guint64 self;
  guint64 total;
} HpFunctionStats;

/* A node of the call tree, merged by function identity along the path.
 * Top-down: children are callees. Bottom-up: children are callers, and
 * self/total of a node count the samples whose leaf function is the root of
 * that inverted path. */
typedef struct _HpCallNode HpCallNode;

/* The children of a call node. Its fields are a GPtrArray's (pdata, len),
 * so g_ptr_array_index() reads it, but a tree holds all of them in one
 * block: a profile of 700 000 nodes spent a third of its time making and
 * freeing an array per node. */
typedef struct {
  HpCallNode **pdata;
  guint        len;
} HpCallChildren;

struct _HpCallNode {
  gint64          function_id;  /* 0 for the root */
  guint64         self;
  guint64         total;
  HpCallNode     *parent;
  HpCallChildren *children;     /* NULL when none; sorted by total, descending */
};

/* Whether @child is one of @parent's children; @index receives its place. */
gboolean          hp_call_node_find_child       (const HpCallNode    *parent,
                                                 const HpCallNode    *child,
                                                 guint               *index);

/* A walk over a call tree, depth first and in the tree's order (a node,
 * then its children from the first), as a recursion would go but in a
 * loop with a stack of its own: a tree is as deep as the capture's
 * deepest stack, 100 000 frames in a hostile one, more than a thread's C
 * stack holds.
 *
 *   HpCallNodeWalk walk;
 *   hp_call_node_walk_init (&walk, root);
 *   for (const HpCallNode *node; (node = hp_call_node_walk_next (&walk)) != NULL;)
 *     …
 *   hp_call_node_walk_clear (&walk);
 */
typedef struct {
  GPtrArray *pending;
} HpCallNodeWalk;

void              hp_call_node_walk_init        (HpCallNodeWalk      *walk,
                                                 const HpCallNode    *root);
/* The next node, @root first; NULL when every node has been given. */
const HpCallNode *hp_call_node_walk_next        (HpCallNodeWalk      *walk);
void              hp_call_node_walk_clear       (HpCallNodeWalk      *walk);

/* A caller or callee of a function, merged over all its call sites. */
typedef struct {
  gint64  function_id;
  guint64 samples;  /* samples in which the pair occurs (counted once per sample) */
} HpCallEdge;

typedef struct _HpProfile HpProfile;

/* Builds the profile of @data (which must outlive it). @tids: when not NULL,
 * only samples of these threads (a set of GINT_TO_POINTER (tid)) count. */
HpProfile        *hp_profile_new                (const HpCaptureData *data,
                                                 GHashTable          *tids);
/* Like hp_profile_new(), and builds the bottom-up tree now (in a second
 * thread) when @bottom_up_now; otherwise it is built by the first call
 * that needs it (hp_profile_get_bottom_up, hp_profile_get_n_nodes), in
 * that caller's thread, as long as the top-down tree took. */
HpProfile        *hp_profile_new_full           (const HpCaptureData *data,
                                                 GHashTable          *tids,
                                                 gboolean             bottom_up_now);
void              hp_profile_free               (HpProfile           *self);

const HpCaptureData *hp_profile_get_data        (HpProfile           *self);
guint64           hp_profile_get_n_samples      (HpProfile           *self);
/* Samples whose leaf is each stack node, for the chosen threads, indexed by
 * stack id ([0]: samples without any resolved frame). @n_stacks receives
 * the length (at least 1). Owned by the profile. */
const guint64    *hp_profile_get_stack_samples  (HpProfile           *self,
                                                 guint               *n_stacks);

/* Sorted by self (or total when @by_total), descending; ties by name. Only
 * functions with samples. Owned by the profile. */
const GArray     *hp_profile_get_functions      (HpProfile           *self,
                                                 gboolean             by_total);
const HpFunctionStats *hp_profile_get_function_stats (HpProfile      *self,
                                                 gint64               function_id);

const HpCallNode *hp_profile_get_top_down       (HpProfile           *self);
/* Built on the first call (thread-safe; see hp_profile_new_full): a
 * window asks for it off the main thread, or after
 * hp_profile_has_bottom_up() says it is there. */
const HpCallNode *hp_profile_get_bottom_up      (HpProfile           *self);
gboolean          hp_profile_has_bottom_up      (HpProfile           *self);
/* How many nodes a tree has, its root included: what a walk over it may
 * reserve at once (the flame graph's boxes) */
guint             hp_profile_get_n_nodes        (HpProfile           *self,
                                                 gboolean             bottom_up);

/* The sizes of the blocks (hp-block-pool.h) that a profile of a part of
 * the same capture keeps, top-down, at most as big as this one's: its
 * per-stack samples and its top-down tree. Fills @sizes (room for
 * HP_PROFILE_N_BLOCKS) and returns how many. */
#define HP_PROFILE_N_BLOCKS 4
guint             hp_profile_get_block_sizes    (HpProfile           *self,
                                                 gsize               *sizes);

/* Callers (or callees) of @function_id, sorted by samples, descending. Free with g_array_unref. */
GArray           *hp_profile_get_callers        (HpProfile           *self,
                                                 gint64               function_id);
GArray           *hp_profile_get_callees        (HpProfile           *self,
                                                 gint64               function_id);

/* Function ids whose name equals @name (several modules may share a name). */
GArray           *hp_profile_find_functions     (HpProfile           *self,
                                                 const char          *name);

const char       *hp_profile_get_function_name  (HpProfile           *self,
                                                 gint64               function_id);
const char       *hp_profile_get_module_name    (HpProfile           *self,
                                                 gint64               function_id);

/* The call path of @node (root to node): its key for the summaries table is
 * "module\tfunction\n" per step, and its readable form "a → b → c". */
char             *hp_call_node_path_key         (HpProfile           *self,
                                                 const HpCallNode    *node);
char             *hp_call_node_readable_path    (HpProfile           *self,
                                                 const HpCallNode    *node);

/* The top-down node whose call path ends with the functions @names (root
 * side first; a path that starts at a root matches whole). Where several
 * nodes match, the one with the most total samples. NULL when none. */
const HpCallNode *hp_profile_find_path         (HpProfile           *self,
                                                 const char * const  *names);
/* Every top-down node whose call path ends with @names, by total samples,
 * descending (HpCallNode*, owned by the profile; free the array). */
GPtrArray        *hp_profile_find_paths        (HpProfile           *self,
                                                 const char * const  *names);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpProfile, hp_profile_free)

G_END_DECLS
