/* test-compare-window.c - the compare window on captures known by construction
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Two folders of five captures each, written with the store's writer: a
 * program main → run → {parse, index, score, write, load, sort} whose
 * functions cost 30/20/20/15/10/5 % with a few percent of run-to-run
 * noise common to all and a little of their own; in the new runs
 * score costs 12 % more and write 10 % less, and every function's code is
 * five lines further down. The window must show both sides with their
 * runs in the overview, the minimum detectable effect, the verdicts
 * slower for score, faster for write, neither for parse, and score's
 * line where it moved.
 * An empty folder shows an error naming it. hotpath --compare, run while
 * Hotpath runs, opens the window in the running one.
 *
 * With --screenshots DIR it also writes DIR/compare.png (and the
 * bottom-up and source views beside it), at SCREENSHOT_SIZE=WIDTHxHEIGHT
 * and in the dark style with SCREENSHOT_DARK=1, as make-screenshots.c;
 * with COMPARE_BASE and COMPARE_NEW too, the window on those runs
 * (test_user_runs(): /compare-window/user-runs).
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <glib/gstdio.h>

#include "display-common.h"
#include "store/hp-capture.h"
#include "ui/hp-compare-window.h"

static const char *screenshot_dir;

static char *
source_path (void)
{
  return g_build_filename (display_tmpdir (), "indexer.c", NULL);
}

/* indexer.c: function f of names[] is at line 10 + 10 f */
static void
write_source (void)
{
  static const char *names[] = { "parse", "index", "score", "write", "load", "sort" };
  g_autofree char *path = source_path ();
  GString *text = g_string_new (NULL);

  for (guint line = 1; line <= 70; line++)
    {
      if (line >= 10 && line % 10 == 0)
        g_string_append_printf (text, "  %s_all (items); /* line %u */\n", names[line / 10 - 1], line);
      else
        g_string_append_printf (text, "/* line %u */\n", line);
    }
  g_assert_true (g_file_set_contents (path, text->str, -1, NULL));
  g_string_free (text, TRUE);
}

static gboolean with_truncated;

static void
write_run (const char *path,
           guint       run,
           gboolean    changed)
{
  static const char *names[] = { "parse", "index", "score", "write", "load", "sort" };
  static const double cost[] = { 300, 200, 200, 150, 100, 50 };
  /* per run noise, the same for every function (a busy machine), plus a
   * little of each function's own */
  static const double speed[] = { 1.00, 1.03, 0.98, 1.02, 0.97 };
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 module, main_stack, run_stack;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  hp_capture_writer_set_metadata (w, "command", "/opt/app/indexer --fast");
  module = hp_capture_writer_intern_module (w, "/opt/app/indexer", NULL, FALSE);
  main_stack = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w,
                 hp_capture_writer_intern_function (w, "main", module, NULL, 0), NULL, 0, FALSE, 0x10));
  run_stack = hp_capture_writer_intern_stack (w, main_stack, hp_capture_writer_intern_frame (w,
                hp_capture_writer_intern_function (w, "run", module, NULL, 0), NULL, 0, FALSE, 0x20));
  for (guint f = 0; f < G_N_ELEMENTS (names); f++)
    {
      g_autofree char *source = source_path ();
      /* the new build's lines are those of indexer.c; the base's were five
       * lines higher (lines added above them since) */
      guint line = (changed ? 10 : 5) + 10 * f;
      gint64 stack = hp_capture_writer_intern_stack (w, run_stack, hp_capture_writer_intern_frame (w,
                       hp_capture_writer_intern_function (w, names[f], module, source, line),
                       source, line, FALSE, 0x100 + f));
      double factor = speed[(run + (changed ? 2 : 0)) % 5] * (1 + 0.005 * ((run * 7 + f * 3) % 5) - 0.01);
      guint n;

      if (changed && f == 2)
        factor *= 1.12;
      if (changed && f == 3)
        factor *= 0.90;
      n = (guint) (cost[f] * factor * 10);
      for (guint s = 0; s < n; s++)
        hp_capture_writer_add_sample (w, s, 1, 0, stack, 1000000);
    }
  /* for test_no_module(): a stack that did not reach its thread's start,
   * under "[truncated]", a function of no module (over 5 %, so that the
   * tree opens it) */
  if (with_truncated)
    {
      gint64 truncated = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w,
                           hp_capture_writer_intern_function (w, "[truncated]", 0, NULL, 0), NULL, 0, FALSE, 0));
      gint64 stack = hp_capture_writer_intern_stack (w, truncated, hp_capture_writer_intern_frame (w,
                       hp_capture_writer_intern_function (w, "spill", module, NULL, 0), NULL, 0, FALSE, 0x200));

      for (guint s = 0; s < 600; s++)
        hp_capture_writer_add_sample (w, s, 1, 0, stack, 1000000);
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
}

