/* hp-summary-offer.c - summaries from elsewhere: the library's offer, and imports
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Two ways a summary written in another capture reaches this one, both
 * placed by hp_summary_place() (analysis/hp-summary-match.c) on the
 * matching call path, and both written through the summary store, which
 * keeps where and when each was written:
 *
 *  - the per-user library (store/hp-summary-library.c): when a capture
 *    opens, a worker reads the library's summaries of its program, keeps
 *    those whose path this capture has and has no summary for, and the
 *    banner offers them: Show lists them, Apply writes them;
 *  - Import Summaries From… a capture the user picks: every summary is
 *    written, placed or not ("not found in this capture"), and a dialog
 *    says which rule placed each.
 *
 * The library is a convenience: a library that cannot be read (corrupt,
 * locked, another program's) is a warning in the banner, and the capture
 * opens as always.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "analysis/hp-summary-match.h"
#include "analysis/hp-text.h"
#include "store/hp-summary-library.h"
#include "ui/hp-file-chooser.h"
#include "ui/hp-summary-offer.h"

struct _HpSummaryOffer {
  GtkWidget        parent_instance;

  GtkWidget       *banner;
  GtkImage        *icon;
  GtkLabel        *label;
  GtkWidget       *show_button;
  GtkWidget       *apply_button;

  /* the capture, not a profile of it: a profile's trees are the biggest
   * thing a window holds, and this one would be kept for as long as the
   * capture is open, after the filters replaced it (an import builds its
   * own, in the worker) */
  HpLoadedCapture *capture;
  HpSummaryStore  *store;
  GCancellable    *cancellable;
  GPtrArray       *offered;     /* HpSummaryPlacement* */
  char            *report;
  guint            n_busy;
};

G_DEFINE_FINAL_TYPE (HpSummaryOffer, hp_summary_offer, GTK_TYPE_WIDGET)

/* What a worker reads and places, owned by it. */
typedef struct {
  HpLoadedCapture *capture;
  HpLoadedProfile *profile;     /* NULL: the worker builds the whole capture's */
  GPtrArray       *existing;    /* HpCaptureSummary*: the store's now */
  char            *here;        /* the capture the store writes: asked for the rest */
  char            *program;
  char            *path;        /* the capture imported; NULL: the library */
  GPtrArray       *placements;  /* the result */
  char            *warning;     /* the library could not be read */
} Work;

static void
work_free (Work *work)
{
  g_clear_pointer (&work->profile, hp_loaded_profile_unref);
  g_clear_pointer (&work->capture, hp_loaded_capture_unref);
  g_clear_pointer (&work->existing, g_ptr_array_unref);
  g_clear_pointer (&work->placements, g_ptr_array_unref);
  g_free (work->here);
  g_free (work->program);
  g_free (work->path);
  g_free (work->warning);
  g_free (work);
}

/* Places @rows (a page of them) after the pages before, into
 * work->placements. "Already here" is what the store holds now, what the
 * pages before placed, and else what the capture file holds (@here, by a
 * lookup of the path): the store holds the first 10 000 summaries of a
 * capture, and a capture of more was judged from those alone, a summary
 * past them written over by a different one. */
static gboolean
place_page (Work              *work,
            HpSummaryMatcher  *matcher,
            HpCapture         *here,
            GPtrArray         *rows,
            const char        *from,
            GError           **error)
{
  g_autoptr(GPtrArray) placements = NULL;
  g_autoptr(GPtrArray) taken = g_ptr_array_new ();

  g_ptr_array_extend (taken, work->existing, NULL, NULL);
  for (guint i = 0; i < work->placements->len; i++)
    {
      HpSummaryPlacement *p = g_ptr_array_index (work->placements, i);

      if (!p->present && !p->conflict)
        g_ptr_array_add (taken, p->summary);
    }
  placements = hp_summary_place_full (work->profile->profile, matcher, rows, from, taken,
                                      hp_summary_lookup_in_capture, here, error);
  if (placements == NULL)
    return FALSE;
  for (guint i = 0; i < placements->len; i++)
    g_ptr_array_add (work->placements, g_steal_pointer (&placements->pdata[i]));
  return TRUE;
}

