/* make-record-screenshots.c - PNGs of the record dialog in its states
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Usage: make-record-screenshots OUTDIR
 * (under xvfb-run -s "-screen 0 1920x1080x24", GSK_RENDERER=cairo, with
 * GSETTINGS_SCHEMA_DIR set; `meson devenv` does that: the events' popover
 * opens under the dialog, and a screen of 800 rows leaves it three)
 *
 * Records the paths workload from the window's record dialog and saves:
 * record-setup.png (before), record-events.png (the list of what can be
 * counted, with a hardware event this machine cannot count and why),
 * record-attach.png (the process list),
 * record-error.png (a misspelled program), record-running.png (during),
 * record-lock-wait.png (during, a sqlite3 shell holding the capture's
 * write lock), record-finish-wait.png (stopped, waiting for that shell
 * to let go to finish the capture),
 * record-done.png (after), record-rescued.png (the capture's folder
 * removed while it was recorded: kept elsewhere, with Open the Capture), record-failed.png (a program that exits at
 * once) and record-refused.png (perf_event_open refused, by a seccomp
 * filter). HOME is a scratch folder, so that the paths shown are short
 * and the same on every run.
 * SCREENSHOT_DARK=1 takes them in the dark style.
 * These are for people to look at, not a test.
 */

#define G_LOG_DOMAIN "hp-screenshots"

#include "config.h"

#include <stdio.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "ui/hp-event-chooser.h"
#include "ui/hp-record-dialog-private.h"
#include "display-common.h"
#include "../common/test-common.h"

static const char *outdir;

static void
shot (GtkWindow  *window,
      const char *name)
{
  g_autofree char *path = g_build_filename (outdir, name, NULL);

  display_spin (400);
  display_save_png (window, path);
  printf ("wrote %s\n", path);
}

static gboolean
in_state (gpointer data)
{
  const char *state = hp_record_dialog_get_state (data);

  return g_strcmp0 (state, "done") == 0 || g_strcmp0 (state, "failed") == 0;
}

static gboolean
shows_lock_wait (gpointer data)
{
  return hp_record_dialog_get_lock_text (data) != NULL;
}

static gboolean
shows_samples (gpointer data)
{
  HpRecordDialogStats stats;

  /* of this recording: the last one's stay until it starts */
  hp_record_dialog_get_stats (data, &stats);
  return g_strcmp0 (hp_record_dialog_get_state (data), "recording") == 0 && stats.samples > 0;
}

static gboolean
listed (gpointer data)
{
  return !hp_record_dialog_is_listing (data);
}

