/* test-summary-offer.c - summaries from earlier captures, in the real window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The per-user library (the private XDG data home of display_run())
 * holds summaries of the program "paths", the display tests' synthetic
 * capture: two for paths it has and no summary for (one by its exact
 * key, one through a GCC clone name), one for a path it lacks and one for
 * a path the capture has its own summary for. Opening the capture offers
 * exactly the first two; Apply writes them with where they were written;
 * the summary pane says so with the share then and now. The setting turns
 * the offer off (and on). A library that is not one is a warning in the
 * banner, and the capture opens all the same. Import Summaries From…
 * places what it can and keeps the rest, saying so.
 *
 * With SUMMARY_OFFER_SCREENSHOT=FILE.png it also saves the window with
 * the offer shown (the README's picture: build-aux/make-screenshots.sh),
 * and FILE-applied.png after Apply, a summary of earlier selected.
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#include "store/hp-summary-library.h"
#include "ui/hp-flame-canvas.h"
#include "ui/hp-summary-item.h"
#include "display-common.h"

static HpApplication *app;

#define KEY_ALPHA  "paths\tmain\npaths\trun_alpha\n"
#define KEY_LEAF   "paths\tmain\npaths\trun_alpha\npaths\talpha_leaf\n"
#define KEY_MAIN   "paths\tmain\n"

static HpCaptureSummary *
summary_new (const char *key,
             const char *text,
             double      share)
{
  HpCaptureSummary *summary = g_new0 (HpCaptureSummary, 1);

  summary->path_key = g_strdup (key);
  summary->path = g_strdup ("earlier path");
  summary->text = g_strdup (text);
  summary->created = g_strdup ("2026-01-02T03:04:05Z");
  summary->updated = g_strdup ("2026-01-02T03:04:05Z");
  summary->capture = g_strdup ("earlier.hotpath");
  summary->share = share;
  summary->found = TRUE;
  return summary;
}

static char *
library_path (void)
{
  return hp_summary_library_default_path ();
}

static void
fill_library (void)
{
  g_autofree char *path = library_path ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HpSummaryLibrary) library = NULL;
  g_autoptr(HpCaptureSummary) alpha = summary_new (KEY_ALPHA, "The alpha phase.", 40.0);
  g_autoptr(HpCaptureSummary) leaf = summary_new ("paths\tmain\npaths\trun_alpha\npaths\talpha_leaf.part.0\n",
                                                  "The alpha leaf, a clone then.", 50.0);
  g_autoptr(HpCaptureSummary) lost = summary_new ("paths\tmain\npaths\tnot_here\n", "Not in this one.", 5.0);
  g_autoptr(HpCaptureSummary) main_s = summary_new (KEY_MAIN, "The library's main.", 100.0);
  g_autoptr(HpCaptureSummary) other = summary_new (KEY_ALPHA, "Another program's.", 1.0);

  g_unlink (path);
  library = hp_summary_library_open (NULL, &error);
  g_assert_no_error (error);
  g_assert_true (hp_summary_library_put (library, "paths", alpha, &error));
  g_assert_true (hp_summary_library_put (library, "paths", leaf, &error));
  g_assert_true (hp_summary_library_put (library, "paths", lost, &error));
  g_assert_true (hp_summary_library_put (library, "paths", main_s, &error));
  g_assert_true (hp_summary_library_put (library, "other", other, &error));
  g_assert_no_error (error);
}

static gboolean
offer_settled (gpointer data)
{
  HpWindow *window = data;

  return g_strcmp0 (hp_window_get_state (window), "capture") == 0 &&
         !hp_summary_offer_is_busy (hp_window_get_summary_offer (window));
}

static gboolean
flame_shown (gpointer data)
{
  HpFlameView *view = data;

  return !hp_flame_view_is_busy (view) && hp_flame_canvas_get_graph (hp_flame_view_get_canvas (view)) != NULL;
}

static gboolean
store_written (gpointer data)
{
  HpWindow *window = data;
  HpSummaryStore *store = hp_window_get_summary_store (window);

  return store != NULL && hp_summary_store_get_n_pending (store) == 0;
}

static void
close_dialogs (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = g_list_model_get_n_items (toplevels); i > 0; i--)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i - 1);

      if (GTK_IS_MESSAGE_DIALOG (w))
        gtk_window_destroy (GTK_WINDOW (w));
    }
  display_spin (20);
}

/* A capture with its own summary of main. */
static char *
make_capture (const char *name)
{
  g_autofree char *path = display_make_capture (name, FALSE, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = hp_capture_open (path, TRUE, &error);

  g_assert_no_error (error);
  g_assert_true (hp_capture_set_summary (capture, KEY_MAIN, "main", "This capture's own main.", &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

static void
test_offer (void)
{
  g_autofree char *path = make_capture ("offer.hotpath");
  const char *screenshot = g_getenv ("SUMMARY_OFFER_SCREENSHOT");
  HpSummaryOffer *offer;
  HpSummaryStore *store;
  HpWindow *window;
  GtkWindow *shown;
  const HpCaptureSummary *row;
  const char *note;

  fill_library ();
  if (screenshot != NULL)
    window = display_open_for_screenshot (app, path);
  else
    window = display_open (app, path);
  offer = hp_window_get_summary_offer (window);
  g_assert_true (display_wait (offer_settled, window, 20000));
  g_assert_cmpstr (hp_summary_offer_get_text (offer), ==, "2 summaries from earlier captures of paths");
  g_assert_cmpuint (hp_summary_offer_get_n_offered (offer), ==, 2);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (offer)));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (offer)));
  if (screenshot != NULL)
    {
      display_spin (300);
      display_save_png (GTK_WINDOW (window), screenshot);
    }

  shown = hp_summary_offer_show (offer);
  g_assert_nonnull (shown);
  display_spin (50);
  close_dialogs ();

  /* nothing is written before Apply */
  store = hp_window_get_summary_store (window);
  g_assert_null (hp_summary_store_get (store, KEY_ALPHA));
  {
    /* the list is made again once for both summaries, not once each
     * (10 000 rows each time on a capture of as many), and not at all
     * while it is hidden */
    HpSummaryList *list = hp_window_get_summary_list (window);
    guint before = hp_summary_list_get_n_rebuilds (list);

    hp_summary_offer_apply (offer);
    display_spin (50);
    g_test_message ("summary list %s, made %u times", gtk_widget_get_mapped (GTK_WIDGET (list)) ? "shown" : "hidden",
                    hp_summary_list_get_n_rebuilds (list) - before);
    g_assert_cmpuint (hp_summary_list_get_n_rebuilds (list) - before, <=,
                      gtk_widget_get_mapped (GTK_WIDGET (list)) ? 1 : 0);
  }
  g_assert_cmpstr (hp_summary_offer_get_text (offer), ==, "");
  g_assert_cmpstr (hp_summary_store_get (store, KEY_ALPHA), ==, "The alpha phase.");
  g_assert_cmpstr (hp_summary_store_get (store, KEY_LEAF), ==, "The alpha leaf, a clone then.");
  g_assert_cmpstr (hp_summary_store_get (store, KEY_MAIN), ==, "This capture's own main.");
  g_assert_true (display_wait (store_written, window, 10000));
  row = hp_summary_store_get_row (store, KEY_ALPHA);
  g_assert_cmpstr (row->capture, ==, "earlier.hotpath");

  /* the pane says where it was written, and the share then and now */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.select-path", "s", KEY_ALPHA));
  display_spin (100);
  note = hp_summary_pane_get_note (hp_window_get_summary_pane (window));
  g_assert_cmpstr (note, ==, "Written in earlier.hotpath on 2026-01-02, 40.0 % then, 75.0 % now.");
  if (screenshot != NULL && g_str_has_suffix (screenshot, ".png"))
    {
      /* FILE-applied.png: the pane and the Summaries list after Apply */
      g_autofree char *stem = g_strndup (screenshot, strlen (screenshot) - 4);
      g_autofree char *applied = g_strconcat (stem, "-applied.png", NULL);

      display_spin (300);
      display_save_png (GTK_WINDOW (window), applied);
    }

  /* and so do the Summaries list and the flame graph's hover text; the
   * capture's own summary of main says nothing of the kind */
  {
    GListModel *items = hp_summary_list_get_model (hp_window_get_summary_list (window));
    guint n_origins = 0;

    for (guint i = 0; i < g_list_model_get_n_items (items); i++)
      {
        g_autoptr(HpSummaryItem) item = g_list_model_get_item (items, i);

        if (g_strcmp0 (hp_summary_item_get_key (item), KEY_ALPHA) == 0)
          g_assert_cmpstr (hp_summary_item_get_origin (item), ==, note);
        if (g_strcmp0 (hp_summary_item_get_key (item), KEY_MAIN) == 0)
          g_assert_null (hp_summary_item_get_origin (item));
        n_origins += hp_summary_item_get_origin (item) != NULL;
      }
    g_assert_cmpuint (n_origins, ==, 2);
  }
  {
    HpFlameView *flame = hp_window_get_flame_view (window);
    HpFlameCanvas *canvas = hp_flame_view_get_canvas (flame);
    HpFlameGraph *graph;
    const HpFlameBox *boxes;
    guint n = 0, n_checked = 0;

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "flame"));
    g_assert_true (display_wait (flame_shown, flame, 20000));
    graph = hp_flame_canvas_get_graph (canvas);
    boxes = hp_flame_graph_get_boxes (graph, &n);
    for (guint i = 0; i < n; i++)
      if (boxes[i].node != NULL && boxes[i].node->function_id != 0)
        {
          const char *name = hp_profile_get_function_name (hp_flame_graph_get_profile (graph),
                                                           boxes[i].node->function_id);
          g_autofree char *tip = hp_flame_canvas_describe_box (canvas, i);

          if (g_strcmp0 (name, "run_alpha") == 0)
            {
              g_assert_nonnull (strstr (tip, "Summary: The alpha phase.\n"
                                             "Written in earlier.hotpath on 2026-01-02, 40.0 % then, 75.0 % now."));
              n_checked++;
            }
          else if (g_strcmp0 (name, "main") == 0)
            {
              g_assert_nonnull (strstr (tip, "Summary: This capture's own main."));
              g_assert_null (strstr (tip, "Written in"));
              n_checked++;
            }
        }
    g_assert_cmpuint (n_checked, ==, 2);
  }
  display_close (window);

  /* in the file, with its origin */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpCapture) capture = hp_capture_open (path, FALSE, &error);
    g_autoptr(GPtrArray) rows = hp_capture_list_summary_rows (capture, &error);
    guint n_earlier = 0;

    g_assert_no_error (error);
    g_assert_cmpuint (rows->len, ==, 3);
    for (guint i = 0; i < rows->len; i++)
      n_earlier += g_strcmp0 (((HpCaptureSummary *) rows->pdata[i])->capture, "earlier.hotpath") == 0;
    g_assert_cmpuint (n_earlier, ==, 2);
  }

  /* opened again: nothing left to offer */
  window = display_open (app, path);
  g_assert_true (display_wait (offer_settled, window, 20000));
  g_assert_cmpstr (hp_summary_offer_get_text (hp_window_get_summary_offer (window)), ==, "");
  display_close (window);
}

