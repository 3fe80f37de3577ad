/* test-cli-diff.c - hotpath-cli diff on recorded runs: A/A, A/B and bad input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The workload ab (tests/workloads/ab.c) spends 40/25/20/15 % of its time
 * in four functions; its second argument scales the work of the 20 % one,
 * score_matches. Runs are recorded interleaved (A, A', B, A, A', B, …) so
 * that a machine getting busier or quieter meanwhile favours no side:
 *
 *   A/A: five runs against five runs of the same program: nothing is
 *        judged slower or faster (functions, their totals, call paths);
 *   A/B: five runs against five where score_matches does 10 % more work:
 *        it is judged slower, its change lies within 10 ± 6 %, and no
 *        other function is flagged.
 *
 * Sampling at 4999 Hz: at 999 Hz a 0.4 s run puts ~80 samples in
 * score_matches, whose counting error alone (±11 %) hides a 10 % change
 * in five runs, whatever the statistics.
 *
 * Runs of 1.2 s (240 iterations): "slower" and "faster" need a q-value
 * under 5 % and a change over the materiality floor (1 % of the program,
 * 2.5 % of parse_input), so an unchanged function is flagged when its
 * noise crosses the floor. In runs of 0.3-0.4 s that noise is ±1.3 % of
 * parse_input over five runs, and parse_input was called "faster" at
 * -2.7 to -3.3 % in 2 % of 200 draws of five runs from 40 recorded ones
 * (and in one CI run of eight); with 1.2 s runs, in none of 200.
 *
 * README's own example, a program kept under two names (./app-old,
 * ./app-new), is recorded from two builds of ab.c under those names.
 *
 * Bad input uses captures written with the store's writer: an empty
 * folder, a file that is not a capture, captures of different events, of
 * different programs.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "integration-common.h"
#include "store/hp-capture-writer.h"
#include "test-common.h"

#define RUNS 5
#define ITERATIONS "240"

static void
record_ab (const char *path,
           const char *percent)
{
  g_autofree char *program = it_workload_path ("ab-fp");
  const char *args[] = { "record", "-F", "4999", "--call-graph", "fp", "-o", path, "--",
                         program, ITERATIONS, percent, NULL };
  g_autoptr(ItResult) result = it_run_cli (args);

  if (result->status != 0)
    g_error ("hotpath-cli record -- ab %s failed with exit %d: %s", percent, result->status, result->err);
}

static JsonObject *
parse_json (JsonParser *parser,
            const char *text)
{
  g_autoptr(GError) error = NULL;

  if (!json_parser_load_from_data (parser, text, -1, &error))
    g_error ("diff --format json is not JSON (%s): %.300s", error->message, text);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_node_get_object (json_parser_get_root (parser));
}

static ItResult *
run_diff (const char *base,
          const char *new_side,
          const char *format,
          gboolean    fail)
{
  const char *args[] = { "diff", base, new_side, "--format", format,
                         fail ? "--fail-on-regression" : NULL, NULL };

  return it_run_cli (args);
}

static JsonObject *
find_function (JsonObject *root,
               const char *name)
{
  JsonArray *functions = json_object_get_array_member (root, "functions");

  for (guint i = 0; i < json_array_get_length (functions); i++)
    {
      JsonObject *fn = json_array_get_object_element (functions, i);

      if (g_strcmp0 (json_object_get_string_member (fn, "name"), name) == 0 &&
          g_strcmp0 (json_object_get_string_member (fn, "module"), "ab-fp") == 0)
        return fn;
    }
  g_error ("no function %s in the diff", name);
  return NULL;
}

static gboolean
flagged (JsonObject *o)
{
  const char *verdict = json_object_get_string_member (o, "verdict");

  return g_strcmp0 (verdict, "slower") == 0 || g_strcmp0 (verdict, "faster") == 0;
}

static void
test_aa_ab (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *a = NULL, *a2 = NULL, *b = NULL;

  if (!it_require_perf_events ())
    return;

  dir = it_tmpdir_new ();
  a = g_build_filename (dir, "a", NULL);
  a2 = g_build_filename (dir, "a2", NULL);
  b = g_build_filename (dir, "b", NULL);
  g_assert_cmpint (g_mkdir (a, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (a2, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (b, 0700), ==, 0);
  for (guint r = 0; r < RUNS; r++)
    {
      g_autofree char *name = g_strdup_printf ("run-%u.hotpath", r);
      g_autofree char *pa = g_build_filename (a, name, NULL);
      g_autofree char *pa2 = g_build_filename (a2, name, NULL);
      g_autofree char *pb = g_build_filename (b, name, NULL);

      record_ab (pa, "100");
      record_ab (pa2, "100");
      record_ab (pb, "110");
    }

  /* A/A */
  {
    g_autoptr(ItResult) result = run_diff (a, a2, "json", TRUE);
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *root;
    JsonArray *functions, *paths;

    g_assert_cmpint (result->status, ==, 0);
    root = parse_json (parser, result->out);
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "base"), "captures"), ==, RUNS);
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "new"), "captures"), ==, RUNS);
    g_assert_cmpstr (json_object_get_string_member (root, "method"), ==, "welch");
    functions = json_object_get_array_member (root, "functions");
    for (guint i = 0; i < json_array_get_length (functions); i++)
      {
        JsonObject *fn = json_array_get_object_element (functions, i);

        if (flagged (fn) || flagged (json_object_get_object_member (fn, "total")))
          g_error ("A/A: %s judged %s", json_object_get_string_member (fn, "name"),
                   json_object_get_string_member (fn, "verdict"));
      }
    paths = json_object_get_array_member (root, "paths");
    g_assert_cmpuint (json_array_get_length (paths), >, 0);
    for (guint i = 0; i < json_array_get_length (paths); i++)
      g_assert_false (flagged (json_array_get_object_element (paths, i)));
  }

  /* A/B */
  {
    g_autoptr(ItResult) result = run_diff (a, b, "json", TRUE);
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *root, *score;
    static const char *others[] = { "parse_input", "build_index", "write_output" };

    g_assert_cmpint (result->status, ==, 3);  /* --fail-on-regression */
    root = parse_json (parser, result->out);
    score = find_function (root, "score_matches");
    g_test_message ("A/B: score_matches %s, %+.1f %% [%+.1f, %+.1f], q %.4f",
                    json_object_get_string_member (score, "verdict"),
                    json_object_get_double_member (score, "change"),
                    json_object_get_double_member (score, "low"),
                    json_object_get_double_member (score, "high"),
                    json_object_get_double_member (score, "q"));
    g_assert_cmpstr (json_object_get_string_member (score, "verdict"), ==, "slower");
    it_assert_percent ("change of score_matches", json_object_get_double_member (score, "change"), 10, 6);
    g_assert_cmpfloat (json_object_get_double_member (score, "low"), >, 0);
    g_assert_cmpfloat (json_object_get_double_member (score, "q"), <, 0.05);
    for (guint i = 0; i < G_N_ELEMENTS (others); i++)
      {
        JsonObject *fn = find_function (root, others[i]);

        if (flagged (fn))
          g_error ("A/B: %s judged %s (%+.1f %%)", others[i], json_object_get_string_member (fn, "verdict"),
                   json_object_get_double_member (fn, "change"));
      }
  }

  /* the table: what was compared, how, and the slower function first */
  {
    g_autoptr(ItResult) result = run_diff (a, b, "text", FALSE);
    g_auto(GStrv) lines = NULL;
    gboolean seen_header = FALSE;

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "Welch's t test"));
    g_assert_nonnull (strstr (result->out, "Minimum detectable effect"));
    g_assert_nonnull (strstr (result->out, "Materiality floor"));
    lines = g_strsplit (result->out, "\n", -1);
    for (guint i = 0; lines[i] != NULL; i++)
      if (g_str_has_prefix (lines[i], "Verdict"))
        {
          g_assert_true (g_str_has_prefix (lines[i + 1], "slower"));
          g_assert_nonnull (strstr (lines[i + 1], "score_matches [ab-fp]"));
          seen_header = TRUE;
          break;
        }
    g_assert_true (seen_header);
  }

  /* one run per side: the counts only, and it says so */
  {
    g_autofree char *one_a = g_build_filename (a, "run-0.hotpath", NULL);
    g_autofree char *one_b = g_build_filename (b, "run-0.hotpath", NULL);
    g_autoptr(ItResult) text = run_diff (one_a, one_b, "text", FALSE);
    g_autoptr(ItResult) json = run_diff (one_a, one_b, "json", FALSE);
    g_autoptr(JsonParser) parser = json_parser_new ();

    g_assert_cmpint (text->status, ==, 0);
    g_assert_nonnull (strstr (text->out, "NOT the run-to-run noise"));
    g_assert_cmpstr (json_object_get_string_member (parse_json (parser, json->out), "method"), ==, "counts");
  }

  {
    const char *folders[] = { a, a2, b };

    for (guint f = 0; f < G_N_ELEMENTS (folders); f++)
      for (guint r = 0; r < RUNS; r++)
        {
          g_autofree char *name = g_strdup_printf ("run-%u.hotpath", r);
          g_autofree char *path = g_build_filename (folders[f], name, NULL);

          g_unlink (path);
        }
    for (guint f = 0; f < G_N_ELEMENTS (folders); f++)
      g_rmdir (folders[f]);
  }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* README's example: one program built twice and kept under two names,
 * ./app-old and ./app-new, recorded into a folder per side. Its functions
 * match across the names (the program's module goes by the base's name,
 * and a warning says so), and the two sides are not taken for different
 * programs. The two names are two real builds of ab.c: with and without
 * frame pointers, so recorded with DWARF call graphs. */