#define SCORE_KEY "indexer\tmain\nindexer\trun\nindexer\tscore\n"

static char *
make_side (const char *name,
           gboolean    changed)
{
  char *dir = g_build_filename (display_tmpdir (), name, NULL);

  g_mkdir_with_parents (dir, 0700);
  write_source ();
  for (guint r = 0; r < 5; r++)
    {
      g_autofree char *file = g_strdup_printf ("run-%u.hotpath", r);
      g_autofree char *path = g_build_filename (dir, file, NULL);

      write_run (path, r, changed);
      /* a summary in the first run of the base */
      if (r == 0 && !changed)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(HpCapture) capture = hp_capture_open (path, TRUE, &error);

          g_assert_no_error (error);
          g_assert_true (hp_capture_set_summary (capture, SCORE_KEY, "main → run → score",
                                                 "Scores each match against the query.", &error));
        }
    }
  return dir;
}

/* Saves the window as DIR/@name, once it has been drawn: under load the
 * first frame after a change of view can come later than any fixed wait. */
static void
save_screenshot (HpCompareWindow *window,
                 const char      *name)
{
  g_autofree char *png = g_build_filename (screenshot_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  for (guint tries = 0; tries < 50; tries++)
    {
      display_spin (tries == 0 ? 300 : 200);
      g_clear_error (&error);
      if (hp_compare_window_save_screenshot (window, png, &error))
        break;
    }
  g_assert_no_error (error);
  g_print ("# wrote %s\n", png);
}

static gboolean
loaded (gpointer data)
{
  return hp_compare_window_is_loaded (data);
}

static gboolean
details_read (gpointer data)
{
  return !hp_compare_details_is_reading (data);
}

static void
test_compare (void)
{
  g_autofree char *base = make_side ("before", FALSE);
  g_autofree char *new_side = make_side ("after", TRUE);
  const char *bases[] = { base, NULL };
  const char *news[] = { new_side, NULL };
  GApplication *app = g_application_get_default ();
  HpCompareWindow *window = hp_compare_window_new (GTK_APPLICATION (app), bases, news);
  const char *overview;
  int width, height;

  if (g_getenv ("SCREENSHOT_SIZE") != NULL)
    {
      g_assert_cmpint (sscanf (g_getenv ("SCREENSHOT_SIZE"), "%dx%d", &width, &height), ==, 2);
      gtk_window_set_default_size (GTK_WINDOW (window), width, height);
    }
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (display_wait (loaded, window, 30000));
  g_assert_null (hp_compare_window_get_error (window));
  display_spin (300);

  overview = hp_compare_window_get_overview (window);
  g_test_message ("%s", overview);
  g_assert_nonnull (strstr (overview, base));
  g_assert_nonnull (strstr (overview, new_side));
  g_assert_nonnull (strstr (overview, "5 runs"));
  g_assert_nonnull (strstr (overview, "Minimum detectable effect"));
  g_assert_nonnull (strstr (overview, "Welch"));

  g_assert_cmpstr (hp_compare_window_get_row_verdict (window, "main → run → score"), ==, "slower");
  g_assert_cmpstr (hp_compare_window_get_row_verdict (window, "main → run → write"), ==, "faster");
  g_assert_cmpstr (hp_compare_window_get_row_verdict (window, "main → run → parse"), !=, "slower");
  g_assert_cmpstr (hp_compare_window_get_row_verdict (window, "main → run → parse"), !=, "faster");

  g_assert_cmpstr (hp_compare_window_get_summary (window, SCORE_KEY), ==, "Scores each match against the query.");

  /* the details follow the selection: score's caller, run's callees, score's line */
  {
    HpCompareDetails *details = hp_compare_window_get_details (window);
    g_autofree char *callers = NULL;
    g_autofree char *callees = NULL;
    g_autofree char *lines = NULL;

    g_assert_true (hp_compare_window_select_row (window, "main → run → score"));
    g_assert_true (display_wait (details_read, details, 10000));
    callers = hp_compare_details_describe (details, "callers");
    lines = hp_compare_details_describe (details, "source");
    g_test_message ("callers of score:\n%s\nlines of score:\n%s", callers, lines);
    g_assert_true (g_str_has_prefix (callers, "run  [indexer]\t"));
    g_assert_nonnull (strstr (callers, "\tslower\n"));
    /* one line, matched by its distance from score's declaration: by
     * number, 25 (base only) and 30 (new only) */
    g_assert_true (g_str_has_prefix (lines, "indexer.c:30 (was 25)\t"));
    g_assert_nonnull (strstr (lines, "\tslower\n"));
    g_assert_cmpstr (strchr (lines, '\n'), ==, "\n");
    hp_compare_details_show_page (details, "source");
    if (screenshot_dir != NULL)
      save_screenshot (window, "compare-source.png");
    hp_compare_details_show_page (details, "calls");

    g_assert_true (hp_compare_window_select_row (window, "main → run"));
    display_spin (50);
    callees = hp_compare_details_describe (details, "callees");
    g_test_message ("callees of run:\n%s", callees);
    /* flagged first */
    g_assert_true (g_str_has_prefix (callees, "score  [indexer]\t") || g_str_has_prefix (callees, "write  [indexer]\t"));
    g_assert_nonnull (strstr (callees, "write  [indexer]\t"));
    g_assert_nonnull (strstr (callees, "\tfaster\n"));
    g_assert_nonnull (strstr (callees, "parse  [indexer]\t"));
  }

  if (screenshot_dir != NULL)
    save_screenshot (window, "compare.png");  /* the calls page again, drawn */

  /* bottom-up: the leaves first, then their callers */
  hp_compare_window_set_bottom_up (window, TRUE);
  display_spin (300);
  g_assert_cmpstr (hp_compare_window_get_row_verdict (window, "score"), ==, "slower");
  g_assert_cmpstr (hp_compare_window_get_row_verdict (window, "write"), ==, "faster");
  g_assert_cmpstr (hp_compare_window_get_row_verdict (window, "score ← run ← main"), ==, "slower");
  g_assert_null (hp_compare_window_get_row_verdict (window, "main → run → score"));
  if (screenshot_dir != NULL)
    save_screenshot (window, "compare-bottom-up.png");
  hp_compare_window_set_bottom_up (window, FALSE);
  display_spin (100);
  g_assert_cmpstr (hp_compare_window_get_row_verdict (window, "main → run → score"), ==, "slower");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A function of no module ("[truncated]") is shown by its name alone,
 * not as "[truncated]  []". */
static void
test_no_module (void)
{
  g_autofree char *base = NULL;
  g_autofree char *new_side = NULL;
  GApplication *app = g_application_get_default ();
  HpCompareWindow *window;
  HpCompareDetails *details;
  g_autofree char *callers = NULL;

  with_truncated = TRUE;
  base = make_side ("truncated-before", FALSE);
  new_side = make_side ("truncated-after", TRUE);
  with_truncated = FALSE;
  {
    const char *bases[] = { base, NULL };
    const char *news[] = { new_side, NULL };

    window = hp_compare_window_new (GTK_APPLICATION (app), bases, news);
  }
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (display_wait (loaded, window, 30000));
  details = hp_compare_window_get_details (window);
  g_assert_true (hp_compare_window_select_row (window, "[truncated] → spill"));
  g_assert_true (display_wait (details_read, details, 10000));
  callers = hp_compare_details_describe (details, "callers");
  g_test_message ("callers of spill:\n%s", callers);
  g_assert_true (g_str_has_prefix (callers, "[truncated]\t"));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_error (void)
{
  g_autofree char *empty = g_build_filename (display_tmpdir (), "nothing-here", NULL);
  g_autofree char *base = make_side ("base-for-error", FALSE);
  const char *bases[] = { base, NULL };
  const char *news[] = { empty, NULL };
  GApplication *app = g_application_get_default ();
  HpCompareWindow *window;

  g_mkdir_with_parents (empty, 0700);
  window = hp_compare_window_new (GTK_APPLICATION (app), bases, news);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (display_wait (loaded, window, 30000));
  g_assert_nonnull (hp_compare_window_get_error (window));
  g_assert_nonnull (strstr (hp_compare_window_get_error (window), empty));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Whether a window whose title matches @pattern is on the X server,
 * waiting up to 60 s (the program starts and loads under load). */
static gboolean
wait_for_window (const char *xdotool,
                 const char *pattern)
{
  for (guint tries = 0; tries < 600; tries++)
    {
      const char *argv[] = { xdotool, "search", "--name", pattern, NULL };
      g_autofree char *out = NULL;
      int status;

      if (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                        &out, NULL, &status, NULL) &&
          out != NULL && out[0] != '\0')
        return TRUE;
      g_usleep (100000);
    }
  return FALSE;
}

static void
stop (GPid pid)
{
  kill (pid, SIGTERM);
  waitpid (pid, NULL, 0);
  g_spawn_close_pid (pid);
}

/* hotpath --compare BASE NEW as a user types it, with Hotpath already
 * running: the running one opens the compare window (it opened nothing
 * when the window was tied to the second process's own activate), with
 * relative folders taken in the second one's working folder. */
static void
test_command_line (void)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  g_autofree char *base = make_side ("cmd-before", FALSE);
  g_autofree char *new_side = make_side ("cmd-after", TRUE);
  const char *primary_argv[] = { HOTPATH_GUI, NULL };
  const char *compare_argv[] = { HOTPATH_GUI, "--compare", "cmd-before", "cmd-after", NULL };
  g_autoptr(GError) error = NULL;
  GPid primary, second;
  int status = 0;

  if (xdotool == NULL)
    {
      g_test_skip ("xdotool is not installed");
      return;
    }
  g_assert_true (g_spawn_async (display_tmpdir (), (char **) primary_argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                NULL, NULL, &primary, &error));
  g_assert_no_error (error);
  if (!wait_for_window (xdotool, "^Hotpath"))
    {
      stop (primary);
      g_error ("hotpath opened no window");
    }
  g_assert_true (g_spawn_async (display_tmpdir (), (char **) compare_argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                NULL, NULL, &second, &error));
  g_assert_no_error (error);
  waitpid (second, &status, 0);
  g_spawn_close_pid (second);
  if (!wait_for_window (xdotool, "^Compare cmd-before"))
    {
      stop (primary);
      g_error ("hotpath --compare cmd-before cmd-after opened no compare window in the running Hotpath");
    }
  stop (primary);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
}

/* COMPARE_BASE and COMPARE_NEW (folders or captures of your own runs),
 * with --screenshots DIR: the window on them, with the details of the
 * function of COMPARE_ROW (a path as the tree reads it, "main → f") on the
 * source page, to look at: user-compare.png, user-compare-source.png. */
static void
test_user_runs (void)
{
  const char *bases[] = { g_getenv ("COMPARE_BASE"), NULL };
  const char *news[] = { g_getenv ("COMPARE_NEW"), NULL };
  GApplication *app = g_application_get_default ();
  HpCompareWindow *window = hp_compare_window_new (GTK_APPLICATION (app), bases, news);
  int width, height;

  if (g_getenv ("SCREENSHOT_SIZE") != NULL &&
      sscanf (g_getenv ("SCREENSHOT_SIZE"), "%dx%d", &width, &height) == 2)
    gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (display_wait (loaded, window, 120000));
  g_assert_null (hp_compare_window_get_error (window));
  g_test_message ("%s", hp_compare_window_get_overview (window));
  if (g_getenv ("COMPARE_ROW") != NULL && hp_compare_window_select_row (window, g_getenv ("COMPARE_ROW")))
    {
      HpCompareDetails *details = hp_compare_window_get_details (window);
      g_autofree char *lines = NULL;

      g_assert_true (display_wait (details_read, details, 10000));
      lines = hp_compare_details_describe (details, "source");
      g_test_message ("lines:\n%s", lines);
      hp_compare_details_show_page (details, "source");
      save_screenshot (window, "user-compare-source.png");
      hp_compare_details_show_page (details, "calls");
    }
  save_screenshot (window, "user-compare.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

static int
run (HpApplication *app)
{
  if (g_strcmp0 (g_getenv ("SCREENSHOT_DARK"), "1") == 0)
    g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  g_test_add_func ("/compare-window/compare", test_compare);
  g_test_add_func ("/compare-window/no-module", test_no_module);
  g_test_add_func ("/compare-window/error", test_error);
  g_test_add_func ("/compare-window/command-line", test_command_line);
  if (screenshot_dir != NULL && g_getenv ("COMPARE_BASE") != NULL && g_getenv ("COMPARE_NEW") != NULL)
    g_test_add_func ("/compare-window/user-runs", test_user_runs);
  return g_test_run ();
}

int
main (int   argc,
      char *argv[])
{
  screenshot_dir = display_take_screenshots_option (&argc, argv);
  return display_run (argc, argv, run);
}
