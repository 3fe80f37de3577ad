/* hp-suggest.c - a summary of a call path drafted from the code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * This file owns what Suggest knows about a call path, and the draft it
 * makes of it without any model: what the code's authors wrote above each
 * function of the path (found from the function's DW_AT_decl_file and
 * DW_AT_decl_line, which the symbolizer stores in the functions table),
 * the lines of the leaf where this path spends its samples, and the
 * callees that take most of them. The same gathering is the input of a
 * summarizer command (hp-summarizer.c), as JSON.
 *
 * The hot lines are those of this path, not of the function overall: a
 * stack node belongs to the selected node of the top-down tree when its
 * chain of functions from the root is the path's, so one forward pass over
 * the stack prefix tree (parents come first) finds them, and each credits
 * its frame's line with its own samples (self) and those below it (total).
 * Those stack nodes are disjoint subtrees, so the sums are exact.
 *
 * Source files are whatever is on this machine under the recorded names:
 * only files that are plausibly source code are read (hp_source_find_file()),
 * as untrusted text, at most HP_SUGGEST_MAX_SOURCE bytes each, made valid
 * UTF-8, and a doc comment is cut at MAX_COMMENT bytes.
 */

#define G_LOG_DOMAIN "hp-document"

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>

#include "document/hp-source-find.h"
#include "document/hp-suggest.h"
#include "analysis/hp-json.h"
#include "analysis/hp-text.h"
#include "store/hp-capture-keys.h"

#define HP_SUGGEST_MAX_SOURCE (32 * 1024 * 1024)
#define MAX_COMMENT           4000
#define MAX_COMMENT_LINES     60
/* lines of a declaration above the name's line: "static int", attributes */
#define MAX_DECL_HEAD         3
/* a callee dominates from this share of the path's samples */
#define DOMINANT_PERCENT      10
/* a source line quoted in a draft is cut at this many bytes (minified code) */
#define MAX_QUOTED_LINE       200

static void
step_free (gpointer p)
{
  HpSuggestStep *step = p;

  g_free (step->name);
  g_free (step->module);
  g_free (step->file);
  g_free (step->source);
  g_free (step);
}

static void
line_free (gpointer p)
{
  HpSuggestLine *line = p;

  g_free (line->text);
  g_free (line);
}

static void
callee_free (gpointer p)
{
  HpSuggestCallee *callee = p;

  g_free (callee->name);
  g_free (callee->module);
  g_free (callee);
}

void
hp_suggest_input_free (HpSuggestInput *self)
{
  if (self == NULL)
    return;

  g_free (self->program);
  g_free (self->readable);
  g_free (self->path_key);
  g_clear_pointer (&self->steps, g_ptr_array_unref);
  g_free (self->leaf_file);
  g_clear_pointer (&self->hot_lines, g_ptr_array_unref);
  g_clear_pointer (&self->callees, g_ptr_array_unref);
  g_clear_pointer (&self->missing, g_ptr_array_unref);
  g_clear_pointer (&self->changed, g_ptr_array_unref);
  g_free (self->draft);
  g_free (self);
}

/* Doc comments ---------------------------------------------------------- */

static gboolean
is_blank (const char *line)
{
  return line[strspn (line, " \t\r\f\v")] == '\0';
}

static const char *
skip_space (const char *s)
{
  return s + strspn (s, " \t\r\f\v");
}

static gboolean
ends_with_trimmed (const char *line,
                   const char *suffix)
{
  g_autofree char *copy = g_strchomp (g_strdup (line));

  return g_str_has_suffix (copy, suffix);
}

/* The text of one comment line without its markers: "/x**", "/x*", "*x/",
 * a leading "*", "///", "//!", "//". */
static void
append_comment_line (GString    *out,
                     const char *line)
{
  g_autofree char *copy = g_strdup (line);
  char *s = copy;
  char *end;

  g_strchomp (s);
  s = (char *) skip_space (s);
  if (g_str_has_prefix (s, "//"))
    {
      s += 2;
      while (*s == '/' || *s == '!')
        s++;
    }
  else
    {
      if (g_str_has_prefix (s, "/*"))
        {
          s += 2;
          while (*s == '*' || *s == '!')
            s++;
        }
      end = strstr (s, "*/");
      if (end != NULL)
        *end = '\0';
      s = (char *) skip_space (s);
      if (*s == '*' && s[1] != '/')
        s++;
    }
  if (*s == ' ')
    s++;
  g_strchomp (s);
  g_string_append (out, s);
  g_string_append_c (out, '\n');
}

