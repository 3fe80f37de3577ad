/* test-record.c - recording from the window, driven through its actions under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Each test presses Record (the win.record action), fills in the record
 * dialog, starts it (record.start) and waits for the dialog's result; it
 * then reads the capture that was written with HpCapture and HpProfile,
 * not through the window, and checks that the window shows it.
 *
 * The workloads' split of time is known by construction (see
 * tests/workloads/): paths spends ~60 % of its time in
 * main → run_alpha → alpha_leaf, spin all of it in
 * main → spin_outer → spin_leaf.
 *
 * Recording needs perf_event_open: where it is refused, the tests that
 * record check that the dialog says so and are skipped.
 */

#define G_LOG_DOMAIN "hp-display-test"

#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <glib/gstdio.h>

#include "analysis/hp-profile.h"
#include "store/hp-capture.h"
#include "ui/hp-call-row.h"
#include "ui/hp-record-dialog-private.h"
#include "display-common.h"
#include "../common/test-common.h"

static HpApplication *app;
static char *captures_dir;

/* Helpers ------------------------------------------------------------ */

/* The longest the main loop may go without a progress update. With GTK's
 * GL renderer under Xvfb every frame is drawn by llvmpipe on the same two
 * cores as the recording, and a frame takes much longer than with cairo:
 * those runs measure the software renderer more than the window. */
static gint64
max_gap_us (void)
{
  return g_strcmp0 (g_getenv ("HOTPATH_TEST_RENDERER"), "gl") == 0 ? 4 * G_USEC_PER_SEC : G_USEC_PER_SEC;
}

static HpRecordDialog *
open_dialog (HpWindow *window)
{
  HpRecordDialog *dialog;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.record", NULL));
  display_spin (100);
  dialog = hp_window_get_record_dialog (window);
  g_assert_nonnull (dialog);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  g_assert_cmpstr (hp_record_dialog_get_state (dialog), ==, "setup");
  return dialog;
}

static void
dialog_action (HpRecordDialog *dialog,
               const char     *action,
               GVariant       *parameter)
{
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (dialog), action, parameter));
}

static gboolean
not_preparing (gpointer data)
{
  return g_strcmp0 (hp_record_dialog_get_state (data), "preparing") != 0;
}

static gboolean
left_setup (gpointer data)
{
  return g_strcmp0 (hp_record_dialog_get_state (data), "setup") != 0;
}

static gboolean
ended (gpointer data)
{
  const char *state = hp_record_dialog_get_state (data);

  return g_strcmp0 (state, "done") == 0 || g_strcmp0 (state, "failed") == 0;
}

/* Once started: FALSE (and the test skipped) when perf_event_open is refused */
static gboolean
started (HpRecordDialog *dialog)
{
  g_assert_true (display_wait (not_preparing, dialog, 10000));
  if (g_strcmp0 (hp_record_dialog_get_state (dialog), "failed") == 0 &&
      strstr (hp_record_dialog_get_message (dialog), "perf_event_paranoid") != NULL)
    {
      g_test_skip (hp_record_dialog_get_message (dialog));
      return FALSE;
    }
  if (g_strcmp0 (hp_record_dialog_get_state (dialog), "recording") != 0)
    g_error ("the dialog is %s, not recording: %s", hp_record_dialog_get_state (dialog),
             hp_record_dialog_get_message (dialog));
  return TRUE;
}

static gboolean
start (HpRecordDialog *dialog)
{
  dialog_action (dialog, "record.start", NULL);
  return started (dialog);
}

static void
wait_end (HpRecordDialog *dialog)
{
  /* slow CI machines: the workloads take 2 s on a 2020s core */
  g_assert_true (display_wait (ended, dialog, 90000));
  if (g_strcmp0 (hp_record_dialog_get_state (dialog), "done") != 0)
    g_error ("recording failed: %s: %s", hp_record_dialog_get_title_text (dialog),
             hp_record_dialog_get_message (dialog));
}

static gboolean
window_shows_capture (gpointer data)
{
  const char *state = hp_window_get_state (data);

  return g_strcmp0 (state, "capture") == 0 || g_strcmp0 (state, "error") == 0;
}

static HpWindow *
window_with_file (const char *path)
{
  g_autofree char *name = g_path_get_basename (path);

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (HP_IS_WINDOW (l->data) && g_strcmp0 (gtk_window_get_title (l->data), name) == 0)
      return l->data;
  return NULL;
}

static gdouble
self_share (HpProfile  *profile,
            const char *function)
{
  g_autoptr(GArray) ids = hp_profile_find_functions (profile, function);
  const HpFunctionStats *stats;

  g_assert_cmpuint (ids->len, ==, 1);
  stats = hp_profile_get_function_stats (profile, g_array_index (ids, gint64, 0));
  return (gdouble) stats->self / hp_profile_get_n_samples (profile);
}

/* The hottest path from the root (first children) passes through @steps
 * in order, one after the other. */
static void
assert_hot_path (HpProfile         *profile,
                 const char *const *steps)
{
  const HpCallNode *node = hp_profile_get_top_down (profile);
  g_autoptr(GString) seen = g_string_new (NULL);
  guint matched = 0;

  while (node->children != NULL && steps[matched] != NULL)
    {
      const char *name;

      node = g_ptr_array_index (node->children, 0);
      name = hp_profile_get_function_name (profile, node->function_id);
      g_string_append_printf (seen, "%s ", name);
      if (g_strcmp0 (name, steps[matched]) == 0)
        matched++;
      else if (matched > 0)
        break;
    }
  if (steps[matched] != NULL)
    g_error ("the hottest path is %s, not through %s…", seen->str, steps[0]);
}

