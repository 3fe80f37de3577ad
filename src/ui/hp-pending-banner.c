/* hp-pending-banner.c - the banner of samples that wait beside a capture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A recorder killed while another program held the capture's write lock,
 * or one that gave up waiting for it, leaves the rows it could not write
 * in NAME.pending.sql beside the capture (store/hp-capture-pending.c).
 * hotpath-cli says so whenever it opens such a capture; the window says
 * so here, above the views, with how many samples wait and a button that
 * adds them. Looking (listing and checking the files) and adding run in
 * a worker: the files may be large, and adding waits for the lock. A
 * file that holds anything but the recorder's statements is not added:
 * the banner says what is wrong with it instead.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "analysis/hp-text.h"
#include "document/hp-format.h"
#include "store/hp-capture-pending.h"
#include "ui/hp-pending-banner.h"

struct _HpPendingBanner {
  GtkWidget     parent_instance;

  GtkWidget    *banner;
  GtkImage     *icon;
  GtkLabel     *label;
  GtkWidget    *add_button;

  char         *path;          /* the capture shown */
  GPtrArray    *files;         /* its pending files, as last looked at */
  GCancellable *cancellable;
  gboolean      busy;
};

enum {
  SIGNAL_ADDED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (HpPendingBanner, hp_pending_banner, GTK_TYPE_WIDGET)

/* What a worker reads, owned by it. */
typedef struct {
  char      *path;
  GPtrArray *files;     /* looking: found; adding: to add */
  guint64    samples;
  char      *problem;   /* a file that is not the recorder's, or cannot be added */
} Work;

static void
work_free (Work *work)
{
  g_free (work->path);
  g_clear_pointer (&work->files, g_ptr_array_unref);
  g_free (work->problem);
  g_free (work);
}

static void
set_busy (HpPendingBanner *self,
          gboolean         busy)
{
  self->busy = busy;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "pending.add", !busy && self->files != NULL && self->files->len > 0);
}

static void
show_problem (HpPendingBanner *self,
              const char      *problem)
{
  g_autofree char *text = hp_text_escape (problem);

  gtk_image_set_from_icon_name (self->icon, "dialog-error-symbolic");
  gtk_label_set_text (self->label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->label), text);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
}

/* Looking ------------------------------------------------------------- */

static void
look (GTask        *task,
      gpointer      source,
      gpointer      data,
      GCancellable *cancellable)
{
  Work *work = data;

  work->files = hp_capture_list_pending (work->path);
  for (guint i = 0; i < work->files->len; i++)
    {
      g_autoptr(GError) error = NULL;
      guint64 n = 0;

      if (g_cancellable_is_cancelled (cancellable))
        break;
      if (!hp_capture_check_pending (g_ptr_array_index (work->files, i), &n, &error))
        {
          work->problem = g_strdup (error->message);
          break;
        }
      work->samples += n;
    }
  g_task_return_boolean (task, TRUE);
}

static void
looked (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  HpPendingBanner *self = HP_PENDING_BANNER (object);
  Work *work = g_task_get_task_data (G_TASK (result));
  g_autofree char *name = NULL;
  g_autofree char *count = NULL;
  g_autofree char *text = NULL;

  if (g_task_had_error (G_TASK (result)) || g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;
  g_clear_pointer (&self->files, g_ptr_array_unref);
  self->files = g_ptr_array_ref (work->files);
  if (work->problem != NULL)
    {
      /* nothing of it is added: said, not offered */
      g_clear_pointer (&self->files, g_ptr_array_unref);
      set_busy (self, FALSE);
      show_problem (self, work->problem);
      return;
    }
  set_busy (self, FALSE);
  if (self->files->len == 0)
    {
      gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
      return;
    }
  name = g_path_get_basename (g_ptr_array_index (self->files, 0));
  {
    g_autofree char *shown = hp_text_escape (name);

    count = hp_format_count (work->samples);
    /* Translators: number of samples, file name (NAME.hotpath.pending.sql) */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%s sample of this recording waited for another program's write lock "
                                         "and is not in the capture yet: it is in %s beside it.",
                                         "%s samples of this recording waited for another program's write lock "
                                         "and are not in the capture yet: they are in %s beside it.",
                                         (gulong) MIN (work->samples, G_MAXULONG)),
                            count, shown);
  }
  gtk_image_set_from_icon_name (self->icon, "dialog-warning-symbolic");
  gtk_label_set_text (self->label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->label), text);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
}

