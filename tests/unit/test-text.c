/* test-text.c - escaping text from a capture for terminals and JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "analysis/hp-json.h"
#include "analysis/hp-text.h"

static void
assert_escape (const char *in,
               const char *expected)
{
  g_autofree char *out = hp_text_escape (in);

  g_assert_cmpstr (out, ==, expected);
  g_assert_true (g_utf8_validate (out, -1, NULL));
  g_assert_cmpint (hp_text_needs_escape (in), ==, g_strcmp0 (in, expected) != 0);
}

static void
test_escape_plain (void)
{
  g_assert_null (hp_text_escape (NULL));
  g_assert_false (hp_text_needs_escape (NULL));
  assert_escape ("", "");
  assert_escape ("main", "main");
  assert_escape ("std::map<int, std::function<void ()>>::find(int const&)",
                 "std::map<int, std::function<void ()>>::find(int const&)");
  /* Printable non-ASCII is shown as it is. */
  assert_escape ("café → 世界 \xf0\x9f\x94\xa5", "café → 世界 \xf0\x9f\x94\xa5");
  /* A backslash is not a control: left alone. */
  assert_escape ("a\\nb \"q\"", "a\\nb \"q\"");
}

static void
test_escape_controls (void)
{
  assert_escape ("a\nb\rc\td", "a\\nb\\rc\\td");
  assert_escape ("\x1b[31mred\x1b[0m", "\\e[31mred\\e[0m");
  assert_escape ("\x1b]0;title\x07", "\\e]0;title\\x07");
  assert_escape ("\x01\x1f\x7f", "\\x01\\x1f\\x7f");
  /* C1 controls, encoded in UTF-8: U+009B is CSI on some terminals. */
  assert_escape ("x\xc2\x9b" "2Jy\xc2\x85z", "x\\u009b2Jy\\u0085z");
  /* Line separators and the bidirectional overrides and isolates. */
  assert_escape ("a\xe2\x80\xa8" "b\xe2\x80\xa9" "c", "a\\u2028b\\u2029c");
  assert_escape ("x\xe2\x80\xae" "y\xe2\x81\xa6z\xe2\x80\x8f", "x\\u202ey\\u2066z\\u200f");
}

static void
test_escape_invalid (void)
{
  /* Each invalid byte becomes U+FFFD: a raw 0x9b never reaches the
   * terminal as an 8-bit CSI. */
  assert_escape ("a\xff" "b", "a\xef\xbf\xbd" "b");
  assert_escape ("\x9b" "31m", "\xef\xbf\xbd" "31m");
  assert_escape ("end\xc3", "end\xef\xbf\xbd");
  assert_escape ("\xff\n", "\xef\xbf\xbd\\n");

  {
    g_autofree char *valid = hp_text_make_valid ("a\xffz\x1b");

    g_assert_cmpstr (valid, ==, "a\xef\xbf\xbdz\x1b");
    g_assert_null (hp_text_make_valid (NULL));
  }
}

static void
test_append (void)
{
  g_autoptr(GString) out = g_string_new ("> ");

  hp_text_append_escaped (out, "a\tb");
  hp_text_append_escaped (out, NULL);
  hp_text_append_escaped (out, " ok");
  g_assert_cmpstr (out->str, ==, "> a\\tb ok");
}