static void
test_setting (void)
{
  g_autofree char *path = make_capture ("setting.hotpath");
  HpWindow *window;
  HpSummaryOffer *offer;

  fill_library ();
  window = hp_window_new (GTK_APPLICATION (app));
  g_object_set (window, "offer-library-summaries", FALSE, NULL);
  gtk_window_present (GTK_WINDOW (window));
  {
    g_autoptr(GFile) file = g_file_new_for_path (path);

    hp_window_open (window, file);
  }
  offer = hp_window_get_summary_offer (window);
  g_assert_true (display_wait (offer_settled, window, 20000));
  display_spin (100);
  g_assert_cmpstr (hp_summary_offer_get_text (offer), ==, "");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (offer)));

  /* the menu's check item */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.offer-library-summaries", NULL));
  g_assert_true (display_wait (offer_settled, window, 20000));
  g_assert_cmpstr (hp_summary_offer_get_text (offer), ==, "2 summaries from earlier captures of paths");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.offer-library-summaries", NULL));
  g_assert_cmpstr (hp_summary_offer_get_text (offer), ==, "");
  /* the setting is kept: on again for the next tests */
  g_object_set (window, "offer-library-summaries", TRUE, NULL);
  display_close (window);
}

static void
test_hostile_library (void)
{
  g_autofree char *path = make_capture ("hostile.hotpath");
  g_autofree char *library = library_path ();
  g_autofree char *folder = g_path_get_dirname (library);
  HpWindow *window;
  const char *text;

  g_mkdir_with_parents (folder, 0700);
  {
    /* a SQLite header, then nothing SQLite can read */
    char junk[4096];

    memset (junk, 0x5a, sizeof junk);
    memcpy (junk, "SQLite format 3", 16);
    g_assert_true (g_file_set_contents (library, junk, sizeof junk, NULL));
  }
  window = display_open (app, path);
  g_assert_true (display_wait (offer_settled, window, 20000));
  g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
  text = hp_summary_offer_get_text (hp_window_get_summary_offer (window));
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "The summary library cannot be used: "));
  g_assert_nonnull (strstr (text, library));
  /* and a summary typed now still reaches the capture */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.select-path", "s", KEY_ALPHA));
  display_spin (50);
  hp_summary_pane_set_text (hp_window_get_summary_pane (window), "Typed with a broken library.");
  display_close (window);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpCapture) capture = hp_capture_open (path, FALSE, &error);
    g_autofree char *text_now = hp_capture_get_summary (capture, KEY_ALPHA, &error);

    g_assert_cmpstr (text_now, ==, "Typed with a broken library.");
  }
  g_unlink (library);
}

