/* test-cli-suggest.c - hotpath-cli summary --suggest and --format on a recorded workload
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tests/workloads/documented.c carries a doc comment of a different kind
 * above each function of its hot path main → parse_record →
 * checksum_block (75 % of the time by construction). Suggest must find
 * them from the recorded DW_AT_decl_line, name the leaf's hot line, print
 * and never save; a summarizer script gets the path as JSON and its
 * stdout is the suggestion; its failure and its timeout are errors that
 * show its stderr. The review documents list every summary with its
 * share now, hottest first.
 */

#include "config.h"

#include <string.h>
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>

#include "integration-common.h"
#include "store/hp-capture-writer.h"

static char *tmpdir;
static char *capture;

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

/* The first test records the workload once for all the others, which
 * are skipped where this machine cannot sample. */
static void
test_record (void)
{
  if (!it_require_perf_events ())
    return;
  capture = g_build_filename (tmpdir, "documented.hotpath", NULL);
  it_record_workload ("documented", capture);
}

static gboolean
have_capture (void)
{
  if (capture == NULL)
    {
      g_test_skip ("no recording of the workload");
      return FALSE;
    }
  return TRUE;
}

static void
test_suggest_from_doc_comments (void)
{
  const char *suggest[] = { "summary", capture, "parse_record;checksum_block", "--suggest", NULL };
  const char *scan[] = { "summary", capture, "parse_record;scan_fields", "--suggest", NULL };
  const char *list[] = { "summary", capture, NULL };
  g_autoptr(ItResult) r = NULL;
  g_autoptr(ItResult) s = NULL;
  g_autoptr(ItResult) l = NULL;

  if (!have_capture ())
    return;
  g_unsetenv ("HOTPATH_SUMMARIZER");
  r = it_run_cli (suggest);
  g_test_message ("%s", r->out);
  g_assert_cmpint (r->status, ==, 0);
  /* the block comment's first paragraph, on one line; not its second */
  g_assert_nonnull (strstr (r->out, "- checksum_block: Adds up the bytes of a record into its checksum: "
                                     "the hot loop of this program, three quarters of its time."));
  g_assert_null (strstr (r->out, "second paragraph"));
  /* the // lines */
  g_assert_nonnull (strstr (r->out, "- parse_record: Parses one record: finds its fields, then checks its sum."));
  /* the leaf's hot line, as written */
  g_assert_nonnull (strstr (r->out, "Hot lines of checksum_block (documented.c):"));
  g_assert_nonnull (strstr (r->out, ": `WORK_UNITS (6);`"));
  g_assert_nonnull (strstr (r->err, "not saved"));

  /* gtk-doc: the paragraph after the name */
  s = it_run_cli (scan);
  g_assert_cmpint (s->status, ==, 0);
  g_assert_nonnull (strstr (s->out, "- scan_fields: Walks the separators of a record to find its fields."));

  /* nothing was saved */
  l = it_run_cli (list);
  g_assert_cmpint (l->status, ==, 0);
  g_assert_nonnull (strstr (l->out, "# no summaries"));
}

/* The script saves what it got and answers; the JSON is checked here. */
static void
test_suggest_summarizer (void)
{
  g_autofree char *received = g_build_filename (tmpdir, "received.json", NULL);
  g_autofree char *body = g_strdup_printf ("cat > '%s'\necho 'Checksums dominate; try a table.'\n", received);
  g_autofree char *script = write_script ("summarize.sh", body);
  const char *suggest[] = { "summary", capture, "parse_record;checksum_block", "--suggest", NULL };
  g_autoptr(ItResult) r = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root, *leaf, *caller, *line;
  JsonArray *path;
  guint n;

  if (!have_capture ())
    return;
  g_setenv ("HOTPATH_SUMMARIZER", script, TRUE);
  r = it_run_cli (suggest);
  g_unsetenv ("HOTPATH_SUMMARIZER");
  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpstr (r->out, ==, "Checksums dominate; try a table.\n");

  json_parser_load_from_file (parser, received, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "program"), ==, "documented");
  g_assert_cmpint (json_object_get_int_member (root, "samples"), ==, it_json_samples (capture));
  path = json_object_get_array_member (root, "path");
  n = json_array_get_length (path);
  g_assert_cmpuint (n, >=, 3);
  leaf = json_array_get_object_element (path, n - 1);
  caller = json_array_get_object_element (path, n - 2);
  g_assert_cmpstr (json_object_get_string_member (leaf, "name"), ==, "checksum_block");
  g_assert_cmpstr (json_object_get_string_member (leaf, "module"), ==, "documented");
  g_assert_true (g_str_has_suffix (json_object_get_string_member (leaf, "file"), "/tests/workloads/documented.c"));
  g_assert_cmpint (json_object_get_int_member (leaf, "line"), ==, 26);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (leaf, "source"), "Adds up the bytes of a record"));
  g_assert_cmpint (json_object_get_int_member (leaf, "total"), <=, json_object_get_int_member (caller, "total"));
  g_assert_cmpint (json_object_get_int_member (leaf, "self"), >, 0);
  g_assert_cmpstr (json_object_get_string_member (caller, "name"), ==, "parse_record");
  g_assert_cmpstr (json_object_get_string_member (caller, "source"), ==, "Parses one record: finds its fields,\nthen checks its sum.");
  line = json_array_get_object_element (json_object_get_array_member (root, "hot_lines"), 0);
  g_assert_cmpstr (json_object_get_string_member (line, "text"), ==, "WORK_UNITS (6);");
  g_assert_cmpint (json_object_get_int_member (line, "line"), ==, 28);
}

