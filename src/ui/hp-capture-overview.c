/* hp-capture-overview.c - what was measured, how, and its limits, at a glance
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A profile is a measurement with limits (docs/ARCHITECTURE.md, Measuring honestly):
 * this strip says what was sampled, how often, how many samples there are
 * and how many were lost or have truncated stacks, and warns when those
 * limits are large enough to change what the numbers mean.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "analysis/hp-capture-health.h"
#include "analysis/hp-name-match.h"
#include "analysis/hp-symbol-name.h"
#include "document/hp-debug-package.h"
#include "document/hp-thread-list.h"
#include "store/hp-capture-keys.h"
#include "ui/hp-capture-overview.h"
#include "document/hp-format.h"
#include "ui/hp-template.h"

struct _HpCaptureOverview {
  GtkWidget  parent_instance;

  GtkLabel  *command_value;
  GtkLabel  *started_value;
  GtkLabel  *duration_value;
  GtkLabel  *event_value;
  GtkLabel  *rate_value;
  GtkLabel  *samples_heading;
  GtkLabel  *samples_value;
  GtkLabel  *processes_label;
  GtkLabel  *lost_value;
  GtkLabel  *truncated_value;
  GtkLabel  *threads_value;
  GtkLabel  *warning_label;

  /* the -dbgsym packages for the shown capture's code without symbols,
   * asked of dpkg off the main loop (document/hp-debug-package) */
  HpLoadedProfile *shown;
  HpLoadedCapture *packages_capture;  /* whose packages: asked or known */
  gboolean         packages_known;
  char            *packages;          /* NULL: none known */
  GCancellable    *packages_cancel;
};

/* the longest command shown, in characters (the tooltip has more), and
 * the most lines of it the tooltip shows */
#define SHOWN_COMMAND_CHARS 300
#define SHOWN_COMMAND_LINES 40

G_DEFINE_FINAL_TYPE (HpCaptureOverview, hp_capture_overview, GTK_TYPE_WIDGET)

static guint64
metadata_u64 (HpLoadedCapture *capture,
              const char      *key)
{
  const char *value = hp_loaded_capture_get_metadata (capture, key);

  return value ? g_ascii_strtoull (value, NULL, 10) : 0;
}

static char *
format_start (const char *iso)
{
  g_autoptr(GDateTime) dt = NULL;
  g_autoptr(GDateTime) local = NULL;

  if (iso == NULL)
    return g_strdup (_("unknown"));
  dt = g_date_time_new_from_iso8601 (iso, NULL);
  if (dt == NULL)
    return g_strdup (iso);
  local = g_date_time_to_local (dt);
  return g_date_time_format (local, "%Y-%m-%d %H:%M:%S");
}

/* "The program was killed by signal 11 (Segmentation fault); …" from the
 * metadata exit_signal, as hp_capture_health_exit_signal reads it; NULL
 * when it was not killed. */
static char *
describe_signal (const char *value)
{
  g_autofree char *shown = NULL;
  int number;

  if (value == NULL || value[0] == '\0')
    return NULL;
  number = hp_capture_health_exit_signal (value);
  if (number > 0)
    /* Translators: signal number and description, as in "11 (Segmentation fault)" */
    return g_strdup_printf (_("The program was killed by signal %d (%s); the profile ends there."),
                            number, g_strsignal (number));
  shown = hp_symbol_name_sanitize (value, -1, 100);
  /* Translators: a signal's description from the capture */
  return g_strdup_printf (_("The program was killed by the signal “%s”; the profile ends there."), shown);
}

/* The command's lines, each made safe to show; NULL for no command. */
static char *
command_tooltip (const char *command)
{
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) tip = NULL;
  guint chars = 0;

  if (command == NULL || command[0] == '\0')
    return NULL;
  lines = g_strsplit (command, "\n", SHOWN_COMMAND_LINES + 1);
  tip = g_string_new (NULL);
  for (guint i = 0; lines[i] != NULL && chars < HP_SYMBOL_NAME_TOOLTIP_CHARS; i++)
    {
      g_autofree char *line = NULL;

      if (i == SHOWN_COMMAND_LINES)
        {
          g_string_append (tip, "\n…");
          break;
        }
      line = hp_symbol_name_sanitize (lines[i], -1, HP_SYMBOL_NAME_TOOLTIP_CHARS - chars);
      chars += g_utf8_strlen (line, -1);
      g_string_append_printf (tip, "%s%s", i > 0 ? "\n" : "", line);
    }
  return g_string_free (g_steal_pointer (&tip), FALSE);
}

