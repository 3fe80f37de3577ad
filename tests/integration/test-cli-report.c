/* test-cli-report.c - what hotpath-cli report says, and that it is safe to print
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A capture sampled by period (perf record -c N, imported) has no
 * frequency: the header must give the period and its unit instead of a
 * number it does not have.
 *
 * A capture is untrusted input (issue 10, item 11): the names, modules,
 * files, the command line, the event and the summaries it holds may carry
 * invalid UTF-8, terminal escapes, newlines, quotes and backslashes. The
 * text report must show them escaped, one line each, with no control byte
 * on stdout; `--format json` must be valid UTF-8 JSON that json-glib parses
 * back to the same strings (invalid bytes as U+FFFD), in every mode
 * (functions, --tree, --callers, --callees). And the header says when the
 * spawned program was killed by a signal.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include <glib/gstdio.h>

#include "integration-common.h"
#include "test-common.h"
#include "analysis/hp-text.h"
#include "store/hp-capture-keys.h"
#include "store/hp-capture-writer.h"

static void
write_capture (const char *path,
               const char *key,
               gint64      value)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 module, function, frame, stack;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  hp_capture_writer_set_metadata_int (w, key, value);
  module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  function = hp_capture_writer_intern_function (w, "main", module, NULL, 0);
  frame = hp_capture_writer_intern_frame (w, function, NULL, 0, FALSE, 0x10);
  stack = hp_capture_writer_intern_stack (w, 0, frame);
  hp_capture_writer_add_sample (w, 1000, 1, 0, stack, (guint64) value);
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
}

/* A capture cut short has no duration_ns (the end writes it): its
 * length is what its samples span, and the header says so rather than
 * "unknown". */
static void
test_cut_short_duration (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "cut.hotpath", NULL);
  g_autoptr(ItResult) report = NULL;

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
    gint64 module, function, frame, stack;

    g_assert_no_error (error);
    hp_capture_writer_set_metadata (w, "event", "cpu-clock");
    hp_capture_writer_set_metadata (w, "event_unit", "ns");
    module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
    function = hp_capture_writer_intern_function (w, "main", module, NULL, 0);
    frame = hp_capture_writer_intern_frame (w, function, NULL, 0, FALSE, 0x10);
    stack = hp_capture_writer_intern_stack (w, 0, frame);
    /* two threads: the span is over all of them */
    hp_capture_writer_add_sample (w, 5000000000, 1, 0, stack, 1000000);
    hp_capture_writer_add_sample (w, 7250000000, 1, 0, stack, 1000000);
    hp_capture_writer_add_sample (w, 6000000000, 2, 0, stack, 1000000);
    hp_capture_writer_add_sample (w, 4500000000, 2, 0, stack, 1000000);
    g_assert_true (hp_capture_writer_flush (w, &error));
    /* freed unfinished: what a killed recorder leaves */
  }
  {
    const char *args[] = { "report", path, NULL };
    report = it_run_cli (args);
  }
  g_test_message ("%s", report->out);
  g_assert_cmpint (report->status, ==, 0);
  g_assert_null (strstr (report->out, "# Duration:  unknown"));
  g_assert_nonnull (strstr (report->out, "# Duration:  2.750 s, from its first sample to its last "
                                         "(the recording was cut short)\n"));
  g_assert_nonnull (strstr (report->out, "# Note: the recording was cut short"));
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* A finished capture whose totals were deleted (a script, a tool that
 * set complete itself) is read from its samples: the header says so,
 * and the counts are the samples'. A finished one with its totals, and
 * one cut short, do not get that line. */
static void
test_counts_summed (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "summed.hotpath", NULL);
  const char *args[] = { "report", path, NULL };
  const char *note = "# Note: the capture is marked finished, but its totals (table stack_counts) are empty; "
                     "the counts here are its samples, summed.\n";
  g_autoptr(ItResult) before = NULL;
  g_autoptr(ItResult) after = NULL;

  write_capture (path, "frequency", 999);
  before = it_run_cli (args);
  g_assert_cmpint (before->status, ==, 0);
  g_assert_null (strstr (before->out, "stack_counts"));
  hp_test_sql (path, "DELETE FROM stack_counts;");
  after = it_run_cli (args);
  g_test_message ("%s", after->out);
  g_assert_cmpint (after->status, ==, 0);
  g_assert_nonnull (strstr (after->out, note));
  g_assert_null (strstr (after->out, "cut short"));
  /* the one sample is still counted, not read as none */
  g_assert_nonnull (strstr (after->out, "# Samples:   1 "));
  g_assert_nonnull (strstr (after->out, "100.00%         1 100.00%         1  main"));
  g_clear_pointer (&dir, it_tmpdir_free);
}

