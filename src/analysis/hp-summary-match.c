/* hp-summary-match.c - finding a summary's call path in another capture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A summary is keyed by its call path: module base name and function name
 * at each step (hp_call_node_path_key()). After a rebuild most keys are
 * found as they are, but not all: GCC names a clone after the compiler's
 * choices (foo.part.0, foo.constprop.1), a library's soname carries its
 * version, and a function the compiler now inlines without a trace (or no
 * longer inlines) adds or removes a step. The rules below are tried in
 * order, each allowing what the ones before it do, and the first that
 * finds a path says how the summary was placed, so that the user can judge
 * a loose match. Clones are folded by the comparison's rule
 * (hp_compare_fold_clone_name()): one identity for both.
 *
 * The search walks the top-down tree along the key, so it costs the
 * length of the path times the children it meets; the rule that skips one
 * step meets each node of the path at most twice more (a frame skipped, a
 * step skipped), however long the key.
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include "store/hp-capture-keys.h"

#include <math.h>
#include <string.h>

#include "analysis/hp-compare.h"
#include "analysis/hp-summary-match.h"

const char *
hp_summary_match_to_string (HpSummaryMatch how)
{
  switch (how)
    {
    case HP_SUMMARY_MATCH_EXACT: return "exact";
    case HP_SUMMARY_MATCH_CLONES: return "clones folded";
    case HP_SUMMARY_MATCH_MODULE_VERSION: return "module version";
    case HP_SUMMARY_MATCH_INLINE: return "inlined frame";
    case HP_SUMMARY_MATCH_NONE:
    default: return "not found";
    }
}

static gboolean
all_version_chars (const char *s,
                   gsize       len)
{
  if (len == 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isdigit (s[i]) && s[i] != '.')
      return FALSE;
  return g_ascii_isdigit (s[0]);
}

char *
hp_summary_fold_module (const char *module)
{
  const char *so;
  GString *s;

  g_return_val_if_fail (module != NULL, NULL);

  s = g_string_new (module);
  /* "libfoo.so.1.2": the soname's version after ".so" */
  so = strstr (s->str, ".so.");
  if (so != NULL && all_version_chars (so + 4, strlen (so + 4)))
    g_string_truncate (s, so + 3 - s->str);
  /* "libfoo-1.2.so": a version in the name before ".so" */
  if (g_str_has_suffix (s->str, ".so"))
    {
      const char *dash = memrchr (s->str, '-', s->len - 3);

      if (dash != NULL && dash > s->str &&
          all_version_chars (dash + 1, s->str + s->len - 3 - (dash + 1)))
        g_string_erase (s, dash - s->str, s->str + s->len - 3 - dash);
    }
  return g_string_free (s, FALSE);
}

/* One step of a path as a rule sees it. */
static char *
step_identity (const char     *module,
               const char     *name,
               HpSummaryMatch  rule)
{
  g_autofree char *folded_name = NULL;
  g_autofree char *folded_module = NULL;

  if (rule == HP_SUMMARY_MATCH_EXACT)
    return g_strconcat (module, "\t", name, NULL);
  folded_name = hp_compare_fold_clone_name (name);
  if (rule == HP_SUMMARY_MATCH_CLONES)
    return g_strconcat (module, "\t", folded_name, NULL);
  folded_module = hp_summary_fold_module (module);
  return g_strconcat (folded_module, "\t", folded_name, NULL);
}

typedef struct {
  HpProfile        *profile;
  char            **idents;     /* per function id, for this rule */
  guint             n_idents;
  char            **steps;      /* the key's steps, for this rule */
  guint             n_steps;
  gboolean          may_skip;
  const HpCallNode *best;
} Search;

static const char *
node_identity (Search           *s,
               const HpCallNode *node)
{
  if (node->function_id <= 0 || (guint64) node->function_id >= s->n_idents)
    return "";
  return s->idents[node->function_id];
}

/* The hottest path found that ends in the key's last function: a summary
 * is about where its path ends, and a path that lost its last step would
 * put it on the caller (main, for a short path) instead. */
