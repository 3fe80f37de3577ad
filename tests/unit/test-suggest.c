/* test-suggest.c - Suggest's draft from the code, and the summarizer protocol
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The capture below is built by hand over a source file the test writes,
 * so that every number of the suggestion is known:
 *
 *   app.c      (APP_SOURCE below; recorded as /build/src/app.c, which does
 *              not exist: it is found in the test's folder as a suffix)
 *   functions  1 main (declared at line 5), 2 work (14), 3 leaf (22),
 *              4 other (27), all in "app"
 *   frames     1 main:7  2 main:8  3 work:16  4 work:17  5 work:18
 *              6 leaf:24  7 other:27
 *   stacks     1 main:7                                  -
 *              2 main:7>work:17                         40
 *              3 main:7>work:18                         10
 *              4 main:7>work:16                          -
 *              5 main:7>work:16>leaf:24                 30
 *              6 main:8                                  -
 *              7 main:8>other:27                        20
 *              8 main:8>work:18                          5   (same node as 3)
 *              9 work:17                                 7   (another path)
 *
 * 112 samples. The path main → work: total 85, self 55; its hot lines are
 * 17 (40 self) and 18 (15 self; line 16 only calls); the 7 samples of work
 * at line 17 on the root path are not this path's. leaf takes 30 of 85
 * (35 %), so it dominates; main's and work's doc comments are found (a
 * block comment and two // lines), leaf has none (a "}" above it).
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>

#include "document/hp-suggest.h"
#include "document/hp-summarizer.h"
#include "test-capture-data.h"
#include "../common/test-common.h"

#define APP_SOURCE \
  "/* app.c */\n"                /* 1 */ \
  "\n"                           /* 2 */ \
  "/* Runs the program. */\n"    /* 3 */ \
  "int\n"                        /* 4 */ \
  "main (void)\n"                /* 5 */ \
  "{\n"                          /* 6 */ \
  "  work ();\n"                 /* 7 */ \
  "  other ();\n"                /* 8 */ \
  "}\n"                          /* 9 */ \
  "\n"                           /* 10 */ \
  "// Does the work:\n"          /* 11 */ \
  "// all of it.\n"              /* 12 */ \
  "static void\n"                /* 13 */ \
  "work (void)\n"                /* 14 */ \
  "{\n"                          /* 15 */ \
  "  leaf ();\n"                 /* 16 */ \
  "  x += 1;\n"                  /* 17 */ \
  "  y += 2;\n"                  /* 18 */ \
  "}\n"                          /* 19 */ \
  "static void\n"                /* 20 */ \
  "\n"                           /* 21 */ \
  "leaf (void)\n"                /* 22 */ \
  "{\n"                          /* 23 */ \
  "  hot ();\n"                  /* 24 */ \
  "}\n"                          /* 25 */ \
  "/** other: does other things. */\n" /* 26 */ \
  "void other (void) {}\n"       /* 27 */

#define RECORDED "/build/src/app.c"

enum { MAIN = 1, WORK, LEAF, OTHER };

static char *tmpdir;

static HpCaptureData *
make_data (void)
{
  HpCaptureData *data = test_data_new ();
  static const struct { const char *name; guint line; } functions[] = {
    { "main", 5 }, { "work", 14 }, { "leaf", 22 }, { "other", 27 },
  };
  static const struct { gint64 function; guint line; } frames[] = {
    { MAIN, 7 }, { MAIN, 8 }, { WORK, 16 }, { WORK, 17 }, { WORK, 18 }, { LEAF, 24 }, { OTHER, 27 },
  };
  static const struct { gint64 parent, frame; guint64 samples; } stacks[] = {
    { 0, 1, 0 }, { 1, 4, 40 }, { 1, 5, 10 }, { 1, 3, 0 }, { 4, 6, 30 },
    { 0, 2, 0 }, { 6, 7, 20 }, { 6, 5, 5 }, { 0, 4, 7 },
  };
  HpCaptureModule module = { "/usr/bin/app", "app", NULL, FALSE };

  g_array_set_size (data->modules, 1);
  g_array_append_val (data->modules, module);
  g_array_set_size (data->functions, 1);
  for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
    {
      HpCaptureFunction f = { (char *) functions[i].name, 1, (char *) RECORDED, functions[i].line };

      g_array_append_val (data->functions, f);
    }
  g_array_set_size (data->frames, 1);
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      HpCaptureFrame f = { frames[i].function, (char *) RECORDED, frames[i].line, FALSE, 0 };

      g_array_append_val (data->frames, f);
    }
  g_array_set_size (data->stacks, 1);
  for (guint i = 0; i < G_N_ELEMENTS (stacks); i++)
    {
      HpCaptureStack s = { stacks[i].parent, stacks[i].frame };
      HpCaptureStackCount c = { i + 1, 100, stacks[i].samples, stacks[i].samples };

      g_array_append_val (data->stacks, s);
      if (c.samples > 0)
        g_array_append_val (data->stack_counts, c);
    }
  g_hash_table_insert (data->metadata, (char *) "command", (char *) "/usr/bin/app --flag 'a b'");
  return data;
}