static void
test_import (void)
{
  g_autofree char *old = make_capture ("import-old.hotpath");
  g_autofree char *path = display_make_capture ("import-new.hotpath", FALSE, NULL);
  HpWindow *window;
  HpSummaryOffer *offer;
  HpSummaryStore *store;
  const char *report;

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpCapture) capture = hp_capture_open (old, TRUE, &error);

    g_assert_true (hp_capture_set_summary_full (capture, KEY_ALPHA, "main → run_alpha", "Alpha, imported.",
                                                70.0, &error));
    g_assert_true (hp_capture_set_summary_full (capture, "paths\tmain\npaths\tgone\n", "main → gone",
                                                "Gone, imported.", 3.0, &error));
    g_assert_no_error (error);
  }
  window = display_open (app, path);
  offer = hp_window_get_summary_offer (window);
  g_assert_true (display_wait (offer_settled, window, 20000));
  hp_summary_offer_import_path (offer, old);
  g_assert_true (display_wait (offer_settled, window, 20000));
  report = hp_summary_offer_get_report (offer);
  g_test_message ("%s", report);
  g_assert_nonnull (strstr (report, "2 of 3 summaries of import-old.hotpath placed; 1 not found in this capture"));
  g_assert_nonnull (strstr (report, "(exact)"));
  g_assert_nonnull (strstr (report, "Not found in this capture (kept): main → gone"));
  g_assert_nonnull (strstr (report, "70.0 % then, 75.0 % now"));
  close_dialogs ();
  store = hp_window_get_summary_store (window);
  g_assert_cmpstr (hp_summary_store_get (store, KEY_ALPHA), ==, "Alpha, imported.");
  g_assert_cmpstr (hp_summary_store_get (store, "paths\tmain\npaths\tgone\n"), ==, "Gone, imported.");
  g_assert_false (hp_summary_store_get_row (store, "paths\tmain\npaths\tgone\n")->found);
  /* the library has both, the one not found here too: it is per program */
  g_assert_true (display_wait (store_written, window, 10000));
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpSummaryLibrary) library = hp_summary_library_open (NULL, &error);
    g_autoptr(GPtrArray) rows = hp_summary_library_list (library, "paths", &error);
    guint n_imported = 0;

    g_assert_no_error (error);
    for (guint i = 0; i < rows->len; i++)
      {
        const HpCaptureSummary *row = g_ptr_array_index (rows, i);

        if (g_strcmp0 (row->text, "Gone, imported.") == 0 || g_strcmp0 (row->text, "Alpha, imported.") == 0)
          {
            g_assert_cmpstr (row->capture, ==, "import-old.hotpath");
            n_imported++;
          }
      }
    g_assert_cmpuint (n_imported, ==, 2);
  }

  /* not a capture: said, nothing written */
  {
    g_autofree char *junk = g_build_filename (display_tmpdir (), "junk.hotpath", NULL);

    g_assert_true (g_file_set_contents (junk, "junk", -1, NULL));
    hp_summary_offer_import_path (offer, junk);
    g_assert_true (display_wait (offer_settled, window, 20000));
    g_assert_nonnull (strstr (hp_summary_offer_get_report (offer), junk));
    close_dialogs ();
  }
  display_close (window);
}

