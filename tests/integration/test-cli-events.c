/* test-cli-events.c - report, flamegraph and export count what the event counts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The events capture of tests/common (hp_test_make_events_capture),
 * whose every number is known:
 *
 *   cpu-clock (1 ms a sample): main > compute 600 samples
 *   page-faults (by frequency, each sample weighs its faults):
 *     main > fault_in 50 samples of 40 faults (2,000 faults),
 *     main > compute 100 samples of 1 fault (100 faults)
 *   off-cpu: main > wait_io 30 intervals of 100 ms (3 s)
 *
 * By samples compute has more page-fault samples than fault_in; by page
 * faults fault_in has 2,000 of all 2,100. Whoever asks for page faults
 * (perf report's event count, the window) must get the faults, in every
 * view of the CLI: the text report, its tree and callers, the flame
 * graph's tooltips and caption, and the folded and speedscope exports;
 * diff says that off-CPU costs are times away, not samples × period.
 * The JSON keeps "self" and "total" in samples beside the weights.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <math.h>
#include <string.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "integration-common.h"
#include "test-common.h"

static char *dir;
static char *path;

static void
write_capture (void)
{
  dir = it_tmpdir_new ();
  path = g_build_filename (dir, "events.hotpath", NULL);
  hp_test_make_events_capture (path, &(HpTestEventsCapture) { .whole_system = FALSE });
}

static ItResult *
run_ok (const char * const *args)
{
  ItResult *r = it_run_cli (args);

  if (r->status != 0)
    g_error ("hotpath-cli %s failed (%d): %s", args[0], r->status, r->err);
  return r;
}

static void
assert_has (const char *text,
            const char *part)
{
  if (strstr (text, part) == NULL)
    g_error ("no \"%s\" in:\n%s", part, text);
}

/* The line of @text that has @part */
static char *
line_with (const char *text,
           const char *part)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], part) != NULL)
      return g_strdup (lines[i]);
  g_error ("no line with \"%s\" in:\n%s", part, text);
}

static void
test_report_text (void)
{
  g_autoptr(ItResult) r = run_ok ((const char *[]) { "report", path, "--event", "page-faults", NULL });
  g_autoptr(ItResult) tree = run_ok ((const char *[]) { "report", path, "--event", "page-faults", "--tree", NULL });
  g_autoptr(ItResult) callers = run_ok ((const char *[]) { "report", path, "--event", "page-faults",
                                                           "--callers", "fault_in", NULL });
  g_autoptr(ItResult) off = run_ok ((const char *[]) { "report", path, "--event", "off-cpu", NULL });
  g_autoptr(ItResult) clock = run_ok ((const char *[]) { "report", path, NULL });
  g_autofree char *first = NULL;
  g_autofree char *compute = NULL;
  const char *rows;

  g_test_message ("%s", r->out);
  assert_has (r->out, "# Functions by self page faults (all; shares of all 2100 page faults, in 150 samples)");
  /* fault_in first, with its faults; compute after it with its 100 */
  rows = strstr (r->out, "  Self%");
  g_assert_nonnull (rows);
  first = line_with (strchr (rows, '\n') + 1, "%");
  assert_has (first, " 95.24%      2000  95.24%      2000  fault_in");
  compute = line_with (rows, "compute");
  assert_has (compute, "  4.76%       100   4.76%       100  compute");

  assert_has (tree->out, "of all 2100 page faults");
  assert_has (line_with (tree->out, "fault_in"), " 95.24%  95.24");
  assert_has (callers->out, "(total 2000 page faults, 95.24% of all page faults); share of its total page faults");
  assert_has (off->out, "# Functions by self ns off CPU (all; shares of all 3000000000 ns off CPU, in 30 samples)");
  /* a clock counts samples, as before */
  assert_has (clock->out, "# Functions by self samples (all of 600)");
}

/* A tree's heading says what its time is of: wall-clock time (600 ms of
 * cpu-clock and 3 s off the CPU) is not CPU time */
static void
test_report_tree_time (void)
{
  g_autoptr(ItResult) wall = run_ok ((const char *[]) { "report", path, "--event", "wall", "--tree", NULL });
  g_autoptr(ItResult) off = run_ok ((const char *[]) { "report", path, "--event", "off-cpu", "--tree", NULL });

  g_test_message ("%s", wall->out);
  assert_has (wall->out, "# Call tree, top-down: total% self% of all 3.600 s of wall-clock time (paths under");
  assert_has (off->out, "# Call tree, top-down: total% self% of all 3.000 s off CPU (paths under");
}