static const HpCallNode *
child_named (HpProfile        *profile,
             const HpCallNode *node,
             const char       *name)
{
  for (guint i = 0; node->children != NULL && i < node->children->len; i++)
    {
      const HpCallNode *child = g_ptr_array_index (node->children, i);

      if (g_str_equal (hp_profile_get_function_name (profile, child->function_id), name))
        return child;
    }
  g_error ("no child %s", name);
  return NULL;
}

static void
write_source (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "src", NULL);
  g_autofree char *path = g_build_filename (dir, "app.c", NULL);
  g_autoptr(GError) error = NULL;

  g_mkdir_with_parents (dir, 0755);
  g_file_set_contents (path, APP_SOURCE, -1, &error);
  g_assert_no_error (error);
}

/* Doc comments ---------------------------------------------------------- */

static char *
comment_at (const char *source,
            guint       line)
{
  return hp_suggest_doc_comment (source, strlen (source), line);
}

static void
test_doc_comment_kinds (void)
{
  const char *source =
    "/* Block comment\n"              /* 1 */
    " * over two lines. */\n"         /* 2 */
    "static int\n"                    /* 3 */
    "block (void)\n"                  /* 4 */
    "{\n"                             /* 5 */
    "}\n"                             /* 6 */
    "/**\n"                           /* 7 */
    " * gtkdoc:\n"                    /* 8 */
    " *\n"                            /* 9 */
    " * Documented the gtk-doc way.\n"/* 10 */
    " */\n"                           /* 11 */
    "\n"                              /* 12 */
    "void gtkdoc (void);\n"           /* 13 */
    "/// Rust or Doxygen style\n"     /* 14 */
    "/// lines.\n"                    /* 15 */
    "__attribute__((noinline))\n"     /* 16 */
    "static void\n"                   /* 17 */
    "slashes (void)\n"                /* 18 */
    "{ x = 1; /* not a doc */ }\n"    /* 19 */
    "int after_code (void);\n"        /* 20 */
    "int y; /* trailing */\n"         /* 21 */
    "int after_trailing (void);\n"    /* 22 */
    "\n"                              /* 23 */
    "\n"                              /* 24 */
    "int far (void);\n";              /* 25 */
  g_autofree char *block = comment_at (source, 4);
  g_autofree char *gtkdoc = comment_at (source, 13);
  g_autofree char *slashes = comment_at (source, 18);

  g_assert_cmpstr (block, ==, "Block comment\nover two lines.");
  g_assert_cmpstr (gtkdoc, ==, "gtkdoc:\n\nDocumented the gtk-doc way.");
  g_assert_cmpstr (slashes, ==, "Rust or Doxygen style\nlines.");
  /* a "}" or a statement above: no comment of its own */
  g_assert_null (comment_at (source, 20));
  /* a comment after code on its line is about that code */
  g_assert_null (comment_at (source, 22));
  /* two blank lines: the comment above is not this function's */
  g_assert_null (comment_at (source, 25));
  /* outside the file, or the first line */
  g_assert_null (comment_at (source, 1));
  g_assert_null (comment_at (source, 0));
  g_assert_null (comment_at (source, 1000));
  g_assert_null (hp_suggest_doc_comment ("", 0, 3));
}