static int
run (HpApplication *app)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autofree char *project = g_build_filename (g_get_home_dir (), "src", "paths", NULL);
  g_autofree char *parent = g_path_get_dirname (project);
  HpWindow *window;
  HpRecordDialog *dialog;

  if (g_strcmp0 (g_getenv ("SCREENSHOT_DARK"), "1") == 0)
    g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  /* ~/src/paths is the workloads' build folder */
  g_mkdir_with_parents (parent, 0755);
  g_assert_cmpint (symlink (WORKLOAD_DIR, project), ==, 0);
  g_settings_set_string (settings, "record-folder", "~/Documents");
  g_settings_set_string (settings, "record-working-directory", "~/src/paths");
  g_settings_set_string (settings, "record-command", "./paths-fp 600");
  g_settings_set_string (settings, "record-call-graph", "fp");
  /* the result page is one of the shots: the dialog stays */
  g_settings_set_boolean (settings, "record-close-when-done", FALSE);

  window = hp_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  display_spin (300);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.record", NULL);
  dialog = hp_window_get_record_dialog (window);
  shot (GTK_WINDOW (dialog), "record-setup.png");

  /* what to count: the list, as the button opens it, scrolled to the
   * hardware events, which a machine without counters lists with why */
  gtk_menu_button_popup (dialog->events_button);
  display_spin (400);
  {
    HpEventChooser *chooser = hp_record_dialog_get_event_chooser (dialog);
    GtkWidget *check = GTK_WIDGET (hp_event_chooser_get_check (chooser, "minor-faults"));
    GtkWidget *row = gtk_widget_get_ancestor (check, GTK_TYPE_LIST_BOX_ROW);
    GtkWidget *scrolled = gtk_widget_get_ancestor (check, GTK_TYPE_SCROLLED_WINDOW);
    GtkWidget *list = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled));
    GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
    graphene_rect_t bounds;

    /* the last software events at the top, the hardware ones below */
    if (gtk_widget_compute_bounds (row, list, &bounds))
      gtk_adjustment_set_value (adjustment, bounds.origin.y);
    display_spin (300);
  }
  {
    g_autofree char *path = g_build_filename (outdir, "record-events.png", NULL);

    display_save_png_with_popover (GTK_WINDOW (dialog), gtk_menu_button_get_popover (dialog->events_button), path);
    printf ("wrote %s\n", path);
  }
  gtk_menu_button_popdown (dialog->events_button);
  display_spin (100);

  gtk_widget_activate_action (GTK_WIDGET (dialog), "record.target", "s", "attach");
  display_wait (listed, dialog, 10000);
  shot (GTK_WINDOW (dialog), "record-attach.png");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "record.target", "s", "launch");

  gtk_editable_set_text (hp_record_dialog_get_command_entry (dialog), "./path-fp 600");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "record.start", NULL);
  display_spin (300);
  shot (GTK_WINDOW (dialog), "record-error.png");

  gtk_editable_set_text (hp_record_dialog_get_command_entry (dialog), "./paths-fp 600");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "record.start", NULL);
  display_spin (2000);
  shot (GTK_WINDOW (dialog), "record-running.png");
  {
    /* a sqlite3 shell keeps the capture's write lock for a while */
    int input;
    GPid shell = display_hold_write_lock (dialog->capture_path, &input);

    display_wait (shows_lock_wait, dialog, 30000);
    display_spin (1500);
    shot (GTK_WINDOW (dialog), "record-lock-wait.png");
    /* stopped meanwhile: the capture is finished once the shell lets go */
    gtk_widget_activate_action (GTK_WIDGET (dialog), "record.stop", NULL);
    display_spin (1500);
    shot (GTK_WINDOW (dialog), "record-finish-wait.png");
    display_release_write_lock (shell, input);
  }
  display_wait (in_state, dialog, 60000);
  display_spin (1500);
  shot (GTK_WINDOW (dialog), "record-done.png");

  {
    /* the capture's folder removed while it is recorded: kept elsewhere */
    g_autofree char *removed = g_build_filename (g_get_home_dir (), "Documents", "removed", NULL);

    g_settings_set_string (settings, "record-folder", "~/Documents/removed");
    gtk_widget_activate_action (GTK_WIDGET (dialog), "record.again", NULL);
    gtk_widget_activate_action (GTK_WIDGET (dialog), "record.start", NULL);
    display_wait (shows_samples, dialog, 30000);
    hp_test_remove_tree (removed);
    gtk_widget_activate_action (GTK_WIDGET (dialog), "record.stop", NULL);
    display_wait (in_state, dialog, 60000);
    shot (GTK_WINDOW (dialog), "record-rescued.png");
    g_settings_set_string (settings, "record-folder", "~/Documents");
  }

  gtk_widget_activate_action (GTK_WIDGET (dialog), "record.again", NULL);
  gtk_editable_set_text (hp_record_dialog_get_command_entry (dialog),
                         "sh -c 'echo \"paths: cannot open input.txt: No such file or directory\" >&2; exit 2'");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "record.start", NULL);
  display_wait (in_state, dialog, 60000);
  shot (GTK_WINDOW (dialog), "record-failed.png");

  /* last: nothing can be recorded in this process after it */
  if (display_refuse_perf_event_open ())
    {
      gtk_widget_activate_action (GTK_WIDGET (dialog), "record.again", NULL);
      gtk_editable_set_text (hp_record_dialog_get_command_entry (dialog), "./paths-fp 600");
      gtk_widget_activate_action (GTK_WIDGET (dialog), "record.start", NULL);
      display_wait (in_state, dialog, 60000);
      shot (GTK_WINDOW (dialog), "record-refused.png");
    }

  gtk_window_destroy (GTK_WINDOW (dialog));
  display_close (window);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = NULL;

  if (argc < 2)
    {
      g_printerr ("usage: make-record-screenshots OUTDIR\n");
      return 2;
    }
  outdir = argv[1];
  g_mkdir_with_parents (outdir, 0755);
  home = g_dir_make_tmp ("hp-home-XXXXXX", NULL);
  g_setenv ("HOME", home, TRUE);
  g_setenv ("XDG_CONFIG_HOME", home, TRUE);
  return display_run (1, argv, run);
}