static void
test_report_json (void)
{
  g_autoptr(ItResult) r = run_ok ((const char *[]) { "report", path, "--event", "page-faults",
                                                     "--format", "json", NULL });
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonArray *functions;
  gboolean seen = FALSE;

  g_assert_true (json_parser_load_from_data (parser, r->out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "unit"), ==, "page faults");
  g_assert_cmpint (json_object_get_int_member (root, "samples"), ==, 150);
  functions = json_object_get_array_member (root, "functions");
  for (guint i = 0; i < json_array_get_length (functions); i++)
    {
      JsonObject *f = json_array_get_object_element (functions, i);

      if (g_strcmp0 (json_object_get_string_member (f, "name"), "fault_in") != 0)
        continue;
      /* the contract: self and total in samples, the weights beside */
      g_assert_cmpint (json_object_get_int_member (f, "self"), ==, 50);
      g_assert_cmpint (json_object_get_int_member (f, "self_weight"), ==, 2000);
      g_assert_cmpint (json_object_get_int_member (f, "total_weight"), ==, 2000);
      seen = TRUE;
    }
  g_assert_true (seen);
}

static void
test_flamegraph (void)
{
  g_autoptr(ItResult) r = run_ok ((const char *[]) { "flamegraph", path, "--event", "page-faults", "-o", "-", NULL });
  g_autoptr(ItResult) off = run_ok ((const char *[]) { "flamegraph", path, "--event", "off-cpu", "-o", "-", NULL });
  g_autoptr(ItResult) clock = run_ok ((const char *[]) { "flamegraph", path, "-o", "-", NULL });

  assert_has (r->out, "<title>fault_in (2000 page faults, 95.24% of all page faults)</title>");
  assert_has (r->out, "<title>compute (100 page faults, 4.76% of all page faults)</title>");
  assert_has (r->out, "all 2100 page faults (page-faults)");
  assert_has (off->out, "<title>wait_io (3.000 s off CPU, 100.00% of all time off the CPU)</title>");
  assert_has (clock->out, "<title>compute (600 samples, 100.00%)</title>");
  assert_has (clock->out, "600 samples of cpu-clock");
}

static void
test_export (void)
{
  g_autoptr(ItResult) folded = run_ok ((const char *[]) { "export", path, "--event", "page-faults",
                                                          "--format", "folded", "-o", "-", NULL });
  g_autoptr(ItResult) clock = run_ok ((const char *[]) { "export", path, "--format", "folded", "-o", "-", NULL });
  g_autoptr(ItResult) speedscope = run_ok ((const char *[]) { "export", path, "--event", "page-faults",
                                                              "--format", "speedscope", "-o", "-", NULL });
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *profile;
  JsonArray *weights;
  gint64 sum = 0;

  g_assert_cmpstr (folded->out, ==, "main;compute 100\nmain;fault_in 2000\n");
  g_assert_cmpstr (clock->out, ==, "main;compute 600\n");

  g_assert_true (json_parser_load_from_data (parser, speedscope->out, -1, &error));
  g_assert_no_error (error);
  profile = json_array_get_object_element (json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                                                         "profiles"), 0);
  weights = json_object_get_array_member (profile, "weights");
  for (guint i = 0; i < json_array_get_length (weights); i++)
    sum += json_array_get_int_element (weights, i);
  g_assert_cmpint (sum, ==, 2100);
}

/* The weights of every sample of a Firefox Profiler file of @event, and
 * those of the samples whose leaf is @leaf; checks that the file is the
 * processed format, with weights of @weight_type. */
