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
 *
 * Filters: a capture of main → work (with helper inlined into it) →
 * memcpy (libc.so.6) → sys_write (kernel), and a kernel thread:
 *   main > work                          10
 *   main > work > helper (inline)        40
 *   main > work > memcpy                 30
 *   main > work > memcpy > sys_write     20
 *   kthread_loop (kernel only)            5
 * Each filter (hide kernel, fold a module, fold a function, fold inlined
 * functions) must change every view (call tree, flame graph, callers and
 * callees, the function list) to the numbers known by construction, be
 * named in the filter bar, and Clear must bring the whole profile back.
 * The flat function list sorts by self and by total.
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#include "symbols/hp-file-locator.h"
#include "symbols/hp-symbolizer.h"
#include "ui/hp-function-row.h"
#include "ui/hp-window-png.h"
#include "ui/hp-source-file.h"
#include "display-common.h"

#define INLINE_BINARY WORKLOAD_DIR "/inline-fp"
#define MISSING_SOURCE "/nonexistent/display-test/workloads/inline.c"

static HpApplication *app;

static gboolean
is_label_starting (GtkWidget    *widget,
                   gconstpointer prefix)
{
  return GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), prefix);
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

static gboolean
is_button_of (GtkWidget    *widget,
              gconstpointer action)
{
  return GTK_IS_BUTTON (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0;
}

/* The row of the source pane's list at @line (from 1) */
static HpSourceRow *
source_row (HpSourceView *view,
            guint         line)
{
  GtkColumnView *list = GTK_COLUMN_VIEW (display_find_descendant (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW));
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (list));

  g_assert_cmpuint (line, >, 0);
  return g_list_model_get_item (model, line - 1);
}

/* A picture for a person to look at (HOTPATH_TEST_SHOTS): once the
 * window has drawn a frame since the last change */
static void
save_png (HpWindow   *window,
          const char *path)
{
  for (guint i = 0; i < 20; i++)
    {
      g_autoptr(GError) error = NULL;

      display_spin (100);
      if (hp_window_save_png (GTK_WINDOW (window), path, &error))
        return;
      g_test_message ("%s", error->message);
    }
  g_error ("%s: no picture", path);
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

  display_activate (window, "win.show-pane", g_variant_new_string ("source"));
  display_activate (window, "win.select-function", g_variant_new_string ("hot_loop"));
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
  /* the heading names the function and its module by the module's path */
  {
    GtkWidget *heading = display_find_widget (GTK_WIDGET (view), is_label_starting, "Machine code of ");

    g_assert_nonnull (heading);
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (heading)), ==, "Machine code of hot_loop in " INLINE_BINARY);
  }
  g_assert_nonnull (display_find_widget (GTK_WIDGET (view), is_label_starting, "Source file not found: " MISSING_SOURCE));
  {
    GtkWidget *button = display_find_widget (GTK_WIDGET (view), is_button_of, "source.choose-folder");

    g_assert_nonnull (button);
    g_assert_true (gtk_widget_is_sensitive (button));
  }
  if (shots != NULL)
    {
      g_autofree char *png = g_build_filename (shots, "disassembly.png", NULL);

      save_png (window, png);
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
  g_assert_null (display_find_widget (GTK_WIDGET (view), is_label_starting, "Source file not found"));
  g_settings_set_strv (settings, "source-paths", NULL);
  display_close (window);
}

static char *
make_filter_capture (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "filters.hotpath", NULL);
  g_autoptr(HpCaptureWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  gint64 app_mod, libc, kernel, s_main, s_work, s_helper, s_memcpy, s_write, s_kthread;
  guint64 t = 0;
  struct { gint64 *stack; guint n; gint32 tid; } leaves[] = {
    { &s_work, 10, 1 }, { &s_helper, 40, 1 }, { &s_memcpy, 30, 1 }, { &s_write, 20, 1 }, { &s_kthread, 5, 2 },
  };

  g_unlink (path);
  w = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "command", "/usr/bin/app");
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  hp_capture_writer_set_metadata (w, "frequency", "1000");
  hp_capture_writer_set_process (w, 1, "app");
  hp_capture_writer_set_thread (w, 1, 1, "app");
  hp_capture_writer_set_process (w, 2, "kthreadd");
  hp_capture_writer_set_thread (w, 2, 2, "kworker");
  app_mod = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  libc = hp_capture_writer_intern_module (w, "/usr/lib/x86_64-linux-gnu/libc.so.6", NULL, FALSE);
  kernel = hp_capture_writer_intern_module (w, "[kernel.kallsyms]", NULL, TRUE);
#define FRAME(module, name, is_inline, off) \
  hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, name, module, NULL, 0), NULL, 0, is_inline, off)
  s_main = hp_capture_writer_intern_stack (w, 0, FRAME (app_mod, "main", FALSE, 0x10));
  s_work = hp_capture_writer_intern_stack (w, s_main, FRAME (app_mod, "work", FALSE, 0x20));
  s_helper = hp_capture_writer_intern_stack (w, s_work, FRAME (app_mod, "helper", TRUE, 0x28));
  s_memcpy = hp_capture_writer_intern_stack (w, s_work, FRAME (libc, "__memmove_avx_unaligned_erms", FALSE, 0x30));
  s_write = hp_capture_writer_intern_stack (w, s_memcpy, FRAME (kernel, "sys_write", FALSE, 0xffff0000));
  s_kthread = hp_capture_writer_intern_stack (w, 0, FRAME (kernel, "kthread_loop", FALSE, 0xffff0100));
