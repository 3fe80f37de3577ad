/* hp-compare-format.c - how the compare views write costs, changes and verdicts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * One place for the words and colours of a comparison, so that the
 * differential tree and the callers/callees and source panes below it say
 * the same thing the same way: red and green only where the verdict is
 * significant (slower or faster), figures in tabular digits.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "analysis/hp-text.h"
#include "ui/hp-compare-format.h"

/* Red and green mixed with the theme's text colour: a darker red on the
 * light style's white, a lighter one on the dark style's grey (GTK 4.8's
 * error_color is one #cc0000 for both, and a plain #c01c28 read dim on
 * dark grey); on a selected row the selection's own text colour, since
 * red on the selection's blue could hardly be read (the verdict word
 * still says it). */
static const char css[] =
  ".hp-compare-slower { color: mix(#e01b24, @theme_fg_color, 0.25); font-weight: bold; }\n"
  ".hp-compare-faster { color: mix(#26a269, @theme_fg_color, 0.25); font-weight: bold; }\n"
  "row:selected .hp-compare-slower, row:selected .hp-compare-faster { color: @theme_selected_fg_color; }\n"
  ".hp-compare-number { font-feature-settings: \"tnum\"; }\n";

void
hp_compare_load_css (void)
{
  static gboolean loaded;
  g_autoptr(GtkCssProvider) provider = NULL;

  if (loaded)
    return;
  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_data (provider, css, -1);
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  loaded = TRUE;
}

char *
hp_compare_format_cost (double      value,
                        const char *unit)
{
  if (g_strcmp0 (unit, "ns") == 0)
    {
      if (value >= 1e9)
        return g_strdup_printf ("%.3g s", value / 1e9);
      if (value >= 1e6)
        return g_strdup_printf ("%.4g ms", value / 1e6);
      if (value >= 1e3)
        return g_strdup_printf ("%.4g µs", value / 1e3);
      return g_strdup_printf ("%.4g ns", value);
    }
  if (value >= 1e9)
    return g_strdup_printf ("%.4g G %s", value / 1e9, unit ? unit : "");
  if (value >= 1e6)
    return g_strdup_printf ("%.4g M %s", value / 1e6, unit ? unit : "");
  return g_strdup_printf ("%.4g %s", value, unit ? unit : "");
}

char *
hp_compare_format_change (double change)
{
  if (!isfinite (change))
    return g_strdup ("—");
  return g_strdup_printf ("%+.1f %%", change);
}

char *
hp_compare_format_name (const char *name,
                        const char *module)
{
  g_autofree char *text = NULL;

  /* "[truncated]" has no module: no empty "[]" after it */
  if (module == NULL || module[0] == '\0')
    return hp_text_escape (name);
  text = g_strdup_printf ("%s  [%s]", name, module);
  return hp_text_escape (text);
}

gboolean
hp_compare_stat_is_flagged (const HpCompareStat *stat)
{
  return stat->verdict == HP_VERDICT_SLOWER || stat->verdict == HP_VERDICT_FASTER;
}

const char *
hp_compare_verdict_class (const HpCompareStat *stat)
{
  if (stat->verdict == HP_VERDICT_SLOWER)
    return "hp-compare-slower";
  if (stat->verdict == HP_VERDICT_FASTER)
    return "hp-compare-faster";
  return NULL;
}

/* Colours @label by @stat's verdict (NULL: none), replacing any colour
 * it had (labels are reused). */
void
hp_compare_label_set_verdict_class (GtkWidget           *label,
                                    const HpCompareStat *stat)
{
  gtk_widget_remove_css_class (label, "hp-compare-slower");
  gtk_widget_remove_css_class (label, "hp-compare-faster");
  if (stat != NULL && hp_compare_verdict_class (stat) != NULL)
    gtk_widget_add_css_class (label, hp_compare_verdict_class (stat));
}

const char *
hp_compare_verdict_label (HpVerdict verdict)
{
  switch (verdict)
    {
    case HP_VERDICT_SLOWER: return _("slower");
    case HP_VERDICT_FASTER: return _("faster");
    case HP_VERDICT_UNCHANGED: return _("unchanged");
    /* Translators: a verdict: the change, whatever it is, is under the floor */
    case HP_VERDICT_NEGLIGIBLE: return _("negligible");
    case HP_VERDICT_UNRESOLVED:
    default: return _("unresolved");
    }
}
