/* hp-event-selector.c - which event of a capture the views count
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A capture may count several events (page faults beside cpu-clock,
 * off-CPU time beside on-CPU time), whose numbers do not add up: the
 * views count one at a time, and this dropdown chooses which. Each entry
 * names the event and what is counted of it ("page-faults: page faults",
 * "cpu-clock: samples", "wall: time on and off the CPU"), in the words
 * hp-format.c gives every caption, so the choice reads as the views do.
 * The window builds the profile of the chosen event (HpProfileFilter).
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "ui/hp-cell.h"
#include "ui/hp-event-selector.h"
#include "ui/hp-template.h"
#include "document/hp-format.h"

struct _HpEventSelector {
  GtkWidget    parent_instance;

  GtkDropDown *dropdown;
  GPtrArray   *events;   /* names, one per dropdown entry */
};

G_DEFINE_FINAL_TYPE (HpEventSelector, hp_event_selector, GTK_TYPE_WIDGET)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
on_selected (GtkDropDown     *dropdown,
             GParamSpec      *pspec,
             HpEventSelector *self)
{
  g_signal_emit (self, signals[CHANGED], 0);
}

/* The button shows the chosen event by its name alone ("page-faults",
 * "wall"), and the list each with what it counts: beside the process and
 * thread filters and the search, in the 850 pixels the call tree's side of
 * the window has, the whole label ("page-faults: page faults") was cut
 * to "page-fa…". */
static void
setup_button_item (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   HpEventSelector          *self)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  /* "page-faults" whole; a long tracepoint's name is cut */
  gtk_label_set_width_chars (GTK_LABEL (label), 11);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
  gtk_list_item_set_child (item, label);
}

static void
bind_button_item (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  HpEventSelector          *self)
{
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  guint position = gtk_list_item_get_position (item);
  const char *text = gtk_string_object_get_string (gtk_list_item_get_item (item));

  if (self->events != NULL && position < self->events->len)
    gtk_label_set_text (label, g_ptr_array_index (self->events, position));
  else
    gtk_label_set_text (label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (label), text);
}

void
hp_event_selector_set_capture (HpEventSelector *self,
                               HpLoadedCapture *capture)
{
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);

  g_return_if_fail (HP_IS_EVENT_SELECTOR (self));

  g_clear_pointer (&self->events, g_ptr_array_unref);
  if (capture != NULL)
    self->events = hp_measure_list_events (capture->data);
  for (guint i = 0; self->events != NULL && i < self->events->len; i++)
    {
      HpMeasure measure;
      g_autofree char *label = NULL;

      if (!hp_measure_init (&measure, capture->data, g_ptr_array_index (self->events, i)))
        continue;
      label = hp_format_measure_label (&measure);
      gtk_string_list_append (labels, label);
      hp_measure_clear (&measure);
    }
  g_signal_handlers_block_by_func (self->dropdown, on_selected, self);
  gtk_drop_down_set_model (self->dropdown, G_LIST_MODEL (labels));
  gtk_drop_down_set_selected (self->dropdown, 0);
  g_signal_handlers_unblock_by_func (self->dropdown, on_selected, self);
  gtk_widget_set_visible (GTK_WIDGET (self), self->events != NULL && self->events->len > 1);
}

const char *
hp_event_selector_get_event (HpEventSelector *self)
{
  guint selected;

  g_return_val_if_fail (HP_IS_EVENT_SELECTOR (self), NULL);

  selected = gtk_drop_down_get_selected (self->dropdown);
  if (self->events == NULL || selected >= self->events->len)
    return NULL;
  return g_ptr_array_index (self->events, selected);
}

gboolean
hp_event_selector_set_event (HpEventSelector *self,
                             const char      *event)
{
  g_return_val_if_fail (HP_IS_EVENT_SELECTOR (self), FALSE);

  for (guint i = 0; self->events != NULL && i < self->events->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->events, i), event) == 0)
      {
        gtk_drop_down_set_selected (self->dropdown, i);
        return TRUE;
      }
  return FALSE;
}

GtkDropDown *
hp_event_selector_get_dropdown (HpEventSelector *self)
{
  g_return_val_if_fail (HP_IS_EVENT_SELECTOR (self), NULL);

  return self->dropdown;
}

static void
hp_event_selector_dispose (GObject *object)
{
  HpEventSelector *self = HP_EVENT_SELECTOR (object);

  hp_template_dispose (GTK_WIDGET (self), HP_TYPE_EVENT_SELECTOR);
  g_clear_pointer (&self->events, g_ptr_array_unref);

  G_OBJECT_CLASS (hp_event_selector_parent_class)->dispose (object);
}

static void
hp_event_selector_class_init (HpEventSelectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hp_event_selector_dispose;

  /* the choice changed: the window builds the chosen event's profile */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-event-selector.ui");
  gtk_widget_class_bind_template_child (widget_class, HpEventSelector, dropdown);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
hp_event_selector_init (HpEventSelector *self)
{
  g_autoptr(GtkListItemFactory) button = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkListItemFactory) list = hp_cell_dropdown_factory_new (FALSE);

  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self->dropdown, "notify::selected", G_CALLBACK (on_selected), self);
  /* GtkDropDown's own label asked for "wall: time on and off the CPU"
   * whole, and the window grew past 1024 pixels */
  g_signal_connect (button, "setup", G_CALLBACK (setup_button_item), self);
  g_signal_connect (button, "bind", G_CALLBACK (bind_button_item), self);
  gtk_drop_down_set_factory (self->dropdown, button);
  gtk_drop_down_set_list_factory (self->dropdown, list);
}