static void
firefox_weights (const char *event,
                 const char *weight_type,
                 const char *leaf,
                 gdouble    *all,
                 gdouble    *of_leaf)
{
  g_autoptr(ItResult) r = run_ok ((const char *[]) { "export", path, "--event", event,
                                                     "--format", "firefox", "-o", "-", NULL });
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonArray *threads;

  g_assert_true (json_parser_load_from_data (parser, r->out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_object_has_member (json_object_get_object_member (root, "meta"), "preprocessedProfileVersion"));
  threads = json_object_get_array_member (root, "threads");
  *all = *of_leaf = 0;
  for (guint t = 0; t < json_array_get_length (threads); t++)
    {
      JsonObject *thread = json_array_get_object_element (threads, t);
      JsonObject *samples = json_object_get_object_member (thread, "samples");
      JsonArray *stack = json_object_get_array_member (samples, "stack");
      JsonArray *weight = json_object_get_array_member (samples, "weight");
      JsonObject *stacks = json_object_get_object_member (thread, "stackTable");
      JsonObject *frames = json_object_get_object_member (thread, "frameTable");
      JsonObject *funcs = json_object_get_object_member (thread, "funcTable");
      JsonArray *strings = json_object_get_array_member (thread, "stringArray");
      guint n = json_object_get_int_member (samples, "length");

      g_assert_cmpstr (json_object_get_string_member (samples, "weightType"), ==, weight_type);
      g_assert_cmpuint (json_array_get_length (stack), ==, n);
      g_assert_cmpuint (json_array_get_length (weight), ==, n);
      for (guint i = 0; i < n; i++)
        {
          gdouble w = json_node_get_double (json_array_get_element (weight, i));
          gint64 s = json_array_get_int_element (stack, i);
          gint64 frame = json_array_get_int_element (json_object_get_array_member (stacks, "frame"), s);
          gint64 func = json_array_get_int_element (json_object_get_array_member (frames, "func"), frame);
          gint64 name = json_array_get_int_element (json_object_get_array_member (funcs, "name"), func);

          *all += w;
          if (g_strcmp0 (json_array_get_string_element (strings, name), leaf) == 0)
            *of_leaf += w;
        }
    }
}

/* The Firefox Profiler counts what the report counts: the weights, not
 * one per sample (the Gecko format has no weights: its import weighs
 * every sample 1, so 50 samples of 40 faults read as 50) */
/* The report's weights of @event in @capture (its first event when
 * NULL): all of them, and @leaf's total */
static void
report_weights_of (const char *capture,
                   const char *event,
                   const char *leaf,
                   gdouble    *all,
                   gdouble    *of_leaf)
{
  g_autoptr(ItResult) r = run_ok ((const char *[]) { "report", capture, "--format", "json",
                                                     event ? "--event" : NULL, event, NULL });
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *functions;

  g_assert_true (json_parser_load_from_data (parser, r->out, -1, &error));
  g_assert_no_error (error);
  functions = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "functions");
  *all = *of_leaf = 0;
  for (guint i = 0; i < json_array_get_length (functions); i++)
    {
      JsonObject *f = json_array_get_object_element (functions, i);

      *all += json_object_get_int_member (f, "self_weight");
      if (g_strcmp0 (json_object_get_string_member (f, "name"), leaf) == 0)
        *of_leaf = json_object_get_int_member (f, "total_weight");
    }
}

static void
report_weights (const char *event,
                const char *leaf,
                gdouble    *all,
                gdouble    *of_leaf)
{
  report_weights_of (path, event, leaf, all, of_leaf);
}

static void
test_export_firefox (void)
{
  gdouble all, leaf, report_all, report_leaf;

  firefox_weights ("page-faults", "samples", "fault_in", &all, &leaf);
  report_weights ("page-faults", "fault_in", &report_all, &report_leaf);
  g_assert_cmpfloat (all, ==, 2100);
  g_assert_cmpfloat (all, ==, report_all);
  g_assert_cmpfloat (leaf, ==, 2000);
  g_assert_cmpfloat (leaf, ==, report_leaf);
  /* time, in ms: 30 intervals of 100 ms; the report's in ns */
  firefox_weights ("off-cpu", "tracing-ms", "wait_io", &all, &leaf);
  report_weights ("off-cpu", "wait_io", &report_all, &report_leaf);
  g_assert_cmpfloat (fabs (all - 3000), <, 1e-6);
  g_assert_cmpfloat (fabs (all - report_all / 1e6), <, 1e-6);
  g_assert_cmpfloat (fabs (leaf - report_leaf / 1e6), <, 1e-6);
}

/* pprof out and back in keeps what the event counts: 2,100 page faults
 * (not 150 samples of an event named "samples"), 3 s off the CPU (not
 * 30 samples of a clock named "cpu") */