char *
hp_suggest_doc_comment (const char *contents,
                        gsize       length,
                        guint       decl_line)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint n_lines;
  gint64 j, first, last;
  GString *out;

  g_return_val_if_fail (contents != NULL || length == 0, NULL);

  if (decl_line < 2)
    return NULL;
  text = g_strndup (contents, length);
  lines = g_strsplit (text, "\n", -1);
  n_lines = g_strv_length (lines);
  if (decl_line > n_lines)
    return NULL;

  /* lines[decl_line - 1] names the function; above it, the rest of the
   * declaration: a return type or attributes, never a line that ends a
   * statement, a block or a comment */
  j = (gint64) decl_line - 2;
  for (guint head = 0; j >= 0 && head < MAX_DECL_HEAD; head++, j--)
    {
      const char *l = skip_space (lines[j]);

      if (is_blank (l) || g_str_has_prefix (l, "//") || g_str_has_prefix (l, "#") ||
          ends_with_trimmed (l, "*/") || ends_with_trimmed (l, ";") ||
          ends_with_trimmed (l, "}") || ends_with_trimmed (l, "{"))
        break;
    }
  /* one blank line may stand between a comment and its function */
  if (j >= 0 && is_blank (lines[j]))
    j--;
  if (j < 0)
    return NULL;

  last = j;
  if (ends_with_trimmed (lines[j], "*/"))
    {
      for (first = j; first >= 0 && last - first < MAX_COMMENT_LINES; first--)
        {
          const char *open = strstr (lines[first], "/*");

          if (open != NULL)
            {
              /* "x = 1; /x* … *x/" is a comment on code, not on the function */
              if (strspn (lines[first], " \t") < (gsize) (open - lines[first]))
                return NULL;
              break;
            }
        }
      if (first < 0 || last - first >= MAX_COMMENT_LINES)
        return NULL;
    }
  else if (g_str_has_prefix (skip_space (lines[j]), "//"))
    {
      for (first = j; first > 0 && last - first + 1 < MAX_COMMENT_LINES &&
                      g_str_has_prefix (skip_space (lines[first - 1]), "//"); first--)
        ;
    }
  else
    return NULL;

  out = g_string_new (NULL);
  for (gint64 i = first; i <= last; i++)
    append_comment_line (out, lines[i]);

  /* blank lines at either end (the lines of the markers) */
  while (out->len > 0 && (out->str[out->len - 1] == '\n' || out->str[out->len - 1] == ' '))
    g_string_truncate (out, out->len - 1);
  {
    gsize lead = strspn (out->str, "\n ");

    g_string_erase (out, 0, lead);
  }
  if (out->len == 0)
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  if (out->len > MAX_COMMENT)
    {
      const char *cut = g_utf8_find_prev_char (out->str, out->str + MAX_COMMENT);

      g_string_truncate (out, cut != NULL ? (gsize) (cut - out->str) : MAX_COMMENT);
      g_string_append (out, "…");
    }
  {
    g_autofree char *raw = g_string_free (out, FALSE);

    return hp_text_make_valid (raw);
  }
}

/* Declarations ---------------------------------------------------------- */

/* The identifier a declaration of @name spells: "ns::Parser<T>::parse(int)
 * const" is "parse", a GCC clone "sort.constprop.0" is "sort". */
static char *
declared_identifier (const char *name)
{
  g_autofree char *head = g_strndup (name, strcspn (name, "("));
  char *end = head + strlen (head);
  const char *colon;

  while (end > head && g_ascii_isspace (end[-1]))
    *--end = '\0';
  /* template arguments of the function itself: "max<int>" */
  if (end > head && end[-1] == '>')
    {
      int depth = 0;

      while (end > head)
        {
          char c = *--end;

          depth += c == '>' ? 1 : c == '<' ? -1 : 0;
          *end = '\0';
          if (depth == 0)
            break;
        }
    }
  colon = g_strrstr (head, "::");
  colon = colon != NULL ? colon + 2 : head;
  return g_strndup (colon, strcspn (colon, "."));
}

static gboolean
is_identifier_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '$';
}