/* An import fails with @error; the library's offer becomes a warning in
 * the banner (the library is a convenience) */
static void
fail (GTask  *task,
      Work   *work,
      GError *error)
{
  if (work->path != NULL)
    g_task_return_error (task, error);
  else
    {
      work->warning = g_strdup (error->message);
      g_error_free (error);
      g_task_return_boolean (task, TRUE);
    }
}

static void
place_in_worker (GTask        *task,
                 gpointer      source,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  Work *work = task_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(HpCapture) from_capture = NULL;
  g_autoptr(HpCapture) here = NULL;
  g_autoptr(HpSummaryMatcher) matcher = NULL;
  g_autofree char *from = NULL;

  if (work->path != NULL)
    {
      from_capture = hp_capture_open (work->path, FALSE, &error);
      if (from_capture == NULL || (rows = hp_capture_list_summary_rows (from_capture, &error)) == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      from = g_path_get_basename (work->path);
    }
  else
    {
      g_autoptr(HpSummaryLibrary) library = hp_summary_library_open (NULL, &error);

      if (library == NULL || (rows = hp_summary_library_list (library, work->program, &error)) == NULL)
        {
          fail (task, work, g_steal_pointer (&error));
          return;
        }
    }
  /* a connection of its own to this capture, to judge the rest */
  here = hp_capture_open (work->here, FALSE, &error);
  if (here == NULL)
    {
      fail (task, work, g_steal_pointer (&error));
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;
  if (work->profile == NULL)
    {
      HpProfileFilter whole = { 0 };

      work->profile = hp_loaded_profile_build (work->capture, &whole, NULL);
    }
  matcher = hp_summary_matcher_new (work->profile->profile);
  work->placements = g_ptr_array_new_with_free_func ((GDestroyNotify) hp_summary_placement_free);
  /* an import reads the other capture whole, a page at a time, as
   * hotpath-cli summary --import does */
  for (;;)
    {
      gboolean more = from_capture != NULL && hp_capture_summaries_cut (from_capture);
      g_autofree char *after = NULL;

      if (!place_page (work, matcher, here, rows, from, &error))
        {
          fail (task, work, g_steal_pointer (&error));
          return;
        }
      if (!more || rows->len == 0)
        break;
      if (g_task_return_error_if_cancelled (task))
        return;
      after = g_strdup (((HpCaptureSummary *) g_ptr_array_index (rows, rows->len - 1))->path_key);
      g_clear_pointer (&rows, g_ptr_array_unref);
      rows = hp_capture_list_summary_rows_after (from_capture, after, &error);
      if (rows == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }
  g_task_return_boolean (task, TRUE);
}

/* @profile: the one to place on, or NULL: the worker builds one of the
 * whole capture */
static void
start_work (HpSummaryOffer      *self,
            HpLoadedProfile     *profile,
            const char          *path,
            GAsyncReadyCallback  callback)
{
  g_autoptr(GTask) task = NULL;
  Work *work = g_new0 (Work, 1);

  work->capture = hp_loaded_capture_ref (self->capture);
  work->profile = profile != NULL ? hp_loaded_profile_ref (profile) : NULL;
  work->existing = hp_summary_store_dup_rows (self->store);
  work->here = g_strdup (hp_summary_store_get_path (self->store));
  work->program = g_strdup (self->capture->program);
  work->path = g_strdup (path);
  task = g_task_new (self, self->cancellable, callback, NULL);
  g_task_set_task_data (task, work, (GDestroyNotify) work_free);
  self->n_busy++;
  g_task_run_in_thread (task, place_in_worker);
}

static void
hide_banner (HpSummaryOffer *self)
{
  g_clear_pointer (&self->offered, g_ptr_array_unref);
  gtk_label_set_text (self->label, "");
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

static void
show_warning (HpSummaryOffer *self,
              const char     *message)
{
  g_autofree char *safe = hp_text_escape (message);
  g_autofree char *text = g_strdup_printf (_("The summary library cannot be used: %s"), safe);

  gtk_label_set_text (self->label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->label), text);
  gtk_image_set_from_icon_name (self->icon, "dialog-warning-symbolic");
  gtk_widget_add_css_class (self->banner, "warning");
  gtk_widget_set_visible (self->show_button, FALSE);
  gtk_widget_set_visible (self->apply_button, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
}

static void
offer_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  HpSummaryOffer *self = HP_SUMMARY_OFFER (object);
  Work *work = g_task_get_task_data (G_TASK (result));
  g_autoptr(GPtrArray) offered = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *program = NULL;

  self->n_busy--;
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    return;  /* cancelled: another capture, or none */
  if (work->warning != NULL)
    {
      show_warning (self, work->warning);
      return;
    }
  /* what the library can add: paths this capture has, without a summary */
  offered = g_ptr_array_new_with_free_func ((GDestroyNotify) hp_summary_placement_free);
  for (guint i = 0; i < work->placements->len; i++)
    {
      HpSummaryPlacement *p = g_ptr_array_index (work->placements, i);

      if (p->how != HP_SUMMARY_MATCH_NONE && !p->present && !p->conflict)
        g_ptr_array_add (offered, g_steal_pointer (&work->placements->pdata[i]));
    }
  if (offered->len == 0)
    return;

  program = hp_text_escape (work->program);
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u summary from earlier captures of %s",
                                       "%u summaries from earlier captures of %s", offered->len),
                          offered->len, program);
  g_clear_pointer (&self->offered, g_ptr_array_unref);
  self->offered = g_steal_pointer (&offered);
  gtk_label_set_text (self->label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->label), text);
  gtk_image_set_from_icon_name (self->icon, "document-edit-symbolic");
  gtk_widget_remove_css_class (self->banner, "warning");
  gtk_widget_set_visible (self->show_button, TRUE);
  gtk_widget_set_visible (self->apply_button, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
}

void
hp_summary_offer_set_capture (HpSummaryOffer  *self,
                              HpLoadedProfile *profile,
                              HpSummaryStore  *store,
                              gboolean         offer)
{
  g_return_if_fail (HP_IS_SUMMARY_OFFER (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  hide_banner (self);
  g_clear_pointer (&self->capture, hp_loaded_capture_unref);
  g_clear_object (&self->store);
  if (profile == NULL || store == NULL)
    return;
  self->capture = hp_loaded_capture_ref (profile->capture);
  self->store = g_object_ref (store);
  self->cancellable = g_cancellable_new ();
  if (offer && profile->capture->program != NULL &&
      hp_summary_store_get_read_only_reason (store) == NULL)
    start_work (self, profile, NULL, offer_done);
}

/* One line of a list: the path, the rule, where it was written, the text. */
static void
append_placement (GString                  *out,
                  const HpSummaryPlacement *p)
{
  g_autofree char *path = hp_text_escape (p->how == HP_SUMMARY_MATCH_NONE ? p->old_path : p->summary->path);
  g_autofree char *text = hp_text_escape (p->summary->text);
  g_autofree char *capture = hp_text_escape (p->summary->capture ? p->summary->capture : "?");
  g_autofree char *date = p->summary->updated ? g_utf8_substring (p->summary->updated, 0, 10) : g_strdup ("?");

  if (p->how == HP_SUMMARY_MATCH_NONE)
    g_string_append_printf (out, _("Not found in this capture (kept): %s"), path);
  else
    /* TRANSLATORS: a call path, then the rule that matched it ("exact",
     * "clones folded", "module version", "inlined frame") */
    g_string_append_printf (out, _("%s (%s)"), path, hp_summary_match_to_string (p->how));
  g_string_append_c (out, '\n');
  if (isfinite (p->summary->share) && isfinite (p->share_now))
    g_string_append_printf (out, _("  Written in %s on %s, %.1f %% then, %.1f %% now."),
                            capture, date, p->summary->share, p->share_now);
  else
    g_string_append_printf (out, _("  Written in %s on %s."), capture, date);
  g_string_append_printf (out, "\n  “%s”\n", text);
}

/* The list of a message (the summaries shown or imported, three lines
 * each) scrolls within at most this share of the window's height: as the
 * secondary text of a GtkMessageDialog, 82 summaries made a dialog 3937
 * px tall, its Close button far below the screen. */
#define LIST_HEIGHT_SHARE 0.55
#define LIST_MIN_HEIGHT   160

static GtkWindow *
message (HpSummaryOffer *self,
         const char     *primary,
         const char     *secondary,
         const char     *list)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *dialog = gtk_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                              GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_INFO, GTK_BUTTONS_CLOSE, "%s", primary);

  if (secondary != NULL)
    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", secondary);
  if (list != NULL && list[0] != '\0')
    {
      GtkWidget *area = gtk_message_dialog_get_message_area (GTK_MESSAGE_DIALOG (dialog));
      GtkWidget *scrolled = gtk_scrolled_window_new ();
      GtkWidget *label = gtk_label_new (list);
      int window_height = GTK_IS_WIDGET (root) ? gtk_widget_get_height (GTK_WIDGET (root)) : 0;

      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 70);
      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_label_set_yalign (GTK_LABEL (label), 0.0);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
      gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
      gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled),
                                                  MAX (LIST_MIN_HEIGHT,
                                                       window_height > 0 ? (int) (window_height * LIST_HEIGHT_SHARE)
                                                                         : 400));
      gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), label);
      gtk_box_append (GTK_BOX (area), scrolled);
    }
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
  return GTK_WINDOW (dialog);
}

