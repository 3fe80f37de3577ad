/* hp-summary-pane.c - the selected call path and its summary
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Breadcrumbs of the selected call path (each step selects its node) and
 * an editor for the path's summary. Typing saves by itself: every change
 * restarts a HP_SUMMARY_SAVE_DELAY_MS timer, and when it fires the text
 * goes to the HpSummaryStore, which writes it in a worker in one
 * transaction. Switching paths or closing the window saves at once, so
 * nothing typed is lost; a kill loses at most the last half second.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "analysis/hp-summary-match.h"
#include "document/hp-call-path.h"
#include "document/hp-format.h"
#include "ui/hp-summary-pane.h"
#include "ui/hp-template.h"

/* a deeper path shows its first CRUMBS_HEAD and last CRUMBS_TAIL steps */
#define CRUMBS_HEAD 10
#define CRUMBS_TAIL 30

struct _HpSummaryPane {
  GtkWidget          parent_instance;

  GtkLabel          *status_label;
  GtkLabel          *crumbs_label;
  GtkTextView       *text_view;
  GtkLabel          *placeholder;
  GtkLabel          *note_label;

  HpSummaryStore    *store;
  gulong             saved_handler;
  HpLoadedProfile   *profile;
  const HpCallNode  *node;
  gboolean           bottom_up;
  char              *key;       /* NULL when not editable */
  char              *readable;
  guint              save_source;
  gboolean           loading;   /* setting the buffer, not typing */
  GStrv              crumb_names;
};

G_DEFINE_FINAL_TYPE (HpSummaryPane, hp_summary_pane, GTK_TYPE_WIDGET)

enum {
  STEP_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
set_status (HpSummaryPane *self,
            const char    *status)
{
  gtk_label_set_text (self->status_label, status ? status : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_label), status);
}

static char *
buffer_text (HpSummaryPane *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* "Written in old.hotpath on 2026-12-01, 12.3 % then, 8.1 % now." for a
 * summary written in another capture (imported, or from the library);
 * NULL for one written here. */
static char *
describe_origin (HpSummaryPane *self)
{
  g_autofree char *here = NULL;
  double now = NAN;

  if (self->store == NULL || self->key == NULL || hp_summary_store_get (self->store, self->key) == NULL)
    return NULL;
  here = g_path_get_basename (hp_summary_store_get_path (self->store));
  if (self->node != NULL && self->profile != NULL)
    now = hp_summary_share (self->profile->profile, self->node);
  return hp_format_summary_origin (hp_summary_store_get_row (self->store, self->key), here, now);
}

static void
update_placeholder (HpSummaryPane *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);

  gtk_widget_set_visible (GTK_WIDGET (self->placeholder), gtk_text_buffer_get_char_count (buffer) == 0);
}

void
hp_summary_pane_flush (HpSummaryPane *self)
{
  g_autofree char *text = NULL;
  g_autofree char *stripped = NULL;

  g_return_if_fail (HP_IS_SUMMARY_PANE (self));

  if (self->save_source == 0)
    return;
  g_clear_handle_id (&self->save_source, g_source_remove);
  if (self->store == NULL || self->key == NULL)
    return;
  text = buffer_text (self);
  /* the text as typed; only a summary of nothing but blanks is none */
  stripped = g_strstrip (g_strdup (text));
  if (stripped[0] == '\0')
    g_clear_pointer (&text, g_free);
  set_status (self, _("Saving…"));
  hp_summary_store_set_full (self->store, self->key, self->readable, text,
                             self->node != NULL && self->profile != NULL ?
                             hp_summary_share (self->profile->profile, self->node) : NAN);
  if (hp_summary_store_get_n_pending (self->store) == 0)
    set_status (self, _("Saved in the capture"));
}

static gboolean
save_cb (gpointer user_data)
{
  HpSummaryPane *self = user_data;

  /* hp_summary_pane_flush() clears the source id itself */
  hp_summary_pane_flush (self);
  return G_SOURCE_REMOVE;
}

