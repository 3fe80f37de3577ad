/* hp-cli-suggest.c - hotpath-cli summary --suggest and --format: drafts and review documents
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `summary CAPTURE PATH --suggest` prints a suggested summary of one call
 * path: the draft made from the code (hp-suggest.c), or, when
 * HOTPATH_SUMMARIZER names a command, what that command makes of the
 * path's JSON (hp-summarizer.c). It prints and never saves: a suggestion
 * becomes a summary only with --set.
 *
 * `summary CAPTURE --format markdown|json` writes every summary of the
 * capture with its path and the share of samples that path has in this
 * capture, hottest first, for a review: Markdown for people, JSON for
 * scripts. Text from the capture is made valid UTF-8 and rid of control
 * characters on its way to a terminal.
 */

#define G_LOG_DOMAIN "hp-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <json-glib/json-glib.h>

#include "document/hp-suggest.h"
#include "document/hp-summarizer.h"
#include "analysis/hp-json.h"
#include "analysis/hp-text.h"
#include "cli/hp-cli-suggest.h"
#include "document/hp-call-path.h"
#include "store/hp-capture-keys.h"

int
hp_cli_summary_suggest (HpProfile          *profile,
                        const HpCallNode   *node,
                        const char * const *source_dirs,
                        guint               timeout_seconds)
{
  g_autoptr(HpSuggestInput) input = hp_suggest_input_new (profile, node, source_dirs);
  const char *command = g_getenv (HP_SUMMARIZER_ENV);
  g_autofree char *text = NULL;

  if (input->missing->len > 0)
    {
      g_autofree char *first = hp_text_escape (g_ptr_array_index (input->missing, 0));

      if (input->missing->len == 1)
        hp_cli_error (_("note: source file %s not found; --source-dir DIR looks for it in DIR"), first);
      else
        hp_cli_error (g_dngettext (GETTEXT_PACKAGE,
                                   "note: %u source file not found (%s, …); --source-dir DIR looks for it in DIR",
                                   "note: %u source files not found (%s, …); --source-dir DIR looks for them in DIR",
                                   input->missing->len),
                      input->missing->len, first);
    }

  if (command != NULL && command[strspn (command, " \t")] != '\0')
    {
      g_autoptr(GCancellable) cancellable = hp_cli_cancel_on_signals ();
      g_autofree char *json = hp_suggest_input_to_json (input);
      g_autofree char *err = NULL;
      g_autoptr(GError) error = NULL;

      text = hp_summarizer_run (command, json, timeout_seconds, cancellable, &err, &error);
      if (text == NULL)
        {
          hp_cli_error ("%s", error->message);
          if (err != NULL && err[0] != '\0')
            {
              g_auto(GStrv) lines = g_strsplit (err, "\n", -1);

              hp_cli_error (_("its stderr:"));
              for (guint i = 0; lines[i] != NULL; i++)
                {
                  g_autofree char *line = hp_text_escape (lines[i]);

                  fprintf (stderr, "  %s\n", line);
                }
            }
          return 1;
        }
    }
  else
    text = g_strdup (input->draft);

  /* the suggestion may come from any program: no control characters to
   * the terminal, but its lines kept */
  {
    g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

    for (guint i = 0; lines[i] != NULL; i++)
      {
        g_autofree char *line = hp_text_escape (lines[i]);

        printf ("%s\n", line);
      }
  }
  fprintf (stderr, _("hotpath-cli: a suggestion for %s, not saved (save it with --set)\n"), input->readable);
  return 0;
}

/* Review documents ------------------------------------------------------ */

typedef struct {
  char             *key;
  const char       *text;   /* borrowed from the summaries table */
  const HpCaptureSummary *row;  /* borrowed: where it was written, its share then */
  GPtrArray        *names;  /* char*, root first */
  GPtrArray        *modules;
  const HpCallNode *node;   /* NULL: not in this capture's call tree */
} Entry;

static void
entry_free (gpointer p)
{
  Entry *e = p;

  g_free (e->key);
  g_ptr_array_unref (e->names);
  g_ptr_array_unref (e->modules);
  g_free (e);
}

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const Entry *ea = *(const Entry * const *) a;
  const Entry *eb = *(const Entry * const *) b;
  guint64 ta = ea->node ? ea->node->total : 0;
  guint64 tb = eb->node ? eb->node->total : 0;

  if ((ea->node == NULL) != (eb->node == NULL))
    return ea->node == NULL ? 1 : -1;
  if (ta != tb)
    return ta > tb ? -1 : 1;
  return strcmp (ea->key, eb->key);
}

