/* hp-compare-details.h - callers, callees and source lines of one function, both sides
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "analysis/hp-compare.h"

G_BEGIN_DECLS

#define HP_TYPE_COMPARE_DETAILS (hp_compare_details_get_type ())
G_DECLARE_FINAL_TYPE (HpCompareDetails, hp_compare_details, HP, COMPARE_DETAILS, GtkBox)

GtkWidget  *hp_compare_details_new          (void);
void        hp_compare_details_set_function (HpCompareDetails *self,
                                             HpComparison     *comparison,
                                             gint              function);
void        hp_compare_details_show_page    (HpCompareDetails *self,
                                             const char       *name);

/* for tests: the rows shown, one "NAME\tBASE\tNEW\tCHANGE\tVERDICT" line each */
char       *hp_compare_details_describe     (HpCompareDetails *self,
                                             const char       *page);
gboolean    hp_compare_details_is_reading   (HpCompareDetails *self);

G_END_DECLS
