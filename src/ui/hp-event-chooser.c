/* hp-event-chooser.c - what a recording counts: events, off-CPU time, the whole system
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The Record dialog's choice of what to count, the same as hotpath-cli
 * record offers: the events of record/hp-events.c (the list --list-events
 * prints), each with its sentence; tracepoints by name; off-CPU time; the
 * whole system. A hardware event the machine has no counters for is
 * listed, unavailable, never swapped for another; one note above the
 * hardware events says why, once for the group.
 *
 * Off-CPU time and the whole system need rights the user may lack (root,
 * tracefs, kernel.perf_event_paranoid): ticking one checks at once, with
 * the recording plan's own check (hp_record_plan_check_events(), which
 * reads /proc and tracefs, nothing that blocks), and says what is needed,
 * so the refusal comes before Record is pressed rather than after.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "record/hp-events.h"
#include "ui/hp-event-chooser.h"
#include "ui/hp-template.h"

struct _HpEventChooser {
  GtkWidget       parent_instance;

  GtkListBox     *list;
  GtkEntry       *tracepoints_entry;
  GtkCheckButton *off_cpu_check;
  GtkCheckButton *system_wide_check;
  GtkLabel       *error_label;
  GtkLabel       *hardware_note;  /* NULL: the machine has counters */

  GPtrArray      *names;   /* char*, one per row */
  GPtrArray      *checks;  /* GtkCheckButton*, one per row (borrowed) */
};

G_DEFINE_FINAL_TYPE (HpEventChooser, hp_event_chooser, GTK_TYPE_WIDGET)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

void
hp_event_chooser_show_error (HpEventChooser *self,
                             const char     *message)
{
  g_return_if_fail (HP_IS_EVENT_CHOOSER (self));

  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

const char *
hp_event_chooser_get_error (HpEventChooser *self)
{
  g_return_val_if_fail (HP_IS_EVENT_CHOOSER (self), NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self->error_label)) ? gtk_label_get_text (self->error_label) : NULL;
}

void
hp_event_chooser_apply (HpEventChooser *self,
                        HpRecordPlan   *plan)
{
  g_autoptr(GStrvBuilder) events = g_strv_builder_new ();
  g_auto(GStrv) tracepoints = NULL;

  g_return_if_fail (HP_IS_EVENT_CHOOSER (self));
  g_return_if_fail (plan != NULL);

  for (guint i = 0; i < self->checks->len; i++)
    if (gtk_check_button_get_active (g_ptr_array_index (self->checks, i)))
      g_strv_builder_add (events, g_ptr_array_index (self->names, i));
  tracepoints = g_strsplit (gtk_editable_get_text (GTK_EDITABLE (self->tracepoints_entry)), ",", -1);
  for (guint i = 0; tracepoints[i] != NULL; i++)
    {
      g_strstrip (tracepoints[i]);
      if (tracepoints[i][0] != '\0')
        g_strv_builder_add (events, tracepoints[i]);
    }
  g_strfreev (plan->events);
  plan->events = g_strv_builder_end (events);
  /* none chosen: the recorder's default (cycles, or cpu-clock) */
  if (plan->events[0] == NULL)
    g_clear_pointer (&plan->events, g_strfreev);
  plan->off_cpu = gtk_check_button_get_active (self->off_cpu_check);
  plan->system_wide = gtk_check_button_get_active (self->system_wide_check);
}