static void
consider (Search           *s,
          const HpCallNode *node)
{
  if (node->parent == NULL)  /* every step skipped: the root is no path */
    return;
  if (strcmp (node_identity (s, node), s->steps[s->n_steps - 1]) != 0)
    return;
  if (s->best == NULL || node->total > s->best->total)
    s->best = node;
}

/* Where the search stands: at @node, matching the key's step @i. @skip
 * says which one thing the inline rule has skipped so far: nothing, a
 * frame of this capture (the key is then one step behind the node's
 * depth) or a step of the key (one ahead). */
typedef enum { SKIPPED_NONE, SKIPPED_FRAME, SKIPPED_STEP } Skipped;

typedef struct {
  const HpCallNode *node;
  guint             i;
  Skipped           skip;
} State;

/* Walks the top-down tree along the key, depth first, in the order a
 * recursion would (a node's children from the first, then the key's next
 * step skipped), but in a loop with a stack of its own: a key is as long
 * as the path it was written on, 100 000 steps in a deep recursion, more
 * than a thread's C stack holds. After a skip the key and the depth keep
 * their distance, so a node is met at most once per kind of skip: without
 * that, every skip along a long path walked the rest of it again. */
static void
search (Search           *s,
        const HpCallNode *root)
{
  g_autoptr(GArray) pending = g_array_new (FALSE, FALSE, sizeof (State));
  g_autoptr(GHashTable) seen_frame = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) seen_step = g_hash_table_new (NULL, NULL);
  GHashTable *seen[] = { NULL, seen_frame, seen_step };
  State start = { root, 0, SKIPPED_NONE };

  g_array_append_val (pending, start);
  while (pending->len > 0)
    {
      State st = g_array_index (pending, State, pending->len - 1);
      gboolean may_skip = s->may_skip && st.skip == SKIPPED_NONE;

      g_array_set_size (pending, pending->len - 1);
      if (st.skip != SKIPPED_NONE && !g_hash_table_add (seen[st.skip], (gpointer) st.node))
        continue;
      if (st.i == s->n_steps)
        {
          consider (s, st.node);
          continue;
        }
      /* pushed last first: taken in the recursion's order */
      if (may_skip && st.node->parent != NULL)
        {
          /* a step of the key this capture has not */
          State next = { st.node, st.i + 1, SKIPPED_STEP };

          g_array_append_val (pending, next);
        }
      if (st.node->children != NULL)
        for (guint c = st.node->children->len; c > 0; c--)
          {
            const HpCallNode *child = g_ptr_array_index (st.node->children, c - 1);

            if (strcmp (node_identity (s, child), s->steps[st.i]) == 0)
              {
                State next = { child, st.i + 1, st.skip };

                g_array_append_val (pending, next);
              }
            else if (may_skip)
              {
                /* a frame this capture has and the key has not */
                State next = { child, st.i, SKIPPED_FRAME };

                g_array_append_val (pending, next);
              }
          }
    }
}

/* Each function's identity under each rule, made once for the many keys
 * of an import rather than once per key. */
struct _HpSummaryMatcher {
  HpProfile *profile;
  GPtrArray *idents[HP_SUMMARY_MATCH_MODULE_VERSION + 1];
};

HpSummaryMatcher *
hp_summary_matcher_new (HpProfile *profile)
{
  HpSummaryMatcher *m;

  g_return_val_if_fail (profile != NULL, NULL);

  m = g_new0 (HpSummaryMatcher, 1);
  m->profile = profile;
  return m;
}

void
hp_summary_matcher_free (HpSummaryMatcher *matcher)
{
  if (matcher == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (matcher->idents); i++)
    g_clear_pointer (&matcher->idents[i], g_ptr_array_unref);
  g_free (matcher);
}

