/* hp-summary-list.c - every summarized call path of the capture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Rebuilt from the store when a summary changes or the profile does: a
 * full rebuild is simpler than patching, but a capture may hold 10 000
 * summaries (each row a search of its path in the tree), so it is done
 * once per main-loop iteration however many changed (Apply of the
 * library's offer, an import), and only while the list is shown: a
 * hidden list catches up when shown, as the other panes do. A path the shown profile does
 * not have (another thread filter) is listed but insensitive. A summary
 * written in another capture says where and when, and its path's share
 * then and now, as the summary pane does.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include <math.h>

#include "analysis/hp-summary-match.h"
#include "document/hp-call-path.h"
#include "document/hp-format.h"
#include "store/hp-store-db.h"
#include "ui/hp-summary-item.h"
#include "ui/hp-summary-list.h"
#include "ui/hp-template.h"

struct _HpSummaryList {
  GtkWidget        parent_instance;

  GtkStack        *stack;
  GtkListView     *list_view;
  GtkLabel        *cut_note;   /* the capture holds more summaries than were read */

  GListStore      *items;
  HpSummaryStore  *store;
  gulong           changed_handler;
  HpLoadedProfile *profile;
  gboolean         stale;       /* items are not the store's and profile's now */
  guint            rebuild_source;
  guint            n_rebuilds;
};

G_DEFINE_FINAL_TYPE (HpSummaryList, hp_summary_list, GTK_TYPE_WIDGET)

enum {
  PATH_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void ensure_rebuilt (HpSummaryList *self);

static void
rebuild (HpSummaryList *self)
{
  g_autoptr(GPtrArray) keys = NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  g_clear_handle_id (&self->rebuild_source, g_source_remove);
  self->stale = FALSE;
  self->n_rebuilds++;

  if (self->store != NULL)
    {
      g_autofree char *here = g_path_get_basename (hp_summary_store_get_path (self->store));

      keys = hp_summary_store_list_keys (self->store);
      for (guint i = 0; i < keys->len; i++)
        {
          const char *key = g_ptr_array_index (keys, i);
          const HpCallNode *node = self->profile != NULL ? hp_call_path_find (self->profile->profile, key) : NULL;
          /* a summary from another capture says how old it is, as in the pane */
          g_autofree char *origin = hp_format_summary_origin (hp_summary_store_get_row (self->store, key), here,
                                                              node != NULL ? hp_summary_share (self->profile->profile, node) : NAN);

          g_ptr_array_add (items, hp_summary_item_new (key, hp_summary_store_get (self->store, key), origin,
                                                       node != NULL));
        }
    }
  g_list_store_splice (self->items, 0, g_list_model_get_n_items (G_LIST_MODEL (self->items)),
                       items->pdata, items->len);
  gtk_stack_set_visible_child_name (self->stack, items->len > 0 ? "list" : "empty");
  if (self->profile != NULL && self->profile->capture->summaries_cut)
    {
      g_autofree char *text =
        g_strdup_printf (ngettext ("This capture holds more summaries than Hotpath reads: the first %d "
                                   "(by call path) are listed and shown, the others left out.",
                                   "This capture holds more summaries than Hotpath reads: the first %d "
                                   "(by call path) are listed and shown, the others left out.",
                                   HP_STORE_MAX_SUMMARY_ROWS), HP_STORE_MAX_SUMMARY_ROWS);

      gtk_label_set_text (self->cut_note, text);
      gtk_widget_set_visible (GTK_WIDGET (self->cut_note), TRUE);
    }
  else
    gtk_widget_set_visible (GTK_WIDGET (self->cut_note), FALSE);
}

const char *
hp_summary_list_get_cut_note (HpSummaryList *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_LIST (self), NULL);

  ensure_rebuilt (self);
  return gtk_widget_get_visible (GTK_WIDGET (self->cut_note)) ? gtk_label_get_text (self->cut_note) : NULL;
}

static gboolean
rebuild_cb (gpointer user_data)
{
  HpSummaryList *self = user_data;

  self->rebuild_source = 0;
  if (self->stale)
    rebuild (self);
  return G_SOURCE_REMOVE;
}