char *
hp_event_chooser_describe (HpEventChooser *self)
{
  g_autoptr(HpRecordPlan) plan = g_new0 (HpRecordPlan, 1);
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (HP_IS_EVENT_CHOOSER (self), NULL);

  hp_event_chooser_apply (self, plan);
  if (plan->events != NULL)
    {
      g_autofree char *joined = g_strjoinv (", ", plan->events);

      g_string_append (text, joined);
    }
  else
    g_string_append (text, _("the default event"));
  if (plan->off_cpu)
    /* Translators: after the events of the Record dialog's button */
    g_string_append (text, _(" + off-CPU time"));
  if (plan->system_wide)
    /* Translators: after the events of the Record dialog's button */
    g_string_append (text, _(", whole system"));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The rights off-CPU time and the whole system need, checked as soon as
 * they are ticked. */
static void
check_rights (HpEventChooser *self)
{
  g_autoptr(HpRecordPlan) plan = g_new0 (HpRecordPlan, 1);
  g_autoptr(GError) error = NULL;

  plan->off_cpu = gtk_check_button_get_active (self->off_cpu_check);
  plan->system_wide = gtk_check_button_get_active (self->system_wide_check);
  if (!hp_record_plan_check_events (plan, &error))
    hp_event_chooser_show_error (self, error->message);
  else
    hp_event_chooser_show_error (self, NULL);
}

static void
on_changed (HpEventChooser *self)
{
  check_rights (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
on_row_activated (GtkListBox     *list,
                  GtkListBoxRow  *row,
                  HpEventChooser *self)
{
  GtkCheckButton *check = g_object_get_data (G_OBJECT (gtk_list_box_row_get_child (row)), "check");

  /* the hardware note is a row without a check */
  if (check != NULL && gtk_widget_get_sensitive (GTK_WIDGET (check)))
    gtk_check_button_set_active (check, !gtk_check_button_get_active (check));
}

/* The one note above the hardware events a machine has no counters
 * for: why, said once for the group rather than on each row. */
static void
add_hardware_note (HpEventChooser *self,
                   const char     *why)
{
  GtkWidget *note = gtk_label_new (NULL);
  GtkWidget *row;
  /* Translators: above the hardware events of the Record dialog, which
   * this machine cannot count; then why */
  g_autofree char *text = g_strdup_printf (_("Hardware events cannot be counted here: %s"), why);

  gtk_label_set_text (GTK_LABEL (note), text);
  gtk_label_set_xalign (GTK_LABEL (note), 0);
  gtk_label_set_wrap (GTK_LABEL (note), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (note), 64);
  gtk_widget_add_css_class (note, "dim-text");
  gtk_widget_set_margin_start (note, 6);
  gtk_widget_set_margin_end (note, 6);
  gtk_widget_set_margin_top (note, 8);
  gtk_widget_set_margin_bottom (note, 2);
  gtk_list_box_append (self->list, note);
  row = gtk_widget_get_parent (note);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);
  self->hardware_note = GTK_LABEL (note);
}

static void
add_row (HpEventChooser *self,
         const HpEvent  *event,
         gboolean        available,
         gboolean        active)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *check = gtk_check_button_new_with_label (event->name);
  GtkWidget *about = gtk_label_new (event->description);

  gtk_label_set_xalign (GTK_LABEL (about), 0);
  gtk_label_set_wrap (GTK_LABEL (about), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (about), 48);
  gtk_widget_set_hexpand (about, TRUE);
  gtk_widget_add_css_class (about, "dim-text");
  /* an event this machine cannot count reads as unavailable, its
   * reason in the note above the group */
  gtk_widget_set_sensitive (about, available);
  gtk_widget_set_size_request (check, 150, -1);
  gtk_widget_set_sensitive (check, available);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), active && available);
  gtk_widget_set_tooltip_text (box, event->description);
  gtk_box_append (GTK_BOX (box), check);
  gtk_box_append (GTK_BOX (box), about);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  g_object_set_data (G_OBJECT (box), "check", check);
  gtk_list_box_append (self->list, box);
  g_signal_connect_swapped (check, "toggled", G_CALLBACK (on_changed), self);
  g_ptr_array_add (self->names, g_strdup (event->name));
  g_ptr_array_add (self->checks, check);
}

const char *
hp_event_chooser_get_hardware_note (HpEventChooser *self)
{
  g_return_val_if_fail (HP_IS_EVENT_CHOOSER (self), NULL);

  return self->hardware_note != NULL ? gtk_label_get_text (self->hardware_note) : NULL;
}

