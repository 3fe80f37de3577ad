/* hp-process-item.h - a running process, as the record dialog lists it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define HP_TYPE_PROCESS_ITEM (hp_process_item_get_type ())
G_DECLARE_FINAL_TYPE (HpProcessItem, hp_process_item, HP, PROCESS_ITEM, GObject)

GPid        hp_process_item_get_pid          (HpProcessItem *self);
const char *hp_process_item_get_name         (HpProcessItem *self);
const char *hp_process_item_get_user         (HpProcessItem *self);
const char *hp_process_item_get_command_line (HpProcessItem *self);

/* Lists the processes of /proc in a worker: a GListStore of HpProcessItem
 * sorted by name, without kernel threads and without this process. */
void        hp_process_item_list_async       (GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
GListModel *hp_process_item_list_finish      (GAsyncResult        *result,
                                              GError             **error);

G_END_DECLS
