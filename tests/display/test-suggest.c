/* test-suggest.c - Suggest in the window: draft, summarizer, accept, edit, discard
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The synthetic capture of display-common.c, whose source file is
 * rewritten here with doc comments on its blank lines (so no line of code
 * moves): the window opens on main → run_alpha → alpha_leaf (600 of 1000
 * samples; line 12 has 500, line 11 has 100). Suggest drafts from the
 * code, shows the suggestion apart and saves nothing until it is used;
 * Use as Summary saves it as edited; Discard and another path drop it. A
 * summarizer script's answer replaces the draft; its failure shows its
 * stderr and the draft; one that never ends is cancelled or times out,
 * and the main loop runs meanwhile; megabytes or bytes that are not UTF-8
 * are refused.
 *
 * With --screenshots DIR it also writes DIR/suggestion.png
 * (SCREENSHOT_SIZE=WxH, SCREENSHOT_DARK=1 as make-screenshots.c).
 */

#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "display-common.h"
#include "ui/hp-window-png.h"

static const char *screenshot_dir;
static HpApplication *the_app;

/* display-common.c's source with comments in place of its blank lines */
static const char documented_source[] =
  "/* paths.c - the display tests' synthetic program */\n"              /*  1 */
  "// Shared by both halves: the work itself.\n"                        /*  2 */
  "static void shared_leaf (int units)\n"                                /*  3 */
  "{\n"
  "  work (units);\n"                                                    /*  5 */
  "}\n"
  "/* Burns the alpha share of the work, most of it at line 12. */\n"   /*  7 */
  "static void alpha_leaf (void)\n"                                      /*  8 */
  "{\n"
  "  prepare ();\n"                                                      /* 10 */
  "  work (2);\n"                                                        /* 11 */
  "  work (10);\n"                                                       /* 12 */
  "}\n"
  "\n"
  "static void beta_leaf (void)\n"                                       /* 15 */
  "{\n"
  "  work (4);\n"                                                        /* 17 */
  "}\n"
  "// Runs the alpha half of the program.\n"                             /* 19 */
  "static void run_alpha (void)\n"                                       /* 20 */
  "{\n"
  "  alpha_leaf ();\n"                                                   /* 22 */
  "  shared_leaf (3);\n"                                                 /* 23 */
  "}\n"
  "\n"
  "static void run_beta (void)\n"                                        /* 26 */
  "{\n"
  "  beta_leaf ();\n"                                                    /* 28 */
  "  shared_leaf (1);\n"                                                 /* 29 */
  "}\n"
  "/** main: loops over both halves until it is stopped. */\n"          /* 31 */
  "int main (void)\n"                                                    /* 32 */
  "{\n"
  "  for (;;) { run_alpha (); run_beta (); }\n"                          /* 34 */
  "}\n";

static char *
write_script (const char *name,
              const char *body)
{
  g_autofree char *path = g_build_filename (display_tmpdir (), name, NULL);
  g_autofree char *text = g_strconcat ("#!/bin/sh\n", body, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return g_steal_pointer (&path);
}

static HpWindow *
open_documented (void)
{
  g_autofree char *source = NULL;
  g_autofree char *capture = display_make_capture ("suggest.hotpath", TRUE, &source);
  int width = 1280, height = 800;
  HpWindow *window;

  g_assert_true (g_file_set_contents (source, documented_source, -1, NULL));
  if (g_getenv ("SCREENSHOT_SIZE") != NULL)
    g_assert_cmpint (sscanf (g_getenv ("SCREENSHOT_SIZE"), "%dx%d", &width, &height), ==, 2);
  window = display_open_sized (the_app, capture, width, height);
  display_spin (200);
  return window;
}

static gboolean
not_running (gpointer data)
{
  return hp_suggest_box_get_state (data) != HP_SUGGEST_RUNNING;
}

static void
suggest (HpSuggestBox *box)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (box), "suggest.run", NULL));
  g_assert_cmpint (hp_suggest_box_get_state (box), ==, HP_SUGGEST_RUNNING);
  g_assert_true (display_wait (not_running, box, 30000));
}

typedef struct {
  HpSummaryStore *store;
  const char     *key;
  const char     *text;
} Saved;

static gboolean
is_saved (gpointer data)
{
  Saved *s = data;

  return hp_summary_store_get_n_pending (s->store) == 0 &&
         g_strcmp0 (hp_summary_store_get (s->store, s->key), s->text) == 0;
}