GtkCheckButton *
hp_event_chooser_get_check (HpEventChooser *self,
                            const char     *name)
{
  g_return_val_if_fail (HP_IS_EVENT_CHOOSER (self), NULL);

  for (guint i = 0; i < self->names->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->names, i), name) == 0)
      return g_ptr_array_index (self->checks, i);
  return NULL;
}

GtkCheckButton *
hp_event_chooser_get_off_cpu_check (HpEventChooser *self)
{
  g_return_val_if_fail (HP_IS_EVENT_CHOOSER (self), NULL);

  return self->off_cpu_check;
}

GtkCheckButton *
hp_event_chooser_get_system_wide_check (HpEventChooser *self)
{
  g_return_val_if_fail (HP_IS_EVENT_CHOOSER (self), NULL);

  return self->system_wide_check;
}

GtkEntry *
hp_event_chooser_get_tracepoints_entry (HpEventChooser *self)
{
  g_return_val_if_fail (HP_IS_EVENT_CHOOSER (self), NULL);

  return self->tracepoints_entry;
}

GPtrArray *
hp_event_chooser_list_events (HpEventChooser *self)
{
  g_return_val_if_fail (HP_IS_EVENT_CHOOSER (self), NULL);

  return self->names;
}

static void
hp_event_chooser_dispose (GObject *object)
{
  HpEventChooser *self = HP_EVENT_CHOOSER (object);

  /* the template's box is no bound child: hp_template_dispose unparents it */
  hp_template_dispose (GTK_WIDGET (self), HP_TYPE_EVENT_CHOOSER);
  g_clear_pointer (&self->names, g_ptr_array_unref);
  g_clear_pointer (&self->checks, g_ptr_array_unref);

  G_OBJECT_CLASS (hp_event_chooser_parent_class)->dispose (object);
}

static void
hp_event_chooser_class_init (HpEventChooserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hp_event_chooser_dispose;

  /* a choice changed: the dialog's button says what will be counted */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-event-chooser.ui");
  gtk_widget_class_bind_template_child (widget_class, HpEventChooser, list);
  gtk_widget_class_bind_template_child (widget_class, HpEventChooser, tracepoints_entry);
  gtk_widget_class_bind_template_child (widget_class, HpEventChooser, off_cpu_check);
  gtk_widget_class_bind_template_child (widget_class, HpEventChooser, system_wide_check);
  gtk_widget_class_bind_template_child (widget_class, HpEventChooser, error_label);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
hp_event_chooser_init (HpEventChooser *self)
{
  g_autoptr(GArray) known = hp_event_list_known ();
  g_autofree char *why = NULL;
  /* one check of the machine, whose answer does not change while it runs */
  gboolean hardware = hp_event_hardware_available (&why);
  const char *first = hardware ? "cycles" : "cpu-clock";

  gtk_widget_init_template (GTK_WIDGET (self));
  self->names = g_ptr_array_new_with_free_func (g_free);
  self->checks = g_ptr_array_new ();
  for (guint i = 0; i < known->len; i++)
    {
      const HpEvent *e = &g_array_index (known, HpEvent, i);

      /* off-CPU time is its own choice, below */
      if (e->kind == HP_EVENT_KIND_OFF_CPU)
        continue;
      if (e->kind == HP_EVENT_KIND_HARDWARE && !hardware && self->hardware_note == NULL)
        add_hardware_note (self, why);
      add_row (self, e, e->kind != HP_EVENT_KIND_HARDWARE || hardware, g_strcmp0 (e->name, first) == 0);
    }
  g_signal_connect (self->list, "row-activated", G_CALLBACK (on_row_activated), self);
  g_signal_connect_swapped (self->off_cpu_check, "toggled", G_CALLBACK (on_changed), self);
  g_signal_connect_swapped (self->system_wide_check, "toggled", G_CALLBACK (on_changed), self);
  g_signal_connect_swapped (self->tracepoints_entry, "changed", G_CALLBACK (on_changed), self);
}
