/* hp-call-path.c - call paths by their summary key
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A key is "MODULE\tFUNCTION\n" per step (hp-profile.h); it names
 * functions, not rows, so a summary written in one capture finds its path
 * in another capture of the same program. Finding it walks down from the
 * root, comparing names among the children of each step.
 */

#define G_LOG_DOMAIN "hp-document"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "analysis/hp-symbol-name.h"
#include "document/hp-call-path.h"

/* a deeper path shows its first HEAD_STEPS and last TAIL_STEPS steps */
#define HEAD_STEPS 3
#define TAIL_STEPS 8

const HpCallNode *
hp_call_path_find (HpProfile  *profile,
                   const char *key)
{
  const HpCallNode *node;
  g_auto(GStrv) lines = NULL;

  g_return_val_if_fail (profile != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  node = hp_profile_get_top_down (profile);
  lines = g_strsplit (key, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *tab;
      g_autofree char *module = NULL;
      const HpCallNode *next = NULL;

      if (lines[i][0] == '\0')
        continue;
      tab = strchr (lines[i], '\t');
      if (tab == NULL || node->children == NULL)
        return NULL;
      module = g_strndup (lines[i], tab - lines[i]);
      for (guint c = 0; c < node->children->len && next == NULL; c++)
        {
          const HpCallNode *child = g_ptr_array_index (node->children, c);

          if (g_strcmp0 (hp_profile_get_function_name (profile, child->function_id), tab + 1) == 0 &&
              g_strcmp0 (hp_profile_get_module_name (profile, child->function_id), module) == 0)
            next = child;
        }
      if (next == NULL)
        return NULL;
      node = next;
    }
  return node->parent != NULL ? node : NULL;
}

/* One side of each step of @key: its function name, or its module. */
static GStrv
key_steps (const char *key,
           gboolean    modules)
{
  g_auto(GStrv) lines = NULL;
  GStrvBuilder *steps = g_strv_builder_new ();
  GStrv result;

  lines = g_strsplit (key, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *tab = strchr (lines[i], '\t');

      if (lines[i][0] == '\0')
        continue;
      if (!modules)
        g_strv_builder_add (steps, tab ? tab + 1 : lines[i]);
      else
        {
          g_autofree char *module = tab ? g_strndup (lines[i], tab - lines[i]) : g_strdup ("");

          g_strv_builder_add (steps, module);
        }
    }
  result = g_strv_builder_end (steps);
  g_strv_builder_unref (steps);
  return result;
}

GStrv
hp_call_path_key_names (const char *key)
{
  g_return_val_if_fail (key != NULL, NULL);

  return key_steps (key, FALSE);
}

GStrv
hp_call_path_key_modules (const char *key)
{
  g_return_val_if_fail (key != NULL, NULL);

  return key_steps (key, TRUE);
}

/* "main → run → recurse ×200 → leaf": one step per run of the same name,
 * as the breadcrumbs show it, and a path of more runs than HEAD_STEPS +
 * TAIL_STEPS + 1 keeps its first and last ones. */
static GString *
join_steps (GPtrArray *names)
{
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (guint));
  GString *s = g_string_new (NULL);

  /* the index of the last step of each run */
  for (guint i = 0; i < names->len; i++)
    if (i + 1 == names->len || strcmp (g_ptr_array_index (names, i), g_ptr_array_index (names, i + 1)) != 0)
      g_array_append_val (runs, i);
  for (guint r = 0; r < runs->len; r++)
    {
      guint last = g_array_index (runs, guint, r);
      guint repeats = last + 1 - (r > 0 ? g_array_index (runs, guint, r - 1) + 1 : 0);

      if (r > 0)
        g_string_append (s, " → ");
      if (runs->len > HEAD_STEPS + TAIL_STEPS + 1 && r == HEAD_STEPS)
        {
          g_string_append (s, "…");
          r = runs->len - TAIL_STEPS - 1;
          continue;
        }
      if (repeats > 1)
        /* Translators: a function that calls itself, and how many times in a row */
        g_string_append_printf (s, _("%s ×%u"), (const char *) g_ptr_array_index (names, last), repeats);
      else
        g_string_append (s, g_ptr_array_index (names, last));
    }
  return s;
}

