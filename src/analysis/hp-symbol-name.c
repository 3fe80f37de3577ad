/* hp-symbol-name.c - function names made fit to show
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Demangled C++ names get long: a method of a std::map whose values are
 * std::function objects is named with 17,000 to 30,000 characters, nearly
 * all of them template arguments spelled out again and again. Shown as
 * they are they make a label wider than any screen (and than what a GL
 * renderer can draw), so the window shows them shortened here and keeps
 * the full name for its tooltip and Copy Name.
 *
 * This is no C++ parser. It only tracks brackets, which is all the
 * demangler's output needs: <…> after an identifier is a template
 * argument list (folded), the last (…) at the outer level followed by
 * nothing but qualifiers (" const", " &&", " [clone .cold]") is the
 * parameter list (dropped), and what comes before the last space at the
 * outer level ahead of the name is the return type a template function's
 * name starts with (dropped). Operator names, whose <, >, (, ) are no
 * brackets ("operator<", "operator()", "operator->"), are read as one
 * word; "(anonymous namespace)" and "{lambda(int)#1}" are brackets like
 * any other. A name whose brackets do not pair up is not C++ (or not a
 * name this understands) and is only made safe to show.
 *
 * Everything here works on bytes of ASCII punctuation, which UTF-8 never
 * uses inside a multi-byte character, so invalid UTF-8 in a name does not
 * get in the way; hp_symbol_name_sanitize() then replaces it.
 */

#include "config.h"

#include <string.h>

#include "analysis/hp-symbol-name.h"

#define ELLIPSIS          "\xe2\x80\xa6"  /* … */
#define NO_NAME           "[no name]"
/* a template argument list this short and without brackets stays: "<int>" */
#define FOLD_KEEP_BYTES   16

/* Sanitizing ---------------------------------------------------------- */

static gboolean
is_hidden_control (gunichar c)
{
  return (c >= 0x80 && c < 0xa0) ||          /* C1 controls */
         (c >= 0x202a && c <= 0x202e) ||     /* bidirectional embeddings and overrides */
         (c >= 0x2066 && c <= 0x2069) ||     /* bidirectional isolates */
         c == 0x061c || c == 0x200e || c == 0x200f;  /* direction marks */
}

/* Appends the sanitized form of @text to @out, at most @max_chars
 * characters (0: all); returns how many it appended, or max_chars + 1
 * when there was more. */
static guint
append_sanitized (GString    *out,
                  const char *text,
                  gsize       length,
                  guint       max_chars)
{
  const char *p = text;
  const char *end = text + length;
  guint n = 0;

  while (p < end)
    {
      gunichar c;

      if (max_chars > 0 && n == max_chars)
        return max_chars + 1;
      n++;
      if ((guchar) *p < 0x80)
        {
          c = (guchar) *p++;
          /* Glyphs that the usual fonts have: the Control Pictures
           * (U+2400…, "␊") are in none of DejaVu, Cantarell or Noto Sans
           * and showed as boxes. A newline is "⏎", a tab "⇥", the rest
           * in caret notation as `cat -v` writes it ("^[" for ESC). */
          if (c == '\n')
            g_string_append (out, "\xe2\x8f\x8e");      /* ⏎ U+23CE */
          else if (c == '\t')
            g_string_append (out, "\xe2\x87\xa5");      /* ⇥ U+21E5 */
          else if (c < 0x20 || c == 0x7f)
            {
              g_string_append_c (out, '^');
              g_string_append_c (out, (char) (c ^ 0x40));
            }
          else
            g_string_append_c (out, (char) c);
          continue;
        }
      c = g_utf8_get_char_validated (p, end - p);
      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          /* one replacement character per byte that is not UTF-8 */
          g_string_append (out, "\xef\xbf\xbd");
          p++;
          continue;
        }
      if (is_hidden_control (c))
        g_string_append (out, "\xef\xbf\xbd");
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
      p = g_utf8_next_char (p);
    }
  return n;
}