static gboolean
one_profile (gpointer data)
{
  HpWindow *window = data;
  HpLoadedProfile *shown = hp_call_tree_view_get_profile (hp_window_get_tree_view (window));

  return !hp_window_is_filtering (window) && !hp_window_is_following (window) &&
         !hp_summary_offer_is_busy (hp_window_get_summary_offer (window)) &&
         hp_loaded_capture_get_n_profiles (shown->capture) == 1;
}

static gboolean
timeline_read (gpointer data)
{
  return hp_timeline_view_get_samples (data) != NULL;
}

/* Waits until the window keeps no profile but the one it shows, and
 * says which are alive meanwhile if it does not */
static void
assert_one_profile (HpWindow   *window,
                    const char *after)
{
  HpLoadedProfile *shown = hp_call_tree_view_get_profile (hp_window_get_tree_view (window));

  if (!display_wait (one_profile, window, 10000))
    g_error ("after %s, %u profiles of the capture are alive, not only the one shown",
             after, hp_loaded_capture_get_n_profiles (shown->capture));
}

/* The summary offer places the library's summaries on the first profile
 * and an import on one its worker builds, but keeps neither: a window
 * that filters by a range (or merges recursion, or folds) keeps only
 * the profile it shows, whose predecessors' blocks serve the next
 * build. The offer kept the first profile, both trees, for as long as
 * the capture was open. */