static void
test_json_controls (void)
{
  const char *value = "c1\xc2\x9b" "x \xe2\x80\xa8 e\xcc\x81 \xc3\xa9 \xe2\x80\xa9\x7f\x1b";
  g_autoptr(JsonNode) node = json_node_init_string (json_node_alloc (), value);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GString) json = g_string_new (NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_generator_set_root (generator, node);
  json_generator_to_gstring (generator, json);
  hp_text_escape_json_controls (json);
  g_assert_cmpstr (json->str, ==,
                   "\"c1\\u009bx \\u2028 e\xcc\x81 \xc3\xa9 \\u2029\\u007f\\u001b\"");
  /* The same document: it parses back to the same string. */
  g_assert_true (json_parser_load_from_data (parser, json->str, -1, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (json_node_get_string (json_parser_get_root (parser)), ==, value);

  /* Nothing to do: untouched. */
  g_string_assign (json, "{\"a\":\"é\"}");
  hp_text_escape_json_controls (json);
  g_assert_cmpstr (json->str, ==, "{\"a\":\"é\"}");
}

/* The members every JSON document of Hotpath writes: a capture's invalid
 * UTF-8 made valid (json-glib would write it as it is, and a JSON reader
 * refuses the document), NULL and non-finite numbers as null, a count past
 * gint64 clamped instead of wrapped negative. */
static void
test_json_members (void)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *text = NULL;
  JsonObject *o;

  json_builder_begin_object (b);
  hp_json_add_string (b, "name", "caf\xe9\xff");
  hp_json_add_string (b, "missing", NULL);
  hp_json_add_count (b, "count", G_MAXUINT64);
  hp_json_add_count (b, "small", 42);
  hp_json_add_number (b, "nan", NAN);
  hp_json_add_number (b, "inf", INFINITY);
  hp_json_add_number (b, "share", 0.25);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);

  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, "caf\xef\xbf\xbd\xef\xbf\xbd");
  g_assert_true (json_object_get_null_member (o, "missing"));
  g_assert_cmpint (json_object_get_int_member (o, "count"), ==, G_MAXINT64);
  g_assert_cmpint (json_object_get_int_member (o, "small"), ==, 42);
  g_assert_true (json_object_get_null_member (o, "nan"));
  g_assert_true (json_object_get_null_member (o, "inf"));
  g_assert_cmpfloat (json_object_get_double_member (o, "share"), ==, 0.25);
}

/* The writer against json-glib --------------------------------------------- */

/* A random string: ASCII, controls, quotes and backslashes, C1 controls,
 * U+2028/9, other UTF-8 and invalid bytes; never U+001F, which json-glib
 * 1.6 leaves raw (test_writer_fixes). */
static char *
random_text (GRand *rand)
{
  static const char *pieces[] = {
    "a", "Z", "0", " ", "\"", "\\", "/", "\b", "\f", "\n", "\r", "\t", "\x01", "\x1e",
    "\x7f", "\xc2\x80", "\xc2\x9f", "\xc2\xa0", "\xe2\x80\xa8", "\xe2\x80\xa9",
    "\xe2\x80\xa7", "é", "世", "\xf0\x9f\x94\xa5", "\xff", "\xc3", "::", "<int>",
  };
  GString *s = g_string_new (NULL);
  guint n = g_rand_int_range (rand, 0, 12);

  for (guint i = 0; i < n; i++)
    g_string_append (s, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
  return g_string_free (s, FALSE);
}

/* A random double of any magnitude, whole or not, or not finite; never a
 * whole number that 17 digits write with an exponent, to which json-glib
 * 1.6 appends ".0" (test_writer_fixes). */
static double
random_number (GRand *rand)
{
  switch (g_rand_int_range (rand, 0, 6))
    {
    case 0:
      return g_rand_int_range (rand, -1000, 1000);
    case 1:
      return g_rand_double_range (rand, -1, 1);
    case 2:
      return ldexp (g_rand_double (rand), g_rand_int_range (rand, -1070, 50));
    case 3:
      return (double) g_rand_int (rand) * g_rand_int (rand);  /* whole, < 2^64 */
    case 4:
      return (const double[]) { NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e16, 0.1 }[g_rand_int_range (rand, 0, 7)];
    default:
      return g_rand_double_range (rand, -1e15, 1e15);
    }
}

/* The same random document through JsonBuilder, JsonGenerator and
 * hp_text_escape_json_controls() (what hotpath-cli diff wrote before), and
 * through the writer: the same bytes. */
static void
build_random (GRand        *rand,
              JsonBuilder  *b,
              HpJsonWriter *w,
              guint         depth)
{
  guint n = g_rand_int_range (rand, 0, depth < 3 ? 6 : 1);
  gboolean object = g_rand_boolean (rand);

  if (object)
    {
      json_builder_begin_object (b);
      hp_json_writer_begin_object (w);
    }
  else
    {
      json_builder_begin_array (b);
      hp_json_writer_begin_array (w);
    }
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *value = random_text (rand);
      g_autofree char *name = g_strdup_printf ("m%u-%s", i, i % 2 ? "\t\"x" : "é");
      double number = random_number (rand);
      guint64 count = g_rand_boolean (rand) ? g_rand_int (rand) : G_MAXUINT64 - g_rand_int (rand);
      gint64 negative = -(gint64) g_rand_int (rand);
      const char *string = g_rand_int_range (rand, 0, 8) ? value : NULL;
      guint kind = g_rand_int_range (rand, 0, 5);

      if (object)
        {
          if (kind == 4)
            {
              json_builder_set_member_name (b, name);
              hp_json_writer_member (w, name);
            }
          switch (kind)
            {
            case 0:
              hp_json_add_string (b, name, string);
              hp_json_writer_member (w, name);
              hp_json_writer_string (w, string);
              break;
            case 1:
              hp_json_add_number (b, name, number);
              hp_json_writer_member (w, name);
              hp_json_writer_number (w, number);
              break;
            case 2:
              hp_json_add_count (b, name, count);
              hp_json_writer_member (w, name);
              hp_json_writer_count (w, count);
              break;
            case 3:
              json_builder_set_member_name (b, name);
              json_builder_add_int_value (b, negative);
              hp_json_writer_member (w, name);
              hp_json_writer_int (w, negative);
              break;
            default:
              build_random (rand, b, w, depth + 1);
              break;
            }
        }
      else
        switch (kind)
          {
          case 0:
            {
              /* what the diff did with its warnings */
              g_autofree char *valid = hp_text_make_valid (value);

              json_builder_add_string_value (b, valid);
              hp_json_writer_string (w, value);
            }
            break;
          case 1:
            if (isfinite (number))
              json_builder_add_double_value (b, number);
            else
              json_builder_add_null_value (b);
            hp_json_writer_number (w, number);
            break;
          default:
            build_random (rand, b, w, depth + 1);
            break;
          }
    }
  if (object)
    {
      json_builder_end_object (b);
      hp_json_writer_end_object (w);
    }
  else
    {
      json_builder_end_array (b);
      hp_json_writer_end_array (w);
    }
}