static void
assert_capture_name (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *name = g_path_get_basename (path);

  g_assert_cmpstr (dir, ==, captures_dir);
  if (!g_regex_match_simple ("^hotpath-[0-9]{8}-[0-9]{6}(-[0-9]+)?\\.hotpath$", name, 0, 0))
    g_error ("capture name %s is not hotpath-YYYYMMDD-HHMMSS.hotpath", name);
}

static gboolean
log_loaded (gpointer data)
{
  return !hp_log_window_is_loading (data);
}

static void
close_dialog (HpRecordDialog *dialog)
{
  gtk_window_close (GTK_WINDOW (dialog));
  display_spin (50);
}

/* Tests -------------------------------------------------------------- */

static void
test_record_button (void)
{
  HpWindow *window = hp_window_new (GTK_APPLICATION (app));
  HpRecordDialog *dialog;

  gtk_window_present (GTK_WINDOW (window));
  display_spin (50);
  g_assert_true (gtk_widget_is_sensitive (hp_window_get_record_button (window)));
  dialog = open_dialog (window);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (window));
  /* pressing Record again shows the same dialog */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.record", NULL));
  g_assert_true (hp_window_get_record_dialog (window) == dialog);
  close_dialog (dialog);
  g_assert_null (hp_window_get_record_dialog (window));
  display_close (window);
}

/* A workload that ends by itself: the capture opens in the (empty)
 * window that opened the dialog, with the known hot path on top. */
static void
test_record_workload (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  HpWindow *window = hp_window_new (GTK_APPLICATION (app));
  HpRecordDialog *dialog;
  HpRecordDialogStats stats;
  g_autoptr(HpCaptureData) data = NULL;
  g_autoptr(HpProfile) profile = NULL;
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  const char *steps[] = { "main", "run_alpha", "alpha_leaf", NULL };
  guint n_windows;
  HpLogWindow *log;
  gdouble share;

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  n_windows = g_list_length (gtk_application_get_windows (GTK_APPLICATION (app)));
  dialog = open_dialog (window);

  /* a relative path, found in the working folder */
  gtk_editable_set_text (hp_record_dialog_get_command_entry (dialog), "./paths-fp 300");
  gtk_editable_set_text (hp_record_dialog_get_directory_entry (dialog), WORKLOAD_DIR);
  dialog_action (dialog, "record.call-graph", g_variant_new_string ("fp"));
  /* the choices are kept */
  {
    g_autofree char *command = g_settings_get_string (settings, "record-command");
    g_autofree char *graph = g_settings_get_string (settings, "record-call-graph");

    g_assert_cmpstr (command, ==, "./paths-fp 300");
    g_assert_cmpstr (graph, ==, "fp");
  }

  /* Enter in the command line starts (the button shows itself pressed
   * for a moment first) */
  g_signal_emit_by_name (gtk_editable_get_delegate (hp_record_dialog_get_command_entry (dialog)), "activate");
  g_assert_true (display_wait (left_setup, dialog, 5000));
  if (!started (dialog))
    {
      close_dialog (dialog);
      display_close (window);
      return;
    }
  wait_end (dialog);
  path = g_strdup (hp_record_dialog_get_capture_path (dialog));
  assert_capture_name (path);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));

  /* progress was shown at least once a second */
  hp_record_dialog_get_stats (dialog, &stats);
  g_test_message ("paths-fp 300: %u progress updates, longest gap %.0f ms, %" G_GUINT64_FORMAT " samples, %"
                  G_GUINT64_FORMAT " lost", stats.n_updates, stats.max_gap_us / 1000.0, stats.samples, stats.lost);
  g_assert_cmpuint (stats.n_updates, >=, 1);
  g_assert_cmpint (stats.max_gap_us, <, max_gap_us ());

  /* in the same window: it was empty */
  g_assert_true (display_wait (window_shows_capture, window, 30000));
  g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
  g_assert_true (window_with_file (path) == window);
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, n_windows);
  display_wait_source (window);
  display_spin (100);

  profile = hp_test_load_profile (path, &data);
  g_assert_cmpuint (hp_profile_get_n_samples (profile), >, 100);
  g_assert_cmpstr (g_hash_table_lookup (data->metadata, "call_graph"), ==, "fp");
  assert_hot_path (profile, steps);
  share = self_share (profile, "alpha_leaf");
  g_test_message ("alpha_leaf: %.1f %% self (60 %% by construction)", share * 100);
  g_assert_cmpfloat (share, >, 0.45);
  g_assert_cmpfloat (share, <, 0.75);
  /* the window shows that profile, with the hot path selected */
  g_assert_cmpuint (hp_profile_get_n_samples (hp_call_tree_view_get_profile (hp_window_get_tree_view (window))->profile),
                    ==, hp_profile_get_n_samples (profile));
  g_assert_cmpstr (display_selected_name (window), ==, "alpha_leaf");

  /* the program's output went to the log */
  g_assert_true (g_str_has_prefix (hp_record_dialog_get_log_path (dialog), g_get_user_cache_dir ()));
  g_assert_nonnull (strstr (hp_record_dialog_get_log_path (dialog), "/hotpath/logs/"));
  dialog_action (dialog, "record.open-log", NULL);
  log = hp_record_dialog_get_log_window (dialog);
  g_assert_nonnull (log);
  g_assert_true (display_wait (log_loaded, log, 5000));
  text = hp_log_window_get_text (log);
  g_assert_true (g_str_has_prefix (text, "paths: 300 iterations"));

  /* Record Again goes back to the same settings */
  dialog_action (dialog, "record.again", NULL);
  g_assert_cmpstr (hp_record_dialog_get_state (dialog), ==, "setup");
  g_assert_cmpstr (gtk_editable_get_text (hp_record_dialog_get_command_entry (dialog)), ==, "./paths-fp 300");
  close_dialog (dialog);
  display_close (window);
}