static void
test_lets_go (void)
{
  g_autofree char *old = make_capture ("lets-go-old.hotpath");
  g_autofree char *path = make_capture ("lets-go.hotpath");
  HpWindow *window;
  HpSummaryOffer *offer;
  HpTimelineView *view;
  HpSampleIndex *index;
  guint64 start, end;

  fill_library ();
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpCapture) capture = hp_capture_open (old, TRUE, &error);

    g_assert_true (hp_capture_set_summary_full (capture, KEY_LEAF, "main → run_alpha → alpha_leaf", "Imported leaf.",
                                                30.0, &error));
    g_assert_no_error (error);
  }
  window = display_open (app, path);
  offer = hp_window_get_summary_offer (window);
  g_assert_true (display_wait (offer_settled, window, 20000));
  /* the offer was placed on the first profile */
  g_assert_cmpuint (hp_summary_offer_get_n_offered (offer), ==, 2);

  /* a range replaces the first profile: none but the range's is left */
  view = hp_window_get_timeline_view (window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "timeline"));
  g_assert_true (display_wait (timeline_read, view, 10000));
  index = hp_timeline_view_get_samples (view);
  start = hp_sample_index_get_start (index);
  end = hp_sample_index_get_end (index);
  hp_timeline_set_selection (hp_timeline_view_get_timeline (view), TRUE, start + (end - start) / 3,
                             start + 2 * (end - start) / 3);
  assert_one_profile (window, "a range");
  g_assert_true (hp_call_tree_view_get_profile (hp_window_get_tree_view (window))->has_range);

  /* used: applied, then an import, whose worker builds a profile of the
   * whole capture and lets it go with its result */
  hp_summary_offer_apply (offer);
  g_assert_true (display_wait (store_written, window, 10000));
  assert_one_profile (window, "Apply");
  hp_summary_offer_import_path (offer, old);
  g_assert_true (display_wait (offer_settled, window, 20000));
  g_test_message ("%s", hp_summary_offer_get_report (offer));
  g_assert_nonnull (strstr (hp_summary_offer_get_report (offer), "summaries of lets-go-old.hotpath"));
  close_dialogs ();
  assert_one_profile (window, "an import");

  /* and another range after all that */
  hp_timeline_set_selection (hp_timeline_view_get_timeline (view), TRUE, start, start + (end - start) / 2);
  assert_one_profile (window, "another range");
  display_close (window);
}

static GtkWindow *
find_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = g_list_model_get_n_items (toplevels); i > 0; i--)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i - 1);

      if (GTK_IS_MESSAGE_DIALOG (w))
        return GTK_WINDOW (w);
    }
  return NULL;
}