char *
hp_call_path_readable (const char *key)
{
  g_auto(GStrv) steps = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (key != NULL, NULL);

  /* a key comes from the capture: names of any length and any bytes */
  steps = hp_call_path_key_names (key);
  for (guint i = 0; steps[i] != NULL; i++)
    g_ptr_array_add (names, hp_symbol_name_shorten (steps[i], HP_SYMBOL_NAME_SHORT, HP_SHOWN_SHORT_CHARS));
  return g_string_free (join_steps (names), FALSE);
}

char *
hp_call_path_shown (HpLoadedCapture  *capture,
                    const HpCallNode *node,
                    guint             max_chars)
{
  g_autoptr(GPtrArray) steps = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GString) s = NULL;

  g_return_val_if_fail (capture != NULL, NULL);

  steps = hp_call_path_steps (node);
  for (guint i = 0; i < steps->len; i++)
    {
      const HpCallNode *step = g_ptr_array_index (steps, i);

      g_ptr_array_add (names, (gpointer) hp_loaded_capture_get_shown_name (capture, step->function_id, TRUE));
    }
  s = join_steps (names);
  return hp_symbol_name_sanitize (s->str, s->len, max_chars);
}

GPtrArray *
hp_call_path_steps (const HpCallNode *node)
{
  GPtrArray *steps = g_ptr_array_new ();

  /* leaf first, then turned round: inserting at the front moved the
   * whole array each step, 10^10 moves for a path 100 000 deep */
  for (; node != NULL && node->parent != NULL; node = node->parent)
    g_ptr_array_add (steps, (gpointer) node);
  for (guint i = 0, j = steps->len; i + 1 < j; i++, j--)
    {
      gpointer step = steps->pdata[i];

      steps->pdata[i] = steps->pdata[j - 1];
      steps->pdata[j - 1] = step;
    }
  return steps;
}

/* The matching nodes under @root in depth-first order, up to
 * @max_matches. */
static void
collect_matches (const HpCallNode *root,
                 const guint8     *match,
                 guint             n_functions,
                 guint             max_matches,
                 GPtrArray        *out)
{
  HpCallNodeWalk walk;
  const HpCallNode *node;

  hp_call_node_walk_init (&walk, root);
  while (out->len < max_matches && (node = hp_call_node_walk_next (&walk)) != NULL)
    if (node->parent != NULL && (guint64) node->function_id < n_functions && match[node->function_id])
      g_ptr_array_add (out, (gpointer) node);
  hp_call_node_walk_clear (&walk);
}

/* Matches each function once, then walks the tree comparing ids: the
 * tree has many more nodes than the capture has functions. */
GPtrArray *
hp_call_path_search (HpProfile        *profile,
                     const HpCallNode *root,
                     const char       *folded,
                     guint             max_matches)
{
  const HpCaptureData *data;
  guint n_functions;
  g_autofree guint8 *match = NULL;
  GPtrArray *matches = g_ptr_array_new ();
  gboolean any = FALSE;

  g_return_val_if_fail (profile != NULL, matches);
  g_return_val_if_fail (root != NULL, matches);
  g_return_val_if_fail (folded != NULL, matches);

  data = hp_profile_get_data (profile);
  n_functions = data->functions->len;
  match = g_new0 (guint8, MAX (n_functions, 1));
  for (guint f = 1; f < n_functions; f++)
    {
      g_autofree char *name = g_utf8_casefold (g_array_index (data->functions, HpCaptureFunction, f).name, -1);

      if (strstr (name, folded) != NULL)
        match[f] = any = TRUE;
    }
  if (any)
    collect_matches (root, match, n_functions, max_matches, matches);
  return matches;
}
