/* hp-compare-format.h - how the compare views write costs, changes and verdicts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "analysis/hp-compare.h"

G_BEGIN_DECLS

char       *hp_compare_format_cost      (double               value,
                                         const char          *unit);
char       *hp_compare_format_change    (double               change);
/* "name  [module]", or the name alone without a module; escaped for a label */
char       *hp_compare_format_name      (const char          *name,
                                         const char          *module);
gboolean    hp_compare_stat_is_flagged  (const HpCompareStat *stat);
const char *hp_compare_verdict_class    (const HpCompareStat *stat);
const char *hp_compare_verdict_label    (HpVerdict            verdict);
void        hp_compare_label_set_verdict_class (GtkWidget    *label,
                                         const HpCompareStat *stat);
void        hp_compare_load_css         (void);

G_END_DECLS
