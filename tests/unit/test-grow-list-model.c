/* test-grow-list-model.c - HpGrowListModel reports its changes exactly
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A mirror array replays every items-changed the model emits; after each
 * change of the model under it (a GListStore of numbered objects) or of
 * its limit, the mirror must hold exactly the model's items, the model
 * the first MIN (n, limit) items of the store, and n-items must agree
 * with the mirror at every emission. Random changes, fixed seeds.
 */

#include "config.h"

#include "ui/hp-grow-list-model.h"

typedef struct {
  GPtrArray  *mirror;    /* the items, as the emissions say */
  GListModel *model;
  guint       emissions;
  guint       largest;   /* most rows one emission said changed */
} Mirror;

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Mirror     *m)
{
  g_assert_cmpuint (position + removed, <=, m->mirror->len);
  g_ptr_array_remove_range (m->mirror, position, removed);
  for (guint i = 0; i < added; i++)
    g_ptr_array_insert (m->mirror, position + i, g_list_model_get_item (model, position + i));
  g_assert_cmpuint (m->mirror->len, ==, g_list_model_get_n_items (model));
  m->emissions++;
  m->largest = MAX (m->largest, MAX (removed, added));
}

static void
check (Mirror     *m,
       GListStore *store,
       guint       limit)
{
  guint n = MIN (g_list_model_get_n_items (G_LIST_MODEL (store)), limit);

  g_assert_cmpuint (g_list_model_get_n_items (m->model), ==, n);
  g_assert_cmpuint (m->mirror->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) a = g_list_model_get_item (m->model, i);
      g_autoptr(GObject) b = g_list_model_get_item (G_LIST_MODEL (store), i);

      g_assert_true (a == b);
      g_assert_true (g_ptr_array_index (m->mirror, i) == a);
    }
  g_assert_null (g_list_model_get_item (m->model, n));
}

static GObject *
numbered (guint n)
{
  GObject *o = g_object_new (G_TYPE_OBJECT, NULL);

  g_object_set_data (o, "n", GUINT_TO_POINTER (n));
  return o;
}

static void
test_random (void)
{
  for (guint seed = 1; seed <= 20; seed++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
      g_autoptr(GListStore) store = g_list_store_new (G_TYPE_OBJECT);
      g_autoptr(HpGrowListModel) grow = NULL;
      Mirror m = { g_ptr_array_new_with_free_func (g_object_unref) };
      guint limit = g_rand_int_range (rand, 0, 30);
      guint next = 0;

      for (guint i = 0; i < 40; i++)
        g_list_store_append (store, numbered (next++));
      grow = hp_grow_list_model_new (g_object_ref (G_LIST_MODEL (store)), limit);
      m.model = G_LIST_MODEL (grow);
      for (guint i = 0; i < MIN (40, limit); i++)
        g_ptr_array_add (m.mirror, g_list_model_get_item (m.model, i));
      g_signal_connect (grow, "items-changed", G_CALLBACK (on_items_changed), &m);

      for (guint step = 0; step < 300; step++)
        {
          guint n = g_list_model_get_n_items (G_LIST_MODEL (store));
          guint kind = g_rand_int_range (rand, 0, 10);

          if (kind == 0)
            {
              limit = g_rand_boolean (rand) ? G_MAXUINT : (guint) g_rand_int_range (rand, 0, 60);
              hp_grow_list_model_set_limit (grow, limit);
            }
          else
            {
              guint position = g_rand_int_range (rand, 0, n + 1);
              guint removed = g_rand_int_range (rand, 0, MIN (n - position, 8) + 1);
              guint added = g_rand_int_range (rand, 0, 8);
              g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

              if (n > 80)
                added = 0;
              for (guint i = 0; i < added; i++)
                g_ptr_array_add (items, numbered (next++));
              g_list_store_splice (store, position, removed, items->pdata, added);
            }
          check (&m, store, limit);
        }
      g_assert_cmpuint (m.emissions, >, 0);
      g_ptr_array_unref (m.mirror);
    }
}

/* What it is for: with all rows shown, inserting rows reports just them,
 * not every row below (as GtkSliceListModel does). */
static void
test_exact_when_whole (void)
{
  g_autoptr(GListStore) store = g_list_store_new (G_TYPE_OBJECT);
  g_autoptr(HpGrowListModel) grow = NULL;
  Mirror m = { g_ptr_array_new_with_free_func (g_object_unref) };
  g_autoptr(GObject) a = numbered (1000);
  g_autoptr(GObject) b = numbered (1001);
  gpointer two[2] = { a, b };

  for (guint i = 0; i < 1000; i++)
    g_list_store_append (store, numbered (i));
  grow = hp_grow_list_model_new (g_object_ref (G_LIST_MODEL (store)), G_MAXUINT);
  m.model = G_LIST_MODEL (grow);
  for (guint i = 0; i < 1000; i++)
    g_ptr_array_add (m.mirror, g_list_model_get_item (m.model, i));
  g_signal_connect (grow, "items-changed", G_CALLBACK (on_items_changed), &m);

  g_list_store_splice (store, 10, 0, two, 2);
  check (&m, store, G_MAXUINT);
  g_assert_cmpuint (m.emissions, ==, 1);
  g_assert_cmpuint (m.largest, ==, 2);

  /* limited: two rows in, two shifted rows out at the end */
  hp_grow_list_model_set_limit (grow, 50);
  m.largest = 0;
  g_list_store_splice (store, 10, 0, two, 2);
  check (&m, store, 50);
  g_assert_cmpuint (m.largest, ==, 2);
  g_ptr_array_unref (m.mirror);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/grow-list-model/random", test_random);
  g_test_add_func ("/grow-list-model/exact-when-whole", test_exact_when_whole);
  return g_test_run ();
}
