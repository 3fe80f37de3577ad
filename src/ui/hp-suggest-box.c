/* hp-suggest-box.c - Suggest: a summary drafted from the code or by a summarizer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Under the summary of the selected call path, Suggest drafts one: a
 * worker gathers what the code says (hp_suggest_input_new() reads source
 * files), then, when a summarizer command is set, the command gets that
 * as JSON and its answer is the suggestion (hp_summarizer_run_async(): a
 * child process watched from the main loop, which never waits for it).
 * Cancel stops either step.
 *
 * A suggestion is shown apart from the summary, editable, and is never
 * saved unasked: "Use as Summary" hands its text to the window (the
 * "accepted" signal), which puts it in the summary pane, and only that
 * saves; "Discard" drops it, and so does selecting another path (a
 * suggestion belongs to the path it was made for). When the summarizer
 * fails, its error and its stderr are shown, with the draft from the code
 * as the suggestion.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "document/hp-suggest.h"
#include "document/hp-summarizer.h"
#include "analysis/hp-text.h"
#include "ui/hp-suggest-box.h"
#include "ui/hp-template.h"

struct _HpSuggestBox {
  GtkWidget         parent_instance;

  GtkButton        *suggest_button;
  GtkSpinner       *spinner;
  GtkLabel         *status_label;
  GtkButton        *cancel_button;
  GtkMenuButton    *settings_button;
  GtkEntry         *command_entry;
  GtkSpinButton    *timeout_spin;
  GtkWidget        *error_box;
  GtkLabel         *error_label;
  GtkLabel         *stderr_label;
  GtkWidget        *suggestion_box;
  GtkWidget        *suggestion_actions;
  GtkTextView      *text_view;

  HpLoadedProfile  *profile;
  const HpCallNode *node;
  gboolean          bottom_up;
  gboolean          can_accept;
  GStrv             source_paths;
  GCancellable     *cancellable;
  char             *draft;      /* the draft from the code, while the summarizer runs */
  HpSuggestState    state;
};

G_DEFINE_FINAL_TYPE (HpSuggestBox, hp_suggest_box, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_COMMAND,
  PROP_TIMEOUT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  ACCEPTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
set_status (HpSuggestBox *self,
            const char   *status)
{
  gtk_label_set_text (self->status_label, status ? status : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_label), status);
}

static void
update_actions (HpSuggestBox *self)
{
  gboolean has_path = self->profile != NULL && self->node != NULL && !self->bottom_up;
  gboolean running = self->state == HP_SUGGEST_RUNNING;
  gboolean shown = self->state == HP_SUGGEST_SHOWN;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "suggest.run", has_path && !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "suggest.cancel", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "suggest.accept", shown && self->can_accept);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "suggest.discard", shown);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), running);
  gtk_spinner_set_spinning (self->spinner, running);
  gtk_widget_set_visible (GTK_WIDGET (self->cancel_button), running);
  gtk_widget_set_visible (self->suggestion_box, shown);
  gtk_widget_set_visible (self->suggestion_actions, shown);
}

static void
clear_error (HpSuggestBox *self)
{
  gtk_widget_set_visible (self->error_box, FALSE);
  gtk_label_set_text (self->error_label, "");
  gtk_label_set_text (self->stderr_label, "");
}

/* Drops a running suggestion and a shown one. */
static void
reset (HpSuggestBox *self)
{
  if (self->cancellable != NULL)
    {
      g_cancellable_cancel (self->cancellable);
      g_clear_object (&self->cancellable);
    }
  g_clear_pointer (&self->draft, g_free);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->text_view), "", -1);
  clear_error (self);
  set_status (self, NULL);
  self->state = HP_SUGGEST_IDLE;
  update_actions (self);
}

static void
show_suggestion (HpSuggestBox *self,
                 const char   *text,
                 const char   *status)
{
  g_autofree char *valid = hp_text_make_valid (text);

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->text_view), valid, -1);
  self->state = HP_SUGGEST_SHOWN;
  set_status (self, status);
  g_clear_object (&self->cancellable);
  update_actions (self);
}

static const char *
command (HpSuggestBox *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->command_entry));

  return text[strspn (text, " \t")] != '\0' ? text : NULL;
}

static void
summarizer_done (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(HpSuggestBox) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  g_autofree char *text = hp_summarizer_run_finish (result, &err, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;  /* reset() or Cancel has set the state */
  if (text != NULL)
    {
      show_suggestion (self, text, _("Suggested by the summarizer; not saved until you use it"));
      return;
    }
  gtk_label_set_text (self->error_label, error->message);
  gtk_label_set_text (self->stderr_label, err ? err : "");
  gtk_widget_set_visible (GTK_WIDGET (gtk_widget_get_parent (GTK_WIDGET (self->stderr_label))),
                          err != NULL && err[0] != '\0');
  gtk_widget_set_visible (self->error_box, TRUE);
  show_suggestion (self, self->draft, _("The summarizer failed; this is the draft from the code"));
}

typedef struct {
  HpLoadedProfile  *profile;
  const HpCallNode *node;
  GStrv             source_paths;
} GatherRequest;

static void
gather_request_free (gpointer p)
{
  GatherRequest *req = p;

  hp_loaded_profile_unref (req->profile);
  g_strfreev (req->source_paths);
  g_free (req);
}

static void
gather_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GatherRequest *req = task_data;

  g_task_return_pointer (task, hp_suggest_input_new (req->profile->profile, req->node,
                                                     (const char * const *) req->source_paths),
                         (GDestroyNotify) hp_suggest_input_free);
}