GtkWindow *
hp_summary_offer_show (HpSummaryOffer *self)
{
  g_autoptr(GString) list = g_string_new (NULL);

  g_return_val_if_fail (HP_IS_SUMMARY_OFFER (self), NULL);

  if (self->offered == NULL)
    return NULL;
  for (guint i = 0; i < self->offered->len && i < 50; i++)
    append_placement (list, g_ptr_array_index (self->offered, i));
  if (self->offered->len > 50)
    g_string_append_printf (list, _("… and %u more"), self->offered->len - 50);
  return message (self, gtk_label_get_text (self->label), NULL, list->str);
}

void
hp_summary_offer_apply (HpSummaryOffer *self)
{
  g_return_if_fail (HP_IS_SUMMARY_OFFER (self));

  if (self->offered == NULL || self->store == NULL)
    return;
  for (guint i = 0; i < self->offered->len; i++)
    {
      HpSummaryPlacement *p = g_ptr_array_index (self->offered, i);

      /* a summary typed meanwhile wins over the library's */
      if (hp_summary_store_get (self->store, p->summary->path_key) == NULL)
        hp_summary_store_put (self->store, p->summary);
    }
  hide_banner (self);
}

static void
on_show_clicked (HpSummaryOffer *self)
{
  hp_summary_offer_show (self);
}