/* A source file is whatever is on the disk: bytes that are not UTF-8, a
 * comment without a start, a huge comment. */
static void
test_doc_comment_hostile (void)
{
  g_autofree char *bad = comment_at ("/* caf\xe9 \xff */\nint f (void);\n", 2);
  g_autofree char *unopened = comment_at ("no start */\nint f (void);\n", 2);
  GString *huge = g_string_new ("/*\n");
  g_autofree char *cut = NULL;
  g_autofree char *long_block = NULL;
  g_autofree char *nul = hp_suggest_doc_comment ("/* a\0b */\nint f (void);\n", 22, 2);

  g_assert_nonnull (bad);
  g_assert_true (g_utf8_validate (bad, -1, NULL));
  g_assert_true (g_str_has_prefix (bad, "caf"));
  g_assert_null (unopened);

  /* 50 lines of 200 characters: kept, but cut to a bounded size */
  for (guint i = 0; i < 50; i++)
    {
      for (guint k = 0; k < 20; k++)
        g_string_append (huge, "é123456 ");
      g_string_append_c (huge, '\n');
    }
  g_string_append (huge, "*/\nint f (void);\n");
  cut = hp_suggest_doc_comment (huge->str, huge->len, 53);
  g_assert_nonnull (cut);
  g_assert_true (g_utf8_validate (cut, -1, NULL));
  g_assert_cmpuint (strlen (cut), <=, 4000 + strlen ("…"));
  g_assert_true (g_str_has_suffix (cut, "…"));

  /* a block of more lines than a doc comment has is not searched to its start */
  g_string_truncate (huge, 0);
  g_string_append (huge, "/*\n");
  for (guint i = 0; i < 500; i++)
    g_string_append (huge, "x\n");
  g_string_append (huge, "*/\nint f (void);\n");
  long_block = hp_suggest_doc_comment (huge->str, huge->len, 503);
  g_assert_null (long_block);
  g_string_free (huge, TRUE);

  /* the bytes given, a NUL among them included: no crash, valid text or none */
  g_assert_true (nul == NULL || g_utf8_validate (nul, -1, NULL));
}

/* The input ------------------------------------------------------------ */

static void
test_input_from_code (void)
{
  g_autoptr(TestData) data = make_data ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  const HpCallNode *main_node = child_named (profile, hp_profile_get_top_down (profile), "main");
  const HpCallNode *work = child_named (profile, main_node, "work");
  const char *dirs[] = { tmpdir, NULL };
  g_autoptr(HpSuggestInput) input = NULL;
  const HpSuggestStep *step;
  const HpSuggestLine *line;
  const HpSuggestCallee *callee;

  write_source ();
  g_assert_cmpuint (work->total, ==, 85);
  input = hp_suggest_input_new (profile, work, dirs);

  g_assert_cmpstr (input->program, ==, "app");
  g_assert_cmpstr (input->readable, ==, "main → work");
  g_assert_cmpstr (input->path_key, ==, "app\tmain\napp\twork\n");
  g_assert_cmpuint (input->samples, ==, 112);
  g_assert_cmpuint (input->steps->len, ==, 2);
  step = g_ptr_array_index (input->steps, 0);
  g_assert_cmpstr (step->name, ==, "main");
  g_assert_cmpstr (step->file, ==, RECORDED);
  g_assert_cmpuint (step->line, ==, 5);
  g_assert_cmpuint (step->total, ==, 105);
  g_assert_cmpstr (step->source, ==, "Runs the program.");
  step = g_ptr_array_index (input->steps, 1);
  g_assert_cmpstr (step->name, ==, "work");
  g_assert_cmpuint (step->self, ==, 55);
  g_assert_cmpuint (step->total, ==, 85);
  g_assert_cmpstr (step->source, ==, "Does the work:\nall of it.");

  /* this path's lines only: the root path's 7 samples at line 17 are not */
  g_assert_cmpstr (input->leaf_file, ==, RECORDED);
  g_assert_cmpuint (input->hot_lines->len, ==, 2);
  line = g_ptr_array_index (input->hot_lines, 0);
  g_assert_cmpuint (line->line, ==, 17);
  g_assert_cmpuint (line->self, ==, 40);
  g_assert_cmpstr (line->text, ==, "x += 1;");
  line = g_ptr_array_index (input->hot_lines, 1);
  g_assert_cmpuint (line->line, ==, 18);
  g_assert_cmpuint (line->self, ==, 15);

  g_assert_cmpuint (input->callees->len, ==, 1);
  callee = g_ptr_array_index (input->callees, 0);
  g_assert_cmpstr (callee->name, ==, "leaf");
  g_assert_cmpuint (callee->total, ==, 30);
  g_assert_cmpuint (input->missing->len, ==, 0);

  /* the draft says all of it, with the shares */
  g_test_message ("%s", input->draft);
  g_assert_nonnull (strstr (input->draft, "main → work: 75.9 % of all samples (85 of 112)"));
  g_assert_nonnull (strstr (input->draft, "- main: Runs the program."));
  g_assert_nonnull (strstr (input->draft, "- work: Does the work: all of it."));
  g_assert_nonnull (strstr (input->draft, "- line 17, 47.1 % of the path: `x += 1;`"));
  g_assert_nonnull (strstr (input->draft, "- line 18, 17.6 % of the path: `y += 2;`"));
  g_assert_nonnull (strstr (input->draft, "- leaf (app): 35.3 % of the path"));
}

