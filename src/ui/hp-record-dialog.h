/* hp-record-dialog.h - records a program or a process from the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define HP_TYPE_RECORD_DIALOG (hp_record_dialog_get_type ())
G_DECLARE_FINAL_TYPE (HpRecordDialog, hp_record_dialog, HP, RECORD_DIALOG, GtkWindow)

/* A record dialog for @parent: the capture it records opens there when
 * that window is empty, else in a new window. */
HpRecordDialog *hp_record_dialog_new          (GtkWindow      *parent);
/* TRUE from Start until the capture is written */
gboolean        hp_record_dialog_is_recording (HpRecordDialog *self);

G_END_DECLS