static gboolean
shows_samples (gpointer data)
{
  HpRecordDialogStats stats;

  hp_record_dialog_get_stats (data, &stats);
  return stats.samples > 0;
}

/* A program that runs until stopped, recorded from a window that shows a
 * capture already: Stop after two seconds gives a valid capture, in a
 * new window. DWARF unwinding, the default. */
static void
test_record_stop (void)
{
  g_autofree char *other = display_make_capture ("shown.hotpath", TRUE, NULL);
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  HpWindow *window = display_open (app, other);
  HpRecordDialog *dialog;
  HpRecordDialogStats stats;
  HpWindow *shown;
  g_autoptr(HpCaptureData) data = NULL;
  g_autoptr(HpProfile) profile = NULL;
  g_autofree char *path = NULL;
  g_autofree char *command = g_strdup_printf ("%s/spin 60", WORKLOAD_DIR);
  const char *steps[] = { "main", "spin_outer", "spin_leaf", NULL };
  guint64 before;

  g_settings_set_string (settings, "record-call-graph", "dwarf");
  g_settings_set_string (settings, "record-working-directory", "");
  dialog = open_dialog (window);
  gtk_editable_set_text (hp_record_dialog_get_command_entry (dialog), command);
  if (!start (dialog))
    {
      close_dialog (dialog);
      display_close (window);
      return;
    }
  /* live: the numbers move while it records (a sanitizer build may
   * take seconds to write the first samples) */
  g_assert_true (display_wait (shows_samples, dialog, 30000));
  hp_record_dialog_get_stats (dialog, &stats);
  before = stats.samples;
  display_spin (1000);
  hp_record_dialog_get_stats (dialog, &stats);
  g_assert_cmpuint (stats.samples, >, before);
  g_assert_cmpstr (hp_record_dialog_get_state (dialog), ==, "recording");

  dialog_action (dialog, "record.stop", NULL);
  wait_end (dialog);
  path = g_strdup (hp_record_dialog_get_capture_path (dialog));
  assert_capture_name (path);
  hp_record_dialog_get_stats (dialog, &stats);
  g_test_message ("spin, stopped after 2 s: %u progress updates, longest gap %.0f ms, %" G_GUINT64_FORMAT
                  " samples, %" G_GUINT64_FORMAT " lost",
                  stats.n_updates, stats.max_gap_us / 1000.0, stats.samples, stats.lost);
  g_assert_cmpuint (stats.n_updates, >=, 2);
  g_assert_cmpint (stats.max_gap_us, <, max_gap_us ());

  profile = hp_test_load_profile (path, &data);
  g_assert_cmpuint (hp_profile_get_n_samples (profile), >, 100);
  g_assert_cmpstr (g_hash_table_lookup (data->metadata, "call_graph"), ==, "dwarf");
  g_assert_nonnull (g_hash_table_lookup (data->metadata, "exit_signal"));
  assert_hot_path (profile, steps);
  g_assert_cmpfloat (self_share (profile, "spin_leaf"), >, 0.8);

  /* the window showed a capture: a new one shows this one */
  display_spin (100);
  shown = window_with_file (path);
  g_assert_nonnull (shown);
  g_assert_true (shown != window);
  g_assert_true (display_wait (window_shows_capture, shown, 30000));
  g_assert_cmpstr (hp_window_get_state (shown), ==, "capture");
  g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
  display_wait_source (shown);
  close_dialog (dialog);
  display_close (shown);
  display_close (window);
}

/* Responsiveness during a 3 s recording (the time limit), and the lost
 * samples compared with hotpath-cli record of the same program.
 * HOTPATH_TEST_FREQUENCY and HOTPATH_TEST_STACK_SIZE (default 999 and
 * 8192) make the same comparison under load, e.g. 20000 and 65528; then
 * run it with MALLOC_PERTURB_=0: the value meson test sets makes glibc
 * fill every buffer the recorder's drain thread allocates (1.3 GB/s of
 * stack copies at those settings), which alone lost up to 88 % of the
 * samples, in the window and in hotpath-cli alike, on a 2-CPU machine. */