#undef FRAME
  for (guint i = 0; i < G_N_ELEMENTS (leaves); i++)
    for (guint n = 0; n < leaves[i].n; n++)
      hp_capture_writer_add_sample (w, t += 1000000, leaves[i].tid, 0, *leaves[i].stack, 1000000);
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

static HpLoadedProfile *
shown_profile (HpWindow *window)
{
  return hp_call_tree_view_get_profile (hp_window_get_tree_view (window));
}

static gint64
function_id (HpWindow   *window,
             const char *name)
{
  g_autoptr(GArray) ids = hp_profile_find_functions (shown_profile (window)->profile, name);

  g_assert_cmpuint (ids->len, ==, 1);
  return g_array_index (ids, gint64, 0);
}

/* self and total of @name in the shown profile; -1 when it has no samples */
static gint64
self_of (HpWindow   *window,
         const char *name)
{
  g_autoptr(GArray) ids = hp_profile_find_functions (shown_profile (window)->profile, name);
  const HpFunctionStats *s = ids->len ? hp_profile_get_function_stats (shown_profile (window)->profile,
                                                                       g_array_index (ids, gint64, 0)) : NULL;

  return s != NULL && s->total > 0 ? (gint64) s->self : -1;
}

static gboolean
settled (gpointer data)
{
  HpWindow *window = data;
  HpFlameView *flame = hp_window_get_flame_view (window);
  HpFlameGraph *graph = hp_flame_canvas_get_graph (hp_flame_view_get_canvas (flame));

  /* the flame graph follows the tree's profile while it is shown */
  return !hp_window_is_filtering (window) && !hp_window_is_following (window) &&
         (!gtk_widget_get_mapped (GTK_WIDGET (flame)) ||
          (!hp_flame_view_is_busy (flame) && graph != NULL &&
           hp_flame_graph_get_profile (graph) == shown_profile (window)->profile));
}

static void
filter (HpWindow   *window,
        const char *action,
        GVariant   *parameter)
{
  display_activate (window, action, parameter);
  g_assert_true (display_wait (settled, window, 10000));
}

/* Whether the rows of @model (HpFunctionRow) name @name */
static gboolean
lists (GListModel *model,
       const char *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(HpFunctionRow) row = g_list_model_get_item (model, i);

      if (g_strcmp0 (hp_function_row_get_name (row), name) == 0)
        return TRUE;
    }
  return FALSE;
}

static const char *
row_name (GListModel *model,
          guint       i)
{
  g_autoptr(HpFunctionRow) row = g_list_model_get_item (model, i);

  return row != NULL ? g_intern_string (hp_function_row_get_name (row)) : NULL;
}

