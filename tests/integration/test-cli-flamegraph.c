/* test-cli-flamegraph.c - hotpath-cli flamegraph writes a valid, faithful SVG
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A capture written here holds main → work (60 samples), main → other
 * (40) and main → a function whose name is hostile (10): markup
 * characters, a terminal escape, a newline and bytes that are not UTF-8.
 * The SVG must parse as XML (GMarkup here, and Python's expat, which
 * refuses the control characters XML forbids), carry one
 * <title>NAME (N samples, P%)</title> per box with those counts, and
 * place every box inside the image.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <string.h>

#include "integration-common.h"
#include "store/hp-capture-writer.h"

#define HOSTILE_NAME "evil<&>\x1b[31m\nname\xff\xfe"

static void
write_capture (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 module, main_fn, frames[3], main_frame, main_stack;
  const char *names[] = { "work", "other", HOSTILE_NAME };
  const guint counts[] = { 60, 40, 10 };
  guint64 time = 1000;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  main_fn = hp_capture_writer_intern_function (w, "main", module, NULL, 0);
  main_frame = hp_capture_writer_intern_frame (w, main_fn, NULL, 0, FALSE, 0x10);
  main_stack = hp_capture_writer_intern_stack (w, 0, main_frame);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      gint64 fn = hp_capture_writer_intern_function (w, names[i], module, NULL, 0);
      gint64 stack;

      frames[i] = hp_capture_writer_intern_frame (w, fn, NULL, 0, FALSE, 0x100 * (i + 1));
      stack = hp_capture_writer_intern_stack (w, main_stack, frames[i]);
      for (guint n = 0; n < counts[i]; n++)
        hp_capture_writer_add_sample (w, time++, 1, 0, stack, 1000000);
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
}

typedef struct {
  GPtrArray *titles;
  GString   *text;
  gboolean   in_title;
  guint      rects;
  gdouble    width;
  gdouble    height;
  gboolean   inside;
} Parsed;

static void
start_element (GMarkupParseContext *context,
               const char          *element,
               const char         **names,
               const char         **values,
               gpointer             user_data,
               GError             **error)
{
  Parsed *p = user_data;
  gdouble x = 0, y = 0, w = 0, h = 0;
  gboolean box = FALSE;

  if (strcmp (element, "svg") == 0)
    for (guint i = 0; names[i]; i++)
      {
        if (strcmp (names[i], "width") == 0)
          p->width = g_ascii_strtod (values[i], NULL);
        else if (strcmp (names[i], "height") == 0)
          p->height = g_ascii_strtod (values[i], NULL);
      }
  if (strcmp (element, "title") == 0)
    {
      p->in_title = TRUE;
      g_string_truncate (p->text, 0);
    }
  if (strcmp (element, "rect") != 0)
    return;
  for (guint i = 0; names[i]; i++)
    {
      gdouble v = g_ascii_strtod (values[i], NULL);

      if (strcmp (names[i], "x") == 0)
        x = v, box = TRUE;
      else if (strcmp (names[i], "y") == 0)
        y = v;
      else if (strcmp (names[i], "width") == 0)
        w = v;
      else if (strcmp (names[i], "height") == 0)
        h = v;
    }
  if (!box)
    return;  /* the background */
  p->rects++;
  if (x < 0 || w <= 0 || x + w > p->width + 0.05 || y < 0 || y + h > p->height)
    p->inside = FALSE;
}

static void
end_element (GMarkupParseContext *context,
             const char          *element,
             gpointer             user_data,
             GError             **error)
{
  Parsed *p = user_data;

  if (strcmp (element, "title") == 0)
    {
      g_ptr_array_add (p->titles, g_strdup (p->text->str));
      p->in_title = FALSE;
    }
}

static void
text (GMarkupParseContext *context,
      const char          *chars,
      gsize                len,
      gpointer             user_data,
      GError             **error)
{
  Parsed *p = user_data;

  if (p->in_title)
    g_string_append_len (p->text, chars, (gssize) len);
}

static void
parse_svg (const char *path,
           Parsed     *p)
{
  static const GMarkupParser parser = { start_element, end_element, text, NULL, NULL };
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *svg = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &svg, &len, NULL));
  g_assert_true (g_utf8_validate (svg, (gssize) len, NULL));
  g_assert_null (memchr (svg, 0x1b, len));
  /* GMarkup takes neither a doctype nor a declaration; both are plain */
  context = g_markup_parse_context_new (&parser, 0, p, NULL);
  p->titles = g_ptr_array_new_with_free_func (g_free);
  p->text = g_string_new (NULL);
  p->inside = TRUE;
  g_assert_true (g_markup_parse_context_parse (context, strstr (svg, "<svg"), -1, &error));
  g_assert_no_error (error);
  g_assert_true (g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
}

