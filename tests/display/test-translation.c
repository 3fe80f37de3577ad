/* test-translation.c - the window in German fits at 1024 px
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * German words are longer than the English ones the layout was made for.
 * With LANGUAGE=de and the build's catalogues (HOTPATH_LOCALEDIR, which
 * display_run binds), at 1024×700: the overview's event ("cpu-clock:
 * Stichproben") reads whole, on a second line if need be, and while a
 * search shows its position ("1 von 3") the filters' entries keep their
 * counts ("Alle Prozesse (1000 Stichproben)"): the position takes its
 * room from the search field, whose placeholder is not shown then.
 */
#define G_LOG_DOMAIN "hp-display-test"

#include "config.h"

#include <string.h>

#include "store/hp-capture-writer.h"
#include "ui/hp-capture-overview.h"
#include "display-common.h"

static HpApplication *app;

static gboolean
is_label_starting (GtkWidget    *widget,
                   gconstpointer prefix)
{
  return GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), prefix);
}

/* Two programs of two threads each, as `record -a` or a forking program
 * leaves them: the process filter is shown */
static char *
make_two_process_capture (void)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), "two.hotpath", NULL);
  g_autoptr(HpCaptureWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  gint64 mod, f_main, f_leaf, s_main, s_leaf;
  guint64 t = 0;

  w = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "command", "./threads-fp");
  hp_capture_writer_set_metadata (w, "start_time", "2024-05-01T12:00:00Z");
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  hp_capture_writer_set_metadata (w, "frequency", "999");
  hp_capture_writer_set_metadata (w, "call_graph", "dwarf");
  hp_capture_writer_set_metadata_int (w, "duration_ns", 8110000000);
  hp_capture_writer_set_metadata_int (w, "lost_samples", 0);
  hp_capture_writer_set_metadata_int (w, "truncated_stacks", 3);
  hp_capture_writer_set_process (w, 100, "hp-main");
  hp_capture_writer_set_thread (w, 100, 100, "hp-main");
  hp_capture_writer_set_thread (w, 101, 100, "hp-worker-1");
  hp_capture_writer_set_process (w, 200, "threads-child-f");
  hp_capture_writer_set_thread (w, 200, 200, "threads-child-f");
  hp_capture_writer_set_thread (w, 201, 200, "hp-worker-2");
  mod = hp_capture_writer_intern_module (w, "/opt/display-test/threads-fp", NULL, FALSE);
  f_main = hp_capture_writer_intern_function (w, "main", mod, NULL, 0);
  f_leaf = hp_capture_writer_intern_function (w, "worker_one_work", mod, NULL, 0);
  s_main = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w, f_main, NULL, 0, FALSE, 0x100));
  s_leaf = hp_capture_writer_intern_stack (w, s_main, hp_capture_writer_intern_frame (w, f_leaf, NULL, 0, FALSE, 0x200));
  for (guint n = 0; n < 1000; n++)
    hp_capture_writer_add_sample (w, t += 1000000, (gint32[]) { 100, 101, 200, 201 }[n % 4], 0,
                                  n % 3 ? s_leaf : s_main, 1000000);
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

static void
assert_whole (GtkWidget  *label,
              const char *what)
{
  g_assert_nonnull (label);
  g_test_message ("%s: \"%s\", %d px wide", what, gtk_label_get_text (GTK_LABEL (label)), gtk_widget_get_width (label));
  if (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))))
    g_error ("%s is cut at 1024 px: \"%s\"", what, gtk_label_get_text (GTK_LABEL (label)));
}

static void
test_german_1024 (void)
{
  g_autofree char *path = make_two_process_capture ();
  HpWindow *window = display_open_sized (app, path, 1024, 700);
  HpCaptureOverview *overview = hp_window_get_overview (window);
  GtkWidget *event, *processes, *threads;

  display_spin (300);
  /* the catalogue is the one the build compiled from po/de.po */
  g_assert_cmpstr (hp_capture_overview_get_value (overview, "event"), ==, "cpu-clock: Stichproben");
  event = display_find_widget (GTK_WIDGET (overview), is_label_starting, "cpu-clock: Stichproben");
  assert_whole (event, "the overview's event");

  gtk_editable_set_text (GTK_EDITABLE (hp_window_get_search_entry (window)), "work");
  display_spin (600);
  processes = display_find_widget (GTK_WIDGET (hp_window_get_process_dropdown (window)), is_label_starting,
                                   "Alle Prozesse (");
  threads = display_find_widget (GTK_WIDGET (hp_window_get_thread_dropdown (window)), is_label_starting,
                                 "Alle Threads (");
  assert_whole (processes, "the process filter");
  assert_whole (threads, "the thread filter");
  display_assert_fits_width (window, 1024);
  display_close (window);
}

static int
run (HpApplication *application)
{
  app = application;
  g_test_add_func ("/translation/german-1024", test_german_1024);
  return g_test_run ();
}

int
main (int    argc,
      char **argv)
{
  /* before display_run, which binds the catalogues */
  g_setenv ("LANGUAGE", "de", TRUE);
  g_setenv ("HOTPATH_LOCALEDIR", BUILD_LOCALEDIR, TRUE);
  return display_run (argc, argv, run);
}