static void
test_renamed_program (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *before = NULL, *after = NULL;
  static const char *functions[] = { "parse_input", "build_index", "score_matches", "write_output" };

  if (!it_require_perf_events ())
    return;

  dir = it_tmpdir_new ();
  before = g_build_filename (dir, "before", NULL);
  after = g_build_filename (dir, "after", NULL);
  g_assert_cmpint (g_mkdir (before, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (after, 0700), ==, 0);
  {
    static const char *builds[][2] = { { "ab-fp", "app-old" }, { "ab-nofp", "app-new" } };

    for (guint b = 0; b < G_N_ELEMENTS (builds); b++)
      {
        g_autofree char *from = it_workload_path (builds[b][0]);
        g_autofree char *to = g_build_filename (dir, builds[b][1], NULL);
        g_autofree char *contents = NULL;
        gsize length;

        g_assert_true (g_file_get_contents (from, &contents, &length, NULL));
        g_assert_true (g_file_set_contents (to, contents, length, NULL));
        g_assert_cmpint (g_chmod (to, 0755), ==, 0);
      }
  }
  for (guint r = 0; r < 2; r++)
    for (guint side = 0; side < 2; side++)
      {
        g_autofree char *name = g_strdup_printf ("run-%u.hotpath", r);
        g_autofree char *path = g_build_filename (side == 0 ? before : after, name, NULL);
        g_autofree char *program = g_build_filename (dir, side == 0 ? "app-old" : "app-new", NULL);
        const char *args[] = { "record", "-F", "1999", "--call-graph", "dwarf", "-o", path, "--",
                               program, "40", NULL };
        g_autoptr(ItResult) result = it_run_cli (args);

        if (result->status != 0)
          g_error ("hotpath-cli record -- %s failed with exit %d: %s", program, result->status, result->err);
      }

  {
    g_autoptr(ItResult) result = run_diff (before, after, "json", FALSE);
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonArray *array;

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->err, "app-old and app-new"));
    g_assert_null (strstr (result->err, "little in common"));
    array = json_object_get_array_member (parse_json (parser, result->out), "functions");
    for (guint f = 0; f < G_N_ELEMENTS (functions); f++)
      {
        JsonObject *fn = NULL;

        for (guint i = 0; i < json_array_get_length (array); i++)
          {
            JsonObject *o = json_array_get_object_element (array, i);

            g_assert_cmpstr (json_object_get_string_member (o, "module"), !=, "app-new");
            if (g_strcmp0 (json_object_get_string_member (o, "name"), functions[f]) == 0)
              fn = o;
          }
        g_assert_nonnull (fn);
        g_test_message ("%s [%s]: %.0f -> %.0f ns per run", functions[f],
                        json_object_get_string_member (fn, "module"),
                        json_object_get_double_member (fn, "base"),
                        json_object_get_double_member (fn, "new"));
        g_assert_cmpstr (json_object_get_string_member (fn, "module"), ==, "app-old");
        g_assert_cmpfloat (json_object_get_double_member (fn, "base"), >, 0);
        g_assert_cmpfloat (json_object_get_double_member (fn, "new"), >, 0);
      }
  }
  {
    g_autoptr(ItResult) result = run_diff (before, after, "text", FALSE);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "app-old and app-new"));
    g_assert_nonnull (strstr (result->out, "score_matches [app-old]"));
  }

  hp_test_remove_tree (dir);
  g_clear_pointer (&dir, g_free);
}