static void
test_header_rate (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *by_period = g_build_filename (dir, "period.hotpath", NULL);
  g_autofree char *by_freq = g_build_filename (dir, "freq.hotpath", NULL);
  g_autoptr(ItResult) period = NULL, freq = NULL;

  write_capture (by_period, "period", 100000);
  write_capture (by_freq, "frequency", 999);
  {
    const char *args[] = { "report", by_period, NULL };
    period = it_run_cli (args);
  }
  {
    const char *args[] = { "report", by_freq, NULL };
    freq = it_run_cli (args);
  }
  g_test_message ("%s%s", period->out, freq->out);
  g_assert_cmpint (period->status, ==, 0);
  g_assert_cmpint (freq->status, ==, 0);
  g_assert_nonnull (strstr (period->out, "sampled every 100000 ns,"));
  g_assert_null (strstr (period->out, "? Hz"));
  g_assert_nonnull (strstr (freq->out, "sampled at 999 Hz,"));
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* A capture's metadata is untrusted: a frequency of -5, a duration of
 * -1 ns, counts past 2^63, a start time that is no time are not figures
 * to print ("-5 Hz", "18446744072.710 s", "230584300921369395200.0 %");
 * the header says what it does not know instead. */
static void
test_header_absurd_metadata (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "absurd.hotpath", NULL);
  g_autoptr(ItResult) report = NULL;
  const char *absurd[] = { "-18446744073709551615", "99999999999999999999999", "12abc", "" };

  for (guint i = 0; i < G_N_ELEMENTS (absurd); i++)
    {
      g_autofree char *sql = g_strdup_printf (
        "UPDATE metadata SET value = '%1$s' WHERE key = 'frequency';"
        "INSERT OR REPLACE INTO metadata VALUES ('duration_ns', '%1$s'), ('lost_samples', '%1$s'),"
        " ('truncated_stacks', '%1$s'), ('throttle_events', '%1$s'), ('exit_status', '%1$s'),"
        " ('start_time', 'yesterday%1$s');"
        "INSERT OR REPLACE INTO metadata VALUES ('command', 'app' || printf ('%%.100000c', 'x'));",
        i == 0 ? "-5" : absurd[i]);

      g_clear_pointer (&report, it_result_free);
      write_capture (path, "frequency", 999);
      hp_test_sql (path, sql);
      {
        const char *args[] = { "report", path, NULL };
        report = it_run_cli (args);
      }
      g_test_message ("%.2000s", report->out);
      g_assert_cmpint (report->status, ==, 0);
      g_assert_nonnull (strstr (report->out, "sampled at an unknown rate,"));
      g_assert_null (strstr (report->out, " Hz"));
      g_assert_nonnull (strstr (report->out, "# Duration:  unknown\n"));
      g_assert_nonnull (strstr (report->out, "(lost: 0, throttled: 0)"));
      g_assert_nonnull (strstr (report->out, "# Truncated stacks: 0 (0.0%)"));
      g_assert_null (strstr (report->out, "Started"));
      g_assert_null (strstr (report->out, "exited with status"));
      /* the command, cut to what a header line can hold */
      g_assert_nonnull (strstr (report->out, "# Command:   appxxx"));
      g_assert_cmpuint (strlen (report->out), <, 20000);
      g_remove (path);
    }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* The note on stacks cut at run-time compiled code agrees in number
 * with its count: "1 of the truncated stacks was cut", not "were". */
static void
test_jit_cut_plural (void)
{
  g_autofree char *dir = it_tmpdir_new ();

  for (guint n = 1; n <= 2; n++)
    {
      g_autofree char *path = g_strdup_printf ("%s/jit-%u.hotpath", dir, n);
      g_autofree char *expected = g_strdup_printf ("# Note: %u of the truncated stacks %s cut at code compiled at run time.",
                                                   n, n == 1 ? "was" : "were");
      g_autoptr(ItResult) report = NULL;

      write_capture (path, HP_META_TRUNCATED_AT_JIT, n);
      {
        const char *args[] = { "report", path, NULL };
        report = it_run_cli (args);
      }
      g_test_message ("%s%s", report->out, report->err);
      g_assert_cmpint (report->status, ==, 0);
      g_assert_nonnull (strstr (report->out, expected));
    }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* ---- hostile text ---- */

/* Leaf functions under main, as the capture holds them; n_samples grows
 * with the index so that every one is above the tree's threshold and the
 * order is known. */
static const struct {
  const char *name;     /* as written into the capture */
  const char *valid;    /* what JSON must give back (NULL: the same) */
  const char *escaped;  /* how the text report must show it */
} hostile[] = {
  { "evil\x1b[31mred\x1b[0m", NULL, "evil\\e[31mred\\e[0m" },
  { "line1\nline2\r", NULL, "line1\\nline2\\r" },
  { "tab\there\x7f" "del\x07", NULL, "tab\\there\\x7f" "del\\x07" },
  { "c1\xc2\x9b" "2Jcsi", NULL, "c1\\u009b2Jcsi" },
  { "bad\xff\xfeutf8\xc3", "bad\xef\xbf\xbd\xef\xbf\xbdutf8\xef\xbf\xbd", "bad\xef\xbf\xbd\xef\xbf\xbdutf8\xef\xbf\xbd" },
  { "raw\x9b" "31mC1", "raw\xef\xbf\xbd" "31mC1", "raw\xef\xbf\xbd" "31mC1" },
  { "quote\"back\\slash\"}]", NULL, "quote\"back\\slash\"}]" },
  { "bidi\xe2\x80\xae" "desrever", NULL, "bidi\\u202edesrever" },
  { "sep\xe2\x80\xa8" "line", NULL, "sep\\u2028line" },
  { "std::map<int, std::function<void ()>>::find(int const&)", NULL,
    "std::map<int, std::function<void ()>>::find(int const&)" },
};

#define HOSTILE_MODULE     "/usr/lib/evil\x1b]0;pwned\x07.so"
#define HOSTILE_MODULE_BASE "evil\x1b]0;pwned\x07.so"
#define HOSTILE_FILE       "/src/a\nb\x1b[2J.c"
#define HOSTILE_COMMAND    "python3 -c 'import os\nprint(1)\n' \x1b]0;title\x07"
#define HOSTILE_EVENT      "cpu-clock\x1b[2J"
#define HOSTILE_SUMMARY    "First line\x1b[8m hidden\rOverwritten\nSecond \xff line"

static char *
write_hostile_capture (const char *dir)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, "hostile\nname.hotpath", NULL);
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 app, evil, main_fn, main_frame, main_stack;
  guint64 time = 1000;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "command", HOSTILE_COMMAND);
  hp_capture_writer_set_metadata (w, "event", HOSTILE_EVENT);
  hp_capture_writer_set_metadata (w, "event_unit", "ns\x1b[1m");
  hp_capture_writer_set_metadata (w, "start_time", "2024-05-01T12:00:00Z\r\x1b[K");
  hp_capture_writer_set_metadata (w, "call_graph", "fp\n# Note: forged");
  hp_capture_writer_set_metadata_int (w, "frequency", 999);
  /* As the recorder writes it: strsignal() text. */
  hp_capture_writer_set_metadata (w, "exit_signal", "Segmentation fault");
  hp_capture_writer_set_process (w, 42, "proc\x1b[5m");
  hp_capture_writer_set_thread (w, 42, 42, "thread\x1b]0;x\x07\n");

  app = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  evil = hp_capture_writer_intern_module (w, HOSTILE_MODULE, NULL, FALSE);
  main_fn = hp_capture_writer_intern_function (w, "main", app, "/src/main.c", 3);
  main_frame = hp_capture_writer_intern_frame (w, main_fn, "/src/main.c", 4, FALSE, 0x10);
  main_stack = hp_capture_writer_intern_stack (w, 0, main_frame);

  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      gint64 fn = hp_capture_writer_intern_function (w, hostile[i].name, evil, HOSTILE_FILE, 10 + i);
      gint64 frame = hp_capture_writer_intern_frame (w, fn, HOSTILE_FILE, 20 + i, FALSE, 0x100 + i);
      gint64 stack = hp_capture_writer_intern_stack (w, main_stack, frame);

      for (guint n = 0; n < 10 * (i + 1); n++)
        hp_capture_writer_add_sample (w, time++, 42, 0, stack, 1000000);
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);

  /* A summary on main > the ESC name, written as the window would. */
  {
    g_autoptr(HpCapture) capture = hp_capture_open (path, TRUE, &error);
    g_autofree char *key = NULL;

    g_assert_no_error (error);
    key = g_strdup_printf ("app\tmain\n%s\t%s\n", HOSTILE_MODULE_BASE, hostile[0].name);
    g_assert_true (hp_capture_set_summary (capture, key, "main → evil", HOSTILE_SUMMARY, &error));
    g_assert_no_error (error);
  }
  return path;
}

