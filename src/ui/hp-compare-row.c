/* hp-compare-row.c - a row of the differential call tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The differential tree is the comparison's merged call tree
 * (hp_comparison_get_path_children()); a row is one of its paths, made
 * when the tree list model asks for it, so that a tree of hundreds of
 * thousands of paths makes rows only for what is expanded. The rows share
 * the comparison through a reference-counted box, so that a row still
 * held by a list item after its window has gone reads valid memory.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include "ui/hp-compare-row.h"

struct _HpCompareRef {
  HpComparison *comparison;
  HpCompareRef *owner;  /* holds the comparison that owns this one, or NULL */
};

static void
compare_ref_clear (gpointer data)
{
  HpCompareRef *ref = data;

  if (ref->owner != NULL)
    g_clear_pointer (&ref->owner, hp_compare_ref_release);
  else
    g_clear_pointer (&ref->comparison, hp_comparison_free);
}

HpCompareRef *
hp_compare_ref_new_view (HpCompareRef *owner,
                         HpComparison *view)
{
  HpCompareRef *ref = g_atomic_rc_box_new0 (HpCompareRef);

  ref->comparison = view;
  ref->owner = hp_compare_ref_acquire (owner);
  return ref;
}

HpCompareRef *
hp_compare_ref_new (HpComparison *comparison)
{
  HpCompareRef *ref = g_atomic_rc_box_new0 (HpCompareRef);

  ref->comparison = comparison;
  return ref;
}

HpCompareRef *
hp_compare_ref_acquire (HpCompareRef *ref)
{
  return g_atomic_rc_box_acquire (ref);
}

void
hp_compare_ref_release (HpCompareRef *ref)
{
  g_atomic_rc_box_release_full (ref, compare_ref_clear);
}

HpComparison *
hp_compare_ref_get (HpCompareRef *ref)
{
  return ref->comparison;
}

struct _HpCompareRow {
  GObject       parent_instance;
  HpCompareRef *ref;
  gint          index;
};

G_DEFINE_FINAL_TYPE (HpCompareRow, hp_compare_row, G_TYPE_OBJECT)

static void
hp_compare_row_finalize (GObject *object)
{
  HpCompareRow *self = HP_COMPARE_ROW (object);

  g_clear_pointer (&self->ref, hp_compare_ref_release);
  G_OBJECT_CLASS (hp_compare_row_parent_class)->finalize (object);
}

static void
hp_compare_row_class_init (HpCompareRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hp_compare_row_finalize;
}

static void
hp_compare_row_init (HpCompareRow *self)
{
}

GListModel *
hp_compare_row_list_children (HpCompareRef *ref,
                              gint          parent)
{
  GListStore *store = g_list_store_new (HP_TYPE_COMPARE_ROW);
  g_autoptr(GArray) children = hp_comparison_get_path_children (ref->comparison, parent);

  for (guint i = 0; i < children->len; i++)
    {
      HpCompareRow *row = g_object_new (HP_TYPE_COMPARE_ROW, NULL);

      row->ref = hp_compare_ref_acquire (ref);
      row->index = g_array_index (children, guint, i);
      g_list_store_append (store, row);
      g_object_unref (row);
    }
  return G_LIST_MODEL (store);
}

gint
hp_compare_row_get_index (HpCompareRow *self)
{
  g_return_val_if_fail (HP_IS_COMPARE_ROW (self), -1);

  return self->index;
}

HpComparison *
hp_compare_row_get_comparison (HpCompareRow *self)
{
  g_return_val_if_fail (HP_IS_COMPARE_ROW (self), NULL);

  return self->ref->comparison;
}

const HpComparePath *
hp_compare_row_get_path (HpCompareRow *self)
{
  g_return_val_if_fail (HP_IS_COMPARE_ROW (self), NULL);

  return hp_comparison_get_path (self->ref->comparison, self->index);
}

const HpCompareStat *
hp_compare_row_get_stat (HpCompareRow *self)
{
  g_return_val_if_fail (HP_IS_COMPARE_ROW (self), NULL);

  return hp_comparison_get_path_stat (self->ref->comparison, self->index);
}

/* NULL for a leaf, as GtkTreeListModel wants. */
GListModel *
hp_compare_row_get_children (HpCompareRow *self)
{
  GListModel *children;

  g_return_val_if_fail (HP_IS_COMPARE_ROW (self), NULL);

  children = hp_compare_row_list_children (self->ref, self->index);
  if (g_list_model_get_n_items (children) == 0)
    g_clear_object (&children);
  return children;
}