char *
hp_symbol_name_sanitize (const char *text,
                         gssize      length,
                         guint       max_chars)
{
  GString *out;

  if (text == NULL)
    return g_strdup ("");
  if (length < 0)
    length = strlen (text);
  out = g_string_sized_new (max_chars > 0 ? MIN ((gsize) length, (gsize) max_chars * 2) + 4 : (gsize) length + 1);
  if (append_sanitized (out, text, length, max_chars) > max_chars && max_chars > 0)
    {
      /* the last character gives way to the ellipsis */
      const char *last = g_utf8_find_prev_char (out->str, out->str + out->len);

      g_string_truncate (out, last != NULL ? (gsize) (last - out->str) : 0);
      g_string_append (out, ELLIPSIS);
    }
  return g_string_free (out, FALSE);
}

/* Keeps the first third and the last two thirds of @text (valid UTF-8)
 * when it has more than @max_chars characters: the end of a name is
 * what tells functions apart. */
static char *
cut_middle (char  *text,
            guint  max_chars)
{
  glong n = g_utf8_strlen (text, -1);
  guint head, tail;
  GString *out;

  if (max_chars == 0 || n <= (glong) max_chars)
    return text;
  if (max_chars == 1)
    {
      g_free (text);
      return g_strdup (ELLIPSIS);
    }
  head = (max_chars - 1) / 3;
  tail = max_chars - 1 - head;
  out = g_string_new (NULL);
  g_string_append_len (out, text, g_utf8_offset_to_pointer (text, head) - text);
  g_string_append (out, ELLIPSIS);
  g_string_append (out, g_utf8_offset_to_pointer (text, n - tail));
  g_free (text);
  return g_string_free (out, FALSE);
}

/* Brackets ------------------------------------------------------------ */

typedef struct {
  const char *s;
  gsize       len;
  gssize     *match;     /* opener -> its closer; -1 elsewhere */
  guint      *depth;     /* brackets open around each byte */
  guint8     *foldable;  /* the < of a template argument list */
  guint8     *op;        /* part of an operator's name: "operator()" */
} Scan;

static gboolean
is_ident (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '$' || (guchar) c >= 0x80;
}

/* "operator" as a word at @i */
static gboolean
is_operator_at (const char *s,
                gsize       len,
                gsize       i)
{
  return i + 8 <= len && memcmp (s + i, "operator", 8) == 0 &&
         (i == 0 || !is_ident (s[i - 1])) &&
         (i + 8 == len || !is_ident (s[i + 8]));
}

static gboolean
is_operator_char (char c)
{
  return c != '\0' && strchr ("+-*/%^&|~!=<>,", c) != NULL;
}

static void
scan_clear (Scan *sc)
{
  g_free (sc->match);
  g_free (sc->depth);
  g_free (sc->foldable);
  g_free (sc->op);
}