/* Valid UTF-8 and no control character but the newlines that end lines:
 * nothing a terminal would act on. */
static void
assert_printable (const char *what,
                  const char *out)
{
  const char *end;

  if (!g_utf8_validate (out, -1, &end))
    {
      g_autofree char *excerpt = g_strndup (end, 40);
      g_autofree char *shown = hp_text_escape (excerpt);

      g_error ("%s: invalid UTF-8 at byte %" G_GSSIZE_FORMAT ": %s", what, (gssize) (end - out), shown);
    }
  for (const char *p = out; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\n')
        continue;
      if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029)
        {
          g_autofree char *shown = hp_text_escape (p);

          g_error ("%s: raw control character U+%04X at byte %" G_GSSIZE_FORMAT ": %.60s",
                   what, c, (gssize) (p - out), shown);
        }
    }
}

/* The line of @out that contains @needle, asserting there is one. */
static char *
line_with (const char *out,
           const char *needle)
{
  const char *at = strstr (out, needle);
  const char *start, *end;

  if (at == NULL)
    g_error ("no line with \"%s\" in:\n%s", needle, out);
  start = at;
  while (start > out && start[-1] != '\n')
    start--;
  end = strchr (at, '\n');
  return g_strndup (start, end ? (gsize) (end - start) : strlen (start));
}