/* Where json-glib 1.6 writes invalid JSON, the writer does not: U+001F
 * escaped, and no ".0" after an exponent. Each document parses, and has
 * no raw control byte. */
static void
test_writer_fixes (void)
{
  static const struct {
    double      number;
    const char *text;
  } numbers[] = {
    { 1e20, "1e+20" }, { 1e17, "1e+17" }, { -3e300, "-3.0000000000000002e+300" },
    { 1e16, "10000000000000000.0" }, { 2, "2.0" }, { 0.5, "0.5" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      g_autoptr(GString) out = g_string_new (NULL);
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      HpJsonWriter w;

      hp_json_writer_init (&w, out);
      hp_json_writer_begin_array (&w);
      hp_json_writer_number (&w, numbers[i].number);
      hp_json_writer_end_array (&w);
      g_assert_true (g_str_has_prefix (out->str + 1, numbers[i].text));
      g_assert_cmpuint (out->len, ==, strlen (numbers[i].text) + 2);
      g_assert_true (json_parser_load_from_data (parser, out->str, -1, &error));
      g_assert_no_error (error);
      g_assert_cmpfloat (json_array_get_double_element (json_node_get_array (json_parser_get_root (parser)), 0),
                         ==, numbers[i].number);
    }

  {
    const char *value = "a\x1f\x01" "b\xc2\x85\xe2\x80\xa8";
    g_autoptr(GString) out = g_string_new (NULL);
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autoptr(GError) error = NULL;
    HpJsonWriter w;

    hp_json_writer_init (&w, out);
    hp_json_writer_begin_object (&w);
    hp_json_writer_member (&w, "s\x1f");
    hp_json_writer_string (&w, value);
    hp_json_writer_end_object (&w);
    g_assert_cmpstr (out->str, ==, "{\"s\\u001f\":\"a\\u001f\\u0001b\\u0085\\u2028\"}");
    for (gsize i = 0; i < out->len; i++)
      g_assert_cmpint ((guchar) out->str[i], >=, 0x20);
    g_assert_true (json_parser_load_from_data (parser, out->str, -1, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (json_object_get_string_member (json_node_get_object (json_parser_get_root (parser)), "s\x1f"),
                     ==, value);
  }
}

static void
test_writer_as_json_glib (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261202);

  for (guint round = 0; round < 2000; round++)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autoptr(GString) expected = g_string_new (NULL);
      g_autoptr(GString) written = g_string_new (NULL);
      HpJsonWriter w;

      hp_json_writer_init (&w, written);
      build_random (rand, b, &w, 0);
      root = json_builder_get_root (b);
      json_generator_set_root (gen, root);
      json_generator_to_gstring (gen, expected);
      hp_text_escape_json_controls (expected);
      g_assert_cmpstr (written->str, ==, expected->str);

      /* and a JsonBuilder's tree written through the writer: the same */
      g_string_truncate (expected, 0);
      hp_json_append_node (expected, root);
      g_assert_cmpstr (expected->str, ==, written->str);
    }
}

/* A document a JsonBuilder made, written by hp_json_append_node(): valid
 * JSON where JsonGenerator's is not (U+001F raw, "1e+20.0"), as strict a
 * parser as Python's reads it. */
static void
test_node_fixes (void)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GString) out = g_string_new (NULL);

  json_builder_begin_object (b);
  hp_json_add_string (b, "name\x1f", "a\x1f\x01" "b\xc2\x85\xe2\x80\xa8\xff");
  hp_json_add_number (b, "big", 1e20);
  hp_json_add_number (b, "two", 2);
  json_builder_set_member_name (b, "flags");
  json_builder_begin_array (b);
  json_builder_add_boolean_value (b, TRUE);
  json_builder_add_boolean_value (b, FALSE);
  json_builder_add_null_value (b);
  json_builder_begin_object (b);
  json_builder_end_object (b);
  json_builder_begin_array (b);
  json_builder_end_array (b);
  json_builder_end_array (b);
  hp_json_add_count (b, "count", G_MAXUINT64);
  json_builder_end_object (b);
  root = json_builder_get_root (b);

  hp_json_append_node (out, root);
  g_assert_cmpstr (out->str, ==,
                   "{\"name\\u001f\":\"a\\u001f\\u0001b\\u0085\\u2028\xef\xbf\xbd\","
                   "\"big\":1e+20,\"two\":2.0,\"flags\":[true,false,null,{},[]],"
                   "\"count\":9223372036854775807}");
}