static void
test_record_progress (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  HpWindow *window = hp_window_new (GTK_APPLICATION (app));
  HpRecordDialog *dialog;
  HpRecordDialogStats stats;
  g_autofree char *command = g_strdup_printf ("%s/spin 60", WORKLOAD_DIR);
  g_autofree char *cli_path = g_build_filename (display_tmpdir (), "cli.hotpath", NULL);
  const char *env_frequency = g_getenv ("HOTPATH_TEST_FREQUENCY");
  const char *env_stack_size = g_getenv ("HOTPATH_TEST_STACK_SIZE");
  int frequency = env_frequency ? atoi (env_frequency) : 999;
  int stack_size = env_stack_size ? atoi (env_stack_size) : 8192;
  g_autofree char *frequency_arg = g_strdup_printf ("%d", frequency);
  g_autofree char *call_graph_arg = g_strdup_printf ("dwarf,%d", stack_size);
  const char *cli_argv[] = { HOTPATH_CLI, "record", "--force", "-o", cli_path, "--duration", "3", "-F", frequency_arg,
                             "--call-graph", call_graph_arg, "--", WORKLOAD_DIR "/spin", "60", NULL };
  g_autofree char *cli_err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) window_capture = NULL;
  g_autoptr(HpCapture) cli_capture = NULL;
  g_autofree char *window_lost = NULL;
  g_autofree char *cli_lost = NULL;
  g_autofree char *window_duration = NULL;
  int status = 0;
  HpWindow *shown;
  guint64 lost_window, lost_cli;

  gtk_window_present (GTK_WINDOW (window));
  g_settings_set_double (settings, "record-duration", 3.0);
  g_settings_set_int (settings, "record-frequency", frequency);
  g_settings_set_int (settings, "record-stack-size", stack_size);
  g_settings_set_string (settings, "record-call-graph", "dwarf");
  dialog = open_dialog (window);
  gtk_editable_set_text (hp_record_dialog_get_command_entry (dialog), command);
  if (!start (dialog))
    {
      g_settings_reset (settings, "record-duration");
      close_dialog (dialog);
      display_close (window);
      return;
    }
  wait_end (dialog);
  g_settings_reset (settings, "record-duration");
  g_settings_reset (settings, "record-frequency");
  g_settings_reset (settings, "record-stack-size");
  hp_record_dialog_get_stats (dialog, &stats);
  g_test_message ("3 s time limit: %u progress updates, longest gap %.0f ms", stats.n_updates,
                  stats.max_gap_us / 1000.0);
  /* at least one a second, and none more than a second apart */
  g_assert_cmpuint (stats.n_updates, >=, 3);
  g_assert_cmpint (stats.max_gap_us, <, max_gap_us ());

  window_capture = hp_capture_open (hp_record_dialog_get_capture_path (dialog), FALSE, &error);
  g_assert_no_error (error);
  window_duration = hp_capture_get_metadata (window_capture, "duration_ns");
  g_assert_cmpfloat (g_ascii_strtod (window_duration, NULL) / 1e9, >, 2.5);
  g_assert_cmpfloat (g_ascii_strtod (window_duration, NULL) / 1e9, <, 5);
  window_lost = hp_capture_get_metadata (window_capture, "lost_samples");
  g_assert_nonnull (window_lost);

  if (!g_spawn_sync (NULL, (char **) cli_argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &cli_err,
                     &status, &error) ||
      !g_spawn_check_wait_status (status, NULL))
    g_error ("hotpath-cli record failed: %s", error ? error->message : cli_err);
  cli_capture = hp_capture_open (cli_path, FALSE, &error);
  g_assert_no_error (error);
  cli_lost = hp_capture_get_metadata (cli_capture, "lost_samples");
  lost_window = g_ascii_strtoull (window_lost, NULL, 10);
  lost_cli = g_ascii_strtoull (cli_lost, NULL, 10);
  {
    g_autofree char *cli_samples = NULL;
    g_autoptr(HpCaptureData) data = hp_capture_load (cli_capture, NULL);
    g_autoptr(HpProfile) profile = data ? hp_profile_new (data, NULL) : NULL;

    cli_samples = g_strdup_printf ("%" G_GUINT64_FORMAT, profile ? hp_profile_get_n_samples (profile) : 0);
    g_test_message ("lost samples, spin for 3 s at %d Hz with DWARF %d: window %" G_GUINT64_FORMAT
                    " lost, %" G_GUINT64_FORMAT " kept; hotpath-cli %" G_GUINT64_FORMAT " lost, %s kept",
                    frequency, stack_size, lost_window, stats.samples, lost_cli, cli_samples);
  }
  /* the same recorder: the window adds no loss of its own beyond noise */
  g_assert_cmpuint (lost_window, <=, lost_cli + MAX (10, stats.samples / 100));

  display_spin (100);
  shown = window_with_file (hp_record_dialog_get_capture_path (dialog));
  g_assert_true (shown == window);
  g_assert_true (display_wait (window_shows_capture, window, 30000));
  display_wait_source (window);
  close_dialog (dialog);
  display_close (window);
}

static gboolean
shows_lock_wait (gpointer data)
{
  return hp_record_dialog_get_lock_text (data) != NULL;
}

static gboolean
lock_wait_gone (gpointer data)
{
  return hp_record_dialog_get_lock_text (data) == NULL;
}

/* A sqlite3 shell takes the live capture's write lock and keeps it (BEGIN
 * EXCLUSIVE): the recording page says who holds
 * it and that the samples are kept; once it lets go the line goes, and
 * the capture, stopped, is complete. */
static void
test_record_lock_wait (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  HpWindow *window = hp_window_new (GTK_APPLICATION (app));
  g_autofree char *command = g_strdup_printf ("%s/spin 60", WORKLOAD_DIR);
  g_autofree char *path = NULL;
  g_autofree char *holder = NULL;
  HpRecordDialog *dialog;
  const char *text;
  GPid shell;
  int input;

  gtk_window_present (GTK_WINDOW (window));
  g_settings_set_string (settings, "record-call-graph", "fp");
  g_settings_set_string (settings, "record-working-directory", "");
  dialog = open_dialog (window);
  gtk_editable_set_text (hp_record_dialog_get_command_entry (dialog), command);
  if (!start (dialog))
    {
      close_dialog (dialog);
      display_close (window);
      return;
    }
  g_assert_true (display_wait (shows_samples, dialog, 30000));
  g_assert_null (hp_record_dialog_get_lock_text (dialog));
  path = g_strdup (dialog->capture_path);

  shell = display_hold_write_lock (path, &input);
  holder = g_strdup_printf ("(sqlite3, PID %d)", (int) shell);
  g_assert_true (display_wait (shows_lock_wait, dialog, 30000));
  text = hp_record_dialog_get_lock_text (dialog);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, holder));
  g_assert_nonnull (strstr (text, "kept"));
  display_release_write_lock (shell, input);
  g_assert_true (display_wait (lock_wait_gone, dialog, 30000));

  dialog_action (dialog, "record.stop", NULL);
  wait_end (dialog);
  g_assert_cmpint (hp_test_sql_int (path, "SELECT value = '1' FROM metadata WHERE key = 'complete'"), ==, 1);
  g_assert_cmpint (hp_test_sql_int (path, "SELECT count(*) FROM samples"), >, 0);
  display_spin (100);
  g_assert_true (display_wait (window_shows_capture, window, 30000));
  display_wait_source (window);
  close_dialog (dialog);
  display_close (window);
}

