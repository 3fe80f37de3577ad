/* hp-function-list.h - every function of the profile, flat, sortable by self or total
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/hp-loaded-capture.h"

G_BEGIN_DECLS

#define HP_TYPE_FUNCTION_LIST (hp_function_list_get_type ())
G_DECLARE_FINAL_TYPE (HpFunctionList, hp_function_list, HP, FUNCTION_LIST, GtkWidget)

/* Shows the functions of @profile (NULL: none); the rows are made when
 * the list is first shown. Emits "function-activated" (gint64 id). */
void        hp_function_list_set_profile (HpFunctionList  *self,
                                          HpLoadedProfile *profile);
/* The rows in the order shown (HpFunctionRow), for tests */
GListModel *hp_function_list_get_model   (HpFunctionList  *self);
/* Sorts by the Self (or Total) column, descending (or ascending) */
void        hp_function_list_sort_by     (HpFunctionList  *self,
                                          gboolean         by_total,
                                          gboolean         descending);

G_END_DECLS
