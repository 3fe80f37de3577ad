/* hp-name-match.c - finding functions by the names people type
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * `report --callers memcpy` should work although no function of a glibc
 * program is called memcpy: the C library picks an implementation at load
 * time (an ifunc) named after the CPU features it uses, and the symbol
 * that covers the address may be any alias of it (__memmove_avx_unaligned_
 * erms also is memcpy's). C++ functions carry their parameter lists. So a
 * query goes through rules from the strictest to the loosest and the first
 * that finds anything wins (the exact name and the aliases together: the
 * dynamic loader's own malloc must not hide the C library's); the caller says which, and asks the user to
 * choose when a loose rule finds several different names.
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include <string.h>

#include "analysis/hp-name-match.h"

char *
hp_name_strip_parameters (const char *name)
{
  int depth = 0;
  gsize len;

  g_return_val_if_fail (name != NULL, NULL);

  len = strlen (name);
  /* the parameter list is the last '(' at template depth 0 that opens a
   * list closed at the end (before qualifiers such as " const") */
  for (gsize i = len; i > 0; i--)
    {
      char c = name[i - 1];

      if (c == ')' || c == '>')
        depth++;
      else if (c == '(' || c == '<')
        {
          depth--;
          if (depth == 0 && c == '(')
            {
              /* "operator()" is a name, not a list */
              if (i >= 9 && strncmp (name + i - 9, "operator(", 9) == 0 && name[i] == ')')
                continue;
              /* "(anonymous namespace)" is a scope */
              if (strncmp (name + i - 1, "(anonymous namespace)", 21) == 0)
                continue;
              return g_strndup (name, i - 1);
            }
        }
    }
  return g_strdup (name);
}

/* what the C library puts before the names of its aliases, longest first */
static const char * const libc_prefixes[] = { "__gi_", "__libc_", "__", "_" };

/* Is @name an implementation or alias of the C library function @query? */
static gboolean
is_alias (const char *name,
          const char *query)
{
  static const char * const prefixes[] = { "__GI_", "__libc_", "__", "_" };
  gsize qlen = strlen (query);

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    {
      gsize plen = strlen (prefixes[i]);

      if (strncmp (name, prefixes[i], plen) != 0 || strncmp (name + plen, query, qlen) != 0)
        continue;
      /* __GI_memcpy, or an ifunc variant: __strncmp_evex, __memcpy_avx_unaligned */
      if (name[plen + qlen] == '\0' || (i >= 2 && name[plen + qlen] == '_'))
        return TRUE;
    }
  /* glibc's memcpy implementations are its memmove ones */
  if ((strcmp (query, "memcpy") == 0 || strcmp (query, "mempcpy") == 0) &&
      g_str_has_prefix (name, "__memmove_"))
    return TRUE;
  return FALSE;
}

static gboolean
has_glob (const char *query)
{
  return strpbrk (query, "*?") != NULL;
}

static gboolean
matches (const char  *name,
         const char  *query,
         HpNameMatch  rule,
         GPatternSpec *pattern,
         const char  *folded_query)
{
  switch (rule)
    {
    case HP_NAME_MATCH_EXACT:
      return strcmp (name, query) == 0;
    case HP_NAME_MATCH_ALIAS:
      if (is_alias (name, query))
        return TRUE;
      /* __GI_memset, __libc_malloc asked for by that name: the function
       * of the C library under any of its names */
      for (guint i = 0; i < 2; i++)
        if (g_ascii_strncasecmp (query, libc_prefixes[i], strlen (libc_prefixes[i])) == 0 &&
            query[strlen (libc_prefixes[i])] != '\0')
          {
            const char *base = query + strlen (libc_prefixes[i]);

            return strcmp (name, base) == 0 || is_alias (name, base);
          }
      return FALSE;
    case HP_NAME_MATCH_NO_PARAMS:
      {
        g_autofree char *bare = hp_name_strip_parameters (name);
        gsize blen = strlen (bare), qlen = strlen (query);

        if (strcmp (bare, query) == 0)
          return TRUE;
        /* Foo::bar for ns::Foo::bar(int) */
        return blen > qlen + 2 && strcmp (bare + blen - qlen, query) == 0
               && bare[blen - qlen - 1] == ':' && bare[blen - qlen - 2] == ':';
      }
    case HP_NAME_MATCH_GLOB:
      {
        g_autofree char *bare = hp_name_strip_parameters (name);

        return g_pattern_spec_match_string (pattern, name) || g_pattern_spec_match_string (pattern, bare);
      }
    case HP_NAME_MATCH_SUBSTRING:
      {
        g_autofree char *folded = g_utf8_casefold (name, -1);

        return strstr (folded, folded_query) != NULL;
      }
    case HP_NAME_MATCH_NONE:
    default:
      return FALSE;
    }
}