/* The capture's folder is removed while it is recorded (rm -rf): the
 * recorder keeps the capture in $XDG_DATA_HOME/hotpath/recovered/, the
 * result page says where, and Open the Capture opens that copy in the
 * window that opened the dialog. */
static void
test_record_rescued (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  HpWindow *window = hp_window_new (GTK_APPLICATION (app));
  g_autofree char *command = g_strdup_printf ("%s/spin 60", WORKLOAD_DIR);
  /* under the home folder: the page shows it as ~/… */
  g_autofree char *away = g_build_filename (g_get_home_dir (), "hotpath-removed", NULL);
  g_autofree char *name = NULL;
  g_autofree char *kept = NULL;
  HpRecordDialog *dialog;

  gtk_window_present (GTK_WINDOW (window));
  g_settings_set_string (settings, "record-call-graph", "fp");
  g_settings_set_string (settings, "record-working-directory", "");
  g_settings_set_string (settings, "record-folder", away);
  dialog = open_dialog (window);
  gtk_editable_set_text (hp_record_dialog_get_command_entry (dialog), command);
  if (!start (dialog))
    {
      g_settings_set_string (settings, "record-folder", captures_dir);
      close_dialog (dialog);
      display_close (window);
      return;
    }
  g_assert_true (display_wait (shows_samples, dialog, 30000));
  name = g_path_get_basename (dialog->capture_path);
  kept = g_build_filename (g_get_user_data_dir (), "hotpath", "recovered", name, NULL);
  hp_test_remove_tree (away);
  g_assert_false (g_file_test (away, G_FILE_TEST_EXISTS));
  dialog_action (dialog, "record.stop", NULL);
  g_assert_true (display_wait (ended, dialog, 60000));
  g_settings_set_string (settings, "record-folder", captures_dir);

  g_test_message ("%s: %s", hp_record_dialog_get_title_text (dialog), hp_record_dialog_get_message (dialog));
  g_assert_cmpstr (hp_record_dialog_get_state (dialog), ==, "failed");
  g_assert_cmpstr (hp_record_dialog_get_title_text (dialog), ==, "Capture Kept Elsewhere");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, "Recording Finished");
  g_assert_nonnull (strstr (hp_record_dialog_get_message (dialog), kept));
  g_assert_nonnull (strstr (hp_record_dialog_get_message (dialog), away));
  /* shown with ~/ for the home folder, in full in the tooltip */
  g_test_message ("shown: %s", gtk_label_get_text (dialog->result_message));
  g_assert_nonnull (strstr (gtk_label_get_text (dialog->result_message), "~/hotpath-removed/"));
  g_assert_null (strstr (gtk_label_get_text (dialog->result_message), away));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (dialog->result_message)), ==,
                   hp_record_dialog_get_message (dialog));
  g_assert_cmpstr (hp_record_dialog_get_capture_path (dialog), ==, kept);
  g_assert_true (g_file_test (kept, G_FILE_TEST_IS_REGULAR));
  g_assert_true (gtk_widget_get_visible (dialog->result_open_button));
  g_assert_true (gtk_widget_is_sensitive (dialog->result_open_button));

  /* Open the Capture: in the window, which was empty */
  g_assert_null (window_with_file (kept));
  dialog_action (dialog, "record.open-capture", NULL);
  g_assert_true (display_wait (window_shows_capture, window, 30000));
  g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
  g_assert_true (window_with_file (kept) == window);
  g_assert_cmpint (hp_test_sql_int (kept, "SELECT count(*) FROM samples"), >, 0);
  display_wait_source (window);
  close_dialog (dialog);
  display_close (window);
}

/* Stopped while a sqlite3 shell holds the capture's write lock: the
 * recording has ended, and the page says that it waits for that program
 * to write the samples kept meanwhile and finish the capture; once the
 * shell lets go, the capture is complete and opens. */
static void
test_record_finish_wait (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  HpWindow *window = hp_window_new (GTK_APPLICATION (app));
  g_autofree char *command = g_strdup_printf ("%s/spin 60", WORKLOAD_DIR);
  g_autofree char *path = NULL;
  g_autofree char *holder = NULL;
  HpRecordDialog *dialog;
  const char *text;
  GPid shell;
  int input;

  gtk_window_present (GTK_WINDOW (window));
  g_settings_set_string (settings, "record-call-graph", "fp");
  g_settings_set_string (settings, "record-working-directory", "");
  dialog = open_dialog (window);
  gtk_editable_set_text (hp_record_dialog_get_command_entry (dialog), command);
  if (!start (dialog))
    {
      close_dialog (dialog);
      display_close (window);
      return;
    }
  g_assert_true (display_wait (shows_samples, dialog, 30000));
  path = g_strdup (dialog->capture_path);
  shell = display_hold_write_lock (path, &input);
  holder = g_strdup_printf ("(sqlite3, PID %d)", (int) shell);
  g_assert_true (display_wait (shows_lock_wait, dialog, 30000));
  dialog_action (dialog, "record.stop", NULL);
  /* the program has ended; the recorder waits for the lock to finish */
  display_spin (1500);
  g_assert_cmpstr (hp_record_dialog_get_state (dialog), ==, "recording");
  g_assert_cmpstr (gtk_label_get_text (dialog->recording_title), ==, "Stopping…");
  text = hp_record_dialog_get_lock_text (dialog);
  g_assert_nonnull (text);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, holder));
  g_assert_nonnull (strstr (text, "will be written then"));

  display_release_write_lock (shell, input);
  wait_end (dialog);
  g_assert_cmpint (hp_test_sql_int (path, "SELECT value = '1' FROM metadata WHERE key = 'complete'"), ==, 1);
  g_assert_true (display_wait (window_shows_capture, window, 30000));
  display_wait_source (window);
  close_dialog (dialog);
  display_close (window);
}