void
hp_pending_banner_set_capture (HpPendingBanner *self,
                               const char      *path)
{
  g_autoptr(GTask) task = NULL;
  Work *work;

  g_return_if_fail (HP_IS_PENDING_BANNER (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_free (self->path);
  self->path = g_strdup (path);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  set_busy (self, FALSE);
  if (path == NULL)
    return;

  self->cancellable = g_cancellable_new ();
  work = g_new0 (Work, 1);
  work->path = g_strdup (path);
  task = g_task_new (self, self->cancellable, looked, NULL);
  g_task_set_task_data (task, work, (GDestroyNotify) work_free);
  set_busy (self, TRUE);
  g_task_run_in_thread (task, look);
}

/* Adding -------------------------------------------------------------- */

static void
add (GTask        *task,
     gpointer      source,
     gpointer      data,
     GCancellable *cancellable)
{
  Work *work = data;

  for (guint i = 0; i < work->files->len; i++)
    {
      g_autoptr(GError) error = NULL;
      guint64 n = 0;

      if (!hp_capture_add_pending (work->path, g_ptr_array_index (work->files, i), cancellable, &n, &error))
        {
          work->problem = g_strdup (error->message);
          break;
        }
      work->samples += n;
    }
  g_task_return_boolean (task, TRUE);
}

static void
added (GObject      *object,
       GAsyncResult *result,
       gpointer      user_data)
{
  HpPendingBanner *self = HP_PENDING_BANNER (object);
  Work *work = g_task_get_task_data (G_TASK (result));

  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;
  set_busy (self, FALSE);
  if (work->problem != NULL)
    {
      g_clear_pointer (&self->files, g_ptr_array_unref);
      set_busy (self, FALSE);
      show_problem (self, work->problem);
    }
  /* some may have been added before a file that could not be */
  if (work->samples > 0 || work->problem == NULL)
    g_signal_emit (self, signals[SIGNAL_ADDED], 0);
}

static void
add_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  HpPendingBanner *self = HP_PENDING_BANNER (widget);
  g_autoptr(GTask) task = NULL;
  Work *work;

  if (self->busy || self->path == NULL || self->files == NULL || self->files->len == 0)
    return;
  work = g_new0 (Work, 1);
  work->path = g_strdup (self->path);
  work->files = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < self->files->len; i++)
    g_ptr_array_add (work->files, g_strdup (g_ptr_array_index (self->files, i)));
  task = g_task_new (self, self->cancellable, added, NULL);
  g_task_set_task_data (task, work, (GDestroyNotify) work_free);
  set_busy (self, TRUE);
  gtk_label_set_text (self->label, _("Adding the samples to the capture…"));
  g_task_run_in_thread (task, add);
}

/* For tests ----------------------------------------------------------- */

const char *
hp_pending_banner_get_text (HpPendingBanner *self)
{
  g_return_val_if_fail (HP_IS_PENDING_BANNER (self), NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self)) ? gtk_label_get_text (self->label) : NULL;
}

gboolean
hp_pending_banner_is_busy (HpPendingBanner *self)
{
  g_return_val_if_fail (HP_IS_PENDING_BANNER (self), FALSE);

  return self->busy;
}

/* Type ---------------------------------------------------------------- */

static void
hp_pending_banner_dispose (GObject *object)
{
  HpPendingBanner *self = HP_PENDING_BANNER (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_clear_pointer (&self->path, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), HP_TYPE_PENDING_BANNER);

  G_OBJECT_CLASS (hp_pending_banner_parent_class)->dispose (object);
}

static void
hp_pending_banner_class_init (HpPendingBannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hp_pending_banner_dispose;

  /* the samples were added: the capture is to be opened again */
  signals[SIGNAL_ADDED] = g_signal_new ("added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-pending-banner.ui");
  gtk_widget_class_bind_template_child (widget_class, HpPendingBanner, banner);
  gtk_widget_class_bind_template_child (widget_class, HpPendingBanner, icon);
  gtk_widget_class_bind_template_child (widget_class, HpPendingBanner, label);
  gtk_widget_class_bind_template_child (widget_class, HpPendingBanner, add_button);
  gtk_widget_class_install_action (widget_class, "pending.add", NULL, add_action);
}

static void
hp_pending_banner_init (HpPendingBanner *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "pending.add", FALSE);
}
