/* test-debuginfod.c - the window shows the downloads of debug info while it imports
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 15: with DEBUGINFOD_URLS set, opening a perf.data of a stripped
 * program fetches the program's debug info from a local debuginfod server
 * (the Debian package debuginfod, serving the -g build) in the loading
 * worker. The loading page says which file is being fetched and how much
 * of it has come, the window's main loop runs meanwhile (the page's text
 * changes while the worker still imports), and the names come back.
 * Without the variable nothing is fetched and nothing is said.
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <string.h>
#include <time.h>
#include <utime.h>
#include <glib/gstdio.h>

#include "display-common.h"
#include "document/hp-loaded-capture.h"
#include "symbols/hp-file-locator.h"

static HpApplication *app;

typedef struct {
  GPtrArray *texts;         /* what the loading page said, in order */
  guint      while_loading; /* fetching texts shown while the worker ran */
} Seen;

static void
on_text (GObject    *bar,
         GParamSpec *pspec,
         gpointer    data)
{
  Seen *seen = data;
  const char *text = gtk_progress_bar_get_text (GTK_PROGRESS_BAR (bar));

  if (text == NULL)
    return;
  g_ptr_array_add (seen->texts, g_strdup (text));
  if (strstr (text, "debuginfod") != NULL && hp_loaded_capture_get_n_loading () > 0)
    {
      /* HOTPATH_TEST_SHOT=FILE.png: a picture of the page, to look at */
      const char *shot = g_getenv ("HOTPATH_TEST_SHOT");

      if (seen->while_loading++ == 0 && shot != NULL)
        display_save_png (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (bar))), shot);
    }
}

static gboolean
window_loaded (gpointer data)
{
  const char *state = hp_window_get_state (data);

  return g_strcmp0 (state, "capture") == 0 || g_strcmp0 (state, "error") == 0;
}

static gboolean
has_function (HpWindow   *window,
              const char *name)
{
  const HpCaptureData *data = hp_call_tree_view_get_profile (hp_window_get_tree_view (window))->capture->data;

  for (guint i = 1; i < data->functions->len; i++)
    if (g_strcmp0 (g_array_index (data->functions, HpCaptureFunction, i).name, name) == 0)
      return TRUE;
  return FALSE;
}

/* Opens @perf_data in a new window, noting what its loading page says. */
static HpWindow *
open_seen (const char *perf_data,
           Seen       *seen)
{
  HpWindow *window = hp_window_new (GTK_APPLICATION (app));
  g_autoptr(GFile) file = g_file_new_for_path (perf_data);

  g_signal_connect (hp_window_get_loading_progress (window), "notify::text", G_CALLBACK (on_text), seen);
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 700);
  gtk_window_present (GTK_WINDOW (window));
  hp_window_open (window, file);
  g_assert_true (display_wait (window_loaded, window, 60000));
  g_signal_handlers_disconnect_by_data (hp_window_get_loading_progress (window), seen);
  return window;
}

