/* hp-process-item.c - a running process, as the record dialog lists it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The record dialog's list of processes to attach to. Reading /proc
 * costs a few files per process (a few hundred on a desktop), so it is
 * done in a worker, and the list is a snapshot: the dialog reloads it
 * on request. Kernel threads (an empty cmdline) are left out: they have
 * no user stack to sample.
 *
 * "search-text" joins what a user may type to find a process (name, pid,
 * user, command line) for a GtkStringFilter.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/hp-recorder.h"
#include "ui/hp-process-item.h"

struct _HpProcessItem {
  GObject  parent_instance;
  GPid     pid;
  char    *name;
  char    *user;
  char    *command_line;
  char    *pid_text;
  char    *search_text;
};

G_DEFINE_FINAL_TYPE (HpProcessItem, hp_process_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PID,
  PROP_PID_TEXT,
  PROP_NAME,
  PROP_USER,
  PROP_COMMAND_LINE,
  PROP_SEARCH_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

GPid
hp_process_item_get_pid (HpProcessItem *self)
{
  g_return_val_if_fail (HP_IS_PROCESS_ITEM (self), 0);
  return self->pid;
}

const char *
hp_process_item_get_name (HpProcessItem *self)
{
  g_return_val_if_fail (HP_IS_PROCESS_ITEM (self), NULL);
  return self->name;
}

const char *
hp_process_item_get_user (HpProcessItem *self)
{
  g_return_val_if_fail (HP_IS_PROCESS_ITEM (self), NULL);
  return self->user;
}

const char *
hp_process_item_get_command_line (HpProcessItem *self)
{
  g_return_val_if_fail (HP_IS_PROCESS_ITEM (self), NULL);
  return self->command_line;
}

static void
hp_process_item_finalize (GObject *object)
{
  HpProcessItem *self = HP_PROCESS_ITEM (object);

  g_free (self->name);
  g_free (self->user);
  g_free (self->command_line);
  g_free (self->pid_text);
  g_free (self->search_text);

  G_OBJECT_CLASS (hp_process_item_parent_class)->finalize (object);
}

static void
hp_process_item_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  HpProcessItem *self = HP_PROCESS_ITEM (object);

  switch (prop_id)
    {
    case PROP_PID:          g_value_set_int (value, self->pid); break;
    case PROP_PID_TEXT:     g_value_set_string (value, self->pid_text); break;
    case PROP_NAME:         g_value_set_string (value, self->name); break;
    case PROP_USER:         g_value_set_string (value, self->user); break;
    case PROP_COMMAND_LINE: g_value_set_string (value, self->command_line); break;
    case PROP_SEARCH_TEXT:  g_value_set_string (value, self->search_text); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hp_process_item_class_init (HpProcessItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = hp_process_item_finalize;
  object_class->get_property = hp_process_item_get_property;

  properties[PROP_PID] = g_param_spec_int ("pid", NULL, NULL, 0, G_MAXINT, 0, flags);
  properties[PROP_PID_TEXT] = g_param_spec_string ("pid-text", NULL, NULL, NULL, flags);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_USER] = g_param_spec_string ("user", NULL, NULL, NULL, flags);
  properties[PROP_COMMAND_LINE] = g_param_spec_string ("command-line", NULL, NULL, NULL, flags);
  properties[PROP_SEARCH_TEXT] = g_param_spec_string ("search-text", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
hp_process_item_init (HpProcessItem *self)
{
}

/* Listing ------------------------------------------------------------ */

static char *
user_name (uid_t       uid,
           GHashTable *cache)
{
  const char *known = g_hash_table_lookup (cache, GUINT_TO_POINTER (uid));
  struct passwd pw, *result = NULL;
  char buf[1024];
  char *name;

  if (known != NULL)
    return g_strdup (known);
  if (getpwuid_r (uid, &pw, buf, sizeof buf, &result) == 0 && result != NULL)
    name = g_strdup (pw.pw_name);
  else
    name = g_strdup_printf ("%u", (guint) uid);
  g_hash_table_insert (cache, GUINT_TO_POINTER (uid), g_strdup (name));
  return name;
}

static uid_t
status_uid (const char *status)
{
  const char *line = status ? strstr (status, "\nUid:") : NULL;

  return line ? (uid_t) strtoul (line + strlen ("\nUid:"), NULL, 10) : (uid_t) -1;
}

static HpProcessItem *
read_process (GPid        pid,
              GHashTable *users)
{
  g_autofree char *dir = g_strdup_printf ("/proc/%d", (int) pid);
  g_autofree char *comm_path = g_build_filename (dir, "comm", NULL);
  g_autofree char *status_path = g_build_filename (dir, "status", NULL);
  g_autofree char *cmdline = NULL;
  g_autofree char *comm = NULL;
  g_autofree char *status = NULL;
  g_autofree char *cmdline_argv0 = NULL;
  HpProcessItem *item;

  /* an empty cmdline: a kernel thread, or a zombie; nothing to sample */
  if ((cmdline = hp_recorder_read_command_line (pid, &cmdline_argv0)) == NULL)
    return NULL;
  if (!g_file_get_contents (comm_path, &comm, NULL, NULL))
    return NULL;
  g_strchomp (comm);
  g_file_get_contents (status_path, &status, NULL, NULL);

  item = g_object_new (HP_TYPE_PROCESS_ITEM, NULL);
  item->pid = pid;
  /* the kernel cuts comm to 15 bytes: "dbus-run-sessio"; the program's
   * name in argv[0] is whole, when it is the same program */
  if (strlen (comm) == 15)
    {
      g_autofree char *base = g_path_get_basename (cmdline_argv0);

      if (g_str_has_prefix (base, comm))
        {
          g_free (comm);
          comm = g_steal_pointer (&base);
        }
    }
  item->name = g_utf8_make_valid (comm, -1);
  item->command_line = g_utf8_make_valid (cmdline, -1);
  item->user = user_name (status_uid (status), users);
  item->pid_text = g_strdup_printf ("%d", (int) pid);
  item->search_text = g_strjoin (" ", item->name, item->pid_text, item->user, item->command_line, NULL);
  return item;
}

static int
compare_items (gconstpointer a,
               gconstpointer b)
{
  HpProcessItem *pa = *(HpProcessItem **) a;
  HpProcessItem *pb = *(HpProcessItem **) b;
  int cmp = g_ascii_strcasecmp (pa->name, pb->name);

  return cmp != 0 ? cmp : (pa->pid > pb->pid) - (pa->pid < pb->pid);
}

static void
list_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, &error);
  g_autoptr(GHashTable) users = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  GListStore *store;
  GPid self_pid = getpid ();
  const char *name;

  if (proc == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  while ((name = g_dir_read_name (proc)) != NULL)
    {
      guint64 pid;
      HpProcessItem *item;

      if (g_task_return_error_if_cancelled (task))
        return;
      if (!g_ascii_string_to_unsigned (name, 10, 1, G_MAXINT, &pid, NULL) || (GPid) pid == self_pid)
        continue;
      if ((item = read_process ((GPid) pid, users)) != NULL)
        g_ptr_array_add (items, item);
    }
  g_ptr_array_sort (items, compare_items);

  store = g_list_store_new (HP_TYPE_PROCESS_ITEM);
  g_list_store_splice (store, 0, 0, items->pdata, items->len);
  g_task_return_pointer (task, store, g_object_unref);
}

void
hp_process_item_list_async (GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, hp_process_item_list_async);
  g_task_run_in_thread (task, list_worker);
}

GListModel *
hp_process_item_list_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