static void
on_apply_clicked (HpSummaryOffer *self)
{
  hp_summary_offer_apply (self);
}

static void
on_dismiss_clicked (HpSummaryOffer *self)
{
  hide_banner (self);
}

static void
import_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  HpSummaryOffer *self = HP_SUMMARY_OFFER (object);
  Work *work = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) list = g_string_new (NULL);
  g_autofree char *primary = NULL;
  g_autofree char *from = g_path_get_basename (work->path);
  guint n_placed = 0, n_lost = 0, n_skipped = 0;

  self->n_busy--;
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_free (self->report);
          self->report = g_strdup (error->message);
          message (self, _("Cannot import summaries"), error->message, NULL);
        }
      return;
    }
  /* the placed ones first, each with its rule, then those kept as not
   * found: a long list scrolls, and what was placed is read first */
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < work->placements->len; i++)
      {
        HpSummaryPlacement *p = g_ptr_array_index (work->placements, i);

        if ((p->how == HP_SUMMARY_MATCH_NONE) != (pass == 1))
          continue;
        if (p->present || p->conflict ||
            (p->how != HP_SUMMARY_MATCH_NONE && hp_summary_store_get (self->store, p->summary->path_key)))
          {
            n_skipped++;
            continue;
          }
        hp_summary_store_put (self->store, p->summary);
        if (p->how == HP_SUMMARY_MATCH_NONE)
          n_lost++;
        else
          n_placed++;
        append_placement (list, p);
      }
  if (n_skipped > 0)
    g_string_append_printf (list, g_dngettext (GETTEXT_PACKAGE,
                                               "%u summary was here already, or this capture has its own for the path.",
                                               "%u summaries were here already, or this capture has its own for their paths.",
                                               n_skipped), n_skipped);
  /* Translators: placed, offered, the capture they come from, not found */
  primary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u summary of %s placed; %u not found in this capture",
                                          "%u of %u summaries of %s placed; %u not found in this capture",
                                          work->placements->len),
                             n_placed, work->placements->len, from, n_lost);
  g_free (self->report);
  self->report = g_strdup_printf ("%s\n%s", primary, list->str);
  message (self, primary, NULL, list->str);
}