/* Where @ident stands in @line as a whole word, or NULL. */
static const char *
find_word (const char *line,
           const char *ident)
{
  gsize n = strlen (ident);

  if (n == 0)
    return NULL;
  for (const char *at = strstr (line, ident); at != NULL; at = strstr (at + 1, ident))
    if ((at == line || !is_identifier_char (at[-1])) && !is_identifier_char (at[n]))
      return at;
  return NULL;
}

/* Whether @line reads as the head of a definition of @ident: the name
 * followed by its parameter list, after a return type and attributes
 * (balanced parentheses, no assignment, no statement keyword), and not a
 * declaration or a call that ends in ";". */
static gboolean
declares (const char *line,
          const char *ident)
{
  static const char *const statements[] = { "if", "while", "for", "switch", "return", "else",
                                            "case", "do", "sizeof", NULL };
  const char *at = find_word (line, ident);
  const char *after, *start;
  int depth = 0;

  if (at == NULL)
    return FALSE;
  after = skip_space (at + strlen (ident));
  if (*after != '(' || ends_with_trimmed (line, ";"))
    return FALSE;
  start = skip_space (line);
  for (const char *c = start; c < at; c++)
    {
      depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
      if (depth < 0 || *c == '=' || *c == ',')
        return FALSE;
    }
  if (depth != 0)
    return FALSE;
  for (guint i = 0; statements[i] != NULL; i++)
    if (find_word (start, statements[i]) == start)
      return FALSE;
  return TRUE;
}

guint
hp_suggest_find_declaration (const char *contents,
                             gsize       length,
                             const char *name,
                             guint       decl_line)
{
  g_autofree char *text = NULL;
  g_autofree char *ident = NULL;
  g_auto(GStrv) lines = NULL;
  guint n_lines, best = 0;

  g_return_val_if_fail (contents != NULL || length == 0, 0);
  g_return_val_if_fail (name != NULL, 0);

  text = g_strndup (contents, length);
  lines = g_strsplit (text, "\n", -1);
  n_lines = g_strv_length (lines);
  ident = declared_identifier (name);
  if (ident[0] == '\0')
    return decl_line;
  if (decl_line >= 1 && decl_line <= n_lines && find_word (lines[decl_line - 1], ident) != NULL)
    return decl_line;
  /* the file changed since the program was built: the definition nearest
   * to where it was */
  for (guint i = 0; i < n_lines; i++)
    if (declares (lines[i], ident) &&
        (best == 0 || ABS ((gint64) i + 1 - (gint64) decl_line) < ABS ((gint64) best - (gint64) decl_line)))
      best = i + 1;
  return best;
}

/* Source files ---------------------------------------------------------- */

/* The files read for one suggestion: each at most once, found or not. */
typedef struct {
  const char * const  *dirs;
  GHashTable          *contents;  /* recorded name -> GBytes, or absent-marker NULL value */
  GPtrArray           *missing;
  GPtrArray           *changed;   /* recorded names of files changed since the recording */
} Sources;

static void
mark_changed (Sources    *sources,
              const char *file)
{
  if (!g_ptr_array_find_with_equal_func (sources->changed, file, g_str_equal, NULL))
    g_ptr_array_add (sources->changed, g_strdup (file));
}

static gboolean
is_changed (Sources    *sources,
            const char *file)
{
  return file != NULL && g_ptr_array_find_with_equal_func (sources->changed, file, g_str_equal, NULL);
}

static GBytes *
sources_get (Sources    *sources,
             const char *file)
{
  g_autofree char *real = NULL;
  gpointer value = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;
  GStatBuf st;

  if (file == NULL)
    return NULL;
  if (g_hash_table_lookup_extended (sources->contents, file, NULL, &value))
    return value;

  /* only what is plausibly the program's source: a capture that called a
   * function "root" declared at /etc/passwd:1 had that line quoted, to the
   * summarizer command too, which may send it anywhere */
  real = hp_source_find_file (file, sources->dirs, NULL, NULL, NULL);
  if (real == NULL ||
      g_stat (real, &st) != 0 || st.st_size > HP_SUGGEST_MAX_SOURCE ||
      !g_file_get_contents (real, &contents, &length, NULL))
    {
      g_ptr_array_add (sources->missing, g_strdup (file));
      g_hash_table_insert (sources->contents, g_strdup (file), NULL);
      return NULL;
    }
  value = g_bytes_new_take (g_steal_pointer (&contents), length);
  g_hash_table_insert (sources->contents, g_strdup (file), value);
  return value;
}