static char *
readable_path (const Entry *e)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < e->names->len; i++)
    {
      if (i > 0)
        g_string_append (out, " → ");
      g_string_append (out, g_ptr_array_index (e->names, i));
    }
  return g_string_free (out, FALSE);
}

/* @text as a Markdown code span: names as they are ("operator*",
 * "__init" need no escaping there), fenced by more backticks than any run
 * of them inside, and no control character */
static void
append_code_span (GString    *out,
                  const char *text)
{
  g_autofree char *safe = hp_text_escape (text);
  guint run = 0, longest = 0;
  g_autofree char *fence = NULL;

  for (const char *p = safe; *p != '\0'; p++)
    {
      run = *p == '`' ? run + 1 : 0;
      longest = MAX (longest, run);
    }
  fence = g_strnfill (longest + 1, '`');
  g_string_append (out, fence);
  if (safe[0] == '`' || (safe[0] != '\0' && safe[strlen (safe) - 1] == '`'))
    g_string_append_printf (out, " %s ", safe);
  else
    g_string_append (out, safe);
  g_string_append (out, fence);
}

static char *
code_span (const char *text)
{
  GString *out = g_string_new (NULL);

  append_code_span (out, text);
  return g_string_free (out, FALSE);
}

/* The length of the code fence (``` or ~~~, up to three spaces in) that
 * @line opens or closes, 0 when it is none; its character in @c and
 * whether only blanks follow it (as on a closing fence) in @bare. */
static guint
fence_length (const char *line,
              char       *c,
              gboolean   *bare)
{
  guint indent = 0, n = 0;

  while (line[indent] == ' ' && indent < 3)
    indent++;
  *c = line[indent];
  if (*c != '`' && *c != '~')
    return 0;
  while (line[indent + n] == *c)
    n++;
  line += indent + n;
  *bare = line[strspn (line, " \t")] == '\0';
  return n >= 3 ? n : 0;
}

/* "# x" to "###### x", up to three spaces in: a heading */
static gboolean
is_atx_heading (const char *line,
                guint      *at)
{
  guint indent = 0, n = 0;

  while (line[indent] == ' ' && indent < 3)
    indent++;
  while (line[indent + n] == '#')
    n++;
  *at = indent;
  return n >= 1 && n <= 6 && (line[indent + n] == '\0' || line[indent + n] == ' ' || line[indent + n] == '\t');
}

/* "===" or "---" alone: under a line of text, it makes that line a heading */
static gboolean
is_setext_underline (const char *line)
{
  guint indent = 0;
  char c;

  while (line[indent] == ' ' && indent < 3)
    indent++;
  c = line[indent];
  if (c != '=' && c != '-')
    return FALSE;
  line += indent;
  while (*line == c)
    line++;
  while (*line == ' ' || *line == '\t')
    line++;
  return *line == '\0';
}

/* "<!--", "<pre", "<script", "<style", "<textarea": an HTML block that
 * lasts until its closing tag, not until the blank line after it */
static gboolean
opens_long_html_block (const char *line)
{
  static const char *starts[] = { "<!--", "<pre", "<script", "<style", "<textarea" };

  line += strspn (line, " ");
  for (guint i = 0; i < G_N_ELEMENTS (starts); i++)
    if (g_ascii_strncasecmp (line, starts[i], strlen (starts[i])) == 0)
      return TRUE;
  return FALSE;
}

/* A summary's lines as written (they are Markdown-ish already), but for
 * what would break the review's own structure: a line that would be a
 * heading is escaped, so that a summary with "## Details" in it does not
 * start a section of a call path that is not there; a code fence it
 * leaves open is closed, and an HTML comment or <pre> it opens is shown
 * as text, or every later path's section would be code or hidden. */
static void
append_summary_lines (GString            *out,
                      const char * const *lines)
{
  guint fence = 0;
  char fence_char = 0;
  gboolean after_text = FALSE;

  for (guint l = 0; lines[l] != NULL; l++)
    {
      g_autofree char *line = hp_text_escape (lines[l]);
      char c;
      gboolean bare = FALSE;
      guint n = fence_length (line, &c, &bare), at;

      if (fence > 0)
        {
          if (n >= fence && c == fence_char && bare)
            fence = 0;
          g_string_append_printf (out, "%s\n", line);
          continue;
        }
      if (n > 0)
        {
          fence = n;
          fence_char = c;
          after_text = FALSE;
          g_string_append_printf (out, "%s\n", line);
          continue;
        }
      if (is_atx_heading (line, &at))
        g_string_append_printf (out, "%.*s\\%s\n", (int) at, line, line + at);
      else if ((after_text && is_setext_underline (line)) || opens_long_html_block (line))
        g_string_append_printf (out, "\\%s\n", line + strspn (line, " "));
      else
        g_string_append_printf (out, "%s\n", line);
      after_text = line[strspn (line, " \t")] != '\0';
    }
  if (fence > 0)
    {
      g_autofree char *close = g_strnfill (fence, fence_char);

      g_string_append_printf (out, "%s\n", close);
    }
}

