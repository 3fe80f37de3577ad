/* hp-cli-summary.c - hotpath-cli summary: read and write call-path summaries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's summary pane, without a display: a call path is named by its
 * functions, root side first, separated by ';' as in folded stacks
 * ("main;tokenize;count_word"); a path that does not start at a root names
 * the hottest node whose path ends that way.
 */

#define G_LOG_DOMAIN "hp-cli"

#include "config.h"

#include <glib/gi18n.h>

#include <stdio.h>
#include <string.h>

#include <math.h>

#include "analysis/hp-name-match.h"
#include "analysis/hp-profile.h"
#include "analysis/hp-summary-match.h"
#include "analysis/hp-text.h"
#include "document/hp-summarizer.h"
#include "cli/hp-cli.h"
#include "cli/hp-cli-suggest.h"
#include "document/hp-call-path.h"
#include "record/hp-perf-import.h"
#include "store/hp-capture.h"

/* @text, from the capture, line by line under its path: each line made
 * safe for a terminal (a summary is the capture's text, and a capture is
 * a file people mail to each other). */
static void
print_text (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text ? text : "", "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *safe = hp_text_escape (lines[i]);

      printf ("  %s\n", safe);
    }
}

static gboolean
is_path (HpProfile          *profile,
         const char * const *names)
{
  g_autoptr(GPtrArray) found = hp_profile_find_paths (profile, names);

  return found->len > 0;
}

/* Why @names is no call path of @profile, a clause for the end of the
 * error (NULL when there is none to give), so that a typo is one retry: a
 * name no function has, with the nearest one (and the whole path corrected
 * when that is one); the path given leaf first; or else the longest
 * leading part that is a path, and what it calls. Each clause is one
 * translatable string. */
static char *
path_hint (HpProfile *profile,
           char     **names)
{
  guint n = g_strv_length (names), k, n_unknown = 0;
  g_auto(GStrv) corrected = g_strdupv (names);
  g_autoptr(GString) unknown = g_string_new (NULL);
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GString) callees = g_string_new (NULL);

  if (n == 0)
    return NULL;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GArray) ids = hp_profile_find_functions (profile, names[i]);
      g_autoptr(GPtrArray) close = NULL;

      if (ids->len > 0)
        continue;
      close = hp_profile_suggest_functions (profile, names[i], 1);
      if (n_unknown++ < 3)
        {
          if (n_unknown > 1)
            /* Translators: joins the names that no function has, as in
             * "no function is named 'pars' (did you mean 'parse'?), nor 'qq'" */
            g_string_append (unknown, _(", nor "));
          if (close->len > 0)
            /* Translators: a name that no function has, then the nearest one */
            g_string_append_printf (unknown, _("'%s' (did you mean '%s'?)"), names[i],
                                    (char *) g_ptr_array_index (close, 0));
          else
            g_string_append_printf (unknown, "'%s'", names[i]);
        }
      if (close->len > 0)
        {
          g_free (corrected[i]);
          corrected[i] = g_strdup (g_ptr_array_index (close, 0));
        }
    }
  if (n_unknown > 0)
    {
      if (is_path (profile, (const char * const *) corrected))
        {
          g_autofree char *joined = g_strjoinv (";", corrected);

          /* Translators: after "no call path main;lexx in app.hotpath; " */
          return g_strdup_printf (_("did you mean '%s'?"), joined);
        }
      /* Translators: after "no call path main;zz in app.hotpath; ", the
       * names in quotes, as in "'zz' (did you mean 'lex'?), nor 'qq'" */
      return g_strdup_printf (_("no function is named %s"), unknown->str);
    }

  /* every name is a function's: in the wrong order, or not one path */
  if (n > 1)
    {
      g_auto(GStrv) reversed = g_new0 (char *, n + 1);

      for (guint i = 0; i < n; i++)
        reversed[i] = g_strdup (names[n - 1 - i]);
      if (is_path (profile, (const char * const *) reversed))
        {
          g_autofree char *joined = g_strjoinv (";", reversed);

          /* Translators: after "no call path lex;main in app.hotpath; " */
          return g_strdup_printf (_("did you mean '%s' (root side first)?"), joined);
        }
    }
  for (k = n - 1; k > 0; k--)
    {
      char *cut = corrected[k];

      corrected[k] = NULL;
      found = hp_profile_find_paths (profile, (const char * const *) corrected);
      corrected[k] = cut;
      if (found->len > 0)
        break;
      g_clear_pointer (&found, g_ptr_array_unref);
    }
  if (found != NULL)
    {
      const HpCallNode *node = g_ptr_array_index (found, 0);
      char *cut = corrected[k];
      g_autofree char *joined = NULL;
      guint shown = 0;

      corrected[k] = NULL;
      joined = g_strjoinv (";", corrected);
      corrected[k] = cut;
      /* the children are sorted hottest first */
      for (guint i = 0; node->children != NULL && i < node->children->len && shown < 5; i++, shown++)
        {
          const HpCallNode *child = g_ptr_array_index (node->children, i);

          g_string_append_printf (callees, "%s'%s'", shown > 0 ? ", " : "",
                                  hp_profile_get_function_name (profile, child->function_id));
        }
      /* Translators: after "no call path main;run;lex in app.hotpath; ",
       * the leading part of it that is a call path */
      if (shown == 0)
        return g_strdup_printf (_("'%s' is one, and calls nothing"), joined);
      if (node->children->len > shown)
        /* Translators: the leading part of the path that is one, the
         * functions it calls in quotes, then how many more it calls */
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "'%s' is one, and calls %s and %u more",
                                             "'%s' is one, and calls %s and %u more",
                                             node->children->len - shown),
                                joined, callees->str, node->children->len - shown);
      /* Translators: the leading part of the path that is one, then the
       * functions it calls in quotes */
      return g_strdup_printf (_("'%s' is one, and calls %s"), joined, callees->str);
    }
  return NULL;
}