/* Line @line (1-based) of @bytes, trimmed and valid UTF-8; NULL past the end. */
static char *
source_line (GBytes *bytes,
             guint   line)
{
  gsize length;
  const char *data = bytes ? g_bytes_get_data (bytes, &length) : NULL;
  const char *p, *end, *nl;
  g_autofree char *raw = NULL;

  if (data == NULL || line == 0)
    return NULL;
  p = data;
  end = data + length;
  for (guint i = 1; i < line; i++)
    {
      nl = memchr (p, '\n', end - p);
      if (nl == NULL)
        return NULL;
      p = nl + 1;
    }
  nl = memchr (p, '\n', end - p);
  raw = g_strndup (p, (nl ? nl : end) - p);
  g_strstrip (raw);
  if (strlen (raw) > MAX_QUOTED_LINE)
    {
      g_autofree char *valid = NULL;

      raw[MAX_QUOTED_LINE] = '\0';
      valid = hp_text_make_valid (raw);
      return g_strconcat (valid, "…", NULL);
    }
  return hp_text_make_valid (raw);
}

/* The path ------------------------------------------------------------ */

static GPtrArray *
path_nodes (const HpCallNode *node)
{
  GPtrArray *nodes = g_ptr_array_new ();

  for (; node != NULL && node->parent != NULL; node = node->parent)
    g_ptr_array_insert (nodes, 0, (gpointer) node);
  return nodes;
}

typedef struct {
  const char *file;  /* borrowed from the frames */
  guint       line;
  guint64     self;
  guint64     total;
} LineCount;

static int
compare_hot (gconstpointer a,
             gconstpointer b)
{
  const LineCount *la = *(const LineCount * const *) a;
  const LineCount *lb = *(const LineCount * const *) b;

  if (la->self != lb->self)
    return la->self > lb->self ? -1 : 1;
  if (la->total != lb->total)
    return la->total > lb->total ? -1 : 1;
  return la->line < lb->line ? -1 : la->line > lb->line;
}

static int
compare_total (gconstpointer a,
               gconstpointer b)
{
  const LineCount *la = *(const LineCount * const *) a;
  const LineCount *lb = *(const LineCount * const *) b;

  if (la->total != lb->total)
    return la->total > lb->total ? -1 : 1;
  return la->line < lb->line ? -1 : la->line > lb->line;
}