static gboolean
listed (gpointer data)
{
  return !hp_record_dialog_is_listing (data);
}

/* Attach to a running process, chosen by searching the list. */
static void
test_record_attach (void)
{
  HpWindow *window = hp_window_new (GTK_APPLICATION (app));
  HpRecordDialog *dialog;
  const char *argv[] = { WORKLOAD_DIR "/spin", "60", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureData) data = NULL;
  g_autoptr(HpProfile) profile = NULL;
  g_autofree char *pid_text = NULL;
  GPid pid;

  g_assert_true (g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                NULL, NULL, &pid, &error));
  g_assert_no_error (error);
  display_spin (200);

  gtk_window_present (GTK_WINDOW (window));
  dialog = open_dialog (window);
  dialog_action (dialog, "record.target", g_variant_new_string ("attach"));
  g_assert_true (display_wait (listed, dialog, 10000));
  g_assert_cmpuint (hp_record_dialog_get_n_processes (dialog), >, 1);

  /* nothing chosen: said beside the list */
  dialog_action (dialog, "record.start", NULL);
  g_assert_cmpstr (hp_record_dialog_get_state (dialog), ==, "setup");
  g_assert_nonnull (strstr (hp_record_dialog_get_message (dialog), "Choose the process"));

  /* found by its pid, and only it */
  pid_text = g_strdup_printf ("%d", (int) pid);
  gtk_editable_set_text (hp_record_dialog_get_process_search (dialog), pid_text);
  display_spin (400);
  g_assert_cmpuint (hp_record_dialog_get_n_processes (dialog), >=, 1);
  g_assert_true (hp_record_dialog_select_process (dialog, pid));
  gtk_editable_set_text (hp_record_dialog_get_process_search (dialog), "SPIN");
  display_spin (400);
  g_assert_true (hp_record_dialog_select_process (dialog, pid));

  if (start (dialog))
    {
      display_spin (1500);
      dialog_action (dialog, "record.stop", NULL);
      wait_end (dialog);
      profile = hp_test_load_profile (hp_record_dialog_get_capture_path (dialog), &data);
      g_assert_cmpuint (hp_profile_get_n_samples (profile), >, 100);
      g_assert_cmpfloat (self_share (profile, "spin_leaf"), >, 0.8);
      /* attaching leaves the process running */
      g_assert_cmpint (kill (pid, 0), ==, 0);
      g_assert_true (display_wait (window_shows_capture, window, 30000));
      display_wait_source (window);
    }
  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);
  g_spawn_close_pid (pid);
  close_dialog (dialog);
  display_close (window);
}

/* The captures in the folder; @newest, when given, receives the path of
 * the last by name (the names are dates) */
static guint
list_captures (char **newest)
{
  g_autoptr(GDir) dir = g_dir_open (captures_dir, 0, NULL);
  g_autofree char *last = NULL;
  const char *name;
  guint n = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".hotpath"))
      {
        n++;
        if (last == NULL || strcmp (name, last) > 0)
          {
            g_free (last);
            last = g_strdup (name);
          }
      }
  if (newest != NULL)
    *newest = last ? g_build_filename (captures_dir, last, NULL) : NULL;
  return n;
}

static guint
count_captures (void)
{
  return list_captures (NULL);
}

/* The recording finished writing @data (a path): it has a duration */
static gboolean
capture_finished (gpointer data)
{
  g_autoptr(HpCapture) capture = hp_capture_open (data, FALSE, NULL);
  g_autofree char *duration = capture ? hp_capture_get_metadata (capture, "duration_ns") : NULL;

  return duration != NULL;
}

static void
expect_setup_error (HpRecordDialog *dialog,
                    const char     *command,
                    const char     *expect)
{
  gtk_editable_set_text (hp_record_dialog_get_command_entry (dialog), command);
  dialog_action (dialog, "record.start", NULL);
  g_assert_true (display_wait (not_preparing, dialog, 10000));
  g_assert_cmpstr (hp_record_dialog_get_state (dialog), ==, "setup");
  if (hp_record_dialog_get_message (dialog) == NULL || strstr (hp_record_dialog_get_message (dialog), expect) == NULL)
    g_error ("for “%s” the dialog says “%s”, not “%s”", command, hp_record_dialog_get_message (dialog), expect);
}

/* Commands that cannot be recorded are said so in the dialog, and leave
 * no capture behind. */