static void
test_filters (void)
{
  g_autofree char *path = make_filter_capture ();
  HpWindow *window = open_window (path);
  HpCallsView *calls = hp_window_get_calls_view (window);
  GListModel *functions;
  const char *shots = g_getenv ("HOTPATH_TEST_SHOTS");

  display_activate (window, "win.show-pane", g_variant_new_string ("flame"));
  g_assert_true (display_wait (settled, window, 10000));
  g_assert_null (hp_window_get_filter_text (window));
  g_assert_cmpuint (hp_profile_get_n_samples (shown_profile (window)->profile), ==, 105);
  g_assert_cmpint (self_of (window, "sys_write"), ==, 20);

  /* hide the kernel: sys_write's 20 are memcpy's own, kthread's 5 gone;
   * the flame graph, on screen, follows */
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (hp_window_get_flame_view (window))));
  filter (window, "win.hide-kernel", NULL);
  g_assert_cmpuint (hp_profile_get_n_samples (shown_profile (window)->profile), ==, 100);
  g_assert_cmpint (self_of (window, "sys_write"), ==, -1);
  g_assert_cmpint (self_of (window, "kthread_loop"), ==, -1);
  g_assert_cmpint (self_of (window, "__memmove_avx_unaligned_erms"), ==, 50);
  g_assert_nonnull (strstr (hp_window_get_filter_text (window), "Kernel frames hidden (5 samples"));
  /* callers and callees follow: memcpy calls nothing now */
  display_activate (window, "win.show-pane", g_variant_new_string ("calls"));
  display_activate (window, "win.select-function", g_variant_new_string ("__memmove_avx_unaligned_erms"));
  g_assert_true (display_wait (settled, window, 10000));
  g_assert_cmpuint (g_list_model_get_n_items (hp_calls_view_get_callees (calls)), ==, 0);
  /* and so does the function list */
  display_activate (window, "win.show-pane", g_variant_new_string ("functions"));
  functions = hp_function_list_get_model (hp_window_get_function_list (window));
  g_assert_false (lists (functions, "sys_write"));
  g_assert_true (lists (functions, "work"));
  if (shots != NULL)
    {
      g_autofree char *png = g_build_filename (shots, "filter-kernel-functions.png", NULL);

      save_png (window, png);
    }

  /* Clear: the whole profile again */
  filter (window, "win.clear-filters", NULL);
  g_assert_null (hp_window_get_filter_text (window));
  g_assert_cmpuint (hp_profile_get_n_samples (shown_profile (window)->profile), ==, 105);
  g_assert_true (lists (hp_function_list_get_model (hp_window_get_function_list (window)), "sys_write"));
  {
    gboolean hide = TRUE;

    g_object_get (window, "hide-kernel", &hide, NULL);
    g_assert_false (hide);
  }

  /* fold libc (from memcpy's row): its own 30 are work's; the kernel
   * below it stays, now called by work */
  filter (window, "win.fold-module", g_variant_new_int64 (function_id (window, "__memmove_avx_unaligned_erms")));
  g_assert_cmpint (self_of (window, "__memmove_avx_unaligned_erms"), ==, -1);
  g_assert_cmpint (self_of (window, "work"), ==, 40);
  g_assert_cmpint (self_of (window, "sys_write"), ==, 20);
  g_assert_nonnull (strstr (hp_window_get_filter_text (window), "libc.so.6"));
  display_activate (window, "win.show-pane", g_variant_new_string ("calls"));
  display_activate (window, "win.select-function", g_variant_new_string ("sys_write"));
  g_assert_true (display_wait (settled, window, 10000));
  g_assert_true (lists (hp_calls_view_get_callers (calls), "work"));

  /* and work too, by name in the bar: all of work's is main's */
  filter (window, "win.fold-function", g_variant_new_int64 (function_id (window, "work")));
  g_assert_cmpint (self_of (window, "work"), ==, -1);
  g_assert_cmpint (self_of (window, "main"), ==, 40);
  g_assert_cmpint (self_of (window, "helper"), ==, 40);
  g_assert_nonnull (strstr (hp_window_get_filter_text (window), "work"));
  if (shots != NULL)
    {
      g_autofree char *png = g_build_filename (shots, "filter-folds.png", NULL);

      display_activate (window, "win.show-pane", g_variant_new_string ("flame"));
      g_assert_true (display_wait (settled, window, 10000));
      save_png (window, png);
    }
  filter (window, "win.clear-filters", NULL);
  g_assert_cmpint (self_of (window, "work"), ==, 10);

  /* inlined functions into their callers, as perf report --sort sym */
  filter (window, "win.fold-inline", NULL);
  g_assert_cmpint (self_of (window, "helper"), ==, -1);
  g_assert_cmpint (self_of (window, "work"), ==, 50);
  g_assert_nonnull (strstr (hp_window_get_filter_text (window), "Inlined functions in their callers"));
  filter (window, "win.fold-inline", NULL);
  g_assert_null (hp_window_get_filter_text (window));
  g_assert_cmpint (self_of (window, "helper"), ==, 40);
  display_close (window);
}

/* The flat list: every function, by self (the first order), by total,
 * and back the other way; activating a row selects it in the tree */
static void
test_function_list (void)
{
  g_autofree char *path = make_filter_capture ();
  HpWindow *window = open_window (path);
  HpFunctionList *list = hp_window_get_function_list (window);
  GListModel *model;

  display_activate (window, "win.show-pane", g_variant_new_string ("functions"));
  model = hp_function_list_get_model (list);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 6);
  /* self: helper 40, memcpy 30, sys_write 20, work 10, kthread 5, main 0 */
  g_assert_cmpstr (row_name (model, 0), ==, "helper");
  g_assert_cmpstr (row_name (model, 1), ==, "__memmove_avx_unaligned_erms");
  hp_function_list_sort_by (list, TRUE, TRUE);
  display_spin (50);
  /* total: main 100 and work 100 first, kthread_loop 5 last */
  g_assert_true (g_strcmp0 (row_name (model, 0), "main") == 0 || g_strcmp0 (row_name (model, 0), "work") == 0);
  g_assert_cmpstr (row_name (model, 5), ==, "kthread_loop");
  hp_function_list_sort_by (list, TRUE, FALSE);
  display_spin (50);
  g_assert_cmpstr (row_name (model, 0), ==, "kthread_loop");
  /* a row activated: the tree selects that function */
  {
    GtkWidget *view = display_find_descendant (GTK_WIDGET (list), GTK_TYPE_COLUMN_VIEW);

    g_signal_emit_by_name (view, "activate", 0);
    display_spin (50);
    g_assert_cmpint (hp_call_tree_view_get_selected (hp_window_get_tree_view (window))->function_id, ==,
                     function_id (window, "kthread_loop"));
  }
  display_close (window);
}

static int
run (HpApplication *application)
{
  app = application;
  g_test_add_func ("/filters/disassembly", test_disassembly);
  g_test_add_func ("/filters/filters", test_filters);
  g_test_add_func ("/filters/function-list", test_function_list);
  return g_test_run ();
}

int
main (int   argc,
      char *argv[])
{
  return display_run (argc, argv, run);
}