/* Suggest, Use as Summary (edited), Suggest again, Discard */
static void
test_draft_accept_discard (void)
{
  HpWindow *window = open_documented ();
  HpSuggestBox *box = hp_window_get_suggest_box (window);
  HpSummaryPane *pane = hp_window_get_summary_pane (window);
  HpSummaryStore *store = hp_window_get_summary_store (window);
  g_autofree char *key = NULL;
  g_autofree char *text = NULL;
  g_autofree char *edited = NULL;
  g_autofree char *pane_text = NULL;
  Saved saved;

  g_assert_cmpstr (display_selected_name (window), ==, "alpha_leaf");
  key = g_strdup (hp_summary_pane_get_key (pane));
  g_assert_nonnull (key);
  g_assert_null (hp_summary_store_get (store, key));

  suggest (box);
  g_assert_cmpint (hp_suggest_box_get_state (box), ==, HP_SUGGEST_SHOWN);
  text = hp_suggest_box_get_text (box);
  g_test_message ("%s", text);
  g_assert_true (g_str_has_prefix (text, "main → run_alpha → alpha_leaf: 60.0 % of all samples (600 of 1000), "
                                         "100.0 % of them in alpha_leaf itself."));
  g_assert_nonnull (strstr (text, "- main: loops over both halves until it is stopped."));
  g_assert_nonnull (strstr (text, "- run_alpha: Runs the alpha half of the program."));
  g_assert_nonnull (strstr (text, "- alpha_leaf: Burns the alpha share of the work, most of it at line 12."));
  g_assert_nonnull (strstr (text, "- line 12, 83.3 % of the path: `work (10);`"));
  g_assert_nonnull (strstr (text, "- line 11, 16.7 % of the path: `work (2);`"));
  g_assert_nonnull (strstr (hp_suggest_box_get_status (box), "not saved"));
  g_assert_null (hp_suggest_box_get_error (box));

  if (screenshot_dir != NULL)
    {
      g_autofree char *png = g_build_filename (screenshot_dir, "suggestion.png", NULL);

      g_autoptr(GError) error = NULL;

      display_spin (1000);
      if (!hp_window_save_png (GTK_WINDOW (window), png, &error))
        g_error ("%s", error->message);
    }

  /* shown, never saved unasked */
  display_spin (HP_SUMMARY_SAVE_DELAY_MS * 2);
  g_assert_null (hp_summary_store_get (store, key));
  pane_text = hp_summary_pane_get_text (pane);
  g_assert_cmpstr (pane_text, ==, "");

  /* edited, then used: saved as edited */
  edited = g_strconcat (text, "\nTry: a table instead of the loop.", NULL);
  hp_suggest_box_set_text (box, edited);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (box), "suggest.accept", NULL));
  g_assert_cmpint (hp_suggest_box_get_state (box), ==, HP_SUGGEST_IDLE);
  saved = (Saved) { store, key, edited };
  g_assert_true (display_wait (is_saved, &saved, 10000));
  g_clear_pointer (&pane_text, g_free);
  pane_text = hp_summary_pane_get_text (pane);
  g_assert_cmpstr (pane_text, ==, edited);

  /* a new suggestion, discarded: the summary stays */
  suggest (box);
  g_assert_cmpint (hp_suggest_box_get_state (box), ==, HP_SUGGEST_SHOWN);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (box), "suggest.discard", NULL));
  g_assert_cmpint (hp_suggest_box_get_state (box), ==, HP_SUGGEST_IDLE);
  display_spin (HP_SUMMARY_SAVE_DELAY_MS * 2);
  g_assert_cmpstr (hp_summary_store_get (store, key), ==, edited);

  /* another path drops a suggestion not used */
  suggest (box);
  g_assert_cmpint (hp_suggest_box_get_state (box), ==, HP_SUGGEST_SHOWN);
  hp_summary_pane_activate_crumb (pane, 1);
  display_spin (100);
  g_assert_cmpstr (display_selected_name (window), ==, "run_alpha");
  g_assert_cmpint (hp_suggest_box_get_state (box), ==, HP_SUGGEST_IDLE);
  g_assert_cmpstr (hp_summary_store_get (store, key), ==, edited);

  display_close (window);
}

/* Counts main-loop iterations: the loop must run while a summarizer does. */
static gboolean
tick (gpointer data)
{
  (*(guint *) data)++;
  return G_SOURCE_CONTINUE;
}

static gboolean
running (gpointer data)
{
  return hp_suggest_box_get_state (data) == HP_SUGGEST_RUNNING;
}