static void
test_suggest_summarizer_fails (void)
{
  g_autofree char *failing = write_script ("fail.sh", "echo 'error: no model at ~/models/x.gguf' >&2\nexit 4\n");
  g_autofree char *endless = write_script ("endless.sh", "echo 'loading…' >&2\nexec sleep 600\n");
  const char *suggest[] = { "summary", capture, "parse_record;checksum_block", "--suggest", NULL };
  const char *timed[] = { "summary", capture, "parse_record;checksum_block", "--suggest", "--timeout", "1", NULL };
  g_autoptr(ItResult) f = NULL;
  g_autoptr(ItResult) t = NULL;
  gint64 start;

  if (!have_capture ())
    return;
  g_setenv ("HOTPATH_SUMMARIZER", failing, TRUE);
  f = it_run_cli (suggest);
  g_assert_cmpint (f->status, ==, 1);
  g_assert_cmpstr (f->out, ==, "");
  g_assert_nonnull (strstr (f->err, "exited with status 4"));
  g_assert_nonnull (strstr (f->err, "  error: no model at ~/models/x.gguf"));

  g_setenv ("HOTPATH_SUMMARIZER", endless, TRUE);
  start = g_get_monotonic_time ();
  t = it_run_cli (timed);
  g_unsetenv ("HOTPATH_SUMMARIZER");
  g_assert_cmpint (t->status, ==, 1);
  g_assert_nonnull (strstr (t->err, "no answer within 1 s"));
  g_assert_nonnull (strstr (t->err, "loading…"));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 60 * G_USEC_PER_SEC);
}

static void
set_summary (const char *path,
             const char *text)
{
  const char *set[] = { "summary", capture, path, "--set", text, NULL };
  g_autoptr(ItResult) r = it_run_cli (set);

  g_assert_cmpint (r->status, ==, 0);
}

static double
share_of (const char *name)
{
  g_autoptr(ItCapture) cap = it_capture_open (capture);

  return it_total_percent (cap->profile, name);
}