static int
by_total (gconstpointer a,
          gconstpointer b)
{
  const HpCallNode *na = *(const HpCallNode * const *) a, *nb = *(const HpCallNode * const *) b;

  return na->total > nb->total ? -1 : na->total < nb->total;
}

/* The call paths that @names end, each name taken as `report --callers`
 * takes it (hp-name-match.c: aliases, C++ names without parameters,
 * globs, parts of names), hottest first: for a PATH that names no path
 * exactly. Several different functions for one name give several paths,
 * which writing refuses and lists. */
static GPtrArray *
find_paths_loosely (HpProfile  *profile,
                    char      **names)
{
  guint n = g_strv_length (names);
  g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  g_autoptr(GPtrArray) pending = g_ptr_array_new ();
  GPtrArray *found = g_ptr_array_new ();

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GArray) ids = hp_profile_match_functions (profile, names[i], NULL);
      GHashTable *set = g_hash_table_new (NULL, NULL);

      for (guint k = 0; k < ids->len; k++)
        g_hash_table_add (set, GSIZE_TO_POINTER ((gsize) g_array_index (ids, gint64, k)));
      g_ptr_array_add (sets, set);
      if (ids->len == 0)
        return found;
    }
  if (n == 0)
    return found;
  /* iterative: a deep recursion is a deep tree */
  g_ptr_array_add (pending, (gpointer) hp_profile_get_top_down (profile));
  while (pending->len > 0)
    {
      const HpCallNode *node = g_ptr_array_steal_index_fast (pending, pending->len - 1);
      const HpCallNode *step = node;
      guint k = n;

      while (k > 0 && step != NULL && step->function_id != 0 &&
             g_hash_table_contains (g_ptr_array_index (sets, k - 1), GSIZE_TO_POINTER ((gsize) step->function_id)))
        {
          k--;
          step = step->parent;
        }
      if (k == 0)
        g_ptr_array_add (found, (gpointer) node);
      if (node->children != NULL)
        for (guint i = 0; i < node->children->len; i++)
          g_ptr_array_add (pending, g_ptr_array_index (node->children, i));
    }
  g_ptr_array_sort (found, by_total);
  return found;
}

