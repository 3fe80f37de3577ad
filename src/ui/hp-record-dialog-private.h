/* hp-record-dialog-private.h - what display tests look at in the record dialog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ui/hp-log-window.h"
#include "ui/hp-record-dialog.h"

G_BEGIN_DECLS

typedef struct {
  guint   n_updates;     /* progress shown while recording */
  gint64  max_gap_us;    /* longest time between two of them */
  guint64 samples;       /* as last shown */
  guint64 lost;
} HpRecordDialogStats;

/* "setup", "preparing", "recording", "done" or "failed" */
const char  *hp_record_dialog_get_state        (HpRecordDialog *self);
GtkEditable *hp_record_dialog_get_command_entry (HpRecordDialog *self);
GtkEditable *hp_record_dialog_get_directory_entry (HpRecordDialog *self);
GtkEditable *hp_record_dialog_get_process_search (HpRecordDialog *self);
/* TRUE while the process list is read */
gboolean     hp_record_dialog_is_listing       (HpRecordDialog *self);
/* Selects the process @pid in the (filtered) list; FALSE when not shown. */
gboolean     hp_record_dialog_select_process   (HpRecordDialog *self,
                                                GPid            pid);
guint        hp_record_dialog_get_n_processes  (HpRecordDialog *self);
/* The inline error of the setup page, or the message of the result page */
const char  *hp_record_dialog_get_message      (HpRecordDialog *self);
const char  *hp_record_dialog_get_title_text   (HpRecordDialog *self);
/* The end of the program's output shown with a failure, or NULL */
const char  *hp_record_dialog_get_output       (HpRecordDialog *self);
/* The capture written (done, or failed with a capture kept), else NULL */
const char  *hp_record_dialog_get_capture_path (HpRecordDialog *self);
const char  *hp_record_dialog_get_log_path     (HpRecordDialog *self);
HpLogWindow *hp_record_dialog_get_log_window   (HpRecordDialog *self);
void         hp_record_dialog_get_stats        (HpRecordDialog      *self,
                                                HpRecordDialogStats *stats);

G_END_DECLS