static void
test_summarizer (void)
{
  HpWindow *window = open_documented ();
  HpSuggestBox *box = hp_window_get_suggest_box (window);
  HpSummaryStore *store = hp_window_get_summary_store (window);
  const char *key = hp_summary_pane_get_key (hp_window_get_summary_pane (window));
  g_autofree char *received = g_build_filename (display_tmpdir (), "received.json", NULL);
  g_autofree char *body = g_strdup_printf ("cat > '%s'\necho 'Alpha burns most of it; line 12 is the loop.'\n", received);
  g_autofree char *ok = write_script ("ok.sh", body);
  g_autofree char *failing = write_script ("fail.sh", "echo 'error: no model file' >&2\nexit 2\n");
  g_autofree char *endless = write_script ("endless.sh", "exec sleep 600\n");
  g_autofree char *flood = write_script ("flood.sh", "head -c 20000000 /dev/zero | tr '\\0' x\n");
  g_autofree char *binary = write_script ("binary.sh", "printf 'ok \\377\\376\\n'\n");
  g_autofree char *text = NULL;
  g_autofree char *json = NULL;
  g_autofree char *draft = NULL;
  guint ticks = 0;
  guint tick_id;
  gint64 start;

  g_object_set (box, "command", ok, NULL);
  suggest (box);
  text = hp_suggest_box_get_text (box);
  g_assert_cmpstr (text, ==, "Alpha burns most of it; line 12 is the loop.");
  g_assert_true (g_file_get_contents (received, &json, NULL, NULL));
  g_assert_true (g_str_has_prefix (json, "{\"program\":\"paths\",\"path\":[{\"name\":\"main\""));
  g_assert_nonnull (strstr (json, "\"source\":\"Burns the alpha share of the work, most of it at line 12.\""));
  g_assert_nonnull (strstr (json, "\"hot_lines\":[{\"line\":12,\"self\":500,\"total\":500,\"text\":\"work (10);\"}"));
  g_assert_nonnull (strstr (json, "\"samples\":1000"));
  g_assert_null (hp_summary_store_get (store, key));

  /* failure: the error, its stderr, and the draft instead */
  g_object_set (box, "command", failing, NULL);
  suggest (box);
  g_assert_cmpint (hp_suggest_box_get_state (box), ==, HP_SUGGEST_SHOWN);
  g_assert_nonnull (hp_suggest_box_get_error (box));
  g_assert_nonnull (strstr (hp_suggest_box_get_error (box), "exited with status 2"));
  g_assert_cmpstr (hp_suggest_box_get_stderr (box), ==, "error: no model file");
  draft = hp_suggest_box_get_text (box);
  g_assert_true (g_str_has_prefix (draft, "main → run_alpha → alpha_leaf: 60.0 %"));
  g_assert_nonnull (strstr (hp_suggest_box_get_status (box), "failed"));

  /* never ends: the main loop runs meanwhile, and Cancel stops it */
  g_object_set (box, "command", endless, NULL);
  tick_id = g_timeout_add (10, tick, &ticks);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (box), "suggest.run", NULL));
  display_spin (1000);
  g_assert_cmpint (hp_suggest_box_get_state (box), ==, HP_SUGGEST_RUNNING);
  g_assert_cmpuint (ticks, >, 0);
  g_assert_null (hp_suggest_box_get_error (box));
  start = g_get_monotonic_time ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (box), "suggest.cancel", NULL));
  g_assert_cmpint (hp_suggest_box_get_state (box), ==, HP_SUGGEST_IDLE);
  g_assert_cmpstr (hp_suggest_box_get_status (box), ==, "Cancelled");
  display_spin (200);
  g_assert_cmpint (hp_suggest_box_get_state (box), ==, HP_SUGGEST_IDLE);
  g_source_remove (tick_id);

  /* ... or its timeout does */
  g_object_set (box, "timeout", 1, NULL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (box), "suggest.run", NULL));
  g_assert_true (display_wait (running, box, 1000));
  g_assert_true (display_wait (not_running, box, 30000));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 30 * G_USEC_PER_SEC);
  g_assert_nonnull (strstr (hp_suggest_box_get_error (box), "no answer within 1 s"));

  /* hostile output */
  g_object_set (box, "command", flood, "timeout", 60, NULL);
  suggest (box);
  g_assert_nonnull (strstr (hp_suggest_box_get_error (box), "more than 256 KiB"));
  g_object_set (box, "command", binary, NULL);
  suggest (box);
  g_assert_nonnull (strstr (hp_suggest_box_get_error (box), "not UTF-8"));
  g_assert_null (hp_summary_store_get (store, key));

  g_object_set (box, "command", "", NULL);
  display_close (window);
}