/* How many frames of @node, leaf side, tell it from every other node of
 * @candidates: one more than the longest leaf-side run of names it
 * shares with any of them (by name, as typed: cc1's and cc1plus's
 * ggc_internal_alloc are one name), at least @n_given (what the user
 * typed already narrowed it to the candidates), at most its whole path. */
static guint
distinguishing_length (HpProfile        *profile,
                       GPtrArray        *candidates,
                       const HpCallNode *node,
                       guint             n_given)
{
  guint depth = 0, longest = 0;

  for (const HpCallNode *s = node; s != NULL && s->function_id != 0; s = s->parent)
    depth++;
  for (guint i = 0; i < candidates->len; i++)
    {
      const HpCallNode *a = node, *b = g_ptr_array_index (candidates, i);
      guint shared = 0;

      if (b == node)
        continue;
      while (a != NULL && b != NULL && a->function_id != 0 && b->function_id != 0 &&
             (a->function_id == b->function_id ||
              g_strcmp0 (hp_profile_get_function_name (profile, a->function_id),
                         hp_profile_get_function_name (profile, b->function_id)) == 0))
        {
          shared++;
          a = a->parent;
          b = b->parent;
        }
      longest = MAX (longest, shared);
    }
  return MIN (depth, MAX (longest + 1, n_given));
}

/* Refuses to write to one of several @candidates (hottest first) that
 * @given ends: lists them, --limit N of them (10 by default), each as the
 * shortest PATH that names it alone, in the names report --callers
 * takes, ready to paste; a C++ template recursion ends hundreds of paths
 * twenty frames deep with the same name. */
static void
refuse_ambiguous (HpProfile  *profile,
                  GPtrArray  *candidates,
                  const char *given,
                  gint        limit)
{
  guint64 n_samples = hp_profile_get_n_samples (profile);
  g_auto(GStrv) given_names = g_strsplit (given, ";", -1);
  g_autoptr(GHashTable) short_names = hp_cli_short_names_new ();
  guint shown = hp_cli_listing_size (limit, candidates->len);

  hp_cli_error (g_dngettext (GETTEXT_PACKAGE,
                             "summary: %u call path ends with %s; give one of these (each the shortest PATH "
                             "that names it alone), or more of the path, root side first, separated by ';':",
                             "summary: %u call paths end with %s; give one of these (each the shortest PATH "
                             "that names it alone), or more of the path, root side first, separated by ';':",
                             candidates->len),
                candidates->len, given);
  for (guint i = 0; i < shown; i++)
    {
      const HpCallNode *c = g_ptr_array_index (candidates, i);
      guint k = distinguishing_length (profile, candidates, c, g_strv_length (given_names));
      g_autoptr(GPtrArray) steps = g_ptr_array_new ();
      g_autoptr(GString) path = g_string_new (NULL);
      const HpCallNode *s = c;

      for (guint j = 0; j < k; j++, s = s->parent)
        g_ptr_array_add (steps, (gpointer) hp_cli_short_name (profile, s->function_id, short_names));
      for (guint j = steps->len; j > 0; j--)
        g_string_append_printf (path, "%s%s", j < steps->len ? ";" : "", (const char *) g_ptr_array_index (steps, j - 1));
      /* quoted for the shell: C++ names hold < > and the separator is ; */
      hp_cli_error ("  %5.1f%%  '%s'", n_samples ? 100.0 * c->total / n_samples : 0.0, path->str);
    }
  if (candidates->len > shown)
    {
      const HpCallNode *next = g_ptr_array_index (candidates, shown);

      hp_cli_error (g_dngettext (GETTEXT_PACKAGE, "  … and %u more, each %.1f%% or less (--limit N lists N)",
                                 "  … and %u more, each %.1f%% or less (--limit N lists N)", candidates->len - shown),
                    candidates->len - shown, n_samples ? 100.0 * next->total / n_samples : 0.0);
    }
}

/* Lists every summary; one written in another capture says where, and how
 * its path's share moved since. */
