/* test-filters.c - the source pane without source, and the profile filters, in the real window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Missing source: a capture of the inline workload (its hot_loop resolved
 * byte by byte by the symbolizer, as the recorder does) whose source file
 * was recorded at a path that does not exist. The source pane must show
 * hot_loop's machine code with the samples of each source line at the row
 * that names it, under a bar that offers Choose Folder… in place; adding
 * the folder that holds the source shows the source.
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#include "symbols/hp-file-locator.h"
#include "symbols/hp-symbolizer.h"
#include "ui/hp-source-file.h"
#include "display-common.h"

#define INLINE_BINARY WORKLOAD_DIR "/inline-fp"
#define MISSING_SOURCE "/nonexistent/display-test/workloads/inline.c"

static HpApplication *app;

static void
activate (HpWindow   *window,
          const char *action,
          GVariant   *parameter)
{
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (window), action, parameter));
  display_spin (30);
}

static GtkWidget *
find_descendant (GtkWidget *widget,
                 GType      type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = G_TYPE_CHECK_INSTANCE_TYPE (child, type) ? child : find_descendant (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A mapped label under @widget whose text starts with @prefix */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *prefix)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = NULL;

      if (GTK_IS_LABEL (child) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (child)), prefix) &&
          gtk_widget_get_mapped (child))
        return child;
      found = find_label (child, prefix);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* main → hot_loop at its call line of mix_heavy (inlined, 300 samples)
 * and at a line of its own (100 samples); the lines as the symbolizer
 * resolves them, the source path one that does not exist. */
static char *
make_inline_capture (guint *call_line,
                     guint *own_line)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "inline-missing.hotpath", NULL);
  g_autoptr(HpCaptureWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  HpSymbolizer *symbolizer = hp_symbolizer_new ();
  HpModule *module = hp_symbolizer_get_module (symbolizer, INLINE_BINARY, NULL, 0);
  guint64 offset, size, main_offset, main_size, inline_offset = 0, own_offset = 0;
  guint inline_line = 0;
  const char *inlined = NULL;
  guint8 id[20];
  gsize id_len = hp_test_elf_build_id (INLINE_BINARY, id);
  g_autofree char *build_id = hp_build_id_to_hex (id, id_len);
  gint64 mod, f_main, f_loop, f_inl, s_main, s_call, s_inl, s_own;
  guint64 t = 0;

  *call_line = *own_line = 0;
  g_assert_nonnull (module);
  g_assert_true (hp_test_elf_function (INLINE_BINARY, "hot_loop", &offset, &size));
  g_assert_true (hp_test_elf_function (INLINE_BINARY, "main", &main_offset, &main_size));
  for (guint64 o = offset; o < offset + size; o++)
    {
      const HpResolvedAddress *r = hp_symbolizer_lookup (symbolizer, module, o);

      if (r == NULL || r->frames[r->n_frames - 1].line == 0)
        continue;
      if (r->n_frames == 2 && inline_offset == 0)
        {
          inline_offset = o;
          *call_line = r->frames[1].line;
          inline_line = r->frames[0].line;
          inlined = r->frames[0].function;
        }
      else if (r->n_frames == 1 && own_offset == 0)
        {
          own_offset = o;
          *own_line = r->frames[0].line;
        }
    }
  g_assert_cmpuint (inline_offset, !=, 0);
  g_assert_cmpuint (own_offset, !=, 0);
  g_assert_cmpuint (*call_line, !=, *own_line);

  g_unlink (path);
  w = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "command", INLINE_BINARY);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  hp_capture_writer_set_metadata (w, "frequency", "1000");
  hp_capture_writer_set_process (w, 100, "inline-fp");
  hp_capture_writer_set_thread (w, 100, 100, "inline-fp");
  mod = hp_capture_writer_intern_module (w, INLINE_BINARY, build_id, FALSE);
  f_main = hp_capture_writer_intern_function (w, "main", mod, MISSING_SOURCE, 50);
  f_loop = hp_capture_writer_intern_function (w, "hot_loop", mod, MISSING_SOURCE, 37);
  f_inl = hp_capture_writer_intern_function (w, inlined, mod, MISSING_SOURCE, 25);
  s_main = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w, f_main, MISSING_SOURCE, 54, FALSE, main_offset));
  s_call = hp_capture_writer_intern_stack (w, s_main, hp_capture_writer_intern_frame (w, f_loop, MISSING_SOURCE, *call_line, FALSE, inline_offset));
  s_inl = hp_capture_writer_intern_stack (w, s_call, hp_capture_writer_intern_frame (w, f_inl, MISSING_SOURCE, inline_line, TRUE, inline_offset));
  s_own = hp_capture_writer_intern_stack (w, s_main, hp_capture_writer_intern_frame (w, f_loop, MISSING_SOURCE, *own_line, FALSE, own_offset));
  for (guint i = 0; i < 300; i++)
    hp_capture_writer_add_sample (w, t += 1000000, 100, 0, s_inl, 1000000);
  for (guint i = 0; i < 100; i++)
    hp_capture_writer_add_sample (w, t += 1000000, 100, 0, s_own, 1000000);
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
  hp_symbolizer_free (symbolizer);
  return g_steal_pointer (&path);
}