static gboolean
is_button_labelled (GtkWidget    *widget,
                    gconstpointer label)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0;
}

static gboolean
is_suggestion_frame (GtkWidget    *widget,
                     gconstpointer data)
{
  return GTK_IS_SCROLLED_WINDOW (widget) && gtk_widget_has_css_class (widget, "suggestion");
}

/* At 1024×700 the summary is the bottom pane's Summary page, fitted to
 * its content when shown. A suggestion then makes the content taller:
 * the page grows again (up to half the call tree's height), so that
 * "Use as Summary" needs no scrolling, or less. It stayed as it was: the page was
 * fitted only when shown, and on a 200-deep recursion Suggest itself
 * stayed below the fold. A height the user chose stays. */
static void
test_small_screen_fit (void)
{
  g_autofree char *source = NULL;
  g_autofree char *capture = display_make_capture ("suggest-small.hotpath", TRUE, &source);
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  HpWindow *window;
  HpSuggestBox *box;
  GtkWidget *stack, *scrolled, *accept;
  GtkPaned *side;
  graphene_rect_t bounds;
  int before, moved;

  g_assert_true (g_file_set_contents (source, documented_source, -1, NULL));
  /* whatever an earlier test of this process left (memory backend) */
  g_settings_reset (settings, "side-paned-position");
  window = display_open_sized (the_app, capture, 1024, 700);
  box = hp_window_get_suggest_box (window);
  g_object_set (window, "show-summary", TRUE, NULL);
  display_spin (500);
  stack = gtk_widget_get_ancestor (GTK_WIDGET (hp_window_get_summary_pane (window)), GTK_TYPE_STACK);
  scrolled = gtk_widget_get_ancestor (GTK_WIDGET (hp_window_get_summary_pane (window)), GTK_TYPE_SCROLLED_WINDOW);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "summary");
  before = gtk_widget_get_height (stack);

  suggest (box);
  g_assert_cmpint (hp_suggest_box_get_state (box), ==, HP_SUGGEST_SHOWN);
  display_spin (500);
  accept = display_find_widget (GTK_WIDGET (box), is_button_labelled, "_Use as Summary");
  g_assert_nonnull (accept);
  g_assert_true (gtk_widget_compute_bounds (accept, scrolled, &bounds));
  g_test_message ("Summary page %d px high before the suggestion, %d px after; Use as Summary at y %.0f–%.0f of %d",
                  before, gtk_widget_get_height (stack), bounds.origin.y, bounds.origin.y + bounds.size.height,
                  gtk_widget_get_height (scrolled));
  g_assert_cmpint (gtk_widget_get_height (stack), >, before);
  side = GTK_PANED (gtk_widget_get_ancestor (stack, GTK_TYPE_PANED));
  /* the page does not scroll: the suggestion scrolls within its frame,
   * and its buttons are in view (they were 66 px below the fold) */
  {
    GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
    GtkWidget *text = display_find_widget (GTK_WIDGET (box), is_suggestion_frame, NULL);
    graphene_rect_t text_bounds;

    g_test_message ("page content %.0f px in %.0f", gtk_adjustment_get_upper (adjustment),
                    gtk_adjustment_get_page_size (adjustment));
    g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), <=, gtk_adjustment_get_page_size (adjustment) + 1);
    g_assert_cmpfloat (bounds.origin.y, >=, 0);
    g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (scrolled));
    g_assert_nonnull (text);
    g_assert_true (gtk_widget_compute_bounds (text, scrolled, &text_bounds));
    g_assert_cmpfloat (text_bounds.origin.y + text_bounds.size.height, <=, gtk_widget_get_height (scrolled) + 1);
    /* two lines of it at least */
    g_assert_cmpfloat (text_bounds.size.height, >=, 40);
  }
  if (screenshot_dir != NULL)
    {
      g_autofree char *png = g_build_filename (screenshot_dir, "suggestion-small.png", NULL);
      g_autoptr(GError) error = NULL;

      if (!hp_window_save_png (GTK_WINDOW (window), png, &error))
        g_error ("%s", error->message);
    }

  /* the user's height stays */
  moved = gtk_paned_get_position (side) + 60;
  gtk_paned_set_position (side, moved);
  display_spin (300);
  g_assert_cmpint (gtk_paned_get_position (side), ==, moved);
  /* nor is it undone by a fit that comes later: the timeline's samples
   * read in the background (late on a loaded machine) fitted the page
   * again over the user's height */
  g_signal_emit_by_name (hp_window_get_timeline_view (window), "samples-loaded");
  display_spin (300);
  g_assert_cmpint (gtk_paned_get_position (side), ==, moved);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (box), "suggest.discard", NULL));
  display_spin (300);
  g_assert_cmpint (gtk_paned_get_position (side), ==, moved);
  display_close (window);
  g_settings_reset (settings, "side-paned-position");
}

