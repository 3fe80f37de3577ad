/* hp-format.c - how numbers read in the window and the lists it fills
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hp-document"

#include "config.h"

#include <glib/gi18n.h>

#include <math.h>
#include <string.h>

#include "analysis/hp-symbol-name.h"
#include "store/hp-capture-keys.h"
#include "document/hp-format.h"

/* a capture name longer than this is cut: it is someone's file name */
#define MAX_CAPTURE_CHARS 60

char *
hp_format_percent (guint64 part,
                   guint64 whole)
{
  double p;

  if (whole == 0 || part == 0)
    return g_strdup ("");
  p = 100.0 * (double) part / (double) whole;
  if (p < 0.05)
    return g_strdup ("<0.1 %");
  /* Translators: a share of the samples; keep the space if your language uses one */
  return g_strdup_printf (_("%.1f %%"), p);
}

char *
hp_format_count (guint64 count)
{
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, count);
}

char *
hp_format_share (guint64 part,
                 guint64 whole)
{
  g_autofree char *percent = hp_format_percent (part, whole);
  g_autofree char *count = hp_format_count (part);

  if (part == 0)
    return g_strdup (_("no samples"));
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (%s sample)", "%s (%s samples)", part),
                          percent, count);
}

char *
hp_format_duration (guint64 ns)
{
  double s = ns / 1e9;

  if (s < 1.0)
    return g_strdup_printf (_("%.0f ms"), s * 1000.0);
  if (s < 60.0)
    return g_strdup_printf (_("%.2f s"), s);
  return g_strdup_printf (_("%u min %u s"), (guint) (s / 60), (guint) s % 60);
}

char *
hp_format_summary_origin (const HpCaptureSummary *row,
                          const char             *here,
                          double                  share_now)
{
  g_autofree char *capture = NULL;
  g_autofree char *date = NULL;

  if (row == NULL || row->capture == NULL || g_strcmp0 (row->capture, here) == 0)
    return NULL;
  capture = hp_symbol_name_sanitize (row->capture, -1, MAX_CAPTURE_CHARS);
  /* the date of an ISO 8601 time: its first ten characters */
  if (row->updated != NULL)
    date = hp_symbol_name_sanitize (row->updated, (gssize) MIN (strlen (row->updated), 10), 0);
  else
    date = g_strdup ("?");
  if (!row->found)
    {
      if (isfinite (row->share))
        /* TRANSLATORS: a capture file name, a date, the call path's share
         * of the samples in that capture; an import found no such path here */
        return g_strdup_printf (_("Written in %s on %s, %.1f %% then; not found in this capture."),
                                capture, date, row->share);
      return g_strdup_printf (_("Written in %s on %s; not found in this capture."), capture, date);
    }
  if (isfinite (row->share) && isfinite (share_now))
    /* TRANSLATORS: a capture file name, a date, the call path's share of
     * the samples in that capture and in this one */
    return g_strdup_printf (_("Written in %s on %s, %.1f %% then, %.1f %% now."),
                            capture, date, row->share, share_now);
  if (isfinite (row->share))
    /* TRANSLATORS: a capture file name, a date, the call path's share of
     * the samples in that capture */
    return g_strdup_printf (_("Written in %s on %s, %.1f %% then."), capture, date, row->share);
  return g_strdup_printf (_("Written in %s on %s."), capture, date);
}

/* A unit from the capture: its text is the file's, so made valid and
 * kept short (it is shown in columns and captions) */
static char *
shown_unit (const HpMeasure *measure)
{
  g_autofree char *valid = g_utf8_make_valid (measure->unit != NULL ? measure->unit : "", -1);

  if (g_utf8_strlen (valid, -1) > 40)
    {
      g_autofree char *cut = g_utf8_substring (valid, 0, 39);

      return g_strconcat (cut, "…", NULL);
    }
  return g_steal_pointer (&valid);
}

static char *
shown_event (const HpMeasure *measure)
{
  g_autofree char *valid = g_utf8_make_valid (measure->event != NULL ? measure->event : "?", -1);

  if (g_utf8_strlen (valid, -1) > 40)
    {
      g_autofree char *cut = g_utf8_substring (valid, 0, 39);

      return g_strconcat (cut, "…", NULL);
    }
  return g_steal_pointer (&valid);
}

/* An import of folded stacks or of a pprof profile whose sample type is
 * "samples" names its event "samples": no event was counted but samples
 * themselves, which read "samples", not "samples samples". */
static gboolean
counts_bare_samples (const HpMeasure *measure)
{
  return measure == NULL || measure->event == NULL ||
         (!measure->by_weight && g_ascii_strcasecmp (measure->event, "samples") == 0);
}