static void
test_record_errors (void)
{
  HpWindow *window = hp_window_new (GTK_APPLICATION (app));
  HpRecordDialog *dialog;
  guint before = count_captures ();
  g_autofree char *script = g_build_filename (display_tmpdir (), "not-executable.sh", NULL);
  g_autofree char *command = NULL;

  gtk_window_present (GTK_WINDOW (window));
  dialog = open_dialog (window);
  gtk_editable_set_text (hp_record_dialog_get_directory_entry (dialog), "");

  expect_setup_error (dialog, "", "Enter the program");
  expect_setup_error (dialog, "hotpath-no-such-program --flag", "no program “hotpath-no-such-program” in the folders of PATH");
  expect_setup_error (dialog, "/nonexistent/hotpath/program", "/nonexistent/hotpath/program does not exist");
  expect_setup_error (dialog, "./paths-fp 'unbalanced", "cannot be split into arguments");
  expect_setup_error (dialog, "/tmp", "is a folder, not a program");
  g_assert_true (g_file_set_contents (script, "#!/bin/sh\n", -1, NULL));
  command = g_shell_quote (script);
  expect_setup_error (dialog, command, "not executable");

  /* a working folder that does not exist */
  gtk_editable_set_text (hp_record_dialog_get_directory_entry (dialog), "/nonexistent/hotpath/folder");
  expect_setup_error (dialog, "true", "There is no folder /nonexistent/hotpath/folder");
  gtk_editable_set_text (hp_record_dialog_get_directory_entry (dialog), "");

  /* a program that exits at once, with an error and without a sample */
  gtk_editable_set_text (hp_record_dialog_get_command_entry (dialog),
                         "sh -c 'echo \"cannot open the input\" >&2; exit 3'");
  dialog_action (dialog, "record.start", NULL);
  g_assert_true (display_wait (not_preparing, dialog, 10000));
  if (g_strcmp0 (hp_record_dialog_get_state (dialog), "recording") == 0)
    {
      g_assert_true (display_wait (ended, dialog, 30000));
      if (g_strcmp0 (hp_record_dialog_get_state (dialog), "done") == 0)
        {
          /* On a busy machine (the display tests with GL render on the
           * same two cores) sh can take more than the second that counts
           * as exiting at once, and then it was a run like any other. */
          g_test_message ("sh took more than a second to exit: %s", hp_record_dialog_get_message (dialog));
          g_assert_nonnull (hp_record_dialog_get_capture_path (dialog));
          close_dialog (dialog);
          display_close (window);
          return;
        }
      g_assert_cmpstr (hp_record_dialog_get_state (dialog), ==, "failed");
      g_test_message ("sh exiting at once: %s: %s", hp_record_dialog_get_title_text (dialog),
                      hp_record_dialog_get_message (dialog));
      g_assert_nonnull (strstr (hp_record_dialog_get_message (dialog), "“sh” exited with status 3 after"));
      /* and its output tells why */
      g_assert_cmpstr (hp_record_dialog_get_output (dialog), ==, "cannot open the input");
      /* no sample: no capture; a few: kept, but not opened */
      if (g_str_equal (hp_record_dialog_get_title_text (dialog), "No Samples"))
        {
          g_assert_null (hp_record_dialog_get_capture_path (dialog));
          g_assert_cmpuint (count_captures (), ==, before);
        }
      else
        g_assert_cmpstr (hp_record_dialog_get_title_text (dialog), ==, "The Program Exited at Once");
      display_spin (100);
      g_assert_cmpstr (hp_window_get_state (window), ==, "empty");
    }
  else
    g_assert_cmpstr (hp_record_dialog_get_state (dialog), ==, "failed");

  close_dialog (dialog);
  display_close (window);
}

/* Closing the dialog while it records stops the recording, and the
 * capture still opens. */
static void
test_record_close (void)
{
  HpWindow *window = hp_window_new (GTK_APPLICATION (app));
  HpRecordDialog *dialog;
  g_autofree char *command = g_strdup_printf ("%s/spin 60", WORKLOAD_DIR);

  gtk_window_present (GTK_WINDOW (window));
  dialog = open_dialog (window);
  gtk_editable_set_text (hp_record_dialog_get_command_entry (dialog), command);
  if (!start (dialog))
    {
      close_dialog (dialog);
      display_close (window);
      return;
    }
  display_spin (800);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_nonnull (dialog);
  g_assert_true (display_wait (window_shows_capture, window, 30000));
  g_assert_cmpstr (hp_window_get_state (window), ==, "capture");
  display_spin (100);
  g_assert_null (hp_window_get_record_dialog (window));
  display_wait_source (window);
  display_close (window);
}

static gboolean
pointer_cleared (gpointer data)
{
  return *(gpointer *) data == NULL;
}

/* Closing the window while it records: the dialog goes with it, the
 * recording stops and its capture is written, not opened. */
static void
test_record_window_closed (void)
{
  HpWindow *window = hp_window_new (GTK_APPLICATION (app));
  HpRecordDialog *dialog;
  g_autofree char *command = g_strdup_printf ("%s/spin 60", WORKLOAD_DIR);
  guint before = count_captures ();
  g_autofree char *path = NULL;
  guint n_windows;

  gtk_window_present (GTK_WINDOW (window));
  dialog = open_dialog (window);
  gtk_editable_set_text (hp_record_dialog_get_command_entry (dialog), command);
  if (!start (dialog))
    {
      close_dialog (dialog);
      display_close (window);
      return;
    }
  display_spin (800);
  n_windows = g_list_length (gtk_application_get_windows (GTK_APPLICATION (app)));
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  gtk_window_destroy (GTK_WINDOW (window));
  /* destroyed with its window; gone once the recording has ended */
  g_assert_true (display_wait (pointer_cleared, &dialog, 30000));
  /* the capture is written by the recording thread, a moment later */
  g_assert_cmpuint (list_captures (&path), ==, before + 1);
  g_assert_true (display_wait (capture_finished, path, 30000));
  {
    g_autoptr(HpCaptureData) data = NULL;
    g_autoptr(HpProfile) profile = hp_test_load_profile (path, &data);

    g_assert_cmpuint (hp_profile_get_n_samples (profile), >, 100);
  }
  display_spin (300);
  /* and no window opened it */
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, n_windows - 1);
}