GArray *
hp_profile_match_functions (HpProfile   *profile,
                            const char  *query,
                            HpNameMatch *how)
{
  const GArray *functions;
  g_autoptr(GPatternSpec) pattern = NULL;
  g_autofree char *folded = NULL;
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (gint64));

  g_return_val_if_fail (profile != NULL, ids);
  g_return_val_if_fail (query != NULL, ids);

  if (how != NULL)
    *how = HP_NAME_MATCH_NONE;
  if (query[0] == '\0')
    return ids;
  functions = hp_profile_get_functions (profile, TRUE);
  pattern = g_pattern_spec_new (query);
  folded = g_utf8_casefold (query, -1);

  for (HpNameMatch rule = HP_NAME_MATCH_EXACT; rule <= HP_NAME_MATCH_SUBSTRING; rule++)
    {
      gboolean exact = FALSE;

      if (rule == HP_NAME_MATCH_GLOB && !has_glob (query))
        continue;
      /* the aliases are taken with the exact name, not after it: the
       * dynamic loader has a malloc and a memset of its own, which would
       * hide the C library's __libc_malloc and __memset_evex_unaligned_erms
       * that a program's calls reach */
      if (rule == HP_NAME_MATCH_ALIAS)
        continue;
      for (guint i = 0; i < functions->len; i++)
        {
          const HpFunctionStats *s = &g_array_index (functions, HpFunctionStats, i);
          const char *name = hp_profile_get_function_name (profile, s->function_id);

          if (name == NULL)
            continue;
          if (matches (name, query, rule, pattern, folded))
            {
              g_array_append_val (ids, s->function_id);
              exact = exact || rule == HP_NAME_MATCH_EXACT;
            }
          else if (rule == HP_NAME_MATCH_EXACT && matches (name, query, HP_NAME_MATCH_ALIAS, pattern, folded))
            g_array_append_val (ids, s->function_id);
        }
      if (ids->len > 0)
        {
          if (how != NULL)
            *how = rule == HP_NAME_MATCH_EXACT && !exact ? HP_NAME_MATCH_ALIAS : rule;
          break;
        }
    }
  return ids;
}

/* Levenshtein distance, two rows */
static guint
distance (const char *a,
          const char *b)
{
  gsize la = strlen (a), lb = strlen (b);
  g_autofree guint *prev = g_new (guint, lb + 1);
  g_autofree guint *cur = g_new (guint, lb + 1);

  for (gsize j = 0; j <= lb; j++)
    prev[j] = j;
  for (gsize i = 1; i <= la; i++)
    {
      cur[0] = i;
      for (gsize j = 1; j <= lb; j++)
        {
          guint cost = a[i - 1] == b[j - 1] ? 0 : 1;

          cur[j] = MIN (MIN (prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost);
        }
      memcpy (prev, cur, (lb + 1) * sizeof *prev);
    }
  return prev[lb];
}

/* The components of a C++ name without its parameter list, split at the
 * "::" outside template arguments: "unsigned long ns::walk<int>" gives
 * "unsigned long ns", "walk<int>". */
static GPtrArray *
name_components (const char *bare)
{
  GPtrArray *parts = g_ptr_array_new_with_free_func (g_free);
  const char *start = bare;
  int depth = 0;

  for (const char *p = bare; *p != '\0'; p++)
    {
      if (*p == '<' || *p == '(')
        depth++;
      else if ((*p == '>' || *p == ')') && depth > 0)
        depth--;
      else if (depth == 0 && p[0] == ':' && p[1] == ':')
        {
          g_ptr_array_add (parts, g_strndup (start, p - start));
          start = p + 2;
          p++;
        }
    }
  g_ptr_array_add (parts, g_strdup (start));
  return parts;
}

/* A component as people type it: without the template arguments at its
 * end ("walk<int>" is "walk"; "operator<" stays) and without a return
 * type before it ("unsigned long walk" is "walk"). */
static char *
plain_component (const char *part)
{
  g_autofree char *name = g_strdup (part);
  gsize len = strlen (name);
  char *space;

  if (g_str_has_prefix (name, "operator") || strstr (name, " operator") != NULL)
    return g_steal_pointer (&name);
  if (len > 0 && name[len - 1] == '>')
    {
      int depth = 0;

      for (gsize i = len; i > 0; i--)
        {
          if (name[i - 1] == '>')
            depth++;
          else if (name[i - 1] == '<' && --depth == 0)
            {
              name[i - 1] = '\0';
              break;
            }
        }
    }
  if (strchr (name, '<') == NULL && (space = strrchr (name, ' ')) != NULL)
    return g_strdup (space + 1);
  return g_steal_pointer (&name);
}

/* How far @name is from @query (both case-folded), by the closest of the
 * ways one names a function: the whole name without parameters, its last
 * component alone ("parse" for "ns::Parser::parse(int)"), or as many of
 * its last components as the query has ("Parser::parse"). */
static guint
name_distance (const char *name,
               const char *folded_query,
               guint       query_parts)
{
  g_autofree char *bare = hp_name_strip_parameters (name);
  g_autofree char *folded = g_utf8_casefold (bare, -1);
  g_autoptr(GPtrArray) parts = name_components (folded);
  g_autofree char *last = plain_component (g_ptr_array_index (parts, parts->len - 1));
  guint best = distance (folded, folded_query);

  best = MIN (best, distance (last, folded_query));
  /* __libc_malloc, __GI_memset: the name the C library documents */
  for (guint i = 0; i < G_N_ELEMENTS (libc_prefixes); i++)
    if (g_str_has_prefix (folded, libc_prefixes[i]) && folded[strlen (libc_prefixes[i])] != '\0')
      {
        best = MIN (best, distance (folded + strlen (libc_prefixes[i]), folded_query));
        break;
      }
  if (query_parts > 1 && query_parts < parts->len)
    {
      g_autoptr(GString) tail = g_string_new (NULL);

      for (guint i = parts->len - query_parts; i < parts->len; i++)
        {
          if (i + 1 < parts->len)
            g_string_append_printf (tail, "%s::", (char *) g_ptr_array_index (parts, i));
          else
            g_string_append (tail, last);
        }
      best = MIN (best, distance (tail->str, folded_query));
    }
  return best;
}

typedef struct {
  const char *name;
  guint       distance;
} Candidate;

static int
by_distance (gconstpointer a,
             gconstpointer b)
{
  const Candidate *ca = a, *cb = b;

  if (ca->distance != cb->distance)
    return ca->distance < cb->distance ? -1 : 1;
  return g_strcmp0 (ca->name, cb->name);
}

GPtrArray *
hp_profile_suggest_functions (HpProfile  *profile,
                              const char *query,
                              guint       max)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) candidates = g_array_new (FALSE, FALSE, sizeof (Candidate));
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *folded_query = NULL;
  const GArray *functions;
  guint limit, query_parts;

  g_return_val_if_fail (profile != NULL, names);
  g_return_val_if_fail (query != NULL, names);

  folded_query = g_utf8_casefold (query, -1);
  {
    g_autoptr(GPtrArray) parts = name_components (folded_query);

    query_parts = parts->len;
  }
  limit = MAX (2, (guint) strlen (query) / 3);
  functions = hp_profile_get_functions (profile, TRUE);
  for (guint i = 0; i < functions->len; i++)
    {
      const char *name = hp_profile_get_function_name (profile, g_array_index (functions, HpFunctionStats, i).function_id);
      Candidate c;

      if (name == NULL || g_hash_table_contains (seen, name) || strlen (name) > 200)
        continue;
      g_hash_table_add (seen, (gpointer) name);
      c.name = name;
      c.distance = name_distance (name, folded_query, query_parts);
      if (c.distance <= limit)
        g_array_append_val (candidates, c);
    }
  g_array_sort (candidates, by_distance);
  for (guint i = 0; i < candidates->len && i < max; i++)
    g_ptr_array_add (names, g_strdup (g_array_index (candidates, Candidate, i).name));
  return names;
}