void
hp_summary_offer_import_path (HpSummaryOffer *self,
                              const char     *path)
{
  g_return_if_fail (HP_IS_SUMMARY_OFFER (self));
  g_return_if_fail (path != NULL);

  if (self->capture == NULL || self->store == NULL)
    return;
  if (hp_summary_store_get_read_only_reason (self->store) != NULL)
    {
      message (self, _("Cannot import summaries"), hp_summary_store_get_read_only_reason (self->store), NULL);
      return;
    }
  start_work (self, NULL, path, import_done);
}

static void
on_capture_chosen (GListModel *files,
                   gpointer    user_data)
{
  HpSummaryOffer *self = HP_SUMMARY_OFFER (user_data);
  g_autoptr(GFile) file = g_list_model_get_item (files, 0);

  if (g_file_peek_path (file) != NULL)
    hp_summary_offer_import_path (self, g_file_peek_path (file));
}

void
hp_summary_offer_import (HpSummaryOffer *self)
{
  GtkRoot *root;

  g_return_if_fail (HP_IS_SUMMARY_OFFER (self));

  if (self->capture == NULL)
    return;
  root = gtk_widget_get_root (GTK_WIDGET (self));
  hp_capture_chooser_show (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                           _("Import Summaries From"), _("_Import"), 0, NULL,
                           on_capture_chosen, g_object_ref (self), g_object_unref);
}

gboolean
hp_summary_offer_is_busy (HpSummaryOffer *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_OFFER (self), FALSE);

  return self->n_busy > 0;
}

const char *
hp_summary_offer_get_text (HpSummaryOffer *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_OFFER (self), NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self)) ? gtk_label_get_text (self->label) : "";
}

guint
hp_summary_offer_get_n_offered (HpSummaryOffer *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_OFFER (self), 0);

  return self->offered ? self->offered->len : 0;
}

const char *
hp_summary_offer_get_report (HpSummaryOffer *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_OFFER (self), NULL);

  return self->report;
}

static void
hp_summary_offer_dispose (GObject *object)
{
  HpSummaryOffer *self = HP_SUMMARY_OFFER (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->offered, g_ptr_array_unref);
  g_clear_pointer (&self->capture, hp_loaded_capture_unref);
  g_clear_object (&self->store);
  g_clear_pointer (&self->report, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), HP_TYPE_SUMMARY_OFFER);

  G_OBJECT_CLASS (hp_summary_offer_parent_class)->dispose (object);
}

static void
hp_summary_offer_class_init (HpSummaryOfferClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hp_summary_offer_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-summary-offer.ui");
  gtk_widget_class_bind_template_child (widget_class, HpSummaryOffer, banner);
  gtk_widget_class_bind_template_child (widget_class, HpSummaryOffer, icon);
  gtk_widget_class_bind_template_child (widget_class, HpSummaryOffer, label);
  gtk_widget_class_bind_template_child (widget_class, HpSummaryOffer, show_button);
  gtk_widget_class_bind_template_child (widget_class, HpSummaryOffer, apply_button);
  gtk_widget_class_bind_template_callback (widget_class, on_show_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_apply_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_dismiss_clicked);
}

static void
hp_summary_offer_init (HpSummaryOffer *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