/* No source on this machine: the numbers still, and what was missing. */
static void
test_input_without_source (void)
{
  g_autoptr(TestData) data = make_data ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  const HpCallNode *main_node = child_named (profile, hp_profile_get_top_down (profile), "main");
  const HpCallNode *leaf = child_named (profile, child_named (profile, main_node, "work"), "leaf");
  g_autoptr(HpSuggestInput) input = hp_suggest_input_new (profile, leaf, NULL);
  const HpSuggestLine *line;

  g_assert_cmpuint (input->missing->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (input->missing, 0), ==, RECORDED);
  g_assert_cmpuint (input->hot_lines->len, ==, 1);
  line = g_ptr_array_index (input->hot_lines, 0);
  g_assert_cmpuint (line->line, ==, 24);
  g_assert_cmpuint (line->self, ==, 30);
  g_assert_null (line->text);
  g_assert_nonnull (strstr (input->draft, "No doc comment was found"));
  g_assert_nonnull (strstr (input->draft, "- line 24, 100.0 % of the path"));
}

/* The source was edited after the recording: four lines added above
 * everything moved each function down. The doc comments are found by the
 * functions' names, the hot lines keep the capture's numbers without
 * quoting what those lines hold now, and the draft says why. */
static void
test_input_source_changed (void)
{
  g_autoptr(TestData) data = make_data ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  const HpCallNode *main_node = child_named (profile, hp_profile_get_top_down (profile), "main");
  const HpCallNode *work = child_named (profile, main_node, "work");
  const char *dirs[] = { tmpdir, NULL };
  g_autofree char *path = g_build_filename (tmpdir, "src", "app.c", NULL);
  g_autoptr(HpSuggestInput) input = NULL;
  const HpSuggestStep *step;
  const HpSuggestLine *line;

  write_source ();
  g_assert_true (g_file_set_contents (path, "#include <stdio.h>\n#include <stdlib.h>\n\nint x, y;\n" APP_SOURCE,
                                      -1, NULL));
  input = hp_suggest_input_new (profile, work, dirs);
  g_test_message ("%s", input->draft);
  step = g_ptr_array_index (input->steps, 0);
  g_assert_cmpuint (step->line, ==, 5);
  g_assert_cmpstr (step->source, ==, "Runs the program.");
  step = g_ptr_array_index (input->steps, 1);
  g_assert_cmpstr (step->source, ==, "Does the work:\nall of it.");
  g_assert_cmpuint (input->changed->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (input->changed, 0), ==, RECORDED);
  line = g_ptr_array_index (input->hot_lines, 0);
  g_assert_cmpuint (line->line, ==, 17);
  g_assert_null (line->text);
  g_assert_nonnull (strstr (input->draft, "app.c has changed since this capture was recorded"));
  g_assert_nonnull (strstr (input->draft, "- line 17, 47.1 % of the path\n"));
  g_assert_null (strstr (input->draft, "`"));

}