/* perf_event_open refused: the dialog says why and how to allow it.
 * Last, since nothing can be recorded in this process after it. */
static void
test_record_permission (void)
{
  HpWindow *window = hp_window_new (GTK_APPLICATION (app));
  HpRecordDialog *dialog;
  g_autofree char *command = g_strdup_printf ("%s/paths-fp 50", WORKLOAD_DIR);
  g_autofree char *contents = NULL;
  g_autofree char *paranoid = NULL;
  guint before = count_captures ();

  if (!display_refuse_perf_event_open ())
    {
      g_test_skip ("cannot install a seccomp filter to refuse perf_event_open");
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  gtk_window_present (GTK_WINDOW (window));
  dialog = open_dialog (window);
  gtk_editable_set_text (hp_record_dialog_get_command_entry (dialog), command);
  dialog_action (dialog, "record.start", NULL);
  g_assert_true (display_wait (ended, dialog, 30000));
  g_assert_cmpstr (hp_record_dialog_get_state (dialog), ==, "failed");
  g_test_message ("refused: %s: %s", hp_record_dialog_get_title_text (dialog), hp_record_dialog_get_message (dialog));
  g_assert_cmpstr (hp_record_dialog_get_title_text (dialog), ==, "Not Allowed to Sample");
  /* the current value, the sysctl that allows it, and CAP_PERFMON */
  g_assert_true (g_file_get_contents ("/proc/sys/kernel/perf_event_paranoid", &contents, NULL, NULL));
  paranoid = g_strdup_printf ("perf_event_paranoid is %d", atoi (contents));
  g_assert_nonnull (strstr (hp_record_dialog_get_message (dialog), paranoid));
  g_assert_nonnull (strstr (hp_record_dialog_get_message (dialog), "sysctl kernel.perf_event_paranoid="));
  g_assert_nonnull (strstr (hp_record_dialog_get_message (dialog), "CAP_PERFMON"));
  g_assert_null (hp_record_dialog_get_capture_path (dialog));
  g_assert_cmpuint (count_captures (), ==, before);
  g_assert_cmpstr (hp_window_get_state (window), ==, "empty");

  /* Record Again goes back to the settings */
  dialog_action (dialog, "record.again", NULL);
  g_assert_cmpstr (hp_record_dialog_get_state (dialog), ==, "setup");
  close_dialog (dialog);
  display_close (window);
}

static gboolean
dialog_gone (gpointer window)
{
  return hp_window_get_record_dialog (window) == NULL;
}

/* Issue 14: the Recording Finished dialog stayed open and windows piled
 * up. Now the capture opens in the empty window that started the
 * recording, and the dialog closes. */
static void
test_record_closes (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  HpWindow *window = hp_window_new (GTK_APPLICATION (app));
  HpRecordDialog *dialog;
  guint n_windows;

  g_settings_set_boolean (settings, "record-close-when-done", TRUE);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  n_windows = g_list_length (gtk_application_get_windows (GTK_APPLICATION (app)));
  dialog = open_dialog (window);
  gtk_editable_set_text (hp_record_dialog_get_command_entry (dialog), "./paths-fp 100");
  gtk_editable_set_text (hp_record_dialog_get_directory_entry (dialog), WORKLOAD_DIR);
  dialog_action (dialog, "record.call-graph", g_variant_new_string ("fp"));
  dialog_action (dialog, "record.start", NULL);
  g_assert_true (display_wait (left_setup, dialog, 5000));
  if (!started (dialog))
    {
      g_settings_set_boolean (settings, "record-close-when-done", FALSE);
      close_dialog (dialog);
      display_close (window);
      return;
    }
  g_assert_true (display_wait (dialog_gone, window, 60000));
  g_assert_true (display_wait (window_shows_capture, window, 30000));
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, n_windows);
  g_settings_set_boolean (settings, "record-close-when-done", FALSE);
  display_close (window);
}

static int
run (HpApplication *application)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);

  app = application;
  /* captures go to the scratch folder, made by the dialog */
  captures_dir = g_build_filename (display_tmpdir (), "captures", NULL);
  g_settings_set_string (settings, "record-folder", captures_dir);
  /* the tests look at the result page; /record/closes at its closing */
  g_settings_set_boolean (settings, "record-close-when-done", FALSE);

  g_test_add_func ("/record/button", test_record_button);
  g_test_add_func ("/record/errors", test_record_errors);
  g_test_add_func ("/record/workload", test_record_workload);
  g_test_add_func ("/record/closes", test_record_closes);
  g_test_add_func ("/record/stop", test_record_stop);
  g_test_add_func ("/record/progress", test_record_progress);
  g_test_add_func ("/record/lock-wait", test_record_lock_wait);
  g_test_add_func ("/record/finish-wait", test_record_finish_wait);
  g_test_add_func ("/record/rescued", test_record_rescued);
  g_test_add_func ("/record/attach", test_record_attach);
  g_test_add_func ("/record/close", test_record_close);
  g_test_add_func ("/record/window-closed", test_record_window_closed);
  g_test_add_func ("/record/permission", test_record_permission);
  return g_test_run ();
}

int
main (int   argc,
      char *argv[])
{
  return display_run (argc, argv, run);
}
