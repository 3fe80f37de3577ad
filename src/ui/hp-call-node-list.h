/* hp-call-node-list.h - the children of a call-tree node as a GListModel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "ui/hp-call-tree-context.h"

G_BEGIN_DECLS

#define HP_TYPE_CALL_NODE_LIST (hp_call_node_list_get_type ())
G_DECLARE_FINAL_TYPE (HpCallNodeList, hp_call_node_list, HP, CALL_NODE_LIST, GObject)

/* NULL when @parent has no children (a leaf is not expandable). */
HpCallNodeList *hp_call_node_list_new (HpCallTreeContext *context,
                                       const HpCallNode  *parent);

G_END_DECLS