/* Samples read "N" or "N of ALL" as the filters change; the label is as
 * wide as the longest it can read, so that the items after it stay put
 * (the digits being of equal width, .numeric). */
static void
keep_samples_width (HpCaptureOverview *self,
                    const char        *all)
{
  /* Translators: the longest form of the Samples value, to size it */
  g_autofree char *widest = g_strdup_printf (_("%s of %s"), all, all);

  gtk_label_set_width_chars (self->samples_value, g_utf8_strlen (widest, -1));
}

static void
set_value (GtkLabel   *label,
           const char *value)
{
  gtk_label_set_text (label, value && *value ? value : _("unknown"));
  /* a value shortened at a small width can still be read whole */
  if (gtk_label_get_ellipsize (label) != PANGO_ELLIPSIZE_NONE)
    gtk_widget_set_tooltip_text (GTK_WIDGET (label), gtk_label_get_text (label));
}

/* The processes of a capture of several (a whole-system recording), by
 * what the shown profile counts of each, busiest first: what ran, at a
 * glance, within the chosen time range and event. */
static void
show_processes (HpCaptureOverview *self,
                HpLoadedProfile   *profile)
{
  /* the capture's threads and processes, the profile's amounts of each */
  const HpCaptureData *data = profile->capture->data;
  const guint64 *thread_amounts = profile->range_amounts != NULL ? profile->range_amounts : profile->thread_amounts;
  g_autoptr(GArray) amounts = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) tip = g_string_new (NULL);
  guint64 whole = 0;
  guint shown = 0;

  if (data->processes->len < 2)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->processes_label), FALSE);
      return;
    }
  /* by the threads' amounts, which the worker summed: a pass over the
   * profile's counts here cost two hash lookups per count, on the main
   * thread, at each filter */
  amounts = hp_process_amounts (data, thread_amounts, &whole);
  for (guint i = 0; i < amounts->len; i++)
    {
      const HpProcessAmount *a = &g_array_index (amounts, HpProcessAmount, i);
      g_autofree char *command = hp_symbol_name_sanitize (a->command ? a->command : "?", -1, 40);
      g_autofree char *share = hp_format_percent (a->amount, whole);

      if (shown < 8)
        /* Translators: a process in the overview's list: command, pid, share */
        g_string_append_printf (text, _("%s%s (%d) %s"), shown > 0 ? ", " : "", command, a->pid, share);
      if (shown < 40)
        {
          g_autofree char *amount = hp_format_share_of (&profile->measure, a->amount, whole);

          g_string_append_printf (tip, "%s%s (%d): %s", shown > 0 ? "\n" : "", command, a->pid, amount);
        }
      shown++;
    }
  if (shown > 8)
    /* Translators: after the busiest processes of the list */
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, ", and %u more", ", and %u more", shown - 8), shown - 8);
  {
    /* Translators: the overview's list of processes, busiest first */
    g_autofree char *line = g_strdup_printf (_("Processes by share: %s"), text->str);

    gtk_label_set_text (self->processes_label, line);
  }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->processes_label), tip->str);
  gtk_widget_set_visible (GTK_WIDGET (self->processes_label), shown > 0);
}

typedef struct {
  HpLoadedProfile *profile;
  GArray          *unsymbolized;
  guint64          n_samples;
} PackagesQuery;

static void
packages_query_free (gpointer p)
{
  PackagesQuery *q = p;

  g_clear_pointer (&q->unsymbolized, g_array_unref);
  g_clear_pointer (&q->profile, hp_loaded_profile_unref);
  g_free (q);
}

static void
query_packages (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  PackagesQuery *q = task_data;

  g_task_return_pointer (task, hp_debug_packages_for (q->profile->data, q->unsymbolized, q->n_samples), g_free);
}

