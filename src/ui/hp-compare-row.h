/* hp-compare-row.h - a row of the differential call tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "analysis/hp-compare.h"

G_BEGIN_DECLS

#define HP_TYPE_COMPARE_ROW (hp_compare_row_get_type ())
G_DECLARE_FINAL_TYPE (HpCompareRow, hp_compare_row, HP, COMPARE_ROW, GObject)

/* A shared, reference-counted comparison: rows keep it alive. */
typedef struct _HpCompareRef HpCompareRef;

HpCompareRef        *hp_compare_ref_new          (HpComparison *comparison);
/* A comparison that @owner's comparison owns (its bottom-up tree). */
HpCompareRef        *hp_compare_ref_new_view     (HpCompareRef *owner,
                                                  HpComparison *view);
HpCompareRef        *hp_compare_ref_acquire      (HpCompareRef *ref);
void                 hp_compare_ref_release      (HpCompareRef *ref);
HpComparison        *hp_compare_ref_get          (HpCompareRef *ref);

/* The rows of the children of path @parent (-1: the roots), by cost. */
GListModel          *hp_compare_row_list_children (HpCompareRef *ref,
                                                   gint          parent);

gint                 hp_compare_row_get_index    (HpCompareRow *self);
HpComparison        *hp_compare_row_get_comparison (HpCompareRow *self);
const HpComparePath *hp_compare_row_get_path     (HpCompareRow *self);
const HpCompareStat *hp_compare_row_get_stat     (HpCompareRow *self);
GListModel          *hp_compare_row_get_children (HpCompareRow *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpCompareRef, hp_compare_ref_release)

G_END_DECLS