static void
gathered (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  HpSuggestBox *self = HP_SUGGEST_BOX (object);
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  g_autoptr(HpSuggestInput) input = g_task_propagate_pointer (G_TASK (result), NULL);
  g_autofree char *json = NULL;
  g_autofree char *status = NULL;
  const char *cmd;

  if (input == NULL || cancellable != self->cancellable || g_cancellable_is_cancelled (cancellable))
    return;

  cmd = command (self);
  if (cmd == NULL)
    {
      show_suggestion (self, input->draft, _("Drafted from the code; not saved until you use it"));
      return;
    }
  self->draft = g_strdup (input->draft);
  json = hp_suggest_input_to_json (input);
  {
    g_autofree char *shown = hp_text_escape (cmd);

    /* Translators: %s is the summarizer's command line */
    status = g_strdup_printf (_("Asking %s…"), shown);
  }
  set_status (self, status);
  hp_summarizer_run_async (cmd, json, (guint) gtk_spin_button_get_value_as_int (self->timeout_spin),
                           self->cancellable, summarizer_done, g_object_ref (self));
}

static void
run_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  HpSuggestBox *self = HP_SUGGEST_BOX (widget);
  g_autoptr(GTask) task = NULL;
  GatherRequest *req;

  if (self->profile == NULL || self->node == NULL || self->bottom_up)
    return;
  reset (self);
  self->cancellable = g_cancellable_new ();
  self->state = HP_SUGGEST_RUNNING;
  set_status (self, _("Reading the code of the path…"));
  update_actions (self);

  req = g_new0 (GatherRequest, 1);
  req->profile = hp_loaded_profile_ref (self->profile);
  req->node = self->node;
  req->source_paths = g_strdupv (self->source_paths);
  task = g_task_new (self, self->cancellable, gathered, NULL);
  g_task_set_source_tag (task, run_action);
  g_task_set_task_data (task, req, gather_request_free);
  g_task_run_in_thread (task, gather_thread);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  HpSuggestBox *self = HP_SUGGEST_BOX (widget);

  if (self->state != HP_SUGGEST_RUNNING)
    return;
  reset (self);
  set_status (self, _("Cancelled"));
}

static void
accept_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  HpSuggestBox *self = HP_SUGGEST_BOX (widget);
  g_autofree char *text = hp_suggest_box_get_text (self);

  if (self->state != HP_SUGGEST_SHOWN || !self->can_accept)
    return;
  g_signal_emit (self, signals[ACCEPTED], 0, text);
  reset (self);
  set_status (self, _("Used as the summary"));
}

static void
discard_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  HpSuggestBox *self = HP_SUGGEST_BOX (widget);

  reset (self);
  set_status (self, _("Discarded"));
}

void
hp_suggest_box_set_node (HpSuggestBox       *self,
                         HpLoadedProfile    *profile,
                         const HpCallNode   *node,
                         gboolean            bottom_up,
                         gboolean            can_accept,
                         const char * const *source_paths)
{
  g_return_if_fail (HP_IS_SUGGEST_BOX (self));

  if (source_paths != NULL && (self->source_paths == NULL ||
                               !g_strv_equal ((const char * const *) self->source_paths, source_paths)))
    {
      g_strfreev (self->source_paths);
      self->source_paths = g_strdupv ((char **) source_paths);
    }
  self->can_accept = can_accept;
  if (profile == self->profile && node == self->node && bottom_up == self->bottom_up)
    {
      update_actions (self);
      return;
    }
  if (profile != self->profile)
    {
      g_clear_pointer (&self->profile, hp_loaded_profile_unref);
      if (profile != NULL)
        self->profile = hp_loaded_profile_ref (profile);
    }
  self->node = profile != NULL ? node : NULL;
  self->bottom_up = bottom_up;
  reset (self);
}

HpSuggestState
hp_suggest_box_get_state (HpSuggestBox *self)
{
  g_return_val_if_fail (HP_IS_SUGGEST_BOX (self), HP_SUGGEST_IDLE);

  return self->state;
}

char *
hp_suggest_box_get_text (HpSuggestBox *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (HP_IS_SUGGEST_BOX (self), NULL);

  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

void
hp_suggest_box_set_text (HpSuggestBox *self,
                         const char   *text)
{
  g_return_if_fail (HP_IS_SUGGEST_BOX (self));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->text_view), text, -1);
}