static int
list_summaries (HpCapture *capture)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = hp_capture_list_summary_rows (capture, &error);
  g_autoptr(HpCaptureData) data = NULL;
  g_autoptr(HpProfile) profile = NULL;
  g_autoptr(HpSummaryMatcher) matcher = NULL;
  g_autofree char *this_name = g_path_get_basename (hp_capture_get_path (capture));

  if (rows == NULL)
    {
      hp_cli_error ("%s", error->message);
      return 1;
    }
  /* The summaries live in a capture whose other tables may be corrupt:
   * read and checked whole, as every other sub-command does, so that a
   * damaged capture is not listed as if it were sound (exit 0). */
  data = hp_capture_load (capture, &error);
  if (data == NULL)
    {
      hp_cli_error ("%s", error->message);
      return 1;
    }

  for (guint r = 0; r < rows->len; r++)
    {
      const HpCaptureSummary *summary = g_ptr_array_index (rows, r);
      g_auto(GStrv) steps = hp_call_path_key_names (summary->path_key);
      g_autofree char *path = g_strjoinv (";", steps);
      g_autofree char *origin = NULL;
      double share_now = NAN;

      if (summary->capture != NULL && strcmp (summary->capture, this_name) != 0 && summary->found)
        {
          HpSummaryMatch how;
          const HpCallNode *node;

          if (profile == NULL)
            {
              profile = hp_profile_new (data, NULL);
              matcher = hp_summary_matcher_new (profile);
            }
          node = matcher ? hp_summary_matcher_find (matcher, summary->path_key, &how) : NULL;
          if (node != NULL && how == HP_SUMMARY_MATCH_EXACT)
            share_now = hp_summary_share (profile, node);
        }
      origin = hp_summary_describe_origin (summary, this_name, share_now);
      {
        g_autofree char *safe_path = hp_text_escape (path);

        printf ("%s\n", safe_path);
      }
      print_text (summary->text);
      if (origin != NULL)
        {
          g_autofree char *safe_origin = hp_text_escape (origin);

          printf ("  (%s)\n", safe_origin);
        }
      else if (!summary->found)
        printf (_("  (not found in this capture)\n"));
    }
  if (rows->len == 0)
    printf (_("# no summaries in %s\n"), hp_capture_get_path (capture));
  hp_cli_note_summaries_cut (capture);
  return 0;
}

