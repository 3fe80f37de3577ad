/* hp-function-row.h - a function with a sample count, as a list row
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define HP_TYPE_FUNCTION_ROW (hp_function_row_get_type ())
G_DECLARE_FINAL_TYPE (HpFunctionRow, hp_function_row, HP, FUNCTION_ROW, GObject)

/* @samples as a share of @whole */
HpFunctionRow *hp_function_row_new             (gint64      function_id,
                                                const char *name,
                                                const char *module,
                                                guint64     samples,
                                                guint64     whole,
                                                const char *tooltip);
/* The count is ns, shown as a time ("1.23 s"); set before it is shown */
void           hp_function_row_set_time        (HpFunctionRow *self,
                                                gboolean       is_time);
gint64         hp_function_row_get_function_id (HpFunctionRow *self);
guint64        hp_function_row_get_samples     (HpFunctionRow *self);
const char    *hp_function_row_get_name        (HpFunctionRow *self);
/* The second count of a function list row: its total samples (the
 * properties total, total-percent, total-count and total-fraction) */
void           hp_function_row_set_total       (HpFunctionRow *self,
                                                guint64        total);
guint64        hp_function_row_get_total       (HpFunctionRow *self);

G_END_DECLS