/* A capture names its files: one that says work is declared and sampled
 * in a file that is not source code (a credentials file, /etc/passwd, a
 * key) has nothing of it quoted, neither by its name, nor through "..",
 * nor through a link named like source: what Suggest reads goes to the
 * summarizer. Before, the line that held the function's name and every
 * sampled line were quoted. Code, even without an extension in an
 * include folder (C++'s <optional>), still is. */
static void
test_input_not_code (void)
{
  g_autofree char *secret = g_build_filename (tmpdir, "credentials", NULL);
  g_autofree char *include = g_build_filename (tmpdir, "include", NULL);
  g_autofree char *through_include = g_build_filename (include, "..", "credentials", NULL);
  g_autofree char *link = g_build_filename (tmpdir, "link.c", NULL);
  g_autofree char *header = g_build_filename (include, "optional", NULL);
  const char *names[] = { secret, through_include, link, header };

  g_assert_true (g_file_set_contents (secret, APP_SOURCE, -1, NULL));
  g_assert_cmpint (g_mkdir_with_parents (include, 0755), ==, 0);
  g_assert_true (g_file_set_contents (header, APP_SOURCE, -1, NULL));
  g_unlink (link);
  g_assert_cmpint (symlink (secret, link), ==, 0);

  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autoptr(TestData) data = make_data ();
      g_autoptr(HpProfile) profile = NULL;
      const HpCallNode *work;
      g_autoptr(HpSuggestInput) input = NULL;
      const HpSuggestLine *line;
      gboolean code = k == 3;

      for (guint i = 1; i < data->functions->len; i++)
        g_array_index (data->functions, HpCaptureFunction, i).file = (char *) names[k];
      for (guint i = 1; i < data->frames->len; i++)
        g_array_index (data->frames, HpCaptureFrame, i).file = (char *) names[k];
      profile = hp_profile_new (data, NULL);
      work = child_named (profile, child_named (profile, hp_profile_get_top_down (profile), "main"), "work");
      input = hp_suggest_input_new (profile, work, NULL);
      g_test_message ("%s: %s", names[k], input->draft);
      line = g_ptr_array_index (input->hot_lines, 0);
      g_assert_cmpuint (line->line, ==, 17);
      if (code)
        {
          g_assert_cmpstr (line->text, ==, "x += 1;");
          continue;
        }
      g_assert_null (line->text);
      g_assert_null (((HpSuggestStep *) g_ptr_array_index (input->steps, 1))->source);
      g_assert_null (strstr (input->draft, "x += 1"));
      g_assert_null (strstr (input->draft, "Does the work"));
      g_assert_cmpuint (input->missing->len, ==, 1);
    }
}

/* A declaration found by name: where DWARF says while it names the
 * function; else the nearest definition, never a call, a prototype, an
 * assignment or a statement that names it. */
static void
test_find_declaration (void)
{
  static const char source[] =
    "int parse (const char *s);\n"                    /* 1 prototype */
    "static int n = parse (\"x\") + 1\n"              /* 2 assignment */
    "  ;\n"                                           /* 3 */
    "static __attribute__((noinline)) int\n"          /* 4 */
    "parse (const char *s)\n"                         /* 5 the definition */
    "{\n"                                             /* 6 */
    "  if (parse (s))\n"                              /* 7 a call */
    "    return parse (s + 1)\n"                      /* 8 a call */
    "  ;}\n"                                          /* 9 */
    "int Parser::parse_all (int x) const\n"           /* 10 C++ */
    "{ return 0; }\n";                                /* 11 */
  gsize n = sizeof source - 1;

  g_assert_cmpuint (hp_suggest_find_declaration (source, n, "parse", 5), ==, 5);
  g_assert_cmpuint (hp_suggest_find_declaration (source, n, "parse", 7), ==, 7);  /* names it: as DWARF says */
  g_assert_cmpuint (hp_suggest_find_declaration (source, n, "parse", 11), ==, 5);
  g_assert_cmpuint (hp_suggest_find_declaration (source, n, "parse.constprop.0", 30), ==, 5);
  g_assert_cmpuint (hp_suggest_find_declaration (source, n, "ns::Parser::parse_all(int) const", 3), ==, 10);
  g_assert_cmpuint (hp_suggest_find_declaration (source, n, "Parser<int>::parse_all<char>", 1), ==, 10);
  g_assert_cmpuint (hp_suggest_find_declaration (source, n, "missing", 5), ==, 0);
  g_assert_cmpuint (hp_suggest_find_declaration ("", 0, "parse", 5), ==, 0);
}