/* Nesting has no limit: a call tree as deep as a recursion of 100 000
 * levels is written whole, without recursing in C. */
static void
test_node_deep (void)
{
  const guint depth = 100000;
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_ARRAY);
  g_autoptr(GString) out = g_string_new (NULL);
  JsonArray *array = json_array_new ();

  json_node_take_array (root, array);
  for (guint i = 1; i < depth; i++)
    {
      JsonArray *inner = json_array_new ();

      json_array_add_int_element (array, i);
      json_array_add_array_element (array, inner);
      array = inner;
    }
  hp_json_append_node (out, root);
  g_assert_cmpuint (out->len, >, 2 * depth);
  g_assert_true (g_str_has_prefix (out->str, "[1,[2,[3,"));
  g_assert_nonnull (strstr (out->str, ",[99999,[]]]]"));
  for (guint i = 0; i < depth; i++)
    g_assert_cmpint (out->str[out->len - 1 - i], ==, ']');
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/text/escape/plain", test_escape_plain);
  g_test_add_func ("/text/escape/controls", test_escape_controls);
  g_test_add_func ("/text/escape/invalid", test_escape_invalid);
  g_test_add_func ("/text/escape/append", test_append);
  g_test_add_func ("/text/json-controls", test_json_controls);
  g_test_add_func ("/text/json-members", test_json_members);
  g_test_add_func ("/text/json-writer/as-json-glib", test_writer_as_json_glib);
  g_test_add_func ("/text/json-writer/fixes", test_writer_fixes);
  g_test_add_func ("/text/json-writer/node-fixes", test_node_fixes);
  g_test_add_func ("/text/json-writer/node-deep", test_node_deep);
  return g_test_run ();
}
