/* hp-call-path.h - call paths by their summary key, for both front ends
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "analysis/hp-profile.h"
#include "document/hp-loaded-capture.h"

G_BEGIN_DECLS

/* The node of the top-down tree whose path key (hp_call_node_path_key())
 * is @key, or NULL when this profile has no such path. */
const HpCallNode *hp_call_path_find     (HpProfile  *profile,
                                         const char *key);
/* The function names of the steps of a path key, root first: a key holds
 * "MODULE\tFUNCTION\n" per step (hp_call_node_path_key()); a line
 * without a tab is taken as a name, blank lines are skipped. */
GStrv             hp_call_path_key_names (const char *key);
/* The module base names of the same steps ("" for a line without a tab),
 * as many as hp_call_path_key_names() gives names. */
GStrv             hp_call_path_key_modules (const char *key);
/* "main → run → parse" from a key, for paths not in the profile, in the
 * short names the window shows: a run of one function is one step
 * ("recurse ×200"), and a deep path keeps its ends. */
char             *hp_call_path_readable (const char *key);
/* "main → run → parse" for @node, with the names the window shows in
 * narrow places, a run of one function as one step ("recurse ×200"); a
 * deep path keeps its first and last steps, and the
 * whole is at most @max_chars characters. */
char             *hp_call_path_shown    (HpLoadedCapture  *capture,
                                         const HpCallNode *node,
                                         guint             max_chars);
/* The nodes under @root (excluded), in depth-first order, of the
 * functions whose case-folded name (g_utf8_casefold) contains @folded; at
 * most @max_matches of them. */
GPtrArray        *hp_call_path_search   (HpProfile        *profile,
                                         const HpCallNode *root,
                                         const char       *folded,
                                         guint             max_matches);
/* The steps of @node from the tree root (excluded), root first. */
GPtrArray        *hp_call_path_steps    (const HpCallNode *node);

G_END_DECLS