static void
on_buffer_changed (GtkTextBuffer *buffer,
                   HpSummaryPane *self)
{
  update_placeholder (self);
  if (self->loading || self->key == NULL)
    return;
  set_status (self, _("Edited"));
  g_clear_handle_id (&self->save_source, g_source_remove);
  self->save_source = g_timeout_add (HP_SUMMARY_SAVE_DELAY_MS, save_cb, self);
}

static void
on_saved (HpSummaryStore *store,
          const char     *key,
          gboolean        ok,
          const char     *message,
          HpSummaryPane  *self)
{
  g_autofree char *status = NULL;

  if (g_strcmp0 (key, self->key) != 0 || self->save_source != 0)
    return;
  if (ok)
    {
      if (hp_summary_store_get_n_pending (store) == 0)
        set_status (self, _("Saved in the capture"));
      return;
    }
  /* Translators: %s is the reason, e.g. "the capture file is read-only" */
  status = g_strdup_printf (_("Not saved: %s"), message);
  set_status (self, status);
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "error");
}

void
hp_summary_pane_set_store (HpSummaryPane  *self,
                           HpSummaryStore *store)
{
  g_return_if_fail (HP_IS_SUMMARY_PANE (self));

  hp_summary_pane_flush (self);
  if (self->store != NULL)
    g_clear_signal_handler (&self->saved_handler, self->store);
  g_set_object (&self->store, store);
  if (store != NULL)
    self->saved_handler = g_signal_connect (store, "saved", G_CALLBACK (on_saved), self);
  hp_summary_pane_set_node (self, NULL, NULL, FALSE);
}

/* The breadcrumbs are one wrapping label whose steps are links
 * ("step:N"): a path 20 steps deep stays whole on two or three lines,
 * where buttons in a row would be cut off or scroll, and one label costs
 * less to rewrite on every selection than 40 widgets. */
static gboolean
on_activate_link (GtkLabel      *label,
                  const char    *uri,
                  HpSummaryPane *self)
{
  guint64 step;

  if (!g_str_has_prefix (uri, "step:") || self->node == NULL ||
      !g_ascii_string_to_unsigned (uri + 5, 10, 0, G_MAXUINT, &step, NULL))
    return FALSE;
  {
    g_autoptr(GPtrArray) steps = hp_call_path_steps (self->node);

    if (step < steps->len)
      g_signal_emit (self, signals[STEP_ACTIVATED], 0, g_ptr_array_index (steps, step));
  }
  return TRUE;
}

static void
build_crumbs (HpSummaryPane *self)
{
  g_autoptr(GPtrArray) steps = NULL;
  g_autoptr(GArray) runs = NULL;
  GString *markup;

  g_strfreev (self->crumb_names);
  self->crumb_names = NULL;
  if (self->node == NULL)
    {
      gtk_label_set_markup (self->crumbs_label, "");
      gtk_widget_set_visible (GTK_WIDGET (self->crumbs_label), FALSE);
      return;
    }

  steps = hp_call_path_steps (self->node);
  markup = g_string_new (NULL);
  self->crumb_names = g_new0 (char *, steps->len + 1);
  for (guint i = 0; i < steps->len; i++)
    {
      const HpCallNode *step = g_ptr_array_index (steps, i);

      self->crumb_names[i] = g_strdup (hp_loaded_capture_get_shown_name (self->profile->capture,
                                                                          step->function_id, TRUE));
    }

  /* one crumb per run of the same function: a recursion 200 deep reads
   * "recurse ×200" rather than filling the pane with its name; the crumb
   * selects the last step of its run */
  runs = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < steps->len; i++)
    {
      const HpCallNode *step = g_ptr_array_index (steps, i);

      if (i + 1 < steps->len &&
          ((const HpCallNode *) g_ptr_array_index (steps, i + 1))->function_id == step->function_id)
        continue;
      g_array_append_val (runs, i);
    }

  for (guint r = 0; r < runs->len; r++)
    {
      guint i = g_array_index (runs, guint, r);
      guint repeats = i + 1 - (r > 0 ? g_array_index (runs, guint, r - 1) + 1 : 0);
      const HpCallNode *step = g_ptr_array_index (steps, i);
      HpLoadedCapture *capture = self->profile->capture;
      g_autofree char *escaped = g_markup_escape_text (self->crumb_names[i], -1);
      g_autofree char *shown = NULL;

      /* a path thousands of steps deep keeps its ends */
      if (runs->len > CRUMBS_HEAD + CRUMBS_TAIL + 1 && r >= CRUMBS_HEAD && r < runs->len - CRUMBS_TAIL)
        {
          if (r == CRUMBS_HEAD)
            g_string_append (markup, self->bottom_up ? " ‹ …" : " › …");
          continue;
        }
      if (r > 0)
        g_string_append (markup, self->bottom_up ? " ‹ " : " › ");
      /* Translators: a function that calls itself, and how many times in a row */
      shown = repeats > 1 ? g_strdup_printf (_("%s ×%u"), escaped, repeats) : g_strdup (escaped);
      if (step == self->node)
        g_string_append_printf (markup, "<b>%s</b>", shown);
      else
        {
          /* Translators: tooltip of a step of the call path: function, module */
          g_autofree char *title = g_strdup_printf (_("Select %s (%s) in the call tree"), self->crumb_names[i],
                                                    hp_loaded_capture_get_shown_module (capture, step->function_id));
          g_autofree char *title_escaped = g_markup_escape_text (title, -1);

          g_string_append_printf (markup, "<a href=\"step:%u\" title=\"%s\">%s</a>", i, title_escaped, shown);
        }
    }
  gtk_label_set_markup (self->crumbs_label, markup->str);
  gtk_widget_set_visible (GTK_WIDGET (self->crumbs_label), TRUE);
  g_string_free (markup, TRUE);
}

