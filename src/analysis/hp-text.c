/* hp-text.c - text from a capture, made safe to show
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "hp-text"

#include "config.h"

#include <string.h>

#include "analysis/hp-text.h"

char *
hp_text_make_valid (const char *text)
{
  if (text == NULL)
    return NULL;
  return g_utf8_make_valid (text, -1);
}

/* Characters that must not reach a terminal as they are: controls that
 * move the cursor, start escape sequences or end the line, and the format
 * characters that reorder or break what is shown after them. */
static gboolean
must_escape (gunichar c)
{
  if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f))
    return TRUE;
  switch (c)
    {
    case 0x061c:                 /* ARABIC LETTER MARK */
    case 0x200e: case 0x200f:    /* LEFT-TO-RIGHT, RIGHT-TO-LEFT MARK */
    case 0x2028: case 0x2029:    /* LINE, PARAGRAPH SEPARATOR */
      return TRUE;
    default:
      /* embeddings and overrides, isolates */
      return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
    }
}

static void
append_escaped_valid (GString    *out,
                      const char *valid)
{
  const char *run = valid;  /* start of the characters not yet appended */
  const char *p = valid;

  while (*p)
    {
      gunichar c = g_utf8_get_char (p);
      const char *next = g_utf8_next_char (p);

      if (must_escape (c))
        {
          g_string_append_len (out, run, p - run);
          switch (c)
            {
            case '\n': g_string_append (out, "\\n"); break;
            case '\r': g_string_append (out, "\\r"); break;
            case '\t': g_string_append (out, "\\t"); break;
            case 0x1b: g_string_append (out, "\\e"); break;
            default:
              if (c < 0x80)
                g_string_append_printf (out, "\\x%02x", c);
              else
                g_string_append_printf (out, "\\u%04x", c);
            }
          run = next;
        }
      p = next;
    }
  g_string_append_len (out, run, p - run);
}

gboolean
hp_text_needs_escape (const char *text)
{
  const char *end;

  if (text == NULL)
    return FALSE;
  if (!g_utf8_validate (text, -1, &end))
    return TRUE;
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      guchar b = (guchar) *p;

      /* Printable ASCII, the common case, without decoding. */
      if (b >= 0x20 && b < 0x7f)
        continue;
      if (must_escape (g_utf8_get_char (p)))
        return TRUE;
    }
  return FALSE;
}

void
hp_text_append_escaped (GString    *out,
                        const char *text)
{
  g_autofree char *valid = NULL;

  if (text == NULL)
    return;
  if (!hp_text_needs_escape (text))
    {
      g_string_append (out, text);
      return;
    }
  valid = g_utf8_make_valid (text, -1);
  append_escaped_valid (out, valid);
}

char *
hp_text_escape (const char *text)
{
  GString *out;

  if (text == NULL)
    return NULL;
  if (!hp_text_needs_escape (text))
    return g_strdup (text);
  out = g_string_sized_new (strlen (text) + 16);
  hp_text_append_escaped (out, text);
  return g_string_free (out, FALSE);
}

void
hp_text_escape_json_controls (GString *json)
{
  g_autoptr(GString) out = NULL;
  const char *run = json->str;
  const char *p = json->str;
  const char *end = json->str + json->len;

  for (; p < end; p++)
    {
      guchar b0 = (guchar) p[0];
      guchar b1 = p + 1 < end ? (guchar) p[1] : 0;
      guchar b2 = p + 2 < end ? (guchar) p[2] : 0;
      guint n = 0;
      gunichar c = 0;

      if (b0 == 0xc2 && b1 >= 0x80 && b1 <= 0x9f)
        n = 2, c = b1;                           /* U+0080..U+009F */
      else if (b0 == 0xe2 && b1 == 0x80 && (b2 == 0xa8 || b2 == 0xa9))
        n = 3, c = 0x2000 | (b2 - 0xa8 + 0x28);  /* U+2028, U+2029 */
      if (n == 0)
        continue;

      if (out == NULL)
        out = g_string_sized_new (json->len + 16);
      g_string_append_len (out, run, p - run);
      g_string_append_printf (out, "\\u%04x", c);
      p += n - 1;
      run = p + 1;
    }

  if (out == NULL)
    return;
  g_string_append_len (out, run, end - run);
  g_string_truncate (json, 0);
  g_string_append_len (json, out->str, out->len);
}