static void
test_review_documents (void)
{
  const char *md[] = { "summary", capture, "--format", "markdown", NULL };
  const char *js[] = { "summary", capture, "--format", "json", NULL };
  const char *bad[] = { "summary", capture, "--format", "html", NULL };
  const char *mixed[] = { "summary", capture, "parse_record", "--format", "json", NULL };
  g_autoptr(ItResult) m = NULL;
  g_autoptr(ItResult) j = NULL;
  g_autoptr(ItResult) b = NULL;
  g_autoptr(ItResult) x = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *checksum_share = NULL;
  const char *hot, *scan, *gone;
  JsonArray *summaries;
  JsonObject *first, *last;

  if (!have_capture ())
    return;
  /* with what would be a heading, an HTML comment and a code fence left
   * open: the review's own sections must stay what they are */
  set_summary ("parse_record;scan_fields", "Finds the fields.\nSecond line with *stars*.\n## Not a section\n"
               "Nor this\n---\n<!-- hidden\n```c\nint unclosed;");
  set_summary ("parse_record;checksum_block", "Sums the bytes \x1b[31mred\x1b[0m.");
  {
    /* a summary written in an older capture, for a path this one does
     * not have (as an import keeps it) */
    g_autoptr(HpCapture) c = hp_capture_open (capture, TRUE, &error);
    g_autoptr(GPtrArray) rows = g_ptr_array_new ();
    HpCaptureSummary old = { (char *) "documented\tmain\ndocumented\tgone_function\n", (char *) "main → gone_function",
                             (char *) "From an older build.", (char *) "2026-01-02T03:04:05Z",
                             (char *) "2026-01-02T03:04:05Z", (char *) "older.hotpath", 4.0, FALSE };

    g_assert_no_error (error);
    g_ptr_array_add (rows, &old);
    g_assert_true (hp_capture_put_summaries (c, rows, &error));
    g_assert_no_error (error);
  }

  m = it_run_cli (md);
  g_test_message ("%s", m->out);
  g_assert_cmpint (m->status, ==, 0);
  g_assert_true (g_str_has_prefix (m->out, "# Summaries of `documented`\n"));
  g_assert_nonnull (strstr (m->out, "3 summaries."));
  /* hottest first, the one not found last */
  hot = strstr (m->out, "→ checksum_block`\n\n**");
  scan = strstr (m->out, "→ scan_fields`\n\n**");
  /* where it was written, when, and its share then */
  gone = strstr (m->out, "## `main → gone_function`\n\n*Not found in this capture's call tree.*\n\n"
                         "Written in `older.hotpath` on 2026-01-02, 4.0 % then.\n\nFrom an older build.\n");
  g_assert_nonnull (hot);
  g_assert_nonnull (scan);
  g_assert_nonnull (gone);
  g_assert_true (hot < scan && scan < gone);
  /* its share now, as the report computes it */
  checksum_share = g_strdup_printf ("**%.1f %%** of the samples now", share_of ("checksum_block"));
  g_assert_nonnull (strstr (hot, checksum_share));
  g_assert_nonnull (strstr (scan, "Finds the fields.\nSecond line with *stars*.\n\\## Not a section\n"
                                 "Nor this\n\\---\n\\<!-- hidden\n```c\nint unclosed;\n```\n"));
  {
    g_auto(GStrv) lines = g_strsplit (m->out, "\n", -1);
    guint headings = 0, fences = 0;

    for (guint i = 0; lines[i] != NULL; i++)
      {
        headings += g_str_has_prefix (lines[i], "## ") || g_str_has_prefix (lines[i], "---");
        fences += g_str_has_prefix (lines[i], "```");
      }
    g_assert_cmpuint (headings, ==, 3);
    g_assert_cmpuint (fences % 2, ==, 0);
  }
  /* those written here do not say so */
  {
    g_auto(GStrv) parts = g_strsplit (m->out, "Written in", -1);

    g_assert_cmpuint (g_strv_length (parts), ==, 2);
  }
  /* no escape sequence reaches the terminal */
  g_assert_null (strchr (m->out, '\x1b'));
  g_assert_nonnull (strstr (hot, "Sums the bytes \\e[31mred\\e[0m."));

  j = it_run_cli (js);
  g_assert_cmpint (j->status, ==, 0);
  json_parser_load_from_data (parser, j->out, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (json_parser_get_root (parser)), "program"),
                   ==, "documented");
  summaries = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "summaries");
  g_assert_cmpuint (json_array_get_length (summaries), ==, 3);
  first = json_array_get_object_element (summaries, 0);
  last = json_array_get_object_element (summaries, 2);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (first, "path"),
                                                  json_array_get_length (json_object_get_array_member (first, "path")) - 1),
                   ==, "checksum_block");
  g_assert_true (json_object_get_boolean_member (first, "found"));
  g_assert_cmpfloat_with_epsilon (100 * json_object_get_double_member (first, "share"), share_of ("checksum_block"), 0.001);
  g_assert_cmpstr (json_object_get_string_member (first, "text"), ==, "Sums the bytes \x1b[31mred\x1b[0m.");
  g_assert_false (json_object_get_boolean_member (last, "found"));
  g_assert_cmpstr (json_object_get_string_member (last, "readable"), ==, "main → gone_function");
  g_assert_cmpint (json_object_get_int_member (last, "samples"), ==, 0);
  g_assert_cmpstr (json_object_get_string_member (last, "written_in"), ==, "older.hotpath");
  g_assert_cmpstr (json_object_get_string_member (last, "updated"), ==, "2026-01-02T03:04:05Z");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (last, "share_then"), 0.04, 1e-9);

  b = it_run_cli (bad);
  g_assert_cmpint (b->status, ==, 2);
  g_assert_nonnull (strstr (b->err, "unknown --format html"));
  x = it_run_cli (mixed);
  g_assert_cmpint (x->status, ==, 2);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = it_tmpdir_new ();

  g_test_add_func ("/cli-suggest/record", test_record);
  g_test_add_func ("/cli-suggest/doc-comments", test_suggest_from_doc_comments);
  g_test_add_func ("/cli-suggest/summarizer", test_suggest_summarizer);
  g_test_add_func ("/cli-suggest/summarizer-fails", test_suggest_summarizer_fails);
  g_test_add_func ("/cli-suggest/review-documents", test_review_documents);

  status = g_test_run ();
  it_tmpdir_free (tmpdir);
  g_free (capture);
  return status;
}
