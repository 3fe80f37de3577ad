/* hp-process-picker.h - the list of running processes to record
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ui/hp-process-item.h"

G_BEGIN_DECLS

#define HP_TYPE_PROCESS_PICKER (hp_process_picker_get_type ())
G_DECLARE_FINAL_TYPE (HpProcessPicker, hp_process_picker, HP, PROCESS_PICKER, GtkWidget)

/* Reads the list of processes again, in a worker. */
void           hp_process_picker_reload          (HpProcessPicker *self);
/* Reads the list unless it was read already. */
void           hp_process_picker_ensure_listed   (HpProcessPicker *self);
/* The process chosen, or NULL. */
HpProcessItem *hp_process_picker_get_selected    (HpProcessPicker *self);
/* Shows @message (NULL hides it) under the list, and moves the focus to
 * the list when there is one. */
void           hp_process_picker_show_error      (HpProcessPicker *self,
                                                  const char      *message);
void           hp_process_picker_focus_search    (HpProcessPicker *self);

/* For tests */
GtkEditable   *hp_process_picker_get_search      (HpProcessPicker *self);
gboolean       hp_process_picker_is_listing      (HpProcessPicker *self);
guint          hp_process_picker_get_n_processes (HpProcessPicker *self);
gboolean       hp_process_picker_select_process  (HpProcessPicker *self,
                                                  GPid             pid);

G_END_DECLS
