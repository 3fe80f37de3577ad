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

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <string.h>

#include "ui/hp-call-path.h"

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

char *
hp_call_path_readable (const char *key)
{
  g_auto(GStrv) lines = NULL;
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (key != NULL, NULL);

  lines = g_strsplit (key, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *tab = strchr (lines[i], '\t');

      if (lines[i][0] == '\0')
        continue;
      if (s->len > 0)
        g_string_append (s, " → ");
      g_string_append (s, tab ? tab + 1 : lines[i]);
    }
  return g_string_free (s, FALSE);
}

GPtrArray *
hp_call_path_steps (const HpCallNode *node)
{
  GPtrArray *steps = g_ptr_array_new ();

  for (; node != NULL && node->parent != NULL; node = node->parent)
    g_ptr_array_insert (steps, 0, (gpointer) node);
  return steps;
}