static char *
markdown (HpCapture  *capture,
          HpProfile  *profile,
          GPtrArray  *entries,
          const char *program)
{
  GString *out = g_string_new (NULL);
  g_autofree char *event = hp_capture_get_metadata (capture, HP_META_EVENT);
  g_autofree char *this_name = g_path_get_basename (hp_capture_get_path (capture));
  guint64 n_samples = hp_profile_get_n_samples (profile);

  {
    g_autofree char *path = code_span (hp_capture_get_path (capture));
    g_autofree char *samples = hp_cli_samples (n_samples);

    if (program != NULL)
      {
        g_autofree char *name = code_span (program);

        /* Translators: the heading of summary --format markdown; a program's name */
        g_string_append_printf (out, _("# Summaries of %s"), name);
      }
    else
      /* Translators: the heading of summary --format markdown */
      g_string_append (out, _("# Summaries"));
    g_string_append (out, "\n\n");
    if (event != NULL)
      {
        g_autofree char *shown = code_span (event);

        /* Translators: a capture file, an amount of samples ("1,234
         * samples"), the event sampled, then the number of summaries */
        g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "Capture: %s — %s of %s, %u summary.\n",
                                                  "Capture: %s — %s of %s, %u summaries.\n", entries->len),
                                path, samples, shown, entries->len);
      }
    else
      /* Translators: a capture file, an amount of samples ("1,234
       * samples"), then the number of summaries */
      g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "Capture: %s — %s, %u summary.\n",
                                                "Capture: %s — %s, %u summaries.\n", entries->len),
                              path, samples, entries->len);
  }

  for (guint i = 0; i < entries->len; i++)
    {
      const Entry *e = g_ptr_array_index (entries, i);
      g_autofree char *path = readable_path (e);
      g_auto(GStrv) lines = g_strsplit (e->text, "\n", -1);

      g_string_append (out, "\n## ");
      append_code_span (out, path);
      g_string_append (out, "\n\n");
      if (e->node != NULL)
        g_string_append_printf (out, _("**%.1f %%** of the samples now (%" PRIu64 " of %" PRIu64 ").\n\n"),
                                n_samples ? 100.0 * e->node->total / n_samples : 0.0,
                                e->node->total, n_samples);
      else
        g_string_append (out, _("*Not found in this capture's call tree.*\n\n"));
      /* one written in another capture says so, as the window does */
      if (e->row->capture != NULL && g_strcmp0 (e->row->capture, this_name) != 0)
        {
          g_autofree char *written = code_span (e->row->capture);
          g_autofree char *date = NULL;
          double now = e->node != NULL && n_samples ? 100.0 * e->node->total / n_samples : 0.0;

          /* the date of an ISO 8601 time, as the window shows it */
          if (e->row->updated != NULL && strlen (e->row->updated) >= 10)
            {
              g_autofree char *escaped = hp_text_escape (e->row->updated);

              date = g_strndup (escaped, 10);
            }
          else
            date = g_strdup ("?");
          /* the window's sentences (hp-format.c), one translation for both */
          if (isfinite (e->row->share) && e->node != NULL)
            g_string_append_printf (out, _("Written in %s on %s, %.1f %% then, %.1f %% now."),
                                    written, date, e->row->share, now);
          else if (isfinite (e->row->share))
            g_string_append_printf (out, _("Written in %s on %s, %.1f %% then."), written, date, e->row->share);
          else if (e->node != NULL)
            /* TRANSLATORS: a capture file name, a date, the call path's
             * share of the samples in this capture */
            g_string_append_printf (out, _("Written in %s on %s, %.1f %% now."), written, date, now);
          else
            g_string_append_printf (out, _("Written in %s on %s."), written, date);
          g_string_append (out, "\n\n");
        }
      append_summary_lines (out, (const char * const *) lines);
    }
  if (entries->len == 0)
    g_string_append (out, _("\nNo call path of this capture has a summary yet.\n"));
  return g_string_free (out, FALSE);
}