/* The lines of the leaf on this path, see the comment at the top. */
static void
find_hot_lines (HpSuggestInput *self,
                HpProfile      *profile,
                GPtrArray      *nodes,
                Sources        *sources)
{
  const HpCaptureData *data = hp_profile_get_data (profile);
  const HpCaptureStack *stacks = (const HpCaptureStack *) (gpointer) data->stacks->data;
  const HpCaptureFrame *frames = (const HpCaptureFrame *) (gpointer) data->frames->data;
  const guint64 *cnt;
  guint n_stacks;
  g_autofree guint64 *sub = NULL;
  g_autofree gint32 *depth = NULL;
  g_autoptr(GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) per_file = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) chosen = g_ptr_array_new ();
  const char *best_file = NULL;
  guint64 best_total = 0;
  guint k = nodes->len;
  GHashTableIter iter;
  LineCount *lc;
  GBytes *bytes;

  cnt = hp_profile_get_stack_samples (profile, &n_stacks);
  if (n_stacks != MAX (data->stacks->len, 1) || k == 0)
    return;
  sub = g_memdup2 (cnt, sizeof (guint64) * n_stacks);
  for (guint s = n_stacks - 1; s >= 1; s--)
    sub[stacks[s].parent_id] += sub[s];

  /* depth[s]: how many steps of the path the chain down to s matches,
   * -1 when it left the path */
  depth = g_new (gint32, n_stacks);
  depth[0] = 0;
  for (guint s = 1; s < n_stacks; s++)
    {
      gint32 pd = depth[stacks[s].parent_id];
      const HpCaptureFrame *frame = &frames[stacks[s].frame_id];
      const HpCallNode *want;
      g_autofree char *key = NULL;

      depth[s] = -1;
      if (pd < 0 || (guint) pd >= k)
        continue;
      want = g_ptr_array_index (nodes, pd);
      if (frame->function_id != want->function_id)
        continue;
      depth[s] = pd + 1;
      if ((guint) depth[s] != k || sub[s] == 0 || frame->line == 0)
        continue;

      key = g_strdup_printf ("%u:%s", frame->line, frame->file ? frame->file : "");
      lc = g_hash_table_lookup (counts, key);
      if (lc == NULL)
        {
          lc = g_new0 (LineCount, 1);
          lc->file = frame->file;
          lc->line = frame->line;
          g_hash_table_insert (counts, g_steal_pointer (&key), lc);
        }
      lc->self += cnt[s];
      lc->total += sub[s];
    }

  /* the file with the most samples, as the source pane chooses */
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &lc))
    {
      const char *file = lc->file ? lc->file : "";
      guint64 total = GPOINTER_TO_SIZE (g_hash_table_lookup (per_file, file)) + lc->total;

      g_hash_table_insert (per_file, (gpointer) file, GSIZE_TO_POINTER (total));
      if (best_file == NULL || total > best_total ||
          (total == best_total && strcmp (file, best_file) < 0))
        {
          best_file = file;
          best_total = total;
        }
    }
  if (best_file == NULL)
    return;

  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &lc))
    if (g_strcmp0 (lc->file ? lc->file : "", best_file) == 0)
      g_ptr_array_add (chosen, lc);
  g_ptr_array_sort (chosen, compare_hot);
  /* a leaf that never runs itself on this path (its time is in calls):
   * its call sites, by total */
  if (chosen->len > 0 && ((LineCount *) g_ptr_array_index (chosen, 0))->self == 0)
    g_ptr_array_sort (chosen, compare_total);

  self->leaf_file = best_file[0] != '\0' ? hp_text_make_valid (best_file) : NULL;
  bytes = best_file[0] != '\0' ? sources_get (sources, best_file) : NULL;
  for (guint i = 0; i < chosen->len && self->hot_lines->len < HP_SUGGEST_MAX_LINES; i++)
    {
      HpSuggestLine *line;

      lc = g_ptr_array_index (chosen, i);
      /* lines where the leaf itself runs; call sites only when it never does */
      if (lc->self == 0 && ((LineCount *) g_ptr_array_index (chosen, 0))->self > 0)
        break;
      line = g_new0 (HpSuggestLine, 1);
      line->line = lc->line;
      line->self = lc->self;
      line->total = lc->total;
      /* a file changed since the recording would quote other code */
      line->text = is_changed (sources, best_file) ? NULL : source_line (bytes, lc->line);
      g_ptr_array_add (self->hot_lines, line);
    }
}

char *
hp_suggest_program_name (const HpCaptureData *data)
{
  const char *command;
  g_auto(GStrv) argv = NULL;
  g_autofree char *first = NULL;

  g_return_val_if_fail (data != NULL, NULL);

  command = data->metadata ? g_hash_table_lookup (data->metadata, HP_META_COMMAND) : NULL;
  if (command == NULL || command[0] == '\0')
    return NULL;
  if (g_shell_parse_argv (command, NULL, &argv, NULL) && argv[0] != NULL)
    first = g_strdup (argv[0]);
  else
    first = g_strndup (command, strcspn (command, " \t"));
  if (first[0] == '\0')
    return NULL;
  {
    g_autofree char *base = g_path_get_basename (first);

    return hp_text_make_valid (base);
  }
}

/* The draft ------------------------------------------------------------- */

static char *
percent (guint64 part,
         guint64 whole)
{
  return g_strdup_printf ("%.1f %%", whole ? 100.0 * (double) part / (double) whole : 0.0);
}

/* The first paragraph of a doc comment, on one line; gtk-doc's first
 * paragraph is only the name ("scan_fields:"), so then the next one */