/* A mapped button under @widget that activates @action */
static GtkWidget *
find_button (GtkWidget  *widget,
             const char *action)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = NULL;

      if (GTK_IS_BUTTON (child) && gtk_widget_get_mapped (child) &&
          g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (child)), action) == 0)
        return child;
      found = find_button (child, action);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The row of the source pane's list at @line (from 1) */
static HpSourceRow *
source_row (HpSourceView *view,
            guint         line)
{
  GtkColumnView *list = GTK_COLUMN_VIEW (find_descendant (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW));
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (list));

  g_assert_cmpuint (line, >, 0);
  return g_list_model_get_item (model, line - 1);
}

/* HOTPATH_TEST_SHOTS=DIR saves pictures there, of a window of
 * HOTPATH_TEST_SIZE=WxH (default 1280x800) */
static HpWindow *
open_window (const char *path)
{
  const char *size = g_getenv ("HOTPATH_TEST_SIZE");
  int width = 1280, height = 800;

  if (size != NULL && sscanf (size, "%dx%d", &width, &height) != 2)
    width = 1280, height = 800;
  return display_open_sized (app, path, width, height);
}

static void
test_disassembly (void)
{
  guint call_line, own_line;
  g_autofree char *path = make_inline_capture (&call_line, &own_line);
  g_autofree char *dir = g_build_filename (display_tmpdir (), "checkout", "workloads", NULL);
  g_autofree char *copy = g_build_filename (dir, "inline.c", NULL);
  g_autofree char *root = g_build_filename (display_tmpdir (), "checkout", NULL);
  g_autofree char *header = g_strdup_printf ("inline.c:%u", call_line);
  g_autoptr(HpSourceRow) row = NULL;
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  HpWindow *window = open_window (path);
  HpSourceView *view = hp_window_get_source_view (window);
  const char *shots = g_getenv ("HOTPATH_TEST_SHOTS");

  activate (window, "win.show-pane", g_variant_new_string ("source"));
  activate (window, "win.select-function", g_variant_new_string ("hot_loop"));
  g_assert_true (display_wait_source (window));
  g_test_message ("source pane: %s: %s", hp_source_view_get_state (view), hp_source_view_get_message (view));
  g_assert_cmpstr (hp_source_view_get_state (view), ==, "disassembly");
  g_assert_nonnull (strstr (hp_source_view_get_message (view), MISSING_SOURCE));

  /* the hottest row names the line that calls the inlined helper, with
   * its 300 samples; the instructions follow it */
  row = source_row (view, hp_source_view_get_shown_line (view));
  g_test_message ("hottest row %u: %s", hp_source_view_get_shown_line (view), hp_source_row_get_text (row));
  g_assert_true (g_str_has_prefix (hp_source_row_get_text (row), header));
  g_assert_cmpuint (hp_source_row_get_total (row), ==, 300);
  g_assert_cmpuint (hp_source_row_get_self (row), ==, 0);
  g_clear_object (&row);
  row = source_row (view, hp_source_view_get_shown_line (view) + 1);
  g_assert_true (g_regex_match_simple ("^. +[0-9a-f]+  \\S", hp_source_row_get_text (row), 0, 0));
  g_clear_object (&row);

  /* the bar says what is missing, with the folder chooser in place */
  display_spin (100);
  g_assert_nonnull (find_label (GTK_WIDGET (view), "Source file not found: " MISSING_SOURCE));
  {
    GtkWidget *button = find_button (GTK_WIDGET (view), "source.choose-folder");

    g_assert_nonnull (button);
    g_assert_true (gtk_widget_is_sensitive (button));
  }
  if (shots != NULL)
    {
      g_autofree char *png = g_build_filename (shots, "disassembly.png", NULL);

      display_save_png (GTK_WINDOW (window), png);
    }

  /* the source found in a folder added: the source, not the machine code */
  g_mkdir_with_parents (dir, 0755);
  {
    g_autofree char *text = NULL;
    gsize length;

    g_assert_true (g_file_get_contents (INLINE_SOURCE, &text, &length, NULL));
    g_assert_true (g_file_set_contents (copy, text, (gssize) length, NULL));
  }
  hp_source_view_add_source_path (view, root);
  g_assert_true (display_wait_source (window));
  g_assert_cmpstr (hp_source_view_get_state (view), ==, "source");
  g_assert_null (find_label (GTK_WIDGET (view), "Source file not found"));
  g_settings_set_strv (settings, "source-paths", NULL);
  display_close (window);
}

static int
run (HpApplication *application)
{
  app = application;
  g_test_add_func ("/filters/disassembly", test_disassembly);
  return g_test_run ();
}

int
main (int   argc,
      char *argv[])
{
  return display_run (argc, argv, run);
}