static void
test_export_pprof (void)
{
  static const struct {
    const char *event;
    const char *leaf;
    gdouble     all;
  } cases[] = {
    { "page-faults", "fault_in", 2100 },
    { "off-cpu", "wait_io", 3e9 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *pb = g_strdup_printf ("%s/%s.pb.gz", dir, cases[i].event);
      g_autofree char *back = g_strdup_printf ("%s/%s-pprof.hotpath", dir, cases[i].event);
      g_autoptr(ItResult) out = run_ok ((const char *[]) { "export", path, "--event", cases[i].event,
                                                           "--format", "pprof", "-o", pb, NULL });
      g_autoptr(ItResult) in = run_ok ((const char *[]) { "import", pb, "-o", back, "--force", NULL });
      g_autoptr(ItResult) report = run_ok ((const char *[]) { "report", back, "--format", "json", NULL });
      g_autofree char *event = g_strdup_printf ("\"event\":\"%s\"", cases[i].event);
      gdouble all, leaf, report_all, report_leaf;

      assert_has (report->out, event);
      report_weights (cases[i].event, cases[i].leaf, &report_all, &report_leaf);
      report_weights_of (back, NULL, cases[i].leaf, &all, &leaf);
      g_assert_cmpfloat (report_all, ==, cases[i].all);
      g_assert_cmpfloat (all, ==, report_all);
      g_assert_cmpfloat (leaf, ==, report_leaf);
    }
}

/* The recorder counts truncated stacks and lost samples over every event
 * of a capture, so their share is of all 780 samples, whichever event is
 * shown: 65 stacks are 8.3 %, not 10.8 % of cpu-clock's 600 (which said
 * "many stacks are truncated"), and not 216.7 % of off-cpu's 30. */
static void
test_report_truncated (void)
{
  g_autofree char *copy = g_build_filename (dir, "truncated.hotpath", NULL);
  const char *events[] = { "cpu-clock", "off-cpu", "page-faults" };
  sqlite3 *db = NULL;

  hp_test_make_events_capture (copy, &(HpTestEventsCapture) { .whole_system = FALSE });
  g_assert_cmpint (sqlite3_open (copy, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "INSERT OR REPLACE INTO metadata (key, value) VALUES ('truncated_stacks', '65'), "
                                     "('lost_samples', '9')", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    {
      g_autoptr(ItResult) r = run_ok ((const char *[]) { "report", copy, "--event", events[i], NULL });

      g_test_message ("%s", r->out);
      assert_has (r->out, "# Truncated stacks: 65 (8.3%)\n");
      g_assert_null (strstr (r->out, "many stacks are truncated"));
      /* 9 of 789 taken is 1.1 % */
      assert_has (r->out, "# Note: 1.1% of the samples were lost;");
    }
}

/* diff says how off-CPU costs add up: by the time away, not by a period */
static void
test_diff (void)
{
  g_autoptr(ItResult) off = run_ok ((const char *[]) { "diff", path, path, "--event", "off-cpu", NULL });
  g_autoptr(ItResult) faults = run_ok ((const char *[]) { "diff", path, path, "--event", "page-faults", NULL });

  assert_has (off->out, "# Event: off-cpu (unit: ns); costs are mean ns per run (the time each thread was off the CPU)");
  /* its times as every time the CLI writes: one unit, three decimals */
  assert_has (off->out, "30 samples, 3.000 s per run;");
  assert_has (off->out, "(30.000 ms per run)");
  assert_has (off->out, "   3.000 s     3.000 s ");
  assert_has (faults->out, "# Event: page-faults (unit: page faults); costs are mean page faults per run (samples × period)");
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  write_capture ();

  g_test_add_func ("/cli-events/report-text", test_report_text);
  g_test_add_func ("/cli-events/report-tree-time", test_report_tree_time);
  g_test_add_func ("/cli-events/report-json", test_report_json);
  g_test_add_func ("/cli-events/flamegraph", test_flamegraph);
  g_test_add_func ("/cli-events/export", test_export);
  g_test_add_func ("/cli-events/export-firefox", test_export_firefox);
  g_test_add_func ("/cli-events/export-pprof", test_export_pprof);
  g_test_add_func ("/cli-events/diff", test_diff);
  g_test_add_func ("/cli-events/report-truncated", test_report_truncated);

  status = g_test_run ();
  it_tmpdir_free (dir);
  g_free (path);
  return status;
}