static void
packages_queried (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  HpCaptureOverview *self;
  g_autofree char *packages = g_task_propagate_pointer (G_TASK (result), NULL);

  /* cancelled: the overview went away or shows another capture */
  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;
  self = HP_CAPTURE_OVERVIEW (object);
  self->packages_known = TRUE;
  g_free (self->packages);
  self->packages = g_steal_pointer (&packages);
  if (self->packages != NULL && self->shown != NULL)
    {
      g_autoptr(HpLoadedProfile) shown = hp_loaded_profile_ref (self->shown);

      hp_capture_overview_set_profile (self, shown);
    }
}

/* The -dbgsym packages that would name @profile's code without symbols,
 * when known; otherwise NULL, and dpkg is asked in a worker (it takes
 * a second under load) and the overview is filled again when it answers.
 * One answer per capture: the packages of its main unsymbolized modules. */
static const char *
debug_packages (HpCaptureOverview *self,
                HpLoadedProfile   *profile,
                GArray            *unsymbolized,
                guint64            n_samples)
{
  g_autoptr(GTask) task = NULL;
  PackagesQuery *q;

  if (self->packages_capture == profile->capture)
    return self->packages_known ? self->packages : NULL;

  g_cancellable_cancel (self->packages_cancel);
  g_clear_object (&self->packages_cancel);
  g_clear_pointer (&self->packages, g_free);
  self->packages_known = FALSE;
  /* held, so that a later capture at the same address is not taken for it */
  g_clear_pointer (&self->packages_capture, hp_loaded_capture_unref);
  self->packages_capture = hp_loaded_capture_ref (profile->capture);
  self->packages_cancel = g_cancellable_new ();

  q = g_new0 (PackagesQuery, 1);
  q->profile = hp_loaded_profile_ref (profile);
  q->unsymbolized = g_array_ref (unsymbolized);
  q->n_samples = n_samples;
  task = g_task_new (self, self->packages_cancel, packages_queried, NULL);
  g_task_set_source_tag (task, debug_packages);
  g_task_set_task_data (task, q, packages_query_free);
  g_task_run_in_thread (task, query_packages);
  return NULL;
}

