/* hp-log-window.c - shows the output of a recorded command
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The record dialog sends the command's stdout and stderr to a file in
 * the cache folder; this window shows it. It reads at most the last
 * MAX_BYTES of the file, in a worker (a chatty program writes megabytes),
 * and reloads it on request, since the command may still be running.
 * "Open in Editor" hands the file to the desktop's text editor.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "ui/hp-log-window.h"

#define MAX_BYTES (1024 * 1024)

struct _HpLogWindow {
  GtkWindow     parent_instance;

  GtkTextView  *text_view;
  GtkLabel     *note_label;

  char         *path;
  GCancellable *cancellable;
};

G_DEFINE_FINAL_TYPE (HpLogWindow, hp_log_window, GTK_TYPE_WINDOW)

typedef struct {
  char    *text;
  goffset  skipped;
} LogTail;

static void
log_tail_free (LogTail *tail)
{
  g_free (tail->text);
  g_free (tail);
}

static void
read_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  const char *path = task_data;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFileInputStream) in = g_file_read (file, cancellable, &error);
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *buf = NULL;
  LogTail *tail;
  goffset size, start;
  gsize n = 0;

  if (in == NULL ||
      (info = g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_STANDARD_SIZE, cancellable, &error)) == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  size = g_file_info_get_size (info);
  start = size > MAX_BYTES ? size - MAX_BYTES : 0;
  if (start > 0 && !g_seekable_seek (G_SEEKABLE (in), start, G_SEEK_SET, cancellable, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  buf = g_malloc (size - start + 1);
  if (!g_input_stream_read_all (G_INPUT_STREAM (in), buf, size - start, &n, cancellable, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  buf[n] = '\0';
  tail = g_new0 (LogTail, 1);
  /* programs write any bytes; a text view takes UTF-8 */
  tail->text = g_utf8_make_valid (buf, n);
  tail->skipped = start;
  g_task_return_pointer (task, tail, (GDestroyNotify) log_tail_free);
}

static void
read_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(HpLogWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  LogTail *tail = g_task_propagate_pointer (G_TASK (result), &error);
  GtkTextBuffer *buffer;
  GtkTextIter end;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->cancellable);
  buffer = gtk_text_view_get_buffer (self->text_view);
  if (tail == NULL)
    {
      gtk_text_buffer_set_text (buffer, "", -1);
      gtk_label_set_text (self->note_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->note_label), TRUE);
      return;
    }

  gtk_text_buffer_set_text (buffer, tail->text, -1);
  if (tail->skipped > 0)
    {
      g_autofree char *size = g_format_size (tail->skipped);
      g_autofree char *note = g_strdup_printf (_("The first %s of the log are not shown."), size);

      gtk_label_set_text (self->note_label, note);
    }
  else if (tail->text[0] == '\0')
    gtk_label_set_text (self->note_label, _("The program has written nothing so far."));
  gtk_widget_set_visible (GTK_WIDGET (self->note_label), tail->skipped > 0 || tail->text[0] == '\0');
  /* the end is what a user looks for: the last lines, an error */
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_place_cursor (buffer, &end);
  gtk_text_view_scroll_to_mark (self->text_view, gtk_text_buffer_get_insert (buffer), 0, FALSE, 0, 0);
  log_tail_free (tail);
}

void
hp_log_window_reload (HpLogWindow *self)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (HP_IS_LOG_WINDOW (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, read_done, g_object_ref (self));
  g_task_set_task_data (task, g_strdup (self->path), g_free);
  g_task_run_in_thread (task, read_worker);
}

char *
hp_log_window_get_text (HpLogWindow *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

gboolean
hp_log_window_is_loading (HpLogWindow *self)
{
  return self->cancellable != NULL;
}

static void
reload_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  hp_log_window_reload (HP_LOG_WINDOW (widget));
}

static void
open_in_editor_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  HpLogWindow *self = HP_LOG_WINDOW (widget);
  g_autoptr(GFile) file = g_file_new_for_path (self->path);
  g_autofree char *uri = g_file_get_uri (file);

  gtk_show_uri (GTK_WINDOW (self), uri, GDK_CURRENT_TIME);
}

static void
hp_log_window_dispose (GObject *object)
{
  HpLogWindow *self = HP_LOG_WINDOW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), HP_TYPE_LOG_WINDOW);

  G_OBJECT_CLASS (hp_log_window_parent_class)->dispose (object);
}

static void
hp_log_window_finalize (GObject *object)
{
  HpLogWindow *self = HP_LOG_WINDOW (object);

  g_free (self->path);

  G_OBJECT_CLASS (hp_log_window_parent_class)->finalize (object);
}

static void
hp_log_window_class_init (HpLogWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hp_log_window_dispose;
  object_class->finalize = hp_log_window_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-log-window.ui");
  gtk_widget_class_bind_template_child (widget_class, HpLogWindow, text_view);
  gtk_widget_class_bind_template_child (widget_class, HpLogWindow, note_label);

  gtk_widget_class_install_action (widget_class, "log.reload", NULL, reload_action);
  gtk_widget_class_install_action (widget_class, "log.open-in-editor", NULL, open_in_editor_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "log.reload", NULL);
}

static void
hp_log_window_init (HpLogWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

HpLogWindow *
hp_log_window_new (GtkWindow  *parent,
                   const char *path)
{
  HpLogWindow *self;
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (HP_TYPE_LOG_WINDOW, "transient-for", parent, NULL);
  self->path = g_strdup (path);
  name = g_path_get_basename (path);
  /* Translators: title of the window that shows a recorded command's output */
  title = g_strdup_printf (_("Output — %s"), name);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->text_view), path);
  hp_log_window_reload (self);
  return self;
}