static ItResult *
run_report (const char *capture,
            const char *a,
            const char *b,
            const char *c,
            const char *d)
{
  const char *args[] = { "report", capture, a, b, c, d, NULL };
  ItResult *result = it_run_cli (args);
  g_autofree char *line = g_strjoinv (" ", (char **) args + 2);
  g_autofree char *shown_line = hp_text_escape (line);
  g_autofree char *shown_out = hp_text_make_valid (result->out);
  g_autofree char *shown_err = hp_text_make_valid (result->err);

  /* TAP wants valid UTF-8 too. */
  g_test_message ("report %s:\n%s%s", shown_line, shown_out, shown_err);
  g_assert_cmpint (result->status, ==, 0);
  g_assert_cmpstr (result->err, ==, "");
  return result;
}

static JsonObject *
parse_json (JsonParser *parser,
            const char *what,
            const char *out)
{
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  assert_printable (what, out);
  if (!json_parser_load_from_data (parser, out, -1, &error))
    g_error ("%s: not JSON: %s", what, error->message);
  root = json_parser_get_root (parser);
  g_assert_nonnull (root);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  return json_node_get_object (root);
}

static const char *
expected_valid (guint i)
{
  return hostile[i].valid ? hostile[i].valid : hostile[i].name;
}

static void
assert_int_member (JsonObject *object,
                   const char *key)
{
  JsonNode *node = json_object_get_member (object, key);

  g_assert_nonnull (node);
  g_assert_cmpint (json_node_get_value_type (node), ==, G_TYPE_INT64);
}

/* A row of no module ("[truncated]", the root of stacks that do not
 * reach a thread's start) is printed as its name alone: no empty "[]"
 * after it in the tree nor where its callees are listed, and no
 * trailing blank. */