static gboolean
scan (Scan       *sc,
      const char *s,
      gsize       len)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize op_end = G_MAXSIZE;  /* just after the last operator's symbol */

  sc->s = s;
  sc->len = len;
  sc->match = g_new (gssize, MAX (len, 1));
  sc->depth = g_new (guint, MAX (len, 1));
  sc->foldable = g_new0 (guint8, MAX (len, 1));
  sc->op = g_new0 (guint8, MAX (len, 1));
  for (gsize i = 0; i < len; i++)
    sc->match[i] = -1;

  for (gsize i = 0; i < len; i++)
    {
      char c = s[i];
      char prev = i > 0 ? s[i - 1] : '\0';
      gsize top = stack->len > 0 ? g_array_index (stack, gsize, stack->len - 1) : 0;
      char open = stack->len > 0 ? s[top] : '\0';

      sc->depth[i] = stack->len;
      if (c == 'o' && is_operator_at (s, len, i))
        {
          /* "operator()", "operator[]", "operator<<=", "operator->*": one word */
          gsize j = i + 8;

          if (j + 1 < len && ((s[j] == '(' && s[j + 1] == ')') || (s[j] == '[' && s[j + 1] == ']')))
            j += 2;
          else
            while (j < len && is_operator_char (s[j]))
              j++;
          for (gsize k = i; k < j; k++)
            {
              sc->depth[k] = stack->len;
              sc->op[k] = TRUE;
            }
          op_end = j;
          i = j - 1;
          continue;
        }
      switch (c)
        {
        case '(':
        case '[':
        case '{':
          g_array_append_val (stack, i);
          break;
        case '<':
          if ((i > 0 && is_ident (prev)) || (prev == ' ' && op_end == i - 1))
            {
              /* "map<", "operator< <T>" */
              sc->foldable[i] = TRUE;
              g_array_append_val (stack, i);
            }
          else if (i == 0 || strchr ("(,<: ", prev) != NULL)
            g_array_append_val (stack, i);  /* "<T as Trait>::f" (Rust) */
          break;
        case '>':
          if (open == '<')
            {
              sc->match[top] = i;
              g_array_set_size (stack, stack->len - 1);
            }
          break;  /* otherwise "->" in an expression */
        case ')':
        case ']':
        case '}':
          if (open != (c == ')' ? '(' : c == ']' ? '[' : '{'))
            return FALSE;
          sc->match[top] = i;
          g_array_set_size (stack, stack->len - 1);
          break;
        default:
          break;
        }
    }
  return stack->len == 0;
}

static gboolean
worth_folding (const Scan *sc,
               gsize       open)
{
  gsize close = sc->match[open];

  if (close - open - 1 > FOLD_KEEP_BYTES)
    return TRUE;
  for (gsize k = open + 1; k < close; k++)
    if (sc->foldable[k])
      return TRUE;  /* a template in a template: "<std::vector<int>>" */
  return FALSE;
}

static char *
fold_templates (const Scan *sc)
{
  GString *out = g_string_sized_new (sc->len);

  for (gsize i = 0; i < sc->len; )
    {
      if (sc->foldable[i] && sc->match[i] >= 0 && worth_folding (sc, i))
        {
          g_string_append (out, "<" ELLIPSIS ">");
          i = sc->match[i] + 1;
          continue;
        }
      g_string_append_c (out, sc->s[i]);
      i++;
    }
  return g_string_free (out, FALSE);
}

static gboolean
is_qualifier (const char *word,
              gsize       len)
{
  static const char *const qualifiers[] = {
    "const", "volatile", "&", "&&", "noexcept", "transaction_safe", "throw()",
  };

  for (guint i = 0; i < G_N_ELEMENTS (qualifiers); i++)
    if (strlen (qualifiers[i]) == len && memcmp (qualifiers[i], word, len) == 0)
      return TRUE;
  return FALSE;
}

/* Whether bytes @from to the end hold only qualifiers and [clone …]
 * tags; appends the tags to @tags when it is not NULL. */
static gboolean
only_qualifiers (const Scan *sc,
                 gsize       from,
                 GString    *tags)
{
  gsize k = from;

  while (k < sc->len)
    {
      gsize word = k;

      if (sc->s[k] == ' ')
        {
          k++;
          continue;
        }
      if (sc->s[k] == '[' && sc->match[k] >= 0)
        {
          if (tags != NULL && strncmp (sc->s + k, "[clone ", 7) == 0)
            {
              g_string_append_c (tags, ' ');
              g_string_append_len (tags, sc->s + k, sc->match[k] - k + 1);
            }
          k = sc->match[k] + 1;
          continue;
        }
      if (sc->s[k] == '@')
        return TRUE;  /* a symbol version: "@GLIBC_2.2.5" */
      while (k < sc->len && sc->s[k] != ' ' && sc->s[k] != '[')
        k++;
      if (!is_qualifier (sc->s + word, k - word))
        return FALSE;
    }
  return TRUE;
}