/* down to ns: off-CPU intervals are often microseconds */
char *
hp_format_time (guint64       ns,
                HpFormatFlags flags)
{
  if (flags & HP_FORMAT_PLAIN)
    {
      /* one unit, three decimals: columns of them line up */
      if (ns >= 1000000000)
        return g_strdup_printf (_("%.3f s"), ns / 1e9);
      if (ns >= 1000000)
        return g_strdup_printf (_("%.3f ms"), ns / 1e6);
      if (ns >= 1000)
        return g_strdup_printf (_("%.3f us"), ns / 1e3);
      return g_strdup_printf (_("%u ns"), (guint) ns);
    }
  /* as a count of nothing reads */
  if (ns == 0)
    return g_strdup ("0");
  if (ns < 1000)
    return g_strdup_printf (_("%u ns"), (guint) ns);
  if (ns < 1000000)
    return g_strdup_printf (_("%.0f µs"), ns / 1e3);
  return hp_format_duration (ns);
}

char *
hp_format_measure_name (const HpMeasure *measure)
{
  return hp_format_measure_name_full (measure, HP_FORMAT_DEFAULT);
}

char *
hp_format_measure_name_full (const HpMeasure *measure,
                             HpFormatFlags    flags)
{
  g_autofree char *event = NULL;

  if ((flags & HP_FORMAT_PLAIN) && (measure == NULL || !measure->by_weight))
    return g_strdup (_("samples"));
  if ((flags & HP_FORMAT_PLAIN) && g_strcmp0 (measure->event, HP_EVENT_WALL) == 0)
    return g_strdup (_("ns of wall-clock time"));
  if ((flags & HP_FORMAT_PLAIN) && measure->off_cpu)
    return g_strdup (_("ns off CPU"));
  if ((flags & HP_FORMAT_PLAIN) && (measure->unit == NULL || measure->unit[0] == '\0'))
    return g_strdup (_("events"));
  if (counts_bare_samples (measure))
    return g_strdup (_("samples"));
  if (g_strcmp0 (measure->event, HP_EVENT_WALL) == 0)
    return g_strdup (_("wall-clock time (on and off the CPU)"));
  if (measure->off_cpu)
    return g_strdup (_("time off the CPU"));
  if (measure->by_weight)
    return shown_unit (measure);
  event = shown_event (measure);
  /* Translators: what the shares count, e.g. "cpu-clock samples" */
  return g_strdup_printf (_("%s samples"), event);
}

char *
hp_format_measure_label (const HpMeasure *measure)
{
  g_autofree char *event = NULL;
  g_autofree char *unit = NULL;

  if (counts_bare_samples (measure))
    return g_strdup (_("samples"));
  event = shown_event (measure);
  if (g_strcmp0 (measure->event, HP_EVENT_WALL) == 0)
    /* Translators: an entry of the event selector */
    return g_strdup (_("wall: time on and off the CPU"));
  if (measure->off_cpu)
    /* Translators: an entry of the event selector, "off-cpu: time off the CPU" */
    return g_strdup_printf (_("%s: time off the CPU"), event);
  if (!measure->by_weight)
    /* Translators: an entry of the event selector, "cpu-clock: samples" */
    return g_strdup_printf (_("%s: samples"), event);
  unit = shown_unit (measure);
  /* Translators: an entry of the event selector, "page-faults: page faults" */
  return g_strdup_printf (_("%s: %s"), event, unit);
}

char *
hp_format_measure_column (const HpMeasure *measure)
{
  g_autofree char *unit = NULL;

  if (measure == NULL || !measure->by_weight)
    return g_strdup (_("Samples"));
  if (measure->is_time)
    return g_strdup (_("Time"));
  unit = shown_unit (measure);
  /* a unit is lower case in the capture: "page faults" heads "Page faults" */
  if (unit[0] != '\0' && g_ascii_islower (unit[0]))
    unit[0] = g_ascii_toupper (unit[0]);
  return g_steal_pointer (&unit);
}

char *
hp_format_amount (const HpMeasure *measure,
                  guint64          amount)
{
  return hp_format_amount_full (measure, amount, HP_FORMAT_DEFAULT);
}