static void
test_no_module_row (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "truncated.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(ItResult) tree = NULL;
  g_autoptr(ItResult) callees = NULL;
  g_autoptr(ItResult) callers = NULL;
  g_autofree char *root_line = NULL;
  g_autofree char *main_line = NULL;
  g_autofree char *caller_line = NULL;

  {
    g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
    gint64 module, truncated, function, root, frame, stack;

    g_assert_no_error (error);
    hp_capture_writer_set_metadata (w, "event", "cpu-clock");
    hp_capture_writer_set_metadata (w, "event_unit", "ns");
    module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
    truncated = hp_capture_writer_intern_function (w, "[truncated]", 0, NULL, 0);
    function = hp_capture_writer_intern_function (w, "work", module, NULL, 0);
    root = hp_capture_writer_intern_frame (w, truncated, NULL, 0, FALSE, 0);
    frame = hp_capture_writer_intern_frame (w, function, NULL, 0, FALSE, 0x10);
    stack = hp_capture_writer_intern_stack (w, hp_capture_writer_intern_stack (w, 0, root), frame);
    hp_capture_writer_add_sample (w, 1000, 1, 0, stack, 1);
    g_assert_true (hp_capture_writer_finish (w, &error));
    g_assert_no_error (error);
  }

  tree = run_report (path, "--tree", NULL, NULL, NULL);
  root_line = line_with (tree->out, "[truncated]");
  main_line = line_with (tree->out, "work");
  g_assert_true (g_str_has_suffix (root_line, "  [truncated]"));
  g_assert_true (g_str_has_suffix (main_line, "  work  [app]"));
  callees = run_report (path, "--callees", "[truncated]", NULL, NULL);
  g_assert_null (strstr (callees->out, "[]"));
  /* the heading: one blank between the name and what follows */
  g_assert_nonnull (strstr (callees->out, "# Callees of [truncated] (total "));
  callers = run_report (path, "--callers", "work", NULL, NULL);
  caller_line = line_with (callers->out, "  [truncated]");
  g_assert_true (g_str_has_suffix (caller_line, "  [truncated]"));
  g_clear_pointer (&dir, it_tmpdir_free);
}

static void
test_hostile_text (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = write_hostile_capture (dir);
  g_autoptr(ItResult) text = NULL, tree = NULL, callers = NULL, callees = NULL;

  text = run_report (capture, NULL, NULL, NULL, NULL);
  tree = run_report (capture, "--tree", NULL, NULL, NULL);
  callers = run_report (capture, "--callers", hostile[0].name, NULL, NULL);
  callees = run_report (capture, "--callees", "main", "--sort", "total");

  assert_printable ("report", text->out);
  assert_printable ("report --tree", tree->out);
  assert_printable ("report --callers", callers->out);
  assert_printable ("report --callees", callees->out);

  /* The header: each item on its own line, escaped. */
  {
    g_autofree char *command = line_with (text->out, "# Command:");
    g_autofree char *event = line_with (text->out, "# Event:");

    g_assert_cmpstr (command, ==,
                     "# Command:   python3 -c 'import os\\nprint(1)\\n' \\e]0;title\\x07");
    g_assert_nonnull (strstr (event, "cpu-clock\\e[2J (unit: ns\\e[1m)"));
    g_assert_nonnull (strstr (event, "call graph: fp\\n# Note: forged"));
    /* a start time that is no ISO 8601 time is not shown at all */
    g_assert_null (strstr (text->out, "# Started:"));
    g_assert_nonnull (strstr (text->out, "# Capture:   "));
    g_assert_nonnull (strstr (text->out, "hostile\\nname.hotpath\n"));
  }
  /* Killed by a signal: said, with its number and name. */
  g_assert_nonnull (strstr (text->out,
                            "# Note: the program was killed by signal 11 (SIGSEGV); the profile ends there.\n"));

  /* Every function on one line of its own, shown escaped, in every mode. */
  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      g_autofree char *in_list = line_with (text->out, hostile[i].escaped);
      g_autofree char *in_tree = line_with (tree->out, hostile[i].escaped);
      g_autofree char *in_callees = line_with (callees->out, hostile[i].escaped);

      g_assert_nonnull (strstr (in_list, "evil\\e]0;pwned\\x07.so"));
      g_assert_nonnull (strstr (in_tree, "[evil\\e]0;pwned\\x07.so]"));
      g_assert_nonnull (strstr (in_callees, "[evil\\e]0;pwned\\x07.so]"));
    }
  {
    g_autofree char *line = line_with (callers->out, "# Callers of ");

    g_assert_nonnull (strstr (line, "# Callers of evil\\e[31mred\\e[0m [evil\\e]0;pwned\\x07.so]"));
    g_assert_nonnull (strstr (callers->out, "  main [app]\n"));
  }
  /* The summary keeps its lines, each escaped. */
  g_assert_nonnull (strstr (tree->out, "│ First line\\e[8m hidden\\rOverwritten\n"));
  g_assert_nonnull (strstr (tree->out, "│ Second \xef\xbf\xbd line\n"));

  g_clear_pointer (&dir, it_tmpdir_free);
}

