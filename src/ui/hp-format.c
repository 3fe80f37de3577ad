/* hp-format.c - how numbers read in the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include <math.h>
#include <string.h>

#include "analysis/hp-symbol-name.h"
#include "ui/hp-format.h"

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
