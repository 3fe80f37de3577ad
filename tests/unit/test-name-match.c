/* test-name-match.c - finding functions by the names people type
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include "analysis/hp-name-match.h"
#include "test-capture-data.h"

static const char *names[] = {
  NULL,
  "main",
  "__memmove_avx_unaligned_erms",
  "__GI___libc_free",
  "ns::Parser::parse(std::vector<int, std::allocator<int> > const&) const",
  "std::map<int, std::function<void ()> >::find(int const&)",
  "count_word",
  "hash_word",
  "operator()(int)",
  "(anonymous namespace)::helper(int)",
  "__strncmp_evex",
};

/* one stack per function under main, each sampled once */
static HpCaptureData *
build (void)
{
  HpCaptureData *data = test_data_new ();
  HpCaptureModule m = { 0 };

  g_array_append_val (data->modules, m);
  m.path = (char *) "/bin/app";
  m.name = (char *) "app";
  g_array_append_val (data->modules, m);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      HpCaptureFunction f = { (char *) names[i], i ? 1 : 0, NULL, 0 };
      HpCaptureFrame fr = { i, NULL, 0, FALSE, i * 16 };
      HpCaptureStack s = { i > 1 ? 1 : 0, i };
      HpCaptureStackCount c = { i, 1, i, i };

      g_array_append_val (data->functions, f);
      g_array_append_val (data->frames, fr);
      g_array_append_val (data->stacks, s);
      if (i > 0)
        g_array_append_val (data->stack_counts, c);
    }
  return data;
}

static char *
match (HpProfile   *profile,
       const char  *query,
       HpNameMatch *how)
{
  g_autoptr(GArray) ids = hp_profile_match_functions (profile, query, how);
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  for (guint i = 0; i < ids->len; i++)
    g_ptr_array_add (found, (gpointer) hp_profile_get_function_name (profile, g_array_index (ids, gint64, i)));
  g_ptr_array_add (found, NULL);
  return g_strjoinv ("|", (char **) found->pdata);
}

static void
test_strip (void)
{
  static const struct { const char *name, *bare; } cases[] = {
    { "main", "main" },
    { "ns::f<int>(char const*) const", "ns::f<int>" },
    { "std::map<int, std::function<void ()> >::find(int const&)", "std::map<int, std::function<void ()> >::find" },
    { "operator()(int)", "operator()" },
    { "Foo::operator()(int) const", "Foo::operator()" },
    { "(anonymous namespace)::helper(int)", "(anonymous namespace)::helper" },
    { "f(void (*)(int))", "f" },
    { "{lambda(int)#1}::operator()(int) const", "{lambda(int)#1}::operator()" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *bare = hp_name_strip_parameters (cases[i].name);

      g_assert_cmpstr (bare, ==, cases[i].bare);
    }
}

static void
test_rules (void)
{
  g_autoptr(TestData) data = build ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  HpNameMatch how;
  g_autofree char *exact = match (profile, "count_word", &how);

  g_assert_cmpstr (exact, ==, "count_word");
  g_assert_cmpint (how, ==, HP_NAME_MATCH_EXACT);
  {
    g_autofree char *m = match (profile, "memcpy", &how);

    g_assert_cmpstr (m, ==, "__memmove_avx_unaligned_erms");
    g_assert_cmpint (how, ==, HP_NAME_MATCH_ALIAS);
  }
  {
    g_autofree char *m = match (profile, "strncmp", &how);

    g_assert_cmpstr (m, ==, "__strncmp_evex");
    g_assert_cmpint (how, ==, HP_NAME_MATCH_ALIAS);
  }
  {
    g_autofree char *m = match (profile, "ns::Parser::parse", &how);

    g_assert_cmpstr (m, ==, "ns::Parser::parse(std::vector<int, std::allocator<int> > const&) const");
    g_assert_cmpint (how, ==, HP_NAME_MATCH_NO_PARAMS);
  }
  {
    g_autofree char *m = match (profile, "Parser::parse", &how);

    g_assert_cmpint (how, ==, HP_NAME_MATCH_NO_PARAMS);
    g_assert_nonnull (m);
  }
  {
    /* "parse" alone: only a substring, not a whole scope */
    g_autofree char *m = match (profile, "arser::par", &how);

    g_assert_cmpint (how, ==, HP_NAME_MATCH_SUBSTRING);
  }
  {
    g_autofree char *m = match (profile, "*_word", &how);

    g_assert_cmpint (how, ==, HP_NAME_MATCH_GLOB);
    g_assert_cmpstr (m, ==, "hash_word|count_word");
  }
  {
    g_autofree char *m = match (profile, "WORD", &how);

    g_assert_cmpint (how, ==, HP_NAME_MATCH_SUBSTRING);
    g_assert_cmpstr (m, ==, "hash_word|count_word");
  }
  {
    g_autofree char *m = match (profile, "nothing_like_it", &how);

    g_assert_cmpint (how, ==, HP_NAME_MATCH_NONE);
    g_assert_cmpstr (m, ==, "");
  }
}

/* Names that are an address and nothing else: what a frame without a
 * symbol is called */
static void
test_is_address (void)
{
  g_assert_true (hp_name_is_address ("liblzma.so.5+0x1f2e0"));
  g_assert_true (hp_name_is_address ("0x401000"));
  g_assert_false (hp_name_is_address ("0x"));
  g_assert_false (hp_name_is_address ("0x40g"));
  g_assert_false (hp_name_is_address ("0xdeadbeef_handler"));
  g_assert_false (hp_name_is_address ("+0x10"));
  g_assert_false (hp_name_is_address ("main"));
  g_assert_false (hp_name_is_address ("operator+0x"));
  g_assert_false (hp_name_is_address (NULL));
}

static void
test_suggest (void)
{
  g_autoptr(TestData) data = build ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  g_autoptr(GPtrArray) close = hp_profile_suggest_functions (profile, "hash_wrod", 3);
  g_autoptr(GPtrArray) none = hp_profile_suggest_functions (profile, "zzzzzzzzzzzz", 3);

  g_assert_cmpuint (close->len, >=, 1);
  g_assert_cmpstr (g_ptr_array_index (close, 0), ==, "hash_word");
  g_assert_cmpuint (none->len, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/name-match/strip-parameters", test_strip);
  g_test_add_func ("/name-match/rules", test_rules);
  g_test_add_func ("/name-match/suggest", test_suggest);
  g_test_add_func ("/name-match/is-address", test_is_address);
  return g_test_run ();
}