/* JSON: valid, parsed back to the same strings, the contract's types. */
static void
test_hostile_json (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = write_hostile_capture (dir);
  guint n_samples = 0;

  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    n_samples += 10 * (i + 1);

  {
    g_autoptr(ItResult) json = run_report (capture, "--format", "json", NULL, NULL);
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *root = parse_json (parser, "report --format json", json->out);
    JsonArray *functions = json_object_get_array_member (root, "functions");

    g_assert_cmpint (json_object_get_int_member (root, "samples"), ==, n_samples);
    g_assert_cmpint (json_object_get_int_member (root, "lost"), ==, 0);
    g_assert_cmpstr (json_object_get_string_member (root, "event"), ==, HOSTILE_EVENT);
    assert_int_member (root, "truncated");
    g_assert_cmpuint (json_array_get_length (functions), ==, G_N_ELEMENTS (hostile) + 1);
    for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
      {
        /* By self samples: the last hostile name first. */
        guint h = G_N_ELEMENTS (hostile) - 1 - i;
        JsonObject *f = json_array_get_object_element (functions, i);

        g_assert_cmpstr (json_object_get_string_member (f, "name"), ==, expected_valid (h));
        g_assert_cmpstr (json_object_get_string_member (f, "module"), ==, HOSTILE_MODULE_BASE);
        g_assert_cmpstr (json_object_get_string_member (f, "file"), ==, HOSTILE_FILE);
        g_assert_cmpint (json_object_get_int_member (f, "line"), ==, 10 + h);
        g_assert_cmpint (json_object_get_int_member (f, "self"), ==, 10 * (h + 1));
        g_assert_cmpint (json_object_get_int_member (f, "total"), ==, 10 * (h + 1));
        assert_int_member (f, "self");
      }
    {
      JsonObject *main_fn = json_array_get_object_element (functions, G_N_ELEMENTS (hostile));

      g_assert_cmpstr (json_object_get_string_member (main_fn, "name"), ==, "main");
      g_assert_cmpint (json_object_get_int_member (main_fn, "total"), ==, n_samples);
    }
  }
  {
    g_autoptr(ItResult) json = run_report (capture, "--format", "json", "--tree", NULL);
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *root = parse_json (parser, "report --format json --tree", json->out);
    JsonObject *top = json_object_get_object_member (root, "tree");
    JsonArray *children = json_object_get_array_member (top, "children");
    JsonObject *main_node;
    gboolean found_summary = FALSE;

    g_assert_cmpstr (json_object_get_string_member (top, "name"), ==, "[root]");
    g_assert_true (json_object_get_null_member (top, "module"));
    g_assert_cmpint (json_object_get_int_member (top, "total"), ==, n_samples);
    g_assert_cmpuint (json_array_get_length (children), ==, 1);
    main_node = json_array_get_object_element (children, 0);
    g_assert_cmpstr (json_object_get_string_member (main_node, "name"), ==, "main");
    children = json_object_get_array_member (main_node, "children");
    g_assert_cmpuint (json_array_get_length (children), ==, G_N_ELEMENTS (hostile));
    for (guint i = 0; i < json_array_get_length (children); i++)
      {
        JsonObject *node = json_array_get_object_element (children, i);
        const char *name = json_object_get_string_member (node, "name");
        gboolean known = FALSE;

        for (guint h = 0; h < G_N_ELEMENTS (hostile); h++)
          known |= g_strcmp0 (name, expected_valid (h)) == 0;
        g_assert_true (known);
        g_assert_cmpstr (json_object_get_string_member (node, "module"), ==, HOSTILE_MODULE_BASE);
        g_assert_cmpuint (json_array_get_length (json_object_get_array_member (node, "children")), ==, 0);
        if (json_object_has_member (node, "summary"))
          {
            g_assert_cmpstr (name, ==, hostile[0].name);
            g_assert_cmpstr (json_object_get_string_member (node, "summary"), ==,
                             "First line\x1b[8m hidden\rOverwritten\nSecond \xef\xbf\xbd line");
            found_summary = TRUE;
          }
      }
    g_assert_true (found_summary);
  }
  {
    g_autoptr(ItResult) json = run_report (capture, "--format", "json", "--callers", hostile[4].name);
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *root = parse_json (parser, "report --format json --callers", json->out);
    JsonArray *list = json_object_get_array_member (root, "callers");
    JsonObject *entry;
    JsonObject *edge;

    g_assert_cmpuint (json_array_get_length (list), ==, 1);
    entry = json_array_get_object_element (list, 0);
    /* The name asked for, given back valid. */
    g_assert_cmpstr (json_object_get_string_member (entry, "name"), ==, hostile[4].valid);
    g_assert_cmpint (json_object_get_int_member (entry, "total"), ==, 50);
    edge = json_array_get_object_element (json_object_get_array_member (entry, "callers"), 0);
    g_assert_cmpstr (json_object_get_string_member (edge, "name"), ==, "main");
    g_assert_cmpint (json_object_get_int_member (edge, "samples"), ==, 50);
  }
  {
    g_autoptr(ItResult) json = run_report (capture, "--format", "json", "--callees", "main");
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *root = parse_json (parser, "report --format json --callees", json->out);
    JsonArray *list = json_object_get_array_member (root, "callees");
    JsonArray *edges = json_object_get_array_member (json_array_get_object_element (list, 0), "callees");

    g_assert_cmpuint (json_array_get_length (edges), ==, G_N_ELEMENTS (hostile));
    for (guint i = 0; i < json_array_get_length (edges); i++)
      {
        JsonObject *edge = json_array_get_object_element (edges, i);

        g_assert_cmpstr (json_object_get_string_member (edge, "module"), ==, HOSTILE_MODULE_BASE);
        assert_int_member (edge, "samples");
      }
  }

  g_clear_pointer (&dir, it_tmpdir_free);
}