const char *
hp_suggest_box_get_status (HpSuggestBox *self)
{
  g_return_val_if_fail (HP_IS_SUGGEST_BOX (self), NULL);

  return gtk_label_get_text (self->status_label);
}

const char *
hp_suggest_box_get_error (HpSuggestBox *self)
{
  g_return_val_if_fail (HP_IS_SUGGEST_BOX (self), NULL);

  return gtk_widget_get_visible (self->error_box) ? gtk_label_get_text (self->error_label) : NULL;
}

const char *
hp_suggest_box_get_stderr (HpSuggestBox *self)
{
  g_return_val_if_fail (HP_IS_SUGGEST_BOX (self), NULL);

  return gtk_label_get_text (self->stderr_label);
}

static void
hp_suggest_box_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  HpSuggestBox *self = HP_SUGGEST_BOX (object);

  switch (prop_id)
    {
    case PROP_COMMAND:
      g_value_set_string (value, gtk_editable_get_text (GTK_EDITABLE (self->command_entry)));
      break;
    case PROP_TIMEOUT:
      g_value_set_int (value, gtk_spin_button_get_value_as_int (self->timeout_spin));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hp_suggest_box_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  HpSuggestBox *self = HP_SUGGEST_BOX (object);

  switch (prop_id)
    {
    case PROP_COMMAND:
      gtk_editable_set_text (GTK_EDITABLE (self->command_entry), g_value_get_string (value) ?: "");
      break;
    case PROP_TIMEOUT:
      gtk_spin_button_set_value (self->timeout_spin, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
on_command_changed (HpSuggestBox *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMMAND]);
}

static void
on_timeout_changed (HpSuggestBox *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMEOUT]);
}

static void
hp_suggest_box_dispose (GObject *object)
{
  HpSuggestBox *self = HP_SUGGEST_BOX (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->profile, hp_loaded_profile_unref);
  hp_template_dispose (GTK_WIDGET (self), HP_TYPE_SUGGEST_BOX);

  G_OBJECT_CLASS (hp_suggest_box_parent_class)->dispose (object);
}

static void
hp_suggest_box_finalize (GObject *object)
{
  HpSuggestBox *self = HP_SUGGEST_BOX (object);

  g_strfreev (self->source_paths);
  g_free (self->draft);

  G_OBJECT_CLASS (hp_suggest_box_parent_class)->finalize (object);
}

static void
hp_suggest_box_class_init (HpSuggestBoxClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hp_suggest_box_dispose;
  object_class->finalize = hp_suggest_box_finalize;
  object_class->get_property = hp_suggest_box_get_property;
  object_class->set_property = hp_suggest_box_set_property;

  /* the summarizer command line, "" for none (GSettings summarizer-command) */
  properties[PROP_COMMAND] =
    g_param_spec_string ("command", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* seconds it may run (GSettings summarizer-timeout) */
  properties[PROP_TIMEOUT] =
    g_param_spec_int ("timeout", NULL, NULL, 1, 3600, HP_SUMMARIZER_DEFAULT_TIMEOUT,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* (text) the user chose to use the suggestion as the path's summary */
  signals[ACCEPTED] =
    g_signal_new ("accepted", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_install_action (widget_class, "suggest.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "suggest.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "suggest.accept", NULL, accept_action);
  gtk_widget_class_install_action (widget_class, "suggest.discard", NULL, discard_action);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-suggest-box.ui");
  gtk_widget_class_bind_template_child (widget_class, HpSuggestBox, suggest_button);
  gtk_widget_class_bind_template_child (widget_class, HpSuggestBox, spinner);
  gtk_widget_class_bind_template_child (widget_class, HpSuggestBox, status_label);
  gtk_widget_class_bind_template_child (widget_class, HpSuggestBox, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, HpSuggestBox, settings_button);
  gtk_widget_class_bind_template_child (widget_class, HpSuggestBox, command_entry);
  gtk_widget_class_bind_template_child (widget_class, HpSuggestBox, timeout_spin);
  gtk_widget_class_bind_template_child (widget_class, HpSuggestBox, error_box);
  gtk_widget_class_bind_template_child (widget_class, HpSuggestBox, error_label);
  gtk_widget_class_bind_template_child (widget_class, HpSuggestBox, stderr_label);
  gtk_widget_class_bind_template_child (widget_class, HpSuggestBox, suggestion_box);
  gtk_widget_class_bind_template_child (widget_class, HpSuggestBox, suggestion_actions);
  gtk_widget_class_bind_template_child (widget_class, HpSuggestBox, text_view);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
hp_suggest_box_init (HpSuggestBox *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (self->command_entry, "changed", G_CALLBACK (on_command_changed), self);
  g_signal_connect_swapped (self->timeout_spin, "value-changed", G_CALLBACK (on_timeout_changed), self);
  self->source_paths = g_new0 (char *, 1);
  reset (self);
}