static void
parsed_clear (Parsed *p)
{
  g_ptr_array_unref (p->titles);
  g_string_free (p->text, TRUE);
}

static gboolean
has_title (Parsed     *p,
           const char *title)
{
  for (guint i = 0; i < p->titles->len; i++)
    if (strcmp (g_ptr_array_index (p->titles, i), title) == 0)
      return TRUE;
  return FALSE;
}

/* Python's expat refuses what XML 1.0 forbids, GMarkup does not always. */
static void
assert_expat_parses (const char *path)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  int status;
  const char *argv[] = { python, "-c", "import sys, xml.dom.minidom as m; m.parse(sys.argv[1])", path, NULL };

  if (python == NULL)
    return;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s does not parse as XML: %s", path, err);
}

static void
test_svg (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (dir, "app.hotpath", NULL);
  g_autofree char *svg = g_build_filename (dir, "app.svg", NULL);
  g_autofree char *reversed = g_build_filename (dir, "reversed.svg", NULL);
  g_autoptr(ItResult) res = NULL, rev = NULL;
  Parsed p = { 0 }, r = { 0 };

  write_capture (capture);
  {
    const char *args[] = { "flamegraph", capture, "-o", svg, "--width", "800", NULL };
    res = it_run_cli (args);
  }
  g_assert_cmpint (res->status, ==, 0);
  parse_svg (svg, &p);
  assert_expat_parses (svg);
  g_assert_cmpfloat (p.width, ==, 800);
  g_assert_true (p.inside);
  /* all, main, work, other, the hostile one */
  g_assert_cmpuint (p.rects, ==, 5);
  g_assert_cmpuint (p.titles->len, ==, 5);
  g_assert_true (has_title (&p, "all (110 samples, 100.00%)"));
  g_assert_true (has_title (&p, "main (110 samples, 100.00%)"));
  g_assert_true (has_title (&p, "work (60 samples, 54.55%)"));
  g_assert_true (has_title (&p, "other (40 samples, 36.36%)"));
  /* markup is text, the escape and the newline and the bad bytes are U+FFFD */
  g_assert_true (has_title (&p, "evil<&>\xef\xbf\xbd[31m\xef\xbf\xbdname\xef\xbf\xbd\xef\xbf\xbd (10 samples, 9.09%)"));

  {
    const char *args[] = { "flamegraph", capture, "-o", reversed, "--reverse", "--colors", "module", NULL };
    rev = it_run_cli (args);
  }
  g_assert_cmpint (rev->status, ==, 0);
  parse_svg (reversed, &r);
  assert_expat_parses (reversed);
  g_assert_true (r.inside);
  /* bottom-up: the leaves above the root, main above each of them */
  g_assert_cmpuint (r.rects, ==, 7);
  g_assert_true (has_title (&r, "work (60 samples, 54.55%)"));
  g_assert_false (has_title (&r, "main (110 samples, 100.00%)"));
  g_assert_true (has_title (&r, "main (60 samples, 54.55%)"));

  parsed_clear (&p);
  parsed_clear (&r);
  g_clear_pointer (&dir, it_tmpdir_free);
}

static void
test_errors (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (dir, "app.hotpath", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.hotpath", NULL);
  g_autofree char *svg = g_build_filename (dir, "out.svg", NULL);
  g_autoptr(ItResult) colors = NULL, no_output = NULL, no_file = NULL, width = NULL;

  write_capture (capture);
  {
    const char *args[] = { "flamegraph", capture, "-o", svg, "--colors", "purple", NULL };
    colors = it_run_cli (args);
  }
  g_assert_cmpint (colors->status, !=, 0);
  g_assert_nonnull (strstr (colors->err, "--colors must be hot or module"));
  {
    const char *args[] = { "flamegraph", capture, NULL };
    no_output = it_run_cli (args);
  }
  g_assert_cmpint (no_output->status, !=, 0);
  g_assert_nonnull (strstr (no_output->err, "-o FILE"));
  {
    const char *args[] = { "flamegraph", capture, "-o", svg, "--width", "5", NULL };
    width = it_run_cli (args);
  }
  g_assert_cmpint (width->status, !=, 0);
  g_assert_nonnull (strstr (width->err, "--width"));
  {
    const char *args[] = { "flamegraph", missing, "-o", svg, NULL };
    no_file = it_run_cli (args);
  }
  g_assert_cmpint (no_file->status, !=, 0);
  g_assert_nonnull (strstr (no_file->err, missing));
  g_assert_false (g_file_test (svg, G_FILE_TEST_EXISTS));
  g_clear_pointer (&dir, it_tmpdir_free);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/cli/flamegraph-svg", test_svg);
  g_test_add_func ("/integration/cli/flamegraph-errors", test_errors);
  return g_test_run ();
}