static void
test_input_json (void)
{
  g_autoptr(TestData) data = make_data ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  const HpCallNode *main_node = child_named (profile, hp_profile_get_top_down (profile), "main");
  const HpCallNode *work = child_named (profile, main_node, "work");
  const char *dirs[] = { tmpdir, NULL };
  g_autoptr(HpSuggestInput) input = NULL;
  g_autofree char *json = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root, *step, *line;
  JsonArray *path;

  write_source ();
  input = hp_suggest_input_new (profile, work, dirs);
  json = hp_suggest_input_to_json (input);
  g_assert_null (strchr (json, '\n'));
  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "program"), ==, "app");
  g_assert_cmpint (json_object_get_int_member (root, "samples"), ==, 112);
  path = json_object_get_array_member (root, "path");
  g_assert_cmpuint (json_array_get_length (path), ==, 2);
  step = json_array_get_object_element (path, 1);
  g_assert_cmpstr (json_object_get_string_member (step, "name"), ==, "work");
  g_assert_cmpstr (json_object_get_string_member (step, "module"), ==, "app");
  g_assert_cmpstr (json_object_get_string_member (step, "file"), ==, RECORDED);
  g_assert_cmpint (json_object_get_int_member (step, "line"), ==, 14);
  g_assert_cmpint (json_object_get_int_member (step, "self"), ==, 55);
  g_assert_cmpint (json_object_get_int_member (step, "total"), ==, 85);
  g_assert_cmpstr (json_object_get_string_member (step, "source"), ==, "Does the work:\nall of it.");
  line = json_array_get_object_element (json_object_get_array_member (root, "hot_lines"), 0);
  g_assert_cmpint (json_object_get_int_member (line, "line"), ==, 17);
  g_assert_cmpint (json_object_get_int_member (line, "self"), ==, 40);
  g_assert_cmpstr (json_object_get_string_member (line, "text"), ==, "x += 1;");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "callees")), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (root, "draft"), ==, input->draft);
}

/* The summarizer -------------------------------------------------------- */

static char *
write_script (const char *name,
              const char *body)
{
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);
  g_autofree char *text = g_strconcat ("#!/bin/sh\n", body, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return g_steal_pointer (&path);
}