int
hp_cli_summary (int    argc,
                char **argv)
{
  g_auto(GStrv) args = NULL;
  g_autofree char *raw_text = NULL;
  g_autofree char *text = NULL;
  g_autofree char *import = NULL;
  g_autofree char *cached = NULL;
  gboolean clear = FALSE;
  gboolean suggest = FALSE;
  g_autofree char *format = NULL;
  g_auto(GStrv) source_dirs = NULL;
  gint timeout = HP_SUMMARIZER_DEFAULT_TIMEOUT;
  gint limit = -1;
  GOptionEntry entries[] = {
    /* FILENAME: the bytes as given, converted below; STRING would refuse
     * "café" under LC_ALL=C ("Invalid byte sequence") */
    { "set", 0, 0, G_OPTION_ARG_FILENAME, &raw_text, N_("Write TEXT as the summary of PATH"), N_("TEXT") },
    { "clear", 0, 0, G_OPTION_ARG_NONE, &clear, N_("Delete the summary of PATH"), NULL },
    { "import", 0, 0, G_OPTION_ARG_FILENAME, &import,
      N_("Copy every summary of OLD onto the matching call paths of CAPTURE"), N_("OLD") },
    { "suggest", 0, 0, G_OPTION_ARG_NONE, &suggest,
      N_("Print a suggested summary of PATH, from the code or from the command $HOTPATH_SUMMARIZER (never saved)"), NULL },
    { "source-dir", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &source_dirs,
      N_("With --suggest: a folder to look for source files in (repeatable)"), N_("DIR") },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &timeout,
      N_("With --suggest: seconds the summarizer may run (default 120; 0: no limit)"), N_("SECONDS") },
    { "limit", 'n', 0, G_OPTION_ARG_INT, &limit,
      N_("With a PATH that ends several call paths: list N of them (default 10)"), N_("N") },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format,
      N_("Without PATH: list the summaries as text (default), markdown (a review document) or json"), N_("FORMAT") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &args, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = hp_cli_option_context_new (N_("CAPTURE [PATH]"));
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) data = NULL;
  g_autoptr(HpProfile) profile = NULL;
  g_auto(GStrv) names = NULL;
  g_autofree char *key = NULL;
  g_autofree char *readable = NULL;
  g_autofree char *current = NULL;
  const HpCallNode *node;
  g_autoptr(GPtrArray) candidates = NULL;
  gboolean writing;

  g_option_context_set_summary (context,
                                N_("List the summaries of a capture, or read or write the summary of one call path.\n"
                                "PATH names functions from the root side, separated by ';' (e.g. main;parse;lex),\n"
                                "each as report --callers takes it (memcpy, ns::Parser::parse, 'parse*').\n"
                                "--import OLD places the summaries of the capture OLD on the same call paths of\n"
                                "CAPTURE (a rebuild or a new recording of the program), saying which rule matched\n"
                                "each, and keeps those it cannot place as \"not found in this capture\".\n\n"
                                "Examples:\n"
                                "  hotpath-cli summary app.hotpath\n"
                                "  hotpath-cli summary app.hotpath 'main;parse;lex' --set 'Tokenizing: one pass over the input.'\n"
                                "  hotpath-cli summary new.hotpath --import old.hotpath"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      hp_cli_error (_("summary: %s"), error->message);
      return 2;
    }
  if (args == NULL || args[0] == NULL || (args[1] != NULL && args[2] != NULL))
    {
      hp_cli_error (_("summary: give a capture file and at most one call path"));
      return 2;
    }
  if (raw_text != NULL)
    {
      /* UTF-8 as it comes (whatever the locale says), else the locale's
       * encoding converted. */
      if (g_utf8_validate (raw_text, -1, NULL))
        text = g_steal_pointer (&raw_text);
      else if ((text = g_locale_to_utf8 (raw_text, -1, NULL, NULL, NULL)) == NULL)
        {
          hp_cli_error (_("summary: --set: the text is neither UTF-8 nor in the encoding of the locale"));
          return 2;
        }
    }
  if (text != NULL && text[strspn (text, " \t\n\r")] == '\0')
    {
      /* An empty summary would delete the one there: say it. */
      hp_cli_error (_("summary: --set needs a text; use --clear to delete a summary"));
      return 2;
    }
  if (import != NULL)
    {
      if (args[1] != NULL || text != NULL || clear)
        {
          hp_cli_error (_("summary: --import takes a capture file and nothing else"));
          return 2;
        }
      return hp_cli_summary_import (args[0], import);
    }
  writing = text != NULL || clear;
  if (suggest && (writing || args[1] == NULL))
    {
      hp_cli_error (_("summary: --suggest needs a call path, and goes without --set and --clear"));
      return 2;
    }
  if (format != NULL && (writing || suggest || args[1] != NULL))
    {
      hp_cli_error (_("summary: --format lists every summary: give no call path, --set, --clear or --suggest"));
      return 2;
    }
  if (timeout < 0)
    {
      hp_cli_error (_("summary: --timeout must be 0 (no limit) or more seconds"));
      return 2;
    }
  if (writing && args[1] == NULL)
    {
      hp_cli_error (_("summary: --set and --clear need a call path"));
      return 2;
    }
  if (text != NULL && clear)
    {
      hp_cli_error (_("summary: give either --set or --clear"));
      return 2;
    }

  if (hp_perf_import_is_perf_data (args[0]))
    {
      g_autofree char *target = hp_perf_import_capture_name (args[0]);

      if (!suggest)
        {
          /* a summary written into the import's cache would be lost with it */
          hp_cli_error (writing ? _("summary: %s is %s, which cannot hold summaries; they are written into captures: "
                                    "'hotpath-cli import %s' writes %s, then run hotpath-cli summary %s …")
                                : _("summary: %s is %s, which holds no summaries; they are written into captures: "
                                    "'hotpath-cli import %s' writes %s, then run hotpath-cli summary %s …"),
                        args[0], hp_cli_profile_kind (args[0]),
                        args[0], target, target);
          return 1;
        }
      /* a suggestion writes nothing: the cached import does */
      {
        g_autoptr(GCancellable) cancellable = hp_cli_cancel_on_signals ();

        cached = hp_perf_import_cached (args[0], hp_cli_fetch_progress, NULL, cancellable, &error);
      }
      if (cached == NULL)
        {
          hp_cli_error ("%s", error->message);
          return 1;
        }
    }
  capture = hp_capture_open (cached != NULL ? cached : args[0], writing, &error);
  if (capture == NULL)
    {
      hp_cli_error ("%s", error->message);
      return 1;
    }
  if (args[1] == NULL && format != NULL && !g_str_equal (format, "text"))
    return hp_cli_summary_review (capture, format);
  if (args[1] == NULL)
    return list_summaries (capture);

  data = hp_capture_load (capture, &error);
  if (data == NULL)
    {
      hp_cli_error ("%s", error->message);
      return 1;
    }
  profile = hp_profile_new (data, NULL);
  names = g_strsplit (args[1], ";", -1);
  candidates = hp_profile_find_paths (profile, (const char * const *) names);
  if (candidates->len == 0)
    {
      g_clear_pointer (&candidates, g_ptr_array_unref);
      candidates = find_paths_loosely (profile, names);
    }
  if (candidates->len == 0)
    {
      g_autofree char *hint = path_hint (profile, names);

      if (hint != NULL)
        /* Translators: a call path, a capture file, then why: "did you
         * mean 'main;lex'?", "no function is named 'zz'", … */
        hp_cli_error (_("no call path %s in %s; %s"), args[1], args[0], hint);
      else
        hp_cli_error (_("no call path %s in %s"), args[1], args[0]);
      return 1;
    }
  node = g_ptr_array_index (candidates, 0);
  /* A name that ends several paths: writing to the hottest one silently
   * would put the summary where the user may not have meant. */
  if (writing && candidates->len > 1)
    {
      refuse_ambiguous (profile, candidates, args[1], limit);
      return 1;
    }
  if (suggest)
    return hp_cli_summary_suggest (profile, node, (const char * const *) source_dirs, timeout);
  key = hp_call_node_path_key (profile, node);
  readable = hp_call_node_readable_path (profile, node);
  if (writing && !clear)
    {
      /* a frame named by its address ("cc1+0x1f2e") moves with every build */
      for (const HpCallNode *step = node; step != NULL && step->function_id != 0; step = step->parent)
        {
          const char *name = hp_profile_get_function_name (profile, step->function_id);
          const char *plus = name != NULL ? strstr (name, "+0x") : NULL;

          if (plus != NULL && plus[3] != '\0' && strspn (plus + 3, "0123456789abcdef") == strlen (plus + 3))
            {
              hp_cli_error (_("warning: this path runs through code without symbols (%s); "
                            "after a rebuild the summary will not find it again"), name);
              break;
            }
        }
    }

  if (!writing)
    {
      current = hp_capture_get_summary (capture, key, &error);
      if (error != NULL)
        {
          hp_cli_error ("%s", error->message);
          return 1;
        }
      {
        g_autofree char *safe_readable = hp_text_escape (readable);

        printf ("%s\n", safe_readable);
      }
      if (current != NULL)
        print_text (current);
      else
        printf (_("  (no summary)\n"));
      return 0;
    }

  {
    g_autoptr(GPtrArray) mirrored = g_ptr_array_new ();
    HpCaptureSummary summary = { key, readable, clear ? NULL : text, NULL, NULL,
                                 g_path_get_basename (args[0]), hp_summary_share (profile, node), TRUE };

    if (!hp_capture_set_summary_full (capture, key, readable, summary.text, summary.share, &error))
      {
        g_free (summary.capture);
        hp_cli_error ("%s", error->message);
        return 1;
      }
    g_ptr_array_add (mirrored, &summary);
    hp_cli_summary_mirror (data, capture, mirrored, FALSE);
    g_free (summary.capture);
  }
  {
    g_autofree char *safe_readable = hp_text_escape (readable);

    fprintf (stderr, clear ? _("hotpath-cli: deleted the summary of %s\n") : _("hotpath-cli: saved the summary of %s\n"),
             safe_readable);
  }
  return 0;
}