static gboolean
dialog_shown (gpointer data)
{
  GtkWindow *dialog = find_dialog ();

  return dialog != NULL && gtk_widget_get_mapped (GTK_WIDGET (dialog)) &&
         gtk_widget_get_height (GTK_WIDGET (dialog)) > 0;
}

/* An import of many summaries: the dialog that lists them fits on the
 * screen, its Close button in reach, and the list scrolls. With
 * SUMMARY_IMPORT_SCREENSHOT=FILE.png (SCREENSHOT_SIZE, SCREENSHOT_DARK)
 * it saves the window and the dialog over it. */
static void
test_import_many (void)
{
  g_autofree char *old = make_capture ("many-old.hotpath");
  g_autofree char *path = display_make_capture ("many-new.hotpath", FALSE, NULL);
  const char *screenshot = g_getenv ("SUMMARY_IMPORT_SCREENSHOT");
  int width = 1024, height = 700;
  HpWindow *window;
  HpSummaryOffer *offer;
  GtkWindow *dialog;
  GtkWidget *close;

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpCapture) capture = hp_capture_open (old, TRUE, &error);

    g_assert_no_error (error);
    g_assert_true (hp_capture_set_summary_full (capture, KEY_ALPHA, "main → run_alpha",
                                                "The alpha phase: everything it does is the arithmetic of "
                                                "work(), called twice per round.", 70.0, &error));
    for (guint i = 0; i < 80; i++)
      {
        g_autofree char *key = g_strdup_printf ("paths\tmain\npaths\tgone_%02u\n", i);
        g_autofree char *readable = g_strdup_printf ("main → gone_%02u", i);
        g_autofree char *text = g_strdup_printf ("Path %u of a rebuild that lost it.", i);

        g_assert_true (hp_capture_set_summary_full (capture, key, readable, text, 1.0, &error));
        g_assert_no_error (error);
      }
  }
  if (g_getenv ("SCREENSHOT_SIZE") != NULL)
    g_assert_cmpint (sscanf (g_getenv ("SCREENSHOT_SIZE"), "%dx%d", &width, &height), ==, 2);
  if (g_strcmp0 (g_getenv ("SCREENSHOT_DARK"), "1") == 0)
    g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  window = display_open_sized (app, path, width, height);
  offer = hp_window_get_summary_offer (window);
  g_assert_true (display_wait (offer_settled, window, 20000));
  hp_summary_offer_import_path (offer, old);
  g_assert_true (display_wait (offer_settled, window, 20000));
  g_test_message ("%.300s", hp_summary_offer_get_report (offer));
  g_assert_nonnull (strstr (hp_summary_offer_get_report (offer),
                            "2 of 82 summaries of many-old.hotpath placed; 80 not found in this capture"));
  /* what was placed is listed first, with its rule */
  {
    const char *report = hp_summary_offer_get_report (offer);
    const char *alpha = strstr (report, "main → run_alpha (exact)");

    g_assert_nonnull (alpha);
    g_assert_true (alpha < strstr (report, "Not found in this capture (kept): main → gone_00"));
  }
  g_assert_true (display_wait (dialog_shown, NULL, 20000));
  display_spin (300);
  dialog = find_dialog ();
  g_test_message ("dialog %d×%d over a window of %d×%d", gtk_widget_get_width (GTK_WIDGET (dialog)),
                  gtk_widget_get_height (GTK_WIDGET (dialog)), width, height);
  /* no taller than the window it belongs to */
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (dialog)), <=, height);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (dialog)), <=, width);
  close = gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_CLOSE);
  g_assert_nonnull (close);
  g_assert_true (gtk_widget_get_mapped (close));
  {
    graphene_point_t at;

    g_assert_true (gtk_widget_compute_point (close, GTK_WIDGET (dialog), &GRAPHENE_POINT_INIT (0, 0), &at));
    g_assert_cmpfloat (at.y + gtk_widget_get_height (close), <=, gtk_widget_get_height (GTK_WIDGET (dialog)));
  }
  if (screenshot != NULL)
    {
      g_autofree char *base = g_strndup (screenshot, strlen (screenshot) - strlen (".png"));
      g_autofree char *dialog_png = g_strconcat (base, "-dialog.png", NULL);

      display_save_png (GTK_WINDOW (window), screenshot);
      display_save_png (dialog, dialog_png);
    }
  close_dialogs ();
  display_close (window);
}