void
hp_capture_overview_set_profile (HpCaptureOverview *self,
                                 HpLoadedProfile   *profile)
{
  HpLoadedCapture *capture;
  const char *value;
  const char *unit;
  guint64 all_samples = 0;
  guint64 n, lost, truncated, unresolved;
  g_autofree char *text = NULL;
  g_autofree char *count = NULL;
  g_autofree char *all = NULL;
  g_autoptr(GString) warning = g_string_new (NULL);
  guint64 unsymbolized = 0;
  g_autoptr(GArray) unsymbolized_modules = NULL;
  g_autofree char *killed = NULL;
  HpCaptureHealth health;
  guint n_threads, n_processes;

  g_return_if_fail (HP_IS_CAPTURE_OVERVIEW (self));

  if (profile == NULL)
    return;
  if (profile != self->shown)
    {
      g_clear_pointer (&self->shown, hp_loaded_profile_unref);
      self->shown = hp_loaded_profile_ref (profile);
    }
  capture = profile->capture;
  unsymbolized_modules = hp_profile_get_unsymbolized (profile->profile, &unsymbolized);

  value = hp_loaded_capture_get_metadata (capture, HP_META_COMMAND);
  {
    /* a command of many lines (python3 -c '…') on one line, cut; the
     * tooltip has it whole, line by line */
    g_autofree char *shown = hp_symbol_name_sanitize (value, -1, SHOWN_COMMAND_CHARS);
    g_autofree char *tip = command_tooltip (value);

    set_value (self->command_value, shown);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->command_value), tip);
  }

  text = format_start (hp_loaded_capture_get_metadata (capture, HP_META_START_TIME));
  set_value (self->started_value, text);
  g_clear_pointer (&text, g_free);

  /* absent when unknown, or when it was no duration (hp_capture_load) */
  if (hp_loaded_capture_get_metadata (capture, HP_META_DURATION_NS) != NULL)
    text = hp_format_duration (metadata_u64 (capture, HP_META_DURATION_NS));
  else if (capture->data->last_time > capture->data->first_time)
    {
      g_autofree char *span = hp_format_duration (capture->data->last_time - capture->data->first_time);

      /* cut short before the end wrote its length: what the samples span */
      /* Translators: a duration, "2.5 s" */
      text = g_strdup_printf (_("%s (first to last sample; cut short)"), span);
    }
  set_value (self->duration_value, text);
  g_clear_pointer (&text, g_free);

  unit = hp_loaded_capture_get_metadata (capture, HP_META_EVENT_UNIT);
  {
    g_autofree char *shown = hp_format_measure_label (&profile->measure);

    /* the event the views count and its unit: "page-faults: page faults" */
    text = g_strdup (shown);
  }
  if (capture->data->events != NULL && capture->data->events->len > 2)
    {
      g_autoptr(GString) others = g_string_new (NULL);
      g_autofree char *first = g_steal_pointer (&text);
      guint n_others = 0;

      /* say what else the capture holds, and where to choose it */
      for (guint i = 1; i < capture->data->events->len; i++)
        {
          const char *name = g_array_index (capture->data->events, HpCaptureEvent, i).name;

          if (g_strcmp0 (name, profile->measure.event) == 0)
            continue;
          g_string_append_printf (others, "%s%s", n_others > 0 ? ", " : "", name);
          n_others++;
        }
      /* Translators: the event shown, then the other events of the capture */
      text = g_strdup_printf (_("%s; also %s (Event menu)"), first, others->str);
    }
  set_value (self->event_value, text);
  g_clear_pointer (&text, g_free);

  value = hp_loaded_capture_get_metadata (capture, HP_META_FREQUENCY);
  if (value != NULL)
    /* Translators: sampling frequency and unwinding method, as in "999 Hz, fp" */
    text = g_strdup_printf (_("%s Hz, %s"), value,
                            hp_loaded_capture_get_metadata (capture, HP_META_CALL_GRAPH) ?: "?");
  else if ((value = hp_loaded_capture_get_metadata (capture, HP_META_PERIOD)) != NULL)
    text = g_strdup_printf (_("every %s %s, %s"), value, unit ? unit : "",
                            hp_loaded_capture_get_metadata (capture, HP_META_CALL_GRAPH) ?: "?");
  set_value (self->rate_value, text);
  g_clear_pointer (&text, g_free);

  /* both summed by the workers: the main loop makes no pass over the
   * capture's counts (700 000 on the stress capture) */
  all_samples = capture->n_samples;
  n = hp_profile_get_n_samples (profile->profile);
  if (profile->measure.by_weight)
    {
      count = hp_format_amount (&profile->measure, n);
      all = hp_format_amount (&profile->measure, profile->capture_amount);
    }
  else
    {
      count = hp_format_count (n);
      all = hp_format_count (all_samples);
    }
  if (profile->tids != NULL || profile->has_range)
    /* Translators: samples of the chosen threads or time range, of all samples */
    text = g_strdup_printf (_("%s of %s"), count, all);
  else
    text = g_strdup (count);
  set_value (self->samples_value, text);
  keep_samples_width (self, all);
  {
    /* what the value counts: "Time" in the wall view, "Page faults" */
    g_autofree char *heading = hp_format_measure_column (&profile->measure);

    gtk_label_set_text (self->samples_heading, heading);
  }
  g_clear_pointer (&text, g_free);

  /* lost and truncated stacks are counted over every event */
  hp_capture_health_judge (&health, profile->profile, capture->n_all_samples);
  lost = health.lost;
  text = lost ? hp_format_share (lost, capture->n_all_samples + lost) : g_strdup ("0");
  set_value (self->lost_value, text);
  g_clear_pointer (&text, g_free);

  truncated = health.truncated;
  text = truncated ? hp_format_share (truncated, capture->n_all_samples) : g_strdup ("0");
  set_value (self->truncated_value, text);
  g_clear_pointer (&text, g_free);

  n_threads = capture->data->threads->len;
  n_processes = capture->data->processes->len;
  {
    /* Translators: the two halves of "3 threads in 1 process" */
    g_autofree char *threads = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u thread", "%u threads", n_threads), n_threads);
    g_autofree char *processes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "in %u process", "in %u processes", n_processes), n_processes);

    text = g_strdup_printf ("%s %s", threads, processes);
    set_value (self->threads_value, text);
    g_clear_pointer (&text, g_free);
  }

  show_processes (self, profile);

  unresolved = health.unresolved;
  killed = hp_capture_health_describe_stop (hp_loaded_capture_get_metadata (capture, HP_META_STOP_SIGNAL),
                                            hp_loaded_capture_get_metadata (capture, HP_META_EXIT_SIGNAL),
                                            hp_loaded_capture_get_metadata (capture, HP_META_EXIT_STATUS),
                                            hp_loaded_capture_get_metadata (capture, HP_META_ENDED_BY_RECORDER));
  if (killed == NULL)
    killed = describe_signal (hp_loaded_capture_get_metadata (capture, HP_META_EXIT_SIGNAL));
  if (killed != NULL)
    g_string_append_printf (warning, "%s ", killed);
  if (health.cut_short)
    g_string_append (warning, _("The recording was cut short: this capture holds the samples written until then. "));
  if (health.counts_summed)
    g_string_append (warning, _("The capture is marked finished, but its totals (table stack_counts) are empty: "
                                "the counts shown are its samples, summed. "));
  if (hp_loaded_capture_get_metadata (capture, HP_META_LACKS) != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (hp_loaded_capture_get_metadata (capture, HP_META_LACKS), ",", -1);
      g_autofree char *list = g_strjoinv (", ", parts);

      /* Translators: a format ("folded stacks"), then what it does not hold ("addresses, times") */
      g_string_append_printf (warning, _("Imported from %s, which has no %s: views that need them are empty. "),
                              hp_loaded_capture_get_metadata (capture, HP_META_SOURCE) ?: _("another format"), list);
    }
  if (health.truncated_many)
    g_string_append (warning, _("Many call stacks are truncated: the callers above the cut, and their totals, are incomplete. "));
  if (health.truncated_at_jit > 0)
    {
      g_autofree char *c = hp_format_count (health.truncated_at_jit);
      g_autofree char *advice = hp_capture_health_jit_advice (&health);

      /* Translators: a count of stacks, then what to do about them */
      g_string_append_printf (warning, g_dngettext (GETTEXT_PACKAGE,
                                                    "%s stack was cut at code compiled at run time. %s ",
                                                    "%s stacks were cut at code compiled at run time. %s ",
                                                    health.truncated_at_jit), c, advice);
    }
  {
    g_auto(GStrv) notes = hp_capture_health_symbol_notes (&health);

    /* a vDSO image found nowhere, a broken perf map: the capture's text */
    for (guint i = 0; notes[i] != NULL && i < 8; i++)
      {
        g_autofree char *shown = hp_symbol_name_sanitize (notes[i], -1, 400);

        g_string_append_printf (warning, "%s ", shown);
      }
  }
  if (health.lost_many)
    g_string_append (warning, _("More than 1 % of the samples were lost: the shares may be biased toward the time before the losses. "));
  /* in samples: one hot unnamed loop is one code location */
  if (health.unsymbolized_level != HP_HEALTH_FINE && g_array_index (unsymbolized_modules, HpUnsymbolized, 0).jit)
    {
      g_autofree char *advice = hp_capture_health_jit_name_advice (&health);

      /* code compiled at run time: a flag names it, no package */
      g_string_append_printf (warning,
                              /* Translators: "63.1 % of the samples are in code without symbols, mostly
                               * in [anon].", then what to do about it */
                              _("%.1f %% of the samples are in code without symbols, mostly in %s. %s"),
                              100.0 * unsymbolized / n,
                              g_array_index (unsymbolized_modules, HpUnsymbolized, 0).module,
                              advice != NULL ? advice : "");
    }
  else if (health.unsymbolized_level != HP_HEALTH_FINE)
    {
      const char *packages = debug_packages (self, profile, unsymbolized_modules, n);

      if (packages != NULL)
        g_string_append_printf (warning,
                                /* Translators: "96.3 % of the samples are in code without symbols, mostly in
                                 * liblzma.so.5: Debian's liblzma5-dbgsym would name that code." */
                                _("%.1f %% of the samples are in code without symbols, mostly in %s: "
                                  "Debian's %s would name that code."),
                                100.0 * unsymbolized / n,
                                g_array_index (unsymbolized_modules, HpUnsymbolized, 0).module, packages);
      else
        g_string_append_printf (warning,
                                /* Translators: "96.3 % of the samples are in code without symbols, mostly in liblzma.so.5" */
                                _("%.1f %% of the samples are in code without symbols, mostly in %s: its debugging "
                                  "symbols (Debian's -dbgsym package for it) would name that code."),
                                100.0 * unsymbolized / n,
                                g_array_index (unsymbolized_modules, HpUnsymbolized, 0).module);
    }
  else if (unresolved > 0)
    {
      g_autofree char *u = hp_format_count (unresolved);

      g_string_append_printf (warning, g_dngettext (GETTEXT_PACKAGE,
                                                    "%s code location could not be symbolized and shows as an address.",
                                                    "%s code locations could not be symbolized and show as addresses.",
                                                    unresolved), u);
    }
  gtk_label_set_text (self->warning_label, warning->str);
  gtk_widget_set_visible (GTK_WIDGET (self->warning_label), warning->len > 0);
  /* an unresolved frame or two is normal (vdso, JIT); only say it softly */
  if (killed == NULL && !hp_capture_health_is_worrying (&health))
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->warning_label), "warning");
      gtk_widget_add_css_class (GTK_WIDGET (self->warning_label), "dim-text");
    }
  else
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->warning_label), "warning");
      gtk_widget_remove_css_class (GTK_WIDGET (self->warning_label), "dim-text");
    }
}

