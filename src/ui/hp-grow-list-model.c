/* hp-grow-list-model.c - the first rows of a list model, a limit that grows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * What GtkSliceListModel with offset 0 does, except for how it reports a
 * change of the model under it. GtkSliceListModel (4.8) reports any
 * change that adds or removes rows as a change of every row from there to
 * the end of the slice; with the call tree's whole list passed through,
 * expanding a node then reads to the list view as "every row below was
 * replaced", and it rebinds all of the ~200 rows it has widgets for:
 * 160-280 ms for a search that reveals eight matches, on the 1M-sample
 * benchmark. This model passes a change through as it is while it shows
 * all rows, and clips it to the limit otherwise (rows pushed past the
 * limit leave, rows pulled under it come in).
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include "ui/hp-grow-list-model.h"

struct _HpGrowListModel {
  GObject     parent_instance;
  GListModel *model;
  guint       limit;
  guint       n_items;   /* MIN (items of model, limit) */
};

static GType
hp_grow_list_model_get_item_type (GListModel *list)
{
  HpGrowListModel *self = HP_GROW_LIST_MODEL (list);

  return g_list_model_get_item_type (self->model);
}

static guint
hp_grow_list_model_get_n_items (GListModel *list)
{
  return HP_GROW_LIST_MODEL (list)->n_items;
}

static gpointer
hp_grow_list_model_get_item (GListModel *list,
                             guint       position)
{
  HpGrowListModel *self = HP_GROW_LIST_MODEL (list);

  if (position >= self->n_items)
    return NULL;
  return g_list_model_get_item (self->model, position);
}

static void
hp_grow_list_model_list_init (GListModelInterface *iface)
{
  iface->get_item_type = hp_grow_list_model_get_item_type;
  iface->get_n_items = hp_grow_list_model_get_n_items;
  iface->get_item = hp_grow_list_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (HpGrowListModel, hp_grow_list_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, hp_grow_list_model_list_init))

static void
on_items_changed (GListModel      *model,
                  guint            position,
                  guint            removed,
                  guint            added,
                  HpGrowListModel *self)
{
  guint before = self->n_items;
  guint after = MIN (g_list_model_get_n_items (model), self->limit);

  if (position >= self->limit)
    return;
  if (self->limit == G_MAXUINT)
    {
      self->n_items = after;
      g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
      return;
    }

  {
    /* Clipped: [position, position + removed) of the rows shown became
     * [position, position + added); what followed shifted, so rows fall
     * off the end or come in over it. */
    guint removed_shown = MIN (removed, before - position);
    guint added_shown = MIN (added, after - position);
    guint kept_before = before - position - removed_shown;  /* shifted rows shown before */
    guint kept_after = after - position - added_shown;      /* and after */

    /* (n_items follows each step: a handler may ask for it) */
    self->n_items = position + added_shown + kept_before;
    if (removed_shown > 0 || added_shown > 0)
      g_list_model_items_changed (G_LIST_MODEL (self), position, removed_shown, added_shown);
    self->n_items = after;
    if (kept_before > kept_after)        /* shifted rows fell off the end */
      g_list_model_items_changed (G_LIST_MODEL (self), position + added_shown + kept_after,
                                  kept_before - kept_after, 0);
    else if (kept_after > kept_before)   /* rows from past the limit came in */
      g_list_model_items_changed (G_LIST_MODEL (self), position + added_shown + kept_before,
                                  0, kept_after - kept_before);
  }
}

static void
hp_grow_list_model_dispose (GObject *object)
{
  HpGrowListModel *self = HP_GROW_LIST_MODEL (object);

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, on_items_changed, self);
  g_clear_object (&self->model);

  G_OBJECT_CLASS (hp_grow_list_model_parent_class)->dispose (object);
}

static void
hp_grow_list_model_class_init (HpGrowListModelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = hp_grow_list_model_dispose;
}

static void
hp_grow_list_model_init (HpGrowListModel *self)
{
}

HpGrowListModel *
hp_grow_list_model_new (GListModel *model,
                        guint       limit)
{
  HpGrowListModel *self;

  g_return_val_if_fail (G_IS_LIST_MODEL (model), NULL);

  self = g_object_new (HP_TYPE_GROW_LIST_MODEL, NULL);
  self->model = model;
  self->limit = limit;
  self->n_items = MIN (g_list_model_get_n_items (model), limit);
  g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed), self);
  return self;
}

guint
hp_grow_list_model_get_limit (HpGrowListModel *self)
{
  g_return_val_if_fail (HP_IS_GROW_LIST_MODEL (self), 0);

  return self->limit;
}

void
hp_grow_list_model_set_limit (HpGrowListModel *self,
                              guint            limit)
{
  guint before, after;

  g_return_if_fail (HP_IS_GROW_LIST_MODEL (self));

  before = self->n_items;
  self->limit = limit;
  after = self->n_items = MIN (g_list_model_get_n_items (self->model), limit);
  if (after > before)
    g_list_model_items_changed (G_LIST_MODEL (self), before, 0, after - before);
  else if (after < before)
    g_list_model_items_changed (G_LIST_MODEL (self), after, before - after, 0);
}