/* The script gets the JSON on stdin, whole, and its stdout is the suggestion. */
static void
test_summarizer_protocol (void)
{
  g_autofree char *copy = g_build_filename (tmpdir, "received.json", NULL);
  g_autofree char *script = write_script ("ok.sh", "cat > \"$1\"\nprintf '  A suggestion\\non two lines.\\n\\n'\necho 'a note' >&2\n");
  g_autofree char *command = g_strdup_printf ("%s '%s'", script, copy);
  g_autoptr(GString) input = g_string_new ("{\"path\": [");
  g_autofree char *received = NULL;
  g_autofree char *err = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  /* bigger than a pipe's buffer, so writing it and reading the answer overlap */
  for (guint i = 0; i < 20000; i++)
    g_string_append_printf (input, "%s{\"name\": \"f%u\"}", i ? ", " : "", i);
  g_string_append (input, "]}");

  text = hp_summarizer_run (command, input->str, 10, NULL, &err, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "A suggestion\non two lines.");
  g_assert_cmpstr (err, ==, "a note");
  g_file_get_contents (copy, &received, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (received, ==, input->str);
}

static void
assert_fails (const char *body,
              guint       timeout,
              GQuark      domain,
              int         code,
              const char *message_part,
              const char *stderr_part)
{
  static guint n;
  g_autofree char *name = g_strdup_printf ("s%u.sh", n++);
  g_autofree char *script = write_script (name, body);
  g_autofree char *err = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  text = hp_summarizer_run (script, "{}", timeout, NULL, &err, &error);
  g_test_message ("%s: %s after %.1f s; stderr: %s", body, error ? error->message : "(no error)",
                  (g_get_monotonic_time () - start) / 1e6, err);
  g_assert_null (text);
  g_assert_error (error, domain, code);
  g_assert_nonnull (strstr (error->message, script));
  g_assert_nonnull (strstr (error->message, message_part));
  if (stderr_part != NULL)
    g_assert_nonnull (strstr (err, stderr_part));
  g_assert_true (err == NULL || g_utf8_validate (err, -1, NULL));
}

static void
test_summarizer_failure (void)
{
  /* exit status, with what it said on stderr */
  assert_fails ("echo 'model file not found: x.gguf' >&2\nexit 3\n", 10,
                G_IO_ERROR, G_IO_ERROR_FAILED, "exited with status 3", "model file not found");
  /* a crash */
  assert_fails ("kill -SEGV $$\n", 10, G_IO_ERROR, G_IO_ERROR_FAILED, "killed by signal 11", NULL);
  /* nothing said */
  assert_fails ("cat > /dev/null\nprintf '  \\n'\n", 10, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "wrote nothing", NULL);
  /* a command that does not exist */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *text = hp_summarizer_run ("/nonexistent/llama-cli -m x", "{}", 10, NULL, NULL, &error);

    g_assert_null (text);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
    g_assert_nonnull (strstr (error->message, "/nonexistent/llama-cli"));
  }
  /* a command line that does not parse */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *text = hp_summarizer_run ("llama 'unclosed", "{}", 10, NULL, NULL, &error);

    g_assert_null (text);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  }
}

/* Whether the process whose pid @pid_file holds still runs: a zombie has
 * ended (the init of a container may never reap what was reparented to it). */
static gboolean
process_alive (const char *pid_file)
{
  g_autofree char *text = NULL;
  g_autofree char *stat_path = NULL;
  g_autofree char *stat = NULL;
  const char *paren;
  gint64 pid;

  if (!g_file_get_contents (pid_file, &text, NULL, NULL))
    return FALSE;
  pid = g_ascii_strtoll (text, NULL, 10);
  g_assert_cmpint (pid, >, 1);
  stat_path = g_strdup_printf ("/proc/%" G_GINT64_FORMAT "/stat", pid);
  if (!g_file_get_contents (stat_path, &stat, NULL, NULL))
    return FALSE;
  /* "PID (COMM) STATE ..." */
  paren = strrchr (stat, ')');
  return paren != NULL && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

/* A summarizer that never ends is stopped at the timeout, with what it
 * started: the sleep it runs would otherwise hold the pipe open. */
static void
test_summarizer_timeout (void)
{
  g_autofree char *pid_file = g_build_filename (tmpdir, "sleep.pid", NULL);
  g_autofree char *body = g_strdup_printf ("echo 'loading model' >&2\nsleep 600 &\necho $! > '%s'\nwait\n", pid_file);
  gint64 start = g_get_monotonic_time ();

  assert_fails (body, 1, G_IO_ERROR, G_IO_ERROR_TIMED_OUT, "no answer within 1 s", "loading model");
  /* well before the sleep would end: it was killed, not waited for */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 60 * G_USEC_PER_SEC);
  for (guint i = 0; i < 50 && process_alive (pid_file); i++)
    g_usleep (20000);
  g_assert_false (process_alive (pid_file));
}

/* A command that exits but leaves a child holding stdout: its answer
 * comes back anyway, and the child is stopped. */
