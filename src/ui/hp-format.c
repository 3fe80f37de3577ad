/* hp-format.c - how numbers read in the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "ui/hp-format.h"

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
