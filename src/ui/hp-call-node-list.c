/* hp-call-node-list.c - the children of a call-tree node as a GListModel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * GtkTreeListModel asks for this list when a row is expanded, and for its
 * items one by one. A row object is made on the first request for its
 * position and kept while the list lives (the tree list model drops the
 * list when the row collapses), so a row keeps its identity for the
 * selection and for the context's notifications.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include "ui/hp-call-node-list.h"
#include "ui/hp-call-row.h"

struct _HpCallNodeList {
  GObject            parent_instance;
  HpCallTreeContext *context;
  const HpCallNode  *parent;
  HpCallRow        **rows;  /* one per child, NULL until asked for */
};

static GType
hp_call_node_list_get_item_type (GListModel *model)
{
  return HP_TYPE_CALL_ROW;
}

static guint
hp_call_node_list_get_n_items (GListModel *model)
{
  HpCallNodeList *self = HP_CALL_NODE_LIST (model);

  return self->parent->children ? self->parent->children->len : 0;
}

static gpointer
hp_call_node_list_get_item (GListModel *model,
                            guint       position)
{
  HpCallNodeList *self = HP_CALL_NODE_LIST (model);

  if (position >= hp_call_node_list_get_n_items (model))
    return NULL;
  if (self->rows[position] == NULL)
    self->rows[position] = hp_call_row_new (self->context,
                                            g_ptr_array_index (self->parent->children, position));
  return g_object_ref (self->rows[position]);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = hp_call_node_list_get_item_type;
  iface->get_n_items = hp_call_node_list_get_n_items;
  iface->get_item = hp_call_node_list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (HpCallNodeList, hp_call_node_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
hp_call_node_list_finalize (GObject *object)
{
  HpCallNodeList *self = HP_CALL_NODE_LIST (object);
  guint n = hp_call_node_list_get_n_items (G_LIST_MODEL (self));

  for (guint i = 0; i < n; i++)
    g_clear_object (&self->rows[i]);
  g_free (self->rows);
  hp_call_tree_context_unref (self->context);

  G_OBJECT_CLASS (hp_call_node_list_parent_class)->finalize (object);
}

static void
hp_call_node_list_class_init (HpCallNodeListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hp_call_node_list_finalize;
}

static void
hp_call_node_list_init (HpCallNodeList *self)
{
}

HpCallNodeList *
hp_call_node_list_new (HpCallTreeContext *context,
                       const HpCallNode  *parent)
{
  HpCallNodeList *self;

  g_return_val_if_fail (context != NULL, NULL);
  g_return_val_if_fail (parent != NULL, NULL);

  if (parent->children == NULL || parent->children->len == 0)
    return NULL;

  self = g_object_new (HP_TYPE_CALL_NODE_LIST, NULL);
  self->context = hp_call_tree_context_ref (context);
  self->parent = parent;
  self->rows = g_new0 (HpCallRow *, parent->children->len);
  return self;
}