static void
test_summarizer_leaves_child (void)
{
  g_autofree char *pid_file = g_build_filename (tmpdir, "left.pid", NULL);
  g_autofree char *body = g_strdup_printf ("sleep 600 &\necho $! > '%s'\necho 'the answer'\n", pid_file);
  g_autofree char *script = write_script ("leave.sh", body);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = hp_summarizer_run (script, "{}", 30, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "the answer");
  for (guint i = 0; i < 50 && process_alive (pid_file); i++)
    g_usleep (20000);
  g_assert_false (process_alive (pid_file));
}

static void
test_summarizer_hostile_output (void)
{
  /* megabytes: refused, and stopped without reading them all */
  assert_fails ("head -c 50000000 /dev/zero | tr '\\0' a\n", 30,
                G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE, "more than 256 KiB", NULL);
  /* bytes that are not UTF-8 */
  assert_fails ("printf 'caf\\351 \\377\\n'\n", 10, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "not UTF-8 text (at byte 3)", NULL);
  /* a NUL is not text either */
  assert_fails ("printf 'a\\000b\\n'\n", 10, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "at byte 1", NULL);
  /* megabytes on stderr: kept up to a bound, made valid */
  {
    g_autofree char *script = write_script ("noisy.sh", "head -c 3000000 /dev/urandom >&2\nexit 1\n");
    g_autofree char *err = NULL;
    g_autoptr(GError) error = NULL;
    g_autofree char *text = hp_summarizer_run (script, "{}", 30, NULL, &err, &error);

    g_assert_null (text);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
    g_assert_true (g_utf8_validate (err, -1, NULL));
    g_assert_cmpuint (strlen (err), <, 4 * HP_SUMMARIZER_MAX_STDERR);
    g_assert_true (g_str_has_suffix (err, "KiB]"));
  }
  /* one that never reads its input: no SIGPIPE for us */
  {
    g_autofree char *script = write_script ("deaf.sh", "echo 'did not read'\n");
    g_autoptr(GString) big = g_string_new (NULL);
    g_autoptr(GError) error = NULL;
    g_autofree char *text = NULL;

    for (guint i = 0; i < 100000; i++)
      g_string_append (big, "{\"x\": 1}");
    text = hp_summarizer_run (script, big->str, 10, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (text, ==, "did not read");
  }
}

static gboolean
cancel_cb (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

static void
cancel_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GError **error = user_data;
  g_autofree char *text = hp_summarizer_run_finish (result, NULL, error);

  g_assert_null (text);
}

/* Cancel (the window's button): stopped at once, as cancelled. */
static void
test_summarizer_cancel (void)
{
  g_autofree char *script = write_script ("slow.sh", "sleep 600\n");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  hp_summarizer_run_async (script, "{}", 0, cancellable, cancel_done, &error);
  g_timeout_add (200, cancel_cb, cancellable);
  while (error == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 60 * G_USEC_PER_SEC);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("hp-suggest-XXXXXX", NULL);

  g_test_add_func ("/suggest/doc-comment/kinds", test_doc_comment_kinds);
  g_test_add_func ("/suggest/doc-comment/hostile", test_doc_comment_hostile);
  g_test_add_func ("/suggest/input/from-code", test_input_from_code);
  g_test_add_func ("/suggest/input/without-source", test_input_without_source);
  g_test_add_func ("/suggest/input/json", test_input_json);
  g_test_add_func ("/suggest/input/source-changed", test_input_source_changed);
  g_test_add_func ("/suggest/input/not-code", test_input_not_code);
  g_test_add_func ("/suggest/find-declaration", test_find_declaration);
  g_test_add_func ("/suggest/summarizer/protocol", test_summarizer_protocol);
  g_test_add_func ("/suggest/summarizer/failure", test_summarizer_failure);
  g_test_add_func ("/suggest/summarizer/timeout", test_summarizer_timeout);
  g_test_add_func ("/suggest/summarizer/leaves-child", test_summarizer_leaves_child);
  g_test_add_func ("/suggest/summarizer/hostile-output", test_summarizer_hostile_output);
  g_test_add_func ("/suggest/summarizer/cancel", test_summarizer_cancel);

  status = g_test_run ();
  hp_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