/* Writes @n summaries "paths\ta_NNNNN\n" (sorting before every path of
 * the capture) into @path, and @key's with @text when not NULL. */
static void
put_many (const char *path,
          guint       n,
          const char *key,
          const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = hp_capture_open (path, TRUE, &error);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hp_capture_summary_free);

  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *fake = g_strdup_printf ("paths\ta_%05u\n", i);
      g_autofree char *fake_text = g_strdup_printf ("Fake %u.", i);

      g_ptr_array_add (rows, summary_new (fake, fake_text, 1.0));
    }
  if (key != NULL)
    g_ptr_array_add (rows, summary_new (key, text, 1.0));
  g_assert_true (hp_capture_put_summaries (capture, rows, &error));
  g_assert_no_error (error);
}

/* A capture of more summaries than the window holds (10 000, the first
 * by path key): its own summary of main → run_alpha, past them, is "here
 * already" for the library's offer and for an import, which reads the
 * other capture whole. Both judged from the first 10 000 before: the
 * library's alpha was offered, an import wrote over it, and an import's
 * summaries past its first 10 000 were never read. */
static void
test_many_here (void)
{
  g_autofree char *path = make_capture ("many-here.hotpath");
  g_autofree char *old = display_make_capture ("many-here-old.hotpath", FALSE, NULL);
  HpWindow *window;
  HpSummaryOffer *offer;
  const char *report;

  fill_library ();
  put_many (path, 10000, KEY_ALPHA, "This capture's own alpha.");
  /* 9 999 of the same, alpha in its first page, the leaf in the second */
  put_many (old, 9999, KEY_ALPHA, "Alpha, imported.");
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpCapture) capture = hp_capture_open (old, TRUE, &error);

    g_assert_true (hp_capture_set_summary_full (capture, KEY_LEAF, "main → run_alpha → alpha_leaf",
                                                "Leaf, imported.", 50.0, &error));
    g_assert_no_error (error);
  }

  window = display_open (app, path);
  offer = hp_window_get_summary_offer (window);
  g_assert_true (display_wait (offer_settled, window, 60000));
  /* the leaf (a clone then); not alpha nor main, which this capture has */
  g_assert_cmpuint (hp_summary_offer_get_n_offered (offer), ==, 1);
  g_assert_cmpstr (hp_summary_offer_get_text (offer), ==, "1 summary from earlier captures of paths");

  hp_summary_offer_import_path (offer, old);
  g_assert_true (display_wait (offer_settled, window, 60000));
  report = hp_summary_offer_get_report (offer);
  g_test_message ("%.300s", report);
  g_assert_nonnull (strstr (report, "1 of 10001 summaries of many-here-old.hotpath placed; 0 not found in this capture"));
  g_assert_nonnull (strstr (report, "10000 summaries were here already"));
  close_dialogs ();
  g_assert_true (display_wait (store_written, window, 20000));
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpCapture) capture = hp_capture_open (path, FALSE, &error);
    g_autofree char *alpha = hp_capture_get_summary (capture, KEY_ALPHA, &error);
    g_autofree char *leaf = hp_capture_get_summary (capture, KEY_LEAF, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (alpha, ==, "This capture's own alpha.");
    g_assert_cmpstr (leaf, ==, "Leaf, imported.");
  }
  display_close (window);
}

static int
run (HpApplication *application)
{
  app = application;
  g_test_add_func ("/summary-offer/offer", test_offer);
  g_test_add_func ("/summary-offer/setting", test_setting);
  g_test_add_func ("/summary-offer/hostile-library", test_hostile_library);
  g_test_add_func ("/summary-offer/import", test_import);
  g_test_add_func ("/summary-offer/import-many", test_import_many);
  g_test_add_func ("/summary-offer/lets-go", test_lets_go);
  g_test_add_func ("/summary-offer/many-here", test_many_here);
  return g_test_run ();
}

int
main (int   argc,
      char *argv[])
{
  return display_run (argc, argv, run);
}
