/* hp-grow-list-model.h - the first rows of a list model, a limit that grows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define HP_TYPE_GROW_LIST_MODEL (hp_grow_list_model_get_type ())
G_DECLARE_FINAL_TYPE (HpGrowListModel, hp_grow_list_model, HP, GROW_LIST_MODEL, GObject)

/* Shows the first @limit items of @model (transfer full); G_MAXUINT: all. */
HpGrowListModel *hp_grow_list_model_new       (GListModel      *model,
                                               guint            limit);
guint            hp_grow_list_model_get_limit (HpGrowListModel *self);
void             hp_grow_list_model_set_limit (HpGrowListModel *self,
                                               guint            limit);

G_END_DECLS