gboolean
hp_name_is_address (const char *name)
{
  const char *plus;

  if (name == NULL)
    return FALSE;
  /* the placeholder of an address in no known function (schema.sql), as a
   * pprof location without lines is imported */
  if (g_str_has_prefix (name, "0x") && name[2] != '\0')
    return strspn (name + 2, "0123456789abcdef") == strlen (name + 2);
  if ((plus = strstr (name, "+0x")) == NULL || plus == name || plus[3] == '\0')
    return FALSE;
  return strspn (plus + 3, "0123456789abcdef") == strlen (plus + 3);
}

gboolean
hp_name_is_unnamed_jit (const char *name)
{
  return name != NULL && g_str_has_prefix (name, "[anon] 0x");
}

static int
by_samples (gconstpointer a,
            gconstpointer b)
{
  const HpUnsymbolized *ua = a, *ub = b;

  if (ua->samples != ub->samples)
    return ua->samples > ub->samples ? -1 : 1;
  return g_strcmp0 (ua->module, ub->module);
}

GArray *
hp_profile_get_unsymbolized (HpProfile *profile,
                             guint64   *total)
{
  GArray *modules = g_array_new (FALSE, FALSE, sizeof (HpUnsymbolized));
  const GArray *functions;
  guint64 sum = 0;

  g_return_val_if_fail (profile != NULL, modules);

  functions = hp_profile_get_functions (profile, FALSE);
  for (guint i = 0; i < functions->len; i++)
    {
      const HpFunctionStats *f = &g_array_index (functions, HpFunctionStats, i);
      const char *name = hp_profile_get_function_name (profile, f->function_id);
      const char *module;
      gboolean jit;
      guint j;

      if (f->self == 0)
        continue;
      jit = hp_name_is_unnamed_jit (name);
      if (!jit && !hp_name_is_address (name))
        continue;
      module = hp_profile_get_module_name (profile, f->function_id);
      for (j = 0; j < modules->len; j++)
        if (g_strcmp0 (g_array_index (modules, HpUnsymbolized, j).module, module) == 0)
          break;
      if (j == modules->len)
        g_array_append_val (modules, ((HpUnsymbolized) { module, 0, jit }));
      g_array_index (modules, HpUnsymbolized, j).samples += f->self;
      sum += f->self;
    }
  g_array_sort (modules, by_samples);
  if (total != NULL)
    *total = sum;
  return modules;
}
