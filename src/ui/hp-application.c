/* hp-application.c - the Hotpath application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * One process, any number of windows: files given on the command line,
 * from Open, Open Recent or drag-and-drop open in an empty window when
 * there is one, else each in a window of its own. Open Recent lists the
 * files Hotpath opened (GtkRecentManager), newest first.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "ui/hp-application.h"
#include "ui/hp-compare-window.h"

#define MAX_RECENT 10

struct _HpApplication {
  GtkApplication    parent_instance;
  GMenu            *recent_menu;
  GtkRecentManager *recent;
};

G_DEFINE_FINAL_TYPE (HpApplication, hp_application, GTK_TYPE_APPLICATION)

static int
compare_recent (gconstpointer a,
                gconstpointer b)
{
  GDateTime *ta = gtk_recent_info_get_modified (*(GtkRecentInfo **) a);
  GDateTime *tb = gtk_recent_info_get_modified (*(GtkRecentInfo **) b);

  return g_date_time_compare (tb, ta);
}

static void
update_recent (HpApplication *self)
{
  GList *items = gtk_recent_manager_get_items (self->recent);
  g_autoptr(GPtrArray) ours = g_ptr_array_new ();

  g_menu_remove_all (self->recent_menu);
  for (GList *l = items; l != NULL; l = l->next)
    if (gtk_recent_info_has_application (l->data, "Hotpath"))
      g_ptr_array_add (ours, l->data);
  g_ptr_array_sort (ours, compare_recent);

  for (guint i = 0; i < MIN (ours->len, MAX_RECENT); i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (ours, i);
      g_autoptr(GMenuItem) item = g_menu_item_new (gtk_recent_info_get_display_name (info), NULL);

      g_menu_item_set_action_and_target (item, "win.open-file", "s", gtk_recent_info_get_uri (info));
      g_menu_append_item (self->recent_menu, item);
    }
  if (ours->len == 0)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("No recent captures"), "app.none");

      g_menu_append_item (self->recent_menu, item);
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

GMenuModel *
hp_application_get_recent_menu (HpApplication *self)
{
  g_return_val_if_fail (HP_IS_APPLICATION (self), NULL);

  return G_MENU_MODEL (self->recent_menu);
}

void
hp_application_add_recent (HpApplication *self,
                           GFile         *file,
                           gboolean       is_perf_data)
{
  g_autofree char *uri = NULL;
  GtkRecentData data = {
    .display_name = NULL,
    .description = NULL,
    .mime_type = (char *) (is_perf_data ? "application/x-perf-data" : "application/x-hotpath-capture"),
    .app_name = (char *) "Hotpath",
    .app_exec = (char *) "hotpath %u",
  };

  g_return_if_fail (HP_IS_APPLICATION (self));

  uri = g_file_get_uri (file);
  gtk_recent_manager_add_full (self->recent, uri, &data);
}

static HpWindow *
new_window (HpApplication *self)
{
  HpWindow *window = hp_window_new (GTK_APPLICATION (self));

  gtk_window_present (GTK_WINDOW (window));
  return window;
}

void
hp_application_open_file (HpApplication *self,
                          GFile         *file,
                          HpWindow      *hint)
{
  GtkWindow *active;
  HpWindow *target = NULL;

  g_return_if_fail (HP_IS_APPLICATION (self));
  g_return_if_fail (G_IS_FILE (file));

  active = gtk_application_get_active_window (GTK_APPLICATION (self));
  if (hint != NULL && hp_window_is_empty (hint))
    target = hint;
  else if (hint == NULL && HP_IS_WINDOW (active) && hp_window_is_empty (HP_WINDOW (active)))
    target = HP_WINDOW (active);
  else
    target = new_window (self);
  hp_window_open (target, file);
  gtk_window_present (GTK_WINDOW (target));
}

static void
hp_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (new_window (HP_APPLICATION (app)));
  gtk_window_present (window);
}

static void
hp_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  for (int i = 0; i < n_files; i++)
    hp_application_open_file (HP_APPLICATION (app), files[i], NULL);
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  GtkApplication *app = user_data;
  GList *windows = g_list_copy (gtk_application_get_windows (app));

  /* through close-request, so that every window saves its summary */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
  g_list_free (windows);
}

static void
new_window_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  new_window (HP_APPLICATION (user_data));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  GtkApplication *app = user_data;
  const char *authors[] = { _("The Hotpath developers"), NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (app),
                         "program-name", _("Hotpath"),
                         "logo-icon-name", APPLICATION_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("Find where a program spends its time"),
                         "website", "https://github.com/hotpath/hotpath",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", authors,
                         /* Translators: your name(s), one per line */
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static const GActionEntry app_actions[] = {
  { "quit", quit_action },
  { "new-window", new_window_action },
  { "about", about_action },
};

static void
hp_application_startup (GApplication *app)
{
  HpApplication *self = HP_APPLICATION (app);
  g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.new-window", { "<Control>n", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.record", { "<Control>r", NULL } },
    { "win.find", { "<Control>f", NULL } },
    { "win.close", { "<Control>w", NULL } },
    { "win.tree-mode::top-down", { "<Control>1", NULL } },
    { "win.tree-mode::bottom-up", { "<Control>2", NULL } },
    { "win.show-pane::source", { "<Alt>1", NULL } },
    { "win.show-pane::calls", { "<Alt>2", NULL } },
    { "win.show-pane::summaries", { "<Alt>3", NULL } },
    { "win.show-summary", { "F9", NULL } },
  };

  G_APPLICATION_CLASS (hp_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  hp_compare_window_add_action (GTK_APPLICATION (app));
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);

  gtk_css_provider_load_from_resource (css, "/io/github/hotpath/Hotpath/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);

  self->recent = gtk_recent_manager_get_default ();
  g_signal_connect_object (self->recent, "changed", G_CALLBACK (update_recent), self, G_CONNECT_SWAPPED);
  update_recent (self);
}

static void
hp_application_finalize (GObject *object)
{
  HpApplication *self = HP_APPLICATION (object);

  g_clear_object (&self->recent_menu);

  G_OBJECT_CLASS (hp_application_parent_class)->finalize (object);
}

static void
hp_application_class_init (HpApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = hp_application_finalize;
  app_class->startup = hp_application_startup;
  app_class->activate = hp_application_activate;
  app_class->open = hp_application_open;
}

static void
hp_application_init (HpApplication *self)
{
  self->recent_menu = g_menu_new ();
}

/* the resources are in a static library; this pulls them in */
extern GResource *hp_ui_get_resource (void);

HpApplication *
hp_application_new (void)
{
  (void) hp_ui_get_resource ();

  return g_object_new (HP_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/hotpath/Hotpath",
                       NULL);
}