/* The items are out of date: rebuilt soon if shown, else when shown. */
static void
queue_rebuild (HpSummaryList *self)
{
  self->stale = TRUE;
  if (self->rebuild_source == 0 && gtk_widget_get_mapped (GTK_WIDGET (self)))
    self->rebuild_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 20, rebuild_cb, self, NULL);
}

static void
ensure_rebuilt (HpSummaryList *self)
{
  if (self->stale)
    rebuild (self);
}

static void
on_changed (HpSummaryStore *store,
            const char     *key,
            HpSummaryList  *self)
{
  queue_rebuild (self);
}

static void
hp_summary_list_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (hp_summary_list_parent_class)->map (widget);
  ensure_rebuilt (HP_SUMMARY_LIST (widget));
}

guint
hp_summary_list_get_n_rebuilds (HpSummaryList *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_LIST (self), 0);

  return self->n_rebuilds;
}

void
hp_summary_list_set_store (HpSummaryList   *self,
                           HpSummaryStore  *store,
                           HpLoadedProfile *profile)
{
  g_return_if_fail (HP_IS_SUMMARY_LIST (self));

  if (self->store != store)
    {
      if (self->store != NULL)
        g_clear_signal_handler (&self->changed_handler, self->store);
      g_set_object (&self->store, store);
      if (store != NULL)
        self->changed_handler = g_signal_connect (store, "changed", G_CALLBACK (on_changed), self);
    }
  g_clear_pointer (&self->profile, hp_loaded_profile_unref);
  if (profile != NULL)
    self->profile = hp_loaded_profile_ref (profile);
  queue_rebuild (self);
}

GListModel *
hp_summary_list_get_model (HpSummaryList *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_LIST (self), NULL);

  ensure_rebuilt (self);
  return G_LIST_MODEL (self->items);
}

static void
on_activate (GtkListView   *view,
             guint          position,
             HpSummaryList *self)
{
  g_autoptr(HpSummaryItem) item = g_list_model_get_item (G_LIST_MODEL (self->items), position);

  if (item != NULL && hp_summary_item_get_in_profile (item))
    g_signal_emit (self, signals[PATH_ACTIVATED], 0, hp_summary_item_get_key (item));
}

static void
hp_summary_list_dispose (GObject *object)
{
  HpSummaryList *self = HP_SUMMARY_LIST (object);

  if (self->store != NULL)
    g_clear_signal_handler (&self->changed_handler, self->store);
  g_clear_object (&self->store);
  g_clear_pointer (&self->profile, hp_loaded_profile_unref);
  g_clear_handle_id (&self->rebuild_source, g_source_remove);
  hp_template_dispose (GTK_WIDGET (self), HP_TYPE_SUMMARY_LIST);

  G_OBJECT_CLASS (hp_summary_list_parent_class)->dispose (object);
}

static void
hp_summary_list_finalize (GObject *object)
{
  g_clear_object (&HP_SUMMARY_LIST (object)->items);

  G_OBJECT_CLASS (hp_summary_list_parent_class)->finalize (object);
}

static void
hp_summary_list_class_init (HpSummaryListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hp_summary_list_dispose;
  object_class->finalize = hp_summary_list_finalize;
  widget_class->map = hp_summary_list_map;

  /* (key) select this path in the call tree */
  signals[PATH_ACTIVATED] =
    g_signal_new ("path-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  g_type_ensure (HP_TYPE_SUMMARY_ITEM);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-summary-list.ui");
  gtk_widget_class_bind_template_child (widget_class, HpSummaryList, stack);
  gtk_widget_class_bind_template_child (widget_class, HpSummaryList, list_view);
  gtk_widget_class_bind_template_child (widget_class, HpSummaryList, cut_note);
  gtk_widget_class_bind_template_callback (widget_class, on_activate);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
hp_summary_list_init (HpSummaryList *self)
{
  g_autoptr(GtkSingleSelection) selection = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->items = g_list_store_new (HP_TYPE_SUMMARY_ITEM);
  selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->items)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (selection));
  gtk_list_view_set_single_click_activate (self->list_view, TRUE);
}