static char *
first_paragraph (const char *comment)
{
  const char *end = strstr (comment, "\n\n");

  if (end != NULL && end[-1] == ':' && memchr (comment, ' ', end - comment) == NULL)
    {
      comment = end + strspn (end, "\n");
      end = strstr (comment, "\n\n");
    }
  g_autofree char *para = g_strndup (comment, end ? (gsize) (end - comment) : strlen (comment));
  g_auto(GStrv) words = g_strsplit_set (para, " \n\t", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0')
      {
        if (out->len > 0)
          g_string_append_c (out, ' ');
        g_string_append (out, words[i]);
      }
  return g_string_free (out, FALSE);
}

static char *
make_draft (const HpSuggestInput *self,
            const HpCallNode     *node)
{
  GString *out = g_string_new (NULL);
  const HpSuggestStep *leaf = g_ptr_array_index (self->steps, self->steps->len - 1);
  g_autofree char *share = percent (node->total, self->samples);
  g_autofree char *self_share = percent (node->self, node->total);
  gboolean any_comment = FALSE;

  g_string_append_printf (out, "%s: %s of all samples (%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT "), "
                          "%s of them in %s itself.\n",
                          self->readable, share, node->total, self->samples, self_share, leaf->name);

  for (guint i = 0; i < self->steps->len; i++)
    {
      const HpSuggestStep *step = g_ptr_array_index (self->steps, i);
      g_autofree char *para = NULL;

      if (step->source == NULL)
        continue;
      if (!any_comment)
        g_string_append (out, "\nWhat the code says:\n");
      any_comment = TRUE;
      para = first_paragraph (step->source);
      {
        /* "main: loops…" names the function again */
        const char *said = para;
        gsize n = strlen (step->name);

        if (strncmp (said, step->name, n) == 0 && said[n] == ':' && said[n + 1] != '\0')
          said += n + 1 + strspn (said + n + 1, " ");
        g_string_append_printf (out, "- %s: %s\n", step->name, said);
      }
    }
  if (!any_comment)
    g_string_append (out, "\nNo doc comment was found above the functions of this path.\n");
  for (guint i = 0; i < self->changed->len; i++)
    {
      g_autofree char *base = g_path_get_basename (g_ptr_array_index (self->changed, i));

      g_string_append_printf (out, "\n%s has changed since this capture was recorded: its doc comments "
                              "are read as the file is now; its lines are numbered as they were then, "
                              "not quoted.\n", base);
    }

  if (self->hot_lines->len > 0)
    {
      g_autofree char *base = self->leaf_file ? g_path_get_basename (self->leaf_file) : NULL;

      g_string_append_printf (out, "\nHot lines of %s%s%s%s:\n", leaf->name,
                              base ? " (" : "", base ? base : "", base ? ")" : "");
      for (guint i = 0; i < self->hot_lines->len; i++)
        {
          const HpSuggestLine *line = g_ptr_array_index (self->hot_lines, i);
          g_autofree char *p = percent (line->self ? line->self : line->total, node->total);

          g_string_append_printf (out, "- line %u, %s of the path%s", line->line, p,
                                  line->self ? "" : " (in calls made there)");
          if (line->text != NULL && line->text[0] != '\0')
            g_string_append_printf (out, ": `%s`", line->text);
          g_string_append_c (out, '\n');
        }
    }

  if (self->callees->len > 0)
    {
      g_string_append (out, "\nCalls that dominate:\n");
      for (guint i = 0; i < self->callees->len; i++)
        {
          const HpSuggestCallee *callee = g_ptr_array_index (self->callees, i);
          g_autofree char *p = percent (callee->total, node->total);

          g_string_append_printf (out, "- %s (%s): %s of the path\n", callee->name,
                                  callee->module[0] ? callee->module : "?", p);
        }
    }
  while (out->len > 0 && out->str[out->len - 1] == '\n')
    g_string_truncate (out, out->len - 1);
  return g_string_free (out, FALSE);
}