static GPtrArray *
matcher_idents (HpSummaryMatcher *m,
                HpSummaryMatch    rule)
{
  if (m->idents[rule] == NULL)
    {
      const HpCaptureData *data = hp_profile_get_data (m->profile);
      GPtrArray *idents = g_ptr_array_new_with_free_func (g_free);

      g_ptr_array_add (idents, g_strdup (""));
      for (guint f = 1; f < data->functions->len; f++)
        g_ptr_array_add (idents, step_identity (hp_profile_get_module_name (m->profile, f),
                                                hp_profile_get_function_name (m->profile, f) ?: "",
                                                rule));
      m->idents[rule] = idents;
    }
  return m->idents[rule];
}

const HpCallNode *
hp_summary_matcher_find (HpSummaryMatcher *matcher,
                         const char       *key,
                         HpSummaryMatch   *how)
{
  g_auto(GStrv) lines = NULL;

  g_return_val_if_fail (matcher != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  if (how != NULL)
    *how = HP_SUMMARY_MATCH_NONE;
  lines = g_strsplit (key, "\n", -1);

  for (HpSummaryMatch rule = HP_SUMMARY_MATCH_EXACT; rule <= HP_SUMMARY_MATCH_INLINE; rule++)
    {
      HpSummaryMatch ident_rule = MIN (rule, HP_SUMMARY_MATCH_MODULE_VERSION);
      GPtrArray *idents = matcher_idents (matcher, ident_rule);
      Search s = { matcher->profile, (char **) idents->pdata, idents->len, NULL, 0,
                   rule == HP_SUMMARY_MATCH_INLINE, NULL };
      g_autoptr(GPtrArray) steps = g_ptr_array_new_with_free_func (g_free);

      for (guint i = 0; lines[i] != NULL; i++)
        {
          const char *tab = strchr (lines[i], '\t');
          g_autofree char *module = NULL;

          if (lines[i][0] == '\0')
            continue;
          module = tab ? g_strndup (lines[i], tab - lines[i]) : g_strdup ("");
          g_ptr_array_add (steps, step_identity (module, tab ? tab + 1 : lines[i], ident_rule));
        }
      if (steps->len == 0)
        return NULL;
      s.steps = (char **) steps->pdata;
      s.n_steps = steps->len;
      search (&s, hp_profile_get_top_down (matcher->profile));
      if (s.best != NULL)
        {
          if (how != NULL)
            *how = rule;
          return s.best;
        }
    }
  return NULL;
}

const HpCallNode *
hp_summary_match_find (HpProfile      *profile,
                       const char     *key,
                       HpSummaryMatch *how)
{
  g_autoptr(HpSummaryMatcher) matcher = NULL;

  g_return_val_if_fail (profile != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  matcher = hp_summary_matcher_new (profile);
  return hp_summary_matcher_find (matcher, key, how);
}

char *
hp_summary_program_name (const HpCaptureData *data)
{
  const char *command;

  g_return_val_if_fail (data != NULL, NULL);

  command = data->metadata ? g_hash_table_lookup (data->metadata, HP_META_COMMAND) : NULL;
  if (command != NULL)
    {
      g_auto(GStrv) argv = NULL;

      if (!g_shell_parse_argv (command, NULL, &argv, NULL))
        argv = g_strsplit (command, " ", 2);
      if (argv != NULL && argv[0] != NULL && argv[0][0] != '\0')
        {
          g_autofree char *base = g_path_get_basename (argv[0]);

          if (strcmp (base, ".") != 0 && strcmp (base, "/") != 0)
            return g_steal_pointer (&base);
        }
    }
  for (guint i = 0; data->processes != NULL && i < data->processes->len; i++)
    {
      const HpCaptureProcess *process = &g_array_index (data->processes, HpCaptureProcess, i);

      if (process->command != NULL && process->command[0] != '\0')
        return g_path_get_basename (process->command);
    }
  return NULL;
}

double
hp_summary_share (HpProfile        *profile,
                  const HpCallNode *node)
{
  guint64 n = hp_profile_get_n_samples (profile);

  return n > 0 ? 100.0 * node->total / n : NAN;
}

void
hp_summary_placement_free (HpSummaryPlacement *placement)
{
  if (placement == NULL)
    return;
  hp_capture_summary_free (placement->summary);
  g_free (placement->old_path);
  g_free (placement);
}

gboolean
hp_summary_lookup_in_capture (const char  *path_key,
                              char       **text,
                              gpointer     user_data,
                              GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  *text = hp_capture_get_summary (user_data, path_key, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  return TRUE;
}

GPtrArray *
hp_summary_place_full (HpProfile            *profile,
                       HpSummaryMatcher     *matcher,
                       GPtrArray            *summaries,
                       const char           *from_capture,
                       GPtrArray            *existing,
                       HpSummaryLookupFunc   lookup,
                       gpointer              lookup_data,
                       GError              **error)
{
  g_autoptr(GHashTable) taken = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(HpSummaryMatcher) own_matcher = NULL;
  g_autoptr(GPtrArray) placements = NULL;

  g_return_val_if_fail (profile != NULL, NULL);
  g_return_val_if_fail (summaries != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (matcher == NULL)
    matcher = own_matcher = hp_summary_matcher_new (profile);
  for (guint i = 0; existing != NULL && i < existing->len; i++)
    {
      const HpCaptureSummary *summary = g_ptr_array_index (existing, i);

      g_hash_table_insert (taken, summary->path_key, summary->text);
    }

  placements = g_ptr_array_new_with_free_func ((GDestroyNotify) hp_summary_placement_free);
  for (guint i = 0; i < summaries->len; i++)
    {
      const HpCaptureSummary *old = g_ptr_array_index (summaries, i);
      HpSummaryPlacement *placement = g_new0 (HpSummaryPlacement, 1);
      const HpCallNode *node = hp_summary_matcher_find (matcher, old->path_key, &placement->how);
      g_autofree char *looked_up = NULL;
      const char *there;

      g_ptr_array_add (placements, placement);
      placement->summary = hp_capture_summary_copy (old);
      placement->old_path = g_strdup (old->path);
      placement->share_now = NAN;
      if (placement->summary->capture == NULL)
        placement->summary->capture = g_strdup (from_capture);
      if (node != NULL)
        {
          g_free (placement->summary->path_key);
          g_free (placement->summary->path);
          placement->summary->path_key = hp_call_node_path_key (profile, node);
          placement->summary->path = hp_call_node_readable_path (profile, node);
          placement->summary->found = TRUE;
          placement->share_now = hp_summary_share (profile, node);
        }
      else
        placement->summary->found = FALSE;

      there = g_hash_table_lookup (taken, placement->summary->path_key);
      if (there == NULL && lookup != NULL)
        {
          if (!lookup (placement->summary->path_key, &looked_up, lookup_data, error))
            return NULL;
          there = looked_up;
        }
      if (there != NULL)
        {
          if (g_strcmp0 (there, old->text) == 0)
            placement->present = TRUE;
          else
            placement->conflict = TRUE;
        }
      else
        g_hash_table_insert (taken, placement->summary->path_key, placement->summary->text);
    }
  return g_steal_pointer (&placements);
}

GPtrArray *
hp_summary_place (HpProfile  *profile,
                  GPtrArray  *summaries,
                  const char *from_capture,
                  GPtrArray  *existing)
{
  return hp_summary_place_full (profile, NULL, summaries, from_capture, existing, NULL, NULL, NULL);
}

char *
hp_summary_describe_origin (const HpCaptureSummary *summary,
                            const char             *this_capture,
                            double                  share_now)
{
  GString *s;

  g_return_val_if_fail (summary != NULL, NULL);

  if (summary->capture == NULL || g_strcmp0 (summary->capture, this_capture) == 0)
    return NULL;
  s = g_string_new ("written in ");
  g_string_append (s, summary->capture);
  if (summary->updated != NULL && strlen (summary->updated) >= 10)
    g_string_append_printf (s, " on %.10s", summary->updated);
  if (isfinite (summary->share))
    g_string_append_printf (s, ", %.1f %% then", summary->share);
  if (isfinite (share_now))
    g_string_append_printf (s, ", %.1f %% now", share_now);
  else if (!summary->found)
    g_string_append (s, "; not found in this capture");
  return g_string_free (s, FALSE);
}