/* A capture of one program: @functions under main, @samples each. */
static void
write_capture (const char  *path,
               const char  *event,
               const char  *unit,
               const char  *program,
               const char **functions,
               guint        samples)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 module, main_frame, main_stack;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", event);
  hp_capture_writer_set_metadata (w, "event_unit", unit);
  hp_capture_writer_set_metadata (w, "command", program);
  module = hp_capture_writer_intern_module (w, program, NULL, FALSE);
  main_frame = hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "main", module, NULL, 0),
                                               NULL, 0, FALSE, 0x10);
  main_stack = hp_capture_writer_intern_stack (w, 0, main_frame);
  for (guint f = 0; functions[f] != NULL; f++)
    {
      gint64 function = hp_capture_writer_intern_function (w, functions[f], module, NULL, 0);
      gint64 frame = hp_capture_writer_intern_frame (w, function, NULL, 0, FALSE, 0x100 + f);
      gint64 stack = hp_capture_writer_intern_stack (w, main_stack, frame);

      for (guint s = 0; s < samples * (f + 1); s++)
        hp_capture_writer_add_sample (w, s, 1, 0, stack, 1000000);
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
}

/* A function renamed between two builds (old_name in the base runs,
 * new_name in the new, both called by main and calling nothing): diff
 * pairs them, says so in the text and in JSON, and --fail-on-regression
 * goes by the pair, unchanged, not by new_name alone, which is "slower"
 * (it was nowhere in the base). */
