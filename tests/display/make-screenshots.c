/* make-screenshots.c - PNGs of the window's main views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Usage: make-screenshots CAPTURE OUTDIR [FUNCTION]
 * (under xvfb-run -s "-screen 0 WIDTHxHEIGHTx24"; build-aux/make-screenshots.sh
 * runs it at each size and style). SCREENSHOT_SIZE=WIDTHxHEIGHT sets the
 * window's size (default 1280x800), SCREENSHOT_DARK=1 the dark style,
 * SCREENSHOT_MERGE=1 turns Merge Recursion on first, SCREENSHOT_SUMMARY is
 * the summary written on the selected path.
 *
 * Opens a copy of CAPTURE and saves: main.png (as it opens, with a
 * summary written on the selected path), calls.png (callers and
 * callees), flame.png (the flame graph), timeline.png (a range selected), bottom-up.png, search.png, empty.png and error.png. With
 * FUNCTION, that function is selected before main.png is taken.
 * These are for people to look at (README, metainfo), not a test.
 */

#define G_LOG_DOMAIN "hp-screenshots"

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#include "display-common.h"

static char **args;

static gboolean
timeless (HpTimelineView *view)
{
  const char *notice = hp_timeline_view_get_notice (view);

  return notice != NULL && strstr (notice, "no sample times") != NULL;
}

static void
shot (HpWindow   *window,
      const char *dir,
      const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  display_spin (400);
  /* the window has nothing to give while a frame is pending: on a busy
   * machine, wait for the next one */
  for (guint i = 0; !hp_window_save_screenshot (window, path, &error); i++)
    {
      if (i == 20)
        g_error ("%s", error->message);
      g_clear_error (&error);
      gtk_widget_queue_draw (GTK_WIDGET (window));
      display_spin (200);
    }
  printf ("wrote %s\n", path);
}

static int
run (HpApplication *app)
{
  const char *capture = args[1];
  const char *outdir = args[2];
  const char *function = args[3];
  g_autofree char *base = g_path_get_basename (capture);
  g_autofree char *copy = g_build_filename (display_tmpdir (), base, NULL);
  g_autofree char *contents = NULL;
  g_autofree char *bad = g_build_filename (display_tmpdir (), "notes.hotpath", NULL);
  gsize length;
  HpWindow *window;
  int width = 1280, height = 800;

  if (g_getenv ("SCREENSHOT_SIZE") != NULL && sscanf (g_getenv ("SCREENSHOT_SIZE"), "%dx%d", &width, &height) != 2)
    g_error ("SCREENSHOT_SIZE must be WIDTHxHEIGHT, not %s", g_getenv ("SCREENSHOT_SIZE"));
  if (g_strcmp0 (g_getenv ("SCREENSHOT_DARK"), "1") == 0)
    g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);

  g_assert_true (g_file_get_contents (capture, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (copy, contents, length, NULL));
  g_mkdir_with_parents (outdir, 0755);

  window = hp_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  shot (window, outdir, "empty.png");
  gtk_window_destroy (GTK_WINDOW (window));

  window = display_open_sized (app, copy, width, height);
  if (g_strcmp0 (g_getenv ("SCREENSHOT_MERGE"), "1") == 0)
    {
      gtk_widget_activate_action (GTK_WIDGET (window), "win.merge-recursion", NULL);
      for (guint i = 0; i < 100 && hp_window_is_filtering (window); i++)
        display_spin (50);
    }
  if (function != NULL)
    {
      gtk_widget_activate_action (GTK_WIDGET (window), "win.select-function", "s", function);
      display_wait_source (window);
    }
  /* the summary is written after opening, so a small window has folded
   * its pane away: shown, as once the user writes one */
  g_object_set (window, "show-summary", TRUE, NULL);
  if (hp_summary_pane_get_editable (hp_window_get_summary_pane (window)))
    hp_summary_pane_set_text (hp_window_get_summary_pane (window),
                              g_getenv ("SCREENSHOT_SUMMARY") != NULL ? g_getenv ("SCREENSHOT_SUMMARY") :
                              "The tokenizer: splits the generated text into words and counts each one. "
                              "Most of its time is the strncmp of count_word looking a word up in its bucket; "
                              "a longer hash table (fewer entries per bucket) should help.");
  display_spin (800);
  shot (window, outdir, "main.png");

  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "calls");
  shot (window, outdir, "calls.png");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "flame");
  shot (window, outdir, "flame.png");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "timeline");
  {
    HpTimelineView *view = hp_window_get_timeline_view (window);

    for (guint i = 0; i < 100 && hp_timeline_view_get_samples (view) == NULL &&
                      hp_timeline_view_get_notice (view) != NULL && !timeless (view); i++)
      display_spin (50);
    /* an import without times says why it has no timeline */
    if (timeless (view))
      shot (window, outdir, "timeline.png");
    if (hp_timeline_view_get_samples (view) != NULL)
      {
        HpSampleIndex *samples = hp_timeline_view_get_samples (view);
        guint64 start = hp_sample_index_get_start (samples), end = hp_sample_index_get_end (samples);

        /* the middle third of the recording */
        hp_timeline_set_selection (hp_timeline_view_get_timeline (view), TRUE,
                                   start + (end - start) / 3, start + 2 * (end - start) / 3);
        shot (window, outdir, "timeline.png");
        hp_timeline_set_selection (hp_timeline_view_get_timeline (view), FALSE, 0, 0);
      }
  }
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "source");

  gtk_widget_activate_action (GTK_WIDGET (window), "win.tree-mode", "s", "bottom-up");
  display_wait_source (window);
  shot (window, outdir, "bottom-up.png");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tree-mode", "s", "top-down");

  /* SCREENSHOT_SEARCH: what to find (the demo's words by default) */
  gtk_editable_set_text (GTK_EDITABLE (hp_window_get_search_entry (window)),
                         g_getenv ("SCREENSHOT_SEARCH") != NULL ? g_getenv ("SCREENSHOT_SEARCH") : "word");
  display_spin (600);
  display_wait_source (window);
  shot (window, outdir, "search.png");
  display_close (window);

  g_assert_true (g_file_set_contents (bad, "just some notes\n", -1, NULL));
  window = display_open_sized (app, bad, width, height);
  shot (window, outdir, "error.png");
  display_close (window);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  if (argc < 3)
    {
      g_printerr ("usage: make-screenshots CAPTURE OUTDIR [FUNCTION]\n");
      return 2;
    }
  args = g_strdupv (argv);
  return display_run (1, argv, run);
}