char *
hp_format_amount_full (const HpMeasure *measure,
                       guint64          amount,
                       HpFormatFlags    flags)
{
  g_autofree char *count = NULL;
  g_autofree char *unit = NULL;
  g_autofree char *time = NULL;

  if (flags & HP_FORMAT_PLAIN)
    count = g_strdup_printf ("%" G_GUINT64_FORMAT, amount);
  else
    count = hp_format_count (amount);
  if (measure == NULL || !measure->by_weight)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sample", "%s samples", amount), count);
  if (measure->is_time)
    {
      time = hp_format_time (amount, flags);
      /* plain, as the CLI writes it, a time says what it is of, as
       * "off CPU" does: "of all 31.092 s" alone could be CPU time */
      if ((flags & HP_FORMAT_PLAIN) && g_strcmp0 (measure->event, HP_EVENT_WALL) == 0)
        /* Translators: an amount of time on and off the CPU, "31.092 s of wall-clock time" */
        return g_strdup_printf (_("%s of wall-clock time"), time);
      if (g_strcmp0 (measure->event, HP_EVENT_WALL) == 0 || !measure->off_cpu)
        return g_steal_pointer (&time);
      /* Translators: an amount of time a thread waited, "1.23 s off CPU" */
      return g_strdup_printf (_("%s off CPU"), time);
    }
  unit = (flags & HP_FORMAT_PLAIN) ? hp_format_measure_name_full (measure, flags) : shown_unit (measure);
  /* Translators: a count and the unit counted, "1,234 page faults" */
  return g_strdup_printf (_("%s %s"), count, unit);
}

char *
hp_format_count_of (const HpMeasure *measure,
                    guint64          amount)
{
  if (measure != NULL && measure->is_time)
    return hp_format_time (amount, HP_FORMAT_DEFAULT);
  return hp_format_count (amount);
}

char *
hp_format_share_of (const HpMeasure *measure,
                    guint64          part,
                    guint64          whole)
{
  g_autofree char *percent = NULL;
  g_autofree char *amount = NULL;

  if (measure == NULL || !measure->by_weight)
    return hp_format_share (part, whole);
  if (part == 0)
    return g_strdup (_("none"));
  percent = hp_format_percent (part, whole);
  amount = hp_format_amount (measure, part);
  /* Translators: a share and its amount, "26.6 % (1,234 page faults)" */
  return g_strdup_printf (_("%s (%s)"), percent, amount);
}

static const char *
event_name (const HpCaptureData *data,
            guint                id)
{
  if (data->events == NULL || id == 0 || id >= data->events->len)
    return "?";
  return g_array_index (data->events, HpCaptureEvent, id).name;
}

char *
hp_format_ratio_title (const HpRatio       *ratio,
                       const HpCaptureData *data,
                       char               **tooltip)
{
  g_autofree char *num = NULL;
  g_autofree char *den = NULL;
  char *title = NULL;

  num = g_utf8_make_valid (event_name (data, ratio->numerator), -1);
  den = g_utf8_make_valid (event_name (data, ratio->denominator), -1);
  switch (ratio->kind)
    {
    case HP_RATIO_PER_CYCLE:
      title = g_strdup (_("IPC"));
      if (tooltip)
        *tooltip = g_strdup (_("Instructions per cycle in this call path (its total instructions over its total cycles)"));
      break;
    case HP_RATIO_PER_KILO:
      /* Translators: a column title, "cache-misses / 1k instr." */
      title = g_strdup_printf (_("%s / 1k instr."), num);
      if (tooltip)
        *tooltip = g_strdup_printf (_("%s per 1,000 instructions in this call path"), num);
      break;
    case HP_RATIO_PER_MS:
      /* Translators: a column title, "page-faults / ms" */
      title = g_strdup_printf (_("%s / ms"), num);
      if (tooltip)
        *tooltip = g_strdup_printf (_("%s per millisecond of %s in this call path (its total %s over its total time on the CPU)"),
                                    num, den, num);
      break;
    case HP_RATIO_PER_EVENT:
      /* Translators: a column title, "page-faults / context-switches" */
      title = g_strdup_printf (_("%s / %s"), num, den);
      if (tooltip)
        *tooltip = g_strdup_printf (_("%s per one of %s in this call path"), num, den);
      break;
    case HP_RATIO_NONE:
    default:
      title = g_strdup ("");
      if (tooltip)
        *tooltip = NULL;
      break;
    }
  return title;
}

char *
hp_format_ratio_value (const HpRatio *ratio,
                       guint64        numerator,
                       guint64        denominator)
{
  double v = hp_ratio_value (ratio, numerator, denominator);

  /* no denominator: no ratio, rather than a division by nothing */
  if (isnan (v))
    return g_strdup ("–");
  if (v >= 100)
    return g_strdup_printf ("%.0f", v);
  if (v >= 10)
    return g_strdup_printf ("%.1f", v);
  return g_strdup_printf ("%.2f", v);
}
