/* hp-event-selector.h - which event of a capture the views count
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/hp-loaded-capture.h"

G_BEGIN_DECLS

#define HP_TYPE_EVENT_SELECTOR (hp_event_selector_get_type ())
G_DECLARE_FINAL_TYPE (HpEventSelector, hp_event_selector, HP, EVENT_SELECTOR, GtkWidget)

/* Lists the events of @capture (and "wall" where it has on- and off-CPU
 * time), the first chosen; hidden when there is one event or no capture.
 * Emits no "changed". */
void        hp_event_selector_set_capture (HpEventSelector *self,
                                           HpLoadedCapture *capture);
/* The chosen event's name (hp_measure_list_events()), or NULL */
const char *hp_event_selector_get_event   (HpEventSelector *self);
/* Chooses @event, emitting "changed" when that changes the choice;
 * FALSE when the capture has no such event. */
gboolean    hp_event_selector_set_event   (HpEventSelector *self,
                                           const char      *event);
GtkDropDown *hp_event_selector_get_dropdown (HpEventSelector *self);

G_END_DECLS