static void
add_string_array (JsonBuilder *builder,
                  const char  *member,
                  GPtrArray   *strings)
{
  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
  for (guint i = 0; i < strings->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (strings, i));
  json_builder_end_array (builder);
}

static char *
json (HpCapture  *capture,
      HpProfile  *profile,
      GPtrArray  *entries,
      const char *program)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *event = hp_capture_get_metadata (capture, HP_META_EVENT);
  g_autofree char *capture_path = hp_text_make_valid (hp_capture_get_path (capture));
  guint64 n_samples = hp_profile_get_n_samples (profile);
  GString *out = g_string_new (NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "capture");
  json_builder_add_string_value (builder, capture_path);
  json_builder_set_member_name (builder, "program");
  if (program != NULL)
    json_builder_add_string_value (builder, program);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "event");
  if (event != NULL)
    {
      g_autofree char *valid = hp_text_make_valid (event);

      json_builder_add_string_value (builder, valid);
    }
  else
    json_builder_add_null_value (builder);
  hp_json_add_count (builder, "samples", n_samples);
  json_builder_set_member_name (builder, "summaries");
  json_builder_begin_array (builder);
  for (guint i = 0; i < entries->len; i++)
    {
      const Entry *e = g_ptr_array_index (entries, i);
      g_autofree char *readable = readable_path (e);
      g_autofree char *text = hp_text_make_valid (e->text);

      json_builder_begin_object (builder);
      add_string_array (builder, "path", e->names);
      add_string_array (builder, "modules", e->modules);
      json_builder_set_member_name (builder, "readable");
      json_builder_add_string_value (builder, readable);
      json_builder_set_member_name (builder, "found");
      json_builder_add_boolean_value (builder, e->node != NULL);
      json_builder_set_member_name (builder, "samples");
      json_builder_add_int_value (builder, e->node ? (gint64) e->node->total : 0);
      json_builder_set_member_name (builder, "share");
      json_builder_add_double_value (builder, e->node && n_samples ? (double) e->node->total / n_samples : 0.0);
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, text);
      /* where it was written: a capture's base name (null when unknown),
       * when (ISO 8601), and the path's share there then (a fraction) */
      hp_json_add_string (builder, "written_in", e->row->capture);
      hp_json_add_string (builder, "updated", e->row->updated);
      json_builder_set_member_name (builder, "share_then");
      if (isfinite (e->row->share))
        json_builder_add_double_value (builder, e->row->share / 100.0);
      else
        json_builder_add_null_value (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  hp_json_append_node (out, root);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

int
hp_cli_summary_review (HpCapture  *capture,
                       const char *format)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureData) data = NULL;
  g_autoptr(HpProfile) profile = NULL;
  g_autoptr(GPtrArray) summaries = NULL;
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func (entry_free);
  g_autofree char *program = NULL;
  g_autofree char *out = NULL;
  if (g_strcmp0 (format, "markdown") != 0 && g_strcmp0 (format, "json") != 0)
    {
      hp_cli_error (_("summary: unknown --format %s; use text, markdown or json"), format);
      return 2;
    }
  summaries = hp_capture_list_summary_rows (capture, &error);
  if (summaries == NULL)
    {
      hp_cli_error ("%s", error->message);
      return 1;
    }
  hp_cli_note_summaries_cut (capture);
  if ((data = hp_capture_load (capture, &error)) == NULL)
    {
      hp_cli_error ("%s", error->message);
      return 1;
    }
  profile = hp_profile_new (data, NULL);
  program = hp_suggest_program_name (data);

  for (guint s = 0; s < summaries->len; s++)
    {
      const HpCaptureSummary *row = g_ptr_array_index (summaries, s);
      const char *key = row->path_key;
      Entry *e = g_new0 (Entry, 1);
      g_auto(GStrv) names = hp_call_path_key_names (key);
      g_auto(GStrv) modules = hp_call_path_key_modules (key);

      e->key = g_strdup (key);
      e->text = row->text;
      e->row = row;
      e->names = g_ptr_array_new_with_free_func (g_free);
      e->modules = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; names[i] != NULL; i++)
        {
          g_ptr_array_add (e->names, hp_text_make_valid (names[i]));
          g_ptr_array_add (e->modules, hp_text_make_valid (modules[i]));
        }
      e->node = hp_call_path_find (profile, key);
      g_ptr_array_add (entries, e);
    }
  g_ptr_array_sort (entries, compare_entries);

  out = g_str_equal (format, "json") ? json (capture, profile, entries, program)
                                      : markdown (capture, profile, entries, program);
  fputs (out, stdout);
  return 0;
}