/* Whether @prefix (what precedes a name) is a phrase of the demangler,
 * not a return type: "non-virtual thunk to ", "typeinfo for ". */
static gboolean
is_special_prefix (const char *s,
                   gsize       len)
{
  while (len > 0 && s[len - 1] == ' ')
    len--;
  return (len >= 3 && memcmp (s + len - 3, " to", 3) == 0) ||
         (len >= 4 && memcmp (s + len - 4, " for", 4) == 0) ||
         (len == 2 && memcmp (s, "to", 2) == 0) ||
         (len == 3 && memcmp (s, "for", 3) == 0);
}

/* @name (the folded one, if folding) without its return type and/or its
 * parameters, as @flags ask; NULL when there is nothing to drop. */
static char *
drop_parts (const char        *name,
            HpSymbolNameFlags  flags)
{
  Scan sc = { 0 };
  gsize len = strlen (name);
  gssize params = -1;
  gsize start = 0;
  g_autoptr(GString) tags = g_string_new (NULL);
  char *ret = NULL;

  if (!scan (&sc, name, len))
    goto out;
  /* the last ( at the outer level, if only qualifiers follow it */
  for (gsize i = len; i-- > 0; )
    if (name[i] == '(' && sc.depth[i] == 0 && sc.match[i] >= 0)
      {
        params = i;
        break;
      }
  /* (not "void (*handler (int))(int)", a function returning a function pointer) */
  if (params <= 0 || (name[params - 1] == ')' && !sc.op[params - 1]) || !only_qualifiers (&sc, sc.match[params] + 1, tags))
    goto out;

  if (flags & HP_SYMBOL_NAME_DROP_RETURN_TYPE)
    {
      gsize limit = params;

      /* the spaces of "operator new" and "operator char const*" are its own */
      for (gsize i = 0; i < (gsize) params; i++)
        if (sc.depth[i] == 0 && is_operator_at (name, len, i))
          limit = i;
      for (gsize i = 0; i < limit; i++)
        if (sc.depth[i] == 0 && name[i] == ' ')
          start = i + 1;
      if (start >= (gsize) params || is_special_prefix (name, start))
        start = 0;
    }
  if (flags & HP_SYMBOL_NAME_DROP_PARAMETERS)
    {
      GString *out = g_string_new_len (name + start, params - start);

      g_string_append (out, tags->str);
      ret = g_string_free (out, FALSE);
    }
  else if (start > 0)
    ret = g_strdup (name + start);

out:
  scan_clear (&sc);
  return ret;
}

char *
hp_symbol_name_shorten (const char        *name,
                        HpSymbolNameFlags  flags,
                        guint              max_chars)
{
  g_autofree char *folded = NULL;
  g_autofree char *dropped = NULL;
  const char *shown = name != NULL ? name : "";
  char *text;

  /* plain C names, placeholders: nothing to shorten */
  if (flags != 0 && shown[strcspn (shown, "<([{ ")] != '\0')
    {
      if (flags & HP_SYMBOL_NAME_FOLD_TEMPLATES)
        {
          Scan sc = { 0 };

          if (scan (&sc, shown, strlen (shown)))
            shown = folded = fold_templates (&sc);
          scan_clear (&sc);
        }
      if (flags & (HP_SYMBOL_NAME_DROP_RETURN_TYPE | HP_SYMBOL_NAME_DROP_PARAMETERS))
        {
          dropped = drop_parts (shown, flags);
          if (dropped != NULL)
            shown = dropped;
        }
    }

  text = hp_symbol_name_sanitize (shown, -1, 0);
  if (text[strspn (text, " ")] == '\0')
    {
      g_free (text);
      return g_strdup (NO_NAME);
    }
  return cut_middle (text, max_chars);
}