static void
test_renamed_function (void)
{
  char *dir = it_tmpdir_new ();
  g_autofree char *base = g_build_filename (dir, "base", NULL);
  g_autofree char *new_side = g_build_filename (dir, "new", NULL);
  const char *old_functions[] = { "parse", "old_name", NULL };
  const char *new_functions[] = { "parse", "new_name", NULL };

  g_assert_cmpint (g_mkdir (base, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (new_side, 0700), ==, 0);
  for (guint r = 0; r < 3; r++)
    {
      g_autofree char *name = g_strdup_printf ("run-%u.hotpath", r);
      g_autofree char *base_run = g_build_filename (base, name, NULL);
      g_autofree char *new_run = g_build_filename (new_side, name, NULL);

      write_capture (base_run, "cpu-clock", "ns", "/opt/app", old_functions, 100 + 3 * r);
      write_capture (new_run, "cpu-clock", "ns", "/opt/app", new_functions, 106 - 3 * r);
    }
  {
    g_autoptr(ItResult) result = run_diff (base, new_side, "json", TRUE);
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *root, *pair;
    JsonArray *renames, *functions;

    g_assert_cmpint (result->status, ==, 0);
    root = parse_json (parser, result->out);
    renames = json_object_get_array_member (root, "renames");
    g_assert_cmpuint (json_array_get_length (renames), ==, 1);
    pair = json_array_get_object_element (renames, 0);
    g_assert_cmpstr (json_object_get_string_member (pair, "removed"), ==, "old_name");
    g_assert_cmpstr (json_object_get_string_member (pair, "added"), ==, "new_name");
    g_assert_cmpstr (json_object_get_string_member (pair, "verdict"), ==, "unchanged");
    functions = json_object_get_array_member (root, "functions");
    for (guint i = 0; i < json_array_get_length (functions); i++)
      {
        JsonObject *fn = json_array_get_object_element (functions, i);

        if (g_strcmp0 (json_object_get_string_member (fn, "name"), "new_name") == 0)
          g_assert_cmpstr (json_object_get_string_member (fn, "verdict"), ==, "slower");
      }
  }
  {
    g_autoptr(ItResult) result = run_diff (base, new_side, "text", FALSE);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "# Renamed?"));
    g_assert_nonnull (strstr (result->out, "old_name → new_name [app], self"));
    g_assert_nonnull (strstr (result->out, "new_name [app] (renamed from old_name?)"));
  }
  it_tmpdir_free (dir);
}

/* A capture of main → work, work declared at /src/app.c:@decl with
 * @hot samples at line @decl + 2 and 100 at line @decl + 4. */
