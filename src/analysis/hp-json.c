/* hp-json.c - members of the JSON documents Hotpath writes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `hotpath-cli report --json`, `diff --json`, `summary --json` and the
 * input Suggest hands a summarizer write their members through these, so
 * that every one of them says a missing string and a non-finite number
 * the same way (null), never writes invalid UTF-8 from a capture, and
 * never wraps a count past gint64. The documents built with a JsonBuilder
 * (report, export, summary, Suggest) are written by the same writer
 * (hp_json_append_node), never by JsonGenerator: json-glib 1.6 writes
 * U+001F raw and "1e+20.0", which no strict reader takes.
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include <math.h>
#include <string.h>

#include "analysis/hp-json.h"
#include "analysis/hp-text.h"

void
hp_json_add_string (JsonBuilder *builder,
                    const char  *member,
                    const char  *value)
{
  g_return_if_fail (JSON_IS_BUILDER (builder));
  g_return_if_fail (member != NULL);

  json_builder_set_member_name (builder, member);
  if (value == NULL)
    json_builder_add_null_value (builder);
  else if (g_utf8_validate (value, -1, NULL))
    json_builder_add_string_value (builder, value);
  else
    {
      g_autofree char *valid = hp_text_make_valid (value);

      json_builder_add_string_value (builder, valid);
    }
}

void
hp_json_add_count (JsonBuilder *builder,
                   const char  *member,
                   guint64      value)
{
  g_return_if_fail (JSON_IS_BUILDER (builder));
  g_return_if_fail (member != NULL);

  json_builder_set_member_name (builder, member);
  json_builder_add_int_value (builder, (gint64) MIN (value, (guint64) G_MAXINT64));
}

void
hp_json_add_number (JsonBuilder *builder,
                    const char  *member,
                    double       value)
{
  g_return_if_fail (JSON_IS_BUILDER (builder));
  g_return_if_fail (member != NULL);

  json_builder_set_member_name (builder, member);
  if (isfinite (value))
    json_builder_add_double_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

/* Writer ---------------------------------------------------------------- */

void
hp_json_writer_init (HpJsonWriter *writer,
                     GString      *out)
{
  g_return_if_fail (writer != NULL);
  g_return_if_fail (out != NULL);

  writer->out = out;
  writer->depth = 0;
  writer->need_comma = FALSE;
  writer->after_member = FALSE;
}

/* The comma before an element of an array or a member of an object (a
 * member's value has its own, before its name). Whatever was written last
 * at this level says whether one is needed: a value, or the end of a
 * container, needs one after it; an opening bracket does not. So no
 * stack of levels is kept, and nesting has no limit. */
static void
separate (HpJsonWriter *writer)
{
  if (writer->after_member)
    {
      writer->after_member = FALSE;
      return;
    }
  if (writer->need_comma)
    g_string_append_c (writer->out, ',');
}

static void
begin (HpJsonWriter *writer,
       char          open)
{
  g_return_if_fail (writer->depth < G_MAXUINT);

  separate (writer);
  g_string_append_c (writer->out, open);
  writer->depth++;
  writer->need_comma = FALSE;
}

static void
end (HpJsonWriter *writer,
     char          close)
{
  g_return_if_fail (writer->depth > 0);
  g_return_if_fail (!writer->after_member);

  writer->depth--;
  g_string_append_c (writer->out, close);
  writer->need_comma = TRUE;
}

void
hp_json_writer_begin_object (HpJsonWriter *writer)
{
  begin (writer, '{');
}

void
hp_json_writer_end_object (HpJsonWriter *writer)
{
  end (writer, '}');
}

void
hp_json_writer_begin_array (HpJsonWriter *writer)
{
  begin (writer, '[');
}

void
hp_json_writer_end_array (HpJsonWriter *writer)
{
  end (writer, ']');
}

/* @text between quotes, escaped: what json-glib escapes (\" \\ \b \f \n
 * \r \t, \u00XX for the other controls and DEL), U+001F that it forgets,
 * and what hp_text_escape_json_controls() adds (the C1 controls, U+2028
 * and U+2029, which some readers take for line ends). @text is valid
 * UTF-8. */
static void
append_quoted (GString    *out,
               const char *text)
{
  const guchar *p = (const guchar *) text;
  const guchar *run = p;

  g_string_append_c (out, '"');
  for (; *p != 0; p++)
    {
      const char *short_form = NULL;
      guint c = 0, n = 0;

      switch (*p)
        {
        case '"': short_form = "\\\""; break;
        case '\\': short_form = "\\\\"; break;
        case '\b': short_form = "\\b"; break;
        case '\f': short_form = "\\f"; break;
        case '\n': short_form = "\\n"; break;
        case '\r': short_form = "\\r"; break;
        case '\t': short_form = "\\t"; break;
        default:
          if (*p < 0x20 || *p == 0x7f)
            c = *p, n = 1;
          else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
            c = p[1], n = 2;
          else if (*p == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9))
            c = 0x2000 | (p[2] - 0xa8 + 0x28), n = 3;
          break;
        }
      if (short_form == NULL && n == 0)
        continue;
      g_string_append_len (out, (const char *) run, (const char *) p - (const char *) run);
      if (short_form != NULL)
        g_string_append (out, short_form);
      else
        {
          g_string_append_printf (out, "\\u%04x", c);
          p += n - 1;
        }
      run = p + 1;
    }
  g_string_append_len (out, (const char *) run, (const char *) p - (const char *) run);
  g_string_append_c (out, '"');
}