const char *
hp_capture_overview_get_value (HpCaptureOverview *self,
                               const char        *item)
{
  struct { const char *name; GtkLabel *label; } items[] = {
    { "command", self->command_value },
    { "started", self->started_value },
    { "duration", self->duration_value },
    { "event", self->event_value },
    { "rate", self->rate_value },
    { "samples", self->samples_value },
    { "samples-heading", self->samples_heading },
    { "lost", self->lost_value },
    { "truncated", self->truncated_value },
    { "threads", self->threads_value },
    { "processes", self->processes_label },
    { "warning", self->warning_label },
  };

  g_return_val_if_fail (HP_IS_CAPTURE_OVERVIEW (self), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    if (g_strcmp0 (items[i].name, item) == 0)
      return gtk_label_get_text (items[i].label);
  return NULL;
}

static void
hp_capture_overview_dispose (GObject *object)
{
  HpCaptureOverview *self = HP_CAPTURE_OVERVIEW (object);

  g_cancellable_cancel (self->packages_cancel);
  g_clear_object (&self->packages_cancel);
  g_clear_pointer (&self->packages, g_free);
  g_clear_pointer (&self->packages_capture, hp_loaded_capture_unref);
  g_clear_pointer (&self->shown, hp_loaded_profile_unref);
  hp_template_dispose (GTK_WIDGET (object), HP_TYPE_CAPTURE_OVERVIEW);

  G_OBJECT_CLASS (hp_capture_overview_parent_class)->dispose (object);
}

static void
hp_capture_overview_class_init (HpCaptureOverviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hp_capture_overview_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-capture-overview.ui");
  gtk_widget_class_bind_template_child (widget_class, HpCaptureOverview, command_value);
  gtk_widget_class_bind_template_child (widget_class, HpCaptureOverview, started_value);
  gtk_widget_class_bind_template_child (widget_class, HpCaptureOverview, duration_value);
  gtk_widget_class_bind_template_child (widget_class, HpCaptureOverview, event_value);
  gtk_widget_class_bind_template_child (widget_class, HpCaptureOverview, rate_value);
  gtk_widget_class_bind_template_child (widget_class, HpCaptureOverview, samples_heading);
  gtk_widget_class_bind_template_child (widget_class, HpCaptureOverview, samples_value);
  gtk_widget_class_bind_template_child (widget_class, HpCaptureOverview, processes_label);
  gtk_widget_class_bind_template_child (widget_class, HpCaptureOverview, lost_value);
  gtk_widget_class_bind_template_child (widget_class, HpCaptureOverview, truncated_value);
  gtk_widget_class_bind_template_child (widget_class, HpCaptureOverview, threads_value);
  gtk_widget_class_bind_template_child (widget_class, HpCaptureOverview, warning_label);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "captureoverview");
}

static void
hp_capture_overview_init (HpCaptureOverview *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