static void
write_lines_capture (const char *path,
                     guint       decl,
                     guint       hot)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 module, main_stack, work;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  hp_capture_writer_set_metadata (w, "command", "/opt/app");
  module = hp_capture_writer_intern_module (w, "/opt/app", NULL, FALSE);
  main_stack = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w,
                 hp_capture_writer_intern_function (w, "main", module, "/src/app.c", 1), "/src/app.c", 3, FALSE, 0x10));
  work = hp_capture_writer_intern_function (w, "work", module, "/src/app.c", decl);
  for (guint l = 0; l < 2; l++)
    {
      gint64 stack = hp_capture_writer_intern_stack (w, main_stack, hp_capture_writer_intern_frame (w,
                       work, "/src/app.c", decl + 2 + 2 * l, FALSE, 0x100 + l));

      for (guint s = 0; s < (l == 0 ? hot : 100); s++)
        hp_capture_writer_add_sample (w, s, 1, 0, stack, 1000000);
    }
  /* and a stack under "[truncated]", a function of no module */
  {
    gint64 truncated = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w,
                         hp_capture_writer_intern_function (w, "[truncated]", 0, NULL, 0), NULL, 0, FALSE, 0));
    gint64 stack = hp_capture_writer_intern_stack (w, truncated, hp_capture_writer_intern_frame (w,
                     work, "/src/app.c", decl + 4, FALSE, 0x101));

    for (guint s = 0; s < 50; s++)
      hp_capture_writer_add_sample (w, s, 1, 0, stack, 1000000);
  }
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
}

/* --lines NAME: the function's source lines, self cost at each, with
 * verdicts, as the window's Source page compares them; the new build's
 * work starts five lines further down, so its lines are matched by their
 * distance from the declaration. JSON adds "lines". An unknown name is an
 * error that names it. */
static void
test_lines (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *base = g_build_filename (dir, "base.hotpath", NULL);
  g_autofree char *new_side = g_build_filename (dir, "new.hotpath", NULL);

  write_lines_capture (base, 8, 1000);
  write_lines_capture (new_side, 13, 2000);
  {
    const char *args[] = { "diff", base, new_side, "--lines", "work", NULL };
    g_autoptr(ItResult) result = it_run_cli (args);
    g_autofree char *hot = NULL;
    g_autofree char *cold = NULL;

    g_test_message ("%s%s", result->out, result->err);
    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "# Function work [app]: self slower"));
    g_assert_nonnull (strstr (result->out, "distance from the function's first line"));
    g_assert_null (strstr (result->out, "# Functions by self cost"));
    hot = g_strdup (strstr (result->out, "\nslower "));
    g_assert_nonnull (hot);
    *strchr (hot + 1, '\n') = '\0';
    g_assert_true (g_str_has_suffix (hot, "  app.c:15 (was 10)"));
    g_assert_nonnull (strstr (hot, "+100.0%"));
    cold = g_strdup (strstr (result->out, "app.c:17 (was 12)"));
    g_assert_nonnull (cold);
  }
  /* the function tables name a function of no module by its name alone */
  {
    const char *args[] = { "diff", base, new_side, NULL };
    g_autoptr(ItResult) result = it_run_cli (args);

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->out, "  [truncated]\n"));
    g_assert_null (strstr (result->out, "[truncated] [?]"));
  }
  {
    const char *args[] = { "diff", base, new_side, "--lines", "work", "--format", "json", NULL };
    g_autoptr(ItResult) result = it_run_cli (args);
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *root, *line;
    JsonArray *lines;

    g_assert_cmpint (result->status, ==, 0);
    root = parse_json (parser, result->out);
    lines = json_object_get_array_member (root, "lines");
    g_assert_cmpuint (json_array_get_length (lines), ==, 2);
    line = json_array_get_object_element (lines, 0);
    g_assert_cmpstr (json_object_get_string_member (line, "file"), ==, "/src/app.c");
    g_assert_cmpint (json_object_get_int_member (line, "line"), ==, 15);
    g_assert_cmpint (json_object_get_int_member (line, "base_line"), ==, 10);
    g_assert_cmpstr (json_object_get_string_member (line, "verdict"), ==, "slower");
  }
  {
    const char *args[] = { "diff", base, new_side, "--lines", "nowhere", NULL };
    g_autoptr(ItResult) result = it_run_cli (args);

    g_assert_cmpint (result->status, ==, 1);
    g_assert_nonnull (strstr (result->err, "no function nowhere"));
    g_assert_cmpstr (result->out, ==, "");
  }
  it_tmpdir_free (g_steal_pointer (&dir));
}