void
hp_json_writer_member (HpJsonWriter *writer,
                       const char   *member)
{
  g_return_if_fail (writer != NULL);
  g_return_if_fail (member != NULL);
  g_return_if_fail (!writer->after_member);

  separate (writer);
  append_quoted (writer->out, member);
  g_string_append_c (writer->out, ':');
  writer->after_member = TRUE;
  writer->need_comma = FALSE;
}

void
hp_json_writer_string (HpJsonWriter *writer,
                       const char   *value)
{
  g_return_if_fail (writer != NULL);

  separate (writer);
  writer->need_comma = TRUE;
  if (value == NULL)
    g_string_append (writer->out, "null");
  else if (g_utf8_validate (value, -1, NULL))
    append_quoted (writer->out, value);
  else
    {
      g_autofree char *valid = hp_text_make_valid (value);

      append_quoted (writer->out, valid);
    }
}

void
hp_json_writer_int (HpJsonWriter *writer,
                    gint64        value)
{
  g_return_if_fail (writer != NULL);

  separate (writer);
  writer->need_comma = TRUE;
  g_string_append_printf (writer->out, "%" G_GINT64_FORMAT, value);
}

void
hp_json_writer_count (HpJsonWriter *writer,
                      guint64       value)
{
  hp_json_writer_int (writer, (gint64) MIN (value, (guint64) G_MAXINT64));
}

void
hp_json_writer_number (HpJsonWriter *writer,
                       double        value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_return_if_fail (writer != NULL);

  separate (writer);
  writer->need_comma = TRUE;
  if (!isfinite (value))
    {
      g_string_append (writer->out, "null");
      return;
    }
  /* as json-glib writes a double: 17 digits, and ".0" when that reads as
   * an integer (never after an exponent, which json-glib 1.6 did) */
  g_ascii_dtostr (buffer, sizeof buffer, value);
  g_string_append (writer->out, buffer);
  if (strpbrk (buffer, ".eE") == NULL)
    g_string_append (writer->out, ".0");
}

void
hp_json_writer_boolean (HpJsonWriter *writer,
                        gboolean      value)
{
  g_return_if_fail (writer != NULL);

  separate (writer);
  writer->need_comma = TRUE;
  g_string_append (writer->out, value ? "true" : "false");
}

static void
write_value (HpJsonWriter *writer,
             JsonNode     *node)
{
  GType type = json_node_get_value_type (node);

  if (type == G_TYPE_BOOLEAN)
    hp_json_writer_boolean (writer, json_node_get_boolean (node));
  else if (type == G_TYPE_DOUBLE)
    hp_json_writer_number (writer, json_node_get_double (node));
  else if (type == G_TYPE_STRING)
    hp_json_writer_string (writer, json_node_get_string (node));
  else
    hp_json_writer_int (writer, json_node_get_int (node));
}

/* A container being written: the members of an object left to write, or
 * the next element of an array. */
typedef struct {
  JsonNode *node;
  GList    *members;  /* object: owned list, the next member at its head */
  GList    *all;
  guint     next;     /* array */
} Level;

void
hp_json_writer_node (HpJsonWriter *writer,
                     JsonNode     *node)
{
  g_autoptr(GArray) stack = NULL;

  g_return_if_fail (writer != NULL);

  stack = g_array_new (FALSE, FALSE, sizeof (Level));
  while (node != NULL || stack->len > 0)
    {
      if (node != NULL)
        {
          Level level = { node, NULL, NULL, 0 };

          switch (json_node_get_node_type (node))
            {
            case JSON_NODE_OBJECT:
              hp_json_writer_begin_object (writer);
              level.all = level.members = json_object_get_members (json_node_get_object (node));
              g_array_append_val (stack, level);
              break;
            case JSON_NODE_ARRAY:
              hp_json_writer_begin_array (writer);
              g_array_append_val (stack, level);
              break;
            case JSON_NODE_VALUE:
              write_value (writer, node);
              break;
            case JSON_NODE_NULL:
            default:
              hp_json_writer_string (writer, NULL);
              break;
            }
          node = NULL;
          continue;
        }

      /* the next child of the innermost container, or its end */
      {
        Level *top = &g_array_index (stack, Level, stack->len - 1);

        if (JSON_NODE_HOLDS_OBJECT (top->node))
          {
            if (top->members != NULL)
              {
                const char *name = top->members->data;

                hp_json_writer_member (writer, name);
                node = json_object_get_member (json_node_get_object (top->node), name);
                top->members = top->members->next;
                continue;
              }
            g_list_free (top->all);
            hp_json_writer_end_object (writer);
          }
        else
          {
            JsonArray *array = json_node_get_array (top->node);

            if (top->next < json_array_get_length (array))
              {
                node = json_array_get_element (array, top->next++);
                continue;
              }
            hp_json_writer_end_array (writer);
          }
        g_array_set_size (stack, stack->len - 1);
      }
    }
}

void
hp_json_append_node (GString  *out,
                     JsonNode *root)
{
  HpJsonWriter writer;

  g_return_if_fail (out != NULL);
  g_return_if_fail (root != NULL);

  hp_json_writer_init (&writer, out);
  hp_json_writer_node (&writer, root);
}
