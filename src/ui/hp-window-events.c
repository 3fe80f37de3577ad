/* hp-window-events.c - which event and which process the window's views count
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A capture may count several events (issue 19) and, recorded with -a,
 * hold every process of the machine. The event selector chooses what
 * every view counts; the process filter, beside the thread filter,
 * narrows the threads to one process, busiest first. Both only change
 * the window's filter: hp-window.c builds the profile for it, with the
 * timeline's range, in a worker (rebuild_profile).
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "analysis/hp-symbol-name.h"
#include "document/hp-format.h"
#include "ui/hp-cell.h"
#include "ui/hp-window-private.h"

/* the longest process command shown in the filter, in characters */
#define SHOWN_PROCESS_CHARS 60

typedef struct {
  gint32  pid;
  guint64 samples;  /* in the whole capture: the order, and whether it is listed */
  guint64 shown;    /* in the profile's range, if it has one */
} ProcessSamples;

static int
compare_process_samples (gconstpointer a,
                         gconstpointer b)
{
  const ProcessSamples *x = a, *y = b;

  if (x->samples != y->samples)
    return x->samples > y->samples ? -1 : 1;
  return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* The process filter, for a capture of several processes (a recording
 * of the whole system): all of them, then each by what the shown event
 * counts, the busiest first. Choosing one narrows the thread filter to
 * its threads. @pid stays chosen when it is listed (0: all). Within a
 * time range each says what it counts in the range, in the order and
 * with the entries of the whole capture, which stay put as the range
 * moves (so do the timeline's lanes). */
static void
fill_process_filter (HpWindow *self,
                     gint32    pid)
{
  const HpMeasure *measure = &self->profile->measure;
  guint chosen = 0;
  const HpCaptureData *data = self->profile->capture->data;
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (ProcessSamples));
  g_autoptr(GHashTable) at = g_hash_table_new (NULL, NULL);
  const guint64 *shown = self->profile->range_amounts != NULL ? self->profile->range_amounts : self->profile->thread_amounts;
  guint64 total = 0;
  gint32 all = 0;

  g_array_set_size (self->process_pids, 0);
  for (guint p = 0; p < data->processes->len; p++)
    {
      ProcessSamples ps = { g_array_index (data->processes, HpCaptureProcess, p).pid, 0, 0 };

      g_array_append_val (order, ps);
      g_hash_table_insert (at, GINT_TO_POINTER (ps.pid), GUINT_TO_POINTER (p + 1));
    }
  for (guint t = 0; t < data->threads->len; t++)
    {
      const HpCaptureThread *th = &g_array_index (data->threads, HpCaptureThread, t);
      guint p = GPOINTER_TO_UINT (g_hash_table_lookup (at, GINT_TO_POINTER (th->pid)));

      total += shown[t];
      if (p > 0)
        {
          g_array_index (order, ProcessSamples, p - 1).samples += self->profile->thread_amounts[t];
          g_array_index (order, ProcessSamples, p - 1).shown += shown[t];
        }
    }
  g_array_sort (order, compare_process_samples);
  {
    g_autofree char *amount = hp_format_amount (measure, total);
    /* Translators: first entry of the process filter, with what it counts ("1,234 samples") */
    g_autofree char *label = g_strdup_printf (_("All processes (%s)"), amount);

    gtk_string_list_append (list, label);
    g_array_append_val (self->process_pids, all);
  }
  for (guint i = 0; i < order->len; i++)
    {
      const ProcessSamples *ps = &g_array_index (order, ProcessSamples, i);
      guint p = GPOINTER_TO_UINT (g_hash_table_lookup (at, GINT_TO_POINTER (ps->pid)));
      const HpCaptureProcess *proc = &g_array_index (data->processes, HpCaptureProcess, p - 1);
      g_autofree char *command = hp_symbol_name_sanitize (proc->command ? proc->command : "?", -1, SHOWN_PROCESS_CHARS);
      g_autofree char *amount = hp_format_amount (measure, ps->shown);
      /* Translators: an entry of the process filter: command, pid, what it counts ("1,234 samples") */
      g_autofree char *label = g_strdup_printf (_("%s (%d, %s)"), command, ps->pid, amount);

      /* the chosen process stays listed, with none of the event shown */
      if (ps->samples == 0 && ps->pid != pid)
        continue;
      if (ps->pid == pid)
        chosen = self->process_pids->len;
      gtk_string_list_append (list, label);
      g_array_append_val (self->process_pids, ps->pid);
    }
  g_signal_handlers_block_matched (self->process_dropdown, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  gtk_drop_down_set_model (self->process_dropdown, G_LIST_MODEL (list));
  gtk_drop_down_set_selected (self->process_dropdown, chosen);
  g_signal_handlers_unblock_matched (self->process_dropdown, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  gtk_widget_set_visible (GTK_WIDGET (self->process_dropdown), data->processes->len > 1);
}

void
hp_window_fill_event_filters (HpWindow *self)
{
  g_clear_pointer (&self->event, g_free);
  hp_event_selector_set_capture (self->event_selector, self->profile->capture);
  fill_process_filter (self, 0);
  g_free (self->counted_event);
  self->counted_event = g_strdup (self->profile->measure.event);
  self->counted_range = self->profile->has_range;
  self->counted_from = self->profile->from;
  self->counted_to = self->profile->to;
}

/* The thread filter's entry for @tids when the event shown has none of
 * them: "Thread helper (102, no page faults)" */
static char *
describe_empty_choice (HpWindow   *self,
                       GHashTable *tids)
{
  const HpCaptureData *data = self->profile->capture->data;
  g_autofree char *what = hp_format_measure_name (&self->profile->measure);

  if (g_hash_table_size (tids) == 1)
    for (guint t = 0; t < data->threads->len; t++)
      {
        const HpCaptureThread *th = &g_array_index (data->threads, HpCaptureThread, t);

        if (g_hash_table_contains (tids, GINT_TO_POINTER (th->tid)))
          {
            g_autofree char *name = hp_symbol_name_sanitize (th->name ? th->name : "?", -1, SHOWN_PROCESS_CHARS);

            /* Translators: thread name, tid, what the view counts ("page faults", "time off the CPU") */
            return g_strdup_printf (_("Thread %s (%d, no %s)"), name, th->tid, what);
          }
      }
  /* Translators: a number of threads, what the view counts ("page faults", "time off the CPU") */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u chosen thread (no %s)", "%u chosen threads (no %s)",
                                       g_hash_table_size (tids)),
                          g_hash_table_size (tids), what);
}

void
hp_window_update_filter_counts (HpWindow *self)
{
  guint process = gtk_drop_down_get_selected (self->process_dropdown);
  gint32 pid = process < self->process_pids->len ? g_array_index (self->process_pids, gint32, process) : 0;
  g_autoptr(GHashTable) tids = NULL;
  guint found = GTK_INVALID_LIST_POSITION;

  gboolean lanes_entry = self->lanes_entry;
  HpLoadedProfile *profile = self->profile;

  if (self->counted_event == NULL ||
      (g_strcmp0 (self->counted_event, profile->measure.event) == 0 && self->counted_range == profile->has_range &&
       (!profile->has_range || (self->counted_from == profile->from && self->counted_to == profile->to))))
    return;
  g_free (self->counted_event);
  self->counted_event = g_strdup (profile->measure.event);
  self->counted_range = profile->has_range;
  self->counted_from = profile->from;
  self->counted_to = profile->to;

  /* the same choices, counted in the event now shown and in the range:
   * a thread without any of the event is no longer listed, but stays
   * chosen */
  tids = g_steal_pointer (&self->filter_tids);
  fill_process_filter (self, pid);
  hp_window_fill_thread_filter (self, pid);
  self->filter_tids = g_steal_pointer (&tids);
  for (guint i = 0; i < self->filters->len && found == GTK_INVALID_LIST_POSITION; i++)
    if (hp_id_set_equal (g_ptr_array_index (self->filters, i), self->filter_tids))
      found = i;
  if (found == GTK_INVALID_LIST_POSITION && self->filter_tids != NULL && lanes_entry)
    /* threads chosen in the lanes keep their entry */
    found = hp_window_add_lanes_entry (self);
  else if (found == GTK_INVALID_LIST_POSITION && self->filter_tids != NULL)
    {
      /* Threads with none of this event are not listed, but the choice
       * stays (the tree says why it is empty): an entry names it, rather
       * than a blank filter, until another event or thread is chosen. */
      g_autofree char *label = describe_empty_choice (self, self->filter_tids);

      gtk_string_list_append (GTK_STRING_LIST (gtk_drop_down_get_model (self->thread_dropdown)), label);
      g_ptr_array_add (self->filters, hp_id_set_copy (self->filter_tids));
      found = self->filters->len - 1;
      gtk_widget_set_sensitive (GTK_WIDGET (self->thread_dropdown), TRUE);
    }
  hp_window_select_thread_entry (self, found);
}

static void
on_process_filter_changed (GtkDropDown *dropdown,
                           GParamSpec  *pspec,
                           HpWindow    *self)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->profile == NULL || selected >= self->process_pids->len)
    return;
  hp_window_fill_thread_filter (self, g_array_index (self->process_pids, gint32, selected));
  g_clear_pointer (&self->filter_tids, g_hash_table_unref);
  self->filter_tids = hp_id_set_copy (g_ptr_array_index (self->filters, 0));
  if (self->timeline_view != NULL)
    hp_timeline_set_selected_tids (hp_timeline_view_get_timeline (self->timeline_view), self->filter_tids);
  hp_window_rebuild_profile (self);
}

static void
on_event_changed (HpEventSelector *selector,
                  HpWindow        *self)
{
  g_free (self->event);
  self->event = g_strdup (hp_event_selector_get_event (selector));
  hp_window_rebuild_profile (self);
}

void
hp_window_events_init (HpWindow *self)
{
  g_signal_connect (self->event_selector, "changed", G_CALLBACK (on_event_changed), self);
  g_signal_connect (self->process_dropdown, "notify::selected", G_CALLBACK (on_process_filter_changed), self);
  {
    g_autoptr(GtkListItemFactory) button = hp_cell_dropdown_factory_new (TRUE);
    g_autoptr(GtkListItemFactory) list = hp_cell_dropdown_factory_new (FALSE);

    gtk_drop_down_set_factory (self->process_dropdown, button);
    gtk_drop_down_set_list_factory (self->process_dropdown, list);
  }
}