/* A program that the recorder spawned and that died of SIGSEGV: the
 * report's header says so, with what the real recorder wrote. */
static void
test_killed_by_signal (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autoptr(ItResult) record = NULL, report = NULL;

  if (!it_require_perf_events ())
    return;

  dir = it_tmpdir_new ();
  capture = g_build_filename (dir, "segv.hotpath", NULL);
  {
    const char *args[] = { "record", "-o", capture, "--",
                           "/bin/sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; kill -SEGV $$",
                           NULL };
    record = it_run_cli (args);
  }
  {
    g_autofree char *out = hp_text_make_valid (record->out);
    g_autofree char *err = hp_text_make_valid (record->err);

    g_test_message ("record: %s%s", out, err);
  }
  g_assert_true (g_file_test (capture, G_FILE_TEST_EXISTS));
  report = run_report (capture, NULL, NULL, NULL, NULL);
  g_assert_nonnull (strstr (report->out, "# Note: the program was killed by signal 11 (SIGSEGV)"));
  assert_printable ("report", report->out);

  g_clear_pointer (&dir, it_tmpdir_free);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/cli/report-header-rate", test_header_rate);
  g_test_add_func ("/integration/cli/report-cut-short-duration", test_cut_short_duration);
  g_test_add_func ("/integration/cli/report-counts-summed", test_counts_summed);
  g_test_add_func ("/integration/cli/report-jit-cut-plural", test_jit_cut_plural);
  g_test_add_func ("/integration/cli/report-absurd-metadata", test_header_absurd_metadata);
  g_test_add_func ("/integration/cli/report-no-module-row", test_no_module_row);
  g_test_add_func ("/integration/cli/report-hostile-text", test_hostile_text);
  g_test_add_func ("/integration/cli/report-hostile-json", test_hostile_json);
  g_test_add_func ("/integration/cli/report-killed-by-signal", test_killed_by_signal);
  return g_test_run ();
}