HpSuggestInput *
hp_suggest_input_new (HpProfile          *profile,
                      const HpCallNode   *node,
                      const char * const *source_dirs)
{
  const HpCaptureData *data;
  HpSuggestInput *self;
  g_autoptr(GPtrArray) nodes = NULL;
  g_autoptr(GHashTable) contents = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                          (GDestroyNotify) g_bytes_unref);
  Sources sources;

  g_return_val_if_fail (profile != NULL, NULL);
  g_return_val_if_fail (node != NULL && node->parent != NULL, NULL);

  data = hp_profile_get_data (profile);
  self = g_new0 (HpSuggestInput, 1);
  self->program = hp_suggest_program_name (data);
  self->samples = hp_profile_get_n_samples (profile);
  self->path_key = hp_call_node_path_key (profile, node);
  {
    g_autofree char *readable = hp_call_node_readable_path (profile, node);

    self->readable = hp_text_make_valid (readable);
  }
  self->steps = g_ptr_array_new_with_free_func (step_free);
  self->hot_lines = g_ptr_array_new_with_free_func (line_free);
  self->callees = g_ptr_array_new_with_free_func (callee_free);
  self->missing = g_ptr_array_new_with_free_func (g_free);
  self->changed = g_ptr_array_new_with_free_func (g_free);
  sources = (Sources) { source_dirs, contents, self->missing, self->changed };

  nodes = path_nodes (node);
  for (guint i = 0; i < nodes->len; i++)
    {
      const HpCallNode *n = g_ptr_array_index (nodes, i);
      const HpCaptureFunction *f = &g_array_index (data->functions, HpCaptureFunction, n->function_id);
      HpSuggestStep *step = g_new0 (HpSuggestStep, 1);
      GBytes *bytes;

      step->name = hp_text_make_valid (hp_profile_get_function_name (profile, n->function_id));
      step->module = hp_text_make_valid (hp_profile_get_module_name (profile, n->function_id));
      step->file = f->file ? hp_text_make_valid (f->file) : NULL;
      step->line = f->line;
      step->self = n->self;
      step->total = n->total;
      if (f->file != NULL && f->line > 0 && (bytes = sources_get (&sources, f->file)) != NULL)
        {
          gsize length;
          const char *text = g_bytes_get_data (bytes, &length);
          /* the line DWARF gives no longer names the function when the
           * file was edited after the build: look for it by name */
          guint line = hp_suggest_find_declaration (text, length, step->name, f->line);

          if (line != f->line)
            mark_changed (&sources, f->file);
          if (line > 0)
            step->source = hp_suggest_doc_comment (text, length, line);
        }
      g_ptr_array_add (self->steps, step);
    }

  find_hot_lines (self, profile, nodes, &sources);

  for (guint i = 0; node->children != NULL && i < node->children->len &&
                    self->callees->len < HP_SUGGEST_MAX_CALLEES; i++)
    {
      const HpCallNode *child = g_ptr_array_index (node->children, i);
      HpSuggestCallee *callee;

      /* children are sorted by total: the first that is too small ends it */
      if (child->total * 100 < (guint64) DOMINANT_PERCENT * node->total || child->total == 0)
        break;
      callee = g_new0 (HpSuggestCallee, 1);
      callee->name = hp_text_make_valid (hp_profile_get_function_name (profile, child->function_id));
      callee->module = hp_text_make_valid (hp_profile_get_module_name (profile, child->function_id));
      callee->total = child->total;
      g_ptr_array_add (self->callees, callee);
    }

  self->draft = make_draft (self, node);
  if (self->program == NULL)
    self->program = g_strdup ("");
  return self;
}

/* JSON ------------------------------------------------------------------ */

char *
hp_suggest_input_to_json (const HpSuggestInput *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  GString *out;

  g_return_val_if_fail (self != NULL, NULL);

  json_builder_begin_object (builder);
  hp_json_add_string (builder, "program", self->program);
  json_builder_set_member_name (builder, "path");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->steps->len; i++)
    {
      const HpSuggestStep *step = g_ptr_array_index (self->steps, i);

      json_builder_begin_object (builder);
      hp_json_add_string (builder, "name", step->name);
      hp_json_add_string (builder, "module", step->module);
      hp_json_add_string (builder, "file", step->file);
      hp_json_add_count (builder, "line", step->line);
      hp_json_add_count (builder, "self", step->self);
      hp_json_add_count (builder, "total", step->total);
      hp_json_add_string (builder, "source", step->source);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  hp_json_add_string (builder, "file", self->leaf_file);
  json_builder_set_member_name (builder, "changed");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->changed->len; i++)
    {
      g_autofree char *file = hp_text_make_valid (g_ptr_array_index (self->changed, i));

      json_builder_add_string_value (builder, file);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "hot_lines");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->hot_lines->len; i++)
    {
      const HpSuggestLine *line = g_ptr_array_index (self->hot_lines, i);

      json_builder_begin_object (builder);
      hp_json_add_count (builder, "line", line->line);
      hp_json_add_count (builder, "self", line->self);
      hp_json_add_count (builder, "total", line->total);
      hp_json_add_string (builder, "text", line->text);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "callees");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->callees->len; i++)
    {
      const HpSuggestCallee *callee = g_ptr_array_index (self->callees, i);

      json_builder_begin_object (builder);
      hp_json_add_string (builder, "name", callee->name);
      hp_json_add_string (builder, "module", callee->module);
      hp_json_add_count (builder, "total", callee->total);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  hp_json_add_count (builder, "samples", self->samples);
  hp_json_add_string (builder, "draft", self->draft);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  out = g_string_new (NULL);
  hp_json_append_node (out, root);
  return g_string_free (out, FALSE);
}
