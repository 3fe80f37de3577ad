/* test-text.c - escaping text from a capture for terminals and JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

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
  return g_test_run ();
}