static void
test_fetch_progress (void)
{
  g_autofree char *debuginfod = g_find_program_in_path ("debuginfod");
  g_autofree char *strip = g_find_program_in_path ("strip");
  g_autofree char *program = g_build_filename (WORKLOAD_DIR, "paths-nofp", NULL);
  g_autofree char *dir = g_build_filename (display_tmpdir (), "debuginfod", NULL);
  g_autofree char *served = g_build_filename (dir, "served", NULL);
  g_autofree char *served_copy = g_build_filename (served, "paths-nofp", NULL);
  g_autofree char *stripped = g_build_filename (dir, "paths-stripped", NULL);
  g_autofree char *db = g_build_filename (dir, "debuginfod.sqlite", NULL);
  g_autofree char *cache = g_build_filename (dir, "cache", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *hex = NULL;
  g_autofree char *url = NULL;
  g_autofree char *perf_data = NULL;
  g_autoptr(GError) error = NULL;
  Seen seen = { g_ptr_array_new_with_free_func (g_free), 0 };
  gboolean fetching_said = FALSE;
  HpWindow *window;
  guint64 offset = 0, size = 0;
  guint8 id[20];
  gsize id_len, len;
  GPid server;

  if (debuginfod == NULL || strip == NULL)
    {
      g_test_skip ("debuginfod (Debian package debuginfod) or strip (binutils) is not installed");
      g_ptr_array_unref (seen.texts);
      return;
    }

  g_assert_cmpint (g_mkdir_with_parents (served, 0755), ==, 0);
  g_assert_true (g_file_get_contents (program, &contents, &len, &error));
  g_assert_true (g_file_set_contents (served_copy, contents, len, &error));
  g_assert_true (g_file_set_contents (stripped, contents, len, &error));
  g_assert_no_error (error);
  {
    const char *argv[] = { strip, stripped, NULL };
    int status = -1;

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error));
    g_assert_no_error (error);
    g_assert_cmpint (status, ==, 0);
  }
  g_assert_false (hp_test_elf_function (stripped, "alpha_leaf", &offset, &size));
  g_assert_true (hp_test_elf_function (program, "alpha_leaf", &offset, &size));
  id_len = hp_test_elf_build_id (program, id);
  hex = hp_build_id_to_hex (id, id_len);
  perf_data = display_write_perf_data (dir, stripped, offset + size / 2, 100000);

  /* unset: nothing is fetched or said, and the code has no name */
  g_unsetenv ("DEBUGINFOD_URLS");
  window = open_seen (perf_data, &seen);
  g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
  g_assert_false (has_function (window, "alpha_leaf"));
  for (guint i = 0; i < seen.texts->len; i++)
    g_assert_null (strstr (seen.texts->pdata[i], "debuginfod"));
  display_close (window);

  /* set: the window says what it fetches, and the names come back; a new
   * modification time makes the import cache import again */
  url = hp_test_debuginfod_start (served, hex, db, &server);
  g_setenv ("DEBUGINFOD_URLS", url, TRUE);
  g_setenv ("DEBUGINFOD_CACHE_PATH", cache, TRUE);
  g_ptr_array_set_size (seen.texts, 0);
  {
    g_autofree char *again = display_write_perf_data (dir, stripped, offset + size / 2, 100000);
    struct utimbuf later = { time (NULL) + 10, time (NULL) + 10 };

    g_assert_cmpint (utime (again, &later), ==, 0);
  }
  window = open_seen (perf_data, &seen);
  g_unsetenv ("DEBUGINFOD_URLS");
  for (guint i = 0; i < seen.texts->len; i++)
    {
      const char *text = seen.texts->pdata[i];

      g_test_message ("loading page: %s", text);
      if (g_str_has_prefix (text, "Fetching debug info for paths-stripped from debuginfod: ")
          && strstr (text, " KiB") != NULL)
        fetching_said = TRUE;
    }
  g_assert_true (fetching_said);
  /* Whether the text arrives while the worker still imports depends on
   * how fast the fetch is against the main loop's next frame, so it is
   * reported, not asserted; that the main loop is free while fetching is
   * what delivered the texts at all. */
  g_test_message ("fetching texts shown while the worker ran: %u", seen.while_loading);
  g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
  g_assert_true (has_function (window, "alpha_leaf"));
  {
    g_autofree char *fetched = g_build_filename (cache, hex, "debuginfo", NULL);

    g_assert_true (g_file_test (fetched, G_FILE_TEST_IS_REGULAR));
  }
  display_close (window);

  hp_test_debuginfod_stop (server);
  g_unsetenv ("DEBUGINFOD_CACHE_PATH");
  g_ptr_array_unref (seen.texts);
}

static int
run (HpApplication *application)
{
  app = application;
  g_test_add_func ("/debuginfod/fetch-progress", test_fetch_progress);
  return g_test_run ();
}

int
main (int   argc,
      char *argv[])
{
  return display_run (argc, argv, run);
}