static void
test_bad_input (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *empty = g_build_filename (dir, "empty", NULL);
  g_autofree char *text = g_build_filename (dir, "notes.txt", NULL);
  g_autofree char *clock = g_build_filename (dir, "clock.hotpath", NULL);
  g_autofree char *cycles = g_build_filename (dir, "cycles.hotpath", NULL);
  g_autofree char *other = g_build_filename (dir, "other.hotpath", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.hotpath", NULL);
  const char *app_functions[] = { "parse", "render", NULL };
  const char *other_functions[] = { "encode", "decode", NULL };

  g_assert_cmpint (g_mkdir (empty, 0700), ==, 0);
  g_assert_true (g_file_set_contents (text, "not a capture", -1, NULL));
  write_capture (clock, "cpu-clock", "ns", "/usr/bin/app", app_functions, 100);
  write_capture (cycles, "cycles", "cycles", "/usr/bin/app", app_functions, 100);
  write_capture (other, "cpu-clock", "ns", "/usr/bin/other", other_functions, 100);

  {
    g_autoptr(ItResult) result = run_diff (empty, clock, "text", FALSE);

    g_assert_cmpint (result->status, ==, 1);
    g_assert_nonnull (strstr (result->err, empty));
    g_assert_nonnull (strstr (result->err, "no captures"));
    g_assert_cmpstr (result->out, ==, "");
  }
  {
    g_autoptr(ItResult) result = run_diff (clock, text, "text", FALSE);

    g_assert_cmpint (result->status, ==, 1);
    g_assert_nonnull (strstr (result->err, text));
    g_assert_nonnull (strstr (result->err, "not a Hotpath capture"));
  }
  {
    g_autoptr(ItResult) result = run_diff (clock, missing, "text", FALSE);

    g_assert_cmpint (result->status, ==, 1);
    g_assert_nonnull (strstr (result->err, missing));
  }
  {
    g_autoptr(ItResult) result = run_diff (clock, cycles, "json", FALSE);

    g_assert_cmpint (result->status, ==, 1);
    g_assert_nonnull (strstr (result->err, "different events or units"));
    g_assert_nonnull (strstr (result->err, "cycles"));
    g_assert_cmpstr (result->out, ==, "");
  }
  {
    g_autoptr(ItResult) result = run_diff (clock, other, "json", FALSE);
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *root, *fn;
    static const char *keys[] = { "name", "module", "base", "new", "change", "low", "high", "q", "verdict" };

    g_assert_cmpint (result->status, ==, 0);
    g_assert_nonnull (strstr (result->err, "warning"));
    g_assert_nonnull (strstr (result->err, "little in common"));
    root = parse_json (parser, result->out);
    /* the contract */
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "base"), "captures"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "base"), "samples"), ==, 300);
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "new"), "samples"), ==, 300);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "functions")), ==, 6);
    fn = json_array_get_object_element (json_object_get_array_member (root, "functions"), 0);
    for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
      g_assert_true (json_object_has_member (fn, keys[k]));
    g_assert_nonnull (json_object_get_array_member (root, "paths"));
  }
  {
    /* the same capture on both sides: nothing changed, and exit 0 for CI */
    g_autoptr(ItResult) result = run_diff (clock, clock, "json", TRUE);
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *render;

    g_assert_cmpint (result->status, ==, 0);
    render = json_array_get_object_element (json_object_get_array_member (parse_json (parser, result->out),
                                                                          "functions"), 0);
    g_assert_cmpstr (json_object_get_string_member (render, "name"), ==, "render");
    g_assert_cmpstr (json_object_get_string_member (render, "verdict"), ==, "unchanged");
    g_assert_cmpfloat (json_object_get_double_member (render, "change"), ==, 0);
    g_assert_cmpfloat (json_object_get_double_member (render, "base"), ==, 200 * 1e6);
  }

  g_rmdir (empty);
  g_clear_pointer (&dir, it_tmpdir_free);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/cli/diff/bad-input", test_bad_input);
  g_test_add_func ("/integration/cli/diff/aa-ab", test_aa_ab);
  g_test_add_func ("/integration/cli/diff/renamed-program", test_renamed_program);
  g_test_add_func ("/integration/cli/diff/renamed-function", test_renamed_function);
  g_test_add_func ("/integration/cli/diff/lines", test_lines);
  return g_test_run ();
}