/* Ten threads of one process, each sampled in a call chain 25 deep: a
 * timeline and a flame graph taller than the bottom pane's share. */
static void
write_tall (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 module, stack = 0;
  guint64 t = 1000000000;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  hp_capture_writer_set_metadata_int (w, "frequency", 1000);
  hp_capture_writer_set_process (w, 100, "app");
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *name = g_strdup_printf ("worker-%u", i);

      hp_capture_writer_set_thread (w, 101 + i, 100, name);
    }
  module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  for (guint d = 0; d < 25; d++)
    {
      g_autofree char *name = g_strdup_printf ("level_%u", d);

      stack = hp_capture_writer_intern_stack (w, stack, hp_capture_writer_intern_frame (
                                                w, hp_capture_writer_intern_function (w, name, module, NULL, 0),
                                                NULL, 0, FALSE, 0x100 * (d + 1)));
      for (guint i = 0; i < 10; i++)
        for (guint n = 0; n < 20; n++)
          hp_capture_writer_add_sample (w, t += 1000000, 101 + i, 0, stack, 1000000);
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
}

static gboolean
timeline_shown (gpointer data)
{
  return hp_timeline_view_get_samples (data) != NULL;
}

/* At 1280×800 the summary pane is beside the call tree, as high as it.
 * The Timeline (and now the Flame Graph) take some of the tree's height
 * for their lanes and rows: the summary and Suggest were squeezed with
 * the tree, Suggest cut at the bottom of the summary's scrolled area. The
 * summary keeps its height (the Summaries list gives way), and a page
 * takes no more than half while the summary is beside it. */
static void
test_beside_pages (void)
{
  g_autofree char *capture = g_build_filename (display_tmpdir (), "suggest-beside.hotpath", NULL);
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  const char *pages[] = { "timeline", "flame", "calls", "timeline" };
  HpWindow *window;
  GtkWidget *scrolled, *suggest_button;

  g_settings_reset (settings, "side-paned-position");
  g_settings_reset (settings, "summary-paned-position");
  write_tall (capture);
  window = display_open_sized (the_app, capture, 1280, 800);
  g_object_set (window, "show-summary", TRUE, NULL);
  display_spin (300);
  scrolled = gtk_widget_get_ancestor (GTK_WIDGET (hp_window_get_summary_pane (window)), GTK_TYPE_SCROLLED_WINDOW);
  suggest_button = display_find_widget (GTK_WIDGET (hp_window_get_suggest_box (window)), is_button_labelled, "_Suggest");
  g_assert_nonnull (suggest_button);
  /* beside the tree, not a page of the bottom pane */
  g_assert_false (gtk_widget_is_ancestor (scrolled, gtk_widget_get_parent (GTK_WIDGET (hp_window_get_timeline_view (window)))));
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      graphene_rect_t bounds;

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", pages[i]));
      if (g_str_equal (pages[i], "timeline"))
        g_assert_true (display_wait (timeline_shown, hp_window_get_timeline_view (window), 10000));
      display_spin (500);
      g_assert_true (gtk_widget_compute_bounds (suggest_button, scrolled, &bounds));
      g_test_message ("%s: Suggest at y %.0f–%.0f of the summary's %d px; the call tree %d px", pages[i],
                      bounds.origin.y, bounds.origin.y + bounds.size.height, gtk_widget_get_height (scrolled),
                      gtk_widget_get_height (gtk_widget_get_ancestor (scrolled, GTK_TYPE_PANED)));
      g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (scrolled));
    }
  display_close (window);
  g_settings_reset (settings, "side-paned-position");
  g_settings_reset (settings, "summary-paned-position");
}

static int
run (HpApplication *app)
{
  the_app = app;
  if (g_strcmp0 (g_getenv ("SCREENSHOT_DARK"), "1") == 0)
    g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  g_test_add_func ("/suggest/draft-accept-discard", test_draft_accept_discard);
  g_test_add_func ("/suggest/summarizer", test_summarizer);
  g_test_add_func ("/suggest/small-screen-fit", test_small_screen_fit);
  g_test_add_func ("/suggest/beside-pages", test_beside_pages);
  return g_test_run ();
}

int
main (int   argc,
      char *argv[])
{
  screenshot_dir = display_take_screenshots_option (&argc, argv);
  return display_run (argc, argv, run);
}
