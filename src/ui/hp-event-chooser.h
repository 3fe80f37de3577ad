/* hp-event-chooser.h - what a recording counts: events, off-CPU time, the whole system
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "record/hp-record-plan.h"

G_BEGIN_DECLS

#define HP_TYPE_EVENT_CHOOSER (hp_event_chooser_get_type ())
G_DECLARE_FINAL_TYPE (HpEventChooser, hp_event_chooser, HP, EVENT_CHOOSER, GtkWidget)

/* Fills @plan's events, off_cpu and system_wide from the choices. */
void        hp_event_chooser_apply      (HpEventChooser *self,
                                         HpRecordPlan   *plan);
/* One line for a button: "cpu-clock, page-faults + off-CPU time" */
char       *hp_event_chooser_describe   (HpEventChooser *self);
/* Shows @message (NULL: hides it) under the choices: a refusal. */
void        hp_event_chooser_show_error (HpEventChooser *self,
                                         const char     *message);
const char *hp_event_chooser_get_error  (HpEventChooser *self);

/* For tests: the check button of event @name, or NULL; the off-CPU and
 * whole-system checks */
GtkCheckButton *hp_event_chooser_get_check (HpEventChooser *self,
                                            const char     *name);
GtkCheckButton *hp_event_chooser_get_off_cpu_check (HpEventChooser *self);
GtkCheckButton *hp_event_chooser_get_system_wide_check (HpEventChooser *self);
GtkEntry       *hp_event_chooser_get_tracepoints_entry (HpEventChooser *self);
/* The events listed, in order (char*) */
GPtrArray  *hp_event_chooser_list_events (HpEventChooser *self);
/* The note above the hardware events, which says once why this machine
 * cannot count them; NULL when it can. */
const char *hp_event_chooser_get_hardware_note (HpEventChooser *self);

G_END_DECLS