void
hp_summary_pane_set_node (HpSummaryPane    *self,
                          HpLoadedProfile  *profile,
                          const HpCallNode *node,
                          gboolean          bottom_up)
{
  GtkTextBuffer *buffer;
  const char *text = NULL;
  const char *reason;

  g_return_if_fail (HP_IS_SUMMARY_PANE (self));

  hp_summary_pane_flush (self);

  if (profile != self->profile)
    {
      g_clear_pointer (&self->profile, hp_loaded_profile_unref);
      if (profile != NULL)
        self->profile = hp_loaded_profile_ref (profile);
    }
  self->node = profile != NULL ? node : NULL;
  self->bottom_up = bottom_up;
  g_clear_pointer (&self->key, g_free);
  g_clear_pointer (&self->readable, g_free);
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
  set_status (self, NULL);

  reason = self->store ? hp_summary_store_get_read_only_reason (self->store) : NULL;
  if (self->node != NULL && !bottom_up && self->store != NULL)
    {
      self->key = hp_call_node_path_key (profile->profile, node);
      self->readable = hp_call_node_readable_path (profile->profile, node);
      text = hp_summary_store_get (self->store, self->key);
    }

  build_crumbs (self);

  buffer = gtk_text_view_get_buffer (self->text_view);
  self->loading = TRUE;
  {
    /* a summary from the capture may hold any bytes: a text buffer takes UTF-8 only */
    g_autofree char *valid = g_utf8_make_valid (text ? text : "", -1);

    gtk_text_buffer_set_text (buffer, valid, -1);
  }
  self->loading = FALSE;
  update_placeholder (self);

  gtk_text_view_set_editable (self->text_view, self->key != NULL && reason == NULL);
  gtk_text_view_set_cursor_visible (self->text_view, self->key != NULL && reason == NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->text_view), self->key != NULL);

  if (self->node == NULL)
    gtk_label_set_text (self->placeholder,
                        _("Select a node in the call tree to see its call path and write what that path does."));
  else if (bottom_up)
    gtk_label_set_text (self->placeholder,
                        _("Summaries belong to top-down call paths (from the program’s entry down). "
                          "Switch to Top-Down, or click a step above, to write one."));
  else if (reason != NULL)
    gtk_label_set_text (self->placeholder, _("No summary for this call path."));
  else
    gtk_label_set_text (self->placeholder,
                        _("Write what this call path does, why it is hot, or what to try…"));

  if (reason != NULL)
    {
      g_autofree char *note = g_strdup_printf (_("Summaries cannot be saved in this capture: %s"), reason);

      gtk_label_set_text (self->note_label, note);
      gtk_widget_add_css_class (GTK_WIDGET (self->note_label), "warning");
      gtk_widget_remove_css_class (GTK_WIDGET (self->note_label), "dim-text");
    }
  else
    {
      g_autofree char *origin = describe_origin (self);

      gtk_label_set_text (self->note_label,
                          origin ? origin :
                          _("Saved in the capture file as you type. It is kept by function names, "
                            "so it finds this call path again after a rebuild or in a new capture."));
      gtk_widget_remove_css_class (GTK_WIDGET (self->note_label), "warning");
      gtk_widget_add_css_class (GTK_WIDGET (self->note_label), "dim-text");
    }
}

