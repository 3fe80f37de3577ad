/* hp-record-dialog-private.h - the record dialog's struct, shared by its files, and what tests look at
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "record/hp-record-plan.h"
#include "ui/hp-log-window.h"
#include "ui/hp-process-picker.h"
#include "ui/hp-event-chooser.h"
#include "ui/hp-record-dialog.h"

G_BEGIN_DECLS

typedef struct {
  guint   n_updates;     /* progress shown while recording */
  gint64  max_gap_us;    /* longest time between two of them */
  guint64 samples;       /* as last shown */
  guint64 lost;
} HpRecordDialogStats;

/* The dialog spans hp-record-dialog.c (the type, setup and recording) and
 * hp-record-dialog-outcome.c (the result page). */

typedef enum {
  HP_RECORD_DIALOG_SETUP,
  HP_RECORD_DIALOG_PREPARING,
  HP_RECORD_DIALOG_RECORDING,
  HP_RECORD_DIALOG_DONE,
  HP_RECORD_DIALOG_FAILED,
} HpRecordDialogState;

struct _HpRecordDialog {
  GtkWindow             parent_instance;

  GtkWidget            *cancel_button;
  GtkWidget            *again_button;
  GtkWidget            *start_button;
  GtkWidget            *stop_button;
  GtkWidget            *close_button;
  GtkStack             *state_stack;
  GtkStack             *target_stack;
  GtkEntry             *command_entry;
  GtkLabel             *command_error;
  GtkEntry             *directory_entry;
  GtkLabel             *directory_error;
  HpProcessPicker      *process_picker;
  GtkAdjustment        *frequency_adjustment;
  GtkAdjustment        *stack_size_adjustment;
  GtkSpinButton        *stack_size_spin;
  GtkWidget            *stack_size_label;
  GtkCheckButton       *duration_check;
  GtkSpinButton        *duration_spin;
  GtkLabel             *folder_label;
  GtkLabel             *setup_error;
  GtkMenuButton        *events_button;
  HpEventChooser       *event_chooser;
  GtkLabel             *recording_title;
  GtkLabel             *recording_command;
  GtkLabel             *elapsed_label;
  GtkLabel             *samples_label;
  GtkLabel             *lost_label;
  GtkLabel             *lock_label;
  GtkLabel             *recording_hint;
  GtkWidget            *recording_log_button;
  GtkImage             *result_icon;
  GtkLabel             *result_title;
  GtkLabel             *result_message;
  GtkLabel             *result_note;
  GtkWidget            *result_output_frame;
  GtkLabel             *result_output;
  GtkWidget            *result_log_button;
  GtkWidget            *result_open_button;

  GSettings            *settings;
  char                 *target;        /* "launch" or "attach" */
  char                 *call_graph;    /* "dwarf" or "fp" */
  char                 *folder;        /* "" for the default */

  HpRecordDialogState   state;
  gboolean              disposed;
  GtkWindow            *parent;        /* weak */
  GApplication         *app;           /* held while recording */

  GCancellable         *prepare_cancellable;
  GTask                *run_task;
  HpRecordJob          *job;           /* the run task's data */
  guint                 progress_source;
  HpRecordDialogStats   stats;
  gint64                last_update_us;
  gboolean              stopped;       /* by Stop, or by closing the dialog */
  gboolean              close_when_done;

  /* of the recording shown */
  char                 *command_text;
  char                 *program_name;
  gboolean              spawned;
  double                duration;      /* 0: no time limit */
  gboolean              setting_duration;
  char                 *capture_path;
  char                 *log_path;
  char                 *message;
  gboolean              events_error;  /* message is about the events chosen */
  gboolean              capture_kept;

  HpLogWindow          *log_window;    /* weak */
};

void         hp_record_dialog_set_state        (HpRecordDialog      *self,
                                                HpRecordDialogState  state);
/* "1 min 30 s" */
char        *hp_record_dialog_format_seconds   (double               seconds);
/* Puts @text in @label with the paths under the home folder in it
 * shortened to ~/… (hp_record_display_paths_in()), and the text as it
 * is in the label's tooltip when that changed it. */
void         hp_record_dialog_show_text        (GtkLabel            *label,
                                                const char          *text);

/* hp-record-dialog-outcome.c: shows how the recording went on the result
 * page, and opens the capture when it was saved. */
void         hp_record_dialog_show_outcome     (HpRecordDialog      *self,
                                                HpRecordOutcome     *outcome);
void         hp_record_dialog_open_capture     (HpRecordDialog      *self);

/* For tests */

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
/* The choice of events, off-CPU time and the whole system */
HpEventChooser *hp_record_dialog_get_event_chooser (HpRecordDialog *self);
const char  *hp_record_dialog_get_title_text   (HpRecordDialog *self);
/* What the recording page says about a write lock it waits for, or NULL */
const char  *hp_record_dialog_get_lock_text    (HpRecordDialog *self);
/* The end of the program's output shown with a failure, or NULL */
const char  *hp_record_dialog_get_output       (HpRecordDialog *self);
/* The capture written (done, or failed with a capture kept), else NULL */
const char  *hp_record_dialog_get_capture_path (HpRecordDialog *self);
const char  *hp_record_dialog_get_log_path     (HpRecordDialog *self);
HpLogWindow *hp_record_dialog_get_log_window   (HpRecordDialog *self);
void         hp_record_dialog_get_stats        (HpRecordDialog      *self,
                                                HpRecordDialogStats *stats);

G_END_DECLS