const char *
hp_summary_pane_get_key (HpSummaryPane *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_PANE (self), NULL);

  return self->key;
}

char *
hp_summary_pane_get_text (HpSummaryPane *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_PANE (self), NULL);

  return buffer_text (self);
}

void
hp_summary_pane_set_text (HpSummaryPane *self,
                          const char    *text)
{
  GtkTextBuffer *buffer;

  g_return_if_fail (HP_IS_SUMMARY_PANE (self));

  /* as if typed: through the buffer, so the debounce applies */
  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_set_text (buffer, text, -1);
}

const char *
hp_summary_pane_get_status (HpSummaryPane *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_PANE (self), NULL);

  return gtk_label_get_text (self->status_label);
}

const char *
hp_summary_pane_get_note (HpSummaryPane *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_PANE (self), NULL);

  return gtk_label_get_text (self->note_label);
}

gboolean
hp_summary_pane_get_editable (HpSummaryPane *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_PANE (self), FALSE);

  return gtk_text_view_get_editable (self->text_view);
}

const char * const *
hp_summary_pane_get_crumbs (HpSummaryPane *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_PANE (self), NULL);

  return (const char * const *) self->crumb_names;
}

void
hp_summary_pane_activate_crumb (HpSummaryPane *self,
                                guint          index)
{
  g_autofree char *uri = g_strdup_printf ("step:%u", index);
  gboolean handled = FALSE;

  g_return_if_fail (HP_IS_SUMMARY_PANE (self));

  g_signal_emit_by_name (self->crumbs_label, "activate-link", uri, &handled);
}

static void
hp_summary_pane_dispose (GObject *object)
{
  HpSummaryPane *self = HP_SUMMARY_PANE (object);

  hp_summary_pane_flush (self);
  if (self->store != NULL)
    g_clear_signal_handler (&self->saved_handler, self->store);
  g_clear_object (&self->store);
  g_clear_pointer (&self->profile, hp_loaded_profile_unref);
  hp_template_dispose (GTK_WIDGET (self), HP_TYPE_SUMMARY_PANE);

  G_OBJECT_CLASS (hp_summary_pane_parent_class)->dispose (object);
}

static void
hp_summary_pane_finalize (GObject *object)
{
  HpSummaryPane *self = HP_SUMMARY_PANE (object);

  g_free (self->key);
  g_free (self->readable);
  g_strfreev (self->crumb_names);

  G_OBJECT_CLASS (hp_summary_pane_parent_class)->finalize (object);
}

static void
hp_summary_pane_class_init (HpSummaryPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hp_summary_pane_dispose;
  object_class->finalize = hp_summary_pane_finalize;

  /* (node) a breadcrumb was clicked: select that step's node */
  signals[STEP_ACTIVATED] =
    g_signal_new ("step-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-summary-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, HpSummaryPane, status_label);
  gtk_widget_class_bind_template_child (widget_class, HpSummaryPane, crumbs_label);
  gtk_widget_class_bind_template_callback (widget_class, on_activate_link);
  gtk_widget_class_bind_template_child (widget_class, HpSummaryPane, text_view);
  gtk_widget_class_bind_template_child (widget_class, HpSummaryPane, placeholder);
  gtk_widget_class_bind_template_child (widget_class, HpSummaryPane, note_label);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
hp_summary_pane_init (HpSummaryPane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (gtk_text_view_get_buffer (self->text_view), "changed",
                    G_CALLBACK (on_buffer_changed), self);
  hp_summary_pane_set_node (self, NULL, NULL, FALSE);
}
